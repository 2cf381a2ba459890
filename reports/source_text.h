/* reports/source_text.h: the lines of a source file, for the HTML source
 * view.  A file is looked for in the source directory the user gave, then
 * where the trace's path says; one that cannot be read has no text (the
 * view then shows the counters alone). */
#ifndef WS_SOURCE_TEXT_H
#define WS_SOURCE_TEXT_H

#include <stddef.h>
#include <stdint.h>

typedef struct source_text {
    char *data;   /* the file, its line breaks made NULs */
    char **lines; /* lines[i]: line i + 1 */
    size_t count;
} source_text;

/* Reads path as found under dir (path itself, then its base name), then
 * path as given; dir may be NULL.  0 when read, -1 when no candidate is a
 * readable regular file of at most 16 MiB (text left empty). */
int source_text_load(source_text *text, const char *dir, const char *path);
/* Line n (from 1), or NULL past the end. */
const char *source_text_line(const source_text *text, uint32_t n);
void source_text_free(source_text *text);

#endif
