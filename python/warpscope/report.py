"""warpscope.report: a warpscope JSON report as pandas DataFrames.

    tables = warpscope.load_report("report.json")
    tables["pcs"]          # one row per (kernel launch, PC)
    tables.document        # the JSON itself

Which tables a report gives depends on its `schema` (docs/python.md lists
them).  Column names are the schema's (docs/report-schema.md): the keys
that identify a kernel or a PC are named as in the CSV tables (kernel_id,
kernel, kernel_demangled, pc_index, pc_offset, sass, source_file,
source_line), so a table joins with its CSV twin; every other scalar of a
JSON object keeps its path, levels joined by dots (`replay.l1.hit_rate`).
The reuse and sharing tables have exactly the columns of reuse.csv and
the sharing_*.csv tables."""
import json

from . import flatten, native
from .errors import WarpscopeError

REUSE_MEASURES = (("reuse_distance", "log2"), ("reuse_time", "reuse_time_log2"))
GRANULARITIES = ("line", "sector")
SCOPES = ("global", "per_sm", "per_warp")


class Report(dict):
    """Table name -> pandas DataFrame; `schema` and `document` (the JSON)."""

    def __init__(self, schema, document, tables):
        super().__init__(tables)
        self.schema = schema
        self.document = document


def _frame(rows, columns=None):
    import pandas as pd
    return pd.DataFrame(rows, columns=columns) if columns else pd.DataFrame(rows)


def _demangled(name, written):
    """The display name the report wrote; for a report older than that
    field, the C library's demangler, else the name itself."""
    if written is not None or name is None:
        return written
    try:
        return native.demangle(name)
    except WarpscopeError:
        return name


def _kernel_keys(kernel_id, kernel):
    name = kernel.get("name")
    return {"kernel_id": kernel_id, "kernel": name,
            "kernel_demangled": _demangled(name, kernel.get("name_demangled"))}


def _pc_keys(pc):
    offset = pc.get("offset")
    return {"pc_index": pc.get("index"), "pc_offset": pc.get("pc_offset", _hex(offset)),
            "sass": pc.get("sass"), "source_file": pc.get("file"),
            "source_line": pc.get("line"), "offset": offset}


def _hex(value):
    return None if value is None else hex(value)


def _pc_rows(kernels):
    keys = ("index", "offset", "pc_offset", "sass", "file", "line")
    for k, kernel in enumerate(kernels):
        for pc in kernel.get("pcs") or []:
            yield {**_kernel_keys(kernel.get("index", k), kernel), **_pc_keys(pc),
                   **flatten.scalars(pc, skip=keys)}


def _kernel_rows(kernels, metrics_key):
    skip = ("index", "name", "name_demangled", "grid", "block", "pcs")
    for k, kernel in enumerate(kernels):
        row = _kernel_keys(kernel.get("index", k), kernel)
        for dim in ("grid", "block"):
            for axis, size in zip("xyz", kernel.get(dim) or []):
                row[f"{dim}_{axis}"] = size
        row.update(flatten.scalars(kernel, skip=skip + ((metrics_key,) if metrics_key else ())))
        if metrics_key and isinstance(kernel.get(metrics_key), dict):
            row.update(flatten.scalars(kernel[metrics_key]))
        yield row


def _buckets(hist, key):
    """(bucket, count) of a HIST array: sparse pairs (version 3) or dense."""
    values = hist.get(key) or []
    if values and isinstance(values[0], list):
        return [(b, c) for b, c in values]
    return [(b, c) for b, c in enumerate(values) if c]


def _reuse_rows(document):
    bounds = document.get("reuse_buckets") or {}
    low, high = bounds.get("log2_low"), bounds.get("log2_high")
    for k, kernel in enumerate(document.get("kernels") or []):
        keys = _kernel_keys(kernel.get("index", k), kernel)
        reuse = (kernel.get("metrics") or {}).get("reuse") or {}
        for g in GRANULARITIES:
            for s in SCOPES:
                hist = (reuse.get(g) or {}).get(s)
                if not hist:
                    continue
                for measure, key in REUSE_MEASURES:
                    rows = [(None, hist.get("cold", 0))] if hist.get("cold") else []
                    for bucket, count in rows + _buckets(hist, key):
                        bucket_low = hist.get(key + "_low", low)
                        bucket_high = hist.get(key + "_high", high)
                        yield {**keys, "granularity": g, "scope": s, "measure": measure,
                               "cold": int(bucket is None),
                               "low": None if bucket is None else bucket_low[bucket],
                               "high": None if bucket is None else bucket_high[bucket],
                               "count": count}


def _sharing_tables(sharing):
    block = sharing.get("block_bytes")
    sharers = [{"sms": sms, "blocks": n, "block_bytes": block}
               for sms, n in zip(sharing.get("sharers_hist_low", []),
                                 sharing.get("sharers_hist", []))]
    pairs = [{"sm_x": x, "sm_y": y, "blocks": n, "block_bytes": block}
             for x, row in enumerate(sharing.get("sm_matrix") or [])
             for y, n in enumerate(row)]
    distances = []
    for name, first in (("cta_distance_exact", 1), ("cta_distance_log2", 4)):
        lows, highs = sharing.get(name + "_low", []), sharing.get(name + "_high", [])
        for b, pairs_at in enumerate(sharing.get(name) or []):
            if b >= first and (name.endswith("exact") or pairs_at):
                distances.append({"distance_low": lows[b], "distance_high": highs[b],
                                  "cta_pairs": pairs_at, "block_bytes": block})
    return {
        "sharing_sharer_counts": _frame(sharers, ["sms", "blocks", "block_bytes"]),
        "sharing_sm_pairs": _frame(pairs, ["sm_x", "sm_y", "blocks", "block_bytes"]),
        "sharing_cta_distances": _frame(distances, ["distance_low", "distance_high",
                                                    "cta_pairs", "block_bytes"]),
    }


def _mrc_rows(metrics):
    for level, points in ((metrics or {}).get("mrc") or {}).items():
        for point in points or []:
            yield {"level": level, **point}


def _access_rows(access_map):
    regions = access_map.get("regions") or []
    for t, row in enumerate(access_map.get("counts") or []):
        for r, count in enumerate(row):
            if count:
                yield {"time_bin": t, "region": r, "low": regions[r]["low"],
                       "high": regions[r]["high"], "requests": count}


def _bypass_tables(bypass):
    pcs = [{"kernel_id": p.get("kernel_index"), "kernel": p.get("kernel"),
            "kernel_demangled": _demangled(p.get("kernel"), p.get("kernel_demangled")),
            "pc_index": p.get("pc"), "pc_offset": p.get("pc_offset", _hex(p.get("offset"))),
            "sass": p.get("sass"), "source_file": p.get("file"), "source_line": p.get("line"),
            "offset": p.get("offset"),
            **flatten.scalars(p, skip=("kernel_index", "kernel", "kernel_demangled", "pc",
                                       "pc_offset", "offset", "sass", "file", "line"))}
           for p in bypass.get("pcs") or []]
    before_after = [{"replay": name, **values}
                    for name, values in (bypass.get("before_after") or {}).items()]
    return {"bypass_pcs": _frame(pcs), "bypass_lines": _frame(bypass.get("lines") or []),
            "bypass_before_after": _frame(before_after)}


def _policies(entries):
    return _frame([{"name": e.get("name"), **flatten.scalars(e)} for e in entries or []])


def _analysis_tables(doc):
    kernels = doc.get("kernels") or []
    tables = {
        "summary": _frame([flatten.scalars(doc.get("summary") or {})]),
        "kernels": _frame(list(_kernel_rows(kernels, "metrics"))),
        "pcs": _frame(list(_pc_rows(kernels))),
        "reuse": _frame(list(_reuse_rows(doc)),
                        ["kernel_id", "kernel", "kernel_demangled", "granularity", "scope",
                         "measure", "cold", "low", "high", "count"]),
        "mrc": _frame(list(_mrc_rows(doc.get("summary"))),
                      ["level", "lines", "bytes", "miss_ratio", "exact", "resolved"]),
    }
    tables.update(_sharing_tables((doc.get("summary") or {}).get("sharing") or {}))
    if doc.get("access_map"):
        tables["access_map"] = _frame(list(_access_rows(doc["access_map"])),
                                      ["time_bin", "region", "low", "high", "requests"])
    if doc.get("bypass"):
        tables.update(_bypass_tables(doc["bypass"]))
    if doc.get("compare"):
        tables["compare"] = _policies(doc["compare"].get("policies"))
    return tables


def _replay_tables(doc):
    kernels = doc.get("kernels") or []
    return {"summary": _frame([flatten.scalars(doc.get("summary") or {})]),
            "kernels": _frame(list(_kernel_rows(kernels, None))),
            "pcs": _frame(list(_pc_rows(kernels)))}


def _sweep_tables(doc):
    best = [{"by": by, **flatten.scalars(point)}
            for by, point in (doc.get("best") or {}).items()]
    return {"points": _frame(doc.get("points") or []),
            "baseline": _frame([doc["baseline"]] if doc.get("baseline") else []),
            "best": _frame(best)}


def _bypass_document_tables(doc):
    tables = _bypass_tables(doc)
    return {"pcs": tables["bypass_pcs"], "lines": tables["bypass_lines"],
            "before_after": tables["bypass_before_after"]}


READERS = {
    "warpscope-report": _analysis_tables,
    "warpscope-replay": _replay_tables,
    "warpscope-compare": lambda doc: {"policies": _policies(doc.get("policies"))},
    "warpscope-sweep": _sweep_tables,
    "warpscope-bypass": _bypass_document_tables,
}


def load_report(path):
    """The tables of a JSON report written by analyze, profile (its
    report.json), replay -o, compare -o, sweep -o or bypass --json."""
    path = str(path)
    try:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
    except OSError as e:
        raise WarpscopeError(f"{path}: {e.strerror}") from None
    except ValueError as e:
        raise WarpscopeError(f"{path}: not JSON: {e}") from None
    schema = document.get("schema") if isinstance(document, dict) else None
    if schema not in READERS:
        raise WarpscopeError(f"{path}: not a warpscope JSON report (schema {schema!r})")
    return Report(schema, document, READERS[schema](document))
