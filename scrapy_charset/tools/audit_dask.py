"""The audit on a Dask cluster (``pip install scrapy-charset[dask]``).

Each task audits one input (a WARC file, local or remote through fsspec, a file or a cache
entry) and returns its summary counts; the client merges them into the summary one local run
gives. Point it at any cluster with a scheduler address::

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

from .audit_compare import DEFAULTS, BrowserDecoder, audit_page
from .audit_decoding import MiddlewareDecoder
from .audit_inputs import (
    DEFAULT_MAX_SIZE,
    UNIT_WARC,
    LocalInputs,
    ReadOptions,
    Unit,
    is_remote,
    iter_units,
    read_unit,
)
from .audit_report import Summary


def audit_unit_summary(
    unit: Unit,
    options: ReadOptions,
    browser: BrowserDecoder,
    group_by: str,
    defaults: Sequence[str],
) -> dict[str, Any]:
    """One input's summary, as JSON-ready data (what a Dask task returns)."""
    summary = Summary(group_by, defaults)
    for page in read_unit(unit, options):
        summary.add(audit_page(page, browser, defaults))
    return summary.to_json()


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
    group_by: str = "tld",
    defaults: Sequence[str] = DEFAULTS,
) -> Summary:
    """Map the audit over ``units`` on a cluster (a ``Client``, a scheduler address or
    ``"local"``) and merge the summaries as they come."""
    from dask.distributed import as_completed

    client, own = _client(scheduler)
    try:
        futures = client.map(
            audit_unit_summary, list(units), options=options, browser=browser,
            group_by=group_by, defaults=tuple(defaults), pure=False,
        )
        summary = Summary(group_by, defaults)
        for _future, result in as_completed(futures, with_results=True):
            summary.merge(Summary.from_json(result))
        return summary
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
    return audit_units_with_dask(
        units, client, options, MiddlewareDecoder(settings), group_by, defaults
    )
