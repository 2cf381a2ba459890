#!/bin/sh
# scripts/python-check.sh PYTHON LIB BIN: runs the Python package's tests
# (python/tests) against the shared library LIB and the CLI BIN, from the
# source tree, writing nothing into it (no bytecode, no pytest cache; the
# tests work in temporary directories).  Without numpy, pandas or pytest
# it says so in one line and passes: `make deps-install` installs them.
py=$1 lib=$2 bin=$3
if ! "$py" -c 'import numpy, pandas, pytest' >/dev/null 2>&1; then
    echo "check-python: skipped: $py cannot import numpy, pandas and pytest" \
         "(apt-get install python3-numpy python3-pandas python3-pytest)"
    exit 0
fi
cd "$(dirname "$0")/.." || exit 1
PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=python WARPSCOPE_LIB=$lib WARPSCOPE_BIN=$bin \
    exec "$py" -m pytest -q -p no:cacheprovider python/tests
