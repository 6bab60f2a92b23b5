"""Build hook: compile the optional C decoders (scrapy_charset/encoding/_speedups.c).

The extension only speeds up decoding; the package is complete without it. If no C compiler
is available the wheel is built pure-Python with a warning, unless
SCRAPY_CHARSET_REQUIRE_EXTENSION=1 (CI sets it, so a broken build cannot pass unnoticed).
SCRAPY_CHARSET_NO_EXTENSION=1 skips the compilation.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

MODULE = "scrapy_charset.encoding._speedups"
SOURCE = "scrapy_charset/encoding/_speedups.c"


def _compile(root: Path, build_dir: Path) -> Path:
    """Build the extension in ``build_dir``, copy it next to its source, return the build."""
    from setuptools import Distribution, Extension

    extension = Extension(MODULE, [SOURCE], extra_compile_args=["-O2"] if os.name != "nt" else [])
    distribution = Distribution({"name": "scrapy-charset", "ext_modules": [extension]})
    distribution.script_args = []
    command = distribution.get_command_obj("build_ext")
    command.build_lib = str(build_dir / "lib")
    command.build_temp = str(build_dir / "temp")
    here = os.getcwd()
    os.chdir(root)
    try:
        command.ensure_finalized()
        command.run()
    finally:
        os.chdir(here)
    relative = command.get_ext_filename(MODULE)
    built = build_dir / "lib" / relative
    # Also next to the source, for editable installs and tests run from a checkout. Replaced,
    # not overwritten: a running interpreter may have the old file mapped.
    in_tree = root / relative
    partial = in_tree.with_name(in_tree.name + ".partial")
    try:
        shutil.copyfile(built, partial)
        os.replace(partial, in_tree)
    except OSError:  # a read-only source tree: the wheel still carries the build
        pass
    return built


class SpeedupsBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or os.environ.get("SCRAPY_CHARSET_NO_EXTENSION") == "1":
            return
        root = Path(self.root)
        self._build_dir = build_dir = Path(tempfile.mkdtemp(prefix="scrapy-charset-build-"))
        try:
            built = _compile(root, build_dir)
        except Exception as exc:  # no compiler, no headers: fall back to pure Python
            if os.environ.get("SCRAPY_CHARSET_REQUIRE_EXTENSION") == "1":
                raise
            print(f"scrapy-charset: C decoders not built ({exc}); pure Python", file=sys.stderr)
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        if version != "editable":  # an editable install imports it from the source tree
            relative = built.relative_to(build_dir / "lib").as_posix()
            build_data["force_include"][str(built)] = relative

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        build_dir = getattr(self, "_build_dir", None)
        if build_dir is not None:
            shutil.rmtree(build_dir, ignore_errors=True)
