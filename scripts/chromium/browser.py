"""Launching the local Chromium for the recording scripts (not used by the test suite)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
LANG = "en-US"

BASE_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    f"--lang={LANG}",
]


@contextmanager
def chromium(extra_args: list[str] | None = None) -> Iterator[Any]:
    """Yield a Playwright Browser for the Chromium binary named by $CHROMIUM."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=BASE_ARGS + (extra_args or []),
            env={**os.environ, "LANG": "en_US.UTF-8", "LANGUAGE": "en_US"},
        )
        try:
            yield browser
        finally:
            browser.close()


def describe(browser: Any, page: Any) -> dict[str, Any]:
    """What was recorded with: browser version, user agent and locale."""
    info = page.evaluate("() => [navigator.userAgent, navigator.language, navigator.languages]")
    return {
        "browser": "Chromium",
        "version": browser.version,
        "user_agent": info[0],
        "navigator_language": info[1],
        "navigator_languages": info[2],
        "lang_flag": LANG,
        "headless": True,
    }
