"""A JSON serializer for scrapy-redis (``SCHEDULER_SERIALIZER = "tests.support.redis_json"``).

Like the JSON serializers projects write for shared queues: Scrapy's request dict holds bytes
(body, header names and values), which are tagged; every other value must be plain JSON (str,
int, float, bool, None, lists, dicts with str keys). Anything else, such as an object a plugin
left in ``request.meta``, raises ``TypeError`` as a real JSON serializer would.
"""

from __future__ import annotations

import base64
import json
from typing import Any

_BYTES = "__bytes__"
_PAIRS = "__pairs__"  # a dict with non-str keys (Scrapy's headers: bytes -> list of bytes)


def _encode(value: Any) -> Any:
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, bytes):
        return {_BYTES: base64.b64encode(value).decode("ascii")}
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        if all(isinstance(key, str) for key in value):
            return {key: _encode(v) for key, v in value.items()}
        return {_PAIRS: [[_encode(key), _encode(v)] for key, v in value.items()]}
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if isinstance(value, dict):
        if set(value) == {_BYTES}:
            return base64.b64decode(value[_BYTES])
        if set(value) == {_PAIRS}:
            return {_decode(key): _decode(v) for key, v in value[_PAIRS]}
        return {key: _decode(v) for key, v in value.items()}
    return value


def dumps(obj: Any) -> str:
    return json.dumps(_encode(obj), ensure_ascii=False, allow_nan=False)


def loads(data: str | bytes) -> Any:
    return _decode(json.loads(data))
