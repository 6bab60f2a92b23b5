"""Hypothesis strategies for hostile bytes, labels and headers."""

from __future__ import annotations

from hypothesis import strategies as st

from scrapy_charset.encoding import ALL_ENCODINGS

ALL_LABELS: tuple[str, ...] = tuple(label for enc in ALL_ENCODINGS for label in enc.labels)

# Byte fragments that reach the decoders' and the prescan's edge cases: escapes and
# shift bytes of ISO-2022-JP, BOMs, lead bytes of every multi-byte family, gb18030 four-byte
# forms, surrogates in UTF-8 and UTF-16, and the markup bytes a smuggler would want.
FRAGMENTS: tuple[bytes, ...] = (
    b"\x1b$B", b"\x1b$@", b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b", b"\x1b$", b"\x1b(",
    b"\x0e", b"\x0f", b"\x00", b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe", b"\x81", b"\x8e",
    b"\x8f", b"\xa1", b"\xc8", b"\xfe", b"\xff", b"\x80", b"\x81\x30", b"\x81\x30\x81\x30",
    b"\x84\x31\xa4\x39", b"\xe3\x32\x9a\x35", b"\x88\x62", b"\xf0\x9f", b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\xd8\x00", b"\xdc\x00", b"\x00\xd8", b"<", b">", b'"',
    b"'", b"&", b"+ADw-", b"~{", b"~}", b"\\", b"~", b"a", b"\r\n",
    b"<meta charset=", b"<meta http-equiv=content-type content='text/html; charset=",
    b"shift_jis>", b"utf-16le'>", b"x-user-defined>", b"utf-7>", b"<!--", b"-->", b"</",
    b"<?xml version='1.0' encoding='euc-jp'?>", b"<head>", b"<body>",
)

hostile_bytes = st.one_of(
    st.binary(max_size=80),
    st.lists(st.sampled_from(FRAGMENTS), max_size=24).map(b"".join),
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.binary(max_size=4)), max_size=24).map(
        b"".join
    ),
)


def _mangle_case(label: str, flips: list[bool]) -> str:
    return "".join(c.upper() if i < len(flips) and flips[i] else c for i, c in enumerate(label))


_known_label = st.builds(
    lambda label, flips, pre, post: pre + _mangle_case(label, flips) + post,
    st.sampled_from(ALL_LABELS),
    st.lists(st.booleans(), max_size=24),
    st.sampled_from(["", " ", "\t", "\n\f\r ", "\u00a0", "\x00"]),
    st.sampled_from(["", " ", "\t\n", "\x0b", "\u3000", "\x00"]),
)

# Any label: real ones in odd case and whitespace (some, like U+00A0, make them not labels),
# random text, Python-only codec names and very long strings.
hostile_label = st.one_of(
    _known_label,
    st.text(max_size=30),
    st.sampled_from(["utf-7", "UTF7", "hz", "hz-gb-2312", "iso-2022-kr", "cp037", "latin_1",
                     "utf_16", "rot13", "punycode", "idna", "base64", "zlib", "mbcs", "", " "]),
    st.text(alphabet="abc- ", min_size=1000, max_size=3000),
)

present_header_value = st.one_of(
    st.text(max_size=60),
    st.binary(max_size=60),
    st.builds(lambda label: f"text/html; charset={label}", hostile_label),
    st.builds(lambda label: f'text/html;charset="{label}"', hostile_label),
    st.sampled_from(["text/html", "text/html; charset=", ";;;", "text/html; charset=\x00utf-8",
                     "text/html; charset=\u212aoi8-r", b"text/html; charset=\xe9\xff"]),
)
header_value = st.one_of(st.none(), present_header_value)
content_type = st.one_of(header_value, st.lists(present_header_value, max_size=4))
