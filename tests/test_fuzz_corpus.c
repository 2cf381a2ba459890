/* tests/test_fuzz_corpus.c: the fuzzing seed corpus kept in the repository
 * (tests/fuzz/corpus/TARGET, issue 42 item 6) is real input: every target
 * has seeds, and each seed is read cleanly by the command that reads such
 * files, so `make fuzz` starts from inputs that reach deep into the
 * readers rather than from ones refused at the first byte. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/helpers.h"

#ifndef WARPSCOPE_FIXTURES
#define WARPSCOPE_FIXTURES "tests/fixtures"
#endif

/* tests/fuzz/corpus/TARGET, beside tests/fixtures. */
static char *corpus_dir(const char *target)
{
    char *dir = NULL;
    cr_assert(asprintf(&dir, "%s/../fuzz/corpus/%s", WARPSCOPE_FIXTURES, target) > 0);
    return dir;
}

/* Calls check(seed path, ctx) for every seed of target; returns how many. */
static size_t each_seed(const char *target, void (*check)(const char *, void *), void *ctx)
{
    char *dir = corpus_dir(target);
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "no seed corpus %s", dir);
    size_t seeds = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char *path = test_path(dir, e->d_name);
        check(path, ctx);
        free(path);
        seeds++;
    }
    closedir(d);
    free(dir);
    return seeds;
}

static void expect_ok(cli_result *r, const char *seed)
{
    cr_expect_eq(r->status, 0, "%s: %s", seed, r->err);
    cli_result_free(r);
}

static void import_seed(const char *seed, void *dir)
{
    char *out = test_path(dir, "seed.wst");
    cli_result r = cli_run("import", "accelsim", seed, "-o", out, NULL);
    expect_ok(&r, seed);
    free(out);
}

static void info_seed(const char *seed, void *unused)
{
    cli_result r = cli_run("info", seed, NULL);
    expect_ok(&r, seed);
}

static void replay_with_seed(const char *seed, void *trace)
{
    cli_result r = cli_run("replay", trace, "--gpu", seed, NULL);
    expect_ok(&r, seed);
}

static void report_seed(const char *seed, void *dir)
{
    char *out = test_path(dir, "seed.html");
    cli_result r = cli_run("report", seed, "--html", out, NULL);
    expect_ok(&r, seed);
    free(out);
}

Test(fuzz_corpus, every_target_has_seeds_its_reader_accepts)
{
    char *dir = test_tmpdir();
    char *trace = test_import_accelsim(dir, "vectoradd");
    cr_expect_gt(each_seed("accelsim", import_seed, dir), 0);
    cr_expect_gt(each_seed("wst", info_seed, NULL), 0);
    cr_expect_gt(each_seed("config", replay_with_seed, trace), 0);
    cr_expect_gt(each_seed("report", report_seed, dir), 0);
    char *overrides = corpus_dir("overrides");
    DIR *d = opendir(overrides);
    cr_expect_not_null(d, "no seed corpus %s", overrides);
    if (d)
        closedir(d);
    free(overrides);
    free(trace);
    test_tmpdir_cleanup(dir);
}
