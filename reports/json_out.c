/* reports/json_out.c: see json_out.h. */
#include "reports/json_out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reports/json_bounds.h"
#include "reports/pc_label.h"
#include "util/json_print.h"
#include "util/json_stream.h"
#include "util/outfile.h"

int report_json_write(const char *path, const json_t *doc, ws_error *err)
{
    return report_json_write_deferred(path, doc, NULL, err);
}

int report_json_write_deferred(const char *path, const json_t *doc, json_deferred_set *later,
                               ws_error *err)
{
    ws_outfile *out = ws_outfile_open(path, err);
    if (!out)
        return -1;
    FILE *stream = ws_outfile_stream(out);
    /* Printed whole, then written at once: json_dumpf writes each token
     * with its own fwrite, a quarter of the printing's cost; and printed
     * by util/json_print.h, not json_dumps, whose loop check and snprintf
     * per number were most of the rest. */
    char *text = json_print_compact_deferred(doc, REPORT_JSON_PRECISION, later);
    errno = 0;
    if (!text || fputs(text, stream) == EOF || fputc('\n', stream) == EOF) {
        if (text)
            ws_fail_errno(err, "cannot write JSON");
        else
            ws_fail(err, "out of memory");
        free(text);
        ws_outfile_abort(out);
        return -1;
    }
    free(text);
    return ws_outfile_commit(out, err);
}

int report_json_write_spooled(const char *path, const json_t *doc, kernel_spool *spool,
                              ws_error *err)
{
    if (!spool)
        return report_json_write(path, doc, err);
    char *text = json_print_compact(doc, REPORT_JSON_PRECISION);
    const char *at = text ? json_empty_array_at(text, "kernels") : NULL;
    if (!at) {
        free(text);
        return ws_fail(err, "out of memory");
    }
    ws_outfile *out = ws_outfile_open(path, err);
    if (!out) {
        free(text);
        return -1;
    }
    FILE *stream = ws_outfile_stream(out);
    errno = 0;
    size_t head = (size_t)(at - text) + 1; /* up to and with '[' */
    fwrite(text, 1, head, stream);
    int rc = kernel_spool_copy_printed(spool, stream, err);
    if (rc == 0) {
        fputc(']', stream);
        fputs(text + head + 1, stream);
        fputc('\n', stream);
    }
    free(text);
    if (rc != 0 || ferror(stream)) {
        if (rc == 0)
            ws_fail_errno(err, "cannot write JSON");
        ws_outfile_abort(out);
        return -1;
    }
    return ws_outfile_commit(out, err);
}

json_t *report_json_ratio(double num, double den)
{
    return den > 0 ? json_real(num / den) : json_null();
}

json_t *report_json_u64(uint64_t v)
{
    /* json_int_t is long long: counts beyond 2^63 do not occur in practice. */
    return json_integer((json_int_t)v);
}

void report_write_ratio(json_writer *w, double num, double den)
{
    if (den > 0) /* as report_json_ratio */
        json_write_real(w, num / den);
    else
        json_write_null(w);
}

void report_write_u64(json_writer *w, uint64_t v)
{
    json_write_integer(w, (json_int_t)v); /* as report_json_u64 */
}

json_t *report_json_u64_sparse(const uint64_t *values, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        if (values[i])
            json_array_append_new(a, json_pack("[I,I]", (json_int_t)i, (json_int_t)values[i]));
    return a;
}

json_t *report_json_u64_array(const uint64_t *values, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, report_json_u64(values[i]));
    return a;
}

json_t *report_json_pc_offset(uint64_t offset)
{
    return json_string(pc_offset_text(offset).s);
}

json_t *report_json_kernel_label(const char *kernel)
{
    char shown[KERNEL_LABEL_MAX];
    kernel_label(shown, sizeof shown, kernel, 0);
    return report_json_string_or_null(shown);
}

json_t *report_json_string_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

void report_json_set_gpu(json_t *doc, const gpu_config *c)
{
    char note[192];
    json_object_set_new(doc, "gpu", config_to_json(c));
    if (config_paper_preset_note(c, note, sizeof note))
        json_object_set_new(doc, "gpu_note", json_string(note));
}

json_t *report_json_sharing(const sharing_results *r, uint32_t block_bytes)
{
    json_t *matrix = json_array();
    for (uint32_t x = 0; x < r->sm_count; x++)
        json_array_append_new(matrix,
                              report_json_u64_array(r->sm_matrix + (size_t)x * r->sm_count,
                                                    r->sm_count));
    json_t *o = json_object();
    json_object_set_new(o, "block_bytes", json_integer(block_bytes));
    json_object_set_new(o, "blocks", report_json_u64(r->blocks));
    json_object_set_new(o, "distinct_blocks", report_json_u64(r->distinct_blocks));
    json_object_set_new(o, "shared_blocks", report_json_u64(r->shared_blocks));
    json_object_set_new(o, "shared_fraction",
                        report_json_ratio((double)r->shared_blocks, (double)r->blocks));
    json_object_set_new(o, "sharers_hist", report_json_u64_array(r->sharers_hist, r->sm_count + 1));
    report_json_add_index_bounds(o, "sharers_hist", r->sm_count + 1);
    json_object_set_new(o, "mean_sms_per_block",
                        r->blocks ? json_real(sharing_mean_sms_per_block(r)) : json_null());
    json_object_set_new(o, "mean_sms_per_shared_block",
                        r->shared_blocks ? json_real(sharing_mean_sms_per_shared_block(r))
                                         : json_null());
    json_object_set_new(o, "sm_matrix", matrix);
    json_object_set_new(o, "multi_cta_blocks", report_json_u64(r->multi_cta_blocks));
    json_object_set_new(o, "multi_cta_fraction",
                        report_json_ratio((double)r->multi_cta_blocks, (double)r->blocks));
    json_object_set_new(o, "cta_pairs", report_json_u64(r->cta_pairs));
    json_object_set_new(o, "cta_distance_exact",
                        report_json_u64_array(r->cta_distance_exact, SHARING_EXACT_DISTANCES));
    json_object_set_new(o, "cta_distance_log2",
                        report_json_u64_array(r->cta_distance_log2, SHARING_LOG2_BUCKETS));
    report_json_add_index_bounds(o, "cta_distance_exact", SHARING_EXACT_DISTANCES);
    report_json_add_pow2_bounds(o, "cta_distance_log2", SHARING_LOG2_BUCKETS);
    json_object_set_new(o, "neighbour_pair_share",
                        r->cta_pairs ? json_real(sharing_neighbour_pair_share(r)) : json_null());
    return o;
}

json_t *report_json_mpli(const mpli_counts *c)
{
    json_t *names = json_array();
    for (int b = 0; b < MPLI_BUCKETS; b++)
        json_array_append_new(names, json_string(mpli_bucket_name(b)));
    json_t *o = json_object();
    json_object_set_new(o, "buckets", names);
    report_json_add_mpli_bounds(o, "bucket");
    json_object_set_new(o, "coherent", report_json_u64_array(c->coherent, MPLI_BUCKETS));
    json_object_set_new(o, "divergent", report_json_u64_array(c->divergent, MPLI_BUCKETS));
    json_object_set_new(o, "loads", report_json_u64(c->loads));
    json_object_set_new(o, "fully_cached", report_json_u64(c->fully_cached));
    json_object_set_new(o, "partially_cached", report_json_u64(c->partially_cached));
    json_object_set_new(o, "fully_missed", report_json_u64(c->fully_missed));
    json_object_set_new(o, "mean", report_json_ratio((double)c->misses, (double)c->loads));
    return o;
}

json_t *report_json_miss_classes(const miss_counts *c)
{
    json_t *o = json_object();
    for (int k = 0; k < MISS_CLASSES; k++) {
        /* "intra-warp" -> "intra_warp": JSON keys stay identifier-like. */
        char key[32];
        snprintf(key, sizeof key, "%s", miss_class_name((miss_class)k));
        for (char *p = key; *p; p++)
            if (*p == '-')
                *p = '_';
        json_object_set_new(o, key, report_json_u64(c->by_class[k]));
    }
    json_object_set_new(o, "capacity", report_json_u64(c->capacity));
    json_object_set_new(o, "conflict", report_json_u64(c->conflict));
    return o;
}

json_t *report_json_locality_totals(const locality_totals *t)
{
    json_t *gens = json_object();
    for (int c = 0; c < LOCALITY_CLASSES; c++)
        json_object_set_new(gens, locality_class_name((locality_class)c),
                            report_json_u64(t->generations[c]));
    double agreement = locality_totals_agreement(t);
    json_t *o = json_object();
    json_object_set_new(o, "generations", gens);
    json_object_set_new(o, "intra_warp_hits", report_json_u64(t->intra_warp_hits));
    json_object_set_new(o, "inter_warp_hits", report_json_u64(t->inter_warp_hits));
    json_object_set_new(o, "monitored_agreement",
                        agreement < 0 ? json_null() : json_real(agreement));
    return o;
}

json_t *report_json_locality_pc(const locality_pc *pc)
{
    uint64_t total = 0;
    for (int c = 0; c < LOCALITY_CLASSES; c++)
        total += pc->generations[c];
    json_t *o = json_object();
    for (int c = 0; c < LOCALITY_CLASSES; c++)
        json_object_set_new(o, locality_class_name((locality_class)c),
                            report_json_ratio((double)pc->generations[c], (double)total));
    json_object_set_new(o, "class",
                        total ? json_string(locality_class_name(locality_dominant(pc->generations)))
                              : json_null());
    return o;
}
