"""Fixtures of the Python package's tests: a small trace recorded by
`warpscope record` of an emulated workload, and the reports of it, all in
a temporary directory (nothing is written into the source tree).

Numbers that depend on the GPU preset are never asserted as constants:
every run names --gpu fermi, and figures are compared between outputs."""
import pytest

import warpscope

GPU = ("--gpu", "fermi")


@pytest.fixture(scope="session")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("warpscope")


@pytest.fixture(scope="session")
def trace_path(workdir):
    path = workdir / "gaussian.wst"
    warpscope.run("record", "--workload", "gaussian", "--size", "small", "--seed", "1",
                  "--quiet", "-o", path)
    return path


@pytest.fixture(scope="session")
def analysis(workdir, trace_path):
    """analyze's report.json, its CSV tables and its HTML page."""
    out = workdir / "analysis"
    out.mkdir()
    warpscope.run("analyze", trace_path, *GPU, "-o", out / "report.json", "--csv", out / "csv",
                  "--html", out / "report.html")
    return out


@pytest.fixture(scope="session")
def profile(workdir, trace_path):
    """profile's report directory (report.json with bypass and compare)."""
    out = workdir / "profile"
    warpscope.run("profile", trace_path, *GPU, "--policies", "lru,srrip", "-o", out)
    return out
