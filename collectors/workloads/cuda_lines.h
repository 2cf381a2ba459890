/* collectors/workloads/cuda_lines.h: the emulator ports' accesses at their
 * lines in the CUDA programs (collectors/workloads/cuda/NAME.cu).
 *
 * A trace the emulator records carries the port's file:line for each PC
 * (gaussian.c:22); the same load in the CUDA program the port mirrors is at
 * another line of another file (gaussian.cu:13).  The HTML report's source
 * view shows both, so a reader of the .cu program finds the load there
 * (reports/html_source.c). */
#ifndef WS_CUDA_LINES_H
#define WS_CUDA_LINES_H

#include <stddef.h>
#include <stdint.h>

typedef struct cuda_line {
    const char *port_file; /* base name: "gaussian.c" */
    uint32_t port_line;
    const char *cuda_file; /* base name, under collectors/workloads/cuda/ */
    uint32_t cuda_line;
    const char *array, *index; /* the access as the port writes it: a[index] */
} cuda_line;

#define CUDA_LINES_DIR "collectors/workloads/cuda"

/* The .cu lines of the accesses on a port's line (port_file may be a path:
 * its base name is looked up), at most max, distinct; 0 when none. */
size_t cuda_lines_of(const char *port_file, uint32_t line, const cuda_line **out, size_t max);
/* Every row (tests). */
const cuda_line *cuda_lines_all(size_t *count);

#endif
