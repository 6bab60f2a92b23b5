"""``--jobs N``: read and audit the inputs in N worker processes on one machine.

Each worker gets whole inputs (a file, a WARC, a cache entry), reads and audits them a page at a
time as the serial audit does, and writes each record (without the page's body) to a spool
file as soon as it is made; the parent process reads the spool files back in input order, one
record at a time, and writes, counts and reports them. Memory stays that of one page per worker
and one record in the parent, however big a WARC is; the spool files are deleted as they are
read.

WARCs go first and alone (each a task of its own, biggest first), small inputs (files, cache
entries) in batches after them, so that no big input is left to one worker at the end while
the other waits; the parent keeps only the paths of spool files that are done early.

Workers are forked on Linux when the parent runs no other thread: they
start at once with the modules and the decoder the parent has. Otherwise they are spawned.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from multiprocessing.context import BaseContext
from typing import Any

from .audit_compare import BrowserDecoder, Record, audit_page
from .audit_inputs import UNIT_CACHE, UNIT_WARC, ReadOptions, Unit, read_unit

_worker: dict[str, Any] = {}


def _start_worker(
    options: ReadOptions, browser: BrowserDecoder, defaults: Sequence[str], spool: str
) -> None:
    _worker.update(options=options, browser=browser, defaults=tuple(defaults), spool=spool)


def iter_records(unit: Unit) -> Iterator[Record]:
    """The records of one input, one page at a time, in the worker."""
    for page in read_unit(unit, _worker["options"]):
        yield audit_page(page, _worker["browser"], _worker["defaults"])


def spool_unit(unit: Unit) -> str:
    """Audit one input into a new spool file (one pickle per record); its path."""
    fd, path = tempfile.mkstemp(suffix=".records", dir=_worker["spool"])
    with os.fdopen(fd, "wb") as out:
        for record in iter_records(unit):
            pickle.dump(record, out, pickle.HIGHEST_PROTOCOL)
    return path


def read_spool(path: str) -> Iterator[Record]:
    """The records of a spool file, one at a time; the file is deleted once read."""
    try:
        with open(path, "rb") as spooled:
            while True:
                try:
                    yield pickle.load(spooled)
                except EOFError:
                    return
    finally:
        os.unlink(path)


def pool_context() -> BaseContext:
    """fork on Linux when safe (no other thread to copy in a locked state), else spawn (macOS
    system libraries do not survive a fork)."""
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


# How many times bigger a gzip'd WARC's pages are than the file (HTML inflates 4-6 times): only
# to rank a .warc.gz against a plain .warc.
GZIP_RATIO = 5


def input_size(unit: Unit) -> float:
    """How much there is to audit in an input, to hand out the biggest first (a remote or
    unreadable WARC counts as big: its size is not known before reading it)."""
    path = os.path.join(unit.path, "response_body") if unit.kind == UNIT_CACHE else unit.path
    try:
        size = os.path.getsize(path)
    except (OSError, ValueError):
        return float("inf") if unit.kind == UNIT_WARC else 0.0
    return size * GZIP_RATIO if unit.kind == UNIT_WARC and path.endswith(".gz") else size


def plan_tasks(units: Sequence[Unit], jobs: int) -> list[list[int]]:
    """The workers' tasks as lists of unit indexes: each WARC alone, biggest first, then the
    small inputs (files, cache entries) in input order in batches, biggest batch first, so that
    sending them costs little next to auditing them and the last tasks are small ones that
    even out the workers' ends. (However compressed, a WARC goes before any batch.)"""
    small = [i for i, unit in enumerate(units) if unit.kind != UNIT_WARC]
    batch = max(1, min(32, len(small) // (jobs * 8)))
    sizes = [input_size(unit) for unit in units]
    warcs = sorted(
        ([i] for i, unit in enumerate(units) if unit.kind == UNIT_WARC), key=lambda t: -sizes[t[0]]
    )
    batches = [small[start:start + batch] for start in range(0, len(small), batch)]
    return warcs + sorted(batches, key=lambda task: -sum(sizes[i] for i in task))


def spool_task(task: tuple[int, list[Unit]]) -> tuple[int, list[str]]:
    number, units = task
    return number, [spool_unit(unit) for unit in units]


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


def audit_units_in_processes(
    units: Sequence[Unit],
    options: ReadOptions,
    browser: BrowserDecoder,
    defaults: Sequence[str],
    jobs: int,
) -> Iterator[Iterator[Record]]:
    """For each unit, in order, an iterator over its records, computed by ``jobs`` worker
    processes. Read each before asking for the next."""
    jobs = max(1, min(jobs, len(units)))
    tasks = plan_tasks(units, jobs)
    spooled: dict[int, str] = {}  # unit index -> its spool file, for units done ahead of order
    with tempfile.TemporaryDirectory(prefix="scrapy-charset-audit-") as spool:
        initargs = (options, browser, tuple(defaults), spool)
        context = pool_context()
        if context.get_start_method() == "fork":
            preload(units)
        with context.Pool(jobs, _start_worker, initargs) as pool:
            done = pool.imap_unordered(
                spool_task, [(n, [units[i] for i in task]) for n, task in enumerate(tasks)]
            )
            for index in range(len(units)):
                while index not in spooled:
                    number, paths = next(done)
                    spooled.update(zip(tasks[number], paths, strict=True))
                yield read_spool(spooled.pop(index))
