"""Europa Universalis: The Price of Power's event system as a registered game: its
options, states, moves and their JSON, the seats, and what a person reads.

What is modelled is chapter 16: the Event Deck of each Age (16, 16.1), the display
and the Events taken from it (16.2), each Event resolved step by step (16.3) with
its symbols (16.5), and the unpicked Event (16.4). The rest of EU:PoP (Actions
other than the Event Action, money, War, scoring) is not, so the game names no
winner: it ends when the last Age's deck is exhausted, or after ``rounds`` Rounds.

>>> from legalis.model.core.randomness import LoggedRandom
>>> game = EupopGame({"scenario": "three_crowns"})
>>> game.players, game.name
(('france', 'england', 'castile'), 'eupop')
>>> state = game.new_initial_state()
>>> state.play(state.sample_chance(LoggedRandom(1)))
>>> game.summary(state)["display"][0]
{'slot': 1, 'event': '103-1', 'face_up': True, 'taken_by': None}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from legalis.model.core.game import OptionSpec
from legalis.model.core.views import RandomSource
from legalis.model.errors import InputError
from legalis.model.eupop import effects as fx
from legalis.model.eupop import religion, secondary
from legalis.model.eupop.deck import OPTIONAL_6, PREPARING, load_scenario
from legalis.model.eupop.events import load_catalogue
from legalis.model.eupop.play import GENERAL, SYMBOL_STAGE
from legalis.model.eupop.state import EuState, bundled_state, keep_players
from legalis.solver.eupop_play import AB_RULE
from legalis.solver.eupopgame.json import state_from_json
from legalis.solver.eupopgame.moves import (
    Decide,
    PrepareDeck,
    Roll,
    TakeEvent,
    describe,
    move_from_json,
    move_to_json,
)
from legalis.solver.eupopgame.options import EupopOptions
from legalis.solver.eupopgame.schema import move_schema, state_schema
from legalis.solver.eupopgame.state import EupopRules, EupopState

__all__ = [
    "GREEDY_SAMPLE",
    "MODELS",
    "SEAT_KINDS",
    "EupopGame",
    "NonplayerSeat",
    "holdings",
    "option_specs",
]

SEAT_KINDS = ("nonplayer", "random", "greedy", "human")
GREEDY_SAMPLE = 12  # choices the greedy seat tries at a step
MODELS = (
    "the event system of chapter 16: the Event Deck of each Age (16, 16.1), the "
    "display and the Events taken from it (16.2), each Event's main text (16.3) and "
    "symbols (16.5), the unpicked Event's symbols (16.4); not modelled: the rest of "
    "EU:PoP (the other Actions, money and the 16.4 Ruler offer, War, scoring), so "
    "no winner is named"
)

# The rule each option reads and a line for people (the values come from the option
# classes themselves).
_ABOUT: dict[str, tuple[str, str]] = {
    "scenario": (PREPARING, "the scenario set-up: its Realms, Ages and Events"),
    "nonplayers": (SYMBOL_STAGE, "the Realms the rules play: their Events auto-resolve"),
    "rounds": ("16", "Rounds to play; 0: until the last Age's deck is exhausted"),
    "pick_order": ("16.2", "who takes the first Event of a Round"),
    "nonplayer_pick": ("16.2", "which Event on display a Non-player takes"),
    "reveal_more": ("Optional Rule 7", "6 players: 4 Events face up instead of 3"),
    "inclusive_or": (GENERAL, "a listed effect may be taken for several items"),
    "player_default": (SYMBOL_STAGE, "the auto-resolution's choice for a player"),
    "ab_default": (GENERAL, "the auto-resolution's A)/B) side when both are open"),
    "ab_met": (GENERAL, "a side can be met when all, or any, of its effects can"),
    "influence_up_to": (fx.INFLUENCE, "gained I may be placed only in part"),
    "replaced_alliance_returns": (fx.ALLIANCE, "a replaced A goes back to its owner"),
    "units_split": (fx.UNITS, "gained Units may go to several locations"),
    "skip_passed": (fx.ACTION, "the Turn after a gained Action skips Passed players"),
    "research_points": (fx.RESEARCH, "what a Research scores"),
    "fill_empty_slot": (fx.RESEARCH, "a new Idea takes an empty slot before a new row"),
    "loss_rounding": (fx.TERMINATE, "rounding of half the pre-War Tax Income lost"),
    "terminated_alliance_returns": (fx.TERMINATE, "a terminated A goes back to its owner"),
    "realm_adjacency": (secondary.DNPR, "which Provinces are adjacent to a DNPR"),
    "cardinal_tie": (secondary.CARDINAL, "whose C goes when PRs tie for the most"),
    "lost_at_sea_pick": (secondary.LOST, "the Ship a player choosing for themselves loses"),
    "native_ignore": (secondary.NATIVE, "what an auto-resolved Active player ignores"),
    "same_faith_target": (religion.RELIGION_RULE, "a Q may go to an Area of its faith"),
    "diverse_on_diverse": (religion.RELIGION_RULE, "Diverse Faiths on Diverse Faiths"),
    "randomize_x": (OPTIONAL_6, "deal the X-Events to the two halves at random"),
    "odd_x_card": (OPTIONAL_6, "the half that takes the extra card of an odd deck"),
}


def option_specs() -> tuple[OptionSpec, ...]:
    """Every option of the game: name, values, default, the rule it reads, help.

    >>> spec = {s.name: s for s in option_specs()}["odd_x_card"]
    >>> spec.allowed, spec.default, spec.rule
    (('first_half', 'second_half', 'random'), 'first_half', 'Optional Rule 6')
    """
    defaults = EupopOptions().to_json()
    specs = []
    for name in EupopOptions.names():
        rule, about = _ABOUT[name]
        specs.append(OptionSpec(name, EupopOptions.allowed(name), defaults[name], rule, about))
    return tuple(specs)


class EupopGame:
    """EU:PoP's event system from a scenario, with its options (:class:`EupopOptions`)."""

    name = "eupop"
    title = "Europa Universalis: The Price of Power"
    seat_kinds: tuple[str, ...] = SEAT_KINDS

    def __init__(self, options: Mapping[str, Any] | EupopOptions | None = None) -> None:
        self.options = (
            options if isinstance(options, EupopOptions) else EupopOptions.from_json(options)
        )
        scenario = load_scenario(self.options.scenario)
        opening = keep_players(bundled_state(), list(scenario.realms))
        opening.active = None
        self.rules = EupopRules(self.options, scenario, load_catalogue(), opening)

    @property
    def players(self) -> tuple[str, ...]:
        """The scenario's Realms, in seat order."""
        return self.rules.players

    def new_initial_state(self) -> EupopState:
        """The opening: the map set up, the first Age's deck to prepare (chance)."""
        return EupopState(self.rules)

    def state_from_json(self, raw: Any, *, source: str | None = None) -> EupopState:
        return state_from_json(raw, self.rules, source=source)

    def move_from_json(self, raw: Any) -> Any:
        return move_from_json(raw)

    def move_to_json(self, move: Any) -> dict[str, Any]:
        return move_to_json(move)

    def nonplayer_seat(self, player: str) -> NonplayerSeat:
        """The seat the rules play for ``player`` (a Realm of the option ``nonplayers``)."""
        if player not in self.options.nonplayers:
            raise InputError(
                f"{player} is not a Non-player in this game: name it in the option nonplayers",
                path="nonplayers",
                allowed=self.players,
            )
        return NonplayerSeat(self, player)

    def schemas(self) -> dict[str, dict[str, Any]]:
        """JSON Schemas (Draft 2020-12) of a state's and a move's JSON."""
        return {"state": state_schema(), "move": move_schema()}

    # ------------------------------------------------------------------ people

    def describe_move(self, move: Any) -> str:
        """One line for people, e.g. ``france takes 13A-2 from slot 2``."""
        return describe(move)

    def move_group(self, move: Any) -> str:
        """The heading a person's list shows the move under: ``Chance``, ``Take an
        Event``, or the rule of the step decided."""
        if isinstance(move, PrepareDeck | Roll):
            return "Chance"
        if isinstance(move, TakeEvent):
            return "Take an Event"
        if isinstance(move, Decide):
            return move.rule
        return type(move).__name__

    def describe_item(self, item: object) -> str:
        """An Event id as its id, title and kind; anything else as text."""
        event = self.rules.catalogue.events.get(str(item))
        if event is None:
            return str(item)
        kind = {"A": "A-Event", "B": "B-Event", "realm": f"{event.realm} Event"}[event.kind]
        return f"{event.id.text} {event.title} (Age {event.age} {kind})"

    def result_of(self, state: EupopState) -> dict[str, Any] | None:
        """None until over; then no winner (chapter 16 names none) and why it ended."""
        if not state.is_over:
            return None
        assert state.deck is not None
        return {
            "winner": None,
            "condition": state.end,
            "rule": "16",
            "rounds": state.round,
            "age": state.deck.age,
        }

    def describe_result(self, result: dict[str, Any] | None) -> str:
        """The result for people.

        >>> EupopGame().describe_result({"winner": None, "condition": "decks", "rounds": 9,
        ...                              "age": 2})
        'no winner (the event system names none): the Event Deck of Age 2, the last Age, \
is exhausted after 9 Rounds'
        """
        if result is None:
            return "unfinished"
        why = {
            "decks": f"the Event Deck of Age {result.get('age')}, the last Age, is exhausted",
            "rounds": "the Rounds the option rounds asks for are played",
        }.get(str(result.get("condition")), str(result.get("condition")))
        return f"no winner (the event system names none): {why} after {result.get('rounds')} Rounds"

    def summary(self, state: EupopState) -> dict[str, Any]:
        """Where the game stands: Age, deck, display (face-down Events hidden), who
        is to move, the pending step and its rule, each player's holdings."""
        deck, step = state.deck, state.pending
        return {
            "models": MODELS,
            "scenario": self.options.scenario,
            "turn": state.round,
            "round": state.round,
            "age": None if deck is None else deck.age,
            "deck": 0 if deck is None else len(deck.cards),
            "ages_left": [] if deck is None else list(deck.ages_left),
            "stage": state.stage,
            "to_move": state.to_move,
            "display": [
                {
                    "slot": index + 1,
                    "event": slot.event if slot.face_up else None,
                    "face_up": slot.face_up,
                    "taken_by": slot.taken_by,
                }
                for index, slot in enumerate(state.display.slots)
            ],
            "event": None
            if state.current is None
            else {
                "id": state.current.event,
                "player": state.current.player,
                "slot": state.current.slot,
                "decisions": len(state.current.choices),
            },
            "pending": None
            if step is None
            else {
                "player": step.player,
                "rule": step.rule,
                "choices": step.view.count(),
            },
            "holdings": {p: holdings(state.map, p) for p in self.players},
            "nonplayers": list(self.options.nonplayers),
            "result": self.result_of(state),
        }

    def render(self, state: EupopState, viewer: str | None = None) -> list[str]:
        """Lines for people: the Round, the deck and display (face-down Events
        hidden), the pending step, each player's holdings, the last of the log."""
        info = self.summary(state)
        age = f"Age {info['age']}" if info["age"] is not None else "before Age 1"
        lines = [
            f"{self.title} ({self.options.scenario}), {age}, Round {state.round}: "
            f"{state.stage}; {state.to_move} to move"
        ]
        lines.append(
            f"  deck: {info['deck']} Events left; Ages to come: "
            + (", ".join(map(str, info["ages_left"])) or "none")
        )
        for slot in info["display"]:
            shown = slot["event"] or "(face down)"
            taker = f" taken by {slot['taken_by']}" if slot["taken_by"] else ""
            lines.append(f"  slot {slot['slot']}: {shown}{taker}")
        if info["event"] is not None:
            event = info["event"]
            lines.append(f"  resolving {self.describe_item(event['id'])} for {event['player']}")
        step = state.pending
        if step is not None:
            lines.append(f"  {step.player} decides {step.rule} ({step.view.count()} choices)")
        for player, held in info["holdings"].items():
            mark = " (you)" if player == viewer else ""
            lines.append(f"  {player}{mark}: holdings {held}")
        lines.extend(f"  | {line}" for line in state.log[-8:])
        return lines

    # ------------------------------------------------------------------ greedy

    def greedy_move(self, state: EupopState, rng: RandomSource) -> Any:
        """The move after which the mover's :func:`holdings` are highest once the
        Event is resolved, its later steps by their first choice: at a step, of up
        to 12 choices drawn at random; at the display, of the face-up Events (their
        dice seeded 0), a face-down one counting as no change (it cannot be seen).
        Ties go to the first tried."""
        view = state.legal_moves()
        total = view.count()
        if total <= 1:
            return view.nth(0)
        mover = state.to_move
        if state.stage == "pick":
            tried = list(view)
        else:
            tried = [
                view.nth(i)
                for i in sorted({rng.randrange(total) for _ in range(min(GREEDY_SAMPLE, total))})
            ]
        base = holdings(state.map, mover)
        best, best_score = tried[0], None
        for move in tried:
            face_down = isinstance(move, TakeEvent) and move.event is None
            score = base if face_down else holdings(_finished(state, move), mover)
            if best_score is None or score > best_score:
                best, best_score = move, score
        return best


def _finished(state: EupopState, move: Any) -> EuState:
    """The map once ``move`` is played and its Event resolved, each later step by its
    first choice and the dice seeded 0."""
    after = state.apply(move)
    while after.stage in ("roll", "resolve"):  # the Event under way, until it is done
        after.play(Roll(0) if after.stage == "roll" else after.legal_moves().nth(0))
    return after.map


def holdings(state: EuState, player: str) -> int:
    """A rough count of what ``player`` holds on the map, for the greedy seat: its I,
    G, t (a Large one 2) and v, Merchants, Alliances and Royal Marriages, Ships and
    deployed Land Units, and Stability; less its Provinces with Unrest.

    >>> from legalis.model.eupop.state import small_state
    >>> holdings(small_state(), "france")
    4
    """
    realm = state.realms[player]
    influence = sum(area.influence.get(player, 0) for area in state.areas.values())
    g = sum(player in area.g for area in state.areas.values())
    towns = sum(
        (2 if p.town == "large" else 1) - (1 if p.unrest else 0)
        for p in state.provinces.values()
        if p.town_of == player
    )
    ties = sum((r.ally == player) + (player in r.marriages) for r in state.realms.values())
    units = sum(state.ships.get(player, {}).values()) + sum(
        state.land_units.get(player, {}).values()
    )
    return influence + g + towns + realm.merchants + ties + units + realm.stability


class NonplayerSeat:
    """The seat the rules play: the Events it takes are resolved whole by the
    auto-resolution (the state does it: option ``nonplayers``, 16.5); at the display
    it takes the leftmost Event left, or a random one (option ``nonplayer_pick``);
    at a step of another player's Event that is its own to decide (an effect for
    every player, 16.3; Native Uprising, Disloyal Vassals, 16.5) it makes the
    auto-resolution's choice: ``ab_default`` at an A)/B) choice, else the first
    choice (``player_default="first"``) or a uniform draw (``"random"``), as
    :func:`~legalis.solver.eupop_play.resolve` with ``auto`` does.

    >>> from legalis.model.core.randomness import LoggedRandom
    >>> game = EupopGame({"nonplayers": ["france", "england"]})
    >>> state, rng = game.new_initial_state(), LoggedRandom(3)
    >>> state.play(state.sample_chance(rng))
    >>> game.nonplayer_seat("france").choose(state, rng).slot
    1
    """

    name = "nonplayer"

    def __init__(self, game: EupopGame, player: str) -> None:
        self.game = game
        self.player = player

    def choose(self, state: EupopState, rng: RandomSource) -> Any:
        view = state.legal_moves()
        options = self.game.options
        if state.stage == "pick":
            if options.nonplayer_pick == "random":
                return view.random(rng)
            return view.nth(0)
        step = state.pending
        if step is not None and step.rule == AB_RULE:
            side = Decide(step.player, step.rule, options.play.ab_default)
            if side in view:
                return side
        if options.play.player_default == "random":
            return view.random(rng)
        return view.nth(0)
