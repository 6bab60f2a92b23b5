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
    return start_crawl(spider, settings, spider_kwargs).wait(timeout)


class RunningCrawl:
    """A crawl running in a child process (see :func:`start_crawl`)."""

    def __init__(self, config: dict[str, Any]) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self._out = Path(self._tmp.name) / "result.json"
        config = {**config, "output": str(self._out)}
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
        self._log = open(Path(self._tmp.name) / "log.txt", "w+", encoding="utf-8")  # noqa: SIM115
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.support.crawl_runner", json.dumps(config)],
            cwd=self._tmp.name,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            text=True,
        )

    def wait(self, timeout: float = 120) -> CrawlResult:
        """Wait for the crawl to end (killed after ``timeout`` seconds) and return its result."""
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        try:
            self._log.seek(0)
            log = self._log.read()
            if self.process.returncode != 0 or not self._out.exists():
                raise AssertionError(
                    f"crawl failed (exit {self.process.returncode}):\n{log[-20000:]}"
                )
            data = json.loads(self._out.read_text("utf-8"))
        finally:
            self._log.close()
            self._tmp.cleanup()
        return CrawlResult(data["items"], data["stats"], log, self.process.returncode)


def start_crawl(
    spider: str,
    settings: dict[str, Any] | None = None,
    spider_kwargs: dict[str, Any] | None = None,
) -> RunningCrawl:
    """Start the crawl :func:`run_crawl` runs, without waiting for it (several can run at once)."""
    return RunningCrawl(
        {"spider": spider, "settings": settings or {}, "spider_kwargs": spider_kwargs or {}}
    )
