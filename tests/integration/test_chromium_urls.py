"""Links, follow() and form requests against the URLs and bodies Chromium sent, page by page.

Fixture: ``tests/data/chromium/urls.jsonl.gz`` (``scripts/chromium/record_urls.py``): one page
per encoding, its samples being the characters where the Encoding Standard's encoder and a
Python codec Scrapy could use differ, characters the encoding lacks, and ASCII punctuation.

Two kinds of assertion:

- never worse than stock Scrapy: every page goes through a stock ``HtmlResponse`` and through
  the plugin's response; for each link (``LinkExtractor``, ``follow()``, ``follow_all()``) and
  each form field (``FormRequest.from_response``: GET URL, urlencoded POST body, and the
  multipart/form-data form, which Scrapy sends urlencoded, compared by the values' bytes; the
  ``form2request`` library as is against ``scrapy_charset``'s wrapper, GET, POST and
  multipart), where stock Scrapy gives Chromium's result the plugin must too, and the plugin
  may not raise where stock Scrapy does not;
- the browser's bytes: the plugin equals Chromium except where Scrapy itself (w3lib) writes
  the same bytes differently, listed and explained in ``SCRAPY_DIFFERENCES``.
"""

from __future__ import annotations

import base64
import html
import re
import warnings
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote_to_bytes, urlsplit

import form2request as form2request_library
import pytest
from scrapy.exceptions import ScrapyDeprecationWarning
from scrapy.http import FormRequest, HtmlResponse, Request
from scrapy.linkextractors import LinkExtractor
from w3lib.url import safe_url_string

from scrapy_charset.encoding import encode, output_encoding
from scrapy_charset.integration.forms import form2request
from scrapy_charset.integration.response import CharsetHtmlResponse
from tests.support.chromium import read_recording

BROWSER, PAGES = read_recording("urls.jsonl.gz")


def _page_url(page: dict[str, Any]) -> str:
    href = next(iter(page["chromium"]["hrefs"].values()))
    return f"http://{urlsplit(href).netloc}/page/{page['encoding']}"


def responses(page: dict[str, Any]) -> tuple[HtmlResponse, CharsetHtmlResponse]:
    body = base64.b64decode(page["body_b64"])
    headers = dict(page["headers"])
    url = _page_url(page)
    return (
        HtmlResponse(url, body=body, headers=headers),
        CharsetHtmlResponse(url, body=body, headers=headers),
    )


Outcome = tuple[str, str]  # ("ok", value) or ("raised", exception type)


def _outcome(make: Callable[[], str]) -> Outcome:
    try:
        return ("ok", make())
    except Exception as exc:  # stock Scrapy's failures are part of what is compared
        return ("raised", type(exc).__name__)


def link_outcomes(response: HtmlResponse) -> dict[str, Outcome]:
    """Per link id: the URL LinkExtractor gives (a link it drops counts as raised)."""
    links = {link.text: link.url for link in LinkExtractor(unique=False).extract_links(response)}
    ids = response.css("a::attr(id)").getall()
    return {i: ("ok", links[i]) if i in links else ("raised", "dropped") for i in ids}


def follow_outcomes(response: HtmlResponse) -> dict[str, Outcome]:
    return {
        a.attrib["id"]: _outcome(lambda a=a: response.follow(a).url) for a in response.css("a")
    }


def follow_all_outcomes(response: HtmlResponse) -> dict[str, Outcome]:
    """Per link id: follow_all() on that one element (so one failure does not hide the rest),
    and ``"*"``: follow_all(css="a") over the whole page, which must give the same URLs."""
    outcomes = {
        a.attrib["id"]: _outcome(lambda a=a: next(iter(response.follow_all([a]))).url)
        for a in response.css("a")
    }
    ids = response.css("a::attr(id)").getall()
    whole = _outcome(lambda: " ".join(r.url for r in response.follow_all(css="a")))
    if whole[0] == "raised":
        outcomes["*"] = whole
    else:
        assert whole[1].split(" ") == [outcomes[i][1] for i in ids]
    return outcomes


def _from_response(response: HtmlResponse, formid: str) -> FormRequest:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ScrapyDeprecationWarning)
        return FormRequest.from_response(response, formid=formid)


def _pairs(encoded: str) -> dict[str, str]:
    return dict(pair.partition("=")[::2] for pair in encoded.split("&") if pair)


def form_outcomes(response: HtmlResponse, formid: str) -> dict[str, Outcome]:
    """Per field name: its encoded value in the GET URL's query or the POST body."""
    try:
        request = _from_response(response, formid)
    except Exception as exc:
        return {"*": ("raised", type(exc).__name__)}
    encoded = urlsplit(request.url).query if formid == "get" else request.body.decode("ascii")
    return {name: ("ok", value) for name, value in _pairs(encoded).items()}


def _field_bytes(encoded: str) -> dict[str, Outcome]:
    """Field name -> the value's bytes (as latin-1 text) in an urlencoded string."""
    return {
        name: ("ok", _form_bytes(value).decode("latin-1"))
        for name, value in _pairs(encoded).items()
    }


def multi_form_outcomes(response: HtmlResponse) -> dict[str, Outcome]:
    """FormRequest.from_response on the multipart/form-data form: Scrapy sends it urlencoded,
    so what is compared is each value's bytes."""
    try:
        request = _from_response(response, "multi")
    except Exception as exc:
        return {"*": ("raised", type(exc).__name__)}
    return _field_bytes(request.body.decode("ascii"))


_PART = re.compile(
    rb'--BOUNDARY\r\nContent-Disposition: form-data; name="([^"]*)"\r\n\r\n(.*?)\r\n', re.S
)


def browser_multipart(page: dict[str, Any]) -> dict[str, str]:
    """Field name -> value bytes (as latin-1 text) of Chromium's multipart/form-data body."""
    body = base64.b64decode(page["chromium"]["multipart_b64"])
    return {name.decode("latin-1"): value.decode("latin-1") for name, value in _PART.findall(body)}


def form2request_outcomes(response: HtmlResponse, formid: str, ours: bool) -> dict[str, Outcome]:
    """Field -> value bytes of the form2request library's request (stock: the library as is,
    which writes UTF-8; ours: scrapy_charset's wrapper with response.encoding)."""
    try:
        if ours:
            request = form2request(response.css(f"form#{formid}"), encoding=response.encoding)
        else:
            request = form2request_library.form2request(response.css(f"form#{formid}"))
    except Exception as exc:
        return {"*": ("raised", type(exc).__name__)}
    if formid == "get":
        return _field_bytes(urlsplit(request.url).query)
    if formid == "post":
        return _field_bytes(request.body.decode("ascii"))
    content_type = dict(request.headers)["Content-Type"]
    boundary = content_type.partition("boundary=")[2].encode()
    body = request.body.replace(boundary, b"BOUNDARY")
    return {n.decode("latin-1"): ("ok", v.decode("latin-1")) for n, v in _PART.findall(body)}


def browser_forms(page: dict[str, Any], formid: str) -> dict[str, str]:
    chromium = page["chromium"]
    encoded = urlsplit(chromium["get"]).query if formid == "get" else chromium["post"]
    return _pairs(encoded)


def _ids(pages: list[dict[str, Any]]) -> list[str]:
    return [p["encoding"] for p in pages]


def test_fixture_covers_every_encoding() -> None:
    from scrapy_charset.encoding import ALL_ENCODINGS

    assert {p["encoding"] for p in PAGES} == {
        e.name for e in ALL_ENCODINGS if e.name != "replacement"
    }
    assert BROWSER["meta"]["browser"] == "Chromium"
    for page in PAGES:
        kinds = {kind.partition(":")[0] for _, _, kind in page["samples"]}
        assert "ascii" in kinds and kinds - {"ascii"}, page["encoding"]
        # A click requests what a.href says (minus the fragment).
        for link, target in page["chromium"]["nav"].items():
            href = page["chromium"]["hrefs"][link]
            assert href.partition("#")[0].endswith(target)


def _check_never_worse(
    what: str, stock: dict[str, Outcome], plugin: dict[str, Outcome], browser: dict[str, str]
) -> list[str]:
    problems = []
    stock_failed_all = stock.get("*", ("ok", ""))[0] == "raised"
    if plugin.get("*", ("ok", ""))[0] == "raised" and not stock_failed_all:
        return [f"{what}: the plugin raised {plugin['*'][1]}, stock Scrapy did not"]
    for key, expected in browser.items():
        got = plugin.get(key, ("raised", "missing"))
        if stock_failed_all:
            if got[0] == "raised":
                problems.append(f"{what} {key}: both raised")  # only a problem for the plugin
            continue
        was = stock.get(key, ("raised", "missing"))
        if got[0] == "raised" and was[0] != "raised":
            problems.append(f"{what} {key}: plugin {got[1]}, stock gave {was[1]!r}")
        elif was == ("ok", expected) and got != ("ok", expected):
            problems.append(f"{what} {key}: stock matches {expected!r}, plugin gave {got[1]!r}")
    return [p for p in problems if not p.endswith("both raised")]


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_never_worse_than_stock_scrapy(page: dict[str, Any]) -> None:
    stock, plugin = responses(page)
    hrefs = page["chromium"]["hrefs"]
    problems = _check_never_worse("link", link_outcomes(stock), link_outcomes(plugin), hrefs)
    problems += _check_never_worse(
        "follow", follow_outcomes(stock), follow_outcomes(plugin), hrefs
    )
    problems += _check_never_worse(
        "follow_all", follow_all_outcomes(stock), follow_all_outcomes(plugin), hrefs
    )
    for formid in ("get", "post"):
        problems += _check_never_worse(
            formid,
            form_outcomes(stock, formid),
            form_outcomes(plugin, formid),
            browser_forms(page, formid),
        )
    multi = browser_multipart(page)
    problems += _check_never_worse(
        "multi", multi_form_outcomes(stock), multi_form_outcomes(plugin), multi
    )
    for formid in ("get", "post", "multi"):
        browser = multi
        if formid != "multi":
            encoded = browser_forms(page, formid).items()
            browser = {k: _form_bytes(v).decode("latin-1") for k, v in encoded}
        problems += _check_never_worse(
            f"form2request {formid}",
            form2request_outcomes(stock, formid, ours=False),
            form2request_outcomes(plugin, formid, ours=True),
            browser,
        )
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_never_worse_sees_what_stock_scrapy_gets_right(page: dict[str, Any]) -> None:
    # The comparison above is not vacuous: on every page stock Scrapy matches the browser on
    # some links and fields (ASCII at least), which the plugin is then held to, unless stock
    # Scrapy raises for the whole form (a character its codec lacks).
    stock, _ = responses(page)
    hrefs = page["chromium"]["hrefs"]
    # On UTF-16 pages stock Scrapy writes every query and form in UTF-16 (browsers: UTF-8).
    utf16 = page["encoding"].startswith("UTF-16")
    matches = any(follow_all_outcomes(stock).get(k) == ("ok", v) for k, v in hrefs.items())
    assert matches != utf16
    multi = browser_multipart(page)
    assert len(multi) >= len(page["samples"])
    outcomes = multi_form_outcomes(stock)
    matches = any(outcomes.get(k) == ("ok", v) for k, v in multi.items())
    assert "*" in outcomes or matches != utf16
    outcomes = form2request_outcomes(stock, "post", ours=False)
    assert any(outcomes.get(k) == ("ok", v) for k, v in multi.items())


# --- The browser's bytes ----------------------------------------------------------------------
# What Scrapy itself (w3lib, urllib) writes differently from Chromium whatever the encoding,
# stock Scrapy and the plugin alike; the comparisons below apply it to Chromium's side:
# - Request URLs go through w3lib's safe_url_string, which also escapes \ ^ ` { | } [ ] in
#   the query and fragment (the URL Standard leaves them); w3lib 2.1 (with Scrapy 2.11) also
#   writes a backslash in the path as %5C, where the URL Standard reads "/";
# - Scrapy 2.11's requests turn a "#!" fragment into an _escaped_fragment_ query;
# - form data is written by urllib's urlencode: "*" as %2A and "~" as is (browsers: "*" and
#   %7E); FormRequest.from_response does not normalize line breaks to CRLF (field "t");
# - LinkExtractor (w3lib) encodes the fragment with the page's encoding instead of UTF-8, and
#   a character the encoding lacks as &%23N; instead of %26%23N%3B (the codec's &#N; before
#   w3lib quotes it).
_FORM_FIELD_WITH_LINE_BREAKS = "t"


def _dom_text(sample_id: str, text: str) -> str:
    """The text the HTML parser gives a sample written as character references (``n``
    links: &#128;-&#159; become windows-1252's characters)."""
    if sample_id.startswith("n"):
        return html.unescape("".join(f"&#{ord(c)};" for c in text))
    return text


def _percent(data: bytes, keep: Callable[[int], bool]) -> str:
    return "".join(chr(b) if keep(b) else f"%{b:02X}" for b in data)


def spec_percent_encode(text: str, encoding: str, keep: Callable[[int], bool]) -> str:
    """The URL Standard's *percent-encode after encoding* with the standard's encoder."""
    out: list[str] = []
    start = 0
    target = output_encoding(encoding)
    while True:
        try:
            out.append(_percent(encode(text[start:], target, "fatal"), keep))
            return "".join(out)
        except UnicodeEncodeError as exc:
            bad = start + exc.start
            out.append(_percent(encode(text[start:bad], target, "fatal"), keep))
            out.append(f"%26%23{ord(text[bad])}%3B")
            start = bad + 1


def _query_keep(b: int) -> bool:  # the special-query percent-encode set's complement
    return 0x20 < b < 0x7F and b not in b'"#<>\''


def _fragment_keep(b: int) -> bool:
    return 0x20 < b < 0x7F and b not in b'"<>`'


def _form_keep(b: int) -> bool:  # the application/x-www-form-urlencoded set's complement
    return chr(b).isascii() and (chr(b).isalnum() or b in b"*-._")


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_chromium_encodes_as_the_standard(page: dict[str, Any]) -> None:
    """Chromium's query, fragment and form data are the Encoding Standard's encoder's (so the
    spec, the encoders here and the browser agree; Firefox is not needed as a tie-breaker)."""
    encoding = page["encoding"]
    texts = {sample_id: text for sample_id, text, _ in page["samples"]}
    forms = browser_forms(page, "get")
    checked = 0
    for link, href in page["chromium"]["hrefs"].items():
        if link.startswith("r"):
            continue  # raw bytes may decode to other characters (0x5C is "\" in Shift_JIS)
        text = _dom_text(link, texts[link[1:]])
        if set(text) & set("?#\\"):
            continue  # they end the query or count as "/" in the path
        query = spec_percent_encode(text, encoding, _query_keep)
        fragment = _percent(text.encode("utf-8"), _fragment_keep)
        assert href.endswith(f"?q={query}#{fragment}"), (link, text)
        form = spec_percent_encode(text, encoding, _form_keep).replace("%20", "+")
        assert forms[link] == form, (link, text)
        checked += 1
    assert checked >= 5


def _scrapy_url(url: str) -> str:
    """The URL as a link extractor writes it (w3lib's safe_url_string)."""
    return safe_url_string(url)


def _request_url(url: str) -> str:
    """The URL of the request Scrapy makes for ``url``: safe_url_string, and (Scrapy 2.11, not
    the newest Scrapy) a "#!" fragment rewritten as an ``_escaped_fragment_`` query."""
    return Request(url).url


# The URL Standard (Chromium) reads a backslash in an http(s) path as "/"; w3lib 2.1, which
# Scrapy 2.11 runs with, percent-encodes it instead (stock Scrapy and the plugin alike).
_BACKSLASH_IN_PATH = Request("http://example.com/a\\b").url[len("http://example.com/a") : -1]


def _path_backslashes_as_the_url_standard_reads_them(url: str, attribute: str) -> str:
    """``url`` (built from the link's ``attribute``) with each backslash the attribute's path
    had written as "/" the way the URL Standard reads it. The path is encoded as UTF-8, in
    which byte 0x5C is only ever a backslash."""
    if _BACKSLASH_IN_PATH == "/" or "\\" not in urlsplit(attribute).path:
        return url
    parts = urlsplit(url)
    return parts._replace(path=parts.path.replace("%5C", "/")).geturl()


def _unencodable_as_w3lib_writes_it(url: str) -> str:
    return re.sub(r"%26%23(\d+)%3B", r"&%23\1;", url)


def _form_bytes(value: str) -> bytes:
    return unquote_to_bytes(value.replace("+", " "))


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_the_plugin_sends_the_browsers_bytes(page: dict[str, Any]) -> None:
    _, plugin = responses(page)
    hrefs = page["chromium"]["hrefs"]
    follow = follow_outcomes(plugin)
    links = link_outcomes(plugin)
    attributes = {a.attrib["id"]: a.attrib["href"] for a in plugin.css("a")}
    for link, href in hrefs.items():
        assert follow[link][0] == "ok", link
        url = _path_backslashes_as_the_url_standard_reads_them(follow[link][1], attributes[link])
        assert url == _request_url(href), link
        without_fragment = _unencodable_as_w3lib_writes_it(_scrapy_url(href).partition("#")[0])
        assert links[link][0] == "ok", link
        url = _path_backslashes_as_the_url_standard_reads_them(links[link][1], attributes[link])
        assert url.partition("#")[0] == without_fragment, link
    for formid in ("get", "post"):
        ours = form_outcomes(plugin, formid)
        for field, value in browser_forms(page, formid).items():
            expected = _form_bytes(value)
            if field == _FORM_FIELD_WITH_LINE_BREAKS:
                expected = expected.replace(b"\r\n", b"\n")
            assert ours[field][0] == "ok", (formid, field)
            assert _form_bytes(ours[field][1]) == expected, (formid, field)
