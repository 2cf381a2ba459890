#!/usr/bin/env python3
"""scripts/timed-validate.py: the tables and the scatter plot of
scripts/timed-validate.sh (docs/validation.md, "Timed replay against
Accel-Sim").

Reads the runs that timed-validate.sh left in RUNS (RUNS/W/P-O/ holds
accelsim.out, status, timed.json and func.json for workload W, preset P and
warp order O) and writes a Markdown report and an SVG scatter plot of cycles.
Python 3 standard library only.

usage: timed-validate.py RUNS --workloads a,b --presets fermi,volta
           --orders gto,lrr --mirrors DIR [--out FILE.md] [--svg FILE.svg]
           [--title TEXT]
"""
import argparse
import html
import json
import math
import os
import re
import sys

WITHIN = 3.0  # percentage points: the hit-rate target of issue #41

# ---------------------------------------------------------------- Accel-Sim


BREAKDOWN = re.compile(r"^\t(Total_core_cache_stats_breakdown|L2_cache_stats_breakdown)"
                       r"\[([A-Z0-9_]+)\]\[([A-Z_]+)\] = (\d+)")


def parse_accelsim(path):
    """Per-kernel figures of one Accel-Sim run: a list of dicts in kernel order.

    GPGPU-Sim prints a block of statistics as each kernel ends; gpu_sim_cycle
    is the kernel's own, the cache and DRAM counters are cumulative, so a
    kernel's figures are the difference from the previous block."""
    blocks, cur = [], None
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("kernel_name = "):
                cur = {"name": line.split("=", 1)[1].strip(), "cnt": {}}
                blocks.append(cur)
                continue
            if cur is None:
                continue
            if line.startswith("gpu_sim_cycle = "):
                cur["cycles"] = int(line.split("=")[1])
            elif line.startswith("gpu_sim_insn = "):
                cur["insn"] = int(line.split("=")[1])
            elif line.startswith("total dram reads = "):
                cur["cnt"]["dram_reads"] = int(line.split("=")[1])
            else:
                m = BREAKDOWN.match(line)
                if m:
                    who, typ, st, v = m.group(1), m.group(2), m.group(3), int(m.group(4))
                    if who.startswith("Total_core"):
                        if typ in ("GLOBAL_ACC_R", "LOCAL_ACC_R"):
                            key = "l1_" + st
                            cur["cnt"][key] = cur["cnt"].get(key, 0) + v
                    else:
                        key = "l2_" + st
                        cur["cnt"][key] = cur["cnt"].get(key, 0) + v
    kernels, prev = [], {}
    for b in blocks:
        if "cycles" not in b:
            continue
        c = b["cnt"]
        d = {k: c.get(k, 0) - prev.get(k, 0) for k in set(c) | set(prev)}
        if any(v < 0 for v in d.values()):  # counters were reset: per kernel already
            d = dict(c)
        prev = c
        g = lambda k: d.get(k, 0)
        kernels.append({
            "name": b["name"], "cycles": b["cycles"], "insn": b.get("insn", 0),
            "l1": {"req": g("l1_TOTAL_ACCESS"), "hit": g("l1_HIT"), "pend": g("l1_HIT_RESERVED"),
                   "resfail": g("l1_RESERVATION_FAIL")},
            "l2": {"req": g("l2_TOTAL_ACCESS"), "hit": g("l2_HIT"), "pend": g("l2_HIT_RESERVED"),
                   "resfail": g("l2_RESERVATION_FAIL")},
            "dram_reads": g("dram_reads"),
        })
    return kernels


# ---------------------------------------------------------------- warpscope


def ws_level(obj, sectored):
    if sectored and obj.get("sectors"):
        s = obj["sectors"]
        return {"req": s["requests"], "hit": s["hits"], "pend": s.get("pending_hits", 0)}
    return {"req": obj["requests"], "hit": obj["hits"], "pend": obj.get("pending_hits", 0)}


def parse_ws(path, l1_sectored, l2_sectored):
    with open(path) as f:
        doc = json.load(f)
    out = []
    for k in doc["kernels"]:
        t = k.get("timed") or {}
        out.append({
            "name": k.get("name", "?"),
            "cycles": t.get("cycles"),
            "ipc": t.get("ipc"),
            "l1": ws_level(k["l1"], l1_sectored),
            "l1_line": ws_level(k["l1"], False),
            "l2": ws_level(k["l2"], l2_sectored),
            "l2_line": ws_level(k["l2"], False),
            "dram_reads": k["traffic"]["l2_to_dram_read_bytes"] // 32,
        })
    return out


# ---------------------------------------------------------------- figures


def rate(lv, pending=True):
    if not lv["req"]:
        return None
    return 100.0 * (lv["hit"] + (lv["pend"] if pending else 0)) / lv["req"]


def summed(levels):
    return {k: sum(lv[k] for lv in levels) for k in ("req", "hit", "pend")}


def pearson(xs, ys):
    n = len(xs)
    if n < 2:
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def fmt_rate(r):
    return "–" if r is None else f"{r:.1f}"


def fmt_hp(lv):
    """hit% + pending% of one level's figures."""
    if not lv["req"]:
        return "–"
    return f"{100.0 * lv['hit'] / lv['req']:.1f}+{100.0 * lv['pend'] / lv['req']:.1f}"


def close(a, b):
    if a is None and b is None:
        return True
    if a is None or b is None:
        return False
    return abs(a - b) <= WITHIN


def read_status(d):
    try:
        with open(os.path.join(d, "status")) as f:
            return f.read().strip()
    except OSError:
        return "not run"


def evaluate(runs, workloads, preset, order, mirror, suffix=""):
    l1s = bool(mirror["l1"].get("sector"))
    l2s = bool(mirror["l2"].get("sector"))
    rows, skipped, per_wl = [], [], []
    for w in workloads:
        d = os.path.join(runs, w, f"{preset}-{order}{suffix}")
        st = read_status(d)
        if st != "ok":
            skipped.append((w, st))
            continue
        try:
            a = parse_accelsim(os.path.join(d, "accelsim.out"))
            t = parse_ws(os.path.join(d, "timed.json"), l1s, l2s)
            fn = parse_ws(os.path.join(d, "func.json"), l1s, l2s)
        except (OSError, ValueError, KeyError) as e:
            skipped.append((w, f"unreadable output: {e}"))
            continue
        if not (len(a) == len(t) == len(fn)):
            skipped.append((w, f"kernel counts differ: Accel-Sim {len(a)}, timed {len(t)}, functional {len(fn)}"))
            continue
        for i, (ka, kt, kf) in enumerate(zip(a, t, fn)):
            rows.append({"w": w, "i": i, "a": ka, "t": kt, "f": kf})
        res = {"w": w}
        for lvl in ("l1", "l2"):
            ra = rate(summed([k[lvl] for k in a]))
            rt = rate(summed([k[lvl] for k in t]))
            rf = rate(summed([k[lvl] for k in fn]))
            rta = rate(summed([k[lvl] for k in a]), pending=False)
            rtt = rate(summed([k[lvl] for k in t]), pending=False)
            res[lvl] = {"as": ra, "timed": rt, "func": rf,
                        "timed_ok": close(ra, rt), "func_ok": close(ra, rf),
                        "timed_hits_only_ok": close(rta, rtt)}
        per_wl.append(res)
    return rows, skipped, per_wl


def headline(rows, per_wl):
    xs = [r["a"]["cycles"] for r in rows if r["t"]["cycles"] and r["a"]["cycles"]]
    ys = [r["t"]["cycles"] for r in rows if r["t"]["cycles"] and r["a"]["cycles"]]
    mape = (100.0 * sum(abs(y - x) / x for x, y in zip(xs, ys)) / len(xs)) if xs else None
    wape = (100.0 * sum(abs(y - x) for x, y in zip(xs, ys)) / sum(xs)) if xs else None
    h = {"kernels": len(xs), "mape": mape, "wape": wape, "r": pearson(xs, ys),
         "r_log": pearson([math.log(x) for x in xs], [math.log(y) for y in ys]) if xs else None,
         "workloads": len(per_wl)}
    for mode in ("timed", "func"):
        h[mode] = {
            "l1": sum(p["l1"][mode + "_ok"] for p in per_wl),
            "l2": sum(p["l2"][mode + "_ok"] for p in per_wl),
            "both": sum(p["l1"][mode + "_ok"] and p["l2"][mode + "_ok"] for p in per_wl),
        }
    def split_ok(r, lvl):
        a, t = r["a"][lvl], r["t"][lvl]
        if not a["req"] or not t["req"]:
            return a["req"] == t["req"]
        return (abs(100.0 * a["hit"] / a["req"] - 100.0 * t["hit"] / t["req"]) <= 1.0 and
                abs(100.0 * a["pend"] / a["req"] - 100.0 * t["pend"] / t["req"]) <= 1.0)
    h["l1_split_kernels"] = sum(split_ok(r, "l1") for r in rows)
    h["all_kernels"] = len(rows)
    h["timed_hits_only"] = {
        "l1": sum(p["l1"]["timed_hits_only_ok"] for p in per_wl),
        "l2": sum(p["l2"]["timed_hits_only_ok"] for p in per_wl),
    }
    return h


def fnum(x, spec=".1f"):
    return "–" if x is None else format(x, spec)


def markdown(sections, title):
    out = []
    if title:
        out.append(title)
        out.append("")
    out.append("### Summary")
    out.append("")
    out.append("| preset | order | workloads | kernels | cycles MAPE | cycle-weighted error | Pearson r (cycles) "
               "| r of log cycles | L1 within 3 pts: timed / functional | L2 within 3 pts: timed / functional "
               "| both: timed / functional | kernels with L1 hit and pending-hit % both within 1 pt (timed) | skipped |")
    out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for s in sections:
        h = s["head"]
        n = h["workloads"]
        out.append(f"| {s['preset']} | {s['order']} | {n} | {h['kernels']} | {fnum(h['mape'])}% | "
                   f"{fnum(h['wape'])}% | {fnum(h['r'], '.3f')} | {fnum(h['r_log'], '.3f')} | "
                   f"{h['timed']['l1']} / {h['func']['l1']} of {n} | {h['timed']['l2']} / {h['func']['l2']} of {n} | "
                   f"{h['timed']['both']} / {h['func']['both']} of {n} | {h['l1_split_kernels']} of {h['all_kernels']} | "
                   f"{', '.join(w for w, _ in s['skipped']) or '–'} |")
    out.append("")
    out.append("MAPE: the mean over kernels of |warpscope − Accel-Sim| ÷ Accel-Sim cycles; cycle-weighted "
               "error: Σ |warpscope − Accel-Sim| ÷ Σ Accel-Sim over the same kernels (long kernels weigh more).")
    out.append("")
    out.append("Hit rates count pending hits as hits (Accel-Sim: HIT + HIT_RESERVED over TOTAL_ACCESS; "
               "warpscope: hits + pending hits over requests), summed over a workload's kernels; "
               "'within 3 pts' compares each replay with Accel-Sim. The functional replay has no cycles.")
    for s in sections:
        out.append("")
        out.append(f"### {s['preset']}, {s['order']}")
        out.append("")
        unit1 = "sector" if s["l1s"] else "line"
        unit2 = "sector" if s["l2s"] else "line"
        out.append(f"L1: {unit1} requests of loads; L2: {unit2} requests of every access. "
                   "Hit rates as hit% + pending-hit%; AS: Accel-Sim, T: warpscope timed, F: warpscope functional.")
        out.append("")
        line_cols = s["l1s"]
        hdr = ("| workload | kernel | cycles AS | cycles T | Δ | L1 AS | L1 T | L1 F |"
               + (" L1 line T | L1 line F |" if line_cols else "")
               + " L2 AS | L2 T | L2 F | L2 accesses AS / T | DRAM reads AS / T |")
        out.append(hdr)
        out.append("|" + "---|" * (hdr.count("|") - 1))
        for r in s["rows"]:
            a, t, f = r["a"], r["t"], r["f"]
            dc = (f"{100.0 * (t['cycles'] - a['cycles']) / a['cycles']:+.0f}%"
                  if t["cycles"] and a["cycles"] else "–")
            cells = [r["w"], f"{r['i']} {a['name'][:24]}", f"{a['cycles']:,}",
                     f"{t['cycles']:,}" if t["cycles"] is not None else "–", dc,
                     fmt_hp(a["l1"]), fmt_hp(t["l1"]), fmt_hp(f["l1"])]
            if line_cols:
                cells += [fmt_hp(t["l1_line"]), fmt_hp(f["l1_line"])]
            cells += [fmt_hp(a["l2"]), fmt_hp(t["l2"]), fmt_hp(f["l2"]),
                      f"{a['l2']['req']:,} / {t['l2']['req']:,}",
                      f"{a['dram_reads']:,} / {t['dram_reads']:,}"]
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
        out.append("Per workload (hit + pending, %; ✓ within 3 points of Accel-Sim):")
        out.append("")
        out.append("| workload | kernels | cycles MAPE | cycles AS / T (sum) | L1 AS | L1 T | L1 F | L2 AS | L2 T | L2 F |")
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for p in s["per_wl"]:
            ks = [r for r in s["rows"] if r["w"] == p["w"] and r["a"]["cycles"] and r["t"]["cycles"]]
            wm = (fnum(100.0 * sum(abs(r["t"]["cycles"] - r["a"]["cycles"]) / r["a"]["cycles"] for r in ks) / len(ks)) + "%"
                  if ks else "–")
            sums = (f"{sum(r['a']['cycles'] for r in ks):,} / {sum(r['t']['cycles'] for r in ks):,}" if ks else "–")
            def c(lvl, mode):
                v = fmt_rate(p[lvl][mode])
                return v + (" ✓" if p[lvl][mode + "_ok"] else "")
            out.append(f"| {p['w']} | {len(ks)} | {wm} | {sums} | {fmt_rate(p['l1']['as'])} | {c('l1', 'timed')} | {c('l1', 'func')} | "
                       f"{fmt_rate(p['l2']['as'])} | {c('l2', 'timed')} | {c('l2', 'func')} |")
        if s["skipped"]:
            out.append("")
            out.append("Skipped: " + "; ".join(f"{w} ({why})" for w, why in s["skipped"]) + ".")
    return "\n".join(out) + "\n"


COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]


def svg(sections, title):
    pts = [(r["a"]["cycles"], r["t"]["cycles"], i, r["w"], r["i"])
           for i, s in enumerate(sections) for r in s["rows"]
           if r["a"]["cycles"] and r["t"]["cycles"]]
    W, H, L, R, T, B = 640, 560, 80, 180, 40, 60
    pw, ph = W - L - R, H - T - B
    if pts:
        lo = min(min(p[0], p[1]) for p in pts)
        hi = max(max(p[0], p[1]) for p in pts)
    else:
        lo, hi = 1, 10
    lo = 10 ** math.floor(math.log10(max(lo, 1)))
    hi = 10 ** math.ceil(math.log10(max(hi, lo * 10)))
    span = math.log10(hi) - math.log10(lo)

    def px(v):
        return L + pw * (math.log10(v) - math.log10(lo)) / span

    def py(v):
        return T + ph - ph * (math.log10(v) - math.log10(lo)) / span

    e = []
    e.append(f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
             f'viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">')
    e.append(f'<title>{html.escape(title)}</title>')
    e.append(f'<rect x="0" y="0" width="{W}" height="{H}" fill="#fff"/>')
    e.append(f'<text x="{L + pw / 2}" y="22" text-anchor="middle" font-size="14">{html.escape(title)}</text>')
    e.append(f'<rect x="{L}" y="{T}" width="{pw}" height="{ph}" fill="none" stroke="#333"/>')
    d = lo
    while d <= hi * 1.0001:
        x, y = px(d), py(d)
        e.append(f'<line x1="{x:.1f}" y1="{T}" x2="{x:.1f}" y2="{T + ph}" stroke="#ddd"/>')
        e.append(f'<line x1="{L}" y1="{y:.1f}" x2="{L + pw}" y2="{y:.1f}" stroke="#ddd"/>')
        lab = f"1e{int(round(math.log10(d)))}"
        e.append(f'<text x="{x:.1f}" y="{T + ph + 16}" text-anchor="middle">{lab}</text>')
        e.append(f'<text x="{L - 6}" y="{y + 4:.1f}" text-anchor="end">{lab}</text>')
        d *= 10
    # y = x and the ±15 % band (the issue's MAPE target)
    e.append(f'<line x1="{px(lo):.1f}" y1="{py(lo):.1f}" x2="{px(hi):.1f}" y2="{py(hi):.1f}" '
             f'stroke="#000" stroke-width="1.2"/>')
    for (x0, y0, x1, y1) in ((lo, lo * 1.15, hi / 1.15, hi), (lo * 1.15, lo, hi, hi / 1.15)):
        e.append(f'<line x1="{px(x0):.1f}" y1="{py(y0):.1f}" x2="{px(x1):.1f}" y2="{py(y1):.1f}" '
                 f'stroke="#888" stroke-dasharray="4 3"/>')
    e.append(f'<text x="{L + pw / 2}" y="{H - 18}" text-anchor="middle">Accel-Sim cycles (gpu_sim_cycle, per kernel)</text>')
    e.append(f'<text transform="translate(20 {T + ph / 2}) rotate(-90)" text-anchor="middle">'
             f'warpscope --timed cycles (per kernel)</text>')
    for x, y, i, w, k in pts:
        c = COLORS[i % len(COLORS)]
        e.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3.5" fill="{c}" fill-opacity="0.75">'
                 f'<title>{html.escape(w)} kernel {k}: Accel-Sim {x}, warpscope {y}</title></circle>')
    ly = T + 10
    for i, s in enumerate(sections):
        c = COLORS[i % len(COLORS)]
        h = s["head"]
        e.append(f'<circle cx="{L + pw + 16}" cy="{ly}" r="4" fill="{c}"/>')
        e.append(f'<text x="{L + pw + 26}" y="{ly + 4}">{html.escape(s["preset"])}, {html.escape(s["order"])}</text>')
        e.append(f'<text x="{L + pw + 26}" y="{ly + 18}" font-size="10">MAPE {fnum(h["mape"])}%, r {fnum(h["r"], ".3f")}</text>')
        ly += 36
    e.append(f'<line x1="{L + pw + 10}" y1="{ly}" x2="{L + pw + 22}" y2="{ly}" stroke="#000"/>')
    e.append(f'<text x="{L + pw + 26}" y="{ly + 4}">y = x</text>')
    e.append(f'<line x1="{L + pw + 10}" y1="{ly + 16}" x2="{L + pw + 22}" y2="{ly + 16}" stroke="#888" stroke-dasharray="4 3"/>')
    e.append(f'<text x="{L + pw + 26}" y="{ly + 20}">±15%</text>')
    e.append("</svg>")
    return "\n".join(e) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs")
    ap.add_argument("--workloads", required=True)
    ap.add_argument("--presets", required=True)
    ap.add_argument("--orders", required=True)
    ap.add_argument("--mirrors", required=True, help="directory of PRESET.json mirrors")
    ap.add_argument("--out")
    ap.add_argument("--svg")
    ap.add_argument("--title", default="")
    ap.add_argument("--suffix", default="", help="run directories' suffix (-exported)")
    ap.add_argument("--json", help="also write the headline figures as JSON")
    a = ap.parse_args()
    workloads = [w for w in a.workloads.split(",") if w]
    sections = []
    for p in a.presets.split(","):
        with open(os.path.join(a.mirrors, p + ".json")) as f:
            mirror = json.load(f)
        for o in a.orders.split(","):
            rows, skipped, per_wl = evaluate(a.runs, workloads, p, o, mirror, a.suffix)
            sections.append({"preset": p, "order": o, "rows": rows, "skipped": skipped,
                             "per_wl": per_wl, "head": headline(rows, per_wl),
                             "l1s": bool(mirror["l1"].get("sector")),
                             "l2s": bool(mirror["l2"].get("sector"))})
    md = markdown(sections, a.title)
    if a.out:
        with open(a.out, "w") as f:
            f.write(md)
    else:
        sys.stdout.write(md)
    if a.svg:
        with open(a.svg, "w") as f:
            f.write(svg(sections, "warpscope --timed against Accel-Sim: cycles per kernel"))
    if a.json:
        with open(a.json, "w") as f:
            json.dump([{"preset": s["preset"], "order": s["order"], **s["head"],
                        "skipped": s["skipped"]} for s in sections], f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
