"""``--jobs N``: read and audit the inputs in N worker processes on one machine.

Each worker gets whole inputs (a file, a WARC, a cache entry), reads and decodes them as the
serial audit does, and sends back the records (without page bodies); the parent process writes,
counts and reports them in input order. Memory per worker stays that of one page at a time
plus the records of the input in hand.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator, Sequence
from typing import Any

from .audit_compare import BrowserDecoder, Record, audit_page
from .audit_inputs import ReadOptions, Unit, read_unit

_worker: dict[str, Any] = {}


def _start_worker(options: ReadOptions, browser: BrowserDecoder, defaults: Sequence[str]) -> None:
    _worker.update(options=options, browser=browser, defaults=tuple(defaults))


def audit_unit(unit: Unit) -> list[Record]:
    """All records of one input, in the worker (also used by the Dask path)."""
    options: ReadOptions = _worker["options"]
    return [
        audit_page(page, _worker["browser"], _worker["defaults"])
        for page in read_unit(unit, options)
    ]


def audit_units_in_processes(
    units: Sequence[Unit],
    options: ReadOptions,
    browser: BrowserDecoder,
    defaults: Sequence[str],
    jobs: int,
) -> Iterator[list[Record]]:
    """The records of each unit, in order, computed by ``jobs`` worker processes."""
    jobs = max(1, min(jobs, len(units)))
    # Small inputs go in batches so that sending them costs little next to auditing them.
    chunk = max(1, min(32, len(units) // (jobs * 8)))
    context = multiprocessing.get_context("spawn")
    with context.Pool(jobs, _start_worker, (options, browser, tuple(defaults))) as pool:
        yield from pool.imap(audit_unit, units, chunksize=chunk)
