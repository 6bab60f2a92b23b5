"""Spike detection per field: absolute threshold, jump against the rolling baseline, re-arming."""

from __future__ import annotations

from collections.abc import Iterable

from scrapy_charset.integration.pipeline_spikes import FieldState, Spike, SpikeRule


def feed(state: FieldState, rule: SpikeRule, damaged_flags: Iterable[bool]) -> list[Spike]:
    """Count values the way the pipeline does; return the spikes reported."""
    spikes = []
    for n, damaged in enumerate(damaged_flags):
        state.seen += 1
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


def test_jump_from_zero_to_twenty_percent_is_flagged_once() -> None:
    rule = SpikeRule(window=20, threshold=0.25)  # 20% is below the absolute threshold
    state = FieldState("description", rule.baseline)
    spikes = feed(state, rule, pattern([0, 0, 0, 4, 4, 4]))
    assert len(spikes) == 1
    (spike,) = spikes
    assert (spike.path, spike.reason, spike.damaged, spike.values) == ("description", "jump", 4, 20)
    assert spike.baseline == 0.0 and spike.rate == 0.2
    assert spike.example_url == "https://example.test/60"
    assert state.flagged == 1


def test_jump_needs_the_factor_and_the_minimum_gap() -> None:
    rule = SpikeRule(window=20, threshold=None, factor=3.0, min_jump=0.05)
    # Baseline 5%: 10% is only twice the baseline, 20% is four times and 15 points above.
    assert feed(FieldState("a", 5), rule, pattern([1, 1, 1, 2])) == []
    assert len(feed(FieldState("b", 5), rule, pattern([1, 1, 1, 4]))) == 1
    # Baseline 1%: 4% is four times as much but only 3 points above -> not a spike.
    rule_100 = SpikeRule(window=100, threshold=None, factor=3.0, min_jump=0.05)
    assert feed(FieldState("c", 5), rule_100, pattern([1, 1, 1, 4], window=100)) == []


def test_absolute_threshold_flags_without_a_baseline() -> None:
    rule = SpikeRule(window=10, threshold=0.25)
    spikes = feed(FieldState("title", rule.baseline), rule, pattern([3], window=10))
    assert [(s.reason, s.baseline) for s in spikes] == [("threshold", None)]


def test_spike_windows_do_not_become_the_baseline_and_calm_rearms() -> None:
    rule = SpikeRule(window=10, threshold=None, factor=3.0, min_jump=0.05, baseline=3)
    state = FieldState("f", rule.baseline)
    # calm, spike lasting 8 windows (one report), calm again, second spike (second report).
    spikes = feed(state, rule, pattern([0, 0] + [5] * 8 + [0, 0] + [5], window=10))
    assert len(spikes) == 2
    assert all(s.baseline == 0.0 for s in spikes)
    assert list(state.baseline) == [0.0, 0.0, 0.0]


def test_rolling_baseline_follows_the_field() -> None:
    rule = SpikeRule(window=10, threshold=None, factor=2.0, min_jump=0.05, baseline=2)
    state = FieldState("f", rule.baseline)
    # The level rises slowly (never doubling between windows): it becomes the new normal.
    assert feed(state, rule, pattern([2, 3, 4, 5, 6], window=10)) == []
    assert list(state.baseline) == [0.5, 0.6]


def test_empty_window_and_partial_window_size() -> None:
    rule = SpikeRule(window=50)
    assert FieldState("f", 5).close_window(rule) is None
    assert rule.min_partial == 10
    assert SpikeRule(window=4).min_partial == 4
