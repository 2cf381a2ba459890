"""warpscope.Trace reads records through the C reader: they must be the
records `warpscope dump --csv` prints, and the counts `info` knows."""
import json

import numpy as np
import pandas as pd
import pytest

import warpscope


def dump_csv(trace_path, workdir):
    path = workdir / "dump.csv"
    if not path.exists():
        path.write_text(warpscope.run("dump", trace_path, "--csv"))
    return pd.read_csv(path, keep_default_na=False, dtype=str)


def test_kernels_match_the_report(trace_path, analysis):
    report = json.loads((analysis / "report.json").read_text())
    with warpscope.Trace(trace_path) as trace:
        assert len(trace) == report["trace"]["kernels"] == len(report["kernels"])
        assert trace.origin["collector"] == report["trace"]["collector"]
        assert trace.file_bytes == report["trace"]["file_bytes"]
        for kernel, entry in zip(trace, report["kernels"]):
            assert kernel.name == entry["name"]
            assert kernel.demangled == entry["name_demangled"]
            assert list(kernel.grid) == entry["grid"] and list(kernel.block) == entry["block"]
            assert kernel.cta_count == entry["ctas"] == len(kernel.ctas())
            assert kernel.pc_count == len(entry["pcs"])
            pcs = kernel.pcs
            assert list(pcs["offset"]) == [pc["offset"] for pc in entry["pcs"]]
            assert list(pcs["pc_offset"]) == [pc["pc_offset"] for pc in entry["pcs"]]
        assert sum(k.record_count for k in trace) == report["trace"]["records"]


def test_records_equal_the_cli_dump(trace_path, workdir):
    dump = dump_csv(trace_path, workdir)
    with warpscope.Trace(trace_path) as trace:
        records = np.concatenate([k.records() for k in trace])
        names = [trace[int(k)].name for k in records["kernel"]]
    assert records.dtype == warpscope.RECORD_DTYPE
    assert len(records) == len(dump)
    assert list(records["kernel"]) == [int(x) for x in dump["kernel_id"]]
    assert names == list(dump["kernel"])
    for field, column in (("cta", "cta"), ("warp", "warp"), ("pc_index", "pc_index"),
                          ("size", "lane_bytes")):
        assert list(records[field]) == [int(x) for x in dump[column]], field
    assert [hex(x) for x in records["pc_offset"]] == list(dump["pc_offset"])
    assert [warpscope.KINDS[x] for x in records["kind"]] == list(dump["kind"])
    assert [warpscope.SPACES[x] for x in records["space"]] == list(dump["space"])
    assert [warpscope.CACHE_OPS[x] for x in records["cache_op"]] == list(dump["cache_op"])
    assert list(records["mask"]) == [int(x, 16) for x in dump["mask"]]
    assert [str(x) if x >= 0 else "" for x in records["sm"]] == list(dump["sm"])
    for record, lanes in zip(records[:500], dump["addresses"][:500]):
        active = {int(lane): int(addr, 16)
                  for lane, addr in (item.split(":") for item in lanes.split())}
        assert {lane: int(record["addr"][lane]) for lane in range(32)
                if record["mask"] >> lane & 1} == active
        assert all(record["addr"][lane] == 0 for lane in range(32) if lane not in active)


def test_batches_ctas_and_whole_kernel_agree(trace_path):
    with warpscope.Trace(trace_path) as trace:
        kernel = max(trace, key=lambda k: k.record_count)
        whole = kernel.records()
        batched = np.concatenate(list(kernel.batches(size=7)))
        by_cta = np.concatenate([kernel.records(cta=c) for c in kernel.ctas()])
        assert len(whole) == kernel.record_count
        assert whole.tobytes() == batched.tobytes() == by_cta.tobytes()
        assert set(np.unique(kernel.records(cta=kernel.ctas()[0])["cta"])) == {kernel.ctas()[0]}
        kinds = np.bincount(whole["kind"], minlength=3)
        assert (kernel.loads, kernel.stores, kernel.atomics) == tuple(kinds)
        streamed = sum(len(batch) for batch in trace.records())
        assert streamed == sum(k.record_count for k in trace)


def test_a_closed_trace_refuses_and_closes_its_cursors(trace_path):
    trace = warpscope.Trace(trace_path)
    kernel = trace[0]
    pending = kernel.batches(size=1)
    next(pending)
    trace.close()
    trace.close()
    with pytest.raises(warpscope.WarpscopeError, match="trace is closed"):
        kernel.records()


def test_bad_files_raise_one_line_naming_the_file(workdir):
    missing = workdir / "missing.wst"
    with pytest.raises(warpscope.WarpscopeError) as e:
        warpscope.Trace(missing)
    assert str(e.value).startswith(str(missing) + ": ") and "\n" not in str(e.value)
    junk = workdir / "junk.wst"
    junk.write_bytes(b"WSTRACE\0" + b"\x04" + bytes(100))
    with pytest.raises(warpscope.WarpscopeError, match=str(junk)):
        warpscope.Trace(junk)


def test_truncated_trace_is_an_error_not_a_crash(trace_path, workdir):
    cut = workdir / "cut.wst"
    cut.write_bytes(trace_path.read_bytes()[:-100])
    with pytest.raises(warpscope.WarpscopeError, match="cut.wst: "):
        with warpscope.Trace(cut) as trace:
            for kernel in trace:
                kernel.records()


def test_demangle_uses_the_reports_names():
    assert warpscope.demangle("_Z4Fan1PfS_ii") == "Fan1"
    assert warpscope.demangle("_Z8mult_gpuIfEvPT_S1_S1_ii") == "mult_gpu<float>"
    assert warpscope.demangle("plain_c_kernel") == "plain_c_kernel"
