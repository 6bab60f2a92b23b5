"""The Encoding Standard's data, generated from vendor/whatwg (see generate.py)."""

from __future__ import annotations

import importlib
from functools import cache


@cache
def load_index(module: str) -> str:
    """The index stored in ``tables/<module>.py`` (loaded on first use): the character at a
    pointer is its code point."""
    return importlib.import_module(f"{__name__}.{module}").INDEX  # type: ignore[no-any-return]
