/* reports/replay_text.h: terminal tables for `replay` and `compare`. */
#ifndef WS_REPLAY_TEXT_H
#define WS_REPLAY_TEXT_H

#include <stdio.h>

#include "analyzer/hierarchy.h"

/* Hit rates, traffic, MPLI and miss classes of one replay. */
void replay_text_summary(FILE *out, const replay_results *r);

/* The CCN ring's lines (remote hit rate, requests kept from L2, hops, the
 * throttler's decisions), labelled. */
void replay_text_ccn(FILE *out, const char *label, const ccn_results *ring);
/* LCM's lines: what it bypassed, what its coalescer merged, how the two
 * monitors agreed. */
void replay_text_lcm(FILE *out, const char *label, const lcm_results *l);

/* One row per hierarchy; traffic columns also relative to the first row. */
void compare_text_table(FILE *out, const char *const *names, const replay_results *const *r,
                        uint32_t count);

/* Human units, powers of 1024: 1.23 MiB, 45.6 KiB. */
void replay_format_bytes(char *buf, size_t cap, uint64_t bytes);

#endif
