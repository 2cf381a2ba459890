#!/usr/bin/env bash
# scripts/browser-test.sh: opens HTML reports in a real browser.
#   scripts/browser-test.sh path/to/warpscope
#
# The unit tests check that the report's SVG is well-formed XML; only a
# browser shows that it renders, that nothing trips it up and that it fits.
# Headless Chromium, in a window 1400 px wide, opens ten pages: a gemm
# analysis, the fixture with every optional section, the demo (`profile` of
# gaussian, small, on the default hopper preset: what `make demo` writes), a bfs profile
# (with a CCN ring among its policies, for the ring's charts, on S3's fermi
# setup: the per-SM and hop charts do not yet fit hopper's 132 SMs), a timed
# bfs profile (`--timed`, for the timed replay's table), a srad profile
# (equal hit rates: the comparison's note), a sweep page (its heatmaps), a
# baseline page (`report --baseline`) and the pages `report` draws of a
# replay's and a compare's JSON.
# For each it
#   - draws the page to PNG with its console on stderr, and fails on a
#     missing or empty screenshot and on any console message: the page has
#     no script, so a message can only be an SVG attribute the browser
#     rejected or a fetch the page's Content-Security-Policy blocked;
#   - checks the layout: a test-only copy of the page, without its CSP and
#     with scripts/layout-check.js added, measures itself (every <details>
#     opened) and writes its faults into the DOM, which --dump-dom prints:
#     the page or an element wider than its container, SVG text cut off at
#     its chart's edge, text boxes that intersect, a legend over a text, a
#     heatmap whose legend does not state its colour scale or with a tick
#     label twice on one row.
#     Each fault names the page, the section and the elements.
# KEEP=DIR keeps the pages, screenshots and findings there.
#
# Without Chromium it installs it where it can (root or passwordless sudo,
# and the package is known to apt), as scripts/deps.sh does; otherwise it
# says the test is skipped and succeeds.
set -u
bin=${1:?usage: scripts/browser-test.sh path/to/warpscope}
cd "$(dirname "$0")/.."

find_browser() {
    for b in chromium chromium-browser google-chrome google-chrome-stable; do
        if command -v "$b" >/dev/null 2>&1; then
            command -v "$b"
            return
        fi
    done
}

try_install() {
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null || return 1
        sudo="sudo -n"
    fi
    # Only a package apt already knows: no index download from inside a test run.
    apt-cache policy chromium 2>/dev/null | grep -q 'Candidate: [0-9]' || return 1
    echo "browser test: installing chromium" >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >&2
}

browser=$(find_browser)
if [ -z "$browser" ] && try_install; then
    browser=$(find_browser)
fi
if [ -z "$browser" ]; then
    echo "browser test skipped: chromium not installed"
    exit 0
fi

if [ -n "${KEEP:-}" ]; then
    dir=$KEEP; mkdir -p "$dir"
else
    dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
fi
pages="gemm optional demo bfs timed srad sweep baseline replay compare"
{
    "$bin" record --workload gemm -o "$dir/gemm.wst" >/dev/null &&
        "$bin" analyze "$dir/gemm.wst" --gpu fermi --html "$dir/gemm.html" --quiet >/dev/null &&
        "$bin" report tests/fixtures/report-optional.json --html "$dir/optional.html" >/dev/null &&
        "$bin" profile --workload gaussian --size small -o "$dir/demo" --quiet >/dev/null &&
        cp "$dir/demo/report.html" "$dir/demo.html" &&
        "$bin" record --workload bfs --size small -o "$dir/bfs.wst" >/dev/null &&
        "$bin" profile "$dir/bfs.wst" --gpu fermi --policies lru,srrip,opt,ccn -o "$dir/bfs" --quiet \
            >/dev/null &&
        cp "$dir/bfs/report.html" "$dir/bfs.html" &&
        "$bin" profile "$dir/bfs.wst" --policies lru,srrip,dacache-stall --timed -o "$dir/timed" \
            --quiet >/dev/null &&
        cp "$dir/timed/report.html" "$dir/timed.html" &&
        "$bin" analyze "$dir/gemm.wst" --gpu fermi -o "$dir/gemm.json" --quiet >/dev/null &&
        "$bin" report "$dir/demo/report.json" --baseline "$dir/gemm.json" --source-dir . \
            --html "$dir/baseline.html" >/dev/null &&
        "$bin" replay "$dir/bfs.wst" --gpu fermi -k regex:Kernel --launch-count 6 \
            -o "$dir/replay.json" >/dev/null &&
        "$bin" report "$dir/replay.json" --html "$dir/replay.html" >/dev/null &&
        "$bin" compare "$dir/bfs.wst" --gpu fermi --policies lru,srrip,drrip -o "$dir/compare.json" \
            >/dev/null &&
        "$bin" report "$dir/compare.json" --html "$dir/compare.html" >/dev/null &&
        "$bin" profile --workload srad --size small --gpu fermi -o "$dir/srad" --quiet >/dev/null &&
        cp "$dir/srad/report.html" "$dir/srad.html" &&
        "$bin" sweep "$dir/gemm.wst" --gpu poise --n-max 8 --html "$dir/sweep.html" --quiet >/dev/null
} || { echo "browser test: warpscope could not write the pages" >&2; exit 1; }

# --no-sandbox: the sandbox refuses to start as root, and the pages are our own files.
chrome() {
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$dir/profile" \
        --window-size=1400,4000 "$@"
}

screenshot() { # page: 0 when it renders without console messages
    local page=$1 log="$dir/$1.log" png="$dir/$1.png" rc size magic
    chrome --hide-scrollbars --enable-logging=stderr --v=0 --screenshot="$png" \
        "file://$dir/$page.html" >"$log" 2>&1
    rc=$?
    size=$(stat -c %s "$png" 2>/dev/null || echo 0)
    magic=$(head -c 8 "$png" 2>/dev/null | od -An -tx1 | tr -d ' \n')
    if [ "$rc" -ne 0 ] || [ "$size" -lt 10000 ] || [ "$magic" != 89504e470d0a1a0a ]; then
        echo "browser test: $page.html: no screenshot (exit $rc, $size bytes)" >&2
        tail -5 "$log" >&2
        return 1
    elif grep -q ':CONSOLE' "$log"; then
        echo "browser test: $page.html: console messages:" >&2
        grep ':CONSOLE' "$log" >&2
        return 1
    fi
    echo "browser test: $page.html renders ($size-byte PNG), no console messages"
}

layout() { # page: 0 when scripts/layout-check.js finds no fault
    local page=$1 copy="$dir/$1.layout.html" found="$dir/$1.layout.txt" checked
    awk -v js=scripts/layout-check.js '
        /http-equiv="Content-Security-Policy"/ { next }
        /<\/body>/ { print "<script>"; while ((getline l < js) > 0) print l; print "</script>" }
        { print }' "$dir/$page.html" >"$copy"
    chrome --virtual-time-budget=5000 --dump-dom "file://$copy" 2>/dev/null |
        sed -n '/<pre id="layout-faults" data-checked=/,/<\/pre>/p' >"$found"
    checked=$(sed -n 's/.*data-checked="\([0-9]*\)".*/\1/p' "$found")
    if [ -z "$checked" ]; then
        echo "browser test: $page.html: the layout check did not run" >&2
        return 1
    fi
    # The findings, one a line, as text: tags and entities undone.
    sed -e 's/<[^>]*>//g' -e 's/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&#39;/'"'"'/g; s/&amp;/\&/g' \
        -e '/^$/d' "$found" >"$found.text"
    if [ -s "$found.text" ]; then
        echo "browser test: $page.html: layout faults at 1400 px:" >&2
        sed 's/^/    /' "$found.text" >&2
        return 1
    fi
    echo "browser test: $page.html fits 1400 px, no overlapping text ($checked elements checked)"
}

status=0
for page in $pages; do
    screenshot "$page" || status=1
    layout "$page" || status=1
done
exit $status
