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

/* An opcode that classifies back to exactly (kind, space, cache_op) and
 * whose width suffix says size, e.g. "LDG.E.CG.64". */
void accelsim_opcode_synthesize(const wst_record *rec, char *buf, size_t cap);

#endif
