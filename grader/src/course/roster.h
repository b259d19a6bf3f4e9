/* roster.h - who the students are, manual points, and the LMS export.
 *
 * roster.csv (the instructor's; a header line names the columns, any order):
 *     login,student_id,name,email
 *     alice,20231234,"Doe, Alice",alice@uni.example
 * login is the student's folder in SUBMISSIONS (their login for a spool).
 *
 * manual.csv (the TA's: points for the handout's questions, answers.md):
 *     login,points,comment
 *     alice,8.5,"Q3 misses the bank conflict"
 *
 * `kitgrade merge OUT [--roster R] [--manual M] [--manual-max P] [--include-not-graded]` writes
 *   OUT/final.csv   login,student_id,name,email,tests,manual,total,max,late_penalty_pct,version,comment,status
 *                   (tests: the test points after any late penalty; total = tests + manual;
 *                   status: the result's, "no result" for a rostered student without one;
 *                   tests and total are empty where the tests were not graded)
 *   OUT/lms.csv     Student,ID,SIS User ID,SIS Login ID,Section,Email address,<lab>
 *                   the layout of a Canvas gradebook import (ID and Section left empty:
 *                   Canvas matches SIS User ID / SIS Login ID); Moodle's "Import grades
 *                   from CSV" maps "Email address" to the user and <lab> to a grade item.
 *                   Only students whose tests were graded: the others (no GPU, not
 *                   graded in the spool, no result) are named on the terminal and left
 *                   out, unless --include-not-graded.
 * Every bad line is reported as FILE:LINE: reason; nothing is written then.
 */
#ifndef GRADER_ROSTER_H
#define GRADER_ROSTER_H

int roster_merge_command(int argc, char **argv);

#endif
