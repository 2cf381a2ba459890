/* util/progress.c: see progress.h. */
#include "util/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct progress {
    char label[32];
    uint64_t total;
    int enabled;
    int drawn;
    double start;
    double next_draw; /* seconds since start */
    uint64_t calls;
};

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static progress *make(const char *label, uint64_t total, int enabled, double first_draw)
{
    progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    snprintf(p->label, sizeof p->label, "%s", label);
    p->total = total;
    p->enabled = enabled;
    p->start = now_seconds();
    p->next_draw = first_draw;
    return p;
}

progress *progress_new(const char *label, uint64_t total, int quiet)
{
    return make(label, total, !quiet && isatty(STDERR_FILENO), 1.0);
}

progress *progress_new_forced(const char *label, uint64_t total)
{
    return make(label, total, 1, 0.0);
}

static void draw(progress *p, uint64_t done, double elapsed)
{
    enum { WIDTH = 30 };
    if (p->total) {
        double frac = done >= p->total ? 1.0 : (double)done / (double)p->total;
        int filled = (int)(frac * WIDTH);
        char bar[WIDTH + 1];
        memset(bar, '#', (size_t)filled);
        memset(bar + filled, '-', (size_t)(WIDTH - filled));
        bar[WIDTH] = '\0';
        fprintf(stderr, "\r%s [%s] %3.0f%% %.0fs", p->label, bar, frac * 100, elapsed);
    } else {
        fprintf(stderr, "\r%s %llu %.0fs", p->label, (unsigned long long)done, elapsed);
    }
    fflush(stderr);
    p->drawn = 1;
}

void progress_update(progress *p, uint64_t done)
{
    /* Reading the clock costs more than the work per call in hot loops. */
    if (!p || !p->enabled || (++p->calls & 1023) != 1)
        return;
    double elapsed = now_seconds() - p->start;
    if (elapsed < p->next_draw)
        return;
    p->next_draw = elapsed + 0.1;
    draw(p, done, elapsed);
}

void progress_free(progress *p)
{
    if (!p)
        return;
    if (p->drawn)
        fprintf(stderr, "\r%*s\r", 60, "");
    free(p);
}
