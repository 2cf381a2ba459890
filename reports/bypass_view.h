/* reports/bypass_view.h: the bypass hints as every report words them
 * (docs/metrics.md §9).
 *
 * The verdict on the traffic below L1, the files whose every load can go
 * through L2 only (the ranked changes are reports/advice_out.h's), each PC's traffic change, and the before/after rows with
 * S1's miss rate labelled as S1's.  The terminal (reports/bypass_out.c)
 * fills a view from the advice, the HTML report (reports/html_bypass.c)
 * from report.json's `bypass`, so both say the same in the same words. */
#ifndef WS_BYPASS_VIEW_H
#define WS_BYPASS_VIEW_H

#include <stddef.h>
#include <stdint.h>

typedef struct bypass_view_pc {
    const char *kernel, *file, *sass; /* NULL when unknown */
    uint64_t offset;
    uint32_t line;           /* 0 when unknown */
    uint64_t requests;       /* its line requests to L1 */
    double share;            /* of them, to lines Eq. 1 would bypass */
    int recommend, tested;
    int64_t traffic_change;  /* tested: bytes below L1 with it bypassed, minus the baseline's */
} bypass_view_pc;

/* One replay of the before/after comparison. */
typedef struct bypass_view_outcome {
    uint64_t below_l1_bytes;    /* L1 -> L2 and L2 <-> DRAM: the verdict's measure */
    double cached_miss_pct;     /* S1's L1 miss rate of the loads still cached, in %; 0 if none */
} bypass_view_outcome;

enum { BYPASS_BASELINE, BYPASS_WITH_TABLE, BYPASS_WITH_PCS, BYPASS_OUTCOMES };
/* "baseline", "bypass-table", "bypass-pc": the replays, as the policies are named. */
extern const char *const bypass_outcome_names[BYPASS_OUTCOMES];

typedef struct bypass_view {
    const bypass_view_pc *pcs;
    uint32_t pc_count;
    bypass_view_outcome outcomes[BYPASS_OUTCOMES];
    int all_bypassed; /* every global load already bypasses L1 in the baseline */
} bypass_view;

#define BYPASS_MISS_RATE_NOTE \
    "S1's measure: it falls as loads leave L1, useful or not; bytes are the verdict's"
#define BYPASS_ALL_BYPASSED                                                                  \
    "every global load of the trace already bypasses L1 (ld.cg/ld.cv): nothing to advise; " \
    "what-if: --cache-op ignore"
#define BYPASS_WHOLE_FILE "every load listed: compile it with -Xptxas -dlcm=cg"
#define BYPASS_TABLE_NOTE                                                                   \
    "(requests: the PC's line requests to L1; worthy: the share to lines Eq. 1 would bypass; " \
    "untested: no worthy line)"

/* Eq. 1's U as the reports name it: "of raw bytes" or "sector-rounded". */
const char *bypass_view_u_words(int raw_bytes);

uint32_t bypass_view_recommended(const bypass_view *v);
/* The verdict (after "verdict: "): "bypass L1 at 6 load PCs: 2.57 MiB less
 * traffic below L1 (...)", or "keep: ...". */
void bypass_view_verdict(char *dst, size_t cap, const bypass_view *v);

/* Where a reader changes a PC: its source line ("gaussian.c:22", "" when
 * unknown) and its label ("Fan1+0x16000", reports/pc_label.h, in at most
 * `width` characters, 0: no limit). */
typedef struct bypass_where {
    char source[96], at[160];
} bypass_where;
void bypass_view_where(bypass_where *w, const bypass_view_pc *pc, size_t width);
/* Its traffic change against the baseline's bytes below L1: "-3.2%", or
 * "untested". */
void bypass_view_change(char *dst, size_t cap, const bypass_view *v, const bypass_view_pc *pc);
/* 1 when pcs[i] is the first PC of a source file whose every PC is
 * recommended (one compiler flag does the whole file): *base is the file's
 * base name, `saved` what its PCs save together. */
int bypass_view_whole_file(const bypass_view *v, uint32_t i, const char **base, char *saved,
                           size_t cap);

/* after against before, in % (0 when before is 0). */
double bypass_view_pct_change(uint64_t after, uint64_t before);

#endif
