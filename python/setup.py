"""Installs the warpscope Python package: `pip install ./python` (or
`make python`, which builds what it needs first).

The package reads traces through build/libwarpscope.so and runs the CLI;
both are copied into the installed package when found (WARPSCOPE_LIB and
WARPSCOPE_BIN, else the checkout's build/), so an installed package works
away from the checkout.  Missing, they are looked up at run time instead
(warpscope/locate.py)."""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.path.dirname(HERE)
BUNDLED = {
    "_lib/libwarpscope.so": ("WARPSCOPE_LIB", os.path.join(CHECKOUT, "build", "libwarpscope.so")),
    "_bin/warpscope": ("WARPSCOPE_BIN", os.path.join(CHECKOUT, "build", "rel", "warpscope")),
}


class build_with_native(build_py):
    """Copies the shared library and the CLI into the built package."""

    def run(self):
        super().run()
        for target, (variable, default) in BUNDLED.items():
            source = os.environ.get(variable) or default
            if not os.path.isfile(source):
                print(f"warpscope: {source}: not found, not bundled (run `make python`)")
                continue
            dest = os.path.join(self.build_lib, "warpscope", target)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copy2(source, dest)


setup(
    name="warpscope",
    version="0.1.0",
    description="GPU cache profiles from per-warp memory traces: reports as pandas "
                "DataFrames, .wst traces as numpy arrays",
    packages=["warpscope"],
    python_requires=">=3.8",
    install_requires=["numpy", "pandas"],
    cmdclass={"build_py": build_with_native},
)
