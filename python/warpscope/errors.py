"""warpscope.errors: the one exception the package raises."""


class WarpscopeError(Exception):
    """A failure of warpscope: the CLI's one-line error, or the trace
    reader's ("FILE: what is wrong")."""
