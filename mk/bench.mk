# mk/bench.mk - `make bench`: each lab's student code, reference solution, kit
# baseline and NVIDIA library peer on the same inputs (included by the Makefile;
# tools/bench/lib/bench.cuh says how a bench program works).
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

BENCH_DIR := tools/bench/lib
BENCH_LAB_SRC := $(sort $(wildcard labs/*/bench.cu))
BENCH_LIB_LABS := $(patsubst labs/%/bench.cu,%,$(BENCH_LAB_SRC))
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
$(BUILD)/bench/$(1)/student.so: $$(wildcard labs/$(1)/student/*.cu labs/$(1)/student/*.h) $(DEPS_OK) $(FLAGS_STAMP)
	@mkdir -p $$(@D)
	$(Q)$$(call say,NVCC,$$@)$(NVCC) $$(BENCH_SO_FLAGS) -Ilabs/$(1)/student -o $$@ $$(wildcard labs/$(1)/student/*.cu)
BENCH_SO_$(1) := $(BUILD)/bench/$(1)/student.so
ifneq ($$(wildcard labs/$(1)/solution/*.cu),)
$(BUILD)/bench/$(1)/reference.so: $$(wildcard labs/$(1)/solution/*.cu labs/$(1)/student/*.h) $(DEPS_OK) $(FLAGS_STAMP)
	@mkdir -p $$(@D)
	$(Q)$$(call say,NVCC,$$@)$(NVCC) $$(BENCH_SO_FLAGS) -Ilabs/$(1)/student -o $$@ $$(wildcard labs/$(1)/solution/*.cu)
BENCH_SO_$(1) += $(BUILD)/bench/$(1)/reference.so
endif
ifneq ($$(wildcard labs/$(1)/solution/stretch/*.cu),)
$(BUILD)/bench/$(1)/stretch.so: $$(wildcard labs/$(1)/solution/stretch/*.cu labs/$(1)/student/*.h) $(DEPS_OK) $(FLAGS_STAMP)
	@mkdir -p $$(@D)
	$(Q)$$(call say,NVCC,$$@)$(NVCC) $$(BENCH_SO_FLAGS) -Ilabs/$(1)/student -o $$@ $$(wildcard labs/$(1)/solution/stretch/*.cu)
BENCH_SO_$(1) += $(BUILD)/bench/$(1)/stretch.so
endif
$(call obj,labs/$(1)/bench.cu): KIT_NVCCFLAGS += -Ilabs/$(1)/student -Ilabs/$(1)/kit -I$(BENCH_DIR)
$(call obj,labs/$(1)/bench.cu): $(BENCH_DIR)/bench.cuh
$(BUILD)/bench/$(1)/bench: $(call obj,labs/$(1)/bench.cu) $(BENCH_DRIVER_OBJ) $(call obj,labs/$(1)/kit/baseline.cu) $(LIBKIT)
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
	    $$([ -d labs/$$l/solution ] && echo --reference $(BUILD)/bench/$$l/reference.so) \
	    $$([ -d labs/$$l/solution/stretch ] && echo --stretch $(BUILD)/bench/$$l/stretch.so); r=$$?; \
	  [ $$r = 3 ] && exit 3; [ $$r = 0 ] || rc=1; done; exit $$rc

build-cu: bench-build
.PHONY: bench bench-build
