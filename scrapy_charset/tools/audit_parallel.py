"""``--jobs N``: read and audit the inputs in N worker processes on one machine.

The inputs are cut into tasks of consecutive inputs: each WARC alone, the small inputs (files,
cache entries) between them in batches that shrink as the inputs left do, down to single
inputs. A worker audits a task's pages one at a time, as the serial audit does, and sends back
its findings: the summary counts, the few example pages and errors the report shows
(:class:`~.audit_report.Findings`), never a record per page. When page records are written
(``--format jsonl``/``csv``) the worker writes them, formatted, to a spool file as it goes, and
the parent appends the file to the output. The parent merges findings and appends page records
in input order, so every output is that of one process; memory stays that of one page per
worker, however big a WARC is.

Without page records the tasks are handed out biggest first (the WARCs, then batches), so that
the last tasks are single small inputs and the workers finish together. With page records they
are handed out in input order, so the output flows as the first inputs are done rather than
after the big ones.

Workers are forked on Linux when the parent runs no other thread: they start at once with the
modules and the decoder the parent has (the parent's objects frozen out of the cyclic garbage
collector first, so that the workers' collections do not write to, and copy, the pages they
share). Otherwise they are spawned. A worker that dies costs only the input that killed it
(:func:`run_tasks`).
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing.context import BaseContext
from typing import TYPE_CHECKING, TypeVar

from .audit_compare import BrowserDecoder, audit_page
from .audit_inputs import (
    KIND_FILE,
    PAGE_KIND,
    UNIT_CACHE,
    UNIT_WARC,
    Page,
    ReadOptions,
    Unit,
    failed,
    read_unit,
)
from .audit_report import Findings, Writer

if TYPE_CHECKING:
    from .audit import Audit


@dataclass(frozen=True)
class Setup:
    """What every worker needs, the same for every task."""

    options: ReadOptions
    browser: BrowserDecoder
    findings: Findings  # empty: the shape of each task's findings
    output_format: str | None = None  # jsonl or csv when page records are written
    spool: str | None = None  # the folder of the page records' spool files


@dataclass
class Done:
    """A task's outcome, as a worker sends it back."""

    number: int  # the task's place in input order
    findings: Findings
    inputs: int
    pages_file: str | None  # the spooled page records (--format jsonl/csv)
    worker: int  # process id
    busy: float  # seconds of wall clock on the task
    cpu: float  # the worker's CPU seconds so far


def audit_units(units: Sequence[Unit], setup: Setup) -> tuple[Findings, str | None]:
    """The findings of consecutive inputs, and the file their page records were written to
    (None when page records are not written)."""
    return audit_pages((page for unit in units for page in read_unit(unit, setup.options)), setup)


def audit_pages(pages: Iterable[Page], setup: Setup) -> tuple[Findings, str | None]:
    """:func:`audit_units` for the pages read from them."""
    findings = setup.findings.fresh()
    defaults = findings.summary.defaults
    if setup.output_format is None:
        for page in pages:
            findings.add(audit_page(page, setup.browser, defaults))
        return findings, None
    fd, path = tempfile.mkstemp(suffix=".pages", dir=setup.spool)
    # surrogateescape: a file name of bytes that are not UTF-8 is a surrogate-escaped str
    with open(fd, "w", encoding="utf-8", errors="surrogateescape", newline="") as out:
        writer = Writer(out, setup.output_format, header=False)
        for page in pages:
            record = audit_page(page, setup.browser, defaults)
            writer.page(record)
            findings.add(record)
    return findings, path


Task = tuple[int, list[Unit]]  # a task's place in input order, and its inputs
_setup: list[Setup] = []  # the worker's, set by the pool's initializer


def _start_worker(setup: Setup) -> None:
    _setup[:] = [setup]


def _run_task(task: Task) -> Done:
    number, units = task
    _mark_started(_setup[0], number)
    started = time.perf_counter()
    findings, pages_file = audit_units(units, _setup[0])
    busy = time.perf_counter() - started
    return Done(number, findings, len(units), pages_file, os.getpid(), busy, time.process_time())


def _started_path(setup: Setup, number: int) -> str:
    return os.path.join(setup.spool or tempfile.gettempdir(), f"started-{number}")


def _mark_started(setup: Setup, number: int) -> None:
    """Leave a trace that a worker took task ``number``: if the pool breaks, the tasks that
    had started are the ones a dying worker may have been on."""
    with open(_started_path(setup, number), "wb"):
        pass


def pool_context() -> BaseContext:
    """fork on Linux when safe (no other thread to copy in a locked state), else spawn (macOS
    system libraries do not survive a fork)."""
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


# How many times bigger a gzip'd WARC's pages are than the file (HTML inflates 4-6 times): only
# to rank a .warc.gz against a plain .warc.
GZIP_RATIO = 5
BATCH_MOST = 32  # inputs in one task
GUIDE = 2  # a batch takes at most 1/(GUIDE * jobs) of the small inputs' bytes left


def input_size(unit: Unit) -> float:
    """How much there is to audit in an input, to hand out the biggest first (a remote or
    unreadable WARC counts as big: its size is not known before reading it)."""
    path = os.path.join(unit.path, "response_body") if unit.kind == UNIT_CACHE else unit.path
    try:
        size = os.path.getsize(path)
    except (OSError, ValueError):
        return float("inf") if unit.kind == UNIT_WARC else 0.0
    return size * GZIP_RATIO if unit.kind == UNIT_WARC and path.endswith(".gz") else size


def plan_tasks(
    units: Sequence[Unit], jobs: int, sizes: Sequence[float] | None = None
) -> list[range]:
    """The tasks, in input order, as ranges of consecutive unit indexes: each WARC alone, the
    small inputs between them in batches of at most BATCH_MOST that shrink with the small
    inputs' bytes left (guided self-scheduling), down to single inputs at the end. ``sizes``:
    the units' :func:`input_size`, when known."""
    sizes = sizes if sizes is not None else [input_size(unit) for unit in units]
    left = sum(size for unit, size in zip(units, sizes, strict=True) if unit.kind != UNIT_WARC)
    tasks: list[range] = []
    start = 0
    while start < len(units):
        stop = start + 1
        if units[start].kind != UNIT_WARC:
            most = left / (GUIDE * jobs)
            taken = sizes[start]
            while (stop < len(units) and units[stop].kind != UNIT_WARC
                   and stop - start < BATCH_MOST and taken + sizes[stop] <= most):
                taken += sizes[stop]
                stop += 1
            left -= taken
        tasks.append(range(start, stop))
        start = stop
    return tasks


def biggest_first(
    units: Sequence[Unit], tasks: Sequence[range], sizes: Sequence[float] | None = None
) -> list[int]:
    """The order to hand tasks out in when the output need not flow in input order: every
    WARC (biggest first; however compressed, before any batch), then the batches, biggest
    first, so that the last tasks are the smallest."""
    sizes = sizes if sizes is not None else [input_size(unit) for unit in units]

    def rank(number: int) -> tuple[bool, float]:
        task = tasks[number]
        return units[task.start].kind != UNIT_WARC, -sum(sizes[i] for i in task)

    return sorted(range(len(tasks)), key=rank)


def preload(units: Sequence[Unit]) -> None:
    """Import in the parent what every worker needs (Scrapy's response types, warcio and the
    fsspec it imports: 0.1-0.2 s), so that forked workers share it instead of each importing
    it again."""
    import scrapy.responsetypes  # noqa: F401

    if any(unit.kind == UNIT_WARC for unit in units):
        try:
            import warcio.archiveiterator  # noqa: F401
        except ImportError:  # each WARC reports it
            pass


@dataclass
class RunStats:
    """How the last ``--jobs`` run went: the pool's wall clock, each worker's busy time (wall
    clock on tasks) and CPU time, and the parent's CPU time while the workers ran."""

    wall: float = 0.0
    parent_cpu: float = 0.0
    busy: dict[int, float] = field(default_factory=dict)
    cpu: dict[int, float] = field(default_factory=dict)


last_run: list[RunStats] = []  # the last run's, for benchmarks


def audit_in_processes(
    units: Sequence[Unit], options: ReadOptions, audit: Audit, jobs: int
) -> None:
    """Audit ``units`` in ``jobs`` worker processes into ``audit``: its findings, page records
    and progress, as a serial run over them would."""
    jobs = max(1, min(jobs, len(units)))
    sizes = [input_size(unit) for unit in units]
    tasks = plan_tasks(units, jobs, sizes)
    writes_pages = audit.writer.writes_pages
    order = list(range(len(tasks))) if writes_pages else biggest_first(units, tasks, sizes)
    with tempfile.TemporaryDirectory(prefix="scrapy-charset-audit-") as spool:
        setup = Setup(options, audit.browser, audit.findings.fresh(),
                      audit.writer.format if writes_pages else None, spool)
        context = pool_context()
        forked = context.get_start_method() == "fork"
        if forked:
            preload(units)
            gc.freeze()  # until the workers are done: no collection copies the shared pages
        stats = RunStats()
        started, parent_cpu = time.perf_counter(), time.process_time()
        try:
            work = [(number, [units[i] for i in tasks[number]]) for number in order]
            for done in merged_in_order(run_tasks(context, jobs, setup, work), audit):
                stats.busy[done.worker] = stats.busy.get(done.worker, 0.0) + done.busy
                stats.cpu[done.worker] = max(stats.cpu.get(done.worker, 0.0), done.cpu)
        finally:
            if forked:
                gc.unfreeze()
        stats.wall = time.perf_counter() - started
        stats.parent_cpu = time.process_time() - parent_cpu
        last_run[:] = [stats]


DIED = (
    "the worker process auditing it died (killed by a signal, such as the out-of-memory"
    " killer's, or crashed); the other inputs were audited"
)


def run_tasks(
    context: BaseContext, jobs: int, setup: Setup, work: Sequence[Task]
) -> Iterator[Done]:
    """Each task's outcome as it comes, from ``jobs`` worker processes, every task once.

    A worker that dies (the out-of-memory killer, a signal, a crash in a C library) breaks
    its pool: the tasks no worker had started go on in a new pool, and each task a worker had
    started is run again alone, so that the one that kills its worker is known; an input that
    kills its worker alone is reported as an error naming it, and the audit goes on."""
    queue = list(work)
    while queue:
        lost: list[Task] = []
        yield from _pool_round(context, jobs, setup, queue, lost)
        started = [task for task in lost if os.path.exists(_started_path(setup, task[0]))]
        if lost and not started:  # workers die before taking any task: no pool will do
            started = lost
        again = {number for number, _ in started}
        queue = [task for task in lost if task[0] not in again]
        for task in started:
            yield _alone(context, setup, task)


def _pool_round(
    context: BaseContext, jobs: int, setup: Setup, work: Sequence[Task], lost: list[Task]
) -> Iterator[Done]:
    """The outcomes of ``work`` in one pool, as they come; the tasks it could not finish
    because a worker died are put in ``lost``."""
    pool = ProcessPoolExecutor(jobs, context, _start_worker, (setup,))
    done = False
    try:
        pending = {}
        for number, task in enumerate(work):
            try:
                pending[pool.submit(_run_task, task)] = task
            except BrokenProcessPool:  # a worker died already: the rest goes on elsewhere
                lost.extend(work[number:])
                break
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                task = pending.pop(future)
                try:
                    yield future.result()
                except BrokenProcessPool:
                    lost.append(task)
        done = True
    finally:
        if not done:  # an error or an interrupt in the parent: the workers stop now
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)


def _alone(context: BaseContext, setup: Setup, task: Task) -> Done:
    """The outcome of ``task`` run again in a pool of its own; several inputs whose worker
    dies are each run alone in turn, an input that kills its worker alone is an error."""
    lost: list[Task] = []
    outcome = list(_pool_round(context, 1, setup, [task], lost))
    if outcome:
        return outcome[0]
    number, units = task
    if len(units) > 1:
        return _combined(setup, number, [_alone(context, setup, (number, [u])) for u in units])
    unit = units[0]
    page = failed(PAGE_KIND.get(unit.kind, KIND_FILE), unit.path, DIED, unit.url)
    findings, pages_file = audit_pages([page], setup)
    return Done(number, findings, 1, pages_file, os.getpid(), 0.0, time.process_time())


def _combined(setup: Setup, number: int, parts: Sequence[Done]) -> Done:
    """One task's outcome from the outcomes of its inputs run one at a time."""
    findings = setup.findings.fresh()
    pages_file: str | None = None
    for part in parts:
        findings.merge(part.findings)
        if part.pages_file is None:
            continue
        if pages_file is None:
            pages_file = part.pages_file
            continue
        with open(pages_file, "ab") as out, open(part.pages_file, "rb") as more:
            shutil.copyfileobj(more, out)
        os.unlink(part.pages_file)
    inputs = sum(part.inputs for part in parts)
    return Done(number, findings, inputs, pages_file, os.getpid(), 0.0, time.process_time())


def merged_in_order(results: Iterator[Done], audit: Audit) -> Iterator[Done]:
    """Each task's outcome as it comes (the progress advances), merged into ``audit`` in input
    order: findings, then page records appended to the output."""
    for done in in_input_order((d.number, d) for d in _counted(results, audit)):
        audit.findings.merge(done.findings)
        if done.pages_file is not None:
            with open(done.pages_file, encoding="utf-8", errors="surrogateescape",
                      newline="") as pages:
                audit.writer.append_pages(pages)
            os.unlink(done.pages_file)
        yield done


def _counted(results: Iterator[Done], audit: Audit) -> Iterator[Done]:
    for done in results:
        audit.progress.add_done(done.findings.records, done.findings.error_count, done.inputs)
        yield done


T = TypeVar("T")


def in_input_order(numbered: Iterable[tuple[int, T]]) -> Iterator[T]:
    """The items of ``(number, item)`` pairs that come in any order, in number order (0, 1,
    ...), each as soon as every one before it has come."""
    pending: dict[int, T] = {}
    following = 0
    for number, item in numbered:
        pending[number] = item
        while following in pending:
            yield pending.pop(following)
            following += 1
