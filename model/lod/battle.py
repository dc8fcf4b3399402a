"""Liberty or Death Battle (3.6): who fights, Force and Loss Levels, removal and
Win the Day, as pure functions over a :class:`~legalis.model.coin.state.CoinState`.

A Battle is one :class:`BattleChoice` (the space, the attacking Faction, whether the
allied Faction pays to take part, how many Underground units each side Activates,
and where each side would put Win-the-Day shifts the Battle space cannot take).
:func:`battle_refusal` says why a choice cannot be fought, naming the rule;
:func:`resolve_battle` rolls the dice from an injected source and returns a
:class:`BattleResult` holding the new state (the input is never changed), every die,
every modifier, the removals, the winner, the shifts, the follow-ups the winner is
offered (built as Commands elsewhere) and a log whose lines name their paragraph.

Paying for the Battle (3.2.4, 3.3.3, 3.5.5) belongs to the Battle Command, not here.

>>> from legalis.model.coin.state import CoinState
>>> state = CoinState.new("lod")
>>> state.move_pieces("Available", "Boston", "british_regular", 3)
>>> state.move_pieces("Available", "Boston", "militia", 2, new_status="active")
>>> choice = BattleChoice("Boston", "british")
>>> battle_refusal(state, choice) is None
True
>>> result = resolve_battle(state, choice, FixedDice([2]))
>>> result.dice_attacker, result.loss_levels, result.winner
((2,), (0, 3), 'royalist')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from legalis.model.coin.state import CoinState
from legalis.model.core.views import ListView, MoveView, Refusal
from legalis.model.errors import IllegalMoveError
from legalis.model.lod.losses import add_losses

__all__ = [
    "BattleChoice",
    "BattleOptions",
    "BattleResult",
    "BlockadeShift",
    "FixedDice",
    "FollowUp",
    "Modifier",
    "Removal",
    "apply_blockade_shift",
    "attacking_factions",
    "battle_refusal",
    "blockade_shift_refusal",
    "blockade_shift_view",
    "defending_chooser",
    "force_level",
    "resolve_battle",
]

WEST_INDIES = "West Indies"
AVAILABLE = "Available"
SIDES = {
    "british": "royalist",
    "indians": "royalist",
    "patriots": "rebellion",
    "french": "rebellion",
}
SIDE_FACTIONS = {"royalist": ("british", "indians"), "rebellion": ("patriots", "french")}
ATTACKERS = ("british", "patriots", "french")
ALLY = {"patriots": "french", "french": "patriots"}
# 1.4: cubes; the Regulars among them; Forts; the units with an Underground side.
CUBES = {
    "royalist": ("british_regular", "tory"),
    "rebellion": ("french_regular", "continental"),
}
REGULARS = ("british_regular", "french_regular")
FORT = {"royalist": "british_fort", "rebellion": "patriot_fort"}
UNITS = {"royalist": "war_party", "rebellion": "militia"}
# 3.6.7: Loss Value Table.
LOSS_VALUE = {
    "british_regular": 2,
    "french_regular": 2,
    "continental": 2,
    "british_fort": 2,
    "patriot_fort": 2,
    "tory": 1,
    "militia": 1,
    "war_party": 1,
    "village": 1,
}
MAX_SHIFTS = 3  # 3.6.8
MAX_SHIFTS_WASHINGTON = 6  # 3.6.8


class DieSource(Protocol):
    """What the dice draw on: ``random.Random``, ``LoggedRandom`` or :class:`FixedDice`."""

    def randrange(self, stop: int, /) -> int: ...


class FixedDice:
    """A die source returning chosen D3 faces in order (for worked examples and tests).

    >>> dice = FixedDice([3, 1])
    >>> dice.randrange(3) + 1, dice.randrange(3) + 1
    (3, 1)
    """

    def __init__(self, faces: Sequence[int]) -> None:
        self._faces = list(faces)
        self._next = 0

    def randrange(self, stop: int, /) -> int:
        face = self._faces[self._next]
        self._next += 1
        if not 1 <= face <= stop:
            raise ValueError(f"a die of {stop} faces cannot show {face}")
        return face - 1


@dataclass(frozen=True)
class BattleOptions:
    """The named readings of 3.6 that are switchable (``docs/rules-questions.md``,
    "LoD Battle (3.6)").

    ``washington_double``: ``"always"`` (default) Washington doubles a Rebellion
    winner's Win-the-Day shifts; ``"choice"`` the Patriots may decline (3.6.8 "can
    double"), as :attr:`BattleChoice.double_shifts` says.
    ``removal_pool`` (3.6.7): the attacker removes pieces of the ``"participating"``
    Factions (default) or of its ``"whole_side"``.
    ``elimination_scope`` (3.6.8): a side is eliminated when none of its
    ``"whole_side"``'s pieces (default) are left, Underground units aside, or none
    of the ``"participating"`` Factions' pieces (for the attacker).
    ``regular_share`` (3.6.5): "half the attacking cubes are Regulars" counts the
    cubes ``"counted"`` in the Force Level (default) or ``"all"`` the side's cubes.
    ``attacker_modifiers`` (3.6.5): the Underground and Leader modifiers count the
    ``"participating"`` Factions' pieces and Leaders (default) or the ``"whole_side"``.
    ``common_cause_losses`` (4.2.1, 3.6.7): War Parties used as Tories by Common
    Cause are lost ``"as_tories"`` (default: they take the Tories' turn in the
    alternation with the Regulars, before the Tories themselves) or
    ``"as_war_parties"`` (after all Regulars and Tories, with the other War Parties).
    ``event_modifier_scope``: an Event's modifiers of "the next Battle" (``+3 to
    Attacker's Loss Level``, a free Battle ``with +1 Force Level``) apply to the
    ``"next_space"`` fought (default) or to every space of the ``"next_command"``.
    ``event_modifiers_last``: modifiers no Battle has used wait for one
    (``"until_used"``, default) or lapse when the card ends (``"card"``).

    >>> BattleOptions().removal_pool
    'participating'
    """

    washington_double: Literal["always", "choice"] = "always"
    removal_pool: Literal["participating", "whole_side"] = "participating"
    elimination_scope: Literal["whole_side", "participating"] = "whole_side"
    regular_share: Literal["counted", "all"] = "counted"
    attacker_modifiers: Literal["participating", "whole_side"] = "participating"
    common_cause_losses: Literal["as_tories", "as_war_parties"] = "as_tories"
    event_modifier_scope: Literal["next_space", "next_command"] = "next_space"
    event_modifiers_last: Literal["until_used", "card"] = "until_used"


@dataclass(frozen=True)
class BattleChoice:
    """Everything decided in one Battle.

    ``ally_pays``: the French pay for a Patriot Battle or the Patriots for a French
    one, so the ally's pieces and Leaders fight (3.6.1; never for the British, who
    always have the Indians when a War Party is present). ``activate_attacker`` and
    ``activate_defender``: how many of the side's own Underground War Parties or
    Militia it Activates (3.6.3; the attacker chooses first). ``royalist_shifts`` and
    ``rebellion_shifts``: the adjacent spaces, one entry per shift in order of
    preference, where the British or the Patriots put Win-the-Day shifts the Battle
    space cannot take (3.6.8); an entry that cannot take a shift when reached is passed.
    ``double_shifts``: the Patriots let Washington double the shifts (read only with
    :attr:`BattleOptions.washington_double` ``"choice"``). ``common_cause``: how many
    Active War Parties an attacking British side uses as Tories (4.2.1; the Common
    Cause Special Activity Activates them first).
    """

    space: str
    attacker: str
    ally_pays: bool = False
    activate_attacker: int = 0
    activate_defender: int = 0
    royalist_shifts: tuple[str, ...] = ()
    rebellion_shifts: tuple[str, ...] = ()
    double_shifts: bool = True
    common_cause: int = 0

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"space": self.space, "attacker": self.attacker}
        if self.ally_pays:
            body["ally_pays"] = True
        if self.activate_attacker:
            body["activate_attacker"] = self.activate_attacker
        if self.activate_defender:
            body["activate_defender"] = self.activate_defender
        if self.royalist_shifts:
            body["royalist_shifts"] = list(self.royalist_shifts)
        if self.rebellion_shifts:
            body["rebellion_shifts"] = list(self.rebellion_shifts)
        if not self.double_shifts:
            body["double_shifts"] = False
        if self.common_cause:
            body["common_cause"] = self.common_cause
        return body


@dataclass(frozen=True)
class Modifier:
    """One Loss Level modifier that applied: its name, its value and its paragraph."""

    name: str
    value: int
    rule: str


@dataclass(frozen=True)
class Removal:
    """Pieces a side removed: type, status it had, how many, and where they went."""

    side: str
    piece_type: str
    status: str
    count: int
    destination: str


@dataclass(frozen=True)
class FollowUp:
    """Something the winner is offered after the Battle, to be built as a Command."""

    faction: str
    action: str
    space: str
    rule: str
    note: str


@dataclass(frozen=True)
class BattleResult:
    """What a Battle did. Pairs are (attacker, defender) unless named otherwise:
    ``force_levels``; ``dice_attacker`` (rolled for the Defender's Loss Level) and
    ``dice_defender``; ``loss_levels`` (the Attacker's, the Defender's);
    ``defender_loss_modifiers`` (3.6.5) and ``attacker_loss_modifiers`` (3.6.6)."""

    state: CoinState
    attacker_side: str
    force_levels: tuple[int, int]
    dice_attacker: tuple[int, ...]
    dice_defender: tuple[int, ...]
    defender_loss_modifiers: tuple[Modifier, ...]
    attacker_loss_modifiers: tuple[Modifier, ...]
    loss_levels: tuple[int, int]
    removed: tuple[Removal, ...]
    winner: str | None
    win_the_day: bool
    shifts: tuple[tuple[str, int], ...]
    follow_ups: tuple[FollowUp, ...]
    log: tuple[str, ...] = field(default=())


# ---------------------------------------------------------------------- who fights


def _other(side: str) -> str:
    return "rebellion" if side == "royalist" else "royalist"


def attacking_factions(state: CoinState, choice: BattleChoice) -> tuple[str, ...]:
    """The Factions whose pieces and Leaders fight for the attacker (3.6.1).

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Virginia", "war_party", 1)
    >>> attacking_factions(state, BattleChoice("Virginia", "british"))
    ('british', 'indians')
    """
    if choice.attacker == "british":
        if state.pieces(choice.space, "war_party"):
            return ("british", "indians")
        return ("british",)
    if choice.ally_pays:
        return (choice.attacker, ALLY[choice.attacker])
    return (choice.attacker,)


def _fighting(state: CoinState, choice: BattleChoice, side: str) -> tuple[str, ...]:
    if side == SIDES[choice.attacker]:
        return attacking_factions(state, choice)
    return SIDE_FACTIONS[side]


def defending_chooser(state: CoinState, space: str, attacker: str) -> str:
    """The Faction making the defending side's choices (3.6.1): the British or the
    Patriots, unless only Indian or only French pieces defend.

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Quebec", "war_party", 1)
    >>> defending_chooser(state, "Quebec", "patriots")
    'indians'
    """
    main, other = SIDE_FACTIONS[_other(SIDES[attacker])]
    if state.faction_pieces(space, main) or not state.faction_pieces(space, other):
        return main
    return other


def _units_in_play(factions: tuple[str, ...], side: str) -> bool:
    # 3.6.3: War Parties fight for the British attacking or any Royalist defence;
    # Militia for the Patriots, or the French when the Patriots pay.
    return ("indians" if side == "royalist" else "patriots") in factions


def _leaders_here(state: CoinState, space: str, factions: tuple[str, ...]) -> list[str]:
    return [
        leader.name
        for leader in state.data.leaders
        if leader.faction in factions and state.leader(leader.name) == space
    ]


# ---------------------------------------------------------------------- refusal


def battle_refusal(state: CoinState, choice: BattleChoice) -> Refusal | None:
    """``None`` when the Battle may be fought as chosen, else why not.

    >>> state = CoinState.new("lod")
    >>> battle_refusal(state, BattleChoice("Boston", "indians")).rule
    '3.6.1'
    """
    rules = state.rules
    if choice.attacker not in ATTACKERS:
        if choice.attacker == "indians":
            return Refusal("the Indians cannot execute a Battle Command", "3.6.1")
        return Refusal(f"{choice.attacker!r} is not a Faction that attacks", "3.6.1")
    if choice.space != WEST_INDIES and choice.space not in rules.spaces:
        return Refusal(f"{choice.space!r} is neither a map space nor the West Indies", "3.6")
    toa = state.flag("toa_played")
    if choice.attacker == "french" and not toa:
        return Refusal("the French battle only after the Treaty of Alliance", "3.5.5")
    if choice.ally_pays and choice.attacker == "british":
        return Refusal("the British have no ally to pay: Indians join when present", "3.6.1")
    if choice.ally_pays and not toa:
        return Refusal("no French help before the Treaty of Alliance", "3.5")
    if choice.attacker == "patriots" and choice.space == WEST_INDIES:
        return Refusal("Patriot Battle is fought in map spaces only", "3.3.3")
    if not state.faction_pieces(choice.space, choice.attacker):
        return Refusal(f"no {choice.attacker} pieces in {choice.space}", "3.6")
    side = SIDES[choice.attacker]
    enemy = _other(side)
    if not any(state.faction_pieces(choice.space, f) for f in SIDE_FACTIONS[enemy]):
        return Refusal(f"no {enemy} pieces in {choice.space}", "3.6")
    for who, n in ((side, choice.activate_attacker), (enemy, choice.activate_defender)):
        factions = _fighting(state, choice, who)
        may = state.pieces(choice.space, UNITS[who], "underground")
        if not _units_in_play(factions, who):
            may = 0
        if n < 0 or n > may:
            return Refusal(
                f"the {who} side may Activate 0 to {may} Underground {UNITS[who]}, not {n}",
                "3.6.3",
            )
    if choice.common_cause:
        if choice.attacker != "british":
            return Refusal("only an attacking British side uses Common Cause", "4.2.1")
        active = state.pieces(choice.space, "war_party", "active")
        if not 0 < choice.common_cause <= active:
            return Refusal(f"Common Cause uses 1 to {active} Active War Parties as Tories, "
                           f"not {choice.common_cause}", "4.2.1")  # fmt: skip
    for shifts in (choice.royalist_shifts, choice.rebellion_shifts):
        for space in shifts:
            if choice.space == WEST_INDIES or not rules.map.are_adjacent(choice.space, space):
                return Refusal(f"{space!r} is not adjacent to {choice.space}", "3.6.8")
    return None


# ---------------------------------------------------------------------- Force Level


def _cubes_counted(state: CoinState, choice: BattleChoice, side: str) -> dict[str, int]:
    space = choice.space
    here = {c: state.pieces(space, c) for c in CUBES[side]}
    if side != SIDES[choice.attacker]:
        return here
    if choice.attacker == "british":
        # 3.6.3: Tories only up to the number of British Regulars.
        regulars = here["british_regular"]
        tories = here["tory"] + choice.common_cause  # 4.2.1: War Parties as Tories
        return {"british_regular": regulars, "tory": min(tories, regulars)}
    own = "continental" if choice.attacker == "patriots" else "french_regular"
    ally = "french_regular" if own == "continental" else "continental"
    # 3.6.3: the paying ally's cubes up to the number of the attacker's own cubes.
    return {own: here[own], ally: min(here[ally], here[own]) if choice.ally_pays else 0}


def force_level(state: CoinState, choice: BattleChoice, side: str) -> int:
    """A side's Force Level (3.6.3) as the space stands (Activations already made).

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Boston", "british_regular", 2)
    >>> state.move_pieces("Available", "Boston", "tory", 5)
    >>> force_level(state, BattleChoice("Boston", "british"), "royalist")
    4
    """
    total = sum(_cubes_counted(state, choice, side).values())
    if _units_in_play(_fighting(state, choice, side), side):
        units = state.pieces(choice.space, UNITS[side], "active")
        if side == SIDES[choice.attacker]:
            units -= choice.common_cause  # those counted as Tories count once
        total += units // 2
    if side != SIDES[choice.attacker]:
        total += state.pieces(choice.space, FORT[side])
    return total


# ---------------------------------------------------------------------- Loss Level


def _dice(force: int, rng: DieSource) -> tuple[int, ...]:
    # 3.6.4: Force Level // 3 D3s, at most three; none at a Force Level of two or less.
    n = min(3, force // 3) if force > 2 else 0
    return tuple(rng.randrange(3) + 1 for _ in range(n))


def _regulars_half(cubes: dict[str, int]) -> bool:
    total = sum(cubes.values())
    regulars = sum(n for c, n in cubes.items() if c in REGULARS)
    return total > 0 and 2 * regulars >= total


def _underground(
    state: CoinState, choice: BattleChoice, side: str, whole_side: bool = False
) -> bool:
    if not whole_side and not _units_in_play(_fighting(state, choice, side), side):
        return False
    return state.pieces(choice.space, UNITS[side], "underground") > 0


def _blockaded(state: CoinState, space: str) -> bool:
    return space != WEST_INDIES and state.markers(space, "blockade") > 0


def _defender_loss_modifiers(
    state: CoinState, choice: BattleChoice, options: BattleOptions
) -> list[Modifier]:
    space, side = choice.space, SIDES[choice.attacker]
    enemy = _other(side)
    factions = attacking_factions(state, choice)
    whole_side = options.attacker_modifiers == "whole_side"
    rule = "3.6.5"
    out: list[Modifier] = []
    if options.regular_share == "counted":
        cubes = _cubes_counted(state, choice, side)
    else:
        cubes = {cube: state.pieces(space, cube) for cube in CUBES[side]}
    if _regulars_half(cubes):
        out.append(Modifier("at least half Attacking cubes are Regulars", 1, rule))
    if _underground(state, choice, side, whole_side):
        out.append(Modifier("an Attacking piece is Underground", 1, rule))
    if _leaders_here(state, space, SIDE_FACTIONS[side] if whole_side else factions):
        out.append(Modifier("an Attacking Leader is present", 1, rule))
    if "french" in factions and state.leader("Lauzun") == space:
        out.append(Modifier("the French attack with Lauzun", 1, rule))
    if choice.attacker == "british" and _blockaded(state, space):
        out.append(Modifier("the British attack in a Blockaded City", -1, rule))
    squadron = space == WEST_INDIES and state.markers(WEST_INDIES, "blockade") > 0
    if choice.attacker == "british" and squadron:
        out.append(Modifier("the British attack in the West Indies with a Squadron", -1, rule))
    forts = state.pieces(space, FORT[enemy])
    if forts:
        out.append(Modifier(f"{forts} Defending Fort(s)", -forts, rule))
    reserve = space != WEST_INDIES and state.rules.map.is_reserve(space)
    if enemy == "royalist" and reserve and state.faction_pieces(space, "indians"):
        out.append(Modifier("the Indians defend in an Indian Reserve", -1, rule))
    if enemy == "rebellion" and state.leader("Washington") == space:
        out.append(Modifier("the Rebellion defends with Washington", -1, rule))
    return out


def _attacker_loss_modifiers(state: CoinState, choice: BattleChoice) -> list[Modifier]:
    space, enemy = choice.space, _other(SIDES[choice.attacker])
    rule = "3.6.6"
    out: list[Modifier] = []
    if _regulars_half(_cubes_counted(state, choice, enemy)):
        out.append(Modifier("at least half Defending cubes are Regulars", 1, rule))
    if _underground(state, choice, enemy):
        out.append(Modifier("a Defending piece is Underground", 1, rule))
    if _leaders_here(state, space, SIDE_FACTIONS[enemy]):
        out.append(Modifier("a Defending Leader is present", 1, rule))
    british_defend = enemy == "royalist" and state.faction_pieces(space, "british") > 0
    if british_defend and _blockaded(state, space):
        out.append(Modifier("the British defend in a Blockaded City", -1, rule))
    if british_defend and space == WEST_INDIES and state.markers(WEST_INDIES, "blockade"):
        out.append(Modifier("the British defend in the West Indies with a Squadron", -1, rule))
    forts = state.pieces(space, FORT[enemy])
    if forts:
        out.append(Modifier(f"{forts} Defending Fort(s)", forts, rule))
    return out


# ---------------------------------------------------------------------- removal


STAND_IN = ("war_party", "active")  # 4.2.1: a War Party used "as if" a Tory


def _removal_order(side: str, defending: bool) -> list[tuple[tuple[str, str], ...]]:
    """Tiers of (piece type, status); the types within a tier alternate (3.6.7)."""
    if side == "royalist":
        tiers = [
            (("british_regular", "active"), ("tory", "active")),
            (("war_party", "active"),),
        ]
        if defending:
            tiers += [(("village", "active"),), (("british_fort", "active"),)]
        return tiers
    tiers = [(("french_regular", "active"), ("continental", "active"), ("militia", "active"))]
    if defending:
        tiers.append((("patriot_fort", "active"),))
    return tiers


def _remove(
    state: CoinState,
    space: str,
    side: str,
    factions: tuple[str, ...],
    defending: bool,
    loss: int,
    log: list[str],
    stand_ins: int = 0,
) -> list[Removal]:
    """Remove pieces of ``side`` worth ``loss`` (3.6.7), tier by tier, alternating
    the types within a tier. ``stand_ins``: Active War Parties that Common Cause
    made Tories (4.2.1); they are lost in the Tories' turn, before the Tories."""
    owner = {piece.id: piece.faction for piece in state.data.pieces}
    removed: dict[tuple[str, str], int] = {}
    value = 0
    for tier in _removal_order(side, defending):
        kinds = [k for k in tier if owner[k[0]] in factions]
        turn = 0
        while value < loss and kinds:
            kind = kinds[turn % len(kinds)]
            if kind == ("tory", "active") and stand_ins and state.pieces(space, *STAND_IN):
                kind, stand_ins = STAND_IN, stand_ins - 1
            elif state.pieces(space, kind[0], kind[1]) == 0:
                kinds.remove(kind)
                continue
            state.take(space, kind[0], 1, kind[1])
            removed[kind] = removed.get(kind, 0) + 1
            value += LOSS_VALUE[kind[0]]
            turn += 1
        if value >= loss:
            break
    out: list[Removal] = []
    for (piece, status), n in removed.items():
        destination, track = add_losses(state, piece, n)
        if track is not None:
            log.append(f"3.6.7: {track.upper()} +{n} for {n} {piece}")
        out.append(Removal(side, piece, status, n, destination))
        log.append(f"3.6.7: {side} removes {n} {status} {piece} to {destination}")
    if value < loss:
        log.append(f"3.6.7: {side} removed losses of {value}, all it could of {loss}")
    return out


# ---------------------------------------------------------------------- Win the Day


def _eliminated(state: CoinState, space: str, factions: tuple[str, ...], side: str) -> bool:
    # 3.6.8: Underground War Parties and Militia do not keep a side alive.
    total = sum(state.faction_pieces(space, f) for f in factions)
    unit_owner = "indians" if side == "royalist" else "patriots"
    hidden = state.pieces(space, UNITS[side], "underground") if unit_owner in factions else 0
    return total == hidden


def _can_shift(state: CoinState, space: str, direction: int) -> bool:
    if not state.can_have_support(space):
        return False
    value = state.support_value(space)
    return value < 2 if direction > 0 else value > -2


def _win_the_day(
    state: CoinState,
    choice: BattleChoice,
    removed: list[Removal],
    log: list[str],
    options: BattleOptions,
    participants: tuple[str, ...],
) -> tuple[str | None, bool, list[tuple[str, int]], list[FollowUp]]:
    space = choice.space
    attacker = SIDES[choice.attacker]
    defender = _other(attacker)
    lost = {side: sum(r.count for r in removed if r.side == side) for side in SIDE_FACTIONS}
    scope: dict[str, tuple[str, ...]] = {side: SIDE_FACTIONS[side] for side in SIDE_FACTIONS}
    if options.elimination_scope == "participating":
        # The Factions that fought, fixed when the Battle began: the Indians stay
        # participants after losing their last War Party, so a Village of theirs counts.
        scope[attacker] = participants
    gone = {side: _eliminated(state, space, scope[side], side) for side in SIDE_FACTIONS}
    winner: str | None
    if gone[attacker] and gone[defender]:
        log.append("3.6.8: both sides eliminated: no winner or loser")
        return None, False, [], []
    if gone[attacker] or gone[defender]:
        winner = defender if gone[attacker] else attacker
        log.append(f"3.6.8: {winner} survives the other side's elimination and wins")
    elif lost[attacker] < lost[defender]:
        winner = attacker
        log.append(f"3.6.8: {winner} wins, losing {lost[attacker]} pieces to {lost[defender]}")
    else:
        winner = defender
        log.append(f"3.6.8: {winner} (Defender) wins, losing {lost[defender]} to {lost[attacker]}")
    loser = _other(winner)
    kinds = {r.piece_type for r in removed if r.side == loser}
    key = set(CUBES[loser]) | {FORT[loser]}
    if space == WEST_INDIES or lost[loser] < 2 or not kinds & key:
        log.append("3.6.8: no Win the Day (needs a loser's cube or Fort, 2+ pieces, not WI)")
        return winner, False, [], []
    shifts = min(MAX_SHIFTS, lost[loser] // 2)
    doubles = options.washington_double == "always" or choice.double_shifts
    if winner == "rebellion" and state.leader("Washington") == space and doubles:
        shifts = min(MAX_SHIFTS_WASHINGTON, 2 * shifts)
        log.append(f"3.6.8: Washington doubles the shifts to {shifts}")
    direction = 1 if winner == "royalist" else -1
    done: list[tuple[str, int]] = []
    here = 0
    while here < shifts and _can_shift(state, space, direction):
        state.shift_support(space, direction)
        here += 1
    if here:
        done.append((space, direction * here))
        log.append(f"3.6.8: {winner} shifts {space} {here} level(s) to {state.support(space)}")
    left = shifts - here
    plan = choice.royalist_shifts if winner == "royalist" else choice.rebellion_shifts
    chooser = "British" if winner == "royalist" else "Patriots"
    for other in plan:
        if left == 0:
            break
        if not _can_shift(state, other, direction):
            log.append(f"3.6.8: {other} cannot take a shift; passed")
            continue
        state.shift_support(other, direction)
        done.append((other, direction))
        left -= 1
        log.append(f"3.6.8: the {chooser} put an overflow shift in {other}")
    if left:
        log.append(f"3.6.8: {left} shift(s) unused")
    follow: list[FollowUp] = []
    if winner == "rebellion":
        follow.append(FollowUp("patriots", "rally", "", "3.6.8", "free Rally in one space"))
        log.append("3.6.8: the Patriots may free Rally in any one eligible space")
        if _blockaded(state, space):
            follow.append(
                FollowUp("french", "move_blockade", space, "3.6.8", "Blockades to another City")
            )
            log.append(f"3.6.8: the French may move the Blockades of {space} to another City")
    return winner, True, done, follow


def _event_modifiers(state: CoinState) -> dict[str, tuple[int, list[Modifier]]]:
    """The modifiers Events put on the next Battle (``CoinState.battle_modifiers``),
    by role: what they add to its Force Level, and its Loss Level modifiers.

    >>> state = CoinState.new("lod")
    >>> state.battle_modifiers.append({"faction": "french", "role": "attacker",
    ...                                "loss_level": 3, "force_level": 1})
    >>> found = _event_modifiers(state)
    >>> found["attacker"][0], [m.value for m in found["attacker"][1]], found["defender"]
    (1, [3], (0, []))
    """
    found: dict[str, tuple[int, list[Modifier]]] = {"attacker": (0, []), "defender": (0, [])}
    for record in state.battle_modifiers:
        role = str(record["role"])
        force, losses = found[role]
        loss = int(record.get("loss_level") or 0)
        if loss:
            losses = [*losses, Modifier(f"an Event: {loss:+d} to the {role}'s Loss Level",
                                        loss, "5.1")]  # fmt: skip
        found[role] = (force + int(record.get("force_level") or 0), losses)
    return found


# ---------------------------------------------------------------------- the Battle


def resolve_battle(
    state: CoinState,
    choice: BattleChoice,
    rng: DieSource,
    options: BattleOptions | None = None,
) -> BattleResult:
    """Fight one Battle (3.6) and return what happened; ``state`` is not changed.
    ``options`` picks the readings of the unclear rules (:class:`BattleOptions`; the
    recorded defaults when ``None``).

    Raises
    ------
    IllegalMoveError
        The choice is refused; the error names the rule (:func:`battle_refusal`).
    """
    refused = battle_refusal(state, choice)
    if refused is not None:
        raise IllegalMoveError(refused.reason, rule=refused.rule)
    after = state.copy()
    space = choice.space
    attacker = SIDES[choice.attacker]
    defender = _other(attacker)
    chosen = options or BattleOptions()
    participants = attacking_factions(state, choice)
    log = [
        f"3.6.1: {choice.attacker} attacks in {space} with "
        f"{', '.join(participants)}; "
        f"{defending_chooser(state, space, choice.attacker)} chooses for the {defender}"
    ]
    for side, n in ((attacker, choice.activate_attacker), (defender, choice.activate_defender)):
        if n:
            after.flip(space, UNITS[side], n, "underground", "active")
            log.append(f"3.6.3: {side} Activates {n} {UNITS[side]}")
    event = _event_modifiers(after)
    after.battle_modifiers = []  # 5.1: the Event's modifiers are this Battle's
    forces = (
        max(0, force_level(after, choice, attacker) + event["attacker"][0]),
        max(0, force_level(after, choice, defender) + event["defender"][0]),
    )
    log.append(f"3.6.3: Force Levels {attacker} {forces[0]}, {defender} {forces[1]}")
    dice_a = _dice(forces[0], rng)
    mods_d = [*_defender_loss_modifiers(after, choice, chosen), *event["defender"][1]]
    dice_d = _dice(forces[1], rng)
    mods_a = [*_attacker_loss_modifiers(after, choice), *event["attacker"][1]]
    defender_loss = sum(dice_a) + sum(m.value for m in mods_d)
    attacker_loss = sum(dice_d) + sum(m.value for m in mods_a)
    for who, dice, mods, loss in (
        (attacker, dice_a, mods_d, defender_loss),
        (defender, dice_d, mods_a, attacker_loss),
    ):
        log.append(f"3.6.4: {who} rolls {list(dice)} (total {sum(dice)})")
        log.extend(f"{m.rule}: {m.name}: {m.value:+d}" for m in mods)
        log.append(f"3.6.4: {_other(who)} Loss Level {loss}")
    # 3.6.7 "own pieces": the attacker's removal pool is an option; the defender
    # always removes from its whole side, since every defending piece defends.
    whole_side = chosen.removal_pool == "whole_side"
    pool = SIDE_FACTIONS[attacker] if whole_side else participants
    as_tories = chosen.common_cause_losses == "as_tories"
    stand_ins = choice.common_cause if as_tories else 0
    removed = _remove(after, space, attacker, pool, False, attacker_loss, log, stand_ins)
    removed += _remove(after, space, defender, SIDE_FACTIONS[defender], True, defender_loss, log)
    winner, won, shifts, follow = _win_the_day(after, choice, removed, log, chosen, participants)
    return BattleResult(
        state=after,
        attacker_side=attacker,
        force_levels=forces,
        dice_attacker=dice_a,
        dice_defender=dice_d,
        defender_loss_modifiers=tuple(mods_d),
        attacker_loss_modifiers=tuple(mods_a),
        loss_levels=(attacker_loss, defender_loss),
        removed=tuple(removed),
        winner=winner,
        win_the_day=won,
        shifts=tuple(shifts),
        follow_ups=tuple(follow),
        log=tuple(log),
    )


# ---------------------------------------------------------------------- 3.6.8 Blockades


@dataclass(frozen=True)
class BlockadeShift:
    """The French move ``count`` Blockades from ``source``, a City where the
    Rebellion just Won the Day, to the City ``destination`` (3.6.8: "any Blockades
    ... to another City", so all of them to one City)."""

    source: str
    destination: str
    count: int

    def to_json(self) -> dict[str, Any]:
        return {
            "faction": "french",
            "move": "blockade_shift",
            "source": self.source,
            "destination": self.destination,
            "count": self.count,
        }


def blockade_shift_refusal(state: CoinState, offer: FollowUp, move: object) -> Refusal | None:
    """``None`` when ``move`` is a legal answer to the Battle's ``offer`` on
    ``state`` (the state after the Battle), else why not.

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Boston", "militia", 1)
    >>> state.add_marker("Boston", "blockade")
    >>> offer = FollowUp("french", "move_blockade", "Boston", "3.6.8", "")
    >>> blockade_shift_refusal(state, offer, BlockadeShift("Boston", "Boston", 1)).reason
    'the Blockades go to another City'
    """
    if not isinstance(move, BlockadeShift):
        return Refusal(f"not a Blockade move: {move!r}", "3.6.8")
    if offer.action != "move_blockade" or offer.space != move.source:
        return Refusal(f"no Rebellion Win the Day in {move.source} offers a Blockade move", "3.6.8")
    cities = state.rules.map.of_type("City")
    if move.destination not in cities or move.destination == move.source:
        return Refusal("the Blockades go to another City", "3.6.8")
    here = state.markers(move.source, "blockade")
    if not 1 <= move.count <= here:
        return Refusal(f"{move.source} has {here} Blockade(s) to move, not {move.count}", "3.6.8")
    return None


def blockade_shift_view(state: CoinState, offer: FollowUp) -> MoveView[BlockadeShift]:
    """Every Blockade move the ``offer`` allows: any number of the won City's
    Blockades to any other City (declining is making none).

    >>> state = CoinState.new("lod")
    >>> state.add_marker("Boston", "blockade", 2)
    >>> offer = FollowUp("french", "move_blockade", "Boston", "3.6.8", "")
    >>> blockade_shift_view(state, offer).count()  # 1 or 2 of them, to 6 other Cities
    12
    """
    moves = [
        BlockadeShift(offer.space, city, n)
        for city in sorted(state.rules.map.of_type("City"))
        if city != offer.space
        for n in range(1, state.markers(offer.space, "blockade") + 1)
    ]
    legal = [m for m in moves if blockade_shift_refusal(state, offer, m) is None]
    return ListView(legal, lambda move: blockade_shift_refusal(state, offer, move))


def apply_blockade_shift(
    state: CoinState, offer: FollowUp, move: BlockadeShift
) -> tuple[CoinState, tuple[str, ...]]:
    """The state after the Blockade move, and its log line (``state`` is not changed).

    Raises
    ------
    IllegalMoveError
        The move is refused (:func:`blockade_shift_refusal`).
    """
    refused = blockade_shift_refusal(state, offer, move)
    if refused is not None:
        raise IllegalMoveError(refused.reason, rule=refused.rule)
    after = state.copy()
    after.take_marker(move.source, "blockade", move.count)
    after.add_marker(move.destination, "blockade", move.count)
    return after, (f"3.6.8: the French move {move.count} Blockade(s) from {move.source} "
                   f"to {move.destination}",)  # fmt: skip
