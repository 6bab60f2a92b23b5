"""Regular expressions compiled on first use rather than at import.

Compiling the package's patterns at import took several milliseconds of every Scrapy
process's start-up (one of detection's alone about 4 ms), though most serve page kinds a crawl
may never meet. ``lazy_compile`` returns a stand-in that compiles its pattern on first use and
then holds the compiled pattern's methods and attributes as plain attributes, so later calls
(``PATTERN.match(...)``) cost what they cost on the compiled pattern.
"""

from __future__ import annotations

import re
from typing import Any, AnyStr, cast


class _Compiled:
    """A compiled stand-in: the pattern's public methods and attributes as its own."""


class _LazyPattern(_Compiled):
    def __init__(self, pattern: Any, flags: int) -> None:
        self._source = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        # Only called while an attribute is missing: on first use. The stand-in then becomes
        # a plain _Compiled, whose attribute lookups do not go through __getattr__.
        compiled = re.compile(*self._source)
        for attribute in dir(compiled):
            if not attribute.startswith("_"):
                setattr(self, attribute, getattr(compiled, attribute))
        self.__class__ = _Compiled  # type: ignore[assignment]
        return getattr(compiled, name)


def lazy_compile(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """``re.compile(pattern, flags)``, done on the first use of the result."""
    return cast("re.Pattern[AnyStr]", _LazyPattern(pattern, flags))
