/* reports/timeline_json.c: see timeline_json.h. */
#include "reports/timeline_json.h"

#include <inttypes.h>
#include <stdlib.h>

#include "util/outfile.h"

enum { CTA_TRACK = 1000 }; /* tids: warp slots from 0, CTA slots from here */

struct timeline_writer {
    ws_outfile *out;
    FILE *f;
    const wst_trace *trace;
    uint32_t sms;
    uint64_t events, max_events, dropped;
    timed_observer observer;
};

static void event_start(timeline_writer *w)
{
    fputs(w->events++ ? ",\n" : "\n", w->f);
}

/* A process's name, as Chrome's metadata events give it. */
static void name_process(timeline_writer *w, uint32_t pid, const char *name)
{
    event_start(w);
    fprintf(w->f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%" PRIu32
                  ",\"args\":{\"name\":\"%s\"}}",
            pid, name);
}

static void on_kernel(void *ctx, uint32_t kernel, uint64_t start, uint64_t end)
{
    timeline_writer *w = ctx;
    event_start(w);
    /* The kernel's index, not its name: a trace's names are any bytes. */
    fprintf(w->f, "{\"ph\":\"X\",\"name\":\"kernel %" PRIu32 "\",\"pid\":%" PRIu32
                  ",\"tid\":0,\"ts\":%" PRIu64 ",\"dur\":%" PRIu64 "}",
            kernel, w->sms, start, end - start);
}

static void on_cta(void *ctx, uint32_t kernel, uint32_t sm, uint32_t slot, uint32_t cta,
                   uint64_t start, uint64_t end)
{
    timeline_writer *w = ctx;
    event_start(w);
    fprintf(w->f, "{\"ph\":\"X\",\"name\":\"CTA %" PRIu32 "\",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32
                  ",\"ts\":%" PRIu64 ",\"dur\":%" PRIu64 ",\"args\":{\"kernel\":%" PRIu32 "}}",
            cta, sm, CTA_TRACK + slot, start, end - start, kernel);
}

static void on_instruction(void *ctx, const replay_issue *is, uint64_t back)
{
    timeline_writer *w = ctx;
    if (w->events >= w->max_events) {
        w->dropped++;
        return;
    }
    static const char *const kinds[] = {"load", "store", "atomic"};
    event_start(w);
    fprintf(w->f, "{\"ph\":\"X\",\"name\":\"%s pc %" PRIu32 "\",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32
                  ",\"ts\":%" PRIu64 ",\"dur\":%" PRIu64 ",\"args\":{\"cta\":%" PRIu32
                  ",\"warp\":%" PRIu32 "}}",
            kinds[is->kind < 3 ? is->kind : 0], is->pc, is->sm, is->warp_slot, is->step,
            back > is->step ? back - is->step : 0, is->cta, is->cta_warp);
}

timeline_writer *timeline_open(const char *path, const wst_trace *trace, uint32_t sms,
                               uint64_t max_events, ws_error *err)
{
    timeline_writer *w = calloc(1, sizeof *w);
    if (!w)
        return ws_fail(err, "out of memory"), NULL;
    if (!(w->out = ws_outfile_open(path, err))) {
        free(w);
        return NULL;
    }
    w->f = ws_outfile_stream(w->out);
    w->trace = trace;
    w->sms = sms;
    w->max_events = max_events;
    w->observer = (timed_observer){.ctx = w, .kernel = on_kernel, .cta = on_cta,
                                   .instruction = on_instruction};
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", w->f);
    char name[32];
    for (uint32_t s = 0; s < sms; s++) {
        snprintf(name, sizeof name, "SM %" PRIu32, s);
        name_process(w, s, name);
    }
    name_process(w, sms, "kernels");
    return w;
}

const timed_observer *timeline_observer(timeline_writer *w) { return &w->observer; }

int timeline_close(timeline_writer *w, ws_error *err)
{
    fprintf(w->f,
            "\n],\"otherData\":{\"clock\":\"cycles of warpscope's timed replay, the model's "
            "(docs/metrics.md section 12), not a GPU's; 1 unit = 1 cycle\","
            "\"instructions_left_out\":%" PRIu64 "}}\n",
            w->dropped);
    int rc = ws_outfile_commit(w->out, err);
    free(w);
    return rc;
}

void timeline_abort(timeline_writer *w)
{
    if (!w)
        return;
    ws_outfile_abort(w->out);
    free(w);
}
