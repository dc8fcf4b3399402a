"""The sample decks: original cards that load, name only what their game has, use
every form of the effect language and exercise every clause of rules section 5.

The forms are read from ``effects.py`` itself (the tag literal of every member of
the ``Effect``, ``Filter``, ``Condition`` and ``Quantity`` unions), so a form added to the
language fails here until some sample card uses it. The clauses each card claims
are read from the comment line above its ``[[card]]`` table and checked against
the card's effects.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Iterator
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints

import jsonschema
import pytest
from legalis.model.coin import effects as fx
from legalis.model.coin.deck import (
    SIDES,
    Card,
    Deck,
    bundled_deck,
    deck_from_toml,
    deck_json_schema,
)
from legalis.model.core.records import Record, field_default, record_fields, walk
from legalis.model.errors import InputError

from legalis import cli

GAMES = ("lod", "fitl")


# ---------------------------------------------------------------------- reading


def _package_file(game: str, name: str) -> str | None:
    entry = resources.files(f"legalis.model.{game}").joinpath(name)
    return entry.read_text("utf-8") if entry.is_file() else None


@cache
def _deck(game: str) -> Deck:
    return bundled_deck(game)


@cache
def _map(game: str) -> dict[str, Any]:
    text = _package_file(game, "map.toml")
    assert text is not None, f"model/{game}/map.toml is missing"
    return tomllib.loads(text)


def _game(game: str) -> dict[str, Any]:
    text = _package_file(game, "game.toml")
    assert text is not None, f"model/{game}/game.toml is missing"
    return tomllib.loads(text)


def _written(node: Record) -> list[str]:
    """The fields of ``node`` its TOML must have written: those off their default."""
    model = type(node)
    return [
        name for name in record_fields(model) if getattr(node, name) != field_default(model, name)
    ]


def _nodes(value: Any) -> Iterator[Record]:
    """Every record in ``value``, following only the fields its TOML wrote: a default
    such as the Anywhere filter of an unwritten ``where`` is not a use of that form."""
    if isinstance(value, Record):
        yield value
        for name in _written(value):
            yield from _nodes(getattr(value, name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _nodes(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _nodes(item)


def _sides(card: Card) -> Iterator[tuple[str, fx.Side]]:
    for name in SIDES:
        side = getattr(card, name)
        if side is not None:
            yield name, side


# ---------------------------------------------------------------------- the forms of the language


def _tags(union: Any, field: str) -> dict[type[Record], str]:
    """Each member of a discriminated union of effects.py and the literal of its tag field."""
    members = get_args(get_args(union)[0])
    return {member: field_default(member, field) for member in members}


FORMS: dict[str, dict[type[Record], str]] = {
    "effect op": _tags(fx.Effect, "op"),
    "filter kind": _tags(fx.Filter, "kind"),
    "condition kind": _tags(fx.Condition, "kind"),
    "quantity": _tags(fx.Quantity, "kind"),
}


def _options(annotation: Any) -> set[Any]:
    """Every value a bool, Literal or optional Literal field may take."""
    if annotation is bool:
        return {True, False}
    if get_origin(annotation) is Literal:
        return set(get_args(annotation))
    out: set[Any] = set()
    for arg in get_args(annotation):
        out |= {None} if arg is type(None) else _options(arg)
    return out


FORM_KEYS = {"effect op": "op", "filter kind": "is", "condition kind": "if", "quantity": "of"}


def _tags_written(value: Any, key: str) -> Iterator[str]:
    """The values of ``key`` in every table of a parsed TOML document."""
    if isinstance(value, dict):
        if isinstance(value.get(key), str):
            yield value[key]
        for item in value.values():
            yield from _tags_written(item, key)
    elif isinstance(value, list):
        for item in value:
            yield from _tags_written(item, key)


OPTIONS: list[tuple[type[Record], str]] = [
    (fx.FreeAction, "kind"),
    (fx.FreeAction, "limited"),
    (fx.SetLasting, "kind"),
    (fx.Remove, "tunneled"),
    (fx.Count, "up_to"),
    (fx.Where, "up_to"),
    (fx.Where, "per_space"),
    (fx.Side, "lasting"),
    (Card, "kind"),
    (fx.Count, "all"),
    (fx.AdjacentTo, "include_self"),
    (fx.Amount, "round"),
    (fx.Shift, "either"),
    (fx.Eligibility, "to"),
    (fx.Eligibility, "through_next_card"),
    (fx.Marker, "action"),
    (fx.BattleModifier, "role"),
    (fx.FreeAction, "with_special"),
    (fx.FreeAction, "no_activation"),
    (fx.SetLasting, "duration"),
    (fx.LastingRule, "kind"),
    (fx.LastingRule, "modelled"),
]


def test_the_decks_load_with_at_least_30_cards_each() -> None:
    for game in GAMES:
        deck = _deck(game)
        assert deck.game == game
        assert len(deck.cards) >= 30, f"{game}: only {len(deck.cards)} cards"
        for card in deck.cards:
            for name, side in _sides(card):
                assert side.text and side.effects, f"{game} card {card.number} {name}"
                assert fx.side_from_toml(fx.side_to_toml(side)) == side


@pytest.mark.parametrize("game", GAMES)
def test_bundled_decks_are_valid(game: str) -> None:
    # play reads a bundled deck without validation (Record.trusted): it must be the
    # very deck the validating reader makes, field for field
    raw = tomllib.loads(_package_file(game, "decks/sample.toml") or "")
    validated = deck_from_toml(raw)
    assert bundled_deck(game) == validated
    assert [type(node) for node in walk(bundled_deck(game))] == [
        type(node) for node in walk(validated)
    ]


@pytest.mark.parametrize("what", sorted(FORMS))
def test_every_form_of_the_effect_language_is_used(what: str) -> None:
    # a form is used where a card's TOML writes its tag, a default's too
    key = FORM_KEYS[what]
    used = {
        tag
        for game in GAMES
        for tag in _tags_written(tomllib.loads(_package_file(game, "decks/sample.toml") or ""), key)
    }
    unused = sorted(set(FORMS[what].values()) - used)
    assert not unused, f"no sample card uses the {what}s {unused}"


@pytest.mark.parametrize(("model", "field"), OPTIONS, ids=lambda x: getattr(x, "__name__", x))
def test_every_option_of_the_effect_language_is_used(model: type[Record], field: str) -> None:
    possible = _options(get_type_hints(model)[field])
    used = {getattr(node, field) for game in GAMES for node in _nodes(_deck(game))
            if isinstance(node, model)}  # fmt: skip
    missing = sorted(map(str, possible - used))
    assert not missing, f"no sample card uses {model.__name__}.{field} = {missing}"


# The fields the event language grew to read every sentence form of the real cards
# (reference/event-language.md): each is written by some sample card.
GROWN_FIELDS: dict[type[Record], tuple[str, ...]] = {
    fx.Count: ("all", "at_least", "amount"),
    fx.Amount: ("times", "per", "round", "plus", "minus"),
    fx.OfPieces: ("where", "box", "status"),
    fx.OfMarkers: ("where",),
    fx.AdjacentTo: ("distance", "include_self"),
    fx.MarkersPresent: ("value",),
    fx.Where: ("bind",),
    fx.Place: ("relative", "limits"),
    fx.Remove: ("relative", "last", "bind", "taking"),
    fx.GoUnderground: ("taking",),
    fx.Replace: ("ratio", "by_relative"),
    fx.Shift: ("toward", "either"),
    fx.Adjust: ("amount", "bind"),
    fx.SetTrack: ("mode",),
    fx.Eligibility: ("through_next_card",),
    fx.Marker: ("action", "source", "destination"),
    fx.Procedure: ("factions", "pieces", "where", "to", "note"),
    fx.CardAction: ("count", "faction", "side"),
    fx.BattleModifier: ("loss_level", "force_level"),
    fx.FreeAction: ("origin", "as_faction", "with_special", "times", "count", "no_activation",
                    "hits", "force_level", "pieces", "remove_per_space", "remove_pieces", "note"),
    fx.LastingRule: ("faction", "action", "max_spaces", "pieces", "effects", "at",
                     "condition", "card", "modelled"),
    fx.SetLasting: ("duration", "rules"),
    fx.Side: ("flavour",),
}  # fmt: skip
GROWN = [(model, name) for model, names in GROWN_FIELDS.items() for name in names]


@pytest.mark.parametrize(("model", "field"), GROWN, ids=lambda x: getattr(x, "__name__", x))
def test_every_field_the_language_grew_is_written_by_a_sample_card(
    model: type[Record], field: str
) -> None:
    written = (
        isinstance(node, model) and field in _written(node)
        for game in GAMES
        for node in _nodes(_deck(game))
    )
    assert any(written), f"no sample card writes {model.__name__}.{field}"


# ---------------------------------------------------------------------- names


@pytest.mark.parametrize("game", GAMES)
def test_every_space_and_map_term_is_on_the_map(game: str) -> None:
    board = _map(game)
    spaces = board["space"]
    known = {
        "space": {s["name"] for s in spaces} | {b["name"] for b in board.get("box", [])},
        "space type": {s["type"] for s in spaces},
        "country": {s["country"] for s in spaces if "country" in s},
        "terrain": {s["terrain"] for s in spaces if "terrain" in s},
    }
    used: dict[str, set[str]] = {key: set() for key in known}
    for node in _nodes(_deck(game)):
        if isinstance(node, fx.NamedSpaces):
            used["space"] |= set(node.names)
        elif isinstance(node, fx.TypeIs):
            used["space type"] |= set(node.types)
        elif isinstance(node, fx.CountryIs):
            used["country"] |= set(node.countries)
        elif isinstance(node, fx.TerrainIs):
            used["terrain"] |= set(node.terrains)
    for key, names in used.items():
        assert names <= known[key], f"{game}: unknown {key} {sorted(names - known[key])}"


def _problems(game: str) -> list[str]:
    """Every name of a piece, Faction, track, box, flag, Control, marker, leader or
    card list that the game lacks, and every piece asked of a box or status that the
    piece cannot be in."""
    data = _game(game)
    pieces = {piece["id"]: piece for piece in data["piece"]}
    factions = {faction["id"] for faction in data["faction"]}  # the deck holds ids once loaded
    tracks = {track["id"] for track in data["track"]}
    boxes = {box["id"]: box for box in data["box"]}
    flags = {flag["id"] for flag in data.get("flag", [])}
    controls = {control["id"] for control in data.get("control", [])} | {"none"}
    problems: list[str] = []

    def check(kind: str, names: Any, known: Any) -> None:
        problems.extend(f"unknown {kind} {name!r}" for name in names if name not in known)

    def in_box(box: str, names: tuple[str, ...]) -> None:
        allowed = boxes[box]["pieces"] if box in boxes else ()
        if allowed != "all":
            problems.extend(f"{name} is never in {box}" for name in names if name not in allowed)

    markers = {marker["id"] for marker in data.get("marker", [])}
    leaders = {leader["name"] for leader in data.get("leader", [])}
    lists = {card_list["id"] for card_list in data.get("card_list", [])}
    # who may act: a Faction, whoever executes the card, or a Faction picked earlier
    picked = {f"${n.bind}" for n in _nodes(_deck(game)) if isinstance(n, fx.ChooseFaction)}
    actors = factions | {"executing"} | picked

    for card in _deck(game).cards:
        check("Faction", card.factions, factions)
        check("Faction", card.marks, factions)
    for node in _nodes(_deck(game)):
        if getattr(node, "chooser", None) is not None:
            check("Faction", [node.chooser], actors)  # type: ignore[attr-defined]
        if isinstance(node, fx.Place | fx.Remove | fx.Replace | fx.MovePieces | fx.Activate
                      | fx.GoUnderground | fx.Tunnel | fx.Transfer | fx.PiecesPresent
                      | fx.OfPieces | fx.SubLimit):  # fmt: skip
            check("piece", node.pieces, pieces)
        if isinstance(node, fx.Place | fx.Remove | fx.Replace | fx.MovePieces | fx.Activate
                      | fx.GoUnderground | fx.Tunnel | fx.Transfer):  # fmt: skip
            problems.extend(f"{name} is not among {node.pieces}" for name in node.last
                            if name not in node.pieces)  # fmt: skip
        if isinstance(node, fx.Transfer):
            check("box", [node.source, node.destination], boxes)
            in_box(node.source, node.pieces)
            in_box(node.destination, node.pieces)
        if isinstance(node, fx.Eligibility):
            check("Faction", node.factions, factions | {"executing", "all"})
        if isinstance(node, fx.ChooseFaction | fx.Procedure):
            check("Faction", node.factions, factions)
        if isinstance(node, fx.OfVictory | fx.LastingRule | fx.CardAction) and node.faction:
            check("Faction", [node.faction], factions)
        if isinstance(node, fx.FreeAction) and node.as_faction is not None:
            check("Faction", [node.as_faction], factions)
        if isinstance(node, fx.SetTrack | fx.OfTrack):
            check("track", [node.track], tracks)
        if isinstance(node, fx.Marker | fx.MarkersPresent | fx.OfMarkers):
            check("marker", [node.marker], markers)
        if isinstance(node, fx.PlaceLeader):
            check("leader", [node.leader], leaders)
        if isinstance(node, fx.OfCards):
            check("card list", [node.list], lists)
        if isinstance(node, fx.Replace):
            check("piece", node.by, pieces)
            check("box", [node.source], boxes)
            in_box(node.source, node.by)
        if isinstance(node, fx.Place):
            check("box", [node.source], boxes)
            in_box(node.source, node.pieces)
            if node.status is not None:
                problems.extend(
                    f"{name} is never {node.status}"
                    for name in node.pieces
                    if node.status not in pieces.get(name, {}).get("statuses", ())
                )
        if isinstance(node, fx.Remove):
            if node.destination is not None:
                check("box", [node.destination], boxes)
                in_box(node.destination, node.pieces)
            if node.tunneled and not any(
                "tunneled" in pieces.get(name, {}).get("statuses", ()) for name in node.pieces
            ):
                problems.append(f"none of {node.pieces} can be Tunneled")
        if (
            isinstance(node, fx.PiecesPresent)
            and node.status is not None
            and not any(
                node.status in pieces.get(name, {}).get("statuses", ()) for name in node.pieces
            )
        ):
            problems.append(f"none of {node.pieces} can be {node.status}")
        if isinstance(node, fx.Adjust | fx.TrackCompare):
            check("track", [node.track], tracks)
        if isinstance(node, fx.FreeAction):
            check("Faction", [node.faction], actors)
        if isinstance(node, fx.ExecutingFaction):
            check("Faction", node.factions, factions)
        if isinstance(node, fx.FlagSet):
            check("flag", [node.flag], flags)
        if isinstance(node, fx.SetLasting) and node.kind == "flag":
            check("flag", [node.name], flags)
        if isinstance(node, fx.ControlIs):
            check("Control", [node.control], controls)
    return problems


@pytest.mark.parametrize("game", GAMES)
def test_every_piece_faction_track_and_box_is_in_the_game_file(game: str) -> None:
    assert _problems(game) == []


# ---------------------------------------------------------------------- lasting effects


@pytest.mark.parametrize("game", GAMES)
def test_capability_and_momentum_sides_carry_their_lasting_effect(game: str) -> None:
    factions = {faction["name"] for faction in _game(game)["faction"]}
    in_force: set[tuple[str, str | None]] = set()
    for card in _deck(game).cards:
        for name, side in _sides(card):
            lasting = [n for n in _nodes(side) if isinstance(n, fx.SetLasting)]
            capabilities = [n for n in lasting if n.kind == "capability"]
            momentum = [n for n in lasting if n.kind == "momentum"]
            where = f"{game} card {card.number} {name}"
            if side.lasting == "capability":
                # 5.3: a dual-use card, the marker on the side executed, for the rest of the game
                assert card.dual_use, where
                assert capabilities and all(
                    n.name == card.title and n.side == name for n in capabilities
                ), where
                faction = re.match(r"(\S+) CAPABILITY: ", side.text)
                assert faction and faction.group(1) in factions, where
            else:
                assert not capabilities, where
            if side.lasting == "momentum":
                assert momentum and all(n.name == card.title for n in momentum), where
                assert game != "fitl" or "MOMENTUM: " in side.text, where
            else:
                assert not momentum, where
            in_force |= {(n.name, n.side) for n in capabilities + momentum}
            in_force |= {(n.name, None) for n in capabilities + momentum}
    for node in _nodes(_deck(game)):
        if isinstance(node, fx.LastingInForce):
            assert (node.name, node.side) in in_force, f"{game}: nothing puts {node} in force"


@pytest.mark.parametrize("game", GAMES)
def test_brilliant_strokes_and_pivotal_events_state_their_precondition(game: str) -> None:
    # 5.1.4: LoD has Brilliant Strokes, FitL Pivotal Events; a precondition for play is
    # printed first and written as the card's leading `if`
    special = {"lod": "brilliant_stroke", "fitl": "pivotal"}[game]
    cards = [card for card in _deck(game).cards if card.kind not in ("event", "winter_quarters")]
    assert cards and all(card.kind == special for card in cards)
    for card in cards:
        assert not card.dual_use and card.unshaded is not None
        if card.unshaded.text.startswith("Play only if"):
            assert isinstance(card.unshaded.effects[0], fx.When)


# ---------------------------------------------------------------------- clauses of section 5


def _placed(node: Record) -> tuple[str, ...]:
    """The piece types an effect puts into a space."""
    if isinstance(node, fx.Place | fx.MovePieces):
        return node.pieces
    if isinstance(node, fx.Replace):
        return node.by
    return ()


def _target(node: Record) -> Any:
    return node.to.filter if isinstance(node, fx.MovePieces) else node.where.filter  # type: ignore[attr-defined]


def _mentioned(flt: Any) -> set[str]:
    """The spaces and countries a filter names."""
    out: set[str] = set()
    for node in _nodes(flt):
        if isinstance(node, fx.NamedSpaces):
            out |= set(node.names)
        elif isinstance(node, fx.CountryIs):
            out |= set(node.countries)
    return out


def _restricted(game: str, **match: str) -> set[str]:
    """The pieces of the game's placement restrictions matching ``match`` (a key whose
    value is a list must contain the wanted value)."""

    def matches(value: Any, want: str) -> bool:
        return want in value if isinstance(value, list) else value == want

    out: set[str] = set()
    for rule in _game(game).get("restriction", []):
        if all(matches(rule.get(key), want) for key, want in match.items()):
            out |= set(rule["pieces"])
    return out


Predicate = Callable[[Card, str], bool]


def _any(kind: type[Record] | tuple[type[Record], ...],
         test: Callable[[Any], bool] = lambda _: True) -> Predicate:  # fmt: skip
    return lambda card, _game: any(isinstance(n, kind) and test(n) for n in _nodes(card))


def _chooses(card: Card, game: str) -> bool:
    return any(getattr(node, "chooser", None) is not None for node in _nodes(card))


def _stacking(card: Card, game: str) -> bool:
    stacked = {piece["id"] for piece in _game(game)["piece"] if piece.get("stacking")}
    return any(set(_placed(node)) & stacked for node in _nodes(card))


def _before_toa(card: Card, game: str) -> bool:
    french = _restricted(game, unless_flag="toa_played")
    boxes = {box["name"] for box in _map(game).get("box", [])}

    def onto_the_map(node: Record) -> bool:
        named = _mentioned(_target(node))
        return not named or not named <= boxes

    return any(set(_placed(node)) & french and onto_the_map(node) for node in _nodes(card))


def _north_vietnam(card: Card, game: str) -> bool:
    coin = _restricted(game, countries="North Vietnam")
    return any(
        set(_placed(node)) & coin and "North Vietnam" in _mentioned(_target(node))
        for node in _nodes(card)
    )


def _frees(card: Card) -> set[tuple[str, str]]:
    return {(n.faction, n.action) for n in _nodes(card) if isinstance(n, fx.FreeAction)}


def _forbids(text: str, faction: str, action: str) -> bool:
    # ``faction`` is an id ("british"); the printed text names it ("British")
    words = re.escape(action.replace("_", " "))
    who = re.escape(faction)
    return bool(re.search(rf"\b(?i:{who})\b[^.]*\bmay not\b[^.]*\b(?i:{words})\b", text))


def _contradicts(card: Card, game: str) -> bool:
    """5.1.2: the card grants a free action that a lasting side of another card
    forbids, or the card is such a lasting side."""
    others = [other for other in _deck(game).cards if other.number != card.number]

    def lasting_texts(of: Card) -> list[str]:
        return [side.text for _, side in _sides(of) if side.lasting]

    granted = [(text, *free) for o in others for text in lasting_texts(o) for free in _frees(card)]
    imposed = [(text, *free) for text in lasting_texts(card) for o in others for free in _frees(o)]
    return any(_forbids(*case) for case in granted + imposed)


def _partial(card: Card, game: str) -> bool:
    """5.1.3: an exact number of pieces (2 or more) or of spaces (2 or more), which the
    state often cannot meet in full."""
    return any(
        (isinstance(n, fx.Count) and not n.up_to and n.n >= 2)
        or (isinstance(n, fx.Where) and not n.up_to and (n.spaces or 0) >= 2)
        for n in _nodes(card)
    )


def _from(box: str) -> Predicate:
    return _any(fx.Place, lambda n: n.source == box)


def _side_lasting(kind: str) -> Predicate:
    return lambda card, _game: any(side.lasting == kind for _, side in _sides(card))


PAYING = {"pacify", "improve_trail", "agitate"}  # FitL 5.5: these cost Resources even when free

SHARED: dict[str, Predicate] = {
    "5.1": _chooses,
    "5.1.1 stacking": _stacking,
    "5.1.1 casualties": _from("casualties"),
    "5.1.1 replace": _any(fx.Replace),
    "5.1.1 resources": _any(fx.Adjust, lambda n: n.delta > 0),
    "5.1.2": _contradicts,
    "5.1.3": _partial,
    "5.1.4": lambda card, _game: card.kind in ("brilliant_stroke", "pivotal"),
    "5.2": lambda card, _game: card.dual_use,
}
CLAUSES: dict[str, dict[str, Predicate]] = {
    "lod": {
        **SHARED,
        "5.1.1 unavailable": _from("unavailable"),
        "5.1.1 west indies": _from("west_indies"),
        "5.1.1 toa": _before_toa,
        "5.3": _any(fx.FreeAction),
        "5.3 limited": _any(fx.FreeAction, lambda n: n.limited),
    },
    "fitl": {
        **SHARED,
        "5.1.1 out of play": _from("out_of_play"),
        "5.1.1 north vietnam": _north_vietnam,
        "5.1.1 tunneled": _any(fx.Remove, lambda n: n.tunneled),
        "5.3": _side_lasting("capability"),
        "5.4": _side_lasting("momentum"),
        "5.5": _any(fx.FreeAction),
        "5.5 limited": _any(fx.FreeAction, lambda n: n.limited),
        "5.5 pays": _any(fx.FreeAction, lambda n: n.action in PAYING),
    },
}
# Clauses a card declares exactly when it has the property: no dual-use card hides
EXACT = {"5.2", "5.1.4", "5.3", "5.4"}


def card_comments(game: str, pattern: str) -> dict[int, tuple[str, ...]]:
    """For each card number, the items (split at semicolons) of the comment line
    matching ``pattern`` in the comment lines right above its ``[[card]]``: the
    clauses of section 5 (``# 5.2; 5.1.3``) or the sentence forms (``# forms: ...``)."""
    text = _package_file(game, "decks/sample.toml")
    assert text is not None
    lines = text.splitlines()
    out: dict[int, tuple[str, ...]] = {}
    for index, line in enumerate(lines):
        if line.strip() != "[[card]]":
            continue
        number = next(int(m.group(1)) for rest in lines[index + 1:]
                      if (m := re.fullmatch(r"number\s*=\s*(\d+)", rest.strip())))  # fmt: skip
        out[number] = ()
        above = index - 1
        while above >= 0 and lines[above].startswith("#"):
            comment = re.fullmatch(pattern, lines[above].strip())
            if comment:
                out[number] = tuple(c.strip() for c in comment.group(1).split(";"))
            above -= 1
    return out


def _declared(game: str) -> dict[int, tuple[str, ...]]:
    """The clauses named by the comment line above each ``[[card]]``."""
    return card_comments(game, r"#\s*(5\..*)")


@pytest.mark.parametrize("game", GAMES)
def test_every_card_exercises_the_clauses_it_declares(game: str) -> None:
    declared = _declared(game)
    cards = {card.number: card for card in _deck(game).cards}
    assert set(declared) == set(cards)
    failures = []
    for number, card in cards.items():
        clauses = declared[number]
        if not clauses:
            failures.append(f"card {number} declares no clause")
        for clause in clauses:
            holds = CLAUSES[game].get(clause)
            if holds is None:
                failures.append(f"card {number}: unknown clause {clause!r}")
            elif not holds(card, game):
                failures.append(f"card {number} does not exercise {clause}")
        for clause in EXACT & set(CLAUSES[game]) - set(clauses):
            if CLAUSES[game][clause](card, game):
                failures.append(f"card {number} exercises {clause} without declaring it")
    assert failures == []


@pytest.mark.parametrize("game", GAMES)
def test_every_clause_of_section_5_is_exercised(game: str) -> None:
    declared = {clause for clauses in _declared(game).values() for clause in clauses}
    assert sorted(set(CLAUSES[game]) - declared) == []


# ---------------------------------------------------------------------- Faction names


def test_faction_names_become_ids_once_when_a_deck_is_loaded() -> None:
    # a card names its Factions as printed ("British") or by id ("indians"); the
    # loaded deck holds ids everywhere, effects and conditions included
    raw = {
        "game": "lod",
        "card": [
            {
                "number": 1,
                "title": "Muster Roll",
                "factions": ["British", "indians", "French", "Patriots"],
                "marks": {"British": "musket"},
                "instructions": {
                    "British": {"effective_if": {"if": "executing", "factions": ["British"]}}
                },
                "unshaded": {
                    "effects": [
                        {"op": "free", "faction": "Indians", "action": "gather"},
                        {"op": "place", "pieces": ["tory"], "chooser": "British"},
                    ]
                },
            }
        ],
    }
    card = deck_from_toml(raw).card(1)
    assert card.factions == ("british", "indians", "french", "patriots")
    assert card.marks == {"british": "musket"}
    assert set(card.instructions) == {"british"}
    condition = card.instructions["british"].effective_if
    assert isinstance(condition, fx.ExecutingFaction) and condition.factions == ("british",)
    free, place = card.side("unshaded").effects
    assert isinstance(free, fx.FreeAction) and free.faction == "indians"
    assert isinstance(place, fx.Place) and place.chooser == "british"
    assert raw["card"][0]["factions"][0] == "British"  # the input is not changed


@pytest.mark.parametrize(
    ("field", "value", "toml", "path"),
    [
        ("factions", ["British", "Nobody"], 'factions = ["British", "Nobody"]',
         "deck.card[0].factions[1]"),
        ("marks", {"Nobody": "sword"}, 'marks = { Nobody = "sword" }', "deck.card[0].marks.Nobody"),
        ("instructions", {"Nobody": {"text": "x"}}, 'instructions.Nobody = { text = "x" }',
         "deck.card[0].instructions.Nobody"),
    ],
)  # fmt: skip
def test_a_card_naming_a_faction_the_game_lacks_is_refused(
    field: str,
    value: Any,
    toml: str,
    path: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    raw = {"number": 1, "title": "Stray", "factions": ["British"], "unshaded": {"text": "x"}}
    with pytest.raises(InputError) as refused:
        deck_from_toml({"game": "lod", "card": [raw | {field: value}]})
    assert refused.value.path == path
    assert refused.value.allowed == ["British", "Patriots", "French", "Indians"]
    # `legalis verify` on such a deck file: exit 2, one line naming the file and field
    deck = tmp_path / "deck.toml"
    order = "" if field == "factions" else 'factions = ["British"]\n'
    deck.write_text(f'game = "lod"\n[[card]]\nnumber = 1\ntitle = "Stray"\n{order}{toml}\n'
                    '[card.unshaded]\ntext = "British Resources +1."\n')  # fmt: skip
    with pytest.raises(SystemExit) as done:
        cli.main(["verify", "lod", str(deck)])
    err = capsys.readouterr().err
    assert done.value.code == 2
    assert f"{deck}:{path}: unknown Faction 'Nobody'" in err
    assert len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------------- Winter Quarters cards


def _leaves_a_decision(node: Record) -> bool:
    """A choice the Event leaves open: a chooser, effects to pick from, an "up to"
    count, or a number of spaces picked among the candidates."""
    return (
        getattr(node, "chooser", None) is not None
        or isinstance(node, fx.Choose)
        or (isinstance(node, fx.Count) and node.up_to)
        or (isinstance(node, fx.Where) and node.spaces is not None)
    )


def test_the_lod_sample_deck_has_eight_winter_quarters_cards_each_with_its_event() -> None:
    # 2.1: eight Winter Quarters cards beside the Event cards; 6.0: each has an Event,
    # taking effect at the end of the Reset Phase (6.7): one printed side
    deck = _deck("lod")
    winter = deck.winter_cards()
    assert [card.number for card in winter] == list(range(201, 209))
    assert {card.number for card in winter}.isdisjoint(c.number for c in deck.event_cards())
    for card in winter:
        assert card.kind == "winter_quarters" and card.shaded is None, card.number
        assert card.unshaded is not None and card.unshaded.text and card.unshaded.effects
        assert not card.marks and not card.instructions  # no Faction plays or skips it (8.1)
    deciding = [card for card in winter if any(map(_leaves_a_decision, _nodes(card)))]
    assert 2 <= len(deciding) < len(winter) // 2  # mostly Events without a choice
    # both readings of who decides are exercised: the card's own Faction, the card on deck
    assert any(card.factions for card in deciding)
    assert any(not card.factions for card in deciding)


WINTER_TOML = """game = "lod"
[[card]]
number = 201
title = "Thaw on the Lakes"
kind = "winter_quarters"

[card.unshaded]
text = "Indian Resources +2."
effects = [{ op = "adjust", track = "indians_resources", delta = 2 }]
"""


def test_a_winter_quarters_card_round_trips_through_toml_and_json() -> None:
    deck = deck_from_toml(tomllib.loads(WINTER_TOML))
    (card,) = deck.winter_cards()
    assert (card.kind, card.factions, card.shaded) == ("winter_quarters", (), None)
    assert deck.event_cards() == ()  # never dealt as an Event card (2.1)
    again = Deck.model_validate(json.loads(json.dumps(deck.model_dump(mode="json", by_alias=True))))
    assert again == deck and again.card(201).kind == "winter_quarters"
    side = card.side("unshaded")
    assert fx.side_from_toml(fx.side_to_toml(side)) == side
    # the published JSON Schema takes the card as the loader does
    assert jsonschema.Draft202012Validator(deck_json_schema()).is_valid(tomllib.loads(WINTER_TOML))


@pytest.mark.parametrize(
    ("card", "path", "words"),
    [
        ({"kind": "winter_quarters", "unshaded": {"text": "x"}, "shaded": {"text": "y"}},
         "deck.card[0].shaded", "a Winter Quarters card prints one side, unshaded"),
        ({"kind": "winter_quarters", "shaded": {"text": "y"}},
         "deck.card[0].shaded", "a Winter Quarters card prints one side, unshaded"),
        ({"unshaded": {"text": "x"}}, "deck.card[0].factions", "needs its Faction order"),
        ({"kind": "brilliant_stroke", "factions": [], "unshaded": {"text": "x"}},
         "deck.card[0].factions", "needs its Faction order"),
    ],
    ids=["winter-two-sides", "winter-shaded-only", "event-no-order", "stroke-empty-order"],
)  # fmt: skip
def test_a_winter_card_with_two_sides_or_an_event_card_with_no_order_is_refused(
    card: dict[str, Any], path: str, words: str
) -> None:
    raw = {"game": "lod", "card": [{"number": 1, "title": "Thaw"} | card]}
    with pytest.raises(InputError) as refused:
        deck_from_toml(raw)
    assert refused.value.path == path and words in str(refused.value)
    assert not jsonschema.Draft202012Validator(deck_json_schema()).is_valid(raw)


def test_legalis_verify_names_the_second_side_of_a_winter_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text(WINTER_TOML + '[card.shaded]\ntext = "British Resources +1."\n')
    with pytest.raises(SystemExit) as done:
        cli.main(["verify", "lod", str(deck)])
    err = capsys.readouterr().err
    assert done.value.code == 2
    assert f"{deck}:deck.card[0].shaded: " in err and "one side, unshaded" in err
    assert len(err.strip().splitlines()) == 1


def test_the_cli_lists_a_winter_quarters_events_choices_and_takes_no_turn_on_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from legalis.model.coin.scenarios import load_scenario
    from legalis.solver.events import legal_event_moves

    def run(*extra: str, command: str = "moves") -> tuple[int, str, str]:
        args = [command, "--game", "lod", "--scenario", "1776", "--card", "206", *extra]
        with pytest.raises(SystemExit) as done:
            cli.main(args)
        captured = capsys.readouterr()
        return int(done.value.code or 0), captured.out, captured.err

    # 2.3.7: the card starts a Winter Quarters Round, no Faction's turn
    code, _, err = run("--faction", "british", command="bot")
    assert code == 2 and "--card: card 206 is a Winter Quarters card" in err
    # the card lists no Faction order: every Faction is offered as the one deciding
    code, _, err = run()
    assert code == 2 and "(allowed: british, patriots, french, indians)" in err
    code, out, _ = run("--faction", "british", "--json")
    # "The British may place up to three Tories in Norfolk or Charles Town": 0 to 3
    # Tories in one of two Cities, each a separate execution
    view = legal_event_moves(load_scenario("lod", "1776"), _deck("lod").card(206), "unshaded",
                             "british")  # fmt: skip
    assert code == 0 and json.loads(out)["count"] == view.count() > 1
