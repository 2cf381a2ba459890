/* util/error.c: see error.h. */
#include "util/error.h"

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
    char prefix[sizeof err->msg];
    char old[sizeof err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof old);
    snprintf(err->msg, sizeof err->msg, "%s%s", prefix, old);
    return -1;
}
