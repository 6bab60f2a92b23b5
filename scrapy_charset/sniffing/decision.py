"""What sniffing decided, which rule decided it, and which declarations lost."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..encoding import Encoding


class Source(str, Enum):
    """The rule of the encoding sniffing algorithm that decided the encoding."""

    FORCED = "forced"
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
