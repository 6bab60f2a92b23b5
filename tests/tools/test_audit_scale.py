"""The audit at scale and its report: --jobs, mergeable summaries, Dask, --html, severity and
--fail-over, --defaults, progress, --version and the Scrapy help."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scrapy_charset.tools.audit_progress import Progress
from scrapy_charset.tools.audit_report import Summary
from tests.tools.test_audit_pages import MIX, run_audit
from tests.tools.test_audit_warc import write_mix_warc

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    """The mix three ways: files with a sidecar, a plain WARC and a gzip'd WARC."""
    root = tmp_path / "archive"
    (root / "files").mkdir(parents=True)
    rows = ["path\tcontent_type\turl"]
    for page in MIX:
        (root / "files" / f"{page.name}.html").write_bytes(page.body)
        rows.append(f"files/{page.name}.html\t{page.content_type or ''}\t{page.url}")
    (root / "pages.tsv").write_text("\n".join(rows) + "\n", "utf-8")
    write_mix_warc(root / "a.warc", gzipped=False)
    write_mix_warc(root / "b.warc.gz", gzipped=True)
    return root


def _summary_rows(out: str) -> list[dict[str, object]]:
    return [
        row for row in (json.loads(line) for line in out.split("\n") if line)
        if row["type"] == "summary"
    ]


def _cut_warc(archive: Path) -> Path:
    """The plain mix WARC cut inside its last record: pages, then one error."""
    cut = archive / "cut.warc"
    cut.write_bytes((archive / "a.warc").read_bytes()[:-300])
    return cut


def _every_output(tmp_path: Path, *args: str) -> tuple[object, ...]:
    """Status, stdout, stderr, --summary-json and --html of one run."""
    summary, html = tmp_path / "summary.json", tmp_path / "report.html"
    result = run_audit(*args, "--summary-json", str(summary), "--html", str(html))
    return (result.status, result.out, result.err, summary.read_text("utf-8"),
            html.read_text("utf-8"))


@pytest.mark.parametrize("start", ["fork", "spawn"])
def test_jobs_give_the_output_of_one_process(
    archive: Path, tmp_path: Path, start: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every output (table with its examples and errors, page records, summary JSON, HTML)
    of --jobs 2 is that of --jobs 1, files before and between WARCs, a damaged WARC among
    them."""
    import multiprocessing

    from scrapy_charset.tools import audit_parallel

    if start == "spawn":  # as on macOS and Windows, or with a threaded parent
        monkeypatch.setattr(audit_parallel, "pool_context",
                            lambda: multiprocessing.get_context("spawn"))
    elif sys.platform.startswith("linux"):
        assert audit_parallel.pool_context().get_start_method() == "fork"
    inputs = [str(archive / "files"), str(archive / "a.warc"), str(_cut_warc(archive)),
              str(archive / "b.warc.gz"), "--sidecar", str(archive / "pages.tsv")]
    formats = [["--format", "jsonl"]] if start == "spawn" else [
        [], ["--format", "jsonl"], ["--format", "csv"], ["--format", "csv", "--summary-only"]]
    for output in formats:
        one = _every_output(tmp_path, *inputs, *output, "--jobs", "1")
        two = _every_output(tmp_path, *inputs, *output, "--jobs", "2")
        assert one == two, output
        if not output:  # what is compared is there: the examples and the error listed
            assert one[0] == 0 and "first pages scrapy garbles:" in str(one[1])
            assert "1 input(s) could not be audited" in str(one[1])
    stats = audit_parallel.last_run[0]  # (one worker may take every task on a busy machine)
    assert 1 <= len(stats.busy) <= 2 and 0 < sum(stats.busy.values()) <= 2 * stats.wall
    pages = run_audit(*inputs, "--format", "jsonl", "--jobs", "2").pages()
    assert len(pages) == 4 * len(MIX)  # files and three WARCs, the cut one's last an error
    assert [p["error"] is not None for p in pages].count(True) == 1


def test_jobs_output_flows_while_later_warcs_are_read(archive: Path) -> None:
    """Files before two WARCs that are slow to come (served by a local server that holds them
    back): --jobs 2 writes the files' page records while both WARCs are still being read, not
    after them."""
    import select

    from tests.support.server import LocalServer, Reply

    release = threading.Event()

    def held_back(name: str) -> Callable[[object], Reply]:
        def reply(_request: object) -> Reply:
            release.wait(120)
            return Reply((archive / name).read_bytes(), [("Content-Type", "application/warc")])
        return reply

    with LocalServer() as server:
        urls = [server.add(f"/crawl/{name}", held_back(name)) for name in ("a.warc", "b.warc.gz")]
        audit = subprocess.Popen(
            [sys.executable, "-m", "scrapy_charset", "audit", str(archive / "files"), *urls,
             "--sidecar", str(archive / "pages.tsv"), "--format", "jsonl", "--jobs", "2"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO, bufsize=0,
        )
        try:
            assert audit.stdout is not None
            ready, _, _ = select.select([audit.stdout], [], [], 60)
            first = audit.stdout.readline() if ready else b""
            assert not release.is_set()
            files = [page.url for page in sorted(MIX, key=lambda page: f"{page.name}.html")]
            assert json.loads(first or b"{}").get("url") == files[0], "no output flowed"
        finally:
            release.set()
            out, err = audit.communicate(timeout=120)
    assert audit.returncode == 0, err
    rows = [json.loads(line) for line in (first + out).splitlines()]
    in_warcs = [page.url for page in MIX]
    assert [r["url"] for r in rows if r["type"] == "page"] == files + in_warcs * 2


def test_merged_shards_make_the_table_of_one_run(archive: Path, tmp_path: Path) -> None:
    parts = ["a.warc", "b.warc.gz", "files"]
    whole = run_audit(*(str(archive / part) for part in parts),
                      "--summary-json", str(tmp_path / "whole.json"))
    shards = []
    for number, part in enumerate(parts):
        shard = tmp_path / f"shard{number}.json"
        assert run_audit(str(archive / part), "--summary-json", str(shard)).status == 0
        shards.append(str(shard))
    merged = run_audit("--merge", *shards)
    assert merged.status == 0, merged.err
    table = whole.out.split("\nfirst pages")[0]
    assert merged.out.startswith(table), (whole.out, merged.out)  # same table, same kinds
    one = json.loads((tmp_path / "whole.json").read_text("utf-8"))
    combined = Summary.from_json(json.loads(Path(shards[0]).read_text("utf-8")))
    for shard in shards[1:]:
        combined.merge(Summary.from_json(json.loads(Path(shard).read_text("utf-8"))))
    again = combined.to_json()
    assert {k: again[k] for k in ("groups", "total", "breakdowns")} == {
        k: one[k] for k in ("groups", "total", "breakdowns")
    }
    # --merge reports like a run: jsonl summary rows, exit status, refusal of mixed grouping.
    assert run_audit("--merge", *shards, "--fail-over", "0.01", "--fail-on", "utf8").status == 1
    other = tmp_path / "by-source.json"
    run_audit(str(archive / "files"), "--group-by", "source", "--summary-json", str(other))
    mixed = run_audit("--merge", shards[0], str(other))
    assert mixed.status == 2 and "cannot merge" in mixed.err
    assert run_audit("--merge", str(archive / "pages.tsv")).status == 2


def test_dask_gives_the_summary_of_a_local_run(archive: Path, tmp_path: Path) -> None:
    """A real local Dask cluster (two workers): the summary of a local run, examples and all,
    from the Python API and from the command line."""
    distributed = pytest.importorskip("distributed")
    from scrapy_charset.tools.audit_dask import audit_paths

    inputs = [archive / "files", archive / "a.warc", _cut_warc(archive), archive / "b.warc.gz"]
    local = _every_output(tmp_path, *map(str, inputs))
    assert local[0] == 0 and "could not be audited" in str(local[1])
    expected = json.loads(str(local[3]))
    with distributed.Client(processes=False, n_workers=2, threads_per_worker=1,
                            dashboard_address=None) as client:
        summary = audit_paths(client, inputs)
    assert summary.to_json() == expected
    assert sum(len(found) for found in expected["examples"].values()) > 3
    # The command line's --dask, with a local in-process cluster: every output the same.
    assert _every_output(tmp_path, *map(str, inputs), "--dask", "local") == local


def test_remote_warcs_on_worker_processes(archive: Path, tmp_path: Path) -> None:
    """WARCs given as https URLs, read through fsspec, by the command line and by a Dask
    cluster of worker processes (the decoder and the inputs pickled to them, as on any
    cluster): the summary of the local files."""
    distributed = pytest.importorskip("distributed")
    from scrapy_charset.tools.audit_dask import audit_paths
    from tests.support.server import LocalServer, Reply

    local = run_audit(str(archive / "a.warc"), str(archive / "b.warc.gz"),
                      "--summary-json", str(tmp_path / "local.json"))
    expected = json.loads((tmp_path / "local.json").read_text("utf-8"))
    keys = ("groups", "total", "breakdowns")
    with LocalServer() as server:
        urls = [
            server.add(f"/crawl/{name}", Reply((archive / name).read_bytes(),
                                               [("Content-Type", "application/warc")]))
            for name in ("a.warc", "b.warc.gz")
        ]
        cli = run_audit(*urls, "--summary-json", str(tmp_path / "remote.json"))
        assert cli.status == 0, cli.err
        assert cli.out.split("\n\n")[0] == local.out.split("\n\n")[0]
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                      dashboard_address=None) as cluster, \
                distributed.Client(cluster) as client:
            summary = audit_paths(client, urls, settings={"CHARSET_TLD_HINT": True})
    got = summary.to_json()
    assert {k: got[k] for k in keys} == {k: expected[k] for k in keys}
    remote = json.loads((tmp_path / "remote.json").read_text("utf-8"))
    assert {k: remote[k] for k in keys} == {k: expected[k] for k in keys}


def test_html_report_is_self_contained(archive: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    result = run_audit(str(archive / "files"), "--sidecar", str(archive / "pages.tsv"),
                       "--html", str(report))
    assert result.status == 0, result.err
    page = report.read_text("utf-8")
    # Nothing fetched at view time: no script, stylesheet, image or font from anywhere.
    assert not re.search(r"<(script|link|img|iframe)\b", page)
    assert not re.search(r"(src|href)=|url\(|@import", page)
    assert page.count("<svg") == 4  # pages and characters, per TLD and per declared encoding
    for title in ("Pages garbled per TLD", "Characters that differ per declared encoding",
                  "Decision sources", "Examples, side by side"):
        assert title in page
    assert "<pre class=\"table\">tld " in page
    # Side by side: the browser's text and each default's at the same place.
    assert "Ã" in page  # a UTF-8 page as requests' ISO-8859-1 reads it
    assert page.count('<span class="bad">') > 10
    for kind in ("mojibake", "few_chars", "bom"):
        assert f"<h3><code>{kind}</code>" in page
    assert "<td><code>meta</code></td><td class=num>5</td>" in page


def test_severity_and_fail_over(archive: Path) -> None:
    args = [str(archive / "files"), "--sidecar", str(archive / "pages.tsv")]
    rows = run_audit(*args, "--format", "jsonl").pages()
    by_url = {str(r["url"]).rsplit("/", 2)[-2] + "/" + str(r["url"]).rsplit("/", 1)[-1]: r
              for r in rows}
    tw_bom = by_url["tw/bom"]
    assert (tw_bom["utf8_class"], tw_bom["utf8_chars"]) == ("bom", 1)
    assert by_url["de/meta-utf8"]["requests_class"] == "mojibake"
    assert by_url["de/meta-utf8"]["requests_share"] > 0
    assert by_url["com/ascii"]["ascii"] is True and by_url["com/ascii"]["not_utf8"] is False
    # Scrapy garbles 1 page of 11 (9%): mojibake.
    assert run_audit(*args, "--fail-over", "0.05").status == 1
    assert run_audit(*args, "--fail-over", "0.05", "--fail-class", "few_chars,bom").status == 0
    # utf8: 5 pages (45%), one only for a kept BOM.
    assert run_audit(*args, "--fail-on", "utf8", "--fail-over", "0.4").status == 1
    assert run_audit(*args, "--fail-on", "utf8", "--fail-over", "0.4",
                     "--fail-class", "mojibake,replacement,c1_controls,few_chars").status == 0
    chars = run_audit(*args, "--fail-on", "scrapy", "--fail-over", "0.05",
                      "--fail-measure", "chars")
    assert chars.status == 0  # 9% of the pages, under 5% of the characters
    assert run_audit(*args, "--fail-class", "nonsense").status == 2


def test_defaults_without_scrapy(archive: Path) -> None:
    args = [str(archive / "files"), "--sidecar", str(archive / "pages.tsv")]
    result = run_audit(*args, "--defaults", "utf8")
    assert result.status == 0, result.err
    assert "first pages utf8 garbles" in result.out
    assert run_audit(*args, "--defaults", "utf8", "--fail-over", "0.4").status == 1
    bad = run_audit(*args, "--defaults", "utf8", "--fail-on", "scrapy")
    assert bad.status == 2 and "not among --defaults" in bad.err


def test_progress_on_a_real_run_shows_total_eta_and_counts(archive: Path) -> None:
    result = run_audit(str(archive / "a.warc"), str(archive / "b.warc.gz"),
                       str(archive / "files"), "--progress")
    assert result.status == 0, result.err
    inputs = 2 + len(MIX)
    # tqdm's line: a bar, inputs done of the total, [elapsed<ETA, rate], then the pages.
    frames = re.split(r"[\r\n]", result.err)
    drawn = [f for f in frames if re.search(rf"\| *\d+/{inputs} \[\d\d:\d\d<\d\d:\d\d", f)]
    assert drawn, result.err
    assert f"{inputs}/{inputs}" in drawn[-1] and f"{3 * len(MIX)} pages, 0 errors" in drawn[-1]
    assert "pages/s" in drawn[-1] and result.err.endswith("\n")
    quiet = run_audit(str(archive / "a.warc"), "--no-progress")
    assert quiet.err == ""


# In a fresh process (where no tqdm bar ever started tqdm's monitor thread): the audit's bar
# starts no thread, so --jobs still forks; a plain tqdm bar then does start one, which shows
# that the check sees such a thread.
MONITOR_CHECK = """
import io, threading
from tqdm import tqdm
from scrapy_charset.tools.audit_parallel import pool_context
from scrapy_charset.tools.audit_progress import Progress
progress = Progress(True, total=2, stream=io.StringIO())
progress.advance_inputs(1)
print(threading.active_count(), pool_context().get_start_method())
progress.close()
bar = tqdm(total=2, file=io.StringIO())
print(threading.active_count(), pool_context().get_start_method())
bar.close()
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork is used on Linux only")
def test_progress_bar_starts_no_monitor_thread() -> None:
    pytest.importorskip("tqdm")
    done = subprocess.run([sys.executable, "-c", MONITOR_CHECK], capture_output=True, text=True,
                          cwd=REPO, timeout=60)
    assert done.returncode == 0, done.stderr
    ours, plain = done.stdout.split("\n")[:2]
    assert ours == "1 fork"
    assert plain == "2 spawn"  # tqdm's own default: a monitor thread, and no fork after it


def test_log_lines_go_above_the_progress_bar() -> None:
    stream = io.StringIO()
    progress = Progress(True, total=4, stream=stream)
    progress.advance_inputs(2)
    log = progress.log_stream()
    log.write("2026-01-01 [scrapy.core.engine] INFO: Spider opened\n")
    progress.advance_inputs(2)
    progress.close()
    lines = stream.getvalue().split("\n")
    logged = next(i for i, line in enumerate(lines) if "Spider opened" in line)
    # The bar was cleared before the log line (nothing but the clearing on its line) ...
    assert lines[logged].rsplit("\r", 1)[-1].startswith("2026-01-01 [scrapy.core.engine]")
    # ... and drawn again after it.
    assert "4/4" in lines[logged + 1]


def test_progress_needs_tqdm_only_when_shown(
    archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "tqdm", None)  # as if it were not installed
    result = run_audit(str(archive / "a.warc"), "--progress")
    assert result.status == 0
    assert "needs tqdm: pip install scrapy-charset[progress]" in result.err
    assert run_audit(str(archive / "a.warc")).err == ""
    # On by default (stderr a terminal) but not asked for: no word about tqdm.
    quiet = io.StringIO()
    Progress(True, total=1, stream=quiet, asked=False).close()
    assert quiet.getvalue() == ""
    # Loading the audit command (as Scrapy's command list does) imports no tqdm.
    code = "import sys, scrapy_charset.tools.audit_command; print('tqdm' in sys.modules)"
    imported = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              cwd=REPO, timeout=60)
    assert imported.stdout.strip() == "False", imported.stderr


def test_url_audit_keeps_scrapy_log_lines_off_the_progress_line(tmp_path: Path) -> None:
    from scrapy_charset.tools.demo_site import PAGES, serve

    with serve() as site:
        urls = [site.url(page) for page in PAGES[:6]]
        done = subprocess.run(
            [sys.executable, "-m", "scrapy_charset", "audit", *urls, "--progress",
             "-s", "LOG_LEVEL=INFO", "-s", "ROBOTSTXT_OBEY=False"],
            capture_output=True, text=True, cwd=tmp_path, timeout=120,
            env={**__import__("os").environ, "PYTHONPATH": str(REPO)},
        )
    assert done.returncode == 0, done.stderr
    logged = [line for line in done.stderr.split("\n") if "[scrapy" in line]
    assert len(logged) > 3, done.stderr
    for line in logged:  # each log line alone on its line, after the cleared bar
        assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \[scrapy", line.rsplit("\r", 1)[-1]), line
        assert "input/s" not in line, line
    assert re.search(rf"{len(urls)}/{len(urls)} \[", done.stderr)


def test_version_and_scrapy_help_headings() -> None:
    scrapy = str(Path(sys.executable).with_name("scrapy"))
    env = {"PYTHONPATH": str(REPO), "PATH": str(Path(sys.executable).parent)}
    version = subprocess.run([scrapy, "charset-audit", "--version"], capture_output=True,
                             text=True, env=env, timeout=60)
    assert version.returncode == 0 and version.stdout.startswith("scrapy-charset ")
    helped = subprocess.run([scrapy, "charset-audit", "-h"], capture_output=True, text=True,
                            env=env, timeout=60)
    lines = helped.stdout.splitlines()
    headings = [lines[i - 1] for i, line in enumerate(lines) if re.fullmatch(r"=+|-+", line)]
    assert sorted(headings) == sorted(["Usage", "Positional Arguments", "Options",
                                       "Global Options", "Audit Inputs", "Audit Output",
                                       "Scale", "Exit Status"])


def test_jobs_hand_out_warcs_first_biggest_first_each_alone(tmp_path: Path) -> None:
    import heapq

    from scrapy_charset.tools.audit_inputs import UNIT_FILE, UNIT_WARC, Unit
    from scrapy_charset.tools.audit_parallel import (
        BATCH_MOST,
        biggest_first,
        input_size,
        plan_tasks,
    )

    units = []
    for number in range(400):  # files (some big), then WARCs of growing size, then one gzip'd
        page = tmp_path / f"p{number}.html"
        page.write_bytes(b"x" * (300_000 if number % 7 == 0 else 1000 + number * 50))
        units.append(Unit(UNIT_FILE, str(page)))
    for number, size in enumerate((1_000, 50_000, 200_000)):
        warc = tmp_path / f"w{number}.warc"
        warc.write_bytes(b"w" * size)
        units.append(Unit(UNIT_WARC, str(warc)))
    units.append(Unit(UNIT_WARC, "https://example.com/remote.warc.gz"))  # size unknown
    gzipped = tmp_path / "w.warc.gz"  # 60 KB of gzip: more pages than the 200 KB plain WARC
    gzipped.write_bytes(b"g" * 60_000)
    units.append(Unit(UNIT_WARC, str(gzipped)))
    for number in range(5):  # small inputs after the WARCs
        page = tmp_path / f"q{number}.html"
        page.write_bytes(b"y" * 5000)
        units.append(Unit(UNIT_FILE, str(page)))
    tasks = plan_tasks(units, 2)
    # Consecutive inputs, in input order, every one once; WARCs alone, batches of small ones.
    assert [i for task in tasks for i in task] == list(range(len(units)))
    assert all(len(task) == 1 for task in tasks if units[task.start].kind == UNIT_WARC)
    assert all(units[i].kind == UNIT_FILE for task in tasks if len(task) > 1 for i in task)
    assert max(len(task) for task in tasks) == BATCH_MOST
    order = biggest_first(units, tasks)
    assert sorted(order) == list(range(len(tasks)))
    # Unknown size counts as big; every WARC, even a small one, before any batch of files.
    assert [tasks[n].start for n in order[:5]] == [403, 404, 402, 401, 400]
    sizes = [sum(input_size(units[i]) for i in tasks[n]) for n in order[5:]]
    assert sizes == sorted(sizes, reverse=True)  # the batches biggest first
    assert all(len(tasks[n]) == 1 for n in order[-4:])  # single inputs at the end
    # Handed out in that order to two workers whose time is the bytes they read, the workers
    # finish within one small input of each other.
    ends = [0.0, 0.0]
    for number in order[4:]:  # (the unknown-size WARC aside)
        heapq.heapreplace(ends, ends[0] + sum(input_size(units[i]) for i in tasks[number]))
    last = sum(input_size(units[i]) for i in tasks[order[-1]])
    assert last == 5000 and max(ends) - min(ends) <= last, ends


@pytest.mark.skipif(sys.platform != "linux", reason="file names of any bytes")
def test_jobs_write_records_of_file_names_that_are_not_utf8(tmp_path: Path) -> None:
    """A file name of bytes that are not UTF-8 (a surrogate-escaped str in its record) is
    written by --jobs 2 as by --jobs 1, page records spooled by the workers included."""
    folder = tmp_path / "names"
    folder.mkdir()
    for name, page in zip((b"b\xff.html", b"caf\xe9.html", b"plain.html"), MIX, strict=False):
        with open(bytes(folder) + b"/" + name, "wb") as out:
            out.write(page.body)
    for output in (["--format", "jsonl"], ["--format", "csv"]):
        one = run_audit(str(folder), *output, "--jobs", "1")
        two = run_audit(str(folder), *output, "--jobs", "2")
        assert one.status == two.status == 0, (two.status, two.err)
        assert one.out == two.out, output
        assert "\udcff" in one.out or "\\udcff" in one.out


_KILLING_AUDIT = r"""
import os, signal, sys
from scrapy_charset.tools import audit_parallel
from tests.tools.test_audit_pages import run_audit

read_unit = audit_parallel.read_unit
killed_in = os.getpid()


def dying_read_unit(unit, options):
    # The input named "kill" kills its worker, as the out-of-memory killer would; forked
    # workers inherit this function.
    if "kill" in os.path.basename(unit.path) and os.getpid() != killed_in:
        os.kill(os.getpid(), signal.SIGKILL)
    return read_unit(unit, options)


audit_parallel.read_unit = dying_read_unit
result = run_audit(*sys.argv[1:])
sys.stdout.write(result.out)
sys.stderr.write(result.err)
sys.exit(result.status)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked workers")
@pytest.mark.parametrize("killer", ["kill.html", "kill.warc"])
def test_jobs_go_on_when_a_worker_dies(archive: Path, tmp_path: Path, killer: str) -> None:
    """A worker killed while auditing an input (SIGKILL, as from the out-of-memory killer)
    neither hangs the audit nor loses the other inputs, those in the same batch included:
    --jobs 2 gives every other input's page records, in input order, as --jobs 1 does on
    the inputs without the killer, and one error record naming the killer."""
    files = tmp_path / "many"
    files.mkdir()
    for number in range(40):  # small files: batched several to a task
        page = MIX[number % len(MIX)]
        (files / f"p{number:02}.html").write_bytes(page.body)
    killing = files / killer
    if killer.endswith(".html"):
        killing.write_bytes(MIX[0].body)
    else:
        killing.write_bytes((archive / "a.warc").read_bytes())
    inputs = [str(archive / "a.warc"), str(files), str(archive / "b.warc.gz")]
    run = subprocess.run(
        [sys.executable, "-c", _KILLING_AUDIT, *inputs, "--format", "jsonl", "--jobs", "2"],
        cwd=REPO, capture_output=True, text=True, timeout=300, check=False,
    )
    pages = [row for row in (json.loads(line) for line in run.stdout.splitlines())
             if row["type"] == "page"]
    died = [page for page in pages if page["error"] is not None]
    assert len(died) == 1, run.stderr[-2000:]
    assert died[0]["origin"] == str(killing)
    assert "worker process auditing it died" in str(died[0]["error"])
    killing.unlink()
    serial = run_audit(*inputs, "--format", "jsonl", "--jobs", "1").pages()
    assert [page for page in pages if page is not died[0]] == serial
    assert len(serial) == 2 * len(MIX) + 40
    # the error comes where the killer was in input order
    assert pages.index(died[0]) == len(MIX) + sorted(
        [killer, *(f"p{n:02}.html" for n in range(40))]).index(killer)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked workers")
def test_jobs_go_on_when_the_pool_breaks_while_tasks_are_handed_out(
    archive: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pool that breaks before every task is handed out (a worker died early): the tasks
    not handed out go on, and the output is that of --jobs 1."""
    from concurrent.futures.process import BrokenProcessPool

    from scrapy_charset.tools import audit_parallel

    files = tmp_path / "many"
    files.mkdir()
    for number in range(12):
        (files / f"p{number:02}.html").write_bytes(MIX[number % len(MIX)].body)
    broken: list[int] = []

    class BreaksOnce(audit_parallel.ProcessPoolExecutor):  # type: ignore[misc]
        handed = 0

        def submit(self, *args: Any, **kwargs: Any) -> Any:
            BreaksOnce.handed += 1
            if BreaksOnce.handed == 3 and not broken:
                broken.append(1)
                raise BrokenProcessPool("a worker died")
            return super().submit(*args, **kwargs)

    monkeypatch.setattr(audit_parallel, "ProcessPoolExecutor", BreaksOnce)
    inputs = [str(archive / "a.warc"), str(files), "--format", "jsonl"]
    two = run_audit(*inputs, "--jobs", "2")
    assert broken and two.status == 0, two.err
    assert two.out == run_audit(*inputs, "--jobs", "1").out


_FAILING_PARENT = r"""
import os, sys, time
from scrapy_charset.tools import audit_parallel
from tests.tools.test_audit_pages import run_audit

read_unit = audit_parallel.read_unit
merged_in_order = audit_parallel.merged_in_order
log = sys.argv[1]


def slow_read_unit(unit, options):  # each input read by a worker leaves a line in the log
    with open(log, "a") as out:
        out.write(unit.path + "\n")
    time.sleep(0.2)
    return read_unit(unit, options)


def failing_merge(results, audit):  # the parent fails on the first outcome (a full disk)
    for done in merged_in_order(results, audit):
        raise OSError("No space left on device")
        yield done


audit_parallel.read_unit = slow_read_unit
audit_parallel.merged_in_order = failing_merge
try:
    run_audit(*sys.argv[2:])
except OSError as error:
    print("parent failed:", error)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked workers")
def test_jobs_workers_stop_when_the_parent_fails(tmp_path: Path) -> None:
    """An error in the parent while workers still have tasks queued (here: writing the first
    outcome fails) reaches the caller as that error, and the workers are stopped rather than
    left to audit every queued input."""
    files = tmp_path / "many"
    files.mkdir()
    for number in range(60):
        (files / f"p{number:02}.html").write_bytes(MIX[number % len(MIX)].body)
    log = tmp_path / "read.log"
    run = subprocess.run(
        [sys.executable, "-c", _FAILING_PARENT, str(log), str(files), "--jobs", "2"],
        cwd=REPO, capture_output=True, text=True, timeout=300, check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "parent failed: No space left on device" in run.stdout
    assert "Exception ignored" not in run.stderr and "Traceback" not in run.stderr, run.stderr
    read = log.read_text().splitlines()
    assert 0 < len(read) < 60, len(read)
