/* collectors/accelsim/accelsim_opcode.c: see accelsim_opcode.h.
 *
 * Accel-Sim's simulator decides kind and space from the opcode's first
 * dot-separated token and its cache behaviour from the suffixes
 * (trace_driven.cc); the tables below follow the same split. */
#include "collectors/accelsim/accelsim_opcode.h"

#include <stdio.h>
#include <string.h>

typedef struct base_entry {
    const char *name;
    accelsim_space space;
    wst_kind kind;
} base_entry;

/* Shared-memory (LDS, STS, ATOMS, LDSM), constant (LDC) and texture
 * instructions are absent on purpose: they never reach L1/L2 data caches
 * as global or local traffic. */
static const base_entry base_table[] = {
    {"LDG", ACCELSIM_GLOBAL, WST_LOAD},     {"LDGSTS", ACCELSIM_GLOBAL, WST_LOAD},
    {"STG", ACCELSIM_GLOBAL, WST_STORE},    {"LDL", ACCELSIM_LOCAL, WST_LOAD},
    {"STL", ACCELSIM_LOCAL, WST_STORE},     {"LD", ACCELSIM_GENERIC, WST_LOAD},
    {"ST", ACCELSIM_GENERIC, WST_STORE},    {"ATOM", ACCELSIM_GLOBAL, WST_ATOMIC},
    {"ATOMG", ACCELSIM_GLOBAL, WST_ATOMIC}, {"RED", ACCELSIM_GLOBAL, WST_ATOMIC},
    {"REDG", ACCELSIM_GLOBAL, WST_ATOMIC},
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

void accelsim_opcode_classify(const char *opcode, accelsim_opcode *out)
{
    memset(out, 0, sizeof *out);
    size_t base_len = strcspn(opcode, ".");
    for (size_t i = 0; i < sizeof base_table / sizeof base_table[0]; i++)
        if (token_is(opcode, base_len, base_table[i].name)) {
            out->space = base_table[i].space;
            out->kind = (uint8_t)base_table[i].kind;
            out->ldgsts = strcmp(base_table[i].name, "LDGSTS") == 0;
        }
    if (out->space == ACCELSIM_NOT_TRACKED)
        return;
    int strong = 0, gpu_scope = 0, sys_scope = 0;
    for (const char *t = opcode + base_len; *t == '.';) {
        t++;
        size_t len = strcspn(t, ".");
        for (size_t i = 0; i < sizeof suffix_table / sizeof suffix_table[0]; i++)
            if (out->cache_op == WST_OP_DEFAULT && token_is(t, len, suffix_table[i].suffix))
                out->cache_op = (uint8_t)suffix_table[i].op;
        strong |= token_is(t, len, "STRONG");
        gpu_scope |= token_is(t, len, "GPU");
        sys_scope |= token_is(t, len, "SYS");
        t += len;
    }
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
    snprintf(buf, cap, "%s%s%s", base, op, wst_sass_size_suffix(rec->size));
}
