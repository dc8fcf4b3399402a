"""16.5 Secondary Effects, worked by hand from the seed on small inline maps."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from legalis.model.core.randomness import LoggedRandom
from legalis.model.errors import IllegalMoveError
from legalis.model.eupop.resolution import ResolutionLog
from legalis.model.eupop.secondary import (
    Expansion,
    NativeChoice,
    SecondaryOptions,
    Symbol,
    activate_power_struggle,
    apply_cardinal,
    apply_disloyal,
    apply_expansion,
    apply_lost_at_sea,
    apply_native_uprising,
    apply_pirates,
    attrition,
    auto_cardinal,
    auto_expansion,
    auto_pirates,
    cardinal_moves,
    character_mortality,
    disloyal_moves,
    expansion_moves,
    lost_at_sea_moves,
    native_uprising_moves,
    pirate_moves,
    rebellion_moves,
    resolve_symbols,
    unrest_rebellion,
)
from legalis.model.eupop.state import EuState, state_from_json

MAP = {
    "area": [
        {"id": "a", "provinces": ["A1", "A2"], "borders": ["b"]},
        {"id": "b", "provinces": ["B1", "B2"], "borders": ["a", "c"]},
        {"id": "c", "provinces": ["C1", "C2"], "borders": ["b"]},
        {"id": "d", "provinces": ["D1"], "borders": []},
    ],
    "sea": [
        {"id": "atl", "mark": "none", "areas": ["a", "d"]},
        {"id": "med", "mark": "*", "areas": ["b"]},
        {"id": "far", "mark": "†", "areas": ["c"]},
    ],
}


def make(**changes: Any) -> EuState:
    raw: dict[str, Any] = {
        "players": ["france", "england", "spain"],
        "active": "france",
        "realms": {
            "france": {"kind": "player"},
            "england": {"kind": "player"},
            "spain": {"kind": "player"},
        },
        "provinces": {},
        "map": MAP,
    }
    raw.update(changes)
    return state_from_json(raw)


def roundtrip(state: EuState) -> None:
    assert state_from_json(state.to_json()) == state


# ---------------------------------------------------------------------- Character Mortality


def test_mortality_first_token_then_death() -> None:
    realms = {
        "france": {
            "kind": "player",
            "characters": [
                {"name": "Turenne", "role": "leader", "symbols": ["plague"]},
                {"name": "Conde", "role": "leader", "symbols": ["plague"], "ill_health": 1},
                {"name": "Colbert", "role": "advisor", "symbols": ["duel"]},
            ],
        },
        "england": {"kind": "player"},
        "spain": {"kind": "player"},
    }
    state = make(realms=realms)
    log = ResolutionLog()
    new = character_mortality(state, "plague", log)
    chars = {c.name: c.ill_health for c in new.realms["france"].characters}
    # 16.5 Character Mortality: a matching character receives an H
    assert chars["Turenne"] == 1
    # 16.5 Character Mortality: "If a character receives a second H, they die"
    assert "Conde" not in chars
    # 16.5 Character Mortality: only a matching symbol counts
    assert chars["Colbert"] == 0
    assert len(state.realms["france"].characters) == 3  # input unchanged
    roundtrip(new)


# ---------------------------------------------------------------------- Unrest/Rebellion


def unrest_state() -> EuState:
    provinces = {
        "A1": {"owner": "france", "unrest": True},
        "A2": {"owner": "france", "unrest": True},
        "B1": {"owner": "england", "unrest": True},
        "B2": {"owner": "england", "unrest": True},
        "C1": {"owner": "spain"},
    }
    return make(provinces=provinces)


def test_rebellion_active_rolls_one_others_all() -> None:
    state = unrest_state()
    rolls: list[tuple[str, str]] = []

    def die(s: EuState, player: str, province: str, rng: Any, log: ResolutionLog) -> EuState:
        rolls.append((player, province))
        return s

    view = rebellion_moves(state)
    assert list(view) == ["A1", "A2"]
    refused = view.refusal("B1")
    assert refused is not None and refused.rule == "16.5 Unrest/Rebellion"
    new = unrest_rebellion(
        state, LoggedRandom(1), ResolutionLog(), SecondaryOptions(rebel_die_outcome=die), "A2"
    )
    # 16.5 Unrest/Rebellion: "You roll a maximum of 1 Rebel Die"; others roll one per Province
    assert rolls == [("france", "A2"), ("england", "B1"), ("england", "B2")]
    assert new == state
    with pytest.raises(IllegalMoveError):
        unrest_rebellion(state, LoggedRandom(1), ResolutionLog(), active_province="B1")


def test_rebellion_default_die_is_logged() -> None:
    log = ResolutionLog()
    rng = LoggedRandom(3)
    unrest_rebellion(unrest_state().model_copy(update={"active": None}), rng, log)
    # 16.4: with no Active player everyone rolls for every Province with u
    assert len(rng.log) == 4 and len(log.decisions) == 4


# ---------------------------------------------------------------------- Native Uprising


def native_state() -> EuState:
    provinces = {
        "D1": {"town": "small", "town_of": "france", "distant": True},
        "C1": {"town": "small", "town_of": "england", "distant": True},
        "C2": {"town": "small", "town_of": "england", "distant": True, "unrest": True},
    }
    realms = {
        "france": {"kind": "player", "colonists": 2},
        "england": {"kind": "player", "colonists": 1},
        "spain": {"kind": "player", "colonists": 0},
    }
    return make(provinces=provinces, realms=realms)


def test_native_uprising_choices() -> None:
    state = native_state()
    mine = native_uprising_moves(state, "france")
    # 16.5 Native Uprising: "You may choose to ignore one of the two effects"
    assert set(mine) == {
        NativeChoice("D1"),
        NativeChoice("D1", "colonist"),
        NativeChoice(None, "unrest"),
    }
    theirs = native_uprising_moves(state, "england")
    assert list(theirs) == [NativeChoice("C1")]
    refused = theirs.refusal(NativeChoice(None, "unrest"))
    assert refused is not None and refused.rule == "16.5 Native Uprising"
    assert "only the Active player" in refused.reason
    new = apply_native_uprising(state, "france", NativeChoice("D1", "colonist"))
    assert new.realms["france"].colonists == 2 and new.provinces["D1"].unrest
    new = apply_native_uprising(state, "england", NativeChoice("C1"))
    # 16.5 Native Uprising: lose 1 Colonist and gain u in a Distant t
    assert new.realms["england"].colonists == 0 and new.provinces["C1"].unrest
    with pytest.raises(IllegalMoveError):
        apply_native_uprising(state, "england", NativeChoice("C2"))


def test_native_uprising_auto() -> None:
    log = ResolutionLog()
    new = resolve_symbols(native_state(), [Symbol("native_uprising")], log=log)
    # default native_ignore="unrest": the Active player keeps his Colonists' loss only
    assert new.realms["france"].colonists == 1 and not new.provinces["D1"].unrest
    assert new.realms["england"].colonists == 0 and new.provinces["C1"].unrest
    assert new.realms["spain"].colonists == 0


# ---------------------------------------------------------------------- Lost at Sea


def sea_state(active: str | None = "france") -> EuState:
    ships = {"england": {"atl": 1, "med": 2, "far": 1}, "spain": {"med": 1}}
    ports = {"england": ["atl"], "spain": ["med"]}
    return make(ships=ships, friendly_ports=ports, active=active)


def test_lost_at_sea_choices() -> None:
    state = sea_state()
    view = lost_at_sea_moves(state, "england")
    # 16.5 Lost at Sea: only Ships not adjacent to one of their Friendly Ports
    assert list(view) == ["far", "med"]
    refused = view.refusal("atl")
    assert refused is not None and "Friendly Port" in refused.reason
    assert not lost_at_sea_moves(state, "spain")
    new = apply_lost_at_sea(state, "england", "med")
    assert new.ships["england"]["med"] == 1 and state.ships["england"]["med"] == 2


def test_lost_at_sea_auto_each_chooses_for_themselves() -> None:
    log = ResolutionLog()
    new = resolve_symbols(sea_state(), [Symbol("lost_at_sea")], log=log)
    # 16.5 Lost at Sea auto-resolution, default "alphabetical": far before med
    assert new.ships["england"] == {"atl": 1, "med": 2, "far": 0}
    options = SecondaryOptions(lost_at_sea_pick="largest_stack")
    new = resolve_symbols(sea_state(), [Symbol("lost_at_sea")], log=log, options=options)
    assert new.ships["england"] == {"atl": 1, "med": 1, "far": 1}


def test_lost_at_sea_chosen_by_active() -> None:
    new = resolve_symbols(
        sea_state(), [Symbol("lost_at_sea")], log=ResolutionLog(), choose=lambda r, p, v: "med"
    )
    assert new.ships["england"]["med"] == 1
    with pytest.raises(IllegalMoveError):
        resolve_symbols(
            sea_state(), [Symbol("lost_at_sea")], log=ResolutionLog(), choose=lambda r, p, v: "atl"
        )


# ---------------------------------------------------------------------- Pirates


def pirate_state(**nodes: Any) -> EuState:
    return make(trade_nodes=nodes)


def test_pirates_must_pick_node_with_merchant() -> None:
    state = pirate_state(
        baltic={"merchants": {"england": 1}},
        genoa={},
        silk={"maritime": False, "merchants": {"france": 3}},
    )
    view = pirate_moves(state)
    # 16.5 Pirates: "If possible, this must be a node that has at least 1 Merchant"
    assert list(view) == ["baltic"]
    assert "no Merchant" in (view.refusal("genoa") or pytest.fail()).reason
    assert "not a Maritime" in (view.refusal("silk") or pytest.fail()).reason
    new = apply_pirates(state, "baltic")
    assert new.trade_nodes["baltic"].pirates == 1
    empty = pirate_state(genoa={}, ligurian={})
    # 16.5 Pirates: with no Merchants anywhere, any Maritime Trade Node
    assert list(pirate_moves(empty)) == ["genoa", "ligurian"]


def test_pirates_auto_most_then_expanded_then_random() -> None:
    log = ResolutionLog()
    state = pirate_state(a={"merchants": {"france": 1}}, b={"merchants": {"france": 2}})
    # 16.5 Pirates auto-resolution: the node with the most Merchants
    assert auto_pirates(state, LoggedRandom(0), log) == "b"
    assert log.decisions[-1].decided_by == "most Merchants"
    state = pirate_state(
        a={"merchants": {"france": 2}}, b={"merchants": {"england": 2}, "expanded": True}
    )
    # 16.5 Pirates: "First tie breaker: Expanded node"
    assert auto_pirates(state, LoggedRandom(0), log) == "b"
    assert log.decisions[-1].decided_by == "Expanded node"
    state = pirate_state(a={"merchants": {"france": 2}}, b={"merchants": {"england": 2}})
    rng = LoggedRandom(5)
    chosen = auto_pirates(state, rng, log)
    # 16.5 Pirates: "second tie breaker: random"
    assert log.decisions[-1].decided_by == "random" and rng.log
    assert chosen == ["a", "b"][rng.log[0][1]]  # type: ignore[index]


# ---------------------------------------------------------------------- Cardinal Dies


def test_cardinal_choices() -> None:
    state = make(curia=["roma", "france", "england", "france"])
    view = cardinal_moves(state)
    # 16.5 Cardinal Dies: any C except the Roma C
    assert list(view) == [1, 2, 3]
    assert "Roma" in (view.refusal(0) or pytest.fail()).reason
    # 16.5 Cardinal Dies: slide remaining C to the left
    assert apply_cardinal(state, 1).curia == ["roma", "england", "france"]


def test_cardinal_auto_and_tie_breaks() -> None:
    log = ResolutionLog()
    state = make(curia=["roma", "france", "england", "france", "spain"])
    # 16.5 Cardinal Dies auto-resolution: the rightmost C of the PR with the most C
    assert auto_cardinal(state, log) == 3
    tied = make(curia=["roma", "france", "england", "spain", "england", "france"], active=None)
    tied_sp = tied.model_copy(update={"curia": ["roma", "spain", "france", "england"]})
    # tie: cardinal_tie="rightmost" (default) takes the rightmost C among the tied PRs
    assert auto_cardinal(tied_sp, log) == 3
    # cardinal_tie="seat_order": the tied PR first in seat order (france), its rightmost C
    seat = SecondaryOptions(cardinal_tie="seat_order")
    assert auto_cardinal(tied_sp, log, seat) == 2
    assert auto_cardinal(tied, log) == 5


# ---------------------------------------------------------------------- Attrition


def test_attrition() -> None:
    realms = {
        "france": {"kind": "player", "at_war": True},
        "england": {"kind": "player", "at_war": True},
        "spain": {"kind": "player"},
    }
    units = {
        "france": {"a": 8},
        "england": {"a": 5, "b": 4},
        "spain": {"c": 8},
    }
    new = attrition(make(realms=realms, land_units=units), ResolutionLog())
    # 16.5 Attrition: 9 Deployed Land Units -> 2 Casualties; "except you"; only PRs at War
    # Casualties from the largest stack (a: 5 -> 4), then a tie 4/4 taken alphabetically
    assert new.land_units["england"] == {"a": 3, "b": 4}
    assert new.realms["england"].casualties == 2
    assert new.land_units["france"] == {"a": 8} and new.land_units["spain"] == {"c": 8}


# ---------------------------------------------------------------------- Disloyal Vassals


def disloyal_state() -> EuState:
    provinces = {
        "A1": {"town": "small", "vassal": True, "town_of": "england", "tax": 2},
        "A2": {"town": "small", "vassal": True, "town_of": "england", "tax": 1},
        "B1": {"town": "small", "vassal": True, "town_of": "england", "tax": 3},
        "B2": {"town": "small", "vassal": True, "town_of": "england", "tax": 1},
        "C1": {"town": "small", "vassal": True, "town_of": "france", "tax": 2},
        "D1": {"town": "small", "vassal": True, "town_of": "spain", "tax": 2},
    }
    areas = {
        "a": {"influence": {"england": 1, "spain": 2}},
        "b": {"influence": {}},
        "c": {"influence": {"france": 1}},
        "d": {"influence": {"spain": 1}},
    }
    return make(provinces=provinces, areas=areas)


def test_disloyal_vassals() -> None:
    state = disloyal_state()
    view = disloyal_moves(state, "england")
    # 16.5 Disloyal Vassals: a (fewer I than spain) and b (no I/M) qualify, 2 v each
    assert list(view) == ["a", "b"]
    # france has I in c and no Opponent more: not affected
    assert not disloyal_moves(state, "france") and not disloyal_moves(state, "spain")
    new = apply_disloyal(state, "england", "b")
    # 16.5 Disloyal Vassals: u on all their v there; ? equal to their Tax Value
    assert new.provinces["B1"].unrest and new.provinces["B2"].unrest
    assert (new.provinces["B1"].rebels, new.provinces["B2"].rebels) == (3, 1)
    refused = disloyal_moves(state, "england").refusal("c")
    assert refused is not None and refused.rule == "16.5 Disloyal Vassals"


def test_disloyal_vassals_most_v_and_active_places_no_rebels() -> None:
    state = disloyal_state()
    extra = dict(state.provinces)
    extra["A2"] = extra["A2"].model_copy(update={"town_of": "france"})
    state = state.model_copy(update={"provinces": extra, "active": "france"})
    state = state_from_json(state.to_json())
    view = disloyal_moves(state, "england")
    # 16.5 Disloyal Vassals: "an Area with the most of their v": b (2) over a (1)
    assert list(view) == ["b"]
    assert "fewer" in (view.refusal("a") or pytest.fail()).reason
    mine = disloyal_moves(state, "france")
    assert list(mine) == ["a"]  # france: fewer I than spain in a
    new = apply_disloyal(state, "france", "a")
    # 16.5 Disloyal Vassals: "You gain u as normal ... but do not need to place any ?"
    assert new.provinces["A2"].unrest and new.provinces["A2"].rebels == 0


def test_each_affected_player_picks_its_own_disloyal_area() -> None:
    # 16.5 Disloyal Vassals: "any affected PR must pick an Area": england picks, though
    # france is the Active player
    state = state_from_json({**disloyal_state().to_json(), "active": "france"})
    asked: list[tuple[str, str, list[Any]]] = []

    def choose(rule: str, player: str, view: Any) -> Any:
        asked.append((rule, player, list(view)))
        return list(view)[-1]

    new = resolve_symbols(state, [Symbol("disloyal_vassals")], log=ResolutionLog(), choose=choose)
    assert asked == [("16.5 Disloyal Vassals", "england", ["a", "b"])]
    assert new.provinces["B1"].unrest and not new.provinces["A1"].unrest  # england chose b


# ---------------------------------------------------------------------- DNPR Expansion


def dnpr_state(**changes: Any) -> EuState:
    realms = {
        "france": {"kind": "player", "core_provinces": ["C2"]},
        "england": {"kind": "player"},
        "spain": {"kind": "player"},
        "burgundy": {"kind": "dnpr", "color": "red", "capital": "A1", "ally": "england"},
        "lorraine": {"kind": "npr", "tax_income": 3, "capital": "B2"},
        "alsace": {"kind": "npr", "tax_income": 2},
        "savoy": {"kind": "npr", "tax_income": 1},
    }
    provinces = {
        "A1": {"owner": "burgundy", "capital": True, "port": True},
        "A2": {"owner": "lorraine"},
        "B1": {"owner": "alsace", "town": "small", "town_of": "spain"},
        "B2": {"owner": "lorraine", "capital": True},
        "C1": {"owner": "savoy"},
        "D1": {"territory": True},
    }
    raw: dict[str, Any] = {"realms": realms, "provinces": provinces}
    raw.update(changes)
    return make(**raw)


def test_dnpr_expansion_choices() -> None:
    state = dnpr_state()
    view = expansion_moves(state, "red")
    # 16.5 DNPR Expansion: adjacent Provinces (same Area or bordering by land), not a Capital
    assert list(view) == [Expansion("burgundy", "A2"), Expansion("burgundy", "B1")]
    assert "Capital" in (view.refusal(Expansion("burgundy", "B2")) or pytest.fail()).reason
    assert "not adjacent" in (view.refusal(Expansion("burgundy", "C1")) or pytest.fail()).reason
    assert view.refusal(Expansion("burgundy", "D1")) is not None  # Territory only from Age II
    log = ResolutionLog()
    new = apply_expansion(state, "red", Expansion("burgundy", "B1"), log)
    # 16.5 DNPR Expansion: taken over; the token goes under the t, which gains u
    p = new.provinces["B1"]
    assert (p.owner, p.dnpr_token, p.unrest, p.town) == ("burgundy", "burgundy", True, "small")


def test_dnpr_expansion_refusals() -> None:
    provinces = {
        "A1": {"owner": "burgundy", "capital": True, "port": True},
        "A2": {"owner": "england"},
        "B1": {"owner": "alsace", "occupied_by": "spain"},
        "B2": {"owner": "lorraine", "capital": True},
        "C1": {"owner": "savoy"},
    }
    state = dnpr_state(provinces=provinces)
    view = expansion_moves(state, "red")
    # 16.5 DNPR Expansion: a Capital is allowed when it is the NPR's last Province
    assert list(view) == [Expansion("burgundy", "B2")]
    assert "Ally" in (view.refusal(Expansion("burgundy", "A2")) or pytest.fail()).reason
    assert "Occupied" in (view.refusal(Expansion("burgundy", "B1")) or pytest.fail()).reason
    realms = dict(state.to_json()["realms"])
    realms["burgundy"] = {**realms["burgundy"], "active_ally": True}
    ally = state_from_json({**state.to_json(), "realms": realms})
    # 16.5 DNPR Expansion: not a DNPR that is an Active Ally
    assert not expansion_moves(ally, "red")


def test_dnpr_expansion_core_and_territory() -> None:
    provinces = {"C1": {"owner": "burgundy", "port": True}, "C2": {}, "D1": {"territory": True}}
    realms = dnpr_state().to_json()["realms"]
    realms["burgundy"]["capital"] = "C1"
    realms["lorraine"]["capital"] = None
    state = dnpr_state(provinces=provinces, realms=realms)
    view = expansion_moves(state, "red")
    # 16.5 DNPR Expansion: never the Core Province of a PR (C2 is france's)
    assert not view
    assert "Core" in (view.refusal(Expansion("burgundy", "C2")) or pytest.fail()).reason
    # from Age II only DNPRs with a Port facing the Atlantic (c faces "far", marked †)
    assert not expansion_moves(state.model_copy(update={"age": 2}), "red")
    provinces = {"A2": {"owner": "burgundy", "port": True}, "D1": {"territory": True}}
    realms["burgundy"]["capital"] = "A2"
    atlantic = dnpr_state(provinces=provinces, realms=realms, age=2)
    # 16.5 DNPR Expansion: from Age II a DNPR with a Port on an Atlantic Sea Zone
    # (mark "none": atl) may instead take any vacant Territory
    assert list(expansion_moves(atlantic, "red")) == [Expansion("burgundy", "D1")]
    assert not expansion_moves(atlantic.model_copy(update={"age": 1}), "red")


def test_dnpr_auto_priorities() -> None:
    state = dnpr_state()
    log = ResolutionLog()
    new = auto_expansion(state, "red", log)
    # 16.5 DNPR Expansion auto: Areas where the DNPR already Owns Provinces first (A2
    # in a) beat the lower Tax Income of alsace in b
    assert new.provinces["A2"].owner == "burgundy"
    assert log.decisions[0].chosen == "A2"
    narrow = SecondaryOptions(realm_adjacency="land_border")
    log = ResolutionLog()
    new = auto_expansion(state, "red", log, narrow)
    # with only bordering Areas: the NPR with the lowest Tax Income (alsace 2 < lorraine 3)
    assert new.provinces["B1"].owner == "burgundy"


def test_dnpr_auto_tie_alphabetical() -> None:
    realms = dnpr_state().to_json()["realms"]
    realms["alsace"]["tax_income"] = 3
    provinces = {
        "A1": {"owner": "burgundy", "capital": True},
        "B2": {"owner": "lorraine"},
        "B1": {"owner": "alsace"},
    }
    state = dnpr_state(realms=realms, provinces=provinces)
    log = ResolutionLog()
    new = auto_expansion(state, "red", log)
    # 16.5 DNPR Expansion: tied Realms -> alphabetical among their adjacent Provinces: B1
    assert new.provinces["B1"].owner == "burgundy"
    assert "tied Realms" in log.decisions[0].decided_by


def test_dnpr_auto_records_cb() -> None:
    realms = dnpr_state().to_json()["realms"]
    realms["lorraine"]["ally"] = "spain"
    log = ResolutionLog()
    auto_expansion(dnpr_state(realms=realms), "red", log)
    # 16.5 DNPR Expansion: the NPR's Ally may place a CB token on the DNPR's Capital
    assert log.decisions[-1].rule.endswith(": CB") and log.decisions[-1].chosen == "spain"


# ---------------------------------------------------------------------- Power Struggle


def test_activate_power_struggle() -> None:
    state = make(
        power_struggles={"italy": ["b", "c"], "old": ["a"]},
        upcoming_power_struggle="italy",
        active_power_struggle="old",
        areas={"a": {"battleground": True}},
    )
    new = activate_power_struggle(state, ResolutionLog())
    # 16.5 Activate Power Struggle: the Upcoming one becomes Active; § on its Battlegrounds
    assert new.active_power_struggle == "italy" and new.upcoming_power_struggle is None
    assert [a for a, s in sorted(new.areas.items()) if s.battleground] == ["b", "c"]
    roundtrip(new)
    # "If Power Struggles are in play": none upcoming, nothing happens
    assert activate_power_struggle(make(), ResolutionLog()) == make()


# ---------------------------------------------------------------------- a whole card


def big_state(active: str | None) -> EuState:
    base = dnpr_state().to_json()
    base["active"] = active
    base["curia"] = ["roma", "spain", "france", "england"]
    base["trade_nodes"] = {"x": {"merchants": {"france": 1}}, "y": {"merchants": {"spain": 1}}}
    base["ships"] = {"england": {"med": 1, "far": 1}, "spain": {"far": 2}}
    base["realms"]["england"]["at_war"] = True
    base["land_units"] = {"england": {"a": 4}}
    base["provinces"]["C1"].update({"town": "small", "town_of": "england", "unrest": True})
    return state_from_json(base)


ALL = [
    Symbol("unrest_rebellion"),
    Symbol("lost_at_sea"),
    Symbol("pirates"),
    Symbol("cardinal_dies"),
    Symbol("attrition"),
    Symbol("dnpr_expansion", "red"),
    Symbol("activate_power_struggle"),
]


def test_symbols_left_to_right_unpicked() -> None:
    log = ResolutionLog()
    new = resolve_symbols(big_state(None), ALL, log=log, rng=LoggedRandom(2))
    # 16.4: no Active player, so every player at War suffers Attrition
    assert new.land_units["england"] == {"a": 3}
    # 16.5 Cardinal Dies: all tied at 1; the rightmost C goes
    assert new.curia == ["roma", "spain", "france"]
    assert sum(n.pirates for n in new.trade_nodes.values()) == 1
    roundtrip(new)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    active=st.sampled_from([None, "france", "england"]),
    order=st.permutations(ALL),
)
def test_auto_resolution_is_one_outcome(seed: int, active: str | None, order: list[Symbol]) -> None:
    state = big_state(active)
    before = state.to_json()
    first, second = ResolutionLog(), ResolutionLog()
    one = resolve_symbols(state, order, log=first, rng=LoggedRandom(seed))
    two = resolve_symbols(state, order, log=second, rng=LoggedRandom(seed))
    assert one == two and first.to_json() == second.to_json()
    assert state.to_json() == before
    assert state_from_json(one.to_json()) == one
