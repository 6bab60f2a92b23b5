"""Hostile input costs linear work, and sniffing a declared page reads only a prefix.

Linearity is checked by comparing each input against one 10 times smaller, with a generous
factor (linear work gives about 10x, quadratic about 100x); no test depends on absolute speed.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable

import pytest

from scrapy_charset.encoding import decode
from scrapy_charset.sniffing import sniff
from tests.hostile.cost import BODIES, DECODER_INPUTS, HEADERS, best_time, times_within

SMALL, LARGE = 100_000, 1_000_000  # 1 MB of tag soup, header, escapes...
LINEAR = 30  # the allowed growth for 10x the input; quadratic work would give ~100
SLACK = 0.01  # seconds, so timer noise on tiny times cannot fail a test


def memory_bound_time(data: bytes) -> float:
    """What merely touching ``data`` costs: big buffers grow slower than linearly in time
    (caches, page faults), for CPython's own codecs too, so this much is allowed on top."""
    return best_time(lambda: data.decode("latin-1"))


def assert_linear(
    small: Callable[[], object], large: Callable[[], object], touched: bytes | None = None
) -> None:
    """``large`` (10 times ``small``'s input) costs at most ``LINEAR`` times ``small``."""
    touch = 0.0 if touched is None else memory_bound_time(touched)

    def allowed(small_time: float) -> float:
        return LINEAR * small_time + SLACK + 5 * touch

    small_time, large_time = times_within(small, large, allowed)
    assert large_time <= allowed(small_time), (
        f"{small_time:.4f}s -> {large_time:.4f}s for 10x the input"
    )


@pytest.mark.parametrize("name", BODIES)
def test_sniff_is_linear_in_adversarial_bodies(name: str) -> None:
    small, large = BODIES[name](SMALL), BODIES[name](LARGE)
    assert_linear(lambda: sniff(small), lambda: sniff(large), large)


@pytest.mark.parametrize("name", HEADERS)
def test_sniff_is_linear_in_adversarial_headers(name: str) -> None:
    small, large = HEADERS[name](SMALL), HEADERS[name](LARGE)
    assert_linear(lambda: sniff(b"<p>x", small), lambda: sniff(b"<p>x", large))


@pytest.mark.parametrize("name", DECODER_INPUTS)
def test_decode_is_linear_in_adversarial_bytes(name: str) -> None:
    label, make = DECODER_INPUTS[name]
    small, large = make(SMALL // 3), make(LARGE // 3)
    assert_linear(lambda: decode(small, label), lambda: decode(large, label), large)


def peak_memory(function) -> int:  # type: ignore[no-untyped-def]
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


HUNDRED_MB = 100_000_000


@pytest.mark.parametrize(
    "prefix, content_type",
    [
        (b"", "text/html; charset=shift_jis"),
        (b"\xef\xbb\xbf", None),
        (b"<meta charset=euc-kr>", None),
        (b"<meta http-equiv=content-type content='text/html;charset=koi8-r'>", "text/html"),
    ],
)
def test_sniffing_a_declared_100_mb_body_reads_a_prefix(prefix: bytes, content_type) -> None:
    body = prefix + b"\xa4" * HUNDRED_MB
    decision = sniff(body[:4096], content_type)
    # Bounded work: no copy of the body, not even a slice of it beyond the prefix.
    assert peak_memory(lambda: sniff(body, content_type)) < 1_000_000
    assert sniff(body, content_type) == decision


@pytest.mark.parametrize("byte", [b"a", b"\xe9", b"<", b"\x00"])
def test_sniffing_an_undeclared_body_of_one_byte_stays_bounded(byte: bytes) -> None:
    body = byte * (HUNDRED_MB // 10)
    small = body[: len(body) // 10]
    # Never more memory than a couple of copies of the body, and linear time.
    assert peak_memory(lambda: sniff(small)) <= 2 * len(small) + 1_000_000
    assert_linear(lambda: sniff(small), lambda: sniff(body), body)


@pytest.mark.parametrize(
    "unit", ["CafÃ© â€™ ", "Ã" * 9 + " ", "\ufffd" * 10, "Ä°stanbul ", "日本語テキスト。"]
)
def test_pipeline_is_linear_in_field_length(unit: str) -> None:
    from tests.hostile.test_properties_pipeline import make_pipeline

    pipeline = make_pipeline()
    small, large = unit * (SMALL // 100), unit * (LARGE // 100)
    assert_linear(
        lambda: pipeline.process_item({"url": "u", "text": small}),
        lambda: pipeline.process_item({"url": "u", "text": large}),
    )
