/* collectors/accelsim/accelsim_opcode.c: see accelsim_opcode.h.
 *
 * Accel-Sim's simulator decides kind and space from the opcode's first
 * dot-separated token and its cache behaviour from the suffixes
 * (trace_driven.cc, trace_warp_inst_t::parse_from_trace_struct); the tables
 * below follow the same split. */
#include "collectors/accelsim/accelsim_opcode.h"

#include <stdio.h>
#include <string.h>

#include "analyzer/l1_rules.h"
#include "collectors/accelsim/accelsim_lines.h"

typedef struct base_entry {
    const char *name;
    accelsim_space space;
    wst_kind kind;
    uint8_t sm70;        /* in Accel-Sim's Volta_OpcodeMap (ISA_Def/volta_opcode.h) */
    uint8_t dest;        /* writes a register */
    uint8_t strong_gpu;  /* .STRONG.GPU makes Accel-Sim skip L1 */
} base_entry;

/* Shared-memory (LDS, STS, ATOMS, LDSM), constant (LDC) and texture
 * instructions are absent on purpose: they never reach L1/L2 data caches
 * as global or local traffic. */
static const base_entry base_table[] = {
    {"LDG", ACCELSIM_GLOBAL, WST_LOAD, 1, 1, 1},     {"LDGSTS", ACCELSIM_GLOBAL, WST_LOAD, 0, 0, 1},
    {"STG", ACCELSIM_GLOBAL, WST_STORE, 1, 0, 0},    {"LDL", ACCELSIM_LOCAL, WST_LOAD, 1, 1, 1},
    {"STL", ACCELSIM_LOCAL, WST_STORE, 1, 0, 0},     {"LD", ACCELSIM_GENERIC, WST_LOAD, 1, 1, 0},
    {"ST", ACCELSIM_GENERIC, WST_STORE, 1, 0, 0},    {"ATOM", ACCELSIM_GLOBAL, WST_ATOMIC, 1, 1, 0},
    {"ATOMG", ACCELSIM_GLOBAL, WST_ATOMIC, 1, 1, 0}, {"RED", ACCELSIM_GLOBAL, WST_ATOMIC, 1, 0, 0},
    {"REDG", ACCELSIM_GLOBAL, WST_ATOMIC, 0, 0, 0},
};

typedef struct suffix_entry {
    const char *suffix;
    wst_cache_op op;
} suffix_entry;

/* SASS suffix -> PTX cache operator.  EF (evict-first) is what ld.cs asks
 * for; NA (no L1 allocate) and LDGSTS's BYPASS skip L1 like ld.cg; CI is
 * the cached non-coherent path of ld.global.nc. */
static const suffix_entry suffix_table[] = {
    {"CA", WST_OP_CA}, {"CI", WST_OP_CA}, {"CG", WST_OP_CG}, {"NA", WST_OP_CG},
    {"BYPASS", WST_OP_CG}, {"CS", WST_OP_CS}, {"EF", WST_OP_CS}, {"LU", WST_OP_LU},
    {"CV", WST_OP_CV},
};

static const char *const op_suffix[WST_OP_COUNT] = {"", ".CA", ".CG", ".CS", ".LU", ".CV"};

static int token_is(const char *token, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(token, word, len) == 0;
}

/* Accel-Sim reads a memory access's width from the opcode, not from
 * mem_width (trace_parser.cc, get_datawidth_from_opcode): the first token
 * that is a number of bits, bare ("64") or after a U ("U16"); else 4. */
static int width_token(const char *t, size_t len, unsigned *bytes)
{
    size_t skip = len > 1 && t[0] == 'U';
    if (len == skip || strspn(t + skip, "0123456789") < len - skip)
        return 0;
    unsigned bits = 0;
    for (size_t i = skip; i < len && bits < 1000; i++)
        bits = bits * 10 + (unsigned)(t[i] - '0');
    *bytes = bits < 1000 ? bits / 8 : 0; /* 0: no access size warpscope knows */
    return 1;
}

void accelsim_opcode_classify(const char *opcode, accelsim_opcode *out)
{
    memset(out, 0, sizeof *out);
    size_t base_len = strcspn(opcode, ".");
    const base_entry *base = NULL;
    for (size_t i = 0; i < sizeof base_table / sizeof base_table[0]; i++)
        if (token_is(opcode, base_len, base_table[i].name))
            base = &base_table[i];
    if (!base)
        return;
    out->space = base->space;
    out->kind = (uint8_t)base->kind;
    out->ldgsts = strcmp(base->name, "LDGSTS") == 0;
    out->sm70 = base->sm70;
    out->dest = base->dest;
    int strong = 0, gpu_scope = 0, sys_scope = 0, have_width = 0;
    unsigned width = 4;
    for (const char *t = opcode + base_len; *t == '.';) {
        t++;
        size_t len = strcspn(t, ".");
        for (size_t i = 0; i < sizeof suffix_table / sizeof suffix_table[0]; i++)
            if (out->cache_op == WST_OP_DEFAULT && token_is(t, len, suffix_table[i].suffix))
                out->cache_op = (uint8_t)suffix_table[i].op;
        strong |= token_is(t, len, "STRONG");
        gpu_scope |= token_is(t, len, "GPU");
        sys_scope |= token_is(t, len, "SYS");
        if (!have_width)
            have_width = width_token(t, len, &width);
        t += len;
    }
    out->width = (uint8_t)width;
    /* All atomics are done at L2; a load skips L1 only for .STRONG.GPU. */
    out->skips_l1 = base->kind == WST_ATOMIC || (base->strong_gpu && strong && gpu_scope);
    /* Accel-Sim sends .STRONG.GPU loads past L1; .STRONG.SYS (volatile)
     * must not be served from any cache, which is what ld.cv says. */
    if (out->cache_op == WST_OP_DEFAULT && strong)
        out->cache_op = sys_scope ? WST_OP_CV : gpu_scope ? WST_OP_CG : WST_OP_DEFAULT;
}

/* [base, base + WINDOW) cut short where the other window begins. */
static int in_window(uint64_t base, uint64_t other_base, uint64_t addr)
{
    if (base == 0 || addr < base)
        return 0;
    uint64_t end = base + ACCELSIM_WINDOW_BYTES;
    if (other_base > base && other_base < end)
        end = other_base;
    return addr < end;
}

int accelsim_resolve_generic(const accelsim_windows *windows, uint64_t addr)
{
    if (in_window(windows->shared_base, windows->local_base, addr))
        return -1;
    if (in_window(windows->local_base, windows->shared_base, addr))
        return WST_LOCAL;
    return WST_GLOBAL;
}

int accelsim_opcode_fits(const char *opcode, const wst_record *rec,
                         const accelsim_windows *windows)
{
    accelsim_opcode op;
    return accelsim_opcode_fit(opcode, rec, windows, &op);
}

int accelsim_opcode_fit(const char *opcode, const wst_record *rec, const accelsim_windows *windows,
                        accelsim_opcode *out)
{
    memset(out, 0, sizeof *out);
    if (!opcode || !*opcode || strlen(opcode) >= ACCELSIM_OPCODE_MAX ||
        opcode[strcspn(opcode, " \t\r\n")])
        return 0;
    accelsim_opcode_classify(opcode, out);
    const accelsim_opcode op = *out;
    int space;
    switch (op.space) {
    case ACCELSIM_GLOBAL: space = WST_GLOBAL; break;
    case ACCELSIM_LOCAL: space = WST_LOCAL; break;
    case ACCELSIM_GENERIC:
        space = rec->mask ? accelsim_resolve_generic(windows, rec->addr[__builtin_ctz(rec->mask)])
                          : WST_GLOBAL;
        break;
    default: return 0;
    }
    if (op.kind != rec->kind || space != rec->space || op.cache_op != rec->cache_op)
        return 0;
    if (!op.sm70 || op.width != rec->size)
        return 0;
    return rec->kind != WST_LOAD ||
           op.skips_l1 == l1_load_bypasses(rec->space, rec->cache_op);
}

void accelsim_opcode_synthesize(const wst_record *rec, char *buf, size_t cap)
{
    const char *base;
    if (rec->kind == WST_ATOMIC)
        base = "ATOMG.E.ADD"; /* SASS has no local atomics */
    else if (rec->space == WST_LOCAL)
        base = rec->kind == WST_LOAD ? "LDL" : "STL";
    else
        base = rec->kind == WST_LOAD ? "LDG.E" : "STG.E";
    const char *op = rec->cache_op < WST_OP_COUNT ? op_suffix[rec->cache_op] : "";
    /* The one way to make Accel-Sim skip L1 on a load; CV keeps cv apart
     * from cg on import. */
    if (rec->kind == WST_LOAD && l1_load_bypasses(rec->space, rec->cache_op))
        op = rec->cache_op == WST_OP_CV ? ".CV.STRONG.GPU" : ".STRONG.GPU";
    snprintf(buf, cap, "%s%s%s", base, op, wst_sass_size_suffix(rec->size));
}
