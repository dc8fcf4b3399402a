"""Resolving an EU:PoP Event, the parts without views: effects, conditions, symbols."""

from __future__ import annotations

import random
from typing import Any

import pytest
from legalis.model.errors import InputError
from legalis.model.eupop.events import (
    EFFECT_OPS,
    ChooseAB,
    Condition,
    GainGOp,
    Merchant,
    Symbol,
    effect_ops,
    effects_from_data,
    load_catalogue,
)
from legalis.model.eupop.play import (
    condition_holds,
    log_json,
    require_active,
    resolve_card_symbols,
)
from legalis.model.eupop.resolution import ResolutionLog
from legalis.model.eupop.state import EuState, state_from_json

MAP = {
    "area": [
        {"id": "a", "provinces": ["A1"], "borders": ["b"]},
        {"id": "b", "provinces": ["B1"], "borders": ["a"]},
    ],
    "sea": [],
}


def state(**extra: Any) -> EuState:
    raw: dict[str, Any] = {
        "players": ["france", "england"],
        "active": "france",
        "realms": {
            "france": {"kind": "player", "merchants": 1},
            "england": {"kind": "player", "at_war": True},
        },
        "provinces": {"A1": {"owner": "france"}},
        "map": MAP,
    }
    raw.update(extra)
    return state_from_json(raw)


def test_every_op_is_used_by_the_catalogue() -> None:
    used: set[str] = set()
    for event in load_catalogue().events.values():
        used |= effect_ops(event.effects)
    assert used == set(EFFECT_OPS)


def test_effects_parse_nested() -> None:
    parsed = effects_from_data([{"op": "choose_ab", "a": [{"op": "merchant"}],
                                 "b": [{"op": "g", "areas": ["a"]}]}])  # fmt: skip
    assert parsed == (ChooseAB((Merchant(),), (GainGOp(("a",)),)),)


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ([{"op": "fly"}], "effects[0].op"),
        ([{"op": "influence", "amount": 0, "areas": ["a"]}], "effects[0].amount"),
        ([{"op": "g", "areas": []}], "effects[0].areas"),
        ([{"op": "g", "areas": ["a"], "extra": 1}], "effects[0].extra"),
        ([{"op": "if", "condition": {"rich": True}, "effects": []}], "effects[0].condition"),
        ([{"op": "each_player", "effects": [{"op": "each_player", "effects": []}]}],
         "effects[0].effects[0]"),
        ([{"op": "choose_ab", "a": [], "b": [{"op": "each_player", "effects": []}]}],
         "effects[0].b[0]"),
    ],
)  # fmt: skip
def test_bad_effects_name_their_path(data: object, path: str) -> None:
    with pytest.raises(InputError) as caught:
        effects_from_data(data)
    assert caught.value.path == path


def test_a_catalogue_with_bad_effects_names_the_event() -> None:
    from legalis.model.eupop.events import catalogue_from_data

    with pytest.raises(InputError) as caught:
        catalogue_from_data({"event": [{"id": "101B", "title": "T", "half": "1", "text": "x",
                                        "effects": [{"op": "units", "count": 1}]}]})  # fmt: skip
    assert caught.value.path == "event[0].effects[0].places"


def test_conditions_read_you() -> None:
    s = state()
    # 16.3: "Ignore any effects whose conditions are not met": the conditions themselves
    assert condition_holds(s, "france", Condition("at_peace", True))
    assert not condition_holds(s, "england", Condition("at_peace", True))
    assert condition_holds(s, "england", Condition("at_war", True))
    assert condition_holds(s, "france", Condition("active", True))
    assert condition_holds(s, "france", Condition("merchants_below", 2))
    assert not condition_holds(s, "france", Condition("merchants_below", 1))
    assert condition_holds(s, "france", Condition("owns", "A1"))
    assert not condition_holds(s, "england", Condition("owns", "A1"))


def test_a_picked_event_needs_an_active_player() -> None:
    with pytest.raises(InputError) as caught:
        require_active(state(active=None))
    assert caught.value.path == "active"


def test_symbols_left_to_right_auto() -> None:
    # 16.5 Pirates auto-resolution: the node with the most Merchants; 16.5 Cardinal Dies
    # auto-resolution: the rightmost C of the PR with the most C
    s = state(
        trade_nodes={"n1": {"merchants": {"france": 1}}, "n2": {"merchants": {"france": 2}}},
        curia=["roma", "england", "france", "england"],
    )
    log = ResolutionLog()
    new = resolve_card_symbols(s, [Symbol("pirates"), Symbol("cardinal_dies")], log=log,
                               rng=random.Random(0))  # fmt: skip
    assert new.trade_nodes["n2"].pirates == 1 and new.trade_nodes["n1"].pirates == 0
    assert new.curia == ["roma", "england", "france"]
    rules = [d.rule for d in log.decisions]
    assert rules[0] == "16.5 Pirates" and set(rules[1:]) == {"16.5 Cardinal Dies"}


def test_spread_chosen_by_the_active_player() -> None:
    # 16.5 Spread of Religious Ideas: a Q next to the Protestant cluster in a
    s = state(areas={"a": {"religion": "protestant"}})
    asked: list[str] = []

    def choose(rule: str, player: str, view: Any) -> Any:
        asked.append(f"{rule} {player}")
        return view.nth(0)

    log = ResolutionLog()
    new = resolve_card_symbols(s, [Symbol("spread_religion")], log=log, rng=random.Random(0),
                               choose=choose)  # fmt: skip
    assert new.areas["b"].token == "protestant"
    assert asked == ["16.5 Spread of Religious Ideas france"]
    assert log_json(log)[0]["chosen"] == {"token": "protestant", "area": "b", "take_from": None}
