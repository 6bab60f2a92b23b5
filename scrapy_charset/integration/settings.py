"""The ``CHARSET_*`` settings of :class:`~scrapy_charset.integration.middleware.CharsetMiddleware`.

Every setting has one prefix, a documented type and a default (see docs/settings.md).
Wrong values fail at start-up with a message naming the setting, never half-way through a crawl.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .._namedtuple import NamedTuple
from ..encoding import REPLACEMENT, Encoding, lookup

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

ENABLED = "CHARSET_ENABLED"
RESPONSE_TYPES = "CHARSET_RESPONSE_TYPES"
DETECTOR = "CHARSET_DETECTOR"
TLD_HINT = "CHARSET_TLD_HINT"
FORCE_ENCODING = "CHARSET_FORCE_ENCODING"

DEFAULTS: Mapping[str, Any] = {
    ENABLED: True,
    RESPONSE_TYPES: ["html"],
    DETECTOR: "charset_normalizer",
    TLD_HINT: True,
    FORCE_ENCODING: None,
}

# Kinds of response the middleware can take over, by Scrapy's response class:
# "html" = HtmlResponse, "xml" = XmlResponse, "text" = any other TextResponse.
RESPONSE_KINDS = ("html", "xml", "text")

# Detector names accepted besides an import path; "none" turns detection off.
DETECTOR_NAMES = ("charset_normalizer", "chardetng", "none")


class CharsetSettingsError(ValueError):
    """A ``CHARSET_*`` setting holds a value the middleware cannot use."""


class CharsetSettings(NamedTuple):
    """The middleware's settings, read and checked once per crawler.

    ``detector`` is the detector object handed to sniffing (``None``: no detection).
    """

    enabled: bool
    response_types: frozenset[str]
    detector: Any
    tld_hint: bool
    force_encoding: Encoding | None


def read_settings(settings: BaseSettings, crawler: Crawler | None = None) -> CharsetSettings:
    """Read and check the ``CHARSET_*`` settings; raise :class:`CharsetSettingsError` if wrong."""
    enabled = _getbool(settings, ENABLED)
    return CharsetSettings(
        enabled=enabled,
        response_types=parse_response_types(_get(settings, RESPONSE_TYPES)),
        # An unused detector is not loaded: a disabled middleware must not fail on it.
        detector=load_detector(_get(settings, DETECTOR), crawler) if enabled else None,
        tld_hint=_getbool(settings, TLD_HINT),
        force_encoding=parse_forced_encoding(_get(settings, FORCE_ENCODING), FORCE_ENCODING),
    )


def _get(settings: BaseSettings, name: str) -> Any:
    value = settings.get(name)
    return DEFAULTS[name] if value is None else value


def _getbool(settings: BaseSettings, name: str) -> bool:
    return get_bool(settings, name, DEFAULTS[name])


# The spellings of a boolean accepted in a setting (what ``-s NAME=VALUE`` gives): Scrapy's
# getbool() ones ("1", "0", "True", "true", "False", "false") and the usual on/off words.
_TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
_FALSE_WORDS = frozenset({"0", "false", "no", "off"})


def get_bool(settings: Any, name: str, default: bool) -> bool:
    """The boolean setting ``name``: ``True``/``False``, 0/1 or a word such as ``"off"``.

    ``None`` (unset) gives ``default``; any other value raises :class:`CharsetSettingsError`
    naming the setting (Scrapy's own ``getbool`` would raise a bare ``TypeError`` for a list
    or ``OverflowError`` for ``inf``).
    """
    value = settings.get(name)
    if value is None:
        return default
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = value.strip().lower()
        if word in _TRUE_WORDS:
            return True
        if word in _FALSE_WORDS:
            return False
    raise CharsetSettingsError(
        f"{name}: expected a boolean (True/False, 1/0, true/false, on/off, yes/no),"
        f" got {_shown(value)}"
    )


def get_number(
    settings: Any,
    name: str,
    default: float,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    integer: bool = False,
) -> float:
    """The finite number (an ``int`` if ``integer``) in ``name``, within the bounds.

    Accepts numbers and their string spellings; ``None`` (unset) gives ``default``. Booleans,
    containers, objects, ``nan``, infinities and values out of bounds raise
    :class:`CharsetSettingsError` naming the setting.
    """
    raw = settings.get(name)
    if raw is None:
        return default
    kind = "an integer" if integer else "a number"
    bounds = _bounds(minimum, maximum)
    value: float | None = None
    if isinstance(raw, int) and not isinstance(raw, bool):
        value = raw if integer else _finite_float(raw)
    elif isinstance(raw, (float, str)):
        value = _finite_float(raw)
        if value is not None and integer:
            value = int(value) if value.is_integer() else None
    if (
        value is None
        or (minimum is not None and value < minimum)
        or (maximum is not None and value > maximum)
    ):
        raise CharsetSettingsError(f"{name}: expected {kind}{bounds}, got {_shown(raw)}")
    return value


def _finite_float(raw: int | float | str) -> float | None:
    try:
        value = float(raw)
    except (ValueError, OverflowError):
        return None
    return value if math.isfinite(value) else None


def get_list(settings: Any, name: str, default: list[str]) -> list[str]:
    """The list of strings in ``name``: a list/tuple of strings or a comma-separated string.

    ``None`` (unset) gives ``default``; anything else (a number, a dict, a list holding a
    non-string) raises :class:`CharsetSettingsError` naming the setting.
    """
    value = settings.get(name)
    if value is None:
        return list(default)
    if isinstance(value, str):
        return value.split(",")
    if isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
        return list(value)
    raise CharsetSettingsError(
        f"{name}: expected a list of strings or a comma-separated string, got {_shown(value)}"
    )


def _bounds(minimum: float | None, maximum: float | None) -> str:
    parts = []
    if minimum is not None:
        parts.append(f">= {minimum:g}")
    if maximum is not None:
        parts.append(f"<= {maximum:g}")
    return f" {' and '.join(parts)}" if parts else ""


def _shown(value: Any) -> str:
    """A setting's value for an error message: its repr, cut short."""
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__} object>"
    return text if len(text) <= 200 else f"{text[:200]}..."


def parse_response_types(value: Any) -> frozenset[str]:
    """``["html", "xml"]`` or ``"html,xml"`` (the ``-s`` form) -> the set of response kinds."""
    if isinstance(value, str):
        items = [part.strip() for part in value.split(",")]
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = [str(part).strip() for part in value]
    else:
        raise CharsetSettingsError(
            f"{RESPONSE_TYPES}: expected a list of {', '.join(RESPONSE_KINDS)}; got {value!r}"
        )
    kinds = frozenset(item.lower() for item in items if item)
    unknown = sorted(kinds.difference(RESPONSE_KINDS))
    if unknown:
        raise CharsetSettingsError(
            f"{RESPONSE_TYPES}: unknown response type(s) {', '.join(map(repr, unknown))};"
            f" expected some of {', '.join(RESPONSE_KINDS)}"
        )
    return kinds


def parse_forced_encoding(value: Any, origin: str) -> Encoding | None:
    """An Encoding Standard label (or :class:`Encoding`) -> the encoding; empty, or ``"none"``
    (any case: how ``-s NAME=None`` arrives; no label is "none") -> ``None``."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none")):
        return None
    if isinstance(value, Encoding):
        value = value.name  # the standard's own object for that name, never a look-alike
    if isinstance(value, (str, bytes)):
        encoding = lookup(value)
        if encoding == REPLACEMENT:
            raise CharsetSettingsError(
                f"{origin}: {value!r} names the replacement encoding, which reads any page as"
                " one U+FFFD (no text, no links); no page can be read in it"
            )
        if encoding is not None:
            return encoding
    raise CharsetSettingsError(f"{origin}: {value!r} is not an Encoding Standard label")


def load_detector(value: Any, crawler: Crawler | None = None) -> Any:
    """``CHARSET_DETECTOR`` -> a detector object (with ``detect(data, *, tld=...)``) or ``None``.

    Accepts a built-in name (``"charset_normalizer"``, ``"chardetng"``, ``"none"``), an import
    path (``"pkg.module.Name"`` or ``"pkg.module:Name"``) of a detector object or class, or the
    object or class itself. A class is built with ``from_crawler(crawler)`` when it has one,
    otherwise called without arguments.
    """
    if value is None or value is False or (isinstance(value, str) and value.lower() == "none"):
        return None
    if isinstance(value, str):
        name = value.strip()
        if name.lower() in _BUILTIN_DETECTORS:
            value = _import(_BUILTIN_DETECTORS[name.lower()], name)
        else:
            value = _import(name, name)
    if isinstance(value, type):
        factory = getattr(value, "from_crawler", None)
        try:
            value = factory(crawler) if factory is not None and crawler is not None else value()
        except Exception as exc:  # e.g. chardetng without the "chardetng" extra
            raise CharsetSettingsError(f"{DETECTOR}: cannot build {value!r}: {exc}") from exc
    if not callable(getattr(value, "detect", None)):
        raise CharsetSettingsError(f"{DETECTOR}: {value!r} has no detect(data, *, tld) method")
    return value


# Where the built-in detectors live; imported only when chosen.
_BUILTIN_DETECTORS: dict[str, str] = {
    "charset_normalizer": "scrapy_charset.sniffing:DEFAULT_DETECTOR",
    "chardetng": "scrapy_charset.sniffing:ChardetngDetector",
}


def _import(path: str, setting_value: str) -> Any:
    module_name, sep, attribute = path.partition(":")
    if not sep:
        module_name, _, attribute = path.rpartition(".")
    if not module_name or not attribute:
        raise CharsetSettingsError(
            f"{DETECTOR}: {setting_value!r} is neither one of {', '.join(DETECTOR_NAMES)}"
            " nor an import path"
        )
    try:
        module = importlib.import_module(module_name)
        return getattr(module, attribute)
    except (ImportError, AttributeError) as exc:
        raise CharsetSettingsError(f"{DETECTOR}: cannot load {setting_value!r}: {exc}") from exc
