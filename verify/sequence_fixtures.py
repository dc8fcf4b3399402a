"""Edge-case fixtures of the Liberty or Death Sequence of Play (2.3, 6.1): whole-game
states at a rule's limit, with every legal move there counted and grouped, a few
of them with where play stands after each, and a few refused moves with the rule.

Each state is a :class:`~legalis.solver.lodgame.state.LodState` as its JSON
(``LodState.to_json``), made from the 1775 scenario and the sample deck's card 33
(Faction order Patriots, Indians, British, French): a Faction with 0 Resources as
1st Eligible, the last Eligible Faction after every other passed, a Brilliant
Stroke that may be Trumped, French Preparations exactly at and one over the
Treaty of Alliance's threshold, and a Winter Quarters card drawn when a Faction
meets its victory conditions.

>>> fixtures = build_sequence_fixtures()
>>> [f["rule"] for f in fixtures][:2]
['2.3.4 no resources', '2.3.3 pass chain']
>>> [p for f in fixtures for p in check_sequence_fixture(f, f["id"])]
[]
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import jsonschema
from legalis.model.core.views import MoveView
from legalis.model.errors import InputError, SolverLimitError
from legalis.model.lod.command_base import RESOURCES
from legalis.solver.lodgame.game import LodGame
from legalis.solver.lodgame.moves import Pass, Roll, Stroke
from legalis.solver.lodgame.state import LodState
from legalis.solver.lodgame.views import ChainView
from legalis.verify.tasks import Mapper, in_process

__all__ = [
    "SEQUENCE_FORMAT",
    "SEQUENCE_RULES",
    "SEQUENCE_SCHEMA",
    "build_sequence_fixture",
    "build_sequence_fixtures",
    "check_sequence_fixture",
    "sequence_tasks",
]

SEQUENCE_FORMAT = "legalis-sequence-fixture/1"
SCENARIO = "1775"
CARD = 33  # the sample deck's card: Patriots, Indians, British, French
ON_DECK = 1
SAMPLES = 5
TREATY = "Treaty of Alliance"
TREATY_LIMIT = 15  # 2.3.9: more than 15 French Preparations

SEQUENCE_RULES: dict[str, str] = {
    "2.3.4 no resources": "the 1st Eligible Faction may always Pass or execute the Event; "
    "its Commands cost Resources (3.1), so with none it has no Command",
    "2.3.3 pass chain": "a Faction that Passes gains Resources and stays Eligible; when the "
    "last Eligible Faction Passes the card ends",
    "2.3.8 trump": "a Brilliant Stroke just played may be Trumped: the Indians any other "
    "Faction's, the French the British and Patriots', the British the Patriots'",
    "2.3.9 threshold": "the Treaty of Alliance needs more than 15 French Preparations "
    "(Available French Regulars, Squadrons/Blockades and the CBC)",
    "6.1 victory": "a Winter Quarters card starts its Round with a Victory Check: a "
    "Faction meeting both its conditions (7.2) wins and the game ends",
}

_NAMES: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
SEQUENCE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://legalis.invalid/schemas/sequence-fixture.json",
    "title": "A Liberty or Death Sequence of Play fixture",
    "type": "object",
    "additionalProperties": False,
    "required": [
        "format",
        "id",
        "game",
        "rule",
        "rule_text",
        "boundary",
        "description",
        "options",
        "state",
        "to_move",
        "expected_count",
        "expected_groups",
        "sample_legal",
        "sample_illegal",
    ],
    "properties": {
        "format": {"const": SEQUENCE_FORMAT},
        "id": {"type": "string", "pattern": "^[a-z0-9_.-]+$"},
        "game": {"const": "lod"},
        "rule": {"enum": list(SEQUENCE_RULES)},
        "rule_text": {"type": "string"},
        "boundary": {"enum": ["at", "inside"]},
        "description": {"type": "string", "minLength": 1},
        "options": {"type": "object"},
        "state": {"type": "object", "description": "LodState.to_json()"},
        "to_move": {"type": "string"},
        "expected_count": {"type": "integer", "minimum": 0},
        "expected_groups": {"type": "object", "additionalProperties": {"type": "integer"}},
        "sample_legal": {
            "type": "array",
            "maxItems": SAMPLES,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["move", "after"],
                "properties": {"move": {"type": "object"}, "after": {"type": "object"}},
            },
        },
        "sample_illegal": {
            "type": "array",
            "maxItems": SAMPLES,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["move", "reason", "rule"],
                "properties": {
                    "move": {"type": "object"},
                    "reason": {"type": "string"},
                    "rule": {"type": "string"},
                },
            },
        },
    },
}


@dataclass(frozen=True)
class _Case:
    rule: str
    boundary: str
    description: str
    build: Callable[[], LodState]
    legal: Callable[[LodState], list[Any]]  # moves sampled besides the first ones listed
    illegal: Callable[[LodState], list[Any]]


@cache
def _game() -> LodGame:
    return LodGame({"scenario": SCENARIO})


def _at_card(strokes: list[str], *, deck: tuple[int, ...] = (2, 3, 4)) -> LodState:
    """The 1775 set-up with card 33 played, card 1 on deck, its dice rolled."""
    state = _game().new_initial_state()
    state.coin.set_card_list("brilliant_strokes", strokes)
    state.card_number, state.on_deck, state.deck, state.stage = CARD, ON_DECK, deck, "roll"
    state.play(Roll(0))
    return state


def _no_resources() -> LodState:
    state = _at_card([])
    state.coin.set_track(RESOURCES["patriots"], 0)
    state.cache.clear()
    return state


def _pass_chain() -> LodState:
    state = _at_card([])
    for faction in ("patriots", "indians", "british"):
        state.play(Pass(faction))
    return state


def _trump() -> LodState:
    state = _at_card(["Patriot Brilliant Stroke", "British Brilliant Stroke"])
    state.play(Stroke("patriots", "Patriot Brilliant Stroke"))
    return state


def _preparations(total: int) -> Callable[[], LodState]:
    """French Preparations at ``total`` (Available French Regulars, then the CBC) and
    the French asked whether to play the Treaty before the 1st Eligible acts."""

    def build() -> LodState:
        state = _at_card([TREATY])
        coin = state.coin
        regulars = min(total, coin.pieces("Unavailable", "french_regular"))
        coin.move_pieces("Unavailable", "Available", "french_regular", regulars)
        coin.set_track("cbc", total - regulars - coin.markers("West Indies", "blockade"))
        state.stage, state.window = "window", ("french",)
        state.cache.clear()
        return state

    return build


def _victory() -> LodState:
    """Every space able to hold Support at Active Support, the CRC above the CBC
    (7.2: the British conditions met), the Winter Quarters card drawn next."""
    game = _game()
    state = _at_card([], deck=(game.rules.winter_cards[0], 2, 3))
    coin = state.coin
    for space in coin.rules.spaces:
        if coin.can_have_support(space):
            coin.set_support(space, "active_support")
    coin.set_track("crc", coin.track("cbc") + 1)
    for faction in ("patriots", "indians", "british", "french"):
        state.play(Pass(faction))
    return state


def _passes(state: LodState) -> list[Any]:
    return [Pass(state.to_move)]


def _none(state: LodState) -> list[Any]:
    return []


def _paid_commands(state: LodState) -> list[Any]:
    """The first Command of each kind the Faction could take with its Resources."""
    funded = _at_card([])
    game = _game()
    view = funded.legal_moves()
    assert isinstance(view, ChainView)
    firsts: dict[str, Any] = {}
    for part in view.parts:  # one part a Command: its first move (a March has thousands)
        move = next(iter(part), None)
        if move is not None and game.move_group(move).startswith("Command"):
            firsts.setdefault(game.move_group(move), move)
    return list(firsts.values())[:SAMPLES]


_CASES: tuple[_Case, ...] = (
    _Case(
        "2.3.4 no resources",
        "at",
        "the Patriots are 1st Eligible with 0 Resources: Pass or the Event, no Command",
        _no_resources,
        _passes,
        _paid_commands,
    ),
    _Case(
        "2.3.3 pass chain",
        "at",
        "the Patriots, Indians and British passed; the French, "
        "last Eligible, may Pass too, which ends the card with every Faction Eligible",
        _pass_chain,
        _passes,
        lambda s: [Pass("british")],
    ),
    _Case(
        "2.3.8 trump",
        "at",
        "the Patriots played their Brilliant Stroke; the British may Trump it or let it stand",
        _trump,
        _none,
        lambda s: [Stroke("patriots", "Patriot Brilliant Stroke")],
    ),
    _Case(
        "2.3.9 threshold",
        "at",
        "French Preparations exactly 15: the Treaty of Alliance may not be played",
        _preparations(TREATY_LIMIT),
        _none,
        lambda s: [Stroke("french", TREATY)],
    ),
    _Case(
        "2.3.9 threshold",
        "inside",
        "French Preparations 16: the Treaty of Alliance may be played",
        _preparations(TREATY_LIMIT + 1),
        _none,
        _none,
    ),
    _Case(
        "6.1 victory",
        "at",
        "the Winter Quarters card comes up while the British meet "
        "both their conditions: its Round's Victory Check ends the game",
        _victory,
        lambda s: [Roll(0)],
        lambda s: [Pass("british")],
    ),
)


def _groups(game: LodGame, view: MoveView[Any]) -> dict[str, int]:
    return dict(sorted(Counter(game.move_group(move) for move in view).items()))


def _count(view: MoveView[Any]) -> int:
    try:
        return view.count()
    except SolverLimitError:
        return 0


def _after(game: LodGame, state: LodState, move: Any) -> dict[str, Any]:
    """Where play stands after ``move``: stage, who is to move, the card, eligibility,
    Resources and the result."""
    after = state.apply(move)
    summary = game.summary(after)
    return {
        key: summary[key]
        for key in ("phase", "to_move", "card", "eligibility", "resources", "result")
    }


def _chance(state: LodState) -> bool:
    return state.is_chance


def _fixture(case: _Case, number: int) -> dict[str, Any]:
    game = _game()
    state = case.build()
    problems = state.invariant_problems()
    if problems:  # a generator bug: every fixture state must be sound
        raise AssertionError(f"{case.rule}: {problems[0]}")
    view = state.legal_moves()
    count = _count(view)
    firsts = [] if _chance(state) else [view.nth(i) for i in range(min(count, SAMPLES))]
    legal = list(dict.fromkeys([*case.legal(state), *firsts]))[:SAMPLES]
    rule_number, *words = case.rule.split()
    fid = f"{rule_number}-{'_'.join(words)}-{case.boundary}-{number}"
    return {
        "format": SEQUENCE_FORMAT,
        "id": fid,
        "game": "lod",
        "rule": case.rule,
        "rule_text": SEQUENCE_RULES[case.rule],
        "boundary": case.boundary,
        "description": case.description,
        "options": game.options.to_json(),
        "state": state.to_json(),
        "to_move": state.to_move,
        "expected_count": count,
        "expected_groups": {} if _chance(state) else _groups(game, view),
        "sample_legal": [
            {"move": game.move_to_json(m), "after": _after(game, state, m)} for m in legal
        ],
        "sample_illegal": [
            {"move": game.move_to_json(m), "reason": refused.reason, "rule": refused.rule}
            for m in case.illegal(state)
            if (refused := view.refusal(m)) is not None
        ],
    }


def sequence_tasks(per_rule: int) -> list[tuple[int, int]]:
    """The tasks of :func:`build_sequence_fixtures`, one per fixture: (index of the
    case, its number within its rule), up to ``per_rule`` for each rule.

    >>> sequence_tasks(1)
    [(0, 1), (1, 1), (2, 1), (3, 1), (5, 1)]
    >>> sequence_tasks(2)[3:5]
    [(3, 1), (4, 2)]
    """
    taken: Counter[str] = Counter()
    tasks = []
    for index, case in enumerate(_CASES):
        taken[case.rule] += 1
        if taken[case.rule] <= per_rule:
            tasks.append((index, taken[case.rule]))
    return tasks


def build_sequence_fixture(task: tuple[int, int]) -> dict[str, Any]:
    """The fixture of one task of :func:`sequence_tasks`: built once per process and
    copied out (it depends on nothing else).

    >>> build_sequence_fixture((0, 1))["id"]
    '2.3.4-no_resources-at-1'
    """
    return copy.deepcopy(_built(*task))


@cache
def _built(index: int, number: int) -> dict[str, Any]:
    return _fixture(_CASES[index], number)


def build_sequence_fixtures(
    *, per_rule: int = 2, mapper: Mapper = in_process
) -> list[dict[str, Any]]:
    """The Sequence of Play fixtures, up to ``per_rule`` for each rule of
    :data:`SEQUENCE_RULES`, in its order (``at`` before ``inside``), each a task of
    ``mapper`` (:func:`build_sequence_fixture`)."""
    return list(mapper(build_sequence_fixture, sequence_tasks(per_rule)))


def check_sequence_fixture(raw: Mapping[str, Any], source: str) -> list[str]:
    """Re-run the engine on one Sequence of Play fixture; every expectation it breaks,
    as a sentence."""
    validator = jsonschema.Draft202012Validator(SEQUENCE_SCHEMA)
    problems = [
        f"schema: {'.'.join(str(p) for p in e.absolute_path) or '(root)'}: {e.message}"
        for e in validator.iter_errors(raw)
    ]
    if problems:
        return problems
    try:
        game = LodGame(raw["options"])
        state = game.state_from_json(raw["state"], source=source)
    except InputError as error:
        return [f"state unsound: {error}"]
    if state.to_move != raw["to_move"]:
        problems.append(f"to move: {state.to_move}, expected {raw['to_move']}")
    view = state.legal_moves()
    count = _count(view)
    if count != raw["expected_count"]:
        problems.append(
            f"count: the engine finds {count}, the fixture expects {raw['expected_count']}"
        )
    groups = {} if state.is_chance else _groups(game, view)
    if groups != raw["expected_groups"]:
        problems.append(f"groups: the engine finds {groups}, expected {raw['expected_groups']}")
    for where, sample, move in _samples(game, raw, "sample_legal", problems):
        refused = view.refusal(move)
        if refused is not None:
            problems.append(f"{where}: refused ({refused.rule}): {refused.reason}")
        elif (after := _after(game, state, move)) != sample["after"]:
            problems.append(f"{where}: after {after}, expected {sample['after']}")
    for where, sample, move in _samples(game, raw, "sample_illegal", problems):
        refused = view.refusal(move)
        if refused is None:
            problems.append(f"{where}: accepted, expected refused under {sample['rule']}")
        elif refused.rule != sample["rule"]:
            problems.append(f"{where}: refused under {refused.rule}, expected {sample['rule']}")
    return problems


def _samples(
    game: LodGame, raw: Mapping[str, Any], key: str, problems: list[str]
) -> Iterator[tuple[str, Mapping[str, Any], Any]]:
    """Each sample of ``raw[key]`` with where it stands and its move, read from its
    JSON (one that cannot be read is a problem, and skipped)."""
    for index, sample in enumerate(raw[key]):
        where = f"{key}[{index}]"
        try:
            yield where, sample, game.move_from_json(sample["move"])
        except InputError as error:
            problems.append(f"{where}: {error}")
