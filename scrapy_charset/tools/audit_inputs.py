"""Where the audit's pages come from: local files, Scrapy HTTP cache folders and WARC files.

Every reader yields :class:`Page` objects and never raises for bad input: a file it cannot
read, a cache entry without metadata or a cut-off WARC record becomes a page with ``error``
set, so the audit counts and reports it. (Crawling URLs lives in ``audit_crawl``.)
"""

from __future__ import annotations

import ast
import csv
import fcntl
import fnmatch
import functools
import gzip
import io
import logging
import os
import pickle
import stat
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

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
    return Page(kind=kind, origin=origin, url=url, error=clean_message(error))


# Scrapy's DOWNLOAD_MAXSIZE default: a crawl cancels a response whose body is bigger.
DEFAULT_MAX_SIZE = 1024 * 1024 * 1024
MESSAGE_LIMIT = 200  # characters of an error message kept in the report


def clean_message(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """An error message fit for a one-line report: controls and other unprintable characters
    escaped (as in a Python literal), cut to ``limit`` characters."""
    escaped = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[: limit * 4])
    if len(escaped) > limit:
        return escaped[: limit - 1] + "\u2026"
    return escaped


class TooLarge(ValueError):
    """A body bigger than the size limit (like Scrapy's DOWNLOAD_MAXSIZE)."""

    def __init__(self, limit: int, what: str = "body") -> None:
        super().__init__(f"{what} over the size limit of {limit} bytes (DOWNLOAD_MAXSIZE)")


class NotRegularFile(OSError):
    """A FIFO, device or socket where a file's content was expected: never read from."""


def open_regular(path: Path | str) -> IO[bytes]:
    """Open a regular file for reading without ever blocking on a FIFO or device.

    ``O_NONBLOCK`` makes opening a FIFO return at once; anything but a regular file is then
    refused before a byte is read. Raises OSError (a symlink loop too: ELOOP).
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(f"not a regular file ({_file_type(mode)})")
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        fcntl.fcntl(fd, fcntl.F_SETFL, flags & ~os.O_NONBLOCK)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _file_type(mode: int) -> str:
    for test, name in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISDIR, "a folder"),
    ):
        if test(mode):
            return name
    return "not a file"


def read_regular(path: Path | str, limit: int = 0) -> bytes:
    """The bytes of a regular file, at most ``limit`` of them (0: no limit).

    Raises OSError (also :class:`NotRegularFile`) or :class:`TooLarge`.
    """
    with open_regular(path) as stream:
        if not limit:
            return stream.read()
        if os.fstat(stream.fileno()).st_size > limit:
            raise TooLarge(limit)
        # Read in pieces: read(limit + 1) would set aside the whole limit at once.
        data = bytearray()
        while piece := stream.read(CHUNK * 16):
            data += piece
            if len(data) > limit:
                raise TooLarge(limit)
    return bytes(data)


def safe_resolve(path: Path) -> Path:
    """``path.resolve()``, raising OSError (never RuntimeError) on a symlink loop."""
    try:
        return path.resolve()
    except RuntimeError as exc:  # Python < 3.13 reports a symlink loop so
        raise OSError(f"symlink loop: {exc}") from exc


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
    if isinstance(exc, (NotRegularFile, TooLarge)):
        return text
    if isinstance(exc, OSError) and exc.strerror and exc.filename is not None:
        # The origin already says where: name only the file, so the reason is not cut off.
        text = f"{exc.strerror}: {os.path.basename(os.fsdecode(exc.filename))}"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


# -- Content-Encoding ------------------------------------------------------------------


CHUNK = 64 * 1024


def _inflate(data: bytes, wbits: int, limit: int, members: bool = False) -> bytes:
    """zlib/gzip/raw deflate, stopping past ``limit`` output bytes (0: no limit)."""
    out = bytearray()
    while True:
        inflater = zlib.decompressobj(wbits)
        rest = data
        while rest:
            room = limit + 1 - len(out) if limit else 0
            out += inflater.decompress(rest, room if limit else 0)
            if limit and len(out) > limit:
                raise TooLarge(limit)
            rest = inflater.unconsumed_tail
            if inflater.eof:
                break
        if not inflater.eof:
            raise ValueError("compressed data ended early")
        data = inflater.unused_data
        if not members or not data.strip(b"\0"):
            return bytes(out)


def _decompress_gzip(data: bytes, limit: int) -> bytes:
    return _inflate(data, 16 + zlib.MAX_WBITS, limit, members=True)


def _decompress_deflate(data: bytes, limit: int) -> bytes:
    # "deflate" is zlib-wrapped per RFC 9110, but servers also send raw deflate.
    try:
        return _inflate(data, zlib.MAX_WBITS, limit)
    except zlib.error:
        return _inflate(data, -zlib.MAX_WBITS, limit)


def _decompress_brotli(data: bytes, limit: int) -> bytes:
    try:
        import brotli  # type: ignore[import-not-found]
    except ImportError:
        try:
            import brotlicffi as brotli  # type: ignore[import-not-found,no-redef]
        except ImportError as exc:
            raise ValueError("Content-Encoding br needs the brotli package") from exc
    decompressor = brotli.Decompressor()
    out = bytearray()
    # Fed in small pieces so that the output is checked against the limit as it grows.
    for start in range(0, len(data), 1024):
        out += decompressor.process(data[start : start + 1024])
        if limit and len(out) > limit:
            raise TooLarge(limit)
    return bytes(out)


def _decompress_zstd(data: bytes, limit: int) -> bytes:
    for module_name in ("compression.zstd", "backports.zstd", "zstandard"):
        try:
            module: Any = __import__(module_name, fromlist=["ZstdDecompressor"])
        except ImportError:
            continue
        if hasattr(module, "ZstdDecompressor") and hasattr(module, "ZstdFile"):
            return _zstd_frames(module, data, limit)  # the standard library's API (PEP 784)
        reader = module.ZstdDecompressor().stream_reader(io.BytesIO(data), read_across_frames=True)
        out = reader.read(limit + 1) if limit else reader.readall()
        if limit and len(out) > limit:
            raise TooLarge(limit)
        return bytes(out)
    raise ValueError("Content-Encoding zstd needs a zstd package")


def _zstd_frames(module: Any, data: bytes, limit: int) -> bytes:
    out = bytearray()
    while data.strip(b"\0"):
        decompressor = module.ZstdDecompressor()
        out += decompressor.decompress(data, max_length=limit + 1 - len(out) if limit else -1)
        while not decompressor.eof and not decompressor.needs_input:
            if limit and len(out) > limit:
                break
            out += decompressor.decompress(b"", max_length=limit + 1 - len(out) if limit else -1)
        if limit and len(out) > limit:
            raise TooLarge(limit)
        if not decompressor.eof:
            raise ValueError("compressed data ended early")
        data = decompressor.unused_data
    return bytes(out)


_DECOMPRESSORS: dict[str, Callable[[bytes, int], bytes]] = {
    "gzip": _decompress_gzip,
    "x-gzip": _decompress_gzip,
    "deflate": _decompress_deflate,
    "br": _decompress_brotli,
    "zstd": _decompress_zstd,
}


def decode_content_encoding(
    body: bytes, content_encodings: Sequence[str], limit: int = 0
) -> bytes:
    """Undo Content-Encoding as an HTTP client does (codings applied in order, undone in reverse),
    never producing more than ``limit`` bytes (0: no limit).

    Raises ValueError for an unknown coding or a corrupt body, :class:`TooLarge` over the limit.
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
            body = decompress(body, limit)
        except TooLarge:
            raise
        except (OSError, EOFError, zlib.error, ValueError) as exc:
            detail = str(exc) if isinstance(exc, zlib.error) else describe_error(exc)
            raise ValueError(f"corrupt {coding} body: {detail}") from exc
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


SIDECAR_LIMIT = 1024 * 1024 * 1024


def read_sidecar(path: Path) -> dict[Path, FileInfo]:
    """Read a TSV of ``path<TAB>content_type[<TAB>url]`` rows (an optional header row names
    the columns ``path``, ``content_type``, ``url``). Paths are relative to the TSV's folder;
    an empty content type means the page had no Content-Type header. Raises OSError/ValueError.
    """
    text = read_regular(path, SIDECAR_LIMIT).decode("utf-8")
    reader = csv.reader(io.StringIO(text), delimiter="\t")
    try:
        rows = [row for row in reader if any(row)]
    except csv.Error as exc:  # e.g. a field over csv.field_size_limit() (128 KiB)
        raise ValueError(f"line {reader.line_num}: {exc}") from exc
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
        entries[_key(base / cells["path"])] = FileInfo(
            content_type=cells.get("content_type") or None, url=cells.get("url") or None
        )
    return entries


def _key(path: Path) -> Path:
    """The path files are known by (resolved); a path that cannot be resolved (a symlink
    loop) stands for itself, and reading it reports the problem."""
    try:
        return safe_resolve(path)
    except OSError:
        return path.absolute()


def read_file_page(
    path: Path, info: FileInfo | None, default_content_type: str | None, limit: int = 0
) -> Page:
    origin = str(path)
    content_type = info.content_type if info is not None else default_content_type
    url = info.url if info is not None else None
    try:
        # A FIFO or device would block or never end: only regular files are read.
        body = read_regular(path, limit)
    except (OSError, TooLarge) as exc:
        return failed(KIND_FILE, origin, f"cannot read file: {describe_error(exc)}", url)
    return Page(
        kind=KIND_FILE,
        origin=origin,
        body=body,
        content_types=(content_type,) if content_type else (),
        url=url,
    )


# -- Scrapy HTTP cache (FilesystemCacheStorage) ------------------------------------------------


METADATA_LIMIT = 16 * 1024 * 1024  # an entry's meta, pickled_meta and headers files


def _read_optional(path: Path) -> bytes | None:
    try:
        return read_regular(path, METADATA_LIMIT)
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
            value = parse(_decompress_gzip(data, METADATA_LIMIT) if gzipped else data)
        except Exception as exc:  # noqa: BLE001 - any damage is reported with the entry
            problems.append(f"unreadable {name} ({describe_error(exc)})")
            continue
        if isinstance(value, dict):
            return value
        problems.append(f"{name} is not a dict")
    if not problems:
        raise ValueError("cache entry without metadata (no meta or pickled_meta file)")
    raise ValueError("; ".join(problems))


def read_cache_entry(entry: Path, skip_non_html: bool = True, limit: int = 0) -> Page:
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
        body = read_regular(entry / "response_body", limit)
        if gzipped:
            raw_headers = _decompress_gzip(raw_headers, METADATA_LIMIT)
            body = _decompress_gzip(body, limit)
        headers = parse_raw_headers(raw_headers)
        body = decode_content_encoding(body, header_values(headers, "content-encoding"), limit)
    except (OSError, ValueError, EOFError, zlib.error) as exc:
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


class _CleanMessage(logging.Filter):
    """warcio's warnings quote what it read (a corrupt WARC's header: any bytes): escaped and
    cut as the audit's own messages are."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = clean_message(record.getMessage()), None
        return True


def _clean_warcio_warnings() -> None:
    logger = logging.getLogger("warcio.recordloader")  # filters do not apply to child loggers
    if not any(isinstance(f, _CleanMessage) for f in logger.filters):
        logger.addFilter(_CleanMessage())


@functools.cache
def _QuietIterator(base: type) -> type:  # noqa: N802 - a class
    """warcio's ArchiveIterator, except that after a record with a wrong Content-Length it
    writes the offset to stderr but not the rest of the line (any bytes, of any length)."""

    class QuietArchiveIterator(base):  # type: ignore[misc, valid-type]
        INC_RECORD = (
            "WARNING: WARC record not followed by a blank line (wrong Content-Length?) at"
            " offset {0}\n"
        )

    return QuietArchiveIterator


def read_warc(path: Path | str, skip_non_html: bool = True, limit: int = 0) -> Iterator[Page]:
    """Every HTTP ``response`` record of a WARC (or ARC) file, gzip'd or plain.

    A record cut short or a file that stops parsing yields one error page (its origin
    ``file#N`` names the record, the message says what is wrong in plain words) and ends the
    file; bytes between two records that belong to neither yield an error page and reading
    goes on.
    """
    origin = str(path)
    _clean_warcio_warnings()
    try:
        from warcio.archiveiterator import ArchiveIterator
    except ImportError:
        yield failed(
            KIND_WARC, origin, "reading WARC files needs warcio: pip install scrapy-charset[warc]"
        )
        return
    try:
        stream = open_input(path)
    except (OSError, ValueError, ImportError) as exc:
        yield failed(KIND_WARC, origin, f"cannot read file: {describe_error(exc)}")
        return
    with stream:
        number = end = 0
        at = 1  # the record being read when reading fails
        try:
            records = _QuietIterator(ArchiveIterator)(stream, arc2warc=True)
            for record in records:
                number = at = number + 1
                page = None
                declared = record.rec_headers.get_header("Content-Length")
                if declared is None or not declared.strip().isdigit():
                    # Every WARC record has one; warcio reads a record cut inside its
                    # headers as a short record without it.
                    yield failed(
                        KIND_WARC,
                        f"{origin}#{number}",
                        ("not a WARC or ARC file, or a damaged first record" if number == 1
                         else "truncated or corrupt WARC record") + ": no Content-Length in its"
                        " headers",
                        record.rec_headers.get_header("WARC-Target-URI"),
                    )
                    return
                untyped = not record.rec_type  # a record whose type is lost is not skipped quietly
                if record.rec_type == "response" and record.http_headers is not None:
                    page = _warc_response_page(record, f"{origin}#{number}", skip_non_html, limit)
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
                stray = records.err_count
                end = records.get_record_offset() + records.get_record_length()
                if page is not None:
                    yield page
                if untyped:
                    yield failed(
                        KIND_WARC,
                        f"{origin}#{number}",
                        "corrupt WARC record: no WARC-Type in its headers (a damaged header"
                        " line); the record is skipped, reading went on",
                        record.rec_headers.get_header("WARC-Target-URI"),
                    )
                if records.err_count != stray:
                    yield failed(
                        KIND_WARC,
                        f"{origin}#{number}",
                        f"corrupt WARC: bytes after record {number} that belong to no record (a"
                        " wrong Content-Length, or damage between records); reading went on",
                        record.rec_headers.get_header("WARC-Target-URI"),
                    )
                at = number + 1
            tail = _unparsed_tail(stream, end)
        except Exception as exc:  # noqa: BLE001 - any parse failure is reported, never raised
            yield failed(KIND_WARC, f"{origin}#{at}", warc_failure(exc, at, end))
            return
    if tail:
        # warcio stops quietly at a record cut short in its headers or gzip member.
        yield failed(
            KIND_WARC,
            f"{origin}#{number + 1}",
            f"truncated WARC: record {number + 1} is cut short ({tail} bytes that do not parse)",
        )


def warc_failure(exc: BaseException, at: int, offset: int) -> str:
    """What went wrong, in plain words, when reading a WARC stopped at record ``at`` (which
    starts at about ``offset`` in the file): whatever the WARC reader raised (an
    ``AttributeError`` on a record cut inside its headers is as likely as its own errors)."""
    where = f"record {at} (byte {offset})" if at > 1 else "record 1"
    text = str(exc)
    name = type(exc).__name__
    # Told apart by the exception's type and where it was raised, never by its text: a
    # message quotes the file's bytes, which may say anything ("gzip" too).
    if raised_in(exc, "_raise_invalid_gzip_err"):  # warcio: several records in one member
        return (f"unsupported WARC at {where}: gzip'd as one stream, not one gzip member per"
                " record (fix it with: warcio recompress IN OUT)")
    if isinstance(exc, (zlib.error, EOFError, gzip.BadGzipFile)):
        return f"corrupt gzip data in {where}: {clean_message(text, 80) or name}"
    if name == "ArchiveLoadFailed" and "first line" in text:
        line = text.partition("first line:")[2].strip()  # a list's repr: ['WARC/1.0']
        line = line.removeprefix("[").removesuffix("]").strip("'\"")
        if line.startswith("\\x1f\\x8b"):  # gzip's magic number, left compressed
            return f"corrupt gzip data in {where}: it does not inflate"
        line = clean_message(line, 24)
        if at == 1:
            return f"not a WARC or ARC file: it does not start with a record header ({line})"
        return (f"corrupt WARC: {where} does not start with a record header ({line}): a wrong"
                " Content-Length in the record before, or damaged bytes")
    if name in ("ArchiveLoadFailed", "StatusAndHeadersParserException", "ChunkedDataException"):
        return f"corrupt WARC at {where}: {clean_message(text, 80)}"
    return (f"truncated or corrupt WARC: the headers of {where} are cut short or malformed"
            f" (the WARC reader failed with {name})")


def raised_in(exc: BaseException, function: str) -> bool:
    """Whether ``exc`` was raised inside a function of that name (its innermost frame)."""
    tb = exc.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame.f_code.co_name == function


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
    record: Any, origin: str, skip_non_html: bool, limit: int = 0
) -> Page:
    url = record.rec_headers.get_header("WARC-Target-URI")
    http = record.http_headers
    status_text = http.get_statuscode()
    status = int(status_text) if status_text and status_text.isdigit() else None
    codings = [v for k, v in http.headers if k.lower() == "content-encoding"]
    try:
        # De-chunked by warcio, inflated here: with the size limit at every step.
        stream = record.raw_stream
        if (http.get_header("transfer-encoding") or "").strip().lower() == "chunked":
            from warcio.bufferedreaders import ChunkedDataReader

            stream = ChunkedDataReader(stream)
        body = stream.read(limit + 1 if limit else None)
    except Exception as exc:  # noqa: BLE001 - corrupt chunked bodies
        return failed(KIND_WARC, origin, f"truncated or corrupt record: {describe_error(exc)}", url)
    left = _missing_bytes(record)
    if left:
        return failed(KIND_WARC, origin, f"truncated record: {left} bytes missing", url)
    try:
        if limit and len(body) > limit:
            raise TooLarge(limit)
        body = decode_content_encoding(body, codings, limit)
    except TooLarge as exc:
        return failed(KIND_WARC, origin, f"record skipped: {exc}", url)
    except ValueError as exc:
        return failed(KIND_WARC, origin, str(exc), url)
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


def is_warc_path(path: Path | str) -> bool:
    return str(path).lower().endswith(WARC_SUFFIXES)


def is_remote(path: Path | str) -> bool:
    """A URL fsspec opens (``s3://``, ``https://``, ``gs://`` …), not a local path."""
    return isinstance(path, str) and "://" in path and not path.startswith("file://")


def open_input(path: Path | str) -> IO[bytes]:
    """A local regular file (never a FIFO or device), or a remote one through fsspec."""
    if is_remote(path):
        try:
            import fsspec  # type: ignore[import-untyped]
        except ImportError as exc:
            raise ImportError("remote paths need fsspec: pip install fsspec") from exc
        return fsspec.open(str(path), "rb").open()  # type: ignore[no-any-return]
    return open_regular(path)


@dataclass
class LocalInputs:
    """Local paths to audit and how to read them."""

    paths: list[Path] = field(default_factory=list)
    sidecar: Path | None = None
    content_type: str | None = None
    glob: str | None = None  # only files whose name matches (cache entries and WARCs excepted)
    all_types: bool = False  # also audit stored non-HTML and non-2xx responses
    max_size: int = DEFAULT_MAX_SIZE  # biggest body read or inflated (0: no limit)


UNIT_FILE = "file"
UNIT_WARC = "warc"
UNIT_CACHE = "httpcache"
UNIT_ERROR = "error"


@dataclass(frozen=True)
class Unit:
    """One input to read: a file, a WARC file or a cache entry (picklable, for workers)."""

    kind: str
    path: str
    content_type: str | None = None  # files: the Content-Type header assumed
    url: str | None = None
    error: str | None = None  # UNIT_ERROR: why the walk could not go on here


@dataclass(frozen=True)
class ReadOptions:
    """How units are read, the same in every worker."""

    all_types: bool = False
    max_size: int = DEFAULT_MAX_SIZE


def read_options(inputs: LocalInputs) -> ReadOptions:
    return ReadOptions(inputs.all_types, inputs.max_size)


def read_unit(unit: Unit, options: ReadOptions) -> Iterator[Page]:
    """The pages of one unit; never raises (an unexpected failure is the unit's error)."""
    try:
        yield from _read_unit(unit, options)
    except Exception as exc:  # noqa: BLE001 - one bad input never ends the audit
        yield failed(PAGE_KIND.get(unit.kind, KIND_FILE), unit.path,
                     f"cannot read: {describe_error(exc)}", unit.url)


PAGE_KIND = {UNIT_FILE: KIND_FILE, UNIT_WARC: KIND_WARC, UNIT_CACHE: KIND_HTTPCACHE}


def _read_unit(unit: Unit, options: ReadOptions) -> Iterator[Page]:
    skip_non_html = not options.all_types
    if unit.kind == UNIT_WARC:
        yield from read_warc(unit.path, skip_non_html, options.max_size)
    elif unit.kind == UNIT_CACHE:
        yield read_cache_entry(Path(unit.path), skip_non_html, options.max_size)
    elif unit.kind == UNIT_FILE:
        info = FileInfo(unit.content_type, unit.url)
        yield read_file_page(Path(unit.path), info, None, options.max_size)
    else:
        yield failed(KIND_FILE, unit.path, unit.error or "cannot read", unit.url)


def iter_local_pages(inputs: LocalInputs) -> Iterator[Page]:
    """Pages from files, folders (walked; cache entries and WARC files recognised), WARC files
    and the files a sidecar lists, each file once."""
    options = read_options(inputs)
    for unit in iter_units(inputs):
        yield from read_unit(unit, options)


def iter_units(inputs: LocalInputs) -> Iterator[Unit]:
    """What to read, in order; never raises."""
    sidecar: dict[Path, FileInfo] = {}
    skip: set[Path] = set()
    if inputs.sidecar is not None:
        skip.add(_key(inputs.sidecar))
        try:
            sidecar = read_sidecar(inputs.sidecar)
        except (OSError, ValueError, UnicodeDecodeError) as exc:
            yield Unit(UNIT_ERROR, str(inputs.sidecar), error=f"bad sidecar: {describe_error(exc)}")
    seen: set[Path] = set()
    for path in inputs.paths:
        if is_remote(str(path)):
            yield Unit(UNIT_WARC, str(path))
            continue
        try:
            yield from _path_units(path, inputs, sidecar, seen | skip, seen)
        except Exception as exc:  # noqa: BLE001 - one bad input never ends the audit
            yield Unit(UNIT_ERROR, str(path), error=f"cannot read: {describe_error(exc)}")
    for listed, info in sidecar.items():
        if listed not in seen:
            seen.add(listed)
            yield _file_unit(listed, info, inputs.content_type)


def _file_unit(path: Path, info: FileInfo | None, content_type: str | None) -> Unit:
    if info is not None:
        return Unit(UNIT_FILE, str(path), info.content_type, info.url)
    return Unit(UNIT_FILE, str(path), content_type)


def _path_units(
    path: Path, inputs: LocalInputs, sidecar: dict[Path, FileInfo], skip: set[Path], seen: set[Path]
) -> Iterator[Unit]:
    if path.is_dir():
        yield from _walk(path, inputs, sidecar, skip, seen)
    elif is_warc_path(path):
        yield Unit(UNIT_WARC, str(path))
    elif path.name in CACHE_ENTRY_FILES and path.parent.is_dir():
        yield Unit(UNIT_CACHE, str(path.parent))
    else:
        resolved = _key(path)
        seen.add(resolved)
        yield _file_unit(path, sidecar.get(resolved), inputs.content_type)


def _walk(
    root: Path, inputs: LocalInputs, sidecar: dict[Path, FileInfo], skip: set[Path], seen: set[Path]
) -> Iterator[Unit]:
    def on_error(exc: OSError) -> None:
        errors.append(exc)

    def error_unit(exc: OSError, where: str) -> Unit:
        return Unit(UNIT_ERROR, str(exc.filename or where), error=f"cannot read folder: {exc}")

    errors: list[OSError] = []
    # Symlinked folders are not followed (os.walk's default): no loop, no file twice.
    for folder, dirs, files in os.walk(root, onerror=on_error):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        while errors:
            yield error_unit(errors.pop(0), folder)
        here = Path(folder)
        if is_cache_entry(files):
            dirs[:] = []  # an entry's folder holds nothing else to audit
            yield Unit(UNIT_CACHE, folder)
            continue
        for name in sorted(files):
            if name.startswith("."):
                continue
            path = here / name
            if is_warc_path(path):
                yield Unit(UNIT_WARC, str(path))
                continue
            resolved = _key(path)
            if resolved in skip or resolved in seen:
                continue
            if inputs.glob and not fnmatch.fnmatch(name, inputs.glob):
                continue
            seen.add(resolved)
            yield _file_unit(path, sidecar.get(resolved), inputs.content_type)
    while errors:
        yield error_unit(errors.pop(0), str(root))
