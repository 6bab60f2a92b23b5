"""The Encoding Standard's encodings as Python codecs: ``scrapy-charset-<name>``.

Registered with :func:`codecs.register` when :mod:`scrapy_charset.encoding` is imported, so
``text.encode("scrapy-charset-shift_jis")`` and ``data.decode("scrapy-charset-euc-jp")`` work
anywhere, Scrapy and w3lib included. Such a codec does what a browser does and never fails:

- encoding is the spec's encoder in error mode ``html``: a character the encoding lacks becomes
  ``&#N;``, as in a browser's form submission (``errors="strict"`` and
  ``"xmlcharrefreplace"`` alike); ``errors="fatal"`` raises :class:`UnicodeEncodeError`
  instead; any other registered error handler (``"replace"``, ``"ignore"``...) is called as
  usual for such a character;
- decoding is the spec's *decode without BOM* in error mode replacement (U+FFFD), whatever
  ``errors`` says, except ``errors="fatal"``, which raises :class:`UnicodeDecodeError` at the
  first error.

The prefix is the project's own: other packages (turbohtml) register ``whatwg-*`` codecs that
raise on unencodable characters, and the first registered search function wins a name.

A browser writes no URL or form in replacement, UTF-16BE or UTF-16LE (the spec's *get an output
encoding* is UTF-8 for them): ``scrapy-charset-replacement``, ``scrapy-charset-utf-16le`` and
``scrapy-charset-utf-16be`` encode as UTF-8, so that a UTF-16 response's ``encoding`` both
decodes its body and writes its links as a browser does.
"""

from __future__ import annotations

import codecs
from typing import Any

from .decoders import IncrementalDecoder as _IncrementalDecoder
from .decoders import decode as _decode
from .encoders import (
    ISO_2022_JP_END,
    ErrorMode,
    compiled_codec_encode,
    encode_iso_2022_jp_from,
    encoder,
    output_encoding,
)
from .encoders import encode as _encode
from .labels import ALL_ENCODINGS, Encoding

PREFIX = "scrapy-charset-"
_BY_KEY: dict[str, Encoding] = {
    (PREFIX + enc.name.lower()).replace("-", "_"): enc for enc in ALL_ENCODINGS
}


def codec_name(encoding: Encoding) -> str:
    """The registered codec name of ``encoding`` (``"scrapy-charset-shift_jis"``)."""
    return PREFIX + encoding.name.lower()


def encoding_of(codec: str) -> Encoding | None:
    """The encoding a ``scrapy-charset-`` codec name stands for, or None."""
    return _BY_KEY.get(codec.strip().lower().replace("-", "_").replace(" ", "_"))


_HTML_ERRORS = frozenset({"strict", "xmlcharrefreplace", "html"})


def _target(encoding: Encoding) -> Encoding:
    """The encoding text is encoded in: the spec's output encoding (UTF-8 for replacement
    and UTF-16)."""
    return output_encoding(encoding)


def _piece(target: Encoding, text: str, mode: ErrorMode, state: int) -> tuple[bytes, int]:
    # Only ISO-2022-JP has a state between pieces (see encode_iso_2022_jp_from).
    if target.name == "ISO-2022-JP":
        return encode_iso_2022_jp_from(text, state, mode)
    return _encode(text, target, mode), state


def _encode_from(encoding: Encoding, text: str, errors: str, state: int) -> tuple[bytes, int]:
    """``text`` encoded from encoder state ``state``, without ISO-2022-JP's closing escape;
    the bytes and the state after them."""
    target = _target(encoding)
    if errors in _HTML_ERRORS:
        return _piece(target, text, "html", state)
    if errors == "fatal":
        return _piece(target, text, "fatal", state)
    # Another error handler: called for each character the encoder lacks.
    handler = codecs.lookup_error(errors)
    parts: list[bytes] = []
    start = 0
    while True:
        try:
            data, state = _piece(target, text[start:], "fatal", state)
            parts.append(data)
            return b"".join(parts), state
        except UnicodeEncodeError as exc:
            bad = start + exc.start
            data, state = _piece(target, text[start:bad], "fatal", state)
            parts.append(data)
            error = UnicodeEncodeError(codec_name(encoding), text, bad, bad + 1, exc.reason)
            replacement, resume = handler(error)
            if isinstance(replacement, str):
                data, state = _piece(target, replacement, "html", state)
                parts.append(data)
            else:
                parts.append(bytes(replacement))
            start = resume if resume >= 0 else len(text) + resume


def _end(state: int) -> bytes:
    return ISO_2022_JP_END if state else b""


def _encode_with(encoding: Encoding, text: str, errors: str) -> bytes:
    data, state = _encode_from(encoding, text, errors, 0)
    return data + _end(state)


def _decode_with(encoding: Encoding, data: bytes, errors: str) -> str:
    text = _decode(data, encoding, bom="keep")
    if errors == "fatal" and "\ufffd" in text:
        position = _first_error(data, encoding)
        if position is not None:
            raise UnicodeDecodeError(
                codec_name(encoding), data, position[0], position[1], "invalid sequence"
            )
    return text


def _first_error(data: bytes, encoding: Encoding) -> tuple[int, int] | None:
    """Where the spec's decoder first errs on ``data`` (in fatal mode it would stop there)."""
    if encoding.name in ("UTF-8", "UTF-16BE", "UTF-16LE"):
        codec = {"UTF-8": "utf-8", "UTF-16BE": "utf-16-be", "UTF-16LE": "utf-16-le"}
        try:
            data.decode(codec[encoding.name])
        except UnicodeDecodeError as exc:
            return exc.start, exc.end
        return None
    if encoding.name == "replacement":
        return (0, len(data)) if data else None
    from . import reference  # the spec-literal decoders, step by step

    position = 0
    while position < len(data):
        output, after = reference.step_from(reference.new_decoder(encoding), data, position)
        unit = data[position:after]
        if "\ufffd" in output and not (encoding.name == "gb18030" and unit == b"\x841\xa47"):
            return position, max(after, position + 1)
        position = max(after, position + 1)
    return None


def _codec_info(encoding: Encoding) -> codecs.CodecInfo:
    html_encoder = encoder(_target(encoding), "html")

    def encode(text: str, errors: str = "strict") -> tuple[bytes, int]:
        if errors in _HTML_ERRORS:
            return html_encoder(text), len(text)
        return _encode_with(encoding, text, errors), len(text)

    compiled = compiled_codec_encode(_target(encoding), encode)
    return codecs.CodecInfo(
        encode=compiled or encode,
        decode=_decoder_function(encoding),
        incrementalencoder=_incremental_encoder(encoding),
        incrementaldecoder=_incremental_decoder(encoding),
        streamwriter=_stream_writer(encoding),
        streamreader=_stream_reader(encoding),
        name=codec_name(encoding),
    )


def _decoder_function(encoding: Encoding) -> Any:
    def decode(data: Any, errors: str = "strict") -> tuple[str, int]:
        raw = bytes(data)
        return _decode_with(encoding, raw, errors), len(raw)

    return decode


def _incremental_encoder(encoding: Encoding) -> Any:
    class IncrementalEncoder(codecs.IncrementalEncoder):
        # The encoder state (ISO-2022-JP's) carries over from chunk to chunk; the closing
        # escape is written at final=True, so split encodes give the one-shot bytes.
        def __init__(self, errors: str = "strict") -> None:
            super().__init__(errors)
            self.state = 0

        def encode(self, input: str, final: bool = False) -> bytes:
            data, self.state = _encode_from(encoding, input, self.errors, self.state)
            if final:
                data, self.state = data + _end(self.state), 0
            return data

        def reset(self) -> None:
            self.state = 0

        def getstate(self) -> int:
            return self.state

        def setstate(self, state: int | str) -> None:
            self.state = int(state)

    return IncrementalEncoder


def _incremental_decoder(encoding: Encoding) -> Any:
    class IncrementalDecoder(codecs.IncrementalDecoder):
        def __init__(self, errors: str = "strict") -> None:
            super().__init__(errors)
            self._decoder = _IncrementalDecoder(encoding, bom="keep")

        def decode(self, input: Any, final: bool = False) -> str:
            return self._decoder.decode(bytes(input), final)

        def reset(self) -> None:
            self._decoder.reset()

    return IncrementalDecoder


def _stream_writer(encoding: Encoding) -> Any:
    class StreamWriter(codecs.StreamWriter):
        # Like Python's ISO-2022 stream writers: the state carries over between writes and
        # reset() writes the closing escape.
        state = 0

        def encode(self, input: str, errors: str = "strict") -> tuple[bytes, int]:
            data, self.state = _encode_from(encoding, input, errors, self.state)
            return data, len(input)

        def reset(self) -> None:
            if self.state:
                self.stream.write(_end(self.state))
            self.state = 0

    return StreamWriter


def _stream_reader(encoding: Encoding) -> Any:
    class StreamReader(codecs.StreamReader):
        def decode(self, input: Any, errors: str = "strict") -> tuple[str, int]:
            # Whole buffers only: StreamReader re-feeds what a call leaves undecoded.
            raw = bytes(input)
            return _decode_with(encoding, raw, errors), len(raw)

    return StreamReader


def search(name: str) -> codecs.CodecInfo | None:
    """The :func:`codecs.register` search function for the ``scrapy-charset-`` codecs."""
    encoding = encoding_of(name)
    return None if encoding is None else _codec_info(encoding)


_REGISTERED: list[bool] = []


def register() -> None:
    """Register the ``scrapy-charset-`` codecs (once; importing the package does it)."""
    if not _REGISTERED:
        codecs.register(search)
        _REGISTERED.append(True)


__all__ = ["PREFIX", "codec_name", "encoding_of", "register", "search"]
