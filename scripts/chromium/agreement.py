"""Agreement with Chromium on pages labelled with names no browser knows, grouped.

Usage: ``PYTHONPATH=. python scripts/chromium/agreement.py [--split=dev,fresh] [--held-out]
[--misses]`` prints, per split of ``unknown_labels_more.jsonl.gz`` (the held-out split only
with ``--held-out``), of the older ``unknown_labels`` fixture (``old``) and of
``unknown_labels_classes.jsonl.gz`` (``probe``), how many pages read as Chromium shows them,
per label, and with
``--misses`` each page that does not (label, language, size, host: Chromium's encoding
and the project's).
"""

from __future__ import annotations

import base64
import gzip
import json
import sys
from collections import Counter
from pathlib import Path

from scrapy_charset.encoding import decode, lookup
from scrapy_charset.sniffing import decode_html

DATA = Path(__file__).parents[2] / "tests" / "data" / "chromium"


def load() -> list[dict]:
    rows = []
    fixtures = (
        ("unknown_labels.jsonl.gz", "old"),
        ("unknown_labels_more.jsonl.gz", None),
        ("unknown_labels_classes.jsonl.gz", None),
    )
    for name, default in fixtures:
        with gzip.open(DATA / name, "rt", encoding="utf-8") as f:
            f.readline()
            for line in f:
                row = json.loads(line)
                row.setdefault("split", default)
                rows.append(row)
    return rows


def label_of(row: dict) -> str:
    return row["description"].split(" labelled ")[-1].split(" (")[0]


def judge(row: dict) -> tuple[bool, str, str]:
    body = base64.b64decode(row["body_b64"])
    headers = [v for n, v in row["headers"] if n.lower() == "content-type"]
    text, decision = decode_html(body, headers or None, url=row["url"])
    chromium = lookup(row["chromium"]["charset"])
    return text == decode(body, chromium), chromium.name, decision.encoding.name


def main(argv: list[str]) -> int:
    splits = None
    for arg in argv:
        if arg.startswith("--split="):
            splits = set(arg.split("=", 1)[1].split(","))
    if splits is None:
        # The held-out split is for checking rules once they are written, not for writing them.
        splits = {"old", "dev", "fresh", "probe"}
        if "--held-out" in argv:
            splits.add("held-out")
    rows = [r for r in load() if r["split"] in splits]
    per_split: Counter = Counter()
    totals: Counter = Counter()
    per_label: Counter = Counter()
    label_totals: Counter = Counter()
    misses = []
    for row in rows:
        ok, chromium, ours = judge(row)
        per_split[row["split"]] += ok
        totals[row["split"]] += 1
        label = label_of(row) if row["group"] != "none" else row["id"].split("-")[1]
        per_label[label] += ok
        label_totals[label] += 1
        if not ok:
            misses.append((row["split"], row["id"], row["url"].split("/")[2], chromium, ours))
    for split in sorted(totals):
        print(f"{split:9} {per_split[split]}/{totals[split]}")
    print(" ".join(f"{lab} {per_label[lab]}/{label_totals[lab]}" for lab in sorted(label_totals)))
    if "--misses" in argv:
        for miss in sorted(misses):
            print(*miss)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
