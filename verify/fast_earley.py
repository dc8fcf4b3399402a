"""A faster predictor for lark's Earley parser (dynamic lexer), same parse trees.

lark's Earley predictor makes an item for every rule of a nonterminal's closure each
time an item expects that nonterminal, whether or not the rule's first word can stand
at that place of the text. The event-text grammar has about a thousand rules with
large closures (a clause, a location, a condition), so most of a parse's time went to
items that were duplicates or could never advance. This predictor

- predicts a nonterminal's closure once per column: the closure of every nonterminal
  in it is part of it, so later predictions there would only repeat items;
- predicts a rule only when one of its FIRST terminals matches at that place of the
  text (or right after the whitespace there, where lark's scanner tries it next), or
  when the rule derives the empty string; the start's own rules likewise;
- finds the items waiting for a completed nonterminal through an index of the
  earlier (finished) column by expected symbol, not by scanning the whole column;
- sums the priorities of the parse forest (a walk of the whole forest, which lark
  makes when any rule has a priority) only when a rule with a priority was
  completed: otherwise every sum is zero and the choice among ambiguous parses is
  the same without them.

An item it does not make could never advance, so it never reaches the shared packed
parse forest: the forest, and the tree chosen from it, are those of lark's own
predictor. What changes is an ``UnexpectedInput``: it lists as expected only the
terminals that could have matched there, and may stop at the space before the word no
rule can read rather than at the word; so diagnostics are made inside
:func:`exact_expectations`, where every rule is predicted as lark does. The state of a
parse is kept per thread: one parser may serve several threads at once, as lark's
own does.

>>> from lark import Lark
>>> grammar = 'start: "a"i x | "a"i y\\nx: "b"i\\ny: "c"i\\n%ignore " "'
>>> fast = speed_up(Lark(grammar, parser="earley", lexer="dynamic"))
>>> fast.parse("a c") == Lark(grammar, parser="earley", lexer="dynamic").parse("a c")
True
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, cast

from lark import Lark
from lark.parsers import xearley
from lark.parsers.earley_common import Item as _Item

Item: Any = _Item  # lark's Earley item (untyped)


class _Closure:
    """The rules of one nonterminal's closure, in lark's order, by FIRST terminal."""

    __slots__ = ("by_terminal", "empty", "origins", "rules")

    def __init__(self, parser: _Parser, rules: list[Any]) -> None:
        self.rules = rules
        self.origins = frozenset(rule.origin for rule in rules)
        self.empty: list[int] = []  # rules that derive the empty string: always predicted
        self.by_terminal: dict[str, list[int]] = {}
        for position, rule in enumerate(rules):
            first = parser.rule_first(rule)
            if first is None:
                self.empty.append(position)
            for name in first or ():
                self.by_terminal.setdefault(name, []).append(position)

    def viable(self, matches: Callable[[str], bool]) -> list[Any]:
        """The rules whose first terminal ``matches``, in closure order."""
        positions = set(self.empty)
        for name, at in self.by_terminal.items():
            if matches(name):
                positions.update(at)
        return [self.rules[position] for position in sorted(positions)]


def _anything(name: str) -> bool:
    return True


class _Parser(xearley.Parser):
    """lark's dynamic-lexer Earley parser with the predictor described above."""

    _closures: dict[Any, _Closure]
    _terminals: dict[str, Any]
    _state: threading.local
    _prioritized: frozenset[Any]
    _sum_visitor: Any

    @property
    def forest_sum_visitor(self) -> Any:
        """lark's visitor summing priorities, when this thread's parse needs it."""
        return self._sum_visitor if getattr(self._state, "prioritized", True) else None

    @forest_sum_visitor.setter
    def forest_sum_visitor(self, visitor: Any) -> None:
        self._sum_visitor = visitor

    def prepare(self) -> None:
        """The closures by FIRST terminal, computed once."""
        self._sum_visitor = vars(self).pop("forest_sum_visitor", None)
        rules = self.parser_conf.rules
        self._prioritized = frozenset(rule for rule in rules if rule.options.priority)
        if any(terminal.priority for terminal in self.lexer_conf.terminals):
            self._prioritized = frozenset(rules)  # every token may weigh: always sum
        self._terminals = {terminal.name: terminal for terminal in self.TERMINALS}
        self._closures = {
            symbol: _Closure(self, list(rules)) for symbol, rules in self.predictions.items()
        }
        self._state = threading.local()

    def rule_first(self, rule: Any) -> tuple[str, ...] | None:
        """The names of the terminals ``rule`` can start with; None when it can derive
        the empty string."""
        names: set[str] = set()
        for symbol in rule.expansion:
            if symbol.is_term:
                names.add(symbol.name)
                return tuple(sorted(names))
            names.update(terminal.name for terminal in self.FIRST[symbol])
            if symbol not in self.NULLABLE:
                return tuple(sorted(names))
        return None

    def _parse(self, stream: str, columns: Any, to_scan: Any, start_symbol: Any = None) -> Any:
        state = self._state
        state.stream, state.waiting, state.prioritized = stream, {}, False
        try:
            # the start's rules, predicted by lark before this: keep those that can begin here
            viable = set(self._closures[start_symbol].viable(self._matcher(0)))
            for predicted in (columns[0], to_scan):
                for item in [item for item in predicted if item.rule not in viable]:
                    predicted.remove(item)
            return cast(Any, super())._parse(stream, columns, to_scan, start_symbol)
        finally:
            state.stream, state.waiting = "", {}

    def _matcher(self, i: int) -> Callable[[str], bool]:
        """Whether a terminal (by name) matches at column ``i`` or after the whitespace
        there: where the scanner will try the items predicted at ``i``. Every terminal
        does within :func:`exact_expectations`."""
        if getattr(self._state, "exact", False):
            return _anything
        stream, terminals = self._state.stream, self._terminals
        match: Any = self.term_matcher
        positions = [i]
        for ignored in self.ignore:
            found = match(ignored, stream, i)
            if found:
                positions.append(found.end())
        known: dict[str, bool] = {}

        def matches(name: str) -> bool:
            hit = known.get(name)
            if hit is None:
                terminal = terminals[name]
                hit = known[name] = any(match(terminal, stream, at) for at in positions)
            return hit

        return matches

    def _waiting(self, columns: Any, start: int, symbol: Any) -> Any:
        """The items of the finished column ``start`` that expect ``symbol``."""
        waiting: dict[int, dict[str, list[Any]]] = self._state.waiting
        index = waiting.get(start)
        if index is None:
            index = waiting[start] = {}
            for item in columns[start]:
                if item.expect is not None:
                    index.setdefault(item.expect.name, []).append(item)
        return index.get(symbol.name, ())

    def predict_and_complete(
        self, i: int, to_scan: Any, columns: Any, transitives: Any, node_cache: Any
    ) -> None:
        held_completions: dict[Any, Any] = {}
        predicted: set[Any] = set()
        column = columns[i]
        items = deque(column)
        symbol_node: Any = self.SymbolNode
        matches: Callable[[str], bool] | None = None
        prioritized, state = self._prioritized, self._state

        def node(label: tuple[Any, int, int]) -> Any:
            found = node_cache.get(label)
            if found is None:
                found = node_cache[label] = symbol_node(*label)
            return found

        def add(new_item: Any) -> None:
            if new_item.expect is not None and new_item.expect.is_term:
                to_scan.add(new_item)
            elif new_item not in column:
                column.add(new_item)
                items.append(new_item)

        while items:
            item = items.pop()
            if item.is_complete:  # the completer
                if item.rule in prioritized:
                    state.prioritized = True
                if item.node is None:
                    item.node = node((item.s, item.start, i))
                    item.node.add_family(item.s, item.rule, item.start, None, None)
                if item.rule.origin in transitives[item.start]:
                    transitive = transitives[item.start][item.s]
                    root = transitives[transitive.column].get(transitive.previous, transitive)
                    new_item = Item(transitive.rule, transitive.ptr, transitive.start)
                    new_item.node = node((root.s, root.start, i))
                    new_item.node.add_path(root, item.node)
                    add(new_item)
                    continue
                if item.start == i:  # an empty completion: column i is still growing
                    held_completions[item.rule.origin] = item.node
                    waiting = [o for o in column if o.expect is not None and o.expect == item.s]
                else:
                    waiting = self._waiting(columns, item.start, item.s)
                for originator in waiting:
                    new_item = originator.advance()
                    new_item.node = node((new_item.s, originator.start, i))
                    new_item.node.add_family(new_item.s, new_item.rule, i, originator.node,
                                             item.node)  # fmt: skip
                    add(new_item)
            elif not item.expect.is_term:  # the predictor
                expect = item.expect
                new_items = []
                if expect not in predicted:
                    if matches is None:
                        matches = self._matcher(i)
                    closure = self._closures[expect]
                    predicted |= closure.origins
                    predicted.add(expect)
                    new_items = [Item(rule, 0, i) for rule in closure.viable(matches)]
                if expect in held_completions:
                    new_item = item.advance()
                    new_item.node = node((new_item.s, item.start, i))
                    new_item.node.add_family(new_item.s, new_item.rule, new_item.start,
                                             item.node, held_completions[expect])  # fmt: skip
                    new_items.append(new_item)
                for new_item in new_items:
                    add(new_item)


@contextmanager
def exact_expectations(parser: Lark) -> Iterator[None]:
    """Within this block, in this thread, ``parser`` predicts every rule, as lark does,
    so an ``UnexpectedInput`` lists every terminal lark's own parser would list."""
    state = cast(_Parser, parser.parser.parser)._state
    state.exact = True
    try:
        yield
    finally:
        state.exact = False


def speed_up(parser: Lark) -> Lark:
    """Give ``parser`` (``parser="earley", lexer="dynamic"``) the faster predictor."""
    inner = parser.parser.parser
    if type(inner) is not xearley.Parser:
        raise TypeError(f"expected lark's dynamic-lexer Earley parser, not {type(inner)}")
    inner.__class__ = _Parser
    cast(_Parser, inner).prepare()
    return parser
