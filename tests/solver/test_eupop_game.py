"""EU:PoP's event system as a whole game: random playouts from every scenario with
every kind of seat, JSON round trips, the views, the Non-player seat against the
auto-resolution, and golden examples worked by hand from chapter 16."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from legalis.model.core.randomness import LoggedRandom
from legalis.model.errors import IllegalMoveError, InputError
from legalis.model.eupop.deck import (
    PREPARING,
    Display,
    DisplaySlot,
    EventDeck,
    load_scenario,
    scenario_names,
)
from legalis.model.eupop.secondary import NativeChoice
from legalis.model.eupop.state import state_from_json as eupop_state_from_json
from legalis.model.eupop.state import turn_started
from legalis.solver.eupop_play import replay, resolve
from legalis.solver.eupopgame.game import EupopGame, option_specs
from legalis.solver.eupopgame.moves import Decide, PrepareDeck, Roll, TakeEvent
from legalis.solver.eupopgame.state import EupopState, StepView
from legalis.solver.players import GreedyPlayer, Player, RandomPlayer

import legalis

CHOICE_TRIES = 40  # listed moves checked one by one at a large view


def listed_deck(game: EupopGame, age: int) -> PrepareDeck:
    """The deck of ``age`` in the order the set-up lists it: a legal preparation."""
    setup = game.rules.scenario.ages[age]
    first = (*setup.first_half, *(e for e, half in setup.x if half == "1"))
    second = (*setup.second_half, *(e for e, half in setup.x if half == "2"))
    return PrepareDeck(age, first, second)


def check_view(game: EupopGame, state: EupopState) -> None:
    """count() is the listing's length, nth(i) the i-th, each listed move is legal,
    hashable, and round-trips through JSON; candidates not listed are refused."""
    view = state.legal_moves()
    listed = list(view)
    assert view.count() == len(listed) and len(set(listed)) == len(listed)
    for index, move in enumerate(listed[:CHOICE_TRIES]):
        assert view.nth(index) == move and move in view and view.refusal(move) is None
        hash(move)
        written = json.loads(json.dumps(game.move_to_json(move)))
        assert game.move_from_json(written) == move
        assert game.describe_move(move) and game.move_group(move)
    for candidate in candidates(game, state):
        assert (candidate in view) == (candidate in listed), candidate
        if candidate not in listed:
            refused = view.refusal(candidate)
            assert refused is not None and refused.rule


def candidates(game: EupopGame, state: EupopState) -> list[Any]:
    """Moves of the same kinds as the legal ones, most of them not legal here."""
    slots = len(state.display.slots)
    takes = [
        TakeEvent(player, slot, event)
        for player in game.players
        for slot in range(0, slots + 2)
        for event in (None, *(s.event for s in state.display.slots))
    ]
    step = state.pending
    if step is None:
        return takes
    first = step.view.nth(0)
    return [
        *takes[:20],
        *(Decide(player, step.rule, first) for player in game.players),
        Decide(step.player, "16.3 another rule", first),
        Decide(step.player, step.rule, "no such choice"),
        Decide(step.player, step.rule, 99),
        Roll(3),
    ]


def seats(game: EupopGame, kind: str) -> dict[str, Player]:
    if kind == "nonplayer":
        return {p: game.nonplayer_seat(p) for p in game.options.nonplayers}
    if kind == "greedy":
        return {p: GreedyPlayer(game) for p in game.players}
    return {p: RandomPlayer() for p in game.players}


def check_event_replays(before: EupopState, move: Any, after: EupopState) -> None:
    """An Event finished by ``move`` left the map that replaying its choices (or, for a
    Non-player, the auto-resolution) gives from the map it started on."""
    current = before.current
    if current is None or after.current is not None or before.stage not in ("roll", "resolve"):
        return
    event = before.rules.event(current.event)
    options = before.rules.options
    if before.stage == "roll":
        assert isinstance(move, Roll)
        start, seed, choices = turn_started(before.map), move.seed, []
        start.active = current.player
    else:
        start, seed = before.map, current.seed
        assert seed is not None
        choices = [*current.choices, StepView(before.pending).number(move)]  # type: ignore[arg-type]
    if current.player in options.nonplayers:
        outcome = resolve(
            start,
            event.effects,
            event.symbols,
            auto=True,
            choices=[],
            seed=seed,
            options=options.play,
        )
    else:
        outcome = replay(
            start, event.effects, event.symbols, choices=choices, seed=seed, options=options.play
        )
    assert outcome.pending is None and outcome.state is not None
    expected = outcome.state.copy()
    expected.active = None
    assert after.map == expected


def playout(game: EupopGame, kind: str, seed: int, *, schemas: bool = False) -> EupopState:
    """A whole game, every state and move checked on the way (and, with ``schemas``,
    validated against the game's JSON Schemas: slow, so asked for once a scenario)."""
    players, rng = seats(game, kind), LoggedRandom(seed)
    state = game.new_initial_state()
    validators = {}
    if schemas:
        for name, body in game.schemas().items():
            jsonschema.Draft202012Validator.check_schema(body)
            validators[name] = jsonschema.Draft202012Validator(body)
    while not state.is_over:
        assert state.invariant_problems() == []
        raw = json.loads(json.dumps(state.to_json()))
        if validators:
            validators["state"].validate(raw)
        again = game.state_from_json(raw)
        assert again == state and again.to_json() == state.to_json()
        assert state.copy() == state
        json.dumps(game.summary(state))  # the summary is JSON, for display
        assert all(isinstance(line, str) for line in game.render(state, viewer=game.players[0]))
        if state.is_chance:
            move = state.sample_chance(rng)
        else:
            check_view(game, state)
            seat = players.get(state.to_move, RandomPlayer())
            move = seat.choose(state, rng)
            assert move in state.legal_moves()
        if validators:
            validators["move"].validate(game.move_to_json(move))
        after = state.apply(move)
        check_event_replays(state, move, after)
        state = after
    assert state.invariant_problems() == [] and state.legal_moves().count() == 0
    assert game.result_of(state) is not None
    return state


# ---------------------------------------------------------------------- playouts


@pytest.mark.parametrize("scenario", scenario_names())
@pytest.mark.parametrize("kind", ["random", "nonplayer"])
def test_random_and_nonplayer_playouts_reach_the_end_of_the_last_age(
    scenario: str, kind: str
) -> None:
    realms = load_scenario(scenario).realms
    # the Non-player game leaves one seat to a random player: both kinds meet in it
    options = {"scenario": scenario, "nonplayers": list(realms[:-1]) if kind == "nonplayer" else []}
    game = EupopGame(options)
    for seed in (1, 2):
        final = playout(game, kind, seed, schemas=seed == 1 and kind == "random")
        result = game.result_of(final)
        assert result is not None and result["winner"] is None
        # 16: every Age's deck is gone through before the game ends
        assert result["condition"] == "decks" and result["age"] == max(game.rules.ages)


@pytest.mark.parametrize("scenario", scenario_names())
def test_a_greedy_playout_reaches_the_end(scenario: str) -> None:
    game = EupopGame({"scenario": scenario})
    final = playout(game, "greedy", 4)
    assert final.end == "decks"


def test_the_registry_loads_the_game_with_its_own_options() -> None:
    game = legalis.load_game("eupop", {"scenario": "three_crowns", "rounds": "2"})
    assert isinstance(game, EupopGame) and game.options.rounds == 2
    again = legalis.load_game("eupop", game.options.to_json())
    assert again.options == game.options
    specs = option_specs()
    assert [spec.name for spec in specs] == list(game.options.to_json())
    assert legalis.registry.game_entry("eupop").option_names == tuple(s.name for s in specs)
    assert all(spec.rule and spec.help for spec in specs)
    assert {s.name: s.allowed for s in specs}["native_ignore"] == ("colonist", "unrest", None)


def test_a_bad_option_names_its_field_and_the_allowed_values() -> None:
    with pytest.raises(InputError) as bad:
        EupopGame({"pick_order": "backwards"})
    assert bad.value.path == "options.pick_order" and "rotating" in (bad.value.allowed or [])
    with pytest.raises(InputError) as unknown:
        EupopGame({"turns": 3})
    assert unknown.value.path == "options.turns"
    with pytest.raises(InputError) as realm:
        EupopGame({"scenario": "channel_rivals", "nonplayers": ["castile"]})
    assert realm.value.path == "options.nonplayers"


# ---------------------------------------------------------------------- the views


def first_round(game: EupopGame) -> EupopState:
    state = game.new_initial_state()
    state.play(listed_deck(game, 1))
    return state


def test_a_refused_choice_names_the_steps_rule() -> None:
    game = EupopGame({"scenario": "three_crowns"})
    state = first_round(game)
    state.play(TakeEvent("france", 1, "11A-1"))
    state.play(Roll(0))
    step = state.pending
    assert step is not None and step.rule == "16.3 Gain/place Influence"
    wrong = Decide("france", step.rule, "lombardy")
    refused = state.legal_moves().refusal(wrong)
    assert refused is not None and refused.rule == step.rule
    with pytest.raises(IllegalMoveError) as error:
        state.play(Decide("england", step.rule, step.view.nth(0)))
    assert error.value.rule == step.rule


def test_taking_a_taken_slot_or_out_of_turn_is_refused_by_16_2() -> None:
    game = EupopGame({"scenario": "three_crowns"})
    state = first_round(game)
    assert state.refusal(TakeEvent("england", 1, "11A-1")).rule == "16.2"  # type: ignore[union-attr]
    # a face-down Event is taken without naming it
    assert state.refusal(TakeEvent("france", 4, "101B")).rule == "16.2"  # type: ignore[union-attr]
    state.play(TakeEvent("france", 1, "11A-1"))
    assert state.refusal(Roll(-1)) is not None
    assert state.refusal(TakeEvent("england", 1, "11A-1")).rule == "16.5"  # type: ignore[union-attr]


def test_a_deck_not_as_the_set_up_lists_it_is_refused() -> None:
    game = EupopGame({"scenario": "three_crowns"})
    state = game.new_initial_state()
    listed = listed_deck(game, 1)
    swapped = PrepareDeck(
        1,
        (listed.second_half[0], *listed.first_half[1:]),
        (listed.first_half[0], *listed.second_half[1:]),
    )
    assert state.refusal(swapped).rule == PREPARING  # type: ignore[union-attr]
    assert state.refusal(PrepareDeck(2, listed.first_half, listed.second_half)) is not None
    assert state.refusal(Roll(1)).rule == PREPARING  # type: ignore[union-attr]
    randomized = EupopGame({"scenario": "three_crowns", "randomize_x": True})
    opening = randomized.new_initial_state()
    for seed in range(5):  # Optional Rule 6: every dealt deck is a legal preparation
        assert opening.refusal(opening.sample_chance(LoggedRandom(seed))) is None


# ---------------------------------------------------------------------- golden examples


def test_golden_first_round_of_three_crowns() -> None:
    game = EupopGame({"scenario": "three_crowns"})
    state = first_round(game)
    # 16.2: players + 1 = 4 Events on display, the first 3 face up
    assert [s.event for s in state.display.slots] == ["11A-1", "11A-2", "12A-2", "101B"]
    assert [s.face_up for s in state.display.slots] == [True, True, True, False]
    # the 4th is offered without its id: it is face down
    assert list(state.legal_moves())[3] == TakeEvent("france", 4, None)
    state.play(TakeEvent("france", 3, "12A-2"))
    state.play(Roll(0))
    # 16.3 Gain G: one Area named, one legal choice: forced, no move; then 16.5
    # Cardinal Dies: the Active player removes any C but Roma's: positions 2 to 4
    step = state.pending
    assert step is not None and step.player == "france" and step.rule == "16.5 Cardinal Dies"
    assert list(step.view) == [1, 2, 3]
    assert state.refusal(Decide("france", step.rule, 0)).rule == "16.5 Cardinal Dies"  # type: ignore[union-attr]
    state.play(Decide("france", step.rule, 2))  # france's own C
    assert state.map.curia == ["roma", "castile", "castile"]  # the rest slide left
    assert state.map.areas["lombardy"].g == ["france"]
    # 16.2: the face-down Event is revealed as it is taken
    state.play(TakeEvent("england", 4, None))
    assert state.display.slots[3].face_up and state.display.slots[3].taken_by == "england"
    state.play(Roll(1))
    while state.stage == "resolve":
        state.play(state.legal_moves().nth(0))
    state.play(TakeEvent("castile", 2, "11A-2"))
    state.play(Roll(2))
    while state.stage == "resolve":
        state.play(state.legal_moves().nth(0))
    assert state.map.realms["castile"].merchants == 2  # 16.3 Gain Merchant: 1 -> 2
    # 16.4: 11A-1 is left; its main text does not take effect, its symbol (skull)
    # auto-resolves: the King of France and the Queen of Castile get H
    assert state.stage == "unpicked" and state.is_chance
    influence = {a: dict(state.map.areas[a].influence) for a in ("saxony", "bohemia")}
    state.play(Roll(3))
    health = {p: [c.ill_health for c in state.map.realms[p].characters] for p in game.players}
    assert health == {"france": [1], "england": [0], "castile": [1]}
    assert {a: dict(state.map.areas[a].influence) for a in influence} == influence
    # the next Round: the next 4 Events, france first again (pick_order=seat_order)
    assert state.round == 2 and state.to_move == "france"
    assert [s.event for s in state.display.slots] == ["101-1", "103-1", "12A-1", "102B"]


def test_golden_gain_influence_in_one_of_two_areas() -> None:
    game = EupopGame({"scenario": "three_crowns"})
    state = first_round(game)
    state.play(TakeEvent("france", 1, "11A-1"))
    state.play(Roll(0))
    # 16.3 Gain/place Influence: 1 I in Saxony or Bohemia, both with NPR Provinces
    # and room (Saxony 2 I, Bohemia 3 I of the 5 allowed): two choices
    step = state.pending
    assert step is not None
    placements = {m.choice.placed: m for m in state.legal_moves()}
    assert set(placements) == {(("saxony", 1),), (("bohemia", 1),)}
    state.play(placements[(("bohemia", 1),)])
    assert state.map.areas["bohemia"].influence["france"] == 4
    assert state.to_move == "england" and state.current is None


def test_rotating_pick_order_and_a_round_limit() -> None:
    game = EupopGame({"scenario": "three_crowns", "pick_order": "rotating", "rounds": 2})
    state, rng = game.new_initial_state(), LoggedRandom(9)
    rounds_seen: dict[int, str] = {}
    while not state.is_over:
        if state.stage == "pick":
            rounds_seen.setdefault(state.round, state.to_move)
        move = state.sample_chance(rng) if state.is_chance else state.legal_moves().random(rng)
        state.play(move)
    assert rounds_seen == {1: "france", 2: "england"}
    assert game.result_of(state)["condition"] == "rounds"  # type: ignore[index]
    assert "option rounds" in game.describe_result(game.result_of(state))


# ---------------------------------------------------------------------- the Non-player


def test_a_nonplayers_own_event_is_the_auto_resolution() -> None:
    game = EupopGame({"scenario": "channel_rivals", "nonplayers": ["france", "england"]})
    state, rng = game.new_initial_state(), LoggedRandom(6)
    compared = 0
    while not state.is_over:
        if state.is_chance:
            move = state.sample_chance(rng)
        else:
            move = game.nonplayer_seat(state.to_move).choose(state, rng)
        after = state.apply(move)
        if state.stage == "roll":  # the whole Event resolves at its roll
            current = state.current
            assert current is not None and after.current is None
            event = game.rules.event(current.event)
            start = turn_started(state.map)
            start.active = current.player
            auto = resolve(
                start,
                event.effects,
                event.symbols,
                auto=True,
                choices=[],
                seed=move.seed,
                options=game.options.play,
            )
            assert auto.state is not None
            expected = auto.state.copy()
            expected.active = None
            assert after.map == expected
            compared += 1
        state = after
    assert compared > 10


@pytest.mark.parametrize("pick", ["leftmost", "random"])
def test_a_nonplayer_takes_the_leftmost_event_or_a_drawn_one(pick: str) -> None:
    # 16.2 leaves the Bot's pick open: nonplayer_pick reads it (docs/rules-questions.md)
    game = EupopGame({"scenario": "three_crowns", "nonplayers": ["france"], "nonplayer_pick": pick})
    slots = []
    for seed in range(8):
        state, rng = game.new_initial_state(), LoggedRandom(seed)
        while state.is_chance:
            state.play(state.sample_chance(rng))
        assert state.stage == "pick" and state.to_move == "france"
        view = state.legal_moves()
        taken = game.nonplayer_seat("france").choose(state, LoggedRandom(seed))
        assert taken in view
        slots.append(next(i for i in range(view.count()) if view.nth(i) == taken))
    if pick == "leftmost":
        assert set(slots) == {0}
    else:
        assert len(set(slots)) > 1  # eight draws do not all fall on the leftmost


def test_the_nonplayer_makes_the_auto_resolutions_choice_in_anothers_event() -> None:
    # 16.5 Native Uprising: each player puts u on one of its Distant t. england, a
    # Non-player, picks its own in france's Event; its seat's choice is the one the
    # auto-resolution makes (the first Distant t alphabetically)
    game = EupopGame({"scenario": "channel_rivals", "nonplayers": ["england"]})
    raw = game.rules.opening.to_json()
    for province in ("Bari", "Ancona"):
        raw["provinces"][province].update(distant=True, town="small", town_of="england")
    board = eupop_state_from_json(raw)
    deck = listed_deck(game, 1)
    shown = ("14A-2", "11A-1", "11A-2")  # 14A-2: a Royal Marriage, then Native Uprising
    rest = tuple(e for e in (*deck.first_half, *deck.second_half) if e not in shown)
    state = EupopState(
        game.rules,
        stage="pick",
        map=board.model_copy(update={"age": 1}),
        deck=EventDeck(1, rest, (2,)),
        display=Display(tuple(DisplaySlot(e, True) for e in shown), game.players),
    )
    assert state.invariant_problems() == []
    start = turn_started(state.map)
    start.active = "france"
    state.play(TakeEvent("france", 1, "14A-2"))
    state.play(Roll(4))
    seat, made = game.nonplayer_seat("england"), []
    while state.stage == "resolve":
        step = state.pending
        assert step is not None
        if step.player == "england":
            made.append(seat.choose(state, LoggedRandom(0)))
        else:  # france ignores the u, as the auto-resolution's Active player does
            ignore = NativeChoice(None, game.options.play.secondary.native_ignore)
            wanted = Decide("france", step.rule, ignore)
            made.append(wanted if wanted in state.legal_moves() else state.legal_moves().nth(0))
        state.play(made[-1])
    assert Decide("england", "16.5 Native Uprising", NativeChoice("Ancona")) in made
    event = game.rules.event("14A-2")
    auto = resolve(start, event.effects, event.symbols, auto=True, choices=[], seed=4)
    assert auto.state is not None
    assert state.map == auto.state.model_copy(update={"active": None})
    assert state.map.provinces["Ancona"].unrest and not state.map.provinces["Bari"].unrest


def test_a_nonplayer_seat_needs_its_realm_among_the_nonplayers() -> None:
    with pytest.raises(InputError) as error:
        EupopGame({"scenario": "channel_rivals"}).nonplayer_seat("france")
    assert error.value.path == "nonplayers"


# ---------------------------------------------------------------------- JSON


def test_a_state_from_json_names_the_bad_field() -> None:
    game = EupopGame({"scenario": "three_crowns"})
    state = first_round(game)
    state.play(TakeEvent("france", 1, "11A-1"))
    state.play(Roll(0))
    raw = state.to_json()
    for change, path in (
        ({"stage": "dance"}, "state.stage"),
        ({"options": {**raw["options"], "rounds": 3}}, "state.options"),
        ({"current": {**raw["current"], "choices": [9]}}, "state.current.choices"),
        ({"current": {**raw["current"], "player": "england"}}, "state.current"),
        ({"round": 0}, "state.round"),
    ):
        with pytest.raises(InputError) as error:
            game.state_from_json({**raw, **change})
        assert error.value.path == path, change
    with pytest.raises(InputError) as bad_map:
        game.state_from_json({**raw, "map": {**raw["map"], "age": 9}})
    assert (bad_map.value.path or "").startswith("state.map")


def test_a_move_from_json_names_the_bad_field() -> None:
    game = EupopGame()
    for raw, path in (
        ({"type": "fly"}, "move.type"),
        ({"type": "roll"}, "move.seed"),
        (
            {"type": "decide", "player": "france", "rule": "r", "kind": "Nope", "choice": 1},
            "move.kind",
        ),
        (
            {
                "type": "decide",
                "player": "france",
                "rule": "r",
                "kind": "GainG",
                "choice": {"zone": "x"},
            },
            "move.choice",
        ),
    ):
        with pytest.raises(InputError) as error:
            game.move_from_json(raw)
        assert error.value.path == path


def test_channel_rivals_puts_two_realms_in_play() -> None:
    game = EupopGame({"scenario": "channel_rivals"})
    opening = game.new_initial_state().map
    assert opening.players == ["france", "england"] and game.players == ("france", "england")
    assert opening.realms["castile"].kind == "npr"
    assert all("castile" not in node.merchants for node in opening.trade_nodes.values())
