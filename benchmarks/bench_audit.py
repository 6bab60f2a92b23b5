"""How fast the audit reads and audits stored pages: files, a Scrapy HTTP cache and a WARC.

Generates N pages of about 30 KB in a mix of real encodings and declarations, stores them
three ways, and runs the whole audit (reading, sniffing, browser decoding, the requests,
Scrapy and UTF-8 reproductions, comparison, JSON lines output) on one CPU core. Prints
pages/s per mode (median of R runs) against the 500 pages/s target, and the share of the
per-page time each stage takes (median of R in-memory runs over the same pages). With more
than one core, then the wall-clock speed-up of ``--jobs 2`` over ``--jobs 1`` on a mix of
WARCs, files and a cache (summary only, and every page's record), with the load average
beside it (the wall-clock speed-up is only meaningful on idle cores), the CPU time of --jobs 2
against --jobs 1, each worker's CPU and busy share, and the speed-up two idle cores would give
by those CPU times.

    python benchmarks/bench_audit.py [--pages 400] [--repeat 5] [--jobs-only]
"""

from __future__ import annotations

import argparse
import io
import os
import pickle
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from scrapy_charset.sniffing import decode_html, sniff
from scrapy_charset.tools import audit_parallel
from scrapy_charset.tools.audit import build_parser
from scrapy_charset.tools.audit import run as audit_run
from scrapy_charset.tools.audit_compare import audit_page, requests_text, scrapy_text
from scrapy_charset.tools.audit_decoding import MiddlewareDecoder
from scrapy_charset.tools.audit_inputs import LocalInputs, Page, iter_local_pages

TARGET_PAGES_PER_SECOND = 500
PAGE_SIZE = 30_000

# (language sentence, Python codec to store it, header charset or None, how it is declared)
KINDS: tuple[tuple[str, str, str | None, str], ...] = (
    ("Die Straße führt über die Brücke zum Größten Platz der Stadt.", "utf-8", None, "meta"),
    ("Le café crème est servi à la française, très chaud.", "utf-8", None, "none"),
    ("Погода в Москве сегодня будет тёплой и солнечной.", "cp1251", None, "meta"),
    ("今日は天気が良いので、公園を散歩しましょう。", "cp932", "Shift_JIS", "header"),
    ("今天的新闻报道了经济发展和科技进步的消息。", "gbk", None, "meta"),
    ("오늘 서울의 날씨는 맑고 따뜻하겠습니다.", "cp949", "EUC-KR", "header"),
    ("Ελληνικά νέα για την οικονομία και τον πολιτισμό.", "utf-8", None, "bom"),
    ("Hyvää päivää, tämä on suomenkielinen sivu.", "cp1252", "windows-1252", "header"),
)
TLDS = ("de", "fr", "ru", "jp", "cn", "kr", "gr", "fi")


def _words(sentence: str) -> list[str]:
    """The sentence's words (runs of three characters where the script has no spaces)."""
    if " " in sentence:
        return sentence.split()
    return [sentence[i:i + 3] for i in range(0, len(sentence), 3)]


def make_page(index: int) -> tuple[str, bytes, str]:
    """(url, body, Content-Type) of the index-th page: about PAGE_SIZE bytes of paragraphs whose
    words, links and numbers vary as a real page's do (it compresses as HTML does,
    not the hundredfold of one paragraph repeated)."""
    sentence, codec, header, declared = KINDS[index % len(KINDS)]
    label = {"cp1251": "windows-1251", "cp932": "Shift_JIS", "cp949": "EUC-KR"}.get(codec, codec)
    meta = f'<meta charset="{label}">' if declared == "meta" else ""
    head = f"<!DOCTYPE html><html><head>{meta}<title>Page {index}</title></head><body>\n"
    rng = random.Random(index)
    words = _words(sentence)
    parts = [head]
    size = len(head.encode(codec))
    while size < PAGE_SIZE:
        text = " ".join(rng.choice(words) for _ in range(rng.randint(8, 30)))
        link = rng.randrange(10**6)
        paragraph = (f'<p class="c{rng.randrange(40)}">{text} {rng.randrange(10**5)} '
                     f'<a href="/{TLDS[link % len(TLDS)]}/{link}">{link % 997}</a></p>\n')
        parts.append(paragraph)
        size += len(paragraph.encode(codec))
    body = ("".join(parts) + "</body></html>\n").encode(codec)
    if declared == "bom":
        body = b"\xef\xbb\xbf" + body
    content_type = f"text/html; charset={header}" if header else "text/html"
    url = f"http://www{index}.example.{TLDS[index % len(TLDS)]}/page/{index}"
    return url, body, content_type


def write_files(root: Path, pages: list[tuple[str, bytes, str]]) -> list[str]:
    folder = root / "files"
    folder.mkdir()
    rows = ["path\tcontent_type\turl"]
    for number, (url, body, content_type) in enumerate(pages):
        (folder / f"{number}.html").write_bytes(body)
        rows.append(f"files/{number}.html\t{content_type}\t{url}")
    (root / "files.tsv").write_text("\n".join(rows) + "\n", "utf-8")
    return [str(folder), "--sidecar", str(root / "files.tsv")]


def write_cache(root: Path, pages: list[tuple[str, bytes, str]]) -> list[str]:
    """Entries as Scrapy's FilesystemCacheStorage writes them."""
    for number, (url, body, content_type) in enumerate(pages):
        key = f"{number:040x}"
        entry = root / "cache" / "bench" / key[:2] / key
        entry.mkdir(parents=True)
        meta = {"url": url, "method": "GET", "status": 200, "response_url": url,
                "timestamp": 0.0}
        (entry / "meta").write_bytes(repr(meta).encode())
        (entry / "pickled_meta").write_bytes(pickle.dumps(meta, protocol=4))
        (entry / "response_headers").write_bytes(f"Content-Type: {content_type}\r\n".encode())
        (entry / "response_body").write_bytes(body)
    return ["--httpcache", str(root / "cache")]


def write_warc(
    root: Path, pages: list[tuple[str, bytes, str]], name: str = "pages.warc.gz"
) -> list[str]:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    path = root / name
    with path.open("wb") as fh:
        writer = WARCWriter(fh, gzip=True)
        for url, body, content_type in pages:
            http = StatusAndHeaders("200 OK", [("Content-Type", content_type)],
                                    protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(
                url, "response", payload=io.BytesIO(body), http_headers=http, length=len(body)
            ))
    return [str(path)]


def timed(action: Callable[[], object]) -> float:
    """CPU seconds of this process: on a shared machine, what one core really spent."""
    start = time.process_time()
    action()
    return time.process_time() - start




def audit_once(args: list[str], output: tuple[str, ...] = ("--format", "jsonl")) -> None:
    opts = build_parser().parse_args([*args, *output, "--fail-on-error"])
    status = audit_run(opts, stdout=io.StringIO(), stderr=io.StringIO())
    if status != 0:
        raise SystemExit(f"audit failed with status {status}")


def read_only(args: list[str]) -> list[Page]:
    opts = build_parser().parse_args(args)
    inputs = LocalInputs(
        paths=[Path(p) for p in opts.inputs] + ([Path(opts.httpcache)] if opts.httpcache else []),
        sidecar=opts.sidecar,
    )
    return list(iter_local_pages(inputs))


def stage_seconds(pages: Iterable[Page]) -> dict[str, float]:
    """Seconds each stage takes over all pages (one pass each)."""
    pages = list(pages)
    stages: dict[str, float] = {}
    stages["sniffing"] = timed(
        lambda: [sniff(p.body, p.content_types, url=p.url) for p in pages]
    )
    browser = timed(lambda: [decode_html(p.body, p.content_types, url=p.url) for p in pages])
    stages["browser decoding"] = max(browser - stages["sniffing"], 0.0)
    stages["requests .text"] = timed(lambda: [requests_text(p.body, p.content_types)
                                              for p in pages])
    stages["Scrapy .text"] = timed(lambda: [scrapy_text(p.body, p.content_types, p.url)
                                            for p in pages])
    stages["utf-8 decode"] = timed(lambda: [p.body.decode("utf-8", "replace") for p in pages])
    decoder = MiddlewareDecoder()
    whole = timed(lambda: [audit_page(p, decoder) for p in pages])
    stages["records and comparison"] = max(whole - sum(stages.values()), 0.0)
    return stages


def write_mix(root: Path, pages: list[tuple[str, bytes, str]]) -> list[str]:
    """Half the pages in six gzip'd WARC files of unequal sizes, a quarter as files with a
    sidecar, a quarter as a Scrapy cache: the inputs of a real audit."""
    half, three_quarters = len(pages) // 2, len(pages) * 3 // 4
    args: list[str] = []
    bounds = [0, *(half * k * k // 36 for k in range(1, 6)), half]  # 1:3:5:7:9:11 shares
    for number, (start, stop) in enumerate(zip(bounds, bounds[1:], strict=False)):
        args += write_warc(root, pages[start:stop], f"part-{number}.warc.gz")
    args += write_files(root, pages[half:three_quarters])
    args += write_cache(root, pages[three_quarters:])
    return args


def cpu_of_children() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def load() -> str:
    return " ".join(f"{v:.1f}" for v in os.getloadavg()) if hasattr(os, "getloadavg") else "?"


# What --jobs writes: the summary only (the table, the default), or every page's record too.
OUTPUTS = {"table": ("--format", "table"), "jsonl": ("--format", "jsonl")}


def run_jobs(args: list[str], jobs: int, output: tuple[str, ...]) -> dict[str, float]:
    """One audit: its wall clock, the CPU of the parent and of the workers together, and for
    --jobs 2 the parent's CPU, the busiest worker's CPU and the workers' busy share of the
    pool's wall clock (from the audit's own record of the run)."""
    started, cpu, children = time.perf_counter(), time.process_time(), cpu_of_children()
    audit_parallel.last_run.clear()
    audit_once([*args, "--jobs", str(jobs)], output)
    wall = time.perf_counter() - started
    parent = time.process_time() - cpu
    run = {"wall": wall, "cpu": parent + cpu_of_children() - children, "parent": parent}
    if jobs > 1:
        stats = audit_parallel.last_run[0]
        run["worker_most"] = max(stats.cpu.values())
        run["worker_least"] = min(stats.cpu.values()) if len(stats.cpu) == jobs else 0.0
        run["busy_most"] = max(stats.busy.values()) / stats.wall
        run["busy_least"] = (min(stats.busy.values()) / stats.wall
                             if len(stats.busy) == jobs else 0.0)
    return run


def jobs_speedup(pages: list[tuple[str, bytes, str]], repeat: int, cores: set[int]) -> None:
    """--jobs 1 against --jobs 2 over the same mix of WARCs, files and cache entries, runs
    interleaved, writing the summary only (the default table) and every page's record (jsonl):
    the wall-clock speed-up, the CPU each spends (parent and workers), and how evenly the two
    workers were kept busy. From CPU times, which a loaded machine inflates far less than the
    wall clock, the speed-up two idle cores would give: --jobs 1's CPU over the parent's CPU
    plus the busiest worker's."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, cores)
    load_before = load()
    runs: dict[tuple[str, int], list[dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        args = write_mix(Path(tmp), pages)
        for output in OUTPUTS.values():
            audit_once([*args, "--jobs", "2"], output)  # warm-up
            audit_once([*args, "--jobs", "1"], output)
        for _ in range(repeat):
            for name, output in OUTPUTS.items():
                for jobs in (1, 2):
                    runs.setdefault((name, jobs), []).append(run_jobs(args, jobs, output))
    print(f"\n--jobs on {len(cores)} core(s), {len(pages)} pages in 6 WARCs, files and a cache,"
          f" median of {repeat}; load average {load_before} before, {load()} after:")
    for name in OUTPUTS:
        one, two = runs[(name, 1)], runs[(name, 2)]

        def median(rows: list[dict[str, float]], key: str) -> float:
            return statistics.median(row[key] for row in rows)

        speedup = median(one, "wall") / median(two, "wall")
        cpu_ratio = median(one, "cpu") and median(two, "cpu") / median(one, "cpu")
        idle = statistics.median(
            a["cpu"] / (b["parent"] + b["worker_most"]) for a, b in zip(one, two, strict=True)
        )
        print(f"  {name} output: --jobs 1 {len(pages) / median(one, 'wall'):.0f} pages/s,"
              f" --jobs 2 {len(pages) / median(two, 'wall'):.0f} pages/s (wall clock)")
        print(f"    speed-up --jobs 2 / --jobs 1: {speedup:.2f}x wall clock (target 1.7x on 2"
              f" idle cores)")
        print(f"    CPU of --jobs 2 (parent and workers) / --jobs 1: {cpu_ratio:.3f}x"
              f" (target 1.04x)")
        print(f"    workers' CPU {median(two, 'worker_most'):.2f} s and"
              f" {median(two, 'worker_least'):.2f} s, busy {median(two, 'busy_most'):.0%} and"
              f" {median(two, 'busy_least'):.0%} of the pool's wall clock; parent CPU"
              f" {median(two, 'parent'):.2f} s, --jobs 1 CPU {median(one, 'cpu'):.2f} s")
        print(f"    speed-up on 2 idle cores from CPU times (--jobs 1 CPU / (parent CPU +"
              f" busiest worker's CPU)): {idle:.2f}x (target 1.8x)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--jobs-only", action="store_true", help="only the --jobs speed-up")
    opts = parser.parse_args(argv)
    cores = set(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else {0}
    if opts.jobs_only:
        jobs_speedup([make_page(i) for i in range(opts.pages)], opts.repeat, cores)
        return 0
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    pages = [make_page(i) for i in range(opts.pages)]
    mean_kb = sum(len(b) for _, b, _ in pages) / len(pages) / 1000
    print(f"{len(pages)} pages, mean {mean_kb:.1f} KB, {len(KINDS)} encodings/declarations,"
          f" one core, median of {opts.repeat} runs; pages/s from CPU time, wall clock beside")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        modes = {
            "files": write_files(root, pages),
            "httpcache": write_cache(root, pages),
            "warc": write_warc(root, pages),
        }
        audit_once(modes["files"])  # warm-up: imports, caches
        print(f"\n{'mode':<10} {'pages/s':>8} {'x target':>9} {'reading share':>14}"
              f" {'wall pages/s':>13}")
        rates: dict[str, float] = {}
        for mode, args in modes.items():
            cpu, clock = [], []
            for _ in range(opts.repeat):
                started = time.perf_counter()
                cpu.append(timed(lambda: audit_once(args)))  # noqa: B023 - called at once
                clock.append(time.perf_counter() - started)
            whole = statistics.median(cpu)
            reading = statistics.median(timed(lambda: read_only(args))  # noqa: B023
                                        for _ in range(opts.repeat))
            rates[mode] = len(pages) / whole
            print(f"{mode:<10} {rates[mode]:>8.0f} {rates[mode] / TARGET_PAGES_PER_SECOND:>8.2f}x"
                  f" {reading / whole:>13.0%} {len(pages) / statistics.median(clock):>13.0f}")
        in_memory = read_only(modes["files"])
    runs = [stage_seconds(in_memory) for _ in range(opts.repeat)]
    medians = {name: statistics.median(run[name] for run in runs) for name in runs[0]}
    total = sum(medians.values())
    print(f"\nper-page audit time, in memory: {total / len(pages) * 1000:.2f} ms/page")
    for name, seconds in medians.items():
        print(f"  {name:<24} {seconds / total:>6.1%}")
    slowest = min(rates.values())
    verdict = "met" if slowest >= TARGET_PAGES_PER_SECOND else "NOT met"
    print(f"\ntarget {TARGET_PAGES_PER_SECOND} pages/s: {verdict} (slowest mode {slowest:.0f})")
    if len(cores) > 1:
        jobs_speedup(pages, opts.repeat, cores)
    return 0


if __name__ == "__main__":
    sys.exit(main())
