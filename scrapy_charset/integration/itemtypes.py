"""Item types, without importing itemadapter up front.

itemadapter imports its pydantic and attrs support when those are installed (pydantic alone
costs a crawl's start-up a few hundred milliseconds), while dict items and ``scrapy.Item``
need none of it. It is imported the first time another kind of value is looked at (a
dataclass, an attrs or pydantic item, or any other object inside an item); then the answers
are itemadapter's own, so its ``ItemAdapter.ADAPTER_CLASSES`` still decide.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from scrapy import Item

if TYPE_CHECKING:
    from itemadapter import ItemAdapter


def is_item(value: Any) -> bool:
    """Whether ``value`` is an item (itemadapter's ``is_item``)."""
    if isinstance(value, (dict, Item)):
        return True
    from itemadapter import is_item as itemadapter_is_item

    return itemadapter_is_item(value)


def adapter(item: Any) -> ItemAdapter:
    """``ItemAdapter(item)``."""
    from itemadapter import ItemAdapter

    return ItemAdapter(item)


def field_value(item: Any, name: str) -> Any:
    """The value of the field ``name`` of ``item``, or None where it has none. Reading never
    adds the field: a mapping (a dict, a ``scrapy.Item``) is asked through ``keys()`` whether
    it holds the key before the key is read, so that no ``defaultdict`` factory, ``__missing__``
    or ``__getitem__`` that inserts a default runs for an absent key."""
    if isinstance(item, Mapping):
        return item[name] if name in item.keys() else None
    return adapter(item).get(name)
