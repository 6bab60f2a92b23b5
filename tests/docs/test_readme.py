"""The README is a landing page: short, the enable line on the first screen, links that work."""

from __future__ import annotations

import re

from tests.docs.blocks import REPO

README = REPO / "README.md"


def test_readme_is_at_most_10_kb() -> None:
    assert len(README.read_bytes()) <= 10 * 1024


def test_readme_enables_the_addon_in_its_first_40_lines() -> None:
    first = README.read_text("utf-8").splitlines()[:40]
    assert 'ADDONS = {"scrapy_charset.Addon": 0}' in first
    assert 'DOWNLOADER_MIDDLEWARES = {"scrapy_charset.CharsetMiddleware": 585}' in first


def test_readme_links_into_every_docs_page() -> None:
    text = README.read_text("utf-8")
    links = set(re.findall(r"\]\(([^)#\s]+)\)", text))
    local = {link for link in links if not re.match(r"[a-z]+:", link)}
    assert [link for link in sorted(local) if not (REPO / link).exists()] == []
    pages = {p.relative_to(REPO).as_posix() for p in (REPO / "docs").glob("*.md")}
    assert sorted(pages - local) == []
