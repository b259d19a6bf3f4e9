/* show_corner.c - a matrix's top-left corner for show mode (see
 * kit/show_corner.h). */
#include "kit/show_corner.h"

#define CORNER 4

void kit_show_corner(FILE *out, const char *what, kit_type type, const void *m, int rows, int cols)
{
    int r = rows < CORNER ? rows : CORNER, c = cols < CORNER ? cols : CORNER;
    fprintf(out, "top-left %d x %d of %s:\n", r, c, what);
    for (int i = 0; i < r; i++) {
        fprintf(out, "  ");
        for (int j = 0; j < c; j++) {
            size_t t = (size_t)i * (size_t)cols + (size_t)j;
            fprintf(out, " %12.6g", type == KIT_T_F64 ? ((const double *)m)[t] : (double)((const float *)m)[t]);
        }
        fprintf(out, "\n");
    }
}
