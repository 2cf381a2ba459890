/* tests/fuzz/fuzz_inputs.c: libFuzzer harness for what warpscope reads from
 * users: Accel-Sim traces, .wst traces, GPU config JSON, saved reports (read,
 * and drawn as HTML), and the config overrides of the command line.  FUZZ_TARGET picks one reader a
 * run, and the input is its file: each target drives its reader alone (no
 * analysis), from its own seed corpus in tests/fuzz/corpus/TARGET, fast
 * enough to reach depth (bench/RESULTS.md, Fuzzing).  Every input must end
 * in success or a clean error: a crash, a leak, a sanitizer report or a
 * hang is a bug.  Run with `make fuzz [FUZZ_TARGET=wst]` (scripts/fuzz.sh). */
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
#include "reports/kernel_digest.h"
#include "reports/report_doc.h"
#include "reports/report_keys.h"

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
    static gpu_config fermi; /* parsed once: the preset is not under test here */
    static int loaded;
    gpu_config config, again;
    ws_error err;
    if (!loaded && config_load(&fermi, "fermi", &err) != 0)
        abort();
    loaded = 1;
    config = fermi;
    char *text = malloc(size + 1);
    if (!text)
        return;
    memcpy(text, data, size);
    text[size] = '\0';
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        const char *option = options[(unsigned char)line[0] % 6];
        if (config_override(&config, option, line + 1, &err) != 0) {
            config = fermi;
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

/* ---- saved reports ---------------------------------------------------------- */

/* The file is a report.json (seeded with small real ones, versions 2 and
 * 3): the document reader, then what reads its figures: `report`'s key
 * figures and the digest of its kernels and PCs the HTML page is drawn
 * from, on whatever passed the reader's check; with `draw`, the whole page
 * too (written in place to the device, util/outfile.c: no temporary and
 * rename an execution).  Drawing costs milliseconds: the html target is
 * the slow one (bench/RESULTS.md, Fuzzing). */
static void use_report(const char *path, int draw)
{
    ws_error err;
    json_t *doc = report_doc_load(path, &err);
    if (!doc)
        return;
    report_key keys[REPORT_KEYS_MAX];
    report_keys(doc, keys);
    kernel_digest digest;
    if (kernel_digest_build(&digest, doc, NULL, &err) == 0)
        kernel_digest_free(&digest);
    if (draw)
        html_report_write(doc, NULL, "/dev/null", &err);
    json_decref(doc);
}

static void read_report(const char *path) { use_report(path, 0); }
static void draw_report(const char *path) { use_report(path, 1); }

/* ---- one reader a run: FUZZ_TARGET -------------------------------------------- */

typedef struct fuzz_target {
    const char *name, *file; /* the readers take paths; the importer picks its parser by name */
    void (*read_file)(const char *path);
    void (*read_bytes)(const uint8_t *data, size_t size);
} fuzz_target;

static const fuzz_target targets[] = {
    {"accelsim", "kernel-1.traceg", import_accelsim, NULL},
    {"wst", "input.wst", read_wst, NULL},
    {"config", "gpu.json", load_config, NULL},
    {"report", "report.json", read_report, NULL},
    {"html", "report.json", draw_report, NULL},
    {"overrides", NULL, NULL, override_config},
};

static const fuzz_target *chosen_target(void)
{
    static const fuzz_target *chosen;
    if (chosen)
        return chosen;
    const char *name = getenv("FUZZ_TARGET");
    for (size_t i = 0; name && i < sizeof targets / sizeof targets[0]; i++)
        if (strcmp(targets[i].name, name) == 0)
            return chosen = &targets[i];
    fprintf(stderr, "fuzz_inputs: set FUZZ_TARGET to accelsim, wst, config, report, html or "
                    "overrides\n");
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz_target *t = chosen_target();
    if (t->read_bytes) {
        t->read_bytes(data, size);
        return 0;
    }
    char path[256];
    const char *dir = getenv("FUZZ_SCRATCH") ? getenv("FUZZ_SCRATCH") : "/tmp";
    snprintf(path, sizeof path, "%s/%s", dir, t->file);
    FILE *f = fopen(path, "wb");
    if (!f)
        abort(); /* the harness itself is broken: stop loudly */
    fwrite(data, 1, size, f);
    fclose(f);
    t->read_file(path);
    unlink(path);
    return 0;
}
