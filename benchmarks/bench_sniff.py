"""Sniffing cost, measured side by side in one run (medians of repeated timings).

Usage: python benchmarks/bench_sniff.py [--repeat N]

1. A declared page (header charset, or <meta>) costs the same for a 10 KB and a 10 MB body:
   only a prefix is read.
2. An undeclared 5 MB body (ASCII with one windows-1252 byte) against
   ``charset_normalizer.from_bytes(body).best()``.
3. Undeclared 20 KB pages in legacy encodings (generated here from sample sentences) against
   Scrapy's own detection, ``HtmlResponse(url, body=body).encoding``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from scrapy_charset.sniffing import sniff

SENTENCES: dict[str, tuple[str, str]] = {
    "ru": ("windows-1251", "Привет! Это пример текста на русском языке, чтобы проверить. "),
    "uk": ("KOI8-U", "Це приклад українського тексту для перевірки кодування сторінки. "),
    "ja": ("shift_jis", "これは日本語のテキストです。文字コードの判定を確認します。"),
    "ja-euc": ("euc_jp", "東京都の天気は晴れです。明日は雨が降るでしょう。"),
    "zh": ("gbk", "这是一个中文网页的例子，用来测试字符编码的检测。"),
    "zh-tw": ("big5", "這是一個繁體中文網頁的例子，用來測試字元編碼。"),
    "ko": ("euc_kr", "이것은 한국어 웹 페이지의 예입니다. 문자 인코딩을 확인합니다. "),
    "fr": ("cp1252", "Voilà un exemple de texte français, très élégant, où l'on parle de café. "),
    "pl": ("cp1250", "Zażółć gęślą jaźń — przykładowy tekst w języku polskim do sprawdzenia. "),
    "el": ("cp1253", "Αυτό είναι ένα παράδειγμα ελληνικού κειμένου για δοκιμή κωδικοποίησης. "),
    "he": ("cp1255", "זוהי דוגמה לטקסט בעברית כדי לבדוק את זיהוי הקידוד של הדף. "),
    "tr": ("cp1254", "Bu, karakter kodlamasını sınamak için Türkçe bir örnek metindir. Şöyle. "),
}


def page(text: str, size: int, codec: str) -> bytes:
    """An undeclared HTML page of about ``size`` bytes: markup, a script, paragraphs."""
    head = b"<!DOCTYPE html><html><head><title>t</title><script>var a = 1;</script></head><body>"
    parts = [head]
    total = len(head)
    while total < size:
        chunk = f'<div class="row"><p>{text}</p><a href="/x?id={total}">link</a></div>\n'
        data = chunk.encode(codec)
        parts.append(data)
        total += len(data)
    return b"".join(parts) + b"</body></html>"


def median_seconds(function: Callable[[], object], repeat: int) -> float:
    timings = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings)


def declared(repeat: int) -> None:
    print("1. declared pages, 10 KB vs 10 MB body (sniff, median):")
    for label, content_type, meta in (
        ("header charset", "text/html; charset=windows-1251", b""),
        ("<meta> charset", "text/html", b'<meta charset="windows-1251">'),
    ):
        times = {}
        for size in (10_000, 10_000_000):
            body = page(SENTENCES["ru"][1], size, "cp1251").replace(b"<head>", b"<head>" + meta)
            times[size] = median_seconds(lambda b=body, c=content_type: sniff(b, c), repeat)
        ratio = times[10_000_000] / times[10_000]
        print(
            f"   {label:15s} 10 KB {times[10_000] * 1e6:8.1f} us   10 MB "
            f"{times[10_000_000] * 1e6:8.1f} us   10 MB / 10 KB = {ratio:.2f}x"
        )


def undeclared_big(repeat: int) -> None:
    import charset_normalizer

    body = b"<html><head><title>t</title></head><body><p>" + b"plain ascii text " * 300_000
    body += "caf\u00e9".encode("cp1252") + b"</p></body></html>"
    ours = median_seconds(lambda: sniff(body), repeat)
    theirs = median_seconds(lambda: charset_normalizer.from_bytes(body).best(), max(3, repeat // 5))
    ours_answer = sniff(body).encoding.name
    best = charset_normalizer.from_bytes(body).best()
    print(f"2. undeclared {len(body) / 1e6:.1f} MB ASCII body with one windows-1252 byte:")
    print(f"   sniff                        {ours * 1e3:9.2f} ms  -> {ours_answer}")
    their_answer = best.encoding if best else None
    print(f"   charset_normalizer.best()    {theirs * 1e3:9.2f} ms  -> {their_answer}")
    print(f"   charset-normalizer / sniff = {theirs / ours:.0f}x")


def undeclared_pages(repeat: int) -> None:
    from scrapy.http import HtmlResponse

    ours_times = []
    scrapy_times = []
    for _lang, (codec, text) in SENTENCES.items():
        body = page(text, 20_000, codec)
        ours_times.append(median_seconds(lambda b=body: sniff(b), repeat))
        scrapy_times.append(
            median_seconds(
                lambda b=body: HtmlResponse("http://example.com/", body=b).encoding, repeat
            )
        )
    ours = statistics.median(ours_times)
    theirs = statistics.median(scrapy_times)
    print(f"3. undeclared 20 KB pages, {len(SENTENCES)} legacy encodings (median over pages):")
    print(f"   sniff                        {ours * 1e6:9.1f} us")
    print(f"   Scrapy HtmlResponse.encoding {theirs * 1e6:9.1f} us")
    print(f"   Scrapy / sniff = {theirs / ours:.2f}x (above 1: sniff is faster)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=25)
    args = parser.parse_args(argv)
    declared(args.repeat)
    undeclared_big(args.repeat)
    undeclared_pages(args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
