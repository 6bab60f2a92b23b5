"""The recordings of what Chromium did, under ``tests/data/chromium`` (written by the scripts in
``scripts/chromium``): each a gzipped JSON-lines file whose first line describes the browser
and whose other lines are one document, page or case each."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

CHROMIUM_DATA = Path(__file__).parents[1] / "data" / "chromium"
# Where the recorded documents hold the text Chromium showed for them.
MARKER_START = '<p id="m">'
MARKER_END = "</p>"


def read_recording(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The browser's description and the rows of the recording ``name``."""
    with gzip.open(CHROMIUM_DATA / name, "rt", encoding="utf-8") as f:
        browser = json.loads(f.readline())
        return browser, [json.loads(line) for line in f if line.strip()]


def content_type_values(document: dict[str, Any]) -> list[str] | None:
    """The document's ``Content-Type`` header values, in order, or ``None`` without one."""
    values = [value for name, value in document["headers"] if name.lower() == "content-type"]
    return values or None


def marker_in_source(text: str) -> str | None:
    """The source text between the marker's start and end tags, if both are there."""
    start = text.find(MARKER_START)
    if start < 0:
        return None
    start += len(MARKER_START)
    end = text.find(MARKER_END, start)
    return text[start:end] if end >= 0 else None
