"""The audit on a Dask cluster (``pip install scrapy-charset[dask]``).

Each task audits one input (a WARC file, local or remote through fsspec) or a batch of
consecutive small ones (files, cache entries) and returns its summary counts with the few
examples the report shows; the client merges them, in input order, into the summary one local
run gives. Point it at any cluster with a scheduler address::

    from dask.distributed import Client
    from scrapy_charset.tools.audit_dask import audit_paths

    client = Client("tcp://scheduler:8786")
    summary = audit_paths(client, ["s3://bucket/crawl/part-00000.warc.gz", ...])
    print(render_table(summary))

or from the command line: ``python -m scrapy_charset audit --dask tcp://scheduler:8786
s3://bucket/crawl/*.warc.gz``. Remote paths need the fsspec backend of their scheme (``s3fs``,
``gcsfs``, ...) on the workers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .audit_compare import DEFAULTS, BrowserDecoder
from .audit_decoding import MiddlewareDecoder
from .audit_inputs import (
    DEFAULT_MAX_SIZE,
    UNIT_WARC,
    LocalInputs,
    ReadOptions,
    Unit,
    is_remote,
    iter_units,
)
from .audit_parallel import Setup, audit_units, in_input_order, plan_tasks
from .audit_report import ANY, Findings, Summary


def _client(scheduler: Any) -> Any:
    from dask.distributed import Client

    if not isinstance(scheduler, str):
        return scheduler, False
    if scheduler == "local":
        return Client(processes=False, dashboard_address=None), True
    return Client(scheduler), True


def audit_units_with_dask(
    units: Sequence[Unit],
    scheduler: Any,
    options: ReadOptions,
    browser: BrowserDecoder,
    findings: Findings,
) -> Findings:
    """Map the audit over ``units`` on a cluster (a ``Client``, a scheduler address or
    ``"local"``), in tasks of consecutive inputs (each WARC alone, small inputs in batches),
    and merge the findings of the tasks, in input order, into a copy of the empty ``findings``:
    what one local run gives."""
    from dask.distributed import as_completed

    client, own = _client(scheduler)
    try:
        workers = sum(client.nthreads().values()) or 1
        tasks = plan_tasks(units, workers)
        setup = Setup(options, browser, findings.fresh())
        futures = client.map(
            audit_units, [[units[i] for i in task] for task in tasks], setup=setup, pure=False
        )
        number = {future.key: n for n, future in enumerate(futures)}
        merged = findings.fresh()
        done = as_completed(futures, with_results=True)
        for part, _pages in in_input_order((number[f.key], result) for f, result in done):
            merged.merge(part)
        return merged
    finally:
        if own:
            client.close()


def audit_paths(
    client: Any,
    paths: Iterable[str | Path],
    *,
    settings: Mapping[str, Any] | None = None,
    group_by: str = "tld",
    defaults: Sequence[str] = DEFAULTS,
    all_types: bool = False,
    max_size: int = DEFAULT_MAX_SIZE,
) -> Summary:
    """Audit WARC files (local paths or fsspec URLs), files and folders on a Dask cluster.

    ``settings`` are the ``CHARSET_*`` settings the middleware would crawl with.
    """
    local = LocalInputs(all_types=all_types, max_size=max_size)
    remote: list[Unit] = []
    for path in paths:
        if is_remote(str(path)):
            remote.append(Unit(UNIT_WARC, str(path)))
        else:
            local.paths.append(Path(path))
    units = [*remote, *iter_units(local)] if local.paths else remote
    options = ReadOptions(all_types, max_size)
    empty = Findings(Summary(group_by, defaults), ANY, 0)
    findings = audit_units_with_dask(units, client, options, MiddlewareDecoder(settings), empty)
    return findings.summary
