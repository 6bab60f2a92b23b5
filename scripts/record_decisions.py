"""Record the decision and text of every fixture document, to keep speed work exact.

Writes ``tests/data/decisions.jsonl.gz``: for each Chromium document and html5lib encoding
test, each response kind (html, xml, text) and each variant (as served; with a
``charset=utf-8`` header; forced to windows-1251), the decision (encoding, source, label,
overridden declarations, confidence) and a SHA-256 of the decoded text.
``tests/sniffing/test_decision_records.py`` compares the current code against it.

    python scripts/record_decisions.py      # only when a change of outcome is intended
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = ROOT / "tests" / "data" / "chromium" / "documents.jsonl.gz"
HTML5LIB = ROOT / "tests" / "data" / "html5lib-tests" / "encoding"
OUTPUT = ROOT / "tests" / "data" / "decisions.jsonl.gz"

VARIANTS: dict[str, tuple[list[str] | None, str | None]] = {
    "served": (None, None),
    "header-utf8": (["text/html; charset=utf-8"], None),
    "forced-1251": (None, "windows-1251"),
}


def documents() -> Iterator[tuple[str, bytes, list[str] | None, str]]:
    """(id, body, Content-Type values, URL) of every fixture document."""
    with gzip.open(CHROMIUM, "rt", encoding="utf-8") as f:
        f.readline()
        for line in f:
            d = json.loads(line)
            values = [v for name, v in d["headers"] if name.lower() == "content-type"]
            yield d["id"], base64.b64decode(d["body_b64"]), values or None, d["url"]
    for path in sorted(HTML5LIB.glob("*.dat")):
        for i, test in enumerate(path.read_bytes().split(b"#data\n")[1:]):
            data = test.split(b"\n#encoding\n")[0]
            yield f"{path.stem}-{i}", data, None, "http://example.com/"


def record(
    body: bytes, content_type: list[str] | None, url: str, kind: str, forced: str | None
) -> dict[str, Any]:
    from scrapy_charset.encoding import lookup
    from scrapy_charset.integration.response import BrowserDecoding

    decoding = BrowserDecoding(kind, forced=lookup(forced) if forced else None)
    text, d = decoding.decode(body, [v.encode("latin-1") for v in content_type or []], url)
    return {
        "encoding": d.encoding.name,
        "source": d.source.value,
        "label": d.label,
        "overridden": [
            [o.source.value, o.label, o.encoding.name if o.encoding else None] for o in d.overridden
        ],
        "confident": d.confident,
        "text": hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20],
    }


def records() -> Iterator[dict[str, Any]]:
    for doc_id, body, content_type, url in documents():
        for variant, (header, forced) in VARIANTS.items():
            for kind in ("html", "xml", "text"):
                yield {
                    "id": doc_id,
                    "variant": variant,
                    "kind": kind,
                    **record(body, header or content_type, url, kind, forced),
                }


def main() -> int:
    sys.path.insert(0, str(ROOT))
    with gzip.open(OUTPUT, "wt", encoding="utf-8", compresslevel=9) as out:
        for entry in records():
            out.write(json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
