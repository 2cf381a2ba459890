#!/usr/bin/env bash
# scripts/gpu-kit.sh NVBIT_PATH: builds .gpu/, everything a machine with an
# NVIDIA GPU and no network needs beside a copy of this checkout to run
# scripts/gpu-device-run.sh (docs/nvbit.md, "On a lent GPU machine").  Such
# a machine may have no compiler for C, no -dev packages and another C
# library, so what is built here travels built:
#   bin/        warpscope (static where the C library's archive is here),
#               its MPI twin warpscope-ranks, the NVBit tool
#               warpscope-nvbit.so (NVBIT_ARCH, default sm_90: Hopper), jq
#   lib/        the shared libraries the tool and jq need beyond a base
#               system (libjansson, libcsv, libjq, libonig)
#   lib-sys/    those a base system has (libzstd, liblzma, libstdc++), used
#               there only where it lacks them
#   cuda.tar.xz build/cuda/: every workload's CUDA program (make cuda-workloads)
#   fallback/   NVBit's core/ and warpscope's -fPIC objects, to relink the
#               tool there with its nvcc if the one built here does not load
#               (scripts/gpu-rebuild.sh)
#   mpi/        this machine's Open MPI packages and GNU time, for the
#               many-rank step where the machine has no mpirun (Debian only)
#   MANIFEST.txt  what was built, from which commit, with which tools
# It runs make here first (the release build, `make nvbit` and `make
# cuda-workloads`: build/, as a developer would), so a clean checkout needs
# only this command.  NVBit's release is copied into .gpu/ only; .gpu/ is
# ignored by git and is never committed.
#   JOBS=N       make's jobs (default: the cores)
#   NVBIT_ARCH   the tool's GPU architectures (default sm_90)
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "gpu-kit: $*" >&2; exit 2; }
case "${1:-}" in
-h | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
"") die "needs NVBIT_PATH, an NVBit release (the folder holding core/libnvbit.a; docs/nvbit.md): scripts/gpu-kit.sh NVBIT_PATH" ;;
esac
nvbit=$(cd "$1" 2>/dev/null && pwd) || die "$1: no such folder"
[ "$(head -c 7 "$nvbit/core/libnvbit.a" 2>/dev/null)" = '!<arch>' ] ||
    die "$nvbit/core/libnvbit.a: missing or not an ar archive (NVBIT_PATH is the folder holding core/)"
for t in make xz tar readelf strip ldd; do command -v $t >/dev/null || die "needs $t"; done
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
jobs=${JOBS:-$(nproc)}
arch=${NVBIT_ARCH:-sm_90}

say() { echo "gpu-kit: $*"; }
say "building (make -j$jobs; nvbit NVBIT_ARCH=$arch; cuda-workloads)"
make -j"$jobs" --no-print-directory
make -j"$jobs" --no-print-directory nvbit NVBIT_PATH="$nvbit" NVBIT_ARCH="$arch"
make -j"$jobs" --no-print-directory cuda-workloads

new=.gpu.new
rm -rf "$new"
mkdir -p "$new"/bin "$new"/lib "$new"/lib-sys "$new"/fallback "$new"/mpi
trap 'rm -rf "$new"' EXIT

# ---- binaries --------------------------------------------------------------
strip -o "$new/bin/warpscope" build/rel/warpscope
static=yes
if readelf -l build/rel/warpscope | grep -q INTERP; then
    static=no
    say "warning: build/rel/warpscope is dynamic (no static C library here, libc6-dev): it needs a C library as new as this machine's there"
fi
[ ! -x build/rel/warpscope-ranks ] || strip -o "$new/bin/warpscope-ranks" build/rel/warpscope-ranks
cp build/rel/warpscope-nvbit.so "$new/bin/"
jq=$(command -v jq || true)
if [ -n "$jq" ]; then
    cp "$jq" "$new/bin/jq"
else
    say "no jq here: the GPU machine's jq, else its python3, reads the replays"
fi

# The shared libraries of the carried programs, but the C library's own and
# the CUDA driver (the GPU machine's).  A base system's go to lib-sys/.
find "$new/bin" -type f ! -name warpscope -exec ldd {} + 2>/dev/null |
    awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | sort -u |
    while read -r name path; do
        case $name in
        libc.so.* | libm.so.* | libpthread.so.* | libdl.so.* | librt.so.* | libresolv.so.* | ld-linux*) ;;
        libcuda.so.*) ;;
        libzstd.so.* | liblzma.so.* | libz.so.* | libstdc++.so.* | libgcc_s.so.*) cp -L "$path" "$new/lib-sys/$name" ;;
        *) cp -L "$path" "$new/lib/$name" ;;
        esac
    done

# ---- the CUDA programs, and what rebuilds the tool there -------------------
programs=$(find build/cuda -maxdepth 1 -type f -perm -u+x | wc -l)
sources=$(find collectors/workloads/cuda -name '*.cu' | wc -l)
[ "$programs" -eq "$sources" ] || die "build/cuda has $programs programs for $sources sources"
tar -C build -cf - cuda | xz -T0 -6 >"$new/cuda.tar.xz"
(cd "$nvbit" && find core EULA.txt -maxdepth 0 2>/dev/null) >"$new/core.list"
tar -C "$nvbit" -cf - -T "$new/core.list" | xz -T0 -6 >"$new/fallback/nvbit-core.tar.xz"
rm "$new/core.list"
# The objects of sources that still exist (build/pic may hold stale ones).
(cd build && find pic -name '*.o' | sort | while read -r o; do
    src=${o#pic/}
    [ ! -e "../${src%.o}.c" ] || echo "$o"
done) >"$new/pic.list"
tar -C build -cf - -T "$new/pic.list" | xz -T0 -6 >"$new/fallback/pic.tar.xz"
rm "$new/pic.list"

# ---- Open MPI and GNU time, as this machine's packages -------------------
mpi="none"
if command -v dpkg-query >/dev/null && [ -e build/rel/warpscope-ranks ]; then
    pkgs=$(dpkg-query -W -f='${binary:Package} ${db:Status-Abbrev}\n' openmpi-bin openmpi-common 'libopenmpi[0-9]*' \
        'libpmix[0-9]*' 'libhwloc[0-9]*' 'libevent-core-*' 'libevent-pthreads-*' 'libmunge[0-9]*' 2>/dev/null |
        awk '$2 == "ii" { sub(/:.*/, "", $1); print $1 }' | sort -u)
    if grep -qx openmpi-bin <<<"$pkgs"; then
        # shellcheck disable=SC2086 # package names
        dpkg -L $pkgs | grep -v -E '^/usr/share/(doc|man|lintian)/' | while read -r f; do
            [ -d "$f" ] && [ ! -L "$f" ] || echo "${f#/}"
        done | sort -u >"$new/mpi.list"
        # The link the twin opens (Makefile: WS_LIBMPI), from libopenmpi-dev.
        libmpi=$(mpicc --showme:libdirs 2>/dev/null | awk '{ print $1 }')/libmpi.so
        [ ! -e "$libmpi" ] || echo "${libmpi#/}" >>"$new/mpi.list"
        tar -C / -cf - -T "$new/mpi.list" | xz -T0 -6 >"$new/mpi/openmpi.tar.xz"
        rm "$new/mpi.list"
        mpi="$(mpirun --version 2>/dev/null | head -1) ($(paste -sd, <<<"$pkgs"))"
    fi
    [ ! -x /usr/bin/time ] || cp /usr/bin/time "$new/mpi/time"
fi
[ "$mpi" != none ] || say "no Open MPI packages here (Debian's openmpi-bin): the many-rank step needs the GPU machine's own mpirun"

# ---- the manifest ----------------------------------------------------------
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
modified=$(git status --porcelain --untracked-files=no 2>/dev/null | wc -l)
{
    echo "warpscope GPU kit: $commit$([ "$modified" -eq 0 ] || echo " with $modified modified tracked files"), built $(date -u '+%Y-%m-%d %H:%M UTC')"
    # shellcheck disable=SC1091 # the machine's own
    echo "machine: $(. /etc/os-release 2>/dev/null; echo "${PRETTY_NAME:-?}"), $(getconf GNU_LIBC_VERSION 2>/dev/null), $(cc --version | head -1), nvcc $("$nvcc" --version 2>/dev/null | tail -1)"
    echo "warpscope: $("$new/bin/warpscope" --version | head -1), static: $static, $(cat build/rel/mode 2>/dev/null)"
    echo "NVBit tool: NVBit $(sed -n 's/^#define NVBIT_VERSION "\(.*\)"/\1/p' "$nvbit/core/nvbit.h"), NVBIT_ARCH=$arch"
    echo "CUDA programs: $programs (make cuda-workloads)"
    echo "jq: ${jq:-none}; Open MPI: $mpi"
    echo
    (cd "$new" && find . -type f ! -name MANIFEST.txt -printf '%10s %P\n' | sort -k2)
} >"$new/MANIFEST.txt"

size=$(du -sb "$new" | awk '{ print $1 }')
[ "$size" -le $((64 * 1024 * 1024)) ] || say "warning: $((size / 1048576)) MiB, over the 64 MiB a copy may carry"
rm -rf .gpu
mv "$new" .gpu
trap - EXIT
say "$(head -1 .gpu/MANIFEST.txt); .gpu/ holds $((size / 1024)) KiB in $(find .gpu -type f | wc -l) files"
say "on the GPU machine, from the copy's root: bash scripts/gpu-device-run.sh (docs/nvbit.md)"
