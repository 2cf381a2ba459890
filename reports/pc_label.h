/* reports/pc_label.h: how every report names a kernel and a PC.
 *
 * A PC is "kernel+0xOFFSET" (the offset from the kernel's entry, as in
 * cuobjdump and Nsight), with the kernel demangled to its short name
 * (util/demangle.h), and "file:line" beside it wherever the trace has the
 * source line.  Fitted to a column, the kernel name is shortened, never the
 * offset: two PCs of one kernel always read differently. */
#ifndef WS_PC_LABEL_H
#define WS_PC_LABEL_H

#include <stddef.h>
#include <stdint.h>

/* The kernel's display name ("?" for NULL) in at most `width` characters
 * (0: no limit), shortened at the end with "..". */
void kernel_label(char *dst, size_t cap, const char *kernel, size_t width);

/* "kernel+0x1a0" in at most `width` characters (0: no limit). */
void pc_label(char *dst, size_t cap, const char *kernel, uint64_t offset, size_t width);

/* "file.cu:42" (the file's base name), or "" when the line is unknown. */
void source_label(char *dst, size_t cap, const char *file, uint32_t line);

#endif
