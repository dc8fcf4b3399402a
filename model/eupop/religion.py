"""16.5 Spread of Religious Ideas and Spread of the Revolution.

A spread is resolved one token at a time. :func:`spread_moves` gives the legal
placements of the next step as a :class:`~legalis.model.core.views.ListView`
(empty once the spread is over), :func:`apply_placement` plays one and returns a
new state with the updated :class:`SpreadProgress`; :func:`auto_spread` resolves a
whole spread by the auto-resolution rules, each step recorded in a
:class:`~legalis.model.eupop.resolution.ResolutionLog`. ``docs/rules-questions.md``
("EU:PoP spread of religion and revolution") records how unclear points are read.

>>> state = tiny_state()
>>> [(label, sorted(areas)) for label, areas in religion_clusters(state)]
[('protestant', ['a'])]
>>> [move.area for move in spread_moves(state, SpreadProgress("religion"))]
['b']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from legalis.graphs.regions import Cluster, cluster_neighbours, land_clusters
from legalis.model.core.views import ListView, RandomSource, Refusal
from legalis.model.errors import IllegalMoveError
from legalis.model.eupop.resolution import ResolutionLog
from legalis.model.eupop.state import INFECTIOUS, AreaState, EuState, state_from_json

__all__ = [
    "Kind",
    "Placement",
    "SpreadOptions",
    "SpreadProgress",
    "apply_placement",
    "auto_spread",
    "religion_clusters",
    "revolution_clusters",
    "spread_moves",
    "tiny_state",
]

RULE = "16.5"
RELIGION_RULE = "16.5 Spread of Religious Ideas"
REVOLUTION_RULE = "16.5 Spread of the Revolution"
MAX_PER_TURN = 4  # 16.5 step 2: "you have placed less than 4 Q this Turn"
TOKEN_KINDS = ("protestant", "counter_reformed", "diverse_faiths", "revolutionary")

Kind = Literal["religion", "revolution"]
Token = Literal["protestant", "counter_reformed", "diverse_faiths", "revolutionary"]


@dataclass(frozen=True)
class Placement:
    """Put ``token`` in ``area``; for a ^ with none available, ``take_from`` names
    the Area whose ^ is moved (16.5 Spread of the Revolution)."""

    token: Token
    area: str
    take_from: str | None = None

    def to_json(self) -> dict[str, str | None]:
        return {"token": self.token, "area": self.area, "take_from": self.take_from}


@dataclass(frozen=True)
class SpreadOptions:
    """Readings of unclear points (see ``docs/rules-questions.md``).

    ``same_faith_target``: ``"refuse"`` (default) a Q may not go to an Area whose
    faith is already the Q's type; ``"allow"`` it may.
    ``diverse_on_diverse``: ``"allow"`` (default) the Active player may pick an Area
    that already has Diverse Faiths; ``"refuse"`` he may not (auto never does).
    """

    same_faith_target: Literal["refuse", "allow"] = "refuse"
    diverse_on_diverse: Literal["allow", "refuse"] = "allow"


@dataclass(frozen=True)
class SpreadProgress:
    """What one spread has done so far: its placements and the Areas of the
    clusters spread from (a later step must spread from *another* cluster)."""

    kind: Kind
    placed: tuple[Placement, ...] = ()
    used: frozenset[str] = frozenset()
    mode: Literal["", "spread", "diverse", "capitals"] = ""
    lone_cluster: frozenset[str] = frozenset()
    extra_done: bool = False
    options: SpreadOptions = field(default_factory=SpreadOptions)


# ---------------------------------------------------------------------- clusters


def religion_clusters(state: EuState) -> list[Cluster]:
    """Land-connected clusters of Areas sharing an Infectious Faith (16.5)."""
    labels = {
        name: state.areas[name].faith if name in state.areas else None for name in state.map.areas
    }
    infectious = {name: faith for name, faith in labels.items() if faith in INFECTIOUS}
    return land_clusters(state.map.graph, infectious)


def revolution_clusters(state: EuState) -> list[Cluster]:
    """Land-connected clusters of Areas with a ^ (16.5 Spread of the Revolution)."""
    labels = {name: "revolutionary" for name, area in state.areas.items() if area.revolutionary}
    return land_clusters(state.map.graph, labels)


def _clusters(state: EuState, kind: Kind) -> list[Cluster]:
    return religion_clusters(state) if kind == "religion" else revolution_clusters(state)


def _printed(state: EuState, area: str) -> str:
    return state.areas[area].religion if area in state.areas else "catholic"


def _faith(state: EuState, area: str) -> str:
    return state.areas[area].faith if area in state.areas else "catholic"


# ---------------------------------------------------------------------- the steps


def _start(state: EuState, progress: SpreadProgress) -> SpreadProgress:
    if progress.mode:
        return progress
    clusters = _clusters(state, progress.kind)
    if progress.kind == "religion":
        return replace(progress, mode="spread" if clusters else "diverse")
    if not clusters:
        return replace(progress, mode="capitals")
    lone = clusters[0][1] if len(clusters) == 1 else frozenset()
    return replace(progress, mode="spread", lone_cluster=lone)


def _placed_this_turn(state: EuState, kind: Kind) -> int:
    if kind == "religion":
        return sum(
            1 for a in state.areas.values() if a.token_placed_this_turn and a.token in INFECTIOUS
        )
    return sum(1 for a in state.areas.values() if a.revolutionary_placed_this_turn)


@dataclass(frozen=True)
class _Step:
    """The candidates of one step: each Area with the token types and the
    clusters it would spread from, or the reason the step offers nothing."""

    progress: SpreadProgress
    moves: list[Placement]
    refusals: dict[tuple[str, str], str]
    sources: dict[tuple[str, str], frozenset[str]]
    rule: str
    over: str = ""
    extra: bool = False


def _supply(state: EuState, area: str) -> list[str | None]:
    """Where the ^ for ``area`` comes from: the pool, else any ^ on the board."""
    if state.revolutionary_tokens > 0:
        return [None]
    return [name for name, a in sorted(state.areas.items()) if a.revolutionary and name != area]


def _step(state: EuState, progress: SpreadProgress) -> _Step:
    progress = _start(state, progress)
    rule = RELIGION_RULE if progress.kind == "religion" else REVOLUTION_RULE
    moves: list[Placement] = []
    refusals: dict[tuple[str, str], str] = {}
    sources: dict[tuple[str, str], frozenset[str]] = {}
    n = len(progress.placed)
    areas = sorted(state.map.areas)
    if progress.mode == "diverse":
        # 16.5 Spread of Religious Ideas, step 3
        if n >= 2:
            return _Step(progress, [], {}, {}, rule, "2 Diverse Faiths tokens placed")
        chosen = {p.area for p in progress.placed}
        for area in areas:
            why = ""
            if _faith(state, area) != "catholic":
                why = "step 3: Diverse Faiths go in Catholic Areas"
            elif any(state.sea_mark(s) == "†" for s in state.map.seas_of(area)):
                why = "step 3: the Area is adjacent to a Sea Zone marked †"
            elif area in chosen:
                why = "step 3: the 2 Areas are different Areas"
            elif (
                progress.options.diverse_on_diverse == "refuse"
                and area in state.areas
                and state.areas[area].token == "diverse_faiths"
            ):
                why = "step 3: the Area already has Diverse Faiths (option diverse_on_diverse)"
            if why:
                refusals[("diverse_faiths", area)] = why
            else:
                moves.append(Placement("diverse_faiths", area))
        return _Step(progress, moves, refusals, sources, rule)
    if progress.mode == "capitals":
        # 16.5 Spread of the Revolution: "If there are no ^ on the board, place ^ in 2
        # PR Capital Areas."
        if n >= 2:
            return _Step(progress, [], {}, {}, rule, "2 ^ placed in Capital Areas")
        capitals = {
            state.map.area_of(realm.capital)
            for name, realm in state.realms.items()
            if realm.kind == "player" and realm.capital is not None
        }
        for area in areas:
            if area not in capitals:
                refusals[("revolutionary", area)] = "the first ^ go in PR Capital Areas"
            elif state.areas.get(area) is not None and state.areas[area].revolutionary:
                refusals[("revolutionary", area)] = "the Area already has a ^"
            else:
                moves += [Placement("revolutionary", area, s) for s in _supply(state, area)]
        return _Step(progress, moves, refusals, sources, rule)
    clusters = _clusters(state, progress.kind)
    if n > 0:
        clusters = [c for c in clusters if not (c[1] & progress.used)]
    spread_over = ""
    if n > 0 and not clusters:
        spread_over = "step 2: no other cluster to spread from"
    elif n > 0 and _placed_this_turn(state, progress.kind) >= MAX_PER_TURN:
        spread_over = f"step 2: {MAX_PER_TURN} tokens placed this Turn"
    if spread_over:
        if progress.kind == "revolution" and progress.lone_cluster and not progress.extra_done:
            return _extra_step(state, progress, rule)
        return _Step(progress, [], {}, {}, rule, spread_over)
    faiths_in_play = {label for label, _ in _clusters(state, progress.kind)}
    blocked: set[str] = set()
    if progress.kind == "religion" and len(faiths_in_play) > 1:
        for faith in INFECTIOUS:
            if sum(1 for p in progress.placed if p.token == faith) >= 2:
                blocked.add(faith)
    for label, group in clusters:
        token: Token = "revolutionary"
        if progress.kind == "religion":
            token = "protestant" if label == "protestant" else "counter_reformed"
        for area in cluster_neighbours(state.map.graph, group, across_sea=True):
            key = (token, area)
            if key in sources:
                sources[key] = sources[key] | group
                continue
            why = ""
            here = state.areas.get(area)
            if progress.kind == "religion":
                if _printed(state, area) in ("orthodox", "muslim"):
                    why = "step 1: Orthodox or Muslim Areas may not be chosen"
                elif (
                    progress.options.same_faith_target == "refuse" and _faith(state, area) == token
                ):
                    why = "the Area already has this faith (option same_faith_target)"
                elif token in blocked:
                    why = "step 2: 2 Q of this type placed, the next must be of the other type"
                elif (
                    n > 0
                    and here is not None
                    and here.token_placed_this_turn
                    and here.token in INFECTIOUS
                ):
                    why = "step 2: a Q placed this Turn may not be replaced"
            elif here is not None and here.revolutionary:
                why = "the Area already has a ^"
            if why:
                refusals.setdefault(key, why)
                continue
            refusals.pop(key, None)
            sources[key] = group
            moves += [Placement(token, area, s) for s in _supply_for(state, progress, area)]
    lone = progress.kind == "revolution" and progress.lone_cluster and not progress.extra_done
    if not moves and lone:
        return _extra_step(state, progress, rule)
    if not moves:
        return _Step(progress, [], refusals, sources, rule, "no legal placement")
    moves.sort(key=lambda p: (p.token, p.area, p.take_from or ""))
    return _Step(progress, moves, refusals, sources, rule)


def _supply_for(state: EuState, progress: SpreadProgress, area: str) -> list[str | None]:
    return _supply(state, area) if progress.kind == "revolution" else [None]


def _extra_step(state: EuState, progress: SpreadProgress, rule: str) -> _Step:
    """16.5 Spread of the Revolution: "If there is only 1 cluster of ^, also add a ^
    in an Area not adjacent to this cluster." The cluster as it now stands."""
    grown: set[str] = set()
    for _, group in revolution_clusters(state):
        if group & progress.lone_cluster:
            grown |= group
    near = set(cluster_neighbours(state.map.graph, grown, across_sea=True)) | grown
    progress = replace(progress, extra_done=False)
    moves: list[Placement] = []
    refusals: dict[tuple[str, str], str] = {}
    for area in sorted(state.map.areas):
        here = state.areas.get(area)
        if area in near:
            refusals[("revolutionary", area)] = "the extra ^ goes in an Area away from the cluster"
        elif here is not None and here.revolutionary:
            refusals[("revolutionary", area)] = "the Area already has a ^"
        else:
            moves += [Placement("revolutionary", area, s) for s in _supply(state, area)]
    if not moves:
        return _Step(progress, [], refusals, {}, rule, "no Area away from the lone cluster")
    return _Step(progress, moves, refusals, {}, rule, extra=True)


def spread_moves(state: EuState, progress: SpreadProgress) -> ListView[Placement]:
    """The legal placements of the next step; empty once the spread is over."""
    step = _step(state, progress)
    offered = set(step.moves)

    def refuse(move: object) -> Refusal | None:
        if move in offered:
            return None
        if not isinstance(move, Placement):
            return Refusal("not a placement of this spread", RULE)
        if step.over:
            return Refusal(f"the spread is over: {step.over}", RULE)
        if move.area not in state.map.areas:
            return Refusal(f"unknown Area {move.area!r}", RULE)
        why = step.refusals.get((move.token, move.area))
        if why:
            return Refusal(why, step.rule)
        if any(p.area == move.area and p.token == move.token for p in step.moves):
            return Refusal("the ^ must come from the pool, or from the board if none is left", RULE)
        kinds = sorted({p.token for p in step.moves})
        if move.token not in kinds:
            return Refusal(f"this step places {' or '.join(kinds)}", step.rule)
        return Refusal("the Area is not adjacent to a cluster of this type", step.rule)

    return ListView(step.moves, refuse)


def is_over(state: EuState, progress: SpreadProgress) -> bool:
    return not spread_moves(state, progress)


def apply_placement(
    state: EuState, progress: SpreadProgress, move: Placement
) -> tuple[EuState, SpreadProgress]:
    """Play one placement; a new state and progress (the input is not changed).

    Raises :class:`IllegalMoveError` with the rule when the move is refused."""
    step = _step(state, progress)
    view = spread_moves(state, progress)
    refused = view.refusal(move)
    if refused is not None:
        raise IllegalMoveError(refused.reason, rule=refused.rule)
    progress = step.progress
    new = state.copy()
    area = new.areas.setdefault(move.area, AreaState())
    if move.token == "revolutionary":
        if move.take_from is not None:
            source = new.areas[move.take_from]
            source.revolutionary = False
            source.revolutionary_placed_this_turn = False
        else:
            new.revolutionary_tokens -= 1
        area.revolutionary = True
        area.revolutionary_placed_this_turn = True
    else:
        area.token = move.token
        area.token_placed_this_turn = True
    used = progress.used | {move.area} | step.sources.get((move.token, move.area), frozenset())
    extra = progress.extra_done or step.extra
    return new, replace(progress, placed=(*progress.placed, move), used=used, extra_done=extra)


# ---------------------------------------------------------------------- auto-resolution


def _town_and_tax(state: EuState, area: str) -> tuple[bool, int]:
    provinces = [
        state.provinces[p] for p in state.map.areas[area].provinces if p in state.provinces
    ]
    return any(p.town is not None for p in provinces), sum(p.tax for p in provinces)


def _best(state: EuState, moves: Sequence[Placement]) -> tuple[Placement, str]:
    """16.5 auto-resolution: at least 1 t, then the highest total Tax Value, then
    the Area's name; also which of these decided."""

    def name(move: Placement) -> str:
        return state.map.areas[move.area].name

    pool = list(moves)
    if len({m.area for m in pool}) == 1:
        return min(pool, key=lambda m: m.take_from or ""), "the only candidate"
    keys = (
        ("at least 1 t", lambda m: not _town_and_tax(state, m.area)[0]),
        ("highest total Tax Value", lambda m: -_town_and_tax(state, m.area)[1]),
        ("alphabetical by Area name", name),
    )
    for label, key in keys:
        best = min(key(m) for m in pool)
        narrowed = [m for m in pool if key(m) == best]
        if len({m.area for m in narrowed}) == 1:
            return min(narrowed, key=lambda m: m.take_from or ""), label
        pool = narrowed
    return pool[0], "alphabetical by Area name"


def _pick_supply(state: EuState, moves: list[Placement], log: ResolutionLog) -> list[Placement]:
    """With no ^ available, auto-resolution moves the ^ of the alphabetically first
    Area not placed this Turn (else the first at all), and records it."""
    if not moves or moves[0].take_from is None:
        return moves
    board = sorted({m.take_from for m in moves if m.take_from is not None})
    fresh = [a for a in board if not state.areas[a].revolutionary_placed_this_turn]
    source = (fresh or board)[0]
    log.decide(
        REVOLUTION_RULE + ": no ^ available, one taken from the board",
        "alphabetical, not placed this Turn",
        board,
        source,
    )
    kept = [m for m in moves if m.take_from == source]
    return kept or [m for m in moves if m.take_from == board[0]]


def _lowest_stability(state: EuState, rng: RandomSource, log: ResolutionLog) -> list[str]:
    """16.5 Spread of the Revolution auto-resolution: the Capital Areas of the 2 PRs
    with the lowest s, ties drawn at random."""
    players = [
        p
        for p in sorted(state.players)
        if state.realms[p].capital is not None
        and not state.areas.get(
            state.map.area_of(state.realms[p].capital or ""), AreaState()
        ).revolutionary
    ]
    chosen: list[str] = []
    for level in sorted({state.realms[p].stability for p in players}):
        tied = [p for p in players if state.realms[p].stability == level]
        room = 2 - len(chosen)
        if room <= 0:
            break
        if len(tied) > room:
            rng.shuffle(tied)
            log.decide(REVOLUTION_RULE, f"lowest stability {level}; tie drawn at random",
                       sorted(tied), tied[:room])  # fmt: skip
        chosen += tied[:room]
    log.decide(REVOLUTION_RULE, "the 2 PRs with the lowest stability", players, chosen)
    return chosen


def auto_spread(
    state: EuState,
    kind: Kind,
    log: ResolutionLog,
    rng: RandomSource | None = None,
    options: SpreadOptions | None = None,
) -> EuState:
    """Resolve a whole spread by the 16.5 auto-resolution rules; a new state.

    Religion: Protestant and Counter-Reformed alternate, Protestant first (a faith
    with no candidate is skipped, and the skip recorded); Diverse Faiths go in
    alphabetical order of Area name, ignoring Areas that already have them. The
    revolution places as above; its first two ^ go in the Capital Areas of the 2 PRs
    with the lowest ``s`` (``rng`` breaks ties; needed only then)."""
    progress = _start(state, SpreadProgress(kind, options=options or SpreadOptions()))
    rule = RELIGION_RULE if kind == "religion" else REVOLUTION_RULE
    turn = "protestant"
    capitals: list[str] | None = None
    while True:
        moves = list(spread_moves(state, progress))
        if not moves:
            return state
        step = _step(state, progress)
        if step.progress.mode == "diverse":
            fresh = [
                m
                for m in moves
                if not (m.area in state.areas and state.areas[m.area].token == "diverse_faiths")
            ]
            if not fresh:
                log.decide(rule, "every candidate already has Diverse Faiths", [], None)
                return state
            move = min(fresh, key=lambda m: state.map.areas[m.area].name)
            log.decide(rule + ", step 3", "alphabetical by Area name", [m.area for m in fresh],
                       move.area)  # fmt: skip
        elif step.progress.mode == "capitals":
            if capitals is None:
                if rng is None:
                    rng = _no_draw()
                capitals = [
                    state.map.area_of(state.realms[p].capital or "")
                    for p in _lowest_stability(state, rng, log)
                ]
            wanted = [m for m in moves if m.area in capitals]
            if not wanted:
                return state
            moves = _pick_supply(state, wanted, log)
            move = moves[0]
            capitals.remove(move.area)
        else:
            if kind == "religion":
                mine = [m for m in moves if m.token == turn]
                if not mine:
                    other = "counter_reformed" if turn == "protestant" else "protestant"
                    log.decide(rule, f"no {turn} placement; the other faith instead",
                               [m.area for m in moves], other)  # fmt: skip
                    turn = other
                    mine = [m for m in moves if m.token == turn]
                moves = mine
            moves = _pick_supply(state, moves, log)
            move, decided = _best(state, moves)
            label = rule + (", extra ^ away from the lone cluster" if step.extra else "")
            log.decide(label + (f" ({turn})" if kind == "religion" else ""), decided,
                       sorted({m.area for m in moves}), move.area)  # fmt: skip
            turn = "counter_reformed" if move.token == "protestant" else "protestant"
        state, progress = apply_placement(state, progress, move)


class _no_draw:
    """A random source for a resolution that must not need one."""

    def randrange(self, stop: int, /) -> int:
        raise IllegalMoveError("a tie needs a random draw: give a seeded rng", rule=REVOLUTION_RULE)

    def shuffle(self, items: list[object], /) -> None:
        raise IllegalMoveError("a tie needs a random draw: give a seeded rng", rule=REVOLUTION_RULE)


def tiny_state() -> EuState:
    """A three-Area map: ``a`` Protestant, ``b`` next to it by land, ``c`` Orthodox.

    >>> sorted(tiny_state().map.areas)
    ['a', 'b', 'c']
    """
    return state_from_json(
        {
            "players": ["france"],
            "realms": {"france": {"kind": "player"}},
            "areas": {"a": {"religion": "protestant"}, "c": {"religion": "orthodox"}},
            "map": {
                "area": [
                    {"id": "a", "provinces": ["A1"], "borders": ["b", "c"]},
                    {"id": "b", "provinces": ["B1"], "borders": ["a"]},
                    {"id": "c", "provinces": ["C1"], "borders": ["a"]},
                ],
                "sea": [],
            },
        }
    )
