"""Item pipeline that watches scraped text for U+FFFD and mojibake, per field, and flags spikes.

Enable it with ``ITEM_PIPELINES = {"scrapy_charset.integration.pipeline.CharsetPipeline": 300}``
(or the add-on). By default it only writes ``charset/item/...`` stats and logs one warning per
field and spike; normalizing, annotating and dropping items are opt-in. An item it cannot
inspect passes through unchanged and is counted in ``charset/item/uninspectable``.
"""

from __future__ import annotations

import dataclasses
import logging
import operator
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from scrapy import Item
from scrapy.exceptions import DropItem, NotConfigured

from ..quality import (
    count_mojibake,
    dict_values_clean,
    mojibake_clean,
    text_clean,
    unclean_positions,
)
from .itemtypes import adapter, field_value, is_item
from .pipeline_actions import (
    MAX_DEPTH,
    Context,
    Findings,
    ValueCheck,
    actions_for,
    child_path,
    fields_of,
    matches,
    normalize_values,
)
from .pipeline_settings import PipelineConfig
from .pipeline_spikes import FieldState, Spike, SpikeRule

try:
    from .._text_speedups import instance_values
except ImportError:  # built without a C compiler: the fields are read with getattr
    instance_values = None  # type: ignore[assignment]

logger = logging.getLogger(__name__)

PREFIX = "charset/item/"
OTHER_FIELDS = "<other>"  # shared path once CHARSET_ITEM_MAX_FIELDS distinct paths exist
PUBLISH_EVERY = 1_000  # items between refreshes of the counting stats

_UNKNOWN: Any = object()  # route not looked up yet
_FIELD_COUNTERS = (
    "affected", "replacement_chars", "mojibake", "mojibake_chars", "damaged", "repaired"
)
MAX_SHAPES = 1_000  # distinct key sets remembered for the fast path
CLEAN_TALLY_LIMIT = 1 << 20  # clean items tallied at most before they are handed over
_SCALARS = (bytes, bytearray, memoryview, int, float, complex, type(None))


def check_text(
    path: str, text: str, state: FieldState | None = None, *, screened: bool = False
) -> ValueCheck | None:
    """The damage in one text value, or None when it has none. ``screened``: the caller saw
    text_clean(text) fail already (it is not called again)."""
    if not screened and text_clean(text):  # one compiled pass: the common case
        return None
    replacements = text.count("\ufffd")
    # Without U+FFFD the failed check was a mojibake candidate; with one, the same compiled
    # check without U+FFFD rules most such texts out first (a page read with the wrong
    # encoding leaves U+FFFD among genuine text). Either way the pre-screen has run: the
    # exact count follows without it.
    if replacements and mojibake_clean(text):
        mojibake = 0
    else:
        mojibake = count_mojibake(text, prechecked=True)
    if not replacements and not mojibake:
        return None
    return ValueCheck(path, replacements, mojibake, state, text)


def _top_name(path: str) -> str:
    return path.split(".", 1)[0].split("[", 1)[0]


class _Inspection:
    """Every wanted text value of one item, in order: the FieldState of a clean value (no
    allocation in the common case) or the ValueCheck of a damaged one. Never calls __str__."""

    __slots__ = ("resolve", "found", "damaged", "_visited")

    def __init__(self, resolve: Callable[[str], FieldState | None], item: Any) -> None:
        self.resolve = resolve  # path -> its FieldState, or None when not inspected
        self.found: list[FieldState | ValueCheck] = []
        self.damaged: list[ValueCheck] = []
        # Containers already walked: each is walked once, at its first path, so that cycles
        # end and shared children (node = [node, node], 24 deep) cost once, not 2**depth.
        # The item itself is walked first: a field holding it again ends there.
        self._visited: set[int] = {id(item)}

    def text(self, value: str, path: str, state: FieldState, screened: bool = False) -> None:
        check = check_text(path, value, state, screened=screened)
        if check is None:
            self.found.append(state)
        else:
            self.found.append(check)
            self.damaged.append(check)

    def walk(self, value: Any, path: str, depth: int) -> None:
        if isinstance(value, str):
            state = self.resolve(path)
            if state is not None:
                self.text(value, path, state)
            return
        if isinstance(value, _SCALARS) or depth >= MAX_DEPTH:
            return
        key = id(value)  # the item holds every container, so no id is reused meanwhile
        if key in self._visited:
            return
        self._visited.add(key)
        if isinstance(value, dict):
            for name, sub in list(value.items()):
                self.walk(sub, child_path(path, name), depth + 1)
        elif isinstance(value, (list, tuple, set, frozenset)):
            for sub in list(value):
                self.walk(sub, path + "[]", depth + 1)
        elif is_item(value):
            for name, sub in fields_of(value):
                self.walk(sub, child_path(path, name), depth + 1)


def _item_values(item: Any) -> dict[str, Any] | None:
    """For the fast path, the values ItemAdapter reads from an item, by field name: a
    ``scrapy.Item``'s dict (while its class reads fields from it), or a dataclass or attrs
    item's fields as ItemAdapter reads them with getattr: its instance dict where getattr
    reads them from it (checked on each item, so that a property or an attribute hook added
    to the class at any time is seen), else read one by one. None when a field cannot be
    read: the item is inspected value by value."""
    kind = type(item)
    if isinstance(item, Item):
        values = getattr(item, "_values", None)
        plain = kind.__getitem__ is Item.__getitem__ and kind.__iter__ is Item.__iter__
        return values if plain and type(values) is dict else None
    fields = _FIELDS.get(kind, _UNKNOWN)
    if fields is _UNKNOWN:
        fields = _declared_fields(item)
    if fields is None:
        return None
    names, read = fields
    values = instance_values(item, names) if instance_values is not None else None
    if values is not None:  # (the common case: the instance dict, checked in one C call)
        return values
    try:
        return dict(zip(names, read(item), strict=True))
    except Exception:  # a field not set, or a property that raises: the exact path copes
        return None


# Per class: its field names and a function reading them all (see _declared_fields).
_FIELDS: dict[type, tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]] | None] = {}


def _declared_fields(
    item: Any,
) -> tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]] | None:
    """The field names of a dataclass or attrs item's class, in ItemAdapter's order, and a
    function getting their values as ItemAdapter does (getattr of each); None for other
    classes. The class's field list is decided once; the values are read from each item."""
    kind = type(item)
    fields = None
    try:
        if dataclasses.is_dataclass(kind) or hasattr(kind, "__attrs_attrs__"):
            from itemadapter.adapter import AttrsAdapter, DataclassAdapter

            found = adapter(item)
            names = tuple(found.field_names())
            if names and isinstance(found.adapter, (AttrsAdapter, DataclassAdapter)):
                fields = names, _getter(names)
    except Exception:  # an odd class: its items are inspected value by value, which copes
        fields = None
    if len(_FIELDS) < MAX_SHAPES:
        _FIELDS[kind] = fields
    return fields


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """getattr of each name, in one call (attrgetter gives a bare value for one name)."""
    if len(names) == 1:
        name = names[0]
        return lambda item: (getattr(item, name),)
    return operator.attrgetter(*names)


class _Shape:
    """The text fields of dict items with one set of keys, for the fast paths.

    Clean values are only tallied here (``pending``) and handed to the fields in bulk: filling
    windows with clean values in one go gives exactly the windows one at a time would give.
    Only a window that holds damage can be a spike when it fills, so the tally goes on until
    such a window is full (``limit``); windows of clean values alone fill and close in bulk.
    """

    __slots__ = ("keys", "state_of", "order", "slots", "states", "pending", "limit")

    def __init__(self, keys: frozenset[str], state_of: dict[str, FieldState | None]) -> None:
        self.keys = keys
        self.state_of = state_of  # key -> its FieldState, or None when it is not inspected
        self.order: tuple[str, ...] = ()  # the keys in the order of the last such item
        self.slots: tuple[FieldState | None, ...] = ()  # state_of of each key of order
        self.states: list[FieldState] = []  # the inspected ones, in order
        self.pending = 0
        self.limit = 0

    def arrange(self, order: tuple[str, ...]) -> None:
        """Take the keys' order of the last such item: its fields are counted in that order
        (as the value-by-value path counts them, so that spikes are reported in that order)."""
        if order != self.order:
            self.order = order
            self.slots = tuple(self.state_of[key] for key in order)
            self.states = [state for state in self.slots if state is not None]

    def capacity(self, window: int) -> int:
        """Clean values each field can take before a window holding damage is full."""
        room = [window - state.window_seen for state in self.states if state.window_damaged]
        return min(room) if room else CLEAN_TALLY_LIMIT


class CharsetPipeline:
    """Counts U+FFFD and mojibake per field path and flags fields whose rate spikes."""

    def __init__(self, stats: Any, config: PipelineConfig | None = None) -> None:
        self.stats = stats
        self.config = cfg = config or PipelineConfig()
        self.rule = SpikeRule(
            window=cfg.spike_window,
            threshold=cfg.threshold,
            factor=cfg.spike_factor,
            min_jump=cfg.spike_min_jump,
            baseline=cfg.spike_baseline,
            p_value=cfg.spike_p_value,
        )
        self.fields: dict[str, FieldState] = {}
        self._seen = 0  # items counted, but for the current run
        self.totals = dict.fromkeys(
            ("with_replacement", "replacement_chars", "mojibake", "mojibake_chars"), 0
        )
        # path -> its FieldState, or None when the path is not inspected.
        self._routes: dict[str, FieldState | None] = {}
        self._top_level = frozenset(_top_name(p) for p in cfg.fields)
        self._shapes: dict[frozenset[Any], _Shape | None] = {}
        self._last_shape: _Shape | None = None
        self._pending: list[_Shape] = []  # shapes with clean values not yet handed over
        self._publish_at = PUBLISH_EVERY  # items_seen at which the stats are written next
        self._window = self.rule.window  # for the fast path: one attribute lookup less each
        self._normalize = cfg.normalize
        # A run: clean dict items in a row with the last shape's keys, in order, only counted
        # until it ends (see _end_run). It is not armed while values are to be normalized.
        self._run = 0
        self._run_keys: tuple[str, ...] | None = None
        self._run_limit = 1
        self._written: dict[str, Any] = {}  # stat -> the value _publish last wrote
        self._error_logged = False
        # The opt-in actions switched on, in their fixed order (see pipeline_actions).
        self._actions = actions_for(cfg)
        self._context = Context(cfg, self._count_event, self._wanted)

    def _count_event(self, name: str, amount: int) -> None:
        self.stats.inc_value(PREFIX + name, amount)

    @classmethod
    def from_crawler(cls, crawler: Any) -> CharsetPipeline:
        config = PipelineConfig.from_settings(crawler.settings)
        if not config.enabled:
            raise NotConfigured("CHARSET_ITEM_ENABLED is False")
        return cls(crawler.stats, config)

    # Scrapy hooks. ``spider`` is optional: Scrapy >= 2.13 then passes none (no deprecation
    # warning), while Scrapy 2.11 and 2.12 still pass it positionally.
    def open_spider(self, spider: Any = None) -> None:
        self._publish()

    def close_spider(self, spider: Any = None) -> None:
        self._end_run()
        self._flush_clean()
        for state in list(self.fields.values()):
            if state.window_seen >= self.rule.min_partial:
                self._report(state.close_window(self.rule))
        self._publish(everything=True)

    @property
    def items_seen(self) -> int:
        return self._seen + self._run

    def process_item(self, item: Any, spider: Any = None) -> Any:
        # The fast path, inlined (it is most of the pipeline's time): a dict or scrapy.Item
        # with the last clean item's keys whose values are all clean text (one call, see
        # quality.dict_values_clean) is only counted.
        try:
            values = item if type(item) is dict else _item_values(item)
            verdict = 0 if values is None else dict_values_clean(values, self._run_keys)
        except Exception:  # user code run by reading the item: the exact path copes
            values, verdict = None, 0
        if verdict == 2:
            run = self._run = self._run + 1
            if run >= self._run_limit:
                self._end_run()
                self._arm_run()
            return item
        self._end_run()
        try:
            return self._process(item, values, verdict)
        except DropItem:
            raise
        except Exception:  # never lose an item to the pipeline's own failure
            self.stats.inc_value(PREFIX + "error")
            if not self._error_logged:
                self._error_logged = True
                logger.warning(
                    "CharsetPipeline failed on a %s item; it goes on unchanged (counted in "
                    "charset/item/error, logged once)", type(item).__name__, exc_info=True
                )
            return item
        finally:
            self._arm_run()

    # -- fast path: dict and scrapy.Item items whose values are all clean text ---------------
    def _end_run(self) -> None:
        """Hand the run's clean values to its shape, as one item at a time would have."""
        run = self._run
        if run:
            self._run = 0
            self._seen += run
            shape = self._last_shape
            assert shape is not None  # a run is only armed for the last shape
            if not shape.pending:  # (_arm_run set its limit, and left no other shape's tally)
                self._pending.append(shape)
            shape.pending += run
            if shape.pending >= shape.limit:  # a window holding damage is full: judge it
                self._flush_clean()

    def _tally(self, shape: _Shape, count: int) -> None:
        """Count ``count`` clean items of ``shape``; judge the windows that are full."""
        if not shape.pending:
            if self._pending:  # another shape's tally: hand it over first, in order
                self._flush_clean()
            self._pending.append(shape)
            shape.limit = shape.capacity(self._window)
        shape.pending += count
        if shape.pending >= shape.limit:  # a window holding damage is full: judge it
            self._flush_clean()

    def _arm_run(self) -> None:
        """Write the stats if due; let the next run go on until a window holding damage fills
        or the next stats write is due, so that both happen on the same item as without runs."""
        if self._seen >= self._publish_at:
            self._publish_at += PUBLISH_EVERY
            self._publish()
        shape = self._last_shape
        if shape is None or self._normalize is not None:
            self._run_keys = None
            return
        if self._pending and self._pending[0] is not shape:
            self._flush_clean()  # a run only tallies the last shape
        if not shape.pending:  # the limit of the tally the run starts (see _end_run)
            shape.limit = shape.capacity(self._window)
        self._run_keys = shape.order
        self._run_limit = max(1, min(shape.limit - shape.pending, self._publish_at - self._seen))

    def _process(self, item: Any, values: dict[Any, Any] | None, verdict: int) -> Any:
        """One item off the run: ``values`` and ``verdict`` as process_item found them (0:
        some value is not clean text; the item is inspected without a second check)."""
        self._seen += 1
        if values is not None and verdict:
            shape = self._last_shape
            verdict = dict_values_clean(values, shape.order if shape is not None else None)
            if verdict == 1:  # clean, with other keys than the last clean item
                shape = self._shape_of(values)
            if verdict and shape is not None:
                self._tally(shape, 1)  # per-field counts are added in bulk (see _Shape)
                if self._normalize is not None:  # the only action a clean item can need
                    normalize_values(item, None, self._context)
                return item
        elif values is not None and not self._actions and self._count_known(item, values):
            return item
        try:
            inspection = self._inspect(item)
        except Exception as exc:  # an odd item goes on untouched, and is counted
            self.stats.inc_value(PREFIX + "uninspectable")
            logger.debug("Cannot inspect %s item: %r", type(item).__name__, exc)
            return item
        findings = Findings(inspection.found, inspection.damaged)
        self._flush_clean()  # keep the order of values within each field's windows
        url = None
        if findings.damaged:
            url = self._count_damage(item, findings.damaged, windows=False)
        self._count_values(findings.found, url)
        for action in self._actions:  # repair, normalize, annotate, drop (pipeline_actions)
            action(item, findings, self._context)
        return item

    def _count_known(self, item: Any, values: dict[Any, Any]) -> bool:
        """Count an item with the last shape's keys, in order, whose values are all text, some
        of them not clean (no action needs its findings): only those get the exact checks,
        and the item is counted as the value-by-value path counts it. False for other items
        (a dataclass's values may be in another order than ItemAdapter's: not taken)."""
        shape = self._last_shape
        if shape is None or not (type(item) is dict or isinstance(item, Item)):
            return False
        positions = unclean_positions(values, shape.order)
        if positions is None:
            return False
        damaged = []
        room = CLEAN_TALLY_LIMIT  # values the damaged fields' current windows can take
        for position in positions:
            state = shape.slots[position]
            if state is not None:
                key = shape.order[position]
                check = check_text(key, values[key], state, screened=True)
                if check is not None:
                    damaged.append(check)
                    room = min(room, self._window - state.window_seen)
        if damaged:
            if shape.pending < room:  # the tally leaves this damage in the current windows
                shape.limit = min(shape.limit, room)  # (recomputed where no tally is under way)
            else:
                self._flush_clean()  # the tally fills one first: the damage goes in the next
            self._count_damage(item, damaged)
        # Its values, the damage counted, are one more item of the shape's tally: the windows
        # they fill are judged as the value-by-value path judges them (see _Shape).
        self._tally(shape, 1)
        return True

    def _shape_of(self, item: dict[Any, Any]) -> _Shape | None:
        """The shape of a clean dict item's keys, which becomes the last shape; None when its
        keys are not all text or share a field state (the item then goes down the exact
        path)."""
        keys = frozenset(item)
        shape = self._shapes.get(keys, _UNKNOWN)
        order = tuple(item)
        if shape is _UNKNOWN:
            shape = self._shape(keys, order)
        if shape is not None:
            shape.arrange(order)
            self._last_shape = shape
        return shape

    def _shape(self, keys: frozenset[Any], order: tuple[Any, ...]) -> _Shape | None:
        """A new shape, or None for keys that are not all text or that share a field state
        (<other>: the tally counts items, and such a field takes more than one value each)."""
        shape = None
        if all(type(key) is str for key in keys):
            skip = self.config.findings_field
            # (fields resolved in the item's order, as the value-by-value path meets them)
            state_of = {key: None if key == skip else self._resolve(key) for key in order}
            states = [state for state in state_of.values() if state is not None]
            if len(set(states)) == len(states):
                shape = _Shape(keys, state_of)
        if len(self._shapes) < MAX_SHAPES:
            self._shapes[keys] = shape
        return shape

    def _flush_clean(self) -> None:
        rule, report, window = self.rule, self._report, self._window
        for shape in self._pending:
            count = shape.pending
            for state in shape.states:
                seen = state.window_seen + count
                if seen < window:  # (FieldState.add_clean's common case, without a call)
                    state.window_seen = seen
                    continue
                spike = state.add_clean(count, rule)
                if spike is not None:
                    report(spike)
            shape.pending = 0
        self._pending.clear()

    # -- inspection ------------------------------------------------------------------------
    def _wanted(self, path: str) -> bool:
        return not self.config.fields or matches(path, self.config.fields)

    def _resolve(self, path: str) -> FieldState | None:
        state = self._routes.get(path, _UNKNOWN)
        if state is _UNKNOWN:
            state = self._state(path) if self._wanted(path) else None
            if len(self._routes) < 10_000:  # dynamic keys must not grow it forever
                self._routes[path] = state
        return state  # type: ignore[return-value]

    def _inspect(self, item: Any) -> _Inspection:
        if type(item) is dict:
            fields: Iterable[tuple[Any, Any]] = item.items()
        elif is_item(item):
            fields = adapter(item).items()
        else:
            raise TypeError("not an item type ItemAdapter supports")
        inspection = _Inspection(self._resolve, item)
        routes, skip, top_level = self._routes, self.config.findings_field, self._top_level
        clean = inspection.found.append
        for name, value in fields:
            if type(value) is str and type(name) is str:  # the common case, inlined
                state = routes.get(name, _UNKNOWN)
                if state is _UNKNOWN:
                    state = None if name == skip else self._resolve(name)
                if state is None:
                    continue
                if text_clean(value):
                    clean(state)
                else:
                    inspection.text(value, name, state, screened=True)
            elif name != skip and not (top_level and name not in top_level):
                inspection.walk(value, name if type(name) is str else str(name), 1)
        return inspection

    def _state(self, path: str) -> FieldState:
        state = self.fields.get(path)
        if state is not None:
            return state
        if len(self.fields) >= self.config.max_fields:
            path = OTHER_FIELDS
            state = self.fields.get(path)
            if state is not None:
                return state
        state = self.fields[path] = FieldState(path, self.rule.baseline)
        return state

    def _count_values(self, found: Iterable[FieldState | ValueCheck], url: str | None) -> None:
        """Count an item's values in order into their fields' windows, a damaged one (its
        ValueCheck) with its damage: a window holds the damage of its own values only, however
        many values of one field an item holds (a list longer than a window)."""
        window = self.rule.window
        for entry in found:
            if isinstance(entry, FieldState):
                state = entry
            else:
                assert entry.state is not None  # a ValueCheck from _Inspection carries it
                state = entry.state
                state.window_damaged += 1
                if state.window_url is None:
                    state.window_url = url
            state.window_seen += 1
            if state.window_seen >= window:
                self._report(state.close_window(self.rule))

    def _count_damage(
        self, item: Any, damaged: list[ValueCheck], windows: bool = True
    ) -> str | None:
        """Count the damaged values' totals (and, with ``windows``, their fields' current
        windows: each field then takes one value of the item); the item's URL."""
        url = self._url_of(item)
        replacement = mojibake = 0
        for check in damaged:
            state = check.state or self._state(check.path)
            if windows:
                state.window_damaged += 1
                if state.window_url is None:
                    state.window_url = url
            state.damaged += 1
            if check.replacement_chars:
                state.affected += 1
                state.replacement_chars += check.replacement_chars
                replacement += check.replacement_chars
            if check.mojibake_chars:
                state.mojibake += 1
                state.mojibake_chars += check.mojibake_chars
                mojibake += check.mojibake_chars
        totals = self.totals
        if replacement:
            totals["with_replacement"] += 1
            totals["replacement_chars"] += replacement
        if mojibake:
            totals["mojibake"] += 1
            totals["mojibake_chars"] += mojibake
        return url

    def _url_of(self, item: Any) -> str | None:
        try:
            for name in self.config.url_fields:
                value = field_value(item, name)
                if isinstance(value, str) and value:
                    # a plain copy: a str subclass's own __str__/__format__ may raise when logged
                    return str.__str__(value)
        except Exception:  # an item that breaks on lookup simply has no example URL
            return None
        return None

    def _report(self, spike: Spike | None) -> None:
        if spike is None:
            return
        self.stats.inc_value(PREFIX + "flagged")
        self.stats.inc_value(f"{PREFIX}field/{spike.path}/flagged")
        baseline = "none yet" if spike.baseline is None else f"{spike.baseline:.1%}"
        logger.warning(
            "Damaged text spike in field %r: %d of %d values (%.1f%%) have U+FFFD or mojibake "
            "(%s; baseline %s)%s",
            spike.path,
            spike.damaged,
            spike.values,
            spike.rate * 100,
            "above threshold" if spike.reason == "threshold" else "jump against baseline",
            baseline,
            f"; e.g. {spike.example_url}" if spike.example_url else "",
        )

    def _publish(self, *, everything: bool = False) -> None:
        """Write the counting stats (kept in the pipeline: Scrapy's stats calls are not free).

        Only the values that changed since the last write are written again (a clean field's
        rates stay 0.0), except with ``everything``, as when the spider closes.
        """
        self._flush_clean()
        written = self._written
        if everything:
            written.clear()
        set_value = self.stats.set_value
        for key, value in self._counting_stats():
            if written.get(key, _UNKNOWN) != value:
                set_value(key, value)
                written[key] = value

    def _counting_stats(self) -> Iterator[tuple[str, Any]]:
        # Counts, which add up across workers; a field's rates are written only once it had
        # damage (a clean field writes its ``seen`` alone).
        yield PREFIX + "seen", self.items_seen
        for name, total in self.totals.items():
            if total:
                yield PREFIX + name, total
        for state in self.fields.values():
            base = f"{PREFIX}field/{state.path}/"
            yield base + "seen", state.seen
            for name in _FIELD_COUNTERS:
                value = getattr(state, name)
                if value:
                    yield base + name, value
            if state.affected or state.mojibake:
                yield base + "replacement_rate", state.replacement_rate
                yield base + "rate", state.replacement_rate  # deprecated alias, one version
                yield base + "mojibake_rate", state.mojibake_rate
