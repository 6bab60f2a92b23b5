"""Run a real Scrapy crawl in a child process and get its items, stats and log back.

A child process per crawl keeps each test's reactor (asyncio or the default one) and settings
isolated, exactly as ``scrapy crawl`` would run them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]


@dataclass
class CrawlResult:
    items: list[dict[str, Any]]
    stats: dict[str, Any]
    log: str
    returncode: int

    def stat(self, key: str, default: Any = 0) -> Any:
        return self.stats.get(key, default)


def run_crawl(
    spider: str,
    settings: dict[str, Any] | None = None,
    spider_kwargs: dict[str, Any] | None = None,
    timeout: float = 120,
) -> CrawlResult:
    """Crawl with ``spider`` ("package.module:ClassName", importable from the repo root).

    ``settings`` are applied at the 'cmdline' priority, above the spider's custom_settings,
    like ``scrapy crawl -s``. Items must be JSON-serialisable (dicts are converted with
    ItemAdapter). Raises AssertionError with the log if the child process fails.
    """
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "result.json"
        config = {
            "spider": spider,
            "settings": settings or {},
            "spider_kwargs": spider_kwargs or {},
            "output": str(out),
        }
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
        proc = subprocess.run(
            [sys.executable, "-m", "tests.support.crawl_runner", json.dumps(config)],
            cwd=tmp,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if proc.returncode != 0 or not out.exists():
            raise AssertionError(
                f"crawl failed (exit {proc.returncode}):\n{proc.stdout}\n{proc.stderr[-20000:]}"
            )
        data = json.loads(out.read_text("utf-8"))
    return CrawlResult(data["items"], data["stats"], proc.stderr, proc.returncode)
