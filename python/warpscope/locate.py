"""warpscope.locate: where the package finds the C library and the CLI.

In order: the environment (WARPSCOPE_LIB, WARPSCOPE_BIN), the copies
`pip install ./python` put inside the package, the build tree the package
sits in (build/libwarpscope.so, build/rel/warpscope of a checkout), and
finally PATH (the CLI, and the lib/ directory beside its bin/)."""
import os
import shutil

from .errors import WarpscopeError

_HERE = os.path.dirname(os.path.abspath(__file__))
_CHECKOUT = os.path.dirname(os.path.dirname(_HERE))


def _first_file(candidates):
    for path in candidates:
        if path and os.path.isfile(path):
            return path
    return None


def cli_path():
    """The warpscope binary to run; WarpscopeError when there is none."""
    found = _first_file([
        os.environ.get("WARPSCOPE_BIN"),
        os.path.join(_HERE, "_bin", "warpscope"),
        os.path.join(_CHECKOUT, "build", "rel", "warpscope"),
        shutil.which("warpscope"),
    ])
    if not found:
        raise WarpscopeError("warpscope: binary not found: build it with `make`, "
                             "put it on PATH, or set WARPSCOPE_BIN")
    return found


def library_path():
    """libwarpscope.so, the C trace reader; WarpscopeError when missing."""
    on_path = shutil.which("warpscope")
    found = _first_file([
        os.environ.get("WARPSCOPE_LIB"),
        os.path.join(_HERE, "_lib", "libwarpscope.so"),
        os.path.join(_CHECKOUT, "build", "libwarpscope.so"),
        on_path and os.path.join(os.path.dirname(os.path.dirname(on_path)), "lib",
                                 "libwarpscope.so"),
    ])
    if not found:
        raise WarpscopeError("libwarpscope.so: not found: build it with `make python`, "
                             "or set WARPSCOPE_LIB")
    return found
