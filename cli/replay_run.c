/* cli/replay_run.c: see replay_run.h. */
#include "cli/replay_run.h"

#include "cli/cli.h"

int cli_replay_reader(const replay_args *a, wst_reader *r, const hierarchy_options *options,
                      uint32_t count, hierarchy **out)
{
    ws_error err;
    const wst_trace *t = wst_reader_trace(r);
    uint64_t records = 0;
    for (uint32_t k = 0; k < t->kernel_count; k++)
        records += t->kernels[k].record_count;
    sched_source source = sched_source_wst(r);
    progress *bar = progress_new("replay", records, a->quiet);
    int rc = replay_run(&source, &a->config, &a->replay, options, count, out, bar, &err);
    progress_free(bar);
    return rc == 0 ? 0 : cli_fail(a->trace, &err);
}

int cli_replay(const replay_args *a, const hierarchy_options *options, uint32_t count,
               hierarchy **out, wst_reader **reader)
{
    ws_error err;
    wst_reader *r = wst_reader_open(a->trace, &err);
    if (!r)
        return cli_fail(a->trace, &err);
    replay_args_prepare_reader(a, r);
    int status = cli_replay_reader(a, r, options, count, out);
    if (status != 0) {
        wst_reader_close(r);
        return status;
    }
    *reader = r;
    return 0;
}
