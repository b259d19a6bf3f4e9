/* blob.h - the runner's output file: named, typed arrays.
 *
 * The runner (which contains the student's code) writes what it computed into
 * one file; the checker (kit code only) reads it back.  The reader treats the
 * file as hostile: every length is checked against the file size and a cap, a
 * missing or mistyped array is an error with a message, never a crash.
 *
 * Layout: "KITBLOB1", u64 nonce, then records:
 *   u32 name_len, name bytes, u32 type, u64 count, count*size(type) bytes.
 * Names: 1..64 bytes of printable ASCII (spaces allowed), unique in a file.
 * All integers little-endian (the kit only targets x86-64 / aarch64 hosts).
 */
#ifndef KIT_BLOB_H
#define KIT_BLOB_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    KIT_T_I32 = 1,
    KIT_T_I64 = 2,
    KIT_T_F32 = 3,
    KIT_T_F64 = 4,
    KIT_T_TEXT = 5, /* bytes; count = length, no terminator stored */
    KIT_T_U32 = 6
} kit_type;

size_t kit_type_size(kit_type t);
const char *kit_type_name(kit_type t);

typedef struct kit_writer kit_writer;
kit_writer *kit_writer_open(const char *path, uint64_t nonce);
int kit_writer_put(kit_writer *w, const char *name, kit_type t, const void *data, uint64_t count);
int kit_writer_put_text(kit_writer *w, const char *name, const char *text);
/* Flushes and closes; returns 0 when every write succeeded. */
int kit_writer_close(kit_writer *w);

typedef struct kit_blobfile kit_blobfile;
/* Loads the whole file.  max_bytes caps what is accepted (0: 4 GiB).  On
 * error returns NULL with a reason in err. */
kit_blobfile *kit_blob_load(const char *path, uint64_t expect_nonce, uint64_t max_bytes, char *err,
                            size_t errlen);
void kit_blob_free(kit_blobfile *b);
/* Returns the array called `name` if it exists with type `t`, else NULL (a
 * present array with count 0 still gives a non-NULL pointer).  On
 * NULL, kit_blob_why() explains ("no array 'result'", "'result' is f32, expected i32"). */
const void *kit_blob_get(const kit_blobfile *b, const char *name, kit_type t, uint64_t *count);
const char *kit_blob_why(const kit_blobfile *b);
/* The f64 array `name` of one value (a runner's times and metrics), or 0
 * when there is none, it is not f64, or it holds more or fewer values. */
double kit_blob_f64(const kit_blobfile *b, const char *name);
/* Text arrays as NUL-terminated copies (caller frees); NULL when absent. */
char *kit_blob_text(const kit_blobfile *b, const char *name);
int kit_blob_count(const kit_blobfile *b);
const char *kit_blob_name(const kit_blobfile *b, int i);

#ifdef __cplusplus
}
#endif
#endif
