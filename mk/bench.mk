# mk/bench.mk - `make bench`: each lab's student code, reference solution, kit
# baseline and NVIDIA library peer on the same inputs (included by the Makefile;
# tools/bench/lib/bench.cuh says how a bench program works).
#
#   make bench               every lab that has a bench program
#   make bench LAB=lab06     one lab
#   make bench-build         build them all (part of make build-cu, so CI compiles them)
#
# A lab has a bench when tools/bench/lib/<lab>.cu exists.  The student's file
# (labs/<lab>/), the reference (solutions/<lab>/, absent from a student copy
# of the kit) and a stretch exercise's solution (solutions/<lab>/stretch/) are
# each built as a shared object with the kit's flags and loaded
# by the bench program, as both define the same function names.  The libraries
# are linked here only: never into graded code.

BENCH_DIR := tools/bench/lib
BENCH_LIB_LABS := $(sort $(basename $(notdir $(wildcard $(BENCH_DIR)/lab*.cu))))
BENCH_LIBS_lab03-dot := -lcublas
BENCH_LIBS_lab08-spmv := -lcusparse
BENCH_LIBS_lab09-lu := -lcusolver
BENCH_LIBS_lab10-matmul := -lcublas
BENCH_LIBS_lab12-toeplitz-matvec := -lcublas
BENCH_SO_FLAGS = $(KIT_NVCCFLAGS) $(NVCCFLAGS) -Xcompiler -fPIC -shared -cudart shared -Xlinker -Bsymbolic
BENCH_LINK = -cudart shared -ldl -Xlinker -rpath=$(CUDA_LIBDIR) -L$(CUDA_LIBDIR) $(OPENMP_LINK)
BENCH_DRIVER_OBJ := $(call obj,$(BENCH_DIR)/bench.cu)
$(BENCH_DRIVER_OBJ): $(BENCH_DIR)/bench.cuh

define BENCH_RULES
$(BUILD)/bench/$(1)/student.so: $$(wildcard labs/$(1)/*.cu labs/$(1)/*.h) $(DEPS_OK) $(FLAGS_STAMP)
	@mkdir -p $$(@D)
	$(Q)$$(call say,NVCC,$$@)$(NVCC) $$(BENCH_SO_FLAGS) -Ilabs/$(1) -o $$@ $$(wildcard labs/$(1)/*.cu)
BENCH_SO_$(1) := $(BUILD)/bench/$(1)/student.so
ifneq ($$(wildcard solutions/$(1)/*.cu),)
$(BUILD)/bench/$(1)/reference.so: $$(wildcard solutions/$(1)/*.cu labs/$(1)/*.h) $(DEPS_OK) $(FLAGS_STAMP)
	@mkdir -p $$(@D)
	$(Q)$$(call say,NVCC,$$@)$(NVCC) $$(BENCH_SO_FLAGS) -Ilabs/$(1) -o $$@ $$(wildcard solutions/$(1)/*.cu)
BENCH_SO_$(1) += $(BUILD)/bench/$(1)/reference.so
endif
ifneq ($$(wildcard solutions/$(1)/stretch/*.cu),)
$(BUILD)/bench/$(1)/stretch.so: $$(wildcard solutions/$(1)/stretch/*.cu labs/$(1)/*.h) $(DEPS_OK) $(FLAGS_STAMP)
	@mkdir -p $$(@D)
	$(Q)$$(call say,NVCC,$$@)$(NVCC) $$(BENCH_SO_FLAGS) -Ilabs/$(1) -o $$@ $$(wildcard solutions/$(1)/stretch/*.cu)
BENCH_SO_$(1) += $(BUILD)/bench/$(1)/stretch.so
endif
$(call obj,$(BENCH_DIR)/$(1).cu): KIT_NVCCFLAGS += -Ilabs/$(1) -Igrader/labs/$(1) -I$(BENCH_DIR)
$(call obj,$(BENCH_DIR)/$(1).cu): $(BENCH_DIR)/bench.cuh
$(BUILD)/bench/$(1)/bench: $(call obj,$(BENCH_DIR)/$(1).cu) $(BENCH_DRIVER_OBJ) $(call obj,grader/labs/$(1)/baseline.cu) $(LIBKIT)
	@mkdir -p $$(@D)
	$(Q)$$(call say,LD,$$@)$(NVCC) $(ARCH_FLAGS) -o $$@ $$^ $(BENCH_LINK) $$(BENCH_LIBS_$(1))
BENCH_BINS += $(BUILD)/bench/$(1)/bench $$(BENCH_SO_$(1))
endef
$(foreach l,$(BENCH_LIB_LABS),$(eval $(call BENCH_RULES,$(l))))
$(BENCH_DRIVER_OBJ): KIT_NVCCFLAGS += -I$(BENCH_DIR)

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
	    $$([ -d solutions/$$l ] && echo --reference $(BUILD)/bench/$$l/reference.so) \
	    $$([ -d solutions/$$l/stretch ] && echo --stretch $(BUILD)/bench/$$l/stretch.so); r=$$?; \
	  [ $$r = 3 ] && exit 3; [ $$r = 0 ] || rc=1; done; exit $$rc

build-cu: bench-build
.PHONY: bench bench-build
