"""A whole game of Liberty or Death: the Sequence of Play (2.2-2.4), Brilliant
Strokes (2.3.8-2.3.9), the Winter Quarters Round (6.0) and victory (7.0, 8.8).

:class:`LodState` implements the ``GameState`` protocol of ``model/core/game.py``:
whose decision it is (``to_move``: a Faction id, or ``"chance"``), the legal
moves there as one lazy view, and the move's application. The board itself is a
:class:`~legalis.model.coin.state.CoinState`; this class adds the deck, the card
being played, who acted on it, the action under way and the Winter Quarters
Round's progress.

The decisions, in the order play meets them:

- chance: the deck as Deck Preparation deals it (2.1), then, for each card, the
  seed of its dice (:class:`~.moves.Roll`);
- the Brilliant Stroke window before the 1st Eligible acts (2.3.8): each Faction
  able to play one plays it or declines, then each able to Trump the standing one;
- each Eligible Faction in the card's order (2.3.2): Pass, execute the Event, or
  a Command (the first move of its action); the 2nd Eligible's options follow
  from the 1st's (2.3.4);
- an action under way: its Special Activity, the Battle's follow-ups, its second
  Limited Command (a Brilliant Stroke), or ``Done``;
- the free Commands and Special Activities an Event grants (5.3), each an action;
- the Winter Quarters Round's choices (6.2-6.6) and its card's Event (6.0).

>>> from legalis.model.core.randomness import LoggedRandom
>>> from legalis.solver.lodgame.game import LodGame
>>> state = LodGame().new_initial_state()
>>> state.to_move, state.stage
('chance', 'prepare')
>>> rng = LoggedRandom(1)
>>> while state.to_move == "chance":
...     state.play(state.sample_chance(rng))
>>> state.to_move in ("british", "patriots", "french", "indians"), state.card is not None
(True, True)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, replace
from typing import Any

from legalis.model.coin.deck import Card
from legalis.model.coin.interpret import CHANCE as EVENT_CHANCE
from legalis.model.coin.state import CoinState
from legalis.model.core.views import ListView, MoveView, RandomSource, Refusal
from legalis.model.errors import IllegalMoveError
from legalis.model.lod.battle import (
    BlockadeShift,
    FollowUp,
    apply_blockade_shift,
)
from legalis.model.lod.command_base import COMMANDS, RESOURCES, Command, carry_out_command
from legalis.model.lod.commands import (
    apply_command,
    fight_battles,
)
from legalis.model.lod.special import (
    SPECIAL_ACTIVITIES,
    SpecialActivity,
    carry_out_special,
    special_during,
)
from legalis.model.lod.supply import apply_supply, supply_refusal, supply_steps, supply_view
from legalis.model.lod.victory import (
    check_winners,
    final_ranking,
    one_player_check,
    one_player_final,
)
from legalis.model.lod.winter import (
    REDEPLOYMENT_ORDER,
    Desertion,
    SupportSpending,
    apply_desertion,
    apply_naval_withdrawal,
    apply_support_spending,
    british_release,
    desertion_refusal,
    desertion_steps,
    desertion_view,
    leader_change,
    leader_redeployments,
    naval_withdrawal_refusal,
    naval_withdrawals,
    redeploy_leader,
    reset_phase,
    resources_phase,
    support_spending_refusal,
    support_view,
)
from legalis.solver.events import EventMove, EventMovesView
from legalis.solver.lodgame.dice import StreamDice, roll_total
from legalis.solver.lodgame.moves import (
    Decline,
    Done,
    During,
    Fight,
    Pass,
    PlayEvent,
    Prepare,
    Redeploy,
    Roll,
    Stroke,
)
from legalis.solver.lodgame.rules import LodRules

__all__ = ["CHANCE", "Action", "LodState", "Winter"]

CHANCE = "chance"
FACTIONS = ("british", "patriots", "french", "indians")
PASS_GAIN = {"british": 2, "patriots": 1, "french": 2, "indians": 1}  # 2.3.3
TREATY = "Treaty of Alliance"
STROKE_CARDS = {
    "british": "British Brilliant Stroke",
    "patriots": "Patriot Brilliant Stroke",
    "french": "French Brilliant Stroke",
    "indians": "Indian Brilliant Stroke",
}
CARD_OWNER = {card: faction for faction, card in STROKE_CARDS.items()} | {TREATY: "french"}
# 2.3.8: who may Trump whose Brilliant Stroke (the Treaty Trumps all, and none Trumps it)
TRUMPS = {"indians": {"british", "patriots", "french"}, "french": {"british", "patriots"},
          "british": {"patriots"}, "patriots": set()}  # fmt: skip
TREATY_PREPARATIONS = 15  # 2.3.9: more than 15
TREATY_REGULARS = 3  # the Treaty's Regulars to the West Indies, per Faction
WEST_INDIES = "West Indies"


@dataclass(frozen=True)
class Action:
    """An action under way: whose, in which ``slot`` (``first``/``second`` Eligible,
    ``stroke``, ``grant`` of an Event, ``treaty``), and what it may still do:
    ``commands`` left (``limited``, ``free``; ``names``/``spaces`` narrow them),
    ``specials`` left (``paired`` with the action's Command, 4.1, or independent, as
    on a Brilliant Stroke); ``command`` the Command executed (``declared``: the one a
    Special Activity taken first announced); ``leader`` whether a Command must still
    involve the Faction's Leader (1.10, Brilliant Stroke); ``offers`` the Battle's
    follow-ups still open (3.6.8); ``force_level`` what an Event's grant adds to the
    Force Level of the Battle it grants ("free Battle ... with +1 Force Level")."""

    faction: str
    slot: str
    commands: int
    specials: int
    limited: bool = False
    free: bool = False
    paired: bool = True
    names: tuple[str, ...] | None = None
    special_names: tuple[str, ...] | None = None
    spaces: tuple[str, ...] | None = None
    command: Command | None = None
    declared: Command | None = None
    leader: bool = False
    offers: tuple[FollowUp, ...] = ()
    special_done: bool = False
    force_level: int = 0


def offer_taken(action: Action, move: object) -> FollowUp | None:
    """The follow-up of ``action`` that ``move`` takes up: a free Limited Rally after
    Winning the Day (3.6.8), the Scout's Skirmish (3.4.3). A Rally the action may
    still take as one of its own Commands is that Command; any other free Limited
    Rally of the offer's Faction is the follow-up, even while Commands are left
    (a grant of two Battles, a Brilliant Stroke's second Limited Command).

    >>> rally = Command("patriots", "rally", ("Virginia",), limited=True, free=True)
    >>> offer = FollowUp("patriots", "rally", "", "3.6.8", "free Rally in one space")
    >>> grant = Action("patriots", "grant", commands=1, specials=0, names=("battle",),
    ...                offers=(offer,))
    >>> offer_taken(grant, rally) is offer, offer_taken(replace(grant, names=None), rally)
    (True, None)
    """
    if isinstance(move, Command):
        own = (
            action.commands > 0
            and action.faction == move.faction
            and (action.names is None or move.name in action.names)
        )
        if own or not (move.free and move.limited):
            return None
    elif not isinstance(move, SpecialActivity) or move.command is not None:
        return None
    matching = [o for o in action.offers if (o.action, o.faction) == (move.name, move.faction)]
    # two Scouts of a Brilliant Stroke offer two Skirmishes: the one in the move's space
    here = [o for o in matching if (o.space,) == tuple(getattr(move, "spaces", ()))]
    return next(iter(here or matching), None)


@dataclass(frozen=True)
class Winter:
    """The Winter Quarters Round under way: its ``phase``, the decisions still due in
    it (``due``: tuples naming the step and the Faction), its number and year."""

    phase: str
    due: tuple[tuple[Any, ...], ...] = ()
    number: int = 1
    year: int = 0
    final: bool = False


WINTER_PHASES = ("victory", "supply", "resources", "support", "final", "leaders", "redeploy",
                 "release", "naval", "desertion", "reset", "event", "end")  # fmt: skip


@dataclass
class LodState:
    """One position of a whole LoD game (see the module's docstring)."""

    rules: LodRules
    coin: CoinState
    stage: str = "prepare"
    deck: tuple[int, ...] = ()
    card_number: int | None = None
    on_deck: int | None = None
    winters: int = 0
    dice_seed: int = 0
    dice_drawn: int = 0
    first_did: str | None = None
    acted: tuple[str, ...] = ()
    to_ask: tuple[str, ...] = ()
    window: tuple[str, ...] = ()
    stroke: tuple[str, str] | None = None
    stroke_played: bool = False
    action: Action | None = None
    winter: Winter | None = None
    result: dict[str, Any] | None = None
    log: list[str] = field(default_factory=list, compare=False)
    cache: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    # ------------------------------------------------------------------ protocol

    @property
    def to_move(self) -> str:
        if self.stage in ("prepare", "roll"):
            return CHANCE
        if self.stage == "over":
            return "none"
        if self.stage == "window":
            return self.window[0]
        if self.stage == "choose":
            return self.to_ask[0]
        if self.stage == "action":
            assert self.action is not None
            return self.action.faction
        assert self.winter is not None and self.winter.due
        return str(self.winter.due[0][1])

    @property
    def is_over(self) -> bool:
        return self.stage == "over"

    @property
    def is_chance(self) -> bool:
        return self.stage in ("prepare", "roll")

    @property
    def card(self) -> Card | None:
        """The card being played."""
        return None if self.card_number is None else self.rules.card(self.card_number)

    @property
    def next_card(self) -> Card | None:
        """The card on deck, shown face up (2.2)."""
        return None if self.on_deck is None else self.rules.card(self.on_deck)

    @property
    def phase(self) -> str:
        """Where the game stands, in words a log or a prompt can show."""
        if self.stage == "winter":
            assert self.winter is not None
            return f"winter quarters: {self.winter.phase}"
        return self.stage

    @property
    def turn(self) -> int:
        """The campaign (Winter Quarters Rounds so far, plus one)."""
        return self.winters + 1

    @property
    def players(self) -> tuple[str, ...]:
        """The Factions played by someone other than the Non-player rules (8.0)."""
        return tuple(f for f in FACTIONS if f not in self.rules.nonplayers)

    @property
    def lone_player(self) -> bool:
        """8.8 applies: Non-players with one player playing one Faction or one side."""
        players = set(self.players)
        sides = ({"british", "indians"}, {"patriots", "french"})
        return bool(self.rules.nonplayers) and (len(players) == 1 or players in sides)

    def copy(self) -> LodState:
        return replace(self, coin=self.coin.copy(), log=[], cache={})

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LodState):
            return NotImplemented
        return (
            all(
                getattr(self, f.name) == getattr(other, f.name)
                for f in dataclasses.fields(self)
                if f.name not in ("rules", "log", "cache")
            )
            and self.rules.key == other.rules.key
        )

    def legal_moves(self) -> MoveView[Any]:
        from legalis.solver.lodgame.views import legal_moves

        return legal_moves(self)

    def sample_chance(self, rng: RandomSource) -> Any:
        if self.stage == "prepare":
            return Prepare(self.rules.prepare_deck(rng))
        if self.stage == "roll":
            return Roll(rng.randrange(2**31))
        raise IllegalMoveError("no chance move is due here", rule="2.2")

    def apply(self, move: Any) -> LodState:
        new = self.copy()
        new.play(move)
        return new

    def play(self, move: Any) -> None:
        """Carry out a legal ``move`` in place; an illegal one raises
        :class:`IllegalMoveError` naming the rule, and changes nothing."""
        from legalis.solver.lodgame.views import refusal

        refused = refusal(self, move)
        if refused is not None:
            raise IllegalMoveError(refused.reason, rule=refused.rule)
        checked = self.cache  # what was known of the state before the move
        self.log = []
        self.cache = {}
        self._carry_out(move, checked)
        self.cache = {}

    def invariant_problems(self) -> list[str]:
        problems = list(self.coin.invariant_problems())
        if self.stage not in ("prepare", "roll", "window", "choose", "action", "winter", "over"):
            problems.append(f"unknown stage {self.stage!r}")
        if self.stage == "action" and self.action is None:
            problems.append("an action stage without an action")
        if self.stage == "winter" and (self.winter is None or not self.winter.due):
            problems.append("a Winter Quarters stage with no decision due")
        if len(self.acted) > 2:
            problems.append(f"more than two Factions acted on a card: {self.acted}")  # 2.3
        if self.is_over != (self.result is not None):
            problems.append("a game is over exactly when it has a result")
        for faction in self.acted:
            if faction in self.to_ask:
                problems.append(f"{faction} acted and is still to be asked")
        return problems

    def to_json(self) -> dict[str, Any]:
        from legalis.solver.lodgame.json import state_to_json

        return state_to_json(self)

    # ------------------------------------------------------------------ dice

    def dice(self) -> StreamDice:
        """The card's dice, from the next face not yet rolled."""
        return StreamDice(self.dice_seed, self.dice_drawn)

    def _rolled(self, dice: StreamDice) -> None:
        self.dice_drawn = dice.drawn

    def event_rolls(self, move: EventMove, view: EventMovesView) -> Refusal | None:
        """An Event's die rolls are chance: a move must record the totals the card's
        roll gives (the k-th roll of the side, in the order its text names them)."""
        counts = self.rules.roll_dice(move.card, move.side)
        if not counts:
            return None
        deciders = view.deciders(move)
        rolls = [step for step, who in zip(move.steps, deciders, strict=True)
                 if who == EVENT_CHANCE]  # fmt: skip
        for index, total in enumerate(rolls):
            dice = counts[min(index, len(counts) - 1)]
            wanted = roll_total(self.dice_seed, index, dice)
            if total != wanted:
                return Refusal(f"the dice rolled {wanted}, not {total}", "5.1")
        return None

    # ------------------------------------------------------------------ carrying out

    def _carry_out(self, move: Any, checked: dict[Any, Any]) -> None:
        """``checked``: the cache of the state ``move`` was checked on, which is this
        state until the move changes it."""
        if isinstance(move, Prepare):
            self.deck = move.order
            self._reveal_first()
        elif isinstance(move, Roll):
            self.dice_seed, self.dice_drawn = move.seed, 0
            self._start_card()
        elif self.stage == "winter":
            self._winter_move(move)
        elif isinstance(move, Stroke | Decline):
            self._window_move(move)
        elif isinstance(move, Pass):
            self._pass(move.faction)
        elif isinstance(move, PlayEvent):
            self._event(move, checked)
        else:
            self._action_move(move)

    # ---------------------------------------------------------------- cards (2.2, 2.3.7)

    def _reveal_first(self) -> None:
        """2.2: the top card is played, the next shown on deck; a Winter Quarters card
        on deck is switched with the played card."""
        self.card_number, self.on_deck, self.deck = self.deck[0], self.deck[1], self.deck[2:]
        self._switch_winter()
        self.stage = "roll"

    def _switch_winter(self) -> None:
        if self.on_deck is not None and self.rules.is_winter(self.on_deck):
            self.card_number, self.on_deck = self.on_deck, self.card_number  # 2.3.7

    def _next_card(self) -> None:
        """2.3.7: the card on deck is played and the next revealed."""
        if self.on_deck is None:  # no card left: the deck ran out before its last Winter
            self._final_result("the deck ran out")
            return
        self.card_number = self.on_deck
        self.on_deck, self.deck = (self.deck[0], self.deck[1:]) if self.deck else (None, ())
        self._switch_winter()
        self.stage = "roll"

    def _start_card(self) -> None:
        self.first_did, self.acted, self.stroke, self.stroke_played = None, (), None, False
        self.coin.eligibility_at_end.clear()
        assert self.card_number is not None
        if self.rules.is_winter(self.card_number):
            self._start_winter()
            return
        card = self.rules.card(self.card_number)
        self.to_ask = tuple(f for f in self.rules.order(card) if self._eligible(f))
        self.window = tuple(f for f in self._stroke_order(card) if self.playable_strokes(f))
        self.stage = "window" if self.window else "choose"
        self._settle()

    def _eligible(self, faction: str) -> bool:
        return self.coin.eligibility(faction) == "eligible"

    def _settle(self) -> None:
        """Move on past a point with no decision left: the card's end when every
        Eligible Faction is done."""
        if self.stage == "choose" and (len(self.acted) == 2 or not self.to_ask):
            self._end_card()

    def _end_card(self) -> None:
        """2.3.6: eligibility adjusted, then the next card."""
        at_end = dict(self.coin.eligibility_at_end)
        for faction in FACTIONS:
            if self.stroke_played:
                value = "eligible"
            elif faction in at_end:
                value = "eligible" if at_end[faction] == "eligible" else "ineligible"
            else:
                value = "ineligible" if faction in self.acted else "eligible"
            self.coin.set_eligibility(faction, value)
        self.coin.eligibility_at_end.clear()
        if self.rules.battle_options.event_modifiers_last == "card":
            self.coin.battle_modifiers = []  # no Battle used them on their card
        self.to_ask, self.window, self.action = (), (), None
        self._next_card()

    # ---------------------------------------------------------------- 2.3.8 strokes

    def _stroke_order(self, card: Card) -> list[str]:
        order = list(self.rules.order(card))
        return order + [f for f in FACTIONS if f not in order]

    def held(self, faction: str) -> list[str]:
        """The Brilliant Stroke cards ``faction`` holds, the Treaty first."""
        cards = self.coin.lists.get("brilliant_strokes", [])
        return [c for c in (TREATY, STROKE_CARDS[faction]) if c in cards and
                CARD_OWNER[c] == faction]  # fmt: skip

    def treaty_preparations(self) -> int:
        """2.3.9 French Preparations: Available French Regulars, Squadrons and CBC."""
        squadrons = self.coin.markers(WEST_INDIES, "blockade")
        return self.coin.available("french_regular") + squadrons + self.coin.track("cbc")

    def stroke_refusal(
        self, faction: str, card: str, *, trumping: tuple[str, str] | None
    ) -> Refusal | None:
        """Why ``faction`` may not play ``card`` now (None: it may)."""
        if card not in self.held(faction):
            return Refusal(f"the {faction} hold no {card}", "2.3.8")
        if not self._eligible(faction):
            return Refusal(f"the {faction} are not Eligible", "2.3.8")
        if self.acted or self.first_did is not None:
            return Refusal("the 1st Eligible Faction has already acted", "2.3.8")
        if card == TREATY:
            if self.coin.flag("toa_played"):
                return Refusal("the Treaty of Alliance has been played", "2.3.9")
            if self.treaty_preparations() <= TREATY_PREPARATIONS:
                return Refusal(f"French Preparations {self.treaty_preparations()} are not "
                               f"more than {TREATY_PREPARATIONS}", "2.3.9")  # fmt: skip
        else:
            if faction == "french" and not self.coin.flag("toa_played"):
                return Refusal("the Treaty of Alliance must be played first", "2.3.8")
            if not self._leader_can_lead(faction):
                return Refusal("no Limited Command can involve the Leader", "1.10")
        if trumping is not None:
            owner, standing = trumping
            if standing == TREATY:
                return Refusal("the Treaty of Alliance cannot be Trumped", "2.3.9")
            if card != TREATY and owner not in TRUMPS[faction]:
                return Refusal(f"the {faction} may not Trump the {owner}", "2.3.8")
            if owner == faction:
                return Refusal("a Faction does not Trump its own card", "2.3.8")
        return None

    def playable_strokes(self, faction: str) -> list[str]:
        return [c for c in self.held(faction)
                if self.stroke_refusal(faction, c, trumping=self.stroke) is None]  # fmt: skip

    def _leader_can_lead(self, faction: str) -> bool:
        """1.10: a Limited Command can involve the Leader. A Non-player's is judged by
        8.3.7 when it decides (an aborted Stroke is not played), so it is not searched
        here (``rules-questions.md``: Brilliant Stroke and the Leader)."""
        from legalis.solver.lodgame.views import leader_can_lead

        if faction in self.rules.nonplayers:
            return True
        key = ("lead", faction)
        if key not in self.cache:
            self.cache[key] = leader_can_lead(self, faction)
        return bool(self.cache[key])

    def _window_move(self, move: Stroke | Decline) -> None:
        asked = self.window[1:]
        if isinstance(move, Stroke):
            if self.stroke is not None:
                self.log.append(f"2.3.8: the {move.faction} Trump the {self.stroke[1]}")
            self.stroke = (move.faction, move.card)
            assert self.card is not None
            # 2.3.8: after a Stroke, each Faction that can Trump it is asked in turn
            asked = tuple(f for f in self._stroke_order(self.card)
                          if f != move.faction and self.playable_strokes(f))  # fmt: skip
        self.window = tuple(f for f in asked if self.playable_strokes(f))
        if self.window:
            return
        if self.stroke is None:
            self.stage = "choose"
            self._settle()
            return
        self._execute_stroke()

    def _execute_stroke(self) -> None:
        assert self.stroke is not None
        faction, card = self.stroke
        self.coin.lists["brilliant_strokes"] = [c for c in self.coin.lists["brilliant_strokes"]
                                                if c != card]  # fmt: skip
        self.stroke_played = True
        self.to_ask = ()
        if card == TREATY:
            self._treaty()
            return
        self.log.append(f"2.3.8: the {faction} play their Brilliant Stroke; the card is cancelled")
        self.action = Action(faction, "stroke", commands=2, specials=1, limited=True, free=True,
                             paired=False, leader=True)  # fmt: skip
        self.stage = "action"

    def _treaty(self) -> None:
        """2.3.9 and the Treaty's instructions: the French enter the war with a free
        Muster in one space, raise FNI with a Blockade, and Regulars of both sides go
        to the West Indies (``rules-questions.md``: the Treaty of Alliance)."""
        self.coin.set_flag("toa_played")
        self.log.append("2.3.9: the Treaty of Alliance is played; the card is cancelled")
        self.action = Action("french", "treaty", commands=1, specials=1, limited=True, free=True,
                             paired=False, names=("muster",),
                             special_names=("naval_pressure",))  # fmt: skip
        self.stage = "action"

    def _treaty_reinforcements(self) -> None:
        for piece in ("french_regular", "british_regular"):
            left = TREATY_REGULARS
            for source in ("Unavailable", "Available"):
                take = min(left, self.coin.pieces(source, piece))
                if take:
                    self.coin.move_pieces(source, WEST_INDIES, piece, take)
                    self.log.append(f"Treaty of Alliance: {take} {piece} {source} -> West Indies")
                left -= take

    # ---------------------------------------------------------------- 2.3.3-2.3.5

    def slot(self) -> str:
        return "first" if not self.acted else "second"

    def _pass(self, faction: str) -> None:
        track = RESOURCES[faction]
        top = self.coin.rules.data.track(track).hi
        self.coin.set_track(track, min(top, self.coin.track(track) + PASS_GAIN[faction]))
        self.log.append(f"2.3.3: the {faction} Pass (+{PASS_GAIN[faction]} Resources)")
        self.to_ask = self.to_ask[1:]
        self._settle()

    def _event(self, move: PlayEvent, checked: dict[Any, Any]) -> None:
        from legalis.solver.lodgame.views import event_view

        faction = move.faction
        # the view that checked the move carries out the execution it replayed then
        view = event_view(self, move.event.side, faction, checked)
        self.coin = view.apply(move.event)
        self._acted(faction, "event")
        self.stage = "choose"
        self._grants_or_settle()

    def _acted(self, faction: str, what: str) -> None:
        self.acted = (*self.acted, faction)
        self.to_ask = tuple(f for f in self.to_ask if f != faction)
        if self.first_did is None:
            self.first_did = what

    def _grants_or_settle(self) -> None:
        """5.3: the free actions an Event granted are taken, in order, before play goes on."""
        while self.coin.free_actions:
            grant = self.coin.free_actions.pop(0)
            action = self._grant_action(grant)
            if action is not None:
                self.action, self.stage = action, "action"
                return
        self.action = None
        if self.stage == "winter":
            self._winter_advance()
        else:
            self.stage = "choose"
            self._settle()

    def _grant_action(self, grant: dict[str, Any]) -> Action | None:
        faction = grant.get("faction")
        if faction not in FACTIONS:
            self.log.append(f"5.3: a free action for {faction!r} is not a LoD Faction's: dropped")
            return None
        modifiers = grant.get("modifiers") or {}
        times = int(modifiers.get("times") or modifiers.get("count") or 1)
        spaces = tuple(grant["spaces"]) if grant.get("spaces") is not None else None
        name = grant.get("action", "any")
        if grant.get("kind") == "special_activity":
            names = None if name == "any" else (name,)
            if names is not None and name not in SPECIAL_ACTIVITIES[faction]:
                return None
            return Action(faction, "grant", commands=0, specials=times, free=True,
                          paired=False, special_names=names, spaces=spaces)  # fmt: skip
        names = None if name == "any" else (name,)
        if names is not None and name not in COMMANDS[faction]:
            return None
        return Action(faction, "grant", commands=times,
                      specials=1 if modifiers.get("with_special") else 0,
                      limited=bool(grant.get("limited")), free=True, paired=False, names=names,
                      spaces=spaces,
                      force_level=int(modifiers.get("force_level") or 0))  # fmt: skip

    # ---------------------------------------------------------------- actions

    def start_action(self, faction: str) -> Action:
        """The action ``faction`` begins at the card decision (2.3.4), by the options
        its slot allows; a Non-player's Limited Command is a full one (8.1)."""
        slot = self.slot()
        nonplayer = faction in self.rules.nonplayers
        limited = slot == "second" and self.first_did in ("command", "command_sa")
        if nonplayer:
            limited = False
        specials = 0 if limited else 1
        return Action(faction, slot, commands=1, specials=specials, limited=limited)

    def _action_move(self, move: Any) -> None:
        if self.stage == "choose":
            faction = self.to_ask[0]
            self.action = self.start_action(faction)
            self.stage = "action"
            self._acted(faction, "command")
        action = self.action
        assert action is not None
        if isinstance(move, Done):
            self._end_action()
            return
        if isinstance(move, BlockadeShift):
            shifted = next(o for o in action.offers if o.space == move.source)
            self.coin, lines = apply_blockade_shift(self.coin, shifted, move)
            self.log += lines
            left = tuple(o for o in action.offers if o is not shifted)
            self.action = replace(action, offers=left)
        elif isinstance(move, SpecialActivity) and (offer := offer_taken(action, move)):
            dice = self.dice()  # play() has just checked it (views.action_refusal)
            result = carry_out_special(self.coin, move, dice)
            self._rolled(dice)
            self.coin, self.log = result.state, [*self.log, *result.log]
            self.action = replace(action, offers=tuple(o for o in action.offers if o is not offer))
        elif isinstance(move, Command) and (offer := offer_taken(action, move)):
            done = apply_command(self.coin, move, options=self.rules.command_options)
            self.coin, self.log = done.state, [*self.log, *done.log]
            self.action = replace(action, offers=tuple(o for o in action.offers if o is not offer))
        elif isinstance(move, SpecialActivity):
            self._special(action, move)
        else:
            self._command(action, move)
        self._after_step()

    def _special(self, action: Action, move: SpecialActivity) -> None:
        dice = self.dice()  # play() has just checked it (views.action_refusal)
        result = carry_out_special(self.coin, move, dice)
        self._rolled(dice)
        self.coin, self.log = result.state, [*self.log, *result.log]
        declared = move.command if action.command is None and action.paired else None
        self.action = replace(action, specials=action.specials - 1, special_done=True,
                              declared=declared)  # fmt: skip

    def _command(self, action: Action, move: Command | Fight | During) -> None:
        from legalis.solver.lodgame.views import leader_involved

        command = move if isinstance(move, Command) else move.command
        involved = action.leader and leader_involved(self.coin, command)
        offers = action.offers
        dice = self.dice()
        if action.force_level and command.name == "battle":  # the grant's own Battle
            self.coin.battle_modifiers.append({"faction": action.faction, "role": "attacker",
                                               "loss_level": 0,
                                               "force_level": action.force_level})  # fmt: skip
        if isinstance(move, Fight):
            decisions = {choice.space: choice for choice in move.decisions}
            done, fought = fight_battles(self.coin, command, dice, decisions,
                                         self.rules.battle_options)  # fmt: skip
            self.coin = done.state
            self.log += done.log
            offers += tuple(f for r in fought for f in r.follow_ups)
        elif isinstance(move, During):
            parts = special_during(self.coin, command, move.before, move.special, dice,
                                   self.rules.command_options)  # fmt: skip
            self.coin = parts[2].state
            self.log += [*parts[0].log, *parts[1].log, *parts[2].log]
        else:  # play() has just checked it with command_refusal (views.action_refusal: here,
            # or by the flowchart that planned it at an equal state)
            done = carry_out_command(self.coin, command, options=self.rules.command_options)
            self.coin = done.state
            self.log += done.log
            if command.name == "scout" and command.faction == "indians":  # 3.4.3
                offers += tuple(FollowUp("british", "skirmish", destination, "3.4.3",
                                         "Scout's Skirmish with British Regulars")
                                for destination in command.spaces)  # fmt: skip
        self._rolled(dice)
        special = isinstance(move, During)
        first = action.command is None
        self.action = replace(
            action,
            commands=action.commands - 1,
            command=command if first else action.command,
            declared=None,
            leader=action.leader and not involved,
            offers=offers,
            specials=action.specials - (1 if special else 0),
            special_done=action.special_done or special,
        )

    def _after_step(self) -> None:
        """An action ends by itself when nothing is left for it to do."""
        from legalis.solver.lodgame.views import action_has_moves

        assert self.action is not None
        if not action_has_moves(self, self.action):
            self._end_action()

    def _end_action(self) -> None:
        action = self.action
        assert action is not None
        self.action = None
        if action.slot in ("first", "second"):
            if action.slot == "first" and action.special_done:
                self.first_did = "command_sa"
            self.stage = "choose"
            self._grants_or_settle()
        elif action.slot == "treaty":
            self._treaty_reinforcements()
            self._end_card()
        elif action.slot == "stroke":
            self._end_card()
        else:  # a grant: the next one, or back to where play was
            self.stage = "winter" if self.winter is not None else "choose"
            self._grants_or_settle()

    # ---------------------------------------------------------------- 6.0 Winter Quarters

    def _start_winter(self) -> None:
        self.winters += 1
        years = self.rules.campaigns
        year = years[min(self.winters, len(years)) - 1]
        final = self.winters >= len(years)
        self.stage = "winter"
        self.winter = Winter("start", (), self.winters, year, final)
        self._winter_advance()

    def _winter_advance(self) -> None:
        """Run the Round's phases until a decision is due (or the game ends)."""
        while self.stage == "winter":
            assert self.winter is not None
            if self.winter.due:
                return
            at = WINTER_PHASES.index(self.winter.phase) + 1 if self.winter.phase != "start" else 0
            phase = WINTER_PHASES[at]
            self.winter = replace(self.winter, phase=phase)
            self._winter_phase(phase)

    def _due(self, *items: tuple[Any, ...]) -> None:
        assert self.winter is not None
        self.winter = replace(self.winter, due=tuple(items))

    def _winter_phase(self, phase: str) -> None:
        coin = self.coin
        if phase == "victory":
            self._victory_check()
        elif phase == "supply":
            self._due(*(("supply", faction, step) for faction, step in supply_steps(coin)))
        elif phase == "resources":
            self.coin, lines = resources_phase(coin)
            self.log += lines
        elif phase == "support":
            self._due(("support", "british"), ("support", "patriots"))
        elif phase == "final":
            assert self.winter is not None
            if self.winter.final:
                self._final_result("6.4.3: the final Winter Quarters Round's Support Phase")
        elif phase == "leaders":
            first = self._leader_change_faction()
            if first is not None:
                self.coin, lines = leader_change(coin, first)
                self.log += lines
        elif phase == "redeploy":
            self._due(*(("redeploy", f) for f in REDEPLOYMENT_ORDER
                        if leader_redeployments(coin, f)))  # fmt: skip
        elif phase == "release":
            assert self.winter is not None
            self.coin, lines = british_release(coin, self.rules.releases, self.winter.year)
            self.log += lines
        elif phase == "naval":
            if coin.flag("toa_played"):
                self._due(("naval", "french"))
        elif phase == "desertion":
            self._due(*(("desertion", who, piece, n) for who, piece, n, _ in desertion_steps(coin)))
        elif phase == "reset":
            self.coin, lines = reset_phase(coin)
            self.log += lines
        elif phase == "event":
            self._winter_event()
        else:  # end: 6.7 all Factions Eligible; the card switched behind it comes next
            for faction in FACTIONS:
                self.coin.set_eligibility(faction, "eligible")
            self.winter = None
            self._next_card()

    def _leader_change_faction(self) -> str | None:
        """6.5.1: the first Faction of the card on deck."""
        card = self.next_card
        return None if card is None or not card.factions else self.rules.order(card)[0]

    def winter_event_faction(self) -> str:
        """Who makes the choices of a Winter Quarters card's Event: the first Faction
        it lists, else the first of the card on deck (``rules-questions.md``)."""
        card = self.card
        assert card is not None
        if card.factions:
            return self.rules.order(card)[0]
        return self._leader_change_faction() or "british"

    def _winter_event(self) -> None:
        from legalis.solver.lodgame.views import event_view

        card = self.card
        if card is None or card.unshaded is None:
            return
        faction = self.winter_event_faction()
        if event_view(self, "unshaded", faction).count():
            self._due(("event", faction))

    def _victory_check(self) -> None:
        """6.1: a Faction meeting its conditions wins (7.2; with Non-players, 8.8)."""
        assert self.winter is not None
        players = self.players
        if self.lone_player:
            checked = one_player_check(self.coin, players, round_number=self.winter.number,
                                       options=self.rules.nonplayer_options.one_player)  # fmt: skip
            self.log.append(f"6.1 ({checked.rule}): {checked.reason}")
            if checked.outcome != "continue":
                self._end({"winner": checked.winner, "condition": checked.outcome,
                           "rule": checked.rule, "ranking": [],
                           "reason": checked.reason})  # fmt: skip
            return
        winners = check_winners(self.coin)
        if winners:
            ranking = [f for f in final_ranking(self.coin) if f in winners]
            self._end({"winner": ranking[0], "condition": "victory_check", "rule": "7.2",
                       "ranking": ranking, "reason": f"{', '.join(ranking)} meet their "
                       "victory conditions at a Victory Check"})  # fmt: skip

    def _final_result(self, why: str) -> None:
        players = self.players
        if self.lone_player:
            result = one_player_final(self.coin, players, self.rules.nonplayer_options.one_player)
            self._end({"winner": result.winner, "condition": result.outcome, "rule": result.rule,
                       "ranking": [], "reason": f"{why}: {result.reason}"})  # fmt: skip
            return
        ranking = final_ranking(self.coin, players=players if self.rules.nonplayers else ())
        self._end({"winner": ranking[0], "condition": "final", "rule": "7.3",
                   "ranking": ranking, "reason": f"{why}: highest total margin"})  # fmt: skip

    def _end(self, result: dict[str, Any]) -> None:
        self.result = result
        self.stage = "over"
        self.winter = None
        self.action = None
        self.to_ask = self.window = ()

    def _winter_move(self, move: Any) -> None:
        assert self.winter is not None
        due, rest = self.winter.due[0], self.winter.due[1:]
        self.winter = replace(self.winter, due=rest)
        kind = due[0]
        if kind == "supply":
            dice = self.dice()
            self.coin, lines = apply_supply(self.coin, move, dice)
            self._rolled(dice)
        elif kind == "support":
            self.coin, lines = apply_support_spending(self.coin, move)
        elif kind == "redeploy":
            self.coin, lines = redeploy_leader(self.coin, move.faction, move.space)
        elif kind == "naval":
            self.coin, lines = apply_naval_withdrawal(self.coin, move)
        elif kind == "desertion":
            self.coin, lines = apply_desertion(self.coin, move, due[3])
        else:  # the Winter Quarters card's Event
            from legalis.solver.lodgame.views import event_view

            self.coin = event_view(self, "unshaded", move.faction).apply(move.event)
            lines = []
            self.log += lines
            self._grants_or_settle()
            return
        self.log += lines
        self._winter_advance()


def winter_refusal(state: LodState, move: object) -> Refusal | None:
    """Why ``move`` is not the Winter Quarters decision due now."""
    assert state.winter is not None
    due = state.winter.due[0]
    kind, faction = due[0], due[1]
    coin = state.coin
    if kind == "supply":
        refused = supply_refusal(coin, move)
        if refused is None and (getattr(move, "faction", None), getattr(move, "step", None)) != (
            faction, due[2]):  # fmt: skip
            return Refusal(f"the {due[2]} step of the {faction} is due", "6.2")
        return refused
    if kind == "support":
        if not isinstance(move, SupportSpending) or move.faction != faction:
            return Refusal(f"the {faction} Support Phase spending is due", "6.4")
        return support_spending_refusal(coin, move)
    if kind == "redeploy":
        if not isinstance(move, Redeploy) or move.faction != faction:
            return Refusal(f"the {faction} Leader's redeployment is due", "6.5.2")
        allowed = leader_redeployments(coin, faction)
        if move.space not in allowed:
            return Refusal(f"the Leader may go to one of {allowed}", "6.5.2")
        return None
    if kind == "naval":
        return naval_withdrawal_refusal(coin, move)
    if kind == "desertion":
        if not isinstance(move, Desertion):
            return Refusal("a Desertion step is due", "6.6")
        return desertion_refusal(coin, move, due[1], due[2], due[3])
    if not isinstance(move, PlayEvent) or move.faction != faction:
        return Refusal(f"the {faction} carry out the Winter Quarters card's Event", "6.0")
    from legalis.solver.lodgame.views import event_view

    view = event_view(state, "unshaded", faction)
    return view.refusal(move.event) or state.event_rolls(move.event, view)


def winter_view(state: LodState) -> MoveView[Any]:
    """The legal moves of the Winter Quarters decision due now."""
    assert state.winter is not None
    due = state.winter.due[0]
    kind, faction = due[0], due[1]
    coin = state.coin

    def refuse(move: object) -> Refusal | None:
        return winter_refusal(state, move)

    if kind == "supply":
        return supply_view(coin, faction, due[2])
    if kind == "support":
        return support_view(coin, faction)
    if kind == "redeploy":
        return ListView([Redeploy(faction, s) for s in leader_redeployments(coin, faction)],
                        refuse)  # fmt: skip
    if kind == "naval":
        return ListView(naval_withdrawals(coin), refuse)
    if kind == "desertion":
        return desertion_view(coin, faction, due[2], due[3])
    from legalis.solver.lodgame.views import event_choices

    return event_choices(state, faction, ("unshaded",))
