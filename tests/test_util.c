/* tests/test_util.c: errors, atomic output files, zeroed blocks, hashes in pieces, the CLI's front door. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "tests/helpers.h"
#include "util/error.h"
#include "util/hash64.h"
#include "util/outfile.h"
#include "util/prefault.h"
#include "util/zeroed.h"

Test(error, formats_and_prefixes)
{
    ws_error err = {{0}};
    cr_assert_eq(ws_fail(&err, "bad %s at %d", "hex", 12), -1);
    cr_assert_str_eq(err.msg, "bad hex at 12");
    ws_fail_prefix(&err, "line %d: ", 3);
    cr_assert_str_eq(err.msg, "line 3: bad hex at 12");
    cr_assert_eq(ws_fail(NULL, "ignored"), -1);
}

static int count_entries(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

Test(outfile, commit_renames_into_place)
{
    char *dir = test_tmpdir();
    char *path = test_path(dir, "report.json");
    ws_error err;
    ws_outfile *out = ws_outfile_open(path, &err);
    cr_assert_not_null(out);
    fputs("{}", ws_outfile_stream(out));
    cr_assert_null(test_read_file(path, NULL), "target must not exist before commit");
    cr_assert_eq(ws_outfile_commit(out, &err), 0);
    char *text = test_read_file(path, NULL);
    cr_assert_str_eq(text, "{}");
    cr_assert_eq(count_entries(dir), 1, "no temporary file left behind");
    free(text);
    free(path);
    test_tmpdir_cleanup(dir);
}

Test(outfile, abort_leaves_nothing)
{
    char *dir = test_tmpdir();
    char *path = test_path(dir, "half.json");
    ws_error err;
    ws_outfile *out = ws_outfile_open(path, &err);
    fputs("{\"partial\":", ws_outfile_stream(out));
    ws_outfile_abort(out);
    cr_assert_eq(count_entries(dir), 0);
    free(path);
    test_tmpdir_cleanup(dir);
}

Test(outfile, refuses_directory_and_missing_parent)
{
    char *dir = test_tmpdir();
    ws_error err;
    cr_assert_null(ws_outfile_open(dir, &err));
    cr_assert_str_eq(err.msg, "is a directory");
    char *bad = test_path(dir, "no/such/dir/x.json");
    cr_assert_null(ws_outfile_open(bad, &err));
    cr_assert(strstr(err.msg, "cannot create output") != NULL);
    free(bad);
    test_tmpdir_cleanup(dir);
}

Test(cli, version_and_help)
{
    cli_result r = cli_run("--version", NULL);
    cr_assert_eq(r.status, 0);
    cr_assert(strncmp(r.out, "warpscope ", 10) == 0);
    cli_result_free(&r);
    r = cli_run("--help", NULL);
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "usage: warpscope") != NULL);
    cli_result_free(&r);
}

Test(cli, unknown_command_is_one_line_error)
{
    cli_result r = cli_run("frobnicate", NULL);
    cr_assert_neq(r.status, 0);
    cr_assert_str_eq(r.err, "warpscope: 'frobnicate' is not a command; see 'warpscope --help'\n");
    cli_result_free(&r);
}

/* util/zeroed.h: the block reads as zeroes, whatever was freed before, and
 * the arrays carved from it start on cache lines without overlapping. */
Test(zeroed, blocks_read_zero_and_carve_aligned)
{
    size_t at = 0, a = ws_zeroed_carve(&at, 3), b = ws_zeroed_carve(&at, 100),
           c = ws_zeroed_carve(&at, 0), d = ws_zeroed_carve(&at, 8);
    cr_expect_eq(a, 0);
    cr_expect_eq(b, 64);
    cr_expect_eq(c, 192, "an empty array still starts past the one before");
    cr_expect_eq(d, 192);
    cr_expect_eq(at, 200);
    for (int round = 0; round < 2; round++) {
        unsigned char *p = ws_zeroed_new(at);
        cr_assert_not_null(p);
        for (size_t i = 0; i < at; i++)
            cr_expect_eq(p[i], 0, "byte %zu of round %d", i, round);
        memset(p, 0xab, at); /* the next round must not see these */
        ws_zeroed_free(p, at);
    }
}

/* Blocks carved from shared slabs (util/zeroed.c): each reads as zeroes,
 * starts on a cache line, and keeps what is written into it whatever its
 * neighbours do, across slabs and past frees; a block too large to share
 * is mapped alone and behaves the same. */
Test(zeroed, shared_blocks_are_disjoint_zeroed_and_aligned)
{
    enum { COUNT = 120 };
    size_t sizes[COUNT];
    unsigned char *blocks[COUNT];
    for (int i = 0; i < COUNT; i++) {
        /* 100 KiB each: 12 MB in all, so the blocks span several slabs;
         * every tenth 3 MiB, too large to share. */
        sizes[i] = i % 10 == 9 ? (size_t)3 << 20 : 100 * 1024 + (size_t)i;
        blocks[i] = ws_zeroed_new(sizes[i]);
        cr_assert_not_null(blocks[i]);
        cr_expect_eq((uintptr_t)blocks[i] % 64, 0, "block %d starts on a cache line", i);
        cr_expect(blocks[i][0] == 0 && blocks[i][sizes[i] / 2] == 0 && blocks[i][sizes[i] - 1] == 0,
                  "block %d reads as zeroes", i);
        memset(blocks[i], i + 1, sizes[i]);
    }
    for (int i = 0; i < COUNT; i += 2) /* every other one freed ... */
        ws_zeroed_free(blocks[i], sizes[i]);
    for (int i = 0; i < COUNT; i += 2) { /* ... and made again: fresh zeroes */
        blocks[i] = ws_zeroed_new(sizes[i]);
        cr_assert_not_null(blocks[i]);
        for (size_t b = 0; b < sizes[i]; b += 4093)
            cr_expect_eq(blocks[i][b], 0, "byte %zu of the remade block %d", b, i);
        memset(blocks[i], i + 1, sizes[i]);
    }
    for (int i = 0; i < COUNT; i++) {
        size_t wrong = 0;
        for (size_t b = 0; b < sizes[i]; b++)
            wrong += blocks[i][b] != (unsigned char)(i + 1);
        cr_expect_eq(wrong, 0, "block %d holds its own bytes", i);
        ws_zeroed_free(blocks[i], sizes[i]);
    }
}

/* The hash of bytes given a piece at a time (util/hash64.h) is the hash of
 * them whole, whatever the pieces: formats/wst_write.c writes the chunk
 * table's hash so. */
static long minor_faults(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt;
}

/* A fresh buffer faulted in at once is then written without a fault per
 * page; its bytes stay zero, and the pages its ends share with memory
 * outside it (an unaligned start and end) are left alone. */
Test(prefault, a_prefaulted_buffer_is_written_without_faults)
{
    enum { PAGES = 256 };
    size_t bytes = (size_t)PAGES * 4096;
    uint8_t *map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cr_assert_neq(map, MAP_FAILED);
    cr_assert_eq(ws_prefault(map, WS_PREFAULT_MIN - 1), 0, "too small: nothing to do");
    if (ws_prefault(map + 100, bytes - 200) != 0) {
        munmap(map, bytes);
        cr_skip_test("the kernel refuses MADV_POPULATE_WRITE");
    }
    unsigned char resident[PAGES];
    cr_assert_eq(mincore(map, bytes, resident), 0);
    cr_assert_eq(resident[0] & 1, 0, "the first page is shared with what precedes the buffer");
    cr_assert_eq(resident[PAGES - 1] & 1, 0, "so is the last");
    for (int i = 1; i < PAGES - 1; i++)
        cr_assert_eq(resident[i] & 1, 1, "page %d is mapped", i);
    long before = minor_faults();
    for (size_t i = 4096; i < bytes - 4096; i += 4096) {
        cr_assert_eq(map[i], 0);
        map[i] = 1;
    }
    cr_assert_lt(minor_faults() - before, PAGES / 4, "the writes took no fault per page");
    munmap(map, bytes);
}

Test(hash64, pieces_hash_as_the_whole)
{
    unsigned char bytes[301];
    for (size_t i = 0; i < sizeof bytes; i++)
        bytes[i] = (unsigned char)(i * 37 + 11);
    static const size_t pieces[] = {1, 3, 7, 8, 9, 64};
    for (size_t len = 0; len <= sizeof bytes; len += 23)
        for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++) {
            hash64_stream s;
            hash64_begin(&s, len, 5);
            for (size_t at = 0; at < len; at += pieces[p])
                hash64_add(&s, bytes + at, len - at < pieces[p] ? len - at : pieces[p]);
            cr_expect_eq(hash64_end(&s), hash64(bytes, len, 5), "%zu bytes in pieces of %zu", len,
                         pieces[p]);
        }
}
