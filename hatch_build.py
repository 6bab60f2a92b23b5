"""Build hook: compile the optional C extensions.

scrapy_charset/encoding/_speedups.c (the CJK decoders) and scrapy_charset/_text_speedups.c
(the item pipeline's clean-text check) only speed things up; the package is complete without
them. If they cannot be compiled (no C compiler or headers), the wheel is built pure Python
and the build log says so, unless SCRAPY_CHARSET_REQUIRE_EXTENSION=1 (CI sets it, so a broken
build cannot pass unnoticed). SCRAPY_CHARSET_NO_EXTENSION=1 skips the compilation.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

MODULES = {
    "scrapy_charset.encoding._speedups": "scrapy_charset/encoding/_speedups.c",
    "scrapy_charset._text_speedups": "scrapy_charset/_text_speedups.c",
}


# Loops start on a 32-byte boundary: the table decoders' loops ran up to 1.7x slower or faster
# depending on where unrelated code left them (a French windows-1252 page: 12.5 or 17.6 µs,
# a Russian windows-1251 one 17.9 or 10.0 µs, in two builds of the same loop; 13.6 and 11.0
# µs with the flag). A compiler that refuses the flag builds without it.
FLAGS = (["-O2", "-falign-loops=32"], ["-O2"]) if os.name != "nt" else ([],)


def _compile(root: Path, build_dir: Path) -> list[Path]:
    """Build the extensions in ``build_dir`` with the first FLAGS the compiler takes, copy
    them next to their sources, return them."""
    for flags in FLAGS[:-1]:
        try:
            return _compile_with(flags, root, build_dir)
        except Exception:
            continue
    return _compile_with(FLAGS[-1], root, build_dir)


def _compile_with(flags: list[str], root: Path, build_dir: Path) -> list[Path]:
    from setuptools import Distribution, Extension

    extensions = [
        Extension(module, [source], extra_compile_args=flags) for module, source in MODULES.items()
    ]
    distribution = Distribution({"name": "scrapy-charset", "ext_modules": extensions})
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
    built = []
    for module in MODULES:
        relative = command.get_ext_filename(module)
        built.append(build_dir / "lib" / relative)
        # Also next to the source, for editable installs and tests run from a checkout.
        # Replaced, not overwritten: a running interpreter may have the old file mapped.
        in_tree = root / relative
        partial = in_tree.with_name(in_tree.name + ".partial")
        try:
            shutil.copyfile(built[-1], partial)
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
            print(f"scrapy-charset: C extensions not built ({exc}); pure Python", file=sys.stderr)
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        if version != "editable":  # an editable install imports them from the source tree
            for path in built:
                relative = path.relative_to(build_dir / "lib").as_posix()
                build_data["force_include"][str(path)] = relative

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        build_dir = getattr(self, "_build_dir", None)
        if build_dir is not None:
            shutil.rmtree(build_dir, ignore_errors=True)
