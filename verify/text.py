"""The controlled English of COIN event text, parsed and compiled to the effect language.

Event text is written in a small, regular English: "Place 2 Militia in each of up
to 3 Colonies.", "Patriot Resources +3.", "If the Treaty of Alliance has been
played, FNI +1." A lark grammar (``text.lark`` next to this module, read with
Earley) gives the sentence forms; the names in them (pieces, Factions, tracks,
spaces, space types, boxes, Commands) are terminals built from the game's own
data and map, so the grammar itself knows no game. :func:`parse_side` compiles a
side's text to the effects of :mod:`legalis.model.coin.effects` and reports what
it cannot read as :class:`Diagnostic` records with line, column and the forms
that would have been understood there; it never raises.

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
"""

from __future__ import annotations

import copy
import difflib
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Literal

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput
from legalis.model.coin.effects import Effect, side_from_toml
from legalis.model.coin.gamedata import load_game_data
from legalis.model.coin.mapdata import COUNTRIES, SPACE_TYPES, TERRAINS, load_map
from legalis.model.errors import LegalisError

__all__ = ["MAX_TEXT_LENGTH", "Diagnostic", "ParseResult", "grammar_for", "parse_side"]

MAX_TEXT_LENGTH = 5_000
"""The longest side text :func:`parse_side` reads, in characters."""

SideName = Literal["unshaded", "shaded"]

# The Commands and Special Activities each game names in event text: the printed
# name, its id in the effect language and its kind (LoD 3-4, FitL 3-4).
_ACTIONS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "lod": (
        ("Rally", "rally", "command"),
        ("March", "march", "command"),
        ("Battle", "battle", "command"),
        ("Muster", "muster", "command"),
        ("Garrison", "garrison", "command"),
        ("Gather", "gather", "command"),
        ("Scout", "scout", "command"),
        ("Raid", "raid", "command"),
        ("Rabble-Rousing", "rabble_rousing", "command"),
        ("Skirmish", "skirmish", "special_activity"),
        ("Naval Pressure", "naval_pressure", "special_activity"),
        ("Common Cause", "common_cause", "special_activity"),
        ("Partisans", "partisans", "special_activity"),
        ("Persuasion", "persuasion", "special_activity"),
        ("Trade", "trade", "special_activity"),
        ("War Path", "war_path", "special_activity"),
        ("Plunder", "plunder", "special_activity"),
        ("Preparer la Guerre", "preparer_la_guerre", "special_activity"),
    ),
    "fitl": (
        ("Train", "train", "operation"),
        ("Patrol", "patrol", "operation"),
        ("Sweep", "sweep", "operation"),
        ("Assault", "assault", "operation"),
        ("Rally", "rally", "operation"),
        ("March", "march", "operation"),
        ("Attack", "attack", "operation"),
        ("Terror", "terror", "operation"),
        ("Pacify", "pacify", "operation"),
        ("Improve the Trail", "improve_trail", "operation"),
        ("Improve Trail", "improve_trail", "operation"),
        ("Agitate", "agitate", "operation"),
        ("Advise", "advise", "special_activity"),
        ("Air Lift", "air_lift", "special_activity"),
        ("Air Strike", "air_strike", "special_activity"),
        ("Govern", "govern", "special_activity"),
        ("Transport", "transport", "special_activity"),
        ("Raid", "raid", "special_activity"),
        ("Infiltrate", "infiltrate", "special_activity"),
        ("Bombard", "bombard", "special_activity"),
        ("Ambush", "ambush", "special_activity"),
        ("Tax", "tax", "special_activity"),
        ("Subvert", "subvert", "special_activity"),
    ),
}

_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
            "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}  # fmt: skip
_PIECE_OPS = ("place", "remove", "replace", "move", "activate", "underground")

# What each name terminal stands for, in diagnostics.
_DESCRIBE = {
    "PIECE": "a piece name",
    "FACTION": "a Faction name",
    "TRACK": "a track name",
    "SPACE": "a space name",
    "BOX": "a box name",
    "TYPE_ONE": "a space type",
    "TYPE_MANY": "a space type (plural)",
    "TERRAIN": "a terrain",
    "COUNTRY": "a country",
    "CONTROL": "a Control",
    "ACTION": "a Command or Special Activity",
    "FLAG": "a game flag",
    "NUM": "a number",
    "SIGNED": "a signed number such as +3",
    "FREE_TEXT": "text",
    "TITLE": "a card title",
    "WORD": "a word",
    "SIDE_NAME": '"unshaded" or "shaded"',
    "DEGREE": '"Active" or "Passive"',
    "POLE": '"Support" or "Opposition"',
    "EXECUTING": '"Executing Faction"',
    "SPACE_WORD": '"space"',
    "SPACES_WORD": '"spaces"',
}


@dataclass(frozen=True)
class Diagnostic:
    """Text the parser could not read: 1-based ``line`` and ``column``, a message, and
    the forms it expected there (empty when the problem is not a missing form).

    >>> Diagnostic(1, 9, "unknown name", ["a piece name"]).column
    9
    """

    line: int
    column: int
    message: str
    expected: list[str] = field(default_factory=list)


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

    @property
    def ok(self) -> bool:
        """No diagnostics."""
        return not self.diagnostics


# ---------------------------------------------------------------------- lexicon


def _norm(name: str) -> str:
    return " ".join(name.split())


def _singular(name: str) -> str:
    head, _, last = name.rpartition(" ")
    if last.endswith("ies"):
        last = last[:-3] + "y"
    elif last.endswith("s") and not last.endswith("ss") and len(last) > 3:
        last = last[:-1]
    return f"{head} {last}" if head else last


def _plural(word: str) -> str:
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def _initials(name: str) -> str | None:
    words = name.split()
    if len(words) < 3:
        return None
    return "".join(word[0] for word in words)


def _ascii(name: str) -> str:
    return unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()


class _Lexicon:
    """The names of one game, each surface form mapped to what it stands for."""

    def __init__(self, game: str) -> None:
        data = load_game_data(game)
        board = load_map(game)
        self.game = game
        self.faction_names = {f.id: f.name for f in data.factions}
        self.factions: dict[str, str] = {}  # surface -> faction id
        for faction in data.factions:
            for form in self._faction_forms(faction.name):
                self.factions[form] = faction.id
        self.pieces: dict[str, tuple[str, ...]] = {}
        self.piece_kind = {p.id: (p.faction, p.kind) for p in data.pieces}
        self.faction_pieces = {
            f.id: tuple(p.id for p in data.pieces if p.faction == f.id) for f in data.factions
        }
        tails: dict[str, list[str]] = {}
        for piece in data.pieces:
            for form in (piece.name, _singular(piece.name)):
                self.pieces[form] = (piece.id,)
            for form in self._faction_forms(self.faction_names[piece.faction]):
                if piece.name.startswith(form + " "):
                    tail = piece.name[len(form) + 1 :]
                    for other in self._faction_forms(self.faction_names[piece.faction]):
                        self.pieces.setdefault(f"{other} {tail}", (piece.id,))
                        self.pieces.setdefault(_singular(f"{other} {tail}"), (piece.id,))
                    tails.setdefault(tail, []).append(piece.id)
        for tail, ids in tails.items():
            for form in (tail, _singular(tail)):
                self.pieces.setdefault(form, tuple(dict.fromkeys(ids)))
        self.tracks: dict[str, str] = {}
        for track in data.tracks:
            self.tracks[track.name] = track.id
            short = _initials(track.name)
            if short:
                self.tracks.setdefault(short, track.id)
            faction_id = track.id.removesuffix("_resources")
            if track.id.endswith("_resources") and faction_id in self.faction_names:
                for form in self._faction_forms(self.faction_names[faction_id]):
                    self.tracks.setdefault(f"{form} Resources", track.id)
        self.spaces = {space.name: space.name for space in board.spaces}
        self.boxes: dict[str, str] = {box.name.lower(): box.id for box in data.boxes}
        self.box_names: dict[str, str] = {box.name.lower(): box.name for box in data.boxes}
        for name in board.boxes:
            self.box_names.setdefault(name.lower(), name)
            self.boxes.setdefault(name.lower(), name.lower().replace(" ", "_"))
        types = SPACE_TYPES[game]
        self.types_one: dict[str, tuple[str, ...]] = {kind: (kind,) for kind in types}
        if "Province" not in types and {"Colony", "Reserve"} <= set(types):
            self.types_one["Province"] = ("Colony", "Reserve")  # LoD 1.3
        self.types_many = {_plural(name): kinds for name, kinds in self.types_one.items()}
        self.terrains = {t: t for t in TERRAINS if any(s.terrain == t for s in board.spaces)}
        self.countries = {c: c for c in COUNTRIES if any(s.country == c for s in board.spaces)}
        self.control = {rule.name: rule.id for rule in data.control}
        self.actions: dict[str, tuple[str, str]] = {}
        for printed, action_id, kind in _ACTIONS.get(game, ()):
            self.actions[printed] = (action_id, kind)
            self.actions.setdefault(_ascii(printed), (action_id, kind))
        self.flags: dict[str, str] = {}
        for flag_id, name in data.flags:
            subject = name.removesuffix(" played")
            self.flags[subject] = flag_id
            words = subject.split()
            if len(words) >= 2:
                self.flags.setdefault("".join(word[0] for word in words), flag_id)

    @staticmethod
    def _faction_forms(name: str) -> list[str]:
        forms = [name]
        if len(name) > 3 and name.endswith("s") and name[-2].islower():
            forms.append(name[:-1])  # Patriots -> Patriot (Patriot Resources)
        return forms

    def categories(self) -> dict[str, tuple[dict[str, Any], bool]]:
        """Terminal name -> (surface forms, case-insensitive)."""
        return {
            "PIECE": (self.pieces, False),
            "FACTION": (self.factions, False),
            "TRACK": (self.tracks, False),
            "SPACE": (self.spaces, False),
            "BOX": (self.boxes, True),
            "TYPE_ONE": (self.types_one, False),
            "TYPE_MANY": (self.types_many, False),
            "TERRAIN": (self.terrains, False),
            "COUNTRY": (self.countries, False),
            "CONTROL": (self.control, False),
            "ACTION": (self.actions, False),
            "FLAG": (self.flags, False),
        }

    def vocabulary(self, terminal: str) -> list[str]:
        """The printed forms of one name terminal, for nearest-name suggestions."""
        if terminal == "BOX":
            return list(self.box_names.values())
        forms = self.categories().get(terminal)
        return list(forms[0]) if forms else []


def _alternation(forms: Iterable[str], insensitive: bool) -> str:
    words = sorted(set(forms), key=lambda form: (-len(form), form))
    if not words:
        return "/(?!x)x/"
    body = "|".join(r"\s+".join(re.escape(part) for part in form.split()) for form in words)
    body = body.replace("/", "\\/")
    return f"/(?:{body})(?![\\w'\u2019-])/" + ("i" if insensitive else "")


@cache
def _lexicon(game: str) -> _Lexicon:
    return _Lexicon(game)


@cache
def grammar_for(game: str) -> str:
    """The full lark grammar for ``game``: the sentence forms of ``text.lark`` and the
    name terminals built from the game's data and map.

    >>> "PIECE:" in grammar_for("lod") and "Militia" in grammar_for("lod")
    True
    """
    base = resources.files("legalis.verify").joinpath("text.lark").read_text("utf-8")
    lexicon = _lexicon(game)
    lines = [base, ""]
    for terminal, (forms, insensitive) in lexicon.categories().items():
        lines.append(f"{terminal}: {_alternation(forms, insensitive)}")
    return "\n".join(lines) + "\n"


@cache
def _parser(game: str) -> Lark:
    return Lark(grammar_for(game), parser="earley", lexer="dynamic", propagate_positions=True)


# ---------------------------------------------------------------------- compiling


class _Unreadable(Exception):
    """A form the grammar accepts but the text cannot mean (no antecedent for "it")."""

    def __init__(self, message: str, node: Tree[Token] | Token | None) -> None:
        super().__init__(message)
        self.message = message
        self.line = 1
        self.column = 1
        if isinstance(node, Token):
            self.line, self.column = node.line or 1, node.column or 1
        elif isinstance(node, Tree) and not node.meta.empty:
            self.line, self.column = node.meta.line, node.meta.column


def _trees(node: Tree[Token]) -> list[Tree[Token]]:
    return [child for child in node.children if isinstance(child, Tree)]


def _tokens(node: Tree[Token], kind: str | None = None) -> list[Token]:
    return [
        child for child in node.children
        if isinstance(child, Token) and (kind is None or child.type == kind)
    ]  # fmt: skip


def _child(node: Tree[Token], name: str) -> Tree[Token] | None:
    for child in _trees(node):
        if child.data == name:
            return child
    return None


def _number(token: Token) -> int:
    text = str(token).lower()
    return _NUMBERS[text] if text in _NUMBERS else int(text)


def _combine(filters: list[dict[str, Any]]) -> dict[str, Any]:
    if not filters:
        return {"is": "anywhere"}
    if len(filters) == 1:
        return filters[0]
    return {"is": "all", "filters": filters}


_LEVEL = {("active", "support"): "active_support", ("passive", "support"): "passive_support",
          ("passive", "opposition"): "passive_opposition",
          ("active", "opposition"): "active_opposition"}  # fmt: skip


class _Compiler:
    """Walks one parse tree and builds the effect tables (plain dicts)."""

    def __init__(self, lexicon: _Lexicon, title: str, side: SideName | None) -> None:
        self.lex = lexicon
        self.title = title
        self.side = side
        self.chooser: str | None = None  # whose "of their choice"
        self.last_filter: dict[str, Any] | None = None
        self.last_by_op: dict[str, dict[str, Any]] = {}
        self.lasting: Literal["capability", "momentum"] | None = None

    # ------------------------------------------------------------ names

    def faction(self, token: Token) -> str:
        """The id of the Faction ``token`` names, as a loaded deck holds it."""
        return self.lex.factions[_norm(token)]

    def pieces(self, node: Tree[Token] | Token) -> list[str]:
        if isinstance(node, Token):
            return list(self.lex.pieces[_norm(node)])
        if node.data == "faction_pieces":
            faction_id = self.lex.factions[_norm(_tokens(node, "FACTION")[0])]
            return list(self.lex.faction_pieces[faction_id])
        if node.data == "shared_noun":
            faction_id = self.lex.factions[_norm(_tokens(node, "FACTION")[0])]
            named = list(self.lex.pieces[_norm(_tokens(node, "PIECE")[0])])
            kinds = {self.lex.piece_kind[piece][1] for piece in named}
            same = [
                piece for piece in self.lex.faction_pieces[faction_id]
                if self.lex.piece_kind[piece][1] in kinds
            ]  # fmt: skip
            if not same:
                raise _Unreadable(f"{self.lex.faction_names[faction_id]} has no such piece", node)
            return list(dict.fromkeys(same + named))
        out: list[str] = []
        for child in node.children:
            assert isinstance(child, Token | Tree)
            out.extend(self.pieces(child))
        return list(dict.fromkeys(out))

    # ------------------------------------------------------------ top level

    def start(self, tree: Tree[Token]) -> list[dict[str, Any]]:
        condition = None
        effects: list[dict[str, Any]] = []
        for child in _trees(tree):
            if child.data == "play_only":
                condition = self.condition(_trees(child)[0])
            else:
                effects.extend(self.sentence(child))
        if condition is not None:
            return [{"op": "if", "condition": condition, "then": effects}]
        return effects

    def sentence(self, node: Tree[Token]) -> list[dict[str, Any]]:
        if node.data == "capability":
            self.lasting = "capability"
            table = {"op": "lasting", "kind": "capability", "name": self.title}
            if self.side is not None:
                table["side"] = self.side
            return [table]
        if node.data == "momentum":
            self.lasting = "momentum"
            return [{"op": "lasting", "kind": "momentum", "name": self.title}]
        return self.statement(node)

    def statement(self, node: Tree[Token]) -> list[dict[str, Any]]:
        if node.data == "conditional":
            parts = _trees(node)
            table: dict[str, Any] = {
                "op": "if",
                "condition": self.condition(parts[0]),
                "then": self.clause_list(parts[1]),
            }
            if len(parts) > 2:
                table["otherwise"] = self.statement(parts[2])
            return [table]
        if node.data == "choice":
            chooser = self.faction(_tokens(node, "FACTION")[0])
            outer, self.chooser = self.chooser, chooser
            try:
                options = [self.clause_list(option) for option in _trees(node)]
            finally:
                self.chooser = outer
            return [{"op": "choose", "chooser": chooser, "options": options}]
        return self.clause_list(node)

    def clause_list(self, node: Tree[Token]) -> list[dict[str, Any]]:
        if node.data != "clause_list":
            return self.statement(node)
        effects: list[dict[str, Any]] = []
        tail = None
        for child in _trees(node):
            if child.data == "each_tail":
                tail = child
            else:
                effects.extend(self.clause(child))
        if tail is not None:
            where = self.location(_trees(tail)[0])
            for effect in effects:
                if effect["op"] in _PIECE_OPS and "where" not in effect:
                    effect["where"] = copy.deepcopy(where)
        for effect in effects:
            if effect["op"] in _PIECE_OPS and "where" not in effect:
                effect["where"] = {"filter": {"is": "anywhere"}, "per_space": False}
        return effects

    def clause(self, node: Tree[Token], chooser: str | None = None) -> list[dict[str, Any]]:
        kind = node.data
        if kind == "subject_clause":
            subject, action = _trees(node)
            faction_tokens = _tokens(subject, "FACTION")
            faction = self.faction(faction_tokens[0]) if faction_tokens else None
            if action.data in ("free_actions", "free_choice"):
                if faction is None:
                    raise _Unreadable("a free action needs a named Faction", subject)
                return self.free(action, faction)
            outer, self.chooser = self.chooser, faction
            try:
                return self.clause(action, chooser=faction)
            finally:
                self.chooser = outer
        if kind == "subject_choice":
            factions = [self.faction(token) for token in _tokens(node, "FACTION")]
            action = _trees(node)[0]
            options = []
            for faction in factions:
                if action.data == "free_actions":
                    options.append(self.free(action, faction))
                else:
                    outer, self.chooser = self.chooser, faction
                    try:
                        options.append(self.clause(action, chooser=faction))
                    finally:
                        self.chooser = outer
            return [{"op": "choose", "options": options}]
        if kind == "adjust":
            track = self.lex.tracks[_norm(_tokens(node, "TRACK")[0])]
            signed = re.sub(r"\s", "", str(_tokens(node, "SIGNED")[0]))
            delta = int(signed[1:]) * (1 if signed[0] == "+" else -1)
            return [{"op": "adjust", "track": track, "delta": delta}]
        if kind == "flag_now":
            flag = self.lex.flags[_norm(_tokens(node, "FLAG")[0])]
            return [{"op": "lasting", "kind": "flag", "name": flag}]
        if kind == "elliptic":
            verb = str(node.children[0]).lower().removesuffix("s")
            previous = self.last_by_op.get(verb)
            if previous is None:
                raise _Unreadable(f"nothing earlier to {verb} again", node)
            again = copy.deepcopy(previous)
            again["count"] = self.count(_trees(node)[0])
            return [again]
        effects = getattr(self, f"op_{kind}")(node, chooser)
        assert isinstance(effects, list)
        for effect in effects:
            self.last_by_op[effect["op"]] = copy.deepcopy(effect)
        return effects

    # ------------------------------------------------------------ piece effects

    def count(self, node: Tree[Token]) -> dict[str, Any]:
        return {"n": _number(_tokens(node, "NUM")[0]), "up_to": node.data == "up_to"}

    def _chooser(self, table: dict[str, Any], chooser: str | None, own_choice: bool) -> None:
        who = chooser if chooser is not None else (self.chooser if own_choice else None)
        if who is not None:
            table["chooser"] = who

    def _groups(self, node: Tree[Token], op: str, chooser: str | None) -> list[dict[str, Any]]:
        effects: list[dict[str, Any]] = []
        for group in _trees(node):
            parts = _trees(group)
            table: dict[str, Any] = {
                "op": op, "count": self.count(parts[0]), "pieces": self.pieces(parts[1])
            }  # fmt: skip
            own_choice = False
            for part in parts[2:]:
                if part.data == "tunnel_marker":
                    table["status"] = "tunneled"
                elif part.data == "source":
                    table["source"] = self.lex.boxes[_norm(_tokens(part, "BOX")[0]).lower()]
                elif part.data == "destination":
                    table["destination"] = self.lex.boxes[_norm(_tokens(part, "BOX")[0]).lower()]
                elif part.data == "of_choice":
                    own_choice = True
                elif part.data == "even_tunneled":
                    table["tunneled"] = True
                elif part.data in ("in_loc", "from_loc"):
                    table["where"] = self.location(_trees(part)[0])
            self._chooser(table, chooser, own_choice)
            effects.append(table)
        # "Place 3 Regulars from Unavailable and 2 Tories in Boston": a location
        # serves every group before it that names none
        later = None
        for table in reversed(effects):
            if "where" in table:
                later = table["where"]
            elif later is not None:
                table["where"] = copy.deepcopy(later)
        return effects

    def op_place(self, node: Tree[Token], chooser: str | None) -> list[dict[str, Any]]:
        return self._groups(node, "place", chooser)

    def op_remove(self, node: Tree[Token], chooser: str | None) -> list[dict[str, Any]]:
        return self._groups(node, "remove", chooser)

    def op_replace(self, node: Tree[Token], chooser: str | None) -> list[dict[str, Any]]:
        parts = _trees(node)
        table: dict[str, Any] = {
            "op": "replace",
            "count": self.count(parts[0]),
            "pieces": self.pieces(parts[1]),
            "where": self.location(_trees(parts[2])[0]),
        }
        rest = [part for part in parts[3:] if part.data not in ("exactly", "up_to")]
        table["by"] = self.pieces(rest[0])
        if len(rest) > 1:
            table["source"] = self.lex.boxes[_norm(_tokens(rest[1], "BOX")[0]).lower()]
        self._chooser(table, chooser, False)
        return [table]

    def op_move(self, node: Tree[Token], chooser: str | None) -> list[dict[str, Any]]:
        count, pieces, source, target = _trees(node)
        table: dict[str, Any] = {
            "op": "move", "count": self.count(count), "pieces": self.pieces(pieces),
            "where": self.location(source),
        }  # fmt: skip
        table["to"] = self.location(target)
        self._chooser(table, chooser, False)
        return [table]

    def _flip(self, node: Tree[Token], op: str, chooser: str | None) -> list[dict[str, Any]]:
        parts = _trees(node)
        table: dict[str, Any] = {"op": op, "count": self.count(parts[0])}
        active = False
        for part in parts[1:]:
            if part.data == "active_status":
                active = True
            elif part.data == "in_loc":
                table["where"] = self.location(_trees(part)[0])
            else:
                table["pieces"] = self.pieces(part)
        if active and "where" in table:
            present = {"is": "pieces", "pieces": table["pieces"], "status": "active"}
            where = table["where"]
            current = where["filter"]
            parts_of = (
                current["filters"]
                if current["is"] == "all"
                else ([] if current["is"] == "anywhere" else [current])
            )
            where["filter"] = _combine([*parts_of, present])
        self._chooser(table, chooser, False)
        return [table]

    def op_activate(self, node: Tree[Token], chooser: str | None) -> list[dict[str, Any]]:
        return self._flip(node, "activate", chooser)

    def op_underground(self, node: Tree[Token], chooser: str | None) -> list[dict[str, Any]]:
        return self._flip(node, "underground", chooser)

    def op_shift(self, node: Tree[Token], chooser: str | None) -> list[dict[str, Any]]:
        location, pole = _trees(node)
        levels = _number(_tokens(node, "NUM")[0])
        if pole.data == "toward_opposition":
            levels = -levels
        table: dict[str, Any] = {"op": "shift", "levels": levels, "where": self.location(location)}
        self._chooser(table, chooser, False)
        return [table]

    def op_set_support(self, node: Tree[Token], chooser: str | None) -> list[dict[str, Any]]:
        location, level = _trees(node)
        table: dict[str, Any] = {
            "op": "set_support", "level": self.level(level), "where": self.location(location)
        }  # fmt: skip
        self._chooser(table, chooser, False)
        return [table]

    def level(self, node: Tree[Token]) -> str:
        if _tokens(node, "NEUTRAL"):
            return "neutral"
        degree = str(_tokens(node, "DEGREE")[0]).lower()
        return _LEVEL[(degree, str(_tokens(node, "POLE")[0]).lower())]

    def support_levels(self, node: Tree[Token]) -> list[str]:
        levels: list[str] = []
        for group in _trees(node):
            if _tokens(group, "NEUTRAL"):
                levels.append("neutral")
                continue
            pole = str(_tokens(group, "POLE")[0]).lower()
            for degree in _tokens(group, "DEGREE"):
                levels.append(_LEVEL[(str(degree).lower(), pole)])
        return list(dict.fromkeys(levels))

    # ------------------------------------------------------------ free actions

    def free(self, node: Tree[Token], faction: str) -> list[dict[str, Any]]:
        if node.data == "free_choice":
            limited = _child(node, "limited") is not None
            chooser = self.faction(_tokens(node, "FACTION")[0])
            options = []
            for token in _tokens(node, "ACTION"):
                action_id, kind = self.lex.actions[_norm(token)]
                table: dict[str, Any] = {"op": "free", "faction": faction, "action": action_id,
                                         "kind": kind}  # fmt: skip
                if limited:
                    table["limited"] = True
                options.append([table])
            return [{"op": "choose", "chooser": chooser, "options": options}]
        effects = []
        for item in _trees(node):
            if item.data not in ("free_first", "free_may"):
                continue
            action_id, kind = self.lex.actions[_norm(_tokens(item, "ACTION")[0])]
            table = {"op": "free", "faction": faction, "action": action_id, "kind": kind}
            if _child(item, "limited") is not None:
                table["limited"] = True
            place = _child(item, "in_loc")
            if place is not None:
                table["where"] = self.location(_trees(place)[0])
            effects.append(table)
        return effects

    # ------------------------------------------------------------ locations

    def location(self, node: Tree[Token]) -> dict[str, Any]:
        wheres = [self.loc_spec(spec) for spec in _trees(node)]
        if len(wheres) == 1:
            return wheres[0]
        union = {"is": "any", "filters": [where["filter"] for where in wheres]}
        where: dict[str, Any] = {"filter": union}
        counted = [w for w in wheres if w.get("spaces") is not None]
        if counted:
            where["spaces"] = counted[0]["spaces"]
            where["up_to"] = counted[0].get("up_to", False)
        self.last_filter = union
        return where

    def loc_spec(self, node: Tree[Token]) -> dict[str, Any]:
        kind = node.data
        where: dict[str, Any]
        if kind in ("each_of_count", "count_np"):
            count, noun = _trees(node)
            numbers = self.count(count)
            where = {"filter": _combine(self.np(noun)), "spaces": numbers["n"],
                     "up_to": numbers["up_to"]}  # fmt: skip
            if numbers["n"] == 0:
                raise _Unreadable("a count of 0 spaces", node)
        elif kind == "each_of_names":
            where = {"filter": self.names(_trees(node)[0])}
        elif kind == "each_one":
            where = {"filter": _combine(self.np(_trees(node)[0]))}
        elif kind == "one_of_names":
            where = {"filter": self.names(_trees(node)[0]), "spaces": 1}
        elif kind == "one_of_them":
            where = {"filter": self.antecedent(node), "spaces": 1}
        elif kind == "one_np":
            where = {"filter": _combine(self.np(_trees(node)[0])), "spaces": 1}
        elif kind == "plural_np":
            where = {"filter": _combine(self.np(_trees(node)[0])), "per_space": False}
        elif kind == "anywhere":
            where = {"filter": {"is": "anywhere"}, "per_space": False}
        elif kind == "named":
            where = {"filter": {"is": "named", "names": [self.place_name(_trees(node)[0])]}}
        else:  # pronoun
            where = {"filter": self.antecedent(node)}
        self.last_filter = where["filter"]
        return where

    def antecedent(self, node: Tree[Token]) -> dict[str, Any]:
        if self.last_filter is None:
            raise _Unreadable("'it' or 'them' names no earlier space", node)
        return copy.deepcopy(self.last_filter)

    def place_name(self, node: Tree[Token]) -> str:
        token = node.children[-1]
        assert isinstance(token, Token)
        if token.type == "BOX":
            return self.lex.box_names[_norm(token).lower()]
        return self.lex.spaces[_norm(token)]

    def names(self, node: Tree[Token]) -> dict[str, Any]:
        return {"is": "named", "names": [self.place_name(name) for name in _trees(node)]}

    def np(self, node: Tree[Token]) -> list[dict[str, Any]]:
        """The filters of a noun phrase ("coastal City with British Control"), unjoined."""
        filters: list[dict[str, Any]] = []
        before: list[dict[str, Any]] = []
        prefix: dict[str, dict[str, Any]] = {}
        after: list[dict[str, Any]] = []
        for child in node.children:
            if isinstance(child, Token):
                if child.type == "TYPE_ONE":
                    filters.append({"is": "type", "types": list(self.lex.types_one[_norm(child)])})
                elif child.type == "TYPE_MANY":
                    kinds = list(self.lex.types_many[_norm(child)])
                    filters.append({"is": "type", "types": kinds})
                continue
            if child.data == "adjacent_pre":
                before.append({"is": "adjacent", "filter": self.antecedent(child)})
            elif child.data == "terrain_pre":
                terrain = self.lex.terrains[_norm(_tokens(child)[0])]
                prefix["terrain"] = {"is": "terrain", "terrains": [terrain]}
            elif child.data == "coastal_pre":
                prefix["coastal"] = {"is": "coastal"}
            elif child.data == "uncontrolled_pre":
                prefix["control"] = {"is": "control", "control": "none"}
            elif child.data == "adjacent":
                target = _trees(child)[0]
                after.append({"is": "adjacent", "filter": self.target(target)})
            else:
                after.extend(self.postmod(child))
        ordered = [prefix[key] for key in ("terrain", "coastal", "control") if key in prefix]
        return before + filters + ordered + after

    def target(self, node: Tree[Token]) -> dict[str, Any]:
        if node.data == "named":
            return {"is": "named", "names": [self.place_name(_trees(node)[0])]}
        if node.data == "pronoun":
            return self.antecedent(node)
        if node.data in ("np_one", "np_many"):
            return _combine(self.np(node))
        return _combine(self.np(_trees(node)[0]))

    def postmod(self, node: Tree[Token]) -> list[dict[str, Any]]:
        kind = node.data
        if kind == "with_mod":
            return [self.with_item(item) for item in _trees(node)]
        if kind == "without_mod":
            pieces = {"is": "pieces", "pieces": self.pieces(_trees(node)[0])}
            return [{"is": "not", "filter": pieces}]
        if kind == "at_mod":
            return [{"is": "support", "levels": self.support_levels(_trees(node)[0])}]
        if kind == "not_at_mod":
            levels = self.support_levels(_trees(node)[0])
            return [{"is": "not", "filter": {"is": "support", "levels": levels}}]
        if kind == "country_mod":
            countries = [self.lex.countries[_norm(token)] for token in _tokens(node, "COUNTRY")]
            return [{"is": "country", "countries": countries}]
        if kind == "under_mod":
            return [{"is": "control", "control": self.lex.control[_norm(_tokens(node)[0])]}]
        if kind == "not_coastal_mod":
            return [{"is": "coastal", "coastal": False}]
        if kind == "coastal_mod":
            return [{"is": "coastal"}]
        raise _Unreadable(f"unexpected form {kind}", node)  # pragma: no cover

    def with_item(self, node: Tree[Token]) -> dict[str, Any]:
        if node.data == "with_control":
            return {"is": "control", "control": self.lex.control[_norm(_tokens(node)[0])]}
        if node.data == "with_population":
            return {"is": "population", "compare": "==", "value": _number(_tokens(node)[0])}
        pieces = {"is": "pieces", "pieces": self.pieces(_trees(node)[0])}
        if node.data == "with_no":
            return {"is": "not", "filter": pieces}
        return pieces

    # ------------------------------------------------------------ conditions

    def condition(self, node: Tree[Token]) -> dict[str, Any]:
        if node.data == "condition":
            parts = [self.condition(child) for child in _trees(node)]
            return parts[0] if len(parts) == 1 else {"if": "any", "conditions": parts}
        if node.data == "cond_all":
            parts = [self.condition(child) for child in _trees(node)]
            return parts[0] if len(parts) == 1 else {"if": "all", "conditions": parts}
        kind = node.data
        if kind in ("flag_cond", "flag_not"):
            flag = self.lex.flags[_norm(_tokens(node, "FLAG")[0])]
            table: dict[str, Any] = {"if": "flag", "flag": flag}
            if kind == "flag_not":
                table["value"] = False
            return table
        if kind == "track_cond":
            track = self.lex.tracks[_norm(_tokens(node, "TRACK")[0])]
            comparison = _trees(node)[0]
            compare = {"cmp_ge": ">=", "cmp_le": "<=", "cmp_gt": ">", "cmp_lt": "<",
                       "cmp_eq": "=="}[comparison.data]  # fmt: skip
            value = _number(_tokens(comparison, "NUM")[0])
            return {"if": "track", "track": track, "compare": compare, "value": value}
        if kind == "lasting_cond":
            table = {"if": "lasting", "name": _norm(_tokens(node, "TITLE")[0])}
            side = _child(node, "lasting_side")
            if side is not None:
                table["side"] = str(_tokens(side)[0]).lower()
            return table
        if kind in ("count_cond", "any_cond"):
            trees = _trees(node)
            filters = self.np(trees[0])
            for mod in trees[1:]:
                filters.extend(self.postmod(mod))
            table = {"if": "spaces", "filter": _combine(filters)}
            if kind == "count_cond":
                table.update(compare=">=", value=_number(_tokens(node, "NUM")[0]))
            return table
        if kind == "no_cond":
            noun, pieces = _trees(node)
            filters = [*self.np(noun), {"is": "pieces", "pieces": self.pieces(pieces)}]
            return {"if": "not", "condition": {"if": "spaces", "filter": _combine(filters)}}
        if kind == "pieces_in_cond":
            trees = _trees(node)
            filters = [f for mod in trees[1:] for f in self.postmod(mod)]
            filters.append({"is": "pieces", "pieces": self.pieces(trees[0])})
            value = _number(_tokens(node, "NUM")[0])
            return {"if": "spaces", "filter": _combine(filters), "compare": ">=", "value": value}
        if kind == "exec_cond":
            factions = [self.faction(token) for token in _tokens(node, "FACTION")]
            return {"if": "executing", "factions": factions}
        raise _Unreadable(f"unexpected condition {kind}", node)  # pragma: no cover


# ---------------------------------------------------------------------- diagnostics


def _position(text: str, index: int) -> tuple[int, int]:
    before = text[:index]
    return before.count("\n") + 1, index - (before.rfind("\n") + 1) + 1


def _describe(parser: Lark, names: Iterable[str]) -> list[str]:
    by_name = {terminal.name: terminal for terminal in parser.terminals}
    out: set[str] = set()
    for name in names:
        if name in _DESCRIBE:
            out.add(_DESCRIBE[name])
        elif name in by_name and by_name[name].pattern.type == "str":
            out.add(f'"{by_name[name].pattern.value}"')
        elif name.endswith("_V"):
            out.add(f'"{name[:-2].lower()}"')
        else:
            out.add(name.lower())
    return sorted(out)


_WORD = re.compile(r"[^\W\d_][\w'\u2019-]*")


def _nearest(
    text: str, index: int, lexicon: _Lexicon, allowed: Iterable[str], beyond: int = 0
) -> str | None:
    """The valid name closest to the words at ``index`` (a phrase ending past
    ``beyond``), if any name is expected there."""
    vocabulary = sorted({form for name in allowed for form in lexicon.vocabulary(name)})
    if not vocabulary:
        return None
    words: list[tuple[str, int]] = []
    position = index
    while len(words) < 5:
        space = re.compile(r"[ \t\n]*").match(text, position)
        position = space.end() if space else position
        word = _WORD.match(text, position)
        if word is None:
            break
        words.append((word.group(), word.end()))
        position = word.end()
    best: tuple[float, str, str] | None = None
    for size in range(len(words), 0, -1):
        if words[size - 1][1] <= beyond:
            break
        phrase = " ".join(word for word, _ in words[:size])
        for match_name in difflib.get_close_matches(phrase, vocabulary, n=1, cutoff=0.7):
            ratio = difflib.SequenceMatcher(None, phrase, match_name).ratio()
            known_then_more = phrase.startswith(match_name + " ")
            if ratio < 1.0 and not known_then_more and (best is None or ratio > best[0]):
                best = (ratio, phrase, match_name)
    if best is None:
        return None
    return f"unknown name {best[1]!r} (did you mean {best[2]!r}?)"


def _nearest_before(text: str, index: int, lexicon: _Lexicon) -> tuple[str, int] | None:
    """A name the parse read part of ("Patriot" of "Patriot Resourcs"): a phrase from
    one of the two words before ``index`` through the word at it, against every name."""
    starts = [match.start() for match in _WORD.finditer(text, 0, index)][-2:]
    every = list(lexicon.categories())
    for start in starts:
        if re.search(r"[,.;:()]", text[start:index]) is None:
            near = _nearest(text, start, lexicon, every, beyond=index)
            if near is not None:
                return near, start
    return None


def _syntax_diagnostic(
    error: UnexpectedInput, text: str, parser: Lark, lexicon: _Lexicon
) -> Diagnostic:
    if isinstance(error, UnexpectedCharacters):
        index = error.pos_in_stream or 0
        allowed: set[str] = set(error.allowed or ())
    else:
        index = len(text.rstrip())
        allowed = set(getattr(error, "expected", ()) or ())
    # report at the start of the word the parse died in ("Annapolis", not "nnapolis"
    # after the article "An"), with the forms expected there
    start = index
    mid_word = isinstance(error, UnexpectedCharacters)
    while mid_word and 0 < start <= len(text) and re.match(r"[\w'\u2019-]", text[start - 1]):
        start -= 1
    if start != index:
        index = start
        try:
            parser.parse(text[:index])
        except UnexpectedEOF as cut:
            allowed = set(cut.expected or ())
        except LarkError:
            pass
    line, column = _position(text, index)
    expected = _describe(parser, allowed)
    if isinstance(error, UnexpectedEOF) or index >= len(text.rstrip()):
        message = "the text ends too early"
    else:
        near = _nearest(text, index, lexicon, allowed)
        if near is None:
            before = _nearest_before(text, index, lexicon)
            if before is not None:
                near, index = before
                line, column = _position(text, index)
        word = _WORD.match(text, index)
        found = word.group() if word else text[index : index + 1]
        message = near or f"cannot read {found!r} here"
    return Diagnostic(line, column, message, expected)


# ---------------------------------------------------------------------- entry point


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
        return ParseResult((), [Diagnostic(1, 1, f"unknown game {game!r}", sorted(SPACE_TYPES))])
    try:
        lexicon = _lexicon(game)
        parser = _parser(game)
    except LegalisError as error:
        return ParseResult((), [Diagnostic(1, 1, str(error))])
    if not text.strip():
        return ParseResult((), [Diagnostic(1, 1, "no text", [])])
    if len(text) > MAX_TEXT_LENGTH:
        line, column = _position(text, MAX_TEXT_LENGTH)
        message = (
            f"the text is {len(text):,} characters long; event text is read up to "
            f"{MAX_TEXT_LENGTH:,} characters"
        )
        return ParseResult((), [Diagnostic(line, column, message)])
    try:
        tree = parser.parse(text)
    except UnexpectedInput as error:
        return ParseResult((), [_syntax_diagnostic(error, text, parser, lexicon)])
    except LarkError as error:
        return ParseResult((), [Diagnostic(1, 1, f"cannot read the text: {error}")])
    compiler = _Compiler(lexicon, title, side)
    try:
        effects = compiler.start(tree)
    except _Unreadable as problem:
        return ParseResult((), [Diagnostic(problem.line, problem.column, problem.message)])
    table: dict[str, Any] = {"text": text, "effects": effects}
    try:
        built = side_from_toml(table)
    except LegalisError as error:
        return ParseResult((), [Diagnostic(1, 1, str(error))])
    return ParseResult(built.effects, [], compiler.lasting)
