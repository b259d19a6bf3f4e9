# mk/course.mk - a course on a shared server: student kits, hand-in, the
# course tests.  Included by the Makefile; docs/course.md says how it fits.

# tools/student-kit checks DEST before it prepares the spool (kitgrade spool-init).
student-kit: $(KITGRADE) ## write the kit students get: make student-kit DEST=dir [HANDIN=spool]
	@test -n "$(DEST)" || { echo "usage: make student-kit DEST=folder [HANDIN=spool-folder]"; exit 2; }
	@KITGRADE=$(KITGRADE) STAFF=$(STAFF) tools/student-kit $(DEST) $(HANDIN)

# make handin: its input (LAB) and the course spool are checked first, in one
# line, before anything is built; then only what that lab needs is built.
ifneq ($(filter handin,$(MAKECMDGOALS)),)
  HANDIN_LAB := $(filter $(LAB) $(LAB)-%,$(LAB_NAMES))
  ifeq ($(LAB),)
    $(error usage: make handin LAB=lab07 [DIR=folder] [ANYWAY=1])
  endif
  ifneq ($(words $(HANDIN_LAB)),1)
    $(error make handin LAB=$(LAB): no such lab; $(KIT_LABS_LINE))
  endif
  # (a dry run, make -n, hands nothing in: it is not refused)
  ifeq ($(findstring n,$(firstword -$(MAKEFLAGS)))$(shell sed -n 's/^[[:space:]]*spool[[:space:]]*=[[:space:]]*[^[:space:]]/x/p' course.ini 2>/dev/null),)
    $(error make handin: this copy of the kit has no course spool to hand in to$(if $(wildcard course.ini), (course.ini has no spool = FOLDER)): hand in from the copy of the kit your instructor gives you (made with make student-kit HANDIN=folder))
  endif
endif
handin: $(KIT_CORE) $($(HANDIN_LAB)_NEEDS) ## hand your lab in: make handin LAB=lab07 [DIR=folder] [ANYWAY=1]
	@$(KITGRADE) handin $(LAB) $(DIR) $(if $(ANYWAY),--anyway)

merge: $(KITGRADE) ## final and LMS CSVs: make merge OUT=~/kit-grades/lab07-merge [ROSTER=csv] [MANUAL=csv] [MANUAL_MAX=10] [INCLUDE_NOT_GRADED=1]
	@test -n "$(OUT)" || { echo "usage: make merge OUT=~/kit-grades/lab07-merge [ROSTER=roster.csv] [MANUAL=manual.csv] [MANUAL_MAX=points] [INCLUDE_NOT_GRADED=1]"; exit 2; }
	@$(KITGRADE) merge $(OUT) $(if $(ROSTER),--roster $(ROSTER)) $(if $(MANUAL),--manual $(MANUAL)) $(if $(MANUAL_MAX),--manual-max $(MANUAL_MAX)) $(if $(INCLUDE_NOT_GRADED),--include-not-graded)

# The course path without a GPU: student kit, several real users, hand-in,
# spool grading, report in a headless browser, similarity (tests/course/run).
test-course: all $(GPU_TESTS) ## course tests: student kit, users, hand-in, spool grading, class report (root for the uid tests)
	@KIT_ROOT=$(KIT_ROOT) KIT_BUILD=$(abspath $(BUILD)) CUDA_ARCH="$(CUDA_ARCH)" tests/course/run

# make test's groups: first in the list (the Makefile's ends with --after ones)
TEST_GROUPS := test-course $(TEST_GROUPS)

.PHONY: student-kit handin merge test-course

# make grade LAB=lab07 SUBMISSIONS=spool/lab07 RUBRIC=private/lab07.ini SIMILARITY=40
KITGRADE_OPTS += $(if $(RUBRIC),--rubric $(RUBRIC)) $(if $(SIMILARITY),--similarity $(SIMILARITY))
