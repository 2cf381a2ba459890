#!/usr/bin/env bash
# scripts/deps.sh: check (and with --install, install) warpscope's build and
# test dependencies, all Debian packages.
#   scripts/deps.sh            check only; prints the exact apt-get line if
#                              anything is missing and exits 1
#   scripts/deps.sh --install  installs what is missing (and Open MPI, which
#                              the check alone does not require) when run as
#                              root or with passwordless sudo, else behaves
#                              as above
set -u

missing=()
have_pc()     { pkg-config --exists "$1" 2>/dev/null; }
have_header() { [ -f "/usr/include/$1" ] || [ -f "/usr/local/include/$1" ]; }

command -v cc >/dev/null 2>&1 || missing+=(gcc)
command -v make >/dev/null 2>&1 || missing+=(make)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
have_pc libzstd  || missing+=(libzstd-dev)
have_pc jansson  || missing+=(libjansson-dev)
have_header csv.h || missing+=(libcsv-dev)      # libcsv ships no .pc file
have_pc criterion || missing+=(libcriterion-dev)
command -v zstd >/dev/null 2>&1 || missing+=(zstd)  # the benchmark's floor
command -v xz >/dev/null 2>&1 || missing+=(xz-utils) # .traceg.xz import
# The Python package's tests (make check-python) use Debian's python3.
# find_spec locates a module without importing it (importing pandas takes
# seconds, and every `make` runs this check).
for module in numpy pandas pytest; do
    /usr/bin/python3 -c "import importlib.util, sys; sys.exit(not importlib.util.find_spec('$module'))" \
        >/dev/null 2>&1 || missing+=("python3-$module")
done

# MPI (docs/analysis.md "Ranks") is optional: without it warpscope builds
# and runs on one rank.  --install adds it, so that `make test` runs the
# many-rank checks (scripts/mpi-check.sh).
if [ "${1:-}" = "--install" ]; then
    command -v mpicc >/dev/null 2>&1 || missing+=(libopenmpi-dev)
    command -v mpirun >/dev/null 2>&1 || missing+=(openmpi-bin)
fi

[ ${#missing[@]} -eq 0 ] && exit 0

line="apt-get install -y ${missing[*]}"
if [ "${1:-}" = "--install" ]; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            sudo="sudo -n"
        fi
    fi
    if [ "$(id -u)" -eq 0 ] || [ -n "$sudo" ]; then
        echo "warpscope: installing missing packages: ${missing[*]}" >&2
        export DEBIAN_FRONTEND=noninteractive
        if $sudo apt-get update -qq >&2 && $sudo apt-get install -y -qq "${missing[@]}" >&2; then
            exit 0
        fi
        echo "warpscope: installing failed; run: $line" >&2
        exit 1
    fi
fi
echo "warpscope: missing packages: ${missing[*]}" >&2
echo "warpscope: install them with: sudo $line" >&2
exit 1
