/* collectors/accelsim/accelsim_import.c: Accel-Sim traces -> a wst_sink.
 *
 * One pass, one line at a time: a kernel file is a header of "-key = value"
 * lines ended by the first '#' line, then (post-processed .traceg)
 * "#BEGIN_TB / thread block = x,y,z / warp = N / insts = M / M lines /
 * #END_TB" groups, or (raw .trace) lines that each start with the CTA and
 * warp ids.  Records go to the sink as they are read, so memory never
 * depends on the size of the trace (the writer buffers per CTA). */
#include "collectors/accelsim/accelsim.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "collectors/accelsim/accelsim_deps.h"
#include "collectors/accelsim/accelsim_input.h"
#include "collectors/accelsim/accelsim_lines.h"
#include "collectors/accelsim/accelsim_opcode.h"
#include "util/text.h"
#include "util/u64map.h"

/* PC offset -> PC index, open addressing; grows with the kernel's code. */
typedef struct pc_map {
    uint64_t *offsets;
    int64_t *indexes; /* -1 = empty slot */
    size_t cap, count;
} pc_map;

typedef struct kernel_reader {
    accelsim_input *in;
    const wst_sink *sink;
    int raw;
    /* header */
    wst_kernel kernel;
    int have_grid, have_block;
    unsigned version;
    unsigned binary_version; /* "-binary version = 61": sm_61 */
    int lineinfo;
    accelsim_windows windows;
    int64_t index; /* in the sink; -1 until the header ends */
    uint32_t warps_per_cta;
    accelsim_line_format format;
    /* position in a .traceg */
    int in_tb, have_cta, have_warp, have_insts;
    uint32_t cta, warp, insts_expected, insts_seen;
    pc_map pcs;
    /* Raw traces carry each LDGSTS twice per warp, shared half first
     * (post-traces-processing.cpp drops the first): the warps, cta << 32 |
     * warp, between their halves.  A hash set: unmatched halves pile up in
     * hostile input, and a list scanned per line made that quadratic. */
    u64map ldgsts_pending;
    /* Per running warp: the registers its loads wrote, for each record's
     * gap and waits (docs/metrics.md §12). */
    accelsim_deps deps;
} kernel_reader;

/* ---- PC table --------------------------------------------------------- */

static void pc_map_free(pc_map *m)
{
    free(m->offsets);
    free(m->indexes);
}

static size_t pc_slot(const pc_map *m, uint64_t offset)
{
    size_t i = (size_t)(offset * 0x9E3779B97F4A7C15ull >> 7) & (m->cap - 1);
    while (m->indexes[i] >= 0 && m->offsets[i] != offset)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static int pc_map_grow(pc_map *m)
{
    pc_map bigger = {.cap = m->cap ? m->cap * 2 : 64};
    bigger.offsets = malloc(bigger.cap * sizeof *bigger.offsets);
    bigger.indexes = malloc(bigger.cap * sizeof *bigger.indexes);
    if (!bigger.offsets || !bigger.indexes) {
        pc_map_free(&bigger);
        return -1;
    }
    memset(bigger.indexes, 0xff, bigger.cap * sizeof *bigger.indexes);
    for (size_t i = 0; i < m->cap; i++)
        if (m->indexes[i] >= 0) {
            size_t s = pc_slot(&bigger, m->offsets[i]);
            bigger.offsets[s] = m->offsets[i];
            bigger.indexes[s] = m->indexes[i];
        }
    bigger.count = m->count;
    pc_map_free(m);
    *m = bigger;
    return 0;
}

/* The sink's index for the PC of inst, declaring it on first sight with
 * the opcode and line of that first instruction. */
static int64_t pc_index(kernel_reader *k, const accelsim_inst *inst, ws_error *err)
{
    if ((k->pcs.count + 1) * 2 > k->pcs.cap && pc_map_grow(&k->pcs) != 0)
        return ws_fail(err, "out of memory");
    size_t s = pc_slot(&k->pcs, inst->pc);
    if (k->pcs.indexes[s] >= 0)
        return k->pcs.indexes[s];
    wst_pc pc = {.offset = inst->pc, .sass = (char *)inst->opcode, .line = inst->line};
    int64_t index = wst_sink_add_pc(k->sink, (uint32_t)k->index, &pc, err);
    if (index < 0)
        return -1;
    k->pcs.offsets[s] = inst->pc;
    k->pcs.indexes[s] = index;
    k->pcs.count++;
    return index;
}

/* ---- header ----------------------------------------------------------- */

/* A decimal whole number below 2^32 at *p (after optional spaces); *p moves
 * past it.  sscanf's %u would take "-1" as 4294967295 and wrap larger
 * numbers silently. */
static int read_u32(const char **p, uint32_t *out)
{
    const char *s = *p + strspn(*p, " ");
    uint64_t v = 0;
    const char *digits = s;
    while (*s >= '0' && *s <= '9') {
        v = v * 10 + (uint64_t)(*s++ - '0');
        if (v > UINT32_MAX)
            return -1;
    }
    if (s == digits)
        return -1;
    *out = (uint32_t)v;
    *p = s;
    return 0;
}

/* n comma-separated numbers (read_u32) from *p. */
static int read_u32_list(const char **p, uint32_t *out, int n)
{
    for (int i = 0; i < n; i++)
        if ((i && *(*p)++ != ',') || read_u32(p, &out[i]) != 0)
            return -1;
    return 0;
}

/* Only spaces (and a CR) left. */
static int at_end(const char *p) { return !p[strspn(p, " \r")]; }

static int parse_dim3(const char *value, wst_dim3 *out)
{
    uint32_t xyz[3];
    const char *p = value + strspn(value, " ");
    if (*p++ != '(' || read_u32_list(&p, xyz, 3) != 0 || *p++ != ')' || !at_end(p) ||
        xyz[0] == 0 || xyz[1] == 0 || xyz[2] == 0)
        return -1;
    *out = (wst_dim3){xyz[0], xyz[1], xyz[2]};
    return 0;
}

static int parse_unsigned(const char *value, int base, uint64_t *out)
{
    char *end;
    if (!*value || *value == '-')
        return -1;
    unsigned long long v = strtoull(value, &end, base);
    if (end == value || *end)
        return -1;
    *out = v;
    return 0;
}

/* "-key = value": known keys are checked, others (tracer v6 and later
 * additions) are accepted and ignored. */
static int header_line(kernel_reader *k, char *line, ws_error *err)
{
    char *eq = strstr(line, " = ");
    if (line[0] != '-' || !eq)
        return ws_fail(err, "unknown header line format (expected '-key = value')");
    *eq = '\0';
    const char *key = line + 1, *value = eq + 3;
    uint64_t number = 0;
    int bad = 0;
    if (strcmp(key, "kernel name") == 0) {
        free(k->kernel.name);
        if (!(k->kernel.name = strdup(value)))
            return ws_fail(err, "out of memory");
        ws_text_mend(k->kernel.name); /* any bytes: a trace holds UTF-8 text (util/text.h) */
    } else if (strcmp(key, "grid dim") == 0) {
        bad = parse_dim3(value, &k->kernel.grid);
        k->have_grid = 1;
    } else if (strcmp(key, "block dim") == 0) {
        bad = parse_dim3(value, &k->kernel.block);
        k->have_block = 1;
    } else if (strcmp(key, "shmem") == 0) {
        bad = parse_unsigned(value, 10, &number) || number > UINT32_MAX;
        k->kernel.shared_mem_bytes = (uint32_t)number;
    } else if (strcmp(key, "nregs") == 0) {
        bad = parse_unsigned(value, 10, &number) || number > UINT32_MAX;
        k->kernel.registers_per_thread = (uint32_t)number;
    } else if (strcmp(key, "shmem base_addr") == 0) {
        bad = parse_unsigned(value, 16, &k->windows.shared_base);
    } else if (strcmp(key, "local mem base_addr") == 0) {
        bad = parse_unsigned(value, 16, &k->windows.local_base);
    } else if (strcmp(key, "accelsim tracer version") == 0) {
        bad = parse_unsigned(value, 10, &number) || number > 1000;
        k->version = (unsigned)number;
    } else if (strcmp(key, "binary version") == 0) {
        bad = parse_unsigned(value, 10, &number) || number > 1000;
        k->binary_version = (unsigned)number;
    } else if (strcmp(key, "enable lineinfo") == 0) {
        bad = parse_unsigned(value, 10, &number) || number > 1;
        k->lineinfo = (int)number;
    }
    return bad ? ws_fail(err, "bad value '%s' for '%s'", value, key) : 0;
}

/* The first '#' line ends the header: declare the kernel. */
static int header_done(kernel_reader *k, ws_error *err)
{
    if (!k->have_grid || !k->have_block)
        return ws_fail(err, "header has no '-%s' line", k->have_grid ? "block dim" : "grid dim");
    const wst_dim3 g = k->kernel.grid, b = k->kernel.block;
    if ((uint64_t)g.x * g.y * g.z > UINT32_MAX)
        return ws_fail(err, "grid (%u,%u,%u) has more than 2^32-1 CTAs", g.x, g.y, g.z);
    uint64_t threads = (uint64_t)b.x * b.y * b.z;
    if (threads > 1u << 20)
        return ws_fail(err, "block (%u,%u,%u) has more than 2^20 threads", b.x, b.y, b.z);
    k->warps_per_cta = (uint32_t)((threads + WST_WARP_SIZE - 1) / WST_WARP_SIZE);
    /* Tracer versions before 3 kept the ids on every line (trace_parser.cc);
     * a missing version line means 0 there too. */
    k->format.leading_ids = k->raw || k->version < 3;
    k->format.lineinfo = (uint8_t)k->lineinfo;
    k->format.trailing_fields = k->version >= 5; /* the immediate */
    k->kernel.has_timing = 1; /* every instruction is there, registers and all */
    k->index = wst_sink_add_kernel(k->sink, &k->kernel, err);
    return k->index < 0 ? -1 : 0;
}

/* ---- instructions ----------------------------------------------------- */

/* For a raw LDGSTS: 1 if this line is the shared half (to drop). */
static int ldgsts_first_half(kernel_reader *k, uint32_t cta, uint32_t warp, ws_error *err)
{
    uint64_t key = (uint64_t)cta << 32 | warp;
    if (!k->ldgsts_pending.slots && u64map_init(&k->ldgsts_pending, 16) != 0)
        return ws_fail(err, "out of memory");
    if (u64map_remove(&k->ldgsts_pending, key))
        return 0;
    int inserted;
    if (!u64map_upsert(&k->ldgsts_pending, key, 0, &inserted))
        return ws_fail(err, "out of memory");
    return 1;
}

static int check_cta(const kernel_reader *k, const uint32_t xyz[3], uint32_t *linear,
                     ws_error *err)
{
    const wst_dim3 g = k->kernel.grid;
    if (xyz[0] >= g.x || xyz[1] >= g.y || xyz[2] >= g.z)
        return ws_fail(err, "thread block %u,%u,%u outside grid (%u,%u,%u)", xyz[0], xyz[1],
                       xyz[2], g.x, g.y, g.z);
    *linear = xyz[0] + xyz[1] * g.x + xyz[2] * g.x * g.y; /* docs/metrics.md §1 */
    return 0;
}

static int check_warp(const kernel_reader *k, uint32_t warp, ws_error *err)
{
    return warp < k->warps_per_cta
               ? 0
               : ws_fail(err, "warp %u outside a block of %u warps", warp, k->warps_per_cta);
}

static int instruction(kernel_reader *k, const char *line, ws_error *err)
{
    accelsim_inst inst;
    if (accelsim_inst_parse(line, &k->format, &inst, err) != 0)
        return -1;
    uint32_t cta = k->cta, warp = k->warp;
    if (k->raw) {
        if (check_cta(k, inst.cta, &cta, err) != 0 || check_warp(k, inst.warp, err) != 0)
            return -1;
        warp = inst.warp;
    }
    accelsim_warp_deps *deps = accelsim_deps_of(&k->deps, cta, warp);
    if (!deps)
        return ws_fail(err, "out of memory");
    accelsim_opcode op;
    accelsim_opcode_classify(inst.opcode, &op);
    if (op.space == ACCELSIM_NOT_TRACKED) {
        accelsim_deps_other(deps, &inst);
        if (strcmp(inst.opcode, "EXIT") == 0) /* the warp is done (or these lanes are) */
            accelsim_deps_release(&k->deps, cta, warp);
        return 0;
    }
    if (inst.mem_width == 0)
        return ws_fail(err, "memory instruction %s has memory width 0", inst.opcode);
    if (k->raw && op.ldgsts) { /* one instruction traced twice: its first half is no more */
        int first = ldgsts_first_half(k, cta, warp, err);
        if (first != 0)
            return first < 0 ? -1 : 0;
    }
    wst_record rec = {.cta = cta, .warp = warp, .kind = op.kind, .cache_op = op.cache_op,
                      .mask = inst.mask};
    if (!wst_access_size_valid(inst.mem_width))
        return ws_fail(err, "memory width %u is not 1, 2, 4, 8 or 16 bytes", inst.mem_width);
    rec.size = (uint8_t)inst.mem_width;
    rec.space = op.space == ACCELSIM_LOCAL ? WST_LOCAL : WST_GLOBAL;
    if (op.space == ACCELSIM_GENERIC && inst.mask) {
        /* Like Accel-Sim, the first active lane decides for the warp. */
        int space = accelsim_resolve_generic(&k->windows, inst.addr[__builtin_ctz(inst.mask)]);
        if (space < 0) { /* shared memory: an instruction of the gap */
            accelsim_deps_other(deps, &inst);
            return 0;
        }
        rec.space = (uint8_t)space;
    }
    memcpy(rec.addr, inst.addr, sizeof rec.addr);
    int64_t pc = pc_index(k, &inst, err);
    if (pc < 0)
        return -1;
    rec.pc = (uint32_t)pc;
    accelsim_deps_record(deps, &inst, &rec);
    return wst_sink_add_record(k->sink, (uint32_t)k->index, &rec, err);
}

/* ---- thread-block structure of a .traceg ------------------------------ */

static int warp_complete(const kernel_reader *k, ws_error *err)
{
    if (k->have_insts && k->insts_seen != k->insts_expected)
        return ws_fail(err, "warp %u has %u instructions but 'insts = %u'", k->warp,
                       k->insts_seen, k->insts_expected);
    return 0;
}

static int first_word(const char *line, const char *word)
{
    size_t n = strlen(word);
    return strncmp(line, word, n) == 0 && (line[n] == '\0' || line[n] == ' ' || line[n] == '\r');
}

static int grouped_line(kernel_reader *k, const char *line, ws_error *err)
{
    uint32_t value, xyz[3];
    if (first_word(line, "#BEGIN_TB")) {
        if (k->in_tb)
            return ws_fail(err, "#BEGIN_TB before the previous #END_TB");
        k->in_tb = 1;
        k->have_cta = k->have_warp = k->have_insts = 0;
        return 0;
    }
    if (first_word(line, "#END_TB")) {
        if (!k->in_tb)
            return ws_fail(err, "#END_TB without #BEGIN_TB");
        if (warp_complete(k, err) != 0)
            return -1;
        if (k->have_warp) /* a .traceg lists each warp once, whole */
            accelsim_deps_release(&k->deps, k->cta, k->warp);
        k->in_tb = 0;
        return k->have_cta ? wst_sink_end_cta(k->sink, (uint32_t)k->index, k->cta, err) : 0;
    }
    if (line[0] == '#')
        return ws_fail(err, "unknown directive '%.40s'", line);
    if (first_word(line, "thread")) {
        const char *p = line + strlen("thread block = ");
        if (strncmp(line, "thread block = ", strlen("thread block = ")) != 0 ||
            read_u32_list(&p, xyz, 3) != 0 || !at_end(p))
            return ws_fail(err, "bad line '%.60s' (expected 'thread block = x,y,z', whole numbers "
                                "below 2^32)", line);
        if (!k->in_tb || k->have_cta)
            return ws_fail(err, "'thread block' outside #BEGIN_TB ... #END_TB");
        k->have_cta = 1;
        return check_cta(k, xyz, &k->cta, err);
    }
    if (first_word(line, "warp") || first_word(line, "insts")) {
        int is_warp = line[0] == 'w';
        const char *key = is_warp ? "warp = " : "insts = ", *p = line + strlen(key);
        if (strncmp(line, key, strlen(key)) != 0 || read_u32(&p, &value) != 0 || !at_end(p))
            return ws_fail(err, "bad line '%.60s' (expected '%sN', a whole number below 2^32)",
                           line, key);
        if (!k->have_cta)
            return ws_fail(err, "'%s' outside a thread block", is_warp ? "warp" : "insts");
        if (is_warp) {
            if (warp_complete(k, err) != 0 || check_warp(k, value, err) != 0)
                return -1;
            if (k->have_warp)
                accelsim_deps_release(&k->deps, k->cta, k->warp);
            k->warp = value;
            k->have_warp = 1;
            k->have_insts = 0;
        } else {
            if (!k->have_warp || k->have_insts)
                return ws_fail(err, "'insts = N' not right after 'warp = N'");
            k->have_insts = 1;
            k->insts_expected = value;
            k->insts_seen = 0;
        }
        return 0;
    }
    if (!k->have_cta || !k->have_warp)
        return ws_fail(err, "instruction outside a thread block");
    if (!k->have_insts)
        return ws_fail(err, "instruction before 'insts = N'");
    if (k->insts_seen++ == k->insts_expected)
        return ws_fail(err, "warp %u has more instructions than 'insts = %u'", k->warp,
                       k->insts_expected);
    return instruction(k, line, err);
}

/* ---- files ------------------------------------------------------------ */

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int is_raw_name(const char *path)
{
    return ends_with(path, ".trace") || ends_with(path, ".trace.xz");
}

static int is_kernel_name(const char *path)
{
    return is_raw_name(path) || ends_with(path, ".traceg") || ends_with(path, ".traceg.xz");
}

static int kernel_lines(kernel_reader *k, ws_error *err)
{
    char *line;
    int got;
    while ((got = accelsim_input_line(k->in, &line, err)) > 0) {
        line += strspn(line, " \t");
        if (!*line || *line == '\r')
            continue;
        int rc;
        if (k->index < 0)
            rc = line[0] == '#' ? header_done(k, err) : header_line(k, line, err);
        else if (k->raw)
            rc = line[0] == '#' ? ws_fail(err, "unexpected '%.40s' in a raw trace", line)
                                : instruction(k, line, err);
        else
            rc = grouped_line(k, line, err);
        if (rc != 0)
            return -1;
    }
    if (got < 0)
        return -2; /* already located */
    if (k->index < 0)
        return ws_fail(err, "file ends inside the header");
    if (k->in_tb)
        return ws_fail(err, "file ends inside a thread block (truncated?)");
    return 0;
}

static int import_kernel(const char *path, const wst_sink *sink, accelsim_info *info, ws_error *err)
{
    kernel_reader k = {.sink = sink, .raw = is_raw_name(path), .index = -1};
    if (!(k.in = accelsim_input_open(path, err)))
        return -1;
    int rc = kernel_lines(&k, err);
    /* The launch is whole: the sink may write it out (issue 42: import
     * kept every launch's table until the end). */
    if (rc == 0 && k.index >= 0)
        rc = wst_sink_end_kernel(sink, (uint32_t)k.index, err);
    if (rc == 0 && info && !info->binary_version)
        info->binary_version = k.binary_version;
    if (rc == -1)
        ws_fail_prefix(err, "%s:%lu: ", path, accelsim_input_lineno(k.in));
    accelsim_input_close(k.in);
    wst_kernel_clear(&k.kernel);
    pc_map_free(&k.pcs);
    u64map_destroy(&k.ldgsts_pending);
    accelsim_deps_free(&k.deps);
    return rc < 0 ? -1 : 0;
}

/* kernelslist(.g): "kernel-N.traceg" lines in launch order, relative to
 * the list's directory; Memcpy lines describe host copies and are skipped. */
static int import_list(const char *path, const wst_sink *sink, accelsim_info *info, ws_error *err)
{
    accelsim_input *in = accelsim_input_open(path, err);
    if (!in)
        return -1;
    const char *slash = strrchr(path, '/');
    int dir_len = slash ? (int)(slash - path) : 1;
    const char *dir = slash ? path : ".";
    char *line;
    int got, rc = 0;
    while (rc == 0 && (got = accelsim_input_line(in, &line, err)) > 0) {
        line[strcspn(line, "\r")] = '\0';
        if (!*line || strncmp(line, "Memcpy", 6) == 0)
            continue;
        if (strncmp(line, "kernel", 6) != 0 || !is_kernel_name(line)) {
            rc = ws_fail(err, "%s:%lu: '%.60s' is neither a kernel trace file nor a Memcpy",
                         path, accelsim_input_lineno(in), line);
            break;
        }
        char *kernel_path = NULL;
        if (asprintf(&kernel_path, "%.*s/%s", dir_len, dir, line) < 0) {
            rc = ws_fail(err, "out of memory");
            break;
        }
        /* Lists name kernel-N.traceg; traces are often kept compressed
         * beside them as kernel-N.traceg.xz. */
        struct stat st;
        if (stat(kernel_path, &st) != 0 && !ends_with(kernel_path, ".xz")) {
            char *xz = NULL;
            if (asprintf(&xz, "%s.xz", kernel_path) >= 0 && stat(xz, &st) == 0) {
                free(kernel_path);
                kernel_path = xz;
            } else
                free(xz);
        }
        if (stat(kernel_path, &st) != 0)
            rc = ws_fail(err, "%s:%lu: kernel file %s is missing (nor %s.xz)", path,
                         accelsim_input_lineno(in), kernel_path, kernel_path);
        else
            rc = import_kernel(kernel_path, sink, info, err);
        free(kernel_path);
    }
    if (got < 0)
        rc = -1;
    accelsim_input_close(in);
    return rc;
}

int accelsim_import(const char *path, const wst_sink *sink, accelsim_info *info, ws_error *err)
{
    if (info)
        *info = (accelsim_info){0};
    struct stat st;
    if (stat(path, &st) != 0)
        return ws_fail(err, "%s: no such file or directory", path);
    if (!S_ISDIR(st.st_mode))
        return is_kernel_name(path) ? import_kernel(path, sink, info, err)
                                    : import_list(path, sink, info, err);
    static const char *const lists[] = {"kernelslist.g", "kernelslist"};
    for (size_t i = 0; i < 2; i++) {
        char *list = NULL;
        if (asprintf(&list, "%s/%s", path, lists[i]) < 0)
            return ws_fail(err, "out of memory");
        int found = stat(list, &st) == 0;
        int rc = found ? import_list(list, sink, info, err) : 0;
        free(list);
        if (found)
            return rc;
    }
    return ws_fail(err, "%s: directory has no kernelslist.g or kernelslist", path);
}
