"""Where the audit's pages come from: local files, Scrapy HTTP cache folders and WARC files.

Every reader yields :class:`Page` objects and never raises for bad input: a file it cannot
read, a cache entry without metadata or a cut-off WARC record becomes a page with ``error``
set, so the audit counts and reports it. (Crawling URLs lives in ``audit_crawl``.)
"""

from __future__ import annotations

import ast
import csv
import fnmatch
import gzip
import io
import os
import pickle
import stat
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

KIND_URL = "url"
KIND_FILE = "file"
KIND_HTTPCACHE = "httpcache"
KIND_WARC = "warc"

WARC_SUFFIXES = (".warc", ".warc.gz", ".arc", ".arc.gz")
# Files Scrapy's FilesystemCacheStorage writes into each entry's folder.
CACHE_ENTRY_FILES = frozenset({"meta", "pickled_meta", "response_headers", "response_body"})


@dataclass
class Page:
    """One raw response to audit: the body as received and its Content-Type header values."""

    kind: str
    origin: str  # where it was read from: URL, file path, cache entry folder, "file.warc#offset"
    body: bytes = b""
    content_types: tuple[str, ...] = ()  # every Content-Type header value, latin-1 decoded
    url: str | None = None
    status: int | None = None
    error: str | None = None
    skipped: str | None = None  # why a stored response is not an HTML page to audit


def failed(kind: str, origin: str, error: str, url: str | None = None) -> Page:
    return Page(kind=kind, origin=origin, url=url, error=error)


HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})


def skip_reason(status: int | None, content_types: Sequence[str]) -> str | None:
    """Why a stored response is not a page to audit: not a 2xx status, or not HTML.

    Archives and caches also hold redirects, errors, robots.txt, images and scripts; those are
    counted as skipped. A response without Content-Type is kept (browsers sniff it).
    """
    if status is not None and not 200 <= status < 300:
        return f"HTTP status {status}"
    if content_types:
        # Fetch's "extract a MIME type" takes the last value that parses; the essence suffices.
        essence = content_types[-1].split(";", 1)[0].strip().lower()
        if essence and essence not in HTML_TYPES:
            return f"not HTML: {essence}"
    return None


def describe_error(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


# -- Content-Encoding ------------------------------------------------------------------


def _decompress_deflate(data: bytes) -> bytes:
    # "deflate" is zlib-wrapped per RFC 9110, but servers also send raw deflate.
    try:
        return zlib.decompress(data)
    except zlib.error:
        return zlib.decompress(data, -zlib.MAX_WBITS)


def _decompress_brotli(data: bytes) -> bytes:
    try:
        import brotli  # type: ignore[import-not-found]
    except ImportError:
        try:
            import brotlicffi as brotli  # type: ignore[import-not-found,no-redef]
        except ImportError as exc:
            raise ValueError("Content-Encoding br needs the brotli package") from exc
    return bytes(brotli.decompress(data))


def _decompress_zstd(data: bytes) -> bytes:
    for module_name in ("compression.zstd", "backports.zstd", "zstandard"):
        try:
            module: Any = __import__(module_name, fromlist=["decompress"])
        except ImportError:
            continue
        return bytes(module.decompress(data))
    raise ValueError("Content-Encoding zstd needs a zstd package")


_DECOMPRESSORS = {
    "gzip": gzip.decompress,
    "x-gzip": gzip.decompress,
    "deflate": _decompress_deflate,
    "br": _decompress_brotli,
    "zstd": _decompress_zstd,
}


def decode_content_encoding(body: bytes, content_encodings: Sequence[str]) -> bytes:
    """Undo Content-Encoding as an HTTP client does (codings applied in order, undone in reverse).

    Raises ValueError for an unknown coding or a corrupt body.
    """
    codings = [
        c.strip().lower() for value in content_encodings for c in value.split(",") if c.strip()
    ]
    for coding in reversed(codings):
        if coding == "identity":
            continue
        decompress = _DECOMPRESSORS.get(coding)
        if decompress is None:
            raise ValueError(f"unsupported Content-Encoding {coding!r}")
        try:
            body = decompress(body)
        except (OSError, EOFError, zlib.error) as exc:
            raise ValueError(f"corrupt {coding} body: {describe_error(exc)}") from exc
    return body


# -- raw HTTP headers --------------------------------------------------------------------


def parse_raw_headers(raw: bytes) -> list[tuple[str, str]]:
    """``Name: value`` lines (as Scrapy's cache stores them) to (lower-case name, value) pairs."""
    headers: list[tuple[str, str]] = []
    for line in raw.splitlines():
        name, sep, value = line.partition(b":")
        if not sep or not name.strip():
            continue
        headers.append((name.strip().decode("latin-1").lower(), value.strip().decode("latin-1")))
    return headers


def header_values(headers: Iterable[tuple[str, str]], name: str) -> tuple[str, ...]:
    return tuple(value for key, value in headers if key == name)


# -- local files ---------------------------------------------------------------------------


@dataclass(frozen=True)
class FileInfo:
    """What a sidecar says about one file: its Content-Type (``None``: no header) and URL."""

    content_type: str | None
    url: str | None = None


def read_sidecar(path: Path) -> dict[Path, FileInfo]:
    """Read a TSV of ``path<TAB>content_type[<TAB>url]`` rows (an optional header row names
    the columns ``path``, ``content_type``, ``url``). Paths are relative to the TSV's folder;
    an empty content type means the page had no Content-Type header. Raises OSError/ValueError.
    """
    text = path.read_text("utf-8")
    rows = [row for row in csv.reader(io.StringIO(text), delimiter="\t") if any(row)]
    columns = ["path", "content_type", "url"]
    if rows and rows[0] and rows[0][0].strip().lower() == "path":
        columns = [c.strip().lower().replace("-", "_") for c in rows[0]]
        rows = rows[1:]
    if "path" not in columns:
        raise ValueError(f"{path}: sidecar has no 'path' column")
    base = path.parent
    entries: dict[Path, FileInfo] = {}
    for row in rows:
        cells = dict(zip(columns, (cell.strip() for cell in row), strict=False))
        if not cells.get("path"):
            continue
        entries[(base / cells["path"]).resolve()] = FileInfo(
            content_type=cells.get("content_type") or None, url=cells.get("url") or None
        )
    return entries


def read_file_page(path: Path, info: FileInfo | None, default_content_type: str | None) -> Page:
    origin = str(path)
    content_type = info.content_type if info is not None else default_content_type
    url = info.url if info is not None else None
    try:
        # A FIFO or device would block or never end: only regular files are read.
        if not stat.S_ISREG(path.stat().st_mode):
            return failed(KIND_FILE, origin, "cannot read file: not a regular file", url)
        body = path.read_bytes()
    except OSError as exc:
        return failed(KIND_FILE, origin, f"cannot read file: {describe_error(exc)}", url)
    return Page(
        kind=KIND_FILE,
        origin=origin,
        body=body,
        content_types=(content_type,) if content_type else (),
        url=url,
    )


# -- Scrapy HTTP cache (FilesystemCacheStorage) ------------------------------------------------


def _read_optional(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


class _PlainDataUnpickler(pickle.Unpickler):
    """Unpickle only plain data (dicts, strings, numbers): never import or call anything."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"refusing to load {module}.{name} from a cache entry")


def _parse_pickled_meta(data: bytes) -> Any:
    return _PlainDataUnpickler(io.BytesIO(data)).load()


def _parse_meta(data: bytes) -> Any:
    return ast.literal_eval(data.decode("utf-8"))


def parse_cache_meta(
    pickled: bytes | None, literal: bytes | None, gzipped: bool = False
) -> dict[str, Any]:
    """The entry's metadata from ``pickled_meta`` (what Scrapy reads) or else ``meta`` (its
    ``repr``). Raises ValueError when neither is present and usable."""
    problems: list[str] = []
    for name, data, parse in (
        ("pickled_meta", pickled, _parse_pickled_meta),
        ("meta", literal, _parse_meta),
    ):
        if data is None:
            continue
        try:
            value = parse(gzip.decompress(data) if gzipped else data)
        except Exception as exc:  # noqa: BLE001 - any damage is reported with the entry
            problems.append(f"unreadable {name} ({describe_error(exc)})")
            continue
        if isinstance(value, dict):
            return value
        problems.append(f"{name} is not a dict")
    if not problems:
        raise ValueError("cache entry without metadata (no meta or pickled_meta file)")
    raise ValueError("; ".join(problems))


def read_cache_entry(entry: Path, skip_non_html: bool = True) -> Page:
    origin = str(entry)
    url: str | None = None
    try:
        raw_headers = _read_optional(entry / "response_headers")
        pickled = _read_optional(entry / "pickled_meta")
        literal = _read_optional(entry / "meta")
        # HTTPCACHE_GZIP=True gzips every file of an entry. Tell by the header and metadata
        # files, which never start with the gzip magic otherwise (a body can: Content-Encoding).
        first = next((d for d in (raw_headers, literal, pickled) if d is not None), b"")
        gzipped = first[:2] == b"\x1f\x8b"
        meta = parse_cache_meta(pickled, literal, gzipped)
        url = str(meta.get("response_url") or meta.get("url") or "") or None
        status = meta.get("status")
        if raw_headers is None:
            raise ValueError("cache entry without response_headers")
        body = (entry / "response_body").read_bytes()
        if gzipped:
            raw_headers, body = gzip.decompress(raw_headers), gzip.decompress(body)
        headers = parse_raw_headers(raw_headers)
        body = decode_content_encoding(body, header_values(headers, "content-encoding"))
    except (OSError, ValueError, EOFError) as exc:
        return failed(KIND_HTTPCACHE, origin, f"bad cache entry: {describe_error(exc)}", url)
    content_types = header_values(headers, "content-type")
    code = int(status) if isinstance(status, int) else None
    return Page(
        kind=KIND_HTTPCACHE,
        origin=origin,
        body=body,
        content_types=content_types,
        url=url,
        status=code,
        skipped=skip_reason(code, content_types) if skip_non_html else None,
    )


def is_cache_entry(names: Iterable[str]) -> bool:
    return not CACHE_ENTRY_FILES.isdisjoint(names)


# -- WARC -------------------------------------------------------------------------------------


def read_warc(path: Path, skip_non_html: bool = True) -> Iterator[Page]:
    """Every HTTP ``response`` record of a WARC (or ARC) file, gzip'd or plain.

    A record cut short or a file that stops parsing yields one error page and ends the file.
    """
    origin = str(path)
    try:
        from warcio.archiveiterator import ArchiveIterator
        from warcio.bufferedreaders import BufferedReader
    except ImportError:
        yield failed(
            KIND_WARC, origin, "reading WARC files needs warcio: pip install scrapy-charset[warc]"
        )
        return
    supported = set(BufferedReader.get_supported_decompressors())
    try:
        stream = path.open("rb")
    except OSError as exc:
        yield failed(KIND_WARC, origin, f"cannot read file: {describe_error(exc)}")
        return
    with stream:
        number = end = 0
        try:
            records = ArchiveIterator(stream, arc2warc=True)
            for record in records:
                number += 1
                page = None
                declared = record.rec_headers.get_header("Content-Length")
                if declared is None or not declared.strip().isdigit():
                    # Every WARC record has one; warcio reads a record cut inside its
                    # headers as a short record without it.
                    yield failed(
                        KIND_WARC,
                        f"{origin}#{number}",
                        "truncated or not a WARC record: no Content-Length in its headers",
                        record.rec_headers.get_header("WARC-Target-URI"),
                    )
                    return
                if record.rec_type == "response" and record.http_headers is not None:
                    page = _warc_response_page(
                        record, f"{origin}#{number}", supported, skip_non_html
                    )
                    if page.error is not None and page.error.startswith("truncated"):
                        yield page
                        return
                missing = _missing_bytes(record)
                if missing:
                    yield failed(
                        KIND_WARC,
                        f"{origin}#{number}",
                        f"truncated record: {missing} bytes missing",
                        record.rec_headers.get_header("WARC-Target-URI"),
                    )
                    return
                # Read after the content: asking earlier would skip the record's content.
                end = records.get_record_offset() + records.get_record_length()
                if page is not None:
                    yield page
            tail = _unparsed_tail(stream, end)
        except Exception as exc:  # noqa: BLE001 - any parse failure is reported, never raised
            yield failed(
                KIND_WARC,
                f"{origin}#{number}",
                f"unreadable WARC at record {number}: {describe_error(exc)}",
            )
            return
    if tail:
        # warcio stops quietly at a record cut short in its headers or gzip member.
        yield failed(
            KIND_WARC,
            f"{origin}#{number + 1}",
            f"truncated record after record {number}: {tail} bytes could not be parsed",
        )


def _missing_bytes(record: Any) -> int:
    """Bytes of the record's block (its WARC Content-Length) the file does not hold."""
    stream = record.raw_stream
    while stream.read(65536):
        pass
    return int(getattr(stream, "limit", 0) or 0)


def _unparsed_tail(stream: Any, end: int) -> int:
    """Bytes after the last complete record other than the blank lines that close it."""
    stream.seek(end)
    rest = stream.read()
    return len(rest.strip(b"\r\n"))


def _warc_response_page(
    record: Any, origin: str, supported: set[str], skip_non_html: bool
) -> Page:
    url = record.rec_headers.get_header("WARC-Target-URI")
    http = record.http_headers
    status_text = http.get_statuscode()
    status = int(status_text) if status_text and status_text.isdigit() else None
    codings = [v for k, v in http.headers if k.lower() == "content-encoding"]
    unsupported = [
        c.strip().lower()
        for value in codings
        for c in value.split(",")
        if c.strip() and c.strip().lower() not in supported and c.strip().lower() != "identity"
    ]
    if unsupported:
        return failed(KIND_WARC, origin, f"unsupported Content-Encoding {unsupported[0]!r}", url)
    try:
        body = record.content_stream().read()
    except Exception as exc:  # noqa: BLE001 - corrupt compressed or chunked bodies
        return failed(KIND_WARC, origin, f"truncated or corrupt record: {describe_error(exc)}", url)
    left = _missing_bytes(record)
    if left:
        return failed(KIND_WARC, origin, f"truncated record: {left} bytes missing", url)
    content_types = tuple(v for k, v in http.headers if k.lower() == "content-type")
    return Page(
        kind=KIND_WARC,
        origin=origin,
        body=body,
        content_types=content_types,
        url=url,
        status=status,
        skipped=skip_reason(status, content_types) if skip_non_html else None,
    )


# -- walking the inputs -------------------------------------------------------------------------


def is_warc_path(path: Path) -> bool:
    return path.name.lower().endswith(WARC_SUFFIXES)


@dataclass
class LocalInputs:
    """Local paths to audit and how to read them."""

    paths: list[Path] = field(default_factory=list)
    sidecar: Path | None = None
    content_type: str | None = None
    glob: str | None = None  # only files whose name matches (cache entries and WARCs excepted)
    all_types: bool = False  # also audit stored non-HTML and non-2xx responses


def iter_local_pages(inputs: LocalInputs) -> Iterator[Page]:
    """Pages from files, folders (walked; cache entries and WARC files recognised), WARC files
    and the files a sidecar lists, each file once."""
    sidecar: dict[Path, FileInfo] = {}
    skip: set[Path] = set()
    if inputs.sidecar is not None:
        skip.add(inputs.sidecar.resolve())
        try:
            sidecar = read_sidecar(inputs.sidecar)
        except (OSError, ValueError, UnicodeDecodeError) as exc:
            yield failed(KIND_FILE, str(inputs.sidecar), f"bad sidecar: {describe_error(exc)}")
    seen: set[Path] = set()
    for path in inputs.paths:
        yield from _iter_path(path, inputs, sidecar, seen | skip, seen)
    for listed, info in sidecar.items():
        if listed not in seen:
            seen.add(listed)
            yield read_file_page(listed, info, inputs.content_type)


def _iter_path(
    path: Path, inputs: LocalInputs, sidecar: dict[Path, FileInfo], skip: set[Path], seen: set[Path]
) -> Iterator[Page]:
    if path.is_dir():
        yield from _walk(path, inputs, sidecar, skip, seen)
    elif is_warc_path(path):
        yield from read_warc(path, not inputs.all_types)
    elif path.name in CACHE_ENTRY_FILES and path.parent.is_dir():
        yield read_cache_entry(path.parent, not inputs.all_types)
    else:
        resolved = path.resolve()
        seen.add(resolved)
        yield read_file_page(path, sidecar.get(resolved), inputs.content_type)


def _walk(
    root: Path, inputs: LocalInputs, sidecar: dict[Path, FileInfo], skip: set[Path], seen: set[Path]
) -> Iterator[Page]:
    def on_error(exc: OSError) -> None:
        errors.append(exc)

    errors: list[OSError] = []
    for folder, dirs, files in os.walk(root, onerror=on_error):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        while errors:
            exc = errors.pop(0)
            yield failed(KIND_FILE, str(exc.filename or folder), f"cannot read folder: {exc}")
        here = Path(folder)
        if is_cache_entry(files):
            dirs[:] = []  # an entry's folder holds nothing else to audit
            yield read_cache_entry(here, not inputs.all_types)
            continue
        for name in sorted(files):
            if name.startswith("."):
                continue
            path = here / name
            if is_warc_path(path):
                yield from read_warc(path, not inputs.all_types)
                continue
            resolved = path.resolve()
            if resolved in skip or resolved in seen:
                continue
            if inputs.glob and not fnmatch.fnmatch(name, inputs.glob):
                continue
            seen.add(resolved)
            yield read_file_page(path, sidecar.get(resolved), inputs.content_type)
    while errors:
        exc = errors.pop(0)
        yield failed(KIND_FILE, str(exc.filename or root), f"cannot read folder: {exc}")
