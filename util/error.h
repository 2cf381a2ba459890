/* util/error.h: how every module reports a failure.
 *
 * A failing call fills a ws_error with one line saying what is wrong, and
 * returns -1 (or NULL).  The CLI prints it as `warpscope: <file>: <msg>`, so
 * the message itself never repeats the file name unless it adds a location
 * (e.g. "line 12: bad hex").  Fixed-size storage: reporting an error must
 * never itself fail. */
#ifndef WS_ERROR_H
#define WS_ERROR_H

#include <stdarg.h>

typedef struct ws_error {
    char msg[512];
} ws_error;

/* printf-style; safe with err == NULL (the message is dropped).  Returns -1
 * so callers can write `return ws_fail(err, "...")`. */
int ws_fail(ws_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int ws_vfail(ws_error *err, const char *fmt, va_list ap);

/* "WHAT: <strerror(errno)>", EIO when errno is 0: a failed write says why
 * (a full disk, a file-size limit, a closed pipe). */
int ws_fail_errno(ws_error *err, const char *what);

/* Prefix an existing message, e.g. "chunk 12: " + "checksum mismatch". */
int ws_fail_prefix(ws_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
