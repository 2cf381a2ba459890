/* reports/json_memory.c: see json_memory.h.  Only formats: the excess is
 * written beside the ideal so that a reader sums and never subtracts. */
#include "reports/json_memory.h"

#include "formats/trace.h"
#include "reports/json_out.h"

static json_t *flow_json(const memory_flow *f)
{
    return json_pack("{s:o,s:o,s:o}", "requests", report_json_u64(f->requests), "sectors",
                     report_json_u64(f->sectors), "bytes", report_json_u64(f->bytes));
}

/* The requests the instructions make of L1 (docs/metrics.md §7): sectors
 * against the ideal; the hit rate for loads alone (stores and atomics
 * write through). */
static json_t *l1_json(const memory_kind_counts *c, memory_kind kind)
{
    json_t *o = flow_json(&c->l1);
    json_object_set_new(o, "ideal_sectors", report_json_u64(c->l1_ideal_sectors));
    json_object_set_new(o, "excess_sectors", report_json_u64(c->l1.sectors - c->l1_ideal_sectors));
    json_object_set_new(o, "sectors_per_request",
                        report_json_ratio((double)c->l1.sectors, (double)c->l1.requests));
    json_object_set_new(o, "hits", report_json_u64(c->l1_hits));
    json_object_set_new(o, "hit_rate", kind == MEMORY_LOADS
                                           ? report_json_ratio((double)c->l1_hits,
                                                               (double)c->l1.requests)
                                           : json_null());
    return o;
}

static json_t *kind_json(const memory_kind_counts *c, memory_kind kind)
{
    json_t *o = json_object();
    if (kind != MEMORY_WRITE_BACKS) /* evictions make no request of L1 */
        json_object_set_new(o, "l1", l1_json(c, kind));
    json_object_set_new(o, "l1_to_l2", flow_json(&c->l1_to_l2));
    json_object_set_new(o, "l2", json_pack("{s:o,s:o,s:o}", "requests",
                                           report_json_u64(c->l2_requests), "hits",
                                           report_json_u64(c->l2_hits), "hit_rate",
                                           report_json_ratio((double)c->l2_hits,
                                                             (double)c->l2_requests)));
    json_object_set_new(o, "l2_to_dram", flow_json(&c->l2_to_dram));
    return o;
}

/* Requests per L2 slice, and the spread the HTML's balance chart names. */
static json_t *slices_json(const uint64_t *requests, uint32_t slices)
{
    uint64_t min = slices ? requests[0] : 0, max = 0, sum = 0;
    for (uint32_t s = 0; s < slices; s++) {
        min = requests[s] < min ? requests[s] : min;
        max = requests[s] > max ? requests[s] : max;
        sum += requests[s];
    }
    return json_pack("{s:o,s:o,s:o,s:o}", "requests", report_json_u64_array(requests, slices),
                     "min", report_json_u64(min), "mean", report_json_ratio((double)sum, slices),
                     "max", report_json_u64(max));
}

json_t *memory_json(const memory_kernel *k, uint32_t slices)
{
    json_t *o = json_object();
    json_object_set_new(o, "sector_bytes", json_integer(32));
    for (int kind = 0; kind < MEMORY_KINDS; kind++)
        json_object_set_new(o, memory_kind_key((memory_kind)kind),
                            kind_json(&k->kinds[kind], (memory_kind)kind));
    json_object_set_new(o, "l2_slices", slices_json(k->slice_requests, slices));
    return o;
}

json_t *memory_pc_json(const memory_pc *pc)
{
    json_t *o = json_object();
    json_object_set_new(o, "kind", pc->instructions ? json_string(wst_kind_name((wst_kind)pc->kind))
                                                    : json_null());
    json_object_set_new(o, "instructions", report_json_u64(pc->instructions));
    json_object_set_new(o, "requests", report_json_u64(pc->requests));
    json_object_set_new(o, "sectors", report_json_u64(pc->sectors));
    json_object_set_new(o, "ideal_sectors", report_json_u64(pc->ideal_sectors));
    json_object_set_new(o, "excess_sectors", report_json_u64(pc->sectors - pc->ideal_sectors));
    return o;
}
