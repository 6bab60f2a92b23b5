"""Spec-literal encoders of the Encoding Standard, one code point at a time.

Each handler transcribes an encoder's steps (https://encoding.spec.whatwg.org/) with the
spec's names; the *index pointer* is a search of the index string for the code point. Slow and
meant to be obviously right: the table encoders of :mod:`.encoders` (compiled and pure Python)
are swept against these in tests/encoding.
"""

from __future__ import annotations

from collections import deque

from .reference import load_index
from .tables.single_byte_data import SINGLE_BYTE

ERROR = "error"
# The spec's table in the gb18030 encoder: code point -> bytes.
_GB18030_PUA = {
    0xE78D: b"\xa6\xd9", 0xE78E: b"\xa6\xda", 0xE78F: b"\xa6\xdb", 0xE790: b"\xa6\xdc",
    0xE791: b"\xa6\xdd", 0xE792: b"\xa6\xde", 0xE793: b"\xa6\xdf", 0xE794: b"\xa6\xec",
    0xE795: b"\xa6\xed", 0xE796: b"\xa6\xf3", 0xE81E: b"\xfe\x59", 0xE826: b"\xfe\x61",
    0xE82B: b"\xfe\x66", 0xE82C: b"\xfe\x67", 0xE832: b"\xfe\x6d", 0xE843: b"\xfe\x7e",
    0xE854: b"\xfe\x90", 0xE864: b"\xfe\xa0",
}
_NULL = "\x00"


def index_pointer(index: str, cp: int, start: int = 0, stop: int | None = None) -> int | None:
    """The first pointer of ``cp`` in ``index[start:stop]``, or None."""
    found = index.find(chr(cp), start, len(index) if stop is None else stop)
    return None if found < 0 else found


def _last_pointer(index: str, cp: int, start: int) -> int | None:
    found = index.rfind(chr(cp), start)
    return None if found < 0 else found


def _index_shift_jis_pointer(cp: int) -> int | None:
    # "index jis0208 excluding all entries whose pointer is in the range 8272 to 8835"
    index = load_index("index_jis0208_data")
    before = index_pointer(index, cp, 0, 8272)
    return before if before is not None else index_pointer(index, cp, 8836)


def _index_big5_pointer(cp: int) -> int | None:
    index = load_index("index_big5_data")
    start = (0xA1 - 0x81) * 157
    if cp in (0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345):
        return _last_pointer(index, cp, start)
    return index_pointer(index, cp, start)


def _index_gb18030_ranges_pointer(cp: int) -> int:
    from .tables.gb18030_ranges_data import RANGES

    if cp == 0xE7C7:
        return 7457
    offset, pointer_offset = max((c, p) for p, c in RANGES if c <= cp)
    return pointer_offset + cp - offset


def single_byte(name: str, cp: int) -> bytes | str:
    if cp < 0x80:
        return bytes((cp,))
    pointer = index_pointer(SINGLE_BYTE[name], cp)
    if pointer is None:
        return ERROR
    return bytes((pointer + 0x80,))


def x_user_defined(cp: int) -> bytes | str:
    if cp < 0x80:
        return bytes((cp,))
    if 0xF780 <= cp <= 0xF7FF:
        return bytes((cp - 0xF780 + 0x80,))
    return ERROR


def gb18030(cp: int, is_gbk: bool) -> bytes | str:
    if cp < 0x80:
        return bytes((cp,))
    if cp == 0xE5E5:
        return ERROR
    if is_gbk and cp == 0x20AC:
        return b"\x80"
    if cp in _GB18030_PUA:
        return _GB18030_PUA[cp]
    pointer = index_pointer(load_index("index_gb18030_data"), cp)
    if pointer is not None:
        lead = pointer // 190 + 0x81
        trail = pointer % 190
        offset = 0x40 if trail < 0x3F else 0x41
        return bytes((lead, trail + offset))
    if is_gbk:
        return ERROR
    pointer = _index_gb18030_ranges_pointer(cp)
    byte1 = pointer // (10 * 126 * 10)
    pointer = pointer % (10 * 126 * 10)
    byte2 = pointer // (10 * 126)
    pointer = pointer % (10 * 126)
    byte3 = pointer // 10
    byte4 = pointer % 10
    return bytes((byte1 + 0x81, byte2 + 0x30, byte3 + 0x81, byte4 + 0x30))


def big5(cp: int) -> bytes | str:
    if cp < 0x80:
        return bytes((cp,))
    pointer = _index_big5_pointer(cp)
    if pointer is None:
        return ERROR
    lead = pointer // 157 + 0x81
    trail = pointer % 157
    offset = 0x40 if trail < 0x3F else 0x62
    return bytes((lead, trail + offset))


def euc_jp(cp: int) -> bytes | str:
    if cp < 0x80:
        return bytes((cp,))
    if cp == 0xA5:
        return b"\x5c"
    if cp == 0x203E:
        return b"\x7e"
    if 0xFF61 <= cp <= 0xFF9F:
        return bytes((0x8E, cp - 0xFF61 + 0xA1))
    if cp == 0x2212:
        cp = 0xFF0D
    pointer = index_pointer(load_index("index_jis0208_data"), cp)
    if pointer is None:
        return ERROR
    return bytes((pointer // 94 + 0xA1, pointer % 94 + 0xA1))


def shift_jis(cp: int) -> bytes | str:
    if cp < 0x80 or cp == 0x80:
        return bytes((cp,))
    if cp == 0xA5:
        return b"\x5c"
    if cp == 0x203E:
        return b"\x7e"
    if 0xFF61 <= cp <= 0xFF9F:
        return bytes((cp - 0xFF61 + 0xA1,))
    if cp == 0x2212:
        cp = 0xFF0D
    pointer = _index_shift_jis_pointer(cp)
    if pointer is None:
        return ERROR
    lead = pointer // 188
    lead_offset = 0x81 if lead < 0x1F else 0xC1
    trail = pointer % 188
    offset = 0x40 if trail < 0x3F else 0x41
    return bytes((lead + lead_offset, trail + offset))


def euc_kr(cp: int) -> bytes | str:
    if cp < 0x80:
        return bytes((cp,))
    pointer = index_pointer(load_index("index_euc_kr_data"), cp)
    if pointer is None:
        return ERROR
    return bytes((pointer // 190 + 0x81, pointer % 190 + 0x41))


class ISO2022JPEncoder:
    """The spec's ISO-2022-JP encoder with its state."""

    def __init__(self) -> None:
        self.state = "ASCII"

    def handler(self, queue: deque[int], cp: int | None) -> bytes | tuple[str, int] | None:
        """Bytes, ``(ERROR, code point)``, or None for finished; ``queue`` is the input's
        rest, its next item first (restore = insert at 0)."""
        if cp is None:
            if self.state != "ASCII":
                queue.appendleft(-1)  # prepend end-of-queue again
                self.state = "ASCII"
                return b"\x1b\x28\x42"
            return None
        if self.state in ("ASCII", "Roman") and cp in (0x0E, 0x0F, 0x1B):
            return (ERROR, 0xFFFD)
        if self.state == "ASCII" and cp < 0x80:
            return bytes((cp,))
        if self.state == "Roman" and (
            (cp < 0x80 and cp not in (0x5C, 0x7E)) or cp in (0xA5, 0x203E)
        ):
            if cp < 0x80:
                return bytes((cp,))
            if cp == 0xA5:
                return b"\x5c"
            return b"\x7e"
        if cp < 0x80 and self.state != "ASCII":
            queue.appendleft(cp)
            self.state = "ASCII"
            return b"\x1b\x28\x42"
        if cp in (0xA5, 0x203E) and self.state != "Roman":
            queue.appendleft(cp)
            self.state = "Roman"
            return b"\x1b\x28\x4a"
        if cp == 0x2212:
            cp = 0xFF0D
        if 0xFF61 <= cp <= 0xFF9F:
            cp = ord(load_index("index_iso_2022_jp_katakana_data")[cp - 0xFF61])
        pointer = index_pointer(load_index("index_jis0208_data"), cp)
        if pointer is None:
            if self.state == "jis0208":
                queue.appendleft(cp)
                self.state = "ASCII"
                return b"\x1b\x28\x42"
            return (ERROR, cp)
        if self.state != "jis0208":
            queue.appendleft(cp)
            self.state = "jis0208"
            return b"\x1b\x24\x42"
        return bytes((pointer // 94 + 0x21, pointer % 94 + 0x21))


def encode(text: str, name: str, errors: str = "html") -> bytes:
    """The spec's *encode or fail* / *encode* loop over ``text`` with ``name``'s encoder.

    ``errors="fatal"`` raises ``ValueError`` at the first error.
    """
    queue = deque([0xFFFD if 0xD800 <= ord(c) <= 0xDFFF else ord(c) for c in text] + [-1])
    out = bytearray()
    iso = ISO2022JPEncoder() if name == "ISO-2022-JP" else None
    while queue:
        item = queue.popleft()
        cp = None if item == -1 else item
        if iso is not None:
            result = iso.handler(queue, cp)
            if result is None:
                break
            if isinstance(result, tuple):
                if errors == "fatal":
                    raise ValueError(f"error with U+{result[1]:04X}")
                queue.extendleft(ord(c) for c in reversed(f"&#{result[1]};"))
                continue
            out += result
            continue
        if cp is None:
            break
        step = _handler(name, cp)
        if step == ERROR:
            if errors == "fatal":
                raise ValueError(f"error with U+{cp:04X}")
            queue.extendleft(ord(c) for c in reversed(f"&#{cp};"))
            continue
        assert isinstance(step, bytes)
        out += step
    return bytes(out)


def _handler(name: str, cp: int) -> bytes | str:
    if name in SINGLE_BYTE:
        return single_byte(name, cp)
    if name == "x-user-defined":
        return x_user_defined(cp)
    if name in ("gb18030", "GBK"):
        return gb18030(cp, name == "GBK")
    return {"Big5": big5, "EUC-JP": euc_jp, "Shift_JIS": shift_jis, "EUC-KR": euc_kr}[name](cp)
