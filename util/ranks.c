/* util/ranks.c: see ranks.h.  The only file that calls MPI (DESIGN "Ranks"). */
#include "util/ranks.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef WS_MPI
#include <mpi.h>
#ifdef WS_MPI_TWIN
/* Built so for the static release binary (Makefile), which cannot load
 * Open MPI: a rank becomes the dynamically linked twin (util/ranks_twin.h). */
#include "util/ranks_twin.h"
#else
#include <dlfcn.h>
#endif

/* Open MPI is opened when a launcher started this process as a rank, not
 * linked: loading and relocating its libraries cost every process about
 * 0.6 ms of CPU, a tenth of a small timed compare (bench/RESULTS.md,
 * "Timed replay against Accel-Sim: speed").  Its calls go through these
 * pointers, typed as mpi.h declares them; its predefined handles are the
 * addresses of its globals (mpi.h's OMPI_PREDEFINED_GLOBAL), found by name.
 * WS_LIBMPI is the library's path (Makefile, from mpicc). */
static struct {
    __typeof__(MPI_Init) *init;
    __typeof__(MPI_Finalize) *finalize;
    __typeof__(MPI_Comm_rank) *comm_rank;
    __typeof__(MPI_Comm_size) *comm_size;
    __typeof__(MPI_Gather) *gather;
    __typeof__(MPI_Gatherv) *gatherv;
    __typeof__(MPI_Ssend) *ssend;
    __typeof__(MPI_Probe) *probe;
    __typeof__(MPI_Get_count) *get_count;
    __typeof__(MPI_Recv) *recv;
    __typeof__(MPI_Allreduce) *allreduce;
    MPI_Comm world;
    MPI_Datatype byte, int_type, long_long;
    MPI_Op max;
} mpi;

#ifndef WS_MPI_TWIN
/* Opens Open MPI and finds what is used of it: NULL, or why not. */
static const char *mpi_load(void)
{
    /* Global: Open MPI's own plug-ins resolve its symbols. */
    void *lib = dlopen(WS_LIBMPI, RTLD_NOW | RTLD_GLOBAL);
    if (!lib)
        return dlerror();
    const struct {
        void **to;
        const char *name;
    } syms[] = {
        {(void **)&mpi.init, "MPI_Init"},
        {(void **)&mpi.finalize, "MPI_Finalize"},
        {(void **)&mpi.comm_rank, "MPI_Comm_rank"},
        {(void **)&mpi.comm_size, "MPI_Comm_size"},
        {(void **)&mpi.gather, "MPI_Gather"},
        {(void **)&mpi.gatherv, "MPI_Gatherv"},
        {(void **)&mpi.ssend, "MPI_Ssend"},
        {(void **)&mpi.probe, "MPI_Probe"},
        {(void **)&mpi.get_count, "MPI_Get_count"},
        {(void **)&mpi.recv, "MPI_Recv"},
        {(void **)&mpi.allreduce, "MPI_Allreduce"},
        {(void **)&mpi.world, "ompi_mpi_comm_world"},
        {(void **)&mpi.byte, "ompi_mpi_byte"},
        {(void **)&mpi.int_type, "ompi_mpi_int"},
        {(void **)&mpi.long_long, "ompi_mpi_long_long_int"},
        {(void **)&mpi.max, "ompi_mpi_op_max"},
    };
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++)
        if (!(*syms[i].to = dlsym(lib, syms[i].name)))
            return dlerror();
    return NULL;
}
#endif /* WS_MPI_TWIN */
#endif

/* The process's place in the job: process-wide by nature, set once by
 * ranks_begin (the only state here). */
static struct {
    uint32_t rank, size;
    int joined;      /* MPI_Init was called */
    int own_share;   /* ranks_own_share(1) */
    const char *single;
    uint32_t launched; /* the ranks mpirun started, when `single` */
    char prefix[32];
    char first_error[4600]; /* the share's first error line, kept */
} me = {0, 1, 0, 0, NULL, 1, "", ""};

/* The rank and size the launcher put in the environment (Open MPI, PMIx,
 * Slurm's PMI), or 0 when this process was not started as a rank. */
static int launcher_place(uint32_t *rank, uint32_t *size)
{
    static const char *const pairs[][2] = {
        {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
        {"PMI_RANK", "PMI_SIZE"},
        {"PMIX_RANK", "PMIX_SIZE"}, /* PMIX_SIZE is not always set: then size 0 below */
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const char *r = getenv(pairs[i][0]), *s = getenv(pairs[i][1]);
        if (r) {
            *rank = (uint32_t)strtoul(r, NULL, 10);
            *size = s ? (uint32_t)strtoul(s, NULL, 10) : 0;
            return 1;
        }
    }
    return 0;
}

void ranks_begin(int *argc, char ***argv)
{
    uint32_t rank = 0, size = 1;
    if (!launcher_place(&rank, &size))
        return; /* a plain process: rank 0 of 1, MPI never started */
    const char *cannot = "this warpscope was built without MPI";
#ifdef WS_MPI
    static char why[160];
#ifdef WS_MPI_TWIN
    const char *missing = ranks_become_twin(*argv);
#else
    const char *missing = mpi_load();
#endif
    if (!missing) {
        int r = 0, s = 1;
        if (mpi.init(argc, argv) != MPI_SUCCESS)
            return;
        me.joined = 1;
        mpi.comm_rank(mpi.world, &r);
        mpi.comm_size(mpi.world, &s);
        me.rank = (uint32_t)r;
        me.size = (uint32_t)s;
        return;
    }
    snprintf(why, sizeof why, "cannot load Open MPI: %s", missing);
    cannot = why;
#endif
    (void)argc, (void)argv;
    /* mpirun started R copies that cannot talk: rank 0 works alone, the
     * others leave at once (ranks_size() stays 1 for them all). */
    me.rank = rank;
    me.launched = size;
    if (size > 1 || rank > 0)
        me.single = cannot;
}

void ranks_end(void)
{
#ifdef WS_MPI
    if (!me.joined)
        return;
    mpi.finalize();
    me.joined = 0;
    /* Rank 0 carries the job's status (the split commands give it every
     * rank's); the others leave at once and quietly, so that mpirun, ending
     * the job when rank 0 exits non-zero, finds nothing left to stop. */
    if (me.rank != 0) {
        fflush(NULL);
        _exit(0);
    }
#endif
}

int ranks_run_alone(const char *command, const char *reason)
{
    if (me.size == 1 && !me.single)
        return 0;
    if (me.rank != 0)
        return 1;
    fprintf(stderr, "warpscope: %s: not split over %u ranks: %s; runs on rank 0\n", command,
            me.single ? me.launched : me.size, me.single ? me.single : reason);
    me.size = 1;
    me.single = NULL; /* said once */
    return 0;
}

uint32_t ranks_rank(void) { return me.rank; }
uint32_t ranks_size(void) { return me.size; }
const char *ranks_single_reason(void) { return me.single; }

void ranks_own_share(void)
{
    me.own_share = 1;
    me.first_error[0] = '\0';
    if (me.size > 1)
        snprintf(me.prefix, sizeof me.prefix, "rank %u: ", me.rank);
}

int ranks_keep_error(const char *line)
{
    if (!me.own_share || me.size == 1)
        return 0;
    if (!me.first_error[0])
        snprintf(me.first_error, sizeof me.first_error, "%s", line);
    return 1;
}

int ranks_share_end(int status)
{
    me.own_share = 0;
    me.prefix[0] = '\0';
    if (me.size == 1)
        return status;
    /* Every rank's kept line reaches rank 0, which prints the first. */
    ranks_part *parts = NULL;
    ws_error err;
    /* A rank that failed because another did keeps no line of its own. */
    size_t len = status && me.first_error[0] ? strlen(me.first_error) + 1 : 0;
    int failed = ranks_gather(status, me.first_error, len, &parts, &err) != 0;
    if (me.rank == 0) {
        int printed = 0;
        for (uint32_t r = 0; parts && r < me.size && !printed; r++)
            if (parts[r].status && parts[r].size) {
                fprintf(stderr, "%s\n", (const char *)parts[r].data);
                printed = 1;
            }
        if (failed)
            fprintf(stderr, "warpscope: %s\n", err.msg);
    }
    ranks_parts_free(parts);
    me.first_error[0] = '\0';
    int all = ranks_max_status(failed ? 1 : status);
    return all;
}

int ranks_reports(void) { return me.rank == 0 || me.own_share; }
const char *ranks_prefix(void) { return me.prefix; }

void ranks_parts_free(ranks_part *parts)
{
    if (!parts)
        return;
    for (uint32_t i = 0; i < me.size; i++)
        free(parts[i].data);
    free(parts);
}

int ranks_gather(int status, const void *data, size_t size, ranks_part **parts, ws_error *err)
{
    *parts = NULL;
    if (me.size == 1 || !me.joined) {
        ranks_part *p = calloc(1, sizeof *p);
        if (!p || (size && !(p->data = malloc(size))))
            return free(p), ws_fail(err, "out of memory");
        if (size)
            memcpy(p->data, data, size);
        p->status = status;
        p->size = size;
        *parts = p;
        return 0;
    }
#ifdef WS_MPI
    /* Sizes first, then the bytes: each rank's part is a few kilobytes of
     * counters, never per-record data (docs/analysis.md "Ranks"). */
    if (size > INT_MAX)
        size = 0, status = status ? status : 1;
    long long head[2] = {status, (long long)size}, *heads = NULL;
    int *counts = NULL, *offsets = NULL;
    char *all = NULL;
    int rc = 0;
    if (me.rank == 0 && (!(heads = malloc(2 * sizeof *heads * me.size)) ||
                         !(counts = malloc(sizeof *counts * me.size)) ||
                         !(offsets = malloc(sizeof *offsets * me.size))))
        rc = -1; /* still takes part, so that no rank waits for ever */
    mpi.gather(head, 2, mpi.long_long, heads, 2, mpi.long_long, 0, mpi.world);
    long long total = 0;
    if (me.rank == 0 && rc == 0) {
        for (uint32_t i = 0; i < me.size; i++) {
            counts[i] = (int)heads[2 * i + 1];
            offsets[i] = (int)total;
            total += counts[i];
        }
        if (total > INT_MAX || !(all = malloc(total ? (size_t)total : 1)))
            rc = -1, total = 0, memset(counts, 0, sizeof *counts * me.size),
            memset(offsets, 0, sizeof *offsets * me.size);
    }
    mpi.gatherv(data, (int)size, mpi.byte, all, counts, offsets, mpi.byte, 0, mpi.world);
    if (me.rank == 0 && rc == 0) {
        ranks_part *p = calloc(me.size, sizeof *p);
        for (uint32_t i = 0; p && i < me.size; i++) {
            p[i].status = (int)heads[2 * i];
            p[i].size = (size_t)counts[i];
            if (counts[i] && !(p[i].data = malloc((size_t)counts[i]))) {
                ranks_parts_free(p);
                p = NULL;
                break;
            }
            if (counts[i])
                memcpy(p[i].data, all + offsets[i], (size_t)counts[i]);
        }
        if (!p)
            rc = -1;
        *parts = p;
    }
    free(all);
    free(heads);
    free(counts);
    free(offsets);
    return rc == 0 ? 0 : ws_fail(err, "out of memory gathering the ranks' results");
#else
    return ws_fail(err, "built without MPI");
#endif
}

int ranks_send(uint32_t to, const void *data, size_t size, ws_error *err)
{
#ifdef WS_MPI
    if (me.joined && to < me.size) {
        if (size > INT_MAX)
            return ws_fail(err, "a message of %zu bytes to rank %u is too large", size, to);
        return mpi.ssend(data, (int)size, mpi.byte, (int)to, 0, mpi.world) == MPI_SUCCESS
                   ? 0
                   : ws_fail(err, "sending to rank %u failed", to);
    }
#endif
    (void)data, (void)size;
    return ws_fail(err, "no rank %u to send to", to);
}

int ranks_recv(uint32_t from, void **data, size_t *size, ws_error *err)
{
    *data = NULL;
    *size = 0;
#ifdef WS_MPI
    if (me.joined && from < me.size) {
        MPI_Status st;
        int count = 0;
        if (mpi.probe((int)from, 0, mpi.world, &st) != MPI_SUCCESS ||
            mpi.get_count(&st, mpi.byte, &count) != MPI_SUCCESS || count < 0)
            return ws_fail(err, "receiving from rank %u failed", from);
        if (!(*data = malloc(count ? (size_t)count : 1)))
            return ws_fail(err, "out of memory");
        if (mpi.recv(*data, count, mpi.byte, (int)from, 0, mpi.world, MPI_STATUS_IGNORE) !=
            MPI_SUCCESS) {
            free(*data);
            *data = NULL;
            return ws_fail(err, "receiving from rank %u failed", from);
        }
        *size = (size_t)count;
        return 0;
    }
#endif
    return ws_fail(err, "no rank %u to receive from", from);
}

int ranks_max_status(int status)
{
#ifdef WS_MPI
    if (me.joined && me.size > 1) {
        int all = status;
        mpi.allreduce(&status, &all, 1, mpi.int_type, mpi.max, mpi.world);
        return all;
    }
#endif
    return status;
}
