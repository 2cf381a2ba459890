/* tests/test_wst_corrupt.c: bad .wst files give one clear error, never a
 * crash, a hang, an unbounded allocation or silently different data. */
#include <criterion/criterion.h>
#include <string.h>
#include <sys/stat.h>

#include <zstd.h>

#include "formats/packed_record.h"
#include "formats/wst.h"
#include "formats/wst_layout.h"
#include "tests/helpers.h"
#include "tests/trace_gen.h"
#include "util/hash64.h"

typedef struct sample {
    char *dir, *path;
    uint8_t *bytes;
    size_t len;
} sample;

/* m (freed here) written in small frames, so that the sample has several. */
static sample sample_of(wst_memtrace *m, uint32_t chunk_records)
{
    sample s;
    s.dir = test_tmpdir();
    s.path = test_path(s.dir, "t.wst");
    wst_writer_options o = {.chunk_records = chunk_records, .frame_bytes = 512};
    cr_assert_eq(test_write_memtrace(m, s.path, &o), 0);
    wst_memtrace_free(m);
    s.bytes = (uint8_t *)test_read_file(s.path, &s.len);
    return s;
}

static sample make_sample(uint32_t records, uint32_t chunk_records)
{
    return sample_of(test_random_trace(11, 3, records), chunk_records);
}

static void free_sample(sample *s)
{
    free(s->bytes);
    free(s->path);
    test_tmpdir_cleanup(s->dir);
}

/* Opens path and decodes every record, both ways: as whole records
 * (packed here) and straight into the packed form.  The two must agree on
 * whether the file is sound and, when it is, on every packed record (a
 * damaged file can hold what no writer makes, such as a stride whose
 * product by a lane gap overflows).  0 if all is well, -1 with err. */
static int read_everything(const char *path, ws_error *err)
{
    wst_reader *r = wst_reader_open(path, err);
    if (!r)
        return -1;
    packed_cta from_records = {0}, direct = {0};
    wst_cursor *c = wst_cursor_all(r, err);
    const wst_record *batch;
    uint32_t kernel;
    int64_t n;
    while ((n = wst_cursor_next_batch(c, &batch, &kernel, err)) > 0)
        cr_assert_eq(packed_cta_append(&from_records, batch, (size_t)n, err), 0);
    wst_cursor_free(c);
    ws_error direct_err;
    int64_t m;
    c = wst_cursor_all(r, &direct_err);
    while ((m = wst_cursor_next_packed(c, &direct, &kernel, &direct_err)) > 0)
        ;
    wst_cursor_free(c);
    wst_reader_close(r);
    cr_assert_eq(n == 0, m == 0, "the two paths disagree on %s: %s", path,
                 n == 0 ? direct_err.msg : err->msg);
    if (n == 0) {
        cr_assert_eq(direct.count, from_records.count);
        cr_assert_eq(direct.lane_count, from_records.lane_count);
        for (size_t i = 0; i < direct.count; i++) {
            const packed_record *x = &direct.records[i], *y = &from_records.records[i];
            cr_assert_eq(memcmp(x, y, sizeof *x), 0, "packed record %zu differs", i);
            cr_assert_eq(packed_cta_timestamp(&direct, i), packed_cta_timestamp(&from_records, i));
            packed_timing a = packed_cta_timing(&direct, i), b = packed_cta_timing(&from_records, i);
            cr_assert(a.gap == b.gap && a.waits == b.waits && a.has_waits == b.has_waits,
                      "packed record %zu's timing differs", i);
        }
        if (direct.lane_count)
            cr_assert_eq(memcmp(direct.lanes, from_records.lanes,
                                direct.lane_count * sizeof *direct.lanes), 0);
    }
    packed_cta_free(&from_records);
    packed_cta_free(&direct);
    return n == 0 ? 0 : -1;
}

static void write_variant(const sample *s, const char *name, const uint8_t *bytes, size_t len,
                          char **path)
{
    *path = test_path(s->dir, name);
    cr_assert_eq(test_write_file(*path, bytes, len), 0);
}

/* A file of an older version (tests/fixtures/wst-vN). */
static sample fixture_sample(unsigned version, const char *name)
{
    sample s;
    s.dir = test_tmpdir();
    char sub[16];
    snprintf(sub, sizeof sub, "wst-v%u", version);
    char *versions = test_path(test_fixture_dir(), sub);
    char *fixture = test_path(versions, name);
    free(versions);
    s.bytes = (uint8_t *)test_read_file(fixture, &s.len);
    free(fixture);
    s.path = test_path(s.dir, name);
    cr_assert_eq(test_write_file(s.path, s.bytes, s.len), 0);
    return s;
}

static void truncations_fail(sample s)
{
    ws_error err;
    cr_assert_eq(read_everything(s.path, &err), 0, "%s", err.msg);
    for (size_t cut = 0; cut < s.len; cut++) {
        char *path;
        write_variant(&s, "cut.wst", s.bytes, cut, &path);
        memset(&err, 0, sizeof err);
        cr_assert_eq(read_everything(path, &err), -1, "truncated at %zu of %zu was accepted", cut,
                     s.len);
        cr_assert_neq(err.msg[0], '\0');
        cr_assert_null(strchr(err.msg, '\n'), "one line");
        free(path);
    }
    free_sample(&s);
}

Test(wst_corrupt, truncation_at_every_byte) { truncations_fail(make_sample(40, 16)); }
Test(wst_corrupt, truncation_at_every_byte_of_a_version_1_file)
{
    truncations_fail(fixture_sample(1, "lud-small.wst"));
}
Test(wst_corrupt, truncation_at_every_byte_of_a_version_2_file)
{
    truncations_fail(fixture_sample(2, "lud-small.wst"));
}
Test(wst_corrupt, truncation_at_every_byte_of_tiles)
{
    truncations_fail(sample_of(test_tiled_trace(7, 2, 6), 16));
}

/* A trace whose records carry timing (docs/metrics.md §12): frames with
 * the gap and waits columns of version 4. */
static sample timed_sample(uint32_t records, uint32_t chunk_records)
{
    wst_memtrace *m = test_random_trace(12, 3, records);
    test_add_timing(m, 12);
    return sample_of(m, chunk_records);
}

Test(wst_corrupt, truncation_at_every_byte_of_timing) { truncations_fail(timed_sample(40, 16)); }

static void bit_flips_fail(sample s)
{
    uint8_t *copy = malloc(s.len);
    for (size_t at = 0; at < s.len; at++) {
        memcpy(copy, s.bytes, s.len);
        copy[at] ^= (uint8_t)(1u << (at % 8));
        char *path;
        write_variant(&s, "flip.wst", copy, s.len, &path);
        ws_error err;
        cr_assert_eq(read_everything(path, &err), -1, "flip at byte %zu of %zu went unnoticed", at,
                     s.len);
        free(path);
    }
    free(copy);
    free_sample(&s);
}

Test(wst_corrupt, bit_flip_at_every_byte)
{
    sample s = make_sample(40, 16);
    ws_error err;
    wst_reader *r = wst_reader_open(s.path, &err);
    cr_assert_not_null(r, "%s", err.msg);
    cr_assert_gt(wst_reader_frame_count(r), 1, "the sample has several frames");
    wst_reader_close(r);
    bit_flips_fail(s);
}

Test(wst_corrupt, bit_flip_at_every_byte_of_a_version_1_file)
{
    bit_flips_fail(fixture_sample(1, "lud-small.wst"));
}
Test(wst_corrupt, bit_flip_at_every_byte_of_a_version_2_file)
{
    bit_flips_fail(fixture_sample(2, "lud-small.wst"));
}
Test(wst_corrupt, bit_flip_at_every_byte_of_tiles)
{
    bit_flips_fail(sample_of(test_tiled_trace(7, 2, 6), 16));
}
Test(wst_corrupt, bit_flip_at_every_byte_of_timing) { bit_flips_fail(timed_sample(40, 16)); }

Test(wst_corrupt, truncation_at_frame_boundaries_of_a_larger_file)
{
    sample s = make_sample(3000, 100);
    ws_error err;
    wst_reader *r = wst_reader_open(s.path, &err);
    cr_assert_not_null(r);
    size_t frames = wst_reader_frame_count(r);
    cr_assert_gt(frames, 20);
    uint64_t *cuts = malloc(2 * frames * sizeof *cuts);
    for (size_t i = 0; i < frames; i++) {
        const wst_frame_info *f = wst_reader_frame(r, i);
        cuts[2 * i] = f->offset;                             /* at the boundary */
        cuts[2 * i + 1] = f->offset + f->compressed_bytes / 2; /* mid-frame */
    }
    wst_reader_close(r);
    for (size_t i = 0; i < 2 * frames; i++) {
        char *path;
        write_variant(&s, "cut.wst", s.bytes, cuts[i], &path);
        cr_assert_eq(read_everything(path, &err), -1);
        cr_assert(strstr(err.msg, "trunc") != NULL || strstr(err.msg, "trailer") != NULL,
                  "%s", err.msg);
        free(path);
    }
    free(cuts);
    free_sample(&s);
}

/* Rewrites the trailer's own checksum so that only the size checks stand
 * between a forged count and an allocation. */
static void reseal_trailer(uint8_t *bytes, size_t len)
{
    uint8_t *t = bytes + len - WST_TRAILER_BYTES;
    wst_put_u64(t + 56, hash64(t, 56, 0));
}

Test(wst_corrupt, absurd_counts_with_valid_checksums)
{
    sample s = make_sample(40, 16);
    uint8_t *copy = malloc(s.len);
    uint8_t *t = copy + s.len - WST_TRAILER_BYTES;
    ws_error err;
    char *path;

    /* A trillion chunks. */
    memcpy(copy, s.bytes, s.len);
    wst_put_u64(t + 32, 1000000000000ULL);
    reseal_trailer(copy, s.len);
    write_variant(&s, "a.wst", copy, s.len, &path);
    cr_assert_null(wst_reader_open(path, &err));
    cr_assert(strstr(err.msg, "do not fit") != NULL, "%s", err.msg);
    free(path);

    /* Metadata claimed to be 2^63 bytes long. */
    memcpy(copy, s.bytes, s.len);
    wst_put_u64(t + 8, 1ULL << 63);
    reseal_trailer(copy, s.len);
    write_variant(&s, "b.wst", copy, s.len, &path);
    cr_assert_null(wst_reader_open(path, &err));
    free(path);

    /* The first chunk entry claiming 2^31 records (its record count, the
     * last varint of the entry: the first entry always has one), the
     * tables' checksum fixed. */
    uint64_t tables = wst_get_u64(t + 16), frames = wst_get_u64(t + 24);
    uint64_t tables_bytes = s.len - WST_TRAILER_BYTES - tables;
    size_t entry = tables + frames * WST_FRAME_ENTRY_BYTES, at = entry + 1;
    cr_assert(s.bytes[entry] & 4, "the first entry has a record count");
    for (int varint = 0; varint < ((s.bytes[entry] & 1) != 0) + ((s.bytes[entry] & 2) != 0);
         varint++)
        while (s.bytes[at++] & 0x80)
            ;
    cr_assert_lt(s.bytes[at], 0x80, "a one-byte record count");
    static const uint8_t huge[5] = {0x80, 0x80, 0x80, 0x80, 0x08}; /* 2^31 */
    size_t grown_len = s.len + 4;
    uint8_t *grown = malloc(grown_len);
    memcpy(grown, s.bytes, at);
    memcpy(grown + at, huge, 5);
    memcpy(grown + at + 5, s.bytes + at + 1, s.len - at - 1);
    uint8_t *gt = grown + grown_len - WST_TRAILER_BYTES;
    wst_put_u64(gt + 48, hash64(grown + tables, tables_bytes + 4, 0));
    reseal_trailer(grown, grown_len);
    write_variant(&s, "c.wst", grown, grown_len, &path);
    cr_assert_null(wst_reader_open(path, &err));
    cr_assert(strstr(err.msg, "impossible sizes") != NULL, "%s", err.msg);
    free(grown);
    free(path);

    /* A frame pointing past the chunk area. */
    memcpy(copy, s.bytes, s.len);
    wst_put_u64(copy + tables, s.len * 2);
    wst_put_u64(t + 48, hash64(copy + tables, tables_bytes, 0));
    reseal_trailer(copy, s.len);
    write_variant(&s, "d.wst", copy, s.len, &path);
    cr_assert_null(wst_reader_open(path, &err));
    cr_assert(strstr(err.msg, "outside the chunk area") != NULL, "%s", err.msg);
    free(path);
    free(copy);
    free_sample(&s);
}

Test(wst_corrupt, magic_version_empty_directory)
{
    sample s = make_sample(10, 16);
    uint8_t *copy = malloc(s.len);
    ws_error err;
    char *path;

    memcpy(copy, s.bytes, s.len);
    memcpy(copy, "NOTATRCE", 8);
    write_variant(&s, "magic.wst", copy, s.len, &path);
    cr_assert_null(wst_reader_open(path, &err));
    cr_assert_str_eq(err.msg, "not a warpscope trace (bad magic)");
    free(path);

    memcpy(copy, s.bytes, s.len);
    wst_put_u32(copy + 8, 99);
    write_variant(&s, "future.wst", copy, s.len, &path);
    cr_assert_null(wst_reader_open(path, &err));
    cr_assert_str_eq(err.msg, "written by a newer warpscope (format version 99; this reads versions 1 to 4)");
    free(path);

    write_variant(&s, "empty.wst", copy, 0, &path);
    cr_assert_null(wst_reader_open(path, &err));
    cr_assert_str_eq(err.msg, "empty file");
    free(path);

    cr_assert_null(wst_reader_open(s.dir, &err));
    cr_assert_str_eq(err.msg, "is a directory");
    char *missing = test_path(s.dir, "missing.wst");
    cr_assert_null(wst_reader_open(missing, &err));
    cr_assert(strstr(err.msg, "cannot open") != NULL);
    free(missing);
    free(copy);
    free_sample(&s);
}

/* The sample with its metadata's allocation list (the document's last key)
 * replaced by `list`, every checksum and offset made right, so only the
 * metadata checks stand in the way. */
/* The metadata text of a version 2 file (a zstd frame; free it). */
static char *metadata_of(const uint8_t *bytes, size_t len, size_t *text_len)
{
    const uint8_t *t = bytes + len - WST_TRAILER_BYTES;
    uint64_t meta_offset = wst_get_u64(t), meta_bytes = wst_get_u64(t + 8);
    unsigned long long raw = ZSTD_getFrameContentSize(bytes + meta_offset, meta_bytes);
    cr_assert_lt(raw, 1u << 20);
    char *text = malloc(raw + 1);
    cr_assert_eq(ZSTD_decompress(text, raw, bytes + meta_offset, meta_bytes), raw);
    text[raw] = '\0';
    *text_len = raw;
    return text;
}

/* bytes with its metadata replaced by the zstd frame `frame`, the tables
 * moved after it and every checksum redone. */
static uint8_t *with_frame(const uint8_t *bytes, size_t len, const uint8_t *frame,
                           size_t frame_bytes, size_t *new_len)
{
    const uint8_t *t = bytes + len - WST_TRAILER_BYTES;
    uint64_t meta_offset = wst_get_u64(t), tables_offset = wst_get_u64(t + 16);
    size_t tables_bytes = len - WST_TRAILER_BYTES - tables_offset;
    *new_len = meta_offset + frame_bytes + tables_bytes + WST_TRAILER_BYTES;
    uint8_t *copy = malloc(*new_len);
    memcpy(copy, bytes, meta_offset);
    memcpy(copy + meta_offset, frame, frame_bytes);
    memcpy(copy + meta_offset + frame_bytes, bytes + tables_offset,
           tables_bytes + WST_TRAILER_BYTES);
    uint8_t *trailer = copy + *new_len - WST_TRAILER_BYTES;
    wst_put_u64(trailer + 8, frame_bytes);
    wst_put_u64(trailer + 16, meta_offset + frame_bytes);
    wst_put_u64(trailer + 40, hash64(copy + meta_offset, frame_bytes, 0));
    reseal_trailer(copy, *new_len);
    return copy;
}

/* bytes with its metadata replaced by `text` (compressed as the writer
 * does). */
static uint8_t *with_metadata(const uint8_t *bytes, size_t len, const char *text, size_t text_len,
                              size_t *new_len)
{
    size_t bound = ZSTD_compressBound(text_len);
    uint8_t *frame = malloc(bound);
    size_t frame_bytes = ZSTD_compress(frame, bound, text, text_len, 3);
    cr_assert(!ZSTD_isError(frame_bytes));
    uint8_t *copy = with_frame(bytes, len, frame, frame_bytes, new_len);
    free(frame);
    return copy;
}

/* One zstd frame of head, `fill` bytes of `c`, then tail: a bomb, a few KB
 * that decompress to as much as fill. */
static uint8_t *bomb_frame(const char *head, char c, size_t fill, const char *tail,
                           size_t *frame_bytes)
{
    const size_t piece = (size_t)1 << 20;
    size_t total = strlen(head) + fill + strlen(tail);
    char *block = malloc(piece);
    memset(block, c, piece);
    size_t cap = ZSTD_compressBound(total);
    uint8_t *frame = malloc(cap);
    ZSTD_CCtx *z = ZSTD_createCCtx();
    ZSTD_CCtx_setPledgedSrcSize(z, total);
    ZSTD_outBuffer out = {frame, cap, 0};
    for (size_t part = 0; part <= fill / piece + 2; part++) {
        int last = part == fill / piece + 2;
        ZSTD_inBuffer in = part == 0      ? (ZSTD_inBuffer){head, strlen(head), 0}
                           : last         ? (ZSTD_inBuffer){tail, strlen(tail), 0}
                           : part - 1 < fill / piece ? (ZSTD_inBuffer){block, piece, 0}
                                                     : (ZSTD_inBuffer){block, fill % piece, 0};
        ZSTD_EndDirective end = last ? ZSTD_e_end : ZSTD_e_continue;
        size_t left;
        do
            left = ZSTD_compressStream2(z, &out, &in, end);
        while (!ZSTD_isError(left) && (in.pos < in.size || (end == ZSTD_e_end && left)));
        cr_assert(!ZSTD_isError(left));
    }
    ZSTD_freeCCtx(z);
    free(block);
    *frame_bytes = out.pos;
    return frame;
}

static char *with_allocations(const sample *s, const char *list)
{
    size_t text_len;
    char *meta = metadata_of(s->bytes, s->len, &text_len);
    const char *key = memmem(meta, text_len, "\"allocations\":", 14);
    cr_assert_not_null(key, "the sample lists allocations");
    size_t keep = (size_t)(key - meta) + 14, list_len = strlen(list);
    char *text = malloc(keep + list_len + 2);
    memcpy(text, meta, keep);
    memcpy(text + keep, list, list_len);
    text[keep + list_len] = '}';
    size_t len;
    uint8_t *copy = with_metadata(s->bytes, s->len, text, keep + list_len + 1, &len);
    char *path;
    write_variant(s, "alloc.wst", copy, len, &path);
    free(copy);
    free(text);
    free(meta);
    return path;
}

/* Metadata that would decompress past the format's 256 MiB: 300 MiB of
 * zeros, a few KB compressed.  Refused from the frame's header, before
 * anything is allocated for it. */
Test(wst_corrupt, metadata_bomb)
{
    sample s = make_sample(10, 16);
    size_t frame_bytes, len;
    uint8_t *frame = bomb_frame("", 0, (size_t)300 << 20, "", &frame_bytes);
    cr_assert_lt(frame_bytes, 64 << 10, "a bomb: %zu bytes", frame_bytes);
    uint8_t *copy = with_frame(s.bytes, s.len, frame, frame_bytes, &len);
    char *path;
    write_variant(&s, "bomb.wst", copy, len, &path);
    ws_error err;
    cr_assert_null(wst_reader_open(path, &err));
    cr_assert(strstr(err.msg, "at most 256 MiB") != NULL, "%s", err.msg);
    free(path);
    free(copy);
    free(frame);
    free_sample(&s);
}

/* Metadata within the format's 256 MiB whose kernel name is 200 MiB, 40 KB
 * of zstd: `info` decompressed the text whole and parsed it whole (790 MB
 * at its peak, issue 42).  The text is now read as it is decoded and a
 * string past the format's limit is refused, in a one-line error naming
 * the file, well within 64 MiB of address space. */
Test(wst_corrupt, a_name_bomb_in_the_metadata_is_refused_within_little_memory)
{
    sample s = make_sample(10, 16);
    size_t text_len, frame_bytes, len;
    char *meta = metadata_of(s.bytes, s.len, &text_len);
    char *name = strstr(meta, "\"name\":\"");
    cr_assert_not_null(name);
    char *rest = strdup(name + 8); /* the name, then the rest of the document */
    name[8] = '\0';
    uint8_t *frame = bomb_frame(meta, 'a', (size_t)200 << 20, rest, &frame_bytes);
    uint8_t *copy = with_frame(s.bytes, s.len, frame, frame_bytes, &len);
    char *path;
    write_variant(&s, "name-bomb.wst", copy, len, &path);
    cli_result r = cli_run_capped((size_t)64 << 20, "info", path, NULL);
    char expect[512];
    snprintf(expect, sizeof expect, "warpscope: %s: metadata: line 1: a string longer than %u bytes",
             path, 6 * WST_MAX_STRING_BYTES);
    cr_expect_neq(r.status, 0);
    cr_expect(test_is_one_line(r.err) && strncmp(r.err, expect, strlen(expect)) == 0, "%s",
              r.err);
    cr_expect_str_eq(r.out, "");
    cli_result_free(&r);
    free(path);
    free(copy);
    free(frame);
    free(rest);
    free(meta);
    free_sample(&s);
}

Test(wst_corrupt, allocation_tables)
{
    sample s = make_sample(10, 16);
    static const struct {
        const char *list, *error;
    } cases[] = {
        {"{}", "metadata: 'allocations' is not a list of at most 1048576 allocations"},
        {"[1]", "metadata: allocation 0 is not an object"},
        {"[{\"base\":4096}]", "metadata: allocation 0: 'bytes' is not a count"},
        {"[{\"base\":-4096,\"bytes\":16}]", "metadata: allocation 0: 'base' is not a count"},
        {"[{\"base\":4096,\"bytes\":\"16\"}]", "metadata: allocation 0: 'bytes' is not a count"},
        {"[{\"base\":4096,\"bytes\":16},{\"base\":8192,\"bytes\":0}]",
         "metadata: allocation 1 has 0 bytes"},
        {"[{\"base\":9223372036854771712,\"bytes\":4097}]",
         "metadata: allocation 0 ends past 2^63 (base 0x7ffffffffffff000, 4097 bytes)"},
        {"[{\"base\":4096,\"bytes\":256},{\"base\":8192,\"bytes\":16},"
         "{\"base\":4200,\"bytes\":8}]",
         "metadata: allocations 0 and 2 overlap"},
    };
    ws_error err;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *path = with_allocations(&s, cases[i].list);
        cr_assert_null(wst_reader_open(path, &err), "%s was accepted", cases[i].list);
        cr_assert_str_eq(err.msg, cases[i].error);
        free(path);
    }
    /* The largest allowed end, and an empty list (no table), are fine. */
    char *path = with_allocations(&s, "[{\"base\":9223372036854771712,\"bytes\":4096}]");
    cr_assert_eq(read_everything(path, &err), 0, "%s", err.msg);
    free(path);
    path = with_allocations(&s, "[]");
    wst_reader *r = wst_reader_open(path, &err);
    cr_assert_not_null(r, "%s", err.msg);
    cr_assert_eq(wst_reader_trace(r)->allocation_count, 0);
    wst_reader_close(r);
    free(path);
    free_sample(&s);
}

/* A forged count is refused before anything is allocated for it. */
Test(wst_corrupt, absurd_allocation_count)
{
    sample s = make_sample(10, 16);
    size_t n = WST_MAX_ALLOCATIONS + 1;
    char *list = malloc(2 * n + 2), *p = list;
    *p++ = '[';
    for (size_t i = 0; i < n; i++) {
        *p++ = '0';
        *p++ = i + 1 < n ? ',' : ']';
    }
    *p = '\0';
    char *path = with_allocations(&s, list);
    ws_error err;
    cr_assert_null(wst_reader_open(path, &err));
    cr_assert_str_eq(err.msg,
                     "metadata: 'allocations' is not a list of at most 1048576 allocations");
    free(path);
    free(list);
    free_sample(&s);
}

/* CTA ids are u32: a grid of more than 2^32 - 1 CTAs is refused by the
 * writer, and by the reader when forged into valid metadata (the product
 * of its dimensions would otherwise wrap and let ids alias). */
Test(wst_corrupt, grid_of_more_than_2_pow_32_ctas)
{
    cr_assert(wst_grid_fits((wst_dim3){4294967295u, 1, 1}));
    cr_assert(wst_grid_fits((wst_dim3){65535, 65537, 1}));
    cr_assert_not(wst_grid_fits((wst_dim3){4294967295u, 2, 1}));
    cr_assert_not(wst_grid_fits((wst_dim3){65536, 65536, 1}));
    cr_assert_not(wst_grid_fits((wst_dim3){4294967295u, 4294967295u, 4294967295u}));
    cr_assert_not(wst_grid_fits((wst_dim3){0, 1, 1}));

    char *dir = test_tmpdir(), *path = test_path(dir, "g.wst");
    ws_error err;
    wst_origin origin = {.collector = "test"};
    wst_writer *w = wst_writer_open(path, &origin, NULL, &err);
    wst_kernel wide = {.name = "k", .grid = {4294967295u, 2, 1}, .block = {32, 1, 1}};
    cr_assert_eq(wst_writer_add_kernel(w, &wide, &err), -1);
    cr_assert_str_eq(err.msg, "kernel 0: grid (4294967295,2,1) is empty or has more than 2^32-1 CTAs");
    wst_kernel k = {.name = "k", .grid = {4294967295u, 1, 1}, .block = {32, 1, 1}};
    cr_assert_eq(wst_writer_add_kernel(w, &k, &err), 0, "%s", err.msg);
    cr_assert_eq(wst_writer_close(w, &err), 0, "%s", err.msg);

    /* A forgery: [4294967295,1,1] -> [4294967295,2,1], checksums redone. */
    size_t len, text_len;
    uint8_t *bytes = (uint8_t *)test_read_file(path, &len);
    char *meta = metadata_of(bytes, len, &text_len);
    char *grid = memmem(meta, text_len, "[4294967295,1,1]", 16);
    cr_assert_not_null(grid);
    grid[12] = '2';
    size_t forged_len;
    uint8_t *forged = with_metadata(bytes, len, meta, text_len, &forged_len);
    cr_assert_eq(test_write_file(path, forged, forged_len), 0);
    free(forged);
    free(meta);
    cr_assert_null(wst_reader_open(path, &err));
    cr_assert(strstr(err.msg, "grid (4294967295,2,1) has more than 2^32-1 CTAs") != NULL, "%s",
              err.msg);
    free(bytes);
    free(path);
    test_tmpdir_cleanup(dir);
}

/* A kernel's "timing" flag (version 4) is true or false, nothing else. */
Test(wst_corrupt, timing_flag_not_a_boolean)
{
    sample s = timed_sample(10, 16);
    size_t text_len;
    char *meta = metadata_of(s.bytes, s.len, &text_len);
    char *key = memmem(meta, text_len, "\"timing\":true", 13);
    cr_assert_not_null(key, "the sample's kernels are timed");
    memcpy(key, "\"timing\":1234", 13);
    size_t len;
    uint8_t *copy = with_metadata(s.bytes, s.len, meta, text_len, &len);
    char *path;
    write_variant(&s, "timing.wst", copy, len, &path);
    ws_error err;
    cr_assert_null(wst_reader_open(path, &err));
    cr_assert_str_eq(err.msg, "metadata: kernel 0: 'timing' is not true or false");
    free(path);
    free(copy);
    free(meta);
    free_sample(&s);
}
