/* reports/pc_kind.c: see pc_kind.h. */
#include "reports/pc_kind.h"

#include <stdio.h>
#include <string.h>

#include "collectors/accelsim/accelsim_opcode.h"

pc_kind pc_kind_of_sass(const char *sass)
{
    if (!sass)
        return PC_KIND_LOAD;
    const char *op = sass + strspn(sass, " \t");
    if (*op == '@') { /* a predicate guards it: the opcode is the next word */
        op += strcspn(op, " \t");
        op += strspn(op, " \t");
    }
    /* The opcode word alone, read by the one table that maps SASS to the
     * trace model (the importer's and exporter's). */
    char word[64];
    snprintf(word, sizeof word, "%.*s", (int)strcspn(op, " \t"), op);
    accelsim_opcode c;
    accelsim_opcode_classify(word, &c);
    if (c.space == ACCELSIM_NOT_TRACKED)
        return PC_KIND_LOAD;
    return c.kind == WST_ATOMIC ? PC_KIND_ATOMIC : c.kind == WST_STORE ? PC_KIND_STORE : PC_KIND_LOAD;
}

const char *pc_kind_name(pc_kind kind)
{
    static const char *const names[] = {"load", "store", "atomic"};
    return names[kind];
}
