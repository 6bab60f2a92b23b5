"""``scrapy crawl pages`` in ``example_project/``, run for real in a subprocess."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from scrapy_charset.tools.demo_site import PAGES

PROJECT = Path(__file__).resolve().parents[1] / "example_project"


def scrapy_crawl(tmp_path: Path, *args: str) -> tuple[list[dict[str, Any]], str]:
    """Run ``scrapy crawl pages ARGS`` in the example project; return its items and log."""
    items = tmp_path / "items.jsonl"
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    env.pop("SCRAPY_SETTINGS_MODULE", None)
    done = subprocess.run(
        [sys.executable, "-m", "scrapy", "crawl", "pages", "-O", str(items), "-s", "LOG_LEVEL=INFO"]
        + list(args),
        cwd=PROJECT,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-5000:]
    lines = items.read_text("utf-8").splitlines()
    return [json.loads(line) for line in lines], done.stderr


def dumped_stats(log: str) -> dict[str, int]:
    """The integer ``charset/...`` entries of the "Dumping Scrapy stats" block of the log."""
    dump = log[log.index("Dumping Scrapy stats") :]
    return {key: int(value) for key, value in re.findall(r"'(charset/[^']+)': (\d+)\b", dump)}


def assert_read_like_a_browser(items: list[dict[str, Any]]) -> None:
    by_path = {urlsplit(item["url"]).path: item for item in items}
    assert sorted(by_path) == sorted(page.path for page in PAGES)
    for page in PAGES:
        item = by_path[page.path]
        assert (item["title"], item["text"]) == (page.expected, page.expected), page.slug
        assert (item["encoding"], item["decided_by"]) == (page.encoding, page.rule), page.slug


def test_scrapy_crawl_serves_and_reads_the_demo_site(tmp_path: Path) -> None:
    items, log = scrapy_crawl(tmp_path)
    assert_read_like_a_browser(items)
    stats = dumped_stats(log)
    rules = Counter(page.rule for page in PAGES)
    rules["header"] += 1  # the index page
    for rule, count in rules.items():
        assert stats[f"charset/source/{rule}"] == count
    assert stats["charset/encoding/Shift_JIS"] == 2
    assert stats["charset/item/seen"] == len(PAGES)  # the pipeline looked at every item
    assert re.search(r"Enabled addons:\n\[<scrapy_charset\.integration\.addon\.Addon ", log)
