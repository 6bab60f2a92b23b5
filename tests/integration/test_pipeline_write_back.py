"""What the pipeline writes to an item, and what it counts as written: reading an item never
adds a field, and a repair or normalization counts only once it is in the item."""

from __future__ import annotations

import collections
from collections.abc import Callable
from typing import Any

import pytest
import scrapy

from scrapy_charset.quality import count_mojibake
from tests.integration.test_pipeline_items import charset_stats, make_pipeline
from tests.support.mojibake_corpus import misread

TEXT = "Crème brûlée — it’s déjà vu"
GARBLED = misread(TEXT, "windows-1252")
LOST = "caf\ufffd"  # U+FFFD: counted, never repaired


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
