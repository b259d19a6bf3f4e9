/* test_labdir.c - where a lab's files are: one folder, labs/<lab>/, with
 * student/, solution/, kit/ (model/labdir.h); the kit's own labs found by
 * their kit/manifest.ini. */
#include <check.h>
#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "model/labdir.h"

START_TEST(paths_of_a_lab)
{
    char p[64];
    ck_assert_int_eq(labdir_path(p, sizeof p, "/kit", "lab03-dot", "student"), 0);
    ck_assert_str_eq(p, "/kit/labs/lab03-dot/student");
    ck_assert_int_eq(labdir_path(p, sizeof p, "/kit", "lab03-dot", ""), 0);
    ck_assert_str_eq(p, "/kit/labs/lab03-dot");
    /* relative to the kit's root: what make passes (make lab03's default DIR) */
    ck_assert_int_eq(labdir_path(p, sizeof p, "", "lab03-dot", "student"), 0);
    ck_assert_str_eq(p, "labs/lab03-dot/student");
    /* a path that does not fit is refused, not cut */
    char small[16];
    ck_assert_int_eq(labdir_path(small, sizeof small, "/kit", "lab03-dot", "solution"), -1);
}
END_TEST

START_TEST(names_from_the_manifest)
{
    char name[64], id[16];
    labdir_name_of_manifest("/kit/labs/lab03-dot/kit/manifest.ini", name, sizeof name);
    ck_assert_str_eq(name, "lab03-dot");
    labdir_id_of_manifest("/kit/labs/lab03-dot/kit/manifest.ini", id, sizeof id);
    ck_assert_str_eq(id, "lab03");
    labdir_name_of_manifest("labs/lab12-toeplitz-matvec/kit/manifest.ini", name, sizeof name);
    ck_assert_str_eq(name, "lab12-toeplitz-matvec");
    labdir_name_of_manifest("manifest.ini", name, sizeof name);
    ck_assert_str_eq(name, "");
}
END_TEST

START_TEST(the_kits_labs)
{
    /* every lab of this kit is found, and each has its student/ and kit/ folders */
    char pattern[4096], dir[4096], name[256];
    snprintf(pattern, sizeof pattern, "%s/" LABDIR_MANIFESTS, kit_test_root());
    glob_t g;
    ck_assert_int_eq(glob(pattern, 0, NULL, &g), 0);
    ck_assert_uint_ge(g.gl_pathc, 1);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        labdir_name_of_manifest(g.gl_pathv[i], name, sizeof name);
        ck_assert_msg(!strncmp(name, "lab", 3), "%s: %s", g.gl_pathv[i], name);
        labdir_path(dir, sizeof dir, kit_test_root(), name, "student");
        ck_assert_msg(access(dir, R_OK | X_OK) == 0, "%s", dir);
    }
    globfree(&g);
}
END_TEST

static Suite *labdir_suite(void)
{
    Suite *s = suite_create("labdir");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, paths_of_a_lab);
    tcase_add_test(tc, names_from_the_manifest);
    tcase_add_test(tc, the_kits_labs);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(labdir_suite)
