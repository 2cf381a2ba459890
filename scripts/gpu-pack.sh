#!/usr/bin/env bash
# scripts/gpu-pack.sh [--limit BYTES] traces|raw WORK OUT: packs the work
# folder of scripts/gpu-device-run.sh into OUT so that what comes back
# from the GPU machine stays within what a copy back takes (a few files,
# each under 16 MiB):
#   traces  the NVBit traces (every gpu.wst) into
#           OUT/nvbit-traces.tar.xz, and OUT/nvbit-traces-2.tar.xz past the
#           limit, smallest first; a trace that fits in neither is left out
#           and named on stdout;
#   raw     everything else (logs, ncu's CSV, diffs, replays, the emulator's
#           traces, timings) into OUT/raw.tar.xz; past the limit without the
#           emulator's traces and the replays' JSON, then without any file
#           over 1 MiB, saying so on stdout.
# --limit: the bytes of one archive (default 15 MiB, a margin under 16).
# xz, else python3's tarfile, else gzip (a .tar.gz then).  Run again, it
# replaces what it wrote before.
set -u
limit=$((15 * 1024 * 1024))
if [ "${1:-}" = --limit ]; then limit=$2; shift 2; fi
[ $# -eq 3 ] || { echo "usage: scripts/gpu-pack.sh [--limit BYTES] traces|raw WORK OUT" >&2; exit 2; }
what=$1 work=$2 out=$3
cd "$work" || exit 2
mkdir -p "$out" || exit 2

# pack DEST LIST: the files named in LIST (one a line, relative to WORK)
# into DEST (.tar.xz).
pack() {
    local dest=$1 list=$2
    rm -f "$dest" "${dest%.xz}.gz"
    if command -v xz >/dev/null; then
        tar -cf - -T "$list" | xz -T0 -6 >"$dest.tmp" && mv "$dest.tmp" "$dest"
    elif command -v python3 >/dev/null; then
        python3 -c 'import sys, tarfile
with tarfile.open(sys.argv[1], "w:xz") as t:
    for p in open(sys.argv[2]).read().splitlines(): t.add(p)' "$dest.tmp" "$list" && mv "$dest.tmp" "$dest"
    else
        tar -czf "$dest.tmp" -T "$list" && mv "$dest.tmp" "${dest%.xz}.gz"
    fi
}
size() { stat -c %s "$1" 2>/dev/null || echo 0; }

list=$(mktemp)
trap 'rm -f "$list" "$list".*' EXIT
case $what in
traces)
    # A .wst is zstd inside: xz hardly shrinks it, so its own size counts.
    rm -f "$out"/nvbit-traces*.tar.*
    : >"$list.1"
    : >"$list.2"
    n=1 total=0 dropped=""
    while read -r bytes f; do
        if [ $((total + bytes)) -gt "$limit" ] && [ $n -eq 1 ]; then n=2 total=0; fi
        if [ $((total + bytes)) -gt "$limit" ]; then dropped="$dropped $f"; continue; fi
        total=$((total + bytes))
        echo "$f" >>"$list.$n"
    done < <(find . -name gpu.wst -printf '%s %P\n' | sort -n)
    [ ! -s "$list.1" ] || pack "$out/nvbit-traces.tar.xz" "$list.1"
    [ ! -s "$list.2" ] || pack "$out/nvbit-traces-2.tar.xz" "$list.2"
    echo "traces: $(cat "$list.1" "$list.2" | wc -l) packed$([ -z "$dropped" ] || echo "; left out (over 2 x $limit bytes):$dropped")"
    ;;
raw)
    # The GPU's traces are in nvbit-traces*, other traces can be made again
    # but the emulator's of each run; temporary files are half-written.
    raw_files() { find . -type f ! -name '*.wst' ! -name '*.tmp*' "$@" -printf '%P\n' | sort; }
    { raw_files; find . -name emu.wst -printf '%P\n'; } >"$list"
    pack "$out/raw.tar.xz" "$list"
    if [ "$(size "$out/raw.tar.xz")" -gt "$limit" ]; then
        raw_files ! -name replay.json >"$list"
        pack "$out/raw.tar.xz" "$list"
        echo "raw: the emulator's traces and the replays' JSON left out (over $limit bytes)"
    fi
    if [ "$(size "$out/raw.tar.xz")" -gt "$limit" ]; then
        raw_files ! -name replay.json -size -1M >"$list"
        pack "$out/raw.tar.xz" "$list"
        echo "raw: files over 1 MiB left out too"
    fi
    echo "raw: $(wc -l <"$list") files, $(size "$out/raw.tar.xz") bytes"
    ;;
*) echo "gpu-pack: traces or raw, not '$what'" >&2; exit 2 ;;
esac
