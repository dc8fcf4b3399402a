"""The effect language of COIN event cards: every form reads, round-trips and fails clearly."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from legalis.model.coin.deck import deck_from_toml
from legalis.model.coin.effects import Side, side_from_toml, side_to_toml
from legalis.model.errors import InputError

COLONIES = {"is": "type", "types": ["Colony"]}
EVERY_FORM: list[dict[str, Any]] = [
    # "Place 2 Militia in each of up to 3 Colonies."
    {"op": "place", "pieces": ["militia"], "count": 2,
     "where": {"filter": COLONIES, "spaces": 3, "up_to": True}},
    # "Remove 1 Fort from a City with Rebellion Control."
    {"op": "remove", "pieces": ["patriot_fort"],
     "where": {"filter": {"is": "all", "filters": [{"is": "type", "types": ["City"]},
                                                   {"is": "control", "control": "rebellion"}]},
               "spaces": 1}},
    # "British may remove up to 4 Militia." (a total over the map)
    {"op": "remove", "pieces": ["militia"], "count": {"n": 4, "up_to": True},
     "where": {"per_space": False}, "chooser": "British"},
    {"op": "remove", "pieces": ["nva_base"], "tunneled": True, "destination": "available"},
    {"op": "replace", "pieces": ["tory"], "by": ["militia"], "count": 2,
     "where": {"filter": {"is": "adjacent", "filter": {"is": "named", "names": ["Boston"]}}}},
    {"op": "move", "pieces": ["continental"], "count": {"n": 3, "up_to": True},
     "where": {"filter": {"is": "named", "names": ["Philadelphia"]}},
     "to": {"filter": {"is": "adjacent", "filter": {"is": "named", "names": ["Philadelphia"]}},
            "spaces": 1}},
    {"op": "activate", "pieces": ["war_party"], "count": 2,
     "where": {"filter": {"is": "pieces", "pieces": ["war_party"], "status": "underground"}}},
    {"op": "underground", "pieces": ["vc_guerrilla"], "where": {"filter": {"is": "country",
                                                                         "countries": ["Laos"]}}},
    # "Shift 2 Cities 1 level toward Active Opposition."
    {"op": "shift", "levels": -1, "where": {"filter": {"is": "type", "types": ["City"]},
                                            "spaces": 2}},
    {"op": "set_support", "level": "neutral",
     "where": {"filter": {"is": "support", "levels": ["active_support"]}}},
    # "Patriots Resources +3."
    {"op": "adjust", "track": "resources.patriots", "delta": 3},
    # "Indians free Gather in 2 Provinces."
    {"op": "free", "faction": "Indians", "action": "gather",
     "where": {"filter": {"is": "type", "types": ["Colony", "Reserve"]}, "spaces": 2}},
    {"op": "free", "faction": "US", "action": "air_lift", "kind": "special_activity"},
    {"op": "lasting", "kind": "momentum", "name": "Until Winter Quarters"},
    {"op": "lasting", "kind": "capability", "name": "Cadres", "side": "shaded"},
    {"op": "lasting", "kind": "flag", "name": "toa_played"},
    # "If ToA played, ..."
    {"op": "if", "condition": {"if": "flag", "flag": "toa_played"},
     "then": [{"op": "adjust", "track": "fni", "delta": 1}],
     "otherwise": [{"op": "adjust", "track": "resources.french", "delta": 2}]},
    # "Patriots or French ..."
    {"op": "choose", "chooser": "Patriots",
     "options": [[{"op": "adjust", "track": "resources.patriots", "delta": 2}],
                 [{"op": "adjust", "track": "resources.french", "delta": 2}]]},
    {"op": "if", "condition": {"if": "all", "conditions": [
        {"if": "track", "track": "aid", "compare": ">", "value": 10},
        {"if": "not", "condition": {"if": "lasting", "name": "Cadres"}},
        {"if": "any", "conditions": [{"if": "executing", "factions": ["US"]},
                                     {"if": "spaces", "filter": {"is": "anywhere"}, "value": 2}]}]},
     "then": [{"op": "shift", "levels": 2, "where": {"filter": {"is": "population", "value": 2}}}]},
    {"op": "place", "pieces": ["us_troops"], "source": "out_of_play", "count": 2,
     "where": {"filter": {"is": "any", "filters": [{"is": "terrain", "terrains": ["Highland"]},
                                                   {"is": "not", "filter": {"is": "coastal"}}]}}},
]  # fmt: skip


@pytest.mark.parametrize("raw", EVERY_FORM, ids=lambda raw: str(raw["op"]))
def test_every_form_reads_and_round_trips(raw: dict[str, Any]) -> None:
    side = side_from_toml({"text": "t", "effects": [raw]})
    assert side_from_toml(side_to_toml(side)) == side
    assert side.effects[0].op == raw["op"]


def test_a_bare_count_means_exactly_that_many() -> None:
    side = side_from_toml({"effects": [EVERY_FORM[0]]})
    count = side.effects[0].count  # type: ignore[union-attr]
    assert count.n == 2 and count.up_to is False


@pytest.mark.parametrize(
    ("raw", "path"),
    [
        ({"op": "place", "pieces": ["militia"], "count": -1}, "side.effects[0].count.n"),
        ({"op": "shift", "levels": 0}, "side.effects[0].levels"),
        ({"op": "adjust", "track": "fni", "delta": 0}, "side.effects[0].delta"),
        ({"op": "place", "pieces": []}, "side.effects[0].pieces"),
        ({"op": "place", "pieces": ["a"], "where": {"filter": {"is": "typo"}}},
         "side.effects[0].where.filter"),
        ({"op": "place", "pieces": ["a"], "colour": "red"}, "side.effects[0].colour"),
        ({"op": "choose", "options": [[{"op": "adjust", "track": "x", "delta": 1}]]},
         "side.effects[0].options"),
        ({"op": "burn"}, "side.effects[0]"),
    ],
)  # fmt: skip
def test_bad_effects_name_their_field(raw: dict[str, Any], path: str) -> None:
    with pytest.raises(InputError) as caught:
        side_from_toml({"effects": [raw]})
    assert caught.value.path == path


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(
        ["place", "remove", "shift", "type", "City", "militia", "if", "flag", "op", "is"]),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(["op", "is", "if", "pieces", "count", "where", "filter",
                                       "levels", "track", "delta", "n", "then", "types"]),
                      inner, max_size=4),
    max_leaves=12,
)  # fmt: skip


@given(json_values)
def test_any_input_is_read_or_refused_with_an_input_error(raw: Any) -> None:
    try:
        side = side_from_toml({"effects": [raw]} if not isinstance(raw, dict) else raw)
    except InputError as error:
        assert error.path is not None and error.path.startswith("side")
    else:
        assert isinstance(side, Side)


def test_a_deck_refuses_duplicate_numbers_and_sideless_cards() -> None:
    card = {"number": 3, "title": "T", "factions": ["British"],
            "unshaded": {"effects": [EVERY_FORM[10]]}}  # fmt: skip
    deck = deck_from_toml({"game": "lod", "card": [card]})
    # 5.2: a card with one printed side is not dual use; asking for the other side fails
    assert not deck.card(3).dual_use
    with pytest.raises(InputError):
        deck.card(3).side("shaded")
    with pytest.raises(InputError, match="appears twice"):
        deck_from_toml({"game": "lod", "card": [card, card]})
    with pytest.raises(InputError) as caught:
        deck_from_toml({"game": "lod", "card": [{**card, "unshaded": None}]})
    assert caught.value.path == "deck.card[0]"
