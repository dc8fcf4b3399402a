"""The controlled English of COIN event text, parsed and compiled to the effect language.

Event text is written in a small, regular English: "Place 2 Militia in each of up
to 3 Colonies.", "Patriot Resources +3.", "If the Treaty of Alliance has been
played, FNI +1." A lark grammar (``text.lark`` next to this module for the clause
frames, ``phrases.lark`` for the phrases inside them, read with Earley) gives the
sentence forms; the names in them (pieces, Factions, tracks, spaces, space types,
boxes, Commands, markers) are terminals built from the game's own data and map, so
the grammar itself knows no game. :func:`parse_side` compiles a side's text to the
effects of :mod:`legalis.model.coin.effects` and reports what it cannot read as
:class:`Diagnostic` records with line, column and the forms that would have been
understood there; it never raises.

A side is read one sentence at a time (a full stop followed by a space ends a
sentence), each with the same parser; the parse of a sentence is kept, so a deck
read again costs little. What one sentence chose stays known to the next: "Place
two Tories in one City. Place one Fort there." places the Fort in the City the
first sentence chose (the first effect's ``where.bind`` names it ``s1``).

A Capability or Momentum ("US CAPABILITY: ...", "MOMENTUM: Until Coup, ...") puts a
lasting effect in force whose rules are the sentences after the banner: each is
read into a :class:`~legalis.model.coin.effects.LastingRule` (a ban, a limit, an
effect added to an action's spaces, a recurring change), or kept as written, marked
not modelled, when it changes an action in a way the language does not say.

A side's text is read up to :data:`MAX_TEXT_LENGTH` characters. The printed cards'
longest texts are under 2,000 characters, and the Earley parse keeps some kilobytes
of chart per character read (more than linear time), so a longer text is refused
unread, with a diagnostic saying so (``legalis verify`` reports it as
``text.unreadable`` for that card and side).

>>> result = parse_side("Place 2 Militia in each of up to 3 Colonies.", "lod")
>>> effect = result.effects[0]
>>> effect.op, effect.pieces, effect.count.n, effect.where.spaces, effect.where.up_to
('place', ('militia',), 2, 3, True)
>>> parse_side("Place 2 Militai in Boston.", "lod").diagnostics[0].message
"unknown name 'Militai' (did you mean 'Militia'?)"
>>> there = parse_side("Place two Tories in one City. Place one Fort there.", "lod").effects
>>> there[0].where.bind, there[1].where.filter.name
('s1', 's1')
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, Literal

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedInput
from legalis.model.coin.effects import Effect, side_from_toml
from legalis.model.coin.mapdata import SPACE_TYPES
from legalis.model.core.documents import package_folder
from legalis.model.errors import LegalisError
from legalis.verify.fast_earley import exact_expectations, speed_up
from legalis.verify.lexicon import Lexicon, alternation, lexicon, norm
from legalis.verify.phrases import (
    NUMBERS,
    PhraseCompiler,
    Unreadable,
    child_named,
    combine,
    number,
    subtrees,
    tokens,
)
from legalis.verify.text_diagnostics import (
    Diagnostic,
    position,
    split_flavour,
    syntax_diagnostic,
)

__all__ = ["MAX_TEXT_LENGTH", "Diagnostic", "ParseResult", "grammar_for", "parse_side"]

MAX_TEXT_LENGTH = 5_000
"""The longest side text :func:`parse_side` reads, in characters."""

SideName = Literal["unshaded", "shaded"]
Table = dict[str, Any]

# effects that act on pieces in spaces and take the sentence's location when they name none
_PIECE_OPS = ("place", "remove", "replace", "move", "activate", "underground", "tunnel")
_SPACE_OPS = (*_PIECE_OPS, "shift", "set_support", "marker", "free")
_ANY_TOTAL: Table = {"filter": {"is": "anywhere"}, "per_space": False}
_STATEMENTS = frozenset(
    {
        "conditional",
        "unless",
        "if_not",
        "exec_if",
        "then_statement",
        "or_statement",
        "either",
        "choice",
        "fronted",
        "outside",
        "select",
        "shift_cap",
        "on_roll",
        "box_table",
        "or_clauses",
    }
)

# Games whose Commands the project models: a Capability or Momentum rule changing a
# Command of another game (FitL Operations) is kept as text, marked not modelled.
_GAMES_WITH_COMMANDS = frozenset({"lod"})

# A full stop that ends a sentence: followed by the end, or by a space and a word (not
# a parenthesis: "(Momentum)" and "(mark)" belong to the sentence before them).
_SENTENCE_END = re.compile(r"\.(?=\s*$|\s+[^\s(])")
_CAPABILITY = re.compile(r"^\s*(?P<faction>[A-Za-z][\w ]*?)\s+capability\s*:\s*", re.I)
_MOMENTUM = re.compile(r"^\s*momentum\s*:\s*", re.I)
_DURATION = re.compile(
    r"^\s*(?:(?P<until>until\s+(?:the\s+next\s+)?(?:coup(?:\s+round)?|propaganda\s+round"
    r"|winter\s+quarters(?:\s+round)?))|(?P<through>through\s+(?:the\s+)?(?:next\s+)?coup"
    r"(?:\s+round)?)|(?P<phase>this\s+\w+\s+phase))\s*,\s*",
    re.I,
)
_UNTIL_COUP = re.compile(r"^\s*no\s.*\buntil\s+(?:the\s+next\s+)?coup\b", re.I)
_TAGS = re.compile(r"\s*\((?:mark|momentum)\)\s*", re.I)
_FRACTIONS = {"half": 2, "a third": 3, "one third": 3, "a quarter": 4, "one quarter": 4}


@dataclass(frozen=True)
class ParseResult:
    """The effects a side's text compiles to, its lasting kind (``capability`` or
    ``momentum`` when the text puts one in force), and what could not be read.

    ``effects`` is empty whenever ``diagnostics`` is not.

    >>> ParseResult((), []).ok
    True
    """

    effects: tuple[Effect, ...]
    diagnostics: list[Diagnostic]
    lasting: Literal["capability", "momentum"] | None = None
    flavour: str = ""  # the italic phrase printed before the colon, not read

    @property
    def ok(self) -> bool:
        """No diagnostics."""
        return not self.diagnostics


@cache
def grammar_for(game: str) -> str:
    """The full lark grammar for ``game``: the clause frames of ``text.lark``, the
    phrases of ``phrases.lark`` and the name terminals built from the game's data
    and map.

    >>> "PIECE:" in grammar_for("lod") and "Militia" in grammar_for("lod")
    True
    """
    package = package_folder("legalis.verify")
    base = "\n".join(
        package.joinpath(name).read_text("utf-8") for name in ("text.lark", "phrases.lark")
    )
    names = lexicon(game)
    lines = [base, ""]
    for terminal, (forms, insensitive) in names.categories().items():
        lines.append(f"{terminal}: {alternation(forms, insensitive)}")
    return "\n".join(lines) + "\n"


# The start rule a sentence's first word tells, tried before ``start``: an Earley
# parse predicts every rule its start can reach, so a narrower start is faster.
_FIRST_WORDS = {
    "start_place": ("place", "places"),
    "start_add": ("add", "adds"),
    "start_remove": ("remove", "removes"),
    "start_move": ("move", "moves", "relocate", "relocates"),
    "start_flip": ("activate", "activates", "flip"),
    "start_shift": ("shift", "shifts", "set", "sets"),
    "start_free": ("free", "execute", "executes", "perform", "performs"),
    "start_track": ("raise", "lower", "improve", "degrade", "cut", "reduce", "transfer"),
    "start_if": ("if",),
    "start_wrapped": ("unless", "in", "outside", "either", "select", "on"),
}
_STARTS = {word: start for start, words in _FIRST_WORDS.items() for word in words}


@cache
def _sentence_parser(game: str) -> Lark:
    """The parser of ``game`` for every start: whole sentences (``start`` and the
    narrower starts of :data:`_FIRST_WORDS`) and the rules of a Capability or Momentum
    (``lasting_rule``). It predicts with :mod:`legalis.verify.fast_earley`: the trees
    of lark's Earley parser, a few times faster."""
    starts = ["start", "lasting_rule", "start_subject", *_FIRST_WORDS]
    return speed_up(
        Lark(grammar_for(game), parser="earley", lexer="dynamic", propagate_positions=True,
             start=starts)
    )  # fmt: skip


@lru_cache(maxsize=4096)
def _parse(game: str, sentence: str, start: str) -> Tree[Token]:
    """The parse tree of one sentence (positions within ``sentence``); kept, as decks
    repeat their sentence forms and are read more than once. ``start`` ``start``
    first tries the start the sentence's first word tells (or a track's sign)."""
    parser = _sentence_parser(game)
    if start == "start":
        first = sentence.split(maxsplit=1)[0].lower() if sentence.strip() else ""
        narrow = _STARTS.get(first)
        if narrow is None and _starts_with_track(game, sentence):
            narrow = "start_track"
        elif narrow is None and any(sentence.startswith(name + " ")
                                    for name in lexicon(game).factions):  # fmt: skip
            narrow = "start_subject"
        if narrow is not None:
            try:
                return parser.parse(sentence, start=narrow)
            except UnexpectedInput:
                pass  # another form that starts so: the whole grammar decides
    return parser.parse(sentence, start=start)


def _starts_with_track(game: str, sentence: str) -> bool:
    """Whether ``sentence`` starts with a track's name ("Aid +3", "NVA Resources -2")."""
    return any(sentence.startswith(name + " ") for name in lexicon(game).tracks)


def _sentences(text: str) -> list[tuple[int, int]]:
    """Where each sentence of ``text`` starts and ends (its full stop included).

    >>> text = "Aid +3. Then Patronage -1."
    >>> [text[start:end] for start, end in _sentences(text)]
    ['Aid +3.', 'Then Patronage -1.']
    """
    spans = []
    start = 0
    for stop in _SENTENCE_END.finditer(text):
        if text[start : stop.end()].strip():
            spans.append((start, stop.end()))
        start = stop.end()
    if text[start:].strip():
        spans.append((start, len(text)))
    return [(begin + len(text[begin:end]) - len(text[begin:end].lstrip()), end)
            for begin, end in spans]  # fmt: skip


def _blank(text: str, start: int, end: int) -> str:
    """``text`` with everything outside ``[start, end)`` blanked (newlines kept), so a
    parse error in the sentence is reported at its place in the side."""
    return re.sub(r"[^\n]", " ", text[:start]) + text[start:end]


# ---------------------------------------------------------------------- compiling


_TAKING_OPS = ("remove", "replace", "move", "activate", "underground")
"""The effects on pieces in play that take only the status the text gives."""


class _Compiler(PhraseCompiler):
    """Walks the parse trees of a side's sentences, in order, and builds the effect
    tables (plain dicts); it keeps what earlier clauses chose (spaces, Factions,
    rolls) for the references of later ones."""

    def __init__(self, lexicon: Lexicon, title: str, side: SideName | None) -> None:
        self.lex = lexicon
        self.title = title
        self.side = side
        self.chooser: str | None = None  # whose "of their choice"
        self.last_filter: dict[str, Any] | None = None
        self.last_by_op: dict[str, Table] = {}
        self.lasting: Literal["capability", "momentum"] | None = None
        self.lasting_table: Table | None = None  # the Capability/Momentum being read
        self.names: dict[str, int] = {}  # binding prefix -> how many given out
        self.acted: tuple[Table, Table] | None = None  # (where, effect) acted in last
        self.pending: list[Table] = []  # effects to run before the current clause's
        self.subject: str | None = None  # the Faction of the clauses being read
        self.last_subject: str | None = None  # the Faction named last ("It", "They")
        self.that_faction: str | None = None  # "that Faction"
        self.fronted: Table | None = None  # the location a fronted "In ..." gives
        self.sentence_text = ""  # the sentence being read, as written
        self.previous_sentence: list[Table] = []  # the effects of the sentence before

    # ------------------------------------------------------------ bindings

    def _name(self, prefix: str) -> str:
        self.names[prefix] = self.names.get(prefix, 0) + 1
        return f"{prefix}{self.names[prefix]}"

    def reference(self, kind: str, node: Tree[Token]) -> Table:
        """The ``where`` of a reference back ("there", "in each", "that space", "it",
        "them", "those spaces", "one of those spaces"): the spaces an earlier effect
        acted in, bound by name; after named spaces, the names themselves.

        ``kind`` is ``there``, ``each``, ``that_space``, ``it``, ``them``, ``those``
        or ``one_of_those``.
        """
        if self.last_filter is not None and kind in ("it", "them"):  # "... adjacent to it"
            where: Table = {"filter": copy.deepcopy(self.last_filter)}
        elif self.acted is None:
            raise Unreadable(f"{kind.replace('_', ' ')!r} names no earlier space", node)
        else:
            acted, effect = self.acted
            held = acted["filter"]
            if (held["is"] == "named" and acted.get("spaces") is None) or held["is"] == "bound":
                where = {"filter": copy.deepcopy(held)}
            else:
                if effect["op"] == "select":
                    name = effect["bind"]
                else:
                    name = acted.setdefault("bind", self._name("s"))
                where = {"filter": {"is": "bound", "name": name}}
        if kind == "one_of_those":
            where["spaces"] = 1
        return where

    def roll_binding(self, node: Tree[Token]) -> str:
        """Roll a die before the clause's effects; the name its result is bound to."""
        name = self._name("r")
        self.pending.append({"op": "roll", "bind": name})
        return name

    def _acted_in(self, effects: list[Table]) -> None:
        """Remember the last effect that acted in spaces, for references after it."""
        for effect in reversed(effects):
            where = effect.get("to") if effect["op"] == "move" else effect.get("where")
            if isinstance(where, dict) and where.get("filter", {}).get("is") != "anywhere":
                self.acted = (where, effect)
                return
            if effect["op"] == "select":
                self.acted = (effect["where"], effect)
                return

    def _share(self, where: Table, chooser: str | None) -> tuple[Table, Table | None]:
        """The ``where`` for several effects acting in the same chosen spaces, and the
        ``select`` that chooses them once (None for named spaces, repeated as named)."""
        if where["filter"]["is"] in ("named", "bound") and where.get("spaces") is None:
            return where, None
        table: Table = {"op": "select", "bind": self._name("s"), "where": where}
        if chooser not in (None, "executing"):
            table["chooser"] = chooser
        self.acted = (where, table)
        return {"filter": {"is": "bound", "name": table["bind"]}}, table

    # ------------------------------------------------------------ sentences

    def sentence(self, tree: Tree[Token], effects: list[Table]) -> list[Table]:
        """Compile one sentence; ``effects`` are those of the sentences before it
        (a sentence starting "If not," or "Or" changes the last of them)."""
        node = subtrees(tree)[0]
        self.fronted = None
        if node.data == "play_if":
            condition = self.condition(subtrees(node)[0])
            return [{"op": "if", "condition": condition, "then": []}]
        return self.statement(node, effects)

    def statement(self, node: Tree[Token], before: list[Table] | None = None) -> list[Table]:
        kind = node.data
        if kind == "conditional":
            parts = subtrees(node)
            table: Table = {"op": "if", "condition": self.condition(parts[0]),
                            "then": self.clause_list(parts[1])}  # fmt: skip
            if len(parts) > 2:
                table["otherwise"] = self.statement(parts[2])
            return [table]
        if kind == "unless":
            condition, clauses = subtrees(node)
            negated = {"if": "not", "condition": self.condition(condition)}
            return [{"op": "if", "condition": negated, "then": self.clause_list(clauses)}]
        if kind == "exec_if":
            factions = [self.faction(token) for token in tokens(node, "FACTION")]
            outer, self.that_faction = (
                self.that_faction,
                factions[0] if len(factions) == 1 else None,
            )
            try:
                then = self.clause_list(subtrees(node)[0])
            finally:
                self.that_faction = outer
            executing: Table = {"if": "executing", "factions": factions}
            return [{"op": "if", "condition": executing, "then": then}]
        if kind == "if_not":
            last = before[-1] if before else None
            if last is None or last["op"] != "if" or last.get("otherwise"):
                raise Unreadable("'If not' follows no condition", node)
            last["otherwise"] = self.clause_list(subtrees(node)[0])
            return []
        if kind == "or_statement":
            if not before:
                raise Unreadable("'Or' follows no effect", node)
            other = self.statement(subtrees(node)[0])
            earlier = before.pop()
            if earlier["op"] == "choose" and "chooser" not in earlier:
                earlier["options"].append(other)
                return [earlier]
            return [{"op": "choose", "options": [[earlier], other]}]
        if kind == "then_statement":
            return self.statement(subtrees(node)[0], before)
        if kind == "either":
            options = [self.clause_list_of([part]) for part in subtrees(node)]
            return [{"op": "choose", "options": options}]
        if kind == "choice":
            chooser = self.faction(tokens(node, "FACTION")[0])
            outer, self.chooser = self.chooser, chooser
            try:
                options = [self.clause_list(option) for option in subtrees(node)]
            finally:
                self.chooser = outer
            return [{"op": "choose", "chooser": chooser, "options": options}]
        if kind in ("fronted", "outside"):
            location, clauses = subtrees(node)
            where = self.location(location)
            self.last_filter = None
            selection = None
            if kind == "outside":
                where = {"filter": {"is": "not", "filter": where["filter"]}, "per_space": False}
                self.fronted = where
            else:
                self.fronted, selection = self._share(where, None)
            effects = self.clause_list(clauses)
            self.fronted = None
            return effects if selection is None else [selection, *effects]
        if kind == "select":
            return self.op_select(node)
        if kind == "shift_cap":  # "Shift at most 2 levels per space." after a procedure
            last = before[-1] if before else None
            if last is None or last["op"] != "procedure":
                raise Unreadable("a cap on shifts follows no procedure", node)
            last["note"] = self.sentence_text
            return []
        if kind == "on_roll":
            return self.on_roll(node)
        if kind == "box_table":
            return self.box_table(node)
        if kind == "or_clauses":
            return [
                {"op": "choose", "options": [self.clause_list(part) for part in subtrees(node)]}
            ]
        return self.clause_list(node)

    def on_roll(self, node: Tree[Token]) -> list[Table]:
        """ "On a die roll of 1-3, Aid -6": a roll, then the clauses if it falls so."""
        name = self.roll_binding(node)
        roll = self.pending.pop()
        left = {"quantity": {"of": "bound", "name": name}}
        ranges = tokens(node, "RANGE")
        if ranges:
            low, high = (int(part) for part in re.split(r"\s*[-\u2013]\s*", str(ranges[0])))
            parts = [] if low <= 1 else [{"if": "compare", "left": left, "compare": ">=",
                                           "right": low}]  # fmt: skip
            if high < 6:
                parts.append({"if": "compare", "left": left, "compare": "<=", "right": high})
            condition = parts[0] if len(parts) == 1 else {"if": "all", "conditions": parts}
        else:
            value = number(tokens(node, "NUM")[0])
            condition = {"if": "compare", "left": left, "compare": "==", "right": value}
        then = self.clause_list(subtrees(node)[0])
        return [roll, {"op": "if", "condition": condition, "then": then}]

    def box_table(self, node: Tree[Token]) -> list[Table]:
        """A count of pieces moved that differs by condition (rows of "N if ..."):
        one placement per row, each under its condition."""
        parts = subtrees(node)
        pieces = self._piece_fields(parts[0])
        source = self.box(parts[1])
        effects = []
        for row in parts[2:]:
            table: Table = {"op": "place", **copy.deepcopy(pieces),
                            "count": number(tokens(row, "NUM")[0]),
                            "where": copy.deepcopy(_ANY_TOTAL)}  # fmt: skip
            if source != "available":
                table["source"] = source
            condition = self.condition(subtrees(row)[0])
            effects.append({"op": "if", "condition": condition, "then": [table]})
        return effects

    def clause_list_of(self, clauses: list[Tree[Token]]) -> list[Table]:
        effects: list[Table] = []
        for clause in clauses:
            effects.extend(self.clause_list(clause))
        return effects

    def clause_list(self, node: Tree[Token]) -> list[Table]:
        if node.data in _STATEMENTS:
            return self.statement(node)
        effects: list[Table] = []
        tail = None
        optional = False
        phase = False
        outer_subject = self.subject
        join = None
        previous: list[Table] = []
        for part in subtrees(node) if node.data == "clause_list" else [node]:
            if part.data == "each_tail":
                tail = part
            elif part.data == "if_desired":
                optional = True
            elif part.data == "at_phase":
                phase = True
            elif part.data.endswith("_join"):
                join = part.data
            else:
                made = self.clause(part)
                if join == "and_join" and previous and "where" in made[-1]:
                    selection = self._and_shares(previous, made)
                    if selection is not None:
                        effects.insert(effects.index(previous[0]), selection)
                effects.extend(made)
                previous = made
        self.subject = outer_subject
        if tail is not None:
            where = self.location(subtrees(tail)[0])
            for effect in effects:
                if effect["op"] in _PIECE_OPS and "where" not in effect:
                    effect["where"] = copy.deepcopy(where)
        for effect in effects:
            if effect["op"] in _PIECE_OPS and "where" not in effect:
                effect["where"] = copy.deepcopy(self.fronted or _ANY_TOTAL)
            elif effect["op"] in _SPACE_OPS and "where" not in effect and self.fronted:
                effect["where"] = copy.deepcopy(self.fronted)
        if optional:
            effects = [{"op": "choose", "options": [effects, []]}]
        if phase:
            effects = [{"op": "at_phase", "phase": "reset", "effects": effects}]
        return effects

    def _and_shares(self, before: list[Table], after: list[Table]) -> Table | None:
        """ "place one Village and free Plunder in one Colony": a location written once,
        after the last of two actions joined by "and", serves the one before too; the
        ``select`` choosing it, if it is chosen."""
        waiting = [effect for effect in before if effect["op"] in _SPACE_OPS
                   and "where" not in effect]  # fmt: skip
        if not waiting:
            return None
        last = after[-1]
        shared, selection = self._share(last["where"], self.subject)
        for effect in [*waiting, *after]:
            if effect["op"] in _SPACE_OPS and ("where" not in effect or effect is last):
                effect["where"] = copy.deepcopy(shared)
        return selection

    # ------------------------------------------------------------ clauses

    def clause(self, node: Tree[Token]) -> list[Table]:
        """The effects of one clause, after those it queued (rolls, selections)."""
        self.last_filter = None
        self.pending = []
        made = self._clause(node)
        out = [*self.pending, *made]
        self.pending = []
        self.last_filter = None
        self._acted_in(out)
        for effect in made:
            self.last_by_op[effect["op"]] = copy.deepcopy(effect)
        return out

    def _clause(self, node: Tree[Token]) -> list[Table]:
        kind = node.data
        if kind == "subject_clause":
            return self.subject_clause(node)
        if kind == "subject_choice":
            factions = [self.faction(token) for token in tokens(node, "FACTION")]
            action = next(part for part in subtrees(node) if part.data != "modal")
            options = [self._as(faction, action) for faction in factions]
            return [{"op": "choose", "options": options}]
        if kind == "elliptic":
            verb = str(node.children[0]).lower().removesuffix("s")
            previous = self.last_by_op.get(verb)
            if previous is None:
                raise Unreadable(f"nothing earlier to {verb} again", node)
            again = copy.deepcopy(previous)
            again["count"] = self.count(subtrees(node)[0])
            again["where"].pop("bind", None)
            return [again]
        if kind in ("clause", "next_clause"):  # "may free Skirmish there": a modal first
            node = next(part for part in subtrees(node) if part.data != "modal")
        return self.predicate(node, self.subject)

    def subject_clause(self, node: Tree[Token]) -> list[Table]:
        subject = subtrees(node)[0]
        predicate = next(part for part in subtrees(node)[1:] if part.data != "modal")
        if subject.data == "several_subjects":
            factions = [self.faction(token) for token in tokens(subject, "FACTION")]
            if predicate.data in ("ineligible", "stay_eligible", "eligible"):
                return self.eligibility(predicate, factions)
            return [effect for faction in factions for effect in self._as(faction, predicate)]
        return self._as(self.subject_faction(subject), predicate)

    def subject_faction(self, subject: Tree[Token]) -> str:
        """The Faction a subject names: an id, ``executing``, or a bound ``$f1``."""
        kind = subject.data
        if kind == "named_subject":
            faction = self.faction(tokens(subject, "FACTION")[0])
            self.last_subject = faction
            return faction
        if kind == "executing_subject":
            return "executing"
        if kind == "that_faction":
            if self.that_faction is None:
                raise Unreadable("'that Faction' names no earlier Faction", subject)
            return self.that_faction
        if kind == "pronoun_subject":
            if self.last_subject is None:
                raise Unreadable("'it' names no earlier Faction", subject)
            return self.last_subject
        return self.faction_pick(subject)

    def faction_pick(self, node: Tree[Token]) -> str:
        """ "Any one Faction", "a non-British Faction": a Faction picked now, bound."""
        excluded = {self.faction(token) for token in tokens(node, "FACTION")}
        factions = [f for f in self.lex.faction_names if f not in excluded]
        name = self._name("f")
        self.pending.append({"op": "choose_faction", "factions": factions, "bind": name})
        self.that_faction = f"${name}"
        return f"${name}"

    def _as(self, faction: str, predicate: Tree[Token]) -> list[Table]:
        """The effects of ``predicate`` with ``faction`` acting (``executing``: whoever
        plays the card)."""
        outer, self.subject = self.subject, faction
        outer_chooser = self.chooser
        self.chooser = None if faction == "executing" else faction
        try:
            if predicate.data in ("ineligible", "stay_eligible", "eligible"):
                return self.eligibility(predicate, [faction])
            return self.predicate(predicate, self.subject)
        finally:
            self.chooser = outer_chooser
            # the subject carries on to the clauses after it that name none
            self.subject = faction if outer is None or outer != faction else outer

    def predicate(self, node: Tree[Token], subject: str | None) -> list[Table]:
        chooser = None if subject in (None, "executing") else subject
        method = getattr(self, f"op_{node.data}", None)
        if method is None:
            raise Unreadable(f"unexpected form {node.data}", node)  # pragma: no cover
        effects = method(node, chooser)
        assert isinstance(effects, list)
        return effects

    # ------------------------------------------------------------ piece effects

    def _chooser(self, table: Table, chooser: str | None, own_choice: bool) -> None:
        who = chooser if chooser is not None else (self.chooser if own_choice else None)
        if who is not None:
            table["chooser"] = who

    def _piece_fields(self, node: Tree[Token]) -> Table:
        """The piece types of a piece phrase and what it says of them (relative
        Faction, status, box, order, limits), as effect fields."""
        return dict(self.piece_phrase(node))

    def _group(self, group: Tree[Token], op: str, chooser: str | None) -> Table:
        parts = subtrees(group)
        table: Table
        if group.data == "double_group":  # "enough Guerrillas in Kontum to double their number"
            table = {"op": op, **self._piece_fields(parts[0]), "where": self._in_loc(parts[1])}
            quantity = {
                "of": "pieces",
                "pieces": table["pieces"],
                "where": table["where"]["filter"],
            }
            table["count"] = {"amount": {"quantity": quantity}}
            self._chooser(table, chooser, False)
            return table
        if group.data == "marker_group":
            marker = self.marker(tokens(group, "MARKER_NOUN")[0])
            table = {"op": "marker", "marker": marker, "count": self.count(parts[0])}
            if op == "remove":
                table["action"] = "remove"
            for part in parts[1:]:
                if part.data in ("in_loc", "from_loc"):
                    table["where"] = self._in_loc(part)
            self._chooser(table, chooser, False)
            return table
        table = {"op": op, "count": self.count(parts[0])}
        if self.spread(parts[0]):
            table["total"] = True
        if group.data == "shared_group":
            table["shared"] = self.faction(tokens(group, "FACTION")[0])
        else:
            fields = self._piece_fields(parts[1])
            source = fields.pop("source", None)
            table.update(fields)
            if source is not None:
                table["source" if op == "place" else "from_box"] = source
        own_choice = False
        for part in parts[2:] if group.data != "shared_group" else parts[1:]:
            if part.data == "tunnel_marker":
                table["status"] = "tunneled"
            elif part.data == "source":
                table["sources"] = [self.box(box) for box in subtrees(part)]
            elif part.data == "destination":
                table["destinations"] = [self.box(box) for box in subtrees(part)]
            elif part.data == "of_choice":
                own_choice = True
            elif part.data == "even_tunneled":
                table["tunneled"] = True
            elif part.data in ("in_loc", "from_loc"):
                table["where"] = self._in_loc(part)
            elif part.data == "among_loc":  # "among Quang Nam and Hue": spread over them
                table["where"] = {**self._in_loc(part), "per_space": False}
            elif part.data == "once_none":
                table["fallback"] = self._in_loc(part)
            elif part.data == "from_map":
                table["where"] = copy.deepcopy(_ANY_TOTAL)
            elif part.data == "total":
                table["total"] = True
            elif part.data.startswith("note_") or part.data == "rounding":
                self.piece_note(part, table)  # "(Forts last)" after the location
        self._chooser(table, chooser, own_choice)
        return table

    def _in_loc(self, node: Tree[Token]) -> Table:
        """The ``where`` of a location phrase; an off-map box is no place to act in."""
        inner = subtrees(node)[0]
        if inner.data == "bare_location":
            inner = subtrees(inner)[0]
        where = self.location(inner) if inner.data == "location" else self.loc_spec(inner)
        if "filter" not in where:
            raise Unreadable("a box is not a map space: name it with 'from' or 'to'", node)
        return where

    def loc_spec(self, node: Tree[Token]) -> Table:
        where = super().loc_spec(node)
        if "filter" in where:  # "in Boston or in a Colony adjacent to it": the same phrase
            self.last_filter = where["filter"]
        return where

    def _groups(self, node: Tree[Token], op: str, chooser: str | None) -> list[Table]:
        """The effects of a clause's counted groups ("two Tories and one Fort in one
        City"): a location or box written once serves every group before it; a chosen
        space is chosen once for all of them."""
        groups = [part for part in subtrees(node)
                  if part.data in ("place_group", "remove_group", "shared_group",
                                   "marker_group", "double_group")]  # fmt: skip
        tails = [part for part in subtrees(node) if part not in groups]
        tables = [self._group(group, op, chooser) for group in groups]
        for part in tails:  # "... and four Continentals to Available from Boston"
            if part.data == "from_loc":
                where = self._in_loc(part)
                for table in tables:
                    table.setdefault("where", copy.deepcopy(where))
            elif part.data == "from_map":
                for table in tables:
                    table.setdefault("where", copy.deepcopy(_ANY_TOTAL))
            elif part.data == "destination":
                boxes = [self.box(box) for box in subtrees(part)]
                for table in tables:
                    table.setdefault("destinations", boxes)
        self._shared_nouns(tables, groups)
        later: Table | None = None
        sharing: list[Table] = []
        for table in reversed(tables):
            if "where" in table:
                later = table["where"]
                sharing = [table]
            elif later is not None:
                sharing.append(table)
                table["where"] = later
            if len(sharing) > 1 and node.data != "group_choice" and later is not None:
                shared, selection = self._share(later, chooser)
                if selection is not None:
                    self.pending.append(selection)
                for each in sharing:
                    each["where"] = copy.deepcopy(shared)
                sharing = [sharing[-1]]
                later = shared
        for table in tables:
            if isinstance(table.get("where"), dict):
                table["where"] = copy.deepcopy(table["where"])
            if table.pop("total", False):
                table.setdefault("where", copy.deepcopy(_ANY_TOTAL))["per_space"] = False
        for table in tables:
            self._status(table)
        effects = [effect for table in tables for effect in self._alternatives(table)]
        effects = [made for effect in effects for made in self._fallback(effect)]
        if node.data == "group_choice":
            return [{"op": "choose", "options": [[effect] for effect in effects]}]
        return effects

    def _shared_nouns(self, tables: list[Table], groups: list[Tree[Token]]) -> None:
        """ "two British and one French Regulars": a group of a Faction alone takes the
        noun of the next group that names one."""
        for index, table in enumerate(tables):
            faction = table.pop("shared", None)
            if faction is None:
                continue
            noun = next((t["pieces"] for t in tables[index + 1 :] if "pieces" in t), None)
            if noun is None:
                table["pieces"] = list(self.lex.faction_pieces[faction])
                continue
            kinds = {self.lex.piece_kind[piece][1] for piece in noun}
            same = [piece for piece in self.lex.faction_pieces[faction]
                    if self.lex.piece_kind[piece][1] in kinds]  # fmt: skip
            if not same:
                raise Unreadable(f"{self.lex.faction_names[faction]} has no such piece",
                                 groups[index])  # fmt: skip
            table["pieces"] = same
            nxt = next(t for t in tables[index + 1 :] if "pieces" in t)
            if table["count"].get("up_to"):  # "up to 3 NVA and 1 VC Guerrillas"
                nxt["count"] = {**nxt["count"], "up_to": True}
            nxt["pieces"] = [
                p for p in nxt["pieces"] if self.lex.piece_kind[p][0] not in (faction,)
            ] or nxt["pieces"]

    @staticmethod
    def _status(table: Table) -> None:
        """ "Remove 2 Underground VC Guerrillas": an effect on pieces in play takes only
        pieces in that status (``taking``); a placement places them in it (``status``).
        Pieces in a box have no status side, so a box-to-box transfer drops it."""
        if table["op"] == "place" or "status" not in table:
            return
        status = table.pop("status")
        if table["op"] in _TAKING_OPS:
            table["taking"] = status

    def _fallback(self, effect: Table) -> list[Table]:
        """A removal from a first space with a second to fall back on: what the
        first space could not give is taken from the second."""
        fallback = effect.pop("fallback", None)
        if fallback is None:
            return [effect]
        name = effect["bind"] = self._name("n")
        wanted = effect["count"].get("n", 1)
        rest = {**copy.deepcopy(effect), "where": fallback}
        del rest["bind"]
        rest["count"] = {"amount": {"quantity": {"of": "bound", "name": name}, "times": -1,
                                    "plus": wanted}}  # fmt: skip
        return [effect, rest]

    def _alternatives(self, table: Table) -> list[Table]:
        """One effect, or a choice between boxes ("from Available or Unavailable"),
        with a box-to-box move as a ``transfer``."""
        sources = table.pop("sources", None)
        destinations = table.pop("destinations", None)
        from_box = table.pop("from_box", None)
        options: list[Table] = []
        for source in sources or [None]:
            for destination in destinations or [None]:
                option = copy.deepcopy(table)
                if source is not None:
                    option["source"] = source
                if destination is not None:
                    option["destination"] = destination
                if option.get("source") == "available":
                    del option["source"]
                options.append(option)
        if from_box is not None:
            for option in options:
                option["source"] = from_box
        if len(options) == 1:
            return options
        return [{"op": "choose", "options": [[option] for option in options]}]

    @staticmethod
    def _group_list(node: Tree[Token]) -> Tree[Token]:
        inner = subtrees(node)[0]
        return inner if inner.data in ("group_choice", "place_groups", "remove_groups") else node

    def op_place(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        return self._groups(self._group_list(node), "place", chooser)

    def op_remove(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        return self._groups(self._group_list(node), "remove", chooser)

    def op_replace(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """A replacement of pieces by others, the location before or after "with";
        an "every N ... with M ..." replacement keeps that ratio."""
        parts = subtrees(node)
        counts = [parts[0]]
        table: Table = {"op": "replace", "count": self.count(parts[0])}
        table.update(self._piece_fields(parts[1]))
        table.pop("source", None)
        for part in parts[2:]:
            if part.data == "in_loc":
                table["where"] = self._in_loc(part)
            elif part.data == "source":
                table["source"] = self.box(subtrees(part)[0])
            else:  # "with [2] Tories [from Casualties]"
                for inner in subtrees(part):
                    if inner.data == "source":
                        table["source"] = self.box(subtrees(inner)[0])
                    elif inner.data in ("piece_list", "shared_noun"):
                        by = self._piece_fields(inner)
                        table["by"] = by["pieces"]
                        if "relative" in by:
                            table["by_relative"] = by["relative"]
                    else:
                        counts.append(inner)
        if len(counts) > 1:  # "every 1 Tory with 3 Militia", "any 2 Guerrillas with 1 Troop"
            ratio = [self.count_number(counts[0]) or 1, self.count_number(counts[1]) or 1]
            if parts[0].data == "every" or ratio[0] != ratio[1]:
                table["ratio"] = ratio
        if table.get("source") == "available":
            del table["source"]
        self._status(table)
        self._chooser(table, chooser, False)
        return [table]

    def _move(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        parts = subtrees(node)
        count, pieces = parts[0], parts[1]
        table: Table = {"op": "move", "count": self.count(count)}
        fields = self._piece_fields(pieces)
        box = fields.pop("source", None)
        table.update(fields)
        origin: Table | str | None = box
        target: Table | str | None = None
        for part in parts[2:]:
            where = self.location(subtrees(part)[0])
            end = where.get("box", where)  # an off-map box is its id, never a space
            if "boxes" in where:
                raise Unreadable("a move goes from one box to one box", part)
            if part.data == "from_where":
                origin = end
            else:
                target = end
        self._chooser(table, chooser, False)
        if isinstance(origin, str) and isinstance(target, str):
            table.update(op="transfer", source=origin, destination=target)
        elif isinstance(origin, str):  # from a box onto the map: a placement
            table.update(op="place", where=target or copy.deepcopy(_ANY_TOTAL))
            if origin != "available":
                table["source"] = origin
        elif isinstance(target, str):  # from the map into a box: a removal
            table.update(op="remove", destination=target,
                         where=origin or copy.deepcopy(_ANY_TOTAL))  # fmt: skip
        else:
            table["where"] = origin or copy.deepcopy(_ANY_TOTAL)
            if target is None:
                raise Unreadable("a move needs a destination", node)
            table["to"] = target
        self._status(table)
        return [table]

    def op_move(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        return self._move(node, chooser)

    def op_relocate(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        return self._move(node, chooser)

    def _flip(self, node: Tree[Token], op: str, chooser: str | None) -> list[Table]:
        parts = subtrees(node)
        table: Table = {"op": op, "count": self.count(parts[0])}
        for part in parts[1:]:
            if part.data == "in_loc":
                table["where"] = self._in_loc(part)
            else:
                table.update(self._piece_fields(part))
        self._status(table)
        self._chooser(table, chooser, False)
        return [table]

    def op_activate_half(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """An Activation up to a share of a Faction's pieces: that share of them
        (rounded up, so that at least the share ends Active), less those Active already."""
        parts = subtrees(node)
        table: Table = self._piece_fields(parts[0])
        quantity = {"of": "pieces", "pieces": table["pieces"]}
        active = {**quantity, "status": "active"}
        table.update(op="activate", count={"amount": {"quantity": quantity, "per": 2,
                                                      "round": "up", "minus": active}})  # fmt: skip
        if len(parts) > 1:  # "their Militia in Virginia": half of those in Virginia
            table["where"] = self._in_loc(parts[1])
            quantity["where"] = active["where"] = table["where"]["filter"]
        self._chooser(table, chooser, False)
        return [table]

    def op_activate(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        return self._flip(node, "activate", chooser)

    def op_underground(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        return self._flip(node, "underground", chooser)

    def op_tunnel(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """Markers put on a count of pieces in a place ("on each": on all)."""
        parts = subtrees(node)
        count = {"all": True} if parts[0].data == "each_count" else self.count(parts[0])
        table: Table = {"op": "tunnel", "count": count, **self._piece_fields(parts[1])}
        for part in parts[2:]:
            table["where"] = self._in_loc(part)
        self._chooser(table, chooser, False)
        return [table]

    # ------------------------------------------------------------ verbless (FitL)

    def op_verbless(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """FitL's verbless transfers and flips: "4 US Irregulars from Casualties to
        Available", "2 VC Guerrillas in Kontum to Casualties", "All NVA Guerrillas in
        Laos go Active"."""
        route = subtrees(node)[2]
        effects = getattr(self, f"op_{route.data}")(node, chooser)
        assert isinstance(effects, list)
        return effects

    def _verbless(self, node: Tree[Token]) -> tuple[Table, list[Tree[Token]]]:
        count, pieces, route = subtrees(node)
        table: Table = {"count": self.count(count)}
        table.update(self._piece_fields(pieces))
        return table, subtrees(route)

    def op_box_to_box(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        table, rest = self._verbless(node)
        table.update(op="transfer", source=self.box(rest[0]), destination=self.box(rest[1]))
        return [table]

    def op_box_adjective(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        table, rest = self._verbless(node)
        if "source" not in table:
            raise Unreadable("a transfer between boxes needs the box it comes from", node)
        table.update(op="transfer", destination=self.box(rest[0]))
        return [table]

    def op_box_to_map(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """ "5 out-of-play ARVN Rangers to Kontum": a placement from a box; "1 VC
        Guerrilla to Available" (in an action's space): a removal to a box."""
        table, rest = self._verbless(node)
        self._chooser(table, chooser, False)
        for part in rest:
            if part.data == "from_box":
                table["source"] = self.box(subtrees(part)[0])
                continue
            where = self.location(part)
            if "box" in where:
                table.pop("source", None)
                table.update(op="remove", destination=where["box"])
                return [table]
            table["where"] = where
        table["op"] = "place"
        if table.get("source") == "available":
            del table["source"]
        return [table]

    def op_map_to_box(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        table, rest = self._verbless(node)
        table.pop("source", None)
        table["op"] = "remove"
        for part in rest:
            if part.data == "in_loc":
                table["where"] = self._in_loc(part)
            else:
                table["destination"] = self.box(part)
        return [table]

    def op_all_box(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        parts = subtrees(node)
        boxes = [part for part in parts if part.data != "piece_list"]
        named = [part for part in parts if part.data == "piece_list"]
        source = self.box(boxes[0])
        pieces = (
            self._piece_fields(named[0])
            if named
            else {"pieces": list(self.lex.box_pieces[source])}  # what the box may hold
        )
        pieces.pop("source", None)
        table: Table = {
            "op": "transfer",
            "count": {"all": True},
            **pieces,
            "source": source,
            "destination": self.box(boxes[1]),
        }
        return [table]

    def op_go_box(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """ "All US Troop Casualties go out of play", "All Irregulars in Casualties go
        Available"."""
        table, rest = self._verbless(node)
        if len(rest) > 1:
            table["source"] = self.box(subtrees(rest[0])[0])
        destination = self.box(rest[-1])
        if "source" in table:
            table.update(op="transfer", destination=destination)
        else:
            table.update(op="remove", destination=destination, where=copy.deepcopy(_ANY_TOTAL))
        return [table]

    def _verbless_flip(self, node: Tree[Token], op: str) -> list[Table]:
        table, rest = self._verbless(node)
        table["op"] = op
        for part in rest:
            if part.data == "in_loc":
                table["where"] = self._in_loc(part)
        self._status(table)
        return [table]

    def op_verbless_active(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        return self._verbless_flip(node, "activate")

    def op_verbless_underground(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        return self._verbless_flip(node, "underground")

    def op_track_shift(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """ "2 VC Resources to NVA Resources": taken from one track, added to the other."""
        return self.op_transfer_track(node, chooser)

    # ------------------------------------------------------------ markers, leaders

    def op_marker_move(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        parts = subtrees(node)
        table: Table = {"op": "marker", "action": "move", "count": self.count(parts[0]),
                        "marker": self.marker(tokens(node, "MARKER_NOUN")[0]),
                        "source": self.box(parts[1])}  # fmt: skip
        target = parts[2]
        if target.data == "location":
            where = self.location(target)
            if where["filter"]["is"] != "named" or len(where["filter"]["names"]) != 1:
                raise Unreadable("markers move to one named space or box", target)
            table["destination"] = where["filter"]["names"][0]
        else:
            table["destination"] = self.box(target)
        self._chooser(table, chooser, False)
        return [table]

    def op_sabotage(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        where = self.location(subtrees(node)[0])
        table: Table = {"op": "marker", "marker": "sabotage", "where": where}
        self._chooser(table, chooser, False)
        return [table]

    def op_leader(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        leader = self.lex.leaders[norm(tokens(node, "LEADER")[0])]
        table: Table = {"op": "leader", "leader": leader, "where": self._in_loc(subtrees(node)[0])}
        self._chooser(table, chooser, False)
        return [table]

    # ------------------------------------------------------------ support

    def _levels(self, node: Tree[Token]) -> tuple[int, str | None]:
        """Levels and direction of "N levels toward <Level>": toward a pole, a signed
        count; toward a level in between, the count and that level."""
        levels = number(tokens(node, "NUM")[0])
        target = self.level(child_named(node, "level") or subtrees(node)[-1])
        if target == "active_support":
            return levels, None
        if target == "active_opposition":
            return -levels, None
        return levels, target

    def op_shift(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        location = subtrees(node)[0]
        levels, toward = self._levels(node)
        table: Table = {"op": "shift", "levels": levels, "where": self.location(location)}
        if toward is not None:
            table["toward"] = toward
        self._chooser(table, chooser, False)
        return [table]

    def op_shift_here(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        levels, toward = self._levels(node)
        table: Table = {"op": "shift", "levels": levels}
        if toward is not None:
            table["toward"] = toward
        if self.fronted is None:
            table["where"] = self.reference("there", node)
        self._chooser(table, chooser, False)
        return [table]

    def op_shift_to(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        location, level = subtrees(node)
        table: Table = {"op": "set_support", "level": self.level(level),
                        "where": self.location(location)}  # fmt: skip
        self._chooser(table, chooser, False)
        return [table]

    def op_shift_either(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        levels = number(tokens(node, "NUM")[0])
        table: Table = {"op": "shift", "levels": levels, "either": True,
                        "where": self.location(subtrees(node)[0])}  # fmt: skip
        self._chooser(table, chooser, False)
        return [table]

    def op_set_support(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        location, level = subtrees(node)
        table: Table = {"op": "set_support", "level": self.level(level),
                        "where": self.location(location)}  # fmt: skip
        self._chooser(table, chooser, False)
        return [table]

    def op_verbless_set(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        count, now, then = subtrees(node)
        kinds = [token for token in tokens(node) if token.type in ("TYPE_ONE", "TYPE_MANY")]
        filters: list[Table] = []
        if kinds:
            table_of = self.lex.types_one if kinds[0].type == "TYPE_ONE" else self.lex.types_many
            filters.append({"is": "type", "types": list(table_of[norm(kinds[0])])})
        filters.append({"is": "support", "levels": [self.level(now)]})
        numbers = self.count(count)
        where: Table = {"filter": combine(filters), "spaces": numbers["n"]}
        if numbers.get("up_to"):
            where["up_to"] = True
        return [{"op": "set_support", "level": self.level(then), "where": where}]

    def op_remove_support(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        where = self.location(subtrees(node)[0])
        at_support = {"is": "support", "levels": ["active_support", "passive_support"]}
        where["filter"] = combine([where["filter"], at_support]) if where["filter"][
            "is"] != "anywhere" else at_support  # fmt: skip
        return [{"op": "set_support", "level": "neutral", "where": where}]

    # ------------------------------------------------------------ tracks

    def _track(self, token: Token) -> str:
        return self.lex.tracks[norm(token)]

    @staticmethod
    def _signed(token: Token) -> int:
        signed = re.sub(r"\s", "", str(token)).replace("\u2212", "-").replace("\u2013", "-")
        return int(signed[1:]) * (1 if signed[0] == "+" else -1)

    def _adjust(self, track: str, delta: int, node: Tree[Token]) -> Table:
        amounts = subtrees(node)  # "+1 per City with British Control"
        if not amounts:
            return {"op": "adjust", "track": track, "delta": delta}
        amount = amounts[0]
        table = self.amount(amount, abs(delta))
        out: Table = {"op": "adjust", "track": track, "amount": table}
        if delta < 0:
            out["delta"] = -1
        return out

    def _clause_adjust(self, node: Tree[Token]) -> list[Table]:
        return [self._adjust(self._track(tokens(node, "TRACK")[0]),
                             self._signed(tokens(node, "SIGNED")[0]), node)]  # fmt: skip

    def op_adjust(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        return self._clause_adjust(node)

    def op_signed_first(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        return self._clause_adjust(node)

    def op_adjust_each(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        delta = self._signed(tokens(node, "SIGNED")[0])
        return [{"op": "adjust", "track": self._track(token), "delta": delta}
                for token in tokens(node, "TRACK")]  # fmt: skip

    def op_adjust_choice(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        track = self._track(tokens(node, "TRACK")[0])
        options = [[{"op": "adjust", "track": track, "delta": self._signed(token)}]
                   for token in tokens(node, "SIGNED")]  # fmt: skip
        return [{"op": "choose", "options": options}]

    def op_track_up(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """ "Raise FNI 2 levels", "Improve the Trail 1 box"."""
        levels = number(tokens(node, "NUM")[0])
        return [{"op": "adjust", "track": self._track(tokens(node, "TRACK")[0]), "delta": levels}]

    def op_track_down(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """ "Lower FNI 2 levels", "Degrade the Trail by 2 boxes"."""
        [effect] = self.op_track_up(node, chooser)
        effect["delta"] = -effect["delta"]
        return [effect]

    def op_improve_min(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """A track raised by an amount and to a floor, both given."""
        track = self._track(tokens(node, "TRACK")[0])
        by, floor = (number(token) for token in tokens(node, "NUM"))
        return [
            {"op": "adjust", "track": track, "delta": by},
            {"op": "set_track", "track": track, "value": floor, "mode": "at_least"},
        ]

    def op_track_any(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """A choice of tracks, each moved up or down by the same amount: every
        non-empty set of the tracks, each up or down."""
        amount = number(tokens(node, "NUM")[0])
        tracks = self._track_names(subtrees(node)[0])

        def options(rest: list[str]) -> list[list[Table]]:
            if not rest:
                return []
            later = options(rest[1:])
            first = [[{"op": "adjust", "track": rest[0], "delta": sign * amount}, *tail]
                     for sign in (1, -1) for tail in [*later, []]]  # fmt: skip
            return first + later

        return [{"op": "choose", "options": options(tracks)}]

    def op_that_resources(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """A track of "that Faction", the one an earlier condition named."""
        if self.that_faction is None:
            raise Unreadable("'that Faction' names no earlier Faction", node)
        track = f"{self.that_faction}_resources"
        return [{"op": "adjust", "track": track, "delta": self._signed(tokens(node, "SIGNED")[0])}]

    def op_resources_each(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """ "ARVN and NVA +2 Resources each"."""
        delta = self._signed(tokens(node, "SIGNED")[0])
        return [{"op": "adjust", "track": f"{self.faction(token)}_resources", "delta": delta}
                for token in tokens(node, "FACTION")]  # fmt: skip

    def op_improve_to(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        return [{"op": "set_track", "track": self._track(tokens(node, "TRACK")[0]),
                 "value": number(tokens(node, "NUM")[0]), "mode": "at_least"}]  # fmt: skip

    def op_add_amount(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        return [{"op": "adjust", "track": self._track(tokens(node, "TRACK")[0]),
                 "amount": self.amount(subtrees(node)[0])}]  # fmt: skip

    def op_track_to(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        return [{"op": "set_track", "track": self._track(tokens(node, "TRACK")[0]),
                 "value": number(tokens(node, "NUM")[0])}]  # fmt: skip

    def op_track_cut(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """Tracks each cut to a share of their total: each track set to its
        share, rounded down unless the text says up."""
        share = _FRACTIONS[norm(str(tokens(node, "CUT_SHARE")[0])).lower()]
        rounding = next(node.find_data("rounding"), None)
        effects = []
        for track in self._track_names(child_named(node, "track_names") or node):
            value: Table = {"quantity": {"of": "track", "track": track}, "per": share}
            if rounding is not None:
                value["round"] = str(tokens(rounding, "ROUND_WAY")[0]).lower()
            effects.append({"op": "set_track", "track": track, "value": value})
        return effects

    def _track_names(self, node: Tree[Token]) -> list[str]:
        """ "British and Indian Resources": a Faction before a Resources track shares it."""
        tracks = []
        for token in tokens(node):
            if token.type == "TRACK":
                tracks.append(self._track(token))
            elif token.type == "FACTION":
                tracks.append(f"{self.faction(token)}_resources")
        for track in tracks:
            if track not in self.lex.tracks.values():
                raise Unreadable(f"no track {track!r}", node)
        return tracks

    def op_transfer_track(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """ "Transfer 3 from Aid to Patronage": the target gains what the source
        actually lost (5.1.1 may hold the source at its floor), bound by name."""
        amount = number(tokens(node, "NUM")[0])
        source, target = (self._track(token) for token in tokens(node, "TRACK"))
        lost = self._name("n")
        return [
            {"op": "adjust", "track": source, "delta": -amount, "bind": lost},
            {
                "op": "adjust",
                "track": target,
                "amount": {"quantity": {"of": "bound", "name": lost}},
            },
        ]

    def op_gain_resources(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """ "Indians add 4 Resources": the subject's Resources."""
        value = tokens(node, "NUM") or tokens(node, "SIGNED")
        delta = number(value[0]) if value[0].type == "NUM" else abs(self._signed(value[0]))
        return [{"op": "adjust", "track": self._resources(node), "delta": delta}]

    def op_lose_resources(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """ "Patriots lose 2 Resources"."""
        [effect] = self.op_gain_resources(node, chooser)
        effect["delta"] = -effect["delta"]
        return [effect]

    def _resources(self, node: Tree[Token]) -> str:
        """The Resources track of the clause's subject (the executing Faction's when
        none is named)."""
        if self.subject in (None, "executing"):
            return "executing_resources"
        track = f"{self.subject}_resources"
        if track not in self.lex.tracks.values():
            raise Unreadable(f"{self.subject} has no Resources", node)
        return track

    def op_flag_now(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        flag = self.lex.flags[norm(tokens(node, "FLAG")[0])]
        return [{"op": "lasting", "kind": "flag", "name": flag}]

    # ------------------------------------------------------------ eligibility

    def eligibility(self, node: Tree[Token], factions: list[str]) -> list[Table]:
        table: Table = {"op": "eligibility", "factions": factions}
        if node.data == "ineligible":
            table.update(to="ineligible", through_next_card=True)
        else:
            table["to"] = "eligible"
        return [table]

    def op_become_eligible(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        return [{"op": "eligibility", "factions": [self.subject or "executing"], "to": "eligible"}]

    def op_all_eligible(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        to = "ineligible" if tokens(node, "INELIGIBLE") else "eligible"
        return [{"op": "eligibility", "factions": ["all"], "to": to}]

    # ------------------------------------------------------------ free actions

    def _actor(self) -> str:
        return self.subject or "executing"

    def _action(self, token: Token) -> Table:
        action_id, kind = self.lex.actions[norm(token)]
        table: Table = {"op": "free", "faction": self._actor(), "action": action_id}
        if kind != "command":
            table["kind"] = kind
        return table

    def _details(self, table: Table, details: list[Tree[Token]]) -> None:
        for detail in details:
            kind = detail.data
            if kind == "object_location":  # "free Assault 5 spaces with NVA"
                table["where"] = self.location(subtrees(detail)[0])
            elif kind in ("in_loc", "free_to"):
                table["where"] = self._in_loc(detail) if kind == "in_loc" else self.location(
                    subtrees(detail)[0])  # fmt: skip
            elif kind == "free_from":
                table["origin"] = self.location(subtrees(detail)[0])
            elif kind == "as_faction":
                table["as_faction"] = self.faction(tokens(detail, "FACTION")[0])
            elif kind == "force_level":
                table["force_level"] = self._signed(tokens(detail, "SIGNED")[0])
            elif kind == "hits":
                table["hits"] = number(tokens(detail, "NUM")[0])
            elif kind == "twice":
                table["times"] = 2
            elif kind == "no_activation":
                table["no_activation"] = True
            elif kind == "with_special":
                table["with_special"] = True
            elif kind == "removing":  # the action's own targets, so many per space
                count, pieces = subtrees(detail)
                table["remove_per_space"] = self.count(count)["n"]
                table["remove_pieces"] = self._piece_fields(pieces)["pieces"]
            elif kind == "ignoring_resources":  # free actions cost nothing anyway (5.5)
                table["note"] = "ignoring Resources"
            elif kind == "free_note":  # "(no Base)": kept as written
                table["note"] = " ".join(str(token) for token in tokens(detail)).strip("()")
            self.last_filter = None

    def _free(self, node: Tree[Token]) -> list[Table]:
        actions = tokens(node, "ACTION")
        limited = child_named(node, "limited") is not None
        details = [part for part in subtrees(node) if part.data not in ("limited", "free_to_and")]
        tables = []
        for token in actions:
            table = self._action(token)
            if limited:
                table["limited"] = True
            tables.append(table)
        if node.data == "free_or":
            for table in tables:
                self._details(table, copy.deepcopy(details))
                self.last_filter = None
            return [{"op": "choose", "options": [[table] for table in tables]}]
        self._details(tables[-1], details)
        if len(tables) > 1 and "where" in tables[-1]:  # "free March to and free Battle in ..."
            shared, selection = self._share(tables[-1]["where"], self.subject)
            if selection is not None:
                self.pending.append(selection)
            for table in tables:
                table["where"] = copy.deepcopy(shared)
        return tables

    def op_free_actions(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        return self._free(node)

    def op_free_or(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        return self._free(node)

    def op_free_shared(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        return self._free(node)

    def op_may_action(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        return self._free(node)

    def op_free_any(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """ "VC executes 4 free Limited Operations", "Execute 3 free Limited Commands and
        3 Special Activities in any order"."""
        written = re.findall(r"\w+", str(tokens(node, "FREE_WORD")[0]))
        numbers = [token for token in written if token.lower() in NUMBERS or token.isdigit()]
        count = number(Token("NUM", numbers[0])) if numbers else 1
        tail = child_named(node, "any_tail")
        numbers = [*numbers, *(tokens(tail, "NUM") if tail is not None else [])]
        wildcard = str(tokens(node, "ANY_ACTION")[0]).lower()
        table: Table = {"op": "free", "faction": self._actor(), "action": "any"}
        if "special" in wildcard:
            table["kind"] = "special_activity"
        elif wildcard.startswith("op") or "operation" in wildcard or "limop" in wildcard:
            table["kind"] = "operation" if self.lex.game == "fitl" else "command"
        if child_named(node, "limited") is not None or "limited" in wildcard or "limop" in wildcard:
            table["limited"] = True
        if table.get("kind") == "command":
            del table["kind"]
        if count > 1:
            table["count"] = count
        effects = [table]
        if tail is not None and tokens(tail, "SPECIAL_ACTIVITIES"):
            special: Table = {"op": "free", "faction": self._actor(), "action": "any",
                              "kind": "special_activity"}  # fmt: skip
            if len(numbers) > 1 and number(Token("NUM", str(numbers[1]))) > 1:
                special["count"] = number(Token("NUM", str(numbers[1])))
            effects.append(special)
        return effects

    def op_free_any_or(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """ "a free Op or Special Activity": the executor picks which."""
        options = []
        for wildcard in tokens(node, "ANY_ACTION"):
            table: Table = {"op": "free", "faction": self._actor(), "action": "any"}
            text = str(wildcard).lower()
            if "special" in text:
                table["kind"] = "special_activity"
            elif self.lex.game == "fitl":
                table["kind"] = "operation"
            options.append([table])
        return [{"op": "choose", "options": options}]

    def op_free_choice(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        limited = child_named(node, "limited") is not None
        picker = self.faction(tokens(node, "FACTION")[0])
        options = []
        for token in tokens(node, "ACTION"):
            table = self._action(token)
            if limited:
                table["limited"] = True
            options.append([table])
        return [{"op": "choose", "chooser": picker, "options": options}]

    # ------------------------------------------------------------ procedures, cards

    def op_piece_move(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """Pieces in a place allowed to move a number of spaces: any of them, that far."""
        parts = subtrees(node)
        table: Table = {"op": "move", **self._piece_fields(parts[0]),
                        "count": {"all": True, "up_to": True}}  # fmt: skip
        where = self._in_loc(parts[1]) if len(parts) > 1 else copy.deepcopy(_ANY_TOTAL)
        table["where"] = where
        near: Table = {"is": "adjacent", "filter": copy.deepcopy(where["filter"])}
        distance = number(tokens(node, "NUM")[0])
        if distance > 1:
            near["distance"] = distance
        table["to"] = {"filter": near}
        return [table]

    def op_piece_actors(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """ "ARVN Rangers free Patrol in Kontum": the action done with those pieces."""
        parts = subtrees(node)
        faction = self.bare_faction(parts[0])
        pieces = [] if faction is not None else self._piece_fields(parts[0])["pieces"]
        owners = {self.lex.piece_kind[piece][0] for piece in pieces}
        if faction is None and len(owners) != 1:
            raise Unreadable("the pieces of a free action belong to one Faction", node)
        outer, self.subject = self.subject, faction or owners.pop()
        try:
            table = self._action(tokens(node, "ACTION")[0])
            self._details(table, parts[1:])
        finally:
            self.subject = outer
        if pieces:
            table["pieces"] = pieces
        return [table]

    def op_do_same(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """ "Then NVA do the same": the previous sentence again, by this Faction."""
        if not self.previous_sentence:
            raise Unreadable("'do the same' follows nothing to do", node)
        done = self.previous_sentence[-1]
        again = copy.deepcopy(done)
        for key in ("faction", "chooser"):
            if key in again:
                again[key] = self.subject
        return [again]

    def op_place_and_shift(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """A placement and a shift sharing one location named after both verbs."""
        parts = subtrees(node)
        where = self.location(parts[2])
        shared, selection = self._share(where, chooser)
        place: Table = {
            "op": "place",
            "count": self.count(parts[0]),
            **self._piece_fields(parts[1]),
            "where": copy.deepcopy(shared),
        }
        levels, toward = self._levels(node)
        shift: Table = {"op": "shift", "levels": levels, "where": copy.deepcopy(shared)}
        if toward is not None:
            shift["toward"] = toward
        for table in (place, shift):
            self._chooser(table, chooser, False)
        return [table for table in (selection, place, shift) if table is not None]

    def _capabilities(self, node: Tree[Token], action: str) -> list[Table]:
        sides = [str(token).lower() for token in tokens(node, "SIDE_NAME")]
        return [
            {
                "op": "card",
                "action": action,
                "target": "capability",
                "count": number(tokens(node, "NUM")[0]),
                "faction": self.faction(tokens(node, "FACTION")[0]),
                "side": sides[0],
            }
        ]

    def op_flip_capabilities(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """ "Flip 2 shaded VC Capabilities to unshaded"."""
        return self._capabilities(node, "flip")

    def op_remove_capabilities(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """ "Remove 1 unshaded US Capability"."""
        return self._capabilities(node, "remove")

    def op_redeploy(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        parts = subtrees(node)
        table: Table = {"op": "procedure", "name": "redeploy",
                        "pieces": self._piece_fields(parts[1])["pieces"]}  # fmt: skip
        for part in parts[2:]:
            if part.data == "from_where":
                table["where"] = self._in_loc(part)
            elif part.data == "to_where":
                table["to"] = self._in_loc(part)
        return [table]

    def op_desertion(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        faction = self.faction(tokens(node, "FACTION")[0])
        return [{"op": "procedure", "name": "desertion", "factions": [faction]}]

    def op_as_if_phase(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        table: Table = {"op": "procedure", "name": "support_phase"}  # the Faction's step
        if self.subject not in (None, "executing"):
            table["factions"] = [self.subject]
        return [table]

    def op_conduct(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        phase = str(tokens(node, "PHASE_NAME")[0]).lower().split()[0]
        name = {"support": "support_phase", "redeployment": "redeploy"}.get(phase, phase)
        return [{"op": "procedure", "name": name}]

    def op_takes(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        count, pieces, box = subtrees(node)
        table: Table = {
            "op": "remove",
            "count": self.count(count),
            "destination": self.box(box),
            "where": copy.deepcopy(_ANY_TOTAL),
        }
        table.update(self._piece_fields(pieces))
        table.pop("source", None)
        if self.subject not in (None, "executing"):
            own = set(self.lex.faction_pieces[self.subject])
            table["pieces"] = [piece for piece in table["pieces"] if piece in own]
            table["chooser"] = self.subject
        else:
            table["relative"] = "own"
        return [table]

    def op_brilliant_stroke(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        table: Table = {"op": "procedure", "name": "brilliant_stroke", "note": self.sentence_text}
        if self.subject not in (None, "executing"):
            table["factions"] = [self.subject]
        return [table]

    def op_battle_modifier(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """ "+1 to Attacker's Loss Level", "-1 to Defender's Force Level": for the next
        Battle."""
        role = str(tokens(node, "BATTLE_ROLE")[0]).lower().removesuffix("'s")
        level = str(tokens(node, "BATTLE_LEVEL")[0]).lower().split()[0]
        return [{"op": "battle_modifier", "role": role,
                 f"{level}_level": self._signed(tokens(node, "SIGNED")[0])}]  # fmt: skip

    def op_leader_involved(self, node: Tree[Token], chooser: str | None) -> list[Table]:
        """A Brilliant Stroke's condition on its Leader, kept for the procedure."""
        return [{"op": "procedure", "name": "brilliant_stroke", "note": self.sentence_text}]

    def op_select(self, node: Tree[Token]) -> list[Table]:
        self.pending = []
        pick = child_named(node, "faction_pick")
        if pick is not None:
            self.faction_pick(pick)
            effects = self.pending
        else:
            where = self.location(child_named(node, "location") or subtrees(node)[-1])
            if where.get("spaces") is None and where["filter"]["is"] != "named":
                where["spaces"] = 1
            table: Table = {"op": "select", "bind": self._name("s"), "where": where}
            effects = [table]
            self.acted = (where, table)
        self.pending = []
        self.last_filter = None
        return effects

    # ------------------------------------------------------------ lasting effects

    def banner(self, kind: Literal["capability", "momentum"], duration: str | None) -> Table:
        """The lasting effect a Capability or Momentum banner puts in force."""
        self.lasting = kind
        table: Table = {"op": "lasting", "kind": kind, "name": self.title, "rules": []}
        if kind == "capability" and self.side is not None:
            table["side"] = self.side
        if duration is not None:
            table["duration"] = duration
        self.lasting_table = table
        return table

    def rule(self, text: str, tree: Tree[Token] | None, statement: list[Table] | None) -> Table:
        """One rule of the lasting effect being read: its text, what kind of change it
        is and, where the language says it, what it does."""
        game_commands = self.lex.game in _GAMES_WITH_COMMANDS
        rule: Table = {"text": text, "kind": "change"}
        if statement is not None:
            rule.update(effects=statement, modelled=True)
            return rule
        if tree is None:  # "Subvert does not remove Rangers": the action it changes, as text
            subject = next((faction for name, faction in self.lex.factions.items()
                            if text.startswith(name + " ")), None)  # fmt: skip
            if subject is not None:
                rule["faction"] = subject
            action = self._first_action(text)
            if action is not None:
                rule["action"] = action
            return rule
        node = tree
        kind = node.data
        actions = [self.lex.actions[norm(token)][0] for token in tokens(node, "ACTION")]
        factions = [self.faction(token) for token in tokens(node, "FACTION")]
        if factions:
            rule["faction"] = factions[0]
        if actions:
            rule["action"] = actions[0]
        if kind == "rule_limit":
            rule.update(kind="limit", max_spaces=number(tokens(node, "NUM")[0]),
                        modelled=game_commands)  # fmt: skip
        elif kind == "rule_pieces":  # "Air Lift US Troops only"
            pieces = self._piece_fields(subtrees(node)[0])["pieces"]
            rule.update(kind="limit", pieces=pieces, modelled=game_commands)
        elif kind == "rule_ban":
            rule.update(kind="ban", modelled=game_commands)
        elif kind == "rule_addon":
            outer, self.subject = self.subject, factions[0] if factions else None
            try:
                effects = self.clause(subtrees(node)[0])
            finally:
                self.subject = outer
            for effect in effects:
                if effect.get("where") == _ANY_TOTAL:
                    del effect["where"]
            rule.update(kind="addon", effects=effects, modelled=game_commands)
        elif kind == "rule_recurring":
            track = self._track(tokens(node, "TRACK")[0])
            delta = self._signed(tokens(node, "SIGNED")[0])
            rule.update(kind="recurring", at="reset", modelled=True,
                        effects=[{"op": "adjust", "track": track, "delta": delta}])  # fmt: skip
        elif kind == "rule_allow":  # "<Card> allowed when <Condition>"
            rule.update(kind="allow", card=" ".join(str(tokens(node, "CARD_NAME")[0]).split()),
                        condition=self.condition(subtrees(node)[0]),
                        modelled=game_commands)  # fmt: skip
        return rule

    def _first_action(self, text: str) -> str | None:
        """The first Command or Special Activity a rule's text names, if any."""
        found = [
            (match.start(), action_id)
            for name, (action_id, _) in self.lex.actions.items()
            for match in [re.search(rf"\b{re.escape(name)}\b", text)]
            if match
        ]
        return min(found)[1] if found else None

    def rules(
        self, text: str, tree: Tree[Token] | None, statement: list[Table] | None
    ) -> list[Table]:
        """The rules of one lasting sentence: a ban of several actions is one rule each."""
        rule = self.rule(text, tree, statement)
        if tree is not None and tree.data == "rule_ban":
            return [{**rule, "action": self.lex.actions[norm(token)][0]}
                    for token in tokens(tree, "ACTION")]  # fmt: skip
        return [rule]


# ---------------------------------------------------------------------- entry point


def _lasting_start(sentence: str, names: Lexicon) -> tuple[str | None, str | None, str]:
    """A banner or duration that starts a lasting effect: its kind (``capability``,
    ``momentum`` or None), duration and the rules text after it."""
    kind: str | None = None
    duration: str | None = None
    body = sentence
    banner = _CAPABILITY.match(body)
    if banner and norm(banner.group("faction")) in names.factions:
        kind, duration, body = "capability", "game", body[banner.end() :]
    elif (momentum := _MOMENTUM.match(body)) is not None:
        kind, body = "momentum", body[momentum.end() :]
    wording = _DURATION.match(body)
    if wording is not None and kind != "capability":
        kind = "momentum"
        duration = ("phase" if wording.group("phase") else
                    "through_coup" if wording.group("through") else "until_coup")  # fmt: skip
        body = body[wording.end() :]
    elif kind is None and _UNTIL_COUP.match(body):
        kind, duration = "momentum", "until_coup"
    elif kind == "momentum":
        duration = "until_coup"
    return kind, duration, " ".join(_TAGS.sub(" ", body).split())


def parse_side(
    text: str, game: str, *, title: str = "", side: SideName | None = None
) -> ParseResult:
    """Compile one side's event text to effects; never raises.

    ``title`` names the Capability or Momentum the text puts in force (a card's
    lasting effect is named after the card); ``side`` is the side the text is
    printed on, recorded on a Capability. Unreadable text, unknown names and text
    whose effects fail validation come back as diagnostics with no effects.

    >>> parse_side("Patriot Resources +3.", "lod").effects[0].track
    'patriots_resources'
    >>> bad = parse_side("Remove 1 Fort from Bostn.", "lod").diagnostics[0]
    >>> bad.line, bad.column, bad.message
    (1, 20, "unknown name 'Bostn' (did you mean 'Boston'?)")
    >>> parse_side("Place 2 Militia.", "go").diagnostics[0].message
    "unknown game 'go'"
    >>> parse_side("British Resources +2. " * 300, "lod").diagnostics[0].message
    'the text is 6,600 characters long; event text is read up to 5,000 characters'
    """
    if game not in SPACE_TYPES:
        unknown = f"unknown game {game!r}"
        return ParseResult((), [Diagnostic(1, 1, unknown, sorted(SPACE_TYPES), kind="invalid")])
    try:
        names = lexicon(game)
        parser = _sentence_parser(game)
    except LegalisError as error:
        return ParseResult((), [Diagnostic(1, 1, str(error), kind="invalid")])
    if not text.strip():
        return ParseResult((), [Diagnostic(1, 1, "no text", [], kind="invalid")])
    if len(text) > MAX_TEXT_LENGTH:
        line, column = position(text, MAX_TEXT_LENGTH)
        message = (
            f"the text is {len(text):,} characters long; event text is read up to "
            f"{MAX_TEXT_LENGTH:,} characters"
        )
        return ParseResult((), [Diagnostic(line, column, message, kind="invalid")])
    flavour, printed = split_flavour(text)  # positions in ``printed`` are those in ``text``
    compiler = _Compiler(names, title, side)
    effects: list[Table] = []
    condition: Table | None = None
    for start, end in _sentences(printed):
        sentence = printed[start:end]
        try:
            if _read_lasting(compiler, sentence, game, effects):
                continue
            tree = _parse(game, sentence, "start")
            compiler.sentence_text = " ".join(sentence.split()).rstrip(".")
            made = compiler.sentence(tree, effects)
        except UnexpectedInput:
            blank = _blank(printed, start, end)
            with exact_expectations(parser):  # an error lists every form lark expects
                try:
                    parser.parse(blank, start="start")
                except UnexpectedInput as error:
                    return ParseResult((), [syntax_diagnostic(error, blank, parser, names)],
                                       flavour=flavour)  # fmt: skip
            return ParseResult((), [Diagnostic(*position(text, start), "cannot read the text")])
        except LarkError as error:
            return ParseResult((), [Diagnostic(1, 1, f"cannot read the text: {error}")])
        except Unreadable as problem:
            line, column = position(text, start + _offset(sentence, problem))
            return ParseResult((), [Diagnostic(line, column, problem.message)], flavour=flavour)
        compiler.previous_sentence = made or compiler.previous_sentence
        if made and made[0]["op"] == "if" and not made[0]["then"] and condition is None:
            condition = made[0]["condition"]  # "Play only if ...": the rest of the side
            continue
        effects.extend(made)
    if condition is not None:
        effects = [{"op": "if", "condition": condition, "then": effects}]
    table: Table = {"text": text, "effects": effects}
    try:
        built = side_from_toml(table)
    except LegalisError as error:
        return ParseResult((), [Diagnostic(1, 1, str(error), kind="invalid")], flavour=flavour)
    return ParseResult(built.effects, [], compiler.lasting, flavour)


def _read_lasting(compiler: _Compiler, sentence: str, game: str, effects: list[Table]) -> bool:
    """Read ``sentence`` as a Capability or Momentum banner or one of its rules, if it
    is one; False when it is an ordinary sentence."""
    kind, duration, body = _lasting_start(sentence, compiler.lex)
    if kind is not None:
        effects.append(compiler.banner(kind, duration))  # type: ignore[arg-type]
    elif compiler.lasting_table is None:
        return False
    assert compiler.lasting_table is not None
    if not body:
        return True
    text = body if body.endswith(".") else body + "."
    tree: Tree[Token] | None = None
    statement: list[Table] | None = None
    try:
        tree = _parse(game, text, "lasting_rule")
    except UnexpectedInput:
        try:
            statement = compiler.sentence(_parse(game, text, "start"), [])
        except (UnexpectedInput, Unreadable):
            statement = None
    compiler.lasting_table["rules"].extend(compiler.rules(body.rstrip(". "), tree, statement))
    return True


def _offset(sentence: str, problem: Unreadable) -> int:
    """Where in ``sentence`` a compile problem lies, from its line and column there."""
    lines = sentence.split("\n")
    before = sum(len(line) + 1 for line in lines[: problem.line - 1])
    return min(before + problem.column - 1, len(sentence))
