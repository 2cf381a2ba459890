#!/usr/bin/env bash
# scripts/timed-validate.sh ACCELSIM_DIR [WARPSCOPE_BIN] [options]: sets
# warpscope's timed replay (docs/metrics.md §12) beside Accel-Sim, kernel by
# kernel, on the embedded workloads (docs/validation.md, "Timed replay
# against Accel-Sim").
#
# For each workload: `warpscope record`, `warpscope export accelsim`; for each
# preset and warp order: Accel-Sim's trace-driven simulator with the preset's
# mirror (scripts/accelsim-mirror/PRESET.config over Accel-Sim's tested
# SM7_QV100 config), `warpscope replay --timed` and the functional replay
# with scripts/accelsim-mirror/PRESET.json.  Then scripts/timed-validate.py
# writes a Markdown report (per-kernel cycles, hit rates, L2 accesses, DRAM
# reads; cycles MAPE and Pearson r; workloads whose hit rates are within 3
# points, timed and functional) and an SVG scatter plot of cycles.
#
# ACCELSIM_DIR is an accel-sim-framework checkout whose gpu-simulator is built
# (gpu-simulator/bin/release/accel-sim.out, GPGPU-Sim in gpu-simulator/gpgpu-sim).
# Nothing of Accel-Sim is kept in this repository.
#
# Options (anywhere on the line):
#   --size small|medium   workload size (default small)
#   --only LIST           comma-separated workloads (default: all of
#                         `warpscope workloads --names`)
#   --presets LIST        mirrors in scripts/accelsim-mirror/ (default fermi,volta)
#   --orders LIST         warp orders, gto and/or lrr (default gto,lrr)
#   --out FILE.md         the report (default: standard output); the plot goes
#                         to FILE.svg beside it (--svg to choose)
#   --svg FILE.svg        the scatter plot (default: none without --out)
#   --keep DIR            keep every run's output in DIR/W/PRESET-ORDER/ and
#                         reuse finished runs: a rerun with the same DIR resumes
#   --retry-failed        with --keep, run again the Accel-Sim runs that failed
#                         or timed out (default: report them as before)
#   --rerun-warpscope     with --keep, replay warpscope again on every finished
#                         run and keep Accel-Sim's output (a new warpscope
#                         against the same Accel-Sim runs)
#   --jobs N              Accel-Sim runs at once (default 1)
#   --deps blocking|exported
#                         the registers Accel-Sim sees (default blocking):
#                         `blocking` rewrites the exported traces so that every
#                         load writes R0 and every store and EXIT reads it, so a
#                         warp's instruction waits for all its loads in flight,
#                         as warpscope's timed replay assumes of a trace that
#                         carries no dependencies (docs/metrics.md §12);
#                         `exported` runs `export accelsim`'s registers as they
#                         are (each load its own register, nothing reads them:
#                         loads never wait)
# Environment: ACCELSIM_TIMEOUT (seconds per Accel-Sim run, default 1800).
# Exit status: 0 when every run finished, 1 when some were skipped, 2 on a
# usage or setup error.
set -euo pipefail

die() { echo "timed-validate: $*" >&2; exit 2; }
note() { echo "timed-validate: $*" >&2; }

repo=$(cd "$(dirname "$0")/.." && pwd)
size=small only="" presets=fermi,volta orders=gto,lrr out="" svg="" keep="" retry=0 rerun_ws=0 jobs=1 deps=blocking
pos=()
while [ $# -gt 0 ]; do
    case "$1" in
    --size) [ $# -ge 2 ] || die "--size needs small or medium"; size=$2; shift 2 ;;
    --only) [ $# -ge 2 ] || die "--only needs a list"; only=$2; shift 2 ;;
    --presets) [ $# -ge 2 ] || die "--presets needs a list"; presets=$2; shift 2 ;;
    --orders) [ $# -ge 2 ] || die "--orders needs a list"; orders=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || die "--out needs a file"; out=$2; shift 2 ;;
    --svg) [ $# -ge 2 ] || die "--svg needs a file"; svg=$2; shift 2 ;;
    --keep) [ $# -ge 2 ] || die "--keep needs a directory"; keep=$2; shift 2 ;;
    --retry-failed) retry=1; shift ;;
    --rerun-warpscope) rerun_ws=1; shift ;;
    --deps) [ $# -ge 2 ] || die "--deps needs blocking or exported"; deps=$2; shift 2 ;;
    --jobs) [ $# -ge 2 ] || die "--jobs needs a number"; jobs=$2; shift 2 ;;
    -h | --help) sed -n '2,49p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option $1" ;;
    *) pos+=("$1"); shift ;;
    esac
done
[ ${#pos[@]} -ge 1 ] && [ ${#pos[@]} -le 2 ] ||
    die "usage: scripts/timed-validate.sh ACCELSIM_DIR [WARPSCOPE_BIN] [--size S] [--only LIST] [--presets LIST] [--orders LIST] [--out FILE.md] [--keep DIR]"
case "$size" in small | medium) ;; *) die "--size must be small or medium" ;; esac
case "$deps" in blocking) sfx="" ;; exported) sfx=-exported ;; *) die "--deps must be blocking or exported" ;; esac
case "$jobs" in '' | *[!0-9]* | 0) die "--jobs needs a positive number" ;; esac
asdir=$(cd "${pos[0]}" 2>/dev/null && pwd) || die "ACCELSIM_DIR ${pos[0]}: no such directory"
ws=${pos[1]:-$repo/build/rel/warpscope}
[ -x "$ws" ] || die "warpscope binary $ws not found or not executable (make build/rel/warpscope)"
ws=$(cd "$(dirname "$ws")" && pwd)/$(basename "$ws")
command -v python3 >/dev/null || die "python3 not installed"
timeout_s=${ACCELSIM_TIMEOUT:-1800}
[ -n "$svg" ] || { [ -z "$out" ] || svg=${out%.md}.svg; }

sim=$asdir/gpu-simulator/bin/release/accel-sim.out
[ -x "$sim" ] || die "$sim not found: build Accel-Sim's gpu-simulator in release mode first"
mirrors=$repo/scripts/accelsim-mirror
IFS=, read -r -a preset_list <<<"$presets"
IFS=, read -r -a order_list <<<"$orders"
for p in "${preset_list[@]}"; do
    [ -f "$mirrors/$p.json" ] && [ -f "$mirrors/$p.config" ] || die "no mirror for preset '$p' ($mirrors/$p.json and .config)"
done
for o in "${order_list[@]}"; do
    case "$o" in gto | lrr) ;; *) die "order '$o': gto or lrr (the orders both tools have)" ;; esac
done
all=$("$ws" workloads --names | tr '\n' ',' | sed 's/,$//')
[ -n "$only" ] || only=$all
IFS=, read -r -a names <<<"$only"
for w in "${names[@]}"; do
    case ",$all," in *",$w,"*) ;; *) die "unknown workload '$w' (warpscope workloads --names)" ;; esac
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/timed-validate.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if [ -n "$keep" ]; then mkdir -p "$keep" || die "cannot create $keep"; runs=$(cd "$keep" && pwd); else runs=$tmp/runs; mkdir -p "$runs"; fi

# One Accel-Sim run plus warpscope's two replays of workload $1 on preset $2
# under order $3, into $runs/$1/$2-$3$sfx/; its status file says "ok" or why not.
run_one() {
    local w=$1 p=$2 o=$3 d=$runs/$1/$2-$3$sfx rc=0 why start
    mkdir -p "$d"
    if [ -f "$d/status" ] && { [ "$(cat "$d/status")" = ok ] || [ "$retry" -eq 0 ]; } &&
        [ -f "$d/timed.json" ] && [ -f "$d/func.json" ]; then
        [ "$rerun_ws" -eq 1 ] && [ "$(cat "$d/status")" = ok ] && { replay_warpscope "$w" "$p" "$o" "$d" || true; }
        return 0
    fi
    # Another instance of this script on the same --keep directory may be
    # on this run: leave it to that one (a run killed midway leaves its lock
    # behind: remove DIR/W/PRESET-ORDER/.lock).
    mkdir "$d/.lock" 2>/dev/null || { note "$w $p $o: locked by another run, left to it"; return 0; }
    run_locked "$@"
    rmdir "$d/.lock"
}

# warpscope's two replays of workload $1 on preset $2 under order $3 into
# run directory $4 (fractions of a second): the same mirror, the same order.
# On failure the status file says why and it returns 1.
replay_warpscope() {
    local w=$1 p=$2 o=$3 d=$4
    if ! "$ws" replay "$runs/$w/$w.wst" --gpu "$mirrors/$p.json" --cache-op ignore --schedule "rr,$o" \
        --timed --quiet --threads 1 -o "$d/timed.json" >/dev/null 2>"$d/ws-timed.err"; then
        echo "warpscope --timed failed: $(tail -1 "$d/ws-timed.err" | tr '|`' "/'")" >"$d/status"; return 1
    fi
    if ! "$ws" replay "$runs/$w/$w.wst" --gpu "$mirrors/$p.json" --cache-op ignore --schedule "rr,$o" \
        --quiet --threads 1 -o "$d/func.json" >/dev/null 2>"$d/ws-func.err"; then
        echo "warpscope replay failed: $(tail -1 "$d/ws-func.err" | tr '|`' "/'")" >"$d/status"; return 1
    fi
}

run_locked() {
    local w=$1 p=$2 o=$3 d=$runs/$1/$2-$3$sfx rc=0 why start
    rm -f "$d/status"
    replay_warpscope "$w" "$p" "$o" "$d" || return 0
    printf -- '-gpgpu_scheduler %s\n' "$o" >"$d/order.config"
    cp "$mirrors/common.config" "$mirrors/$p.config" "$d/"
    start=$SECONDS
    "$repo/scripts/accelsim-run.sh" "$asdir" "$runs/$w/export$sfx/kernelslist.g" "$d" "$p" "$d" \
        "$timeout_s" || rc=$?
    if [ "$rc" -eq 0 ]; then
        echo ok >"$d/status"
        note "$w $p $o: Accel-Sim done in $((SECONDS - start))s"
    else
        why=$(grep -E 'Assertion|ERROR|Error|error|Segmentation|Aborted|terminate called|what\(\)|deadlock' "$d/accelsim.out" | tail -1 | cut -c1-140)
        [ -n "$why" ] || why=$(grep -v '^\s*$' "$d/accelsim.out" | tail -1 | cut -c1-140)
        case "$rc" in
        124) why="timed out after ${timeout_s}s" ;;
        134) why="aborted: $why" ;;
        139) why="segmentation fault: $why" ;;
        *) why="exit $rc: $why" ;;
        esac
        # Keep only the head and tail of a failed run's output (a hung run can
        # print gigabytes of progress lines).
        { head -c 200000 "$d/accelsim.out"; echo '[...]'; tail -c 200000 "$d/accelsim.out"; } >"$d/accelsim.tmp" 2>/dev/null &&
            mv "$d/accelsim.tmp" "$d/accelsim.out"
        echo "Accel-Sim ${why//[|\`]/\'}" >"$d/status"
        note "$w $p $o: $(cat "$d/status")"
    fi
}

for w in "${names[@]}"; do
    mkdir -p "$runs/$w"
    if [ ! -f "$runs/$w/export/kernelslist.g" ]; then
        "$ws" record --workload "$w" --size "$size" --quiet -o "$runs/$w/$w.wst" >/dev/null 2>"$runs/$w/ws.err" ||
            die "warpscope record --workload $w failed: $(tail -1 "$runs/$w/ws.err")"
        rm -rf "$runs/$w/export" "$runs/$w/export-exported" "$runs/$w/export.tmp"
        "$ws" export accelsim "$runs/$w/$w.wst" -o "$runs/$w/export.tmp" >/dev/null 2>"$runs/$w/ws.err" ||
            die "warpscope export accelsim of $w failed: $(tail -1 "$runs/$w/ws.err")"
        mv "$runs/$w/export.tmp" "$runs/$w/export-exported"
        # The blocking variant: each load's destination becomes R0 and each
        # instruction without registers (stores, EXIT) reads R0, so
        # Accel-Sim's scoreboard holds a warp until its loads are back.
        mkdir -p "$runs/$w/export.tmp"
        for f in "$runs/$w/export-exported"/*; do
            case "$f" in
            *.traceg) sed -E -e 's/^([0-9]+ [0-9a-f]+ [0-9a-f]+) 1 R[0-9]+ /\1 1 R0 /' \
                -e 's/^([0-9]+ [0-9a-f]+ [0-9a-f]+ 0 [A-Z][A-Z0-9.]*) 0 /\1 1 R0 /' "$f" >"$runs/$w/export.tmp/${f##*/}" ;;
            *) cp "$f" "$runs/$w/export.tmp/" ;;
            esac
        done
        mv "$runs/$w/export.tmp" "$runs/$w/export"
        echo "$size" >"$runs/$w/size"
    elif [ "$(cat "$runs/$w/size" 2>/dev/null)" != "$size" ]; then
        die "$runs/$w holds another size's trace; use another --keep directory"
    fi
done

running=0
for w in "${names[@]}"; do
    for p in "${preset_list[@]}"; do
        for o in "${order_list[@]}"; do
            if [ "$jobs" -le 1 ]; then
                run_one "$w" "$p" "$o"
            else
                if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
                run_one "$w" "$p" "$o" &
                running=$((running + 1))
            fi
        done
    done
done
wait

# The commit the binary was built from, as far as its checkout tells.
commit=$(git -C "$(dirname "$ws")" rev-parse --short HEAD 2>/dev/null || echo unknown)
wsver=$("$ws" --version 2>/dev/null | head -1)
args=(--workloads "$only" --presets "$presets" --orders "$orders" --mirrors "$mirrors"
    --title "Registers: $deps. Measured with $wsver ($ws, built in a checkout at $commit), --size $size; Accel-Sim $(git -C "$asdir" rev-parse --short HEAD 2>/dev/null || echo '?') with GPGPU-Sim $(git -C "$asdir/gpu-simulator/gpgpu-sim" rev-parse --short HEAD 2>/dev/null || echo '?')."
    --suffix="$sfx" --json "$runs/summary$sfx.json")
[ -z "$out" ] || args+=(--out "$out")
[ -z "$svg" ] || args+=(--svg "$svg")
python3 "$repo/scripts/timed-validate.py" "$runs" "${args[@]}"

# The plot in headless Chromium, as scripts/browser-test.sh checks the HTML
# reports: it must render, with no console message (a rejected SVG attribute).
if [ -n "$svg" ]; then
    browser=""
    for b in chromium chromium-browser google-chrome google-chrome-stable; do
        command -v "$b" >/dev/null 2>&1 && { browser=$(command -v "$b"); break; }
    done
    if [ -z "$browser" ]; then
        note "plot not checked: chromium not installed"
    else
        svgabs=$(cd "$(dirname "$svg")" && pwd)/$(basename "$svg")
        # --no-sandbox: the sandbox refuses to start as root; the page is our own file.
        timeout 120 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$tmp/chromium" \
            --window-size=700,600 --hide-scrollbars --enable-logging=stderr --v=0 \
            --screenshot="$tmp/plot.png" "file://$svgabs" >"$tmp/chromium.log" 2>&1 || true
        size=$(stat -c %s "$tmp/plot.png" 2>/dev/null || echo 0)
        if [ "$size" -lt 5000 ]; then
            note "plot check FAILED: Chromium drew no picture of $svg"; exit 1
        elif grep -q ':CONSOLE' "$tmp/chromium.log"; then
            note "plot check FAILED: console messages:"; grep ':CONSOLE' "$tmp/chromium.log" >&2; exit 1
        fi
        note "plot $svg renders in Chromium ($size-byte PNG), no console messages"
    fi
fi

skipped=0
for w in "${names[@]}"; do for p in "${preset_list[@]}"; do for o in "${order_list[@]}"; do
    [ "$(cat "$runs/$w/$p-$o$sfx/status" 2>/dev/null)" = ok ] || skipped=$((skipped + 1))
done; done; done
[ "$skipped" -eq 0 ] || { note "$skipped runs skipped (see the report)"; exit 1; }
