"""Property tests for the item pipeline: any item comes through, unchanged, and nothing raises."""

from __future__ import annotations

import dataclasses
import functools
import math
from typing import Any

import pytest
import scrapy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scrapy.exceptions import DropItem
from scrapy.utils.test import get_crawler

from scrapy_charset.integration.pipeline import CharsetPipeline
from tests.support.scrapy_compat import open_stats

FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class BrokenStr:
    """An object every text hook of which fails."""

    def __str__(self) -> str:
        raise RuntimeError("broken __str__")

    __repr__ = __format__ = __str__  # type: ignore[assignment]

    def __iter__(self) -> Any:
        raise RuntimeError("broken __iter__")

    def __len__(self) -> int:
        raise RuntimeError("broken __len__")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("broken __eq__")

    __hash__ = object.__hash__


class BrokenStrSubclass(str):
    """A ``str`` whose methods lie: the pipeline must not trust them."""

    def __str__(self) -> str:
        raise RuntimeError("broken __str__")

    def __iter__(self) -> Any:
        raise RuntimeError("broken __iter__")


class Product(scrapy.Item):
    url = scrapy.Field()
    title = scrapy.Field()
    body = scrapy.Field()
    extra = scrapy.Field()


@dataclasses.dataclass
class Record:
    url: Any = None
    title: Any = None
    body: Any = None


texts = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["Café", "CafÃ©", "â€™quoted â€œ", "\ufffd", "caf\ufffd \ufffd", "Ã", "",
                     "Nguyá»\x85n", "Ä°stanbul", "日本語", "\ud800 lone", "\x00\x80\x9f"]),
    st.builds(BrokenStrSubclass, st.sampled_from(["ok", "Ã©", "\ufffd"])),
)
leaves = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), texts,
    st.binary(max_size=20), st.builds(BrokenStr), st.just(math.inf), st.just(Ellipsis),
)
values = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(st.one_of(st.text(max_size=5), st.integers(), st.none()), inner,
                        max_size=4),
    ),
    max_leaves=12,
)


def snapshot(value: Any, memo: dict[int, int] | None = None) -> Any:
    """The identity of every container and leaf reachable from ``value``, cycles included."""
    memo = {} if memo is None else memo
    if id(value) in memo:
        return ("seen", memo[id(value)])
    memo[id(value)] = len(memo)
    if type(value) is dict:
        pairs = [(snapshot(k, memo), snapshot(v, memo)) for k, v in value.items()]
        return (dict, id(value), pairs)
    if isinstance(value, scrapy.Item):
        return (type(value), id(value), [(k, snapshot(v, memo)) for k, v in value.items()])
    if type(value) in (list, tuple):
        return (type(value), id(value), [snapshot(v, memo) for v in value])
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value), id(value), [snapshot(getattr(value, f.name), memo)
                                          for f in dataclasses.fields(value)])
    return ("leaf", id(value))


@functools.cache
def _crawler(settings_items: tuple[tuple[str, Any], ...]) -> Any:
    return get_crawler(settings_dict=dict(settings_items))


def make_pipeline(**extra: Any) -> CharsetPipeline:
    """A pipeline built the way Scrapy builds it, with fresh stats."""
    crawler = _crawler(tuple(sorted(extra.items())))
    open_stats(crawler)
    crawler.stats.clear_stats()
    pipeline = CharsetPipeline.from_crawler(crawler)
    pipeline.open_spider()
    return pipeline


def build_item(kind: str, fields: dict[str, Any], cycle: bool) -> Any:
    if cycle:
        loop: list[Any] = [fields.get("title")]
        loop.append(loop)
        nested: dict[str, Any] = {"again": None}
        nested["again"] = nested
        fields = {**fields, "extra": [loop, nested]}
    if kind == "item":
        return Product(**fields)
    if kind == "dataclass":
        return Record(**{k: v for k, v in fields.items() if k != "extra"})
    return fields


item_fields = st.fixed_dictionaries(
    {"url": st.one_of(st.just("http://example.com/x"), leaves), "title": values,
     "body": values},
    optional={"extra": values},
)


@FAST
@given(fields=item_fields, kind=st.sampled_from(["dict", "item", "dataclass"]),
       cycle=st.booleans())
def test_any_item_passes_through_unchanged(fields: dict[str, Any], kind: str, cycle: bool):
    pipeline = make_pipeline()
    item = build_item(kind, fields, cycle)
    before = snapshot(item)
    for _ in range(3):  # repeated items exercise the per-field windows
        assert pipeline.process_item(item) is item
    assert snapshot(item) == before
    pipeline.close_spider()


@FAST
@given(fields=item_fields, kind=st.sampled_from(["dict", "item"]))
def test_opt_in_actions_never_raise_anything_but_drop_item(fields: dict[str, Any], kind: str):
    pipeline = make_pipeline(CHARSET_ITEM_ADD_FINDINGS=True, CHARSET_ITEM_DROP_THRESHOLD=0.5,
                             CHARSET_ITEM_NORMALIZE="NFKC")
    item = build_item(kind, fields, cycle=False)
    try:
        assert pipeline.process_item(item) is item
    except DropItem:
        pass
    pipeline.close_spider()


@pytest.mark.parametrize("kind", ["dict", "item"])
def test_huge_strings_are_inspected(kind: str) -> None:
    pipeline = make_pipeline()
    huge = "Café " * 100_000 + "\ufffd" + "CafÃ© " * 20_000
    item = build_item(kind, {"url": "http://example.com/", "title": huge, "body": [huge] * 3},
                      cycle=False)
    assert pipeline.process_item(item) is item
    assert item["title"] is huge
    pipeline.close_spider()
    stats = pipeline.stats.get_stats()
    assert stats["charset/item/with_replacement"] == 1
    assert stats.get("charset/item/mojibake", 0) >= 1


def test_items_of_unknown_types_pass_through_and_are_counted() -> None:
    pipeline = make_pipeline()
    odd = [BrokenStr(), b"raw bytes", None, 42, ["a", "b"], "just a string"]
    for item in odd:
        try:
            result = pipeline.process_item(item)
        except DropItem:
            pytest.fail(f"dropped {type(item).__name__} without being asked to")
        assert result is item
    pipeline.close_spider()


@pytest.mark.parametrize("kind", ["dict", "item"])
def test_spike_report_with_a_url_whose_str_raises(kind: str, caplog: pytest.LogCaptureFixture):
    # The example URL of a spike is logged when the spider closes: a str subclass whose
    # __str__ and __format__ raise must not fail close_spider (it is logged as plain text).
    class LoudURL(BrokenStrSubclass):
        def __format__(self, spec: str) -> str:
            raise RuntimeError("broken __format__")

    pipeline = make_pipeline()
    fields = {"url": LoudURL("https://example.com/p"), "title": None,
              "body": [[""], ["", "", "Â\xa0"]]}
    item = build_item(kind, fields, cycle=False)
    for _ in range(3):
        assert pipeline.process_item(item) is item
    with caplog.at_level("WARNING"):
        pipeline.close_spider()
    assert any("https://example.com/p" in r.getMessage() for r in caplog.records)
