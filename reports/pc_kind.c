/* reports/pc_kind.c: see pc_kind.h. */
#include "reports/pc_kind.h"

#include <string.h>

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

pc_kind pc_kind_of_sass(const char *sass)
{
    if (!sass)
        return PC_KIND_LOAD;
    const char *op = sass + strspn(sass, " \t");
    if (*op == '@') { /* a predicate guards it: the opcode is the next word */
        op += strcspn(op, " \t");
        op += strspn(op, " \t");
    }
    if (starts_with(op, "ATOM") || starts_with(op, "RED"))
        return PC_KIND_ATOMIC;
    if (starts_with(op, "ST"))
        return PC_KIND_STORE;
    return PC_KIND_LOAD;
}

const char *pc_kind_name(pc_kind kind)
{
    static const char *const names[] = {"load", "store", "atomic"};
    return names[kind];
}
