"""What sniffing decided, which rule decided it, and which declarations lost."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..encoding import Encoding


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


@dataclass(frozen=True)
class Declaration:
    """An encoding declared somewhere: ``label`` as written, ``encoding`` ``None`` if unknown."""

    source: Source
    label: str
    encoding: Encoding | None

    def __reduce__(self) -> tuple[Any, ...]:
        return (Declaration, (self.source, self.label, self.encoding))


@dataclass(frozen=True)
class Decision:
    """The encoding a browser would use for a body, and why.

    ``label`` is the label as written where a declaration decided (``None`` otherwise);
    ``overridden`` lists the declarations that lost, including unrecognised labels;
    ``confident`` is the spec's confidence: ``True`` for "certain" (BOM, header, forced),
    ``False`` for "tentative".
    """

    encoding: Encoding
    source: Source
    label: str | None = None
    overridden: tuple[Declaration, ...] = ()
    confident: bool = False

    def __reduce__(self) -> tuple[Any, ...]:
        # Positional fields rather than a dict of them: a smaller pickle. The encodings come
        # back as the same singletons (see ``Encoding.__reduce__``).
        return (
            Decision,
            (self.encoding, self.source, self.label, self.overridden, self.confident),
        )

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
