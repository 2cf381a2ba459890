/* util/ranks_twin.h: a statically linked warpscope started by mpirun
 * hands the run to its dynamically linked twin (docs/analysis.md "Ranks").
 *
 * The release binary is linked statically: a process starts in about half
 * the CPU time of a dynamically linked one (bench/RESULTS.md, "A static
 * release binary").  But a static process cannot open Open MPI's shared
 * libraries: they would bring a second C library into it.  So the build
 * puts beside it a twin, the same objects linked against the shared C
 * library (Makefile: warpscope-ranks, installed in libexec/warpscope/),
 * and a static process that a launcher started as a rank replaces itself
 * with the twin before it does anything else. */
#ifndef WS_RANKS_TWIN_H
#define WS_RANKS_TWIN_H

/* The twin's file name, beside the binary (the build tree) or in
 * ../libexec/warpscope/ from it (an installed copy). */
#define RANKS_TWIN_NAME "warpscope-ranks"

/* Replaces this process with the twin, same arguments and environment;
 * returns only when it cannot, with why (a static string). */
const char *ranks_become_twin(char **argv);

#endif
