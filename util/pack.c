/* util/pack.c: see pack.h. */
#include "util/pack.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

int pack_put(pack_bytes *b, const void *p, size_t n)
{
    if (ws_grow((void **)&b->data, &b->capacity, b->size + n, 1) != 0)
        return -1;
    if (n)
        memcpy(b->data + b->size, p, n);
    b->size += n;
    return 0;
}

int pack_put_array(pack_bytes *b, const void *p, uint64_t count, size_t elem)
{
    uint64_t head = p ? count : PACK_NO_ARRAY;
    return pack_put(b, &head, sizeof head) || (p && pack_put(b, p, (size_t)count * elem)) ? -1 : 0;
}

void pack_bytes_free(pack_bytes *b)
{
    free(b->data);
    *b = (pack_bytes){0};
}

int pack_get(pack_reader *rd, void *p, size_t n)
{
    if (rd->bad || n > rd->size - rd->at)
        return rd->bad = 1, -1;
    memcpy(p, rd->data + rd->at, n);
    rd->at += n;
    return 0;
}

void *pack_get_array(pack_reader *rd, uint64_t count, size_t elem)
{
    uint64_t head;
    if (pack_get(rd, &head, sizeof head) != 0 || head == PACK_NO_ARRAY)
        return NULL;
    if (head != count || (elem && head > (rd->size - rd->at) / elem)) {
        rd->bad = 1;
        return NULL;
    }
    size_t n = (size_t)head * elem;
    void *p = malloc(n ? n : 1);
    if (!p || pack_get(rd, p, n) != 0) {
        free(p);
        rd->bad = 1;
        return NULL;
    }
    return p;
}
