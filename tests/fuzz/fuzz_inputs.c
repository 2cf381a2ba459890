/* tests/fuzz/fuzz_inputs.c: libFuzzer harness for what warpscope reads from
 * users: Accel-Sim traces, .wst traces, GPU config JSON, saved reports, and
 * the config overrides of the command line.  The first input byte picks the
 * reader, the rest is the file;
 * for reports, the rest edits a real report (random bytes are almost never
 * JSON, and the renderers' risk is odd values in a well-formed document).
 * Every input must end in success or a clean error: a crash, a leak, a
 * sanitizer report or a hang is a bug.  Run with `make fuzz`
 * (scripts/fuzz.sh). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/config.h"
#include "collectors/accelsim/accelsim.h"
#include "formats/packed_record.h"
#include "formats/wst.h"
#include "reports/html.h"
#include "reports/report_doc.h"

/* The importer's records go nowhere: only parsing is under test. */
static int ignore_kernel(void *ctx, const wst_kernel *k, ws_error *err)
{
    (void)ctx, (void)k, (void)err;
    return 0;
}

static int64_t number_pc(void *ctx, uint32_t kernel, const wst_pc *pc, ws_error *err)
{
    (void)kernel, (void)pc, (void)err;
    return (*(int64_t *)ctx)++;
}

static int ignore_record(void *ctx, uint32_t kernel, const wst_record *r, ws_error *err)
{
    (void)ctx, (void)kernel, (void)r, (void)err;
    return 0;
}

static void import_accelsim(const char *path)
{
    int64_t pcs = 0;
    wst_sink sink = {.ctx = &pcs, .add_kernel = ignore_kernel, .add_pc = number_pc,
                     .add_record = ignore_record};
    ws_error err;
    accelsim_import(path, &sink, NULL, &err);
}

static void read_wst(const char *path)
{
    ws_error err;
    wst_reader *r = wst_reader_open(path, &err);
    if (!r)
        return;
    wst_cursor *c = wst_cursor_all(r, &err);
    wst_record record;
    uint32_t kernel;
    while (c && wst_cursor_next(c, &record, &kernel, &err) > 0)
        ;
    wst_cursor_free(c);
    /* And straight into packed records, as the scheduler reads. */
    packed_cta packed = {0};
    c = wst_cursor_all(r, &err);
    while (c && wst_cursor_next_packed(c, &packed, &kernel, &err) > 0)
        if (packed.count > 4096)
            packed_cta_clear(&packed);
    wst_cursor_free(c);
    packed_cta_free(&packed);
    wst_reader_close(r);
}

static void load_config(const char *path)
{
    gpu_config config;
    ws_error err;
    config_load(&config, path, &err);
}

/* ---- command-line config overrides ---------------------------------------- */

/* The rest is lines, each an option (picked by its first byte) and its
 * value, applied in order as a command line does.  An accepted override
 * must leave a valid config that survives its own file form unchanged
 * (what --set rests on); after a refused one, a command stops, so the
 * next line starts again from the preset. */
static void override_config(const uint8_t *data, size_t size)
{
    static const char *const options[] = {"--sms", "--l1", "--l2", "--l1-policy", "--l2-policy",
                                          "--set"};
    gpu_config config, again;
    ws_error err;
    if (config_load(&config, "fermi", &err) != 0)
        abort();
    char *text = malloc(size + 1);
    if (!text)
        return;
    memcpy(text, data, size);
    text[size] = '\0';
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        const char *option = options[(unsigned char)line[0] % 6];
        if (config_override(&config, option, line + 1, &err) != 0) {
            config_load(&config, "fermi", &err);
            continue;
        }
        json_t *doc = config_to_json(&config), *back = NULL;
        if (config_validate(&config, &err) != 0 || config_from_json(&again, doc, "fuzz", &err) != 0 ||
            !json_equal(doc, back = config_to_json(&again)))
            abort(); /* an accepted override broke the config */
        json_decref(back);
        json_decref(doc);
    }
    free(text);
}

/* ---- saved reports: a real one (FUZZ_REPORT), edited -------------------- */

/* Where a value sits: a key of an object or an index of an array. */
typedef struct value_ref {
    json_t *parent;
    const char *key;
    size_t index;
} value_ref;

typedef struct value_refs {
    value_ref *refs;
    size_t count, capacity;
} value_refs;

/* One more reference (the recursion below adds a child's descendants
 * between its siblings, so room is made at every write). */
static void push_ref(value_refs *out, value_ref ref)
{
    if (out->count == out->capacity) {
        out->capacity = out->capacity ? 2 * out->capacity : 64;
        out->refs = realloc(out->refs, out->capacity * sizeof *out->refs);
        if (!out->refs)
            abort();
    }
    out->refs[out->count++] = ref;
}

static void collect(json_t *v, value_refs *out)
{
    const char *key;
    json_t *child;
    size_t i;
    if (json_is_object(v)) {
        json_object_foreach(v, key, child) {
            push_ref(out, (value_ref){.parent = v, .key = key});
            collect(child, out);
        }
    } else if (json_is_array(v)) {
        json_array_foreach(v, i, child) {
            push_ref(out, (value_ref){.parent = v, .index = i});
            collect(child, out);
        }
    }
}

static json_t *odd_value(uint8_t kind)
{
    switch (kind % 9) {
    case 0: return json_null();
    case 1: return json_string("x");
    case 2: return json_integer(-1);
    case 3: return json_real(1e308);
    case 4: return json_array();
    case 5: return json_object();
    case 6: return json_true();
    case 7: return json_integer(INT64_MAX);
    default: return json_pack("[i, [i], s]", 3, 2, "y");
    }
}

/* Each 3 bytes replace one value (2 bytes pick it, 1 its replacement);
 * then the page is drawn. */
static void draw_edited_report(const uint8_t *edits, size_t size, const char *scratch)
{
    static json_t *base;
    if (!base) {
        ws_error err;
        const char *path = getenv("FUZZ_REPORT");
        if (!path || !(base = report_doc_load(path, &err)))
            abort(); /* the harness needs a real report to edit */
    }
    json_t *doc = json_deep_copy(base);
    value_refs refs = {0};
    for (size_t at = 0; at + 3 <= size && at < 3 * 8; at += 3) {
        refs.count = 0;
        collect(doc, &refs);
        if (!refs.count)
            break;
        value_ref *r = &refs.refs[(edits[at] | edits[at + 1] << 8) % refs.count];
        json_t *v = odd_value(edits[at + 2]);
        if (r->key)
            json_object_set_new(r->parent, r->key, v);
        else
            json_array_set_new(r->parent, r->index, v);
    }
    free(refs.refs);
    ws_error err;
    html_report_write(doc, NULL, scratch, &err);
    json_decref(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"kernel-1.traceg", "input.wst", "gpu.json", "out.html"};
    static void (*const readers[])(const char *) = {import_accelsim, read_wst, load_config};
    if (size < 1)
        return 0;
    unsigned which = data[0] % 5;
    if (which == 4) {
        override_config(data + 1, size - 1);
        return 0;
    }
    /* The readers take paths (the importer picks its parser by name). */
    char path[256];
    const char *dir = getenv("FUZZ_SCRATCH") ? getenv("FUZZ_SCRATCH") : "/tmp";
    snprintf(path, sizeof path, "%s/%s", dir, names[which]);
    if (which == 3) {
        draw_edited_report(data + 1, size - 1, path);
        unlink(path);
        return 0;
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        abort(); /* the harness itself is broken: stop loudly */
    fwrite(data + 1, 1, size - 1, f);
    fclose(f);
    readers[which](path);
    unlink(path);
    return 0;
}
