#!/bin/sh
# scripts/find-python.sh: prints a python3 that imports numpy, pandas and
# pytest (the Python package's tests need all three), preferring Debian's
# /usr/bin/python3, where scripts/deps.sh installs them; a python3 on PATH
# (a pyenv shim, a virtual environment) may lack them.  Prints
# /usr/bin/python3 when none has them, so the check can say what is missing.
for py in /usr/bin/python3 "$(command -v python3 2>/dev/null)"; do
    [ -n "$py" ] && [ -x "$py" ] || continue
    if "$py" -c 'import numpy, pandas, pytest' >/dev/null 2>&1; then
        echo "$py"
        exit 0
    fi
done
echo /usr/bin/python3
