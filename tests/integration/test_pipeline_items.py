"""CharsetPipeline on each item type ItemAdapter supports, odd values, and opt-in actions."""

from __future__ import annotations

import copy
import dataclasses
import logging
import random
import warnings
from typing import Any

import attr
import pydantic
import pytest
import scrapy
from hypothesis import given, settings
from hypothesis import strategies as st
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.test import get_crawler

from scrapy_charset.integration.pipeline import CharsetPipeline
from scrapy_charset.integration.pipeline_settings import PipelineConfig

CLEAN = "Crème brûlée à la française"
BROKEN = CLEAN.encode("cp1252").decode("utf-8", errors="replace")  # really mis-decoded bytes
MOJIBAKE = CLEAN.encode("utf-8").decode("cp1252")
assert BROKEN.count("\ufffd") == 5 and MOJIBAKE.startswith("CrÃ¨me brÃ»lÃ©e")


def make_pipeline(**settings: Any) -> tuple[CharsetPipeline, Any]:
    crawler = get_crawler(settings_dict=settings)
    pipeline = CharsetPipeline.from_crawler(crawler)
    pipeline.open_spider()
    return pipeline, crawler.stats


def charset_stats(stats: Any) -> dict[str, Any]:
    return {k: v for k, v in stats.get_stats().items() if k.startswith("charset/")}


# -- item types ---------------------------------------------------------------------------
class ScrapyProduct(scrapy.Item):
    url = scrapy.Field()
    name = scrapy.Field()
    offers = scrapy.Field()
    charset_findings = scrapy.Field()


class ScrapyProductNoFindings(scrapy.Item):
    url = scrapy.Field()
    name = scrapy.Field()
    offers = scrapy.Field()


@dataclasses.dataclass
class DataclassProduct:
    url: str
    name: str
    offers: list[Any]
    charset_findings: dict[str, Any] | None = None


@dataclasses.dataclass
class DataclassProductNoFindings:
    url: str
    name: str
    offers: list[Any]


@dataclasses.dataclass(frozen=True)
class FrozenProduct:
    url: str
    name: str
    offers: list[Any]


@attr.s(auto_attribs=True)
class AttrsProduct:
    url: str
    name: str
    offers: list[Any]
    charset_findings: dict[str, Any] | None = None


@attr.s(auto_attribs=True)
class AttrsProductNoFindings:
    url: str
    name: str
    offers: list[Any]


class PydanticProduct(pydantic.BaseModel):
    url: str
    name: str
    offers: list[Any]
    charset_findings: dict[str, Any] | None = None


class PydanticProductNoFindings(pydantic.BaseModel):
    url: str
    name: str
    offers: list[Any]


@dataclasses.dataclass
class Offer:  # a nested item inside a list
    seller: str
    note: str | None = None


def _dict(**kw: Any) -> Any:
    return dict(**kw)


WITH_FINDINGS = {
    "dict": _dict,
    "scrapy.Item": ScrapyProduct,
    "dataclass": DataclassProduct,
    "attrs": AttrsProduct,
    "pydantic": PydanticProduct,
}
WITHOUT_FINDINGS = {
    "scrapy.Item": ScrapyProductNoFindings,
    "dataclass": DataclassProductNoFindings,
    "frozen dataclass": FrozenProduct,
    "attrs": AttrsProductNoFindings,
    "pydantic": PydanticProductNoFindings,
}


def _product(factory: Any, name: str, seller: str) -> Any:
    return factory(
        url="https://shop.example/p/1",
        name=name,
        offers=[{"seller": seller, "price": 3.5}, Offer(seller=CLEAN, note=None)],
    )


def _fields(item: Any) -> dict[str, Any]:
    from itemadapter import ItemAdapter

    return ItemAdapter(item).asdict()


@pytest.mark.parametrize("kind", sorted(WITH_FINDINGS))
def test_counts_per_field_path_for_every_item_type(kind: str) -> None:
    pipeline, stats = make_pipeline()
    factory = WITH_FINDINGS[kind]
    item = _product(factory, BROKEN, MOJIBAKE)
    before = copy.deepcopy(_fields(item))
    assert pipeline.process_item(item) is item
    assert _fields(item) == before  # default: stats only, item untouched
    assert pipeline.process_item(_product(factory, CLEAN, CLEAN)) is not None
    pipeline.close_spider()
    got = charset_stats(stats)
    assert got["charset/item/seen"] == 2
    assert got["charset/item/with_replacement"] == 1
    assert got["charset/item/replacement_chars"] == 5
    assert got["charset/item/mojibake"] == 1
    assert got["charset/item/mojibake_chars"] == 5
    assert got["charset/item/field/name/affected"] == 1
    assert got["charset/item/field/name/replacement_chars"] == 5
    assert got["charset/item/field/name/seen"] == 2
    assert got["charset/item/field/name/replacement_rate"] == 0.5
    assert got["charset/item/field/offers[].seller/mojibake"] == 1
    assert got["charset/item/field/offers[].seller/mojibake_chars"] == 5
    assert got["charset/item/field/offers[].seller/seen"] == 4  # dict and nested dataclass
    assert got["charset/item/field/offers[].seller/mojibake_rate"] == 0.25
    assert "charset/item/field/offers[].price/seen" not in got  # not text
    assert "charset/item/field/offers[].note/seen" not in got  # None
    assert "charset/item/uninspectable" not in got
    assert all(isinstance(v, (int, float)) for v in got.values())


@pytest.mark.parametrize("kind", sorted(WITH_FINDINGS))
def test_findings_added_where_the_item_can_take_the_field(kind: str) -> None:
    pipeline, stats = make_pipeline(CHARSET_ITEM_ADD_FINDINGS=True)
    item = pipeline.process_item(_product(WITH_FINDINGS[kind], BROKEN, MOJIBAKE))
    assert _fields(item)["charset_findings"] == {
        "name": {"replacement_chars": 5, "mojibake_chars": 0},
        "offers[].seller": {"replacement_chars": 0, "mojibake_chars": 5},
    }
    clean = pipeline.process_item(_product(WITH_FINDINGS[kind], CLEAN, CLEAN))
    assert _fields(clean).get("charset_findings") is None  # nothing to report
    assert stats.get_value("charset/item/findings_added") == 1


@pytest.mark.parametrize("kind", sorted(WITHOUT_FINDINGS))
def test_findings_skipped_where_the_item_cannot_take_the_field(kind: str) -> None:
    pipeline, stats = make_pipeline(CHARSET_ITEM_ADD_FINDINGS=True)
    item = _product(WITHOUT_FINDINGS[kind], BROKEN, CLEAN)
    before = copy.deepcopy(_fields(item))
    assert pipeline.process_item(item) is item
    assert _fields(item) == before
    assert stats.get_value("charset/item/findings_skipped") == 1
    assert stats.get_value("charset/item/findings_added") is None


def test_findings_field_name_is_configurable_and_never_inspected() -> None:
    pipeline, stats = make_pipeline(
        CHARSET_ITEM_ADD_FINDINGS=True, CHARSET_ITEM_FINDINGS_FIELD="_quality"
    )
    item = pipeline.process_item({"name": BROKEN, "_quality": "stale \ufffd"})
    assert item["_quality"] == {"name": {"replacement_chars": 5, "mojibake_chars": 0}}
    pipeline.close_spider()
    assert stats.get_value("charset/item/replacement_chars") == 5


# -- odd values and odd items --------------------------------------------------------------
class BrokenIter:
    def __iter__(self) -> Any:
        raise RuntimeError("no iteration")

    def __str__(self) -> str:
        raise RuntimeError("no str")

    __repr__ = __str__


class ExplodingDict(dict):  # type: ignore[type-arg]
    def items(self) -> Any:
        raise RuntimeError("broken mapping")

    def __iter__(self) -> Any:
        raise RuntimeError("broken mapping")


class HostileStr(str):
    def __contains__(self, other: object) -> bool:
        raise RuntimeError("hostile")


def test_odd_values_never_raise_and_text_around_them_is_still_counted() -> None:
    pipeline, stats = make_pipeline()
    cyclic: dict[str, Any] = {"text": BROKEN}
    cyclic["self"] = cyclic
    looped: list[Any] = [MOJIBAKE]
    looped.append(looped)
    deep: Any = BROKEN
    for _ in range(5000):
        deep = [deep]
    huge = "a" * 5_000_000 + "\ufffd"
    item = {
        "bytes": b"\xff\xfe caf\xe9",
        "none": None,
        "number": 3,
        "huge": huge,
        "cyclic": cyclic,
        "looped": looped,
        "deep": deep,
        "broken": BrokenIter(),
        "broken_list": [BrokenIter(), BROKEN],
        "set": frozenset({BROKEN}),
        1: BROKEN,  # a non-string key
    }
    assert pipeline.process_item(item) is item
    pipeline.close_spider()
    got = charset_stats(stats)
    assert "charset/item/uninspectable" not in got
    assert got["charset/item/field/huge/replacement_chars"] == 1
    assert got["charset/item/field/cyclic.text/affected"] == 1
    assert got["charset/item/field/looped[]/mojibake"] == 1
    assert got["charset/item/field/broken_list[]/affected"] == 1
    assert got["charset/item/field/set[]/affected"] == 1
    assert got["charset/item/field/1/affected"] == 1
    assert "charset/item/field/deep" not in " ".join(got)  # deeper than inspected
    assert item["huge"] is huge and item["cyclic"] is cyclic


@pytest.mark.parametrize(
    "item",
    [
        ExplodingDict(name=BROKEN),
        object(),
        BrokenIter(),
        ["a", "list", "is", "not", "an", "item"],
        None,
    ],
    ids=["dict-broken-items", "object", "broken-iter", "list", "none"],
)
def test_uninspectable_items_pass_through_unchanged_and_are_counted(item: Any) -> None:
    pipeline, stats = make_pipeline(
        CHARSET_ITEM_ADD_FINDINGS=True,
        CHARSET_ITEM_NORMALIZE="NFKC",
        CHARSET_ITEM_DROP_THRESHOLD=0.0,
    )
    assert pipeline.process_item(item) is item
    assert stats.get_value("charset/item/uninspectable") == 1
    assert stats.get_value("charset/item/dropped") is None


def test_a_str_subclass_whose_methods_raise_is_read_without_calling_them() -> None:
    pipeline, stats = make_pipeline(CHARSET_ITEM_ADD_FINDINGS=True)
    item = {"name": HostileStr(BROKEN)}
    assert pipeline.process_item(item) is item
    pipeline.close_spider()
    assert stats.get_value("charset/item/uninspectable") is None
    assert stats.get_value("charset/item/field/name/replacement_chars") == 5


# -- field selection -------------------------------------------------------------------------
def test_only_chosen_field_paths_are_inspected() -> None:
    pipeline, stats = make_pipeline(CHARSET_ITEM_FIELDS=["name", "offers[].seller"])
    pipeline.process_item(
        {
            "name": BROKEN,
            "title": BROKEN,
            "offers": [{"seller": MOJIBAKE, "city": BROKEN}],
        }
    )
    pipeline.close_spider()
    seen = {k.split("/")[3] for k in charset_stats(stats) if k.startswith("charset/item/field/")}
    assert seen == {"name", "offers[].seller"}
    assert stats.get_value("charset/item/replacement_chars") == 5


def test_many_dynamic_keys_share_one_other_path() -> None:
    pipeline, stats = make_pipeline(CHARSET_ITEM_MAX_FIELDS=3)
    pipeline.process_item({f"k{i}": BROKEN for i in range(10)})
    pipeline.close_spider()
    paths = {k.split("/")[3] for k in charset_stats(stats) if k.startswith("charset/item/field/")}
    assert paths == {"k0", "k1", "k2", "<other>"}
    assert stats.get_value("charset/item/field/<other>/affected") == 7


# -- normalization ---------------------------------------------------------------------------
def test_normalization_is_off_by_default() -> None:
    pipeline, _ = make_pipeline()
    item = pipeline.process_item({"sku": "ＳＫＵ－１２３", "name": "e\u0301"})
    assert item == {"sku": "ＳＫＵ－１２３", "name": "e\u0301"}


def test_nfkc_on_chosen_fields_only() -> None:
    pipeline, stats = make_pipeline(
        CHARSET_ITEM_NORMALIZE="nfkc", CHARSET_ITEM_NORMALIZE_FIELDS=["sku", "variants[].size"]
    )
    item = pipeline.process_item(
        {
            "sku": "ＳＫＵ－１２３",
            "name": "１２３～",
            "variants": [{"size": "２７\uff5e２９", "label": "〜"}, {"size": "\u301c"}],
        }
    )
    assert item == {
        "sku": "SKU-123",
        "name": "１２３～",  # not chosen
        "variants": [{"size": "27~29", "label": "〜"}, {"size": "\u301c"}],  # WAVE DASH stays
    }
    assert stats.get_value("charset/item/normalized") == 2


def test_nfc_composes_and_deduplicates_across_item_types() -> None:
    pipeline, _ = make_pipeline(CHARSET_ITEM_NORMALIZE="NFC")
    decomposed = unicode_nfd = "Cre\u0300me bru\u0302le\u0301e"
    for factory in WITH_FINDINGS.values():
        item = pipeline.process_item(_product(factory, decomposed, unicode_nfd))
        fields = _fields(item)
        assert fields["name"] == "Crème brûlée"
        assert fields["offers"][0]["seller"] == "Crème brûlée"


def test_normalization_on_a_frozen_item_is_counted_not_raised() -> None:
    pipeline, stats = make_pipeline(CHARSET_ITEM_NORMALIZE="NFKC")
    item = FrozenProduct(url="u", name="１２３", offers=[])
    assert pipeline.process_item(item) is item
    assert item.name == "１２３"
    assert stats.get_value("charset/item/normalize_failed") == 1


# -- dropping ------------------------------------------------------------------------------
def test_drop_threshold_drops_only_items_above_it() -> None:
    pipeline, stats = make_pipeline(CHARSET_ITEM_DROP_THRESHOLD=0.5)
    kept = {"a": BROKEN, "b": CLEAN}  # 50%: not above
    assert pipeline.process_item(kept) is kept
    with pytest.raises(DropItem, match=r"2 of 3 text values damaged.*a, c"):
        pipeline.process_item({"a": BROKEN, "b": CLEAN, "c": MOJIBAKE})
    assert stats.get_value("charset/item/dropped") == 1
    assert stats.get_value("charset/item/seen") in (None, 0, 1, 2)  # published periodically
    pipeline.close_spider()
    assert stats.get_value("charset/item/seen") == 2


def test_items_are_never_dropped_by_default() -> None:
    pipeline, _ = make_pipeline()
    item = {"a": BROKEN, "b": MOJIBAKE}
    assert pipeline.process_item(item) is item


# -- settings and Scrapy wiring --------------------------------------------------------------
def test_disabled_raises_not_configured() -> None:
    with pytest.raises(NotConfigured):
        make_pipeline(CHARSET_ITEM_ENABLED=False)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("CHARSET_ITEM_THRESHOLD", "lots"),
        ("CHARSET_ITEM_THRESHOLD", 1.5),
        ("CHARSET_ITEM_DROP_THRESHOLD", -0.1),
        ("CHARSET_ITEM_SPIKE_WINDOW", 0),
        ("CHARSET_ITEM_SPIKE_WINDOW", 2.5),
        ("CHARSET_ITEM_SPIKE_FACTOR", 0.5),
        ("CHARSET_ITEM_NORMALIZE", "NFX"),
        ("CHARSET_ITEM_FINDINGS_FIELD", ""),
    ],
)
def test_bad_settings_fail_at_start_naming_the_setting(name: str, value: Any) -> None:
    with pytest.raises(ValueError, match=name):
        make_pipeline(**{name: value})


def test_threshold_can_be_switched_off() -> None:
    pipeline, _ = make_pipeline(CHARSET_ITEM_THRESHOLD=None)
    assert pipeline.rule.threshold is None


def test_scrapy_item_pipeline_manager_calls_it_without_deprecation_warnings() -> None:
    from scrapy.pipelines import ItemPipelineManager

    crawler = get_crawler(
        settings_dict={
            "ITEM_PIPELINES": {"scrapy_charset.integration.pipeline.CharsetPipeline": 300},
            "CHARSET_ITEM_SPIKE_WINDOW": 1,
        }
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        manager = ItemPipelineManager.from_crawler(crawler)
        (pipeline,) = manager.middlewares
        assert isinstance(pipeline, CharsetPipeline)
        pipeline.process_item({"name": BROKEN})
    assert [w for w in caught if "spider" in str(w.message)] == []
    assert crawler.stats.get_value("charset/item/field/name/flagged") == 1


def test_spike_warning_names_field_and_example_url(caplog: pytest.LogCaptureFixture) -> None:
    pipeline, stats = make_pipeline(CHARSET_ITEM_SPIKE_WINDOW=4, CHARSET_ITEM_URL_FIELDS=["link"])
    with caplog.at_level(logging.WARNING, logger="scrapy_charset.integration.pipeline"):
        for i in range(8):
            pipeline.process_item({"link": f"https://shop.example/{i}", "name": CLEAN})
        for i in range(8, 16):
            pipeline.process_item({"link": f"https://shop.example/{i}", "name": BROKEN})
        pipeline.close_spider()
    messages = [r.getMessage() for r in caplog.records]
    assert messages == [
        "Damaged text spike in field 'name': 4 of 4 values (100.0%) have U+FFFD or mojibake "
        "(above threshold; baseline 0.0%); e.g. https://shop.example/8"
    ]
    assert stats.get_value("charset/item/flagged") == 1


@pytest.mark.parametrize("threshold", [0.25, "off"])
def test_a_field_with_more_values_than_a_window_counts_each_window_by_its_own_values(
    threshold: Any, caplog: pytest.LogCaptureFixture
) -> None:
    # A list field (or many keys sharing <other>) can hold more values in one item than a
    # window: each window's damage is that of its own values, never more than it holds.
    pipeline, stats = make_pipeline(
        CHARSET_ITEM_THRESHOLD=threshold, CHARSET_ITEM_MAX_FIELDS=3, CHARSET_ITEM_SPIKE_WINDOW=10
    )
    items = [
        {"url": "http://x/1", "tags": [CLEAN] * 25 + [MOJIBAKE] * 5 + [CLEAN] * 20},
        {"url": "http://x/2", "tags": [MOJIBAKE] * 120},
        {"url": "http://x/3", "tags": [MOJIBAKE] * 500, "x": {f"k{i}": BROKEN for i in range(40)}},
        {"url": "http://x/4", "tags": [CLEAN] * 37},
    ]
    spikes = []
    original = pipeline._report

    def report(spike: Any) -> None:
        if spike is not None:
            spikes.append(spike)
        original(spike)

    pipeline._report = report  # type: ignore[method-assign]
    with caplog.at_level(logging.WARNING, logger="scrapy_charset.integration.pipeline"):
        for item in items:
            assert pipeline.process_item(item) is item
        pipeline.close_spider()
    assert "charset/item/error" not in charset_stats(stats)
    assert not [r for r in caplog.records if r.exc_info]
    for state in pipeline.fields.values():
        assert all(0 <= damaged <= values for damaged, values in state.baseline)
    assert spikes and all(spike.damaged <= spike.values <= 10 for spike in spikes)
    assert all(spike.rate <= 1.0 for spike in spikes)
    tags = pipeline.fields["tags[]"]
    assert (tags.seen, tags.damaged) == (50 + 120 + 500 + 37, 5 + 120 + 500)
    if threshold == "off":  # windows of 10 at 100% after windows at 0-20%: a jump, once
        assert [spike.reason for spike in spikes if spike.path == "tags[]"] == ["jump"]


@pytest.mark.parametrize("off", [None, False, "off", "None"])
def test_drop_threshold_off_values(off: Any) -> None:
    pipeline, _ = make_pipeline(CHARSET_ITEM_DROP_THRESHOLD=off, CHARSET_ITEM_THRESHOLD=off)
    assert pipeline.config.drop_threshold is None and pipeline.rule.threshold is None
    item = {"a": BROKEN}
    assert pipeline.process_item(item) is item


class StreamItem(scrapy.Item):
    url = scrapy.Field()
    title = scrapy.Field()
    body = scrapy.Field()
    note = scrapy.Field()


class SlowDict(dict):  # type: ignore[type-arg]
    """A dict subclass: inspected value by value, never on the fast path."""


@dataclasses.dataclass
class StreamData:  # (a missing key: None, which is not text: that item goes value by value)
    url: str | None = None
    title: str | None = None
    body: str | None = None
    note: str | None = None


@attr.s(auto_attribs=True)
class StreamAttrs:
    url: str | None = None
    title: str | None = None
    body: str | None = None
    note: str | None = None


@attr.define  # slotted: no __dict__, its fields read with getattr as ItemAdapter reads them
class StreamSlots:
    url: str | None = None
    title: str | None = None
    body: str | None = None
    note: str | None = None


_STREAM_KINDS = (StreamItem, StreamData, StreamAttrs, StreamSlots)


def test_clean_dict_fast_path_counts_exactly_like_the_value_by_value_path() -> None:
    # The same stream as dicts and as scrapy.Items (clean ones take the batched fast path) and
    # as a dict subclass (always inspected value by value): every stat and every spike must be
    # the same.
    rng = random.Random(3)
    stream = []
    for i in range(3000):
        burst = 1200 <= i < 1500  # the body breaks for a while
        stream.append(
            {
                "url": f"https://shop.example/{i}",
                "title": CLEAN if rng.random() > 0.01 else BROKEN,
                "body": MOJIBAKE if burst and rng.random() < 0.5 else CLEAN,
                "note": "plain ASCII note",
            }
        )
    fast, fast_stats = make_pipeline(CHARSET_ITEM_SPIKE_WINDOW=40)
    kinds = [(kind, *make_pipeline(CHARSET_ITEM_SPIKE_WINDOW=40)) for kind in _STREAM_KINDS]
    slow, slow_stats = make_pipeline(CHARSET_ITEM_SPIKE_WINDOW=40)
    for i, fields in enumerate(stream, 1):
        fast.process_item(dict(fields))
        for kind, pipeline, _ in kinds:
            pipeline.process_item(kind(**fields))
        slow.process_item(SlowDict(fields))
        # After every item: the stats written so far (every 1,000 items, and each spike when
        # its window fills) agree too.
        assert charset_stats(fast_stats) == charset_stats(slow_stats), i
        for kind, pipeline, stats in kinds:
            assert charset_stats(stats) == charset_stats(slow_stats), (kind, i)
            assert pipeline.items_seen == i
        assert fast.items_seen == slow.items_seen == i
    assert fast_stats.get_value("charset/item/seen") == 3000
    for pipeline in [fast, slow] + [pipeline for _, pipeline, _ in kinds]:
        pipeline.close_spider()
    assert charset_stats(fast_stats) == charset_stats(slow_stats)
    for kind, _, stats in kinds:
        assert charset_stats(stats) == charset_stats(slow_stats), kind
    # The fast paths were taken (scrapy.Item, dataclass, attrs, slotted or not): most items
    # never reached the value-by-value inspection.
    assert fast._last_shape is not None
    taken = {kind: pipeline._last_shape is not None for kind, pipeline, _ in kinds}
    assert taken == {StreamItem: True, StreamData: True, StreamAttrs: True, StreamSlots: True}
    assert slow._last_shape is None
    assert fast_stats.get_value("charset/item/field/body/flagged") == 1
    assert fast_stats.get_value("charset/item/field/title/flagged") is None


_STREAM_TEXTS = [
    "plain ASCII note", "", "x", CLEAN, BROKEN, MOJIBAKE, "Ã", "©", "Â", "’",
    "東京都の価格は１２３円です", "Привет", "РџСЂРёРІРµС‚", "Tiếng Việt", "İstanbul’da",
]  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(
    window=st.integers(1, 8),
    stream=st.lists(
        st.dictionaries(
            st.sampled_from(["url", "title", "body", "note"]),
            st.sampled_from(_STREAM_TEXTS),
            min_size=1,
        ),
        max_size=60,
    ),
)
def test_fast_path_counts_like_the_value_by_value_path_for_any_stream(
    window: int, stream: list[dict[str, str]]
) -> None:
    # Several key sets share fields; ASCII values are left out of the joined check, so "Ã" and
    # "©" in two fields around an ASCII one make a candidate only the exact path can reject.
    config = PipelineConfig(spike_window=window, spike_min_jump=0.0, spike_p_value=0.5)
    fast_stats = MemoryStatsCollector(_SHARED_CRAWLER)
    item_stats = MemoryStatsCollector(_SHARED_CRAWLER)
    slow_stats = MemoryStatsCollector(_SHARED_CRAWLER)
    fast, slow = CharsetPipeline(fast_stats, config), CharsetPipeline(slow_stats, config)
    fast_item = CharsetPipeline(item_stats, config)
    data_stats = MemoryStatsCollector(_SHARED_CRAWLER)
    fast_data = CharsetPipeline(data_stats, config)
    for i, fields in enumerate(stream, 1):
        fast.process_item(dict(fields))
        fast_item.process_item(StreamItem(**fields))
        # a dataclass item, its unset fields deleted: value by value unless all are set
        data = StreamData(**fields)
        for name in {"url", "title", "body", "note"} - set(fields):
            delattr(data, name)
        fast_data.process_item(data)
        slow.process_item(SlowDict(fields))
        assert charset_stats(fast_stats) == charset_stats(slow_stats)
        assert charset_stats(item_stats) == charset_stats(slow_stats)
        assert charset_stats(data_stats) == charset_stats(slow_stats)
        assert fast.items_seen == fast_item.items_seen == fast_data.items_seen == i
        assert slow.items_seen == i
    for pipeline in (fast, fast_item, fast_data, slow):
        pipeline.close_spider()
    assert charset_stats(fast_stats) == charset_stats(slow_stats)
    assert charset_stats(item_stats) == charset_stats(slow_stats)
    assert charset_stats(data_stats) == charset_stats(slow_stats)


def _run_stream(
    make: Any, config: PipelineConfig, stream: list[dict[str, str]]
) -> tuple[list[dict[str, Any]], list[str], int]:
    """Each item of ``stream`` made by ``make`` through a new pipeline: the charset stats after
    every item and at close, the warnings logged, in order, and how many items were inspected
    value by value."""
    stats = MemoryStatsCollector(_SHARED_CRAWLER)
    pipeline = CharsetPipeline(stats, config)
    inspected = []
    inspect = pipeline._inspect
    pipeline._inspect = lambda item: inspected.append(item) or inspect(item)  # type: ignore
    logged: list[str] = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = lambda record: logged.append(record.getMessage())  # type: ignore[method-assign]
    logger = logging.getLogger("scrapy_charset.integration.pipeline")
    logger.addHandler(handler)
    try:
        pipeline.open_spider()
        snapshots = []
        for fields in stream:
            pipeline.process_item(make(fields))
            snapshots.append(charset_stats(stats) | {"items_seen": pipeline.items_seen})
        pipeline.close_spider()
        snapshots.append(charset_stats(stats))
    finally:
        logger.removeHandler(handler)
    return snapshots, logged, len(inspected)


_DAMAGE_KEYS = ["url", "title", "body", "note"]


@settings(max_examples=150, deadline=None)
@given(
    window=st.integers(1, 8),
    threshold=st.sampled_from([None, 0.25, 0.5]),
    max_fields=st.sampled_from([100, 2]),  # 2: fields beyond the first two share <other>
    order=st.permutations(_DAMAGE_KEYS),
    stream=st.lists(
        st.tuples(
            st.lists(st.sampled_from(_STREAM_TEXTS), min_size=4, max_size=4),
            st.sampled_from(["same", "same", "same", "reversed", "fewer"]),
        ),
        max_size=80,
    ),
)
def test_damaged_items_of_the_last_shape_count_like_the_value_by_value_path(
    window: int,
    threshold: float | None,
    max_fields: int,
    order: list[str],
    stream: list[tuple[list[str], str]],
) -> None:
    # Items mostly with one set of keys in one order (the last shape: damaged ones get the
    # exact checks of their unclean values only), some in another order or with fewer keys;
    # damage (U+FFFD, mojibake, a candidate the exact count rejects) in random fields.
    config = PipelineConfig(
        spike_window=window,
        threshold=threshold,
        spike_min_jump=0.0,
        spike_p_value=0.5,
        max_fields=max_fields,
    )
    items = []
    for texts, kind in stream:
        keys = order[::-1] if kind == "reversed" else order[:2] if kind == "fewer" else order
        items.append(dict(zip(keys, texts, strict=False)))  # (fewer keys: 2 of the 4 texts)
    slow = _run_stream(SlowDict, config, items)
    assert slow[2] == len(items)  # (the reference: value by value throughout)
    for make in (dict, lambda fields: StreamItem(**fields)):
        snapshots, logged, _ = _run_stream(make, config, items)
        assert snapshots == slow[0]
        assert logged == slow[1]


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "python"])
def test_damaged_dict_items_skip_the_value_by_value_inspection(
    compiled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 1 value in 10 damaged, in any field: once the keys are known, no item is inspected value
    # by value, and every stat and warning is the same as the value-by-value path's (with the
    # compiled unclean_positions and with its pure-Python form).
    if not compiled:
        from scrapy_charset.integration import pipeline
        from scrapy_charset.quality import _unclean_positions_python

        monkeypatch.setattr(pipeline, "unclean_positions", _unclean_positions_python)
    rng = random.Random(5)
    items = []
    for i in range(600):
        item = {"url": f"https://shop.example/{i}", "title": CLEAN, "body": CLEAN, "note": "n"}
        if rng.random() < 0.3:
            item[rng.choice(["title", "body", "note"])] = rng.choice([BROKEN, MOJIBAKE])
        items.append(item)
    config = PipelineConfig(spike_window=20)
    slow = _run_stream(SlowDict, config, items)
    for make in (dict, lambda fields: StreamItem(**fields)):
        snapshots, logged, inspected = _run_stream(make, config, items)
        assert snapshots == slow[0] and logged == slow[1]
        assert inspected == 0
    assert slow[0][-1]["charset/item/field/title/damaged"] > 20


def test_fields_sharing_other_are_counted_value_by_value() -> None:
    # Past CHARSET_ITEM_MAX_FIELDS, body and note share <other>: two values per item. Its
    # window holding damage fills on the second item, and is flagged on that item (the batched
    # path counted items, and flagged it one item late).
    clean = {"url": "u", "title": CLEAN, "body": CLEAN, "note": CLEAN}
    items = [{**clean, "body": BROKEN}] + [clean] * 5
    config = PipelineConfig(spike_window=4, max_fields=2)
    slow = _run_stream(SlowDict, config, items)
    assert slow[0][1]["charset/item/field/<other>/flagged"] == 1
    for make in (dict, lambda fields: StreamItem(**fields)):
        snapshots, logged, _ = _run_stream(make, config, items)
        assert snapshots == slow[0] and logged == slow[1]


def test_spikes_filling_on_one_clean_item_are_logged_in_the_item_fields_order() -> None:
    # Two windows holding damage fill on the same clean item (batched on the fast path):
    # their spikes are logged in the order of the item's fields, as value by value.
    items = [{"title": BROKEN, "body": MOJIBAKE}] + [{"title": CLEAN, "body": CLEAN}] * 3
    config = PipelineConfig(spike_window=4)
    slow = _run_stream(SlowDict, config, items)
    snapshots, logged, inspected = _run_stream(dict, config, items)
    assert [message.split("'")[1] for message in logged] == ["title", "body"]
    assert logged == slow[1] and snapshots == slow[0]
    assert inspected == 1  # the first item: no keys known yet


@dataclasses.dataclass
class Shadowed:
    title: str
    note: str


class Intercepting(Shadowed):
    def __getattribute__(self, name: str) -> Any:
        value = object.__getattribute__(self, name)
        return MOJIBAKE if name == "title" else value


def test_dataclass_fields_that_are_not_their_dict_are_read_as_itemadapter_reads_them() -> None:
    """A field behind a data descriptor (a property set on the class) or a class with its own
    attribute lookup: ItemAdapter reads getattr, not __dict__; so does the pipeline (value by
    value), finding the mojibake only getattr gives. No such item is changed or lost."""
    shadowed = object.__new__(Shadowed)
    shadowed.__dict__.update(title=CLEAN, note=CLEAN)
    intercepting = Intercepting(title=CLEAN, note=CLEAN)
    try:
        Shadowed.title = property(lambda self: MOJIBAKE)  # type: ignore[assignment,method-assign]
        for item in (shadowed, intercepting):
            pipeline, stats = make_pipeline()
            assert pipeline.process_item(item) is item
            assert item.__dict__ == {"title": CLEAN, "note": CLEAN}
            pipeline.close_spider()
            assert stats.get_value("charset/item/field/title/mojibake") == 1, type(item)
            assert stats.get_value("charset/item/field/note/seen") == 1
            assert stats.get_value("charset/item/error") is None
    finally:
        del Shadowed.title


@dataclasses.dataclass
class Reshaped:
    title: str
    note: str


class ReshapedItem(scrapy.Item):
    title = scrapy.Field()
    note = scrapy.Field()


def test_a_class_changed_after_its_first_items_is_read_as_itemadapter_reads_it() -> None:
    """The fast path learns a class from its first item; a property, an attribute hook or an
    item accessor added to the class later must still be seen: the values ItemAdapter reads
    then are the mojibake the pipeline counts (the item's own dict stays clean)."""
    hooks: list[tuple[type, str, Any]] = [
        (Reshaped, "title", property(lambda self: MOJIBAKE)),
        (Reshaped, "__getattribute__",
         lambda self, name: MOJIBAKE if name == "title" else object.__getattribute__(self, name)),
        (ReshapedItem, "__getitem__",
         lambda self, key: MOJIBAKE if key == "title" else self._values[key]),
    ]  # fmt: skip
    for kind, name, hook in hooks:
        pipeline, stats = make_pipeline()
        assert pipeline.process_item(kind(title=CLEAN, note=CLEAN)) is not None
        item = kind(title=CLEAN, note=CLEAN)
        setattr(kind, name, hook)
        try:
            assert pipeline.process_item(item) is item
        finally:
            delattr(kind, name)
        pipeline.close_spider()
        assert stats.get_value("charset/item/field/title/mojibake") == 1, (kind, name)
        assert stats.get_value("charset/item/field/note/seen") == 2
        assert stats.get_value("charset/item/seen") == 2
        assert stats.get_value("charset/item/error") is None


_leaves = st.one_of(
    st.text(),
    st.text(alphabet=st.sampled_from("aé\ufffdÃ©â€™ÐŸ東～〜\u0301")),
    st.binary(max_size=8),
    st.none(),
    st.integers(),
    st.floats(allow_nan=False),
)
_values = st.recursive(
    _leaves,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.tuples(children, children),
        st.dictionaries(st.one_of(st.text(max_size=3), st.integers()), children, max_size=4),
    ),
    max_leaves=20,
)


_SHARED_CRAWLER = get_crawler()


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.text(max_size=5), _values, max_size=6))
def test_any_nesting_of_odd_values_passes_through_unchanged(item: dict[Any, Any]) -> None:
    # One crawler for all examples (building one is slow); fresh stats and pipeline each time.
    stats = MemoryStatsCollector(_SHARED_CRAWLER)
    pipeline = CharsetPipeline(stats, PipelineConfig(spike_window=1))
    before = copy.deepcopy(item)
    assert pipeline.process_item(item) is item
    pipeline.close_spider()
    assert item == before
    got = charset_stats(stats)
    assert got["charset/item/seen"] == 1
    assert "charset/item/uninspectable" not in got
    expected = sum(_texts(item, lambda s: s.count("\ufffd")))
    assert got.get("charset/item/replacement_chars", 0) == expected


def _texts(value: Any, measure: Any) -> list[int]:
    if isinstance(value, str):
        return [measure(value)]
    if isinstance(value, dict):
        return [n for v in value.values() for n in _texts(v, measure)]
    if isinstance(value, (list, tuple)):
        return [n for v in value for n in _texts(v, measure)]
    return []
