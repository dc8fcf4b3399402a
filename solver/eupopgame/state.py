"""A whole EU:PoP game's state: the map, the Event Deck of the current Age, the
Event display, who takes an Event next, and the Event being resolved.

Play goes in Rounds (16.2): the display is drawn, each player in turn takes one of
its Events (a move) and a chance move rolls the Event's dice; the Event is then
resolved step by step, each step with more than one legal choice a decision of the
step's player (16.3, 16.5), while forced and empty steps are decided by the rules.
An Event is never stored half done: the state keeps the map as it stood before it,
the choice numbers so far and the seed, and recomputes the resolution with
:func:`~legalis.solver.eupop_play.replay`, so it is exact and replays. The Events
of the Realms the rules play (the option ``nonplayers``) are resolved whole by the
auto-resolution (16.5). After the last Event of a Round, the unpicked one's symbols
are auto-resolved with no Active player (16.4); when no Event of the Age is left,
the next Age's deck is prepared (16), and the game ends when the last Age's deck is
exhausted or after the option ``rounds`` Rounds.

>>> from legalis.model.core.randomness import LoggedRandom
>>> from legalis.solver.eupopgame.game import EupopGame
>>> state = EupopGame({"scenario": "three_crowns"}).new_initial_state()
>>> state.to_move, state.stage
('chance', 'prepare')
>>> state.play(state.sample_chance(LoggedRandom(1)))
>>> state.to_move, [slot.face_up for slot in state.display.slots]
('france', [True, True, True, False])
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, Literal

from legalis.model.core.views import ListView, MoveView, RandomSource, Refusal, SeedChances
from legalis.model.errors import IllegalMoveError, InputError, LegalisError
from legalis.model.eupop.deck import (
    PREPARING,
    Display,
    EventDeck,
    Scenario,
    draw_display,
    end_of_round,
    new_deck,
    take_event,
    unpicked_event,
)
from legalis.model.eupop.events import Catalogue, Event
from legalis.model.eupop.play import resolve_card_symbols
from legalis.model.eupop.resolution import ResolutionLog
from legalis.model.eupop.state import EuState, turn_started
from legalis.solver.eupop_play import Outcome, Step, replay, resolve
from legalis.solver.eupopgame.moves import SEED_OUTCOMES, Decide, PrepareDeck, Roll, TakeEvent
from legalis.solver.eupopgame.options import EupopOptions

__all__ = ["CHANCE", "STAGES", "CurrentEvent", "EupopRules", "EupopState", "StepView"]

CHANCE = "chance"
Stage = Literal["prepare", "pick", "roll", "resolve", "unpicked", "over"]
STAGES: tuple[Stage, ...] = ("prepare", "pick", "roll", "resolve", "unpicked", "over")
DISPLAY_RULE = "16.2"
UNPICKED_RULE = "16.4"
SYMBOL_RULE = "16.5"
GAME_END_RULE = "16"  # the Ages enter play in order; the game ends with the last one


@dataclass(frozen=True, eq=False)
class EupopRules:
    """What every state of one game shares: its options, scenario and catalogue."""

    options: EupopOptions
    scenario: Scenario
    catalogue: Catalogue
    opening: EuState  # the map at the start: the bundled state with the scenario's Realms

    @property
    def players(self) -> tuple[str, ...]:
        return self.scenario.realms

    @property
    def ages(self) -> tuple[int, ...]:
        """The scenario's Ages, in the order they enter play (16)."""
        return tuple(sorted(self.scenario.ages))

    def event(self, event_id: str) -> Event:
        return self.catalogue.events[event_id]


@dataclass(frozen=True)
class CurrentEvent:
    """The Event being resolved: its id, the player who took it (the Active player),
    the display slot it came from (1 is the leftmost), the seed of its dice (None
    until rolled) and the choice numbers of its steps so far (1-based, as
    :func:`~legalis.solver.eupop_play.replay` reads them)."""

    event: str
    player: str
    slot: int
    seed: int | None = None
    choices: tuple[int, ...] = ()


class StepView(MoveView[Decide]):
    """The legal choices of the pending step as :class:`Decide` moves: the step's
    own view, each choice wrapped with the player and the rule."""

    def __init__(self, step: Step) -> None:
        self.step = step

    def _wrap(self, choice: Any) -> Decide:
        return Decide(self.step.player, self.step.rule, choice)

    def __iter__(self) -> Iterator[Decide]:
        return (self._wrap(choice) for choice in self.step.view)

    def count(self) -> int:
        return self.step.view.count()

    def nth(self, index: int) -> Decide:
        if not 0 <= index < self.count():
            raise IndexError(index)
        return self._wrap(self.step.view.nth(index))

    def refusal(self, move: object) -> Refusal | None:
        step = self.step
        if not isinstance(move, Decide):
            return Refusal(f"{step.player} is deciding a step of the Event", step.rule)
        if move.player != step.player:
            return Refusal(f"{step.player} decides this step, not {move.player}", step.rule)
        if move.rule != step.rule:
            return Refusal(f"the step awaited is {step.rule!r}, not {move.rule!r}", step.rule)
        try:
            return step.view.refusal(move.choice)
        except (TypeError, ValueError, AttributeError):  # a choice the view cannot compare
            return Refusal(f"{move.choice!r} is not a choice of this step", step.rule)

    def number(self, move: Decide) -> int:
        """The 1-based position of a legal ``move`` among the step's choices."""
        for index, choice in enumerate(self.step.view):
            if choice == move.choice:
                return index + 1
        raise IllegalMoveError(f"{move.choice!r} is not a choice of this step", rule=self.step.rule)


class EupopState:
    """A position of an EU:PoP game.

    Attributes
    ----------
    rules : EupopRules
        The options, scenario and catalogue (shared by every state of the game).
    stage : str
        ``"prepare"`` (chance: an Age's deck), ``"pick"`` (a player takes an Event),
        ``"roll"`` (chance: the taken Event's dice), ``"resolve"`` (a step of the
        Event awaits its player), ``"unpicked"`` (chance: the dice of the unpicked
        Event's symbols) or ``"over"``.
    round : int
        The Round under way (the last one played, once over), from 1.
    map : EuState
        The map; while an Event is resolved, the map as it stood before it.
    deck : EventDeck | None
        The current Age's Event Deck, top first (None before the first Age).
    display : Display
        The Round's Event display (16.2), left to right.
    current : CurrentEvent | None
        The Event being resolved.
    log : list[str]
        What happened, one line each, for people.
    end : str | None
        Why the game ended: ``"decks"`` or ``"rounds"``.
    """

    def __init__(
        self,
        rules: EupopRules,
        *,
        stage: Stage = "prepare",
        round: int = 1,
        map: EuState | None = None,
        deck: EventDeck | None = None,
        display: Display | None = None,
        current: CurrentEvent | None = None,
        log: list[str] | None = None,
        end: str | None = None,
    ) -> None:
        self.rules = rules
        self.stage: Stage = stage
        self.round = round
        self.map = map if map is not None else rules.opening
        self.deck = deck
        self.display = display if display is not None else Display((), rules.players)
        self.current = current
        self.log = log if log is not None else []
        self.end = end
        self._outcome: Outcome | None = None

    # ------------------------------------------------------------------ protocol

    @property
    def to_move(self) -> str:
        """The player to decide, ``"chance"`` at a chance move, ``"none"`` once over."""
        if self.stage in ("prepare", "roll", "unpicked"):
            return CHANCE
        if self.stage == "over":
            return "none"
        if self.stage == "pick":
            picker = self.picker
            assert picker is not None
            return picker
        step = self.pending
        assert step is not None
        return step.player

    @property
    def is_over(self) -> bool:
        return self.stage == "over"

    @property
    def is_chance(self) -> bool:
        return self.to_move == CHANCE

    @property
    def players(self) -> tuple[str, ...]:
        return self.rules.players

    @property
    def turn(self) -> int:
        """The Round under way (a front door's turn counter)."""
        return self.round

    @property
    def phase(self) -> str:
        """The stage (a front door's phase)."""
        return self.stage

    def legal_moves(self) -> MoveView[Any]:
        """The legal moves here: the untaken display slots, the pending step's
        choices, a chance move's outcomes, or none once over."""
        if self.is_chance:
            # an Age's deck orders number in the billions: checked, not listed (16)
            unlisted = "deck orders (16)" if self.stage == "prepare" else None
            return SeedChances(Roll, SEED_OUTCOMES, self.refusal, unlisted=unlisted)
        if self.stage == "pick":
            picker = self.picker
            moves = [
                TakeEvent(picker or "", index + 1, slot.event if slot.face_up else None)
                for index, slot in enumerate(self.display.slots)
                if slot.taken_by is None
            ]
            return ListView(moves, self.refusal)
        if self.stage == "resolve":
            step = self.pending
            assert step is not None
            return StepView(step)
        return ListView([], self.refusal)

    def refusal(self, move: object) -> Refusal | None:
        """None when ``move`` is legal here, else why not and the rule."""
        if self.stage == "over":
            return Refusal(f"the game is over ({self.end})", GAME_END_RULE)
        if self.stage == "prepare":
            return self._preparation_refusal(move)
        if self.stage in ("roll", "unpicked"):
            if not isinstance(move, Roll):
                return Refusal("the Event's dice are rolled first (a chance move)", SYMBOL_RULE)
            if not 0 <= move.seed < SEED_OUTCOMES:
                return Refusal(f"a seed is from 0 to {SEED_OUTCOMES - 1}", SYMBOL_RULE)
            return None
        if self.stage == "pick":
            return self._take_refusal(move)
        step = self.pending
        assert step is not None
        return StepView(step).refusal(move)

    def apply(self, move: Any) -> EupopState:
        """A new state with ``move`` played; this one is unchanged."""
        new = self.copy()
        new.play(move)
        return new

    def play(self, move: Any) -> None:
        """Play ``move`` in place; an illegal one raises :class:`IllegalMoveError`
        naming the rule, and changes nothing."""
        refused = self.refusal(move)
        if refused is not None:
            raise IllegalMoveError(refused.reason, rule=refused.rule)
        if isinstance(move, PrepareDeck):
            self._prepare(move)
        elif isinstance(move, TakeEvent):
            self._take(move)
        elif isinstance(move, Roll):
            self._roll(move.seed)
        else:
            step = self.pending
            assert step is not None and self.current is not None
            number = StepView(step).number(move)
            self._go_on(replace(self.current, choices=(*self.current.choices, number)))

    def sample_chance(self, rng: RandomSource) -> Any:
        """The chance move due, drawn from ``rng``: the next Age's deck prepared as
        the set-up lists it (:func:`~legalis.model.eupop.deck.new_deck` for the first,
        :func:`~legalis.model.eupop.deck.end_of_round` after), or a Roll's seed."""
        if self.stage == "prepare":
            rules = self.rules
            if self.deck is None:
                deck = new_deck(rules.scenario, rules.catalogue, rng, rules.options.deck)
            else:
                deck = end_of_round(
                    self.deck, rules.scenario, rules.catalogue, rng, rules.options.deck
                ).deck
            prepared = deck.prepared[-1]
            return PrepareDeck(prepared.age, prepared.first_half, prepared.second_half)
        if self.stage in ("roll", "unpicked"):
            return Roll(rng.randrange(SEED_OUTCOMES))
        raise IllegalMoveError("no chance move is due here", rule=GAME_END_RULE)

    def copy(self) -> EupopState:
        """An independent copy (the map and deck are never changed in place, so
        they are shared)."""
        new = EupopState(
            self.rules,
            stage=self.stage,
            round=self.round,
            map=self.map,
            deck=self.deck,
            display=self.display,
            current=self.current,
            log=list(self.log),
            end=self.end,
        )
        new._outcome = self._outcome
        return new

    def to_json(self) -> dict[str, Any]:
        from legalis.solver.eupopgame.json import state_to_json

        return state_to_json(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EupopState) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------------ reading

    @property
    def taken(self) -> dict[str, int]:
        """Each player who has taken an Event this Round, with its slot (1-based)."""
        return {
            slot.taken_by: index + 1
            for index, slot in enumerate(self.display.slots)
            if slot.taken_by is not None
        }

    @property
    def picker(self) -> str | None:
        """Who takes an Event next this Round: the players in seat order from the
        Round's first, skipping those who have taken one; None when every player
        has, or no Event is left on display."""
        if all(slot.taken_by is not None for slot in self.display.slots):
            return None
        taken = self.taken
        return next((p for p in self.round_order() if p not in taken), None)

    def round_order(self) -> list[str]:
        """The order the players take their Events in this Round (option ``pick_order``)."""
        players = list(self.players)
        first = 0
        if self.rules.options.pick_order == "rotating":
            first = (self.round - 1) % len(players)
        return players[first:] + players[:first]

    @property
    def outcome(self) -> Outcome | None:
        """The current Event's resolution so far (recomputed when first asked)."""
        current = self.current
        if current is None or current.seed is None:
            return None
        if self._outcome is None:
            self._outcome = self._resolution(current)
        return self._outcome

    @property
    def pending(self) -> Step | None:
        """The step awaiting a decision, if any."""
        outcome = self.outcome
        return None if outcome is None else outcome.pending

    def next_age(self) -> int | None:
        """The Age whose deck is prepared next (None: no Age follows)."""
        if self.deck is None:
            return self.rules.ages[0]
        return self.deck.ages_left[0] if self.deck.ages_left else None

    # ------------------------------------------------------------------ refusals

    def _preparation_refusal(self, move: object) -> Refusal | None:
        age = self.next_age()
        if not isinstance(move, PrepareDeck):
            return Refusal(
                f"the Event Deck of Age {age} is prepared first (a chance move)", PREPARING
            )
        if move.age != age:
            return Refusal(f"the deck prepared now is Age {age}'s, not Age {move.age}'s", PREPARING)
        setup = self.rules.scenario.ages[age]
        cards = [*move.first_half, *move.second_half]
        if Counter(cards) != Counter(setup.ids()):
            return Refusal(
                f"the deck holds exactly the Events the set-up lists for Age {age}", PREPARING
            )
        options = self.rules.options.deck
        if not options.randomize_x:
            listed = {*setup.first_half, *(event for event, half in setup.x if half == "1")}
            if set(move.first_half) != listed:
                return Refusal(
                    "each half holds the Events the set-up lists for it (an X-Event "
                    "in its suggested half)",
                    PREPARING,
                )
            return None
        if not set(setup.first_half) <= set(move.first_half) or not set(setup.second_half) <= set(
            move.second_half
        ):
            return Refusal(
                "the (1) cards go to the first half, the (2) cards to the second", "Optional Rule 6"
            )
        total, extra = len(cards), len(cards) % 2
        sizes = {
            "first_half": {total // 2 + extra},
            "second_half": {total // 2},
            "random": {total // 2, total // 2 + extra},
        }[options.odd_x_card]
        xs, marked = len(setup.x), len(setup.first_half)
        allowed = {marked + min(xs, max(0, size - marked)) for size in sizes}
        if len(move.first_half) not in allowed:
            return Refusal(
                "the X-cards are dealt so that the two stacks are as equal as the "
                f"marked cards allow (odd_x_card={options.odd_x_card})",
                "Optional Rule 6",
            )
        return None

    def _take_refusal(self, move: object) -> Refusal | None:
        picker = self.picker
        if not isinstance(move, TakeEvent):
            return Refusal(f"{picker} takes an Event from the display", DISPLAY_RULE)
        if move.player != picker:
            return Refusal(f"{picker} takes an Event now, not {move.player}", DISPLAY_RULE)
        slots = self.display.slots
        if not 1 <= move.slot <= len(slots):
            return Refusal(f"the display has slots 1 to {len(slots)}", DISPLAY_RULE)
        slot = slots[move.slot - 1]
        if slot.taken_by is not None:
            return Refusal(f"slot {move.slot} was taken by {slot.taken_by}", DISPLAY_RULE)
        if not slot.face_up and move.event is not None:
            return Refusal(
                f"slot {move.slot} lies face down: take it without naming it", DISPLAY_RULE
            )
        if slot.face_up and move.event != slot.event:
            return Refusal(f"slot {move.slot} holds {slot.event}, not {move.event}", DISPLAY_RULE)
        return None

    # ------------------------------------------------------------------ the flow

    def _prepare(self, move: PrepareDeck) -> None:
        later = tuple(age for age in self.rules.ages if age > move.age)
        self.deck = EventDeck(move.age, (*move.first_half, *move.second_half), later)
        self.map = self.map.model_copy(update={"age": move.age})  # maps are never changed in place
        self.log.append(
            f"Age {move.age}: the Event Deck is prepared ({len(self.deck.cards)} Events)"
        )
        self._start_round()

    def _start_round(self) -> None:
        assert self.deck is not None
        self.display, self.deck = draw_display(
            self.deck, self.players, reveal_more=self.rules.options.reveal_more
        )
        shown = ", ".join(s.event if s.face_up else "(face down)" for s in self.display.slots)
        self.log.append(f"Round {self.round}: the display is {shown}")
        self._next_turn()

    def _next_turn(self) -> None:
        if self.picker is not None:
            self.stage = "pick"
            return
        unpicked = None
        if len(self.taken) == len(self.players):
            unpicked = unpicked_event(self.display, self.rules.catalogue)
        if unpicked is not None:
            offer = unpicked.offer
            self.log.append(
                f"{unpicked.event} is left unpicked (16.4)"
                + (
                    f"; {offer.player} may pay {offer.cost} to appoint {offer.ruler} (not modelled)"
                    if offer is not None
                    else ""
                )
            )
            if unpicked.symbols:
                self.stage = "unpicked"
                return
        self._close_round()

    def _close_round(self) -> None:
        assert self.deck is not None
        self.display = Display((), self.players)
        limit = self.rules.options.rounds
        if limit and self.round >= limit:
            self._over("rounds", f"{self.round} Rounds are played (option rounds)")
        elif self.deck.cards:
            self.round += 1
            self._start_round()
        elif self.deck.ages_left:
            self.round += 1
            self.stage = "prepare"
        else:
            self._over("decks", f"no Event of Age {self.deck.age}, the last Age, remains")

    def _over(self, end: str, why: str) -> None:
        self.stage, self.end = "over", end
        self.log.append(f"the game is over: {why}")

    def _take(self, move: TakeEvent) -> None:
        self.display, event = take_event(self.display, move.slot - 1, move.player)
        self.current = CurrentEvent(event, move.player, move.slot)
        self.stage = "roll"
        self.log.append(f"{move.player} takes {event} from slot {move.slot}")

    def _roll(self, seed: int) -> None:
        if self.stage == "unpicked":
            self._unpicked(seed)
            return
        assert self.current is not None
        active = turn_started(self.map)  # each Event Action is a Turn of its own
        active.active = self.current.player
        self.map = active
        self._go_on(replace(self.current, seed=seed))

    def _go_on(self, current: CurrentEvent) -> None:
        """Resolve ``current`` as far as its choices go: await the next step, or
        finish the Event and carry play on."""
        self.current = current
        self._outcome = self._resolution(current)
        if self._outcome.pending is not None:
            self.stage = "resolve"
            return
        final = self._outcome.state
        assert final is not None
        self.log.extend(f"  {line}" for line in self._outcome.log.lines())
        done = final.model_copy(update={"active": None})
        self.map, self.current, self._outcome = done, None, None
        self._next_turn()

    def _resolution(self, current: CurrentEvent) -> Outcome:
        """The Event resolved from the map with the choices so far: by its player's
        choices, or whole by the auto-resolution for a Realm the rules play."""
        event = self.rules.event(current.event)
        assert current.seed is not None
        options = self.rules.options
        if current.player in options.nonplayers:
            return resolve(
                self.map,
                event.effects,
                event.symbols,
                auto=True,
                choices=[],
                seed=current.seed,
                options=options.play,
            )
        return replay(
            self.map,
            event.effects,
            event.symbols,
            choices=current.choices,
            seed=current.seed,
            options=options.play,
        )

    def _unpicked(self, seed: int) -> None:
        left = next(slot.event for slot in self.display.slots if slot.taken_by is None)
        event = self.rules.event(left)
        log = ResolutionLog()
        unattended = turn_started(self.map)
        unattended.active = None  # 16.5: no one is the Active player
        self.map = resolve_card_symbols(
            unattended,
            event.symbols,
            log=log,
            rng=random.Random(seed),
            options=self.rules.options.play,
        )
        self.log.append(f"the symbols of {left} are auto-resolved (16.4, 16.5)")
        self.log.extend(f"  {line}" for line in log.lines())
        self._close_round()

    # ------------------------------------------------------------------ checks

    def invariant_problems(self) -> list[str]:
        """Every broken invariant as ``path: problem``; empty when the state is sound."""
        problems = [f"map.{path}: {message}" for path, message in self.map.problems()]
        catalogue, deck = self.rules.catalogue, self.deck
        seen = Counter([*(deck.cards if deck else ()), *(s.event for s in self.display.slots)])
        problems += [f"deck: {event} is in play twice" for event, n in seen.items() if n > 1]
        for event in seen:
            if event not in catalogue.events or (deck and catalogue.events[event].age != deck.age):
                problems.append(f"deck: {event} is not an Event of the current Age")
        if deck is not None and self.map.age != deck.age:
            problems.append(f"map.age: {self.map.age}, but the deck is Age {deck.age}'s")
        if len(self.display.slots) > len(self.players) + 1:
            problems.append("display: more than players + 1 Events (16.2)")
        takers = [s.taken_by for s in self.display.slots if s.taken_by is not None]
        if len(set(takers)) != len(takers) or not set(takers) <= set(self.players):
            problems.append("display: a player took two Events, or a taker is no player")
        needs_event = self.stage in ("roll", "resolve")
        if needs_event != (self.current is not None):
            problems.append(f"current: stage {self.stage} with current {self.current}")
        if self.stage == "pick" and self.picker is None:
            problems.append("stage: pick, but no one is left to take an Event")
        if self.stage != "over" and self.end is not None:
            problems.append("end: set while the game goes on")
        if self.stage == "over" and self.end not in ("decks", "rounds"):
            problems.append(f"end: {self.end!r}")
        current = self.current
        if current is not None:
            if self.taken.get(current.player) != current.slot:
                problems.append(f"current: {current.player} did not take slot {current.slot}")
            if (current.seed is None) != (self.stage == "roll"):
                problems.append("current.seed: set exactly once the Event's dice are rolled")
            if self.stage == "resolve" and current.player in self.rules.options.nonplayers:
                problems.append("stage: a Non-player's Event awaits no decision (16.5)")
            if self.stage == "resolve" and current.seed is not None:
                try:
                    if self.outcome is None or self.outcome.pending is None:
                        problems.append("current.choices: the Event is resolved already")
                except LegalisError as error:
                    problems.append(f"current.choices: {error}")
        return problems


def check_state(state: EupopState) -> EupopState:
    """``state`` when sound; else an :class:`InputError` naming its first problem."""
    problems = state.invariant_problems()
    if problems:
        path, _, message = problems[0].partition(": ")
        raise InputError(message, path=f"state.{path}")
    return state
