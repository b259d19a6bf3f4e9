/* blob.c - the runner's output file (see kit/blob.h for the layout).
 *
 * The writer runs inside the runner, next to student code; the reader runs
 * in the checker and treats the file as hostile: every length is checked
 * against what is left of the file before it is used.
 */
#include "kit/blob.h"
#include "kit/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BLOB_MAGIC "KITBLOB1"
#define BLOB_MAGIC_LEN 8
#define BLOB_NAME_MAX 64
#define BLOB_DEFAULT_CAP (4ULL << 30)

size_t kit_type_size(kit_type t)
{
    switch (t) {
    case KIT_T_I32: return 4;
    case KIT_T_I64: return 8;
    case KIT_T_F32: return 4;
    case KIT_T_F64: return 8;
    case KIT_T_TEXT: return 1;
    case KIT_T_U32: return 4;
    }
    return 0;
}

const char *kit_type_name(kit_type t)
{
    switch (t) {
    case KIT_T_I32: return "i32";
    case KIT_T_I64: return "i64";
    case KIT_T_F32: return "f32";
    case KIT_T_F64: return "f64";
    case KIT_T_TEXT: return "text";
    case KIT_T_U32: return "u32";
    }
    return "unknown type";
}

/* ---- little-endian integers, byte by byte (no alignment assumptions) ---- */
static void put_le(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* ---- writer ---------------------------------------------------------------- */
struct kit_writer {
    FILE *f;
    int failed; /* any write failed: close reports it */
};

static void w_bytes(kit_writer *w, const void *p, size_t n)
{
    if (n && fwrite(p, 1, n, w->f) != n)
        w->failed = 1;
}

kit_writer *kit_writer_open(const char *path, uint64_t nonce)
{
    kit_writer *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->f = fopen(path, "wb");
    if (!w->f) {
        free(w);
        return NULL;
    }
    unsigned char n[8];
    put_le(n, nonce, 8);
    w_bytes(w, BLOB_MAGIC, BLOB_MAGIC_LEN);
    w_bytes(w, n, 8);
    return w;
}

int kit_writer_put(kit_writer *w, const char *name, kit_type t, const void *data, uint64_t count)
{
    if (!w || !name)
        return -1;
    size_t nlen = strlen(name), size = kit_type_size(t);
    /* Refuse what the reader would reject, so the error surfaces here. */
    if (nlen == 0 || nlen > BLOB_NAME_MAX || size == 0 || count > UINT64_MAX / size ||
        (count && !data)) {
        w->failed = 1;
        return -1;
    }
    unsigned char head[4], mid[12];
    put_le(head, nlen, 4);
    put_le(mid, (uint64_t)t, 4);
    put_le(mid + 4, count, 8);
    w_bytes(w, head, 4);
    w_bytes(w, name, nlen);
    w_bytes(w, mid, 12);
    w_bytes(w, data, (size_t)(count * size));
    return w->failed ? -1 : 0;
}

int kit_writer_put_text(kit_writer *w, const char *name, const char *text)
{
    return kit_writer_put(w, name, KIT_T_TEXT, text ? text : "", text ? strlen(text) : 0);
}

int kit_writer_close(kit_writer *w)
{
    if (!w)
        return -1;
    int bad = w->failed;
    if (fflush(w->f) != 0 || ferror(w->f))
        bad = 1;
    if (fclose(w->f) != 0)
        bad = 1;
    free(w);
    return bad ? -1 : 0;
}

/* ---- reader ---------------------------------------------------------------- */
typedef struct {
    char name[BLOB_NAME_MAX + 1];
    kit_type type;
    uint64_t count;
    void *data; /* own allocation: aligned for any element type */
} blob_rec;

struct kit_blobfile {
    int n;
    blob_rec *recs;
    char why[160]; /* reason of the last failed kit_blob_get */
};

void kit_blob_free(kit_blobfile *b)
{
    if (!b)
        return;
    for (int i = 0; i < b->n; i++)
        free(b->recs[i].data);
    free(b->recs);
    free(b);
}

/* Opens the output file for reading, its size (at most cap bytes) in *len;
 * NULL with err set when it cannot be read or is too large. */
static FILE *open_file(const char *path, uint64_t cap, size_t *len, char *err, size_t errlen)
{
    /* Not through a symbolic link, never blocking on a FIFO, a regular file
     * only: a submission that is still running (a case server between two
     * cases) may swap the file after the grader looked at it. */
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0) {
        kit_set_err(err, errlen, "cannot open output file %s: %s", path,
                errno == ELOOP ? "it is a symbolic link" : strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        kit_set_err(err, errlen, "cannot read output file %s: not a regular file", path);
        close(fd);
        return NULL;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        kit_set_err(err, errlen, "cannot open output file %s: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    if (size < 0 || fseek(f, 0, SEEK_SET) != 0) {
        kit_set_err(err, errlen, "cannot read output file %s: not a regular file", path);
        fclose(f);
        return NULL;
    }
    if ((uint64_t)size > cap || (uint64_t)size >= SIZE_MAX) {
        kit_set_err(err, errlen, "output file is %ld bytes, more than the limit of %llu bytes", size,
                (unsigned long long)cap);
        fclose(f);
        return NULL;
    }
    *len = (size_t)size;
    return f;
}

/* The next n bytes of the file into p.  Every length was checked against
 * the size the file had when opened, so running short (or, at the end,
 * finding more) means it changed while being read: not a finished file. */
static int take(FILE *f, void *p, size_t n, const char *path, char *err, size_t errlen)
{
    if (fread(p, 1, n, f) == n)
        return 0;
    kit_set_err(err, errlen, "output file %s changed size while being read", path);
    return -1;
}

static int name_ok(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] < 0x20 || p[i] > 0x7e) /* printable ASCII: names appear in messages */
            return 0;
    return 1;
}

/* Room in b->recs (of *cap) for one more record; -1 with err set when none. */
static int grow(kit_blobfile *b, size_t *cap, char *err, size_t errlen)
{
    if ((size_t)b->n < *cap)
        return 0;
    size_t ncap = *cap ? 2 * *cap : 16;
    blob_rec *nr = realloc(b->recs, ncap * sizeof *nr);
    if (!nr) {
        kit_set_err(err, errlen, "out of memory reading the output file");
        return -1;
    }
    b->recs = nr;
    *cap = ncap;
    return 0;
}

/* Reads the records after the header, each array straight into its own
 * block (no copy of the whole file: lab06's arrays are 2^27 elements).  On
 * error returns -1 with err set; the records read so far stay in b (freed
 * by the caller). */
static int parse_records(kit_blobfile *b, FILE *f, size_t len, const char *path, char *err, size_t errlen)
{
    size_t pos = BLOB_MAGIC_LEN + 8, cap = 0;
    unsigned char head[4 + BLOB_NAME_MAX + 12];
    while (pos < len) {
        int idx = b->n;
        size_t left = len - pos;
        if (left < 4) {
            kit_set_err(err, errlen, "output file truncated in record %d (at byte %zu)", idx + 1, pos);
            return -1;
        }
        if (take(f, head, 4, path, err, errlen) != 0)
            return -1;
        uint64_t nlen = get_le(head, 4);
        if (nlen == 0 || nlen > BLOB_NAME_MAX) {
            kit_set_err(err, errlen, "corrupt output file: record %d has a name of %llu bytes (1..%d allowed)",
                    idx + 1, (unsigned long long)nlen, BLOB_NAME_MAX);
            return -1;
        }
        if (left - 4 < nlen + 12) {
            kit_set_err(err, errlen, "output file truncated in record %d (at byte %zu)", idx + 1, pos);
            return -1;
        }
        const unsigned char *name = head + 4;
        if (take(f, head + 4, (size_t)nlen + 12, path, err, errlen) != 0)
            return -1;
        if (!name_ok(name, (size_t)nlen)) {
            kit_set_err(err, errlen, "corrupt output file: record %d has an unprintable name", idx + 1);
            return -1;
        }
        uint64_t type = get_le(name + nlen, 4), count = get_le(name + nlen + 4, 8);
        size_t size = kit_type_size((kit_type)type);
        if (size == 0) {
            kit_set_err(err, errlen, "corrupt output file: array '%.*s' has unknown type %llu", (int)nlen, name,
                    (unsigned long long)type);
            return -1;
        }
        pos += 4 + (size_t)nlen + 12;
        /* count * size <= what is left, tested by division: no overflow */
        if (count > (len - pos) / size) {
            kit_set_err(err, errlen,
                    "output file truncated: array '%.*s' declares %llu elements but only %zu bytes follow",
                    (int)nlen, name, (unsigned long long)count, len - pos);
            return -1;
        }
        for (int i = 0; i < b->n; i++)
            if (strlen(b->recs[i].name) == nlen && memcmp(b->recs[i].name, name, nlen) == 0) {
                kit_set_err(err, errlen, "corrupt output file: array '%.*s' appears twice", (int)nlen, name);
                return -1;
            }
        if (grow(b, &cap, err, errlen) != 0)
            return -1;
        size_t bytes = (size_t)count * size;
        blob_rec *r = &b->recs[b->n];
        r->data = kit_malloc_large(bytes); /* non-NULL even when empty: present != absent */
        if (!r->data) {
            kit_set_err(err, errlen, "out of memory reading array '%.*s' (%zu bytes)", (int)nlen, name, bytes);
            return -1;
        }
        if (take(f, r->data, bytes, path, err, errlen) != 0) {
            free(r->data);
            return -1;
        }
        memcpy(r->name, name, (size_t)nlen);
        r->name[nlen] = '\0';
        r->type = (kit_type)type;
        r->count = count;
        b->n++;
        pos += bytes;
    }
    if (fgetc(f) != EOF) { /* grew while we read */
        kit_set_err(err, errlen, "output file %s changed size while being read", path);
        return -1;
    }
    return 0;
}

kit_blobfile *kit_blob_load(const char *path, uint64_t expect_nonce, uint64_t max_bytes, char *err,
                            size_t errlen)
{
    size_t len = 0;
    FILE *f = open_file(path, max_bytes ? max_bytes : BLOB_DEFAULT_CAP, &len, err, errlen);
    if (!f)
        return NULL;
    unsigned char head[BLOB_MAGIC_LEN + 8];
    size_t got = len < sizeof head ? len : sizeof head;
    kit_blobfile *b = NULL;
    if (take(f, head, got, path, err, errlen) != 0) {
        /* err says the file changed */
    } else if (len < BLOB_MAGIC_LEN || memcmp(head, BLOB_MAGIC, BLOB_MAGIC_LEN) != 0) {
        kit_set_err(err, errlen, len == 0 ? "output file is empty (the runner wrote nothing)"
                                      : "not a kit output file (bad magic: the file was overwritten?)");
    } else if (len < BLOB_MAGIC_LEN + 8) {
        kit_set_err(err, errlen, "output file truncated in its header (%zu bytes)", len);
    } else if (get_le(head + BLOB_MAGIC_LEN, 8) != expect_nonce) {
        kit_set_err(err, errlen, "output file belongs to another run (nonce %016llx, expected %016llx)",
                (unsigned long long)get_le(head + BLOB_MAGIC_LEN, 8), (unsigned long long)expect_nonce);
    } else if (!(b = calloc(1, sizeof *b))) {
        kit_set_err(err, errlen, "out of memory reading the output file");
    } else if (parse_records(b, f, len, path, err, errlen) != 0) {
        kit_blob_free(b);
        b = NULL;
    }
    fclose(f);
    return b;
}

static const blob_rec *find_rec(const kit_blobfile *b, const char *name)
{
    for (int i = 0; b && name && i < b->n; i++)
        if (strcmp(b->recs[i].name, name) == 0)
            return &b->recs[i];
    return NULL;
}

const void *kit_blob_get(const kit_blobfile *b, const char *name, kit_type t, uint64_t *count)
{
    if (!b)
        return NULL;
    /* The file object was allocated non-const by kit_blob_load, so writing
     * the reason through a cast is well defined; the API stays const for callers. */
    kit_blobfile *mb = (kit_blobfile *)b;
    const blob_rec *r = find_rec(b, name);
    if (!r) {
        snprintf(mb->why, sizeof mb->why, "no array '%s' in the output", name ? name : "(null)");
        return NULL;
    }
    if (r->type != t) {
        snprintf(mb->why, sizeof mb->why, "'%s' is %s, expected %s", r->name, kit_type_name(r->type),
                 kit_type_name(t));
        return NULL;
    }
    mb->why[0] = '\0';
    if (count)
        *count = r->count;
    return r->data;
}

const char *kit_blob_why(const kit_blobfile *b)
{
    return b ? b->why : "no output file";
}

double kit_blob_f64(const kit_blobfile *b, const char *name)
{
    uint64_t n = 0;
    const double *v = kit_blob_get(b, name, KIT_T_F64, &n);
    return v && n == 1 ? *v : 0;
}

char *kit_blob_text(const kit_blobfile *b, const char *name)
{
    uint64_t n = 0;
    const char *p = kit_blob_get(b, name, KIT_T_TEXT, &n);
    if (!p)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s)
        return NULL;
    memcpy(s, p, (size_t)n);
    s[n] = '\0';
    return s;
}

int kit_blob_count(const kit_blobfile *b)
{
    return b ? b->n : 0;
}

const char *kit_blob_name(const kit_blobfile *b, int i)
{
    return b && i >= 0 && i < b->n ? b->recs[i].name : NULL;
}
