"""Builds the tensordiag Python package: setuptools runs CMake for the extension tensordiag._tensordiag.

    pip install --no-build-isolation .

--no-build-isolation makes pip use the installed setuptools and wheel instead of downloading them
(there is no package index offline). CMake, a C++20 compiler, pybind11 and the C++ dependencies of
CMakeLists.txt must be installed; python/README.md lists the Debian packages.
"""

import os
import pathlib
import re
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


def project_version() -> str:
    """The version in CMakeLists.txt: project(tensordiag VERSION x.y.z ...)."""
    match = re.search(r"project\(tensordiag VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text())
    if match is None:
        raise RuntimeError("no 'project(tensordiag VERSION ...)' in CMakeLists.txt")
    return match.group(1)


class CMakeExtension(Extension):
    """An extension that CMake builds: `target` in the project's CMakeLists.txt."""

    def __init__(self, name: str, target: str) -> None:
        super().__init__(name, sources=[])
        self.target = target


class CMakeBuild(build_ext):
    def build_extension(self, ext: CMakeExtension) -> None:
        package_dir = pathlib.Path(self.get_ext_fullpath(ext.name)).resolve().parent
        build_dir = pathlib.Path(self.build_temp).resolve() / "cmake"
        build_dir.mkdir(parents=True, exist_ok=True)
        # Warnings stay warnings here: a newer compiler must not fail a user's install.
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
                        f"-DPython3_EXECUTABLE={sys.executable}", f"-DTENSORDIAG_PYTHON_PACKAGE_DIR={package_dir}",
                        "-DTENSORDIAG_WARNINGS_AS_ERRORS=OFF"], check=True)
        build = ["cmake", "--build", str(build_dir), "--target", ext.target]
        if "CMAKE_BUILD_PARALLEL_LEVEL" not in os.environ:
            build += ["--parallel", str(os.cpu_count() or 1)]
        subprocess.run(build, check=True)


setup(
    version=project_version(),
    ext_modules=[CMakeExtension("tensordiag._tensordiag", target="_tensordiag")],
    cmdclass={"build_ext": CMakeBuild},
    # Not build/: that is where CMake builds for development.
    options={"build": {"build_base": "build-python"}},
)
