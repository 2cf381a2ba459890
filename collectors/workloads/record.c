/* collectors/workloads/record.c: a workload, the emulator and the .wst
 * writer wired together (what `warpscope record --workload` does). */
#include <stdio.h>

#include "collectors/workloads/workloads.h"
#include "formats/wst.h"
#include "util/version.h"

/* "a, b, c" for error messages. */
static void list_workloads(char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned i = 0; workload_at(i) && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", workload_at(i)->name);
}

const workload *workload_lookup(const char *name, ws_error *err)
{
    const workload *w = workload_find(name);
    if (!w) {
        char names[512];
        list_workloads(names, sizeof names);
        ws_fail(err, "unknown workload '%s' (workloads: %s)", name, names);
    }
    return w;
}

int record_workload(const char *name, workload_size size, uint64_t seed, int verify,
                    const char *out_path, ws_error *err)
{
    const workload *w = workload_lookup(name, err);
    if (!w)
        return -1;
    char description[160];
    snprintf(description, sizeof description, "%s --size %s --seed %llu", w->name,
             workload_size_name(size), (unsigned long long)seed);
    wst_origin origin = {.collector = "emu", .collector_version = WARPSCOPE_VERSION,
                         .workload = description};
    wst_writer *writer = wst_writer_open(out_path, &origin, NULL, err);
    if (!writer)
        return -1;
    wst_sink sink = wst_writer_sink(writer);
    /* The arena only reserves address space; pages are committed as used. */
    emu *e = emu_new(&sink, (size_t)16 << 30, err);
    int rc = e ? w->run(e, size, seed, verify, err) : -1;
    emu_free(e);
    if (rc != 0) {
        wst_writer_abort(writer);
        return -1;
    }
    return wst_writer_close(writer, err);
}
