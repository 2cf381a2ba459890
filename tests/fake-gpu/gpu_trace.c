/* tests/fake-gpu/gpu_trace.c: a stand-in for the NVBit tool's output in
 * scripts/gpu-kit-check.sh.  Copies an emulator trace as if a GPU had
 * recorded it: collector "nvbit", and every record given an SM id (its CTA
 * modulo 132, an H100's SMs) and a rising timestamp, which the recorded
 * schedule of `warpscope replay` needs.
 *   gpu-trace EMU.wst GPU.wst */
#include <stdio.h>

#include "formats/wst.h"

static int fail(const char *what, const ws_error *err)
{
    fprintf(stderr, "gpu-trace: %s: %s\n", what, err->msg);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: gpu-trace EMU.wst GPU.wst\n");
        return 2;
    }
    ws_error err = {{0}};
    wst_reader *r = wst_reader_open(argv[1], &err);
    if (!r)
        return fail(argv[1], &err);
    const wst_trace *t = wst_reader_trace(r);
    wst_origin origin = t->origin;
    char collector[] = "nvbit";
    origin.collector = collector;
    wst_writer *w = wst_writer_open(argv[2], &origin, NULL, &err);
    if (!w)
        return fail(argv[2], &err);
    for (uint32_t k = 0; k < t->kernel_count; k++)
        if (wst_writer_add_kernel(w, &t->kernels[k], &err) < 0)
            return fail(argv[2], &err);
    for (uint32_t a = 0; a < t->allocation_count; a++)
        if (wst_writer_add_allocation(w, &t->allocations[a], &err) < 0)
            return fail(argv[2], &err);
    wst_cursor *c = wst_cursor_all(r, &err);
    if (!c)
        return fail(argv[1], &err);
    wst_record rec;
    uint32_t kernel = 0;
    uint64_t now = 1000;
    int rc;
    while ((rc = wst_cursor_next(c, &rec, &kernel, &err)) > 0) {
        rec.has_sm = 1;
        rec.sm = (uint16_t)(rec.cta % 132);
        rec.has_time = 1;
        rec.timestamp = now;
        now += 10;
        if (wst_writer_add_record(w, kernel, &rec, &err) != 0)
            return fail(argv[2], &err);
    }
    if (rc < 0)
        return fail(argv[1], &err);
    wst_cursor_free(c);
    wst_reader_close(r);
    return wst_writer_close(w, &err) != 0 ? fail(argv[2], &err) : 0;
}
