/* collectors/nvbit/host/nvbit_deps.c: see nvbit_deps.h. */
#include "collectors/nvbit/host/nvbit_deps.h"

#include <ctype.h>
#include <string.h>

void ws_nvbit_static_begin(ws_nvbit_static *s) { memset(s, 0, sizeof *s); }

/* The register whose name starts at p ("R12", not "UR12" or "SR_TID"),
 * or -1; RZ and R255 carry nothing. */
static int register_at(const char *text, const char *p)
{
    if (*p != 'R' || !isdigit((unsigned char)p[1]) ||
        (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_')))
        return -1;
    int n = 0;
    for (p++; isdigit((unsigned char)*p) && n < 1000; p++)
        n = n * 10 + (*p - '0');
    return isalnum((unsigned char)*p) || n >= WS_NVBIT_REGISTERS ? -1 : n;
}

static void note_wait(ws_nvbit_timing *t, uint32_t load)
{
    for (uint32_t i = 0; i < t->waits_on_count; i++)
        if (t->waits_on[i] == load)
            return;
    if (t->waits_on_count < WS_NVBIT_MAX_WAITS_ON)
        t->waits_on[t->waits_on_count++] = load;
}

void ws_nvbit_static_instr(ws_nvbit_static *s, const char *sass, int writes_first, int traced,
                           int returns_data, uint32_t id, uint32_t size, ws_nvbit_timing *out)
{
    /* "[@P0 ]OPCODE op0, op1, ... ;": the operands follow the opcode. */
    const char *p = sass;
    if (*p == '@')
        p += strcspn(p, " ");
    p += strspn(p, " ");
    p += strcspn(p, " ");
    int dest = -1, first_operand = 1;
    for (; *p && *p != ';'; p++) {
        if (*p == ',')
            first_operand = 0;
        int r = register_at(sass, p);
        if (r < 0)
            continue;
        if (first_operand && writes_first && dest < 0)
            dest = r; /* written, not read */
        else if (s->writer[r])
            note_wait(&s->next, s->writer[r] - 1);
    }
    if (traced) {
        *out = s->next;
        memset(&s->next, 0, sizeof s->next);
    } else if (s->next.gap < UINT32_MAX) {
        s->next.gap++;
    }
    /* A load of 8 or 16 bytes a lane fills 2 or 4 registers from dest. */
    unsigned span = traced && returns_data && size > 4 ? size / 4 : 1;
    for (unsigned k = 0; dest >= 0 && k < span && dest + (int)k < WS_NVBIT_REGISTERS; k++)
        s->writer[dest + k] = traced && returns_data ? id + 1 : 0;
}

int ws_nvbit_deps_init(ws_nvbit_deps *d)
{
    memset(d, 0, sizeof *d);
    return u64map_init(&d->warp_loads, 64) != 0 || u64map_init(&d->last_load, 256) != 0 ? -1 : 0;
}

void ws_nvbit_deps_clear(ws_nvbit_deps *d)
{
    u64map_clear(&d->warp_loads);
    u64map_clear(&d->last_load);
}

void ws_nvbit_deps_free(ws_nvbit_deps *d)
{
    u64map_destroy(&d->warp_loads);
    u64map_destroy(&d->last_load);
}

/* Instruction ids past 2^21 (functions of millions of instructions) keep
 * no dependencies: the key has 21 bits for them. */
#define ID_BITS 21

int ws_nvbit_deps_record(ws_nvbit_deps *d, uint32_t cta, uint32_t warp, uint32_t id,
                         int returns_data, const ws_nvbit_timing *t, wst_record *r)
{
    uint64_t w = (uint64_t)cta << 11 | (warp & 0x7ff); /* a CTA has at most 2048 warps */
    int inserted;
    uint32_t *counted = u64map_upsert(&d->warp_loads, w, 0, &inserted);
    if (!counted)
        return -1;
    uint32_t loads = *counted;
    r->gap = t->gap;
    r->has_waits = 1;
    r->waits = 0;
    for (uint32_t i = 0; i < t->waits_on_count; i++) {
        const uint32_t *last = t->waits_on[i] >> ID_BITS
                                   ? NULL
                                   : u64map_find(&d->last_load, w << ID_BITS | t->waits_on[i]);
        if (last) {
            uint32_t back = loads - 1 - *last;
            r->waits |= 1u << (back < 31 ? back : 31);
        }
    }
    if (!returns_data)
        return 0;
    if (!(id >> ID_BITS)) {
        uint32_t *last = u64map_upsert(&d->last_load, w << ID_BITS | id, 0, &inserted);
        if (!last)
            return -1;
        *last = loads;
    }
    *u64map_find(&d->warp_loads, w) = loads + 1;
    return 0;
}
