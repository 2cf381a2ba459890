"""warpscope: GPU cache profiles from Python (docs/python.md).

    load_report(path)  a JSON report's tables as pandas DataFrames
    Trace(path)        a .wst trace's kernels and records as numpy arrays,
                       through the project's C reader (build/libwarpscope.so)
    run(*args)         the warpscope command-line program
"""
from .cli import CliError, run
from .errors import WarpscopeError
from .native import RECORD_DTYPE, demangle
from .report import Report, load_report
from .trace import CACHE_OPS, KINDS, SPACES, Kernel, Trace

__version__ = "0.1.0"
__all__ = ["CACHE_OPS", "CliError", "KINDS", "Kernel", "RECORD_DTYPE", "Report", "SPACES",
           "Trace", "WarpscopeError", "demangle", "load_report", "run"]
