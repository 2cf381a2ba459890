"""warpscope.run: the CLI's output, and its one-line error as an exception."""
import pytest

import warpscope


def test_run_returns_stdout(trace_path):
    out = warpscope.run("info", trace_path)
    assert "_Z4Fan1PfS_ii" in out or "Fan1" in out


def test_failure_raises_the_cli_one_line_error(workdir):
    missing = workdir / "nothing-here.wst"
    with pytest.raises(warpscope.CliError) as e:
        warpscope.run("analyze", missing, "--gpu", "fermi")
    message = str(e.value)
    assert message.startswith("warpscope: ") and str(missing) in message
    assert "\n" not in message
    assert e.value.returncode != 0
    assert isinstance(e.value, warpscope.WarpscopeError)


def test_unknown_option_is_an_error(trace_path):
    with pytest.raises(warpscope.CliError, match="^warpscope: "):
        warpscope.run("analyze", trace_path, "--no-such-option")


def test_check_false_returns_despite_failure(workdir):
    assert warpscope.run("info", workdir / "absent.wst", check=False) == ""
