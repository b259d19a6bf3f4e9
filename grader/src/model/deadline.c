/* deadline.c - due dates and the late policy (see deadline.h). */
#include "model/deadline.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

int deadline_parse(const char *text, long long *out, char *err, size_t errlen)
{
    int Y, M, D, h, m, s = 0, n = 0, k = 0;
    const char *p = text;
    if (sscanf(p, "%4d-%2d-%2d%n", &Y, &M, &D, &n) != 3 || (p[n] != 'T' && p[n] != ' '))
        goto bad;
    p += n + 1;
    if (sscanf(p, "%2d:%2d%n", &h, &m, &n) != 2)
        goto bad;
    p += n;
    if (*p == ':' && sscanf(p, ":%2d%n", &s, &k) == 1)
        p += k;
    while (*p == ' ')
        p++;
    long off = 0;
    if (!strcmp(p, "Z") || !strcmp(p, "UTC"))
        off = 0;
    else if ((*p == '+' || *p == '-') && strlen(p) == 6 && p[3] == ':') {
        int oh, om;
        if (sscanf(p + 1, "%2d:%2d", &oh, &om) != 2 || oh > 14 || om > 59)
            goto bad;
        off = (oh * 3600L + om * 60L) * (*p == '-' ? -1 : 1);
    } else
        goto bad;
    if (M < 1 || M > 12 || D < 1 || D > 31 || h > 23 || m > 59 || s > 60 || Y < 1970)
        goto bad;
    struct tm tm = {0};
    tm.tm_year = Y - 1900, tm.tm_mon = M - 1, tm.tm_mday = D, tm.tm_hour = h, tm.tm_min = m, tm.tm_sec = s;
    time_t t = timegm(&tm);
    struct tm back;
    gmtime_r(&t, &back);
    if (back.tm_mday != D) /* 2026-02-30 */
        goto bad;
    *out = (long long)t - off;
    return 0;
bad:
    snprintf(err, errlen, "bad date '%s' (expected YYYY-MM-DD HH:MM[:SS] with a time zone: Z, UTC or +HH:MM, "
                          "e.g. 2026-12-04 23:59 +01:00)", text);
    return -1;
}

void deadline_format(long long t, char *buf, size_t len)
{
    time_t tt = (time_t)t;
    struct tm tm;
    gmtime_r(&tt, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int deadline_late_days(const rubric *r, long long handed_in)
{
    if (!r->due || handed_in <= r->due)
        return 0;
    return (int)((handed_in - r->due + 86399) / 86400);
}

double deadline_penalty_pct(const rubric *r, long long handed_in)
{
    double p = deadline_late_days(r, handed_in) * r->late_penalty;
    return p > 100 ? 100 : p;
}

int deadline_past_cutoff(const rubric *r, long long t) { return r->cutoff && t > r->cutoff; }

void deadline_describe(const rubric *r, char *buf, size_t len)
{
    buf[0] = 0;
    if (!r->due)
        return;
    char due[32], cut[32] = "";
    deadline_format(r->due, due, sizeof due);
    if (r->cutoff)
        deadline_format(r->cutoff, cut, sizeof cut);
    snprintf(buf, len, "due %s, %g%% off per day started late%s%s", due, r->late_penalty,
             r->cutoff ? ", no hand-in after " : "", cut);
}
