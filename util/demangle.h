/* util/demangle.h: readable kernel names from Itanium C++ ABI mangled ones.
 *
 * Traces carry the names the driver reports, mangled (`_Z8mult_gpuIfEvPT_S1_S1_ii`).
 * Reports show `mult_gpu<float>` in tables and
 * `void mult_gpu<float>(float*, float*, float*, int, int)` on hover.  This is
 * a demangler for the subset CUDA kernels use (namespaces, templates, builtin
 * and class types, pointers, references, cv-qualifiers, substitutions and
 * template parameters); anything beyond it (function pointers, expressions,
 * lambdas, local names) is declined and the mangled name is kept, so a name
 * is never shown wrong, only sometimes shown mangled.  tests/test_demangle.c
 * checks it against c++filt. */
#ifndef WS_DEMANGLE_H
#define WS_DEMANGLE_H

#include <stddef.h>

typedef struct demangled {
    char *name; /* qualified name with template arguments: "ns::f<float>" */
    char *full; /* with return type (templates) and parameters, as c++filt prints it */
} demangled;

/* 0 and both strings (malloc'd; free with demangled_free) when `mangled` is
 * a mangled function name in the supported subset; -1 otherwise (a plain C
 * name such as "Fan1", or a construct this demangler declines). */
int demangle(const char *mangled, demangled *out);
void demangled_free(demangled *d);

/* The display name: demangled name, else the name as given; never NULL
 * (NULL becomes "?").  Writes at most cap bytes, NUL-terminated. */
void demangle_short(const char *mangled, char *dst, size_t cap);

#endif
