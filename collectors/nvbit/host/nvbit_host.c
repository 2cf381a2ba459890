/* collectors/nvbit/host/nvbit_host.c: see nvbit_host.h. */
#include "collectors/nvbit/host/nvbit_host.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/accelsim/accelsim_opcode.h"
#include "util/grow.h"

typedef struct instr_info {
    int declared;
    uint32_t pc;     /* index in the kernel's PC table */
    uint8_t kind, cache_op, size;
    ws_nvbit_timing timing; /* from the tool's static pass (nvbit_deps.h) */
} instr_info;

struct ws_nvbit_host {
    ws_nvbit_config config;
    wst_sink sink;
    int recording;   /* the current launch */
    uint32_t kernel; /* its index in the trace */
    wst_dim3 grid;
    uint32_t warps_per_cta;
    instr_info *instrs;
    size_t instr_capacity;
    uint64_t records;
    uint64_t reused_allocations;
    int stopped;
    ws_nvbit_deps deps; /* the current launch's warps: their loads */
};

static int parse_count(const char *name, const char *text, uint64_t *out, ws_error *err)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (!*text || *end || errno || text[0] == '-')
        return ws_fail(err, "%s: expected a whole number, got '%s'", name, text);
    *out = v;
    return 0;
}

int ws_nvbit_config_parse(ws_nvbit_config *c, const char *(*lookup)(const char *), ws_error *err)
{
    memset(c, 0, sizeof *c);
    c->launch_last = UINT64_MAX;
    const char *out = lookup("WARPSCOPE_OUT");
    snprintf(c->out, sizeof c->out, "%s", out && *out ? out : "warpscope.wst");
    const char *regex = lookup("WARPSCOPE_KERNELS");
    if (regex && *regex) {
        int rc = regcomp(&c->kernels, regex, REG_EXTENDED | REG_NOSUB);
        if (rc != 0) {
            char why[128];
            regerror(rc, &c->kernels, why, sizeof why);
            return ws_fail(err, "WARPSCOPE_KERNELS: '%s' is not a regular expression (%s)", regex, why);
        }
        c->has_regex = 1;
    }
    const char *launches = lookup("WARPSCOPE_LAUNCHES");
    if (launches && *launches) {
        char first[32] = "", last[32] = "";
        const char *dash = strchr(launches, '-');
        size_t n = dash ? (size_t)(dash - launches) : strlen(launches);
        if (n >= sizeof first || (dash && strlen(dash + 1) >= sizeof last)) {
            ws_nvbit_config_free(c);
            return ws_fail(err, "WARPSCOPE_LAUNCHES: expected N or A-B, got '%s'", launches);
        }
        memcpy(first, launches, n);
        snprintf(last, sizeof last, "%s", dash ? dash + 1 : first);
        if (parse_count("WARPSCOPE_LAUNCHES", first, &c->launch_first, err) ||
            parse_count("WARPSCOPE_LAUNCHES", last, &c->launch_last, err) ||
            c->launch_last < c->launch_first) {
            ws_nvbit_config_free(c);
            return ws_fail(err, "WARPSCOPE_LAUNCHES: expected N or A-B with A <= B, got '%s'", launches);
        }
    }
    const char *max = lookup("WARPSCOPE_MAX_RECORDS");
    if (max && *max && parse_count("WARPSCOPE_MAX_RECORDS", max, &c->max_records, err) != 0) {
        ws_nvbit_config_free(c);
        return -1;
    }
    return 0;
}

void ws_nvbit_config_free(ws_nvbit_config *c)
{
    if (c->has_regex)
        regfree(&c->kernels);
    c->has_regex = 0;
}

ws_nvbit_host *ws_nvbit_host_new(const ws_nvbit_config *c, const wst_sink *sink, ws_error *err)
{
    ws_nvbit_host *h = calloc(1, sizeof *h);
    if (!h) {
        ws_fail(err, "out of memory");
        return NULL;
    }
    h->config = *c; /* the compiled regex moves here; the caller must not free it */
    h->sink = *sink;
    if (ws_nvbit_deps_init(&h->deps) != 0) {
        ws_nvbit_host_free(h);
        ws_fail(err, "out of memory");
        return NULL;
    }
    return h;
}

void ws_nvbit_host_free(ws_nvbit_host *h)
{
    if (!h)
        return;
    ws_nvbit_config_free(&h->config);
    ws_nvbit_deps_free(&h->deps);
    free(h->instrs);
    free(h);
}

int ws_nvbit_kernel_begin(ws_nvbit_host *h, uint64_t launch_index, const char *name,
                          wst_dim3 grid, wst_dim3 block, uint32_t shared_bytes, uint32_t registers,
                          ws_error *err)
{
    h->recording = !h->stopped && launch_index >= h->config.launch_first &&
                   launch_index <= h->config.launch_last &&
                   (!h->config.has_regex || regexec(&h->config.kernels, name, 0, NULL, 0) == 0);
    if (!h->recording)
        return 0;
    /* Every record gets its gap and waits (docs/nvbit.md, "Timing"). */
    wst_kernel k = {.name = (char *)name, .grid = grid, .block = block,
                    .shared_mem_bytes = shared_bytes, .registers_per_thread = registers,
                    .has_timing = 1};
    ws_nvbit_deps_clear(&h->deps);
    int index = wst_sink_add_kernel(&h->sink, &k, err);
    if (index < 0)
        return -1;
    h->kernel = (uint32_t)index;
    h->grid = grid;
    h->warps_per_cta = (block.x * block.y * block.z + 31) / 32;
    for (size_t i = 0; i < h->instr_capacity; i++)
        h->instrs[i].declared = 0;
    return 1;
}

int ws_nvbit_instr(ws_nvbit_host *h, uint32_t id, uint64_t offset, const char *sass,
                   const char *file, uint32_t line, uint32_t size, ws_error *err)
{
    if (!h->recording)
        return 0;
    if (!wst_access_size_valid(size))
        return ws_fail(err, "instruction %u (%s): %u bytes per lane", id, sass, size);
    size_t old_capacity = h->instr_capacity;
    if (ws_grow((void **)&h->instrs, &h->instr_capacity, (size_t)id + 1, sizeof *h->instrs) != 0)
        return ws_fail(err, "out of memory");
    memset(h->instrs + old_capacity, 0, (h->instr_capacity - old_capacity) * sizeof *h->instrs);
    accelsim_opcode op;
    /* The opcode is the SASS text's first word (after a predicate). */
    const char *text = sass;
    if (text[0] == '@')
        text = strchr(text, ' ') ? strchr(text, ' ') + 1 : text;
    char opcode[64];
    snprintf(opcode, sizeof opcode, "%s", text);
    opcode[strcspn(opcode, " ")] = '\0';
    accelsim_opcode_classify(opcode, &op);
    wst_pc pc = {.offset = offset, .sass = (char *)sass, .file = (char *)file, .line = line};
    int64_t index = wst_sink_add_pc(&h->sink, h->kernel, &pc, err);
    if (index < 0)
        return -1;
    h->instrs[id] = (instr_info){.declared = 1, .pc = (uint32_t)index, .kind = op.kind,
                                 .cache_op = op.cache_op, .size = (uint8_t)size};
    return 0;
}

int ws_nvbit_instr_timing(ws_nvbit_host *h, uint32_t id, const ws_nvbit_timing *timing)
{
    if (h->recording && id < h->instr_capacity && h->instrs[id].declared)
        h->instrs[id].timing = *timing;
    return 0;
}

int ws_nvbit_packet(ws_nvbit_host *h, const ws_packet *p, ws_error *err)
{
    if (!h->recording || h->stopped || p->space == WS_PACKET_SPACE_SHARED)
        return 0;
    if (p->instr < 0 || (size_t)p->instr >= h->instr_capacity || !h->instrs[p->instr].declared)
        return ws_fail(err, "packet for undeclared instruction %d", p->instr);
    if (p->cta_x < 0 || p->cta_y < 0 || p->cta_z < 0 || (uint32_t)p->cta_x >= h->grid.x ||
        (uint32_t)p->cta_y >= h->grid.y || (uint32_t)p->cta_z >= h->grid.z || p->warp < 0 ||
        (uint32_t)p->warp >= h->warps_per_cta || p->sm < 0 || p->sm > 0xffff)
        return ws_fail(err, "packet outside the launch (CTA %d,%d,%d warp %d SM %d)", p->cta_x,
                       p->cta_y, p->cta_z, p->warp, p->sm);
    const instr_info *in = &h->instrs[p->instr];
    wst_record r;
    memset(&r, 0, sizeof r);
    r.cta = (uint32_t)p->cta_x + (uint32_t)p->cta_y * h->grid.x +
            (uint32_t)p->cta_z * h->grid.x * h->grid.y;
    r.warp = (uint32_t)p->warp;
    r.pc = in->pc;
    r.kind = in->kind;
    r.space = p->space == WS_PACKET_SPACE_LOCAL ? WST_LOCAL : WST_GLOBAL;
    r.cache_op = in->cache_op;
    r.size = in->size;
    r.mask = p->mask;
    r.has_sm = r.has_time = 1;
    r.sm = (uint16_t)p->sm;
    r.timestamp = p->timestamp;
    for (uint32_t bits = p->mask; bits; bits &= bits - 1)
        r.addr[__builtin_ctz(bits)] = p->addrs[__builtin_ctz(bits)];
    if (ws_nvbit_deps_record(&h->deps, r.cta, r.warp, (uint32_t)p->instr, r.kind != WST_STORE,
                             &in->timing, &r) != 0)
        return ws_fail(err, "out of memory");
    if (wst_sink_add_record(&h->sink, h->kernel, &r, err) != 0)
        return -1;
    if (++h->records == h->config.max_records)
        h->stopped = 1;
    return 0;
}

int ws_nvbit_kernel_end(ws_nvbit_host *h, ws_error *err)
{
    (void)err; /* the sink flushes per CTA on its own */
    h->recording = 0;
    return 0;
}

int ws_nvbit_allocation(ws_nvbit_host *h, uint64_t base, uint64_t bytes, ws_error *err)
{
    if (!bytes)
        return 0;
    wst_allocation a = {base, bytes};
    int rc = wst_sink_add_allocation(&h->sink, &a, err);
    if (rc < 0)
        return -1;
    h->reused_allocations += (uint64_t)rc;
    return 0;
}

uint64_t ws_nvbit_reused_allocations(const ws_nvbit_host *h) { return h->reused_allocations; }
uint64_t ws_nvbit_records(const ws_nvbit_host *h) { return h->records; }
int ws_nvbit_stopped(const ws_nvbit_host *h) { return h->stopped; }
