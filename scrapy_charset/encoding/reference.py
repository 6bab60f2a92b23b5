"""Spec-literal decoders of the Encoding Standard, one byte at a time.

Each decoder class is a transcription of the spec's decoder and its *handler* steps
(https://encoding.spec.whatwg.org/), with the spec's variable names. They are slow and meant to
be obviously right: the fast decoders in :mod:`.decoders` are tested against them, and use them
where the fast path would differ from the spec (error recovery, rare byte patterns).

A handler returns a code point (``int``), a pair of code points (Big5), or one of
``CONTINUE``, ``ERROR``, ``FINISHED``. ``None`` stands for end-of-queue.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from functools import cache
from typing import Final, TypeAlias

from .labels import BY_NAME, Encoding
from .tables import load_index

CONTINUE: Final = "continue"
ERROR: Final = "error"
FINISHED: Final = "finished"
END_OF_QUEUE: Final = None

Result: TypeAlias = int | tuple[int, int] | str
Byte: TypeAlias = int | None

REPLACEMENT_CHARACTER = "\ufffd"
_NULL = "\x00"  # how the generated index strings mark a pointer without a code point


class IOQueue:
    """The spec's I/O queue of bytes: read from the front, *restore* puts items back in front."""

    __slots__ = ("data", "pos", "front", "ended")

    def __init__(self, data: bytes = b"", ended: bool = True, pos: int = 0) -> None:
        self.data = data
        self.pos = pos
        self.front: list[int] = []
        self.ended = ended

    def read(self) -> Byte | bool:
        """The next byte; ``None`` (end-of-queue) once ended; ``False`` when waiting for more."""
        if self.front:
            return self.front.pop(0)
        if self.pos < len(self.data):
            byte = self.data[self.pos]
            self.pos += 1
            return byte
        return END_OF_QUEUE if self.ended else False

    def restore(self, items: list[int]) -> None:
        self.front[:0] = items

    def push(self, data: bytes, ended: bool) -> None:
        """Append ``data`` (a new chunk of the stream); ``ended`` marks the last chunk."""
        self.data = self.data[self.pos :] + bytes(data)
        self.pos = 0
        self.ended = ended


class Decoder:
    """Base of the spec-literal decoders."""

    def handler(self, queue: IOQueue, byte: Byte) -> Result:
        raise NotImplementedError

    def is_initial(self) -> bool:
        """True when every associated variable has its initial value (no pending bytes)."""
        return vars(self) == vars(self.fresh())

    def fresh(self) -> Decoder:
        return type(self)()


def _is_ascii_byte(byte: int) -> bool:
    return byte <= 0x7F


def index_code_point(module: str, pointer: int | None) -> int | None:
    """The spec's *index code point* for ``pointer`` in the index stored in ``module``."""
    if pointer is None:
        return None
    index = load_index(module)
    if 0 <= pointer < len(index) and index[pointer] != _NULL:
        return ord(index[pointer])
    return None


@cache
def _gb18030_ranges() -> tuple[tuple[int, ...], tuple[int, ...]]:
    from .tables.gb18030_ranges_data import RANGES

    return tuple(p for p, _ in RANGES), tuple(c for _, c in RANGES)


def gb18030_ranges_code_point(pointer: int) -> int | None:
    """The spec's *index gb18030 ranges code point*."""
    if 39419 < pointer < 189000 or pointer > 1237575:
        return None
    if pointer == 7457:
        return 0xE7C7
    pointers, code_points = _gb18030_ranges()
    i = bisect_right(pointers, pointer) - 1  # last pointer <= pointer
    return code_points[i] + pointer - pointers[i]


class UTF8Decoder(Decoder):
    def __init__(self) -> None:
        self.code_point = 0
        self.bytes_seen = 0
        self.bytes_needed = 0
        self.lower_boundary = 0x80
        self.upper_boundary = 0xBF

    def handler(self, queue: IOQueue, byte: Byte) -> Result:
        # 1-2. end-of-queue
        if byte is None:
            if self.bytes_needed != 0:
                self.bytes_needed = 0
                return ERROR
            return FINISHED
        # 3. first byte of a sequence
        if self.bytes_needed == 0:
            if byte <= 0x7F:
                return byte
            if 0xC2 <= byte <= 0xDF:
                self.bytes_needed = 1
                self.code_point = byte & 0x1F
            elif 0xE0 <= byte <= 0xEF:
                if byte == 0xE0:
                    self.lower_boundary = 0xA0
                if byte == 0xED:
                    self.upper_boundary = 0x9F
                self.bytes_needed = 2
                self.code_point = byte & 0xF
            elif 0xF0 <= byte <= 0xF4:
                if byte == 0xF0:
                    self.lower_boundary = 0x90
                if byte == 0xF4:
                    self.upper_boundary = 0x8F
                self.bytes_needed = 3
                self.code_point = byte & 0x7
            else:
                return ERROR
            return CONTINUE
        # 4. byte outside the boundaries: reset and restore byte
        if not self.lower_boundary <= byte <= self.upper_boundary:
            self.code_point = self.bytes_needed = self.bytes_seen = 0
            self.lower_boundary, self.upper_boundary = 0x80, 0xBF
            queue.restore([byte])
            return ERROR
        # 5-10. a continuation byte
        self.lower_boundary = 0x80
        self.upper_boundary = 0xBF
        self.code_point = (self.code_point << 6) | (byte & 0x3F)
        self.bytes_seen += 1
        if self.bytes_seen != self.bytes_needed:
            return CONTINUE
        code_point = self.code_point
        self.code_point = self.bytes_needed = self.bytes_seen = 0
        return code_point


class UTF16Decoder(Decoder):
    """The shared UTF-16 decoder."""

    def __init__(self, is_be: bool = False) -> None:
        self.leading_byte: int | None = None
        self.leading_surrogate: int | None = None
        self.is_be = is_be

    def fresh(self) -> Decoder:
        return UTF16Decoder(self.is_be)

    def handler(self, queue: IOQueue, byte: Byte) -> Result:
        if byte is None:
            if self.leading_byte is not None or self.leading_surrogate is not None:
                self.leading_byte = self.leading_surrogate = None
                return ERROR
            return FINISHED
        if self.leading_byte is None:
            self.leading_byte = byte
            return CONTINUE
        if self.is_be:
            code_unit = (self.leading_byte << 8) + byte
        else:
            code_unit = (byte << 8) + self.leading_byte
        self.leading_byte = None
        if self.leading_surrogate is not None:
            leading_surrogate = self.leading_surrogate
            self.leading_surrogate = None
            if 0xDC00 <= code_unit <= 0xDFFF:
                return 0x10000 + ((leading_surrogate - 0xD800) << 10) + (code_unit - 0xDC00)
            byte1, byte2 = code_unit >> 8, code_unit & 0x00FF
            queue.restore([byte1, byte2] if self.is_be else [byte2, byte1])
            return ERROR
        if 0xD800 <= code_unit <= 0xDBFF:
            self.leading_surrogate = code_unit
            return CONTINUE
        if 0xDC00 <= code_unit <= 0xDFFF:
            return ERROR
        return code_unit


class SingleByteDecoder(Decoder):
    def __init__(self, name: str = "windows-1252") -> None:
        from .tables.single_byte_data import SINGLE_BYTE

        self.index = SINGLE_BYTE[name]

    def fresh(self) -> Decoder:
        return self  # stateless

    def handler(self, queue: IOQueue, byte: Byte) -> Result:
        if byte is None:
            return FINISHED
        if _is_ascii_byte(byte):
            return byte
        code_point = self.index[byte - 0x80]
        if code_point == _NULL:
            return ERROR
        return ord(code_point)


class XUserDefinedDecoder(Decoder):
    def handler(self, queue: IOQueue, byte: Byte) -> Result:
        if byte is None:
            return FINISHED
        if _is_ascii_byte(byte):
            return byte
        return 0xF780 + byte - 0x80


class ReplacementDecoder(Decoder):
    def __init__(self) -> None:
        self.error_returned = False

    def is_initial(self) -> bool:
        return True  # nothing pending: the one error is returned on the first byte

    def handler(self, queue: IOQueue, byte: Byte) -> Result:
        if byte is None:
            return FINISHED
        if not self.error_returned:
            self.error_returned = True
            return ERROR
        return FINISHED


class GB18030Decoder(Decoder):
    """gb18030's decoder, which is also GBK's."""

    def __init__(self) -> None:
        self.first = 0x00
        self.second = 0x00
        self.third = 0x00

    def handler(self, queue: IOQueue, byte: Byte) -> Result:
        if byte is None:
            if self.first == self.second == self.third == 0x00:
                return FINISHED
            self.first = self.second = self.third = 0x00
            return ERROR
        # 3. four-byte sequence: fourth byte
        if self.third != 0x00:
            if not 0x30 <= byte <= 0x39:
                queue.restore([self.second, self.third, byte])
                self.first = self.second = self.third = 0x00
                return ERROR
            code_point = gb18030_ranges_code_point(
                (self.first - 0x81) * (10 * 126 * 10)
                + (self.second - 0x30) * (10 * 126)
                + (self.third - 0x81) * 10
                + byte
                - 0x30
            )
            self.first = self.second = self.third = 0x00
            return ERROR if code_point is None else code_point
        # 4. third byte
        if self.second != 0x00:
            if 0x81 <= byte <= 0xFE:
                self.third = byte
                return CONTINUE
            queue.restore([self.second, byte])
            self.first = self.second = 0x00
            return ERROR
        # 5. second byte
        if self.first != 0x00:
            if 0x30 <= byte <= 0x39:
                self.second = byte
                return CONTINUE
            leading = self.first
            self.first = 0x00
            pointer = None
            offset = 0x40 if byte < 0x7F else 0x41
            if 0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFE:
                pointer = (leading - 0x81) * 190 + (byte - offset)
            code_point = index_code_point("index_gb18030_data", pointer)
            if code_point is not None:
                return code_point
            if _is_ascii_byte(byte):
                queue.restore([byte])
            return ERROR
        # 6-9. first byte
        if _is_ascii_byte(byte):
            return byte
        if byte == 0x80:
            return 0x20AC
        if 0x81 <= byte <= 0xFE:
            self.first = byte
            return CONTINUE
        return ERROR


# Big5 pointers whose index entry is a single code point but which decode to two.
BIG5_TWO_CODE_POINTS: Final[dict[int, tuple[int, int]]] = {
    1133: (0x00CA, 0x0304),
    1135: (0x00CA, 0x030C),
    1164: (0x00EA, 0x0304),
    1166: (0x00EA, 0x030C),
}


class Big5Decoder(Decoder):
    def __init__(self) -> None:
        self.leading = 0x00

    def handler(self, queue: IOQueue, byte: Byte) -> Result:
        if byte is None:
            if self.leading != 0x00:
                self.leading = 0x00
                return ERROR
            return FINISHED
        if self.leading != 0x00:
            leading = self.leading
            self.leading = 0x00
            pointer = None
            offset = 0x40 if byte < 0x7F else 0x62
            if 0x40 <= byte <= 0x7E or 0xA1 <= byte <= 0xFE:
                pointer = (leading - 0x81) * 157 + (byte - offset)
            if pointer in BIG5_TWO_CODE_POINTS:
                return BIG5_TWO_CODE_POINTS[pointer]
            code_point = index_code_point("index_big5_data", pointer)
            if code_point is not None:
                return code_point
            if _is_ascii_byte(byte):
                queue.restore([byte])
            return ERROR
        if _is_ascii_byte(byte):
            return byte
        if 0x81 <= byte <= 0xFE:
            self.leading = byte
            return CONTINUE
        return ERROR


class EUCJPDecoder(Decoder):
    def __init__(self) -> None:
        self.jis0212 = False
        self.leading = 0x00

    def handler(self, queue: IOQueue, byte: Byte) -> Result:
        if byte is None:
            if self.leading != 0x00:
                self.leading = 0x00
                return ERROR
            return FINISHED
        # 3. half-width katakana after 0x8E
        if self.leading == 0x8E and 0xA1 <= byte <= 0xDF:
            self.leading = 0x00
            return 0xFF61 - 0xA1 + byte
        # 4. JIS X 0212 after 0x8F
        if self.leading == 0x8F and 0xA1 <= byte <= 0xFE:
            self.jis0212 = True
            self.leading = byte
            return CONTINUE
        if self.leading != 0x00:
            leading = self.leading
            self.leading = 0x00
            code_point = None
            if 0xA1 <= leading <= 0xFE and 0xA1 <= byte <= 0xFE:
                pointer = (leading - 0xA1) * 94 + byte - 0xA1
                index = "index_jis0212_data" if self.jis0212 else "index_jis0208_data"
                code_point = index_code_point(index, pointer)
            self.jis0212 = False
            if code_point is not None:
                return code_point
            if _is_ascii_byte(byte):
                queue.restore([byte])
            return ERROR
        if _is_ascii_byte(byte):
            return byte
        if byte in (0x8E, 0x8F) or 0xA1 <= byte <= 0xFE:
            self.leading = byte
            return CONTINUE
        return ERROR


# ISO-2022-JP decoder states.
ASCII, ROMAN, KATAKANA, LEADING_BYTE, TRAILING_BYTE, ESCAPE_START, ESCAPE = (
    "ASCII",
    "Roman",
    "katakana",
    "leading byte",
    "trailing byte",
    "escape start",
    "escape",
)


class ISO2022JPDecoder(Decoder):
    def __init__(self) -> None:
        self.state = ASCII
        self.output_state = ASCII
        self.leading = 0x00
        self.output = False

    def is_initial(self) -> bool:
        # Between characters only the states matter for what follows: the output flag is
        # part of the state too (it decides the error after two escapes in a row).
        return vars(self) == vars(self.fresh())

    def handler(self, queue: IOQueue, byte: Byte) -> Result:
        state = self.state
        if state in (ASCII, ROMAN, KATAKANA, LEADING_BYTE):
            if byte == 0x1B:
                self.state = ESCAPE_START
                return CONTINUE
            if byte is None:
                return FINISHED
            if state == ASCII and byte <= 0x7F and byte not in (0x0E, 0x0F):
                self.output = False
                return byte
            if state == ROMAN and byte <= 0x7F and byte not in (0x0E, 0x0F):
                self.output = False
                return {0x5C: 0x00A5, 0x7E: 0x203E}.get(byte, byte)
            if state == KATAKANA and 0x21 <= byte <= 0x5F:
                self.output = False
                return 0xFF61 - 0x21 + byte
            if state == LEADING_BYTE and 0x21 <= byte <= 0x7E:
                self.output = False
                self.leading = byte
                self.state = TRAILING_BYTE
                return CONTINUE
            self.output = False
            return ERROR
        if state == TRAILING_BYTE:
            if byte == 0x1B:
                self.state = ESCAPE_START
                return ERROR
            self.state = LEADING_BYTE
            if byte is not None and 0x21 <= byte <= 0x7E:
                pointer = (self.leading - 0x21) * 94 + byte - 0x21
                code_point = index_code_point("index_jis0208_data", pointer)
                return ERROR if code_point is None else code_point
            return ERROR
        if state == ESCAPE_START:
            if byte in (0x24, 0x28):
                self.leading = byte
                self.state = ESCAPE
                return CONTINUE
            if byte is not None:
                queue.restore([byte])
            self.output = False
            self.state = self.output_state
            return ERROR
        # ESCAPE
        leading = self.leading
        self.leading = 0x00
        new_state = None
        if leading == 0x28 and byte == 0x42:
            new_state = ASCII
        elif leading == 0x28 and byte == 0x4A:
            new_state = ROMAN
        elif leading == 0x28 and byte == 0x49:
            new_state = KATAKANA
        elif leading == 0x24 and byte in (0x40, 0x42):
            new_state = LEADING_BYTE
        if new_state is not None:
            self.state = self.output_state = new_state
            output = self.output
            self.output = True
            return CONTINUE if not output else ERROR
        queue.restore([leading] if byte is None else [leading, byte])
        self.output = False
        self.state = self.output_state
        return ERROR


class ShiftJISDecoder(Decoder):
    def __init__(self) -> None:
        self.leading = 0x00

    def handler(self, queue: IOQueue, byte: Byte) -> Result:
        if byte is None:
            if self.leading != 0x00:
                self.leading = 0x00
                return ERROR
            return FINISHED
        if self.leading != 0x00:
            leading = self.leading
            self.leading = 0x00
            pointer = None
            offset = 0x40 if byte < 0x7F else 0x41
            leading_offset = 0x81 if leading < 0xA0 else 0xC1
            if 0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFC:
                pointer = (leading - leading_offset) * 188 + byte - offset
            # EUDC: Windows' end-user-defined characters map to the Private Use Area.
            if pointer is not None and 8836 <= pointer <= 10715:
                return 0xE000 - 8836 + pointer
            code_point = index_code_point("index_jis0208_data", pointer)
            if code_point is not None:
                return code_point
            if _is_ascii_byte(byte):
                queue.restore([byte])
            return ERROR
        if _is_ascii_byte(byte) or byte == 0x80:
            return byte
        if 0xA1 <= byte <= 0xDF:
            return 0xFF61 - 0xA1 + byte
        if 0x81 <= byte <= 0x9F or 0xE0 <= byte <= 0xFC:
            self.leading = byte
            return CONTINUE
        return ERROR


class EUCKRDecoder(Decoder):
    def __init__(self) -> None:
        self.leading = 0x00

    def handler(self, queue: IOQueue, byte: Byte) -> Result:
        if byte is None:
            if self.leading != 0x00:
                self.leading = 0x00
                return ERROR
            return FINISHED
        if self.leading != 0x00:
            leading = self.leading
            self.leading = 0x00
            pointer = None
            if 0x41 <= byte <= 0xFE:
                pointer = (leading - 0x81) * 190 + (byte - 0x41)
            code_point = index_code_point("index_euc_kr_data", pointer)
            if code_point is not None:
                return code_point
            if _is_ascii_byte(byte):
                queue.restore([byte])
            return ERROR
        if _is_ascii_byte(byte):
            return byte
        if 0x81 <= byte <= 0xFE:
            self.leading = byte
            return CONTINUE
        return ERROR


_FACTORIES: dict[str, Callable[[], Decoder]] = {
    "UTF-8": UTF8Decoder,
    "UTF-16BE": lambda: UTF16Decoder(is_be=True),
    "UTF-16LE": lambda: UTF16Decoder(is_be=False),
    "GBK": GB18030Decoder,
    "gb18030": GB18030Decoder,
    "Big5": Big5Decoder,
    "EUC-JP": EUCJPDecoder,
    "ISO-2022-JP": ISO2022JPDecoder,
    "Shift_JIS": ShiftJISDecoder,
    "EUC-KR": EUCKRDecoder,
    "replacement": ReplacementDecoder,
    "x-user-defined": XUserDefinedDecoder,
}


def new_decoder(encoding: Encoding) -> Decoder:
    """A new instance of ``encoding``'s decoder."""
    factory = _FACTORIES.get(encoding.name)
    if factory is not None:
        return factory()
    return SingleByteDecoder(encoding.name)


def _append(output: list[str], result: Result) -> None:
    if isinstance(result, int):
        output.append(chr(result))
    elif isinstance(result, tuple):
        output.extend(map(chr, result))
    elif result == ERROR:
        output.append(REPLACEMENT_CHARACTER)  # error mode "replacement"


def process_queue(decoder: Decoder, queue: IOQueue, output: list[str]) -> None:
    """The spec's *process a queue* in error mode replacement.

    Stops at the end of the queue's data when the queue is not ended (streaming).
    """
    while True:
        byte = queue.read()
        if byte is False:
            return
        result = decoder.handler(queue, byte)  # type: ignore[arg-type]
        if result == FINISHED:
            return
        _append(output, result)


def decode_without_bom(data: bytes, encoding: Encoding) -> str:
    """The spec's *decode without BOM* with the reference decoder (error mode replacement)."""
    output: list[str] = []
    process_queue(new_decoder(encoding), IOQueue(data), output)
    return "".join(output)


def bom_sniff(data: bytes) -> Encoding | None:
    """The spec's *BOM sniff*."""
    if data[:3] == b"\xef\xbb\xbf":
        return BY_NAME["UTF-8"]
    if data[:2] == b"\xfe\xff":
        return BY_NAME["UTF-16BE"]
    if data[:2] == b"\xff\xfe":
        return BY_NAME["UTF-16LE"]
    return None


def decode(data: bytes, encoding: Encoding) -> str:
    """The spec's *decode*: a BOM overrides ``encoding`` and is removed."""
    bom_encoding = bom_sniff(data)
    if bom_encoding is not None:
        skip = 3 if bom_encoding.name == "UTF-8" else 2
        return decode_without_bom(data[skip:], bom_encoding)
    return decode_without_bom(data, encoding)


def step_from(decoder: Decoder, data: bytes, start: int) -> tuple[str, int]:
    """Run ``decoder`` (in its initial state) on ``data`` from ``start`` until it is back in its
    initial state after producing output or reaching the end.

    Returns the output and the position the next byte comes from. The fast decoders call this
    where Python's codec reports an error, to produce exactly the spec's output for that spot.
    """
    queue = IOQueue(data, pos=start)
    output: list[str] = []
    while True:
        byte = queue.read()
        result = decoder.handler(queue, byte)  # type: ignore[arg-type]
        if result == FINISHED:
            break
        _append(output, result)
        if result != CONTINUE and decoder.is_initial():
            break
    # Restored bytes are always the ones just read, so they stand for a move back.
    return "".join(output), queue.pos - len(queue.front)


def last_cut(data: bytes, encoding: Encoding, limit: int) -> int:
    """The last position <= ``limit`` (0 if none) where ``data`` can be cut in two parts that
    decode to the whole's text: the decoder, started at 0, is in its initial state there and
    has read no byte from there on (no restored bytes wait). ``limit`` should be at most
    ``len(data) - 4``, so that no unit before it meets the end of ``data``."""
    decoder = new_decoder(encoding)
    queue = IOQueue(data, ended=False)
    best = 0
    while True:
        if not queue.front and decoder.is_initial():
            if queue.pos > limit:
                return best
            best = queue.pos
        byte = queue.read()
        if byte is False:
            return best
        decoder.handler(queue, byte)  # type: ignore[arg-type]
