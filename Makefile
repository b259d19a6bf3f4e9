# CUDA teaching lab kit.  `make help` lists the targets.
#
# Out-of-tree build: everything lands in $(BUILD)/ (default build/).
# GPU code is built for -arch=native when a CUDA device answers, else for
# sm_75 and sm_90 (mk/config.mk says why); override with CUDA_ARCH="80 90" (or CUDA_ARCH=native).

include mk/config.mk

.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
.SUFFIXES:

# ---- what exists ----------------------------------------------------------------
# A lab is one folder, labs/<lab>/ (docs/anatomy.md): student/ (what a student
# edits and hands in), solution/, kit/ (the grader's files), tests/ (known-bad
# submissions), handout.md, bench.cu.  It exists when its kit/manifest.ini does.
LAB_DIRS := $(sort $(patsubst %/kit/manifest.ini,%,$(wildcard labs/*/kit/manifest.ini)))
LAB_NAMES := $(notdir $(LAB_DIRS))                       # lab03-dot ...
LAB_IDS := $(foreach l,$(LAB_NAMES),$(firstword $(subst -, ,$(l))))  # lab03 ...

COMMON_C := $(wildcard common/src/*.c)
COMMON_CHECKER_C := common/src/checker_main.c
COMMON_LIB_C := $(filter-out $(COMMON_CHECKER_C),$(COMMON_C))
COMMON_BENCH_CU := common/src/bench_main.cu # make bench's main, compiled per lab (mk/bench.mk)
COMMON_CU := $(filter-out $(COMMON_BENCH_CU),$(wildcard common/src/*.cu))
GRADER_C := $(wildcard grader/src/*.c grader/src/*/*.c)
GRADER_LIB_C := $(filter-out grader/src/main.c,$(GRADER_C))
# grader/src/ in layers (grader/src/README.md): every header named from
# grader/src ("grading/engine.h"), tests/check-walls checks which may include which
GRADER_INC := -Igrader/src

LIBKIT := $(BUILD)/common/libkit.a
LIBKIT_RUNNER := $(BUILD)/common/libkit-runner.a
KITGRADE := $(BUILD)/bin/kitgrade
KIT_DEVICES := $(BUILD)/bin/kit-devices
KIT_INI := $(BUILD)/kit.ini

obj = $(patsubst %,$(BUILD)/%.o,$(basename $(1)))

# ---- what make prints ----------------------------------------------------------
# One line per step of the build, said by the first of its files that is made:
# "building the kit (72 files)...", "building the lab03-dot harness and checker
# (5 files)..." (the count: its files not built yet; none when a goal names a
# file).  On a terminal the file being made is shown in place under it and
# erased when it is done (the first build takes half a minute on a slow
# machine); in a pipe or a file only the step lines (mk/quiet).  The
# compiler's messages, warnings and errors, are always shown whole; V=1 prints
# every command line instead of the steps.
ifeq ($(V),1)
  Q :=
  say =
else
  Q := @
  say = mk/quiet '$(step_head)' '[$(step_k)$(step_of)] $(1) $(2)' 
endif
# $(call step,KEY,WHAT,FILES): FILES are made in the step KEY ("building WHAT...").
# The recipe's expansion (in make itself, one job at a time) records what was
# said: no files, no races between parallel jobs.
define step
$(3): private STEP := $(1)
STEP_WHAT_$(1) := $(2)
STEP_FILES_$(1) += $(3)
endef
STEP_GOAL_FILES := $(filter $(BUILD)/% $(abspath $(BUILD))/%,$(MAKECMDGOALS))
step_missing = $(if $(STEP_GOAL_FILES),,$(filter-out $(wildcard $(STEP_FILES_$(STEP))),$(sort $(STEP_FILES_$(STEP)))))
step_head = $(if $(STEP),$(if $(filter $(STEP),$(STEPS_SAID)),,$(eval STEPS_SAID += $(STEP))$(eval STEPS_TODO += $(step_missing))building $(STEP_WHAT_$(STEP))$(if $(step_missing), ($(words $(step_missing)) file$(if $(word 2,$(step_missing)),s)))...))
step_k = $(eval STEPS_MADE += x)$(words $(STEPS_MADE))
step_of = $(if $(word $(words $(STEPS_MADE)),$(STEPS_TODO)),/$(words $(STEPS_TODO)))

# A student's `make lab03` (or run-lab03, make handin) builds on every core
# unless make was given -j: the first one on a fresh clone is the wait
# students feel most.
KIT_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
ifneq ($(filter $(LAB_IDS) $(addprefix run-,$(LAB_IDS)) handin,$(MAKECMDGOALS)),)
  ifeq ($(filter -j%,$(MAKEFLAGS)),)
    MAKEFLAGS += -j$(KIT_JOBS)
  endif
endif

# ---- names users type ----------------------------------------------------------
# `make lab99`, `make lab3`, `make run-lab99`, `make grade LAB=bogus`: one line naming
# the value and the labs, exit 2, before anything is installed or built.
KIT_LABS_LINE = the labs are $(strip $(LAB_IDS)) (make $(firstword $(LAB_IDS)), make run-$(firstword $(LAB_IDS)), make grade LAB=$(firstword $(LAB_IDS)) ...)
BAD_LAB_GOALS := $(filter-out $(LAB_IDS) $(addprefix run-,$(LAB_IDS)),$(filter lab% run-lab%,$(MAKECMDGOALS)))
ifneq ($(BAD_LAB_GOALS),)
  $(error make $(firstword $(BAD_LAB_GOALS)): no such lab; $(KIT_LABS_LINE))
endif
# make lab03 / run-lab03 / handin with a changed kit file in labs/lab03-dot/student/ (its
# header): one line naming it and how to get it back, before anything is
# built (mk/provided; the provided.ok rule below checks it for every build).
PROVIDED_GOAL_LABS := $(foreach g,$(filter $(LAB_IDS) $(addprefix run-,$(LAB_IDS)),$(MAKECMDGOALS)),$(filter $(patsubst run-%,%,$(g))-%,$(LAB_NAMES))) \
                      $(if $(and $(LAB),$(filter handin,$(MAKECMDGOALS))),$(filter $(LAB) $(LAB)-%,$(LAB_NAMES)))
ifneq ($(strip $(PROVIDED_GOAL_LABS)),)
  PROVIDED_BAD := $(shell mk/provided check $(sort $(PROVIDED_GOAL_LABS)) 2>&1)
  ifneq ($(PROVIDED_BAD),)
    $(error $(PROVIDED_BAD))
  endif
endif
# A student's copy of the kit (make student-kit: no labs/*/solution/, no
# labs/*/tests/, no tests/) has the student's targets only: `make help` lists those, and the kit's
# tests and the instructor's tools that need what it lacks stop in one line
# before anything is built.
STUDENT_COPY := $(if $(wildcard labs/*/solution),,yes)
NOT_IN_STUDENT_COPY := test test-% student-kit new-lab build-cu bench-grader
HIDDEN_IN_STUDENT_COPY := $(NOT_IN_STUDENT_COPY) grade merge bench-build demos
ifneq ($(and $(STUDENT_COPY),$(filter $(NOT_IN_STUDENT_COPY),$(MAKECMDGOALS))),)
  $(error make $(firstword $(filter $(NOT_IN_STUDENT_COPY),$(MAKECMDGOALS))): a target of the full kit (the kit's tests and instructors' tools), not of this student copy; its targets: make help)
endif
# make new-lab NAME=...: a bad or taken NAME is refused here, in one line (tools/new-lab --check).
ifneq ($(filter new-lab,$(MAKECMDGOALS)),)
  ifneq ($(findstring ',$(NAME)),)
    $(error make new-lab NAME=$(NAME): not labNN-name (e.g. lab13-transpose))
  endif
  NEW_LAB_BAD := $(shell tools/new-lab --check '$(NAME)' 2>&1)
  ifneq ($(NEW_LAB_BAD),)
    $(error $(NEW_LAB_BAD))
  endif
endif
# Where make grade writes without OUT: under the user's own folder, never
# inside the checkout (kitgrade grade's default too: docs/grading.md).
KIT_GRADES ?= $(HOME)/kit-grades
# make grade: its input (LAB, SUBMISSIONS) is checked here, before packages are
# installed, the kit is built or a GPU is looked for (input errors first).
GRADE_USAGE = usage: make grade LAB=lab03 SUBMISSIONS=folder [OUT=folder, default $(KIT_GRADES)/<lab>] [ONLY=name] [FORCE=1] [ALLOW_NO_GPU=1] [SLURM=1 ...]
ifneq ($(filter grade,$(MAKECMDGOALS)),)
  ifeq ($(and $(LAB),$(SUBMISSIONS)),)
    $(error $(GRADE_USAGE))
  endif
  ifeq ($(filter $(LAB),$(LAB_IDS) $(LAB_NAMES)),)
    $(error make grade LAB=$(LAB): no such lab; $(KIT_LABS_LINE))
  endif
  ifeq ($(wildcard $(SUBMISSIONS)/.),)
    $(error make grade SUBMISSIONS=$(SUBMISSIONS): not a folder; it holds one folder or archive per student, or is a lab folder of the course spool)
  endif
endif

# ---- deps ----------------------------------------------------------------------------
# Missing distribution packages: installed when make runs as root (a fresh
# machine), otherwise one line per package saying what to install, then stop.
# $(DEPS_OK) is an included makefile: make brings it up to date before it
# builds anything, then reads the whole Makefile again, so the compile and link
# flags below come from pkg-config *after* the install.  (Flags looked up
# while the Makefile was first read were empty on a fresh machine: the first
# `make lab03` failed with undefined references to cJSON.)
DEPS_OK := $(BUILD)/deps.mk
DEPS_ENV = NVCC="$(NVCC)" COMPUTE_SANITIZER="$(COMPUTE_SANITIZER)"
ifneq ($(filter-out clean help deps new-lab,$(or $(MAKECMDGOALS),$(.DEFAULT_GOAL))),)
  include $(DEPS_OK)
endif
$(DEPS_OK): mk/deps mk/config.mk
	@$(DEPS_ENV) mk/deps check >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && mk/deps install; } || { $(DEPS_ENV) mk/deps check; exit 1; }
	@$(DEPS_ENV) mk/deps check
	@mkdir -p $(@D) && { echo "# written by make from pkg-config after mk/deps (see Makefile)"; \
	  echo "PKG_CFLAGS := $$(pkg-config --cflags $(PKGS))"; \
	  echo "CHECK_LIBS := $$(pkg-config --libs check)"; \
	  echo "CJSON_LIBS := $$(pkg-config --libs libcjson)"; \
	  echo "INIH_LIBS := $$(pkg-config --libs inih)"; } > $@.tmp && mv $@.tmp $@

# Flags that change object code: rebuild when they change.
FLAGS_STAMP := $(BUILD)/.flags
FLAGS_NOW := $(NVCC) $(KIT_NVCCFLAGS) $(NVCCFLAGS) | $(CC) $(KIT_CFLAGS) $(CFLAGS)
$(FLAGS_STAMP): FORCE
	@mkdir -p $(@D); echo '$(FLAGS_NOW)' | cmp -s - $@ || echo '$(FLAGS_NOW)' > $@

# ---- compile rules ------------------------------------------------------------------
$(BUILD)/%.o: %.c $(DEPS_OK) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(Q)$(call say,CC,$<)$(CC) $(KIT_CFLAGS) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/%.o: %.cu $(DEPS_OK) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(Q)$(call say,NVCC,$<)$(NVCC) $(KIT_NVCCFLAGS) $(NVCCFLAGS) -MMD -MP -c $< -o $@

$(LIBKIT): $(call obj,$(COMMON_LIB_C))
	@mkdir -p $(@D); rm -f $@
	$(Q)$(call say,AR,$@)ar rcs $@ $^

$(LIBKIT_RUNNER): $(call obj,$(COMMON_CU))
	@mkdir -p $(@D); rm -f $@
	$(Q)$(call say,AR,$@)ar rcs $@ $^

# ---- per-lab kit objects and checkers (generic: a lab is a folder) ---------------------
# labs/<lab>/kit/check.c + dataset.c -> the checker; test_*.c -> Check unit tests of the
# checker (CPU only); every other .c/.cu -> runner objects.  The kit's code
# includes the interface header of labs/<lab>/student/.
define LAB_RULES
$(1)_KIT := labs/$(1)/kit
$(1)_SRC := $$(filter-out $$($(1)_KIT)/test_%,$$(wildcard $$($(1)_KIT)/*.c $$($(1)_KIT)/*.cu))
$(1)_TESTS := $$(patsubst %.c,$(BUILD)/%,$$(wildcard $$($(1)_KIT)/test_*.c))
$(1)_RUNNER_OBJ := $$(call obj,$$(filter-out $$($(1)_KIT)/check.c,$$($(1)_SRC)))
$(1)_CHECK_OBJ := $$(call obj,$$(filter $$($(1)_KIT)/check.c $$($(1)_KIT)/dataset.c,$$($(1)_SRC)))
$$($(1)_RUNNER_OBJ): KIT_CFLAGS += -Ilabs/$(1)/student
$$($(1)_RUNNER_OBJ) $$($(1)_CHECK_OBJ): KIT_NVCCFLAGS += -Ilabs/$(1)/student
$$($(1)_CHECK_OBJ): KIT_CFLAGS += -Ilabs/$(1)/student
# The files the kit provides in labs/$(1)/student/ (its header) are checked against
# the kit's record before any of its kit code is compiled against them: a
# student's change is one line naming the file and how to get it back
# (mk/provided), not a compile error inside the harness.
$(BUILD)/labs/$(1)/provided.ok: labs/$(1)/kit/provided.sha256 $$(wildcard labs/$(1)/student/*) mk/provided
	@mk/provided check $(1)
	@mkdir -p $$(@D) && touch $$@
$$($(1)_RUNNER_OBJ) $$($(1)_CHECK_OBJ): | $(BUILD)/labs/$(1)/provided.ok
$(BUILD)/labs/$(1)/check: $$($(1)_CHECK_OBJ) $(call obj,$(COMMON_CHECKER_C)) $(LIBKIT)
	@mkdir -p $$(@D)
	$(Q)$$(call say,LD,$$@)$(CC) $(OPENMP) -o $$@ $$^ $(CJSON_LIBS) $(CUDART_STATIC) -lm
$(BUILD)/labs/$(1)/objects: $$($(1)_RUNNER_OBJ)
	@mkdir -p $$(@D); printf '%s\n' $$(abspath $$^) > $$@
$(BUILD)/labs/$(1)/kit/test_%: labs/$(1)/kit/test_%.c $$($(1)_CHECK_OBJ) $(LIBKIT) $(DEPS_OK)
	@mkdir -p $$(@D)
	$(Q)$$(call say,CC,$$@)$(CC) $(KIT_CFLAGS) $(CFLAGS) $(PKG_CFLAGS) -Icommon/tests -Ilabs/$(1)/student -Ilabs/$(1)/kit -o $$@ $$< $$($(1)_CHECK_OBJ) $(LIBKIT) $(CJSON_LIBS) $(CHECK_LIBS) $(CUDART_STATIC) -lm
LAB_TARGETS += $(BUILD)/labs/$(1)/check $(BUILD)/labs/$(1)/objects
$$(eval $$(call step,$(1),the $(1) harness and checker,$$($(1)_RUNNER_OBJ) $$($(1)_CHECK_OBJ) $(BUILD)/labs/$(1)/check))
$(1)_NEEDS := $(BUILD)/labs/$(1)/check $(BUILD)/labs/$(1)/objects
LAB_UNIT_TESTS += $$($(1)_TESTS)
endef
$(foreach l,$(LAB_NAMES),$(eval $(call LAB_RULES,$(l))))

# ---- programs ----------------------------------------------------------------------
$(call obj,$(GRADER_C)): KIT_CFLAGS += $(GRADER_INC)
$(KITGRADE): $(call obj,$(GRADER_C)) $(LIBKIT)
	@mkdir -p $(@D)
	$(Q)$(call say,LD,$@)$(CC) $(OPENMP) -o $@ $^ $(CJSON_LIBS) $(INIH_LIBS) -lm

$(KIT_DEVICES): tools/kit-devices.cu common/include/kit/no_gpu.cuh $(DEPS_OK)
	@mkdir -p $(@D)
	$(Q)$(call say,NVCC,$<)$(NVCC) $(KIT_NVCCFLAGS) -o $@ $<

$(eval $(call step,kit,the kit,$(call obj,$(COMMON_C) $(COMMON_CU) $(GRADER_C)) $(LIBKIT) $(LIBKIT_RUNNER) $(KITGRADE) $(KIT_DEVICES)))

# The kit's version for reports and feedback headers: git describe at build
# time (a VERSION file in a tarball without .git); kit.ini is rewritten when it changes.
KIT_VERSION := $(shell git -C $(KIT_ROOT) describe --always --dirty --tags 2>/dev/null || cat $(KIT_ROOT)/VERSION 2>/dev/null || echo unknown)
VERSION_STAMP := $(BUILD)/.version
$(VERSION_STAMP): FORCE
	@mkdir -p $(@D); echo '$(KIT_VERSION)' | cmp -s - $@ || echo '$(KIT_VERSION)' > $@

# The grader builds runners with exactly these settings.
$(KIT_INI): $(FLAGS_STAMP) $(VERSION_STAMP) mk/config.mk Makefile
	@mkdir -p $(@D)
	@{ echo "; written by make: how the grader builds and runs submissions"; \
	  echo "; (one flag per line: inih reads lines of up to 200 characters)"; \
	  echo "[build]"; \
	  echo "kit_root = $(KIT_ROOT)"; \
	  echo "build_dir = $(abspath $(BUILD))"; \
	  echo "nvcc = $(realpath $(NVCC))"; \
	  echo "cuda_home = $(CUDA_HOME)"; \
	  echo "cuda_arch = $(CUDA_ARCH)"; \
	  $(foreach f,$(ARCH_FLAGS),echo "arch_flag = $(f)";) \
	  $(foreach f,$(KIT_NVCCFLAGS_BASE) $(NVCCFLAGS),echo "nvcc_flag = $(f)";) \
	  $(foreach f,$(CUPTI_LIBS) $(OPENMP_LINK),echo "link_flag = $(f)";) \
	  echo "cupti = $(if $(CUPTI_LIBDIR),yes,no)"; \
	  echo "compute_sanitizer = $(COMPUTE_SANITIZER)"; \
	  echo "ncu = $(NCU)"; \
	  echo "kit_devices = $(abspath $(KIT_DEVICES))"; \
	  echo "kit_version = $(KIT_VERSION)"; } > $@

# What any lab's check needs besides its own objects and checker.
KIT_CORE := $(KITGRADE) $(KIT_DEVICES) $(LIBKIT) $(LIBKIT_RUNNER) $(KIT_INI)
all: $(KIT_CORE) $(LAB_TARGETS) ## build the grader, common library and every lab's kit code

# ---- student targets: make labNN (make lab01, make lab02, ...) -------------------
# TEST=name runs one test alone; SEED=0x... reproduces a failure; DIR=path grades another folder;
# V=1 also says where each test's seconds went (kitgrade check --timings); PROFILE=1 adds, after
# the performance test, Nsight Compute's view of your kernels (kitgrade check --profile).
# Each builds only what its lab needs (the kit's core, that lab's objects and
# checker): the first `make lab03` on a fresh clone compiles one lab, not every lab.
KITGRADE_OPTS = $(if $(TEST),--test $(TEST)) $(if $(SEED),--seed $(SEED)) $(if $(NO_COLOR),--no-color) \
                $(if $(filter 1,$(V)),--timings) $(if $(filter 1,$(PROFILE)),--profile)
define STUDENT_TARGET
$(1): $(KIT_CORE) $$($(2)_NEEDS)
	@$(KITGRADE) check $(1) $$(or $$(DIR),labs/$(2)/student) $$(KITGRADE_OPTS)
run-$(1): $(KIT_CORE) $$($(2)_NEEDS)
	@$(KITGRADE) run $(1) $$(or $$(DIR),labs/$(2)/student) $$(P)
endef
$(foreach l,$(LAB_NAMES),$(eval $(call STUDENT_TARGET,$(firstword $(subst -, ,$(l))),$(l))))

# ---- instructors ------------------------------------------------------------------------
grade: all ## grade a folder of submissions: make grade LAB=lab03 SUBMISSIONS=dir [OUT=dir, default ~/kit-grades/<lab>] [ONLY=name] [FORCE=1] [ALLOW_NO_GPU=1] [SLURM=1 [WAIT=1] [SLURM_OPTS=..]]
	@$(KITGRADE) $(if $(SLURM),slurm,batch) $(LAB) $(SUBMISSIONS) --out $(or $(OUT),$(KIT_GRADES)/$(filter $(LAB) $(LAB)-%,$(LAB_NAMES))) $(if $(ONLY),--only $(ONLY)) $(if $(FORCE),--force) $(if $(ALLOW_NO_GPU),--allow-no-gpu) $(if $(SLURM),$(SLURM_ARGS)) $(KITGRADE_OPTS)
# SLURM=1: the same batch as one Slurm job array (kitgrade slurm; README "Cluster admins").
SLURM_ARGS = $(if $(WAIT),--wait) $(if $(GRES),--gres '$(GRES)') $(if $(SLURM_OPTS),--sbatch '$(SLURM_OPTS)') $(if $(SHARD_SIZE),--shard-size $(SHARD_SIZE)) $(if $(MAX_RUNNING),--max-running $(MAX_RUNNING))

# ---- tests ---------------------------------------------------------------------------
UNIT_TEST_SRC := $(wildcard common/tests/test_*.c grader/tests/test_*.c)
UNIT_TESTS := $(patsubst %.c,$(BUILD)/%,$(UNIT_TEST_SRC)) $(LAB_UNIT_TESTS)
$(BUILD)/common/tests/test_%: common/tests/test_%.c $(LIBKIT) $(DEPS_OK)
	@mkdir -p $(@D)
	$(Q)$(call say,CC,$@)$(CC) $(KIT_CFLAGS) $(CFLAGS) $(PKG_CFLAGS) -Icommon/tests -o $@ $< $(LIBKIT) $(CJSON_LIBS) $(CHECK_LIBS) -lm
# kit_device_truth asks the CUDA runtime (no GPU needed: then its error)
$(BUILD)/common/tests/test_check_device: common/tests/test_check_device.c $(LIBKIT) $(DEPS_OK)
	@mkdir -p $(@D)
	$(Q)$(call say,CC,$@)$(CC) $(KIT_CFLAGS) $(CFLAGS) $(PKG_CFLAGS) -Icommon/tests -o $@ $< $(LIBKIT) $(CJSON_LIBS) $(CHECK_LIBS) $(CUDART_STATIC) -lm
$(BUILD)/grader/tests/test_%: grader/tests/test_%.c $(call obj,$(GRADER_LIB_C)) $(LIBKIT) $(DEPS_OK)
	@mkdir -p $(@D)
	$(Q)$(call say,CC,$@)$(CC) $(KIT_CFLAGS) $(CFLAGS) $(PKG_CFLAGS) -Icommon/tests $(GRADER_INC) -o $@ $< $(call obj,$(GRADER_LIB_C)) $(LIBKIT) $(CJSON_LIBS) $(INIH_LIBS) $(CHECK_LIBS) -lm

# The lab driver's rules on the CPU (nvcc: the driver is CUDA C++; no CUDA call is made).
UNIT_TESTS += $(BUILD)/common/tests/test_lab_driver
$(BUILD)/common/tests/test_lab_driver: common/tests/test_lab_driver.cu common/src/lab_driver.cu common/src/lab_decl.cu common/src/lab_metrics.cu common/tests/plain_check.h common/tests/plain_catch.h $(LIBKIT) $(DEPS_OK) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(Q)$(call say,NVCC,$@)$(NVCC) $(KIT_NVCCFLAGS) $(NVCCFLAGS) -o $@ $< common/src/lab_driver.cu common/src/lab_decl.cu common/src/lab_metrics.cu $(LIBKIT) $(OPENMP_LINK) -lm

# The runner's memory kinds, on memory the CUDA runtime does not know (nvcc: CUDA C++; no GPU needed).
UNIT_TESTS += $(BUILD)/common/tests/test_memory_kind
$(BUILD)/common/tests/test_memory_kind: common/tests/test_memory_kind.cu common/src/memory_kind.cu common/tests/plain_check.h $(DEPS_OK) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(Q)$(call say,NVCC,$@)$(NVCC) $(KIT_NVCCFLAGS) $(NVCCFLAGS) -o $@ $< common/src/memory_kind.cu

# The data descriptor's interpreter on the CPU (nvcc: CUDA C++; no CUDA call is made).
UNIT_TESTS += $(BUILD)/common/tests/test_lab_decl
$(BUILD)/common/tests/test_lab_decl: common/tests/test_lab_decl.cu common/src/lab_decl.cu common/tests/plain_check.h common/tests/plain_catch.h $(LIBKIT) $(DEPS_OK) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(Q)$(call say,NVCC,$@)$(NVCC) $(KIT_NVCCFLAGS) $(NVCCFLAGS) -o $@ $< common/src/lab_decl.cu $(LIBKIT) $(OPENMP_LINK) -lm

# make bench's program on the CPU, the runner's case and the checker's
# faked (nvcc: bench.cu is CUDA C++; no CUDA call is made); the lab's
# metrics read by lab_metrics.cu.
UNIT_TESTS += $(BUILD)/tests/bench/test_bench
$(BUILD)/tests/bench/test_bench: tests/bench/test_bench.cu $(COMMON_BENCH_CU) common/include/kit/bench.cuh common/src/lab_metrics.cu common/tests/plain_check.h common/tests/plain_catch.h $(LIBKIT) $(DEPS_OK) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(Q)$(call say,NVCC,$@)$(NVCC) $(KIT_NVCCFLAGS) $(NVCCFLAGS) -Icommon/tests -o $@ $< common/src/lab_metrics.cu $(LIBKIT) $(CJSON_LIBS) $(OPENMP_LINK) -ldl -lm

# Solutions' own index arithmetic on the CPU (nvcc: the test includes the
# solution's .cu; no CUDA call is made).  Not in a student copy of the kit.
# $(1): the lab's folder, $(2): the stretch solution's file, $(3): the test.
define STRETCH_TEST
ifneq ($$(wildcard labs/$(1)/solution/stretch/$(2)),)
UNIT_TESTS += $(BUILD)/tests/solutions/$(3)
$(BUILD)/tests/solutions/$(3): tests/solutions/$(3).cu labs/$(1)/solution/stretch/$(2) $$(wildcard labs/$(1)/student/*.h) common/tests/plain_check.h $(DEPS_OK) $(FLAGS_STAMP)
	@mkdir -p $$(@D)
	$(Q)$$(call say,NVCC,$$@)$(NVCC) $$(KIT_NVCCFLAGS) $$(NVCCFLAGS) -Icommon/tests -Ilabs/$(1)/student -o $$@ $$<
endif
endef
$(eval $(call STRETCH_TEST,lab08-spmv,spmv.cu,test_lab08_stretch))
$(eval $(call STRETCH_TEST,lab09-lu,lu.cu,test_lab09_stretch))
$(eval $(call STRETCH_TEST,lab10-matmul,matmul.cu,test_lab10_stretch))

# expect.ini (the known-bad submissions' verdicts) has one parser, tests/lib/expect.c:
# test_labs links it, the test scripts ask build/tests/expect-get.
EXPECT_OBJ := $(call obj,tests/lib/expect.c)
EXPECT_GET := $(BUILD)/tests/expect-get
$(EXPECT_OBJ): KIT_CFLAGS += -Itests/lib
$(EXPECT_GET): tests/lib/expect_get.c $(EXPECT_OBJ) $(DEPS_OK)
	@mkdir -p $(@D)
	$(Q)$(call say,CC,$@)$(CC) $(KIT_CFLAGS) $(CFLAGS) $(PKG_CFLAGS) -Itests/lib -o $@ $< $(EXPECT_OBJ) $(INIH_LIBS)
GPU_TESTS := $(BUILD)/tests/gpu/test_labs $(BUILD)/tests/gpu/test_profiles $(EXPECT_GET)
$(BUILD)/tests/gpu/test_%: tests/gpu/test_%.c $(call obj,$(GRADER_LIB_C)) $(EXPECT_OBJ) $(LIBKIT) $(DEPS_OK)
	@mkdir -p $(@D)
	$(Q)$(call say,CC,$@)$(CC) $(KIT_CFLAGS) $(CFLAGS) $(PKG_CFLAGS) -Icommon/tests $(GRADER_INC) -Itests/lib -o $@ $< $(call obj,$(GRADER_LIB_C)) $(EXPECT_OBJ) $(LIBKIT) $(CJSON_LIBS) $(INIH_LIBS) $(CHECK_LIBS) -lm

$(eval $(call step,tests,the kit tests,$(UNIT_TESTS) $(GPU_TESTS) $(EXPECT_OBJ)))

test-unit: $(UNIT_TESTS) $(GPU_TESTS) all ## unit tests of common/, grader/ and the labs' checkers, the grader's walls, no function over 80 lines (no GPU needed)
	@KIT_ROOT=$(KIT_ROOT) KIT_BUILD=$(abspath $(BUILD)) tests/run-unit $(UNIT_TESTS)
	@$(MAKE) --no-print-directory test-demos-summary
	@KIT_ROOT=$(KIT_ROOT) tests/check-handouts
	@KIT_ROOT=$(KIT_ROOT) tests/check-walls && KIT_ROOT=$(KIT_ROOT) tests/check-walls --self-test
	@KIT_ROOT=$(KIT_ROOT) tests/check-functions && KIT_ROOT=$(KIT_ROOT) tests/check-functions --self-test
	@tests/run-parallel --self-test

# Between commits: what takes seconds, on every core; make test before you push.
test-quick: $(DEPS_OK) ## the unit tests but kitgrade's nvcc builds, the handouts and docs/ (about a minute; no GPU needed)
	@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(KIT_JOBS)) all $(UNIT_TESTS)
	@KIT_ROOT=$(KIT_ROOT) KIT_BUILD=$(abspath $(BUILD)) CK_EXCLUDE_TAGS=nvcc tests/run-unit $(UNIT_TESTS); rc=$$?; \
	 $(MAKE) --no-print-directory test-demos-summary || rc=1; \
	 KIT_ROOT=$(KIT_ROOT) tests/check-handouts || rc=1; \
	 { KIT_ROOT=$(KIT_ROOT) tests/check-walls && KIT_ROOT=$(KIT_ROOT) tests/check-walls --self-test; } || rc=1; \
	 { KIT_ROOT=$(KIT_ROOT) tests/check-functions && KIT_ROOT=$(KIT_ROOT) tests/check-functions --self-test; } || rc=1; \
	 tests/run-parallel --self-test || rc=1; \
	 KIT_ROOT=$(KIT_ROOT) KIT_BUILD=$(abspath $(BUILD)) tests/check-docs || rc=1; \
	 KIT_ROOT=$(KIT_ROOT) KIT_BUILD=$(abspath $(BUILD)) tests/check-docs --self-test || rc=1; exit $$rc

build-cu: all demos ## compile every .cu in the tree (starters, solutions, demos) for CUDA_ARCH
	@$(KITGRADE) build-all --jobs $(or $(JOBS),$(shell nproc))

# make test: what the groups need built first, on every core (two groups
# building one file at once would spoil it); then the groups side by side
# (tests/run-parallel: most of them wait on time limits, Slurm or users much
# of the time), the race demos and bench programs (over a minute of nvcc)
# built beside them for the two groups that need them.  The CPU goes first
# to the unit tests (some time what they test) and the known-bad submissions
# (a run killed after N seconds), then to the course and Slurm tests, last
# to the groups that only build.  With a GPU, test-gpu after them, alone
# (its timing runs want the machine).
TEST_GROUPS += test-unit test-new-lab test-slurm test-cu-prep --after test-cu-prep build-cu test-build
TEST_NICE := --nice 5 test-course test-slurm --nice 10 test-cu-prep build-cu test-build test-new-lab
test: $(DEPS_OK) ## the kit's tests: unit tests, every .cu built, GPU tests when a device is present
	@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(KIT_JOBS)) all $(UNIT_TESTS) $(GPU_TESTS)
	@if $(KIT_DEVICES) --quiet; then gpu=test-gpu cpu=; \
	 else gpu= cpu=test-cpu-submissions; echo "SKIP: GPU integration tests: no GPU ($$($(KIT_DEVICES) --why 2>&1))"; fi; \
	 MAKE='$(MAKE)' tests/run-parallel $(TEST_NICE) -- $$cpu $(TEST_GROUPS) && \
	 { [ -z "$$gpu" ] || $(MAKE) --no-print-directory test-gpu; }
# (make test's: what build-cu and test-build need beyond all)
.PHONY: test-cu-prep
test-cu-prep:
	@$(MAKE) --no-print-directory -j$(KIT_JOBS) demos bench-build

test-build: all ## what the build and the documents tell users: unknown labs, no-GPU lines, packages, help, handouts, docs/
	@KIT_ROOT=$(KIT_ROOT) KIT_BUILD=$(abspath $(BUILD)) tests/run-build; rc=$$?; \
	 KIT_ROOT=$(KIT_ROOT) KIT_BUILD=$(abspath $(BUILD)) tests/check-docs || rc=1; \
	 KIT_ROOT=$(KIT_ROOT) KIT_BUILD=$(abspath $(BUILD)) tests/check-docs --self-test || rc=1; exit $$rc

test-new-lab: all ## make new-lab in a scratch copy: the lab builds and validates; on a GPU its solution gets full marks, its starter fails
	@KIT_ROOT=$(KIT_ROOT) KIT_BUILD=$(abspath $(BUILD)) tests/run-new-lab

test-slurm: all $(GPU_TESTS) ## make grade SLURM=1 on a throw-away one-node Slurm cluster (root; SKIP otherwise)
	@KIT_ROOT=$(KIT_ROOT) KIT_BUILD=$(abspath $(BUILD)) tests/run-slurm

test-fresh: ## CI's fresh-machine step (.ci/run) in a private view without the kit's packages (root)
	@tests/run-fresh-machine

# The hostile batch tests too, with the GPU hidden (their no-GPU mode: every
# CUDA call fails, the sandbox, limits, batches, locks and results are the
# same); with a GPU, test-gpu runs them on it.
test-cpu-submissions: all $(GPU_TESTS) ## the known-bad submissions and the hostile batch tests that need no GPU (compile errors, floods, fork bombs...)
	@KIT_ROOT=$(KIT_ROOT) KIT_BUILD=$(abspath $(BUILD)) tests/run-cpu-submissions && \
	 CUDA_VISIBLE_DEVICES= KIT_ROOT=$(KIT_ROOT) KIT_BUILD=$(abspath $(BUILD)) tests/hostile/run

test-gpu: all $(GPU_TESTS) demos ## GPU tests only, in parts: LABS="lab03 lab07" PARTS="labs bad cpu hostile demos", SHARD=2/3
	@$(KIT_DEVICES) --quiet || { echo "test-gpu: no GPU ($$($(KIT_DEVICES) --why 2>&1)): the GPU integration tests need one" >&2; exit 1; }; $(KIT_DEVICES)
	@KIT_ROOT=$(KIT_ROOT) KIT_BUILD=$(abspath $(BUILD)) SHARD=$(SHARD) tests/run-gpu

test-gpu-report: ## the shares of make test-gpu SHARD=K/N merged into one table (missing shares: not run)
	@KIT_ROOT=$(KIT_ROOT) KIT_BUILD=$(abspath $(BUILD)) tests/gpu-report $(SHARDS)

test-hostile: all $(GPU_TESTS) ## the grader's robustness checks alone (kill -9, fork bombs, odd names; GPU or not)
	@KIT_ROOT=$(KIT_ROOT) KIT_BUILD=$(abspath $(BUILD)) $(if $(shell $(KIT_DEVICES) --quiet && echo gpu),PARTS=hostile tests/run-gpu,tests/hostile/run)

bench-grader: all ## how fast and how fair grading is on this GPU (per lab: seconds per check, spread of the speedups; prints, asserts nothing)
	@KIT_ROOT=$(KIT_ROOT) KIT_BUILD=$(abspath $(BUILD)) tools/bench/grader

new-lab: ## write a new lab's skeleton that builds, validates and grades: make new-lab NAME=lab13-transpose
	@tools/new-lab "$$NAME"

deps: ## install missing distribution packages (as root)
	@$(DEPS_ENV) mk/deps install

# ---- TAs: race-condition demos ---------------------------------------------------------
-include resources/demos/demos.mk
-include mk/course.mk
include mk/bench.mk
$(eval $(call step,demos,the race demos,$(DEMO_BINS)))
$(eval $(call step,bench,the bench programs,$(filter-out $(STEP_FILES_kit) $(foreach l,$(LAB_NAMES),$(STEP_FILES_$(l))),$(BENCH_BINS) $(call obj,$(BENCH_LAB_SRC)))))

# ---- handouts ------------------------------------------------------------------------
# labs/<lab>/handout.md -> $(BUILD)/handouts/<lab>.html
HANDOUTS_MD := $(wildcard labs/*/handout.md)
HANDOUTS_HTML := $(patsubst labs/%/handout.md,$(BUILD)/handouts/%.html,$(HANDOUTS_MD))
handouts: $(HANDOUTS_HTML) ## HTML handouts with pandoc
$(eval $(call step,handouts,the handouts,$(HANDOUTS_HTML)))
# mk/handouts.lua marks the shell blocks ("How to run it") so comments render as comments.
$(BUILD)/handouts/%.html: labs/%/handout.md mk/handouts.lua
	@mkdir -p $(@D)
	@command -v pandoc >/dev/null || { echo "handouts: pandoc is not installed (apt-get install pandoc)"; exit 1; }
	$(Q)$(call say,HTML,$@)pandoc --standalone --toc --lua-filter mk/handouts.lua --metadata title="$*" -o $@ $<

clean: ## remove the build directory
	rm -rf $(BUILD)

help: ## list the targets
	@echo "CUDA lab kit - targets (build dir: $(BUILD), CUDA_ARCH: $(CUDA_ARCH))"
	@{ grep -hE '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-zA-Z_-]+):.*## (.*)/\1|\2/' | \
	   { $(if $(STUDENT_COPY),grep -vE '^($(subst %,[a-z-]*,$(subst $(eval) ,|,$(strip $(HIDDEN_IN_STUDENT_COPY)))))\|',cat); }; \
	   echo '$(firstword $(LAB_IDS))..$(lastword $(LAB_IDS))|build and check your lab (TEST=name one test, SEED=0x.. reproduce, DIR=folder)'; \
	   echo 'run-labNN|build your lab and run it once: make run-lab01 P="blocks=4 threads=3"'; \
	   echo 'demo-NAME|run one race demo (make demo lists them)'; } | \
	 awk -F'|' '{ n[NR] = $$1; d[NR] = $$2; if (length($$1) > w) w = length($$1) } \
	            END { for (i = 1; i <= NR; i++) printf("  %-" w "s  %s\n", n[i], d[i]) }'
	@$(if $(wildcard docs/reference.md),echo "More: README.md (one screen per user); docs/reference.md (every target, variable and exit status)")

.PHONY: all help clean new-lab test test-quick test-unit test-new-lab test-gpu test-gpu-report test-hostile test-build test-slurm test-fresh bench-grader build-cu grade deps handouts FORCE $(LAB_IDS) $(addprefix run-,$(LAB_IDS))
FORCE:

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
