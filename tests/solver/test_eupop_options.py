"""Every EU:PoP rule option settable by name (``PlayOptions.from_json``,
``DeckOptions.from_json``: the CLI's ``--option``, the API's ``options``) changes an
outcome when set away from its default: a resolution, a view's choices, a deck."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from legalis.model.errors import InputError
from legalis.model.eupop import effects as fx
from legalis.model.eupop.deck import DeckOptions, deck_document, load_scenario
from legalis.model.eupop.events import Symbol, effects_from_data, load_catalogue
from legalis.model.eupop.play import PlayOptions
from legalis.model.eupop.resolution import ResolutionLog
from legalis.model.eupop.state import EuState, Idea, state_from_json
from legalis.solver.eupop_play import effect_view, resolve_event

MAP = {
    "area": [
        {"id": "a", "provinces": ["P1", "P2"], "borders": ["b"]},
        {"id": "b", "provinces": ["Q1"], "borders": ["a", "c"]},
        {"id": "c", "provinces": ["R1"], "borders": ["b"]},
    ],
    "sea": [{"id": "s", "mark": "none", "areas": ["a", "c"]}],
}


def make(active: str = "england", **realms: dict[str, Any]) -> EuState:
    raw: dict[str, Any] = {
        "players": ["france", "england", "spain"],
        "active": active,
        "map": MAP,
        "realms": {
            "france": {
                "kind": "player",
                "alliance_markers": 1,
                "merchants": 3,
                "units_available": 3,
                "colonists": 2,
            },
            "england": {"kind": "player", "alliance_markers": 1},
            "spain": {"kind": "player"},
            "npr1": {"kind": "npr", "capital": "P2", "tax_income": 5, "ally": "spain"},
            "npr2": {"kind": "npr"},
        },
        "provinces": {
            "P1": {"owner": "npr1"},
            "P2": {"owner": "npr1", "capital": True},
            "Q1": {"owner": "npr2"},
            "R1": {"owner": "npr2"},
        },
        "areas": {"a": {"influence": {"england": 3, "spain": 1}}, "b": {}, "c": {}},
    }
    for name, changes in realms.items():
        raw["realms"].setdefault(name, {}).update(changes)
    return state_from_json(raw)


def spread_state(areas: dict[str, Any], borders: dict[str, list[str]],
                 seas: dict[str, tuple[str, list[str]]]) -> EuState:  # fmt: skip
    return state_from_json({
        "players": ["france"], "realms": {"france": {"kind": "player"}}, "areas": areas,
        "map": {"area": [{"id": a, "provinces": [a.upper()], "borders": b}
                         for a, b in borders.items()],
                "sea": [{"id": s, "mark": m, "areas": on} for s, (m, on) in seas.items()]},
    })  # fmt: skip


def choices(state: EuState, effect: str, player: str | None, options: PlayOptions,
            **arguments: Any) -> list[Any]:  # fmt: skip
    view, _ = effect_view(state, effect, player, options=options, **arguments)
    return list(view)


def resolved(state: EuState, data: list[Any], options: PlayOptions,
             symbols: tuple[Symbol, ...] = ()) -> EuState:  # fmt: skip
    return resolve_event(state, effects_from_data(data), symbols, log=ResolutionLog(),
                         rng=random.Random(0), options=options)  # fmt: skip


AB = [{"op": "choose_ab", "a": [{"op": "merchant"}, {"op": "g", "areas": ["a"]}],
       "b": [{"op": "g", "areas": ["b"]}]}]  # fmt: skip
AB_OPEN = [{"op": "choose_ab", "a": [{"op": "g", "areas": ["a"]}],
            "b": [{"op": "g", "areas": ["b"]}]}]  # fmt: skip
IDEAS = {"military": [{"name": "m1", "basic": True}, {"name": "m2"},
                      {"name": "m3", "picked_by": ["spain"]}]}  # fmt: skip


def g_areas(state: EuState) -> list[str]:
    return sorted(name for name, area in state.areas.items() if "france" in area.g)


def placed(moves: list[Any]) -> list[str]:
    return [move.area for move in moves]


# Each option: a value away from its default, the outcome it changes (a function of
# the options), and that outcome under the default and under the value.
Outcome = Callable[[PlayOptions], Any]
PLAY_CASES: dict[str, tuple[str, Outcome, Any, Any]] = {
    # 16.3 Gain Influence: 2 I in Area b (room 5): placed whole, or also 0 or 1 of them
    "influence_up_to": (
        "true",
        lambda o: len(choices(make(), "influence", "france", o, amount=2, areas=["b"])),
        1,
        3,
    ),
    # 16.3 Gain Units: 2 Units in a or b: one location, or also split 1 + 1
    "units_split": (
        "true",
        lambda o: len(choices(make(), "units", "france", o, amount=2, places=["a", "b"])),
        2,
        3,
    ),
    # 16.3 Gain Alliance: england (3 I in a) replaces spain's A (1 I) on npr1: spain's
    # A back to its markers, or not
    "replaced_alliance_returns": (
        "false",
        lambda o: (
            resolved(make(), [{"op": "alliance", "targets": ["npr1"]}], o)
            .realms["spain"]
            .alliance_markers
        ),
        1,
        0,
    ),
    # 16.3 A)/B): france has 3 Merchants, so A's Gain Merchant cannot take effect: A is
    # not met (B forced), or met by its G (both open, A by default)
    "ab_met": ("any", lambda o: g_areas(resolved(make("france"), AB, o)), ["b"], ["a"]),
    # 16.3 A)/B): both sides open for france; --auto takes the default side
    "ab_default": ("B", lambda o: g_areas(resolved(make("france"), AB_OPEN, o)), ["a"], ["b"]),
    # 16.3 "or" is inclusive: G in a and then b, or in one of them
    "inclusive_or": (
        "one",
        lambda o: g_areas(resolved(make("france"), [{"op": "g", "areas": ["a", "b"]}], o)),
        ["a", "b"],
        ["a"],
    ),
    # --auto makes a player's choice: the first, or a draw of the seeded source
    "player_default": (
        "random",
        lambda o: g_areas(
            resolved(
                make("france"),
                [{"op": "g", "areas": ["a", "b"]}],
                PlayOptions.from_json({"inclusive_or": "one", "player_default": o.player_default}),
            )
        ),
        ["a"],
        ["b"],
    ),
    # 16.5 Native Uprising, auto-resolved Active france (2 Colonists, no Distant t):
    # ignores the u (loses a Colonist) by default, or the Colonist loss
    "native_ignore": (
        "colonist",
        lambda o: (
            resolved(make("france"), [], o, (Symbol("native_uprising"),)).realms["france"].colonists
        ),
        1,
        2,
    ),
    # 16.5 spread: Protestant d across a Sea Zone from the cluster a: refused or not
    "same_faith_target": (
        "allow",
        lambda o: placed(
            choices(
                spread_state(
                    {"a": {"religion": "protestant"}, "d": {"religion": "protestant"}},
                    {"a": ["b"], "b": ["a"], "d": []},
                    {"s": ("none", ["a", "d"])},
                ),
                "spread-religion",
                None,
                o,
            )
        ),
        ["b"],
        ["a", "b", "d"],
    ),
    # 16.5 step 3: c2 already has Diverse Faiths: offered or not
    "diverse_on_diverse": (
        "refuse",
        lambda o: placed(
            choices(
                spread_state(
                    {"c2": {"token": "diverse_faiths"}}, {"c1": [], "c2": [], "c3": []}, {}
                ),
                "spread-religion",
                None,
                o,
            )
        ),
        ["c1", "c2", "c3"],
        ["c1", "c3"],
    ),
    # 16.3 Gain Action: spain has Passed; after england's Turn comes france, or spain
    "skip_passed": (
        "false",
        lambda o: (
            fx.resolve_action(
                make(spain={"passed": True}),
                "france",
                "Declare War",
                fx.TakeAction("Declare War"),
                o.effects,
            ).next_turn
        ),
        "france",
        "spain",
    ),
    # 16.3 Research Idea: the points france and spain (who has m3) score
    "research_points": (
        "2",
        lambda o: [
            score.points
            for score in fx.apply_research(
                make_ideas(), "france", "m3", "military", fx.ResearchIdea("m3"), o.effects
            )[1]
        ],
        [0, 0],
        [2, 2],
    ),
    # 16.3 Research Idea: no unpicked non-Basic military Idea to remove: x1 takes the
    # column's empty slot, or a new row
    "fill_empty_slot": (
        "false",
        lambda o: (
            fx.apply_research(
                make_ideas(
                    {
                        "military": [{"name": "m1", "basic": True}, None],
                        "trade": [{"name": "t1"}, {"name": "t2"}],
                    }
                ),
                "france",
                "x1",
                "military",
                fx.ResearchIdea("x1"),
                o.effects,
            )[0]
            .idea_display["military"]
            .index(Idea(name="x1", picked_by=["france"]))
        ),
        1,
        2,
    ),
    # 16.3 Terminate Alliance: half of the Active Ally's Tax Income 5 in Allied Units
    "loss_rounding": (
        "up",
        lambda o: fx.alliance_loss(
            make(npr1={"ally": "france", "active_ally": True}, france={"manpower": 3}),
            "france",
            "npr1",
            o.effects,
        ),
        2,
        3,
    ),
    # 16.3 Terminate Alliance: the A back to france's markers (1 + 1), or not
    "terminated_alliance_returns": (
        "false",
        lambda o: (
            fx.apply_terminate(
                make(npr1={"ally": "france"}), "france", fx.TerminateAlliance("npr1"), o.effects
            )
            .realms["france"]
            .alliance_markers
        ),
        2,
        1,
    ),
}


def make_ideas(display: dict[str, Any] | None = None) -> EuState:
    raw = make().to_json()
    raw["idea_display"], raw["idea_deck"] = display or IDEAS, ["x1"]
    return state_from_json(raw)


def test_every_option_settable_by_name_has_a_case() -> None:
    named = set(PlayOptions.names())
    # these three have their golden cases in tests/model/test_eupop_secondary.py
    assert named == set(PLAY_CASES) | {"realm_adjacency", "cardinal_tie", "lost_at_sea_pick"}
    # the hooks hold functions: set from Python, not by name
    assert {"marriage_eligible", "dow_allowed", "rebel_die_outcome"}.isdisjoint(named)


@pytest.mark.parametrize("name", sorted(PLAY_CASES))
def test_setting_the_option_by_name_changes_the_outcome(name: str) -> None:
    value, outcome, by_default, when_set = PLAY_CASES[name]
    assert outcome(PlayOptions()) == by_default
    assert outcome(PlayOptions.from_json({name: value})) == when_set


def test_deck_options_by_name_change_the_deck() -> None:
    def ages(raw: dict[str, Any]) -> Any:
        body, _ = deck_document(load_scenario("three_crowns"), load_catalogue(), 3,
                                options=DeckOptions.from_json(raw))  # fmt: skip
        return [age["deck"] for age in body["ages"]]

    # Optional Rule 6: the X-events dealt to the two stacks, not each to its suggested half
    dealt = ages({"randomize_x": "true"})
    assert dealt != ages({}) and sorted(map(sorted, dealt)) == sorted(map(sorted, ages({})))
    # odd_x_card's golden case: tests/model/test_eupop_deck.py
    assert DeckOptions.from_json({"odd_x_card": "random"}) == DeckOptions(odd_x_card="random")


@pytest.mark.parametrize(
    ("raw", "path", "allowed"),
    [
        ({"no_such": "1"}, "options.no_such", "ab_met"),
        ({"marriage_eligible": "x"}, "options.marriage_eligible", "units_split"),  # a hook
        ({"ab_met": "most"}, "options.ab_met", "any"),
        ({"units_split": "yes"}, "options.units_split", "true"),
        ({"research_points": "-1"}, "options.research_points", None),
        ({"native_ignore": 3}, "options.native_ignore", "none"),
    ],
)
def test_a_bad_name_or_value_is_an_input_error_naming_it(
    raw: dict[str, Any], path: str, allowed: str | None
) -> None:
    with pytest.raises(InputError) as refused:
        PlayOptions.from_json(raw)
    assert refused.value.path == path
    assert allowed is None or allowed in (refused.value.allowed or [])
    # "none" reads as no option value where the option allows it
    assert PlayOptions.from_json({"native_ignore": "none"}).secondary.native_ignore is None
