"""Resolving a whole EU:PoP Event step by step, or automatically (16.3, 16.5).

:func:`resolve_event` resolves an Event's main text (its structured ``effects``,
in order) and then its symbols left to right. At each step with more than one
legal choice a player decides: the step is a :class:`Step` (who decides, the
rule, and the legal choices as a view of :mod:`legalis.solver.eupop` or
:mod:`legalis.model.eupop.secondary`), handed to ``choose``. Without ``choose``
(``--auto``) each choice follows the default of
:class:`~legalis.model.eupop.play.PlayOptions` and the symbols their
auto-resolution rules. Steps with a single legal choice (forced) and steps with
none (the effect is ignored) are decided by the rules. Every decision goes into
the :class:`~legalis.model.eupop.resolution.ResolutionLog` with the rule and what
decided it.

:func:`replay` drives an interactive resolution: the ``n``-th of the given choice
numbers answers the ``n``-th step, and the first step with no number left is
returned as pending. The same seed and numbers give the same log and state.

>>> from legalis.model.eupop.state import small_state
>>> from legalis.model.eupop.events import effects_from_data
>>> effects = effects_from_data([{"op": "g", "areas": ["saxony"]}])
>>> outcome = replay(small_state(), effects, (), choices=[], seed=0)
>>> outcome.pending is None, outcome.state.areas["saxony"].g
(True, ['france'])
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

from legalis.model.core.views import ListView, MoveView, RandomSource, Refusal, Verdict
from legalis.model.errors import IllegalMoveError, InputError
from legalis.model.eupop import effects as fx
from legalis.model.eupop import religion, secondary
from legalis.model.eupop.arguments import check_amount, check_effect_names, check_names
from legalis.model.eupop.events import (
    Alliance,
    ChooseAB,
    Develop,
    EachPlayer,
    Effect,
    GainGOp,
    If,
    Influence,
    Marriage,
    Merchant,
    Symbol,
    Town,
    Units,
)
from legalis.model.eupop.play import (
    GENERAL,
    PlayOptions,
    condition_holds,
    jsonable,
    log_json,
    require_active,
    resolve_card_symbols,
)
from legalis.model.eupop.resolution import ResolutionLog
from legalis.model.eupop.state import EuState
from legalis.solver import eupop as views

__all__ = [
    "EFFECTS",
    "Outcome",
    "Step",
    "effect_view",
    "move_from_json",
    "replay",
    "resolve",
    "resolve_event",
    "verdict_of",
]

AB_RULE = GENERAL + ": A)/B) choice"
CANDIDATES_LOGGED = 20


@dataclass(frozen=True)
class Step:
    """A pending decision: the rule, the player who decides, the legal choices."""

    rule: str
    player: str
    view: MoveView[Any]

    def to_json(self, limit: int = 100) -> dict[str, Any]:
        choices = [jsonable(move) for _, move in zip(range(limit), self.view, strict=False)]
        return {"rule": self.rule, "player": self.player, "count": self.view.count(),
                "choices": choices}  # fmt: skip


Choose = Callable[[Step], Any]


def _candidates(view: MoveView[Any]) -> list[Any]:
    shown = [jsonable(m) for _, m in zip(range(CANDIDATES_LOGGED), view, strict=False)]
    total = view.count()
    if total > CANDIDATES_LOGGED:
        shown.append(f"... ({total} in all)")
    return shown


@dataclass
class _Run:
    log: ResolutionLog
    rng: RandomSource
    options: PlayOptions
    choose: Choose | None

    def decide(self, rule: str, player: str, view: MoveView[Any]) -> Any:
        """One decision: ignored (no choice), forced (one), the player's or the default."""
        total = view.count()
        if total == 0:
            self.log.decide(rule, f"{player}: no legal choice, the effect is ignored", [], None)
            return None
        if total == 1:
            move = view.nth(0)
            self.log.decide(rule, f"{player}: forced, the only legal choice", [jsonable(move)],
                            jsonable(move))  # fmt: skip
            return move
        if self.choose is not None:
            move = self.choose(Step(rule, player, view))
            refused = view.refusal(move)
            if refused is not None:
                raise IllegalMoveError(refused.reason, rule=refused.rule)
            self.log.decide(rule, f"chosen by {player}", _candidates(view), jsonable(move))
            return move
        if self.options.player_default == "random":
            move = view.random(self.rng)
            how = "default 'random': a seeded uniform draw"
        else:
            move = view.nth(0)
            how = "default 'first': the first legal choice"
        self.log.decide(rule, f"{player}: {how}", _candidates(view), jsonable(move))
        return move

    # ------------------------------------------------------------ can a side be met?

    def can_meet(self, state: EuState, player: str, effect: Effect) -> bool:
        if isinstance(effect, If):
            return not condition_holds(state, player, effect.condition) or self.side_met(
                state, player, effect.effects
            )
        if isinstance(effect, ChooseAB):
            return self.side_met(state, player, effect.a) or self.side_met(state, player, effect.b)
        if isinstance(effect, EachPlayer):
            return True
        if isinstance(effect, Influence):
            view = views.influence_view(state, player, effect.amount, effect.areas,
                                        self.options.effects)  # fmt: skip
            return any(move.placed for move in view)
        return bool(_simple_view(state, player, effect, self.options))

    def side_met(self, state: EuState, player: str, side: Sequence[Effect]) -> bool:
        met = [self.can_meet(state, player, effect) for effect in side]
        return any(met) if self.options.ab_met == "any" else all(met)

    # ------------------------------------------------------------ effects

    def effects(self, state: EuState, player: str, effects: Sequence[Effect]) -> EuState:
        for effect in effects:
            state = self.effect(state, player, effect)
        return state

    def effect(self, state: EuState, player: str, effect: Effect) -> EuState:
        if isinstance(effect, EachPlayer):
            order = fx.resolution_order(state, state.players)
            self.log.decide(GENERAL + ": several players", "clockwise from the Active player",
                            list(state.players), order)  # fmt: skip
            for each in order:
                state = self.effects(state, each, effect.effects)
            return state
        if isinstance(effect, If):
            if not condition_holds(state, player, effect.condition):
                self.log.decide(GENERAL + ": conditions", f"{player}: condition not met, "
                                "its effects are ignored", [effect.condition.describe()],
                                None)  # fmt: skip
                return state
            self.log.decide(GENERAL + ": conditions", f"{player}: condition met",
                            [effect.condition.describe()], True)  # fmt: skip
            return self.effects(state, player, effect.effects)
        if isinstance(effect, ChooseAB):
            return self.choose_ab(state, player, effect)
        if isinstance(effect, Influence):
            return self.influence(state, player, effect)
        move = self.decide(_rule(effect), player, _simple_view(state, player, effect, self.options))
        if move is None:
            return state
        state = self.apply(state, player, effect, move)
        if self.options.inclusive_or == "several" and isinstance(effect, LISTED):
            state = self.several(state, player, effect, {_item(move)})
        return state

    def several(self, state: EuState, player: str, effect: Listed, taken: set[str]) -> EuState:
        """16.3 "or" is inclusive: after one of the listed items, the player may take
        the effect again for another of them, or stop."""
        while True:
            rest = tuple(i for i in _items(effect) if i not in taken)
            if not rest:
                return state
            more = _not_undoing(
                _simple_view(state, player, _narrowed(effect, rest), self.options), taken
            )
            if not more:
                return state
            move = self.decide(_rule(effect) + ": another (\"or\" is inclusive)", player,
                               OrStop(more))  # fmt: skip
            if move is None or move == STOP:
                return state
            state = self.apply(state, player, effect, move)
            taken.add(_item(move))

    def choose_ab(self, state: EuState, player: str, effect: ChooseAB) -> EuState:
        can_a = self.side_met(state, player, effect.a)
        can_b = self.side_met(state, player, effect.b)
        view = views.ab_view(can_a=can_a, can_b=can_b)
        if view.count() == 1:
            side = view.nth(0)
            other = "B" if side == "A" else "A"
            self.log.decide(AB_RULE, f"{player}: forced, {other} cannot be met or paid",
                            ["A", "B"], side)  # fmt: skip
        elif self.choose is None:
            side = self.options.ab_default
            why = "neither can be met, either" if not can_a else "both can be met"
            self.log.decide(AB_RULE, f"{player}: {why}; default ab_default={side}", ["A", "B"],
                            side)  # fmt: skip
        else:
            side = self.decide(AB_RULE, player, view)
        return self.effects(state, player, effect.a if side == "A" else effect.b)

    def influence(self, state: EuState, player: str, effect: Influence) -> EuState:
        view = views.influence_view(state, player, effect.amount, effect.areas,
                                    self.options.effects)  # fmt: skip
        placement = self.decide(fx.INFLUENCE, player, view)
        if placement is None or not placement.placed:
            return state
        room = views.discard_view(state, player, placement)
        discards = self.decide(fx.INFLUENCE + ": Opponent I discarded", player, room) if (
            room.parts) else ()  # fmt: skip
        move = fx.PlaceInfluence(placement.placed, discards or ())
        return fx.apply_influence(state, player, effect.amount, effect.areas, move,
                                  self.options.effects)  # fmt: skip

    def apply(self, state: EuState, player: str, effect: Effect, move: Any) -> EuState:
        if isinstance(effect, Alliance):
            new = fx.apply_alliance(state, player, move, self.options.effects)
            self.log.decide(GENERAL + ": NPRs say yes", "16.3 NPRs say yes to an Alliance",
                            [move.target], True)  # fmt: skip
            return new
        if isinstance(effect, Marriage):
            new = fx.apply_marriage(state, player, move, self.options.effects)
            self.log.decide(GENERAL + ": NPRs say yes", "16.3 NPRs say yes to a Marriage",
                            [move.target], True)  # fmt: skip
            return new
        if isinstance(effect, GainGOp):
            return fx.apply_g(state, player, move)
        if isinstance(effect, Town):
            return fx.apply_town(state, player, move)
        if isinstance(effect, Develop):
            return fx.apply_develop(state, player, move)
        if isinstance(effect, Merchant):
            return fx.apply_merchant(state, player)
        assert isinstance(effect, Units)
        return fx.apply_units(state, player, effect.count, effect.places, move,
                              self.options.effects)  # fmt: skip

    def symbol_choice(self, rule: str, player: str, view: ListView[Any]) -> Any:
        total = view.count()
        if total == 1:
            return view.nth(0)
        assert self.choose is not None
        return self.choose(Step(rule, player, view))


Listed = Alliance | Marriage | GainGOp | Town
LISTED = (Alliance, Marriage, GainGOp, Town)


@dataclass(frozen=True)
class Stop:
    """The choice to take an inclusive-"or" effect for no further item."""

    stop: bool = True


STOP = Stop()


class OrStop(MoveView[Any]):
    """The legal moves of ``view``, then :data:`STOP` (the last choice).

    >>> from legalis.model.core.views import ListView
    >>> both = OrStop(ListView(["a"], lambda m: None))
    >>> list(both), both.count(), both.refusal(STOP) is None
    (['a', Stop(stop=True)], 2, True)
    """

    def __init__(self, view: MoveView[Any]) -> None:
        self.view = view

    def __iter__(self) -> Iterator[Any]:
        yield from self.view
        yield STOP

    def count(self) -> int:
        return self.view.count() + 1

    def nth(self, index: int) -> Any:
        return STOP if index == self.view.count() else self.view.nth(index)

    def refusal(self, move: object) -> Refusal | None:
        return None if move == STOP else self.view.refusal(move)


def _not_undoing(view: MoveView[Any], taken: set[str]) -> MoveView[Any]:
    """``view`` without the moves that take back a marker this effect has just placed:
    such a move only trades one listed item for another, which the first pick could
    have done (16.3 Gain Alliance: taking an A from the map)."""
    kept = [m for m in view if getattr(m, "take_back", None) not in taken]

    def refuse(move: object) -> Refusal | None:
        if getattr(move, "take_back", None) in taken:
            return Refusal(
                "that marker was placed by this effect: taking it back only trades items",
                _rule_of_move(move),
            )
        return view.refusal(move)

    return ListView(kept, refuse)


def _rule_of_move(move: object) -> str:
    return fx.MARRIAGE if isinstance(move, fx.GainMarriage) else fx.ALLIANCE


def _items(effect: Listed) -> tuple[str, ...]:
    if isinstance(effect, Alliance | Marriage):
        return effect.targets
    return effect.areas if isinstance(effect, GainGOp) else effect.provinces


def _narrowed(effect: Listed, items: tuple[str, ...]) -> Listed:
    if isinstance(effect, Alliance | Marriage):
        return dataclasses.replace(effect, targets=items)
    if isinstance(effect, GainGOp):
        return dataclasses.replace(effect, areas=items)
    return dataclasses.replace(effect, provinces=items)


def _item(move: Any) -> str:
    for name in ("target", "area", "province"):
        if hasattr(move, name):
            return str(getattr(move, name))
    raise TypeError(f"no listed item in {move!r}")


def _rule(effect: Effect) -> str:
    return {
        Alliance: fx.ALLIANCE, Marriage: fx.MARRIAGE, GainGOp: fx.G_RULE, Town: fx.TOWN,
        Develop: fx.DEVELOP, Merchant: fx.MERCHANT, Units: fx.UNITS, Influence: fx.INFLUENCE,
    }[type(effect)]  # fmt: skip


def _simple_view(
    state: EuState, player: str, effect: Effect, options: PlayOptions
) -> MoveView[Any]:
    if isinstance(effect, Alliance):
        return views.alliance_view(state, player, effect.targets)
    if isinstance(effect, Marriage):
        return views.marriage_view(state, player, effect.targets, options.effects)
    if isinstance(effect, GainGOp):
        return views.g_view(state, player, effect.areas)
    if isinstance(effect, Town):
        return views.town_view(state, player, effect.provinces, effect.vassal)
    if isinstance(effect, Develop):
        return views.develop_view(state, player)
    if isinstance(effect, Merchant):
        return views.merchant_view(state, player)
    assert isinstance(effect, Units)
    return views.units_view(state, player, effect.count, effect.places, effect.ships,
                            options.effects)  # fmt: skip


def resolve_event(
    state: EuState,
    effects: Sequence[Effect],
    symbols: Sequence[Symbol],
    *,
    log: ResolutionLog,
    rng: RandomSource,
    options: PlayOptions | None = None,
    choose: Choose | None = None,
) -> EuState:
    """Resolve an Event: its main text's ``effects`` in order, "you" being the Active
    player, then its ``symbols`` left to right (16.5); a new state."""
    active = require_active(state)
    check_effect_names(state, effects)
    run = _Run(log, rng, options or PlayOptions(), choose)
    state = run.effects(state, active, effects)
    return resolve_card_symbols(
        state, symbols, log=log, rng=rng, options=run.options,
        choose=None if choose is None else run.symbol_choice,
    )  # fmt: skip


# ---------------------------------------------------------------------- interactive replay


@dataclass
class Outcome:
    """Where an interactive resolution stands: the pending step (None when done), how
    many choices were used, the log so far and, when done, the final state."""

    state: EuState | None
    log: ResolutionLog
    pending: Step | None = None
    used: int = 0
    steps: list[Step] = field(default_factory=list)

    def to_json(self, limit: int = 100, *, with_state: bool = True) -> dict[str, Any]:
        """The log (each step's rule and what decided it) and either the pending
        decision (its first ``limit`` choices) or, ``with_state``, the final state."""
        body: dict[str, Any] = {"log": log_json(self.log)}
        if self.pending is not None:
            body["pending"] = self.pending.to_json(limit)
        elif self.state is not None and with_state:
            body["state"] = self.state.to_json()
        return body


class _Pending(Exception):
    def __init__(self, step: Step) -> None:
        self.step = step


def replay(
    state: EuState,
    effects: Sequence[Effect],
    symbols: Sequence[Symbol],
    *,
    choices: Sequence[int],
    seed: int,
    options: PlayOptions | None = None,
) -> Outcome:
    """Resolve with the 1-based choice numbers ``choices``, one per decision; stop at
    the first decision with no number left. A number out of range is refused with
    :class:`IllegalMoveError` naming the step's rule."""
    log = ResolutionLog()
    outcome = Outcome(None, log)

    def choose(step: Step) -> Any:
        if outcome.used >= len(choices):
            raise _Pending(step)
        number = choices[outcome.used]
        total = step.view.count()
        if not 1 <= number <= total:
            raise IllegalMoveError(
                f"choice {number} at step {outcome.used + 1}: {step.player} has choices "
                f"1 to {total}", rule=step.rule)  # fmt: skip
        outcome.used += 1
        outcome.steps.append(step)
        return step.view.nth(number - 1)

    try:
        outcome.state = resolve_event(state, effects, symbols, log=log, rng=random.Random(seed),
                                      options=options, choose=choose)  # fmt: skip
    except _Pending as pending:
        outcome.pending = pending.step
        return outcome
    if outcome.used < len(choices):
        raise InputError(
            f"{len(choices)} choices given, the resolution needed {outcome.used}",
            path="--choose",
        )
    return outcome


def resolve(
    state: EuState,
    effects: Sequence[Effect],
    symbols: Sequence[Symbol],
    *,
    auto: bool,
    choices: Sequence[int],
    seed: int,
    options: PlayOptions | None = None,
) -> Outcome:
    """Resolve an Event: with ``auto`` all of it by the defaults and the 16.5 auto
    rules (then ``choices`` must be empty: an :class:`InputError` naming ``--choose``);
    otherwise by :func:`replay` with ``choices``.

    >>> from legalis.model.eupop.state import small_state
    >>> from legalis.model.eupop.events import effects_from_data
    >>> effects = effects_from_data([{"op": "g", "areas": ["saxony"]}])
    >>> sorted(resolve(small_state(), effects, (), auto=True, choices=[], seed=0).to_json())
    ['log', 'state']
    """
    if not auto:
        return replay(state, effects, symbols, choices=choices, seed=seed, options=options)
    if choices:
        raise InputError("automatic resolution makes every choice: give none", path="--choose")
    log = ResolutionLog()
    final = resolve_event(state, effects, symbols, log=log, rng=random.Random(seed),
                          options=options)  # fmt: skip
    return Outcome(final, log)


# ---------------------------------------------------------------------- one effect's view

EFFECTS = (
    "influence", "alliance", "marriage", "g", "town", "develop", "merchant", "units",
    "unrest", "native-uprising", "lost-at-sea", "pirates", "cardinal-dies",
    "disloyal-vassals", "dnpr-expansion", "spread-religion", "spread-revolution",
)  # fmt: skip


# The arguments each effect reads; any other given is refused, never silently dropped.
EFFECT_ARGUMENTS: dict[str, tuple[str, ...]] = {
    "influence": ("amount", "areas"),
    "alliance": ("targets",),
    "marriage": ("targets",),
    "g": ("areas",),
    "town": ("provinces", "vassal"),
    "units": ("amount", "places", "ships"),
    "dnpr-expansion": ("colour",),
}


def _need(value: Any, name: str) -> Any:
    if value is None or value == [] or value == ():
        raise InputError(f"this effect needs --{name}", path=f"--{name}")
    return value


def effect_view(
    state: EuState,
    effect: str,
    player: str | None,
    *,
    amount: int | None = None,
    areas: Sequence[str] = (),
    targets: Sequence[str] = (),
    provinces: Sequence[str] = (),
    places: Sequence[str] = (),
    vassal: bool = False,
    ships: bool = False,
    colour: str | None = None,
    options: PlayOptions | None = None,
) -> tuple[MoveView[Any], type | None]:
    """The legal choices of one effect (16.3) or symbol (16.5) for ``player``, and the
    type its moves have (None: plain JSON values). The player, the amount and every
    name are checked against the state first (:mod:`legalis.model.eupop.arguments`):
    an unknown one is an :class:`InputError` naming the allowed values."""
    options = options or PlayOptions()
    if effect not in EFFECTS:
        raise InputError(f"unknown effect {effect!r}", path="--effect", allowed=EFFECTS)
    needs_player = effect in EFFECTS[:8] or effect in (
        "native-uprising", "lost-at-sea", "disloyal-vassals")  # fmt: skip
    if (needs_player or player is not None) and player not in state.players:
        raise InputError(f"unknown player {player!r}", path="--player", allowed=state.players)
    who = player or ""
    if amount is not None:
        check_amount(amount, "--amount")
    check_names(state, "area", areas, "--areas")
    check_names(state, "realm", targets, "--targets")
    check_names(state, "province", provinces, "--provinces")
    check_names(state, "sea" if ships else "area", places, "--places")
    given = {"amount": amount is not None, "areas": bool(areas), "targets": bool(targets),
             "provinces": bool(provinces), "places": bool(places), "vassal": vassal,
             "ships": ships, "colour": colour is not None}  # fmt: skip
    takes = EFFECT_ARGUMENTS.get(effect, ())
    for name in (name for name, on in given.items() if on and name not in takes):
        raise InputError(f"{effect} does not take --{name}", path=f"--{name}",
                         allowed=[f"--{known}" for known in takes] or None)  # fmt: skip
    if effect == "influence":
        return views.influence_view(state, who, _need(amount, "amount"), _need(areas, "areas"),
                                    options.effects), fx.PlaceInfluence  # fmt: skip
    if effect in ("alliance", "marriage"):
        named = _need(targets, "targets")
        if effect == "alliance":
            return views.alliance_view(state, who, named), fx.GainAlliance
        return views.marriage_view(state, who, named, options.effects), fx.GainMarriage
    if effect == "g":
        return views.g_view(state, who, _need(areas, "areas")), fx.GainG
    if effect == "town":
        return views.town_view(state, who, _need(provinces, "provinces"), vassal), fx.GainTown
    if effect == "develop":
        return views.develop_view(state, who), fx.DevelopTown
    if effect == "merchant":
        return views.merchant_view(state, who), None
    if effect == "units":
        return views.units_view(state, who, _need(amount, "amount"), _need(places, "places"),
                                ships, options.effects), fx.GainUnits  # fmt: skip
    if effect == "unrest":
        return secondary.rebellion_moves(state), None
    if effect == "native-uprising":
        return secondary.native_uprising_moves(state, who), secondary.NativeChoice
    if effect == "lost-at-sea":
        return secondary.lost_at_sea_moves(state, who), None
    if effect == "pirates":
        return secondary.pirate_moves(state), None
    if effect == "cardinal-dies":
        return secondary.cardinal_moves(state), None
    if effect == "disloyal-vassals":
        return secondary.disloyal_moves(state, who), None
    if effect == "dnpr-expansion":
        colours = sorted({r.color for r in state.realms.values() if r.kind == "dnpr" and r.color})
        wanted: str = _need(colour, "colour")
        if wanted not in colours:
            raise InputError(f"no DNPR of colour {wanted!r} in the state", path="--colour",
                             allowed=colours)  # fmt: skip
        return secondary.expansion_moves(state, wanted, options.secondary), secondary.Expansion
    kind: religion.Kind = "religion" if effect == "spread-religion" else "revolution"
    progress = religion.SpreadProgress(kind, options=options.spread)
    return religion.spread_moves(state, progress), religion.Placement


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


def move_from_json(raw: Any, kind: type | None) -> Any:
    """A move of ``kind`` (a move dataclass) from its JSON table; plain values as
    they are. A bad table is an :class:`InputError` naming ``--check``.

    >>> move_from_json({"a": 1}, None)
    Traceback (most recent call last):
    ...
    legalis.model.errors.InputError: --check: a move is made of names, numbers and lists
    """
    if kind is None:
        move = _tuples(raw)
    else:
        assert is_dataclass(kind)
        names = [f.name for f in fields(kind)]
        if not isinstance(raw, dict) or set(raw) - set(names):
            raise InputError(f"expected a table with fields {', '.join(names)}", path="--check",
                             allowed=names)  # fmt: skip
        try:
            move = kind(**{key: _tuples(value) for key, value in raw.items()})
        except TypeError as error:
            raise InputError(f"bad move: {error}", path="--check", allowed=names) from error
    try:
        hash(move)
    except TypeError as error:
        raise InputError("a move is made of names, numbers and lists", path="--check") from error
    return move


def verdict_of(view: MoveView[Any], move: Any) -> Verdict:
    """The view's verdict on ``move``; a move of the wrong shape for this effect (one
    the view cannot even compare) is an :class:`InputError` naming ``--check``."""
    try:
        return view.verdict(move)
    except (TypeError, ValueError, AttributeError) as error:
        raise InputError(f"not a move of this effect: {error}", path="--check") from error
