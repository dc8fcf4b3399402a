"""What a COIN game's invariants promise, stated as IR claims for the prover.

A small symbolic board stands for any state: two spaces, the Available box and
"everywhere else", one stacking piece type (a Fort or Base) and one that does
not stack, whether each type may be in each space (whatever the space type,
country or flags make of it), each space's Support level and one track. The
invariants are those the state checks (stacking, where pieces may be, piece
conservation, Support levels, track caps). For each effect form the claim reads:
if the invariants hold before, and the selection respects the limits the
interpreter applies (5.1.1), they hold after.

>>> from legalis.model.coin.gamedata import load_game_data
>>> claims = effect_claims(load_game_data("lod"))
>>> [claim.name for claim in claims][:3]
['place keeps the invariants', 'remove keeps the invariants', 'replace keeps the invariants']
"""

from __future__ import annotations

from dataclasses import dataclass

from legalis.model.coin.gamedata import GameData
from legalis.model.core.ir import (
    Add,
    And,
    BoolVar,
    Claim,
    Eq,
    Implies,
    IntVar,
    Ite,
    Le,
    Lt,
    Min,
    Not,
    Sub,
    Term,
)

SPACES = (0, 1)
STACKING, LOOSE = "stacking", "loose"
TYPES = (STACKING, LOOSE)


@dataclass(frozen=True)
class Board:
    """The symbolic board: counts per space and type, Available, elsewhere, and more."""

    pieces: dict[tuple[int, str], Term]
    available: dict[str, Term]
    elsewhere: dict[str, Term]
    support: dict[int, Term]
    track: Term


@dataclass(frozen=True)
class Limits:
    """The game's numbers the claims use."""

    stacking_max: int
    inventory: dict[str, int]
    track_lo: int
    track_hi: int

    @classmethod
    def of(cls, data: GameData) -> Limits:
        stacking = [p.inventory for p in data.pieces if p.stacking]
        loose = [p.inventory for p in data.pieces if not p.stacking]
        caps = [t for t in data.tracks if t.hi < 999] or list(data.tracks)
        return cls(
            stacking_max=data.stacking_max,
            inventory={STACKING: max(stacking, default=0), LOOSE: max(loose, default=0)},
            track_lo=min(t.lo for t in caps),
            track_hi=max(t.hi for t in caps),
        )


def _allowed(space: int, kind: str) -> BoolVar:
    return BoolVar(f"may_hold[{space}][{kind}]")


def _pop_zero(space: int) -> BoolVar:
    return BoolVar(f"always_neutral[{space}]")


def board(limits: Limits, tag: str) -> Board:
    """Fresh symbolic counts named with ``tag`` (``pre`` or ``post``)."""
    inventory = limits.inventory
    return Board(
        pieces={
            (s, t): IntVar(f"{tag}.space[{s}].{t}", -(10**4), 10**4) for s in SPACES for t in TYPES
        },
        available={t: IntVar(f"{tag}.available.{t}", -(10**4), 10**4) for t in TYPES},
        elsewhere={t: IntVar(f"{tag}.elsewhere.{t}", 0, inventory[t]) for t in TYPES},
        support={s: IntVar(f"{tag}.support[{s}]", -10, 10) for s in SPACES},
        track=IntVar(f"{tag}.track", -(10**4), 10**4),
    )


def invariants(limits: Limits, b: Board) -> list[tuple[str, Term]]:
    """The state's invariants over a symbolic board, each with its name and rule."""
    out: list[tuple[str, Term]] = []
    for s in SPACES:
        out.append(
            (f"stacking in space {s} (1.4.2)", Le(b.pieces[(s, STACKING)], limits.stacking_max))
        )
    out.append(
        (
            "counts are never negative",
            And(*(Le(0, term) for term in [*b.pieces.values(), *b.available.values()])),
        )
    )
    for s in SPACES:
        for t in TYPES:
            out.append(
                (
                    f"{t} pieces only where they may be, space {s} (1.4.2, 2.3.9)",
                    Implies(Lt(0, b.pieces[(s, t)]), _allowed(s, t)),
                )
            )
    for t in TYPES:
        total = Add(b.pieces[(0, t)], b.pieces[(1, t)], b.available[t], b.elsewhere[t])
        out.append((f"every {t} piece is somewhere (inventory)", Eq(total, limits.inventory[t])))
    for s in SPACES:
        level = b.support[s]
        out.append(
            (
                f"Support level of space {s} (1.6)",
                And(Le(-2, level), Le(level, 2), Implies(_pop_zero(s), Eq(level, 0))),
            )
        )
    out.append(
        (
            "track within its caps (1.8)",
            And(Le(limits.track_lo, b.track), Le(b.track, limits.track_hi)),
        )
    )
    return out


def _same(
    pre: Board, post: Board, *, pieces: bool = True, support: bool = True, track: bool = True
) -> list[Term]:
    """``post`` equals ``pre`` in what an effect does not touch."""
    out: list[Term] = [Eq(post.elsewhere[t], pre.elsewhere[t]) for t in TYPES]
    if pieces:
        out += [Eq(post.pieces[k], pre.pieces[k]) for k in pre.pieces]
        out += [Eq(post.available[t], pre.available[t]) for t in TYPES]
    if support:
        out += [Eq(post.support[s], pre.support[s]) for s in SPACES]
    if track:
        out.append(Eq(post.track, pre.track))
    return out


def _amounts(name: str, limits: Limits) -> dict[tuple[int, str], IntVar]:
    return {
        (s, t): IntVar(f"{name}[{s}][{t}]", 0, limits.inventory[t]) for s in SPACES for t in TYPES
    }


def _room(limits: Limits, pre: Board, s: int) -> Term:
    """Stacking room the interpreter gives a space (limits.stacking_room)."""
    return Sub(limits.stacking_max, pre.pieces[(s, STACKING)])


def effect_claims(data: GameData, *, drop: str | None = None) -> list[Claim]:
    """For each effect form: invariants before and a selection within the limits give
    invariants after. ``drop`` leaves one limit out (``stacking``, ``where``,
    ``available``, ``present``, ``clamp``), to show the proof then fails."""
    limits = Limits.of(data)
    pre, post = board(limits, "pre"), board(limits, "post")
    before = [term for _, term in invariants(limits, pre)]
    goal = And(*(term for _, term in invariants(limits, post)))
    claims = []

    def claim(name: str, rule: str, steps: list[Term], *extra: Term) -> None:
        claims.append(
            Claim(
                name=f"{name} keeps the invariants",
                rule=rule,
                description=f"from a sound state, every legal {name} leaves a sound state",
                assumptions=(*before, *steps),
                goal=And(goal, *extra),
            )
        )

    def keep(kind: str, terms: list[Term]) -> list[Term]:
        return [] if drop == kind else terms

    a = _amounts("place", limits)
    steps = [
        *keep("stacking", [Le(a[(s, STACKING)], _room(limits, pre, s)) for s in SPACES]),
        *keep(
            "where", [Implies(Not(_allowed(s, t)), Eq(a[(s, t)], 0)) for s in SPACES for t in TYPES]
        ),
        *keep("available", [Le(Add(a[(0, t)], a[(1, t)]), pre.available[t]) for t in TYPES]),
        *[
            Eq(post.pieces[(s, t)], Add(pre.pieces[(s, t)], a[(s, t)]))
            for s in SPACES
            for t in TYPES
        ],
        *[Eq(post.available[t], Sub(pre.available[t], Add(a[(0, t)], a[(1, t)]))) for t in TYPES],
        *_same(pre, post, pieces=False),
    ]
    claim("place", "5.1.1: stacking, Available pieces only, where pieces may be", steps)

    r = _amounts("remove", limits)
    claim(
        "remove",
        "5.1.1; 5.1.3: only pieces that are there",
        [
            *keep("present", [Le(r[k], pre.pieces[k]) for k in r]),
            *[Eq(post.pieces[k], Sub(pre.pieces[k], r[k])) for k in r],
            *[Eq(post.available[t], Add(pre.available[t], r[(0, t)], r[(1, t)])) for t in TYPES],
            *_same(pre, post, pieces=False),
        ],
    )

    # replace loose pieces in space 0 by stacking ones, as far as Available and room allow
    out_, in_ = (
        IntVar("replace.removed", 0, limits.inventory[LOOSE]),
        IntVar("replace.placed", 0, limits.inventory[STACKING]),
    )
    claim(
        "replace",
        "5.1.1: remove rather than replace when the replacement is missing or stacking breaks",
        [
            *keep("present", [Le(out_, pre.pieces[(0, LOOSE)])]),
            Le(in_, out_),
            *keep("available", [Le(in_, pre.available[STACKING])]),
            *keep("stacking", [Le(in_, _room(limits, pre, 0))]),
            *keep("where", [Implies(Not(_allowed(0, STACKING)), Eq(in_, 0))]),
            Eq(post.pieces[(0, LOOSE)], Sub(pre.pieces[(0, LOOSE)], out_)),
            Eq(post.pieces[(0, STACKING)], Add(pre.pieces[(0, STACKING)], in_)),
            Eq(post.pieces[(1, LOOSE)], pre.pieces[(1, LOOSE)]),
            Eq(post.pieces[(1, STACKING)], pre.pieces[(1, STACKING)]),
            Eq(post.available[LOOSE], Add(pre.available[LOOSE], out_)),
            Eq(post.available[STACKING], Sub(pre.available[STACKING], in_)),
            *_same(pre, post, pieces=False),
        ],
    )

    m = {t: IntVar(f"move[{t}]", 0, limits.inventory[t]) for t in TYPES}
    claim(
        "move",
        "5.1.1: pieces leave from where they are and arrive within stacking and side rules",
        [
            *keep("present", [Le(m[t], pre.pieces[(0, t)]) for t in TYPES]),
            *keep("stacking", [Le(m[STACKING], _room(limits, pre, 1))]),
            *keep("where", [Implies(Not(_allowed(1, t)), Eq(m[t], 0)) for t in TYPES]),
            *[Eq(post.pieces[(0, t)], Sub(pre.pieces[(0, t)], m[t])) for t in TYPES],
            *[Eq(post.pieces[(1, t)], Add(pre.pieces[(1, t)], m[t])) for t in TYPES],
            *[Eq(post.available[t], pre.available[t]) for t in TYPES],
            *_same(pre, post, pieces=False),
        ],
    )

    # flip Underground pieces of space 0 to Active (Activate; going Underground mirrors it)
    under, active, flip = (
        IntVar("pre.space[0].loose.underground", -(10**4), 10**4),
        IntVar("pre.space[0].loose.active", -(10**4), 10**4),
        IntVar("flip", 0, limits.inventory[LOOSE]),
    )
    claim(
        "flip",
        "5.1.1: only pieces there, and only those Underground",
        [
            Le(0, under),
            Le(0, active),
            Eq(pre.pieces[(0, LOOSE)], Add(under, active)),
            *keep("present", [Le(flip, under)]),
            Eq(post.pieces[(0, LOOSE)], Add(Sub(under, flip), Add(active, flip))),
            Eq(post.pieces[(0, STACKING)], pre.pieces[(0, STACKING)]),
            Eq(post.pieces[(1, LOOSE)], pre.pieces[(1, LOOSE)]),
            Eq(post.pieces[(1, STACKING)], pre.pieces[(1, STACKING)]),
            *[Eq(post.available[t], pre.available[t]) for t in TYPES],
            *_same(pre, post, pieces=False),
        ],
        # no status count goes below zero
        Le(0, Sub(under, flip)),
    )

    claim(
        "lasting effect, free action, condition or choice",
        "5.3, 5.4, 5.5: markers and grants change no piece, level or track",
        _same(pre, post),
    )

    shift = IntVar("shift.levels", -4, 4)
    moved = Ite(_pop_zero(0), pre.support[0], Add(pre.support[0], shift))
    clamped = Ite(Lt(moved, -2), -2, Ite(Lt(2, moved), 2, moved)) if drop != "clamp" else moved
    claim(
        "shift",
        "1.6: five levels; population-0 spaces stay Neutral",
        [
            Eq(post.support[0], clamped),
            Eq(post.support[1], pre.support[1]),
            *_same(pre, post, support=False),
        ],
    )

    level = IntVar("set_support.level", -2, 2)
    claim(
        "set support",
        "1.6: only spaces that can show Support take a level",
        [
            Eq(post.support[0], Ite(_pop_zero(0), pre.support[0], level)),
            Eq(post.support[1], pre.support[1]),
            *_same(pre, post, support=False),
        ],
    )

    delta = IntVar("adjust.delta", -(10**3), 10**3)
    raw = Add(pre.track, delta)
    bounded = Ite(Lt(raw, limits.track_lo), limits.track_lo, Min(raw, limits.track_hi))
    claim(
        "adjust",
        "5.1.1; 1.8: never beyond a track's cap or below its floor",
        [Eq(post.track, bounded if drop != "clamp" else raw), *_same(pre, post, track=False)],
    )
    return claims


def consistency_claims(data: GameData) -> tuple[list[str], list[Term]]:
    """The invariants over one symbolic board, with their names, for the
    consistency and independence checks."""
    limits = Limits.of(data)
    pairs = invariants(limits, board(limits, "state"))
    return [name for name, _ in pairs], [term for _, term in pairs]
