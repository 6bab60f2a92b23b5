"""The ``CHARSET_ITEM_*`` settings of :class:`~scrapy_charset.integration.pipeline.CharsetPipeline`.

Read and validated once, so a wrong value fails at start-up with a message naming the setting.
"""

from __future__ import annotations

from typing import Any

from .._namedtuple import NamedTuple
from ..quality import NORMAL_FORMS, NormalForm
from .settings import CharsetSettingsError, get_bool, get_list, get_number


class PipelineConfig(NamedTuple):
    enabled: bool = True
    fields: tuple[str, ...] = ()  # field paths to inspect; empty: every field
    threshold: float | None = 0.25  # absolute damaged-value rate that flags a field
    spike_window: int = 50  # values per window
    spike_factor: float = 3.0  # window rate against the baseline mean
    spike_min_jump: float = 0.05  # and at least this much above the baseline
    spike_baseline: int = 10  # windows in the rolling baseline
    spike_p_value: float = 1e-4  # how unlikely by chance a jump must be
    url_fields: tuple[str, ...] = ("url",)
    repair: bool = False
    repair_fields: tuple[str, ...] = ()  # empty: every inspected field
    normalize: NormalForm | None = None
    normalize_fields: tuple[str, ...] = ()  # empty: every inspected field
    add_findings: bool = False
    findings_field: str = "charset_findings"
    drop_threshold: float | None = None  # damaged share of an item's text values
    max_fields: int = 200  # distinct field paths tracked; the rest share "<other>"

    @classmethod
    def from_settings(cls, settings: Any) -> PipelineConfig:
        """Build from Scrapy ``Settings`` (anything with ``get``); raises
        :class:`~scrapy_charset.integration.settings.CharsetSettingsError` (a ``ValueError``)
        naming the setting for a wrong value."""
        return cls(
            enabled=get_bool(settings, "CHARSET_ITEM_ENABLED", True),
            fields=_paths(get_list(settings, "CHARSET_ITEM_FIELDS", [])),
            threshold=_rate_or_none(settings, "CHARSET_ITEM_THRESHOLD", 0.25),
            spike_window=_positive_int(settings, "CHARSET_ITEM_SPIKE_WINDOW", 50),
            spike_factor=get_number(settings, "CHARSET_ITEM_SPIKE_FACTOR", 3.0, minimum=1.0),
            spike_min_jump=_rate(settings, "CHARSET_ITEM_SPIKE_MIN_JUMP", 0.05),
            spike_baseline=_positive_int(settings, "CHARSET_ITEM_SPIKE_BASELINE", 10),
            spike_p_value=_rate(settings, "CHARSET_ITEM_SPIKE_PVALUE", 1e-4),
            url_fields=_paths(get_list(settings, "CHARSET_ITEM_URL_FIELDS", ["url"])),
            repair=get_bool(settings, "CHARSET_ITEM_REPAIR", False),
            repair_fields=_paths(get_list(settings, "CHARSET_ITEM_REPAIR_FIELDS", [])),
            normalize=_normal_form(settings.get("CHARSET_ITEM_NORMALIZE")),
            normalize_fields=_paths(get_list(settings, "CHARSET_ITEM_NORMALIZE_FIELDS", [])),
            add_findings=get_bool(settings, "CHARSET_ITEM_ADD_FINDINGS", False),
            findings_field=_name(settings, "CHARSET_ITEM_FINDINGS_FIELD", "charset_findings"),
            drop_threshold=_rate_or_none(settings, "CHARSET_ITEM_DROP_THRESHOLD", None),
            max_fields=_positive_int(settings, "CHARSET_ITEM_MAX_FIELDS", 200),
        )


def _paths(values: list[str]) -> tuple[str, ...]:
    return tuple(v.strip() for v in values if v.strip())


def _rate(settings: Any, name: str, default: float) -> float:
    return get_number(settings, name, default, minimum=0.0, maximum=1.0)


_OFF = ("", "none", "off", "false")


def _rate_or_none(settings: Any, name: str, default: float | None) -> float | None:
    if name in settings and settings[name] is None:  # explicitly set to None: switched off
        return None
    raw = settings.get(name)
    if raw is None:
        return default
    if raw is False or (isinstance(raw, str) and raw.strip().lower() in _OFF):
        return None
    return _rate(settings, name, 0.0)  # the value is set: the default is not used


def _positive_int(settings: Any, name: str, default: int) -> int:
    return int(get_number(settings, name, default, minimum=1, integer=True))


def _normal_form(raw: Any) -> NormalForm | None:
    # (off as the rates are: None, False, or "", "none", "off", "false" from the command line)
    if raw is None or raw is False or (isinstance(raw, str) and raw.strip().lower() in _OFF):
        return None
    form = raw.strip().upper() if isinstance(raw, str) else None
    for known in NORMAL_FORMS:
        if form == known:
            return known
    raise CharsetSettingsError(
        f"CHARSET_ITEM_NORMALIZE must be one of {', '.join(NORMAL_FORMS)} or None, got {raw!r}"
    )


def _name(settings: Any, name: str, default: str) -> str:
    raw = settings.get(name)
    if raw is None:
        return default
    if not isinstance(raw, str) or not raw.strip():
        raise CharsetSettingsError(f"{name}: expected a non-empty field name, got {raw!r}")
    return raw.strip()
