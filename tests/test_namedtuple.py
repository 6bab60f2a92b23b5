"""The package's ``NamedTuple`` (``scrapy_charset._namedtuple``) builds what ``typing.NamedTuple``
builds from the same class body, and the package's records keep their fields, defaults,
methods, repr, equality and pickling."""

from __future__ import annotations

import copy
import pickle
import typing
from typing import Any

import pytest

from scrapy_charset._namedtuple import NamedTuple
from scrapy_charset.integration.middleware import _Outcome, _Plan
from scrapy_charset.integration.pipeline_actions import Context, Repair, ValueCheck
from scrapy_charset.integration.pipeline_settings import PipelineConfig
from scrapy_charset.integration.pipeline_spikes import Spike, SpikeRule
from scrapy_charset.integration.response import BrowserDecoding
from scrapy_charset.integration.settings import CharsetSettings
from scrapy_charset.quality import Mojibake
from scrapy_charset.sniffing.content_type import MimeType
from scrapy_charset.sniffing.letters import Ranking
from scrapy_charset.sniffing.prescan import MetaDeclaration


class Ours(NamedTuple):
    """A point with a label."""

    x: int
    y: int = 0
    label: str | None = None

    @property
    def norm(self) -> int:
        return abs(self.x) + abs(self.y)

    def moved(self, dx: int) -> Ours:
        return self._replace(x=self.x + dx)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Ours, (self.x, self.y, "pickled"))


class Typings(typing.NamedTuple):
    """A point with a label."""

    x: int
    y: int = 0
    label: str | None = None

    @property
    def norm(self) -> int:
        return abs(self.x) + abs(self.y)

    def moved(self, dx: int) -> Typings:
        return self._replace(x=self.x + dx)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Typings, (self.x, self.y, "pickled"))


def test_builds_what_typing_builds() -> None:
    ours, theirs = Ours(3, -4), Typings(3, -4)
    assert Ours.__mro__[1:] == Typings.__mro__[1:] == (tuple, object)
    assert Ours._fields == Typings._fields == ("x", "y", "label")
    assert Ours._field_defaults == Typings._field_defaults == {"y": 0, "label": None}
    assert Ours.__new__.__defaults__ == Typings.__new__.__defaults__ == (0, None)
    assert Ours.__doc__ == Typings.__doc__ == "A point with a label."
    assert Ours.__module__ == Typings.__module__ == __name__
    assert (Ours.__qualname__, Typings.__qualname__) == ("Ours", "Typings")
    assert repr(ours) == "Ours(x=3, y=-4, label=None)"
    assert repr(theirs) == "Typings(x=3, y=-4, label=None)"
    assert ours == theirs and tuple(ours) == (3, -4, None)
    assert hash(ours) == hash(theirs) == hash((3, -4, None))
    assert ours.norm == theirs.norm == 7
    assert ours.moved(1) == theirs.moved(1) == (4, -4, None)
    assert type(ours.moved(1)) is Ours
    assert ours._asdict() == theirs._asdict() == {"x": 3, "y": -4, "label": None}
    assert Ours._make([1, 2, "a"]) == Typings._make([1, 2, "a"]) == (1, 2, "a")
    assert not hasattr(ours, "__dict__") and not hasattr(theirs, "__dict__")
    assert pickle.loads(pickle.dumps(ours)) == pickle.loads(pickle.dumps(theirs))
    assert pickle.loads(pickle.dumps(ours)) == (3, -4, "pickled")
    assert typing.get_type_hints(Ours) == typing.get_type_hints(Typings)
    assert Ours.__annotations__ == {"x": "int", "y": "int", "label": "str | None"}


def test_refuses_what_typing_refuses() -> None:
    with pytest.raises(TypeError):

        class DefaultFirst(NamedTuple):
            x: int = 0
            y: int  # type: ignore[misc]

    with pytest.raises(AttributeError):

        class OwnReplace(NamedTuple):
            x: int

            def _replace(self, **changes: Any) -> OwnReplace:  # type: ignore[misc]
                return self


# Each record type of the package: its fields and their defaults (no default: ...).
_RECORDS: list[tuple[type[Any], dict[str, Any]]] = [
    (MetaDeclaration, {"label": ..., "encoding": ..., "end": ..., "start": 0}),
    (MimeType, {"type": ..., "subtype": ..., "parameters": ...}),
    (
        Spike,
        dict.fromkeys(("path", "reason", "damaged", "values", "baseline", "example_url"), ...),
    ),
    (
        SpikeRule,
        {"window": 50, "threshold": 0.25, "factor": 3.0, "min_jump": 0.05, "baseline": 10,
         "p_value": 1e-4},
    ),
    (_Outcome, dict.fromkeys(("decision", "comparison", "unchanged", "keys", "record"), ...)),
    (
        _Plan,
        {**dict.fromkeys(
            ("header", "header_outcome", "bom_outcomes", "reads_meta", "stock",
             "meta_outcomes", "last_meta", "last_head"),
            ...,
        ), "xml": False},
    ),
    (
        CharsetSettings,
        dict.fromkeys(("enabled", "response_types", "detector", "tld_hint", "force_encoding"), ...),
    ),
    (
        ValueCheck,
        {"path": ..., "replacement_chars": ..., "mojibake_chars": ..., "state": None, "value": ""},
    ),
    (Repair, dict.fromkeys(("path", "before", "after"), ...)),
    (Context, dict.fromkeys(("config", "add_stat", "wanted"), ...)),
    (BrowserDecoding, {"kind": "html", "detector": ..., "tld_hint": True, "forced": None}),
    (
        PipelineConfig,
        {"enabled": True, "fields": (), "threshold": 0.25, "spike_window": 50,
         "spike_factor": 3.0, "spike_min_jump": 0.05, "spike_baseline": 10,
         "spike_p_value": 1e-4, "url_fields": ("url",), "repair": False, "repair_fields": (),
         "normalize": None, "normalize_fields": (), "add_findings": False,
         "findings_field": "charset_findings", "drop_threshold": None, "max_fields": 200},
    ),
    (Mojibake, dict.fromkeys(("start", "end", "text", "repaired", "misread_as"), ...)),
    (Ranking, dict.fromkeys(("best", "score", "near"), ...)),
]


@pytest.mark.parametrize("record, fields", _RECORDS, ids=[r.__name__ for r, _ in _RECORDS])
def test_record_keeps_its_fields_defaults_and_tuple_behaviour(
    record: type[Any], fields: dict[str, Any]
) -> None:
    assert record._fields == tuple(fields)
    defaults = {name: value for name, value in fields.items() if value is not ...}
    if record is BrowserDecoding:  # its detector default is a sentinel (the default detector)
        defaults["detector"] = record._field_defaults["detector"]
    assert record._field_defaults == defaults
    assert record.__mro__[1:] == (tuple, object)
    assert set(typing.get_type_hints(record)) == set(fields)
    values = [f"v{i}" for i in range(len(fields))]
    value = record(*values)
    assert tuple(value) == tuple(values)
    assert not hasattr(value, "__dict__")
    assert repr(value) == f"{record.__name__}(" + ", ".join(
        f"{name}={v!r}" for name, v in zip(fields, values, strict=True)
    ) + ")"
    assert value._asdict() == dict(zip(fields, values, strict=True))
    assert value._replace(**{record._fields[0]: "new"})[0] == "new"
    assert pickle.loads(pickle.dumps(value)) == value
    assert type(pickle.loads(pickle.dumps(value))) is record
    assert copy.copy(value) == value
    assert isinstance(value, tuple)
