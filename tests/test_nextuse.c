/* tests/test_nextuse.c: the backward pass equals a brute-force look-ahead. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "analyzer/nextuse.h"

static void check_stream(const uint64_t *keys, size_t count)
{
    ws_error err;
    nextuse *n = nextuse_new(&err);
    cr_assert_not_null(n);
    for (size_t i = 0; i < count; i++)
        cr_assert_eq(nextuse_record(n, keys[i], &err), 0);
    cr_assert_eq(nextuse_finish(n, &err), 0, "%s", err.msg);
    cr_assert_eq(nextuse_count(n), count);
    for (size_t i = 0; i < count; i++) {
        uint64_t expected = NEXTUSE_NEVER;
        for (size_t j = i + 1; j < count; j++)
            if (keys[j] == keys[i]) {
                expected = j;
                break;
            }
        uint64_t got;
        cr_assert_eq(nextuse_read(n, &got, &err), 0);
        cr_assert_eq(got, expected, "access %zu", i);
    }
    uint64_t past;
    cr_assert_eq(nextuse_read(n, &past, &err), -1, "reading past the end is an error");
    nextuse_free(n);
}

Test(nextuse, hand_worked)
{
    /* A B A C B A: next uses 2, 4, 5, never, never, never. */
    uint64_t keys[] = {10, 11, 10, 12, 11, 10};
    check_stream(keys, 6);
}

Test(nextuse, spans_many_blocks)
{
    enum { COUNT = 30000 };
    uint64_t *keys = malloc(COUNT * sizeof *keys);
    srand(3);
    for (size_t i = 0; i < COUNT; i++)
        keys[i] = (uint64_t)(rand() % 500) << 7;
    /* The brute force is quadratic only in the gaps, which are short here. */
    check_stream(keys, COUNT);
    free(keys);
}

Test(nextuse, empty_stream)
{
    ws_error err;
    nextuse *n = nextuse_new(&err);
    cr_assert_eq(nextuse_finish(n, &err), 0);
    uint64_t got;
    cr_assert_eq(nextuse_read(n, &got, &err), -1);
    nextuse_free(n);
}

/* Brute force with kills (a store invalidating the key) and fences (kernel
 * ends): the next access of the key, unless a kill or fence comes first. */
Test(nextuse, kills_and_fences_end_a_next_use)
{
    enum { COUNT = 20000 };
    uint64_t *keys = malloc(COUNT * sizeof *keys);
    uint8_t *kind = malloc(COUNT); /* 0 access, 1 kill; a fence before i when fence[i] */
    uint8_t *fence = calloc(COUNT + 1, 1);
    srand(5);
    ws_error err;
    nextuse *n = nextuse_new(&err);
    for (size_t i = 0; i < COUNT; i++) {
        keys[i] = (uint64_t)(rand() % 300) << 7;
        kind[i] = rand() % 7 == 0;
        fence[i] = i > 0 && rand() % 997 == 0;
        if (fence[i])
            cr_assert_eq(nextuse_fence(n, &err), 0);
        cr_assert_eq(kind[i] ? nextuse_record_kill(n, keys[i], &err) : nextuse_record(n, keys[i], &err),
                     0);
    }
    cr_assert_eq(nextuse_finish(n, &err), 0, "%s", err.msg);
    for (size_t i = 0; i < COUNT; i++) {
        uint64_t expected = NEXTUSE_NEVER, got;
        for (size_t j = i + 1; j < COUNT && !fence[j]; j++)
            if (keys[j] == keys[i]) {
                expected = kind[j] ? NEXTUSE_NEVER : j;
                break;
            }
        cr_assert_eq(nextuse_read(n, &got, &err), 0);
        if (!kind[i])
            cr_assert_eq(got, expected, "access %zu", i);
    }
    nextuse_free(n);
    free(keys);
    free(kind);
    free(fence);
}
