"""The built distributions hold what they should, and the core layers stand without Scrapy."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from importlib.metadata import entry_points
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TABLES = REPO / "scrapy_charset" / "encoding" / "tables"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built with the project's own build backend, as ``pip wheel .`` would."""
    from hatchling.builders.wheel import WheelBuilder

    out = tmp_path_factory.mktemp("wheel")
    (path,) = WheelBuilder(str(REPO)).build(directory=str(out), versions=["standard"])
    return Path(path)


@pytest.fixture(scope="module")
def wheel_names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


@pytest.fixture(scope="module")
def sdist_names(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    import tarfile

    from hatchling.builders.sdist import SdistBuilder

    out = tmp_path_factory.mktemp("sdist")
    (path,) = SdistBuilder(str(REPO)).build(directory=str(out), versions=["standard"])
    with tarfile.open(path) as sdist:
        # Drop the leading "scrapy_charset-0.1.0/".
        return [name.partition("/")[2] for name in sdist.getnames()]


def test_wheel_has_the_typing_marker_and_generated_tables(wheel_names: list[str]) -> None:
    assert "scrapy_charset/py.typed" in wheel_names
    generated = sorted(p.name for p in TABLES.glob("*_data.py"))
    assert "labels_data.py" in generated
    for name in generated:
        assert f"scrapy_charset/encoding/tables/{name}" in wheel_names


def test_wheel_has_the_demo_site_and_licences(wheel_names: list[str]) -> None:
    assert "scrapy_charset/tools/demo.py" in wheel_names
    assert "scrapy_charset/tools/demo_site.py" in wheel_names
    licences = {Path(name).name for name in wheel_names if "/licenses/" in name}
    assert {"LICENSE", "NOTICE.md"} <= licences


def test_wheel_leaves_out_tests_vendor_data_and_projects(wheel_names: list[str]) -> None:
    top_level = {name.split("/")[0] for name in wheel_names}
    assert top_level == {"scrapy_charset", "scrapy_charset-0.1.0.dist-info"}
    assert not [name for name in wheel_names if "/tests/" in name or "vendor/" in name]


def test_wheel_registers_the_scrapy_command(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        text = archive.read("scrapy_charset-0.1.0.dist-info/entry_points.txt").decode()
    assert "[scrapy.commands]" in text
    assert "charset-audit = scrapy_charset.tools.audit_command:AuditCommand" in text


def test_installed_package_registers_the_scrapy_command(tmp_path: Path) -> None:
    commands = {ep.name: ep for ep in entry_points(group="scrapy.commands")}
    assert commands["charset-audit"].value == "scrapy_charset.tools.audit_command:AuditCommand"
    assert commands["charset-audit"].load().__name__ == "AuditCommand"
    # Scrapy lists it outside any project (cwd without scrapy.cfg).
    listing = subprocess.run(
        [sys.executable, "-m", "scrapy", "-h"], capture_output=True, text=True, cwd=tmp_path
    )
    assert re.search(r"^  charset-audit +\S", listing.stdout, re.M), listing.stdout


def test_sdist_has_what_the_test_suite_and_example_need(sdist_names: list[str]) -> None:
    for needed in (
        "README.md",
        "docs/conf.py",
        "docs/settings.md",
        "LICENSE",
        "NOTICE.md",
        "pyproject.toml",
        "tox.ini",
        "example_project/scrapy.cfg",
        "tests/data/html5lib-tests/LICENSE",
        "vendor/whatwg/encodings.json",
        "hatch_build.py",
        "scrapy_charset/encoding/_speedups.c",
        "scrapy_charset/encoding/_speedups.pyi",
        "scrapy_charset/_text_speedups.c",
        "scrapy_charset/_text_speedups.pyi",
    ):
        assert needed in sdist_names, needed
    assert not [name for name in sdist_names if name.endswith((".so", ".pyd"))]


def test_wheel_carries_the_compiled_decoders_when_built(
    wheel: Path, wheel_names: list[str]
) -> None:
    from scrapy_charset.encoding import cjk

    compiled = [
        name for name in wheel_names if "/_speedups." in name and "_speedups.pyi" not in name
    ]
    assert "scrapy_charset/encoding/_speedups.pyi" in wheel_names
    if cjk.compiled is None and os.environ.get("SCRAPY_CHARSET_REQUIRE_EXTENSION") != "1":
        pytest.skip("no C compiler here: the wheel is pure Python")
    assert compiled == [f"scrapy_charset/encoding/{Path(cjk.compiled.__file__).name}"]
    from scrapy_charset import _text_speedups

    assert f"scrapy_charset/{Path(_text_speedups.__file__).name}" in wheel_names
    assert not wheel.name.endswith("-py3-none-any.whl")  # a platform wheel


def test_a_compiler_refusing_the_loop_alignment_builds_without_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # -falign-loops=32 is asked for first (the table loops' speed depends on it); a compiler
    # that fails with it gets the plain flags, and a failure with those is the build's.
    sys.path.insert(0, str(REPO))
    try:
        import hatch_build
    finally:
        sys.path.remove(str(REPO))
    tried: list[list[str]] = []

    def compile_with(flags: list[str], root: Path, build_dir: Path) -> list[Path]:
        tried.append(flags)
        if "-falign-loops=32" in flags:
            raise RuntimeError("unknown flag")
        return [build_dir / "built"]

    monkeypatch.setattr(hatch_build, "_compile_with", compile_with)
    if os.name == "nt":
        assert hatch_build.FLAGS == ([],)
        return
    assert hatch_build._compile(REPO, tmp_path) == [tmp_path / "built"]
    assert tried == [["-O2", "-falign-loops=32"], ["-O2"]]

    def broken(flags: list[str], root: Path, build_dir: Path) -> list[Path]:
        raise RuntimeError("no compiler")

    monkeypatch.setattr(hatch_build, "_compile_with", broken)
    with pytest.raises(RuntimeError, match="no compiler"):
        hatch_build._compile(REPO, tmp_path)


def _modules_after_import(code: str) -> list[str]:
    probe = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout))


@pytest.mark.parametrize(
    "code",
    [
        "import scrapy_charset",
        "import scrapy_charset.encoding as e; e.get_encoding('sjis')",
        "import scrapy_charset.sniffing",
        "import scrapy_charset.tools.demo_site",
    ],
)
def test_core_layers_do_not_import_scrapy(code: str) -> None:
    modules = _modules_after_import(code)
    assert "scrapy_charset" in modules
    leaked = [m for m in modules if m.split(".")[0] in {"scrapy", "twisted", "parsel", "lxml"}]
    assert leaked == []


def test_lazy_scrapy_exports_stay_lazy_until_asked_for() -> None:
    modules = _modules_after_import("import scrapy_charset; scrapy_charset.__version__")
    assert "scrapy_charset.integration.middleware" not in modules


def test_the_scrapy_parts_leave_itemadapter_and_the_mojibake_patterns_for_later() -> None:
    """Import cost: itemadapter (which imports pydantic when installed) is imported on the
    first item that is neither a dict nor a scrapy.Item, the mojibake patterns on the first
    value the clean-text check flags (only without the compiled module); a dict item with a
    garbled value does not need itemadapter, a dataclass item needs itemadapter."""
    parts = (
        "import scrapy_charset.integration.addon, scrapy_charset.integration.middleware, "
        "scrapy_charset.integration.pipeline as p; "
        "from scrapy_charset import quality as q; "
        "assert 'run_pattern' not in vars(q._MISREADINGS[0]); "
    )
    modules = _modules_after_import(parts + "p")
    assert not [m for m in modules if m.split(".")[0] in {"itemadapter", "pydantic"}]
    stats = (
        "from scrapy.statscollectors import MemoryStatsCollector as M; "
        "from scrapy.utils.test import get_crawler; "
    )
    garbled = "p.CharsetPipeline(M(get_crawler())).process_item({'t': 'CafÃ© x'}); "
    # (the compiled decoded_regions needs no pattern; the pure-Python reference compiles it)
    compiled = (
        "assert ('run_pattern' in vars(q._MISREADINGS[0])) == "
        "(q.decoded_regions is q._decoded_regions_python)"
    )
    modules = _modules_after_import(parts + stats + garbled + compiled)
    # Unless Scrapy's own crawler imports it (Scrapy 2.11 does; newer Scrapy does not).
    by_scrapy = "itemadapter" in _modules_after_import(stats + "get_crawler()")
    assert by_scrapy or "itemadapter" not in modules
    dataclass = (
        "import dataclasses; D = dataclasses.make_dataclass('D', ['t']); "
        "p.CharsetPipeline(M(get_crawler())).process_item(D('CafÃ© x'))"
    )
    assert "itemadapter" in _modules_after_import(parts + stats + dataclass)


def _readme_block(heading: str) -> str:
    """The first ```python block under ``heading`` in the README."""
    readme = (REPO / "README.md").read_text("utf-8")
    section = readme[readme.index(f"\n{heading}\n") :]
    start = section.index("```python\n") + len("```python\n")
    return section[start : section.index("\n```", start)]


def test_readme_library_example_is_true() -> None:
    import doctest

    block = _readme_block("## Library use")
    test = doctest.DocTestParser().get_doctest(block, {}, "README", "README.md", 0)
    runner = doctest.DocTestRunner()
    out: list[str] = []
    runner.run(test, out=out.append)
    assert (runner.tries, runner.failures) == (4, 0), "".join(out)


def test_readme_starts_with_the_two_commands() -> None:
    readme = (REPO / "README.md").read_text("utf-8")
    assert readme.startswith(
        "# scrapy-charset\n\n```\npip install . && python -m scrapy_charset demo\n"
        'pip install ".[test]" && python -m pytest\n```\n'
    )
