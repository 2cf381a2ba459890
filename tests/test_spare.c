/* tests/test_spare.c: blocks from the rest of the caches' huge page
 * (util/zeroed.h's ws_zeroed_spare, util/spare.h), and the packed CTAs'
 * records taken from them.  Criterion runs each test in a process of its
 * own, so each starts without a slab. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/packed_record.h"
#include "tests/trace_gen.h"
#include "util/spare.h"
#include "util/zeroed.h"

#define HUGE_PAGE ((uintptr_t)2 << 20)

/* The end of the huge page that holds the byte before `at`. */
static uintptr_t page_end(const void *at)
{
    return ((uintptr_t)at + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

Test(zeroed_spare, none_without_a_slab)
{
    cr_expect_null(ws_zeroed_spare(64));
    size_t bytes = 100;
    cr_expect_null(ws_spare_take(&bytes));
    cr_expect_eq(bytes, 100, "left as asked");
}

/* Spare blocks come from the page's end downward, rounded to cache lines,
 * and read as zeroes; blocks carved after them never overlap them: one
 * that would starts past the page. */
Test(zeroed_spare, from_the_page_end_down_and_never_overlapped)
{
    unsigned char *first = ws_zeroed_new(1000);
    cr_assert_not_null(first);
    uintptr_t end = page_end(first + 1000);
    unsigned char *a = ws_zeroed_spare(100), *b = ws_zeroed_spare(64);
    cr_assert_not_null(a);
    cr_assert_not_null(b);
    cr_expect_eq((uintptr_t)a, end - 128, "100 bytes take two lines at the page's end");
    cr_expect_eq((uintptr_t)b, end - 192, "the next just below");
    for (int i = 0; i < 128; i++)
        cr_expect_eq(a[i], 0);
    memset(a, 0xab, 128);
    memset(b, 0xcd, 64);
    enum { BLOCK = 256 << 10 };
    int past = 0;
    for (int i = 0; i < 12 && !past; i++) {
        unsigned char *c = ws_zeroed_new(BLOCK);
        cr_assert_not_null(c);
        uintptr_t at = (uintptr_t)c;
        cr_expect(at + BLOCK <= (uintptr_t)b || at >= end, "block %d overlaps the spare", i);
        past = at >= end;
        memset(c, 0x11, BLOCK);
    }
    cr_expect(past, "the blocks went past the spare");
    for (int i = 0; i < 128; i++)
        cr_expect_eq(a[i], 0xab, "byte %d of the spare kept", i);
    /* The page the blocks reach into now is a page of its own. */
    unsigned char *later = ws_zeroed_new(64), *c = ws_zeroed_spare(64);
    cr_assert_not_null(c);
    cr_expect_eq((uintptr_t)c, page_end(later + 64) - 64);
}

/* Blocks of a class (a power of two from 64 bytes) are handed out again
 * once released; a block not spare is free()d (AddressSanitizer would see
 * a leak or a bad free); too large a block is malloc's. */
Test(spare, classes_reused_and_others_freed)
{
    cr_assert_not_null(ws_zeroed_new(1000));
    size_t bytes = 100;
    unsigned char *a = ws_spare_take(&bytes);
    cr_assert_not_null(a);
    cr_expect_eq(bytes, 128);
    cr_expect_eq((uintptr_t)a % 64, 0);
    size_t other = 129;
    unsigned char *b = ws_spare_take(&other);
    cr_assert_not_null(b);
    cr_expect_eq(other, 256);
    cr_expect(b + 256 <= a || b >= a + 128, "disjoint");
    ws_spare_release(a, 100);
    size_t again = 65;
    cr_expect_eq(ws_spare_take(&again), a, "the released block of the class");
    size_t large = ((size_t)256 << 10) + 1;
    cr_expect_null(ws_spare_take(&large));
    cr_expect_eq(large, ((size_t)256 << 10) + 1);
    ws_spare_release(malloc(40), 40);
    ws_spare_release(NULL, 0);
}

/* Resizing keeps the contents, from spare to spare and from malloc's. */
Test(spare, resize_keeps_contents)
{
    size_t bytes = 48;
    unsigned char *heap = ws_spare_resize(NULL, 0, &bytes); /* no slab yet: realloc's */
    cr_assert_not_null(heap);
    cr_expect_eq(bytes, 48);
    memset(heap, 7, 48);
    cr_assert_not_null(ws_zeroed_new(1000));
    bytes = 300;
    unsigned char *spare = ws_spare_resize(heap, 48, &bytes);
    cr_assert_not_null(spare);
    cr_expect_eq(bytes, 512);
    for (int i = 0; i < 48; i++)
        cr_expect_eq(spare[i], 7);
    memset(spare + 48, 9, 252);
    bytes = 1000;
    unsigned char *grown = ws_spare_resize(spare, 300, &bytes);
    cr_assert_not_null(grown);
    cr_expect_eq(bytes, 1024);
    for (int i = 0; i < 300; i++)
        cr_expect_eq(grown[i], i < 48 ? 7 : 9, "byte %d", i);
    unsigned char *cleared = ws_spare_cleared(300);
    cr_expect_eq(cleared, spare, "the 512-byte block released by the resize, cleared");
    for (int i = 0; i < 300; i++)
        cr_expect_eq(cleared[i], 0);
    ws_spare_release(cleared, 300);
    ws_spare_release(grown, 1000);
}

/* A CTA of 79 records asks room for 80 (packed_cta_reserve's one past):
 * exactly that from malloc, 128 (4 KiB, the class of 2,560 bytes) from a
 * spare page; the records read back the same either way. */
Test(spare, packed_records_from_the_page)
{
    enum { N = 79 };
    wst_record records[N];
    memset(records, 0, sizeof records);
    for (size_t i = 0; i < N; i++) {
        records[i].warp = (uint32_t)(i % 4);
        records[i].pc = (uint32_t)i;
        records[i].size = 4;
        records[i].mask = 0xffffffffu;
        for (int l = 0; l < WST_WARP_SIZE; l++) /* every third record gathered */
            records[i].addr[l] = 0x1000 + 0x100 * i + (i % 3 ? 4u * l : 4096u * (l ^ 5));
    }
    for (int spare = 0; spare < 2; spare++) {
        if (spare)
            cr_assert_not_null(ws_zeroed_new(1000));
        packed_cta p = {0};
        ws_error err;
        cr_assert_eq(packed_cta_append(&p, records, N, &err), 0, "%s", err.msg);
        cr_expect_eq(p.capacity, spare ? 128 : 80);
        for (size_t i = 0; i < N; i++) {
            wst_record got;
            packed_cta_expand(&p, i, records[i].cta, &got);
            cr_expect(test_records_equal(&records[i], &got), "record %zu", i);
        }
        packed_cta_free(&p);
    }
}
