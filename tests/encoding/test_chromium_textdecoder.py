"""``decode`` against Chromium's ``TextDecoder``, input by input.

Fixtures: ``tests/data/chromium/textdecoder/`` (recorded by ``scripts/chromium/
record_textdecoder.py``; see ``tests/data/chromium/FINDINGS.md``). ``TextDecoder`` with
``ignoreBOM`` false is ``bom="strip"``; with ``ignoreBOM`` true it is ``bom="keep"``.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from scrapy_charset.encoding import ALL_ENCODINGS, IncrementalDecoder, decode, lookup

# Every test here runs on the compiled CJK decoders and on the pure-Python paths.
pytestmark = pytest.mark.usefixtures("cjk_backend")

FIXTURES = Path(__file__).parents[1] / "data" / "chromium" / "textdecoder"
SHOWN = 20

# Where Chromium's output differs from Firefox's (whose decoders follow the Encoding Standard),
# Chromium deviates from the standard and Firefox's output is expected instead. Recorded by
# scripts/chromium/record_textdecoder_firefox.py; see FINDINGS.md ("TextDecoder").
SECOND_OPINION = json.loads((FIXTURES / "firefox-differences.json").read_text("utf-8"))
STANDARD_OVER_CHROMIUM: dict[str, dict[str, str]] = SECOND_OPINION["differences"]


def load(path: Path) -> tuple[dict[str, Any], list[tuple[str, bool, str]]]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        meta = json.loads(f.readline())
        cases = [tuple(json.loads(line)) for line in f]
    return meta, cases  # type: ignore[return-value]


def fixture_names() -> list[str]:
    return sorted(p.name.removesuffix(".jsonl.gz") for p in FIXTURES.glob("*.jsonl.gz"))


def test_every_encoding_but_replacement_is_recorded() -> None:
    # TextDecoder refuses "replacement" (RangeError); every other encoding has a fixture.
    expected = sorted(e.name for e in ALL_ENCODINGS if e.name != "replacement")
    assert fixture_names() == expected


@pytest.mark.parametrize("name", fixture_names())
def test_decode_matches_chromium_textdecoder(name: str) -> None:
    meta, cases = load(FIXTURES / f"{name}.jsonl.gz")
    assert meta["encoding"] == name and meta["fatal"] is False
    assert len(cases) == meta["count"] > 256
    overrides = STANDARD_OVER_CHROMIUM.get(name, {})
    mismatches: list[str] = []
    for hex_input, ignore_bom, chromium_output in cases:
        expected = overrides.get(f"{hex_input} {int(ignore_bom)}", chromium_output)
        got = decode(bytes.fromhex(hex_input), name, bom="keep" if ignore_bom else "strip")
        if got != expected:
            mismatches.append(
                f"{hex_input} ignoreBOM={ignore_bom}: expected {expected!a} got {got!a}"
            )
    assert not mismatches, (
        f"{len(mismatches)}/{len(cases)} {name} inputs differ from Chromium; first {SHOWN}:\n"
        + "\n".join(mismatches[:SHOWN])
    )


STREAMED_PER_ENCODING = 120


@pytest.mark.parametrize("name", fixture_names())
def test_incremental_decoder_matches_chromium_at_every_split(name: str) -> None:
    # Chromium's streaming TextDecoder equals its one-call output at every split (FINDINGS.md),
    # so each recorded output is also the expected result of chunked decoding.
    _, cases = load(FIXTURES / f"{name}.jsonl.gz")
    overrides = STANDARD_OVER_CHROMIUM.get(name, {})
    long_cases = [case for case in cases if len(case[0]) >= 6]  # 3 bytes or more
    sample = long_cases[:: max(1, len(long_cases) // STREAMED_PER_ENCODING)]  # spread over classes
    mismatches: list[str] = []
    for hex_input, ignore_bom, chromium_output in sample:
        expected = overrides.get(f"{hex_input} {int(ignore_bom)}", chromium_output)
        data = bytes.fromhex(hex_input)
        decoder = IncrementalDecoder(name, bom="keep" if ignore_bom else "strip")
        for cut in range(1, len(data)):
            got = decoder.decode(data[:cut]) + decoder.decode(data[cut:], final=True)
            if got != expected:
                mismatches.append(f"{hex_input} split at {cut}: expected {expected!a} got {got!a}")
                break
        got = "".join(decoder.decode(data[i : i + 1]) for i in range(len(data)))
        got += decoder.decode(b"", final=True)
        if got != expected:
            mismatches.append(f"{hex_input} byte by byte: expected {expected!a} got {got!a}")
    assert not mismatches, (
        f"{len(mismatches)} chunked {name} decodes differ; first {SHOWN}:\n"
        + "\n".join(mismatches[:SHOWN])
    )


def test_chromium_deviations_are_known_classes() -> None:
    # Chromium deviates only in Big5 (4 two-code-point pairs), EUC-JP (JIS X 0212 flag kept
    # after an error) and ISO-2022-JP (invalid escapes); a new class means re-investigating.
    assert SECOND_OPINION["firefox"].startswith("Mozilla Firefox")
    assert sorted(STANDARD_OVER_CHROMIUM) == ["Big5", "EUC-JP", "ISO-2022-JP"]
    assert sorted(STANDARD_OVER_CHROMIUM["Big5"]) == ["8862 0", "8864 0", "88a3 0", "88a5 0"]
    for key in STANDARD_OVER_CHROMIUM["EUC-JP"]:
        assert 0x8F in bytes.fromhex(key.split()[0])
    for key in STANDARD_OVER_CHROMIUM["ISO-2022-JP"]:
        assert 0x1B in bytes.fromhex(key.split()[0])


def test_labels_match_chromium() -> None:
    recorded = json.loads((FIXTURES / "labels.json").read_text("utf-8"))["results"]
    assert len(recorded) > 228
    wrong = []
    for label, chromium in recorded.items():
        encoding = lookup(label)
        # TextDecoder throws RangeError for failure and for the replacement encoding.
        ours = "RangeError" if encoding is None or encoding.name == "replacement" else encoding.name
        if ours.lower() != chromium.lower():
            wrong.append(f"{label!a}: chromium {chromium} ours {ours}")
    assert not wrong, "\n".join(wrong[:SHOWN])
