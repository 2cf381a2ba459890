/* formats/lane_tile.h: a warp of a 2D thread block, as one shape
 * (docs/trace-format.md, "Address modes", mode 5).
 *
 * A CTA whose blockDim.x is W < 32 puts 32 / W rows of W threads in each
 * warp, so lane l is thread (l mod W, l div W) of its tile, and a load of
 * a[y][x] gives lane l the address
 *     base + (l mod W) × step + (l div W) × row_step
 * (srad, hotspot, backprop and lud with W = 16; gaussian with W = 4).
 * Such a record is not affine, and coding its 32 lanes one by one made
 * these traces decode at a tenth of the speed of the others
 * (bench/RESULTS.md, "Decoding against the zstd floor").  The trace
 * codes it as (W, step, row_step) and the scheduler keeps it packed.
 *
 * One detector serves the writer and the packer, so that a record has
 * one canonical tile (the narrowest W that fits) on every path. */
#ifndef WS_LANE_TILE_H
#define WS_LANE_TILE_H

#include <stdint.h>

#include "formats/trace.h"

#define LANE_TILE_MIN_LOG2 1 /* W = 2 */
#define LANE_TILE_MAX_LOG2 4 /* W = 16 */

typedef struct lane_tile {
    unsigned log2_width; /* W = 1 << log2_width */
    uint64_t step;       /* per lane within a row, modulo 2^64 */
    uint64_t row_step;   /* per row */
} lane_tile;

/* diff / k when k divides it exactly as a signed 64-bit number (modulo
 * 2^64): the per-lane step between two lanes k apart.  0 if it does not. */
static inline int lane_exact_step(uint64_t diff, uint32_t k, uint64_t *step)
{
    if (k == 1) { /* neighbouring lanes or rows, the common case: no division */
        *step = diff;
        return 1;
    }
    int negative = (int64_t)diff < 0;
    uint64_t magnitude = negative ? 0 - diff : diff;
    if (magnitude % k != 0)
        return 0;
    *step = negative ? 0 - magnitude / k : magnitude / k;
    return 1;
}

/* Lane `lane`'s address in tile t, given lane `from`'s: signed lane
 * offsets, all modulo 2^64. */
static inline uint64_t lane_tile_address(const lane_tile *t, uint64_t at_from, unsigned from,
                                         unsigned lane)
{
    uint64_t width_mask = (1u << t->log2_width) - 1;
    uint64_t columns = (uint64_t)(lane & width_mask) - (uint64_t)(from & width_mask);
    uint64_t rows = (uint64_t)(lane >> t->log2_width) - (uint64_t)(from >> t->log2_width);
    return at_from + columns * t->step + rows * t->row_step;
}

/* Is every active lane of addr[] (indexed by lane) on one tile of width W
 * = 1 << log2_width?  The step comes from the lowest active lane f and the
 * next active lane of its row, the row step from the first active lane of
 * a later row; both must divide exactly.  A record with no second lane in
 * f's row, or no later row, has no tile of this width. */
static inline int lane_tile_fits(const uint64_t *addr, uint32_t mask, unsigned log2_width,
                                 lane_tile *t)
{
    unsigned f = (unsigned)__builtin_ctz(mask);
    unsigned row_end = ((f >> log2_width) + 1) << log2_width;
    uint32_t later = row_end < WST_WARP_SIZE ? mask & ~((1u << row_end) - 1) : 0;
    uint32_t same_row = mask & (mask - 1) & ~later;
    if (!same_row || !later)
        return 0;
    unsigned g = (unsigned)__builtin_ctz(same_row), h = (unsigned)__builtin_ctz(later);
    /* A fourth lane l must agree before anything is divided: with column
     * and row offsets (c, r) from f, a(l) − a(f) = c_l × step + r_l ×
     * row_step, multiplied through by c_g × r_h to leave out the
     * divisions, modulo 2^64.  Gathers, which have no tile, fail here
     * (looking for tiles with divisions cost bfs 13% of its decoding). */
    uint64_t width_mask = (1u << log2_width) - 1;
    uint32_t others = mask & ~(1u << f) & ~(1u << g) & ~(1u << h);
    if (others) {
        unsigned l = (unsigned)__builtin_ctz(others);
        uint64_t c_g = g - f, c_h = (h & width_mask) - (f & width_mask);
        uint64_t c_l = (l & width_mask) - (f & width_mask);
        uint64_t r_h = (h >> log2_width) - (f >> log2_width);
        uint64_t r_l = (l >> log2_width) - (f >> log2_width);
        uint64_t d_g = addr[g] - addr[f], d_h = addr[h] - addr[f], d_l = addr[l] - addr[f];
        if (d_l * c_g * r_h != c_l * d_g * r_h + r_l * (d_h * c_g - c_h * d_g))
            return 0;
    }
    t->log2_width = log2_width;
    if (!lane_exact_step(addr[g] - addr[f], g - f, &t->step))
        return 0;
    t->row_step = 0;
    uint64_t rest = addr[h] - lane_tile_address(t, addr[f], f, h);
    if (!lane_exact_step(rest, (h >> log2_width) - (f >> log2_width), &t->row_step))
        return 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        if (addr[l] != lane_tile_address(t, addr[f], f, l))
            return 0;
    }
    return 1;
}

/* The record's canonical tile: the narrowest width that fits.  Callers ask
 * only of records that are not affine (an affine record fits every width).
 * Three lanes define a tile, so any three lanes across two rows would fit
 * one: a tile must explain at least four (bfs's gathers grew 0.8% when
 * their three-lane records were coded as tiles). */
static inline int lane_tile_find(const uint64_t *addr, uint32_t mask, lane_tile *t)
{
    if (__builtin_popcount(mask) < 4)
        return 0;
    /* Lanes 2k and 2k + 1 share a row at every width (W >= 2), so on any
     * tile they lie one step apart: two such active pairs a different
     * distance apart rule out every width at once (a gather, bfs's usual
     * record, took four failed fits, 164 instructions). */
    uint32_t pairs = mask & (mask >> 1) & 0x55555555u;
    if (pairs & (pairs - 1)) {
        unsigned a = (unsigned)__builtin_ctz(pairs), b = (unsigned)__builtin_ctz(pairs & (pairs - 1));
        if (addr[a + 1] - addr[a] != addr[b + 1] - addr[b])
            return 0;
    }
    for (unsigned w = LANE_TILE_MIN_LOG2; w <= LANE_TILE_MAX_LOG2; w++)
        if (lane_tile_fits(addr, mask, w, t))
            return 1;
    return 0;
}

#endif
