"""Builds the tilec Python package: python/tilec plus its self-contained
libtilec.so (the C ABI with LLVM and MLIR linked in statically), as one
``py3-none-linux_x86_64`` wheel that serves every Python 3.

    /usr/bin/python3 -m venv --system-site-packages venv   # Debian's setuptools + wheel
    venv/bin/pip install --no-build-isolation .            # offline; builds the library
    venv/bin/pip wheel --no-build-isolation --no-deps -w dist .

The library is built with CMake + Ninja in $TILEC_BUILD_DIR (default build/,
configured if needed; `ninja tilec-python-lib`, $TILEC_JOBS jobs), or taken
from $TILEC_PREBUILT_LIBRARY. See docs/python.md.
"""

import os
import re
import shutil
import subprocess

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:
    from wheel.bdist_wheel import bdist_wheel
except ImportError:  # pragma: no cover - only sdists and installs without wheel
    bdist_wheel = None

ROOT = os.path.dirname(os.path.abspath(__file__))
BUILD_DIR = os.environ.get("TILEC_BUILD_DIR", os.path.join(ROOT, "build"))


def version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        return re.search(r"project\(tilec VERSION ([0-9.]+)", f.read()).group(1)


def build_library():
    """The path of a freshly built (or the prebuilt) libtilec.so."""
    prebuilt = os.environ.get("TILEC_PREBUILT_LIBRARY")
    if prebuilt:
        return prebuilt
    if not os.path.exists(os.path.join(BUILD_DIR, "build.ninja")):
        subprocess.check_call(
            ["cmake", "-G", "Ninja", "-S", ROOT, "-B", BUILD_DIR, "-DCMAKE_BUILD_TYPE=Release"]
        )
    jobs = os.environ.get("TILEC_JOBS", str(os.cpu_count() or 2))
    subprocess.check_call(["ninja", "-C", BUILD_DIR, "-j", jobs, "tilec-python-lib"])
    return os.path.join(BUILD_DIR, "python", "libtilec.so")


class BuildPyWithLibrary(build_py):
    """build_py that also puts libtilec.so into the package."""

    def run(self):
        super().run()
        target = os.path.join(self.build_lib, "tilec", "libtilec.so")
        shutil.copyfile(build_library(), target)
        os.chmod(target, 0o755)


class BinaryDistribution(Distribution):
    """A package with a native library (not an extension module)."""

    def has_ext_modules(self):
        return True


commands = {"build_py": BuildPyWithLibrary}
if bdist_wheel is not None:

    class BdistWheelAnyPython(bdist_wheel):
        """py3-none-linux_x86_64: ctypes only, so any Python 3 loads it."""

        def finalize_options(self):
            super().finalize_options()
            self.root_is_pure = False

        def get_tag(self):
            return "py3", "none", "linux_x86_64"

    commands["bdist_wheel"] = BdistWheelAnyPython

setup(
    name="tilec",
    version=version(),
    description="Compile and launch .tile and Triton kernels (tilec) from Python",
    long_description=open(os.path.join(ROOT, "docs", "python.md"), encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    python_requires=">=3.8",
    package_dir={"": "python"},
    packages=["tilec"],
    package_data={"tilec": ["py.typed", "libtilec.so"]},
    distclass=BinaryDistribution,
    cmdclass=commands,
    options={"build": {"build_base": os.path.join(BUILD_DIR, "python-package")}},
    zip_safe=False,
)
