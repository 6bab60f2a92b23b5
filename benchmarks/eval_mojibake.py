"""Mojibake repair and detection against ftfy, on the same texts, side by side.

Usage: python benchmarks/eval_mojibake.py [--ftfy-cases DIR] [--failures]

Sets: the genuine and garbled sentences of ``tests/support/mojibake_corpus.py`` (many
languages; UTF-8 read as windows-1252, ISO-8859-1, windows-1251, windows-1250, twice, one line
of several, mixed with genuine text), and, with ``--ftfy-cases``, the JSON test cases of ftfy's
own repository (``tests/test-cases`` of a python-ftfy checkout; cases expected to pass; those
whose expected ``fixed-encoding`` differs from the original are garbled, the others genuine).

Printed per set: repaired exactly (garbled texts), unchanged (genuine texts), and detection:
genuine texts flagged, garbled texts found. ftfy's detection is "fix_encoding changes it" and
``ftfy.badness.is_bad``; the project's is ``count_mojibake(text) > 0``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scrapy_charset import quality  # noqa: E402
from tests.support.mojibake_corpus import garbled, genuine  # noqa: E402

Garbled = list[tuple[str, str, str]]
Genuine = list[tuple[str, str]]


def ftfy_cases(folder: Path) -> tuple[Garbled, Genuine]:
    bad: Garbled = []
    good: Genuine = []
    for path in sorted(folder.glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8")):
            if case.get("expect") != "pass":
                continue
            expected = case.get("fixed-encoding", case["fixed"])
            if expected == case["original"]:
                good.append((case["label"], case["original"]))
            else:
                bad.append((case["label"], case["original"], expected))
    return bad, good


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ftfy-cases", type=Path, help="python-ftfy's tests/test-cases folder")
    parser.add_argument("--failures", action="store_true", help="list the project's failures")
    args = parser.parse_args(argv)
    try:
        import ftfy
        import ftfy.badness
    except ImportError:
        print("ftfy is not installed (pip install '.[ftfy]')", file=sys.stderr)
        return 2
    sets: dict[str, tuple[Garbled, Genuine]] = {"sentences": (list(garbled()), genuine())}
    if args.ftfy_cases:
        sets["ftfy cases"] = ftfy_cases(args.ftfy_cases)
    repairers: dict[str, Callable[[str], str]] = {
        "ftfy.fix_encoding": ftfy.fix_encoding,
        "quality.repair": quality.repair,
        "quality.repair_spans (no ftfy)": quality.repair_spans,
    }
    detectors: dict[str, Callable[[str], bool]] = {
        "ftfy: fix_encoding changes it": lambda t: ftfy.fix_encoding(t) != t,
        "ftfy.badness.is_bad": ftfy.badness.is_bad,
        "quality.count_mojibake > 0": lambda t: quality.count_mojibake(t) > 0,
    }
    for name, (bad, good) in sets.items():
        print(f"{name}: {len(bad)} garbled, {len(good)} genuine")
        for label, fix in repairers.items():
            start = time.perf_counter()
            exact = sum(fix(text) == truth for _, text, truth in bad)
            kept = sum(fix(text) == text for _, text in good)
            took = time.perf_counter() - start
            print(
                f"  repair  {label:32} exact {exact:4}/{len(bad)} ({exact / len(bad):6.1%})  "
                f"genuine unchanged {kept:4}/{len(good)} ({kept / len(good):6.1%})  "
                f"{took / (len(bad) + len(good)) * 1e6:7.0f} us/text"
            )
            if args.failures and fix is quality.repair:
                for case, text, truth in bad:
                    if fix(text) != truth:
                        print(f"      missed  {case}: {text[:60]!r} -> {fix(text)[:60]!r}")
                for case, text in good:
                    if fix(text) != text:
                        print(f"      changed {case}: {text[:60]!r}")
        for label, flags in detectors.items():
            false = sum(bool(flags(text)) for _, text in good)
            found = sum(bool(flags(text)) for _, text, _ in bad)
            print(
                f"  detect  {label:32} false positives {false:3}/{len(good)}  "
                f"found {found:4}/{len(bad)} ({found / len(bad):6.1%})"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
