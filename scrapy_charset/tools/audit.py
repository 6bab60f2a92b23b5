"""``python -m scrapy_charset audit`` / ``scrapy charset-audit``: how many of your pages do the
usual defaults garble?

Reads pages from URLs (crawled through Scrapy with the project's settings), local files and
folders, Scrapy HTTP cache folders and WARC files; decodes each as a browser does and as
requests, Scrapy and a plain UTF-8 decode do; prints the counts per TLD (or any field).

Exit status: 0 done; 1 the garbled share went over ``--fail-over``; 2 usage error;
3 no page could be audited, or ``--fail-on-error`` and some input failed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO
from urllib.parse import urlsplit

from .. import __version__
from .audit_compare import DEFAULTS, BrowserDecoder, Record, audit_page
from .audit_decoding import MiddlewareDecoder, charset_settings
from .audit_inputs import (
    DEFAULT_MAX_SIZE,
    KIND_URL,
    LocalInputs,
    Page,
    describe_error,
    failed,
    is_remote,
    is_warc_path,
    iter_units,
    read_options,
    read_unit,
)
from .audit_progress import Progress, make_progress
from .audit_report import (
    ANY,
    FORMATS,
    GROUPABLE,
    Findings,
    Summary,
    Writer,
    render_classes,
    render_table,
)
from .audit_severity import CLASSES

if TYPE_CHECKING:
    from scrapy.settings import Settings

EXIT_OK = 0
EXIT_GARBLED = 1
EXIT_USAGE = 2
EXIT_FAILED_INPUT = 3

DESCRIPTION = (
    "Audit pages for mojibake: decode each page as a browser does (WHATWG encoding sniffing) "
    "and as requests' .text, Scrapy's HtmlResponse.text and a plain UTF-8 decode do, and count "
    "how many each default garbles, per TLD or any other field. INPUTs are URLs (fetched "
    "through Scrapy with the project's settings), files, folders, Scrapy HTTP cache folders "
    "and WARC files. Exit status: 0 done; 1 garbled share over --fail-over; 2 usage error; "
    "3 nothing could be audited, or --fail-on-error and an input failed."
)


# As ``scrapy charset-audit`` sets them (AuditCommand.default_settings).
COMMAND_SETTINGS: dict[str, Any] = {"LOG_LEVEL": "WARNING"}


class UsageProblem(Exception):
    """Bad command-line use: reported with exit status 2."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The audit's own options, shared by the Scrapy command and ``python -m``.

    No help text has a colon followed by a space: Scrapy's help formatter would take a wrapped
    line ending in one for a section heading.
    """
    parser.add_argument(
        "--version", action="version", version=f"scrapy-charset {__version__} (audit)"
    )
    parser.add_argument(
        "inputs",
        nargs="*",
        metavar="INPUT",
        help="URL, file, folder, WARC file (.warc, .warc.gz) or Scrapy HTTP cache folder",
    )
    group = parser.add_argument_group("audit inputs")
    group.add_argument(
        "--urls", metavar="FILE", action="append", default=[],
        help="file with one URL per line ('-' for stdin); may be repeated",
    )
    group.add_argument(
        "--httpcache", metavar="DIR", nargs="?", const="", default=None,
        help="a Scrapy filesystem HTTP cache folder, resolved as HTTPCACHE_DIR is (a relative "
        "name is under the project's .scrapy folder); alone: the project's HTTPCACHE_DIR",
    )
    group.add_argument(
        "--sidecar", metavar="TSV", type=Path,
        help="TSV of path<TAB>content_type[<TAB>url] rows for local files; listed files are "
        "audited",
    )
    group.add_argument(
        "--content-type", metavar="VALUE",
        help="Content-Type header assumed for local files the sidecar does not list",
    )
    group.add_argument("--glob", metavar="PATTERN", help="in folders, only files matching this")
    group.add_argument(
        "--max-size", metavar="BYTES", type=int, default=None,
        help="skip (report) a body bigger than this, read or inflated; 0: no limit (default "
        "the DOWNLOAD_MAXSIZE setting, 1 GiB in Scrapy)",
    )
    group.add_argument(
        "--all-types", action="store_true",
        help="URL, cache and WARC inputs: also audit non-HTML responses (and stored non-2xx "
        "ones); by default they are counted as skipped",
    )
    group = parser.add_argument_group("audit output")
    group.add_argument(
        "--group-by", metavar="FIELD", default="tld", choices=GROUPABLE,
        help="summary rows per value of this record field (default tld); one of "
        + ", ".join(GROUPABLE),
    )
    group.add_argument(
        "--format", dest="output_format", choices=FORMATS, default="table",
        help="table (summary), jsonl (one record per page, then the summary) or csv (one row "
        "per page)",
    )
    group.add_argument("--output", metavar="FILE", help="write there instead of stdout")
    group.add_argument(
        "--summary-only", action="store_true", help="jsonl/csv: only the summary rows"
    )
    group.add_argument(
        "--examples", metavar="N", type=int, default=5,
        help="table: show up to N garbled pages with their first difference (default 5)",
    )
    group.add_argument(
        "--defaults", metavar="LIST", default=",".join(DEFAULTS),
        help="comma-separated defaults to compare with the browser (default "
        + ",".join(DEFAULTS) + ")",
    )
    group.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=None,
        help="progress bar on stderr, needs tqdm (default only when stderr is a terminal)",
    )
    group.add_argument(
        "--summary-json", metavar="FILE",
        help="also write the summary counts as JSON: summaries of shards of an audit combine "
        "with --merge into the table of one run",
    )
    group.add_argument(
        "--merge", metavar="SUMMARY", nargs="+",
        help="combine summaries written with --summary-json (no INPUT) and report them",
    )
    group.add_argument("--html", metavar="FILE", help="also write a self-contained HTML report")
    group = parser.add_argument_group("scale")
    group.add_argument(
        "--jobs", "-j", metavar="N", type=int, default=1,
        help="audit files, WARCs and cache entries in N worker processes (default 1; 0: one "
        "per CPU)",
    )
    group.add_argument(
        "--dask", metavar="SCHEDULER",
        help="audit files and WARCs (local or fsspec URLs such as s3://...) on a Dask cluster, "
        "given by a scheduler address (tcp://host:8786) or 'local' (needs scrapy-charset[dask])",
    )
    group = parser.add_argument_group("exit status")
    group.add_argument(
        "--fail-over", metavar="SHARE", type=float,
        help="exit 1 when the share of audited pages garbled by --fail-on exceeds SHARE (0-1)",
    )
    group.add_argument(
        "--fail-on", choices=(*DEFAULTS, ANY), default=None,
        help="which default --fail-over counts (default scrapy, or the first of --defaults; "
        "any: garbled by any default)",
    )
    group.add_argument(
        "--fail-class", metavar="LIST", default=",".join(CLASSES),
        help="classes of difference --fail-over counts, comma-separated (default all of "
        + ", ".join(CLASSES) + ")",
    )
    group.add_argument(
        "--fail-measure", choices=("pages", "chars"), default="pages",
        help="--fail-over compares the share of pages (default) or of characters that differ",
    )
    group.add_argument(
        "--fail-on-error", action="store_true",
        help="exit 3 when any input could not be read or fetched",
    )


def is_url(value: str) -> bool:
    """A page to fetch: an http(s) URL, unless its path names a WARC file (read remotely)."""
    return value.lower().startswith(("http://", "https://")) and not is_warc_path(
        urlsplit(value).path
    )


@dataclass
class Plan:
    """What to audit, sorted out from the command line."""

    urls: list[str] = field(default_factory=list)
    local: LocalInputs = field(default_factory=LocalInputs)
    problems: list[Page] = field(default_factory=list)  # inputs that failed before reading

    @property
    def has_local(self) -> bool:
        return bool(self.local.paths) or self.local.sidecar is not None

    @property
    def empty(self) -> bool:
        return not self.urls and not self.has_local


def read_url_list(name: str, stdin: TextIO) -> list[str]:
    if name == "-":
        lines = stdin.read().splitlines()
    else:
        lines = Path(name).read_text("utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def make_plan(
    opts: argparse.Namespace, settings: Callable[[], Settings] | None, stdin: TextIO
) -> Plan:
    """Sort out the inputs; raise :class:`UsageProblem` for a path that does not exist or a
    --httpcache folder that is not a cache (reported before anything is audited)."""
    plan = Plan()
    missing: list[str] = []
    for value in opts.inputs:
        if is_url(value):
            plan.urls.append(value)
        elif is_remote(value):
            plan.local.paths.append(value)  # type: ignore[arg-type]  # opened with fsspec
        elif not os.path.lexists(value):
            missing.append(value)
        else:
            plan.local.paths.append(Path(value))
    if missing:
        raise UsageProblem(f"no such file or folder: {', '.join(missing)}")
    for name in opts.urls:
        try:
            plan.urls.extend(read_url_list(name, stdin))
        except (OSError, UnicodeDecodeError) as exc:
            plan.problems.append(
                failed(KIND_URL, name, f"cannot read URL list: {describe_error(exc)}")
            )
    if opts.httpcache is not None:
        plan.local.paths.append(httpcache_folder(opts.httpcache, settings))
    if opts.sidecar is not None and not os.path.lexists(opts.sidecar):
        raise UsageProblem(f"--sidecar: no such file: {opts.sidecar}")
    plan.local.sidecar = opts.sidecar
    plan.local.content_type = opts.content_type
    plan.local.glob = opts.glob
    plan.local.all_types = opts.all_types
    if opts.max_size is not None and opts.max_size < 0:
        raise UsageProblem("--max-size takes a number of bytes (0: no limit)")
    if plan.has_local:
        plan.local.max_size = (
            opts.max_size if opts.max_size is not None else download_maxsize(settings)
        )
    return plan


def download_maxsize(settings: Callable[[], Settings] | None) -> int:
    try:
        value = _settings(settings).getint("DOWNLOAD_MAXSIZE", DEFAULT_MAX_SIZE)
    except (ValueError, TypeError) as exc:
        raise UsageProblem(f"DOWNLOAD_MAXSIZE: expected a number of bytes: {exc}") from exc
    return max(value, 0)


def httpcache_folder(name: str, settings: Callable[[], Settings] | None) -> Path:
    """The cache folder ``--httpcache [NAME]`` means: NAME (or HTTPCACHE_DIR) resolved as Scrapy
    resolves HTTPCACHE_DIR (a relative name lives under the project's ``.scrapy`` folder; a
    relative folder that exists as given is taken as it is). Raises UsageProblem when it is
    not a Scrapy filesystem cache."""
    from scrapy.utils.project import data_path

    raw = name or _settings(settings)["HTTPCACHE_DIR"]
    folder = Path(data_path(raw, createdir=False))
    if not folder.is_dir() and Path(raw).is_dir():
        folder = Path(raw)
    if not folder.is_dir():
        raise UsageProblem(f"--httpcache: no such cache folder: {folder}")
    if not looks_like_cache(folder):
        raise UsageProblem(
            f"--httpcache: {folder} is not a Scrapy HTTP cache folder (no SPIDER/xx/FINGERPRINT"
            " entries with meta and response files); give it as a plain INPUT to audit its files"
        )
    return folder


def looks_like_cache(folder: Path) -> bool:
    """A FilesystemCacheStorage folder: ``spider/xx/fingerprint/`` entries (or one spider's
    folder, or an entry)."""
    for depth in range(4):
        pattern = "/".join(["*"] * depth + ["pickled_meta"])
        if next(folder.glob(pattern), None) is not None:
            return True
        pattern = "/".join(["*"] * depth + ["response_headers"])
        if next(folder.glob(pattern), None) is not None:
            return True
    return False


def parse_choices(value: str, option: str, choices: Iterable[str]) -> tuple[str, ...]:
    """The comma-separated names of ``value`` (deduplicated), each one of ``choices``."""
    choices = tuple(choices)
    names = tuple(dict.fromkeys(n.strip() for n in value.split(",") if n.strip()))
    unknown = [n for n in names if n not in choices]
    if unknown or not names:
        raise UsageProblem(
            f"{option}: unknown {', '.join(unknown) or '(empty)'}; choose from "
            + ", ".join(choices)
        )
    return names


def parse_defaults(value: str) -> tuple[str, ...]:
    return parse_choices(value, "--defaults", DEFAULTS)


class Audit:
    """Audits pages one at a time: record, output, findings and progress."""

    def __init__(
        self, writer: Writer, findings: Findings, progress: Progress, browser: BrowserDecoder
    ) -> None:
        self.writer = writer
        self.findings = findings
        self.progress = progress
        self.browser = browser

    @property
    def summary(self) -> Summary:
        return self.findings.summary

    def add(self, page: Page) -> Record:
        return self.add_record(audit_page(page, self.browser, self.summary.defaults))

    def add_record(self, record: Record) -> Record:
        self.writer.page(record)
        self.findings.add(record)
        self.progress.update(record)
        return record

    def add_all(self, pages: Iterable[Page]) -> None:
        for page in pages:
            self.add(page)


def parse_classes(value: str) -> tuple[str, ...]:
    return parse_choices(value, "--fail-class", CLASSES)


def exit_status(summary: Summary, opts: argparse.Namespace) -> tuple[int, str]:
    total = summary.total
    if opts.fail_over is not None and total.pages:
        kinds = parse_classes(opts.fail_class)
        share = total.share(opts.fail_on, kinds, opts.fail_measure)
        if share > opts.fail_over:
            what = "pages" if opts.fail_measure == "pages" else "characters"
            size = total.pages if opts.fail_measure == "pages" else total.text_chars
            return EXIT_GARBLED, (
                f"{opts.fail_on}: {share:.1%} of {size} {what} garbled"
                + ("" if kinds == CLASSES else f" ({', '.join(kinds)})")
                + f", over --fail-over {opts.fail_over:g}"
            )
    if total.pages == 0:
        return EXIT_FAILED_INPUT, "no page could be audited"
    if opts.fail_on_error and total.errors:
        return EXIT_FAILED_INPUT, f"{total.errors} input(s) could not be audited"
    return EXIT_OK, ""


def run(
    opts: argparse.Namespace,
    *,
    settings: Callable[[], Settings] | None = None,
    crawler_process: Any = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    stdin: TextIO | None = None,
    browser: BrowserDecoder | None = None,
) -> int:
    """Run an audit from parsed options; return the exit status.

    ``settings`` gives the Scrapy settings for crawling URLs (only called when there are URLs).
    """
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    if settings is None and getattr(opts, "set", None):
        settings = settings_with_overrides(opts.set)
    try:
        defaults = parse_defaults(opts.defaults)
        if opts.fail_on is None:
            opts.fail_on = "scrapy" if "scrapy" in defaults else defaults[0]
        elif opts.fail_on not in (*defaults, ANY):
            raise UsageProblem(f"--fail-on {opts.fail_on}: not among --defaults")
        parse_classes(opts.fail_class)
        if opts.fail_over is not None and not 0 <= opts.fail_over <= 1:
            raise UsageProblem("--fail-over takes a share between 0 and 1, for example 0.05")
        plan = make_plan(opts, settings, stdin or sys.stdin)
    except UsageProblem as exc:
        stderr.write(f"audit: {exc}\n")
        return EXIT_USAGE
    if opts.merge:
        if opts.inputs or opts.urls or opts.httpcache is not None:
            stderr.write("audit: --merge takes summaries only, no INPUT\n")
            return EXIT_USAGE
        try:
            summary = merge_summaries(opts.merge, opts.group_by, defaults)
        except UsageProblem as exc:
            stderr.write(f"audit: {exc}\n")
            return EXIT_USAGE
        return _report_only(summary, opts, stdout, stderr)
    if plan.empty and not plan.problems:
        stderr.write("audit: nothing to audit: give URLs, files, folders or --httpcache\n")
        return EXIT_USAGE
    if browser is None:
        try:
            browser = MiddlewareDecoder(charset_settings(_settings(settings)))
        except ValueError as exc:  # CharsetSettingsError: a bad CHARSET_* setting
            stderr.write(f"audit: {exc}\n")
            return EXIT_USAGE
    progress_on = opts.progress if opts.progress is not None else stderr.isatty()
    with ExitStack() as stack:
        if opts.output:
            try:
                out: TextIO = stack.enter_context(
                    open(opts.output, "w", encoding="utf-8", newline="")  # noqa: SIM115
                )
            except OSError as exc:
                stderr.write(f"audit: cannot write {opts.output}: {describe_error(exc)}\n")
                return EXIT_USAGE
        else:
            out = stdout
        summary = Summary(opts.group_by, defaults)
        units = list(iter_units(plan.local)) if plan.has_local else []
        audit = Audit(
            Writer(out, opts.output_format, opts.summary_only),
            Findings(summary, opts.fail_on, max(opts.examples, 0)),
            make_progress(progress_on, len(units), len(plan.urls), stderr, opts.progress is True),
            browser,
        )
        audit.add_all(plan.problems)
        options = read_options(plan.local)
        if opts.dask and units:
            from .audit_dask import audit_units_with_dask

            try:
                audit.findings.merge(audit_units_with_dask(
                    units, opts.dask, options, browser, audit.findings.fresh()
                ))
            except (ImportError, OSError, ValueError) as exc:
                stderr.write(f"audit: --dask: {describe_error(exc)}\n")
                return EXIT_USAGE
            audit.progress.advance_inputs(len(units))
        elif opts.jobs != 1 and len(units) > 1:
            from .audit_parallel import audit_in_processes

            audit_in_processes(units, options, audit, opts.jobs or os.cpu_count() or 1)
        else:
            for unit in units:
                audit.add_all(read_unit(unit, options))
                audit.progress.advance_inputs(1)
        if plan.urls:
            from .audit_crawl import crawl

            crawl(
                plan.urls, _settings(settings), audit.add, crawler_process, not opts.all_types,
                audit.progress.log_stream() if audit.progress.enabled else None,
            )
        audit.progress.close()
        audit.writer.finish(summary, audit.findings.table_extra())
        if opts.output and opts.output_format != "table":
            # The file holds the records; the terminal still gets the numbers.
            stdout.write(render_table(summary))
    problem = write_extras(summary, opts)
    if problem:
        stderr.write(f"audit: {problem}\n")
        return EXIT_USAGE
    status, message = exit_status(summary, opts)
    if message:
        stderr.write(f"audit: {message}\n")
    return status


def merge_summaries(paths: Sequence[str], group_by: str, defaults: Sequence[str]) -> Summary:
    """One summary from the files ``--summary-json`` wrote (raises UsageProblem)."""
    merged: Summary | None = None
    for path in paths:
        try:
            part = Summary.from_json(json.loads(Path(path).read_text("utf-8")))
            if merged is None:
                merged = part
            else:
                merged.merge(part)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise UsageProblem(f"--merge: {path}: {describe_error(exc)}") from exc
    assert merged is not None
    return merged


def write_extras(summary: Summary, opts: argparse.Namespace) -> str | None:
    """--summary-json and --html; a message when one cannot be written."""
    try:
        if opts.summary_json:
            Path(opts.summary_json).write_text(
                json.dumps(summary.to_json(), ensure_ascii=False) + "\n", "utf-8"
            )
        if opts.html:
            from .audit_html import render_html

            Path(opts.html).write_text(render_html(summary), "utf-8")
    except OSError as exc:
        return f"cannot write: {describe_error(exc)}"
    return None


def _report_only(
    summary: Summary, opts: argparse.Namespace, stdout: TextIO, stderr: TextIO
) -> int:
    out = stdout
    with ExitStack() as stack:
        if opts.output:
            out = stack.enter_context(open(opts.output, "w", encoding="utf-8", newline=""))
        Writer(out, opts.output_format, True).finish(summary, render_classes(summary))
    problem = write_extras(summary, opts)
    if problem:
        stderr.write(f"audit: {problem}\n")
        return EXIT_USAGE
    status, message = exit_status(summary, opts)
    if message:
        stderr.write(f"audit: {message}\n")
    return status


def _settings(factory: Callable[[], Settings] | None) -> Settings:
    if factory is not None:
        return factory()
    from scrapy.utils.project import get_project_settings

    return get_project_settings()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scrapy_charset audit", description=DESCRIPTION
    )
    add_arguments(parser)
    parser.add_argument(
        "-s", "--set", action="append", default=[], metavar="NAME=VALUE",
        help="set or override a Scrapy setting for the crawl (may be repeated)",
    )
    return parser


def settings_with_overrides(pairs: Sequence[str]) -> Callable[[], Settings]:
    def factory() -> Settings:
        from scrapy.utils.project import get_project_settings

        settings = get_project_settings()
        settings.setdict(COMMAND_SETTINGS, priority="command")
        for pair in pairs:
            name, _, value = pair.partition("=")
            settings.set(name, value, priority="cmdline")
        return settings

    return factory


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        opts = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:  # argparse exits 2 on bad use and 0 on --help
        return int(exc.code or 0)
    bad = [pair for pair in opts.set if "=" not in pair]
    if bad:
        sys.stderr.write(f"audit: -s takes NAME=VALUE, got {bad[0]!r}\n")
        return EXIT_USAGE
    return run(opts, settings=settings_with_overrides(opts.set))
