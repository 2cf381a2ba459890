/* util/progress.c: see progress.h. */
#include "util/progress.h"

#include "util/digits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct progress {
    char label[48];
    char unit[16];
    uint64_t total;
    int enabled;
    int width; /* the widest line drawn, to erase it whole */
    double start;
    double next_draw; /* seconds since start */
    uint64_t calls;
};

static unsigned phase_count, phase_index;

void progress_plan(unsigned phases)
{
    phase_count = phases;
    phase_index = phases > 1 ? 1 : 0;
}

void progress_next_phase(void)
{
    if (phase_index && phase_index <= phase_count)
        phase_index++;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static progress *make(const char *label, const char *unit, uint64_t total, int enabled,
                      double first_draw)
{
    progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    if (phase_index && phase_index <= phase_count)
        snprintf(p->label, sizeof p->label, "[%u/%u] %s", phase_index, phase_count, label);
    else
        snprintf(p->label, sizeof p->label, "%s", label);
    snprintf(p->unit, sizeof p->unit, "%s", unit ? unit : "");
    p->total = total;
    p->enabled = enabled;
    p->start = now_seconds();
    p->next_draw = first_draw;
    return p;
}

progress *progress_new(const char *label, uint64_t total, int quiet)
{
    return make(label, NULL, total, !quiet && isatty(STDERR_FILENO), 1.0);
}

progress *progress_new_counting(const char *label, const char *unit, int quiet)
{
    return make(label, unit, 0, !quiet && isatty(STDERR_FILENO), 1.0);
}

progress *progress_new_forced(const char *label, uint64_t total)
{
    return make(label, NULL, total, 1, 0.0);
}

/* 42s, 3m05s, 2h07m: seconds are noise past an hour. */
static void format_duration(char *buf, size_t cap, double seconds)
{
    unsigned long s = seconds > 0 ? (unsigned long)(seconds + 0.5) : 0;
    if (s < 100)
        snprintf(buf, cap, "%lus", s);
    else if (s < 3600)
        snprintf(buf, cap, "%lum%02lus", s / 60, s % 60);
    else
        snprintf(buf, cap, "%luh%02lum", s / 3600, s / 60 % 60);
}

void progress_format(char *buf, size_t cap, const char *label, const char *unit, uint64_t done,
                     uint64_t total, double elapsed)
{
    enum { WIDTH = 30 };
    char took[32];
    format_duration(took, sizeof took, elapsed);
    if (!total) {
        char count[32];
        ws_group_digits(count, sizeof count, done); /* counts too large to read otherwise */
        snprintf(buf, cap, "%s %s%s%s %s", label, count, unit && *unit ? " " : "",
                 unit ? unit : "", took);
        return;
    }
    double frac = done >= total ? 1.0 : (double)done / (double)total;
    int filled = (int)(frac * WIDTH);
    char bar[WIDTH + 1];
    memset(bar, '#', (size_t)filled);
    memset(bar + filled, '-', (size_t)(WIDTH - filled));
    bar[WIDTH] = '\0';
    int n = snprintf(buf, cap, "%s [%s] %3.0f%% %s", label, bar, frac * 100, took);
    /* The pace so far, once there is enough of it to mean something. */
    if (n > 0 && (size_t)n < cap && frac >= 0.02 && frac < 1.0 && elapsed >= 2.0) {
        char left[32];
        format_duration(left, sizeof left, elapsed * (1.0 - frac) / frac);
        snprintf(buf + n, cap - (size_t)n, ", about %s left", left);
    }
}

static void draw(progress *p, uint64_t done, double elapsed)
{
    char line[160];
    progress_format(line, sizeof line, p->label, p->unit, done, p->total, elapsed);
    int len = (int)strlen(line);
    /* Pad over the tail of a longer earlier line (an estimate that shrank). */
    fprintf(stderr, "\r%s%*s", line, p->width > len ? p->width - len : 0, "");
    if (len > p->width)
        p->width = len;
    fflush(stderr);
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
    if (p->width)
        fprintf(stderr, "\r%*s\r", p->width, "");
    free(p);
}
