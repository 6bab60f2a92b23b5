"""The demo's bundled web site: pages in real encodings, served on 127.0.0.1.

Each page is written here as text and encoded with a real codec at import time, so its bytes
are what a real server in that encoding sends. Each page also records what a browser shows
for it (``expected``), which the demo and the tests compare against.

Pure standard library; never imports Scrapy.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from html import escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

# Bytes the WHATWG windows-1252 decoder maps to the C1 control of the same number, which
# Python's cp1252 codec leaves undefined.
_CP1252_HOLES = frozenset({0x81, 0x8D, 0x8F, 0x90, 0x9D})


@dataclass(frozen=True)
class DemoPage:
    """One page of the demo site.

    ``content_type`` is the Content-Type header sent (``None``: no header at all);
    ``expected`` is the text a browser shows in the page's ``<title>`` and ``<p id="s">``,
    ``encoding`` the WHATWG name of the encoding it reads the page with (``document.characterSet``)
    and ``rule`` the step of the HTML Standard's sniffing that chose it (a ``Source`` value).
    """

    slug: str
    summary: str
    content_type: str | None
    body: bytes
    expected: str
    encoding: str
    rule: str

    @property
    def path(self) -> str:
        return f"/{self.slug}.html"


def encode_windows_1252(text: str) -> bytes:
    """windows-1252 as browsers have it: cp1252 plus the five bytes cp1252 leaves undefined."""
    out = bytearray()
    for char in text:
        if ord(char) in _CP1252_HOLES:
            out.append(ord(char))
        else:
            out += char.encode("cp1252")
    return bytes(out)


def _html(text: str, *, head: str = "", filler: str = "", lang: str = "en") -> str:
    """A small page whose ``<title>`` and ``<p id="s">`` both hold ``text``."""
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n{head}'
        f"<title>{escape(text, quote=False)}</title>\n</head>\n<body>\n"
        f'<p id="s">{escape(text, quote=False)}</p>\n{filler}</body>\n</html>\n'
    )


def _page(
    slug: str,
    summary: str,
    content_type: str | None,
    text: str,
    codec: str,
    *,
    encoding: str,
    rule: str,
    head: str = "",
    filler: str = "",
    lang: str = "en",
    bom: bytes = b"",
    prolog: str = "",
    expected: str | None = None,
) -> DemoPage:
    markup = prolog + _html(text, head=head, filler=filler, lang=lang)
    body = encode_windows_1252(markup) if codec == "windows-1252" else markup.encode(codec)
    shown = text if expected is None else expected
    return DemoPage(slug, summary, content_type, bom + body, shown, encoding, rule)


# Enough ordinary Japanese prose for an encoding detector to recognise Shift_JIS.
_JA_PROSE = (
    "<p>日本中央競馬会は、競馬法に基づいて中央競馬を開催する特殊法人です。"
    "東京、中山、京都、阪神などの競馬場で、年間を通じてレースが行われています。"
    "馬券の発売や払戻しのほか、競走馬の生産と育成の支援も行っています。</p>\n"
)

# Padding that pushes a <meta> past the 1024 bytes the prescan looks at.
_LONG_HEAD = (
    '<meta name="description" content="'
    + "A page whose encoding declaration comes late in the head. " * 20
    + '">\n'
)


# An inline style sheet of about 5 KB, as pages that inline their CSS have.
_LONG_STYLE = (
    "<style>\n"
    + "".join(
        f".c{n} {{ margin: {n}px; padding: {n % 7}px; color: #{n:06x}; }}\n" for n in range(110)
    )
    + "</style>\n"
)


# Undeclared pages that a byte-statistics guesser (charset-normalizer, which stock Scrapy 2.19
# falls back to) gets wrong and browsers get right: a Japanese notice in EUC-JP, the encoding of
# many older Japanese sites, and a Lithuanian weather report in windows-1257.
_JA_NOTICE = (
    "<p>いつも当サイトをご利用いただき、誠にありがとうございます。</p>\n"
    "<p>四月一日より、お問い合わせ窓口の営業時間を次のとおり変更いたします。平日は午前九時から"
    "午後六時まで、土曜日は午前十時から午後五時までとなります。"
    "日曜日と祝日はお休みをいただきます。</p>\n"
    "<p>電子メールでのお問い合わせは、これまでどおり二十四時間受け付けております。返信までに"
    "二、三日かかる場合がございますので、あらかじめご了承ください。</p>\n"
    "<p>ご不便をおかけいたしますが、何とぞよろしくお願い申し上げます。</p>\n"
)

_LT_WEATHER = (
    "<p>Hidrometeorologijos tarnyba praneša, kad šiąnakt daugelyje Lietuvos rajonų "
    "temperatūra nukris iki dviejų ar trijų laipsnių šalčio. Ūkininkams patariama uždengti "
    "daržoves ir jaunus vaismedžius.</p>\n"
    "<p>Dieną bus saulėta, vėjas silpnas, oro temperatūra pakils iki dvylikos laipsnių. "
    "Savaitgalį žadama lietaus, ypač pajūryje ir šiaurės vakarų Žemaitijoje.</p>\n"
    "<p>Sinoptikai primena, kad vairuotojai turėtų būti atsargūs: ankstų rytą ant tiltų ir "
    "viadukų gali susidaryti plikledis.</p>\n"
)


def _build_pages() -> tuple[DemoPage, ...]:
    return (
        _page(
            "utf8-meta-only",
            "UTF-8 declared only in <meta>, no charset in the header",
            "text/html",
            "Café 価格 ¥1,200",
            "utf-8",
            encoding="UTF-8",
            rule="meta",
            head='<meta charset="utf-8">\n',
        ),
        _page(
            "shift-jis-wave-dash",
            "Shift_JIS with a price range: bytes 81 60 are U+FF5E",
            "text/html; charset=Shift_JIS",
            "JRA日本中央競馬会 1,000～2,000",
            "cp932",
            encoding="Shift_JIS",
            rule="header",
            lang="ja",
        ),
        _page(
            "gb2312-gbk-only",
            "labelled gb2312, uses GBK-only characters",
            "text/html; charset=gb2312",
            "朱镕基 喆 堃 — 价格",
            "gbk",
            encoding="GBK",
            rule="header",
            lang="zh",
        ),
        _page(
            "euc-kr-uhc",
            "labelled euc-kr, uses UHC-only Hangul syllables",
            "text/html; charset=euc-kr",
            "똠방각하 쓩 햏",
            "cp949",
            encoding="EUC-KR",
            rule="header",
            lang="ko",
        ),
        _page(
            "iso-8859-1-euro",
            "labelled ISO-8859-1, byte 80 is a euro sign",
            "text/html; charset=ISO-8859-1",
            "Prix : 25 € – «café»",
            "windows-1252",
            encoding="windows-1252",
            rule="header",
            lang="fr",
        ),
        _page(
            "windows-1252-c1",
            "windows-1252 with bytes 81 and 8D (C1 controls)",
            "text/html; charset=windows-1252",
            "Größe \x81 Maß \x8d",
            "windows-1252",
            encoding="windows-1252",
            rule="header",
            lang="de",
        ),
        _page(
            "shift-jis-undeclared",
            "Shift_JIS with no declaration anywhere",
            "text/html",
            "日本中央競馬会のお知らせ",
            "cp932",
            encoding="Shift_JIS",
            rule="detection",
            filler=_JA_PROSE * 3,
            lang="ja",
        ),
        _page(
            "late-meta",
            "windows-1251 <meta> after the first 1024 bytes",
            "text/html",
            "Москва — столица",
            "windows-1251",
            encoding="windows-1251",
            rule="late_meta",
            head=_LONG_HEAD + '<meta charset="windows-1251">\n',
            lang="ru",
        ),
        _page(
            "meta-after-4k",
            "windows-1250 <meta> after 5 KB of inline style in <head>",
            "text/html",
            "Zażółć gęślą jaźń",
            "windows-1250",
            encoding="windows-1250",
            rule="late_meta",
            head=_LONG_STYLE + '<meta charset="windows-1250">\n',
            lang="pl",
        ),
        _page(
            "xml-declaration",
            "XML declaration says ISO-8859-1, <meta> says UTF-8 (meta wins)",
            "text/html",
            "Ærøskøbing · Ålborg",
            "utf-8",
            encoding="UTF-8",
            rule="meta",
            head='<meta http-equiv="Content-Type" content="text/html; charset=utf-8">\n',
            prolog='<?xml version="1.0" encoding="ISO-8859-1"?>\n',
            lang="da",
        ),
        _page(
            "utf8-bom",
            "UTF-8 byte order mark, no charset in header or <meta>",
            "text/html",
            "Zoë ✓ 日本語",
            "utf-8",
            encoding="UTF-8",
            rule="bom",
            bom=b"\xef\xbb\xbf",
        ),
        _page(
            "header-meta-conflict",
            "header says UTF-8, <meta> says Big5 (header wins)",
            "text/html; charset=utf-8",
            "台北 101 — 繁體",
            "utf-8",
            encoding="UTF-8",
            rule="header",
            head='<meta charset="big5">\n',
            lang="zh-Hant",
        ),
        _page(
            "meta-utf-16",
            "<meta> says UTF-16 on an ASCII-compatible body (read as UTF-8)",
            "text/html",
            "Zürich – Genève",
            "utf-8",
            encoding="UTF-8",
            rule="meta",
            head='<meta charset="utf-16">\n',
            lang="de",
        ),
        _page(
            "meta-utf-7",
            "<meta> says UTF-7, which browsers never honour",
            "text/html",
            "Price: 1+AKM-",
            "ascii",
            encoding="windows-1252",
            rule="default",
            head='<meta charset="utf-7">\n',
        ),
        _page(
            "euc-jp-undeclared",
            "Japanese EUC-JP with no declaration anywhere",
            "text/html",
            "お問い合わせ窓口の営業時間変更について",
            "euc_jp",
            encoding="EUC-JP",
            rule="detection",
            filler=_JA_NOTICE,
            lang="ja",
        ),
        _page(
            "windows-1257-undeclared",
            "Lithuanian windows-1257 with no declaration anywhere",
            "text/html",
            "Vilniuje šiąnakt žadama šalnų",
            "windows-1257",
            encoding="windows-1257",
            rule="detection",
            filler=_LT_WEATHER,
            lang="lt",
        ),
    )


PAGES: tuple[DemoPage, ...] = _build_pages()


def index_html(pages: Sequence[DemoPage] = PAGES) -> bytes:
    """The site's front page: one link per demo page, in ASCII."""
    links = "".join(
        f'<li><a href="{page.path}">{escape(page.summary)}</a></li>\n' for page in pages
    )
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>scrapy-charset demo</title>'
        f"</head>\n<body>\n<ul>\n{links}</ul>\n</body></html>\n"
    ).encode("ascii")


def page_for_path(path: str, pages: Sequence[DemoPage] = PAGES) -> DemoPage | None:
    for page in pages:
        if page.path == path:
            return page
    return None


def _response_bytes(path: str, pages: Sequence[DemoPage]) -> bytes:
    """The whole HTTP response, headers written by hand so they go out exactly as given."""
    page = page_for_path(path, pages)
    content_type: str | None
    if path in {"/", "/index.html"}:
        status, content_type, body = "200 OK", "text/html; charset=utf-8", index_html(pages)
    elif page is None:
        status, content_type, body = "404 Not Found", "text/plain", b"not found\n"
    else:
        status, content_type, body = "200 OK", page.content_type, page.body
    head = [f"HTTP/1.1 {status}", f"Content-Length: {len(body)}"]
    if content_type is not None:
        head.append(f"Content-Type: {content_type}")
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    pages: Sequence[DemoPage] = PAGES

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        self.wfile.write(_response_bytes(urlsplit(self.path).path, self.pages))

    def do_HEAD(self) -> None:  # noqa: N802
        response = _response_bytes(urlsplit(self.path).path, self.pages)
        self.wfile.write(response[: response.index(b"\r\n\r\n") + 4])

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


class DemoSite:
    """The demo site on 127.0.0.1, on a free port unless ``port`` is given."""

    def __init__(self, pages: Sequence[DemoPage] = PAGES, port: int = 0) -> None:
        handler = type("DemoHandler", (_Handler,), {"pages": tuple(pages)})
        self.pages = tuple(pages)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", port), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def url(self, page: DemoPage) -> str:
        return self.base_url + page.path

    def start(self) -> DemoSite:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


@contextmanager
def serve(pages: Sequence[DemoPage] = PAGES, port: int = 0) -> Iterator[DemoSite]:
    """Serve the demo site for the duration of the ``with`` block."""
    site = DemoSite(pages, port).start()
    try:
        yield site
    finally:
        site.stop()
