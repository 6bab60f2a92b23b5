"""What sniffing decided, which rule decided it, and which declarations lost."""

from __future__ import annotations

from enum import Enum

from ..encoding import Encoding
from ..encoding.labels import FrozenRecord

_set = object.__setattr__


class Source(str, Enum):
    """The rule of the encoding sniffing algorithm that decided the encoding."""

    FORCED = "forced"
    EXPLICIT = "explicit"  # an encoding given to the response by whoever built it
    BOM = "bom"
    HEADER = "header"
    META = "meta"
    LATE_META = "late_meta"
    XML_DECLARATION = "xml_declaration"
    UTF8 = "utf8"
    DETECTION = "detection"
    TLD = "tld"
    DEFAULT = "default"

    def __str__(self) -> str:
        return self.value


class Declaration(FrozenRecord):
    """An encoding declared somewhere: ``label`` as written, ``encoding`` ``None`` if unknown.

    Immutable; repr, equality, hash and pickling by fields (see ``FrozenRecord``).
    """

    __slots__ = ("source", "label", "encoding")
    __match_args__ = ("source", "label", "encoding")

    source: Source
    label: str
    encoding: Encoding | None

    def __init__(self, source: Source, label: str, encoding: Encoding | None) -> None:
        _set(self, "source", source)
        _set(self, "label", label)
        _set(self, "encoding", encoding)


class Decision(FrozenRecord):
    """The encoding a browser would use for a body, and why.

    ``label`` is the label as written where a declaration decided (``None`` otherwise);
    ``overridden`` lists the declarations that lost, including unrecognised labels;
    ``confident`` is the spec's confidence: ``True`` for "certain" (BOM, header, forced),
    ``False`` for "tentative". Immutable; repr, equality, hash and pickling by fields (see
    ``FrozenRecord``): a small pickle, and the encodings come back as the same singletons.
    """

    __slots__ = ("encoding", "source", "label", "overridden", "confident")
    __match_args__ = ("encoding", "source", "label", "overridden", "confident")

    encoding: Encoding
    source: Source
    label: str | None
    overridden: tuple[Declaration, ...]
    confident: bool

    def __init__(
        self,
        encoding: Encoding,
        source: Source,
        label: str | None = None,
        overridden: tuple[Declaration, ...] = (),
        confident: bool = False,
    ) -> None:
        _set(self, "encoding", encoding)
        _set(self, "source", source)
        _set(self, "label", label)
        _set(self, "overridden", overridden)
        _set(self, "confident", confident)

    def as_record(self) -> dict[str, str | None]:
        """The decision as plain JSON-compatible values: ``{"encoding": "Shift_JIS",
        "source": "meta", "label": "shift_jis"}`` (``label`` ``None`` unless a declaration
        decided).

        This is what the middleware puts in ``request.meta["charset_decision"]`` and what
        ``CHARSET_ITEM_DECISION_FIELD`` adds to items: any scheduler serializer, feed exporter
        or database can store it, and it is enough to decode the archived bytes again.
        """
        return {"encoding": self.encoding.name, "source": _VALUES[self.source], "label": self.label}


_VALUES = {source: source.value for source in Source}  # faster than the enum's .value
