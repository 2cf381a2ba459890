/* reports/json_bounds.c: see json_bounds.h. */
#include "reports/json_bounds.h"

#include <stdint.h>
#include <stdio.h>

#include "analyzer/mpli.h"
#include "analyzer/reuse.h"
#include "analyzer/reuse.h"

static json_t *bound(uint64_t v) { return v > INT64_MAX ? json_null() : json_integer((json_int_t)v); }

/* prefix_low and prefix_high from the two arrays (stolen). */
static void add_pair(json_t *o, const char *prefix, json_t *low, json_t *high)
{
    char key[64];
    snprintf(key, sizeof key, "%s_low", prefix);
    json_object_set_new(o, key, low);
    snprintf(key, sizeof key, "%s_high", prefix);
    json_object_set_new(o, key, high);
}

/* Buckets first .. first+n-1 of analyzer/reuse.h's log2 buckets. */
static void add_log2_range(json_t *o, const char *prefix, unsigned first, size_t n)
{
    json_t *low = json_array(), *high = json_array();
    for (size_t i = 0; i < n; i++) {
        json_array_append_new(low, bound(reuse_bucket_low(first + (unsigned)i)));
        json_array_append_new(high, bound(reuse_bucket_high(first + (unsigned)i)));
    }
    add_pair(o, prefix, low, high);
}

void report_json_add_log2_bounds(json_t *o, const char *prefix)
{
    add_log2_range(o, prefix, 0, REUSE_HIST_BUCKETS);
}

void report_json_add_pow2_bounds(json_t *o, const char *prefix, size_t n)
{
    add_log2_range(o, prefix, 1, n);
}

void report_json_add_index_bounds(json_t *o, const char *prefix, size_t n)
{
    json_t *low = json_array(), *high = json_array();
    for (size_t i = 0; i < n; i++) {
        json_array_append_new(low, json_integer((json_int_t)i));
        json_array_append_new(high, json_integer((json_int_t)i));
    }
    add_pair(o, prefix, low, high);
}

void report_json_add_fraction_bounds(json_t *o, const char *prefix, size_t n)
{
    json_t *low = json_array(), *high = json_array();
    for (size_t i = 0; i < n; i++) {
        json_array_append_new(low, json_real((double)i / (double)n));
        json_array_append_new(high, json_real((double)(i + 1) / (double)n));
    }
    add_pair(o, prefix, low, high);
}

/* A load has at most MPLI_MAX_REQUESTS misses: each bucket's range is
 * found by asking mpli_bucket, so it cannot drift from the analyzer's. */
void report_json_add_mpli_bounds(json_t *o, const char *prefix)
{
    json_t *low = json_array(), *high = json_array();
    for (int b = 0; b < MPLI_BUCKETS; b++) {
        int first = -1, last = -1;
        for (int m = 0; m <= MPLI_MAX_REQUESTS; m++)
            if (mpli_bucket((uint32_t)m) == b) {
                first = first < 0 ? m : first;
                last = m;
            }
        json_array_append_new(low, first < 0 ? json_null() : json_integer(first));
        json_array_append_new(high, last < 0 ? json_null() : json_integer(last));
    }
    add_pair(o, prefix, low, high);
}
