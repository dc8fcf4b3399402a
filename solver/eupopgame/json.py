"""A whole EU:PoP game's state as JSON, and back: the options it belongs to, the
stage, the map, the deck, the display, the Event being resolved and the log. Every
field is checked on the way in; a bad one is an :class:`InputError` naming its path.

>>> from legalis.solver.eupopgame.game import EupopGame
>>> game = EupopGame()
>>> state = game.new_initial_state()
>>> game.state_from_json(state.to_json()) == state
True
"""

from __future__ import annotations

from typing import Any

from legalis.model.errors import InputError, reading
from legalis.model.eupop.deck import Display, DisplaySlot, EventDeck
from legalis.model.eupop.state import state_from_json as map_from_json
from legalis.solver.eupopgame.options import EupopOptions
from legalis.solver.eupopgame.state import (
    STAGES,
    CurrentEvent,
    EupopRules,
    EupopState,
    check_state,
)

__all__ = ["ENDS", "state_from_json", "state_to_json"]

ENDS = ("decks", "rounds")
_FIELDS = ("game", "options", "stage", "round", "end", "map", "deck", "display", "current", "log")


def state_to_json(state: EupopState) -> dict[str, Any]:
    """The state as JSON; :func:`state_from_json` reads it back exactly."""
    deck, current = state.deck, state.current
    return {
        "game": "eupop",
        "options": state.rules.options.to_json(),
        "stage": state.stage,
        "round": state.round,
        "end": state.end,
        "map": state.map.to_json(),
        "deck": None
        if deck is None
        else {"age": deck.age, "cards": list(deck.cards), "ages_left": list(deck.ages_left)},
        "display": state.display.to_json(),
        "current": None
        if current is None
        else {
            "event": current.event,
            "player": current.player,
            "slot": current.slot,
            "seed": current.seed,
            "choices": list(current.choices),
        },
        "log": list(state.log),
    }


def state_from_json(raw: Any, rules: EupopRules, *, source: str | None = None) -> EupopState:
    """The state written by :func:`state_to_json` for the game of ``rules``; a state
    of other options is refused (load the game with the state's options)."""
    with reading(source):
        return _read(raw, rules, "state")


def _get(raw: dict[str, Any], name: str, kind: type | tuple[type, ...], path: str) -> Any:
    value = raw.get(name)
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        names = {
            int: "a whole number",
            str: "a string",
            list: "a list",
            dict: "an object",
            type(None): "null",
        }
        wanted = " or ".join(names.get(k, k.__name__) for k in kinds)
        raise InputError(f"expected {wanted}, not {value!r}", path=f"{path}.{name}")
    return value


def _read(raw: Any, rules: EupopRules, path: str) -> EupopState:
    if not isinstance(raw, dict):
        raise InputError("expected an object", path=path)
    if raw.get("game") != "eupop":
        raise InputError(
            f"not an EU:PoP game state (game {raw.get('game')!r})",
            path=f"{path}.game",
            allowed=["eupop"],
        )
    unknown = sorted(set(raw) - set(_FIELDS))
    if unknown:
        raise InputError(
            f"unknown field {unknown[0]!r}", path=f"{path}.{unknown[0]}", allowed=_FIELDS
        )
    options = EupopOptions.from_json(_get(raw, "options", dict, path), path=f"{path}.options")
    if options != rules.options:
        raise InputError(
            "the state belongs to a game with other options: load the game "
            "with the state's options",
            path=f"{path}.options",
        )
    stage = _get(raw, "stage", str, path)
    if stage not in STAGES:
        raise InputError(f"unknown stage {stage!r}", path=f"{path}.stage", allowed=STAGES)
    end = _get(raw, "end", (str, type(None)), path)
    if end is not None and end not in ENDS:
        raise InputError(f"unknown end {end!r}", path=f"{path}.end", allowed=ENDS)
    round_ = _get(raw, "round", int, path)
    if round_ < 1:
        raise InputError("Rounds count from 1", path=f"{path}.round")
    log = _get(raw, "log", list, path)
    if not all(isinstance(line, str) for line in log):
        raise InputError("expected a list of lines", path=f"{path}.log")
    state = EupopState(
        rules,
        stage=stage,
        round=round_,
        map=_map(raw.get("map"), f"{path}.map"),
        deck=_deck(raw.get("deck"), rules, f"{path}.deck"),
        display=_display(_get(raw, "display", list, path), rules, f"{path}.display"),
        current=_current(raw.get("current"), rules, f"{path}.current"),
        log=list(log),
        end=end,
    )
    return check_state(state)


def _map(raw: Any, path: str) -> Any:
    try:
        return map_from_json(raw)
    except InputError as error:
        inner = f"{path}.{error.path}" if error.path else path
        raise InputError(error.message, path=inner, allowed=error.allowed) from error


def _event_ids(values: Any, rules: EupopRules, path: str) -> tuple[str, ...]:
    if not isinstance(values, list):
        raise InputError("expected a list of event ids", path=path)
    for index, value in enumerate(values):
        if not isinstance(value, str) or value not in rules.catalogue.events:
            raise InputError(f"unknown event {value!r}", path=f"{path}[{index}]")
    return tuple(values)


def _deck(raw: Any, rules: EupopRules, path: str) -> EventDeck | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) != {"age", "cards", "ages_left"}:
        raise InputError("expected an object with age, cards, ages_left, or null", path=path)
    age = _get(raw, "age", int, path)
    if age not in rules.ages:
        raise InputError(
            f"Age {age} is not in the scenario", path=f"{path}.age", allowed=rules.ages
        )
    left = _get(raw, "ages_left", list, path)
    if left != [a for a in rules.ages if a > age]:
        raise InputError(
            "the Ages after the current one, in order (16)",
            path=f"{path}.ages_left",
            allowed=[a for a in rules.ages if a > age],
        )
    return EventDeck(age, _event_ids(raw["cards"], rules, f"{path}.cards"), tuple(left))


def _display(raw: list[Any], rules: EupopRules, path: str) -> Display:
    slots = []
    for index, item in enumerate(raw):
        where = f"{path}[{index}]"
        if not isinstance(item, dict) or set(item) != {"event", "face_up", "taken_by"}:
            raise InputError("expected an object with event, face_up, taken_by", path=where)
        (event,) = _event_ids([item["event"]], rules, f"{where}.event")
        face_up = _get(item, "face_up", bool, where)
        taker = _get(item, "taken_by", (str, type(None)), where)
        if taker is not None and taker not in rules.players:
            raise InputError(
                f"unknown player {taker!r}", path=f"{where}.taken_by", allowed=rules.players
            )
        slots.append(DisplaySlot(event, face_up, taker))
    return Display(tuple(slots), rules.players)


def _current(raw: Any, rules: EupopRules, path: str) -> CurrentEvent | None:
    if raw is None:
        return None
    names = {"event", "player", "slot", "seed", "choices"}
    if not isinstance(raw, dict) or set(raw) != names:
        raise InputError(
            "expected an object with " + ", ".join(sorted(names)) + ", or null", path=path
        )
    (event,) = _event_ids([raw["event"]], rules, f"{path}.event")
    player = _get(raw, "player", str, path)
    if player not in rules.players:
        raise InputError(f"unknown player {player!r}", path=f"{path}.player", allowed=rules.players)
    choices = _get(raw, "choices", list, path)
    if not all(type(n) is int and n >= 1 for n in choices):
        raise InputError("expected choice numbers from 1", path=f"{path}.choices")
    return CurrentEvent(
        event,
        player,
        _get(raw, "slot", int, path),
        _get(raw, "seed", (int, type(None)), path),
        tuple(choices),
    )
