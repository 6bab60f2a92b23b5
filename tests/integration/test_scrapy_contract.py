"""Scrapy's own tests for responses, link extractors, forms and the HTTP cache, run with every
response passed through the plugin (tests/scrapy_contract/scrapy_charset_contract.py).

The tests come from the source distribution of the installed Scrapy version, downloaded from
PyPI with pip once and kept in ``$SCRAPY_CHARSET_CACHE`` (default ``~/.cache/scrapy-charset``).
Each remaining difference is an expected failure with its reason (docs/limits.md); the run fails
on any other failure and on an expected failure that passes.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import pytest
import scrapy

ROOT = Path(__file__).resolve().parents[2]
PLUGIN_DIR = ROOT / "tests" / "scrapy_contract"
# The modules that test what the plugin replaces or feeds: responses (text, encoding,
# follow, replace, to_dict), response utilities, link extractors, forms and the HTTP cache.
# (test_responsetypes.py checks the classes responsetypes picks by identity: the stand-ins
# of the plugin module cannot pass it, and the middleware never changes that choice.)
MODULES = [
    "tests/test_http_response.py",
    "tests/test_http_response_text.py",
    "tests/test_utils_response.py",
    "tests/test_linkextractors.py",
    "tests/test_http_request_form.py",
    "tests/test_downloadermiddleware_httpcache.py",
    # What reads responses: iterators (xmliter_lxml hands response.encoding to libxml2), item
    # loaders, selectors, the meta refresh middleware, sitemaps.
    "tests/test_utils_iterators.py",
    "tests/test_loader.py",
    "tests/test_selector.py",
    "tests/test_downloadermiddleware_redirect_metarefresh.py",
    "tests/test_utils_sitemap.py",
]
# The version whose tests the expected failures were recorded against.
RECORDED = "2.19.0"


def _cache_dir() -> Path:
    configured = os.environ.get("SCRAPY_CHARSET_CACHE")
    base = Path(configured) if configured else Path.home() / ".cache" / "scrapy-charset"
    return base / f"scrapy-{scrapy.__version__}-tests"


def _download_sdist(target: Path) -> Path:
    """The installed Scrapy version's source distribution, by pip from the package index."""
    subprocess.run(
        [
            sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
            "--quiet", "--dest", str(target), f"scrapy=={scrapy.__version__}",
        ],
        check=True,
        timeout=600,
    )  # fmt: skip
    return next(target.glob("scrapy-*.tar.gz"))


def _extract_tests(sdist: Path, target: Path) -> None:
    """Scrapy's ``tests/``, ``conftest.py`` and ``pyproject.toml`` (its pytest settings); not
    the ``scrapy`` package itself, so that the installed one is tested."""
    with tarfile.open(sdist) as archive:
        members = []
        for member in archive.getmembers():
            parts = Path(member.name).parts
            if len(parts) < 2 or ".." in parts or not (member.isfile() or member.isdir()):
                continue
            if parts[1] in ("tests", "conftest.py", "pyproject.toml"):
                member.name = str(Path(*parts[1:]))
                members.append(member)
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        archive.extractall(target, members=members, **safe)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def scrapy_tests() -> Path:
    tests_dir = _cache_dir()
    if (tests_dir / "conftest.py").exists():
        return tests_dir
    tests_dir.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=tests_dir.parent) as tmp:
        try:
            sdist = _download_sdist(Path(tmp))
        except (subprocess.SubprocessError, StopIteration) as exc:
            if os.environ.get("CI"):
                raise
            pytest.skip(f"Scrapy {scrapy.__version__}'s source distribution unavailable: {exc}")
        staging = Path(tmp) / "tests"
        _extract_tests(sdist, staging)
        staging.rename(tests_dir)
    return tests_dir


@pytest.mark.skipif(
    scrapy.__version__ != RECORDED,
    reason=f"the expected differences are recorded for Scrapy {RECORDED}'s tests",
)
def test_scrapys_own_tests_pass_through_the_middleware(scrapy_tests: Path) -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(PLUGIN_DIR), str(ROOT), *filter(None, [env.get("PYTHONPATH")])]
    )
    # First without the plugin: a test stock Scrapy fails with the libraries installed (Scrapy
    # 2.19.0's own tests fail by the hundred with w3lib 2.6, whose deprecation warnings its
    # settings turn into errors) says nothing of the plugin, and is left out of its run.
    stock = _run_scrapy_tests(scrapy_tests, env)
    stock_failures = re.findall(r"^(?:FAILED|ERROR) (\S+)", stock.stdout, re.M)
    assert (stock.returncode == 0) is not stock_failures, stock.stdout[-5000:]
    result = _run_scrapy_tests(
        scrapy_tests, env, "-p", "scrapy_charset_contract",
        *(f"--deselect={test}" for test in stock_failures),
    )  # fmt: skip
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-20000:]
    # Not vacuous: the tests ran, and on the plugin's responses.
    taken_over = re.search(r"scrapy-charset: (\d+) responses taken over", output)
    assert taken_over is not None and int(taken_over[1]) > 150, output[-2000:]
    passed = re.search(r"(\d+) passed", output)
    assert passed is not None and int(passed[1]) > 400, output[-2000:]


def _run_scrapy_tests(
    scrapy_tests: Path, env: dict[str, str], *options: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rfEX", "-p", "no:cacheprovider", *options,
         *MODULES],
        cwd=scrapy_tests,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )  # fmt: skip


def test_every_difference_is_documented() -> None:
    """Each key of the expected failures is explained in docs/limits.md."""
    from tests.scrapy_contract.scrapy_charset_contract import DIFFERENCES, EXPECTED

    limits = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    section = limits[limits.index("## Scrapy's own tests") :]
    assert set(EXPECTED.values()) == set(DIFFERENCES)
    for key in DIFFERENCES:
        assert f"- `{key}`:" in section
    for module in MODULES:
        assert f"`{module.rsplit('/', 1)[1]}`" in section
