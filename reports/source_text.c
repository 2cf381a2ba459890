/* reports/source_text.c: see source_text.h. */
#include "reports/source_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_SOURCE_BYTES ((long)16 << 20)

static int read_whole(source_text *t, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MAX_SOURCE_BYTES)
        return -1;
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t size = (size_t)st.st_size;
    char *data = malloc(size + 1);
    size_t got = data ? fread(data, 1, size, f) : 0;
    fclose(f);
    if (!data || got != size) {
        free(data);
        return -1;
    }
    data[size] = '\0';
    size_t lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    char **index = malloc(lines * sizeof *index);
    if (!index) {
        free(data);
        return -1;
    }
    size_t n = 0;
    index[n++] = data;
    for (size_t i = 0; i < size; i++)
        if (data[i] == '\n') {
            data[i] = '\0';
            if (i > 0 && data[i - 1] == '\r')
                data[i - 1] = '\0';
            index[n++] = data + i + 1;
        }
    *t = (source_text){data, index, n};
    return 0;
}

int source_text_load(source_text *text, const char *dir, const char *path)
{
    memset(text, 0, sizeof *text);
    if (!path || !*path)
        return -1;
    if (dir && *dir) {
        const char *slash = strrchr(path, '/');
        const char *tries[2] = {path, slash ? slash + 1 : NULL};
        for (int i = 0; i < 2; i++) {
            if (!tries[i])
                continue;
            char joined[4096];
            if (snprintf(joined, sizeof joined, "%s/%s", dir, tries[i]) < (int)sizeof joined &&
                read_whole(text, joined) == 0)
                return 0;
        }
    }
    return read_whole(text, path);
}

const char *source_text_line(const source_text *text, uint32_t n)
{
    return n >= 1 && n <= text->count ? text->lines[n - 1] : NULL;
}

void source_text_free(source_text *text)
{
    free(text->data);
    free(text->lines);
    memset(text, 0, sizeof *text);
}
