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
_UNKNOWN: Any = object()


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

    def __init__(
        self, found: list[FieldState | ValueCheck], damaged: list[ValueCheck]
    ) -> None:
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


class Rewriter:
    """Rewrites text values of an item through ``transform(text, path)``, rebuilding the
    containers that change (a dict subclass or nested item is updated in place)."""

    def __init__(self, transform: Callable[[str, str], str]) -> None:
        self.transform = transform
        self.changed = 0
        self.failed = 0
        # Containers already rewritten -> their result: a shared child is rewritten once (at
        # its first path), and a cycle ends at a container under way (kept as it is).
        self._done: dict[int, Any] = {}

    def item(self, item: Any, skip: str) -> None:
        """Rewrite every field of ``item`` but ``skip``; a field that cannot be written back
        (a frozen dataclass, a read-only mapping) stays as it is and is counted in failed."""
        try:
            fields = fields_of(item)
        except Exception:
            self.failed += 1
            return
        for name, value in fields:
            try:
                if type(name) is str and name == skip:  # (a key's own __eq__ may raise)
                    continue
                new = self.value(value, name if type(name) is str else str(name), 1)
                if new is not value:
                    set_field(item, name, new)
            except Exception:
                self.failed += 1

    def value(self, value: Any, path: str, depth: int) -> Any:
        """``value`` rewritten; the very same object when nothing changes."""
        if isinstance(value, str):
            new = self.transform(value, path)
            if new is value or new == value:
                return value
            self.changed += 1
            return new
        if isinstance(value, _SCALARS) or depth >= MAX_DEPTH:
            return value
        key = id(value)  # the item holds every container, so no id is reused meanwhile
        done = self._done.get(key, _UNKNOWN)
        if done is not _UNKNOWN:
            return done
        self._done[key] = value  # under way: a cycle back to it keeps it
        new = self._container(value, path, depth)
        self._done[key] = new
        return new

    def _container(self, value: Any, path: str, depth: int) -> Any:
        if isinstance(value, dict):
            pairs = [
                (k, v, self.value(v, child_path(path, k), depth + 1))
                for k, v in list(value.items())
            ]
            if all(new is old for _, old, new in pairs):
                return value
            if type(value) is dict:
                return {k: new for k, _, new in pairs}
            for k, old, new in pairs:  # a dict subclass keeps its identity and type
                if new is not old:
                    value[k] = new
            return value
        if isinstance(value, (list, tuple)):
            olds = list(value)
            items = [self.value(v, path + "[]", depth + 1) for v in olds]
            if all(new is old for new, old in zip(items, olds, strict=True)):
                return value
            return items if type(value) is list else tuple(items)
        if is_item(value):
            fields = adapter(value)
            for name, sub in list(fields.items()):
                new = self.value(sub, child_path(path, name), depth + 1)
                if new is not sub:
                    fields[name] = new
        return value


# -- the actions, in their order ------------------------------------------------------------
def repair_values(item: Any, findings: Findings, context: Context) -> None:
    """Replace each value found with mojibake (at a path of CHARSET_ITEM_REPAIR_FIELDS, or
    any) by its repair; record each repair in ``findings.repairs``."""
    chosen = context.config.repair_fields
    targets = {id(check.value): check for check in findings.damaged if check.mojibake_chars}
    if not targets:
        return

    def transform(text: str, path: str) -> str:
        check = targets.get(id(text))
        if check is None or check.value is not text or (chosen and not matches(path, chosen)):
            return text
        fixed = repair(text)
        if fixed is not text:
            findings.repairs.append(Repair(path, text, fixed))
            if check.state is not None and check.path == path:
                check.state.repaired += 1
        return fixed

    _rewrite(item, transform, context, "repaired", "repair_failed")


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

    _rewrite(item, transform, context, "normalized", "normalize_failed")


def _rewrite(
    item: Any, transform: Callable[[str, str], str], context: Context, done: str, failed: str
) -> None:
    """Apply ``transform`` to every string of ``item``; count the changed and failed values."""
    rewriter = Rewriter(transform)
    rewriter.item(item, context.config.findings_field)
    if rewriter.changed:
        context.add_stat(done, rewriter.changed)
    if rewriter.failed:
        context.add_stat(failed, rewriter.failed)


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
        ).append(
            {"before": done.before, "after": done.after}
        )
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
    repaired = {id(done.before) for done in findings.repairs}
    left = [check for check in findings.damaged if id(check.value) not in repaired
            or check.replacement_chars]
    if left and len(left) / len(findings.found) > limit:
        context.add_stat("dropped", 1)
        raise DropItem(
            f"{len(left)} of {len(findings.found)} text values damaged (U+FFFD or mojibake): "
            + ", ".join(sorted({check.path for check in left}))
        )


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
