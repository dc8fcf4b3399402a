"""Findings over a COIN deck: what its structured effects do wrong, with a witness or a proof.

:func:`check_deck` reads the ``effects`` of every card (never its printed text,
except for the CAPABILITY and MOMENTUM headings) against the game's map and
rules, and returns :class:`~legalis.verify.findings.Finding` objects whose codes
are listed in :data:`CODES`. Each finding names the card, the side, the words it
is about (the effect as JSON, or the name) and the rule it rests on; where a
state shows the problem, ``witness`` is that state's JSON (it loads with
``state_from_json`` and breaks no invariant), and where the problem can never
(or must always) arise, ``proof`` says why from the game's data.

The checks reason over what a space filter *may* match in some state and *must*
match in every state: the static parts of a filter (type, name, population,
country, terrain, coast, adjacency) are exact; Control, pieces present and
Support are bounded by the map and the rules (a space whose type has no Control
is never controlled, no space holds more pieces than exist or stacking allows, a
space that cannot have Support is always Neutral). A finding that says "never"
rests only on these bounds, so it is sound.

>>> from legalis.model.coin.deck import deck_from_toml
>>> deck = deck_from_toml({"game": "lod", "card": [{"number": 1, "title": "Too Many Forts",
...     "factions": ["British"], "unshaded": {"effects": [{"op": "place",
...     "pieces": ["british_fort"], "count": 3, "where": {"filter": {"is": "named",
...     "names": ["Boston"]}}}]}}]})
>>> [(f.code, f.severity, f.card, f.side) for f in check_deck(deck, "lod")]
[('event.never-in-full', 'error', 1, 'unshaded')]
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import product
from typing import Any, TypeAlias

from legalis.model.coin import effects as fx
from legalis.model.coin.deck import SIDES, Card, Deck
from legalis.model.coin.interpret import Context, space_matches, within
from legalis.model.coin.limits import may_hold, stacking_room
from legalis.model.coin.scenarios import load_scenario, scenario_names
from legalis.model.coin.state import CoinRules, CoinState, rules_for
from legalis.model.errors import InputError
from legalis.verify.findings import Finding
from legalis.verify.nonplayer_findings import always_ineffective
from legalis.verify.tasks import Mapper, in_process
from legalis.verify.text import ParseResult, parse_side

__all__ = ["CODES", "CardTask", "CheckedCard", "check_card", "check_deck"]

CODES: dict[str, tuple[str, str, str]] = {
    "name.unknown-space": ("error", "1.3", "a named space or box that the map does not have"),
    "name.unknown-piece": ("error", "1.4", "a piece type the game does not have"),
    "name.unknown-faction": ("error", "1.5", "a Faction the game does not have"),
    "name.unknown-track": ("error", "1.8", "a track the game does not have"),
    "name.unknown-box": ("error", "1.4.1", "a source or destination box the game does not have"),
    "name.unknown-flag": ("error", "5.1", "a game flag the game does not have"),
    "name.unknown-term": (
        "error",
        "1.3",
        "a space type, country, terrain or Control the game does not have",
    ),
    "filter.matches-nothing": (
        "warning",
        "5.1.3",
        "a space filter that no space of the map matches in any state",
    ),
    "event.dead": ("error", "5.1.3", "a side that can never do anything in any legal state"),
    "event.never-in-full": (
        "error",
        "5.1.1; 5.1.3",
        "an effect that no legal state lets be carried out in full",
    ),
    "track.always-clamped": (
        "warning",
        "5.1.1; 1.8",
        "a track change larger than the whole track: always held at the cap",
    ),
    "track.never-reaches-cap": (
        "warning",
        "1.8",
        "a condition asks for a track value beyond the track's cap or floor",
    ),
    "lod.french-before-toa": (
        "warning",
        "2.3.9; 5.1.1",
        "French pieces placed on the map by a side playable before the Treaty of Alliance",
    ),
    "fitl.us-into-north-vietnam": (
        "warning",
        "1.4.2; 5.1.1",
        "US or ARVN pieces placed or moved where a candidate space is North Vietnam",
    ),
    "fitl.tunneled-implicit": (
        "warning",
        "1.4.4; 5.1.1",
        "Bases removed without saying Tunneled: Tunneled Bases stay",
    ),
    "side.self-contradiction": ("warning", "5.1", "two clauses of one side undo each other"),
    "text.unreadable": (
        "error",
        "5.1",
        "event text, with no structured effects, that cannot be read as written: a misspelt "
        "name, or effects the effect language refuses",
    ),
    "text.unread": (
        "warning",
        "5.1",
        "event text, with no structured effects, in a sentence form legalis does not read yet "
        "(an error with --strict)",
    ),
    "text.differs": (
        "warning",
        "5.1",
        "the printed text reads otherwise than the card's structured effects, which prevail",
    ),
    "lod.nonplayer-ineffective": (
        "warning",
        "8.3.2; 8.3.3",
        "a side a Non-player Faction always finds Ineffective, so never plays",
    ),
    "lasting.conflict": (
        "warning",
        "5.1.2",
        "two cards set the same lasting effect differently: the later one prevails",
    ),
    "card.dual-use-missing-side": (
        "warning",
        "5.2; 5.3",
        "a Capability card printed with one side only (Capabilities are dual use)",
    ),
    "card.lasting-mark-mismatch": (
        "warning",
        "5.3; 5.4",
        "a side's Capability/Momentum mark and its lasting effects disagree",
    ),
}
"""Every finding code: its severity, the rule it rests on, and what it means."""

# restrictions of the game data whose breach has its own finding code
_RESTRICTION_CODES = {
    "french_after_toa": "lod.french-before-toa",
    "coin_not_in_north_vietnam": "fitl.us-into-north-vietnam",
}
_LOTS = 10**6
Spaces = frozenset[str]
Known = Mapping[str, bool]
PieceEffect: TypeAlias = (
    fx.Place | fx.Remove | fx.Replace | fx.MovePieces | fx.Activate | fx.GoUnderground
)
_PIECE_EFFECTS = (fx.Place, fx.Remove, fx.Replace, fx.MovePieces, fx.Activate, fx.GoUnderground)


# ---------------------------------------------------------------------- the game's facts


@dataclass
class _Facts:
    """What the map and the rules say, once per game: names, and where pieces may be."""

    game: str
    rules: CoinRules
    candidates: tuple[str, ...]  # map spaces then the map's boxes, as the interpreter reads
    combos: tuple[tuple[dict[str, bool], CoinState], ...]  # one empty state per flag setting
    allowed: dict[tuple[str, str], tuple[bool, ...]]  # (piece, location) -> per combo
    room: dict[str, int]  # stacking room of each location when empty
    pieces: dict[str, str]  # id or name -> id
    factions: dict[str, str]
    boxes: dict[str, str]  # id or name -> name
    terms: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def ever(self, piece: str, location: str, known: Known) -> bool:
        """Whether the piece may be at the location under some flag setting fitting ``known``."""
        flags = self.allowed[(piece, location)]
        return any(
            ok
            for ok, (setting, _) in zip(flags, self.combos, strict=True)
            if all(setting.get(k, v) == v for k, v in known.items())
        )

    def most(self, piece: str, location: str, known: Known | None = None) -> int:
        """The most pieces of a type that can ever be at a location."""
        kind = self.rules.data.piece(piece)
        if location in self.rules.boxes and location not in self.candidates:
            allowed = (
                self.rules.piece_index[kind.id]
                in self.rules.box_allows[self.rules.location(location)]
            )
            return kind.inventory if allowed else 0
        if not self.ever(kind.id, location, known or {}):
            return 0
        return min(kind.inventory, self.room[location]) if kind.stacking else kind.inventory

    def is_space(self, name: str) -> bool:
        return self.rules.map.has_space(name)


@cache
def _facts(game: str) -> _Facts:
    rules = rules_for(game)
    data = rules.data
    board = rules.map
    candidates = tuple(s.name for s in board.spaces) + tuple(board.boxes)
    flag_ids = list(data.flag_ids())[:6]
    combos = []
    for values in product((False, True), repeat=len(flag_ids)):
        state = CoinState.new(game)
        setting = dict(zip(flag_ids, values, strict=True))
        for flag, value in setting.items():
            state.set_flag(flag, value)
        combos.append((setting, state))
    locations = candidates + tuple(b for b in rules.boxes if b not in candidates)
    allowed = {
        (piece.id, loc): tuple(may_hold(state, piece.id, loc)[0] for _, state in combos)
        for piece in data.pieces
        for loc in locations
    }
    empty = combos[0][1]
    room = {loc: stacking_room(empty, loc) for loc in locations}
    pieces = {p.id: p.id for p in data.pieces} | {p.name: p.id for p in data.pieces}
    factions = {f.id: f.id for f in data.factions} | {f.name: f.id for f in data.factions}
    boxes = {b.id: b.name for b in data.boxes} | {b.name: b.name for b in data.boxes}
    terms = {
        "type": tuple(sorted({s.type for s in board.spaces})),
        "country": tuple(sorted({s.country for s in board.spaces if s.country})),
        "terrain": tuple(sorted({s.terrain for s in board.spaces if s.terrain})),
        "control": (*(c.id for c in data.control), "none"),
    }
    return _Facts(
        game, rules, candidates, tuple(combos), allowed, room, pieces, factions, boxes, terms
    )


# ---------------------------------------------------------------------- what a filter may match


def _bounds(facts: _Facts, where: fx.Filter) -> tuple[Spaces, Spaces]:
    """(may, must): the candidates the filter matches in some state, and in every state."""
    return _bounds_cached(facts.game, where)


@cache
def _bounds_cached(game: str, where: fx.Filter) -> tuple[Spaces, Spaces]:
    facts = _facts(game)
    board = facts.rules.map
    every = frozenset(facts.candidates)
    spaces = frozenset(s.name for s in board.spaces)
    if isinstance(where, fx.Anywhere):
        return spaces, spaces
    if isinstance(where, fx.NamedSpaces):
        named = frozenset(n for n in where.names if n in every)
        return named, named
    if isinstance(where, fx.AllOf):
        parts = [_bounds(facts, f) for f in where.filters]
        return (
            frozenset.intersection(*(p[0] for p in parts)),
            frozenset.intersection(*(p[1] for p in parts)),
        )
    if isinstance(where, fx.AnyOf):
        parts = [_bounds(facts, f) for f in where.filters]
        return frozenset().union(*(p[0] for p in parts)), frozenset().union(*(p[1] for p in parts))
    if isinstance(where, fx.NoneOf):
        may, must = _bounds(facts, where.filter)
        return every - must, every - may
    if isinstance(where, fx.AdjacentTo):
        may, must = _bounds(facts, where.filter)
        empty = facts.combos[0][1]
        near = {
            s: within(empty, s, where.distance, include_self=where.include_self) for s in spaces
        }
        near_may = frozenset(s for s in spaces if any(o in may for o in near[s]))
        near_must = frozenset(s for s in spaces if any(o in must for o in near[s]))
        return near_may, near_must
    if isinstance(where, fx.BoundSpaces):
        return every, frozenset()  # what an earlier effect chose: any candidate, none surely
    if isinstance(where, fx.MarkersPresent):
        return _marker_bounds(facts, where)
    may_set, must_set = set(), set()
    for name in spaces:
        low, high = _space_range(facts, name, where)
        if high:
            may_set.add(name)
        if low:
            must_set.add(name)
    return frozenset(may_set), frozenset(must_set)


def _marker_bounds(facts: _Facts, where: fx.MarkersPresent) -> tuple[Spaces, Spaces]:
    """Spaces that may hold (and must hold) the markers asked for: a marker lies only
    on its space types; no space holds one in every state."""
    rules = facts.rules
    spaces = frozenset(s.name for s in rules.map.spaces)
    if where.marker not in rules.marker_index:
        return frozenset(), frozenset()  # reported as an unknown name
    kind = rules.marker_types[rules.marker(where.marker)]
    pool = rules.data.pool(kind.pool).count
    may_hold_one = frozenset(s for s in spaces if rules.map.space(s).type in kind.space_types)
    none_there = fx.COMPARE[where.compare](0, where.value)
    some_there = any(fx.COMPARE[where.compare](n, where.value) for n in range(1, pool + 1))
    may = (spaces if none_there else frozenset()) | (may_hold_one if some_there else frozenset())
    must = spaces - may_hold_one if none_there else frozenset()
    return may, must


def _space_range(facts: _Facts, name: str, where: fx.Filter) -> tuple[bool, bool]:
    """(matches in every state, matches in some state) for a map space and a simple filter."""
    info = facts.rules.map.space(name)
    loc = facts.rules.info[facts.rules.location(name)]
    if isinstance(where, fx.TypeIs):
        hit = info.type in where.types
    elif isinstance(where, fx.PopulationIs):
        hit = fx.COMPARE[where.compare](info.population, where.value)
    elif isinstance(where, fx.CountryIs):
        hit = info.country in where.countries
    elif isinstance(where, fx.TerrainIs):
        hit = info.terrain in where.terrains
    elif isinstance(where, fx.CoastalIs):
        hit = info.coastal == where.coastal
    elif isinstance(where, fx.ControlIs):
        if not loc.control:
            hit = where.control == "none"
        elif where.control == "none":
            return False, True
        else:
            return False, _may_control(facts, name, where.control)
    elif isinstance(where, fx.SupportIs):
        if not loc.can_support:
            hit = "neutral" in where.levels
        else:
            return len(set(where.levels)) == 5, True
    else:
        assert isinstance(where, fx.PiecesPresent)
        most = 0
        for piece in where.pieces:
            if piece not in facts.pieces:
                continue
            kind = facts.rules.data.piece(piece)
            if where.status is None or where.status in kind.statuses:
                most += facts.most(kind.id, name)
        outcomes = {fx.COMPARE[where.compare](k, where.value) for k in range(most + 1)}
        return outcomes == {True}, True in outcomes
    return hit, hit


def _may_control(facts: _Facts, space: str, control: str) -> bool:
    """Whether a Control can ever hold in a space: pieces of its Factions may be there (1.7)."""
    rule = next((c for c in facts.rules.data.control if c.id == control), None)
    if rule is None:
        return False

    def present(factions: Sequence[str]) -> bool:
        return any(
            facts.most(p.id, space) > 0 for p in facts.rules.data.pieces if p.faction in factions
        )

    return present(rule.factions) and (not rule.requires or present(rule.requires))


# ---------------------------------------------------------------------- conditions


def _truth(facts: _Facts, condition: fx.Condition, known: Known) -> bool | None:
    """True or False when the data and the known flags settle the condition, else None."""
    if isinstance(condition, fx.FlagSet):
        value = known.get(condition.flag)
        return None if value is None else value == condition.value
    if isinstance(condition, fx.TrackCompare):
        if condition.track not in facts.rules.track_index:
            return None  # reported as an unknown name
        lo, hi = _track_range(facts, condition.track, known)
        outcomes = {fx.COMPARE[condition.compare](v, condition.value) for v in range(lo, hi + 1)}
        return outcomes.pop() if len(outcomes) == 1 else None
    if isinstance(condition, fx.SpacesCount):
        may, must = _bounds(facts, condition.filter)
        outcomes = {
            fx.COMPARE[condition.compare](n, condition.value)
            for n in range(len(must), len(may) + 1)
        }
        return outcomes.pop() if len(outcomes) == 1 else None
    if isinstance(condition, fx.ExecutingFaction):
        if "executing" in condition.factions:
            return True
        if any(f.startswith("$") for f in condition.factions):
            return None  # a Faction chosen as the side runs
        named = {facts.factions[f] for f in condition.factions if f in facts.factions}
        if not named:
            return False
        return True if named == set(facts.rules.faction_ids) else None
    if isinstance(condition, fx.AllTrue | fx.AnyTrue):
        values = [_truth(facts, c, known) for c in condition.conditions]
        if isinstance(condition, fx.AllTrue):
            return False if False in values else (True if all(values) else None)
        return True if True in values else (False if all(v is False for v in values) else None)
    if isinstance(condition, fx.NotTrue):
        value = _truth(facts, condition.condition, known)
        return None if value is None else not value
    return None  # a lasting effect may be in force or not


def _implied(condition: fx.Condition, holds: bool) -> dict[str, bool]:
    """The flags that must have these values when the condition holds (or fails)."""
    if isinstance(condition, fx.FlagSet):
        return {condition.flag: condition.value if holds else not condition.value}
    if isinstance(condition, fx.NotTrue):
        return _implied(condition.condition, not holds)
    gathers = fx.AllTrue if holds else fx.AnyTrue
    if isinstance(condition, gathers):
        out: dict[str, bool] = {}
        for part in condition.conditions:
            out.update(_implied(part, holds))
        return out
    return {}


def _track_range(facts: _Facts, track: str, known: Known) -> tuple[int, int]:
    spec = facts.rules.data.track(track)
    if spec.zero_unless_flag is not None and known.get(spec.zero_unless_flag) is False:
        return spec.lo, spec.lo
    return spec.lo, spec.hi


# ---------------------------------------------------------------------- walking a side


@dataclass(frozen=True)
class _At:
    """An effect where it stands in a side: its path and the flags known to hold there."""

    effect: fx.Effect
    path: str
    known: Known
    reachable: bool


def _walk(
    facts: _Facts, effects: Sequence[fx.Effect], path: str, known: Known, reachable: bool = True
) -> Iterator[_At]:
    """Every effect of a sequence, nested ones included, in order."""
    flags = dict(known)
    for index, effect in enumerate(effects):
        here = f"{path}[{index}]"
        yield _At(effect, here, dict(flags), reachable)
        if isinstance(effect, fx.When):
            value = _truth(facts, effect.condition, flags)
            yield from _walk(
                facts,
                effect.then,
                f"{here}.then",
                {**flags, **_implied(effect.condition, True)},
                reachable and value is not False,
            )
            yield from _walk(
                facts,
                effect.otherwise,
                f"{here}.otherwise",
                {**flags, **_implied(effect.condition, False)},
                reachable and value is not True,
            )
        elif isinstance(effect, fx.Choose):
            for number, option in enumerate(effect.options):
                yield from _walk(facts, option, f"{here}.options[{number}]", flags, reachable)
        elif isinstance(effect, fx.SetLasting) and effect.kind == "flag":
            flags[effect.name] = True
        elif isinstance(effect, fx.AtPhase):  # run later: names and placements still count
            yield from _walk(facts, effect.effects, f"{here}.effects", flags, False)
        if isinstance(effect, fx.SetLasting):
            for number, rule in enumerate(effect.rules):
                rule_path = f"{here}.rules[{number}].effects"
                yield from _walk(facts, rule.effects, rule_path, flags, False)


def _words(effect: fx.Effect) -> str:
    table = fx.side_to_toml(fx.Side(effects=(effect,)))["effects"][0]
    return json.dumps({"op": table.pop("op"), **table})


@dataclass
class _Checker:
    facts: _Facts
    witness_states: tuple[CoinState, ...] = ()  # the deck-wide checks show no state
    found: list[Finding] = field(default_factory=list)
    unread: set[tuple[int, str]] = field(default_factory=set)  # sides with no effects to check

    def report(
        self,
        code: str,
        card: Card | None,
        side: str | None,
        path: str,
        words: str,
        message: str,
        *,
        witness: dict[str, Any] | None = None,
        proof: str | None = None,
        subject: str | None = None,
        severity: str | None = None,
    ) -> None:
        default_severity, rule, _ = CODES[code]
        severity = severity or default_severity
        if subject is None:
            subject = f"card {card.number} {side}" if card is not None else "deck"
            subject += f" {path}" if path else ""
        self.found.append(
            Finding(
                code,
                severity,
                subject,
                message,
                rule,
                witness,
                card=card.number if card is not None else None,
                side=side,
                words=words,
                proof=proof,
            )
        )


# ---------------------------------------------------------------------- names


def _suggest(name: str, allowed: Sequence[str]) -> str:
    close = difflib.get_close_matches(name, list(allowed), n=1) or difflib.get_close_matches(
        name, list(allowed), n=1, cutoff=0.3
    )
    return f"did you mean {close[0]!r}?" if close else f"allowed: {', '.join(allowed)}"


def _filters(where: fx.Filter) -> Iterator[fx.Filter]:
    yield where
    if isinstance(where, fx.AllOf | fx.AnyOf):
        for part in where.filters:
            yield from _filters(part)
    elif isinstance(where, fx.NoneOf | fx.AdjacentTo):
        yield from _filters(where.filter)


def _conditions(condition: fx.Condition) -> Iterator[fx.Condition]:
    yield condition
    if isinstance(condition, fx.AllTrue | fx.AnyTrue):
        for part in condition.conditions:
            yield from _conditions(part)
    elif isinstance(condition, fx.NotTrue):
        yield from _conditions(condition.condition)


def _wheres(effect: fx.Effect) -> Iterator[tuple[str, fx.Filter]]:
    """The top-level space filters of one effect (not of the effects nested in it)."""
    if isinstance(effect, fx.When):
        for condition in _conditions(effect.condition):
            if isinstance(condition, fx.SpacesCount):
                yield "condition", condition.filter
        return
    where = getattr(effect, "where", None)
    if isinstance(where, fx.Where):
        yield "where.filter", where.filter
    if isinstance(effect, fx.MovePieces):
        yield "to.filter", effect.to.filter


def _name_problems(facts: _Facts, effect: fx.Effect) -> Iterator[tuple[str, str, Sequence[str]]]:
    """(code, bad name, allowed names) for every unknown name in one effect."""
    data = facts.rules.data
    piece_ids = [p.id for p in data.pieces]
    faction_ids = list(facts.rules.faction_ids)
    for piece in (*getattr(effect, "pieces", ()), *getattr(effect, "by", ())):
        if piece not in facts.pieces:
            yield "name.unknown-piece", piece, piece_ids
    for piece in (*getattr(effect, "last", ()), *(
            p for limit in getattr(effect, "limits", ()) for p in limit.pieces)):  # fmt: skip
        if piece not in facts.pieces:
            yield "name.unknown-piece", piece, piece_ids
    for faction in _factions_named(effect):
        if not _names_faction(facts, faction):
            yield "name.unknown-faction", faction, faction_ids
    if isinstance(effect, fx.Adjust | fx.SetTrack) and not _names_track(facts, effect.track):
        yield "name.unknown-track", effect.track, list(facts.rules.track_index)
    box_ids = [b.id for b in data.boxes]
    for box in (getattr(effect, "source", None), getattr(effect, "destination", None)):
        # a marker moves between spaces as well as boxes
        on_map = isinstance(effect, fx.Marker) and box in facts.candidates
        if box is not None and box not in facts.boxes and not on_map:
            yield "name.unknown-box", box, box_ids
    if isinstance(effect, fx.Marker):
        yield from _marker_name(facts, effect.marker)
    if isinstance(effect, fx.PlaceLeader) and effect.leader not in facts.rules.leader_names:
        yield "name.unknown-term", effect.leader, list(facts.rules.leader_names)
    for amount in _amounts(effect):
        yield from _amount_names(facts, amount)
    flag = effect.name if isinstance(effect, fx.SetLasting) and effect.kind == "flag" else None
    if flag is not None and flag not in facts.rules.flag_index:
        yield "name.unknown-flag", flag, list(facts.rules.flag_index)
    for _, top in _wheres(effect):
        for where in _filters(top):
            yield from _filter_names(facts, where)
    if isinstance(effect, fx.When):
        for condition in _conditions(effect.condition):
            yield from _condition_names(facts, condition)


def _names_faction(facts: _Facts, name: str) -> bool:
    """A Faction an effect may name: the game's, the executing one, or one bound."""
    return name in facts.factions or name == "executing" or name.startswith("$")


def _names_track(facts: _Facts, track: str) -> bool:
    return track in facts.rules.track_index or track == "executing_resources"


def _factions_named(effect: fx.Effect) -> Iterator[str]:
    """Every Faction name of one effect's own fields."""
    for single in ("chooser", "faction", "as_faction"):
        name = getattr(effect, single, None)
        if isinstance(name, str):
            yield name
    if isinstance(effect, fx.Eligibility | fx.ChooseFaction | fx.Procedure):
        everyone = isinstance(effect, fx.Eligibility)  # "all Factions" names no one Faction
        yield from (f for f in effect.factions if not (everyone and f == "all"))


def _faction_references(effect: fx.Effect) -> Iterator[str]:
    """Every Faction name one effect reads: its fields, its amounts and conditions."""
    yield from _factions_named(effect)
    for amount in _amounts(effect):
        if isinstance(amount.quantity, fx.OfVictory):
            yield amount.quantity.faction
    if isinstance(effect, fx.When):
        for condition in _conditions(effect.condition):
            if isinstance(condition, fx.ExecutingFaction):
                yield from condition.factions


def _marker_name(facts: _Facts, marker: str) -> Iterator[tuple[str, str, Sequence[str]]]:
    if marker not in facts.rules.marker_index:
        yield "name.unknown-term", marker, [m.id for m in facts.rules.marker_types]


def _amounts(effect: fx.Effect) -> Iterator[fx.Amount]:
    """The amounts one effect reads (not those of the effects nested in it)."""
    count = getattr(effect, "count", None)
    if isinstance(count, fx.Count) and count.amount is not None:
        yield count.amount
    if isinstance(effect, fx.Adjust) and effect.amount is not None:
        yield effect.amount
    if isinstance(effect, fx.SetTrack) and isinstance(effect.value, fx.Amount):
        yield effect.value
    if isinstance(effect, fx.When):
        for condition in _conditions(effect.condition):
            if isinstance(condition, fx.QuantityCompare):
                yield condition.left
                if isinstance(condition.right, fx.Amount):
                    yield condition.right


def _amount_names(facts: _Facts, amount: fx.Amount) -> Iterator[tuple[str, str, Sequence[str]]]:
    quantity = amount.quantity
    filters: list[fx.Filter] = []
    if isinstance(quantity, fx.OfPieces):
        for piece in quantity.pieces:
            if piece not in facts.pieces:
                yield "name.unknown-piece", piece, [p.id for p in facts.rules.data.pieces]
        if quantity.box is not None and quantity.box not in facts.boxes:
            yield "name.unknown-box", quantity.box, [b.id for b in facts.rules.data.boxes]
        filters += [quantity.where] if quantity.where is not None else []
    elif isinstance(quantity, fx.OfSpaces | fx.OfPopulation):
        filters.append(quantity.filter)
    elif isinstance(quantity, fx.OfTrack) and not _names_track(facts, quantity.track):
        yield "name.unknown-track", quantity.track, list(facts.rules.track_index)
    elif isinstance(quantity, fx.OfMarkers):
        yield from _marker_name(facts, quantity.marker)
        filters += [quantity.where] if quantity.where is not None else []
    elif isinstance(quantity, fx.OfCards) and quantity.list not in facts.rules.list_ids:
        yield "name.unknown-term", quantity.list, list(facts.rules.list_ids)
    elif isinstance(quantity, fx.OfVictory) and not _names_faction(facts, quantity.faction):
        yield "name.unknown-faction", quantity.faction, list(facts.rules.faction_ids)
    for top in filters:
        for where in _filters(top):
            yield from _filter_names(facts, where)


def _filter_names(facts: _Facts, where: fx.Filter) -> Iterator[tuple[str, str, Sequence[str]]]:
    if isinstance(where, fx.NamedSpaces):
        for name in where.names:
            if name not in facts.candidates:
                yield "name.unknown-space", name, facts.candidates
    elif isinstance(where, fx.PiecesPresent):
        for piece in where.pieces:
            if piece not in facts.pieces:
                yield "name.unknown-piece", piece, [p.id for p in facts.rules.data.pieces]
    elif isinstance(where, fx.MarkersPresent):
        yield from _marker_name(facts, where.marker)
    else:
        listed: dict[str, tuple[str, ...]] = {}
        if isinstance(where, fx.TypeIs):
            listed["type"] = where.types
        elif isinstance(where, fx.CountryIs):
            listed["country"] = where.countries
        elif isinstance(where, fx.TerrainIs):
            listed["terrain"] = where.terrains
        elif isinstance(where, fx.ControlIs):
            listed["control"] = (where.control,)
        for term, names in listed.items():
            for name in names:
                if name not in facts.terms[term]:
                    yield "name.unknown-term", name, facts.terms[term]


def _condition_names(
    facts: _Facts, condition: fx.Condition
) -> Iterator[tuple[str, str, Sequence[str]]]:
    if isinstance(condition, fx.FlagSet) and condition.flag not in facts.rules.flag_index:
        yield "name.unknown-flag", condition.flag, list(facts.rules.flag_index)
    if isinstance(condition, fx.TrackCompare) and not _names_track(facts, condition.track):
        yield "name.unknown-track", condition.track, list(facts.rules.track_index)
    if isinstance(condition, fx.ExecutingFaction):
        for faction in condition.factions:
            if not _names_faction(facts, faction):
                yield "name.unknown-faction", faction, list(facts.rules.faction_ids)
    if isinstance(condition, fx.SpacesCount):
        for where in _filters(condition.filter):
            yield from _filter_names(facts, where)


# ---------------------------------------------------------------------- what an effect can do


def _targets(facts: _Facts, effect: fx.Place, known: Known) -> dict[str, list[str]]:
    """For a placement: each candidate location and the piece types it can ever take."""
    may, _ = _bounds(facts, effect.where.filter)
    source = facts.boxes[effect.source]
    out: dict[str, list[str]] = {}
    for loc in facts.candidates:
        if loc not in may or loc == source:
            continue
        fits = [
            facts.pieces[p]
            for p in effect.pieces
            if facts.ever(facts.pieces[p], loc, known)
            and (not facts.rules.data.piece(p).stacking or facts.room[loc] > 0)
        ]
        if fits:
            out[loc] = fits
    return out


def _supply(facts: _Facts, effect: fx.Place) -> dict[str, int]:
    """The most pieces of each type that the source box can ever hold."""
    return {facts.pieces[p]: facts.most(p, facts.boxes[effect.source]) for p in effect.pieces}


def _statuses(effect: PieceEffect) -> tuple[str, ...]:
    """The statuses a piece type needs for the effect to take it: a flip needs an
    Underground side, a status the text names (``taking``) that status."""
    flips = ("underground",) if isinstance(effect, fx.Activate | fx.GoUnderground) else ()
    taking = None if isinstance(effect, fx.Place) else effect.taking
    return flips if taking is None or taking in flips else (*flips, taking)


def _holdings(facts: _Facts, effect: PieceEffect, known: Known) -> dict[str, int]:
    """For a taking effect: each candidate space and the most pieces it can ever yield."""
    may, _ = _bounds(facts, effect.where.filter)
    need = _statuses(effect)
    out: dict[str, int] = {}
    for loc in facts.candidates:
        if loc not in may:
            continue
        most = sum(
            facts.most(p, loc, known)
            for p in effect.pieces
            if all(s in facts.rules.data.piece(p).statuses for s in need)
        )
        if most:
            out[loc] = most
    return out


def _support_spaces(facts: _Facts, effect: fx.Shift | fx.SetSupport) -> list[str]:
    may, _ = _bounds(facts, effect.where.filter)
    return [
        s
        for s in facts.candidates
        if s in may and facts.is_space(s) and facts.rules.info[facts.rules.location(s)].can_support
    ]


def _inert(facts: _Facts, effect: fx.Effect, known: Known) -> str | None:
    """Why the effect can never change any state, or None when it may."""
    if isinstance(effect, fx.Place):
        if effect.count.n == 0:
            return "it places 0 pieces"
        supply = _supply(facts, effect)
        source = facts.boxes[effect.source]
        if not any(supply.values()):
            return f"{source} never holds {' or '.join(effect.pieces)} (the game's boxes)"
        targets = _targets(facts, effect, known)
        if not any(supply[p] for fits in targets.values() for p in fits):
            return (
                f"no candidate space may ever hold {' or '.join(effect.pieces)} "
                "(the map, the stacking limit and the game's placement restrictions)"
            )
        return None
    if isinstance(effect, _PIECE_EFFECTS):
        if effect.count.n == 0:
            return f"it {effect.op}s 0 pieces"
        if not _holdings(facts, effect, known):
            status = "".join(f" {status.capitalize()}-capable" for status in _statuses(effect))
            return (
                f"no candidate space can ever hold{status} {' or '.join(effect.pieces)} "
                "(the map, the stacking limit and the game's placement restrictions)"
            )
        return None
    if isinstance(effect, fx.Shift | fx.SetSupport):
        if not _support_spaces(facts, effect):
            return "no candidate space can ever show Support or Opposition (the map)"
        return None
    if isinstance(effect, fx.Adjust) and effect.track in facts.rules.track_index:
        lo, hi = _track_range(facts, effect.track, known)
        if lo == hi:
            return f"{effect.track} is pinned at {lo} here (the track's cap)"
        return None
    if isinstance(effect, fx.When):
        value = _truth(facts, effect.condition, known)
        reasons = []
        if value is not False:
            yes = {**known, **_implied(effect.condition, True)}
            reasons.append(_inert_all(facts, effect.then, yes))
        if value is not True:
            no = {**known, **_implied(effect.condition, False)}
            reasons.append(_inert_all(facts, effect.otherwise, no) if effect.otherwise else "")
        if all(r is not None for r in reasons):
            return "; ".join(r for r in reasons if r) or "neither branch can do anything"
        return None
    if isinstance(effect, fx.Choose):
        reasons = [_inert_all(facts, option, known) for option in effect.options]
        return "; ".join(r for r in reasons if r) if all(r is not None for r in reasons) else None
    return None  # lasting effects and free actions always do something


def _inert_all(facts: _Facts, effects: Sequence[fx.Effect], known: Known) -> str | None:
    flags = dict(known)
    reasons = []
    for effect in effects:
        reason = _inert(facts, effect, flags)
        if reason is None:
            return None
        reasons.append(reason)
    return "; ".join(reasons)


def _never_in_full(facts: _Facts, effect: fx.Effect, known: Known) -> str | None:
    """Why an effect that can do something can never be carried out in full, or None."""
    if isinstance(effect, fx.Shift | fx.SetSupport):
        wanted = effect.where.spaces
        spaces = _support_spaces(facts, effect)
        if wanted is not None and not effect.where.up_to and len(spaces) < wanted:
            return (
                f"it needs {wanted} spaces but only {len(spaces)} candidate spaces can ever show "
                f"Support or Opposition ({', '.join(spaces) or 'none'}; the map)"
            )
        return None
    if not isinstance(effect, _PIECE_EFFECTS) or not _fixed_count(effect):
        return None
    n = effect.count.n
    where = effect.where
    exact_spaces = where.spaces if where.spaces is not None and not where.up_to else None
    names = " or ".join(effect.pieces)
    if isinstance(effect, fx.Place):
        targets = _targets(facts, effect, known)
        supply = sum(_supply(facts, effect).values())
        source = facts.boxes[effect.source]
        if exact_spaces is not None and len(targets) < exact_spaces:
            return (
                f"it needs {exact_spaces} spaces but only {len(targets)} candidate spaces can "
                f"ever take {names} ({', '.join(targets) or 'none'}; the map and rule 1.4.2)"
            )
        required = n * (exact_spaces or 1) if where.per_space else n
        if supply < required:
            return (
                f"it needs {required} {names} but {source} can never hold more than {supply} "
                "(the game's inventory and boxes, 1.4.1)"
            )
        if all(facts.rules.data.piece(p).stacking for p in effect.pieces):
            caps = sorted((facts.room[loc] for loc in targets), reverse=True)
            if where.per_space:
                most, what = (caps[0] if caps else 0), f"{n} {names} in one space"
            else:
                most = sum(caps[: where.spaces] if where.spaces is not None else caps)
                what = f"{n} {names} in all"
            if most < n:
                return (
                    f"it places {what} but stacking allows at most {most} "
                    f"there (stacking limit {facts.rules.data.stacking_max}, 1.4.2)"
                )
        return None
    holdings = _holdings(facts, effect, known)
    if exact_spaces is not None and len(holdings) < exact_spaces:
        return (
            f"it needs {exact_spaces} spaces but only {len(holdings)} candidate spaces can ever "
            f"hold {names} ({', '.join(holdings) or 'none'}; the map and rule 1.4.2)"
        )
    if where.per_space:
        most = max(holdings.values(), default=0)
        if most < n:
            return (
                f"it takes {n} {names} from one space but no candidate space can ever hold "
                f"more than {most} (inventory, stacking limit and rule 1.4.2)"
            )
        required = n * (exact_spaces or 1)
    else:
        required = n
    inventory = sum(facts.rules.data.piece(p).inventory for p in effect.pieces)
    if inventory < required:
        return f"it needs {required} {names} but the game has only {inventory} (1.4.1)"
    return None


# ---------------------------------------------------------------------- the checks of one side


def _fixed_count(effect: PieceEffect) -> bool:
    """Whether the effect asks for a fixed number of pieces of fixed types: not "up
    to", "all", a number read from the state, nor types read relative to the
    executing Faction."""
    count = effect.count
    return not (count.up_to or count.all or count.amount is not None or effect.relative)


def _check_side(checker: _Checker, card: Card, side_name: str, side: fx.Side) -> None:
    if (card.number, side_name) in checker.unread:
        return  # its text could not be read: the text finding says so, nothing else can
    facts = checker.facts
    walked = list(_walk(facts, side.effects, "effects", {}))
    named = False
    chosen: list[str] = []  # Factions bound so far by choose_faction, as "$" names
    for at in walked:
        unbound = [
            ("name.unknown-faction", name, chosen or ["$ + the bind of an earlier choose_faction"])
            for name in _faction_references(at.effect)
            if name.startswith("$") and name not in chosen
        ]
        if isinstance(at.effect, fx.ChooseFaction):
            chosen.append(f"${at.effect.bind}")
        for code, bad, allowed in [*_name_problems(facts, at.effect), *unbound]:
            named = True
            checker.report(
                code,
                card,
                side_name,
                at.path,
                _words(at.effect),
                f"unknown name {bad!r}: {_suggest(bad, allowed)}",
                subject=f"card {card.number} {side_name} {at.path}: {bad}",
                proof=f"the {facts.game} game data and map have no {bad!r}",
            )
    _check_marks(checker, card, side_name, side, walked)
    if named:
        return  # the other checks read the names; fix these first
    if not side.effects:
        checker.report(
            "event.dead", card, side_name, "", side.text, "the side has no effects",
            proof="a side without effects changes no state",
        )  # fmt: skip
        return
    dead = _inert_all(facts, side.effects, {})
    if dead is not None:
        checker.report(
            "event.dead",
            card,
            side_name,
            "effects",
            json.dumps(fx.side_to_toml(side).get("effects", [])),
            f"the side can never do anything in any legal state: {dead}",
            proof=dead,
        )
        return
    empty_filters: set[str] = set()
    for at in walked:
        for where_path, where in _wheres(at.effect):
            if not _bounds(facts, where)[0]:
                empty_filters.add(at.path)
                checker.report(
                    "filter.matches-nothing",
                    card,
                    side_name,
                    f"{at.path}.{where_path}",
                    _words(at.effect),
                    "no space of the map matches this filter in any state",
                    proof=f"the {facts.game} map data: no space or box fits {_filter_words(where)}",
                )
    for at in walked:
        _check_effect(checker, card, side_name, at, empty_filters)
    _check_contradictions(checker, card, side_name, side.effects, "effects")


def _filter_words(where: fx.Filter) -> str:
    return json.dumps(fx.side_to_toml(fx.Side(effects=(fx.Shift(levels=1, where=fx.Where(
        filter=where)),)))["effects"][0]["where"]["filter"])  # fmt: skip


def _check_effect(
    checker: _Checker, card: Card, side_name: str, at: _At, empty_filters: set[str]
) -> None:
    facts = checker.facts
    effect = at.effect
    words = _words(effect)
    if isinstance(effect, fx.Adjust) and effect.track in facts.rules.track_index:
        spec = facts.rules.data.track(effect.track)
        if abs(effect.delta) > spec.hi - spec.lo:
            checker.report(
                "track.always-clamped",
                card,
                side_name,
                at.path,
                words,
                f"{effect.track} {effect.delta:+d} is larger than the whole track "
                f"({spec.lo}-{spec.hi}): the change is always held at the "
                f"{'cap' if effect.delta > 0 else 'floor'}",
                proof=f"the track runs {spec.lo}-{spec.hi} (rule {spec.rule})",
            )
    if isinstance(effect, fx.When):
        for condition in _conditions(effect.condition):
            if (
                isinstance(condition, fx.TrackCompare)
                and condition.track in facts.rules.track_index
            ):
                _check_threshold(checker, card, side_name, at, condition)
    if isinstance(effect, fx.Remove) and not effect.tunneled:
        _check_tunnels(checker, card, side_name, at, effect)
    _check_restrictions(checker, card, side_name, at)
    if not at.reachable or at.path in empty_filters:
        return
    reason = _inert(facts, effect, at.known)
    if reason is None:
        reason = _never_in_full(facts, effect, at.known)
    elif isinstance(effect, fx.When | fx.Choose):
        return  # its own effects are reported one by one
    else:
        reason = f"this effect can never do anything: {reason}"
    if reason is not None:
        checker.report(
            "event.never-in-full",
            card,
            side_name,
            at.path,
            words,
            f"always left (partly) undone: {reason}",
            proof=reason,
        )


def _check_threshold(
    checker: _Checker, card: Card, side_name: str, at: _At, condition: fx.TrackCompare
) -> None:
    spec = checker.facts.rules.data.track(condition.track)
    outcomes = {
        fx.COMPARE[condition.compare](v, condition.value) for v in range(spec.lo, spec.hi + 1)
    }
    if len(outcomes) == 1 and not spec.lo <= condition.value <= spec.hi:
        always = outcomes.pop()
        checker.report(
            "track.never-reaches-cap",
            card,
            side_name,
            at.path,
            json.dumps(condition.model_dump(by_alias=True)),
            f"{condition.track} never reaches {condition.value} (it runs {spec.lo}-{spec.hi}): "
            f"the condition is always {'true' if always else 'false'}",
            proof=f"the track runs {spec.lo}-{spec.hi} (rule {spec.rule})",
        )


def _placements(effect: fx.Effect) -> list[tuple[tuple[str, ...], fx.Filter]]:
    """(piece types, target filter) of every way an effect puts pieces on the map."""
    if isinstance(effect, fx.Place):
        return [(effect.pieces, effect.where.filter)]
    if isinstance(effect, fx.Replace):
        return [(effect.by, effect.where.filter)]
    if isinstance(effect, fx.MovePieces):
        return [(effect.pieces, effect.to.filter)]
    return []


def _check_restrictions(checker: _Checker, card: Card, side_name: str, at: _At) -> None:
    facts = checker.facts
    for pieces, target in _placements(at.effect):
        may, _ = _bounds(facts, target)
        ids = {facts.pieces[p] for p in pieces}
        for restriction in facts.rules.data.restrictions:
            code = _RESTRICTION_CODES.get(restriction.id)
            hit = sorted(ids & set(restriction.pieces))
            if code is None or not hit:
                continue
            flag = restriction.unless_flag
            if flag is not None and at.known.get(flag) is not None:
                continue  # the side settles the flag before this effect: no surprise
            spaces = [
                s
                for s in facts.candidates
                if s in may
                and facts.is_space(s)
                and restriction.applies(
                    facts.rules.map.space(s).type, facts.rules.map.space(s).country
                )
            ]
            if not spaces:
                continue
            witness = _restriction_witness(checker, flag)
            shown = ", ".join(spaces[:5]) + (", ..." if len(spaces) > 5 else "")
            checker.report(
                code,
                card,
                side_name,
                at.path,
                _words(at.effect),
                f"{' and '.join(hit)} may go to {shown}, but {restriction.reason}: "
                f"no piece goes there ({restriction.rule}; 5.1.1)",
                witness=witness,
                proof=None if witness else f"{restriction.reason} ({restriction.rule})",
            )


def _restriction_witness(checker: _Checker, flag: str | None) -> dict[str, Any] | None:
    for state in checker.witness_states:
        if flag is None or not state.flag(flag):
            raw: dict[str, Any] = state.to_json()
            return raw
    if flag is None:
        return None
    state = CoinState.new(checker.facts.game)
    return state.to_json() if not state.flag(flag) else None


def _check_tunnels(
    checker: _Checker, card: Card, side_name: str, at: _At, effect: fx.Remove
) -> None:
    facts = checker.facts
    data = facts.rules.data
    tunnels = [facts.pieces[p] for p in effect.pieces if data.piece(p).can_tunnel]
    if not tunnels:
        return
    may, _ = _bounds(facts, effect.where.filter)
    spaces = [s for s in facts.candidates if s in may and facts.most(tunnels[0], s) > 0]
    if not spaces:
        return
    witness = None
    for base in (checker.witness_states[0] if checker.witness_states else None,
                 CoinState.new(facts.game)):  # fmt: skip
        if base is None:
            continue
        witness = _tunnel_witness(facts, base, tunnels[0], spaces, effect.where.filter)
        if witness is not None:
            break
    owners = sorted({data.piece(p).faction for p in tunnels})
    checker.report(
        "fitl.tunneled-implicit",
        card,
        side_name,
        at.path,
        _words(effect),
        f"removes {' or '.join(tunnels)} without `tunneled = true`: Tunneled Bases stay unless "
        f"the executing Faction is their owner ({', '.join(owners)}) and opts to remove them",
        witness=witness,
        proof=None if witness else "a Tunneled Base may stand in " + ", ".join(spaces[:5]),
    )


def _tunnel_witness(
    facts: _Facts, base: CoinState, piece: str, spaces: list[str], where: fx.Filter
) -> dict[str, Any] | None:
    """A state with a Tunneled Base in a space the removal's filter matches."""
    context = Context(faction=facts.rules.faction_ids[0])
    for space in spaces:
        if base.available(piece) == 0 or stacking_room(base, space) == 0:
            continue
        if not may_hold(base, piece, space)[0]:
            continue
        state = base.copy()
        state.move_pieces(facts.rules.data.available_box, space, piece, 1, new_status="tunneled")
        if space_matches(state, space, where, context) and not state.invariant_problems():
            raw: dict[str, Any] = state.to_json()
            return raw
    return None


def _forced(facts: _Facts, where: fx.Where) -> Spaces:
    """The spaces an effect surely acts in, whatever the state and the choices."""
    may, must = _bounds(facts, where.filter)
    if may != must:
        return frozenset()
    if where.spaces is None or (where.spaces >= len(may) and not where.up_to):
        return may
    return frozenset()


def _check_contradictions(
    checker: _Checker, card: Card, side_name: str, effects: Sequence[fx.Effect], path: str
) -> None:
    facts = checker.facts
    for i, first in enumerate(effects):
        for j in range(i + 1, len(effects)):
            second = effects[j]
            clash = _clash(facts, first, second)
            if clash is not None:
                checker.report(
                    "side.self-contradiction",
                    card,
                    side_name,
                    f"{path}[{i}] and {path}[{j}]",
                    f"{_words(first)} / {_words(second)}",
                    clash,
                    proof=clash,
                )
    for i, effect in enumerate(effects):
        if isinstance(effect, fx.When):
            _check_contradictions(checker, card, side_name, effect.then, f"{path}[{i}].then")
            if effect.otherwise:
                branch = f"{path}[{i}].otherwise"
                _check_contradictions(checker, card, side_name, effect.otherwise, branch)
        elif isinstance(effect, fx.Choose):
            for k, option in enumerate(effect.options):
                _check_contradictions(checker, card, side_name, option, f"{path}[{i}].options[{k}]")


def _clash(facts: _Facts, first: fx.Effect, second: fx.Effect) -> str | None:
    fixed = (
        isinstance(first, fx.Shift)
        and isinstance(second, fx.Shift)
        and not any(shift.either or shift.toward for shift in (first, second))
    )
    if fixed:
        assert isinstance(first, fx.Shift) and isinstance(second, fx.Shift)
        both = _forced(facts, first.where) & _forced(facts, second.where)
        if (first.levels > 0) != (second.levels > 0) and both:
            return (
                f"shifts {', '.join(sorted(both))} {first.levels:+d} and then "
                f"{second.levels:+d}: the second undoes the first"
            )
    if isinstance(first, fx.SetSupport) and isinstance(second, fx.SetSupport):
        both = _forced(facts, first.where) & _forced(facts, second.where)
        if first.level != second.level and both:
            return (
                f"sets {', '.join(sorted(both))} to {first.level} and then to "
                f"{second.level}: only the second can stand"
            )
    if isinstance(first, fx.Place) and isinstance(second, fx.Remove):
        same = {facts.pieces[p] for p in first.pieces} & {facts.pieces[p] for p in second.pieces}
        if second.taking is not None:  # only pieces placed in the status it takes
            data = facts.rules.data
            same = {p for p in same if (first.status or data.piece(p).statuses[0]) == second.taking}
        both = _forced(facts, first.where) & _forced(facts, second.where)
        if same and both:
            return (
                f"places {' or '.join(sorted(same))} in {', '.join(sorted(both))} and then "
                "removes that type from the same space"
            )
    return None


def _lasting_in(walked: Sequence[_At]) -> list[fx.SetLasting]:
    return [at.effect for at in walked if isinstance(at.effect, fx.SetLasting)]


def _check_marks(
    checker: _Checker, card: Card, side_name: str, side: fx.Side, walked: Sequence[_At]
) -> None:
    kinds = {e.kind for e in _lasting_in(walked)} - {"flag"}
    text_kinds = {k for k in ("capability", "momentum") if k.upper() in side.text}
    problems = []
    if side.lasting is not None and side.lasting not in kinds:
        problems.append(f"the side is marked {side.lasting} but sets no {side.lasting} effect")
    for kind in sorted((kinds | text_kinds) - {side.lasting}):
        source = "its effects set" if kind in kinds else "its text says"
        problems.append(f"{source} a {kind} but the side is not marked `lasting = {kind!r}`")
    for problem in problems:
        checker.report(
            "card.lasting-mark-mismatch", card, side_name, "lasting",
            str(side.lasting), problem, proof=problem,
        )  # fmt: skip


def _check_card(checker: _Checker, card: Card) -> None:
    sides = [(name, card.side(name)) for name in SIDES if getattr(card, name) is not None]
    for name, side in sides:
        _check_side(checker, card, name, side)
    if len(sides) == 1:
        name, side = sides[0]
        walked = list(_walk(checker.facts, side.effects, "effects", {}))
        capability = (
            side.lasting == "capability"
            or any(e.kind == "capability" for e in _lasting_in(walked))
            or "CAPABILITY" in side.text
        )
        if capability:
            missing = "shaded" if name == "unshaded" else "unshaded"
            checker.report(
                "card.dual-use-missing-side",
                card,
                name,
                "",
                card.title,
                f"a Capability printed on the {name} side only: the {missing} side is missing "
                "(Capabilities are dual use, 5.3)",
                proof="FitL 5.3: Capabilities are dual-use Events",
            )


def _check_lasting(checker: _Checker, deck: Deck) -> None:
    """Lasting effects of the same name set differently by different cards (5.1.2)."""
    index: dict[str, dict[tuple[str, str], set[int]]] = {}
    cards = {card.number: card for card in deck.cards}
    for card in deck.cards:
        for name in SIDES:
            side = getattr(card, name)
            if side is None:
                continue
            for effect in _lasting_in(list(_walk(checker.facts, side.effects, "effects", {}))):
                value = effect.side or name if effect.kind == "capability" else "in force"
                index.setdefault(effect.name, {}).setdefault((effect.kind, value), set()).add(
                    card.number
                )
    for lasting, settings in index.items():
        keys = sorted(settings)
        clashing = sorted(
            {
                number
                for a in keys
                for b in keys
                if a != b and len(settings[a] | settings[b]) > 1
                for number in settings[a] | settings[b]
            }
        )
        if not clashing:
            continue
        listed = "; ".join(
            f"{kind} {value} by card{'s' if len(settings[(kind, value)]) > 1 else ''} "
            f"{', '.join(str(n) for n in sorted(settings[(kind, value)]))}"
            for kind, value in keys
        )
        checker.report(
            "lasting.conflict",
            cards[clashing[0]],
            None,
            "",
            lasting,
            f"{lasting!r} is set differently by different cards ({listed}): whichever card "
            "is played later prevails (5.1.2)",
            subject=f"cards {', '.join(str(n) for n in clashing)}: {lasting}",
            proof="5.1.2: if two Events contradict, the currently played Event takes precedence",
        )


# ---------------------------------------------------------------------- the front


Reading = tuple[str, ParseResult]  # a side's name, what its printed text says


def _read_card(card: Card, game: str) -> tuple[Card, list[Reading]]:
    """Parse the printed text of each side of ``card`` (5.1: the text is carried out
    literally). The card comes back with each side that has text but no structured
    effects given the effects its text reads as (structured effects, when present,
    override the text), and each side given the flavour phrase its text prints
    before the colon."""
    readings: list[Reading] = []
    update: dict[str, Any] = {}
    for name in ("unshaded", "shaded"):  # SIDES, typed as the parser's side names
        side = getattr(card, name)
        if side is None or not side.text.strip():
            continue
        result = parse_side(side.text, game, title=card.title, side=name)
        readings.append((name, result))
        changes: dict[str, Any] = {}
        if not side.effects and result.ok:
            changes["effects"] = result.effects
        if result.flavour and not side.flavour:
            changes["flavour"] = result.flavour
        if changes:
            update[name] = side.model_copy(update=changes)
    return (card.model_copy(update=update) if update else card), readings


def _report_readings(
    checker: _Checker, card: Card, readings: list[Reading], *, strict: bool = False
) -> None:
    """Findings on what the printed texts of ``card`` (read by :func:`_read_card`) say:
    text that cannot be read as written (``text.unreadable``), a form not read yet
    (``text.unread``, an error when ``strict``) and text that reads otherwise than the
    structured effects."""
    for name, result in readings:
        side = card.side(name)
        if side.effects and not result.ok:
            continue  # the structured effects stand in for text the grammar cannot read
        if not side.effects:
            checker.unread.add((card.number, name))
        for diagnostic in result.diagnostics:
            where = f"line {diagnostic.line}, column {diagnostic.column}"
            expected = ", ".join(diagnostic.expected[:6])
            unread = diagnostic.kind == "unread"
            checker.report(
                "text.unread" if unread else "text.unreadable",
                card,
                name,
                f"text:{diagnostic.line}:{diagnostic.column}",
                side.text,
                f"{where}: {diagnostic.message}" + (f" (expected: {expected})" if expected else ""),
                proof="the grammar of event text (legalis.verify.text)",
                severity="error" if unread and strict else None,
            )
        if result.ok and side.effects and tuple(result.effects) != tuple(side.effects):
            checker.report(
                "text.differs",
                card,
                name,
                "text",
                side.text,
                "the text reads as other effects than the structured ones given, which prevail",
                proof="the text parsed and compared with the card's effects",
            )


@cache
def _witness_states(game: str, scenarios: tuple[str, ...]) -> tuple[CoinState, ...]:
    """The opening states of ``scenarios``, loaded once per process (the checks copy
    them before any change)."""
    return tuple(load_scenario(game, name) for name in scenarios)


@dataclass(frozen=True)
class CardTask:
    """One card of a deck to read and check: the unit of work :func:`check_deck`
    hands to its mapper. ``scenarios`` names the bundled scenarios whose opening
    states may serve as witnesses."""

    game: str
    card: Card
    scenarios: tuple[str, ...]
    strict: bool = False


@dataclass(frozen=True)
class CheckedCard:
    """What :func:`check_card` found: the card with the effects its printed text
    reads as, and its findings (those on its text, then those of its checks)."""

    card: Card
    findings: tuple[Finding, ...]


def check_card(task: CardTask) -> CheckedCard:
    """Read one card's printed text and check the card: every finding that needs no
    other card of the deck. The game's facts, the grammar and the witness states are
    built once per process, so the task runs the same in any process.

    >>> from legalis.model.coin.deck import bundled_deck
    >>> card = bundled_deck("lod").card(10)
    >>> checked = check_card(CardTask("lod", card, ("1775",)))
    >>> [(f.code, f.side) for f in checked.findings]
    [('lod.french-before-toa', 'shaded')]
    >>> bool(checked.card.side("shaded").effects)
    True
    """
    card, readings = _read_card(task.card, task.game)
    checker = _Checker(_facts(task.game), _witness_states(task.game, task.scenarios))
    _report_readings(checker, card, readings, strict=task.strict)
    _check_card(checker, card)
    return CheckedCard(card, tuple(checker.found))


def check_deck(
    deck: Deck,
    game: str,
    *,
    scenarios: list[str] | None = None,
    on_card: Callable[[int], None] | None = None,
    strict: bool = False,
    mapper: Mapper = in_process,
) -> list[Finding]:
    """Every finding over the structured effects of ``deck``: card by card, the
    findings on its printed text then those of its checks, then the deck-wide ones.

    ``scenarios`` names the bundled scenarios whose opening states may serve as
    witnesses (default: all of the game's); codes and meanings are in :data:`CODES`.
    ``on_card(number)`` is called as each card is done, in card order, for a progress
    display. Text in a sentence form legalis does not read is a warning
    (``text.unread``), an error when ``strict``. Each card is one task of ``mapper``
    (:func:`check_card`); the findings are the same whatever the mapper.

    >>> from legalis.model.coin.deck import bundled_deck
    >>> found = check_deck(bundled_deck("fitl"), "fitl")
    >>> [(f.code, f.card) for f in found if f.severity == "error"]
    []
    >>> sorted({f.code for f in check_deck(bundled_deck("lod"), "lod")})
    ['lod.french-before-toa']
    """
    if deck.game != game:
        raise InputError(f"the deck is for {deck.game!r}, not {game!r}", path="game")
    names = tuple(scenario_names(game) if scenarios is None else scenarios)
    _witness_states(game, names)  # an unknown scenario is refused before any task runs
    tasks = [CardTask(game, card, names, strict) for card in deck.cards]
    checker = _Checker(_facts(game))
    read: list[Card] = []
    for checked in mapper(check_card, tasks):
        read.append(checked.card)
        checker.found.extend(checked.findings)
        if on_card is not None:
            on_card(checked.card.number)
    deck = deck.model_copy(update={"cards": tuple(read)})
    _check_lasting(checker, deck)
    cards = {card.number: card for card in deck.cards}
    for number, side, faction, why in always_ineffective(deck):
        checker.report(
            "lod.nonplayer-ineffective",
            cards[number],
            side,
            "effects",
            faction,
            f"a Non-player {faction} uses this side (8.3.2) and always finds it Ineffective: {why}",
            proof="8.3.3: every effect of the side removes friendly pieces or shifts toward "
            "the enemy, in every state",
        )
    return checker.found
