/* tests/helpers.h: shared by the Criterion suites. */
#ifndef WS_TEST_HELPERS_H
#define WS_TEST_HELPERS_H

#include <jansson.h>
#include <stddef.h>

/* Output of one run of the warpscope binary (the sanitized build). */
typedef struct cli_result {
    int status;   /* exit code; 128+signal if it died of a signal */
    char *out;    /* stdout, NUL-terminated */
    char *err;    /* stderr, NUL-terminated */
} cli_result;

/* Runs `warpscope ARGS...` (NULL-terminated) with a 60 s limit. */
cli_result cli_run(const char *arg, ...);
/* The same, of the optimized build (ASan's shadow memory takes terabytes
 * of address space), with its address space capped at address_space bytes
 * (RLIMIT_AS): memory bounds (issue 42) are tested by a cap that the
 * unbounded code exceeds on an input the test writes. */
cli_result cli_run_capped(size_t address_space, const char *arg, ...);
void cli_result_free(cli_result *r);

/* A fresh empty directory for one test; removed by test_tmpdir_cleanup(). */
char *test_tmpdir(void);
void test_tmpdir_cleanup(char *dir);
/* dir + "/" + name, malloc'd. */
char *test_path(const char *dir, const char *name);

/* Whole file into memory (NUL-terminated); NULL if unreadable. */
char *test_read_file(const char *path, size_t *len);
int test_write_file(const char *path, const void *data, size_t len);
/* The JSON document at path (asserts it parses). */
json_t *test_load_json(const char *path);
/* The text of dir/name, which the run must have written (asserts; free it). */
char *test_read_output(const char *dir, const char *name);

/* The test fixtures directory (tests/fixtures: real Accel-Sim traces under accelsim/). */
const char *test_fixture_dir(void);

/* Records an embedded workload with the CLI into dir/WORKLOAD.wst (asserts
 * success); returns the malloc'd path. */
char *test_record_trace(const char *dir, const char *workload);

/* Imports tests/fixtures/accelsim/APP with the CLI into dir/APP.wst
 * (asserts success); returns the malloc'd path. */
char *test_import_accelsim(const char *dir, const char *app);

/* Bucket i of a report's histogram, sparse ([[bucket, count], ...], report
 * version 3) or dense; 0 where absent. */
long long test_hist_count(const json_t *hist, size_t bucket);

/* True when text is exactly one line ending in a newline (CLI errors). */
int test_is_one_line(const char *text);

#endif
