/* util/ranks.h: this process's place among MPI ranks, and the few
 * collective steps the split commands need (docs/analysis.md "Ranks").
 *
 * util/ranks.c is the only file that calls MPI, and only when built with
 * WS_MPI (the Makefile defines it when mpicc is present).  Without MPI, or
 * when not started by mpirun, the process is rank 0 of 1 and every call
 * below is trivial.  A build without MPI started by mpirun -n R takes its
 * rank from the launcher's environment so that rank 0 alone does the work
 * (ranks_single_reason says why). */
#ifndef WS_RANKS_H
#define WS_RANKS_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

/* Joins the MPI job when the launcher started this process as one of its
 * ranks; call first in main.  ranks_end leaves it; call last: a rank other
 * than 0 exits there, with 0 (rank 0's exit status is the job's). */
void ranks_begin(int *argc, char ***argv);
void ranks_end(void);

uint32_t ranks_rank(void);
uint32_t ranks_size(void);
/* NULL, or why the R processes mpirun started cannot talk (a build without
 * MPI): then rank 0 works alone and the others do nothing. */
const char *ranks_single_reason(void);

/* The command runs on rank 0 alone from here (it cannot split exactly):
 * rank 0 says why in one line and goes on as the only rank; the others
 * get 1 and return at once.  0 on rank 0 and on one process. */
int ranks_run_alone(const char *command, const char *reason);

/* Error lines.  Before a rank starts its own share only rank 0 reports
 * (every rank parsed the same options and would say the same).  While each
 * works on its own share (ranks_own_share), a rank keeps its first error
 * line, naming itself ("rank 2: bad.wst: ..."); ranks_share_end then
 * prints the first failing rank's line once, on rank 0: a job that fails
 * says so in one line. */
void ranks_own_share(void);
/* Collective: ends the share; returns the largest status of any rank. */
int ranks_share_end(int status);
/* Whether this rank prints error lines now, and the "rank N: " it prefixes
 * them with ("" on one process or outside a share). */
int ranks_reports(void);
const char *ranks_prefix(void);
/* 1 when the line (without its newline) is kept for ranks_share_end
 * rather than printed now. */
int ranks_keep_error(const char *line);

/* One rank's part of a gather: its exit status and the bytes it sent. */
typedef struct ranks_part {
    int status;
    void *data;
    size_t size;
} ranks_part;

/* Collective: every rank sends its status and bytes; on rank 0 *parts holds
 * ranks_size() parts (free with ranks_parts_free), elsewhere NULL.  0, or -1
 * with err set (the gather itself failed). */
int ranks_gather(int status, const void *data, size_t size, ranks_part **parts, ws_error *err);
void ranks_parts_free(ranks_part *parts);

/* Point to point, for a pass whose parts stream to rank 0 in order
 * (analyze's kernels, docs/analysis.md "Ranks").  ranks_send returns once
 * rank `to` has taken the bytes (a synchronous send: a fast sender never
 * piles its messages up on the receiver, so rank 0 holds one at a time).
 * ranks_recv takes the next message from rank `from`, in the order sent,
 * into *data (malloc'd; free it).  0, or -1 with err set. */
int ranks_send(uint32_t to, const void *data, size_t size, ws_error *err);
int ranks_recv(uint32_t from, void **data, size_t *size, ws_error *err);

/* Collective: the largest status of any rank, known to every rank. */
int ranks_max_status(int status);

#endif
