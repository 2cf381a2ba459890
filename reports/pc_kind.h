/* reports/pc_kind.h: whether a PC of a report loads, stores or does an
 * atomic, read off its SASS text.
 *
 * report.json gives a PC's SASS but not the kind of its records (that is
 * per record in the trace, docs/trace-format.md), and without
 * --include-stores a store PC has no counts at all.  The opcode says it:
 * the opcode table the importer and exporter share
 * (collectors/accelsim/accelsim_opcode.c) reads ST, STG, STL as stores and
 * ATOM, ATOMG, RED, REDG as atomics.  A PC without
 * SASS is taken for a load, as the report's load tables always did. */
#ifndef WS_PC_KIND_H
#define WS_PC_KIND_H

typedef enum pc_kind { PC_KIND_LOAD, PC_KIND_STORE, PC_KIND_ATOMIC } pc_kind;

/* sass: "STG.E", "@!P0 ATOMG.E.ADD R0, [R2]", or NULL. */
pc_kind pc_kind_of_sass(const char *sass);
/* "load", "store", "atomic". */
const char *pc_kind_name(pc_kind kind);

#endif
