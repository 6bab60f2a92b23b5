"""``IncrementalDecoder`` gives the one-shot result at every split point."""

from __future__ import annotations

import random

import pytest

from scrapy_charset.encoding import ALL_ENCODINGS, Encoding, IncrementalDecoder, decode
from scrapy_charset.encoding.labels import BY_NAME

# Every test here runs on the compiled CJK decoders and on the pure-Python paths.
pytestmark = pytest.mark.usefixtures("cjk_backend")

TEXT = "Aé€ テキスト 文本 텍스트 Ωψ ¥~\\ ①Ⅱ ḿ ／ ｶﾅ \U0001f600 end"
NOISE = [b"\x1b", b"\x1b$B", b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x81", b"\x81\x30"]
NOISE += [b"\x81\x30\x81", b"\x8f\xa1", b"\x8e", b"\xed\xa0", b"\xf0\x9f", b"\xff", b"\x00\xd8"]
NOISE += [b"\xef\xbb", b"\xfe", b"\x80", b"\xa0", b"~", b"\x0e"]


def sample(encoding: Encoding, seed: int) -> bytes:
    """Real text in the encoding, cut at random places, with bytes that leave state open."""
    rng = random.Random(f"{encoding.name}-{seed}")
    codec = encoding.python_codec
    text = TEXT.encode(codec, "ignore")
    parts = []
    for _ in range(6):
        start = rng.randrange(len(text))
        parts.append(text[start : start + rng.randrange(1, 16)])
        parts.append(rng.choice(NOISE))
    return b"".join(parts)


def feed(encoding: Encoding, chunks: list[bytes], bom: str) -> str:
    decoder = IncrementalDecoder(encoding, bom=bom)  # type: ignore[arg-type]
    out = [decoder.decode(chunk) for chunk in chunks]
    out.append(decoder.decode(b"", final=True))
    return "".join(out)


@pytest.mark.parametrize("encoding", ALL_ENCODINGS, ids=str)
def test_every_split_point(encoding: Encoding) -> None:
    for seed in range(3):
        data = sample(encoding, seed)
        for bom in ("sniff", "strip", "keep"):
            whole = decode(data, encoding, bom=bom)  # type: ignore[arg-type]
            for cut in range(len(data) + 1):
                got = feed(encoding, [data[:cut], data[cut:]], bom)
                assert got == whole, (data.hex(), cut, bom)


@pytest.mark.parametrize("encoding", ALL_ENCODINGS, ids=str)
def test_byte_by_byte_and_random_chunks(encoding: Encoding) -> None:
    rng = random.Random(encoding.name)
    for seed in range(3, 8):
        data = sample(encoding, seed)
        whole = decode(data, encoding)
        assert feed(encoding, [bytes([b]) for b in data], "sniff") == whole
        cuts = sorted(rng.sample(range(len(data) + 1), min(6, len(data) + 1)))
        chunks = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
        assert feed(encoding, chunks, "sniff") == whole


@pytest.mark.parametrize("encoding", ALL_ENCODINGS, ids=str)
def test_boms_split_anywhere(encoding: Encoding) -> None:
    for mark in (b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe"):
        data = mark + sample(encoding, 9)
        for bom in ("sniff", "strip", "keep"):
            whole = decode(data, encoding, bom=bom)  # type: ignore[arg-type]
            for cut in range(5):
                assert feed(encoding, [data[:cut], data[cut:]], bom) == whole, (cut, bom)


@pytest.mark.parametrize("name", ["Shift_JIS", "Big5", "EUC-KR", "gb18030", "EUC-JP"])
def test_long_runs_without_a_safe_byte(name: str) -> None:
    # No byte below the lowest trail byte for 100 kB: the decoder must still make progress
    # (it finds a boundary with the spec-literal decoder) and stay exact.
    rng = random.Random(name)
    data = bytes(rng.randrange(0x81, 0x100) for _ in range(100_000))
    decoder = IncrementalDecoder(name)
    out = []
    for start in range(0, len(data), 8192):
        out.append(decoder.decode(data[start : start + 8192]))
    assert sum(map(len, out)) > 0
    out.append(decoder.decode(b"", final=True))
    assert "".join(out) == decode(data, name)


def test_long_iso_2022_jp_stream_in_small_chunks() -> None:
    text = ("日本語のテキスト、ASCII text ｶﾀｶﾅ ¥‾ " * 500).encode("iso2022_jp_ext", "ignore")
    text += b"\x1b$B\x30\x21\x30"  # ends inside JIS X 0208 with a lone lead
    decoder = IncrementalDecoder("iso-2022-jp")
    out = [decoder.decode(text[i : i + 7]) for i in range(0, len(text), 7)]
    out.append(decoder.decode(b"", final=True))
    assert "".join(out) == decode(text, "iso-2022-jp")


def test_decoder_is_reusable_after_final() -> None:
    decoder = IncrementalDecoder("shift_jis")
    assert decoder.decode(b"\x82") == ""
    assert decoder.decode(b"", final=True) == "\ufffd"
    assert decoder.decode(b"\x82\xa0", final=True) == "\u3042"


@pytest.mark.parametrize(
    "name, unit", [("Shift_JIS", b"\x81"), ("gb18030", b"\x81\x30"), ("EUC-JP", b"\x8f\xa1")]
)
def test_long_input_without_any_safe_byte(name: str, unit: bytes) -> None:
    # No byte that surely ends a character for far more than the decoder holds back: the
    # boundary is found by running the decoder (compiled, or the reference) instead.
    data = unit * 50_000 + b"\xa1"
    decoder = IncrementalDecoder(name)
    chunks = [data[i : i + 70_001] for i in range(0, len(data), 70_001)]
    text = "".join(decoder.decode(chunk) for chunk in chunks) + decoder.decode(b"", final=True)
    assert text == decode(data, name)


@pytest.mark.parametrize("name", ["GBK", "gb18030", "Big5", "EUC-JP", "Shift_JIS", "EUC-KR"])
def test_reference_last_cut_splits_without_changing_the_text(name: str) -> None:
    # "81 30 41": the error after a gb18030 first and second byte restores the digit; cutting
    # right after the digit would lose it. A cut needs the initial state and nothing read ahead.
    from scrapy_charset.encoding import reference

    encoding = BY_NAME[name]
    rng = random.Random(f"cut-{name}")
    for _ in range(1500):
        data = bytes(rng.choice(b"\x81\x30\xa1\x8f\x8e\x41\xfe\xff\x40") for _ in range(20))
        cut = reference.last_cut(data, encoding, len(data) - 8)
        assert 0 <= cut <= len(data) - 8
        assert decode(data[:cut], encoding, bom="keep") + decode(
            data[cut:], encoding, bom="keep"
        ) == decode(data, encoding, bom="keep")
    assert reference.last_cut(b"\x81\x30A" + b"A" * 8, BY_NAME["gb18030"], 3) == 3
    assert reference.last_cut(b"\x81\x30A" + b"A" * 7, BY_NAME["gb18030"], 2) == 0
