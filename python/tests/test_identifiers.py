"""Kernels and PCs are named alike in the JSON, CSV and HTML reports
(reports/pc_label.h): a PC offset as lower-case hex text ("0x16000"), a
kernel by its mangled name and its demangled display name, in named
fields."""
import html
import json
import re

import pandas as pd

import warpscope
from conftest import GPU


def test_json_pcs_carry_the_offset_as_number_and_hex(analysis):
    doc = json.loads((analysis / "report.json").read_text())
    for kernel in doc["kernels"]:
        assert kernel["name_demangled"] == warpscope.demangle(kernel["name"])
        for pc in kernel["pcs"]:
            assert pc["pc_offset"] == hex(pc["offset"])
            assert re.fullmatch(r"0x[0-9a-f]+", pc["pc_offset"])


def test_csv_tables_name_kernels_like_the_json(analysis):
    doc = json.loads((analysis / "report.json").read_text())
    names = {k["index"]: (k["name"], k["name_demangled"]) for k in doc["kernels"]}
    for table in ("pcs.csv", "reuse.csv"):
        csv = pd.read_csv(analysis / "csv" / table)
        assert list(csv.columns[:3]) == ["kernel_id", "kernel", "kernel_demangled"]
        for kernel_id, name, shown in csv[["kernel_id", "kernel", "kernel_demangled"]] \
                .drop_duplicates().itertuples(index=False):
            assert names[kernel_id] == (name, shown)


def test_html_labels_use_the_same_names_and_offsets(analysis):
    doc = json.loads((analysis / "report.json").read_text())
    page = html.unescape((analysis / "report.html").read_text())
    for kernel in doc["kernels"][:2]:
        assert f'title="{kernel["name_demangled"]} (mangled: {kernel["name"]})"' in page
        for pc in kernel["pcs"]:
            label = f'{kernel["name_demangled"]}+{pc["pc_offset"]}'
            assert f"<code>{label}</code>" in page or f'"{label} (mangled:' in page, label


def test_bypass_and_timed_tables_agree(workdir, trace_path):
    out = workdir / "ids"
    out.mkdir()
    warpscope.run("bypass", trace_path, *GPU, "--json", out / "hints.json", "--csv", out)
    hints = json.loads((out / "hints.json").read_text())["pcs"]
    csv = pd.read_csv(out / "hints_pcs.csv")
    assert [(p["kernel"], p["kernel_demangled"], p["pc_offset"]) for p in hints] == \
        list(csv[["kernel", "kernel_demangled", "pc_offset"]].itertuples(index=False, name=None))
    warpscope.run("compare", trace_path, *GPU, "--policies", "lru", "--timed", "--csv", out)
    timed = pd.read_csv(out / "timed_kernels.csv")
    assert list(timed.columns[:4]) == ["policy", "kernel_id", "kernel", "kernel_demangled"]
    with warpscope.Trace(trace_path) as trace:
        assert list(timed["kernel"]) == [trace[int(k)].name for k in timed["kernel_id"]]
        assert list(timed["kernel_demangled"]) == [trace[int(k)].demangled
                                                   for k in timed["kernel_id"]]
