/* params.h - case parameters: "n=1025 type=float dist=skewed".
 *
 * The rubric describes each test case as a line of key=value words.  The
 * grader hands the same line to the runner (which generates the inputs) and
 * to the checker (which regenerates them), so both parse it here.
 * Integer values accept readable forms: 1000, 2^20, 2^24+3, 10^6+1, 1e5, 3*1000.
 */
#ifndef KIT_PARAMS_H
#define KIT_PARAMS_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

#define KIT_PARAMS_MAX 32
#define KIT_PARAM_KEY 32
#define KIT_PARAM_VAL 128

typedef struct {
    int count;
    struct {
        char key[KIT_PARAM_KEY];
        char val[KIT_PARAM_VAL];
    } items[KIT_PARAMS_MAX];
} kit_params;

/* Parses `text`; later keys override earlier ones.  Returns 0, or -1 with a
 * reason in err ("word 'n' has no '='", "too many parameters", ...). */
int kit_params_parse(const char *text, kit_params *out, char *err, size_t errlen);
/* Appends/overrides the words of `text` on top of `p` (same rules). */
int kit_params_merge(kit_params *p, const char *text, char *err, size_t errlen);
const char *kit_params_get(const kit_params *p, const char *key, const char *def);
int kit_params_has(const kit_params *p, const char *key);
/* Integer value; `def` when absent.  On a malformed value, *ok (if given) is set to 0. */
long long kit_params_ll(const kit_params *p, const char *key, long long def, int *ok);
double kit_params_f64(const kit_params *p, const char *key, double def, int *ok);
/* Writes the parameters back as "k=v k=v" (canonical order: as stored). */
int kit_params_format(const kit_params *p, char *buf, size_t len);

/* Every key of p must be one of the space-separated words of `allowed`;
 * otherwise -1 with "unknown parameter 'm' (this lab takes: n type dist)". */
int kit_params_only(const kit_params *p, const char *allowed, char *err, size_t errlen);
/* The value of key (def when absent) must be one of the space-separated
 * words of `choices`: 0 and *out, or -1 with "type must be one of: float int
 * (got 'double')". */
int kit_params_choice(const kit_params *p, const char *key, const char *choices, const char *def, const char **out,
                      char *err, size_t errlen);

/* ---- provided by each lab's dataset.c ----
 * Checks a case's parameters with the lab's own rules (known keys, values,
 * ranges) without generating any data: the lab's generator calls it first,
 * and `check --validate` (kitgrade validate, the rubric at grading start,
 * `make run-labNN P=...`) calls it alone.  0, or -1 with one line in err. */
int lab_params_validate(const kit_params *p, char *err, size_t errlen);

/* Evaluates an integer expression: digits, '^' (power), 'e' (decimal
 * exponent), '*', '+', '-'.  Returns 0 and *out, or -1 when malformed/overflowing. */
int kit_eval_int(const char *s, long long *out);

#ifdef __cplusplus
}
#endif
#endif
