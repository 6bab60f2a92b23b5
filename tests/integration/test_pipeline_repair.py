"""CHARSET_ITEM_REPAIR: mojibake repaired in the item, the actions' order, the stats' names and
counts that add up across workers."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest
import scrapy
from scrapy.exceptions import DropItem

from scrapy_charset.quality import count_mojibake
from tests.integration.pipeline_spiders import AUTHOR, DESCRIPTION, Site, double_utf8, utf8
from tests.integration.test_pipeline_items import charset_stats, make_pipeline
from tests.support.crawl import run_crawl
from tests.support.mojibake_corpus import misread
from tests.support.server import LocalServer

TEXT = "Crème brûlée — it’s déjà vu"
GARBLED = misread(TEXT, "windows-1252")
CYRILLIC = "Привет и пока"
GARBLED_1251 = misread("Le garçon a mangé une crème brûlée.", "windows-1251")


def test_repair_is_off_by_default() -> None:
    pipeline, _ = make_pipeline()
    item = {"name": GARBLED}
    assert pipeline.process_item(item)["name"] == GARBLED


def test_repairs_every_damaged_value_and_counts_it() -> None:
    pipeline, stats = make_pipeline(CHARSET_ITEM_REPAIR=True)
    item = {
        "name": GARBLED,
        "offers": [{"seller": misread(CYRILLIC, "windows-1252")}, {"seller": "plain"}],
        "tags": (GARBLED_1251, "ok"),
        "clean": "Crème brûlée",
        "broken": "caf\ufffd",  # lost characters: nothing to repair
    }
    assert pipeline.process_item(item) is item
    assert item["name"] == TEXT
    assert item["offers"][0]["seller"] == CYRILLIC
    assert item["tags"] == ("Le garçon a mangé une crème brûlée.", "ok")
    assert item["clean"] == "Crème brûlée" and item["broken"] == "caf\ufffd"
    pipeline.close_spider()
    got = charset_stats(stats)
    assert got["charset/item/repaired"] == 3
    assert got["charset/item/field/name/repaired"] == 1
    assert got["charset/item/field/offers[].seller/repaired"] == 1
    assert "charset/item/field/broken/repaired" not in got
    # What was found is still counted as found.
    assert got["charset/item/field/name/mojibake"] == 1


def test_only_chosen_fields_are_repaired() -> None:
    pipeline, stats = make_pipeline(CHARSET_ITEM_REPAIR=True, CHARSET_ITEM_REPAIR_FIELDS=["name"])
    item = {"name": GARBLED, "other": GARBLED}
    pipeline.process_item(item)
    assert item == {"name": TEXT, "other": GARBLED}


def test_findings_record_before_and_after() -> None:
    pipeline, _ = make_pipeline(CHARSET_ITEM_REPAIR=True, CHARSET_ITEM_ADD_FINDINGS=True)
    item = pipeline.process_item({"name": GARBLED, "note": "x\ufffd"})
    assert item["charset_findings"] == {
        "name": {
            "replacement_chars": 0,
            "mojibake_chars": count_mojibake(GARBLED),
            "repaired": [{"before": GARBLED, "after": TEXT}],
        },
        "note": {"replacement_chars": 1, "mojibake_chars": 0},
    }


def test_repair_runs_before_normalization() -> None:
    # NFKC alone would turn the "™" of "â€™" into "TM" and leave "â€TM" for good.
    pipeline, _ = make_pipeline(CHARSET_ITEM_REPAIR=True, CHARSET_ITEM_NORMALIZE="NFKC")
    item = pipeline.process_item({"name": "Itâ€™s ＳＫＵ１"})
    assert item["name"] == "It’s SKU1"


def test_a_repaired_item_is_not_dropped_but_a_lost_one_is() -> None:
    pipeline, stats = make_pipeline(CHARSET_ITEM_REPAIR=True, CHARSET_ITEM_DROP_THRESHOLD=0.0)
    kept = pipeline.process_item({"name": GARBLED})
    assert kept["name"] == TEXT
    with pytest.raises(DropItem):
        pipeline.process_item({"name": "caf\ufffd"})
    assert stats.get_value("charset/item/dropped") == 1


@dataclasses.dataclass(frozen=True)
class Frozen:
    name: str


def test_an_item_that_cannot_take_the_repair_goes_on_and_is_counted() -> None:
    pipeline, stats = make_pipeline(CHARSET_ITEM_REPAIR=True)
    item = Frozen(GARBLED)
    assert pipeline.process_item(item) is item
    assert item.name == GARBLED
    assert stats.get_value("charset/item/repair_failed") == 1


class Product(scrapy.Item):
    name = scrapy.Field()
    offers = scrapy.Field()


def test_scrapy_items_and_nested_items_are_repaired() -> None:
    pipeline, _ = make_pipeline(CHARSET_ITEM_REPAIR=True)
    inner = Product(name=GARBLED)
    item = Product(name=GARBLED, offers=[inner])
    pipeline.process_item(item)
    assert item["name"] == TEXT and inner["name"] == TEXT


# -- stats names and counts ---------------------------------------------------------------
def test_a_clean_field_writes_one_key_and_a_damaged_one_its_rates() -> None:
    pipeline, stats = make_pipeline()
    for i in range(4):
        pipeline.process_item({"title": "Crème brûlée", "body": GARBLED if i == 0 else "ok"})
    pipeline.close_spider()
    got = charset_stats(stats)
    assert [k for k in got if k.startswith("charset/item/field/title/")] == [
        "charset/item/field/title/seen"
    ]
    assert got["charset/item/field/body/seen"] == 4
    assert got["charset/item/field/body/damaged"] == 1
    assert got["charset/item/field/body/mojibake_rate"] == 0.25
    assert got["charset/item/field/body/replacement_rate"] == 0.0
    assert got["charset/item/field/body/rate"] == got["charset/item/field/body/replacement_rate"]


def _counts(stats: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in stats.items() if not k.endswith("rate")}


def test_counts_of_several_workers_add_up_to_one_worker_seeing_everything() -> None:
    values = [GARBLED, "caf\ufffd", "Crème", "ok", misread(CYRILLIC, "windows-1252"), "x"]
    items = [{"a": values[i % 6], "b": values[(i * 5) % 6]} for i in range(60)]
    whole, whole_stats = make_pipeline()
    parts = [make_pipeline() for _ in range(3)]
    for i, item in enumerate(items):
        whole.process_item(dict(item))
        parts[i % 3][0].process_item(dict(item))
    whole.close_spider()
    summed: dict[str, Any] = {}
    for pipeline, stats in parts:
        pipeline.close_spider()
        for key, value in _counts(charset_stats(stats)).items():
            summed[key] = summed.get(key, 0) + value
    expected = _counts(charset_stats(whole_stats))
    expected.pop("charset/item/flagged", None)  # spikes are judged per worker
    for key in [k for k in summed if k.endswith("/flagged")]:
        summed.pop(key)
    expected = {k: v for k, v in expected.items() if not k.endswith("/flagged")}
    assert summed == expected
    # A rate is recomputed from the summed counts.
    seen, affected = summed["charset/item/field/a/seen"], summed["charset/item/field/a/affected"]
    assert charset_stats(whole_stats)["charset/item/field/a/replacement_rate"] == affected / seen


# -- a real crawl ---------------------------------------------------------------------------
def test_a_crawl_stores_repaired_text(local_server: LocalServer) -> None:
    pages = 12
    site = Site(
        pages,
        {
            "title": lambda o: utf8(f"Page {o}"),
            "description": lambda o: utf8(DESCRIPTION),
            "author": lambda o: double_utf8(AUTHOR) if o % 2 else utf8(AUTHOR),
        },
    )
    start = local_server.add("/page", site)
    result = run_crawl(
        "tests.integration.pipeline_spiders:ChainSpider",
        {
            "ITEM_PIPELINES": {"scrapy_charset.integration.pipeline.CharsetPipeline": 300},
            "CHARSET_ITEM_REPAIR": True,
        },
        {"start_url": start + "?i=0"},
    )
    assert len(result.items) == pages
    for item in result.items:
        assert re.search(r"i=\d+", item["url"])
        assert item["author"] == AUTHOR
        assert item["description"] == DESCRIPTION
    assert result.stat("charset/item/repaired") == pages // 2
    assert result.stat("charset/item/field/author/mojibake") == pages // 2
