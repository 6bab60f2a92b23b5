"""Every fixture document decides and decodes exactly as recorded.

The record (``tests/data/decisions.jsonl.gz``, written by ``scripts/record_decisions.py``)
holds, for each Chromium document and html5lib encoding test, each response kind and each
variant (as served, with a UTF-8 header, forced), the whole decision and a hash of the text.
Fast paths must not change any of them; re-record only for an intended change of outcome.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "tests" / "data" / "decisions.jsonl.gz"


def _recorder() -> Any:
    spec = importlib.util.spec_from_file_location(
        "record_decisions", ROOT / "scripts" / "record_decisions.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_decisions_and_texts_match_the_record() -> None:
    with gzip.open(RECORD, "rt", encoding="utf-8") as f:
        recorded = [json.loads(line) for line in f]
    current = list(_recorder().records())
    assert len(current) == len(recorded) > 5000
    differences = [
        (
            old["id"],
            old["variant"],
            old["kind"],
            {k: (old[k], new[k]) for k in old if old[k] != new[k]},
        )
        for old, new in zip(recorded, current, strict=True)
        if old != new
    ]
    assert not differences, differences[:20]
