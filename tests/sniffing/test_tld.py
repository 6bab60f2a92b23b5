"""The URL's TLD: extraction and the locale defaults."""

from __future__ import annotations

import pytest

from scrapy_charset.encoding import lookup
from scrapy_charset.sniffing.tld import TLD_DEFAULTS, tld_default, tld_of


@pytest.mark.parametrize(
    ("url", "tld"),
    [
        ("https://www.example.co.jp/page", "jp"),
        ("http://EXAMPLE.RU./", "ru"),
        ("http://user:pw@example.kr:8080/x?y#z", "kr"),
        ("http://пример.рф/", "xn--p1ai"),
        (b"http://example.cn/", "cn"),
        ("http://127.0.0.1:8000/", None),
        ("http://[::1]/", None),
        ("http://localhost/", "localhost"),
        ("/relative/path", None),
        ("", None),
        (None, None),
        ("http://[::1/", None),
    ],
)
def test_tld_of(url: str | bytes | None, tld: str | None) -> None:
    assert tld_of(url) == tld


def test_locale_defaults() -> None:
    assert tld_default("jp") == lookup("shift_jis")
    assert tld_default("ru") == lookup("windows-1251")
    assert tld_default("xn--p1ai") == lookup("windows-1251")
    assert tld_default("tw") == lookup("big5")
    assert tld_default("com") is None
    assert tld_default(None) is None
    # Every default is a real, ASCII-compatible legacy encoding.
    assert all(enc.name not in ("UTF-8", "UTF-16LE", "UTF-16BE") for enc in TLD_DEFAULTS.values())
