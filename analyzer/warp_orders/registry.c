/* analyzer/warp_orders/registry.c: every warp order, by name.  A new one is
 * one file in this folder plus one line here. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/warp_order.h"

const warp_order_ops *const warp_order_all[] = {&warp_order_gto, &warp_order_lrr,
                                                &warp_order_recorded, &warp_order_swl,
                                                &warp_order_pcal, &warp_order_tuple, &warp_order_ccws,
                                                &warp_order_lws,
                                                NULL};

int warp_order_spec_equal(const warp_order_spec *a, const warp_order_spec *b)
{
    return a->ops == b->ops && a->n == b->n && a->p == b->p;
}

int warp_order_spec_parse(const char *text, warp_order_spec *out, ws_error *err)
{
    char name[32];
    size_t len = strcspn(text, ":");
    *out = (warp_order_spec){0};
    if (len >= sizeof name)
        return ws_fail(err, "unknown warp order '%s'", text);
    memcpy(name, text, len);
    name[len] = '\0';
    const warp_order_ops *ops = warp_order_find(name);
    if (!ops)
        return ws_fail(err, "unknown warp order '%s'", text);
    if (!ops->parameters)
        return text[len] ? ws_fail(err, "warp order '%s' takes no parameters", name) : (out->ops = ops, 0);
    char *end;
    const char *at = text + len + (text[len] == ':');
    unsigned long n = text[len] == ':' && *at >= '1' && *at <= '9' ? strtoul(at, &end, 10) : 0;
    unsigned long p = n;
    if (n == 0 || n > 128)
        return ws_fail(err, "'%s': N is a whole number from 1 to 128 (%s)", text, ops->description);
    if (ops->takes_p) {
        if (*end != ',' || end[1] < '0' || end[1] > '9' || (p = strtoul(end + 1, &end, 10)) > n)
            return ws_fail(err, "'%s' needs p <= N after it: %s:N,p", text, name);
    }
    if (*end)
        return ws_fail(err, "'%s': unexpected '%s' (%s)", text, end, ops->description);
    *out = (warp_order_spec){.ops = ops, .n = (uint32_t)n, .p = (uint32_t)p};
    return 0;
}

void warp_order_spec_format(const warp_order_spec *s, char *buf, size_t cap)
{
    if (!s->ops)
        snprintf(buf, cap, "?");
    else if (s->ops->takes_p)
        snprintf(buf, cap, "%s:%u,%u", s->ops->name, s->n, s->p);
    else if (s->ops->parameters)
        snprintf(buf, cap, "%s:%u", s->ops->name, s->n);
    else
        snprintf(buf, cap, "%s", s->ops->name);
}

void warp_order_names(char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; warp_order_all[i] && used < cap; i++) {
        const warp_order_ops *o = warp_order_all[i];
        const char *form = o->takes_p ? ":N,p" : o->parameters ? ":N" : "";
        int n = snprintf(buf + used, cap - used, "%s%s%s", i ? ", " : "", o->name, form);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

const warp_order_ops *warp_order_find(const char *name)
{
    for (int i = 0; warp_order_all[i]; i++)
        if (strcmp(warp_order_all[i]->name, name) == 0)
            return warp_order_all[i];
    return NULL;
}
