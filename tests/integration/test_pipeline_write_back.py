"""What the pipeline writes to an item, and what it counts as written: reading an item never
adds a field, and a repair or normalization counts only once it is in the item."""

from __future__ import annotations

import collections
import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
import scrapy
from scrapy.exceptions import DropItem

from scrapy_charset.quality import count_mojibake
from tests.integration.test_pipeline_items import charset_stats, make_pipeline
from tests.support.mojibake_corpus import misread

TEXT = "Crème brûlée — it’s déjà vu"
GARBLED = misread(TEXT, "windows-1252")
GARBLED_1251 = misread("Le garçon a mangé une crème brûlée.", "windows-1251")
LOST = "caf\ufffd"  # U+FFFD: counted, never repaired
DECOMPOSED = "cafe\u0301"


# -- reading an item never writes to it ----------------------------------------------------
class MissingDict(dict):  # type: ignore[type-arg]
    """A dict subclass whose __missing__ stores a default, as defaultdict does."""

    def __missing__(self, key: Any) -> list[Any]:
        self[key] = value = []
        return value


class DefaultingItem(scrapy.Item):
    """A scrapy.Item (a MutableMapping) whose __getitem__ inserts a default for a field not set."""

    title = scrapy.Field()
    note = scrapy.Field()
    url = scrapy.Field()
    canonical_url = scrapy.Field()
    charset_findings = scrapy.Field()

    def __getitem__(self, key: str) -> Any:
        return self._values.setdefault(key, "")


ITEM_KINDS: dict[str, Callable[..., Any]] = {
    "defaultdict": lambda **fields: collections.defaultdict(list, **fields),
    "__missing__": MissingDict,
    "inserting __getitem__": DefaultingItem,
}
EVERY_ACTION = {
    "CHARSET_ITEM_REPAIR": True,
    "CHARSET_ITEM_NORMALIZE": "NFC",
    "CHARSET_ITEM_ADD_FINDINGS": True,
    "CHARSET_ITEM_DROP_THRESHOLD": 1.0,  # judged, but no share of damage is above it
}


def _fields(item: Any) -> dict[str, Any]:
    return {key: item[key] for key in list(item.keys())}


@pytest.mark.parametrize("kind", ITEM_KINDS)
@pytest.mark.parametrize("url_fields", [["url"], ["canonical_url", "url"]])
def test_default_settings_leave_an_item_with_defaults_for_missing_keys_as_it_is(
    kind: str, url_fields: list[str]
) -> None:
    pipeline, stats = make_pipeline(CHARSET_ITEM_URL_FIELDS=url_fields)
    item = ITEM_KINDS[kind](title=GARBLED, note=LOST)
    before = _fields(item)
    assert pipeline.process_item(item) is item
    assert _fields(item) == before
    pipeline.close_spider()
    assert charset_stats(stats)["charset/item/mojibake"] == 1  # it was inspected


@pytest.mark.parametrize("kind", ITEM_KINDS)
def test_every_action_adds_only_the_findings_field_and_changes_only_repaired_text(
    kind: str,
) -> None:
    pipeline, _ = make_pipeline(**EVERY_ACTION, CHARSET_ITEM_URL_FIELDS=["canonical_url", "url"])
    item = ITEM_KINDS[kind](title=GARBLED, note=LOST)
    pipeline.process_item(item)
    findings = item["charset_findings"]
    assert _fields(item) == {"title": TEXT, "note": LOST, "charset_findings": findings}
    assert set(findings) == {"title", "note"}


def test_a_nested_defaultdict_gains_no_key() -> None:
    pipeline, _ = make_pipeline(**EVERY_ACTION)
    offer = collections.defaultdict(list, seller=GARBLED, note=LOST)
    pipeline.process_item({"offers": [offer]})
    assert dict(offer) == {"seller": TEXT, "note": LOST}


@pytest.mark.parametrize(
    "item",
    [
        collections.OrderedDict(title=GARBLED),
        collections.defaultdict(str, title=GARBLED),
        MissingDict(title=GARBLED),
    ],
    ids=type,
)
def test_a_dict_subclass_takes_the_findings_field(item: dict[str, Any]) -> None:
    pipeline, stats = make_pipeline(CHARSET_ITEM_ADD_FINDINGS=True)
    pipeline.process_item(item)
    assert dict(item) == {
        "title": GARBLED,
        "charset_findings": {
            "title": {"replacement_chars": 0, "mojibake_chars": count_mojibake(GARBLED)}
        },
    }
    pipeline.close_spider()
    got = charset_stats(stats)
    assert got["charset/item/findings_added"] == 1
    assert "charset/item/findings_skipped" not in got


# -- a change counts once it is in the item -------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Frozen:
    name: Any


def test_a_repair_that_cannot_be_written_is_not_counted_and_the_item_is_dropped() -> None:
    pipeline, stats = make_pipeline(CHARSET_ITEM_REPAIR=True, CHARSET_ITEM_DROP_THRESHOLD=0)
    item = Frozen(GARBLED)
    with pytest.raises(DropItem):
        pipeline.process_item(item)
    assert item.name == GARBLED
    pipeline.close_spider()
    got = charset_stats(stats)
    assert got["charset/item/repair_failed"] == 1
    assert got["charset/item/dropped"] == 1
    assert "charset/item/repaired" not in got
    assert "charset/item/field/name/repaired" not in got


def test_only_the_repairs_written_are_counted_and_listed() -> None:
    pipeline, stats = make_pipeline(CHARSET_ITEM_REPAIR=True, CHARSET_ITEM_ADD_FINDINGS=True)
    item = {"offers": [GARBLED, Frozen(GARBLED_1251)]}
    pipeline.process_item(item)
    assert item["offers"][0] == TEXT  # the list is rebuilt around the repaired text
    assert item["offers"][1].name == GARBLED_1251  # the frozen item keeps its text
    findings = item["charset_findings"]
    assert findings["offers[]"]["repaired"] == [{"before": GARBLED, "after": TEXT}]
    assert "repaired" not in findings["offers[].name"]
    pipeline.close_spider()
    got = charset_stats(stats)
    assert got["charset/item/repaired"] == 1
    assert got["charset/item/field/offers[]/repaired"] == 1
    assert "charset/item/field/offers[].name/repaired" not in got
    assert got["charset/item/repair_failed"] == 1


def test_a_value_left_damaged_by_a_failed_write_counts_for_the_drop() -> None:
    pipeline, stats = make_pipeline(CHARSET_ITEM_REPAIR=True, CHARSET_ITEM_DROP_THRESHOLD=0.4)
    with pytest.raises(DropItem, match=r"offers\[\]\.name"):
        pipeline.process_item({"offers": [GARBLED, Frozen(GARBLED_1251)]})
    assert stats.get_value("charset/item/dropped") == 1


def test_a_container_updated_in_place_counts_though_the_field_around_it_fails() -> None:
    pipeline, stats = make_pipeline(CHARSET_ITEM_REPAIR=True)
    offer = MissingDict(seller=GARBLED)
    item = Frozen([offer, GARBLED_1251])
    pipeline.process_item(item)
    assert offer["seller"] == TEXT  # in the item: the dict is updated in place
    assert item.name[1] == GARBLED_1251  # the rebuilt list could not replace the field
    pipeline.close_spider()
    got = charset_stats(stats)
    assert got["charset/item/repaired"] == 1
    assert got["charset/item/field/name[].seller/repaired"] == 1
    assert "charset/item/field/name[]/repaired" not in got
    assert got["charset/item/repair_failed"] == 1


def test_a_normalization_that_cannot_be_written_is_not_counted() -> None:
    pipeline, stats = make_pipeline(CHARSET_ITEM_NORMALIZE="NFC")
    item = {"tags": [DECOMPOSED, Frozen(DECOMPOSED)]}
    pipeline.process_item(item)
    assert item["tags"][0] == "café" and item["tags"][1].name == DECOMPOSED
    pipeline.close_spider()
    got = charset_stats(stats)
    assert got["charset/item/normalized"] == 1
    assert got["charset/item/normalize_failed"] == 1


# -- a value is repaired at the place it was found ----------------------------------------
def _shared_text() -> str:
    """One str object, as ``item["title"] = item["raw"] = text`` leaves it under two fields."""
    return "".join(list(GARBLED))


def test_a_shared_string_is_repaired_only_where_it_was_inspected() -> None:
    pipeline, stats = make_pipeline(CHARSET_ITEM_REPAIR=True, CHARSET_ITEM_FIELDS=["title"])
    text = _shared_text()
    item = {"raw": text, "title": text}
    pipeline.process_item(item)
    assert item == {"raw": GARBLED, "title": TEXT}
    pipeline.close_spider()
    assert charset_stats(stats)["charset/item/repaired"] == 1


def test_a_shared_string_is_counted_under_each_path_repaired() -> None:
    pipeline, stats = make_pipeline(CHARSET_ITEM_REPAIR=True)
    text = _shared_text()
    item = {"a": text, "b": text, "offers": [{"name": text}, {"name": text}]}
    pipeline.process_item(item)
    assert item == {"a": TEXT, "b": TEXT, "offers": [{"name": TEXT}, {"name": TEXT}]}
    pipeline.close_spider()
    got = charset_stats(stats)
    assert got["charset/item/repaired"] == 4
    assert got["charset/item/field/a/repaired"] == 1
    assert got["charset/item/field/b/repaired"] == 1
    assert got["charset/item/field/offers[].name/repaired"] == 2


def test_a_shared_string_left_garbled_in_a_field_not_chosen_counts_for_the_drop() -> None:
    pipeline, stats = make_pipeline(
        CHARSET_ITEM_REPAIR=True, CHARSET_ITEM_REPAIR_FIELDS=["a"], CHARSET_ITEM_DROP_THRESHOLD=0.4
    )
    text = _shared_text()
    item = {"a": text, "b": text}
    with pytest.raises(DropItem, match=r": b$"):
        pipeline.process_item(item)
    assert item == {"a": TEXT, "b": GARBLED}
    pipeline.close_spider()
    got = charset_stats(stats)
    assert got["charset/item/field/a/repaired"] == 1
    assert "charset/item/field/b/repaired" not in got


def test_a_shared_list_is_repaired_at_the_field_where_it_was_inspected() -> None:
    pipeline, stats = make_pipeline(CHARSET_ITEM_REPAIR=True, CHARSET_ITEM_FIELDS=["title"])
    shared = [GARBLED]
    item = {"raw": shared, "title": shared}
    pipeline.process_item(item)
    assert item == {"raw": [GARBLED], "title": [TEXT]}  # the list is rebuilt for title only
    pipeline.close_spider()
    assert charset_stats(stats)["charset/item/field/title[]/repaired"] == 1


# -- containers keep their types -----------------------------------------------------------
class Tags(list):  # type: ignore[type-arg]
    pass


class Pair(tuple):  # type: ignore[type-arg]
    pass


Point = collections.namedtuple("Point", "label x")


class NamedList(list):  # type: ignore[type-arg]
    """A list subclass whose constructor takes other arguments: it cannot be rebuilt."""

    def __init__(self, name: str, items: list[Any]) -> None:
        super().__init__(items)
        self.name = name


class Packed(tuple):  # type: ignore[type-arg]
    """A tuple subclass whose constructor packs its arguments: Packed(x) is not x's items."""

    def __new__(cls, *items: Any) -> Packed:
        return super().__new__(cls, items)


# (settings, a text the action changes, what it becomes, its stat, its failed writes' stat)
REWRITES = {
    "repair": ({"CHARSET_ITEM_REPAIR": True}, GARBLED, TEXT, "repaired", "repair_failed"),
    "normalize": (
        {"CHARSET_ITEM_NORMALIZE": "NFC"},
        DECOMPOSED,
        "café",
        "normalized",
        "normalize_failed",
    ),
}


@pytest.mark.parametrize("action", REWRITES)
def test_sequences_keep_their_types(action: str) -> None:
    settings, before, after, stat, _ = REWRITES[action]
    pipeline, stats = make_pipeline(**settings)
    item = {"tags": Tags([before, "b"]), "pair": Pair((before, 1)), "point": Point(before, 2)}
    pipeline.process_item(item)
    assert type(item["tags"]) is Tags and item["tags"] == [after, "b"]
    assert type(item["pair"]) is Pair and item["pair"] == (after, 1)
    assert type(item["point"]) is Point and item["point"] == Point(after, 2)
    pipeline.close_spider()
    assert charset_stats(stats)[f"charset/item/{stat}"] == 3


@pytest.mark.parametrize("action", REWRITES)
def test_a_sequence_that_cannot_be_rebuilt_stays_as_it_is_and_counts_as_failed(
    action: str,
) -> None:
    settings, before, after, stat, failed = REWRITES[action]
    pipeline, stats = make_pipeline(**settings)
    named, packed = NamedList("n", [before]), Packed(before, 1)
    item = {"named": named, "packed": packed, "plain": [before]}
    pipeline.process_item(item)
    assert item["named"] is named and named == [before]
    assert item["packed"] is packed and packed == (before, 1)
    assert item["plain"] == [after]
    pipeline.close_spider()
    got = charset_stats(stats)
    assert got[f"charset/item/{stat}"] == 1
    assert got[f"charset/item/{failed}"] == 2


# -- an item holding itself ----------------------------------------------------------------
def _holding_itself(kind: str) -> dict[str, Any]:
    item: dict[str, Any] = (dict if kind == "dict" else collections.OrderedDict)(title=GARBLED)
    item["self"] = item
    item["refs"] = [item, {"item": item}]
    return item


@pytest.mark.parametrize("kind", ["dict", "OrderedDict"])
def test_an_item_holding_itself_is_counted_once(kind: str) -> None:
    pipeline, stats = make_pipeline()
    pipeline.process_item(_holding_itself(kind))
    pipeline.close_spider()
    got = charset_stats(stats)
    assert got["charset/item/mojibake_chars"] == count_mojibake(GARBLED)
    assert got["charset/item/field/title/seen"] == 1
    assert not any(
        key.startswith(("charset/item/field/self", "charset/item/field/refs")) for key in got
    )


@pytest.mark.parametrize("kind", ["dict", "OrderedDict"])
def test_an_item_holding_itself_is_repaired_and_counted_once(kind: str) -> None:
    pipeline, stats = make_pipeline(CHARSET_ITEM_REPAIR=True, CHARSET_ITEM_ADD_FINDINGS=True)
    item = _holding_itself(kind)
    pipeline.process_item(item)
    assert item["title"] == TEXT and item["self"] is item and item["refs"][0] is item
    assert list(item["charset_findings"]) == ["title"]
    pipeline.close_spider()
    got = charset_stats(stats)
    assert got["charset/item/repaired"] == 1
    assert got["charset/item/field/title/repaired"] == 1
