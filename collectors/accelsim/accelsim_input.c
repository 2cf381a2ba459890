/* collectors/accelsim/accelsim_input.c: see accelsim_input.h. */
#include "collectors/accelsim/accelsim_input.h"

#include <errno.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/env_limit.h"
#include "util/inputs.h"

#define READ_BLOCK (64u << 10)

/* The xz decoder's memory is set by the stream's header (its dictionary),
 * not by the data: a header may claim gigabytes for a few bytes of input.
 * xz -9 needs 65 MiB; 256 MiB leaves room for any preset and refuses what
 * only a crafted or exotic stream asks.  WARPSCOPE_XZ_MEMLIMIT (MiB)
 * raises it (docs/accelsim.md). */
#define XZ_MEMLIMIT_DEFAULT_MIB 256u

static uint64_t xz_memlimit(void)
{
    return ws_env_limit_bytes("WARPSCOPE_XZ_MEMLIMIT", XZ_MEMLIMIT_DEFAULT_MIB);
}

struct accelsim_input {
    char *path;
    FILE *file;
    int xz;
    lzma_stream lzma;
    uint8_t *compressed;  /* READ_BLOCK bytes of .xz input */
    int file_done;        /* fread hit the end */
    int stream_done;      /* no more decoded bytes will come */
    char *buf;            /* decoded text: [start, end) not yet returned */
    size_t start, end, cap;
    unsigned long lineno;
};

accelsim_input *accelsim_input_open(const char *path, ws_error *err)
{
    accelsim_input *in = calloc(1, sizeof *in);
    if (!in || !(in->path = strdup(path))) {
        free(in);
        ws_fail(err, "%s: out of memory", path);
        return NULL;
    }
    size_t len = strlen(path);
    in->xz = len > 3 && strcmp(path + len - 3, ".xz") == 0;
    in->cap = READ_BLOCK * 2;
    in->buf = malloc(in->cap);
    in->file = fopen(path, "rb");
    if (!in->file) {
        ws_fail(err, "%s: cannot open: %s", path, strerror(errno));
        accelsim_input_close(in);
        return NULL;
    }
    ws_inputs_add(path); /* no output of this run may replace it (util/inputs.h) */
    if (in->xz) {
        lzma_stream init = LZMA_STREAM_INIT;
        in->lzma = init;
        in->compressed = malloc(READ_BLOCK);
        if (lzma_stream_decoder(&in->lzma, xz_memlimit(), LZMA_CONCATENATED) != LZMA_OK) {
            ws_fail(err, "%s: cannot start the xz decoder", path);
            accelsim_input_close(in);
            return NULL;
        }
    }
    if (!in->buf || (in->xz && !in->compressed)) {
        ws_fail(err, "%s: out of memory", path);
        accelsim_input_close(in);
        return NULL;
    }
    return in;
}

/* Appends decoded bytes after buf[end]; 0 when nothing more will come. */
static int fill(accelsim_input *in, ws_error *err)
{
    if (in->start > 0) { /* slide the partial line to the front */
        memmove(in->buf, in->buf + in->start, in->end - in->start);
        in->end -= in->start;
        in->start = 0;
    }
    if (in->cap - in->end < READ_BLOCK) {
        if (in->cap >= ACCELSIM_LINE_MAX + 2 * READ_BLOCK)
            return ws_fail(err, "%s:%lu: line longer than %u bytes", in->path,
                           in->lineno + 1, ACCELSIM_LINE_MAX);
        char *grown = realloc(in->buf, in->cap * 2);
        if (!grown)
            return ws_fail(err, "%s: out of memory", in->path);
        in->buf = grown;
        in->cap *= 2;
    }
    size_t room = in->cap - in->end;
    if (!in->xz) {
        size_t n = fread(in->buf + in->end, 1, room, in->file);
        if (ferror(in->file))
            return ws_fail(err, "%s: read error: %s", in->path, strerror(errno));
        in->end += n;
        return n > 0;
    }
    if (in->stream_done)
        return 0;
    in->lzma.next_out = (uint8_t *)in->buf + in->end;
    in->lzma.avail_out = room;
    while (in->lzma.avail_out == room) { /* until some output appears */
        if (in->lzma.avail_in == 0 && !in->file_done) {
            in->lzma.next_in = in->compressed;
            in->lzma.avail_in = fread(in->compressed, 1, READ_BLOCK, in->file);
            if (ferror(in->file))
                return ws_fail(err, "%s: read error: %s", in->path, strerror(errno));
            in->file_done = feof(in->file);
        }
        lzma_ret ret = lzma_code(&in->lzma, in->file_done ? LZMA_FINISH : LZMA_RUN);
        if (ret == LZMA_STREAM_END) {
            in->stream_done = 1;
            break;
        }
        if (ret == LZMA_MEMLIMIT_ERROR)
            return ws_fail(err, "%s: the xz stream needs %llu MiB to decode, over the limit of "
                           "%llu MiB (set WARPSCOPE_XZ_MEMLIMIT=MiB to allow it)", in->path,
                           (unsigned long long)((lzma_memusage(&in->lzma) + (1u << 20) - 1) >> 20),
                           (unsigned long long)(lzma_memlimit_get(&in->lzma) >> 20));
        if (ret != LZMA_OK)
            return ws_fail(err, "%s:%lu: xz data is %s", in->path, in->lineno + 1,
                           ret == LZMA_BUF_ERROR ? "truncated" : "corrupt");
    }
    in->end += room - in->lzma.avail_out;
    return 1;
}

/* The line from in->start to end (exclusive): terminated, without the
 * carriage return a CRLF file (written on Windows) ends it with. */
static int take_line(accelsim_input *in, char **line, size_t end, size_t next)
{
    if (end > in->start && in->buf[end - 1] == '\r')
        end--;
    in->buf[end] = '\0';
    *line = in->buf + in->start;
    in->start = next;
    in->lineno++;
    return 1;
}

int accelsim_input_line(accelsim_input *in, char **line, ws_error *err)
{
    for (;;) {
        char *nl = memchr(in->buf + in->start, '\n', in->end - in->start);
        if (nl)
            return take_line(in, line, (size_t)(nl - in->buf), (size_t)(nl - in->buf) + 1);
        int got = fill(in, err);
        if (got < 0)
            return -1;
        if (got == 0) {
            if (in->start == in->end)
                return 0;
            return take_line(in, line, in->end, in->end); /* last line without a newline */
        }
    }
}

unsigned long accelsim_input_lineno(const accelsim_input *in) { return in->lineno; }
const char *accelsim_input_path(const accelsim_input *in) { return in->path; }

void accelsim_input_close(accelsim_input *in)
{
    if (!in)
        return;
    if (in->xz)
        lzma_end(&in->lzma);
    if (in->file)
        fclose(in->file);
    free(in->compressed);
    free(in->buf);
    free(in->path);
    free(in);
}
