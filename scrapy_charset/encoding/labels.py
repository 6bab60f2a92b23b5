"""The Encoding Standard's encodings and labels, and its "get an encoding" algorithm."""

from __future__ import annotations

from typing import Any

from .tables.labels_data import ENCODINGS

# Nearest Python codec for each encoding, used for ``response.encoding`` (Scrapy encodes URLs
# and form data with it) and as a fast path where it is proven identical to the spec's decoder.
# ``exact`` claims Python's codec, with errors="replace", decodes every byte sequence exactly
# as the spec's decoder does; tests/encoding/test_python_codec_exact.py measures each flag.
_PYTHON_CODECS: dict[str, tuple[str, bool]] = {
    "UTF-8": ("utf-8", True),
    "IBM866": ("cp866", True),
    "ISO-8859-2": ("iso8859-2", True),
    "ISO-8859-3": ("iso8859-3", True),
    "ISO-8859-4": ("iso8859-4", True),
    "ISO-8859-5": ("iso8859-5", True),
    "ISO-8859-6": ("iso8859-6", True),
    "ISO-8859-7": ("iso8859-7", True),
    "ISO-8859-8": ("iso8859-8", True),
    "ISO-8859-8-I": ("iso8859-8", True),
    "ISO-8859-10": ("iso8859-10", True),
    "ISO-8859-13": ("iso8859-13", True),
    "ISO-8859-14": ("iso8859-14", True),
    "ISO-8859-15": ("iso8859-15", True),
    "ISO-8859-16": ("iso8859-16", True),
    "KOI8-R": ("koi8-r", True),
    "KOI8-U": ("koi8-u", False),
    "macintosh": ("mac-roman", True),
    "windows-874": ("cp874", False),
    "windows-1250": ("cp1250", False),
    "windows-1251": ("cp1251", False),
    "windows-1252": ("cp1252", False),
    "windows-1253": ("cp1253", False),
    "windows-1254": ("cp1254", False),
    "windows-1255": ("cp1255", False),
    "windows-1256": ("cp1256", True),
    "windows-1257": ("cp1257", False),
    "windows-1258": ("cp1258", False),
    "x-mac-cyrillic": ("mac-cyrillic", True),
    "GBK": ("gbk", False),
    "gb18030": ("gb18030", False),
    "Big5": ("big5hkscs", False),
    "EUC-JP": ("euc-jp", False),
    "ISO-2022-JP": ("iso2022-jp", False),
    "Shift_JIS": ("cp932", False),
    "EUC-KR": ("cp949", False),
    # The spec's "get an output encoding" turns these into UTF-8 for URLs and forms.
    "replacement": ("utf-8", False),
    "UTF-16BE": ("utf-16-be", True),
    "UTF-16LE": ("utf-16-le", True),
    "x-user-defined": ("latin-1", False),
}


class FrozenRecord:
    """A base for the package's immutable public records (:class:`Encoding`,
    ``sniffing.Decision``, ``sniffing.Declaration``), behaving as a frozen dataclass of the
    fields named in the ``__slots__`` of each class (a subclass's after its base's): the same
    repr, equality and hash over the fields, assigning or deleting a field raises
    ``dataclasses.FrozenInstanceError``, weak references and ``copy.replace`` (Python 3.13)
    work. They are not dataclasses: ``dataclasses.replace``, ``asdict`` and ``fields`` do not
    apply to them. Hand-written because ``@dataclass(frozen=True)`` costs about 0.7 ms per
    class at import."""

    __slots__: tuple[str, ...] = ("__weakref__",)
    # The fields: the slots of every class from this one down, in that order (as a dataclass
    # subclass's fields follow its base's), so that a subclass adding a field compares,
    # hashes, prints and pickles with all of them.
    _fields: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields: list[str] = []
        for klass in reversed(cls.__mro__):
            slots = klass.__dict__.get("__slots__", ())
            for name in (slots,) if isinstance(slots, str) else slots:
                if name.startswith("__") and not name.endswith("__"):  # a private name
                    name = f"_{klass.__name__.lstrip('_')}{name}"
                if name not in ("__weakref__", "__dict__") and name not in fields:
                    fields.append(name)
        cls._fields = tuple(fields)

    def __replace__(self, **changes: Any) -> Any:
        values = {field: getattr(self, field) for field in self._fields}
        unknown = changes.keys() - values.keys()
        if unknown:
            raise TypeError(f"{type(self).__qualname__} has no field {sorted(unknown)[0]!r}")
        return type(self)(**{**values, **changes})

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, field) for field in self._fields])

    def __repr__(self) -> str:
        fields = ", ".join([f"{field}={getattr(self, field)!r}" for field in self._fields])
        return f"{type(self).__qualname__}({fields})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values() == other._values()  # type: ignore[attr-defined, no-any-return]
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __reduce__(self) -> str | tuple[Any, ...]:
        return (type(self), self._values())

    def __setattr__(self, name: str, value: Any) -> None:
        raise _frozen(name)

    def __delattr__(self, name: str) -> None:
        raise _frozen(name)


def _frozen(name: str) -> Exception:
    from dataclasses import FrozenInstanceError  # already imported in any Scrapy process

    return FrozenInstanceError(f"cannot assign to field {name!r}")


_set = object.__setattr__


class Encoding(FrozenRecord):
    """One encoding of the Encoding Standard.

    ``name`` is the spec's name (``"Shift_JIS"``); ``python_codec`` the nearest Python codec
    name (what Scrapy's ``response.encoding`` should hold); ``python_codec_exact`` whether that
    codec decodes every input exactly as the spec's decoder does. Equal and hashed by name.
    """

    __slots__ = ("name", "labels", "heading", "python_codec", "python_codec_exact")
    __match_args__ = ("name", "labels", "heading", "python_codec", "python_codec_exact")

    name: str
    labels: tuple[str, ...]
    heading: str
    python_codec: str
    python_codec_exact: bool

    def __init__(
        self,
        name: str,
        labels: tuple[str, ...],
        heading: str,
        python_codec: str,
        python_codec_exact: bool,
    ) -> None:
        _set(self, "name", name)
        _set(self, "labels", labels)
        _set(self, "heading", heading)
        _set(self, "python_codec", python_codec)
        _set(self, "python_codec_exact", python_codec_exact)

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(name={self.name!r})"

    def __str__(self) -> str:
        return self.name

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self.name == other.name  # type: ignore[attr-defined, no-any-return]
        return NotImplemented

    def __hash__(self) -> int:
        # Equality is the name's: hash the name alone (encoders are looked up by encoding on
        # every call).
        return hash(self.name)

    def __reduce__(self) -> str | tuple[Any, ...]:
        # One of the standard's encodings pickles (and copies) as its name and comes back as
        # the same object, so ``is`` comparisons hold after a round trip; the labels are not
        # written out. Any other instance pickles field by field.
        if BY_NAME.get(self.name) is self:
            return (_by_name, (self.name,))
        return super().__reduce__()


def _by_name(name: str) -> Encoding:
    """The encoding with the spec's name ``name`` (used to unpickle an :class:`Encoding`)."""
    return BY_NAME[name]


ALL_ENCODINGS: tuple[Encoding, ...] = tuple(
    Encoding(name, labels, heading, *_PYTHON_CODECS[name]) for name, heading, labels in ENCODINGS
)
BY_NAME: dict[str, Encoding] = {enc.name: enc for enc in ALL_ENCODINGS}
_BY_LABEL: dict[str, Encoding] = {label: enc for enc in ALL_ENCODINGS for label in enc.labels}

# ASCII whitespace per the Infra Standard; str.strip() alone would also strip e.g. U+00A0.
_ASCII_WHITESPACE = "\t\n\f\r "
# ASCII lowercase only: str.lower() would map U+212A KELVIN SIGN to "k" and make
# "\u212aoi8-r" a label, which it is not.
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_LONGEST_LABEL = max(len(label) for label in _BY_LABEL)

UTF_8 = BY_NAME["UTF-8"]
UTF_16BE = BY_NAME["UTF-16BE"]
UTF_16LE = BY_NAME["UTF-16LE"]
WINDOWS_1252 = BY_NAME["windows-1252"]
REPLACEMENT = BY_NAME["replacement"]
X_USER_DEFINED = BY_NAME["x-user-defined"]


def lookup(label: str | bytes) -> Encoding | None:
    """The spec's "get an encoding": the encoding for ``label``, or ``None``.

    ASCII whitespace around the label is ignored and matching is ASCII case-insensitive.
    Anything that is not one of the standard's 228 labels gives ``None``, including names
    Python knows (``utf-7``, ``latin_1``, ``cp037``). Bytes are read as ASCII; any other type
    raises ``TypeError``.
    """
    if type(label) is str:
        found = _BY_LABEL.get(label)  # a label as the standard writes it (most are)
        if found is not None:
            return found
    if isinstance(label, (bytes, bytearray, memoryview)):
        label = bytes(label).decode("latin-1")
    elif not isinstance(label, str):
        raise TypeError(f"encoding label must be str or bytes, not {type(label).__name__}")
    # Bound the work on hostile input: whitespace aside, no label is longer than this.
    if len(label) > _LONGEST_LABEL + 64:
        label = label.strip(_ASCII_WHITESPACE)
        if len(label) > _LONGEST_LABEL:
            return None
    return _BY_LABEL.get(label.strip(_ASCII_WHITESPACE).translate(_ASCII_LOWER))


def get_encoding(name_or_label: str | Encoding) -> Encoding:
    """The encoding named or labelled ``name_or_label``; ``LookupError`` if there is none."""
    if isinstance(name_or_label, Encoding):
        return name_or_label
    enc = lookup(name_or_label)
    if enc is None:
        raise LookupError(f"not an Encoding Standard label: {name_or_label!r}")
    return enc
