"""follow() and follow_all() on responses the middleware took over: the URL a browser requests,
never one stock Scrapy would not request for the same link (beyond the query's encoding).

- Leading and trailing C0 controls and spaces of a link are dropped, ASCII tabs and newlines
  removed (URL Standard, and w3lib's safe_url_string), whatever path the URL takes.
- ``encoding=`` given to follow() (by name or by position) encodes the query as in Scrapy: a
  Python codec name for an Encoding Standard encoding means that encoding's encoder, any other
  codec leaves the URL to Scrapy.
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from scrapy.http import HtmlResponse, Request, TextResponse
from scrapy.utils.test import get_crawler
from w3lib.url import safe_url_string

from scrapy_charset.integration import response as response_module
from scrapy_charset.integration.middleware import CharsetMiddleware

URL = "http://example.com/dir/page"
C0_AND_SPACE = [chr(c) for c in range(0x21)]


def pages(body: bytes) -> tuple[HtmlResponse, HtmlResponse]:
    """Stock Scrapy's response and the middleware's, of the same bytes."""
    stock = HtmlResponse(URL, body=body, request=Request(URL))
    request = Request(URL)
    ours = CharsetMiddleware.from_crawler(get_crawler()).process_response(
        request, HtmlResponse(URL, body=body, request=request)
    )
    assert type(ours) is not HtmlResponse  # taken over
    return stock, ours


# Newer w3lib strips a URL's leading and trailing C0 controls and spaces (Scrapy 2.11's
# minimum, 2.1.0, keeps them): stock Scrapy is compared where it does.
STOCK_STRIPS = safe_url_string("http://example.com/b\x01") == "http://example.com/b"

UTF8_PAGE = b"<meta charset=utf-8><p>caf\xc3\xa9</p>"
LATIN_PAGE = b"<meta charset=windows-1252><p>caf\xe9</p>"


@pytest.mark.parametrize("body", [UTF8_PAGE, LATIN_PAGE], ids=["utf-8", "windows-1252"])
@pytest.mark.parametrize("link", ["/b?q=1", "/b?q=\xe9", "/c#f", "/c#\xe9", "x?q=\xe9&r=2"])
def test_trailing_and_leading_c0_controls_and_spaces_are_dropped(body: bytes, link: str) -> None:
    stock, ours = pages(body)
    expected = ours.follow(link).url
    for char in C0_AND_SPACE:
        # Trailing: stock Scrapy (w3lib) drops them too (its fragment is in the page's
        # encoding, ours in UTF-8 as a browser's: compared each with itself).
        assert ours.follow(link + char).url == expected, repr(char)
        if STOCK_STRIPS:
            assert stock.follow(link + char).url == stock.follow(link).url, repr(char)
        assert ours.follow(link + char * 3).url == expected, repr(char)
        # Leading: dropped before the URL is resolved (the URL Standard's first step).
        assert ours.follow(char + link).url == expected, repr(char)


@pytest.mark.parametrize("body", [UTF8_PAGE, LATIN_PAGE], ids=["utf-8", "windows-1252"])
def test_tabs_and_newlines_inside_a_link_are_removed(body: bytes) -> None:
    stock, ours = pages(body)
    for link in ["/b\t?q=\xe9", "/b?q=\n\xe9", "/b?q=\xe9\r\n&r=1", "/c#f\t\xe9"]:
        clean = link.replace("\t", "").replace("\n", "").replace("\r", "")
        assert ours.follow(link).url == ours.follow(clean).url, repr(link)
        assert stock.follow(link).url == stock.follow(clean).url, repr(link)


def test_controls_around_links_in_the_page_are_dropped_by_follow_all() -> None:
    # Character references put the controls into the href values themselves.
    body = (
        b"<meta charset=utf-8><a href='/a?q=\xc3\xa9&#11;'>x</a><a href='/b?q=1&#1;'>y</a>"
        b"<a href='/c#f&#2;'>z</a><a href='&#3; /d?q=\xc3\xa9'>w</a>"
    )
    stock, ours = pages(body)
    expected = [
        "http://example.com/a?q=%C3%A9",
        "http://example.com/b?q=1",
        "http://example.com/c#f",
        "http://example.com/d?q=%C3%A9",
    ]
    assert [request.url for request in ours.follow_all(css="a")] == expected
    if STOCK_STRIPS:
        assert [r.url for r in stock.follow_all(css="a")][:3] == expected[:3]


def test_a_control_inside_the_query_is_percent_encoded_as_stock_scrapy_does() -> None:
    stock, ours = pages(UTF8_PAGE)
    for link in ["/b?q=\x01x", "/b?q=\xe9\x1fx", "/b?q=\x00x"]:
        assert ours.follow(link).url == stock.follow(link).url, repr(link)


# Python codec names of Encoding Standard encodings, and a character each encodes as Scrapy
# does with Python's codec (the two encoders agree on it).
NAMED_CODECS = [
    ("latin-1", "\xe9"),
    ("latin_1", "\xe9"),
    ("iso8859_15", "\u20ac"),
    ("cp1251", "\u0436"),
    ("cp932", "\u6771"),
    ("euc_jp", "\u6771"),
    ("utf_8", "\u6771"),
    ("UTF-8", "\xe9"),
    ("gb18030", "\u6771"),
]
# Codecs the Encoding Standard lacks: the URL is Scrapy's own.
OTHER_CODECS = [
    ("mac_roman", "\xe9"),
    ("cp850", "\xe9"),
    ("cp437", "\xe9"),
    ("big5hkscs", "\u6771"),
    ("utf-16", "\xe9"),
]


@pytest.mark.parametrize(("codec", "char"), NAMED_CODECS + OTHER_CODECS)
@pytest.mark.parametrize("body", [UTF8_PAGE, LATIN_PAGE], ids=["utf-8", "windows-1252"])
def test_an_encoding_given_to_follow_encodes_the_query_as_in_scrapy(
    body: bytes, codec: str, char: str
) -> None:
    stock, ours = pages(body)
    link = f"/a?q={char}"
    expected = stock.follow(link, encoding=codec).url
    assert ours.follow(link, encoding=codec).url == expected
    # By position (the eighth argument), as Scrapy's signature allows.
    positional = (None, "GET", None, None, None, None, codec)
    assert ours.follow(link, *positional).url == expected
    assert ours.follow(link, *positional).url == stock.follow(link, *positional).url
    # follow_all passes it on.
    page = f"<meta charset=utf-8><a href='{link}'>x</a>".encode()
    stock_page, ours_page = pages(page)
    assert [r.url for r in ours_page.follow_all(css="a", encoding=codec)] == [
        r.url for r in stock_page.follow_all(css="a", encoding=codec)
    ]


def test_without_an_encoding_the_page_encoding_encodes_the_query() -> None:
    stock, ours = pages(LATIN_PAGE)
    assert ours.follow("/a?q=\xe9").url == "http://example.com/a?q=%E9"
    assert ours.follow("/a?q=\xe9", None, "GET").url == "http://example.com/a?q=%E9"
    assert ours.follow("/a?q=\xe9", encoding=None).url == "http://example.com/a?q=%E9"


def test_the_encoding_position_is_scrapys() -> None:
    names = list(inspect.signature(TextResponse.follow).parameters)
    # (self, url, callback, ...): the position among the arguments after the URL
    assert names.index("encoding") - 2 == response_module._ENCODING_POSITION


@pytest.mark.parametrize(
    "select",
    [
        lambda response: response.css("p")[0],  # not <a> or <link>
        lambda response: response.css("a.bare")[0],  # no href
        lambda response: response.xpath("count(//a)")[0],  # not an element or a string
    ],
    ids=["p", "no-href", "number"],
)
def test_a_selector_follow_cannot_use_raises_what_scrapy_raises(select: Any) -> None:
    body = b"<meta charset=utf-8><p>caf\xc3\xa9</p><a class=bare>x</a>"
    stock, ours = pages(body)
    with pytest.raises(ValueError) as stock_error:
        stock.follow(select(stock))
    with pytest.raises(ValueError) as our_error:
        ours.follow(select(ours))
    assert type(our_error.value) is type(stock_error.value)
    assert str(our_error.value) == str(stock_error.value)


_LOAD_WITHOUT_PLUGIN = """
import pickle, sys
from scrapy.utils.request import request_from_dict
requests = [request_from_dict(d) for d in pickle.loads(sys.stdin.buffer.read())]
assert "scrapy_charset" not in sys.modules
print("\\n".join(f"{r.url} {r.encoding}" for r in requests))
"""


@pytest.mark.parametrize(
    ("body", "codec"),
    [
        (LATIN_PAGE, "cp1252"),
        ("<meta charset=shift_jis><p>\u65e5\u672c</p>".encode("cp932"), "cp932"),
        ("<meta charset=koi8-u><p>\u0491</p>".encode("koi8_u"), "koi8-u"),
        (b"\xff\xfe" + "<p>\xe9</p>".encode("utf-16-le"), "utf-8"),  # UTF-16: output UTF-8
    ],
)
def test_requests_from_follow_load_where_the_plugin_is_not_imported(
    body: bytes, codec: str
) -> None:
    """A request follow() makes is stored by a disk queue (JOBDIR) or a Redis scheduler as
    its dict, pickled; a crawl resumed without the plugin, or another worker, must load it:
    its ``encoding`` is a codec of Python's own, not the plugin's (that would raise
    ``LookupError`` there and the request would be lost)."""
    import pickle
    import subprocess
    import sys

    _, ours = pages(body)
    requests = [
        ours.follow("/a?q=\xe9#\xe9"),
        ours.follow("/plain"),
        ours.follow("/b", None, "GET"),
        *ours.follow_all(["/c?x=\u0436"]),
    ]
    assert [r.encoding for r in requests] == [codec] * 4
    stored = pickle.dumps([r.to_dict() for r in requests], protocol=4)
    loaded = subprocess.run(
        [sys.executable, "-c", _LOAD_WITHOUT_PLUGIN], input=stored, capture_output=True,
        check=True,
    ).stdout.decode().splitlines()
    assert loaded == [f"{r.url} {codec}" for r in requests]


BASE_PAGES = {
    "no base": b"<meta charset=windows-1252><p>caf\xe9</p>",
    "base with a query": b"<meta charset=windows-1252><base href='/d/?b=\xe9\xe8'><p>x</p>",
    "base on another host": b"<meta charset=windows-1252><base href='http://h\xe9.example/x?y'>",
    "utf-8, base with a query": b"<meta charset=utf-8><base href='/d/?b=\xc3\xa9'><p>x</p>",
}
REFERENCES = ["", "#", "#\xe9", "?q=\xe9", "/p/\xe9?q=\xe9#\xe9", "p?\xe9", "//h.example/?\xe9",
              "http://o.example/\xe9?\xe9", "\xe9", ".?\u65e5", "../?q=\u20ac", "?",
              "\t#\xe9"]  # fmt: skip


@pytest.mark.parametrize("body", BASE_PAGES.values(), ids=BASE_PAGES.keys())
@pytest.mark.parametrize("reference", REFERENCES)
def test_follow_is_the_joined_url_with_the_browsers_query(body: bytes, reference: str) -> None:
    # follow() encodes a reference's own query before Scrapy joins it (one join, not two):
    # the same URL as joining first, the empty and fragment-only references (which take the
    # base's query, unencoded in a <base href>) included.
    _, ours = pages(body)
    joined = ours.urljoin(reference.strip(response_module._C0_CONTROL_OR_SPACE))
    expected = Request(response_module.browser_url(joined, ours.encoding)).url
    assert ours.follow(reference).url == expected
    assert [request.url for request in ours.follow_all([reference])] == [expected]
