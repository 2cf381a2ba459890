/* tests/test_kernel_spool.c: kernel entries set aside as the pass goes
 * (reports/kernel_spool.h) make the same report.json as a document that
 * holds them all, and the analysis keeps no kernel after reporting it. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/analysis.h"
#include "reports/analysis_out.h"
#include "reports/json_out.h"
#include "reports/kernel_spool.h"
#include "reports/report_json.h"
#include "tests/helpers.h"
#include "tests/trace_gen.h"

/* Entries with what the dump must carry through a spool unchanged: nested
 * objects and arrays, reals that need all their digits, large integers,
 * escapes, an empty array and object. */
static json_t *entry(int i)
{
    return json_pack("{s:i,s:s,s:[f,f,f],s:{s:I,s:[],s:{}},s:[{s:f},{s:n}]}", "index", i, "name",
                     i == 1 ? "k\"1\"\n\xc3\xa9" : "k", "reals", 1.0 / 3.0, 2.0, 1e-7 * (i + 1),
                     "metrics", "big", (json_int_t)1 << 60, "empty", "none", "pcs", "u",
                     0.1 * i, "x");
}

static json_t *document(void)
{
    return json_pack("{s:s,s:{s:i},s:[],s:{s:f}}", "schema", "warpscope-report", "summary",
                     "kernels", 3, "kernels", "after", "value", 0.25);
}

static char *written(const char *dir, const char *name, const json_t *doc, kernel_spool *spool)
{
    char *path = test_path(dir, name);
    ws_error err;
    cr_assert_eq(report_json_write_spooled(path, doc, spool, &err), 0, "%s", err.msg);
    char *text = test_read_file(path, NULL);
    cr_assert_not_null(text);
    free(path);
    return text;
}

/* Adds entries 0..n-1 to each spool of spools[0..count); returns the
 * document holding them all. */
static json_t *spool_entries(kernel_spool *const *spools, int count, int n)
{
    ws_error err;
    json_t *whole = document(), *kernels = json_array();
    for (int i = 0; i < n; i++) {
        json_t *e = entry(i);
        for (int k = 0; k < count; k++)
            cr_assert_eq(kernel_spool_add(spools[k], e, &err), 0, "%s", err.msg);
        json_array_append_new(kernels, e);
    }
    json_object_set_new(whole, "kernels", kernels);
    return whole;
}

/* Attaching the spool's entries to doc gives the whole document back;
 * frees both documents. */
static void expect_attach_gives(json_t *doc, kernel_spool *spool, json_t *whole)
{
    ws_error err;
    cr_assert_eq(kernel_spool_attach(doc, spool, &err), 0, "%s", err.msg);
    cr_expect(json_equal(doc, whole));
    json_decref(doc);
    json_decref(whole);
}

Test(kernel_spool, spliced_report_equals_the_whole_document)
{
    char *dir = test_tmpdir();
    ws_error err;
    for (int n = 0; n <= 3; n += 3) {
        kernel_spool *spool = kernel_spool_new(SPOOL_BOTH, &err);
        cr_assert_not_null(spool, "%s", err.msg);
        json_t *doc = document(), *whole = spool_entries(&spool, 1, n);
        cr_assert_eq(kernel_spool_count(spool), (size_t)n);
        char *a = written(dir, "whole.json", whole, NULL), *b = written(dir, "spliced.json", doc, spool);
        cr_expect_str_eq(b, a, "%d kernels", n);
        free(a);
        free(b);
        expect_attach_gives(doc, spool, whole);
        kernel_spool_free(spool);
    }
    test_tmpdir_cleanup(dir);
}

static json_t *pc_of(void *ctx, size_t i)
{
    return json_incref(json_array_get(ctx, i));
}

/* An entry whose "pcs" are written one at a time (a kernel of many PCs)
 * is the same bytes in report.json, and the same entry read back, as the
 * entry added whole; one of the entries has no PCs. */
Test(kernel_spool, an_array_written_element_by_element_is_the_whole_entry)
{
    char *dir = test_tmpdir();
    ws_error err;
    kernel_spool *whole = kernel_spool_new(SPOOL_BOTH, &err),
                 *streamed = kernel_spool_new(SPOOL_BOTH, &err);
    cr_assert(whole && streamed);
    json_t *all = spool_entries(&whole, 1, 4);
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(all, "kernels"), i, e) {
        json_t *head = json_deep_copy(e), *pcs = json_object_get(e, "pcs");
        if (i == 2)
            json_array_clear(pcs);
        json_object_set_new(head, "pcs", json_array());
        cr_assert_eq(kernel_spool_add_streamed(streamed, head, "pcs", pc_of, pcs,
                                               json_array_size(pcs), &err),
                     0, "%s", err.msg);
        json_decref(head);
    }
    json_array_clear(json_object_get(json_array_get(json_object_get(all, "kernels"), 2), "pcs"));
    kernel_spool_free(whole);
    whole = kernel_spool_new(SPOOL_BOTH, &err);
    json_array_foreach(json_object_get(all, "kernels"), i, e)
        cr_assert_eq(kernel_spool_add(whole, e, &err), 0, "%s", err.msg);
    json_t *doc = document();
    char *a = written(dir, "whole.json", doc, whole), *b = written(dir, "streamed.json", doc, streamed);
    cr_expect_str_eq(b, a);
    cr_expect(strstr(b, "\"pcs\":[{\"u\":") != NULL, "%s", b);
    free(a);
    free(b);
    expect_attach_gives(doc, streamed, all);
    kernel_spool_free(whole);
    kernel_spool_free(streamed);
    test_tmpdir_cleanup(dir);
}

/* A streamed walk's count of each entry's elements, checked against the
 * entries of `all` as each entry comes. */
typedef struct element_walk {
    const json_t *all;
    int from_spool; /* its entries come with the array emptied */
    size_t elements, entries;
} element_walk;

static int count_element(void *ctx, size_t index, json_t *e, ws_error *err)
{
    (void)err;
    element_walk *w = ctx;
    const json_t *pcs = json_object_get(json_array_get(w->all, w->entries), "pcs");
    cr_expect_eq(index, w->elements);
    cr_expect(json_equal(e, json_array_get(pcs, index)), "entry %zu, element %zu", w->entries,
              index);
    w->elements++;
    return 0;
}

static int check_entry(void *ctx, size_t index, json_t *e, ws_error *err)
{
    (void)err;
    element_walk *w = ctx;
    const json_t *want = json_array_get(w->all, index);
    cr_expect_eq(index, w->entries);
    cr_expect_eq(w->elements, json_array_size(json_object_get(want, "pcs")), "entry %zu", index);
    if (w->from_spool)
        cr_expect_eq(json_array_size(json_object_get(e, "pcs")), 0, "the entry comes without them");
    cr_expect(json_equal(json_object_get(e, "metrics"), json_object_get(want, "metrics")));
    w->elements = 0;
    w->entries++;
    return 0;
}

/* A kernel read from a report's text gives its PCs before the rest of it:
 * PCs held one at a time, then the entry, make the same bytes as the entry
 * added whole (one entry has an empty array, one none); a streamed walk
 * gives each entry's PCs one at a time, then the entry. */
Test(kernel_spool, elements_held_before_their_entry_make_the_whole_entry)
{
    char *dir = test_tmpdir();
    ws_error err;
    kernel_spool *whole = kernel_spool_new(SPOOL_BOTH, &err),
                 *held = kernel_spool_new(SPOOL_BOTH, &err);
    cr_assert(whole && held, "%s", err.msg);
    json_t *all = spool_entries(&whole, 1, 4), *kernels = json_object_get(all, "kernels");
    kernel_spool_free(whole);
    json_array_clear(json_object_get(json_array_get(kernels, 2), "pcs"));
    json_object_del(json_array_get(kernels, 3), "pcs");
    whole = kernel_spool_new(SPOOL_BOTH, &err);
    size_t i;
    json_t *e;
    json_array_foreach(kernels, i, e) {
        cr_assert_eq(kernel_spool_add(whole, e, &err), 0, "%s", err.msg);
        json_t *head = json_deep_copy(e), *pcs = json_object_get(e, "pcs");
        if (pcs)
            json_object_set_new(head, "pcs", json_array());
        for (size_t j = 0; j < json_array_size(pcs); j++)
            cr_assert_eq(kernel_spool_hold_element(held, json_array_get(pcs, j), &err), 0, "%s",
                         err.msg);
        cr_assert_eq(kernel_spool_add_held(held, head, "pcs", &err), 0, "%s", err.msg);
        json_decref(head);
    }
    json_t *doc = document();
    char *a = written(dir, "whole.json", doc, whole), *b = written(dir, "held.json", doc, held);
    cr_expect_str_eq(b, a);
    cr_expect(strstr(b, "\"pcs\":[{\"u\":") != NULL, "%s", b);
    element_walk walk = {.all = kernels, .from_spool = 1};
    cr_assert_eq(kernel_spool_each_streamed(held, "pcs", count_element, check_entry, &walk, &err),
                 0, "%s", err.msg);
    cr_expect_eq(walk.entries, 4);
    walk = (element_walk){.all = kernels}; /* the same walk over a document's own kernels */
    cr_assert_eq(report_kernels_each_streamed(all, NULL, "pcs", count_element, check_entry, &walk,
                                              &err),
                 0, "%s", err.msg);
    cr_expect_eq(walk.entries, 4);
    free(a);
    free(b);
    expect_attach_gives(doc, held, all);
    kernel_spool_free(whole);
    kernel_spool_free(held);
    test_tmpdir_cleanup(dir);
}

static int mark(void *ctx, size_t index, json_t *e, ws_error *err)
{
    (void)ctx, (void)err;
    return json_object_set_new(e, "seen", json_integer((json_int_t)index));
}

static int check_marked(void *ctx, size_t index, json_t *e, ws_error *err)
{
    (void)err;
    (*(size_t *)ctx)++;
    cr_expect_eq(json_integer_value(json_object_get(e, "seen")), (json_int_t)index);
    cr_expect_eq(json_integer_value(json_object_get(e, "index")), (json_int_t)index);
    return 0;
}

Test(kernel_spool, rewrite_goes_through_every_entry_in_order)
{
    ws_error err;
    kernel_spool *spool = kernel_spool_new(SPOOL_BOTH, &err);
    for (int i = 0; i < 50; i++) {
        json_t *e = entry(i);
        cr_assert_eq(kernel_spool_add(spool, e, &err), 0);
        json_decref(e);
    }
    cr_assert_eq(kernel_spool_rewrite(&spool, mark, NULL, &err), 0, "%s", err.msg);
    size_t seen = 0;
    cr_assert_eq(kernel_spool_each(spool, check_marked, &seen, &err), 0, "%s", err.msg);
    cr_expect_eq(seen, 50);
    /* report.json carries the rewritten entries too, not the first ones */
    char *dir = test_tmpdir();
    json_t *doc = document();
    char *text = written(dir, "rewritten.json", doc, spool);
    json_error_t jerr;
    json_t *back = json_loads(text, 0, &jerr);
    cr_assert_not_null(back, "%s", jerr.text);
    seen = 0;
    cr_assert_eq(report_kernels_each(back, NULL, check_marked, &seen, &err), 0, "%s", err.msg);
    cr_expect_eq(seen, 50);
    json_decref(back);
    json_decref(doc);
    free(text);
    test_tmpdir_cleanup(dir);
    kernel_spool_free(spool);
}

Test(kernel_spool, a_temporary_directory_that_fails_is_named)
{
    const char *old = getenv("TMPDIR");
    char *saved = old ? strdup(old) : NULL;
    setenv("TMPDIR", "/nonexistent/warpscope-test", 1);
    ws_error err;
    kernel_spool *spool = kernel_spool_new(SPOOL_BOTH, &err);
    if (saved)
        setenv("TMPDIR", saved, 1);
    else
        unsetenv("TMPDIR");
    free(saved);
    cr_assert_null(spool);
    cr_expect(strstr(err.msg, "/nonexistent/warpscope-test: cannot hold the kernels' results") ==
                  err.msg, "%s", err.msg);
}

/* The pass hands every kernel over once, in order, and keeps none after:
 * its JSON entries are those of the kernel it just ended. */
typedef struct seen_kernels {
    uint32_t count;
    int in_order;
} seen_kernels;

static int count_kernel(void *ctx, const analysis *a, uint32_t k, ws_error *err)
{
    (void)err;
    seen_kernels *s = ctx;
    s->in_order &= k == s->count;
    s->count++;
    s->in_order &= metrics_kernel_at(a->metrics, k) != NULL && analysis_kernel_at(a, k) != NULL &&
                   (k < KERNEL_SLOTS ||
                    (metrics_kernel_at(a->metrics, k - KERNEL_SLOTS) == NULL &&
                     analysis_kernel_at(a, k - KERNEL_SLOTS) == NULL));
    return 0;
}

Test(kernel_spool, the_pass_reports_each_kernel_once_in_order)
{
    char *dir = test_tmpdir(), *path = test_path(dir, "t.wst");
    wst_memtrace *m = test_random_trace(11, 40, 30);
    cr_assert_eq(test_write_memtrace(m, path, NULL), 0);
    ws_error err;
    wst_reader *r = wst_reader_open(path, &err);
    cr_assert_not_null(r, "%s", err.msg);
    gpu_config c;
    cr_assert_eq(config_load(&c, "fermi", &err), 0);
    for (uint32_t threads = 1; threads <= 4; threads += 3) {
        analysis_options o;
        analysis_options_default(&o);
        o.threads = threads;
        seen_kernels seen = {.in_order = 1};
        o.kernel_done = count_kernel;
        o.kernel_done_ctx = &seen;
        analysis *a = analysis_run(r, &c, &o, NULL, &err);
        cr_assert_not_null(a, "%s", err.msg);
        cr_expect_eq(seen.count, 40, "%u threads", threads);
        cr_expect(seen.in_order, "%u threads", threads);
        cr_expect_eq(a->kernel_count, 40);
        analysis_free(a);
    }
    wst_reader_close(r);
    wst_memtrace_free(m);
    free(path);
    test_tmpdir_cleanup(dir);
}

/* A spool keeps only what it was asked to: `analyze -o` prints, `--html`
 * reads back; asking the other of it is an error, not a crash. */
Test(kernel_spool, keeps_only_what_it_was_asked_to)
{
    char *dir = test_tmpdir();
    ws_error err;
    kernel_spool *printed = kernel_spool_new(SPOOL_PRINTED, &err);
    kernel_spool *entries = kernel_spool_new(SPOOL_ENTRIES, &err);
    cr_assert(printed && entries, "%s", err.msg);
    json_t *doc = document(), *whole = spool_entries((kernel_spool *[]){printed, entries}, 2, 3);
    char *a = written(dir, "whole.json", whole, NULL), *b = written(dir, "printed.json", doc, printed);
    cr_expect_str_eq(b, a);
    size_t seen = 0;
    cr_expect_neq(kernel_spool_each(printed, check_marked, &seen, &err), 0);
    cr_expect(strstr(err.msg, "no entries to read back") != NULL, "%s", err.msg);
    cr_expect_eq(seen, 0);
    char *path = test_path(dir, "entries.json");
    cr_expect_neq(report_json_write_spooled(path, doc, entries, &err), 0);
    cr_expect(strstr(err.msg, "no printed entries") != NULL, "%s", err.msg);
    cr_expect_eq(access(path, F_OK), -1, "no half-written report");
    expect_attach_gives(doc, entries, whole);
    free(path);
    free(a);
    free(b);
    kernel_spool_free(printed);
    kernel_spool_free(entries);
    test_tmpdir_cleanup(dir);
}
