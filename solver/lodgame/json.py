"""A whole LoD game's state as JSON, and back: the board (a COIN state), the deck,
the card played and the one on deck, eligibility, the action under way and the
Winter Quarters Round's progress. Every field is checked on the way in; a bad one
is an :class:`InputError` naming its path.

>>> from legalis.solver.lodgame.game import LodGame
>>> game = LodGame()
>>> state = game.new_initial_state()
>>> game.state_from_json(state.to_json()) == state
True
"""

from __future__ import annotations

from typing import Any

from legalis.model.coin.state import state_from_json as coin_from_json
from legalis.model.errors import InputError, reading
from legalis.solver.lodgame.moves import _decode, _encode
from legalis.solver.lodgame.rules import FACTIONS, LodRules
from legalis.solver.lodgame.state import WINTER_PHASES, Action, LodState, Winter

__all__ = ["STAGES", "state_from_json", "state_to_json"]

STAGES = ("prepare", "roll", "window", "choose", "action", "winter", "over")
WINTER_STEPS = ("supply", "support", "redeploy", "naval", "desertion", "event")


def state_to_json(state: LodState) -> dict[str, Any]:
    card, upcoming = state.card, state.next_card
    return {
        "game": "lod",
        "options": state.rules.options.to_json(),
        "to_move": state.to_move,
        "stage": state.stage,
        "card": state.card_number,
        "card_title": card.title if card is not None else None,
        "on_deck": state.on_deck,
        "on_deck_title": upcoming.title if upcoming is not None else None,
        "deck": list(state.deck),
        "winters": state.winters,
        "dice_seed": state.dice_seed,
        "dice_drawn": state.dice_drawn,
        "first_did": state.first_did,
        "acted": list(state.acted),
        "to_ask": list(state.to_ask),
        "window": list(state.window),
        "stroke": list(state.stroke) if state.stroke is not None else None,
        "stroke_played": state.stroke_played,
        "action": _encode(state.action) if state.action is not None else None,
        "winter": _winter_json(state.winter),
        "result": state.result,
        "board": state.coin.to_json(),
    }


def _winter_json(winter: Winter | None) -> dict[str, Any] | None:
    if winter is None:
        return None
    return {"phase": winter.phase, "due": [list(item) for item in winter.due],
            "number": winter.number, "year": winter.year, "final": winter.final}  # fmt: skip


def _get(raw: dict[str, Any], name: str, kind: type | tuple[type, ...], path: str) -> Any:
    value = raw.get(name)
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in kinds):
        raise InputError(f"expected {_kind_name(kind)}, got {value!r}", path=f"{path}.{name}")
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {int: "a whole number", str: "a string", list: "a list", dict: "an object",
             bool: "true or false", type(None): "null"}  # fmt: skip
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _factions(raw: dict[str, Any], name: str, path: str) -> tuple[str, ...]:
    values = _get(raw, name, list, path)
    for index, value in enumerate(values):
        if value not in FACTIONS:
            raise InputError(f"unknown Faction {value!r}", path=f"{path}.{name}[{index}]",
                             allowed=FACTIONS)  # fmt: skip
    return tuple(values)


def _card(rules: LodRules, raw: dict[str, Any], name: str, path: str) -> int | None:
    value = _get(raw, name, (int, type(None)), path)
    if value is not None and value not in rules.cards:
        raise InputError(f"no card {value} in this game's deck", path=f"{path}.{name}")
    return value  # type: ignore[no-any-return]


def state_from_json(raw: Any, rules: LodRules, *, source: str | None = None) -> LodState:
    """The state written by :func:`state_to_json` under ``rules``."""
    path = "state"
    with reading(source):
        return _read(raw, rules, path)


def _read(raw: Any, rules: LodRules, path: str) -> LodState:
    if not isinstance(raw, dict):
        raise InputError("expected an object", path=path)
    if raw.get("game") != "lod":
        raise InputError(f"not a LoD game state (game {raw.get('game')!r})", path=f"{path}.game",
                         allowed=["lod"])  # fmt: skip
    stage = _get(raw, "stage", str, path)
    if stage not in STAGES:
        raise InputError(f"unknown stage {stage!r}", path=f"{path}.stage", allowed=STAGES)
    deck = _get(raw, "deck", list, path)
    for index, number in enumerate(deck):
        if type(number) is not int or number not in rules.cards:
            raise InputError(f"no card {number!r} in this game's deck",
                             path=f"{path}.deck[{index}]")  # fmt: skip
    stroke = raw.get("stroke")
    if stroke is not None and (not isinstance(stroke, list) or len(stroke) != 2
                               or stroke[0] not in FACTIONS):  # fmt: skip
        raise InputError("expected [Faction, card name] or null", path=f"{path}.stroke")
    first_did = raw.get("first_did")
    if first_did not in (None, "command", "command_sa", "event"):
        raise InputError(f"unknown first action {first_did!r}", path=f"{path}.first_did",
                         allowed=["command", "command_sa", "event"])  # fmt: skip
    action = raw.get("action")
    result = raw.get("result")
    if result is not None and not isinstance(result, dict):
        raise InputError("expected an object or null", path=f"{path}.result")
    state = LodState(
        rules=rules,
        coin=_board(raw.get("board"), f"{path}.board"),
        stage=stage,
        deck=tuple(deck),
        card_number=_card(rules, raw, "card", path),
        on_deck=_card(rules, raw, "on_deck", path),
        winters=_get(raw, "winters", int, path),
        dice_seed=_get(raw, "dice_seed", int, path),
        dice_drawn=_get(raw, "dice_drawn", int, path),
        first_did=first_did,
        acted=_factions(raw, "acted", path),
        to_ask=_factions(raw, "to_ask", path),
        window=_factions(raw, "window", path),
        stroke=(stroke[0], str(stroke[1])) if stroke is not None else None,
        stroke_played=_get(raw, "stroke_played", bool, path),
        action=None if action is None else _decode(Action, action, f"{path}.action"),
        winter=_read_winter(raw.get("winter"), f"{path}.winter"),
        result=result,
    )
    problems = state.invariant_problems()
    if problems:
        raise InputError(problems[0], path=path)
    return state


def _board(raw: Any, path: str) -> Any:
    try:
        return coin_from_json(raw, "lod")
    except InputError as error:
        inner = f"{path}.{error.path}" if error.path else path
        raise InputError(error.message, path=inner, allowed=error.allowed) from error


def _read_winter(raw: Any, path: str) -> Winter | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise InputError("expected an object or null", path=path)
    phase = _get(raw, "phase", str, path)
    if phase not in (*WINTER_PHASES, "start"):
        raise InputError(f"unknown phase {phase!r}", path=f"{path}.phase", allowed=WINTER_PHASES)
    due = []
    for index, item in enumerate(_get(raw, "due", list, path)):
        where = f"{path}.due[{index}]"
        if not isinstance(item, list) or len(item) < 2 or item[0] not in WINTER_STEPS:
            raise InputError("expected [step, Faction, ...]", path=where, allowed=WINTER_STEPS)
        if item[1] not in FACTIONS:
            raise InputError(f"unknown Faction {item[1]!r}", path=where, allowed=FACTIONS)
        if not all(isinstance(part, str | int) and not isinstance(part, bool) for part in item):
            raise InputError("expected names and numbers", path=where)
        due.append(tuple(item))
    return Winter(phase, tuple(due), _get(raw, "number", int, path), _get(raw, "year", int, path),
                  _get(raw, "final", bool, path))  # fmt: skip
