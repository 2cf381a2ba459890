/* util/error.c: see error.h. */
#include "util/error.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int ws_vfail(ws_error *err, const char *fmt, va_list ap)
{
    if (err)
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    return -1;
}

int ws_fail(ws_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ws_vfail(err, fmt, ap);
    va_end(ap);
    return -1;
}

int ws_fail_prefix(ws_error *err, const char *fmt, ...)
{
    if (!err)
        return -1;
    char old[sizeof err->msg];
    memcpy(old, err->msg, sizeof old);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof err->msg)
        memcpy(err->msg + n, old, strnlen(old, sizeof old - 1 - (size_t)n) + 1);
    err->msg[sizeof err->msg - 1] = '\0';
    return -1;
}

int ws_fail_errno(ws_error *err, const char *what)
{
    int e = errno ? errno : EIO;
    return ws_fail(err, "%s: %s", what, strerror(e));
}
