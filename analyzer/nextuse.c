/* analyzer/nextuse.c: see nextuse.h. */
#include "analyzer/nextuse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "util/u64map.h"

#define BLOCK 8192 /* values per I/O block */
#define KILL (UINT64_C(1) << 63) /* on a recorded key: an invalidation, not an access */

struct nextuse {
    FILE *keys;   /* recorded keys, forward */
    FILE *nexts;  /* next-use positions, forward */
    uint64_t *buffer;
    size_t buffered;
    uint64_t count;
    uint64_t read_position;
    size_t read_index, read_filled;
    uint64_t *fences; /* positions where every key is dropped, ascending */
    size_t fence_count, fence_capacity;
    int finished;
};

nextuse *nextuse_new(ws_error *err)
{
    nextuse *n = calloc(1, sizeof *n);
    if (!n || !(n->buffer = malloc(BLOCK * sizeof *n->buffer))) {
        free(n);
        ws_fail(err, "out of memory");
        return NULL;
    }
    /* tmpfile() is unlinked at once: nothing is left behind on any exit. */
    n->keys = tmpfile();
    n->nexts = tmpfile();
    if (!n->keys || !n->nexts) {
        ws_fail(err, "cannot create a temporary file for OPT's next-use pass: %s",
                strerror(errno));
        nextuse_free(n);
        return NULL;
    }
    return n;
}

void nextuse_free(nextuse *n)
{
    if (!n)
        return;
    if (n->keys)
        fclose(n->keys);
    if (n->nexts)
        fclose(n->nexts);
    free(n->buffer);
    free(n->fences);
    free(n);
}

static int flush_keys(nextuse *n, ws_error *err)
{
    if (n->buffered && fwrite(n->buffer, sizeof *n->buffer, n->buffered, n->keys) != n->buffered)
        return ws_fail(err, "cannot write OPT's temporary file: %s", strerror(errno));
    n->buffered = 0;
    return 0;
}

int nextuse_record(nextuse *n, uint64_t key, ws_error *err)
{
    n->buffer[n->buffered++] = key & ~KILL;
    n->count++;
    return n->buffered == BLOCK ? flush_keys(n, err) : 0;
}

int nextuse_record_kill(nextuse *n, uint64_t key, ws_error *err)
{
    n->buffer[n->buffered++] = key | KILL;
    n->count++;
    return n->buffered == BLOCK ? flush_keys(n, err) : 0;
}

int nextuse_fence(nextuse *n, ws_error *err)
{
    if (n->fence_count && n->fences[n->fence_count - 1] == n->count)
        return 0; /* nothing between two fences */
    if (ws_grow((void **)&n->fences, &n->fence_capacity, n->fence_count + 1, sizeof *n->fences))
        return ws_fail(err, "out of memory");
    n->fences[n->fence_count++] = n->count;
    return 0;
}

uint64_t nextuse_count(const nextuse *n) { return n->count; }

/* Walks the key file from its last block to its first.  For access i with
 * key k, next[i] = the position where k was last seen walking backwards.
 * The next-use file is written back to front at the same offsets. */
int nextuse_finish(nextuse *n, ws_error *err)
{
    if (flush_keys(n, err) != 0)
        return -1;
    /* key -> index into last_seen[], the latest position walking backwards
     * (positions may exceed 32 bits, map values do not).  A fence starts a
     * new epoch: a position seen in an older one is past a flush. */
    u64map seen;
    if (u64map_init(&seen, 1024) != 0)
        return ws_fail(err, "out of memory");
    uint64_t *last_seen = NULL;
    uint32_t *seen_epoch = NULL, epoch = 0;
    size_t distinct = 0, capacity = 0, fences_left = n->fence_count;
    uint64_t *nexts = malloc(BLOCK * sizeof *nexts);
    int rc = nexts ? 0 : ws_fail(err, "out of memory");
    uint64_t end = n->count;
    while (rc == 0 && end > 0) {
        uint64_t start = end > BLOCK ? end - BLOCK : 0;
        size_t len = (size_t)(end - start);
        if (fseeko(n->keys, (off_t)(start * sizeof(uint64_t)), SEEK_SET) != 0 ||
            fread(n->buffer, sizeof(uint64_t), len, n->keys) != len) {
            rc = ws_fail(err, "cannot read OPT's temporary file");
            break;
        }
        for (size_t i = len; i-- > 0;) {
            /* Walking back past a fence: what lies ahead of it is flushed. */
            while (fences_left && n->fences[fences_left - 1] > start + i) {
                fences_left--;
                epoch++;
            }
            uint64_t word = n->buffer[i];
            int inserted = 0;
            uint32_t *slot = u64map_upsert(&seen, word & ~KILL, (uint32_t)distinct, &inserted);
            if (inserted && distinct == capacity) {
                capacity = capacity ? capacity * 2 : 1024;
                uint64_t *grown = realloc(last_seen, capacity * sizeof *grown);
                uint32_t *grown_epochs = grown ? realloc(seen_epoch, capacity * sizeof *grown_epochs)
                                               : NULL;
                if (grown)
                    last_seen = grown;
                if (grown_epochs)
                    seen_epoch = grown_epochs;
                else
                    slot = NULL;
            }
            if (!slot) {
                rc = ws_fail(err, "out of memory");
                break;
            }
            if (inserted)
                distinct++;
            nexts[i] = inserted || seen_epoch[*slot] != epoch ? NEXTUSE_NEVER : last_seen[*slot];
            /* A kill: accesses before it have no use past it. */
            last_seen[*slot] = word & KILL ? NEXTUSE_NEVER : start + i;
            seen_epoch[*slot] = epoch;
        }
        if (rc == 0 && (fseeko(n->nexts, (off_t)(start * sizeof(uint64_t)), SEEK_SET) != 0 ||
                        fwrite(nexts, sizeof(uint64_t), len, n->nexts) != len))
            rc = ws_fail(err, "cannot write OPT's temporary file: %s", strerror(errno));
        end = start;
    }
    free(nexts);
    free(last_seen);
    free(seen_epoch);
    u64map_destroy(&seen);
    if (rc == 0 && fseeko(n->nexts, 0, SEEK_SET) != 0)
        rc = ws_fail(err, "cannot rewind OPT's temporary file");
    n->finished = rc == 0;
    return rc;
}

int nextuse_read(nextuse *n, uint64_t *next_position, ws_error *err)
{
    if (!n->finished || n->read_position >= n->count)
        return ws_fail(err, "OPT next-use read past the recorded accesses");
    if (n->read_index == n->read_filled) {
        uint64_t left = n->count - n->read_position;
        size_t want = left < BLOCK ? (size_t)left : BLOCK;
        if (fread(n->buffer, sizeof(uint64_t), want, n->nexts) != want)
            return ws_fail(err, "cannot read OPT's temporary file");
        n->read_index = 0;
        n->read_filled = want;
    }
    *next_position = n->buffer[n->read_index++];
    n->read_position++;
    return 0;
}
