"""The ``CHARSET_*`` settings of :class:`~scrapy_charset.integration.middleware.CharsetMiddleware`.

Every setting has one prefix, a documented type and a default (see the README).
Wrong values fail at start-up with a message naming the setting, never half-way through a crawl.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..encoding import Encoding, lookup

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


@dataclass(frozen=True)
class CharsetSettings:
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
    try:
        return settings.getbool(name, DEFAULTS[name])
    except ValueError as exc:
        value = settings.get(name)
        raise CharsetSettingsError(f"{name}: expected a boolean, got {value!r}") from exc


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
    """An Encoding Standard label (or :class:`Encoding`) -> the encoding; empty -> ``None``."""
    if value is None or value == "":
        return None
    if isinstance(value, Encoding):
        value = value.name  # the standard's own object for that name, never a look-alike
    if isinstance(value, (str, bytes)):
        encoding = lookup(value)
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
        except ImportError as exc:  # e.g. chardetng without the "chardetng" extra
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
