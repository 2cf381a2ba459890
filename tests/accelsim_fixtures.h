/* tests/accelsim_fixtures.h: small Accel-Sim kernel files for the tests. */
#ifndef WS_TEST_ACCELSIM_FIXTURES_H
#define WS_TEST_ACCELSIM_FIXTURES_H

#include "formats/memtrace.h"

/* A tracer v4 header: grid (2,1,1), block (64,1,1), local window at
 * 0x7f0000000000, shared window at 0x7f0001000000.  It is 10 lines long. */
#define FIXTURE_HEADER(version, lineinfo)                                   \
    "-kernel name = _Z4testPf\n"                                            \
    "-kernel id = 1\n"                                                      \
    "-grid dim = (2,1,1)\n"                                                 \
    "-block dim = (64,1,1)\n"                                               \
    "-shmem = 256\n"                                                        \
    "-nregs = 12\n"                                                         \
    "-shmem base_addr = 0x00007f0001000000\n"                               \
    "-local mem base_addr = 0x00007f0000000000\n"                           \
    "-accelsim tracer version = " version "\n"                              \
    "-enable lineinfo = " lineinfo "\n"

#define FIXTURE_FORMAT "#traces format = [line_num] PC mask dest_num ...\n"

/* Writes text to dir/name and returns the path (malloc'd). */
char *fixture_write(const char *dir, const char *name, const char *text);

/* Imports path into a fresh memtrace; NULL on failure with err set. */
wst_memtrace *fixture_import(const char *path, ws_error *err);

/* Imports text written as dir/name, expecting failure; returns the error
 * message (static storage). */
const char *fixture_import_error(const char *dir, const char *name, const char *text);

/* Limits m to what Accel-Sim traces carry: no SM ids or timestamps,
 * atomics in global space only, addresses below export's windows. */
void fixture_carriable(wst_memtrace *m);

/* m written as a .wst in dir, exported to Accel-Sim there, and imported
 * back. */
wst_memtrace *fixture_export_import(const wst_memtrace *m, const char *dir);

#endif
