/* analyzer/warp_orders/registry.c: every warp order, by name.  A new one is
 * one file in this folder plus one line here. */
#include <stddef.h>
#include <string.h>

#include "analyzer/warp_order.h"

const warp_order_ops *const warp_order_all[] = {&warp_order_gto, &warp_order_lrr,
                                                &warp_order_recorded, &warp_order_swl,
                                                &warp_order_pcal, NULL};

const warp_order_ops *warp_order_find(const char *name)
{
    for (int i = 0; warp_order_all[i]; i++)
        if (strcmp(warp_order_all[i]->name, name) == 0)
            return warp_order_all[i];
    return NULL;
}
