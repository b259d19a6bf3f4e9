/* field.h - a field of a lab's struct named as data: its offset + 1 (0 is
 * "none", so an entry a designated initializer leaves out declares nothing).
 * The data descriptors (kit/lab_decl.cuh, kit/check_driver.h) name counts,
 * pointers and conditions this way; counts and conditions are `int` fields
 * (the datasets' n, bins, is_int). */
#ifndef KIT_FIELD_H
#define KIT_FIELD_H
#include <stddef.h>
#include <string.h>

typedef size_t kit_at;
#define KIT_AT(type, member) ((kit_at)offsetof(type, member) + 1)

/* The int at `at` in s; 0 for no field. */
static inline int kit_field_int(const void *s, kit_at at)
{
    int v = 0;
    if (at)
        memcpy(&v, (const char *)s + at - 1, sizeof v);
    return v;
}

/* Holds when the int field equals `is` and the int field `and_field`
 * equals `and_is` (lab06's part=1 type=int); a field 0: no condition. */
typedef struct {
    kit_at field;
    int is;
    kit_at and_field;
    int and_is;
} kit_when;
#define KIT_WHEN(type, member, value) {KIT_AT(type, member), value}
#define KIT_WHEN2(type, member, value, member2, value2) {KIT_AT(type, member), value, KIT_AT(type, member2), value2}

static inline int kit_when_holds(const kit_when *w, const void *s)
{
    return (!w->field || kit_field_int(s, w->field) == w->is) &&
           (!w->and_field || kit_field_int(s, w->and_field) == w->and_is);
}

#endif
