/* reports/pc_label.h: how every report names a kernel and a PC.
 *
 * A PC is "kernel+0xOFFSET" (the offset from the kernel's entry, as in
 * cuobjdump and Nsight), with the kernel demangled to its short name
 * (util/demangle.h), and "file:line" beside it wherever the trace has the
 * source line.  Fitted to a column, the kernel name is shortened, never the
 * offset: two PCs of one kernel always read differently.
 *
 * The JSON, CSV and HTML reports write identifiers through these functions
 * only, so they agree (docs/report-schema.md, "Identifiers"): a PC offset as
 * text is always pc_offset_text's lower-case hex ("0x1a0"), and a kernel
 * has its name as the trace holds it (mangled) beside kernel_label's
 * display name (demangled). */
#ifndef WS_PC_LABEL_H
#define WS_PC_LABEL_H

#include <stddef.h>
#include <stdint.h>

/* A PC's byte offset as text: "0x1a0" (lower-case hex, no padding). */
typedef struct pc_offset_text_buf {
    char s[24];
} pc_offset_text_buf;
pc_offset_text_buf pc_offset_text(uint64_t offset);

/* Room for any display name kernel_label makes unshortened. */
#define KERNEL_LABEL_MAX 4096

/* The kernel's display name ("?" for NULL) in at most `width` characters
 * (0: no limit), shortened at the end with "..". */
void kernel_label(char *dst, size_t cap, const char *kernel, size_t width);

/* "kernel+0x1a0" in at most `width` characters (0: no limit). */
void pc_label(char *dst, size_t cap, const char *kernel, uint64_t offset, size_t width);

/* What hovering a kernel's or a PC's label shows: `label`, then the
 * mangled name when the display name differs from it:
 * "Fan1+0x1a0 (mangled: _Z4Fan1PfS_ii)". */
void mangled_hover(char *dst, size_t cap, const char *label, const char *kernel);

/* "file.cu:42" (the file's base name), or "" when the line is unknown. */
void source_label(char *dst, size_t cap, const char *file, uint32_t line);

#endif
