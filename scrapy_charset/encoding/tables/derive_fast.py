"""Derive how far CPython's CJK C codecs can stand in for the spec's decoders.

For each CJK encoding this sweeps every byte sequence the C codec reads as one character (all
1- and 2-byte sequences, 3-byte EUC-JP, every gb18030 four-byte pointer) and compares it with
the spec-literal decoder in :mod:`scrapy_charset.encoding.reference`:

- *same*: the spec reads the same bytes as one character with the same output;
- *fix*: the spec reads the same bytes as one character but outputs something else; when the
  codec's output character cannot come from anywhere else, a ``str`` fix-up repairs it;
- *suspect*: anything else; text containing such a character takes the spec-exact token path.

Sequences the C codec rejects never need a table: the runtime error handler runs the spec's
step there. ``generate.py`` writes the result to ``fast_cjk_data.py``.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterator

from .. import reference
from ..labels import BY_NAME

# Encoding -> the C codec nearest to it (chosen by the sweep: fewest differences).
C_CODECS: dict[str, str] = {
    "Shift_JIS": "cp932",
    "EUC-KR": "cp949",
    "Big5": "big5hkscs",
    "gb18030": "gb18030",
    "GBK": "gb18030",
    "EUC-JP": "euc_jp",
}
_MAX_DEPTH = 3  # gb18030's four-byte area is swept separately, pointer by pointer.


def c_tokens(codec: str, depth: int = _MAX_DEPTH) -> Iterator[tuple[bytes, str]]:
    """Every byte sequence (up to ``depth`` bytes) the codec decodes as one unit, with its
    output."""
    frontier = [b""]
    for _ in range(depth):
        incomplete: list[bytes] = []
        for prefix in frontier:
            for byte in range(256):
                seq = prefix + bytes([byte])
                decoder = codecs.getincrementaldecoder(codec)()
                try:
                    out = decoder.decode(seq, False)
                except UnicodeDecodeError:
                    continue
                pending = decoder.getstate()[0]
                if not out and pending == seq:
                    incomplete.append(seq)
                elif out and not pending:
                    yield seq, out
        frontier = incomplete


PREFIX = "prefix"  # spec_token: the spec still waits for more bytes


def spec_token(new_decoder: Callable[[], reference.Decoder], seq: bytes) -> str | None:
    """The spec's output if it reads ``seq`` as exactly one unit from its initial state;
    ``PREFIX`` if it is still inside a unit after ``seq``; otherwise None."""
    decoder = new_decoder()
    queue = reference.IOQueue(b"", ended=False)
    for i, byte in enumerate(seq):
        result = decoder.handler(queue, byte)
        last = i == len(seq) - 1
        if queue.front or (not last and result != reference.CONTINUE):
            return None
    if result == reference.CONTINUE:
        return PREFIX
    if not decoder.is_initial():
        return None
    output: list[str] = []
    reference._append(output, result)
    return "".join(output)


def _gb18030_four_byte(pointer: int) -> bytes:
    return bytes(
        (
            pointer // 12600 + 0x81,
            pointer // 1260 % 10 + 0x30,
            pointer // 10 % 126 + 0x81,
            pointer % 10 + 0x30,
        )
    )


def _gb18030_spec_text(pointers: range) -> str:
    """The spec's output for each four-byte pointer in ``pointers``, U+FFFD for null.

    Built a range at a time; ``reference.gb18030_ranges_code_point`` is the definition and
    the test suite checks the two agree."""
    parts = []
    pointer = pointers.start
    while pointer < pointers.stop:
        code_point = reference.gb18030_ranges_code_point(pointer)
        if code_point is None or pointer == 7457:
            parts.append("\ufffd" if code_point is None else chr(code_point))
            pointer += 1
            continue
        # Up to the next range start (or null/special pointer), code points run consecutively.
        end = min(pointers.stop, _next_break(pointer))
        parts.append("".join(map(chr, range(code_point, code_point + end - pointer))))
        pointer = end
    return "".join(parts)


def _next_break(pointer: int) -> int:
    from bisect import bisect_right

    starts = reference._gb18030_ranges()[0]
    i = bisect_right(starts, pointer)
    candidates = [39420, 1237576] + ([starts[i]] if i < len(starts) else [])
    if pointer < 7457:
        candidates.append(7457)
    return min(c for c in candidates if c > pointer)


def _gb18030_four_byte_units() -> Iterator[tuple[bytes, str | None, str]]:
    """(bytes, C output or None for an error, spec output) for each four-byte pointer where
    the C codec and the spec differ, decoded in bulk per first byte."""
    for first in range(126):
        pointers = range(first * 12600, (first + 1) * 12600)
        data = b"".join(map(_gb18030_four_byte, pointers))
        errors: list[int] = []

        def skip_unit(exc: UnicodeError, errors: list[int] = errors) -> tuple[str, int]:
            assert isinstance(exc, UnicodeDecodeError)
            errors.append(exc.start // 4)
            return "", exc.start // 4 * 4 + 4

        codecs.register_error("scrapy_charset.derive.skip", skip_unit)
        c_text = data.decode("gb18030", "scrapy_charset.derive.skip")
        spec_text = _gb18030_spec_text(pointers)
        # Step 1 of "index gb18030 ranges code point" is the only way to get null.
        nulls = [i for i, p in enumerate(pointers) if 39419 < p < 189000 or p > 1237575]
        null_set = set(nulls)
        if errors == nulls and c_text == "".join(
            ch for i, ch in enumerate(spec_text) if i not in null_set
        ):
            continue  # the C codec rejects exactly the null pointers and agrees on the rest
        error_set = set(errors)
        c_chars = iter(c_text)
        for i, pointer in enumerate(pointers):
            c_out = None if i in error_set else next(c_chars)
            if c_out != spec_text[i]:
                yield _gb18030_four_byte(pointer), c_out, spec_text[i]


Derived = tuple[dict[str, str], dict[str, tuple[bytes, ...]], dict[str, tuple[bytes, ...]]]


def derive(name: str) -> Derived:
    """For one encoding: fix-ups (C codec character -> spec text), the byte sequences behind
    each fix-up, and suspects (character -> the byte sequences the C codec turns into it where
    the spec does something else)."""
    codec = C_CODECS[name]
    encoding = BY_NAME[name]

    def new_decoder() -> reference.Decoder:
        return reference.new_decoder(encoding)

    good_chars: set[str] = set()
    wrong: dict[str, dict[bytes, str]] = {}  # C output -> {bytes: spec output}
    suspect: dict[str, set[bytes]] = {}
    c_token_seqs: set[bytes] = set()
    # gb18030's C codec completes no three-byte sequence; its four-byte area is swept below.
    for seq, out in c_tokens(codec, 2 if codec == "gb18030" else _MAX_DEPTH):
        c_token_seqs.add(seq)
        spec = spec_token(new_decoder, seq)
        if spec == out:
            good_chars.update(out)
        elif spec is None or spec == PREFIX or len(out) != 1:
            for char in out:
                suspect.setdefault(char, set()).add(seq)
        else:
            wrong.setdefault(out, {})[seq] = spec
    # What the error handler can emit: the spec's output for units the C codec rejects.
    handler_chars = {"\ufffd"}
    if name in ("gb18030", "GBK"):
        for seq, c_out, spec in _gb18030_four_byte_units():
            if c_out is None:
                handler_chars.update(spec)
            else:
                wrong.setdefault(c_out, {})[seq] = spec
    prefixes = [b""]
    for _ in range(_MAX_DEPTH):  # the spec's units up to 3 bytes (gb18030's 4 are above)
        longer = []
        for prefix in prefixes:
            for byte in range(256):
                seq = prefix + bytes([byte])
                spec = spec_token(new_decoder, seq)
                if spec == PREFIX:
                    longer.append(seq)
                elif spec is not None and seq not in c_token_seqs:
                    handler_chars.update(spec)
        # gb18030: three bytes are never a unit; its four-byte units were swept above.
        prefixes = longer
        if name in ("gb18030", "GBK") and longer and len(longer[0]) == 2:
            break
    fixes: dict[str, str] = {}
    fix_sequences: dict[str, tuple[bytes, ...]] = {}
    for out, specs in wrong.items():
        unique = set(specs.values())
        if len(unique) == 1 and out not in good_chars | handler_chars | suspect.keys():
            fixes[out] = unique.pop()
            fix_sequences[out] = tuple(sorted(specs))
        else:
            suspect.setdefault(out, set()).update(specs)
    return (
        dict(sorted(fixes.items())),
        dict(sorted(fix_sequences.items())),
        {char: tuple(sorted(seqs)) for char, seqs in sorted(suspect.items())},
    )


def derive_iso_2022_jp() -> Derived:
    """The same for Python's ``iso2022_jp`` codec on well-formed input (see ``cjk``): every
    JIS X 0208 pair after both of its escape sequences, against the spec."""
    encoding = BY_NAME["ISO-2022-JP"]
    spec_chars = {"\ufffd"}  # everything the spec's ISO-2022-JP decoder can output
    for byte in range(0x80):
        for state in (b"", b"\x1b(J", b"\x1b(I"):
            spec_chars.update(reference.decode_without_bom(state + bytes([byte]), encoding))
    wrong: dict[str, dict[bytes, str]] = {}
    for lead in range(0x21, 0x7F):
        for trail in range(0x21, 0x7F):
            for escape in (b"\x1b$B", b"\x1b$@"):
                data = escape + bytes([lead, trail]) + b"\x1b(B"
                spec = reference.decode_without_bom(data, encoding)
                spec_chars.update(spec)
                try:
                    out = data.decode("iso2022_jp")
                except UnicodeDecodeError:
                    continue  # the codec refuses: the spec's path decodes such input
                if out != spec:
                    wrong.setdefault(out, {})[bytes([lead, trail])] = spec
    fixes: dict[str, str] = {}
    fix_sequences: dict[str, tuple[bytes, ...]] = {}
    suspects: dict[str, tuple[bytes, ...]] = {}
    for out, specs in sorted(wrong.items()):
        unique = set(specs.values())
        if len(out) == 1 and len(unique) == 1 and out not in spec_chars:
            fixes[out] = unique.pop()
            fix_sequences[out] = tuple(sorted(specs))
        else:
            for char in out:
                suspects[char] = tuple(sorted(specs))
    return fixes, fix_sequences, suspects
