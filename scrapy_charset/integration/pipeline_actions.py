"""The item pipeline's opt-in actions, run in this fixed order on an inspected item:

1. **repair** (``CHARSET_ITEM_REPAIR``): values found with mojibake are replaced by
   :func:`scrapy_charset.quality.repair`; first, so that later actions see the repaired text;
2. **normalize** (``CHARSET_ITEM_NORMALIZE``): Unicode normalization of the wanted values;
   after repair, because NFKC would turn mojibake such as ``â€™`` into ``â€TM``;
3. **annotate** (``CHARSET_ITEM_ADD_FINDINGS``): the findings (and the repairs, before and
   after) in a field of the item;
4. **drop** (``CHARSET_ITEM_DROP_THRESHOLD``): last, so an item is dropped only for damage that
   is still there (a repaired value no longer counts).

Each action is a function of the item and its :class:`Findings`; the pipeline runs those that
are switched on. No Scrapy import but ``DropItem``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, MutableMapping
from typing import Any

from scrapy.exceptions import DropItem

from .._namedtuple import NamedTuple
from ..quality import NormalForm, normalize, repair
from .itemtypes import adapter, is_item
from .pipeline_settings import PipelineConfig
from .pipeline_spikes import FieldState

MAX_DEPTH = 32  # nesting below this is not inspected nor rewritten
_SCALARS = (bytes, bytearray, memoryview, int, float, complex, type(None))


class ValueCheck(NamedTuple):
    """A damaged text value found in an item, at a field path such as ``offers[].name``."""

    path: str
    replacement_chars: int
    mojibake_chars: int
    state: FieldState | None = None
    value: str = ""  # the text itself


class Repair(NamedTuple):
    path: str
    before: str
    after: str


class Findings:
    """What the walk over one item found: every wanted text value (the FieldState of a clean
    one, the ValueCheck of a damaged one), the damaged ones, and the repairs made."""

    __slots__ = ("found", "damaged", "repairs")

    def __init__(self, found: list[FieldState | ValueCheck], damaged: list[ValueCheck]) -> None:
        self.found = found
        self.damaged = damaged
        self.repairs: list[Repair] = []


class Context(NamedTuple):
    """What the actions need from the pipeline."""

    config: PipelineConfig
    add_stat: Callable[[str, int], None]  # (stat name under charset/item/, amount)
    wanted: Callable[[str], bool]  # whether a field path is inspected at all


def matches(path: str, prefixes: tuple[str, ...]) -> bool:
    """``path`` is one of ``prefixes`` or inside one (``a`` covers ``a.b`` and ``a[]``)."""
    for prefix in prefixes:
        if path == prefix or (path.startswith(prefix) and path[len(prefix)] in ".["):
            return True
    return False


def child_path(parent: str, key: Any) -> str:
    return f"{parent}.{key}" if parent else str(key)


def fields_of(item: Any) -> Iterable[tuple[Any, Any]]:
    if type(item) is dict:
        return list(item.items())
    return list(adapter(item).items())


def set_field(item: Any, name: Any, value: Any) -> None:
    if type(item) is dict:
        item[name] = value
    else:
        adapter(item)[name] = value


Rewritten = tuple[Any, list[Repair]]  # a value rewritten, and the changes its new object holds


class Rewriter:
    """Rewrites text values of an item through ``transform(text, path)``, rebuilding the
    containers that change (a dict subclass or nested item is updated in place).

    A changed value counts (``written``) only once it is in the item: once the write that puts
    it, or a container rebuilt around it, into the item or into a container updated in place
    succeeded. A write that fails (a frozen dataclass, a read-only mapping) leaves that place
    as it was and is counted in ``failed``; the changes it would have brought are dropped."""

    def __init__(self, transform: Callable[[str, str], str]) -> None:
        self.transform = transform
        self.failed = 0
        self._written: dict[int, Repair] = {}  # id of each change written -> the change
        # Containers already rewritten -> their result: a shared child is rewritten once (at
        # its first path), and a cycle ends at a container under way (kept as it is).
        self._done: dict[int, Rewritten] = {}

    @property
    def written(self) -> list[Repair]:
        """The changes that are in the item, each once, in order: (path, before, after)."""
        return list(self._written.values())

    def item(self, item: Any, wanted: Callable[[str], bool]) -> None:
        """Rewrite the fields of ``item`` whose path (name) is ``wanted``."""
        try:
            target = item if type(item) is dict else adapter(item)  # (one ItemAdapter an item)
            fields = list(target.items())
        except Exception:
            self.failed += 1
            return
        self._done[id(item)] = (item, [])  # a field holding the item itself keeps it
        for name, value in fields:
            try:
                path = name if type(name) is str else str(name)
                if not wanted(path):
                    continue
                new, changes = self.value(value, path, 1)
            except Exception:  # (a key's own __str__, a nested item that cannot be read)
                self.failed += 1
                continue
            self._write(target, name, value, new, changes)

    def value(self, value: Any, path: str, depth: int) -> Rewritten:
        """``value`` rewritten, the very same object when nothing changes, and the changes
        the new object holds (none when it is the same object), not yet written."""
        if isinstance(value, str):
            new = self.transform(value, path)
            if new is value or new == value:
                return value, []
            return new, [Repair(path, value, new)]
        if isinstance(value, _SCALARS) or depth >= MAX_DEPTH:
            return value, []
        key = id(value)  # the item holds every container, so no id is reused meanwhile
        done = self._done.get(key)
        if done is not None:
            return done
        self._done[key] = (value, [])  # under way: a cycle back to it keeps it
        done = self._done[key] = self._container(value, path, depth)
        return done

    def _write(self, target: Any, key: Any, old: Any, new: Any, changes: list[Repair]) -> None:
        """``target[key] = new`` where ``new`` replaces ``old``; its changes count once there."""
        if new is not old:
            try:
                target[key] = new
            except Exception:
                self.failed += 1
                return
        for change in changes:
            self._written[id(change)] = change

    def _container(self, value: Any, path: str, depth: int) -> Rewritten:
        if type(value) is dict:
            return self._rebuilt_dict(value, path, depth)
        if isinstance(value, (list, tuple)):
            return self._rebuilt_sequence(value, path, depth)
        if isinstance(value, dict):  # a dict subclass keeps its identity and type
            self._update(value, path, depth)
        elif is_item(value):
            self._update(adapter(value), path, depth)
        return value, []

    def _rebuilt_dict(self, value: dict[Any, Any], path: str, depth: int) -> Rewritten:
        pairs = [(k, v, self.value(v, child_path(path, k), depth + 1)) for k, v in value.items()]
        if all(new is old for _, old, (new, _) in pairs):
            return value, []
        return {k: new for k, _, (new, _) in pairs}, [c for *_, (_, cs) in pairs for c in cs]

    def _rebuilt_sequence(
        self, value: list[Any] | tuple[Any, ...], path: str, depth: int
    ) -> Rewritten:
        olds = list(value)
        results = [self.value(v, path + "[]", depth + 1) for v in olds]
        items = [new for new, _ in results]
        if all(new is old for new, old in zip(items, olds, strict=True)):
            return value, []
        rebuilt = _rebuilt(value, items)
        if rebuilt is None:  # its type cannot be rebuilt: it stays as it is
            self.failed += 1
            return value, []
        return rebuilt, [change for _, changes in results for change in changes]

    def _update(self, target: Any, path: str, depth: int) -> None:
        """Write the changed fields of a container kept as it is, one by one (a dict subclass
        through its own ``__setitem__``, a nested item through its ItemAdapter)."""
        for name, old in list(target.items()):
            new, changes = self.value(old, child_path(path, name), depth + 1)
            self._write(target, name, old, new, changes)


def _rebuilt(value: list[Any] | tuple[Any, ...], items: list[Any]) -> Any:
    """``items`` in a sequence of ``value``'s own type: a list or tuple as such, a subclass
    through its constructor (a named tuple through ``_make``); None where that raises or gives
    anything but exactly ``items`` in that type."""
    kind = type(value)
    if kind is list:
        return items
    if kind is tuple:
        return tuple(items)
    make = getattr(kind, "_make", kind) if isinstance(value, tuple) else kind
    try:
        rebuilt = make(items)
        if type(rebuilt) is kind and all(a is b for a, b in zip(rebuilt, items, strict=True)):
            return rebuilt
    except Exception:  # (a constructor taking other arguments; zip: another length)
        pass
    return None


# -- the actions, in their order ------------------------------------------------------------
def repair_values(item: Any, findings: Findings, context: Context) -> None:
    """Replace each value found with mojibake (at a path of CHARSET_ITEM_REPAIR_FIELDS, or
    any) by its repair; record each repair written into the item in ``findings.repairs``.

    A value is repaired at the place it was found: at its path, as the very object found
    there (one str object may be held under several paths, not all of them inspected or
    chosen; and a path such as ``offers[].name`` holds several values)."""
    chosen = context.config.repair_fields
    targets = {
        (check.path, id(check.value)): check
        for check in findings.damaged
        if check.mojibake_chars and (not chosen or matches(check.path, chosen))
    }
    if not targets:
        return

    def transform(text: str, path: str) -> str:
        check = targets.get((path, id(text)))
        return text if check is None or check.value is not text else repair(text)

    # Only the fields holding a target are walked, so that a container they share with
    # another field is rewritten at the path where it was inspected.
    paths = {path for path, _ in targets}
    written = _rewrite(
        item, transform, context, "repaired", "repair_failed", lambda field: _holds(field, paths)
    )
    for done in written:
        state = targets[(done.path, id(done.before))].state
        if state is not None:
            state.repaired += 1
    findings.repairs.extend(written)


def _holds(field: str, paths: Iterable[str]) -> bool:
    """Whether one of ``paths`` is the top-level field ``field`` or inside it."""
    return any(matches(path, (field,)) for path in paths)


def normalize_values(item: Any, findings: Findings | None, context: Context) -> None:
    """Unicode-normalize the wanted values (CHARSET_ITEM_NORMALIZE_FIELDS, or any inspected)."""
    form: NormalForm | None = context.config.normalize
    if form is None:
        return
    chosen, wanted = context.config.normalize_fields, context.wanted

    def transform(text: str, path: str) -> str:
        if wanted(path) and (not chosen or matches(path, chosen)):
            return normalize(text, form)
        return text

    skip = context.config.findings_field
    _rewrite(
        item, transform, context, "normalized", "normalize_failed", lambda field: field != skip
    )


def _rewrite(
    item: Any,
    transform: Callable[[str, str], str],
    context: Context,
    done: str,
    failed: str,
    wanted: Callable[[str], bool],
) -> list[Repair]:
    """Apply ``transform`` to every string of the ``wanted`` fields of ``item``; count the
    values changed in the item and the writes that failed. The changes written into the item."""
    rewriter = Rewriter(transform)
    rewriter.item(item, wanted)
    written = rewriter.written
    if written:
        context.add_stat(done, len(written))
    if rewriter.failed:
        context.add_stat(failed, rewriter.failed)
    return written


def annotate(item: Any, findings: Findings, context: Context) -> None:
    """Put the findings in the item's findings field, where the item type can take it:
    per path, U+FFFD and mis-decoded characters, and the repairs (before and after)."""
    if not findings.damaged:
        return
    entries: dict[str, dict[str, Any]] = {}
    for check in findings.damaged:
        entry = entries.setdefault(check.path, {"replacement_chars": 0, "mojibake_chars": 0})
        entry["replacement_chars"] += check.replacement_chars
        entry["mojibake_chars"] += check.mojibake_chars
    for done in findings.repairs:
        entries.setdefault(done.path, {"replacement_chars": 0, "mojibake_chars": 0}).setdefault(
            "repaired", []
        ).append({"before": done.before, "after": done.after})
    name = context.config.findings_field
    try:
        if not _may_take(item, name):
            raise KeyError(name)
        set_field(item, name, entries)
    except Exception:
        context.add_stat("findings_skipped", 1)
        return
    context.add_stat("findings_added", 1)


def _may_take(item: Any, name: str) -> bool:
    """Whether ``item`` may take a field ``name`` it lacks: any dict (a subclass too) or other
    mutable mapping (a ``scrapy.Item`` then refuses a field it does not declare), or an item
    type that declares the field."""
    return isinstance(item, MutableMapping) or name in adapter(item).field_names()


def drop_if_damaged(item: Any, findings: Findings, context: Context) -> None:
    """Drop the item when the share of its text values still damaged (not repaired) is above
    CHARSET_ITEM_DROP_THRESHOLD."""
    limit = context.config.drop_threshold
    if limit is None or not findings.damaged or not findings.found:
        return
    left = _still_damaged(findings)
    if left and len(left) / len(findings.found) > limit:
        context.add_stat("dropped", 1)
        raise DropItem(
            f"{len(left)} of {len(findings.found)} text values damaged (U+FFFD or mojibake): "
            + ", ".join(sorted({check.path for check in left}))
        )


def _still_damaged(findings: Findings) -> list[ValueCheck]:
    """The damaged values not repaired in the item (a value with U+FFFD stays damaged), each
    matched to a repair written at its path, of the very object found there."""
    repaired = Counter((done.path, id(done.before)) for done in findings.repairs)
    left = []
    for check in findings.damaged:
        key = (check.path, id(check.value))
        if repaired[key] and not check.replacement_chars:
            repaired[key] -= 1
        else:
            left.append(check)
    return left


Action = Callable[[Any, Findings, Context], None]


def actions_for(config: PipelineConfig) -> tuple[Action, ...]:
    """The actions switched on by ``config``, in the fixed order."""
    chosen: list[Action] = []
    if config.repair:
        chosen.append(repair_values)
    if config.normalize is not None:
        chosen.append(normalize_values)
    if config.add_findings:
        chosen.append(annotate)
    if config.drop_threshold is not None:
        chosen.append(drop_if_damaged)
    return tuple(chosen)
