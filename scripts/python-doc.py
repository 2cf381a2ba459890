#!/usr/bin/env python3
"""scripts/python-doc.py OUT.md: writes docs/python.md by running its code
cells, notebook style, in a temporary directory, and putting each cell's
real output under it.  Run it with a python3 that has numpy and pandas,
warpscope importable (PYTHONPATH=python) and the CLI and the library
built (make python builds both):

    PYTHONPATH=python /usr/bin/python3 scripts/python-doc.py docs/python.md
"""
import ast
import contextlib
import io
import os
import sys
import tempfile

INTRO = """\
# warpscope from Python

The `python/` package reads warpscope's reports as pandas DataFrames and
`.wst` traces as numpy arrays, and runs the CLI. Install it with
`make python` (or `pip install ./python` once `make python` has built
`build/libwarpscope.so`), or use it from the checkout with
`PYTHONPATH=python`. What follows is a session, cell by cell, with the
output each cell printed when this page was made
(`scripts/python-doc.py docs/python.md` regenerates it).

| call | gives |
|---|---|
| `warpscope.run(*args)` | runs `warpscope ARGS`, returns its stdout; raises `warpscope.CliError` with the CLI's one-line error |
| `warpscope.load_report(path)` | a dict of DataFrames from the JSON of analyze, profile, replay, compare, sweep or bypass; `.schema`, `.document` |
| `warpscope.Trace(path)` | the trace's kernels (`Kernel`: `name`, `demangled`, `grid`, `block`, `record_count`, `pcs`, `ctas()`, `records()`, `batches()`) |
| `warpscope.RECORD_DTYPE` | the numpy dtype of one record (below) |
| `warpscope.demangle(name)` | a kernel's display name, as the reports write it |

## The tables of a report

`load_report` gives, for `analyze` and `profile`'s `report.json`:

| table | one row per | columns |
|---|---|---|
| `summary` | the whole trace (one row) | every scalar of `summary`, by its path: `replay.l1.hit_rate`, `instructions.requests`, ... |
| `kernels` | kernel launch | `kernel_id`, `kernel`, `kernel_demangled`, `grid_x` .. `block_z`, then the scalars of the KERNEL and its `metrics` |
| `pcs` | (launch, PC) | `kernel_id`, `kernel`, `kernel_demangled`, `pc_index`, `pc_offset`, `sass`, `source_file`, `source_line`, `offset`, then the PC's scalars (`executions`, `utilization.line`, `replay.l1_hits`, `locality.class`, ...) |
| `reuse` | (launch, granularity, scope, measure, bucket) | exactly `reuse.csv`'s |
| `sharing_sharer_counts`, `sharing_sm_pairs`, `sharing_cta_distances` | as their CSV tables | exactly theirs |
| `mrc` | point of the summary's miss-ratio curves | `level` (`l1`, `l2`), `lines`, `bytes`, `miss_ratio`, `exact`, `resolved` |
| `access_map` | non-empty (time bin, region) | `time_bin`, `region`, `low`, `high`, `requests` |
| `bypass_pcs`, `bypass_lines`, `bypass_before_after` | `profile` only: `bypass`'s lists | the PC keys above, then the JSON's fields |
| `compare` | `profile` only: compared policy | `name`, then the REPLAY's scalars (`l1.hits`, `traffic.l1_to_l2_bytes`, ...) |

`replay -o` gives `summary`, `kernels` and `pcs`; `compare -o` gives
`policies`; `sweep -o` gives `points`, `baseline` and `best`; `bypass
--json` gives `pcs`, `lines` and `before_after`. Names are the schema's
(docs/report-schema.md): a nested figure keeps its JSON path, levels
joined by dots; the keys of kernels and PCs are named as in the CSV
tables, so a table joins its CSV twin on (`kernel_id`, `pc_offset`).

## A record

`Trace` reads records through the project's C reader
(`formats/trace_api.h`, built into `build/libwarpscope.so`), not a
Python copy of the format. One record is one warp-level memory
instruction:

| field | type | meaning |
|---|---|---|
| `kernel` | uint32 | launch index |
| `cta` | uint32 | linear CTA id (x + y·gx + z·gx·gy) |
| `warp` | uint32 | warp index in the CTA |
| `pc_index` | uint32 | row of the kernel's PC table (`Kernel.pcs`) |
| `pc_offset` | uint64 | that PC's byte offset in the kernel |
| `kind` | uint8 | 0 load, 1 store, 2 atomic (`warpscope.KINDS`) |
| `space` | uint8 | 0 global, 1 local (`warpscope.SPACES`) |
| `cache_op` | uint8 | 0 none, 1 ca, 2 cg, 3 cs, 4 lu, 5 cv (`warpscope.CACHE_OPS`) |
| `size` | uint8 | bytes per active lane: 1, 2, 4, 8 or 16 |
| `mask` | uint32 | active lanes, bit i = lane i |
| `sm` | int32 | the SM the collector saw, −1 when it recorded none |
| `gap`, `waits`, `has_waits` | uint32, uint32, uint8 | timing (docs/metrics.md §12) |
| `has_time`, `timestamp` | uint8, uint64 | the collector's timestamp, when it has one |
| `reserved` | uint8[2] | 0 (padding, named so the dtype has no gaps) |
| `addr` | uint64[32] | byte address per lane; 0 for inactive lanes |

`Kernel.records()` returns a kernel's records in one array (in CTA order,
each CTA's in recorded order), `records(cta=N)` one CTA's, and
`batches(size=65536)` the same a bounded batch at a time, for traces
larger than memory.

## A session
"""

CELLS = [
    ("Record a small emulated workload and analyze it, as the CLI would.",
     '''import warpscope

warpscope.run("record", "--workload", "gaussian", "--size", "small", "-o", "g.wst")
out = warpscope.run("analyze", "g.wst", "--gpu", "fermi", "-o", "report.json",
                    "--csv", "tables")
print(out.splitlines()[0])
print(out.splitlines()[1])'''),
    ("The report's tables:",
     '''tables = warpscope.load_report("report.json")
tables.schema, sorted(tables)'''),
    ("One row per kernel launch; both names of each kernel are columns.",
     '''kernels = tables["kernels"]
kernels[["kernel_id", "kernel", "kernel_demangled", "grid_x", "ctas",
         "instructions.loads", "replay.l1.hit_rate"]].head(4)'''),
    ("The PCs that make the most line requests, over all launches:",
     '''pcs = tables["pcs"]
(pcs.groupby(["kernel_demangled", "pc_offset", "sass", "source_line"])
    [["executions", "requests", "replay.l1_hits"]].sum()
    .sort_values("requests", ascending=False).head(5))'''),
    ("The identifiers are the CSV tables' own, so the two join without conversion:",
     '''import numpy as np
import pandas as pd

csv = pd.read_csv("tables/pcs.csv")
joined = csv.merge(pcs, on=["kernel_id", "pc_offset"], suffixes=("_csv", ""))
# The CSV writes 6 significant digits, the JSON 10.
len(csv), len(joined), np.allclose(joined["u_line"], joined["utilization.line"],
                                   rtol=1e-5, equal_nan=True)'''),
    ("Reuse distances of the whole trace (line granularity, one stream for the GPU), "
     "summed over the launches as docs/report-schema.md suggests:",
     '''reuse = tables["reuse"]
(reuse.query("granularity == 'line' and scope == 'global' and measure == 'reuse_distance'")
      .groupby(["cold", "low", "high"], dropna=False)["count"].sum())'''),
    ("Now the trace itself, through the C reader:",
     '''trace = warpscope.Trace("g.wst")
kernel = trace[1]
print(trace)
print(kernel)
kernel.pcs'''),
    ("Its records as one numpy array:",
     '''records = kernel.records()
print(records.dtype.itemsize, "bytes a record;", len(records), "records")
pd.DataFrame({field: records[field][:4]
              for field in ("cta", "warp", "pc_index", "pc_offset", "kind", "size", "mask")})'''),
    ("numpy works on them directly. The distinct 128-byte lines each global load "
     "touches are its line requests (docs/metrics.md §2); summed by PC they are the "
     "report's `requests` for this launch:",
     '''loads = records[(records["kind"] == 0) & (records["space"] == 0)]
active = (loads["mask"][:, None] >> np.arange(32, dtype=np.uint32)) & 1 == 1
lines = np.where(active, loads["addr"] >> 7, np.uint64(2**64 - 1))
lines.sort(axis=1)
distinct = (np.diff(lines, axis=1) != 0).sum(axis=1) + 1 - (~active).any(axis=1)
ours = pd.Series(distinct, index=loads["pc_offset"]).groupby(level=0).sum()
ours.index = [hex(x) for x in ours.index]
theirs = pcs[pcs["kernel_id"] == 1].set_index("pc_offset")["requests"]
(ours == theirs[ours.index]).all(), ours.sum()'''),
    ("Large traces stream: `batches` keeps memory bounded by the batch.",
     '''per_cta = {}
for batch in kernel.batches(size=256):
    for cta, n in zip(*np.unique(batch["cta"], return_counts=True)):
        per_cta[int(cta)] = per_cta.get(int(cta), 0) + int(n)
len(per_cta), sum(per_cta.values()) == kernel.record_count'''),
    ("A failing command raises its one-line error:",
     '''try:
    warpscope.run("analyze", "missing.wst", "--gpu", "fermi")
except warpscope.CliError as e:
    print(e)
    print("exit status", e.returncode)
trace.close()'''),
]


def run_cell(source, namespace):
    tree = ast.parse(source)
    last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    body = ast.Module(body=tree.body[:-1] if last else tree.body, type_ignores=[])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(body, "<cell>", "exec"), namespace)
        if last:
            value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
            if value is not None:
                print(value if hasattr(value, "to_string") else repr(value))
    return out.getvalue().rstrip("\n")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: scripts/python-doc.py OUT.md")
    target = os.path.abspath(sys.argv[1])
    import pandas as pd
    pd.set_option("display.width", 100)
    pd.set_option("display.max_columns", 10)
    parts = [INTRO]
    namespace = {}
    with tempfile.TemporaryDirectory() as work:
        os.chdir(work)
        for text, source in CELLS:
            output = run_cell(source, namespace)
            parts.append(f"{text}\n\n```python\n{source}\n```\n")
            if output:
                parts.append(f"```text\n{output}\n```\n")
    with open(target + ".tmp", "w", encoding="utf-8") as f:
        f.write("\n".join(parts))
    os.replace(target + ".tmp", target)


if __name__ == "__main__":
    main()
