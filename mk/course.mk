# mk/course.mk - a course on a shared server: student kits, hand-in, the
# course tests.  Included by the Makefile; docs/course.md says how it fits.

student-kit: $(KITGRADE) ## write the kit students get: make student-kit DEST=dir [HANDIN=spool]
	@test -n "$(DEST)" || { echo "usage: make student-kit DEST=folder [HANDIN=spool-folder]"; exit 2; }
	@$(if $(HANDIN),$(KITGRADE) spool-init $(HANDIN) $(if $(STAFF),--group $(STAFF)) &&) tools/student-kit $(DEST) $(HANDIN)

# Only what that lab needs is built (the kit's core, its objects and checker),
# as for make lab07: a hand-in does not wait for every other lab to compile.
handin: $(KIT_CORE) $(foreach l,$(filter $(LAB) $(LAB)-%,$(LAB_NAMES)),$($(l)_NEEDS)) ## hand your lab in: make handin LAB=lab07 [DIR=folder] [ANYWAY=1]
	@test -n "$(LAB)" || { echo "usage: make handin LAB=lab07 [DIR=folder] [ANYWAY=1]"; exit 2; }
	@$(KITGRADE) handin $(LAB) $(DIR) $(if $(ANYWAY),--anyway)

merge: $(KITGRADE) ## final and LMS CSVs: make merge OUT=~/kit-grades/lab07-merge [ROSTER=csv] [MANUAL=csv] [MANUAL_MAX=10]
	@test -n "$(OUT)" || { echo "usage: make merge OUT=~/kit-grades/lab07-merge [ROSTER=roster.csv] [MANUAL=manual.csv] [MANUAL_MAX=points]"; exit 2; }
	@$(KITGRADE) merge $(OUT) $(if $(ROSTER),--roster $(ROSTER)) $(if $(MANUAL),--manual $(MANUAL)) $(if $(MANUAL_MAX),--manual-max $(MANUAL_MAX))

# The course path without a GPU: student kit, several real users, hand-in,
# spool grading, report in a headless browser, similarity (tests/course/run).
test-course: all $(GPU_TESTS) ## course tests: student kit, users, hand-in, spool grading, class report (root for the uid tests)
	@KIT_ROOT=$(KIT_ROOT) KIT_BUILD=$(abspath $(BUILD)) CUDA_ARCH="$(CUDA_ARCH)" tests/course/run

# make test's groups: first in the list (the Makefile's ends with --after ones)
TEST_GROUPS := test-course $(TEST_GROUPS)

.PHONY: student-kit handin merge test-course

# make grade LAB=lab07 SUBMISSIONS=spool/lab07 RUBRIC=private/lab07.ini SIMILARITY=40
KITGRADE_OPTS += $(if $(RUBRIC),--rubric $(RUBRIC)) $(if $(SIMILARITY),--similarity $(SIMILARITY))
