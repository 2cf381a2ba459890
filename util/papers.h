/* util/papers.h: the five papers warpscope implements, by the tags S0-S4
 * that help texts, reports and docs use (docs/references.md has the full
 * citations).  One list, so every place that explains a tag agrees. */
#ifndef WS_PAPERS_H
#define WS_PAPERS_H

typedef struct ws_paper {
    const char *tag;   /* "S0" */
    const char *about; /* what warpscope takes from it, and its authors */
} ws_paper;

static const ws_paper ws_papers[] = {
    {"S0", "sharing-aware GPU data management (Tabbakh, Annavaram, Qian)"},
    {"S1", "profiling-based L1 data cache bypassing (Huangfu, Zhang)"},
    {"S2", "locality-based cache management and warp scheduling, LCM and LWS (Fang, Wei, Yang)"},
    {"S3", "managing the GPU memory hierarchy: CCN and Poise (Dublish)"},
    {"S4", "DaCache, memory divergence-aware caching (Wang, Yu, Sun, Wang)"},
};

#define WS_PAPER_COUNT (sizeof ws_papers / sizeof ws_papers[0])

#endif
