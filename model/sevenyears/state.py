"""The state of a game of The Seven Years War and the seven phases that move it.

A state waits either for a player's decision or for a chance outcome (a shuffle,
a coin flip, random discards). ``legal_moves()`` is a lazy view of what may happen
next; ``apply`` returns the next state and ``play`` changes this one in place.
Steps with a single possible move (a pass with no playable card, a discard with
one distinct choice) are taken automatically, so every decision offers a choice.

>>> from legalis.model.core.randomness import LoggedRandom
>>> state = SevenYearsState.new()
>>> state.pending[0], state.to_move
('shuffle', 'chance')
>>> rng = LoggedRandom(3)
>>> state = state.apply(state.sample_chance(rng))
>>> state.phase, state.to_move, len(state.hands[0]), len(state.hands[1])
('execute', 'british', 9, 9)
>>> state.legal_moves().count() <= 382
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any

from legalis.model.core.multisets import SubMultisets, nth_permutation, permutations_count
from legalis.model.core.views import (
    ListView,
    MoveView,
    RandomSource,
    Refusal,
    SubsetView,
    Verdict,
)
from legalis.model.errors import IllegalMoveError, InputError
from legalis.model.sevenyears.data import (
    BRITISH,
    FRENCH,
    PLAYERS,
    SevenYearsData,
    area_key,
    load_data,
)
from legalis.model.sevenyears.moves import (
    CoinFlip,
    DifficultyDiscard,
    ExecuteDiscard,
    Lay,
    Move,
    Pass,
    PlayEffect,
    RandomDiscard,
    Shuffle,
    move_from_json,
)
from legalis.model.sevenyears.options import SevenYearsOptions
from legalis.model.sevenyears.rules import (
    RULE_CLOSED,
    RULE_CONFLICT,
    RULE_LOCATION,
    RULE_TURMOIL,
    RULE_USE,
    RuleTables,
    status_code,
)

PHASES = ("plan", "execute", "turmoil", "conflict", "difficulty", "resolve", "aftermath", "over")
PLAN, EXECUTE, TURMOIL, CONFLICT, DIFFICULTY, RESOLVE, AFTERMATH, OVER = PHASES
RULE_EXECUTE = "EXECUTE PHASE: discard up to 5 cards and draw replacements"
RULE_DIFFICULTY = "DIFFICULTY PHASE: the opponent discards a card from the same area"
RULE_PLAN = "PLAN PHASE: if the deck runs out, shuffle the discard and draw from it"
RULE_ORDER = "TURN SEQUENCE: the phase and the player on turn"
RULE_COIN = "TURMOIL PHASE, CONFLICT PHASE: flip a coin"
CONDITIONS = ("europe", "colonies", "medals", "draw")


class SevenYearsRules:
    """Data, options and the compiled rule tables: shared by every state of a game."""

    def __init__(self, data: SevenYearsData, options: SevenYearsOptions) -> None:
        self.data = data
        self.options = options
        self.tables = RuleTables(data, options)
        self.force = [card.force for card in data.cards]
        self.effect = [card.effect for card in data.cards]
        self.star = [card.difficulty for card in data.cards]
        first = PLAYERS.index(options.first_to_draw)
        self.draw_order = (first, 1 - first)
        self.europe = [area.colonial for area in data.areas].index(False)
        self.options_json = options.to_json()


@cache
def rules_for(data: SevenYearsData, options: SevenYearsOptions) -> SevenYearsRules:
    """The shared rules of every state with this data and these options."""
    return SevenYearsRules(data, options)


class SevenYearsState:
    """One position of the game, from the first shuffle to the final result."""

    __slots__ = (
        "active",
        "closed",
        "current",
        "deck",
        "difficulty_queue",
        "discard",
        "execute_queue",
        "grid",
        "hands",
        "medals",
        "owed_draws",
        "owed_random",
        "passes",
        "pending",
        "phase",
        "result",
        "rules",
        "serial",
        "status_cache",
        "step",
        "turn",
        "view",
    )

    def __init__(self, rules: SevenYearsRules) -> None:
        areas = len(rules.data.areas)
        self.rules = rules
        self.turn = 1
        self.phase = PLAN
        self.step = 0
        self.deck: list[int] = []
        self.discard: list[int] = rules.data.full_deck()
        self.hands: list[list[int]] = [[], []]
        self.grid: list[list[tuple[int, int, int]]] = [[] for _ in range(areas)]
        self.medals: list[list[int]] = [[0] * areas, [0] * areas]
        self.closed: list[int] = [-1] * areas
        self.owed_draws: list[list[int]] = []
        self.owed_random: list[list[int]] = []
        self.execute_queue: list[int] = []
        self.current = -1
        self.active = [False, False]
        self.passes = 0
        self.difficulty_queue: list[tuple[int, int, int]] = []
        self.serial = 0
        self.pending: tuple[Any, ...] = ("over",)
        self.result: tuple[int, str] | None = None
        self.view: MoveView[Any] | None = None
        self.status_cache: tuple[int, int] | None = None

    @classmethod
    def new(
        cls, options: SevenYearsOptions | None = None, data: SevenYearsData | None = None
    ) -> SevenYearsState:
        """The opening position: all 88 cards wait to be shuffled into the deck."""
        return cls.opening(rules_for(data or load_data(), options or SevenYearsOptions()))

    @classmethod
    def opening(cls, rules: SevenYearsRules) -> SevenYearsState:
        """The opening position under ``rules``."""
        state = cls(rules)
        state._advance()
        return state

    # ------------------------------------------------------------------ reading

    @property
    def data(self) -> SevenYearsData:
        return self.rules.data

    @property
    def options(self) -> SevenYearsOptions:
        return self.rules.options

    @property
    def to_move(self) -> str:
        """``"british"``, ``"french"``, ``"chance"`` or ``"none"`` once the game is over."""
        kind = self.pending[0]
        if kind == "over":
            return "none"
        if kind in ("shuffle", "coin", "random_discard"):
            return "chance"
        return PLAYERS[self.pending[1]]

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def is_chance(self) -> bool:
        return self.to_move == "chance"

    def medal_total(self, player: int) -> int:
        return sum(self.medals[player])

    def status(self, player: int) -> tuple[bool, bool]:
        """(Winning, Losing) for ``player``: most medals in play wins; a tie per option."""
        mine, theirs = self.medal_total(player), self.medal_total(1 - player)
        tied_both = mine == theirs and self.options.tied_medals_status == "both"
        return mine > theirs or tied_both, mine < theirs or tied_both

    def status_index(self, player: int) -> int:
        """The row of the rule tables for ``player``'s status; medals change only in
        Resolve, so the last one is kept until then."""
        cached = self.status_cache
        if cached is None:
            cached = self.status_cache = (
                status_code(*self.status(0)),
                status_code(*self.status(1)),
            )
        return cached[player]

    def campaigns_won(self, player: int, *, colonial_only: bool = True) -> int:
        return sum(
            1
            for area, owner in enumerate(self.closed)
            if owner == player and (self.data.areas[area].colonial or not colonial_only)
        )

    def area_force(self, area: int, player: int) -> int:
        force = self.rules.force
        return sum(force[card] for _, owner, card in self.grid[area] if owner == player)

    # ------------------------------------------------------------------ moves

    def legal_moves(self) -> MoveView[Any]:
        """A lazy view of the legal moves (or chance outcomes) here."""
        if self.view is None:
            self.view = self._make_view()
        return self.view

    def _make_view(self) -> MoveView[Any]:
        kind = self.pending[0]
        if kind == "execute":
            return ExecuteView(self, self.pending[1])
        if kind == "turmoil":
            return self._turmoil_view(self.pending[1])
        if kind == "conflict":
            return ConflictView(self, self.pending[1])
        if kind == "difficulty":
            return self._difficulty_view()
        if kind == "shuffle":
            return ShuffleView(self)
        if kind == "coin":
            return ListView(
                [CoinFlip(BRITISH), CoinFlip(FRENCH)],
                self._refuse_coin,
                lambda move: Verdict(True, "either player may win the coin flip", RULE_COIN),
            )
        if kind == "random_discard":
            return RandomDiscardView(self, self.pending[1], self.pending[2])
        return ListView([], lambda move: Refusal("the game is over", "VICTORY"))

    def refusal(self, move: object) -> Refusal | None:
        """``None`` if ``move`` is legal here, else the reason and the rule."""
        return self.legal_moves().refusal(move)

    def apply(self, move: Move) -> SevenYearsState:
        """The state after ``move``; this state is unchanged."""
        state = self.copy()
        state.play(move)
        return state

    def play(self, move: Move) -> None:
        """Apply ``move`` to this state in place; an illegal move raises with its rule."""
        refused = self.refusal(move)
        if refused is not None:
            raise IllegalMoveError(refused.reason, rule=refused.rule)
        self._play(move)
        self._advance()

    def sample_chance(self, rng: RandomSource) -> Move:
        """Draw the chance outcome here as the physical game would.

        Random discards pick physical cards uniformly, so outcomes with more copies
        are likelier; a shuffle's distinct orders are all equally likely.
        """
        kind = self.pending[0]
        if kind == "shuffle":
            order = list(self.discard)
            rng.shuffle(order)
            return Shuffle(tuple(order))
        if kind == "coin":
            return CoinFlip(rng.randrange(2))
        if kind == "random_discard":
            hand = list(self.hands[self.pending[1]])
            picked = []
            for _ in range(self.pending[2]):
                picked.append(hand.pop(rng.randrange(len(hand))))
            return RandomDiscard(self.pending[1], tuple(sorted(picked)))
        raise IllegalMoveError(
            f"no chance event is due ({self.to_move} is to move)", rule=RULE_ORDER
        )

    def copy(self) -> SevenYearsState:
        new = SevenYearsState.__new__(SevenYearsState)
        new.rules = self.rules
        new.turn = self.turn
        new.phase = self.phase
        new.step = self.step
        new.deck = self.deck[:]
        new.discard = self.discard[:]
        new.hands = [self.hands[0][:], self.hands[1][:]]
        new.grid = [area[:] for area in self.grid]
        new.medals = [self.medals[0][:], self.medals[1][:]]
        new.closed = self.closed[:]
        new.owed_draws = [pair[:] for pair in self.owed_draws]
        new.owed_random = [pair[:] for pair in self.owed_random]
        new.execute_queue = self.execute_queue[:]
        new.current = self.current
        new.active = self.active[:]
        new.passes = self.passes
        new.difficulty_queue = self.difficulty_queue[:]
        new.serial = self.serial
        new.pending = self.pending
        new.result = self.result
        new.view = None
        new.status_cache = self.status_cache
        return new

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SevenYearsState) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------------ refusals

    def _wrong_turn(self, move: object, kind: str, player: int) -> Refusal | None:
        expected: dict[str, tuple[type, ...]] = {
            "execute": (ExecuteDiscard,),
            "turmoil": (PlayEffect, Pass),
            "conflict": (Lay, Pass),
            "difficulty": (DifficultyDiscard,),
        }
        if self.pending[0] != kind or not isinstance(move, expected[kind]):
            return Refusal(
                f"the game awaits {self._awaits()}, not {type(move).__name__}", RULE_ORDER
            )
        mover = getattr(move, "player", None)
        if mover != player:
            named = PLAYERS[mover] if mover in (BRITISH, FRENCH) else repr(mover)
            return Refusal(f"it is {PLAYERS[player]}'s decision, not {named}'s", RULE_ORDER)
        return None

    def _awaits(self) -> str:
        kind = self.pending[0]
        if kind in ("execute", "turmoil", "conflict", "difficulty"):
            return f"the {PLAYERS[self.pending[1]]} {kind} decision"
        return {
            "shuffle": "a shuffle",
            "coin": "a coin flip",
            "random_discard": "random discards",
        }.get(kind, "nothing: the game is over")

    def _refuse_coin(self, move: object) -> Refusal | None:
        if self.pending[0] != "coin" or not isinstance(move, CoinFlip):
            return Refusal(f"the game awaits {self._awaits()}", RULE_ORDER)
        if move.winner not in (BRITISH, FRENCH):
            return Refusal("the coin is won by british or french", RULE_ORDER)
        return None

    def _card_name(self, card: int) -> str:
        return self.data.cards[card].name if 0 <= card < len(self.data.cards) else f"card #{card}"

    def _turmoil_view(self, player: int) -> ListView[Move]:
        moves: list[Move] = [Pass(player)]
        moves.extend(PlayEffect(player, card) for card in self._playable_effects(player))

        def refuse(move: object) -> Refusal | None:
            wrong = self._wrong_turn(move, "turmoil", player)
            if wrong is not None or isinstance(move, Pass):
                return wrong
            assert isinstance(move, PlayEffect)
            name = self._card_name(move.card)
            if move.card not in self.hands[player]:
                return Refusal(f"{name} is not in {PLAYERS[player]}'s hand", RULE_TURMOIL)
            if not self.rules.effect[move.card]:
                return Refusal(f"{name} is not an X or Z card", RULE_TURMOIL)
            if not self._effect_ok(player)[move.card]:
                return Refusal(
                    f"{name} ({self.data.cards[move.card].use}) is not {PLAYERS[player]}'s to use",
                    RULE_USE,
                )
            return None

        def justify(move: Move) -> Verdict:
            if isinstance(move, Pass):
                return Verdict(True, "a player may pass instead of playing a card", RULE_TURMOIL)
            assert isinstance(move, PlayEffect)
            card = self.data.cards[move.card]
            return Verdict(
                True,
                f"{card.name} is an {card.effect} card in hand that {PLAYERS[player]} "
                f"may use ({card.use})",
                f"{RULE_TURMOIL}; {RULE_USE}",
            )

        return ListView(moves, refuse, justify)

    def _difficulty_view(self) -> ListView[Move]:
        _, chooser, victim, area = self.pending
        cards = sorted({card for _, owner, card in self.grid[area] if owner == victim})
        moves: list[Move] = [DifficultyDiscard(chooser, victim, area, card) for card in cards]

        def refuse(move: object) -> Refusal | None:
            wrong = self._wrong_turn(move, "difficulty", chooser)
            if wrong is not None:
                return wrong
            assert isinstance(move, DifficultyDiscard)
            if move.victim != victim or move.area != area:
                return Refusal(
                    f"the discard due is {PLAYERS[victim]}'s from {self.data.areas[area].name}",
                    RULE_DIFFICULTY,
                )
            if move.card not in cards:
                return Refusal(
                    f"{PLAYERS[victim]} has no {self._card_name(move.card)} "
                    f"in {self.data.areas[area].name}",
                    RULE_DIFFICULTY,
                )
            return None

        def justify(move: Move) -> Verdict:
            assert isinstance(move, DifficultyDiscard)
            return Verdict(
                True,
                f"a * card makes {PLAYERS[victim]} discard a card from "
                f"{self.data.areas[area].name}; {self._card_name(move.card)} is one of "
                f"his there, chosen by {PLAYERS[chooser]}",
                RULE_DIFFICULTY,
            )

        return ListView(moves, refuse, justify)

    def _effect_ok(self, player: int) -> tuple[bool, ...]:
        return self.rules.tables.effect_ok[self.status_index(player)][player]

    def _playable_effects(self, player: int) -> list[int]:
        ok = self._effect_ok(player)
        return sorted({card for card in self.hands[player] if ok[card]})

    def lay_options(self, player: int) -> list[tuple[int, tuple[int, ...]]]:
        """For each distinct card in hand (sorted), the open areas it may be laid onto."""
        allowed = self.rules.tables.lay_areas[self.status_index(player)][player]
        closed = self.closed
        out = []
        for card in sorted(set(self.hands[player])):
            areas = tuple(area for area in allowed[card] if closed[area] < 0)
            if areas:
                out.append((card, areas))
        return out

    # ------------------------------------------------------------------ applying

    def _play(self, move: Move) -> None:
        self.view = None
        if isinstance(move, Lay):
            self.hands[move.player].remove(move.card)
            self.grid[move.area].append((self.serial, move.player, move.card))
            self.serial += 1
            self._took_turn(move.player, played=True)
        elif isinstance(move, Pass):
            self._took_turn(move.player, played=False)
        elif isinstance(move, PlayEffect):
            self._play_effect(move.player, move.card)
        elif isinstance(move, ExecuteDiscard):
            hand = self.hands[move.player]
            for card in move.cards:
                hand.remove(card)
            self.discard.extend(move.cards)
            self.execute_queue.pop(0)
            if move.cards:
                self.owed_draws.append([move.player, len(move.cards)])
        elif isinstance(move, DifficultyDiscard):
            self._discard_from_grid(move.victim, move.area, move.card)
        elif isinstance(move, Shuffle):
            self.deck = list(move.order)
            self.discard = []
        elif isinstance(move, CoinFlip):
            self.current = move.winner if self.phase == TURMOIL else 1 - move.winner
            self.active = [True, True]
            self.passes = 0
            self.step = 2
        else:
            hand = self.hands[move.player]
            for card in move.cards:
                hand.remove(card)
            self.discard.extend(move.cards)
            self.owed_random.pop(0)

    def _play_effect(self, player: int, card: int) -> None:
        self.hands[player].remove(card)
        self.discard.append(card)
        data = self.data
        if self.rules.effect[card] == "X":
            victim = 1 - player
            lost = min(data.x_discards, len(self.hands[victim]))
            if lost:
                self.owed_random.append([victim, lost])
        else:
            self.owed_draws.append([player, data.z_draws])
        self._took_turn(player, played=True)

    def _took_turn(self, player: int, *, played: bool) -> None:
        ending = self.options.turmoil_end if self.phase == TURMOIL else self.options.conflict_end
        if ending == "pass_is_final":
            if not played:
                self.active[player] = False
            other = 1 - player
            self.current = other if self.active[other] else player
        else:
            self.passes = 0 if played else self.passes + 1
            self.current = 1 - player

    def _discard_from_grid(self, victim: int, area: int, card: int) -> None:
        cells = self.grid[area]
        for index, (_, owner, laid) in enumerate(cells):
            if owner == victim and laid == card:
                del cells[index]
                break
        self.discard.append(card)
        self.difficulty_queue.pop(0)

    def _draw_owed(self) -> bool:
        """Carry out owed draws; ``False`` when a shuffle must come first."""
        while self.owed_draws:
            owed = self.owed_draws[0]
            hand, deck = self.hands[owed[0]], self.deck
            while owed[1] and deck:
                hand.append(deck.pop())
                owed[1] -= 1
            if (
                owed[1]
                and self.discard
                and (self.phase == PLAN or self.options.reshuffle == "any_draw")
            ):
                self.pending = ("shuffle",)
                return False
            self.owed_draws.pop(0)
        return True

    def _advance(self) -> None:
        """Run automatic steps until a decision or a chance event is due."""
        while True:
            if self.owed_random:
                victim, count = self.owed_random[0]
                if len(set(self.hands[victim])) == 1 or len(self.hands[victim]) == count:
                    self._play(RandomDiscard(victim, tuple(sorted(self.hands[victim][:count]))))
                    continue
                self.pending = ("random_discard", victim, count)
                return
            if not self._draw_owed():
                return
            phase = self.phase
            if phase == PLAN:
                if self.step == 0:
                    size = self.data.hand_size
                    self.owed_draws = [
                        [p, size - len(self.hands[p])]
                        for p in self.rules.draw_order
                        if len(self.hands[p]) < size
                    ]
                    self.step = 1
                else:
                    self._enter(EXECUTE)
                    self.execute_queue = list(self.rules.draw_order)
            elif phase == EXECUTE:
                if not self.execute_queue:
                    self._enter(TURMOIL)
                elif not self.hands[self.execute_queue[0]]:
                    self._play(ExecuteDiscard(self.execute_queue[0], ()))
                else:
                    self.pending = ("execute", self.execute_queue[0])
                    return
            elif phase in (TURMOIL, CONFLICT):
                if self.step == 0:
                    self.step = 1
                if self.step == 1:
                    self.pending = ("coin",)
                    return
                if not self._phase_continues():
                    self._enter(CONFLICT if phase == TURMOIL else DIFFICULTY)
                    continue
                player = self.current
                self.pending = (phase, player)
                view = (
                    self._turmoil_view(player) if phase == TURMOIL else ConflictView(self, player)
                )
                if view.count() == 1:
                    self._play(Pass(player))
                    continue
                self.view = view
                return
            elif phase == DIFFICULTY:
                if self.step == 0:
                    self.difficulty_queue = [
                        (area, 1 - owner, serial)
                        for area, cells in enumerate(self.grid)
                        for serial, owner, card in cells
                        if self.rules.star[card]
                    ]
                    self.step = 1
                if not self._next_difficulty():
                    return
                self._enter(RESOLVE)
            elif phase == RESOLVE:
                self._resolve()
                self._enter(AFTERMATH)
            elif phase == AFTERMATH:
                self._aftermath()
                if self.phase == OVER:
                    self.pending = ("over",)
                    return
            else:
                self.pending = ("over",)
                return

    def _enter(self, phase: str) -> None:
        self.phase = phase
        self.step = 0

    def _phase_continues(self) -> bool:
        ending = self.options.turmoil_end if self.phase == TURMOIL else self.options.conflict_end
        if ending == "pass_is_final":
            return self.active[0] or self.active[1]
        return self.passes < 2

    def _next_difficulty(self) -> bool:
        """Set up the next owed Difficulty discard; ``True`` when none is left."""
        queue = self.difficulty_queue
        while queue:
            area, victim, serial = queue[0]
            cells = self.grid[area]
            star_gone = not any(cell[0] == serial for cell in cells)
            choices = {card for _, owner, card in cells if owner == victim}
            if (self.options.difficulty_timing == "in_order" and star_gone) or not choices:
                queue.pop(0)
                continue
            if len(choices) == 1:
                self._discard_from_grid(victim, area, next(iter(choices)))
                continue
            chooser = victim if self.options.difficulty_chooser == "owner" else 1 - victim
            self.pending = ("difficulty", chooser, victim, area)
            return False
        return True

    def _resolve(self) -> None:
        self.status_cache = None
        supply = self.data.medals_per_player
        for area, owner in enumerate(self.closed):
            if owner >= 0:
                continue
            british, french = self.area_force(area, BRITISH), self.area_force(area, FRENCH)
            if british != french:
                winner = BRITISH if british > french else FRENCH
                if self.medal_total(winner) < supply:
                    self.medals[winner][area] += 1

    def _aftermath(self) -> None:
        for cells in self.grid:
            self.discard.extend(card for _, _, card in cells)
            cells.clear()
        lead = self.data.campaign_lead
        for area in range(len(self.closed)):
            if self.closed[area] < 0:
                for player in (BRITISH, FRENCH):
                    if self.medals[player][area] - self.medals[1 - player][area] >= lead:
                        self.closed[area] = player
        europe_winner = self.closed[self.rules.europe]
        if europe_winner >= 0 and self.options.europe_win_ends_game:
            self._finish(europe_winner, "europe")
        elif self.turn >= self.data.turns:
            self._finish(*self._final_result())
        else:
            self.turn += 1
            self._enter(PLAN)

    def _final_result(self) -> tuple[int, str]:
        europe_winner = self.closed[self.rules.europe]
        if europe_winner >= 0:
            return europe_winner, "europe"
        british, french = self.campaigns_won(BRITISH), self.campaigns_won(FRENCH)
        if british != french:
            return (BRITISH if british > french else FRENCH), "colonies"
        british, french = self.medal_total(BRITISH), self.medal_total(FRENCH)
        if british != french:
            return (BRITISH if british > french else FRENCH), "medals"
        return -1, "draw"

    def _finish(self, winner: int, condition: str) -> None:
        self.result = (winner, condition)
        self._enter(OVER)
        self.current = -1

    # ------------------------------------------------------------------ checking

    def invariant_problems(self) -> list[str]:
        """Every broken invariant, each as ``path: problem``; empty when the state is sound."""
        data, problems = self.data, []
        everywhere = (
            Counter(self.deck)
            + Counter(self.discard)
            + Counter(self.hands[0])
            + Counter(self.hands[1])
        )
        everywhere += Counter(card for cells in self.grid for _, _, card in cells)
        if everywhere != Counter(data.full_deck()):
            problems.append(
                "cards: the deck, discard, hands and grid do not hold exactly the 88 cards"
            )
        for player in (BRITISH, FRENCH):
            if self.medal_total(player) > data.medals_per_player:
                problems.append(
                    f"medals.{PLAYERS[player]}: more than {data.medals_per_player} medals"
                )
        for area, owner in enumerate(self.closed):
            key = area_key(data.areas[area])
            diff = self.medals[BRITISH][area] - self.medals[FRENCH][area]
            lead = data.campaign_lead
            if owner < 0 and abs(diff) >= lead and self.phase not in (RESOLVE, AFTERMATH):
                problems.append(f"campaigns.{key}: a lead of {abs(diff)} medals should have won it")
            if owner >= 0 and (diff if owner == BRITISH else -diff) < lead:
                problems.append(
                    f"campaigns.{key}: won by {PLAYERS[owner]} without a lead of {lead}"
                )
            if owner >= 0 and self.grid[area]:
                problems.append(f"grid.{key}: cards laid in a won Campaign")
        if self.phase not in (CONFLICT, DIFFICULTY) and any(self.grid):
            problems.append(f"grid: cards on the grid in the {self.phase} phase")
        if not 1 <= self.turn <= data.turns:
            problems.append(f"turn: {self.turn} is outside 1-{data.turns}")
        if (self.phase == OVER) != (self.result is not None):
            problems.append("result: a result exactly when the game is over")
        return problems + self._control_problems()

    def _control_problems(self) -> list[str]:
        """The bookkeeping of the phase in progress is one the engine could have made."""
        problems = []
        steps = {PLAN: 1, TURMOIL: 2, CONFLICT: 2, DIFFICULTY: 1}
        if self.step > steps.get(self.phase, 0):
            problems.append(f"step: {self.step} is past the last step of the {self.phase} phase")
        if self.execute_queue and self.phase != EXECUTE:
            problems.append(f"execute_queue: players queued to execute in the {self.phase} phase")
        if self.difficulty_queue and self.phase != DIFFICULTY:
            problems.append(f"difficulty_queue: discards queued in the {self.phase} phase")
        if self.owed_random and self.phase != TURMOIL:
            problems.append(f"owed_random_discards: random discards owed in the {self.phase} phase")
        for index, (victim, count) in enumerate(self.owed_random):
            if count > min(self.data.x_discards, len(self.hands[victim])):
                problems.append(
                    f"owed_random_discards[{index}].cards: {count} random discards owed by "
                    f"{PLAYERS[victim]}, who holds {len(self.hands[victim])} cards"
                )
        if self.phase in (TURMOIL, CONFLICT) and self.step == 2 and self._phase_continues():
            ending = (
                self.options.turmoil_end if self.phase == TURMOIL else self.options.conflict_end
            )
            if self.current not in (BRITISH, FRENCH):
                problems.append(f"current: the {self.phase} phase needs a player on turn")
            elif ending == "pass_is_final" and not self.active[self.current]:
                problems.append(
                    f"current: {PLAYERS[self.current]} has passed and is out of the phase"
                )
        return problems

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON; :func:`state_from_json` reads it back exactly."""
        data = self.data
        names = [card.name for card in data.cards]
        keys = [area_key(area) for area in data.areas]
        pending: dict[str, Any] = {"kind": self.pending[0]}
        if self.pending[0] in ("execute", "turmoil", "conflict"):
            pending["player"] = PLAYERS[self.pending[1]]
        elif self.pending[0] == "difficulty":
            pending.update(
                player=PLAYERS[self.pending[1]],
                victim=PLAYERS[self.pending[2]],
                area=keys[self.pending[3]],
            )
        elif self.pending[0] == "random_discard":
            pending.update(player=PLAYERS[self.pending[1]], cards=self.pending[2])
        return {
            "game": "sevenyears",
            "options": dict(self.rules.options_json),
            "turn": self.turn,
            "phase": self.phase,
            "step": self.step,
            "deck": [names[c] for c in self.deck],
            "discard": [names[c] for c in self.discard],
            "hands": {PLAYERS[p]: [names[c] for c in self.hands[p]] for p in (BRITISH, FRENCH)},
            "grid": {
                keys[a]: [
                    {"serial": s, "player": PLAYERS[p], "card": names[c]} for s, p, c in cells
                ]
                for a, cells in enumerate(self.grid)
            },
            "medals": {
                PLAYERS[p]: dict(zip(keys, self.medals[p], strict=True)) for p in (BRITISH, FRENCH)
            },
            "campaigns": {
                keys[a]: (PLAYERS[o] if o >= 0 else None) for a, o in enumerate(self.closed)
            },
            "owed_draws": [{"player": PLAYERS[p], "cards": n} for p, n in self.owed_draws],
            "owed_random_discards": [
                {"player": PLAYERS[p], "cards": n} for p, n in self.owed_random
            ],
            "execute_queue": [PLAYERS[p] for p in self.execute_queue],
            "current": PLAYERS[self.current] if self.current >= 0 else None,
            "active": {PLAYERS[p]: self.active[p] for p in (BRITISH, FRENCH)},
            "passes": self.passes,
            "difficulty_queue": [
                {"area": keys[a], "victim": PLAYERS[v], "serial": s}
                for a, v, s in self.difficulty_queue
            ],
            "serial": self.serial,
            "pending": pending,
            "to_move": self.to_move,
            "result": None
            if self.result is None
            else {
                "winner": PLAYERS[self.result[0]] if self.result[0] >= 0 else None,
                "condition": self.result[1],
            },
        }

    def __repr__(self) -> str:
        return f"<SevenYearsState turn {self.turn} {self.phase}, {self.to_move} to move>"


# ---------------------------------------------------------------------- views


class ExecuteView(SubsetView[ExecuteDiscard]):
    """Every distinct discard of 0 to 5 cards from the hand, counted and ranked, never listed."""

    def __init__(self, state: SevenYearsState, player: int) -> None:
        self.state = state
        self.player = player
        hand = state.hands[player]
        self.limit = min(state.data.execute_max_discards, len(hand))
        self.picks = SubMultisets(Counter(sorted(hand)), 0, self.limit)

    def __iter__(self) -> Iterator[ExecuteDiscard]:
        return (ExecuteDiscard(self.player, cards) for cards in self.picks)

    def pool(self) -> Sequence[object]:
        return sorted(self.state.hands[self.player])

    def move_for(self, chosen: Sequence[int]) -> ExecuteDiscard:
        hand = sorted(self.state.hands[self.player])
        return ExecuteDiscard(self.player, tuple(sorted(hand[i] for i in set(chosen))))

    def count(self) -> int:
        return self.picks.count()

    def nth(self, index: int) -> ExecuteDiscard:
        return ExecuteDiscard(self.player, self.picks.nth(index))

    def justification(self, move: ExecuteDiscard) -> Verdict:
        hand = len(self.state.hands[self.player])
        return Verdict(
            True,
            f"{len(move.cards)} of the {hand} cards in hand, at most {self.limit} may go",
            RULE_EXECUTE,
        )

    def refusal(self, move: object) -> Refusal | None:
        wrong = self.state._wrong_turn(move, "execute", self.player)
        if wrong is not None:
            return wrong
        assert isinstance(move, ExecuteDiscard)
        if len(move.cards) > self.limit:
            return Refusal(f"at most {self.limit} cards may be discarded", RULE_EXECUTE)
        if list(move.cards) != sorted(move.cards):
            return Refusal("the cards of a discard are listed in card-list order", RULE_EXECUTE)
        missing = Counter(move.cards) - Counter(self.state.hands[self.player])
        if missing:
            card = next(iter(missing))
            return Refusal(
                f"{self.state._card_name(card)} is not in {PLAYERS[self.player]}'s hand",
                RULE_EXECUTE,
            )
        return None


class ConflictView(MoveView[Lay | Pass]):
    """A pass, then each distinct card in hand on each open area it may be laid onto."""

    def __init__(self, state: SevenYearsState, player: int) -> None:
        self.state = state
        self.player = player
        self.options = state.lay_options(player)

    def __iter__(self) -> Iterator[Lay | Pass]:
        yield Pass(self.player)
        for card, areas in self.options:
            for area in areas:
                yield Lay(self.player, card, area)

    def count(self) -> int:
        return 1 + sum(len(areas) for _, areas in self.options)

    def nth(self, index: int) -> Lay | Pass:
        if index == 0:
            return Pass(self.player)
        index -= 1
        for card, areas in self.options:
            if index < len(areas):
                return Lay(self.player, card, areas[index])
            index -= len(areas)
        raise IndexError(index)

    def justification(self, move: Lay | Pass) -> Verdict:
        if isinstance(move, Pass):
            return Verdict(True, "a player may stop laying cards", RULE_CONFLICT)
        card = self.state.data.cards[move.card]
        area = self.state.data.areas[move.area].name
        return Verdict(
            True,
            f"{card.name} is in hand, {PLAYERS[self.player]} may use it ({card.use}), its "
            f"location {card.location} admits {area}, and {area} is not a won Campaign",
            f"{RULE_CONFLICT}; {RULE_USE}; {RULE_LOCATION}",
        )

    def refusal(self, move: object) -> Refusal | None:
        state = self.state
        wrong = state._wrong_turn(move, "conflict", self.player)
        if wrong is not None or isinstance(move, Pass):
            return wrong
        assert isinstance(move, Lay)
        data = state.data
        name = state._card_name(move.card)
        if not 0 <= move.area < len(data.areas):
            return Refusal(f"no area #{move.area}", RULE_CONFLICT)
        area = data.areas[move.area].name
        if move.card not in state.hands[self.player]:
            return Refusal(f"{name} is not in {PLAYERS[self.player]}'s hand", RULE_CONFLICT)
        card = data.cards[move.card]
        if state.closed[move.area] >= 0:
            return Refusal(
                f"{area} is a Campaign already won by {PLAYERS[state.closed[move.area]]}",
                RULE_CLOSED,
            )
        tables, code = state.rules.tables, state.status_index(self.player)
        if not tables.use_ok[code][self.player][move.card]:
            return Refusal(
                f"{name} ({card.use}) is not {PLAYERS[self.player]}'s to use now", RULE_USE
            )
        if card.effect and not state.options.effect_cards_in_conflict:
            return Refusal(
                f"{name} is an {card.effect} card and has no force to lay", RULE_CONFLICT
            )
        if move.area not in tables.lay_areas[code][self.player][move.card]:
            return Refusal(f"{name} ({card.location}) cannot be laid in {area}", RULE_LOCATION)
        return None


class ShuffleView(MoveView[Shuffle]):
    """Every distinct order of the discard pile; counted by the multinomial, never listed."""

    def __init__(self, state: SevenYearsState) -> None:
        self.state = state
        self.counts = Counter(sorted(state.discard))

    def __iter__(self) -> Iterator[Shuffle]:
        return (self.nth(index) for index in range(self.count()))

    def count(self) -> int:
        return permutations_count(self.counts)

    def nth(self, index: int) -> Shuffle:
        return Shuffle(nth_permutation(self.counts, index))

    def justification(self, move: Shuffle) -> Verdict:
        return Verdict(True, f"an order of the {len(move.order)} discarded cards", RULE_PLAN)

    def refusal(self, move: object) -> Refusal | None:
        if self.state.pending[0] != "shuffle" or not isinstance(move, Shuffle):
            return Refusal(f"the game awaits {self.state._awaits()}", RULE_ORDER)
        if Counter(move.order) != self.counts:
            return Refusal("a shuffle orders exactly the cards of the discard pile", RULE_PLAN)
        return None


class RandomDiscardView(MoveView[RandomDiscard]):
    """The distinct sets of cards an X card can make the victim discard."""

    def __init__(self, state: SevenYearsState, victim: int, lost: int) -> None:
        self.state = state
        self.victim = victim
        self.picks = SubMultisets(Counter(sorted(state.hands[victim])), lost, lost)

    def __iter__(self) -> Iterator[RandomDiscard]:
        return (RandomDiscard(self.victim, cards) for cards in self.picks)

    def count(self) -> int:
        return self.picks.count()

    def nth(self, index: int) -> RandomDiscard:
        return RandomDiscard(self.victim, self.picks.nth(index))

    def justification(self, move: RandomDiscard) -> Verdict:
        return Verdict(
            True, f"{len(move.cards)} cards of {PLAYERS[self.victim]}'s hand", RULE_TURMOIL
        )

    def refusal(self, move: object) -> Refusal | None:
        if self.state.pending[0] != "random_discard" or not isinstance(move, RandomDiscard):
            return Refusal(f"the game awaits {self.state._awaits()}", RULE_ORDER)
        if move.player != self.victim or len(move.cards) != self.picks.lo:
            return Refusal(
                f"{PLAYERS[self.victim]} discards {self.picks.lo} random cards", RULE_TURMOIL
            )
        if Counter(move.cards) - Counter(self.state.hands[self.victim]) or list(
            move.cards
        ) != sorted(move.cards):
            return Refusal(
                "the discarded cards come from the victim's hand, listed in order", RULE_TURMOIL
            )
        return None


# ---------------------------------------------------------------------- JSON in


def state_from_json(
    raw: Any, *, source: str | None = None, data: SevenYearsData | None = None
) -> SevenYearsState:
    """A state from JSON, validated: unknown names, bad numbers and broken invariants
    are :class:`InputError` with the path of the bad field."""
    reader = _Reader(raw, source, data or load_data())
    return reader.state()


class _Reader:
    def __init__(self, raw: Any, source: str | None, data: SevenYearsData) -> None:
        self.raw = raw
        self.source = source
        self.data = data
        self.players = list(PLAYERS)
        self.keys = [area_key(area) for area in data.areas]

    def fail(self, message: str, path: str, allowed: Any = None) -> InputError:
        return InputError(message, source=self.source, path=path, allowed=allowed)

    def obj(self, value: Any, path: str, keys: list[str] | None = None) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail("expected an object", path)
        if keys is not None:
            for key in value:
                if key not in keys:
                    raise self.fail(f"unknown field {key!r}", f"{path}.{key}", keys)
            for key in keys:
                if key not in value:
                    raise self.fail("missing field", f"{path}.{key}")
        return value

    def integer(self, value: Any, path: str, lo: int, hi: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise self.fail(f"expected a whole number {lo}-{hi}, got {value!r}", path)
        return value

    def player(self, value: Any, path: str) -> int:
        if value not in self.players:
            raise self.fail(f"unknown player {value!r}", path, self.players)
        return self.players.index(value)

    def cards(self, value: Any, path: str) -> list[int]:
        if not isinstance(value, list):
            raise self.fail("expected a list of card names", path)
        out = []
        for index, name in enumerate(value):
            if not isinstance(name, str):
                raise self.fail(f"expected a card name, got {name!r}", f"{path}[{index}]")
            out.append(self.data.card_index(name, path=f"{path}[{index}]"))
        return out

    def area(self, value: Any, path: str) -> int:
        if value not in self.keys:
            raise self.fail(f"unknown area {value!r}", path, self.keys)
        return self.keys.index(value)

    def per_player(self, value: Any, path: str) -> dict[str, Any]:
        return self.obj(value, path, self.players)

    def per_area(self, value: Any, path: str) -> dict[str, Any]:
        return self.obj(value, path, self.keys)

    def state(self) -> SevenYearsState:
        top = [
            "game", "options", "turn", "phase", "step", "deck", "discard", "hands", "grid",
            "medals",
            "campaigns", "owed_draws", "owed_random_discards", "execute_queue", "current", "active",
            "passes", "difficulty_queue", "serial", "pending", "to_move", "result",
        ]  # fmt: skip
        raw = self.obj(self.raw, "state")
        # another game's state is named as such before its fields are judged
        if raw.get("game", "sevenyears") != "sevenyears":
            raise self.fail(f"this is a {raw['game']!r} state", "game", ["sevenyears"])
        for key in raw:
            if key not in top:
                raise self.fail(f"unknown field {key!r}", key, top)
        for key in top:
            if key not in raw and key not in ("pending", "to_move"):
                raise self.fail("missing field", key)
        options = SevenYearsOptions.from_json(raw["options"])
        state = SevenYearsState(rules_for(self.data, options))
        data = self.data
        state.turn = self.integer(raw["turn"], "turn", 1, data.turns)
        if raw["phase"] not in PHASES:
            raise self.fail(f"unknown phase {raw['phase']!r}", "phase", PHASES)
        state.phase = raw["phase"]
        state.step = self.integer(raw["step"], "step", 0, 2)
        state.deck = self.cards(raw["deck"], "deck")
        state.discard = self.cards(raw["discard"], "discard")
        hands = self.per_player(raw["hands"], "hands")
        state.hands = [self.cards(hands[p], f"hands.{p}") for p in self.players]
        grid = self.per_area(raw["grid"], "grid")
        for a, key in enumerate(self.keys):
            cells = grid[key]
            if not isinstance(cells, list):
                raise self.fail("expected a list", f"grid.{key}")
            for i, cell in enumerate(cells):
                path = f"grid.{key}[{i}]"
                cell = self.obj(cell, path, ["serial", "player", "card"])
                state.grid[a].append(
                    (
                        self.integer(cell["serial"], f"{path}.serial", 0, 10**9),
                        self.player(cell["player"], f"{path}.player"),
                        data.card_index(str(cell["card"]), path=f"{path}.card"),
                    )
                )
        medals = self.per_player(raw["medals"], "medals")
        for p, name in enumerate(self.players):
            row = self.per_area(medals[name], f"medals.{name}")
            state.medals[p] = [
                self.integer(row[k], f"medals.{name}.{k}", 0, data.medals_per_player)
                for k in self.keys
            ]
        campaigns = self.per_area(raw["campaigns"], "campaigns")
        state.closed = [
            -1 if campaigns[k] is None else self.player(campaigns[k], f"campaigns.{k}")
            for k in self.keys
        ]
        for name, target in (
            ("owed_draws", state.owed_draws),
            ("owed_random_discards", state.owed_random),
        ):
            if not isinstance(raw[name], list):
                raise self.fail("expected a list", name)
            for i, item in enumerate(raw[name]):
                item = self.obj(item, f"{name}[{i}]", ["player", "cards"])
                target.append(
                    [self.player(item["player"], f"{name}[{i}].player"),
                     self.integer(item["cards"], f"{name}[{i}].cards", 1, data.deck_size)]
                )  # fmt: skip
        if not isinstance(raw["execute_queue"], list):
            raise self.fail("expected a list", "execute_queue")
        state.execute_queue = [
            self.player(p, f"execute_queue[{i}]") for i, p in enumerate(raw["execute_queue"])
        ]
        state.current = -1 if raw["current"] is None else self.player(raw["current"], "current")
        active = self.per_player(raw["active"], "active")
        for p, name in enumerate(self.players):
            if not isinstance(active[name], bool):
                raise self.fail("expected true or false", f"active.{name}")
            state.active[p] = active[name]
        state.passes = self.integer(raw["passes"], "passes", 0, 2)
        if not isinstance(raw["difficulty_queue"], list):
            raise self.fail("expected a list", "difficulty_queue")
        for i, item in enumerate(raw["difficulty_queue"]):
            path = f"difficulty_queue[{i}]"
            item = self.obj(item, path, ["area", "victim", "serial"])
            state.difficulty_queue.append(
                (self.area(item["area"], f"{path}.area"),
                 self.player(item["victim"], f"{path}.victim"),
                 self.integer(item["serial"], f"{path}.serial", 0, 10**9))
            )  # fmt: skip
        state.serial = self.integer(raw["serial"], "serial", 0, 10**9)
        result = raw["result"]
        if result is not None:
            result = self.obj(result, "result", ["winner", "condition"])
            if result["condition"] not in CONDITIONS:
                raise self.fail(
                    f"unknown condition {result['condition']!r}", "result.condition", CONDITIONS
                )
            winner = (
                -1 if result["winner"] is None else self.player(result["winner"], "result.winner")
            )
            state.result = (winner, result["condition"])
        problems = state.invariant_problems()
        if problems:
            path, _, message = problems[0].partition(": ")
            raise self.fail(message, path)
        state._advance()
        if "pending" in raw and raw["pending"] != state.to_json()["pending"]:
            raise self.fail(
                f"does not follow from the state, which awaits {state.to_json()['pending']}",
                "pending",
            )
        if "to_move" in raw and raw["to_move"] != state.to_move:
            raise self.fail(
                f"{raw['to_move']!r} does not follow from the state: {state.to_move} is to move",
                "to_move",
            )
        return state


def moves_from_json(raw: Any, data: SevenYearsData) -> list[Move]:
    """A list of moves from JSON."""
    if not isinstance(raw, list):
        raise InputError("expected a list of moves", path="moves")
    return [move_from_json(item, data, path=f"moves[{i}]") for i, item in enumerate(raw)]
