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

void kernel_label(char *dst, size_t cap, const char *kernel, size_t width)
{
    demangle_short(kernel, dst, cap);
    shorten(dst, width);
}

void pc_label(char *dst, size_t cap, const char *kernel, uint64_t offset, size_t width)
{
    char suffix[24], name[512];
    int n = snprintf(suffix, sizeof suffix, "+0x%" PRIx64, offset);
    size_t room = width > (size_t)n + 3 ? width - (size_t)n : width ? 3 : 0;
    kernel_label(name, sizeof name, kernel, room);
    snprintf(dst, cap, "%s%s", name, suffix);
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
