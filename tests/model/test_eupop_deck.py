"""EU:PoP event ids, deck preparation, the display and unpicked Events (chapter 16)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from legalis.model.errors import IllegalMoveError, InputError
from legalis.model.eupop.deck import (
    DeckOptions,
    EventDeck,
    check_scenario,
    draw_display,
    end_of_round,
    load_scenario,
    new_deck,
    prepare_age,
    scenario_from_data,
    take_event,
    unpicked_event,
)
from legalis.model.eupop.events import SYMBOLS, catalogue_from_data, load_catalogue, parse_event_id

CATALOGUE = load_catalogue()
THREE = load_scenario("three_crowns")
TWO = load_scenario("channel_rivals")


def test_id_golden_cases() -> None:
    # 16.1: the first digit is the Age; A in an A-event, B in a B-event, none in a realm one
    a = parse_event_id("11A-1")
    assert (a.kind, a.age, a.group, a.number) == ("A", 1, 1, 1)
    b = parse_event_id("354B")
    assert (b.kind, b.age, b.number) == ("B", 3, 54)
    r = parse_event_id("202-2")
    assert (r.kind, r.age, r.realm_code, r.number) == ("realm", 2, "02", 2)


@given(st.one_of(st.text(max_size=8), st.integers(), st.none()))
def test_bad_ids_are_input_errors(text: object) -> None:
    try:
        parsed = parse_event_id(text)
    except InputError as error:
        assert "event id" in str(error) and "354B" in str(error)
    else:
        assert isinstance(text, str) and parsed.text == text


def test_catalogue_covers_every_symbol_and_realm_codes_match() -> None:
    names = {symbol.name for event in CATALOGUE.events.values() for symbol in event.symbols}
    assert names == set(SYMBOLS)
    for event in CATALOGUE.events.values():
        if event.kind == "realm":  # 16.1: the id carries the Realm's code
            assert CATALOGUE.realms[str(event.realm)] == event.id.realm_code


def test_catalogue_errors_name_the_path() -> None:
    data = {"realms": {"france": "01"}, "event": [
        {"id": "101-1", "title": "T", "half": "1", "text": "x", "realm": "france"},
        {"id": "102-1", "title": "T", "half": "1", "text": "x", "realm": "france"}]}  # fmt: skip
    with pytest.raises(InputError, match=r"event\[1\]\.realm"):
        catalogue_from_data(data)
    data["event"] = [{"id": "11B", "title": "T", "half": "1", "text": "x"}]
    with pytest.raises(InputError, match=r"event\[0\]\.id"):
        catalogue_from_data(data)
    data["event"] = [{"id": "201B", "title": "T", "half": "1", "text": "x",
                      "symbols": ["spread_revolution"]}]  # fmt: skip
    with pytest.raises(InputError, match="Age IV"):  # 16.5: Age IV Events only
        catalogue_from_data(data)


def test_bundled_scenarios_are_valid() -> None:
    assert check_scenario(THREE, CATALOGUE) == []
    assert check_scenario(TWO, CATALOGUE) == []


def _broken(tmp_path: Path) -> dict[str, object]:
    text = (Path(__file__).parents[2] / "model/eupop/scenarios/three_crowns.toml").read_text()
    import tomllib

    data = tomllib.loads(text)
    age1 = data["age"]["1"]
    age1["first_half"] = [e for e in age1["first_half"] if e != "11A-1"] + ["99A-1", "101B"]
    data["realms"] = ["france", "england"]
    return data


def test_checks_report_each_problem_with_its_rule(tmp_path: Path) -> None:
    scenario = scenario_from_data(_broken(tmp_path))
    problems = check_scenario(scenario, CATALOGUE)
    text = [(p.rule, p.message) for p in problems]
    # 16 Preparing Event Decks: an id twice, an unknown id
    assert ("16 Preparing Event Decks", "101B is listed more than once") in text
    assert ("16 Preparing Event Decks", "99A-1 is not in the catalogue") in text
    # 16.1: exactly 8 A-events per Age
    assert ("16.1", "7 A-events; exactly 8 are needed") in text
    # 16.1: no realm events of Realms not in play
    assert any(r == "16.1" and "castile, which is not in play" in m for r, m in text)
    assert {p.age for p in problems} == {1, 2}  # Age 2 lists castile too
    with pytest.raises(InputError, match="broken"):
        prepare_age(scenario, CATALOGUE, 1, random.Random(0))
    # 16.1: 2 realm events per Age for each Realm in play
    age2 = THREE.ages[2]
    drop = "201-1"  # an X-event of france
    short = scenario_from_data({"name": "s", "realms": list(THREE.realms), "ages": [2], "age": {
        "2": {"first_half": list(age2.first_half), "second_half": list(age2.second_half),
              "x": [{"id": e, "half": h} for e, h in age2.x if e != drop]}}})  # fmt: skip
    assert [(p.rule, p.message) for p in check_scenario(short, CATALOGUE)] == [
        ("16.1", "1 realm events of france; exactly 2 are needed")
    ]


def test_bad_scenario_files_are_input_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'name = "x"\nrealms = ["france"]\nages = [1]\n[age.1]\nx = [{ id = "12A-1", half = "3" }]\n'
    )
    with pytest.raises(InputError, match=r"age\.1\.x\[0\]\.half"):
        load_scenario(bad)
    bad.write_text("name = ")
    with pytest.raises(InputError, match="not valid TOML"):
        load_scenario(bad)


def test_halves_keep_their_cards_first_above_second() -> None:
    setup = THREE.ages[1]
    first = {*setup.first_half, *(e for e, h in setup.x if h == "1")}
    second = {*setup.second_half, *(e for e, h in setup.x if h == "2")}
    for seed in range(200):
        deck = prepare_age(THREE, CATALOGUE, 1, random.Random(seed))
        # 16: the halves are shuffled separately, the first placed on top of the second
        assert set(deck.first_half) == first and set(deck.second_half) == second
        assert deck.cards == deck.first_half + deck.second_half


def test_position_within_half_is_roughly_uniform() -> None:
    # 16: each half is shuffled; fixed seeds, so the bound cannot flake
    runs = 900
    positions: Counter[tuple[str, int]] = Counter()
    for seed in range(runs):
        deck = prepare_age(THREE, CATALOGUE, 1, random.Random(seed))
        positions.update((event, i) for i, event in enumerate(deck.first_half))
    size = 9
    expected = runs / size
    for event in prepare_age(THREE, CATALOGUE, 1, random.Random(0)).first_half:
        chi = sum((positions[(event, i)] - expected) ** 2 / expected for i in range(size))
        assert chi < 40  # 8 degrees of freedom: far beyond any plausible deviation


@pytest.mark.parametrize(("option", "sizes"), [("first_half", {(8, 7)}),
                                               ("second_half", {(7, 8)}),
                                               ("random", {(8, 7), (7, 8)})])  # fmt: skip
def test_randomized_x_equal_stacks_and_odd_option(option: str, sizes: set[tuple[int, int]]) -> None:
    seen = set()
    for seed in range(60):
        even = prepare_age(THREE, CATALOGUE, 1, random.Random(seed), randomize_x=True)
        # Optional Rule 6: "each stack has the same number of cards"
        assert len(even.first_half) == len(even.second_half) == 9
        odd = prepare_age(TWO, CATALOGUE, 1, random.Random(seed), randomize_x=True,
                          odd_x_card=option)  # fmt: skip
        seen.add((len(odd.first_half), len(odd.second_half)))
        marks = {e: CATALOGUE.events[e].half for e in odd.cards}
        # Optional Rule 6: (1) cards always first, (2) cards always second
        assert all(marks[e] != "2" for e in odd.first_half)
        assert all(marks[e] != "1" for e in odd.second_half)
    assert seen == sizes


def test_seed_replays_and_bad_option() -> None:
    one = prepare_age(TWO, CATALOGUE, 2, random.Random(5), randomize_x=True)
    assert one == prepare_age(TWO, CATALOGUE, 2, random.Random(5), randomize_x=True)
    with pytest.raises(InputError, match="odd_x_card"):
        prepare_age(TWO, CATALOGUE, 2, random.Random(5), odd_x_card="middle")


def test_display_size_and_face_up() -> None:
    deck = new_deck(THREE, CATALOGUE, random.Random(2))
    display, rest = draw_display(deck, ["france", "england", "castile"])
    # 16.2: players + 1 Events from the top; the first 3 face up
    assert [s.event for s in display.slots] == list(deck.cards[:4])
    assert rest.cards == deck.cards[4:]
    assert [s.face_up for s in display.slots] == [True, True, True, False]
    six = [f"p{i}" for i in range(6)]
    plain, _ = draw_display(deck, six)
    more, _ = draw_display(deck, six, reveal_more=True)
    assert len(plain.slots) == 7 and sum(s.face_up for s in plain.slots) == 3
    # Optional Rule 7: reveal 4 in 6-player games only
    assert sum(s.face_up for s in more.slots) == 4
    five, _ = draw_display(deck, six[:5], reveal_more=True)
    assert sum(s.face_up for s in five.slots) == 3


def test_next_age_when_current_runs_out() -> None:
    rng = random.Random(4)
    deck = new_deck(THREE, CATALOGUE, rng, DeckOptions())
    players = list(THREE.realms)
    rounds = 0
    while deck.cards:
        _, deck = draw_display(deck, players)
        done = end_of_round(deck, THREE, CATALOGUE, rng)
        rounds += 1
        if deck.cards:
            assert done.prepared_age is None and done.deck == deck
    # 16: at the end of a Round with no Event of the Age left, the next Age is prepared
    assert done.prepared_age == 2 and done.deck.age == 2 and len(done.deck.cards) == 18
    assert "Age 2 prepared" in done.message and rounds == 5
    last = end_of_round(EventDeck(2, (), ()), THREE, CATALOGUE, rng)
    assert last.prepared_age is None and "no Age follows" in last.message


def test_unpicked_event_offer_and_symbols() -> None:
    deck = EventDeck(1, ("11A-1", "103B", "12A-1", "103-2"), ())
    display, _ = draw_display(deck, ["france", "england", "castile"])
    # 16.2: a face-down Event is revealed when taken
    display, taken = take_event(display, 3, "france")
    assert taken == "103-2" and display.slots[3].face_up
    with pytest.raises(IllegalMoveError, match=r"16\.2"):
        take_event(display, 0, "france")
    with pytest.raises(IllegalMoveError, match=r"16\.4"):
        unpicked_event(display, CATALOGUE)
    display, _ = take_event(display, 0, "england")
    display, _ = take_event(display, 2, "castile")
    left = unpicked_event(display, CATALOGUE)
    assert left is not None and left.event == "103B" and left.offer is None
    # 16.4: symbols auto-resolved in order, with no Active player
    assert [s.colour for s in left.symbols] == ["red", "blue"] and left.active_player is None
    deck = EventDeck(1, ("11A-1", "103-2", "12A-1"), ())
    display, _ = draw_display(deck, ["france", "castile"])
    display, _ = take_event(display, 0, "france")
    display, _ = take_event(display, 2, "castile")
    left = unpicked_event(display, CATALOGUE)
    # 16.4: the player of the Ruler's Realm may pay 2 to appoint it
    assert left is not None and left.offer is not None
    assert (left.offer.player, left.offer.cost, left.offer.rule) == ("castile", 2, "16.4")
    assert left.offer.ruler == "Urraca the Wise"
