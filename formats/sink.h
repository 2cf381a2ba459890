/* formats/sink.h: where collectors send what they record.
 *
 * Collectors (emulator, Accel-Sim importer, NVBit host side) never call the
 * .wst writer directly; they write to a sink.  The file sink wraps a
 * wst_writer; the memory sink (memtrace.h) keeps everything in RAM for tests
 * and small tools.  Same contract as the writer functions in wst.h. */
#ifndef WS_SINK_H
#define WS_SINK_H

#include "formats/trace.h"
#include "util/error.h"

typedef struct wst_sink {
    void *ctx;
    int (*add_kernel)(void *ctx, const wst_kernel *kernel, ws_error *err);
    int64_t (*add_pc)(void *ctx, uint32_t kernel, const wst_pc *pc, ws_error *err);
    int (*add_record)(void *ctx, uint32_t kernel, const wst_record *rec, ws_error *err);
    int (*end_cta)(void *ctx, uint32_t kernel, uint32_t cta, ws_error *err); /* may be NULL */
    /* wst_writer_end_kernel's contract; may be NULL. */
    int (*end_kernel)(void *ctx, uint32_t kernel, ws_error *err);
    /* wst_writer_add_allocation's contract; NULL: the sink keeps none. */
    int (*add_allocation)(void *ctx, const wst_allocation *a, ws_error *err);
} wst_sink;

struct wst_writer;
wst_sink wst_writer_sink(struct wst_writer *w);

static inline int wst_sink_add_kernel(const wst_sink *s, const wst_kernel *k, ws_error *err)
{
    return s->add_kernel(s->ctx, k, err);
}
static inline int64_t wst_sink_add_pc(const wst_sink *s, uint32_t kernel, const wst_pc *pc,
                                      ws_error *err)
{
    return s->add_pc(s->ctx, kernel, pc, err);
}
static inline int wst_sink_add_record(const wst_sink *s, uint32_t kernel,
                                      const wst_record *rec, ws_error *err)
{
    return s->add_record(s->ctx, kernel, rec, err);
}
static inline int wst_sink_end_cta(const wst_sink *s, uint32_t kernel, uint32_t cta,
                                   ws_error *err)
{
    return s->end_cta ? s->end_cta(s->ctx, kernel, cta, err) : 0;
}

static inline int wst_sink_end_kernel(const wst_sink *s, uint32_t kernel, ws_error *err)
{
    return s->end_kernel ? s->end_kernel(s->ctx, kernel, err) : 0;
}

static inline int wst_sink_add_allocation(const wst_sink *s, const wst_allocation *a,
                                          ws_error *err)
{
    return s->add_allocation ? s->add_allocation(s->ctx, a, err) : 0;
}

#endif
