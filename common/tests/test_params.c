/* test_params.c - key=value parsing, overrides, readable integers. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "kit/params.h"

START_TEST(parse_basic)
{
    kit_params p;
    char err[128] = "";
    ck_assert_int_eq(kit_params_parse("  n=1025 type=float\tdist=skewed \n", &p, err, sizeof err), 0);
    ck_assert_int_eq(p.count, 3);
    ck_assert_str_eq(kit_params_get(&p, "type", "?"), "float");
    ck_assert_str_eq(kit_params_get(&p, "dist", "?"), "skewed");
    ck_assert_str_eq(kit_params_get(&p, "missing", "dflt"), "dflt");
    ck_assert(kit_params_has(&p, "n"));
    ck_assert(!kit_params_has(&p, "N")); /* keys are case-sensitive */
    int ok = 1;
    ck_assert_int_eq(kit_params_ll(&p, "n", 0, &ok), 1025);
    ck_assert_int_eq(kit_params_ll(&p, "absent", -7, &ok), -7);
    ck_assert_int_eq(ok, 1);
    ck_assert_int_eq(kit_params_parse("", &p, err, sizeof err), 0);
    ck_assert_int_eq(p.count, 0);
    ck_assert_int_eq(kit_params_parse(NULL, &p, err, sizeof err), 0);
}
END_TEST

START_TEST(parse_overrides)
{
    kit_params p;
    char err[128];
    ck_assert_int_eq(kit_params_parse("n=1 m=2 n=3", &p, err, sizeof err), 0);
    ck_assert_int_eq(p.count, 2);
    ck_assert_str_eq(kit_params_get(&p, "n", ""), "3");
    ck_assert_int_eq(kit_params_merge(&p, "m=20 k=x", err, sizeof err), 0);
    ck_assert_int_eq(p.count, 3);
    ck_assert_str_eq(kit_params_get(&p, "m", ""), "20");
    ck_assert_str_eq(kit_params_get(&p, "k", ""), "x");
    char buf[128];
    ck_assert_int_eq(kit_params_format(&p, buf, sizeof buf), (int)strlen("n=3 m=20 k=x"));
    ck_assert_str_eq(buf, "n=3 m=20 k=x");
    /* snprintf semantics: truncated, still terminated, full length returned */
    char small[5];
    ck_assert_int_eq(kit_params_format(&p, small, sizeof small), 12);
    ck_assert_str_eq(small, "n=3 ");
    /* a value may contain '=' after the first one */
    ck_assert_int_eq(kit_params_parse("expr=a=b", &p, err, sizeof err), 0);
    ck_assert_str_eq(kit_params_get(&p, "expr", ""), "a=b");
}
END_TEST

static void expect_bad(const char *text, const char *needle)
{
    kit_params p;
    char err[160] = "";
    ck_assert_msg(kit_params_parse(text, &p, err, sizeof err) == -1, "'%s' was accepted", text);
    ck_assert_msg(strstr(err, needle) != NULL, "'%s': error '%s' lacks '%s'", text, err, needle);
}

START_TEST(parse_malformed)
{
    expect_bad("n=5 m", "word 'm' has no '='");
    expect_bad("=5", "no key");
    expect_bad("n=", "no value");
    expect_bad("n$=3", "key may only contain");
    char longkey[64];
    memset(longkey, 'k', 40);
    strcpy(longkey + 40, "=1");
    expect_bad(longkey, "too long");
    char longval[200] = "v=";
    memset(longval + 2, '9', 150);
    longval[152] = '\0';
    expect_bad(longval, "too long");
    char many[512] = "";
    for (int i = 0; i <= KIT_PARAMS_MAX; i++)
        sprintf(many + strlen(many), "k%d=1 ", i);
    expect_bad(many, "too many parameters");
    /* a failed merge leaves the parameters as they were */
    kit_params p;
    char err[128];
    ck_assert_int_eq(kit_params_parse("n=1", &p, err, sizeof err), 0);
    ck_assert_int_eq(kit_params_merge(&p, "n=2 bad", err, sizeof err), -1);
    ck_assert_str_eq(kit_params_get(&p, "n", ""), "1");
    ck_assert_int_eq(p.count, 1);
}
END_TEST

static long long eval_ok(const char *s)
{
    long long v = 0;
    ck_assert_msg(kit_eval_int(s, &v) == 0, "'%s' rejected", s);
    return v;
}

START_TEST(eval_forms)
{
    ck_assert_int_eq(eval_ok("1000"), 1000);
    ck_assert_int_eq(eval_ok("0"), 0);
    ck_assert_int_eq(eval_ok("2^20"), 1 << 20);
    ck_assert_int_eq(eval_ok("2^24+3"), (1 << 24) + 3);
    ck_assert_int_eq(eval_ok("10^6+1"), 1000001);
    ck_assert_int_eq(eval_ok("1e5"), 100000);
    ck_assert_int_eq(eval_ok("3E2"), 300);
    ck_assert_int_eq(eval_ok("3*1000"), 3000);
    ck_assert_int_eq(eval_ok("-5"), -5);
    ck_assert_int_eq(eval_ok("2^20-1"), (1 << 20) - 1);
    /* precedence: ^ over * over +/-; - and + left to right; ^ right to left */
    ck_assert_int_eq(eval_ok("2*3^2"), 18);
    ck_assert_int_eq(eval_ok("1+2*3"), 7);
    ck_assert_int_eq(eval_ok("10-2-3"), 5);
    ck_assert_int_eq(eval_ok("2^3^2"), 512);
    ck_assert_int_eq(eval_ok("-2^2"), -4);
    ck_assert_int_eq(eval_ok("3*-2"), -6);
    ck_assert_int_eq(eval_ok("5--3"), 8);
    ck_assert_int_eq(eval_ok("2^0"), 1);
    ck_assert_int_eq(eval_ok("0^0"), 1);
    ck_assert_int_eq(eval_ok("1^100000000000"), 1);
    ck_assert_int_eq(eval_ok("9223372036854775807"), LLONG_MAX);
    ck_assert_int_eq(eval_ok("-2^62*2"), LLONG_MIN);
    ck_assert_int_eq(eval_ok("2^62-1+2^62"), LLONG_MAX);
}
END_TEST

START_TEST(eval_malformed_and_overflow)
{
    static const char *bad[] = {"", "abc", "2^", "^2", "1e", "e5", "2**3", "1.5", "5-", "2^-1", "--5",
                                "+5", "0x10", "1 2", "3*", "2^20z", "(1)", "1,000",
                                /* overflow */
                                "2^63", "2^62*2", "2^62+2^62", "9223372036854775808", "10^19", "1e19",
                                "99999999999999999999999", "2^100000000000", "-9223372036854775807-2",
                                "3^40*1000"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        long long v = 12345;
        ck_assert_msg(kit_eval_int(bad[i], &v) == -1, "'%s' accepted as %lld", bad[i], v);
        ck_assert_int_eq(v, 12345); /* *out untouched on failure */
    }
    ck_assert_int_eq(kit_eval_int(NULL, NULL), -1);
}
END_TEST

START_TEST(typed_getters)
{
    kit_params p;
    char err[128];
    ck_assert_int_eq(kit_params_parse("n=2^24+3 bad=12x tol=1e-3 half=0.5 big=2^10 nan=nan", &p, err, sizeof err), 0);
    int ok = 1;
    ck_assert_int_eq(kit_params_ll(&p, "n", 0, &ok), (1 << 24) + 3);
    ck_assert_int_eq(ok, 1);
    ck_assert_int_eq(kit_params_ll(&p, "bad", 42, &ok), 42);
    ck_assert_int_eq(ok, 0);
    ok = 1;
    ck_assert_double_eq(kit_params_f64(&p, "tol", 0, &ok), 1e-3);
    ck_assert_double_eq(kit_params_f64(&p, "half", 0, &ok), 0.5);
    ck_assert_double_eq(kit_params_f64(&p, "big", 0, &ok), 1024.0);
    ck_assert_double_eq(kit_params_f64(&p, "absent", 2.5, &ok), 2.5);
    ck_assert_int_eq(ok, 1);
    ck_assert_double_eq(kit_params_f64(&p, "nan", 3.0, &ok), 3.0);
    ck_assert_int_eq(ok, 0);
    ck_assert_int_eq(kit_params_ll(&p, "bad", 1, NULL), 1); /* ok may be NULL */
}
END_TEST

START_TEST(only_and_choice)
{
    kit_params p;
    char err[256];
    const char *v = NULL;
    ck_assert_int_eq(kit_params_parse("n=31 type=int", &p, err, sizeof err), 0);
    ck_assert_int_eq(kit_params_only(&p, "n type dist", err, sizeof err), 0);
    ck_assert_int_eq(kit_params_choice(&p, "type", "float int", "float", &v, err, sizeof err), 0);
    ck_assert_str_eq(v, "int");
    ck_assert_int_eq(kit_params_choice(&p, "dist", "uniform positive", "uniform", &v, err, sizeof err), 0);
    ck_assert_str_eq(v, "uniform");
    ck_assert_int_eq(kit_params_parse("m=31 n=1", &p, err, sizeof err), 0);
    ck_assert_int_eq(kit_params_only(&p, "n type dist", err, sizeof err), -1);
    ck_assert_str_eq(err, "unknown parameter 'm' (this lab takes: n type dist)");
    /* a key that is a prefix or part of an allowed one is still unknown */
    ck_assert_int_eq(kit_params_parse("ty=int", &p, err, sizeof err), 0);
    ck_assert_int_eq(kit_params_only(&p, "n type", err, sizeof err), -1);
    ck_assert_int_eq(kit_params_parse("type=double", &p, err, sizeof err), 0);
    ck_assert_int_eq(kit_params_choice(&p, "type", "float int", "float", &v, err, sizeof err), -1);
    ck_assert_str_eq(err, "type must be one of: float int (got 'double')");
    ck_assert_int_eq(kit_params_parse("type=floa", &p, err, sizeof err), 0);
    ck_assert_int_eq(kit_params_choice(&p, "type", "float int", "float", &v, err, sizeof err), -1);
}
END_TEST

static Suite *params_suite(void)
{
    Suite *s = suite_create("params");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, parse_basic);
    tcase_add_test(tc, parse_overrides);
    tcase_add_test(tc, parse_malformed);
    tcase_add_test(tc, eval_forms);
    tcase_add_test(tc, eval_malformed_and_overflow);
    tcase_add_test(tc, typed_getters);
    tcase_add_test(tc, only_and_choice);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(params_suite)
