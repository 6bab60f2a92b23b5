"""Spike detection per field: absolute threshold, jump against the rolling baseline, re-arming."""

from __future__ import annotations

import math
import random
from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_charset.integration.pipeline_spikes import (
    FieldState,
    Spike,
    SpikeRule,
    baseline_upper_bound,
    binomial_tail,
)


def feed(state: FieldState, rule: SpikeRule, damaged_flags: Iterable[bool]) -> list[Spike]:
    """Count values the way the pipeline does; return the spikes reported."""
    spikes = []
    for n, damaged in enumerate(damaged_flags):
        state.window_seen += 1
        if damaged:
            state.window_damaged += 1
            if state.window_url is None:
                state.window_url = f"https://example.test/{n}"
        if state.window_seen >= rule.window:
            spike = state.close_window(rule)
            if spike:
                spikes.append(spike)
    return spikes


def pattern(windows: list[int], window: int = 20) -> list[bool]:
    """Windows of ``window`` values with the given number of damaged values each."""
    return [i < bad for bad in windows for i in range(window)]


def test_field_that_always_has_a_few_is_not_flagged() -> None:
    rule = SpikeRule(window=20, threshold=0.25)
    state = FieldState("note", rule.baseline)
    # 5-10% damaged, window after window, with ups and downs.
    assert feed(state, rule, pattern([1, 2, 1, 2, 2, 1, 2, 1, 2, 2])) == []
    assert state.flagged == 0


@pytest.mark.parametrize("rate", [0.005, 0.02, 0.05])
def test_random_noise_at_a_steady_rate_is_not_flagged(rate: float) -> None:
    # 100,000 values, each damaged with the same probability: windows fluctuate, no spike.
    rng = random.Random(8)
    rule = SpikeRule()  # the defaults: window 50, 10 baseline windows
    state = FieldState("noisy", rule.baseline)
    assert feed(state, rule, (rng.random() < rate for _ in range(100_000))) == []


def test_jump_from_zero_to_twenty_percent_is_flagged_once() -> None:
    rule = SpikeRule()  # 20% is below the default absolute threshold of 25%
    state = FieldState("description", rule.baseline)
    spikes = feed(state, rule, pattern([0] * 5 + [10] * 4, window=50))
    assert len(spikes) == 1
    (spike,) = spikes
    assert (spike.path, spike.reason, spike.damaged, spike.values) == (
        "description",
        "jump",
        10,
        50,
    )
    assert spike.baseline == 0.0 and spike.rate == 0.2
    assert spike.example_url == "https://example.test/250"
    assert state.flagged == 1


def test_jump_needs_the_factor_the_gap_and_significance() -> None:
    rule = SpikeRule(window=100, threshold=None, factor=3.0, min_jump=0.05)
    # Baseline 5%: 10% is only twice the baseline; 20% is four times and 15 points above.
    assert feed(FieldState("a", 10), rule, pattern([5] * 10 + [10], window=100)) == []
    assert len(feed(FieldState("b", 10), rule, pattern([5] * 10 + [20], window=100))) == 1
    # Baseline 1%: 4% is four times as much but only 3 points above.
    assert feed(FieldState("c", 10), rule, pattern([1] * 10 + [4], window=100)) == []
    # Significance alone (no factor, no gap): 3 of 50 on a 2% baseline is chance, 10 is not.
    loose = SpikeRule(window=50, threshold=None, factor=1.0, min_jump=0.0)
    assert feed(FieldState("d", 10), loose, pattern([1] * 10 + [3], window=50)) == []
    assert len(feed(FieldState("e", 10), loose, pattern([1] * 10 + [10], window=50))) == 1


def test_absolute_threshold_flags_without_a_baseline() -> None:
    rule = SpikeRule(window=10, threshold=0.25)
    spikes = feed(FieldState("title", rule.baseline), rule, pattern([3], window=10))
    assert [(s.reason, s.baseline) for s in spikes] == [("threshold", None)]


def test_spike_windows_do_not_become_the_baseline_and_calm_rearms() -> None:
    rule = SpikeRule(window=10, threshold=None, factor=3.0, min_jump=0.05, baseline=3)
    # (a 3-window baseline of 0 of 30 has an upper bound of 15%: 8 of 10 stands out, 5 not)
    state = FieldState("f", rule.baseline)
    # calm, a spike lasting 8 windows (one report), calm again, a second spike (second report).
    spikes = feed(state, rule, pattern([0, 0, 0] + [8] * 8 + [0, 0, 0] + [8], window=10))
    assert len(spikes) == 2
    assert all(s.baseline == 0.0 for s in spikes)
    assert list(state.baseline) == [(0, 10), (0, 10), (0, 10)]


def test_rolling_baseline_follows_the_field() -> None:
    rule = SpikeRule(window=10, threshold=None, factor=2.0, min_jump=0.05, baseline=2)
    state = FieldState("f", rule.baseline)
    # The level rises slowly (never doubling between windows): it becomes the new normal.
    assert feed(state, rule, pattern([2, 3, 4, 5, 6], window=10)) == []
    assert list(state.baseline) == [(5, 10), (6, 10)]


def test_binomial_tail_matches_the_exact_sum() -> None:
    for n, p in ((10, 0.1), (50, 0.02), (200, 0.3)):
        for k in (0, 1, 3, n // 2, n):
            exact = sum(math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k, n + 1))
            assert binomial_tail(k, n, p) == pytest.approx(exact, rel=1e-9, abs=1e-300)
    assert binomial_tail(5, 4, 0.5) == 0.0
    assert binomial_tail(1, 10, 0.0) == 0.0
    assert binomial_tail(3, 10, 1.0) == 1.0
    assert binomial_tail(5000, 10_000, 0.01) < 1e-300  # large n: no overflow
    assert binomial_tail(100, 10_000, 0.01) == pytest.approx(0.5, abs=0.03)  # about the median


def test_empty_window_and_partial_window_size() -> None:
    rule = SpikeRule(window=50)
    assert FieldState("f", 5).close_window(rule) is None
    assert rule.min_partial == 10
    assert SpikeRule(window=4).min_partial == 4


def test_baseline_upper_bound() -> None:
    # No damage in 500 values still allows about 1% (the "rule of three" gives 0.6% at 95%).
    assert baseline_upper_bound(0, 500) == pytest.approx(0.0107, abs=0.0005)
    assert 0.02 < baseline_upper_bound(10, 500) < 0.05
    assert baseline_upper_bound(500, 500) == pytest.approx(1.0)


def _snapshot(state: FieldState) -> tuple[object, ...]:
    return tuple(
        list(value) if name == "baseline" else value
        for name in FieldState.__slots__
        for value in [getattr(state, name)]
    )


@settings(max_examples=300, deadline=None)
@given(
    window=st.integers(1, 12),
    baseline_windows=st.integers(1, 4),
    threshold=st.sampled_from([None, 0.25]),
    # runs of damaged values (as the value-by-value path counts them) and of clean values
    runs=st.lists(st.tuples(st.booleans(), st.integers(0, 40)), max_size=12),
)
def test_clean_values_in_bulk_count_exactly_like_one_at_a_time(
    window: int, baseline_windows: int, threshold: float | None, runs: list[tuple[bool, int]]
) -> None:
    rule = SpikeRule(
        window=window,
        threshold=threshold,
        factor=2.0,
        min_jump=0.0,
        baseline=baseline_windows,
        p_value=0.5,
    )
    one, bulk = FieldState("f", rule.baseline), FieldState("f", rule.baseline)
    one_spikes: list[Spike] = []
    bulk_spikes: list[Spike] = []
    for damaged, count in runs:
        one_spikes += feed(one, rule, [damaged] * count)
        if damaged:
            bulk_spikes += feed(bulk, rule, [True] * count)
        else:
            spike = bulk.add_clean(count, rule)
            bulk_spikes += [spike] if spike else []
        assert _snapshot(bulk) == _snapshot(one)
    assert bulk_spikes == one_spikes


def _reason_with_the_baseline(
    damaged: int, values: int, history: Iterable[tuple[int, int]], rule: SpikeRule
) -> str | None:
    """Both reasons judged in full, the baseline always computed (the rule as written)."""
    rate = damaged / values
    base_damaged = sum(d for d, _ in history)
    base_values = sum(n for _, n in history)
    baseline = base_damaged / base_values if base_values else None
    if damaged and rule.threshold is not None and rate >= rule.threshold:
        return "threshold"
    if (
        damaged
        and baseline is not None
        and rate >= baseline * rule.factor
        and rate - baseline >= rule.min_jump
        and binomial_tail(damaged, values, baseline_upper_bound(base_damaged, base_values))
        <= rule.p_value
    ):
        return "jump"
    return None


@settings(max_examples=400, deadline=None)
@given(
    window=st.integers(1, 60),
    threshold=st.sampled_from([None, 0.0, 0.1, 0.25, 1.0]),
    factor=st.sampled_from([1.0, 3.0]),
    min_jump=st.sampled_from([0.0, 0.01, 0.05, 0.5]),
    p_value=st.sampled_from([1e-4, 0.5, 1.0]),
    windows=st.lists(st.floats(0.0, 1.0), min_size=1, max_size=30),
)
def test_spikes_are_judged_as_the_rule_says_whether_or_not_the_baseline_is_summed(
    window: int,
    threshold: float | None,
    factor: float,
    min_jump: float,
    p_value: float,
    windows: list[float],
) -> None:
    # close_window skips the baseline where neither reason can apply (a rate below both
    # min_jump and the threshold): every verdict is still the full rule's.
    rule = SpikeRule(window, threshold, factor, min_jump, 3, p_value)
    state = FieldState("f", rule.baseline)
    for share in windows:
        damaged = round(share * window)
        history = list(state.baseline)
        expected = _reason_with_the_baseline(damaged, window, history, rule) if damaged else None
        was_in_spike = state.in_spike
        state.window_seen, state.window_damaged = window, damaged
        spike = state.close_window(rule)
        assert state.in_spike == (expected is not None)
        assert (spike.reason if spike else None) == (None if was_in_spike else expected)
