#!/usr/bin/env bash
# scripts/browser-test.sh: opens HTML reports in a real browser.
#   scripts/browser-test.sh path/to/warpscope
#
# The unit tests check that the report's SVG is well-formed XML; only a
# browser shows that it renders and that nothing trips it up.  Headless
# Chromium draws two pages (a real gemm analysis, and the fixture with every
# optional section) to PNG with its console on stderr.  It fails on a
# missing or empty screenshot and on any console message: the page has no
# script, so a message can only be an SVG attribute the browser rejected or
# a fetch the page's Content-Security-Policy blocked.
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

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$bin" record --workload gemm -o "$dir/gemm.wst" >/dev/null &&
    "$bin" analyze "$dir/gemm.wst" --gpu fermi --html "$dir/gemm.html" --quiet >/dev/null &&
    "$bin" report tests/fixtures/report-optional.json --html "$dir/optional.html" >/dev/null ||
    { echo "browser test: warpscope could not write the pages" >&2; exit 1; }

status=0
for page in gemm optional; do
    log="$dir/$page.log" png="$dir/$page.png"
    # --no-sandbox: the sandbox refuses to start as root, and the page is our own file.
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --user-data-dir="$dir/profile" --enable-logging=stderr --v=0 \
        --window-size=1200,4000 --screenshot="$png" "file://$dir/$page.html" >"$log" 2>&1
    rc=$?
    size=$(stat -c %s "$png" 2>/dev/null || echo 0)
    magic=$(head -c 8 "$png" 2>/dev/null | od -An -tx1 | tr -d ' \n')
    if [ "$rc" -ne 0 ] || [ "$size" -lt 10000 ] || [ "$magic" != 89504e470d0a1a0a ]; then
        echo "browser test: $page.html: no screenshot (exit $rc, $size bytes)" >&2
        tail -5 "$log" >&2
        status=1
    elif grep -q ':CONSOLE' "$log"; then
        echo "browser test: $page.html: console messages:" >&2
        grep ':CONSOLE' "$log" >&2
        status=1
    else
        echo "browser test: $page.html renders ($size-byte PNG), no console messages"
    fi
done
exit $status
