"""Lazy views of the legal choices of the EU:PoP Standard Event effects (16.3).

Each view iterates the legal choices, counts them, finds the ``n``-th, and says
why a candidate is refused, using the rules of :mod:`legalis.model.eupop.effects`.
Influence placement is combinatorial: its count comes from
:class:`~legalis.solver.distribute.Distribution`, never from listing. Whose I to
discard is a second choice, made once the placement is known.

>>> from legalis.model.eupop.state import small_state
>>> view = influence_view(small_state(), "france", 4, ["saxony"])
>>> view.count(), view.nth(0)
(1, PlaceInfluence(placed=(('saxony', 3),), discards=()))
>>> discards = discard_view(small_state(), "france", view.nth(0))
>>> list(discards)
[(('saxony', 'england', 1),)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import product
from math import prod

from legalis.model.core.views import ListView, MoveView, Refusal
from legalis.model.eupop import effects as fx
from legalis.model.eupop.effects import (
    DEFAULT,
    EffectOptions,
    GainAlliance,
    GainG,
    GainMarriage,
    GainTown,
    GainUnits,
    PlaceInfluence,
    RejectRuler,
    ResearchIdea,
    TakeAction,
    TerminateAlliance,
)
from legalis.model.eupop.state import EuState
from legalis.solver.distribute import Distribution, Selection

__all__ = [
    "DiscardView",
    "InfluenceView",
    "ab_view",
    "action_view",
    "alliance_view",
    "develop_view",
    "discard_view",
    "dnpr_view",
    "g_view",
    "inclusive_or_view",
    "influence_view",
    "marriage_view",
    "merchant_view",
    "reject_view",
    "research_view",
    "terminate_view",
    "town_view",
    "units_view",
    "war_view",
]

Discards = tuple[tuple[str, str, int], ...]


class InfluenceView(MoveView[PlaceInfluence]):
    """Where the gained I goes: a :class:`Distribution` of ``amount`` over the open
    Areas, each with room for 5 I less the player's own (Opponents' I may go)."""

    def __init__(
        self,
        state: EuState,
        player: str,
        amount: int,
        areas: Sequence[str],
        options: EffectOptions = DEFAULT,
    ) -> None:
        self.state, self.player, self.amount = state, player, amount
        self.areas, self.options = list(areas), options
        self.open = fx.influence_areas(state, areas) if player in state.players else []
        rooms = [fx.influence_room(state, player, area) for area in self.open]
        self.problem = Distribution.single(room=rooms, total=amount, up_to=options.influence_up_to)

    def _move(self, selection: Selection) -> PlaceInfluence:
        placed = tuple((a, row[0]) for a, row in zip(self.open, selection, strict=True) if row[0])
        return PlaceInfluence(placed)

    def __iter__(self) -> Iterator[PlaceInfluence]:
        return (self._move(selection) for selection in self.problem)

    def count(self) -> int:
        return self.problem.count()

    def nth(self, index: int) -> PlaceInfluence:
        return self._move(self.problem.nth(index))

    def refusal(self, move: object) -> Refusal | None:
        return fx.refuse_influence(
            self.state, self.player, self.amount, self.areas, move, self.options,
            placement_only=True,
        )  # fmt: skip


class DiscardView(MoveView[Discards]):
    """Whose I goes to make room for a placement: per Area needing room, a
    :class:`Distribution` of the overflow over the Opponents' I there."""

    def __init__(self, state: EuState, player: str, placement: PlaceInfluence) -> None:
        self.state, self.player, self.placement = state, player, placement
        self.parts: list[tuple[str, list[str], Distribution]] = []
        for area, amount in placement.placed:
            need = fx.overflow(state, player, area, amount)
            if need:
                influence = state.areas[area].influence
                opponents = sorted(p for p, n in influence.items() if p != player and n > 0)
                rooms = [influence[p] for p in opponents]
                self.parts.append((area, opponents, Distribution.single(room=rooms, total=need)))

    def _move(self, selections: Sequence[Selection]) -> Discards:
        return tuple(
            (area, opponent, row[0])
            for (area, opponents, _), selection in zip(self.parts, selections, strict=True)
            for opponent, row in zip(opponents, selection, strict=True)
            if row[0]
        )

    def __iter__(self) -> Iterator[Discards]:
        return (self._move(s) for s in product(*(part[2] for part in self.parts)))

    def count(self) -> int:
        return prod(part[2].count() for part in self.parts)

    def nth(self, index: int) -> Discards:
        if not 0 <= index < self.count():
            raise IndexError(index)
        picked: list[Selection] = []
        for _, _, problem in reversed(self.parts):
            index, rank = divmod(index, problem.count())
            picked.append(problem.nth(rank))
        return self._move(picked[::-1])

    def refusal(self, move: object) -> Refusal | None:
        if not isinstance(move, tuple):
            return Refusal("not a list of discards", fx.INFLUENCE)
        full = PlaceInfluence(self.placement.placed, move)
        placed = sum(n for _, n in self.placement.placed)
        names = [a for a, _ in self.placement.placed]
        return fx.refuse_influence(
            self.state, self.player, placed, names, full, EffectOptions(influence_up_to=True)
        )


def influence_view(
    state: EuState, player: str, amount: int, areas: Sequence[str], options: EffectOptions = DEFAULT
) -> InfluenceView:
    return InfluenceView(state, player, amount, areas, options)


def discard_view(state: EuState, player: str, placement: PlaceInfluence) -> DiscardView:
    return DiscardView(state, player, placement)


def _named(
    candidates: Sequence[str], key: str, rule: str, refuse: Callable[[object], Refusal | None]
) -> Callable[[object], Refusal | None]:
    def check(move: object) -> Refusal | None:
        name = getattr(move, key, None)
        if name is not None and name not in candidates:
            return Refusal(f"{name} is not named by the effect", rule)
        return refuse(move)

    return check


def _take_backs(state: EuState) -> list[str | None]:
    """Every candidate for ``take_back``: none, or any Realm; the model's refusal
    says which of them the rule allows."""
    return [None, *sorted(state.realms)]


def alliance_view(state: EuState, player: str, targets: Sequence[str]) -> ListView[GainAlliance]:
    """Gain an Alliance with one of ``targets`` (16.3 Gain Alliance)."""

    def refuse(move: object) -> Refusal | None:
        return fx.refuse_alliance(state, player, move)

    moves = [
        move
        for target in targets
        for back in _take_backs(state)
        if refuse(move := GainAlliance(target, back)) is None
    ]
    return ListView(moves, _named(targets, "target", fx.ALLIANCE, refuse))


def marriage_view(
    state: EuState, player: str, targets: Sequence[str], options: EffectOptions = DEFAULT
) -> ListView[GainMarriage]:
    """Gain a Royal Marriage with one of ``targets`` (16.3 Gain Royal Marriage)."""

    def refuse(move: object) -> Refusal | None:
        return fx.refuse_marriage(state, player, move, options)

    moves = [
        move
        for target in targets
        for back in _take_backs(state)
        if refuse(move := GainMarriage(target, back)) is None
    ]
    return ListView(moves, _named(targets, "target", fx.MARRIAGE, refuse))


def g_view(state: EuState, player: str, areas: Sequence[str]) -> ListView[GainG]:
    """Gain a G in one of ``areas`` (16.3 Gain G)."""
    moves = [GainG(a) for a in areas if fx.refuse_g(state, player, GainG(a)) is None]
    return ListView(
        moves, _named(areas, "area", fx.G_RULE, lambda m: fx.refuse_g(state, player, m))
    )


def town_view(
    state: EuState, player: str, provinces: Sequence[str], vassal: bool = False
) -> ListView[GainTown]:
    """Gain a t (or v) on one of ``provinces`` (16.3 Gain/place t or v)."""
    moves = [
        GainTown(p, vassal)
        for p in provinces
        if fx.refuse_town(state, player, GainTown(p, vassal)) is None
    ]

    def refuse(move: object) -> Refusal | None:
        if isinstance(move, GainTown) and move.vassal != vassal:
            return Refusal("the effect places a " + ("v" if vassal else "t"), fx.TOWN)
        return fx.refuse_town(state, player, move)

    return ListView(moves, _named(provinces, "province", fx.TOWN, refuse))


def develop_view(state: EuState, player: str) -> ListView[fx.DevelopTown]:
    """Develop one of your Small t (16.3 Develop a Small t into a Large t)."""
    moves = [
        fx.DevelopTown(p)
        for p in sorted(state.provinces)
        if fx.refuse_develop(state, player, fx.DevelopTown(p)) is None
    ]
    return ListView(moves, lambda move: fx.refuse_develop(state, player, move))


def merchant_view(state: EuState, player: str) -> ListView[str]:
    """Gain a Merchant: the single choice ``"gain"`` when allowed (16.3 Gain Merchant)."""
    refused = fx.refuse_merchant(state, player)

    def refuse(move: object) -> Refusal | None:
        return refused or (None if move == "gain" else Refusal("the choice is 'gain'", fx.MERCHANT))

    return ListView([] if refused else ["gain"], refuse)


def units_view(
    state: EuState,
    player: str,
    amount: int,
    places: Sequence[str],
    ships: bool = False,
    options: EffectOptions = DEFAULT,
) -> ListView[GainUnits]:
    """Where the gained Units go; none when no place avoids a Battle (16.3 Gain Military
    Unit)."""
    open_ = fx.unit_places(state, player, places, ships) if player in state.players else []
    gained = min(amount, state.realms[player].units_available) if open_ else 0
    moves: list[GainUnits] = []
    if gained:
        problem = Distribution.single(
            room=[gained] * len(open_), total=gained, spaces=None if options.units_split else 1
        )
        for selection in problem:
            placed = tuple((p, row[0]) for p, row in zip(open_, selection, strict=True) if row[0])
            moves.append(GainUnits(placed, ships))

    def refuse(move: object) -> Refusal | None:
        return fx.refuse_units(state, player, amount, places, move, options)

    return ListView(moves, refuse)


def ab_view(*, can_a: bool, can_b: bool) -> ListView[str]:
    """The A)/B) choice (16.3 General Event guidelines)."""
    moves = fx.ab_options(can_a=can_a, can_b=can_b)

    def refuse(move: object) -> Refusal | None:
        if move in moves:
            return None
        return Refusal(f"{move!r} is not open: you must pick {moves[0]}", fx.GENERAL)

    return ListView(moves, refuse)


def inclusive_or_view(items: Sequence[str]) -> ListView[tuple[str, ...]]:
    """Any non-empty selection of the listed items (16.3: "or" is inclusive)."""
    moves = list(fx.inclusive_or(items))

    def refuse(move: object) -> Refusal | None:
        if move in moves:
            return None
        return Refusal("pick one or several of the listed items, each once", fx.GENERAL)

    return ListView(moves, refuse)


def action_view(state: EuState, player: str, action: str) -> ListView[TakeAction]:
    """Take the gained Action now, or decline it (16.3 Gain Action)."""

    def refuse(move: object) -> Refusal | None:
        return fx.refuse_action(state, player, action, move)

    moves = [m for m in (TakeAction(action), TakeAction(action, False)) if refuse(m) is None]
    return ListView(moves, refuse)


def research_view(state: EuState, player: str, idea: str, idea_type: str) -> ListView[ResearchIdea]:
    """Research the Event's Idea or not; for an Idea not on display, which unpicked
    non-Basic Idea of its type goes (16.3 Research Idea)."""

    def refuse(move: object) -> Refusal | None:
        return fx.refuse_research(state, player, idea, idea_type, move)

    candidates = [ResearchIdea(idea, False), ResearchIdea(idea)]
    if fx.find_idea(state, idea) is None:
        candidates += [ResearchIdea(idea, True, r) for r in fx.removable_ideas(state, idea_type)]
    return ListView([m for m in candidates if refuse(m) is None], refuse)


def dnpr_view(
    state: EuState, dnpr: str, provinces: Sequence[str], capital: str, *, under_towns: bool = True
) -> ListView[fx.DnprPlacement]:
    """The one placement of a DNPR's tokens the Event's list allows (16.3 Placing DNPR
    tokens); none when the DNPR or a Province is unknown."""
    refused = fx.refuse_dnpr(state, dnpr, provinces, capital)
    only = (
        None
        if refused
        else fx.dnpr_placement(state, dnpr, provinces, capital, under_towns=under_towns)
    )

    def refuse(move: object) -> Refusal | None:
        if refused is not None:
            return refused
        if move != only:
            return Refusal(f"the tokens go as {only}", fx.DNPR)
        return None

    return ListView([] if only is None else [only], refuse)


class TerminateView(MoveView[TerminateAlliance]):
    """Which Allied Units go when an Active Ally's Alliance ends: a
    :class:`Distribution` of the loss over the Manpower Reserve and the Armies."""

    def __init__(
        self, state: EuState, player: str, realm: str, options: EffectOptions = DEFAULT
    ) -> None:
        self.state, self.player, self.realm, self.options = state, player, realm, options
        self.refused = fx.terminate_ignored(state, player, realm)
        owed = 0 if self.refused else fx.alliance_loss(state, player, realm, options)
        units = state.land_units.get(player, {})
        self.areas = sorted(a for a, n in units.items() if n > 0)
        rooms = [state.realms[player].manpower, *(units[a] for a in self.areas)]
        self.problem = Distribution.single(room=rooms, total=owed)

    def _move(self, selection: Selection) -> TerminateAlliance:
        reserve, *armies = (row[0] for row in selection)
        placed = tuple((a, n) for a, n in zip(self.areas, armies, strict=True) if n)
        return TerminateAlliance(self.realm, reserve, placed)

    def __iter__(self) -> Iterator[TerminateAlliance]:
        if self.refused is not None:
            return iter(())
        return (self._move(selection) for selection in self.problem)

    def count(self) -> int:
        return 0 if self.refused is not None else self.problem.count()

    def nth(self, index: int) -> TerminateAlliance:
        if self.refused is not None:
            raise IndexError(index)
        return self._move(self.problem.nth(index))

    def refusal(self, move: object) -> Refusal | None:
        if isinstance(move, TerminateAlliance) and move.realm != self.realm:
            return Refusal(f"the Event ends the Alliance with {self.realm}", fx.TERMINATE)
        return fx.refuse_terminate(self.state, self.player, move, self.options)


def terminate_view(
    state: EuState, player: str, realm: str, options: EffectOptions = DEFAULT
) -> TerminateView:
    """End the Alliance with ``realm`` (16.3 Terminate/Remove Alliance)."""
    return TerminateView(state, player, realm, options)


def reject_view(state: EuState, player: str, *, forced: bool) -> ListView[RejectRuler]:
    """Reject the Event's Ruler, or (when the card allows) not (16.3 Reject Ruler)."""

    def refuse(move: object) -> Refusal | None:
        return fx.refuse_reject(state, player, move, forced=forced)

    moves = [m for m in (RejectRuler(True), RejectRuler(False)) if refuse(m) is None]
    return ListView(moves, refuse)


def war_view(
    state: EuState, aggressor: str, targets: Sequence[str], options: EffectOptions = DEFAULT
) -> ListView[fx.DeclareWar | None]:
    """The DoW an Event lets the aggressor make on a target it selects: one per eligible
    target, or the single choice None (no DoW) when none is eligible (16.3 Wars
    triggered by Events)."""
    eligible = fx.war_targets(state, aggressor, targets, options)
    moves: list[fx.DeclareWar | None] = [fx.DeclareWar(aggressor, t) for t in eligible]

    def refuse(move: object) -> Refusal | None:
        return fx.refuse_war(state, aggressor, targets, move, options)

    return ListView(moves or [None], refuse)
