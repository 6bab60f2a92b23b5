"""Binary data is found to be text of no language by a bound on its readings' scores
(``letters.readings_below_zero``), without ranking them: the same answers as ranking gives."""

from __future__ import annotations

import random
from typing import Any

import pytest

from scrapy_charset.sniffing import letters
from scrapy_charset.sniffing.detect import (
    PREFIX_BYTES,
    CharsetNormalizerDetector,
    choose_single_byte,
    detection_window,
    text_sample,
)
from scrapy_charset.sniffing.letters import (
    CANDIDATES,
    LATIN_CANDIDATES,
    ranked_readings,
    readings_below_zero,
)


def _samples() -> list[bytes]:
    """Random bytes, and bytes near the bound: letters of a script among control codes."""
    rng = random.Random("no-language")
    samples = []
    for size in (16, 64, 300, 1024, 2048):
        for _ in range(40):
            samples.append(rng.randbytes(size))
            cyrillic = list(range(0xC0, 0x100)) * 3 + list(b"  ,.") + list(range(1, 32))
            samples.append(bytes(rng.choice(cyrillic) for _ in range(size)))
            palette = rng.sample(range(256), rng.randrange(2, 40))
            samples.append(bytes(rng.choice(palette) for _ in range(size)))
            mostly_high = [*range(0x80, 0x100), *range(1, 0x20)]
            samples.append(bytes(rng.choice(mostly_high) for _ in range(size)))
    return samples


def test_a_shown_bound_is_the_ranking_below_zero() -> None:
    shown = 0
    for sample in _samples():
        for candidates in (CANDIDATES, LATIN_CANDIDATES):
            pool = readings_below_zero(sample, candidates)
            if pool is None:
                continue
            shown += 1
            ranking = ranked_readings(sample, candidates)
            assert ranking.score < 0, sample.hex()
            assert set(ranking.best) <= set(pool), sample.hex()
    assert shown > 100  # (the bound shows it for most random bytes)


def test_choose_single_byte_answers_as_without_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    samples = _samples()
    rng = random.Random("windows")
    calls = []
    for sample in samples:
        window = rng.choice([b"", sample, sample + b"\x85"])
        for tld in (None, "ru", "pl"):
            calls.append((sample, tld, window))
    bounded = [choose_single_byte(s, tld, window=window) for s, tld, window in calls]

    def not_shown(*args: Any) -> None:
        return None

    monkeypatch.setattr(letters, "readings_below_zero", not_shown)
    ranked = [choose_single_byte(s, tld, window=window) for s, tld, window in calls]
    assert bounded == ranked


def test_random_bytes_are_not_ranked(monkeypatch: pytest.MonkeyPatch) -> None:
    # A mislabelled image or PDF: its readings are bounded (a fraction of ranking's cost).
    ranked: list[bytes] = []

    def recording(sample: bytes, *args: Any) -> Any:
        ranked.append(sample)
        return ranked_readings(sample, *args)

    monkeypatch.setattr(letters, "ranked_readings", recording)
    for seed in range(5):
        body = random.Random(seed).randbytes(30_000)
        assert text_sample(detection_window(body, PREFIX_BYTES))
        assert CharsetNormalizerDetector().detect(body) is None
    assert not ranked
