"""Real crawls against the local server: a section starts serving broken bytes mid-crawl."""

from __future__ import annotations

import re

from tests.integration.pipeline_spiders import (
    AUTHOR,
    DESCRIPTION,
    NOTE,
    SKU,
    TITLE,
    Site,
    breaks_after,
    cp1252,
    double_utf8,
    utf8,
)
from tests.support.crawl import run_crawl
from tests.support.server import LocalServer

PIPELINE = {"scrapy_charset.integration.pipeline.CharsetPipeline": 300}
PAGES = 60
BREAK_AT = 30


def _title(order: int) -> bytes:
    return utf8(TITLE.format(i=order))


def _note(order: int) -> bytes:
    # "Always a few": every 10th page's note carries one invalid byte.
    return utf8(NOTE) + (b" \xff" if order % 10 == 9 else b"")


def _pipeline_deprecations(log: str) -> list[str]:
    # Only the pipeline's own: Scrapy 2.11 itself warns about REQUEST_FINGERPRINTER_IMPLEMENTATION.
    return [line for line in log.splitlines() if "Deprecat" in line and "CharsetPipeline" in line]


def _spike_warnings(log: str) -> list[str]:
    return [line for line in log.splitlines() if "Damaged text spike in field" in line]


def test_field_that_breaks_mid_crawl_is_flagged_alone(local_server: LocalServer) -> None:
    site = Site(
        PAGES,
        {
            "title": _title,
            "description": breaks_after(
                BREAK_AT, lambda o: utf8(DESCRIPTION), lambda o: cp1252(DESCRIPTION)
            ),
            "note": _note,
            "author": lambda o: utf8(AUTHOR),
        },
    )
    start = local_server.add("/page", site)
    result = run_crawl(
        "tests.integration.pipeline_spiders:ChainSpider",
        {"ITEM_PIPELINES": PIPELINE, "CHARSET_ITEM_SPIKE_WINDOW": 10},
        {"start_url": start + "?i=0"},
    )
    assert len(result.items) == PAGES
    stat = result.stat
    assert stat("charset/item/seen") == PAGES
    # Only the description broke: one warning, for that field, naming the first broken page.
    warnings = _spike_warnings(result.log)
    assert len(warnings) == 1, warnings
    assert "'description'" in warnings[0]
    assert warnings[0].endswith(f"e.g. {start}?i={BREAK_AT}")
    assert stat("charset/item/flagged") == 1
    assert stat("charset/item/field/description/flagged") == 1
    for calm in ("title", "note", "author", "url"):
        assert stat(f"charset/item/field/{calm}/flagged") == 0
    # The description's counters match what was served: 30 broken values out of 60.
    assert stat("charset/item/field/description/seen") == PAGES
    assert stat("charset/item/field/description/affected") == PAGES - BREAK_AT
    assert stat("charset/item/field/description/replacement_rate") == 0.5
    broken_description = [i["description"] for i in result.items if "\ufffd" in i["description"]]
    assert stat("charset/item/field/description/replacement_chars") == sum(
        d.count("\ufffd") for d in broken_description
    )
    # The note always has a few (6 of 60): counted, never flagged.
    assert stat("charset/item/field/note/affected") == PAGES // 10
    assert stat("charset/item/field/note/replacement_rate") == 0.1
    assert stat("charset/item/with_replacement") == sum(
        1 for i in result.items if any("\ufffd" in str(v) for v in i.values())
    )
    assert stat("charset/item/mojibake") == 0
    # Default: items untouched (no findings field, text exactly as decoded).
    assert all("charset_findings" not in item for item in result.items)
    assert _pipeline_deprecations(result.log) == []


def test_mojibake_findings_normalization_and_drops_in_a_crawl(local_server: LocalServer) -> None:
    pages, mojibake_from, both_broken_from = 40, 20, 35
    site = Site(
        pages,
        {
            "title": breaks_after(both_broken_from, _title, lambda o: cp1252(f"Crème n°{o}")),
            "description": breaks_after(
                both_broken_from, lambda o: utf8(DESCRIPTION), lambda o: cp1252(DESCRIPTION)
            ),
            "author": breaks_after(
                mojibake_from, lambda o: utf8(AUTHOR), lambda o: double_utf8(AUTHOR)
            ),
            "sku": lambda o: utf8(SKU.format(i=o % 10)),
        },
    )
    start = local_server.add("/page", site)
    result = run_crawl(
        "tests.integration.pipeline_spiders:ProductItemSpider",
        {
            "ITEM_PIPELINES": PIPELINE,
            "CHARSET_ITEM_SPIKE_WINDOW": 10,
            "CHARSET_ITEM_FIELDS": ["title", "description", "author", "sku"],
            "CHARSET_ITEM_ADD_FINDINGS": True,
            "CHARSET_ITEM_DROP_THRESHOLD": 0.5,
            "CHARSET_ITEM_NORMALIZE": "NFKC",
            "CHARSET_ITEM_NORMALIZE_FIELDS": ["sku"],
        },
        {"start_url": start + "?i=0"},
    )
    stat = result.stat
    # Items whose 3 of 4 text values are damaged (> 50%) were dropped; the rest went through.
    assert stat("charset/item/dropped") == pages - both_broken_from
    assert len(result.items) == both_broken_from
    mojibake_chars = sum(1 for ch in AUTHOR if not ch.isascii())
    for item in result.items:
        i = int(re.search(r"i=(\d+)", item["url"]).group(1))  # type: ignore[union-attr]
        assert item["sku"] == f"SKU-123{i % 10}"  # NFKC: fullwidth forms folded
        assert item["title"] == TITLE.format(i=i)  # not a normalized field: untouched
        if i < mojibake_from:
            assert "charset_findings" not in item
            assert item["author"] == AUTHOR
        else:
            assert item["charset_findings"] == {
                "author": {"replacement_chars": 0, "mojibake_chars": mojibake_chars}
            }
    assert stat("charset/item/findings_added") == pages - mojibake_from
    assert stat("charset/item/field/author/mojibake") == pages - mojibake_from
    assert stat("charset/item/field/author/mojibake_chars") == (
        (pages - mojibake_from) * mojibake_chars
    )
    assert stat("charset/item/field/author/affected") == 0
    assert stat("charset/item/normalized") == pages
    # author: 0% -> 100% mojibake; title and description: broken in the last, partial window.
    flagged = {line.split("'")[1] for line in _spike_warnings(result.log)}
    assert flagged == {"author", "title", "description"}
    assert stat("charset/item/field/sku/flagged") == 0
    assert _pipeline_deprecations(result.log) == []
