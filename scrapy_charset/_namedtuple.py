"""``NamedTuple`` for the package's records, without the cost of ``typing``'s at import.

Under ``from __future__ import annotations`` every field's annotation is a string, which
``typing.NamedTuple`` turns into a ``typing.ForwardRef``, compiling it, and it then sets the
new class's ``__bases__`` again: together 7M of the 52M instructions of importing the Scrapy
parts (their 13 records, 75 fields). This ``NamedTuple`` builds the same class from the same
class body, a ``collections.namedtuple`` with the fields, their defaults and the body's
methods, properties and docstring, and keeps each annotation as the string it is
(``typing.get_type_hints`` reads both). Type checkers see ``typing.NamedTuple`` itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:
    import collections

    # What a class body may not set, and what it sets that is not copied: as typing's.
    _PROHIBITED = frozenset(
        {"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults",
         "_make", "_replace", "_asdict", "_source"}
    )
    _SPECIAL = frozenset({"__module__", "__name__", "__annotations__"})

    class _NamedTupleMeta(type):
        def __new__(cls, typename, bases, namespace):
            annotations = namespace.get("__annotations__", {})
            fields = list(annotations)
            defaulted = [name for name in fields if name in namespace]
            if defaulted != fields[len(fields) - len(defaulted) :]:
                raise TypeError(f"{typename}: a field without a default follows one with")
            record = collections.namedtuple(
                typename,
                fields,
                defaults=[namespace[name] for name in defaulted],
                module=namespace["__module__"],
            )
            record.__annotations__ = record.__new__.__annotations__ = dict(annotations)
            for key, value in namespace.items():
                if key in _PROHIBITED:
                    raise AttributeError(f"Cannot overwrite NamedTuple attribute {key}")
                if key not in _SPECIAL and key not in fields:
                    setattr(record, key, value)
            return record

    NamedTuple = type.__new__(_NamedTupleMeta, "NamedTuple", (), {})
