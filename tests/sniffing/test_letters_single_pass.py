"""Detection's scores computed in fewer passes, exactly as before: the misplaced-pattern
score counts the two-letter patterns in one pass (``letters._pair_count``), the same sum as
one ``bytes.count`` per pattern; the language scores pick the weights at once, the same
floats as one lookup each; on any reading of random bytes and of the labelled pages."""

from __future__ import annotations

from operator import mul
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_charset.sniffing import letters
from scrapy_charset.sniffing.letters import CANDIDATES, languages_of

_PATTERNS = (*letters._MISPLACED, *letters._MISPLACED_FINAL)
_PAGES = sorted((Path(__file__).parent.parent / "data" / "detection").glob("*.html"))


def _counted_one_by_one(classes: bytes) -> float:
    """The score as each pattern's own search counts it (the way before the single pass)."""
    return letters._CONTEXT * sum(map(classes.count, _PATTERNS))


@settings(max_examples=400, deadline=None)
@given(
    data=st.one_of(
        st.binary(max_size=300),
        st.lists(st.sampled_from([b"\xe9", b"a", b"\x9d", b"7", b" ", b"\xc0", b"A"])).map(
            b"".join
        ),
    ),
    encoding=st.sampled_from(CANDIDATES),
)
def test_the_single_pass_counts_as_the_searches(data: bytes, encoding: str) -> None:
    classes = data.translate(letters._class_table(encoding))
    assert letters._misplaced_score(classes) == _counted_one_by_one(classes)


def test_the_single_pass_counts_as_the_searches_on_random_bodies() -> None:
    import random

    rng = random.Random(15)
    for size in (0, 1, 2, 3, 30_000):
        body = rng.randbytes(size)
        for encoding in CANDIDATES:
            classes = body.translate(letters._class_table(encoding))
            assert letters._misplaced_score(classes) == _counted_one_by_one(classes)


@pytest.mark.parametrize("page", _PAGES[::7], ids=lambda p: p.name)
def test_the_single_pass_counts_as_the_searches_on_labelled_pages(page: Path) -> None:
    body = page.read_bytes()
    for encoding in CANDIDATES:
        classes = body.translate(letters._class_table(encoding))
        assert letters._misplaced_score(classes) == _counted_one_by_one(classes)


def test_every_class_letter_has_an_index() -> None:
    # The pair codes need every letter a class table gives among the indexed classes.
    for encoding in CANDIDATES:
        assert set(letters._class_table(encoding)) <= set(letters._CLASSES)


def _scored_one_by_one(keys: list[int], numbers: list[int], encoding: str) -> dict[str, float]:
    """The language scores with one lookup per byte (the way before)."""
    return {
        language: sum(
            map(mul, numbers, map(letters._weights(encoding, language).__getitem__, keys))
        )
        for language in languages_of(encoding)
    }


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=400), encoding=st.sampled_from(CANDIDATES))
def test_language_scores_pick_the_same_weights(data: bytes, encoding: str) -> None:
    keys, numbers = letters._byte_counts(data)
    expected = _scored_one_by_one(keys, numbers, encoding)
    assert letters._language_scores(keys, numbers, encoding) == expected
    given = letters._getter(keys)
    assert letters._language_scores(keys, numbers, encoding, given) == expected


@pytest.mark.parametrize("page", _PAGES[3::11], ids=lambda p: p.name)
def test_language_scores_pick_the_same_weights_on_labelled_pages(page: Path) -> None:
    keys, numbers = letters._byte_counts(page.read_bytes())
    for encoding in CANDIDATES:
        expected = _scored_one_by_one(keys, numbers, encoding)
        assert letters._language_scores(keys, numbers, encoding, letters._getter(keys)) == expected
