# mk/bench.mk - `make bench`: each lab's student code, reference solution, kit
# baseline and NVIDIA library peer on the same inputs (included by the Makefile;
# docs/anatomy.md, "The bench", says how a bench program works).
#
#   make bench               every lab that has a bench program
#   make bench LAB=lab06     one lab
#   make bench-build         build them all (part of make build-cu, so CI compiles them)
#
# A lab has a bench when labs/<lab>/bench.cu exists.  The student's file
# (labs/<lab>/student/), the reference (labs/<lab>/solution/, absent from a
# student copy of the kit) and a stretch exercise's solution
# (labs/<lab>/solution/stretch/) are each built as a shared object with the
# kit's flags and loaded by the bench program, as both define the same
# function names.  The libraries are linked here only: never into graded code.
#
# Every lab is benched from its descriptor: each shared object also holds
# the lab's harness (compiled once, position-independent; the stretch's
# again where BENCH_STRETCH_CALLS_<lab> is set), labs/<lab>/bench.cu is the
# library peer's (library.so: its calls and its cases, kit/bench.cuh), and
# the program is common/src/bench_main.cu (beside the runner's and the
# checker's main) linked with the lab's kit objects,
# its checker and the lab driver, exported to the shared objects
# (--export-dynamic).

BENCH_LAB_SRC := $(sort $(wildcard labs/*/bench.cu))
BENCH_LIB_LABS := $(patsubst labs/%/bench.cu,%,$(BENCH_LAB_SRC))
BENCH_LIBS_lab03-dot := -lcublas
BENCH_LIBS_lab08-spmv := -lcusparse
BENCH_LIBS_lab09-lu := -lcusolver
BENCH_LIBS_lab10-matmul := -lcublas
BENCH_LIBS_lab12-toeplitz-matvec := -lcublas
# The stretch's own function in place of the interface's, where the stretch
# solution keeps the interface's for grading (lab08: spmv_vector is the warp
# per row the tests grade, spmv_hybrid the stretch): its shared object's
# harness is compiled with these flags.
BENCH_STRETCH_CALLS_lab08-spmv := -Dspmv_vector=spmv_hybrid
BENCH_SO_FLAGS = $(KIT_NVCCFLAGS) $(NVCCFLAGS) -Xcompiler -fPIC -shared -cudart shared -Xlinker -Bsymbolic
BENCH_LINK = -cudart shared -ldl -Xlinker -rpath=$(CUDA_LIBDIR) -L$(CUDA_LIBDIR) $(OPENMP_LINK)

# $(call BENCH_SO,LAB,NAME,FOLDER): NAME.so from FOLDER's .cu files, where it
# has any, with the harness (BENCH_WITH_LAB, or BENCH_WITH_LAB_NAME)
define BENCH_SO
ifneq ($$(wildcard $(3)/*.cu),)
$(BUILD)/bench/$(1)/$(2).so: $$(wildcard $(3)/*.cu labs/$(1)/student/*.h) $$(or $$(BENCH_WITH_$(1)_$(2)),$$(BENCH_WITH_$(1))) $(DEPS_OK) $(FLAGS_STAMP)
	@mkdir -p $$(@D)
	$(Q)$$(call say,NVCC,$$@)$(NVCC) $$(BENCH_SO_FLAGS) -Ilabs/$(1)/student -o $$@ $$(wildcard $(3)/*.cu) $$(or $$(BENCH_WITH_$(1)_$(2)),$$(BENCH_WITH_$(1)))
BENCH_SO_$(1) += $(BUILD)/bench/$(1)/$(2).so
endif
endef

# Each lab: the harness, position-independent, in every shared
# object; the library peer's; the program, with the lab driver and all of
# common/ but the runner's main.
BENCH_DRIVER_OBJS := $(call obj,$(filter-out common/src/runner_main.cu,$(COMMON_CU)))
define BENCH_RULES
BENCH_WITH_$(1) := $(BUILD)/bench/$(1)/harness.o
BENCH_WITH_$(1)_stretch := $(if $(BENCH_STRETCH_CALLS_$(1)),$(BUILD)/bench/$(1)/harness-stretch.o)
$(BUILD)/bench/$(1)/harness-stretch.o: BENCH_HARNESS_FLAGS := $(BENCH_STRETCH_CALLS_$(1))
BENCH_SO_$(1) := $(BUILD)/bench/$(1)/library.so
$$(eval $$(call BENCH_SO,$(1),student,labs/$(1)/student))
$$(eval $$(call BENCH_SO,$(1),reference,labs/$(1)/solution))
$$(eval $$(call BENCH_SO,$(1),stretch,labs/$(1)/solution/stretch))
$(BUILD)/bench/$(1)/harness.o $$(BENCH_WITH_$(1)_stretch): labs/$(1)/kit/harness.cu $(DEPS_OK) $(FLAGS_STAMP) | $(BUILD)/labs/$(1)/provided.ok
	@mkdir -p $$(@D)
	$(Q)$$(call say,NVCC,$$<)$(NVCC) $(KIT_NVCCFLAGS) $(NVCCFLAGS) -Xcompiler -fPIC -Ilabs/$(1)/student -Ilabs/$(1)/kit $$(BENCH_HARNESS_FLAGS) -MMD -MP -c $$< -o $$@
$(BUILD)/bench/$(1)/library.so: labs/$(1)/bench.cu common/include/kit/bench.cuh $(BUILD)/bench/$(1)/harness.o $(DEPS_OK) $(FLAGS_STAMP)
	@mkdir -p $$(@D)
	$(Q)$$(call say,NVCC,$$@)$(NVCC) $$(BENCH_SO_FLAGS) -Ilabs/$(1)/student -Ilabs/$(1)/kit -o $$@ $$< $(BUILD)/bench/$(1)/harness.o $$(BENCH_LIBS_$(1))
$(BUILD)/bench/$(1)/bench_main.o: $(COMMON_BENCH_CU) common/include/kit/bench.cuh $(DEPS_OK) $(FLAGS_STAMP)
	@mkdir -p $$(@D)
	$(Q)$$(call say,NVCC,$$<)$(NVCC) $(KIT_NVCCFLAGS) $(NVCCFLAGS) -DBENCH_LAB='"$(1)"' -MMD -MP -c $$< -o $$@
$(BUILD)/bench/$(1)/bench: $(BUILD)/bench/$(1)/bench_main.o $$(filter-out %/harness.o,$$($(1)_RUNNER_OBJ)) $$($(1)_CHECK_OBJ) $(BENCH_DRIVER_OBJS) $(LIBKIT)
	@mkdir -p $$(@D)
	$(Q)$$(call say,LD,$$@)$(NVCC) $(ARCH_FLAGS) -o $$@ $$^ $(BENCH_LINK) -Xlinker --export-dynamic $(CUPTI_LIBS) $(CJSON_LIBS) -lm
BENCH_BINS += $(BUILD)/bench/$(1)/bench $$(BENCH_SO_$(1))
endef
$(foreach l,$(BENCH_LIB_LABS),$(eval $(call BENCH_RULES,$(l))))

# LAB=lab06 or LAB=lab06-scan; no LAB: all of them.
BENCH_PICK = $(if $(LAB),$(filter $(LAB) $(LAB)-%,$(BENCH_LIB_LABS)),$(BENCH_LIB_LABS))

bench-build: $(BENCH_BINS) ## build the bench programs (make bench)

# Exit status: 0 every result right, 1 a wrong result (flagged in the table),
# 2 no such lab, 3 no GPU (the kit's one line, kit/no_gpu.cuh: said once, not per lab).
bench: $(KIT_DEVICES) $(foreach l,$(BENCH_PICK),$(BUILD)/bench/$(l)/bench $(BENCH_SO_$(l))) ## each lab against NVIDIA's libraries: make bench [LAB=lab06] (student, reference, baseline, library, copy roof)
	@$(if $(BENCH_PICK),,echo "make bench LAB=$(LAB): no bench for it; labs with one: $(BENCH_LIB_LABS)"; exit 2)
	@$(KIT_DEVICES) --quiet || { echo "make bench: no GPU ($$($(KIT_DEVICES) --why)): nothing measured"; exit 3; }
	@rc=0; for l in $(BENCH_PICK); do \
	  $(BUILD)/bench/$$l/bench --student $(BUILD)/bench/$$l/student.so \
	    $$([ -d labs/$$l/solution ] && echo --reference $(BUILD)/bench/$$l/reference.so) \
	    $$([ -d labs/$$l/solution/stretch ] && echo --stretch $(BUILD)/bench/$$l/stretch.so) \
	    $$([ -f $(BUILD)/bench/$$l/library.so ] && echo --library $(BUILD)/bench/$$l/library.so); r=$$?; \
	  [ $$r = 3 ] && exit 3; [ $$r = 0 ] || rc=1; done; exit $$rc

build-cu: bench-build
.PHONY: bench bench-build
