#!/usr/bin/env bash
# scripts/reproduce-poise.sh [BIN] [SIZE] [OUT]: S3 chapter 5 (warp-tuple
# throttling and Poise) on the emulated workloads of S3's evaluation set
# that the suite ports, for docs/reproduction.md.  On the poise preset
# (S3 Table 5.1: 32 SMs, 48 warps and 2 schedulers per SM, 16 KB L1s), per
# workload and mode (functional, and the timed replay, docs/metrics.md §12):
# the whole (N, p) grid (`sweep`), and CCWS replayed on its own.  The
# schemes are read off the grid: functional, by L1 hit rate (GTO = (24,
# 24); SWL = the best N = p; PCAL-SWL = the best p at SWL's N; Static-Best
# = the grid's best; Poise = S3 Table 5.3's prediction after its local
# search); timed, the same by cycles (S3's objective, IPC), with the
# speedups over GTO (S3 §5.7.5 reports harmonic means).  MODES="functional
# timed" by default (set it to run one), WORKLOADS="..." a subset.  Needs python3 for the tables.
set -euo pipefail
bin=$(realpath "${1:-build/rel/warpscope}") size=${2:-medium} out=${3:-$(mktemp -d)}
modes=${MODES:-functional timed}
mkdir -p "$out"
workloads=${WORKLOADS:-"syr2k syrk gemm gesummv mvt bicg atax bfs kmeans"}
for mode in $modes; do
    extra=(); [ "$mode" = timed ] && extra=(--timed)
    start=$(date +%s)
    for w in $workloads; do
        [ -f "$out/$w.wst" ] || "$bin" record --workload "$w" --size "$size" -o "$out/$w.wst" >/dev/null
        [ -f "$out/$w.$mode.sweep.json" ] ||
            "$bin" sweep "$out/$w.wst" --gpu poise "${extra[@]}" --quiet -o "$out/$w.$mode.sweep.json" >/dev/null
        [ -f "$out/$w.$mode.ccws.json" ] ||
            "$bin" replay "$out/$w.wst" --gpu poise --schedule rr,ccws "${extra[@]}" --quiet \
                -o "$out/$w.$mode.ccws.json" >/dev/null
    done
    echo "$mode: $(( $(date +%s) - start )) s wall" >&2
done
python3 - "$out" "$modes" $workloads <<'PY'
import json, sys
out, modes, workloads = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
# S3 §5.7.5: average L1 hit rates over the evaluation set; Fig. 5.9's
# harmonic-mean speedups over GTO.
s3 = {"GTO": 20.6, "SWL": 37.7, "PCAL-SWL": 27.1, "CCWS": None, "Poise": 40.1, "Static-Best": 43.6}
s3_speedup = {"GTO": 1.0, "SWL": 1.218, "PCAL-SWL": 1.315, "CCWS": None, "Poise": 1.466,
              "Static-Best": 1.528}
# S3 Table 5.4's abbreviations.
names = {"syr2k": "syr2k", "syrk": "syrk", "gemm": "mm", "gesummv": "gsmv", "mvt": "mvt",
         "bicg": "bicg", "atax": "atax", "bfs": "bfs", "kmeans": "kmeans"}
hit = lambda p: p["l1_hit_rate"] or 0.0
mean = lambda xs: sum(xs) / len(xs)
hmean = lambda xs: len(xs) / sum(1 / x for x in xs)
for mode in modes:
    timed = mode == "timed"
    # the objective: hit rate (functional), fewer cycles (timed, S3's IPC)
    key = (lambda p: -p["cycles"]) if timed else hit
    obj = "cycles" if timed else "hit_rate"
    rows, rates, traffic, speed = [], {k: [] for k in s3}, {k: [] for k in s3}, {k: [] for k in s3}
    for w in workloads:
        doc = json.load(open(f"{out}/{w}.{mode}.sweep.json"))
        pts = {(p["n"], p["p"]): p for p in doc["points"]}
        n_max = doc["n_max"]
        base = pts[(n_max, n_max)]
        swl = max((pts[(n, n)] for n in range(1, n_max + 1)), key=lambda p: (key(p), p["n"]))
        pcal = max((pts[(swl["n"], p)] for p in range(1, swl["n"] + 1)), key=lambda p: (key(p), p["p"]))
        best = doc["best"][obj]
        pred, poise = doc["poise"]["predicted"], doc["poise"]["searched"][obj]
        ccws_doc = json.load(open(f"{out}/{w}.{mode}.ccws.json"))
        ccws, ccws_cycles = ccws_doc["summary"], ccws_doc.get("timed", {}).get("cycles")
        schemes = {"GTO": base, "SWL": swl, "PCAL-SWL": pcal, "Poise": poise, "Static-Best": best}
        for k, p in schemes.items():
            rates[k].append(100 * hit(p))
            traffic[k].append(p["l1_to_l2_bytes"] / max(base["l1_to_l2_bytes"], 1))
            if timed:
                speed[k].append(base["cycles"] / p["cycles"])
        rates["CCWS"].append(100 * (ccws["l1"]["hit_rate"] or 0))
        traffic["CCWS"].append(ccws["traffic"]["l1_to_l2_bytes"] / max(base["l1_to_l2_bytes"], 1))
        if timed:
            speed["CCWS"].append(base["cycles"] / ccws_cycles)
        dist = abs(pred["n"] - best["n"]) + abs(pred["p"] - best["p"])
        sp = (lambda p: f" {base['cycles'] / p['cycles']:.2f}x") if timed else (lambda p: "")
        ccws_sp = f" {base['cycles'] / ccws_cycles:.2f}x" if timed else ""
        rows.append(f"| {w} ({names[w]}) | {100 * hit(base):.1f}% | ({best['n']}, {best['p']}) {100 * hit(best):.1f}%{sp(best)} "
                    f"| ({swl['n']}, {swl['n']}) {100 * hit(swl):.1f}%{sp(swl)} | ({pcal['n']}, {pcal['p']}) {100 * hit(pcal):.1f}%{sp(pcal)} "
                    f"| {100 * (ccws['l1']['hit_rate'] or 0):.1f}%{ccws_sp} | ({pred['n']}, {pred['p']}) {100 * hit(pred):.1f}%{sp(pred)} "
                    f"| ({poise['n']}, {poise['p']}) {100 * hit(poise):.1f}%{sp(poise)} | {dist} |")
    print(f"\n#### {mode} replay (schemes chosen by {'cycles' if timed else 'L1 hit rate'})\n")
    print("| workload (S3) | GTO (24, 24) | Static-Best | SWL | PCAL-SWL | CCWS | Poise predicted | Poise searched | prediction to best (N + p steps) |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print("\n| scheme | S3 L1 hit rate | L1 hit rate (mean) | L1→L2 bytes vs GTO (mean) |"
          + (" S3 speedup (hmean) | speedup (hmean) |" if timed else ""))
    print("|---|---|---|---|" + ("---|---|" if timed else ""))
    for k in ["GTO", "SWL", "PCAL-SWL", "CCWS", "Poise", "Static-Best"]:
        line = f"| {k} | {'—' if s3[k] is None else f'{s3[k]:.1f}%'} | {mean(rates[k]):.1f}% | {mean(traffic[k]):.3f}x |"
        if timed:
            line += f" {'—' if s3_speedup[k] is None else f'{s3_speedup[k]:.3f}x'} | {hmean(speed[k]):.3f}x |"
        print(line)
PY
echo "CPU time (user, system) of this script and its children:" >&2; times >&2
