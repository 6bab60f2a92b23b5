"""Crawl CPU with CharsetMiddleware against plain Scrapy, measured side by side in one run.

Usage: python benchmarks/bench_crawl.py [--pages 2000] [--rounds 5] [--mix mixed|header-utf8]
[--body-only] [--check] [--instructions [--keep DIR]]

A local HTTP server (a thread of this process, each response prepared once) serves ``--pages``
HTML pages of about 9 KB in a mix of encodings and declarations: UTF-8 in the header or
undeclared, windows-1252, windows-1251, Shift_JIS, GBK, EUC-KR and Big5 in ``<meta>`` or the
header, and undeclared legacy pages that need detection. Each round crawls the whole site four
times in fresh child processes: plain Scrapy, with the middleware, with the middleware, plain
Scrapy (the reverse in every other round), so that a drift of the machine's load during the
round, or a cost of running first or last, weighs on both alike; every callback reads
``response.text`` and runs a CSS selector. The crawling process measures its own CPU time (user
+ system) from spider_opened to spider_closed. The package's bytecode is written first
(``compileall``), as installing it does: with ``PYTHONDONTWRITEBYTECODE`` set, modules first
imported mid-crawl were otherwise compiled from source in every crawl.

Printed: per-round CPU seconds (the mean of the round's two crawls) and pages/s for both, the
ratio of each round, and the medians.
``--mix header-utf8`` crawls only pages whose header declares UTF-8 (most of the web).
``--body-only``: an archiving crawl instead, whose callbacks keep only a hash of the body, with
``METAREFRESH_ENABLED = False`` (so that Scrapy itself decodes nothing).
``--check`` exits with status 1 unless the median CPU ratio is at most 0.95 (mixed) or 1.0
(header-utf8, or ``--body-only``).

``--instructions`` runs each crawl once under callgrind (valgrind) instead, counting the
instructions the crawling process executes from spider_opened to spider_closed, and prints
them per page with their ratio: a figure the machine's load does not change, for telling a
difference of a few percent that the CPU-time ratio of a shared machine cannot (use a few
hundred pages: callgrind runs some 50 times slower). ``--keep DIR`` keeps callgrind's output
files in DIR for ``callgrind_annotate``.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

WORDS = {
    "en": "the of and to in is was for on that with as by at from this have not are but".split(),
    "fr": "café crème déjà où été très garçon noël façade élève château fenêtre".split(),
    "de": "größe übermäßig schön müde straße häuser tür grün öffnen für".split(),
    "ru": "съешь же ещё этих мягких французских булок да выпей чаю в чащах юга".split(),
    "ja": "日本語 の テキスト カタカナ ひらがな 東京 大阪 価格 円 です ます".split(),
    "zh": "中文 网页 编码 测试 数据 北京 上海 价格 新闻 今天".split(),
    "ko": "한국어 텍스트 입니다 서울 부산 가격 뉴스 오늘 사람".split(),
    "tw": "繁體 中文 網頁 編碼 測試 臺北 價格 新聞 今天 資料".split(),
}

# (language, Python codec, where the charset is declared: header / meta / none)
KINDS: list[tuple[str, str, str]] = [
    ("en", "utf-8", "header"),
    ("fr", "utf-8", "header"),
    ("de", "utf-8", "none"),
    ("ja", "utf-8", "meta"),
    ("fr", "cp1252", "meta"),
    ("de", "cp1252", "header"),
    ("ru", "cp1251", "meta"),
    ("ru", "cp1251", "none"),
    ("ja", "cp932", "meta"),
    ("zh", "gbk", "header"),
    ("ko", "cp949", "meta"),
    ("tw", "big5", "meta"),
]
LABELS = {"cp1252": "windows-1252", "cp1251": "windows-1251", "cp932": "shift_jis",
          "gbk": "gbk", "cp949": "euc-kr", "big5": "big5", "utf-8": "utf-8"}  # fmt: skip


# The crawl of only header-declared UTF-8 pages (most of the web).
HEADER_UTF8 = [kind for kind in KINDS if kind[1:] == ("utf-8", "header")]
MIXES = {"mixed": (KINDS, 0.95), "header-utf8": (HEADER_UTF8, 1.0)}


def make_page(
    index: int, rng: random.Random, kinds: list[tuple[str, str, str]] = KINDS
) -> tuple[bytes, str]:
    """One page of about 9 KB: its bytes and its Content-Type header."""
    language, codec, declared = kinds[index % len(kinds)]
    words = WORDS[language]
    sep = "" if language in {"ja", "zh", "tw"} else " "
    paragraphs = [sep.join(rng.choice(words) for _ in range(60)) for _ in range(24)]
    links = "".join(f'<li><a href="/p/{rng.randrange(10**6)}">{w}</a></li>' for w in words)
    meta = f'<meta charset="{LABELS[codec]}">' if declared == "meta" else ""
    text = (
        f"<!DOCTYPE html><html><head>{meta}<title>{paragraphs[0][:40]}</title>"
        '<link rel="stylesheet" href="/style.css"><script>var x = 1;</script></head><body>'
        f"<nav><ul>{links}</ul></nav><h1>{paragraphs[1][:30]}</h1>"
        + "".join(f"<p class='t'>{p}</p>" for p in paragraphs)
        + "</body></html>"
    )
    content_type = "text/html"
    if declared == "header":
        content_type += f"; charset={LABELS[codec]}"
    return text.encode(codec, "replace"), content_type


def make_site(
    pages: int, kinds: list[tuple[str, str, str]] = KINDS
) -> dict[str, tuple[bytes, str]]:
    rng = random.Random(7)
    return {f"/p/{i}": make_page(i, rng, kinds) for i in range(pages)}


class _Server(asyncio.Protocol):
    """HTTP/1.1 with keep-alive, answering each GET with its prepared bytes in one write."""

    def __init__(self, answers: dict[bytes, bytes]) -> None:
        self.answers = answers
        self.buffer = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport: Any = transport

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while (end := self.buffer.find(b"\r\n\r\n")) >= 0:
            request, self.buffer = self.buffer[:end], self.buffer[end + 4 :]
            path = request.split(b" ", 2)[1]
            self.transport.write(self.answers.get(path) or self.answers[b""])


def serve(site: dict[str, tuple[bytes, str]]) -> tuple[int, Callable[[], None]]:
    """Serve the site on 127.0.0.1 from a thread of this process: the port, and a function
    stopping the server. Each response is prepared once, so that the server keeps up with the
    crawler: a crawler waiting on a slow server (Python's http.server managed 277 pages/s
    here) spends CPU time per page that depends on how the responses happen to arrive (more
    reactor turns for fewer bytes each), which varied the CPU time of identical crawls by up
    to 35%."""
    answers = {
        path.encode(): b"HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s"
        % (content_type.encode(), len(body), body)
        for path, (body, content_type) in site.items()
    }
    answers[b""] = b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
    loop = asyncio.new_event_loop()
    server = loop.run_until_complete(loop.create_server(lambda: _Server(answers), "127.0.0.1", 0))
    port = server.sockets[0].getsockname()[1]
    threading.Thread(target=loop.run_forever, daemon=True).start()

    def stop() -> None:
        loop.call_soon_threadsafe(loop.stop)

    return port, stop


# -- the crawling child process --------------------------------------------------------------


def child(config: dict[str, Any]) -> None:
    import resource

    import scrapy
    from scrapy import signals
    from scrapy.crawler import CrawlerProcess

    def cpu() -> float:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime

    class BenchSpider(scrapy.Spider):
        name = "bench"
        chars = 0

        async def start(self) -> Any:  # Scrapy >= 2.13
            for request in self.start_requests():
                yield request

        def start_requests(self) -> Any:
            for url in config["urls"]:
                yield scrapy.Request(url, dont_filter=True)

        def parse(self, response: Any) -> None:
            if config.get("body_only"):  # an archiving crawl: the bytes only
                BenchSpider.chars += len(hashlib.sha1(response.body).hexdigest())
                return
            # What a spider does with a page: read the text, run a selector.
            BenchSpider.chars += len(response.text)
            response.css("p.t::text").get()

    settings: dict[str, Any] = {
        "LOG_LEVEL": "WARNING",
        "TELNETCONSOLE_ENABLED": False,
        "CONCURRENT_REQUESTS": 16,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
        "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
    }
    if tuple(int(x) for x in scrapy.__version__.split(".")[:2]) >= (2, 12):
        del settings["REQUEST_FINGERPRINTER_IMPLEMENTATION"]
    if config["charset"]:
        settings["DOWNLOADER_MIDDLEWARES"] = {"scrapy_charset.CharsetMiddleware": 585}
    if config.get("body_only"):
        settings["METAREFRESH_ENABLED"] = False
    process = CrawlerProcess(settings=settings)
    crawler = process.create_crawler(BenchSpider)
    marks: dict[str, float] = {}

    def opened(spider: Any) -> None:
        import time

        callgrind("on")
        marks["cpu0"], marks["wall0"] = cpu(), time.perf_counter()

    def closed(spider: Any) -> None:
        import time

        marks["cpu1"], marks["wall1"] = cpu(), time.perf_counter()
        callgrind("off")

    def callgrind(state: str) -> None:
        # Under callgrind (--instructions), instructions are counted from spider_opened to
        # spider_closed only. callgrind_control is not waited for: the crawl must go on
        # running for valgrind to see the request.
        if config.get("callgrind"):
            toggles.append(
                subprocess.Popen(
                    ["callgrind_control", "--instr=" + state, str(os.getpid())],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )

    toggles: list[subprocess.Popen[bytes]] = []

    crawler.signals.connect(opened, signal=signals.spider_opened)
    crawler.signals.connect(closed, signal=signals.spider_closed)
    process.crawl(crawler)
    process.start()
    for toggle in toggles:
        toggle.wait()
    assert crawler.stats is not None
    stats = crawler.stats.get_stats()
    print(
        json.dumps(
            {
                "cpu": marks["cpu1"] - marks["cpu0"],
                "wall": marks["wall1"] - marks["wall0"],
                "pages": stats.get("response_received_count", 0),
                "chars": BenchSpider.chars,
                "charset_sources": {
                    k.rsplit("/", 1)[1]: v
                    for k, v in stats.items()
                    if k.startswith("charset/source/")
                },
            }
        )
    )


def crawl(
    urls: list[str], charset: bool, callgrind_out: str | None = None, body_only: bool = False
) -> dict[str, Any]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    config = json.dumps(
        {"urls": urls, "charset": charset, "callgrind": bool(callgrind_out), "body_only": body_only}
    )
    command = [sys.executable, __file__, "--child"]
    if callgrind_out:
        command = [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            f"--callgrind-out-file={callgrind_out}",
            *command,
        ]
    proc = subprocess.run(
        command,
        input=config,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"crawl failed:\n{proc.stderr[-5000:]}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    if callgrind_out:
        result["instructions"] = callgrind_total(callgrind_out)
    return result


def callgrind_total(path: str) -> int:
    """The instructions counted in a callgrind output file (its ``totals:`` line; the
    ``summary:`` line before it counts only the part dumped first)."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("totals:"):
                return int(line.split()[1])
    raise SystemExit(f"no instruction count in {path}")


def count_instructions(urls: list[str], keep: str | None = None, body_only: bool = False) -> None:
    """One crawl of each kind under callgrind: instructions per page and their ratio. With
    ``keep`` (a directory), callgrind's output files stay there (``callgrind.plain``,
    ``callgrind.charset``) for ``callgrind_annotate``; ``body_only`` as ``--body-only``."""
    with tempfile.TemporaryDirectory() as tmp:
        counts = {}
        for charset in (False, True):
            name = "callgrind." + ("charset" if charset else "plain")
            result = crawl(urls, charset, os.path.join(keep or tmp, name), body_only=body_only)
            assert result["pages"] == len(urls), result
            counts[charset] = result["instructions"]
    plain, ours = counts[False], counts[True]
    print(
        f"instructions per page (callgrind, spider_opened to spider_closed): "
        f"plain {plain / len(urls):,.0f} | charset {ours / len(urls):,.0f} | "
        f"difference {(ours - plain) / len(urls):+,.0f} | ratio {ours / plain:.4f}"
    )


def pair(results: list[dict[str, Any]], pages: int) -> dict[str, Any]:
    """A round's two crawls of one kind as one: the mean CPU time and wall clock."""
    for result in results:
        assert result["pages"] == pages, result
    return {
        "cpu": statistics.fmean(result["cpu"] for result in results),
        "wall": statistics.fmean(result["wall"] for result in results),
        "pages": pages,
        "charset_sources": results[-1]["charset_sources"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--mix", choices=sorted(MIXES), default="mixed")
    parser.add_argument("--body-only", action="store_true")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--instructions", action="store_true")
    parser.add_argument("--keep", metavar="DIR", help="--instructions: keep callgrind's files")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(json.loads(sys.stdin.read()))
        return 0

    kinds, limit = MIXES[args.mix]
    limit = 1.0 if args.body_only else limit
    # The package's bytecode, as installing it writes: with PYTHONDONTWRITEBYTECODE set, the
    # modules a crawl first imports mid-crawl (the CJK indexes) were compiled from source in
    # every crawl, a cost stock Scrapy's installed modules do not pay.
    compileall.compile_dir(REPO / "scrapy_charset", quiet=1)
    site = make_site(args.pages, kinds)
    port, stop_server = serve(site)
    urls = [f"http://127.0.0.1:{port}{path}" for path in site]
    size = sum(len(body) for body, _ in site.values())
    print(
        f"{len(urls)} pages, {size / len(urls) / 1024:.1f} KB each on average, "
        f"{len(kinds)} encoding/declaration kinds ({args.mix}"
        + (", body only" if args.body_only else "")
        + "); "
        + ("callgrind" if args.instructions else f"{args.rounds} rounds")
    )
    if args.instructions:
        count_instructions(urls, args.keep, args.body_only)
        stop_server()
        return 0
    ratios, plain_cpu, charset_cpu, plain_rate, charset_rate = [], [], [], [], []
    for round_no in range(args.rounds):
        first = round_no % 2 == 1  # plain first in the odd rounds, the middleware in the even
        runs: dict[bool, list[dict[str, Any]]] = {False: [], True: []}
        for charset in (first, not first, not first, first):
            runs[charset].append(crawl(urls, charset, body_only=args.body_only))
        plain, ours = pair(runs[False], len(urls)), pair(runs[True], len(urls))
        ratio = ours["cpu"] / plain["cpu"]
        ratios.append(ratio)
        plain_cpu.append(plain["cpu"])
        charset_cpu.append(ours["cpu"])
        plain_rate.append(plain["pages"] / plain["wall"])
        charset_rate.append(ours["pages"] / ours["wall"])
        print(
            f"round {round_no + 1}: plain {plain['cpu']:.2f} s CPU, "
            f"{plain_rate[-1]:.0f} pages/s | charset {ours['cpu']:.2f} s CPU, "
            f"{charset_rate[-1]:.0f} pages/s | ratio {ratio:.3f}"
        )
    print(f"decisions (last round): {ours['charset_sources']}")
    median = statistics.median(ratios)
    print(
        f"median: plain {statistics.median(plain_cpu):.2f} s CPU, "
        f"{statistics.median(plain_rate):.0f} pages/s; "
        f"charset {statistics.median(charset_cpu):.2f} s CPU, "
        f"{statistics.median(charset_rate):.0f} pages/s"
    )
    print(f"median CPU ratio (charset / plain): {median:.3f} (limit {limit})")
    stop_server()
    if args.check and median > limit:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
