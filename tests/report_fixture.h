/* tests/report_fixture.h: a real analysis report built in-process, for the
 * report renderers' tests. */
#ifndef WS_TEST_REPORT_FIXTURE_H
#define WS_TEST_REPORT_FIXTURE_H

#include <jansson.h>

/* Records workload `name` (small, seed 1) into dir, analyzes it on the
 * `gpu` preset with the default schedule and returns the report document
 * that `analyze -o` would write.  Asserts on failure. */
json_t *test_report_for(const char *dir, const char *name, const char *gpu);

#endif
