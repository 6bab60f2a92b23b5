"""The names the package's code uses: settings, request meta keys, spider attributes, stats keys.

Read from the source with :mod:`ast`, not from a list kept by hand, so that a new name in the
code shows up here by itself. String expressions are evaluated as far as the source allows:
literals, f-strings, ``+``, module-level string constants (``PREFIX = "charset/item/"``, also
imported ones), local variables and ``for`` loops over tuples of strings. A part that cannot be
known statically (a field path, an encoding name) becomes ``<*>``.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tests.docs.blocks import REPO

PACKAGE = REPO / "scrapy_charset"
WILD = "<*>"
_MAX_VALUES = 64  # bound on the combinations one expression may evaluate to


def package_files() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "tables" not in p.parts)


@dataclass
class Module:
    path: Path
    tree: ast.Module
    constants: dict[str, tuple[str, ...]] = field(default_factory=dict)


def _modules() -> list[Module]:
    modules = []
    for path in package_files():
        tree = ast.parse(path.read_text("utf-8"), str(path))
        module = Module(path, tree)
        for node in tree.body:
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                values = _literal_strings(node.value)
                for target in targets:
                    if isinstance(target, ast.Name) and values is not None:
                        module.constants[target.id] = values
        modules.append(module)
    return modules


def _literal_strings(node: ast.expr) -> tuple[str, ...] | None:
    """A string literal, or a tuple/list of string literals; else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return (node.value,)
    if isinstance(node, (ast.Tuple, ast.List)) and node.elts:
        values = [_literal_strings(e) for e in node.elts]
        if all(v is not None and len(v) == 1 for v in values):
            return tuple(v[0] for v in values if v)
    return None


class _Evaluator:
    """Evaluates string expressions of one module; names resolve locally, then module-wide."""

    def __init__(self, module: Module, everywhere: dict[str, tuple[str, ...]]) -> None:
        self.module = module
        self.everywhere = everywhere
        self.local: dict[str, set[str]] = {}

    def name(self, name: str) -> set[str] | None:
        if name in self.local:
            return self.local[name]
        if name in self.module.constants:
            return set(self.module.constants[name])
        if name in self.everywhere:
            return set(self.everywhere[name])
        return None

    def strings(self, node: ast.expr) -> set[str]:
        """Every string ``node`` may evaluate to, unknown parts as ``<*>``."""
        if isinstance(node, ast.Constant):
            return {node.value} if isinstance(node.value, str) else {WILD}
        if isinstance(node, ast.Name):
            values = self.name(node.id)
            return values if values is not None and all(len(v) < 200 for v in values) else {WILD}
        if isinstance(node, ast.JoinedStr):
            parts: list[set[str]] = []
            for value in node.values:
                if isinstance(value, ast.FormattedValue):
                    parts.append(self.strings(value.value))
                else:
                    parts.append(self.strings(value))
            return _join(parts)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return _join([self.strings(node.left), self.strings(node.right)])
        return {WILD}


def _join(parts: list[set[str]]) -> set[str]:
    combos = itertools.islice(itertools.product(*parts), _MAX_VALUES)
    return {re.sub(r"(<\*>)+", WILD, "".join(c)) for c in combos}


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


class _Walker:
    """Walks a module statement by statement, keeping what each local name holds there.

    Assignments rebind a name; a ``for`` loop binds its target inside its body only (to the
    strings of a tuple it iterates, else ``<*>``); functions and classes start afresh.
    """

    def __init__(self, evaluator: _Evaluator) -> None:
        self.evaluator = evaluator

    def walk(self, body: list[ast.stmt]) -> Iterator[ast.AST]:
        saved = self.evaluator.local
        self.evaluator.local = {}
        try:
            yield from self._block(body)
        finally:
            self.evaluator.local = saved

    def _block(self, body: list[ast.stmt]) -> Iterator[ast.AST]:
        for stmt in body:
            yield from self._statement(stmt)

    def _statement(self, stmt: ast.stmt) -> Iterator[ast.AST]:
        ev = self.evaluator
        if isinstance(stmt, _SCOPES):
            for decorator in stmt.decorator_list:
                yield from _expression_nodes(decorator)
            yield from self.walk(stmt.body)
            return
        if isinstance(stmt, (ast.For, ast.AsyncFor)):
            yield from _expression_nodes(stmt.iter)
            outer = dict(ev.local)
            ev.local.update(self._loop_bindings(stmt.target, stmt.iter))
            yield from self._block(stmt.body)
            ev.local = outer
            yield from self._block(stmt.orelse)
            return
        for _field, value in ast.iter_fields(stmt):
            values = value if isinstance(value, list) else [value]
            statements = [v for v in values if isinstance(v, ast.stmt)]
            for v in values:
                if isinstance(v, ast.expr):
                    yield from _expression_nodes(v)
                elif isinstance(v, (ast.excepthandler, ast.withitem, ast.match_case)):
                    for child in ast.iter_child_nodes(v):
                        if isinstance(child, ast.expr):
                            yield from _expression_nodes(child)
                    if hasattr(v, "body"):
                        yield from self._block(v.body)
            if statements:
                yield from self._block(statements)
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                for name_node in ast.walk(target):
                    if isinstance(name_node, ast.Name):
                        ev.local[name_node.id] = {WILD}
                if isinstance(target, ast.Name):
                    ev.local[target.id] = ev.strings(stmt.value)

    def _loop_bindings(self, target: ast.expr, iterable: ast.expr) -> dict[str, set[str]]:
        bound = {n.id: {WILD} for n in ast.walk(target) if isinstance(n, ast.Name)}
        if isinstance(target, ast.Name):
            if isinstance(iterable, ast.Name):
                values = self.evaluator.name(iterable.id)
            else:
                literal = _literal_strings(iterable)
                values = set(literal) if literal else None
            if values:
                bound[target.id] = values
        return bound


def _expression_nodes(node: ast.expr) -> Iterator[ast.AST]:
    """The nodes of an expression (a lambda's body included, with the names it had)."""
    yield from ast.walk(node)


def _evaluated(modules: list[Module]) -> Iterator[tuple[Module, ast.AST, _Evaluator]]:
    everywhere: dict[str, tuple[str, ...]] = {}
    for module in modules:
        for name, values in module.constants.items():
            everywhere.setdefault(name, values)
    for module in modules:
        evaluator = _Evaluator(module, everywhere)
        for node in _Walker(evaluator).walk(module.tree.body):
            yield module, node, evaluator


def _string_expressions(modules: list[Module]) -> Iterator[str]:
    """Every string each outermost string expression of the package may evaluate to."""
    inner: set[int] = set()
    for _module, node, evaluator in _evaluated(modules):
        if id(node) in inner:
            continue
        if isinstance(node, (ast.JoinedStr, ast.BinOp)):
            for child in ast.walk(node):
                if child is not node:
                    inner.add(id(child))
        if isinstance(node, (ast.Constant, ast.JoinedStr, ast.BinOp)):
            yield from evaluator.strings(node)


_SETTING = re.compile(r"CHARSET_[A-Z0-9_]+")


def settings() -> set[str]:
    """``CHARSET_*`` names that appear as whole string literals in the package."""
    found = set()
    for module in _modules():
        for node in ast.walk(module.tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if _SETTING.fullmatch(node.value):
                    found.add(node.value)
    return found


def stats_keys() -> set[str]:
    """``charset/...`` keys the package writes; unknown parts as ``<*>``.

    Strings ending in ``/`` are prefixes (``PREFIX = "charset/item/"``), not keys.
    """
    return {
        s
        for s in _string_expressions(_modules())
        if s.startswith("charset/") and not s.endswith("/") and not re.search(r"\s", s)
    }


def _is_meta(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "meta"


def meta_keys() -> set[str]:
    """Keys read or written in a request's or response's ``meta``.

    ``x.meta[k]``, ``x.meta.get(k)`` (also ``pop``, ``setdefault``), ``k in x.meta``, and the
    keys of a ``meta={...}`` argument.
    """
    found: set[str] = set()
    for _module, node, ev in _evaluated(_modules()):
        keys: Iterable[ast.expr] = ()
        if isinstance(node, ast.Subscript) and _is_meta(node.value):
            keys = (node.slice,)  # type: ignore[assignment]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("get", "pop", "setdefault")
            and _is_meta(node.func.value)
            and node.args
        ):
            keys = (node.args[0],)
        elif isinstance(node, ast.Compare) and any(_is_meta(c) for c in node.comparators):
            keys = (node.left,)
        elif isinstance(node, ast.keyword) and node.arg == "meta":
            if isinstance(node.value, ast.Dict):
                keys = [k for k in node.value.keys if k is not None]
        for key in keys:
            found.update(ev.strings(key))
    return found


def spider_attributes() -> set[str]:
    """Attributes read from a spider with ``getattr(spider, NAME, ...)``."""
    found: set[str] = set()
    for _module, node, ev in _evaluated(_modules()):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) >= 2
        ):
            subject = ast.unparse(node.args[0])
            if subject.split(".")[-1] == "spider":
                found.update(ev.strings(node.args[1]))
    return found
