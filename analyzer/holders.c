/* analyzer/holders.c: see holders.h. */
#include "analyzer/holders.h"

#include <stdlib.h>
#include <string.h>

int holders_init(holders *h, uint32_t sms)
{
    memset(h, 0, sizeof *h);
    h->words = sms ? (sms + 63) / 64 : 1;
    return u64map_init(&h->index, 1024);
}

void holders_destroy(holders *h)
{
    u64map_destroy(&h->index);
    free(h->masks);
    slot_pool_destroy(&h->entries);
    memset(h, 0, sizeof *h);
}

void holders_clear(holders *h)
{
    u64map_clear(&h->index);
    slot_pool_clear(&h->entries);
    h->copies = h->distinct = 0;
}

int holders_add(holders *h, uint64_t line, uint32_t sm)
{
    int inserted;
    uint32_t *found = u64map_upsert(&h->index, line, 0, &inserted);
    if (!found)
        return -1;
    if (inserted) {
        if (slot_pool_take(&h->entries, (void **)&h->masks, h->words * sizeof *h->masks, found) != 0) {
            u64map_remove(&h->index, line);
            return -1;
        }
        /* Up to 128 SMs (Fermi's 15, Volta's 80) by stores, where a memset
         * of a word or two was a call (GCC makes a plain loop one too). */
        uint64_t *mask = h->masks + (size_t)*found * h->words;
        mask[0] = 0;
        if (h->words > 1)
            mask[1] = 0;
        if (h->words > 2)
            memset(mask + 2, 0, (h->words - 2) * sizeof *mask);
        h->distinct++;
    }
    uint64_t *word = h->masks + (size_t)*found * h->words + sm / 64, bit = 1ull << (sm % 64);
    h->copies += !(*word & bit);
    *word |= bit;
    return 0;
}

void holders_remove(holders *h, uint64_t line, uint32_t sm)
{
    uint32_t *found = u64map_find(&h->index, line);
    if (!found)
        return;
    uint32_t entry = *found;
    uint64_t *mask = h->masks + (size_t)entry * h->words, bit = 1ull << (sm % 64);
    if (!(mask[sm / 64] & bit))
        return;
    mask[sm / 64] &= ~bit;
    h->copies--;
    for (uint32_t w = 0; w < h->words; w++)
        if (mask[w])
            return;
    h->distinct--;
    slot_pool_put(&h->entries, entry);
    u64map_remove_at(&h->index, found); /* only what the L1s hold; found once */
}
