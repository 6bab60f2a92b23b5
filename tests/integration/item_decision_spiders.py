"""Item types and a spider for the decision-field tests (importable by the crawl child)."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Iterator
from typing import Any

import attrs
import pydantic
import scrapy


class WithField(scrapy.Item):
    name = scrapy.Field()
    charset = scrapy.Field()


class WithoutField(scrapy.Item):
    name = scrapy.Field()


@dataclasses.dataclass
class DataWith:
    name: str
    charset: dict[str, Any] | None = None


@dataclasses.dataclass
class DataWithout:
    name: str


@dataclasses.dataclass(frozen=True)
class FrozenWith:
    name: str
    charset: dict[str, Any] | None = None


@attrs.define
class AttrsWith:
    name: str
    charset: dict[str, Any] | None = None


@attrs.define
class AttrsWithout:
    name: str


class PydanticWith(pydantic.BaseModel):
    name: str
    charset: dict[str, Any] | None = None


class PydanticWithout(pydantic.BaseModel):
    name: str


# name -> (factory, whether the type can take the field)
ITEM_TYPES: dict[str, tuple[Any, bool]] = {
    "dict": (lambda name: {"name": name}, True),
    "item": (lambda name: WithField(name=name), True),
    "item-without": (lambda name: WithoutField(name=name), False),
    "dataclass": (lambda name: DataWith(name), True),
    "dataclass-without": (lambda name: DataWithout(name), False),
    "dataclass-frozen": (lambda name: FrozenWith(name), False),
    "attrs": (lambda name: AttrsWith(name), True),
    "attrs-without": (lambda name: AttrsWithout(name), False),
    "pydantic": (lambda name: PydanticWith(name=name), True),
    "pydantic-without": (lambda name: PydanticWithout(name=name), False),
}


class ItemTypesSpider(scrapy.Spider):
    """From each of ``urls`` yield one item of every type, from a plain and an async callback,
    plus a follow-up request (which must pass through untouched)."""

    name = "item_types"

    def __init__(self, urls: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.urls = list(urls or [])

    async def start(self) -> Any:  # Scrapy >= 2.13
        for request in self.start_requests():
            yield request

    def start_requests(self) -> Iterator[scrapy.Request]:
        for url in self.urls:
            yield scrapy.Request(url, callback=self.parse, dont_filter=True)
            yield scrapy.Request(url + "?async", callback=self.parse_async, dont_filter=True)

    def parse(self, response: Any) -> Iterator[Any]:
        for kind, (factory, _) in ITEM_TYPES.items():
            yield factory(f"{response.url} {kind}")
        yield {"name": f"{response.url} own", "charset": "set by the spider"}

    async def parse_async(self, response: Any) -> AsyncIterator[Any]:
        for kind, (factory, _) in ITEM_TYPES.items():
            yield factory(f"{response.url} {kind}")
