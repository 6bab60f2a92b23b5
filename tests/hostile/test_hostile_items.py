"""Items built to hurt the pipeline: shared sub-objects, huge damaged fields, hostile keys.

Each class of item once stalled the reactor, took a gigabyte, or lost the item; every one
must now come through the pipeline (with or without the opt-in actions) with its text counted.
"""

from __future__ import annotations

import time
import tracemalloc
from typing import Any

import pytest

from scrapy_charset.quality import count_mojibake
from tests.hostile.test_properties_pipeline import make_pipeline

MOJIBAKE = "Crème brûlée, Привет".encode().decode("cp1252", errors="replace")
DEPTH = 24  # below the pipeline's inspection depth


class CountingList(list):  # type: ignore[type-arg]
    """A list that counts how often it is iterated."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.iterations = 0

    def __iter__(self) -> Any:
        self.iterations += 1
        return super().__iter__()


def shared_tree(leaf: Any) -> tuple[CountingList, list[CountingList]]:
    """node = [node, node], DEPTH times: 2**DEPTH paths down to one leaf."""
    nodes = []
    node: Any = leaf
    for _ in range(DEPTH):
        node = CountingList([node, node])
        nodes.append(node)
    return node, nodes


@pytest.mark.parametrize(
    "settings",
    [{}, {"CHARSET_ITEM_NORMALIZE": "NFKC", "CHARSET_ITEM_ADD_FINDINGS": True}],
    ids=["watch", "normalize-and-annotate"],
)
def test_shared_sub_objects_are_walked_once_each(settings: dict[str, Any]) -> None:
    pipeline = make_pipeline(**settings)
    root, nodes = shared_tree(MOJIBAKE)
    item = {"url": "http://example.com/", "tree": root}
    start = time.process_time()
    assert pipeline.process_item(item) is item
    assert time.process_time() - start < 5  # 2**24 visits would take minutes
    # Once to inspect, at most once more to rewrite.
    assert max(node.iterations for node in nodes) <= 2
    pipeline.close_spider()
    stats = pipeline.stats.get_stats()
    assert stats["charset/item/mojibake"] == 1
    path = "tree" + "[]" * DEPTH
    # The innermost list holds the leaf twice; every list above it is walked once.
    assert stats[f"charset/item/field/{path}/mojibake"] == 2


# One garbled word after another with no break: a single region of adjacent stretches.
ONE_REGION = ("東京都の価格は１２３円です" * 15_000).encode().decode("latin-1")


@pytest.mark.parametrize(
    "text",
    [(MOJIBAKE + " ") * 20_000, ONE_REGION],  # 480 K characters, 2 of 3 damaged; 585 K
    ids=["words", "one-region"],
)
def test_counting_mojibake_needs_no_record_per_character(text: str) -> None:
    tracemalloc.start()
    try:
        count = count_mojibake(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == (20_000 * count_mojibake(MOJIBAKE) if text[0] == "C" else len(text) // 3)
    # The UTF-8 form of the text for the pre-check, and little more (a record per damaged
    # character took about 135 bytes each: 40 MB here).
    assert peak < 4 * len(text) + 1_000_000


def test_a_huge_damaged_field_goes_through_the_pipeline_in_bounded_memory() -> None:
    pipeline = make_pipeline()
    text = (MOJIBAKE + " ") * 20_000
    tracemalloc.start()
    try:
        pipeline.process_item({"url": "u", "text": text})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * len(text) + 1_000_000
    pipeline.close_spider()
    assert pipeline.stats.get_value("charset/item/mojibake_chars") == count_mojibake(text)


class HostileKey(str):
    """A text field key whose ``==`` raises (``!=`` and hashing work as str's)."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("hostile __eq__")

    __hash__ = str.__hash__


class HostileObjectKey:
    """A field key that is not text, whose every comparison raises."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("hostile __eq__")

    __hash__ = object.__hash__

    def __str__(self) -> str:
        return "object-key"


@pytest.mark.parametrize(
    "settings",
    [
        {},
        {"CHARSET_ITEM_NORMALIZE": "NFKC"},
        {"CHARSET_ITEM_NORMALIZE": "NFC", "CHARSET_ITEM_ADD_FINDINGS": True},
        {"CHARSET_ITEM_NORMALIZE": "NFKC", "CHARSET_ITEM_FIELDS": ("title",)},
    ],
    ids=["watch", "nfkc", "nfc-findings", "nfkc-some-fields"],
)
@pytest.mark.parametrize("value", ["ｆｕｌｌ", MOJIBAKE, ["ｆｕｌｌ", {"ｎ": MOJIBAKE}]])
@pytest.mark.parametrize("key", [HostileKey("odd"), HostileObjectKey()], ids=["str", "object"])
def test_a_key_whose_eq_raises_never_loses_the_item(
    settings: dict[str, Any], value: Any, key: Any
) -> None:
    pipeline = make_pipeline(**settings)
    item = {"title": "ｔｉｔｌｅ", key: value, "nested": {key: value}}
    for _ in range(3):  # the fast path too, once the item's keys are known
        assert pipeline.process_item(item) is item
    pipeline.close_spider()


def test_an_item_whose_attribute_lookup_raises_never_loses_the_item() -> None:
    """A dataclass item whose instance dict holds a key that compares equal to a field name's
    hash and raises in ``__eq__``: reading the item runs that code (the compiled check and
    getattr alike); the item goes on unchanged, counted as an item the pipeline failed on."""
    from dataclasses import dataclass

    @dataclass
    class Article:
        title: str
        note: str

    class Collides:
        def __hash__(self) -> int:
            return hash("note")

        def __eq__(self, other: object) -> bool:
            raise ValueError("no comparing")

    pipeline = make_pipeline()
    for _ in range(3):
        item = Article("ｔｉｔｌｅ", "x")
        del item.__dict__["note"]
        item.__dict__[Collides()] = 1
        assert pipeline.process_item(item) is item
    pipeline.close_spider()
