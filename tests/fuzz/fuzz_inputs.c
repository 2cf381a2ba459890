/* tests/fuzz/fuzz_inputs.c: libFuzzer harness for the files warpscope reads
 * from users: Accel-Sim traces, .wst traces and GPU config JSON.  The first
 * input byte picks the reader, the rest is the file.  Every input must end
 * in success or a clean error: a crash, a leak, a sanitizer report or a
 * hang is a bug.  Run with `make fuzz` (scripts/fuzz.sh). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "analyzer/config.h"
#include "collectors/accelsim/accelsim.h"
#include "formats/wst.h"

/* The importer's records go nowhere: only parsing is under test. */
static int ignore_kernel(void *ctx, const wst_kernel *k, ws_error *err)
{
    (void)ctx, (void)k, (void)err;
    return 0;
}

static int64_t number_pc(void *ctx, uint32_t kernel, const wst_pc *pc, ws_error *err)
{
    (void)kernel, (void)pc, (void)err;
    return (*(int64_t *)ctx)++;
}

static int ignore_record(void *ctx, uint32_t kernel, const wst_record *r, ws_error *err)
{
    (void)ctx, (void)kernel, (void)r, (void)err;
    return 0;
}

static void import_accelsim(const char *path)
{
    int64_t pcs = 0;
    wst_sink sink = {.ctx = &pcs, .add_kernel = ignore_kernel, .add_pc = number_pc,
                     .add_record = ignore_record};
    ws_error err;
    accelsim_import(path, &sink, &err);
}

static void read_wst(const char *path)
{
    ws_error err;
    wst_reader *r = wst_reader_open(path, &err);
    if (!r)
        return;
    wst_cursor *c = wst_cursor_all(r, &err);
    wst_record record;
    uint32_t kernel;
    while (c && wst_cursor_next(c, &record, &kernel, &err) > 0)
        ;
    wst_cursor_free(c);
    wst_reader_close(r);
}

static void load_config(const char *path)
{
    gpu_config config;
    ws_error err;
    config_load(&config, path, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"kernel-1.traceg", "input.wst", "gpu.json"};
    static void (*const readers[])(const char *) = {import_accelsim, read_wst, load_config};
    if (size < 1)
        return 0;
    unsigned which = data[0] % 3;
    /* The readers take paths (the importer picks its parser by name). */
    char path[256];
    const char *dir = getenv("FUZZ_SCRATCH") ? getenv("FUZZ_SCRATCH") : "/tmp";
    snprintf(path, sizeof path, "%s/%s", dir, names[which]);
    FILE *f = fopen(path, "wb");
    if (!f)
        abort(); /* the harness itself is broken: stop loudly */
    fwrite(data + 1, 1, size - 1, f);
    fclose(f);
    readers[which](path);
    unlink(path);
    return 0;
}
