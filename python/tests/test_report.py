"""warpscope.load_report: the JSON reports' tables, checked against the CSV
tables the same run wrote (the same figures, by the schema's names)."""
import json

import pandas as pd
import pytest

import warpscope
from conftest import GPU

KEYS = ["kernel_id", "kernel", "kernel_demangled", "pc_index", "pc_offset", "sass",
        "source_file", "source_line"]


def read_csv(path):
    return pd.read_csv(path)


def test_analysis_tables(analysis):
    report = warpscope.load_report(analysis / "report.json")
    assert report.schema == "warpscope-report"
    for name in ("summary", "kernels", "pcs", "reuse", "mrc", "sharing_sharer_counts",
                 "sharing_sm_pairs", "sharing_cta_distances", "access_map"):
        assert isinstance(report[name], pd.DataFrame), name
    assert len(report["kernels"]) == len(report.document["kernels"])
    assert len(report["summary"]) == 1


def test_pcs_join_with_pcs_csv(analysis):
    pcs = warpscope.load_report(analysis / "report.json")["pcs"]
    csv = read_csv(analysis / "csv" / "pcs.csv")
    assert list(pcs.columns[:len(KEYS)]) == KEYS
    pd.testing.assert_frame_equal(pcs[KEYS], csv[KEYS], check_dtype=False)
    for ours, theirs in (("executions", "executions"), ("requests", "requests"),
                         ("utilization.line", "u_line"), ("replay.l1_hits", "l1_hits"),
                         ("replay.l1_to_l2_read_bytes", "l1_to_l2_read_bytes")):
        # The CSV writes 6 significant digits, the JSON 10.
        assert list(pcs[ours]) == pytest.approx(list(csv[theirs]), rel=1e-5, nan_ok=True), ours


def test_reuse_and_sharing_equal_their_csv_tables(analysis):
    report = warpscope.load_report(analysis / "report.json")
    for name in ("reuse", "sharing_sharer_counts", "sharing_sm_pairs", "sharing_cta_distances"):
        csv = read_csv(analysis / "csv" / f"{name}.csv")
        pd.testing.assert_frame_equal(report[name], csv, check_dtype=False, obj=name)


def test_summary_is_the_sum_of_the_kernels(analysis):
    report = warpscope.load_report(analysis / "report.json")
    summary, kernels = report["summary"].iloc[0], report["kernels"]
    for column in ("instructions.loads", "instructions.requests", "replay.l1.hits",
                   "replay.l2.requests"):
        assert summary[column] == kernels[column].sum(), column
    assert summary["replay.l1.hits"] == report.document["summary"]["replay"]["l1"]["hits"]
    mrc = report["mrc"]
    assert set(mrc["level"]) == {"l1", "l2"}
    assert len(mrc) == sum(len(v) for v in report.document["summary"]["mrc"].values())


def test_profile_adds_bypass_and_compare(profile):
    report = warpscope.load_report(profile / "report.json")
    compare = read_csv(profile / "compare.csv")
    assert list(report["compare"]["name"]) == list(compare["policy"]) == ["lru", "srrip"]
    assert list(report["compare"]["l1.hits"]) == list(compare["l1_hits"])
    hints = read_csv(profile / "hints_pcs.csv")
    bypass = report["bypass_pcs"]
    keys = ["kernel", "kernel_demangled", "pc_offset", "sass"]
    pd.testing.assert_frame_equal(bypass[keys], hints[keys], check_dtype=False)
    assert list(bypass["requests"]) == list(hints["requests"])
    assert len(report["bypass_lines"]) == len(report.document["bypass"]["lines"])
    assert set(report["bypass_before_after"]["replay"]) == {"baseline", "bypass_table",
                                                            "bypass_pc"}


def test_replay_compare_sweep_and_bypass_documents(workdir, trace_path):
    out = workdir / "others"
    out.mkdir()
    warpscope.run("replay", trace_path, *GPU, "-o", out / "replay.json")
    warpscope.run("compare", trace_path, *GPU, "--policies", "lru,srrip", "-o",
                  out / "compare.json")
    warpscope.run("sweep", trace_path, *GPU, "--n-max", "2", "-o", out / "sweep.json")
    warpscope.run("bypass", trace_path, *GPU, "--json", out / "bypass.json")

    replay = warpscope.load_report(out / "replay.json")
    doc = replay.document
    assert replay.schema == "warpscope-replay"
    assert len(replay["kernels"]) == len(doc["kernels"])
    assert replay["summary"].iloc[0]["l1.hits"] == doc["summary"]["l1"]["hits"]
    assert replay["kernels"]["l1.hits"].sum() == doc["summary"]["l1"]["hits"]
    assert list(replay["pcs"]["pc_offset"]) == [hex(pc["offset"]) for k in doc["kernels"]
                                                for pc in k["pcs"]]

    compare = warpscope.load_report(out / "compare.json")
    assert list(compare["policies"]["name"]) == ["lru", "srrip"]
    assert list(compare["policies"]["l1.hits"]) == [p["l1"]["hits"]
                                                    for p in compare.document["policies"]]

    sweep = warpscope.load_report(out / "sweep.json")
    assert list(zip(sweep["points"]["n"], sweep["points"]["p"])) == [(1, 1), (2, 1), (2, 2)]
    assert set(sweep["best"]["by"]) == {"hit_rate", "traffic"}

    bypass = warpscope.load_report(out / "bypass.json")
    assert len(bypass["pcs"]) == len(bypass.document["pcs"])
    assert set(bypass) == {"pcs", "lines", "before_after"}


def test_not_a_report_is_a_one_line_error(workdir):
    other = workdir / "other.json"
    other.write_text(json.dumps({"schema": "something-else"}))
    with pytest.raises(warpscope.WarpscopeError, match="other.json: not a warpscope JSON"):
        warpscope.load_report(other)
    broken = workdir / "broken.json"
    broken.write_text("{\"schema\": ")
    with pytest.raises(warpscope.WarpscopeError, match="broken.json: not JSON"):
        warpscope.load_report(broken)
    with pytest.raises(warpscope.WarpscopeError, match="absent.json: "):
        warpscope.load_report(workdir / "absent.json")
