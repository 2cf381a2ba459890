/* analyzer/advice.c: see advice.h. */
#include "analyzer/advice.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *advice_kind_key(advice_kind kind)
{
    static const char *const keys[] = {"ldcg", "coalesce", "cta_schedule"};
    return keys[kind];
}

const char *advice_kind_words(advice_kind kind)
{
    static const char *const words[] = {"load with __ldcg", "coalesce accesses",
                                        "schedule CTAs that share data on one SM"};
    return words[kind];
}

const char *advice_finding_key(advice_finding finding)
{
    static const char *const keys[] = {"bypass_worthy", "streaming", "replay", "uncoalesced",
                                       "sharing"};
    return keys[finding];
}

typedef struct ranked {
    advice_item item;
    char place[200];
    uint64_t group_saving; /* the largest saving at its place */
    uint32_t order;        /* given order: ties keep it */
} ranked;

static int by_saving(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->group_saving != y->group_saving)
        return (x->group_saving < y->group_saving) - (x->group_saving > y->group_saving);
    int place = strcmp(x->place, y->place);
    if (place)
        return place;
    if (x->item.saved_bytes != y->item.saved_bytes)
        return (x->item.saved_bytes < y->item.saved_bytes) - (x->item.saved_bytes > y->item.saved_bytes);
    return (x->order > y->order) - (x->order < y->order);
}

void advice_rank(advice_item *items, uint32_t count,
                 const char *(*place)(void *ctx, const advice_item *item, char *buf, size_t cap),
                 void *ctx)
{
    ranked *r = calloc(count + 1, sizeof *r);
    if (!r)
        return; /* left in the given order */
    for (uint32_t i = 0; i < count; i++) {
        r[i].item = items[i];
        r[i].order = i;
        const char *p = place(ctx, &items[i], r[i].place, sizeof r[i].place);
        if (p != r[i].place)
            snprintf(r[i].place, sizeof r[i].place, "%s", p);
    }
    for (uint32_t i = 0; i < count; i++)
        for (uint32_t j = 0; j < count; j++)
            if (strcmp(r[i].place, r[j].place) == 0 && r[j].item.saved_bytes > r[i].group_saving)
                r[i].group_saving = r[j].item.saved_bytes;
    qsort(r, count, sizeof *r, by_saving);
    for (uint32_t i = 0; i < count; i++)
        items[i] = r[i].item;
    free(r);
}
