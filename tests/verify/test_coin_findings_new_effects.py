"""The verifier over the grown effect language: consistent cards using every new
effect give no error finding, and every new name-bearing field is name-checked."""

from __future__ import annotations

from typing import Any

import pytest
from legalis.model.coin.deck import deck_from_toml
from legalis.verify.coin_findings import check_deck

CITY_WITH_TORIES = {
    "is": "all",
    "filters": [{"is": "type", "types": ["City"]}, {"is": "pieces", "pieces": ["tory"]}],
}
THERE = {"filter": {"is": "bound", "name": "s1"}}
ROLL = {"quantity": {"of": "bound", "name": "r1"}}
LOD_SIDE: list[dict[str, Any]] = [
    {"op": "select", "bind": "s1", "where": {"filter": CITY_WITH_TORIES, "spaces": 1}},
    {"op": "remove", "pieces": ["tory"], "count": {"all": True}, "where": THERE, "bind": "n1"},
    {
        "op": "place",
        "pieces": ["militia"],
        "count": {"amount": {"quantity": {"of": "bound", "name": "n1"}}},
        "where": THERE,
    },
    {"op": "roll", "bind": "r1"},
    {"op": "adjust", "track": "executing_resources", "amount": ROLL},
    {"op": "choose_faction", "factions": ["French", "Indians"], "bind": "f1"},
    {"op": "free", "faction": "$f1", "action": "march", "as_faction": "executing"},
    {"op": "eligibility", "factions": ["$f1"], "to": "ineligible", "through_next_card": True},
    {"op": "eligibility", "factions": ["executing"], "to": "eligible"},
    {
        "op": "marker",
        "marker": "propaganda",
        "count": {"n": 2, "up_to": True},
        "where": {
            "filter": {
                "is": "adjacent",
                "distance": 2,
                "include_self": True,
                "filter": {"is": "bound", "name": "s1"},
            }
        },
    },
    {
        "op": "shift",
        "levels": 1,
        "toward": "neutral",
        "where": {"filter": {"is": "markers", "marker": "propaganda"}},
    },
    {
        "op": "leader",
        "leader": "Washington",
        "where": {"filter": {"is": "type", "types": ["Colony"]}},
    },
    {
        "op": "if",
        "condition": {
            "if": "compare",
            "left": {"quantity": {"of": "victory", "faction": "executing"}},
            "compare": ">",
            "right": 0,
        },
        "then": [
            {"op": "set_track", "track": "patriots_resources", "value": 5, "mode": "at_least"}
        ],
    },
    {"op": "procedure", "name": "desertion"},
    {
        "op": "at_phase",
        "phase": "winter_quarters",
        "effects": [{"op": "adjust", "track": "indians_resources", "delta": 4}],
    },
    {"op": "battle_modifier", "role": "defender", "loss_level": 1},
]
FITL_SIDE: list[dict[str, Any]] = [
    {
        "op": "tunnel",
        "pieces": ["vc_base", "nva_base"],
        "count": {"n": 2, "up_to": True},
        "where": {"filter": {"is": "country", "countries": ["Cambodia", "Laos"]}},
    },
    {
        "op": "transfer",
        "pieces": ["us_troop"],
        "count": {"n": 3, "up_to": True},
        "source": "casualties",
        "destination": "out_of_play",
    },
    {
        "op": "remove",
        "pieces": ["us_troop", "arvn_troop", "police"],
        "relative": "enemy",
        "count": {"n": 3, "up_to": True, "at_least": 1},
        "last": ["police"],
        "limits": [{"pieces": ["us_troop"], "at_most": 1}],
        "where": {"filter": {"is": "type", "types": ["Province"]}, "per_space": False},
    },
    {
        "op": "marker",
        "marker": "terror",
        "where": {"filter": {"is": "type", "types": ["City"]}, "spaces": 1},
    },
    {
        "op": "replace",
        "pieces": ["police"],
        "by": ["vc_guerrilla", "nva_guerrilla"],
        "by_relative": "own",
        "ratio": [1, 2],
        "where": {"filter": {"is": "type", "types": ["City"]}},
    },
    {
        "op": "shift",
        "levels": 1,
        "either": True,
        "where": {"filter": {"is": "named", "names": ["Saigon"]}},
    },
    {"op": "card", "action": "remove", "target": "Some Momentum"},
    {
        "op": "lasting",
        "kind": "momentum",
        "name": "Some Momentum",
        "duration": "until_coup",
        "rules": [
            {
                "text": "Each Coup: Aid +2.",
                "kind": "recurring",
                "at": "coup",
                "effects": [{"op": "adjust", "track": "aid", "delta": 2}],
            }
        ],
    },
]


def deck(game: str, effects: list[dict[str, Any]]) -> Any:
    factions = {
        "lod": ["Patriots", "British", "French", "Indians"],
        "fitl": ["VC", "NVA", "US", "ARVN"],
    }[game]
    raw = {
        "game": game,
        "card": [
            {
                "number": 3,
                "title": "Original",
                "factions": factions,
                "unshaded": {"effects": effects},
            }
        ],
    }
    return deck_from_toml(raw)


@pytest.mark.parametrize(("game", "effects"), [("lod", LOD_SIDE), ("fitl", FITL_SIDE)])
def test_a_consistent_card_of_new_effects_gives_no_error(
    game: str, effects: list[dict[str, Any]]
) -> None:
    found = check_deck(deck(game, effects), game)
    assert [f for f in found if f.severity == "error"] == []


@pytest.mark.parametrize(
    ("effect", "code", "bad"),
    [
        ({"op": "marker", "marker": "terorr"}, "name.unknown-term", "terorr"),
        ({"op": "leader", "leader": "Washingtn", "where": {}}, "name.unknown-term", "Washingtn"),
        (
            {"op": "eligibility", "factions": ["Patriot"], "to": "eligible"},
            "name.unknown-faction",
            "Patriot",
        ),
        (
            {"op": "choose_faction", "factions": ["Frnch"], "bind": "f1"},
            "name.unknown-faction",
            "Frnch",
        ),
        ({"op": "set_track", "track": "fnii", "value": 1}, "name.unknown-track", "fnii"),
        (
            {
                "op": "transfer",
                "pieces": ["tory"],
                "source": "casualty",
                "destination": "available",
            },
            "name.unknown-box",
            "casualty",
        ),
        ({"op": "remove", "pieces": ["tory"], "last": ["fortt"]}, "name.unknown-piece", "fortt"),
        (
            {
                "op": "adjust",
                "track": "fni",
                "amount": {"quantity": {"of": "markers", "marker": "raidd"}},
            },
            "name.unknown-term",
            "raidd",
        ),
        (
            {
                "op": "shift",
                "levels": 1,
                "where": {"filter": {"is": "markers", "marker": "propagnda"}},
            },
            "name.unknown-term",
            "propagnda",
        ),
        (
            {
                "op": "at_phase",
                "phase": "reset",
                "effects": [{"op": "place", "pieces": ["milita"]}],
            },
            "name.unknown-piece",
            "milita",
        ),
    ],
)
def test_new_name_bearing_fields_are_checked(effect: dict[str, Any], code: str, bad: str) -> None:
    found = check_deck(deck("lod", [effect]), "lod")
    assert any(f.code == code and f"{bad!r}" in f.message for f in found), [
        (f.code, f.message) for f in found
    ]


def test_a_faction_never_chosen_is_an_unknown_name() -> None:
    # "Select a Faction. That Faction removes ...": the chooser must be the one selected.
    effects = [
        {"op": "choose_faction", "factions": ["French", "Indians"], "bind": "f1"},
        {"op": "remove", "pieces": ["tory"], "chooser": "$f2"},
    ]
    found = check_deck(deck("lod", effects), "lod")
    (finding,) = [f for f in found if f.code == "name.unknown-faction"]
    assert "'$f2'" in finding.message and "'$f1'" in finding.message
    effects[1]["chooser"] = "$f1"
    assert [f for f in check_deck(deck("lod", effects), "lod") if f.severity == "error"] == []


def test_placing_active_then_removing_underground_pieces_is_no_contradiction() -> None:
    # 5.1: the removal takes only Underground Guerrillas, which the placement (Active)
    # never made; both can stand, so the side does not contradict itself.
    kontum = {"filter": {"is": "named", "names": ["Kontum"]}}
    place = {"op": "place", "pieces": ["vc_guerrilla"], "count": 2, "where": kontum}
    remove = {"op": "remove", "pieces": ["vc_guerrilla"], "where": kontum}

    def contradictions(placed: dict[str, Any], removed: dict[str, Any]) -> list[str]:
        deck = deck_from_toml({"game": "fitl", "card": [{
            "number": 7, "title": "Night Shift", "factions": ["VC", "NVA", "US", "ARVN"],
            "unshaded": {"effects": [placed, removed]}}]})  # fmt: skip
        return [f.code for f in check_deck(deck, "fitl") if f.code == "side.self-contradiction"]

    assert contradictions({**place, "status": "active"}, {**remove, "taking": "underground"}) == []
    assert contradictions({**place, "status": "active"}, {**remove, "taking": "active"}) != []
    assert contradictions(place, remove) != []
