"""The public records (Encoding, Decision, Declaration) are hand-written classes, not frozen
dataclasses (cheaper to import): they must behave as the frozen dataclasses they replace, which
are rebuilt here from the same fields and compared with them on the same values."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest

from scrapy_charset.encoding import ALL_ENCODINGS, UTF_8, WINDOWS_1252, Encoding, lookup
from scrapy_charset.encoding.labels import _set
from scrapy_charset.sniffing import Decision, Declaration, Source, sniff


@dataclass(frozen=True)
class _Encoding:
    name: str
    labels: tuple[str, ...] = field(repr=False, compare=False)
    heading: str = field(repr=False, compare=False)
    python_codec: str = field(repr=False, compare=False)
    python_codec_exact: bool = field(repr=False, compare=False)


@dataclass(frozen=True)
class _Declaration:
    source: Source
    label: str
    encoding: Encoding | None


@dataclass(frozen=True)
class _Decision:
    encoding: Encoding
    source: Source
    label: str | None = None
    overridden: tuple[Declaration, ...] = ()
    confident: bool = False


def _fields(record: Any) -> tuple[Any, ...]:
    return tuple(getattr(record, name) for name in type(record).__match_args__)


def _records() -> list[tuple[Any, Any]]:
    """(record, the dataclass made of the same values) pairs."""
    pairs: list[tuple[Any, Any]] = [(e, _Encoding(*_fields(e))) for e in ALL_ENCODINGS]
    made_up = ("x", ("x",), "", "latin-1", True)
    pairs.append((Encoding(*made_up), _Encoding(*made_up)))
    declarations = [
        Declaration(Source.META, "no-such", None),
        Declaration(Source.HEADER, "Shift_JIS", lookup("sjis")),
        Declaration(Source.XML_DECLARATION, "", UTF_8),
    ]
    pairs += [(d, _Declaration(*_fields(d))) for d in declarations]
    decisions = [
        sniff(b"<meta charset=shift_jis><p>x", [b"text/html; charset=utf-8"]),
        sniff(b"<p>x", None),
        Decision(WINDOWS_1252, Source.DEFAULT),
        Decision(UTF_8, Source.BOM, None, tuple(declarations), True),
    ]
    pairs += [(d, _Decision(*_fields(d))) for d in decisions]
    return pairs


def test_repr_fields_and_match_args_are_the_dataclasses() -> None:
    for record, reference in _records():
        assert repr(record) == repr(reference).replace("_", "", 1)
        assert type(record).__match_args__ == type(reference).__match_args__
        names = tuple(f.name for f in dataclasses.fields(reference))
        assert _fields(record) == tuple(getattr(reference, name) for name in names)


def test_equality_and_hash_are_the_dataclasses() -> None:
    pairs = _records()
    for record, reference in pairs:
        for other, other_reference in pairs:
            assert (record == other) == (reference == other_reference)
            if reference == other_reference:
                assert hash(record) == hash(other)
        if not isinstance(record, Encoding):  # Encoding hashes its name alone, as before
            assert hash(record) == hash(reference)
        assert record != reference and record != _fields(record)  # no other type is equal
        assert (record == 1) is False and (record != 1) is True
    # Encodings are equal by name only.
    assert Encoding("UTF-8", (), "", "x", False) == UTF_8
    assert hash(Encoding("UTF-8", (), "", "x", False)) == hash(UTF_8)


def test_frozen_as_the_dataclasses() -> None:
    for record, reference in _records():
        for name in type(record).__match_args__:
            with pytest.raises(dataclasses.FrozenInstanceError, match=name):
                setattr(record, name, None)
            with pytest.raises(dataclasses.FrozenInstanceError):
                delattr(record, name)
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(reference, name, None)
        with pytest.raises(AttributeError):
            record.extra = 1


def test_pickle_round_trip_gives_equal_records() -> None:
    for record, _ in _records():
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            back = pickle.loads(pickle.dumps(record, protocol))
            assert back == record and type(back) is type(record)
            assert _fields(back) == _fields(record)


def test_weak_references_and_replace() -> None:
    """What a frozen dataclass also allows: weak references, and a copy with some fields
    changed (``copy.replace`` on Python 3.13 calls ``__replace__``)."""
    import weakref

    for record, _ in _records():
        assert weakref.ref(record)() is record
        assert record.__replace__() == record
    decision = Decision(UTF_8, Source.HEADER, "utf-8")
    changed = decision.__replace__(confident=True, label="utf8")
    assert changed == Decision(UTF_8, Source.HEADER, "utf8", (), True)
    assert decision.confident is False  # the original is untouched
    with pytest.raises(TypeError, match="no field 'colour'"):
        decision.__replace__(colour="red")


class _NotedDecision(Decision):
    """A user's subclass adding a field (``__slots__`` as a string)."""

    __slots__ = "note"

    def __init__(
        self,
        encoding: Encoding,
        source: Source,
        label: str | None = None,
        overridden: tuple[Declaration, ...] = (),
        confident: bool = False,
        note: str = "",
    ) -> None:
        super().__init__(encoding, source, label, overridden, confident)
        _set(self, "note", note)


@dataclass(frozen=True)
class _NotedDataclass(_Decision):
    note: str = ""


class _PlainDecision(Decision):
    __slots__ = ()


def test_subclass_fields_follow_the_base_fields_as_in_a_dataclass() -> None:
    """A user's subclass adding a field compares, hashes, prints, pickles and replaces over
    the base's fields and its own, as a frozen dataclass subclass does; one adding none
    behaves as the base."""
    base = (UTF_8, Source.HEADER, "utf-8", (), True)
    a, b = _NotedDecision(*base, note="a"), _NotedDecision(*base, note="b")
    ra, rb = _NotedDataclass(*base, note="a"), _NotedDataclass(*base, note="b")
    assert (a == b) is (ra == rb) is False
    assert a == _NotedDecision(*base, note="a") and hash(a) == hash(ra)
    assert repr(a) == repr(ra).replace("_NotedDataclass", "_NotedDecision")
    assert a.__replace__(note="b") == b and a.__replace__(label="x").note == "a"
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(a, protocol))
        assert back == a and back.note == "a"
    plain = _PlainDecision(*base)
    assert repr(plain) == repr(Decision(*base)).replace("Decision", "_PlainDecision", 1)
    assert plain == _PlainDecision(*base) != _PlainDecision(UTF_8, Source.HEADER, "x")


class _Private(Decision):
    __slots__ = ("__secret",)

    def __init__(self, *args: Any, secret: str = "s") -> None:
        super().__init__(*args[:5])
        _set(self, "_Private__secret", args[5] if len(args) > 5 else secret)


def test_a_private_slot_of_a_subclass_is_a_field() -> None:
    record = _Private(UTF_8, Source.HEADER, secret="k")
    assert repr(record).endswith("_Private__secret='k')")
    assert record != _Private(UTF_8, Source.HEADER, secret="j")
    assert pickle.loads(pickle.dumps(record)) == record and hash(record)
