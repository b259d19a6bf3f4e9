# resources/demos/demos.mk - the race-condition demos for TAs (included by the
# top-level Makefile; resources/demos/README.md says what each one shows).
#
#   make demo                list the demos
#   make demo-NAME           run one (VERBOSE=1: raw sanitizer report, NO_COLOR=1, RUNS=N)
#   make demos               build them all (the CI compile check)
#   make test-demos          kit test, needs a GPU: every racy kernel is caught,
#                            every fixed kernel is racecheck-clean and right
#
# A demo is one file, resources/demos/NAME.cu; adding a file adds a demo.

DEMO_DIR := resources/demos
DEMO_NAMES := $(sort $(basename $(notdir $(wildcard $(DEMO_DIR)/*.cu))))
DEMO_BINS := $(addprefix $(BUILD)/demos/,$(DEMO_NAMES))
DEMO_ENV = DEMO_BIN=$(abspath $(BUILD))/demos KIT_DEVICES=$(abspath $(KIT_DEVICES)) \
           COMPUTE_SANITIZER=$(COMPUTE_SANITIZER)
DEMO_OPTS = $(if $(NO_COLOR),--no-color) $(if $(VERBOSE),--verbose) $(if $(RUNS),--runs $(RUNS))

# Built with the kit's flags: -lineinfo, so compute-sanitizer names source lines.
$(DEMO_BINS): $(BUILD)/demos/%: $(DEMO_DIR)/%.cu $(wildcard $(DEMO_DIR)/*.h) common/include/kit/cuda_check.cuh $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(Q)$(call say,NVCC,$<)$(NVCC) $(KIT_NVCCFLAGS) $(NVCCFLAGS) -o $@ $<

demos: $(DEMO_BINS) ## build the race-condition demos (make demo lists them)

demo: ## list the race-condition demos for class
	@$(DEMO_DIR)/run-demo --list

# Without a CUDA device run-demo says so in the kit's one line and exits 3
# (make: "Error 3"), as make lab03 and make bench do.
$(addprefix demo-,$(DEMO_NAMES)): demo-%: $(BUILD)/demos/%
	@$(DEMO_ENV) $(DEMO_DIR)/run-demo $(DEMO_OPTS) $*

# make demo-bogus: one line naming it and the demos, before anything is built.
BAD_DEMO_GOALS := $(filter-out $(addprefix demo-,$(DEMO_NAMES)),$(filter demo-%,$(MAKECMDGOALS)))
ifneq ($(BAD_DEMO_GOALS),)
  $(error make $(firstword $(BAD_DEMO_GOALS)): no such demo; the demos are $(DEMO_NAMES) (make demo lists them))
endif

test-demos: $(DEMO_BINS) $(KIT_DEVICES) ## GPU: each demo's racy kernel is caught, its fixed kernel clean and right
	@$(DEMO_ENV) $(DEMO_DIR)/run-demo --check $(DEMO_OPTS) $(DEMO_NAMES)

# CPU only: the sanitizer-output reduction on the recorded reports in grader/tests/fixtures.
test-demos-summary:
	@$(DEMO_DIR)/test-summary

.PHONY: demo demos test-demos test-demos-summary $(addprefix demo-,$(DEMO_NAMES))
