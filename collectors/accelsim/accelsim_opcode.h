/* collectors/accelsim/accelsim_opcode.h: SASS opcode text -> trace model.
 *
 * Shared by the importer (to classify a traced instruction) and the exporter
 * (to check that an opcode still says what a record says, or to make one up
 * when it does not).  The mapping is documented in docs/accelsim.md. */
#ifndef WS_ACCELSIM_OPCODE_H
#define WS_ACCELSIM_OPCODE_H

#include <stddef.h>
#include <stdint.h>

#include "formats/trace.h"

typedef enum accelsim_space {
    ACCELSIM_NOT_TRACKED = 0, /* not a memory access warpscope records */
    ACCELSIM_GLOBAL,
    ACCELSIM_LOCAL,
    ACCELSIM_GENERIC,         /* LD/ST: resolved per access by address */
} accelsim_space;

typedef struct accelsim_opcode {
    accelsim_space space;
    uint8_t kind;     /* wst_kind */
    uint8_t cache_op; /* wst_cache_op from the suffixes */
    uint8_t ldgsts;   /* LDGSTS: the tracer emits a shared and a global half */
    /* What Accel-Sim's trace-driven simulator makes of it: */
    uint8_t sm70;     /* its sm_70 opcode table has the base (not LDGSTS, REDG) */
    uint8_t dest;     /* the SASS writes a register (loads, ATOM, ATOMG) */
    uint8_t skips_l1; /* cache_op CACHE_GLOBAL: atomics, and LDG/LDL/LDGSTS
                         with both .STRONG and .GPU; nothing else skips L1 */
    uint8_t width;    /* access bytes read from the opcode, not mem_width */
} accelsim_opcode;

void accelsim_opcode_classify(const char *opcode, accelsim_opcode *out);

/* Generic-address windows from the kernel header ("-shmem base_addr",
 * "-local mem base_addr"); a base of 0 means that window is unknown. */
typedef struct accelsim_windows {
    uint64_t shared_base, local_base;
} accelsim_windows;

#define ACCELSIM_WINDOW_BYTES (16u << 20)

/* Space of a generic access at addr: WST_GLOBAL, WST_LOCAL, or -1 when it
 * falls in the shared window (not traced). */
int accelsim_resolve_generic(const accelsim_windows *windows, uint64_t addr);

/* True when opcode, written for rec, imports back as rec's kind, space and
 * cache operator (a generic LD/ST resolved by windows) and Accel-Sim runs it
 * as rec says: a base its sm_70 table knows, an access of rec->size bytes,
 * and, for a load, L1 skipped exactly when warpscope's L1 skips it. */
int accelsim_opcode_fits(const char *opcode, const wst_record *rec,
                         const accelsim_windows *windows);
/* The same, keeping the classification of opcode in *out (all zero when
 * opcode is empty or not one token). */
int accelsim_opcode_fit(const char *opcode, const wst_record *rec, const accelsim_windows *windows,
                        accelsim_opcode *out);

/* An opcode that fits rec (above) unless rec is a local atomic (SASS has
 * none: it becomes global), e.g. "LDG.E.STRONG.GPU.64" for a 64-bit `cg`
 * global load. */
void accelsim_opcode_synthesize(const wst_record *rec, char *buf, size_t cap);

#endif
