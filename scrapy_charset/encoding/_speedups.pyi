# Compiled decoders for the CJK and single-byte encodings (_speedups.c).
from typing import Any

SHIFT_JIS: int
EUC_KR: int
BIG5: int
EUC_JP: int
GB18030: int
ISO_2022_JP: int

def decode(data: bytes, encoding: int, index: str, *extra: Any) -> str: ...
def boundary(data: bytes, encoding: int, limit: int, index: str, *extra: Any) -> int: ...
def encode(
    text: str, start: int, table: Any, kind: int, html: bool, stop_astral: bool, /
) -> tuple[bytes, int]: ...
def codec_encode(
    table: Any, kind: int, stop_astral: bool, fallback: Any, text: str, errors: str = ..., /
) -> tuple[bytes, int]: ...
def encode_html(
    table: Any, kind: int, stop_astral: bool, fallback: Any, text: str, /
) -> bytes: ...
def decode_single_byte(data: bytes, table: str) -> str: ...
