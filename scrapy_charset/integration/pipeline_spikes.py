"""Per-field counters and spike detection for the item pipeline (no Scrapy imports).

Each field path counts its text values in consecutive windows of ``window`` values. When a
window is full its damaged-value rate is compared with

- the absolute ``threshold``, and
- the field's own baseline: the mean rate of its last ``baseline`` calm windows. A jump is a
  rate at least ``factor`` times the baseline *and* at least ``min_jump`` above it, so a field
  that always has a few damaged values stays calm while one going from 0% to 20% is flagged.

A spike is reported once, when it starts; windows inside a spike do not feed the baseline, and
the field is re-armed by the first calm window.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass


@dataclass(frozen=True)
class Spike:
    path: str
    reason: str  # "threshold" or "jump"
    damaged: int
    values: int
    baseline: float | None
    example_url: str | None

    @property
    def rate(self) -> float:
        return self.damaged / self.values


@dataclass(frozen=True)
class SpikeRule:
    window: int = 50
    threshold: float | None = 0.25
    factor: float = 3.0
    min_jump: float = 0.05
    baseline: int = 5

    @property
    def min_partial(self) -> int:
        """Values a last, partial window needs to be judged at close."""
        return min(self.window, 10)


class FieldState:
    """Running totals of one field path plus its current window and baseline."""

    __slots__ = (
        "path",
        "seen",
        "affected",
        "replacement_chars",
        "mojibake",
        "mojibake_chars",
        "flagged",
        "window_seen",
        "window_damaged",
        "window_url",
        "baseline",
        "in_spike",
    )

    def __init__(self, path: str, baseline_windows: int) -> None:
        self.path = path
        self.seen = 0
        self.affected = 0  # values with at least one U+FFFD
        self.replacement_chars = 0
        self.mojibake = 0  # values with mojibake
        self.mojibake_chars = 0
        self.flagged = 0
        self.window_seen = 0
        self.window_damaged = 0
        self.window_url: str | None = None
        self.baseline: deque[float] = deque(maxlen=baseline_windows)
        self.in_spike = False

    @property
    def rate(self) -> float:
        return self.affected / self.seen if self.seen else 0.0

    @property
    def mojibake_rate(self) -> float:
        return self.mojibake / self.seen if self.seen else 0.0

    def close_window(self, rule: SpikeRule) -> Spike | None:
        """Judge the current window, start a new one, and return a spike if one starts now."""
        values, damaged, url = self.window_seen, self.window_damaged, self.window_url
        self.window_seen = self.window_damaged = 0
        self.window_url = None
        if values == 0:
            return None
        rate = damaged / values
        baseline = sum(self.baseline) / len(self.baseline) if self.baseline else None
        reason = _spike_reason(rate, baseline, rule)
        if reason is None:
            self.in_spike = False
            self.baseline.append(rate)
            return None
        if self.in_spike:
            return None
        self.in_spike = True
        self.flagged += 1
        return Spike(self.path, reason, damaged, values, baseline, url)


def _spike_reason(rate: float, baseline: float | None, rule: SpikeRule) -> str | None:
    if rule.threshold is not None and rate >= rule.threshold and rate > 0:
        return "threshold"
    if (
        baseline is not None
        and rate >= baseline * rule.factor
        and rate - baseline >= rule.min_jump
        and rate > 0
    ):
        return "jump"
    return None
