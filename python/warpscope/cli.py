"""warpscope.cli: runs the warpscope command-line program.

    warpscope.run("analyze", "g.wst", "--gpu", "fermi", "-o", "r.json")

Arguments are passed as given (str() of each, so pathlib paths work).  On a
non-zero exit it raises WarpscopeError carrying the CLI's one-line error
(`warpscope: FILE: what is wrong`)."""
import subprocess

from .errors import WarpscopeError
from .locate import cli_path


class CliError(WarpscopeError):
    """The CLI failed: the message is its one-line error; `returncode` and
    `stderr` (all of it) are kept."""

    def __init__(self, message, returncode, stderr):
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr


def _one_line(stderr, returncode):
    lines = [line for line in stderr.splitlines() if line.strip()]
    for line in reversed(lines):
        if line.startswith("warpscope:"):
            return line
    return lines[-1] if lines else f"warpscope: exited with status {returncode}"


def run(*args, check=True, cwd=None, env=None, timeout=None):
    """Runs `warpscope ARGS...`; returns its standard output (str).  Its
    standard error (progress, warnings) is kept on the exception only."""
    command = [cli_path()] + [str(a) for a in args]
    done = subprocess.run(command, cwd=cwd, env=env, timeout=timeout,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          errors="replace")
    if check and done.returncode != 0:
        raise CliError(_one_line(done.stderr, done.returncode), done.returncode, done.stderr)
    return done.stdout
