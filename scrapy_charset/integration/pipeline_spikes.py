"""Per-field counters and spike detection for the item pipeline (no Scrapy imports).

Each field path counts its text values in consecutive windows of ``window`` values. When a
window is full its damaged-value rate is compared with

- the absolute ``threshold``, and
- the field's own baseline: its rate over its last ``baseline`` calm windows. A jump is a
  rate at least ``factor`` times the baseline, at least ``min_jump`` above it, *and* a count
  of damaged values that chance alone would give less often than ``p_value`` (binomial upper
  tail at the upper 99% Wilson bound of the baseline rate, so a baseline that is clean by
  luck is not taken as certain). So a field that always has a few damaged values stays calm,
  noise included, while one going from 0% to 20% is flagged.

A spike is reported once, when it starts; windows inside a spike do not feed the baseline, and
the field is re-armed by the first calm window.
"""

from __future__ import annotations

import math
from collections import deque

from .._namedtuple import NamedTuple


class Spike(NamedTuple):
    path: str
    reason: str  # "threshold" or "jump"
    damaged: int
    values: int
    baseline: float | None
    example_url: str | None

    @property
    def rate(self) -> float:
        return self.damaged / self.values


class SpikeRule(NamedTuple):
    window: int = 50
    threshold: float | None = 0.25
    factor: float = 3.0
    min_jump: float = 0.05
    baseline: int = 10
    p_value: float = 1e-4

    @property
    def min_partial(self) -> int:
        """Values a last, partial window needs to be judged at close."""
        return min(self.window, 10)


class FieldState:
    """Running totals of one field path plus its current window and baseline."""

    __slots__ = (
        "path",
        "closed",
        "affected",
        "replacement_chars",
        "mojibake",
        "mojibake_chars",
        "damaged",
        "repaired",
        "flagged",
        "window_seen",
        "window_damaged",
        "window_url",
        "baseline",
        "in_spike",
    )

    def __init__(self, path: str, baseline_windows: int) -> None:
        self.path = path
        self.closed = 0  # values in closed windows
        self.affected = 0  # values with at least one U+FFFD
        self.replacement_chars = 0
        self.mojibake = 0  # values with mojibake
        self.mojibake_chars = 0
        self.damaged = 0  # values with U+FFFD or mojibake (what spikes are judged on)
        self.repaired = 0  # values repaired (CHARSET_ITEM_REPAIR)
        self.flagged = 0
        self.window_seen = 0
        self.window_damaged = 0
        self.window_url: str | None = None
        self.baseline: deque[tuple[int, int]] = deque(maxlen=baseline_windows)  # (damaged, n)
        self.in_spike = False

    @property
    def seen(self) -> int:
        return self.closed + self.window_seen

    @property
    def replacement_rate(self) -> float:
        seen = self.seen
        return self.affected / seen if seen else 0.0

    rate = replacement_rate  # deprecated name, removed in the next minor version

    @property
    def mojibake_rate(self) -> float:
        seen = self.seen
        return self.mojibake / seen if seen else 0.0

    def close_window(self, rule: SpikeRule) -> Spike | None:
        """Judge the current window, start a new one, and return a spike if one starts now."""
        values, damaged, url = self.window_seen, self.window_damaged, self.window_url
        self.closed += values
        self.window_seen = self.window_damaged = 0
        self.window_url = None
        if values == 0:
            return None
        if not damaged:  # a calm window (no reason applies without a damaged value)
            self.in_spike = False
            self.baseline.append((0, values))
            return None
        reason, baseline = _spike_reason(damaged, values, self.baseline, rule)
        if reason is None:
            self.in_spike = False
            self.baseline.append((damaged, values))  # the deque drops the oldest window
            return None
        if self.in_spike:
            return None
        self.in_spike = True
        self.flagged += 1
        return Spike(self.path, reason, damaged, values, baseline, url)

    def add_clean(self, count: int, rule: SpikeRule) -> Spike | None:
        """Count ``count`` clean values, closing the windows they fill, exactly as counting them
        one at a time would; only the current window can hold damage and be a spike."""
        seen = self.window_seen + count
        window = rule.window
        if seen < window:
            self.window_seen = seen
            return None
        spike = None
        if self.window_damaged:  # the current window fills first: judge it as it is
            self.window_seen = window
            spike = self.close_window(rule)
            seen -= window
        if seen >= window:  # whole windows without damage: each one calm
            full, seen = divmod(seen, window)
            self.closed += full * window
            self.in_spike = False
            if full == 1:
                self.baseline.append((0, window))
            else:  # windows beyond the baseline's length would drop off again at once
                keep = self.baseline.maxlen
                self.baseline.extend([(0, window)] * (full if keep is None else min(full, keep)))
        self.window_seen = seen
        return spike


def _spike_reason(
    damaged: int, values: int, history: deque[tuple[int, int]], rule: SpikeRule
) -> tuple[str | None, float | None]:
    """Why this window is a spike (or None), and the baseline rate it was judged against (None
    also where neither reason can apply, whatever the baseline)."""
    rate = damaged / values
    if rate < rule.min_jump and (rule.threshold is None or rate < rule.threshold):
        return None, None  # (a jump is at least min_jump above a baseline >= 0: none here)
    base_damaged = sum(d for d, _ in history)
    base_values = sum(n for _, n in history)
    baseline = base_damaged / base_values if base_values else None
    if damaged and rule.threshold is not None and rate >= rule.threshold:
        return "threshold", baseline
    if (
        damaged
        and baseline is not None
        and rate >= baseline * rule.factor
        and rate - baseline >= rule.min_jump
        and binomial_tail(damaged, values, baseline_upper_bound(base_damaged, base_values))
        <= rule.p_value
    ):
        return "jump", baseline
    return None, baseline


def baseline_upper_bound(damaged: int, values: int, z: float = 2.326) -> float:
    """Upper end of the Wilson score interval (one-sided 99% by default) of a baseline rate.

    Judging a window against this bound rather than the observed rate keeps a baseline that
    saw no damage by luck (0 of 500 values of a field damaged 0.8% of the time) from making
    the next few damaged values look impossible.
    """
    damaged = max(0, min(damaged, values))  # (a rate's bound: 0 <= damaged <= values)
    z2 = z * z
    centre = damaged + z2 / 2
    spread = z * math.sqrt(damaged * (values - damaged) / values + z2 / 4)
    return min(1.0, (centre + spread) / (values + z2))


def binomial_tail(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p), summed from the k-th term in log space."""
    if k <= 0 or p >= 1.0:
        return 1.0
    if k > n or p <= 0.0:
        return 0.0
    log_term = (
        math.lgamma(n + 1)
        - math.lgamma(k + 1)
        - math.lgamma(n - k + 1)
        + k * math.log(p)
        + (n - k) * math.log1p(-p)
    )
    term = math.exp(log_term)
    total = term
    ratio = p / (1.0 - p)
    for j in range(k, n):
        term *= (n - j) / (j + 1) * ratio
        total += term
        if term <= total * 1e-15:
            break
    return min(total, 1.0)
