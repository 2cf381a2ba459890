/* reports/pc_label.c: see pc_label.h. */
#include "reports/pc_label.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "util/demangle.h"

static void shorten(char *text, size_t width)
{
    size_t len = strlen(text);
    if (width >= 3 && len > width)
        memcpy(text + width - 2, "..", 3);
}

pc_offset_text_buf pc_offset_text(uint64_t offset)
{
    pc_offset_text_buf b;
    snprintf(b.s, sizeof b.s, "0x%" PRIx64, offset);
    return b;
}

void kernel_label(char *dst, size_t cap, const char *kernel, size_t width)
{
    demangle_short(kernel, dst, cap);
    shorten(dst, width);
}

void pc_label(char *dst, size_t cap, const char *kernel, uint64_t offset, size_t width)
{
    char suffix[32], name[512];
    int n = snprintf(suffix, sizeof suffix, "+%s", pc_offset_text(offset).s);
    size_t room = width > (size_t)n + 3 ? width - (size_t)n : width ? 3 : 0;
    kernel_label(name, sizeof name, kernel, room);
    snprintf(dst, cap, "%s%s", name, suffix);
}

void mangled_hover(char *dst, size_t cap, const char *label, const char *kernel)
{
    char shown[KERNEL_LABEL_MAX];
    kernel_label(shown, sizeof shown, kernel, 0);
    if (kernel && strcmp(shown, kernel) != 0)
        snprintf(dst, cap, "%s (mangled: %s)", label, kernel);
    else
        snprintf(dst, cap, "%s", label);
}

void source_label(char *dst, size_t cap, const char *file, uint32_t line)
{
    if (!file || !*file || !line) {
        snprintf(dst, cap, "%s", "");
        return;
    }
    const char *base = strrchr(file, '/');
    snprintf(dst, cap, "%s:%" PRIu32, base ? base + 1 : file, line);
}
