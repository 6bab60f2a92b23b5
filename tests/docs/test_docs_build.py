"""The documentation builds with warnings as errors, as `tox -e docs` and CI build it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.docs.blocks import DOCS, REPO


def test_docs_build_without_warnings(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         "-d", str(tmp_path / "doctrees"), str(DOCS), str(tmp_path / "html")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    index = (tmp_path / "html" / "index.html").read_text("utf-8")
    assert "scrapy-charset" in index
    api = (tmp_path / "html" / "api.html").read_text("utf-8")
    # autodoc found the core layers' docstrings
    for name in ("scrapy_charset.encoding.decode", "scrapy_charset.sniffing.sniff"):
        assert f'id="{name}"' in api, name
