#!/usr/bin/env bash
# scripts/readme-examples.sh: runs the README's examples as written.
#   scripts/readme-examples.sh path/to/warpscope [README.md]
#
# Every line of a ```sh block that starts with `warpscope ` (a trailing
# backslash joins the next line) runs in order, in one empty temporary
# directory, with `warpscope` on PATH being the binary given: each example
# reads only what an example before it wrote.  Skipped: the examples that
# need a GPU (a program run under NVBit, `record -o FILE -- PROGRAM`, and
# the traces it writes, gpu.wst).  `diff` may exit 1 (the traces differ);
# every other example must exit 0.  Prints each command and its status;
# fails at the first that fails.
set -u
bin=$(realpath "${1:?usage: scripts/readme-examples.sh path/to/warpscope [README.md]}")
readme=$(realpath "${2:-$(dirname "$0")/../README.md}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
ln -s "$bin" "$work/bin/warpscope"
export PATH="$work/bin:$PATH"
cd "$work" || exit 1

# A block fenced as ```json FILE (or any language and a file name) is a file
# the examples after it read: it is written out in its place, in order.
examples=$(awk '
    /^```[a-z]+ [^ ]+$/ { file = $2; printf "@@file %s\n", file; next }
    file && /^```/ { file = ""; next }
    file { printf "@@line %s\n", $0; next }
    /^```sh/ { inside = 1; next }
    /^```/ { inside = 0; next }
    inside && /^warpscope / || joined {
        line = joined $0
        if (line ~ /\\$/) { sub(/\\$/, "", line); joined = line; next }
        joined = ""
        print line
    }' "$readme")

ran=0 skipped=0
while IFS= read -r example; do
    if [[ $example == "@@file "* ]]; then
        file=${example#@@file }
        : >"$file"
        continue
    fi
    if [[ $example == "@@line "* ]]; then
        printf '%s\n' "${example#@@line }" >>"$file"
        continue
    fi
    if [[ $example == *" -- "* || $example == *gpu.wst* ]]; then
        echo "skipped (needs a GPU): $example"
        skipped=$((skipped + 1))
        continue
    fi
    bash -c "$example" >"$work/out.txt" 2>&1
    rc=$?
    if [ "$rc" -ne 0 ] && ! { [[ $example == "warpscope diff "* ]] && [ "$rc" -eq 1 ]; }; then
        echo "README example failed (exit $rc): $example" >&2
        tail -5 "$work/out.txt" >&2
        exit 1
    fi
    echo "ok (exit $rc): $example"
    ran=$((ran + 1))
done <<<"$examples"
echo "readme examples: $ran ran, $skipped skipped (need a GPU)"
