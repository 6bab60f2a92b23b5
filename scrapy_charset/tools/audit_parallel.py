"""``--jobs N``: read and audit the inputs in N worker processes on one machine.

Each worker gets whole inputs (a file, a WARC, a cache entry), reads and audits them a page at a
time as the serial audit does, and writes each record (without the page's body) to a spool
file as soon as it is made; the parent process reads the spool files back in input order, one
record at a time, and writes, counts and reports them. Memory stays that of one page per worker
and one record in the parent, however big a WARC is; the spool files are deleted as they are
read.

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
from .audit_inputs import ReadOptions, Unit, read_unit

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
    # Small inputs go in batches so that sending them costs little next to auditing them.
    chunk = max(1, min(32, len(units) // (jobs * 8)))
    with tempfile.TemporaryDirectory(prefix="scrapy-charset-audit-") as spool:
        initargs = (options, browser, tuple(defaults), spool)
        with pool_context().Pool(jobs, _start_worker, initargs) as pool:
            for path in pool.imap(spool_unit, units, chunksize=chunk):
                yield read_spool(path)
