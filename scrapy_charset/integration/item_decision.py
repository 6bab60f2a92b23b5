"""A spider middleware that stores each page's decision in the items made from it.

Opt-in: ``CHARSET_ITEM_DECISION_FIELD = "charset"`` (the add-on adds the middleware; without the
setting it disables itself). Every item a callback yields from a response the downloader
middleware decoded gets ``{"encoding": ..., "source": ..., "label": ...}`` (see
:meth:`~scrapy_charset.sniffing.Decision.as_record`) in that field, so that a wrong decision
can be traced and the archived bytes decoded again later. Spider code is not changed.

An item whose type cannot take the field (a ``scrapy.Item``, dataclass, attrs or pydantic
class without it, a frozen dataclass...) is passed on unchanged and counted; a value the spider
already put in the field is kept. No item is ever dropped.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured
from scrapy.http import Request

from .itemtypes import adapter, is_item

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.spiders import Spider

logger = logging.getLogger(__name__)

SETTING = "CHARSET_ITEM_DECISION_FIELD"
# Near the engine (Scrapy's HttpErrorMiddleware is at 50): it sees the items as the project's
# own spider middlewares (543 by default) leave them.
PRIORITY = 100

STAT_ADDED = "charset/item_decision/added"
STAT_KEPT = "charset/item_decision/kept"
STAT_UNSUPPORTED = "charset/item_decision/unsupported"
STAT_NO_DECISION = "charset/item_decision/no_decision"


def read_field(value: Any) -> str | None:
    """The field name ``CHARSET_ITEM_DECISION_FIELD`` holds (``None``/empty: off)."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{SETTING} must be a field name (a non-empty string), got {value!r}")
    return value


def response_record(response: Response) -> dict[str, str | None] | None:
    """The decision of ``response`` as plain values, ``None`` if the plugin did not decode it."""
    try:
        decision = getattr(response, "charset_decision", None)
    except Exception:  # a response we did not make: its own property failed
        return None
    as_record = getattr(decision, "as_record", None)
    return as_record() if as_record is not None else None


class CharsetItemDecisionMiddleware:
    """Put the response's decision into a field of each item the callback yields."""

    def __init__(self, crawler: Crawler) -> None:
        field = read_field(crawler.settings.get(SETTING))
        if field is None:
            raise NotConfigured
        self.field = field
        self.stats = crawler.stats
        self._warned = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CharsetItemDecisionMiddleware:
        return cls(crawler)

    def process_spider_output(
        self, response: Response, result: Iterable[Any], spider: Spider | None = None
    ) -> Iterator[Any]:
        record = response_record(response)
        for element in result:
            yield self.tag(element, record)

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any], spider: Spider | None = None
    ) -> AsyncIterator[Any]:
        record = response_record(response)
        async for element in result:
            yield self.tag(element, record)

    def tag(self, element: Any, record: dict[str, str | None] | None) -> Any:
        """``element`` with ``record`` in the field where it can take it; always ``element``."""
        if isinstance(element, Request) or not is_item(element):
            return element
        if record is None:
            self.stats.inc_value(STAT_NO_DECISION)
            return element
        try:
            stored = self._store(element, record)
        except Exception as exc:  # frozen, validating or read-only item types
            self._unsupported(element, f"{type(exc).__name__}: {exc}")
            return element
        if stored:
            self.stats.inc_value(STAT_ADDED)
        else:
            self.stats.inc_value(STAT_KEPT)
        return element

    def _store(self, item: Any, record: dict[str, str | None]) -> bool:
        fields = adapter(item)
        if not isinstance(item, dict) and self.field not in fields.field_names():
            raise KeyError(f"no field {self.field!r}")
        if fields.get(self.field) is not None:
            return False  # the spider's own value wins
        fields[self.field] = dict(record)  # one dict per item: items may be changed later
        return True

    def _unsupported(self, item: Any, reason: str) -> None:
        self.stats.inc_value(STAT_UNSUPPORTED)
        if self._warned:
            return
        self._warned = True
        kind = f"{type(item).__module__}.{type(item).__qualname__}"
        logger.warning(
            "%s items cannot take the decision field %r (%s): passed on without it."
            " Declare the field to get it (further ones are counted in %s)",
            kind,
            self.field,
            reason,
            STAT_UNSUPPORTED,
        )
