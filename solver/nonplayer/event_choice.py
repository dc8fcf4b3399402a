"""The "Event or Command?" box of each Liberty or Death Non-player flowchart (8.4,
8.5, 8.6, 8.7): given how the Event would go (:class:`~.events.EventOutcome`),
whether the Faction plays it. Each condition is a function naming its paragraph;
the first that holds is traced.

>>> from legalis.model.coin.deck import bundled_deck
>>> from legalis.model.coin.scenarios import load_scenario
>>> from legalis.model.core.randomness import LoggedRandom
>>> from legalis.solver.nonplayer.events import nonplayer_event
>>> state = load_scenario("lod", "1775")
>>> decided = nonplayer_event(state, bundled_deck("lod").card(13), "british", LoggedRandom(3),
...                           wants_event=EVENT_BOXES["british"])
>>> decided.choice in ("event", "command")
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from legalis.model.coin import effects as fx
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.lod.command_base import can_command
from legalis.model.lod.special import special_view
from legalis.solver.nonplayer.events import EventOutcome, Preference, Trial
from legalis.solver.nonplayer.trace import Trace

__all__ = ["EVENT_BOXES", "EventBox", "royalist_shift"]

D6_AT_LEAST = 5  # 8.4-8.7: the last condition wants a D6 of 5 or more
CITIES_CONTROLLED = 5  # 8.4: the British Control at least five Cities
PATRIOT_PIECES = 25  # 8.5: the Patriots have at least 25 pieces on the map
VILLAGES_ON_MAP = 4  # 8.7: at least four Villages on the map
PATRIOT_RESOURCES_GAIN = 3  # 8.5: the Event adds at least three Patriot Resources

Condition = tuple[str, str, Callable[[EventOutcome], bool]]


def royalist_shift(before: CoinState, after: CoinState) -> int:
    """How far the Event moves Support less Opposition (positive: toward the
    Royalists). A Blockade lifted or placed changes it through the City's population
    (1.6), as 8.4 and 8.6 count.

    >>> state = CoinState.new("lod")
    >>> after = state.copy()
    >>> after.set_support("Virginia", "passive_support")
    >>> royalist_shift(state, after)
    2
    """

    def lead(state: CoinState) -> int:
        return state.total_support() - state.total_opposition()

    return lead(after) - lead(before)


def _on_map(state: CoinState, piece: str, status: str | None = None) -> int:
    return sum(state.pieces(space, piece, status) for space in state.rules.spaces)


def _rose(outcome: EventOutcome, piece: str) -> bool:
    return _on_map(outcome.after, piece) > _on_map(outcome.before, piece)


def _fell(outcome: EventOutcome, piece: str) -> bool:
    return _on_map(outcome.after, piece) < _on_map(outcome.before, piece)


def _spaces_gaining(outcome: EventOutcome, piece: str, status: str | None = None) -> list[str]:
    before, after = outcome.before, outcome.after
    return [
        s for s in before.rules.spaces
        if after.pieces(s, piece, status) > before.pieces(s, piece, status)
    ]  # fmt: skip


def _left_box(outcome: EventOutcome, box: str, pieces: Iterable[str]) -> bool:
    return any(outcome.after.pieces(box, p) < outcome.before.pieces(box, p) for p in pieces)


def _grants(outcome: EventOutcome, faction: str, actions: Iterable[str]) -> list[str]:
    """The free actions of ``actions`` the Event grants ``faction`` (5.3)."""
    wanted = set(actions)
    found: list[str] = []

    def walk(effects: Iterable[object]) -> None:
        for effect in effects:
            if (
                isinstance(effect, fx.FreeAction)
                and effect.faction == faction
                and effect.action in wanted
            ):
                found.append(effect.action)
            if isinstance(effect, fx.When):
                walk(effect.then)
                walk(effect.otherwise)
            elif isinstance(effect, fx.Choose):
                for option in effect.options:
                    walk(option)

    walk(outcome.effects)
    return found


def _free_strike(outcome: EventOutcome, faction: str) -> bool:
    """A free Battle or Skirmish granted that can be carried out after the Event."""
    for action in _grants(outcome, faction, ("battle", "skirmish")):
        if action == "battle" and can_command(outcome.after, faction, "battle", free=True) is None:
            return True
        if action == "skirmish" and special_view(outcome.after, faction, "skirmish"):
            return True
    return False


def _casualties(outcome: EventOutcome, track: str) -> bool:
    return outcome.after.track(track) > outcome.before.track(track)


# ---------------------------------------------------------------------- 8.4 British


def _british_placements(outcome: EventOutcome) -> bool:
    """8.4: Tories into an Active Opposition space with none, a British Fort into a
    Colony with none, or Regulars into a City or Colony."""
    before, board = outcome.before, outcome.before.rules.map
    tories = any(
        before.support(s) == "active_opposition" and before.pieces(s, "tory") == 0
        for s in _spaces_gaining(outcome, "tory")
    )
    fort = any(
        board.is_colony(s) and before.pieces(s, "british_fort") == 0
        for s in _spaces_gaining(outcome, "british_fort")
    )
    regulars = any(
        board.is_city(s) or board.is_colony(s) for s in _spaces_gaining(outcome, "british_regular")
    )
    return tories or fort or regulars


BRITISH: list[Condition] = [
    ("8.4", "Opposition exceeds Support and the Event shifts toward the Royalists",
     lambda o: o.before.total_opposition() > o.before.total_support()
     and royalist_shift(o.before, o.after) > 0),
    ("8.4", "the Event places British pieces from Unavailable",
     lambda o: _left_box(o, "Unavailable", ("british_regular", "tory", "british_fort"))),
    ("8.4", "the Event places Tories, a Fort or Regulars where they count",
     _british_placements),
    ("8.4", "the Event inflicts Rebellion Casualties",
     lambda o: _casualties(o, "crc") or _free_strike(o, "british")),
]  # fmt: skip


def _british_cities(outcome: EventOutcome) -> bool:
    cities = outcome.before.rules.map.of_type("City")
    return sum(outcome.before.control(c) == "british" for c in cities) >= CITIES_CONTROLLED


# ---------------------------------------------------------------------- 8.5 Patriots


def _militia_hidden(outcome: EventOutcome) -> bool:
    """8.5: Underground Militia into an Active Support or Village space with none."""
    before = outcome.before
    return any(
        (before.support(s) == "active_support" or before.pieces(s, "village"))
        and before.pieces(s, "militia", "underground") == 0
        for s in _spaces_gaining(outcome, "militia", "underground")
    )


PATRIOTS: list[Condition] = [
    ("8.5", "Support exceeds Opposition and the Event shifts toward the Rebellion",
     lambda o: o.before.total_support() > o.before.total_opposition()
     and royalist_shift(o.before, o.after) < 0),
    ("8.5", "the Event places Underground Militia where they count", _militia_hidden),
    ("8.5", "the Event places a Patriot Fort or removes a Village",
     lambda o: _rose(o, "patriot_fort") or _fell(o, "village")),
    ("8.5", "the Event adds at least three Patriot Resources",
     lambda o: o.after.track("patriots_resources") - o.before.track("patriots_resources")
     >= PATRIOT_RESOURCES_GAIN),
]  # fmt: skip


def _patriot_pieces(outcome: EventOutcome) -> bool:
    state = outcome.before
    return sum(state.faction_pieces(s, "patriots") for s in state.rules.spaces) >= PATRIOT_PIECES


# ---------------------------------------------------------------------- 8.6 French


FRENCH: list[Condition] = [
    ("8.6", "Support exceeds Opposition and the Event shifts toward the Rebellion",
     lambda o: o.before.total_support() > o.before.total_opposition()
     and royalist_shift(o.before, o.after) < 0),
    ("8.6", "the Event moves French Regulars or Squadrons from Unavailable",
     lambda o: _left_box(o, "Unavailable", ("french_regular",))
     or o.after.markers("Unavailable", "blockade") < o.before.markers("Unavailable", "blockade")),
    ("8.6", "the Event places Available French pieces on the map",
     lambda o: o.after.available("french_regular") < o.before.available("french_regular")
     and _rose(o, "french_regular")),
    ("8.6", "the Event inflicts British Casualties",
     lambda o: _casualties(o, "cbc") or _free_strike(o, "french")),
    ("8.6", "the Event adds French Resources",
     lambda o: o.after.track("french_resources") > o.before.track("french_resources")),
]  # fmt: skip


# ---------------------------------------------------------------------- 8.7 Indians


INDIANS: list[Condition] = [
    ("8.7", "Opposition exceeds Support and the Event shifts toward the Royalists",
     lambda o: o.before.total_opposition() > o.before.total_support()
     and royalist_shift(o.before, o.after) > 0),
    ("8.7", "the Event places a Village or grants a free Gather",
     lambda o: _rose(o, "village") or bool(_grants(o, "indians", ("gather",)))),
    ("8.7", "the Event removes a Patriot Fort", lambda o: _fell(o, "patriot_fort")),
]  # fmt: skip


# ---------------------------------------------------------------------- the boxes


@dataclass(frozen=True)
class EventBox:
    """One Faction's "Event or Command?" box: its questions in order, each with the
    spaces an execution "due to" it takes first (8.3.5; None: not about spaces),
    and, where the Faction's standing allows (``lucky``), a D6 of 5 or more."""

    conditions: tuple[tuple[str, str, Callable[[EventOutcome], bool], Preference | None], ...]
    rule: str
    lucky: Callable[[EventOutcome], bool]
    why: str

    def decide(
        self, plain: EventOutcome, trial: Trial, rng: LoggedRandom, trace: Trace
    ) -> EventOutcome | None:
        """The outcome to play: the first question that holds, on the Event carried
        out with that question's spaces first where it names spaces; else the D6."""
        names = [what for _, what, _, _ in self.conditions]
        for paragraph, what, holds, prefer in self.conditions:
            outcome = plain if prefer is None else trial(prefer)
            if outcome is not None and holds(outcome):
                trace.step(paragraph, "Event or Command? condition", names, what)
                return outcome
        if self.lucky(plain):
            roll = rng.randrange(6) + 1
            plays = roll >= D6_AT_LEAST
            trace.step(self.rule, f"Event or Command? {self.why}: D6 of 5+", ["play", "decline"],
                       "play" if plays else "decline", dice=[roll])  # fmt: skip
            return plain if plays else None
        trace.step(self.rule, "Event or Command? no condition holds", names, None)
        return None

    def __call__(self, outcome: EventOutcome, rng: LoggedRandom, trace: Trace) -> bool:
        """The box on one outcome, as every question would see it."""
        return self.decide(outcome, lambda prefer: outcome, rng, trace) is not None


def _box(
    conditions: list[Condition],
    rule: str,
    lucky: Callable[[EventOutcome], bool],
    why: str,
    prefer: dict[str, Preference] | None = None,
) -> EventBox:
    spaces = prefer or {}
    return EventBox(
        tuple((p, what, holds, spaces.get(what)) for p, what, holds in conditions), rule, lucky, why
    )


def _british_room(state: CoinState, space: str, entering: tuple[str, ...]) -> bool:
    """8.4's spaces: Tories into Active Opposition with none, a British Fort into a
    Colony with none, Regulars into a City or Colony."""
    board = state.rules.map
    return (
        ("tory" in entering and state.support(space) == "active_opposition"
         and not state.pieces(space, "tory"))
        or ("british_fort" in entering and board.is_colony(space)
            and not state.pieces(space, "british_fort"))
        or ("british_regular" in entering and (board.is_city(space) or board.is_colony(space)))
    )  # fmt: skip


def _militia_room(state: CoinState, space: str, entering: tuple[str, ...]) -> bool:
    """8.5's spaces: Underground Militia into Active Support or a Village space with
    none."""
    return (
        "militia" in entering
        and (state.support(space) == "active_support" or bool(state.pieces(space, "village")))
        and not state.pieces(space, "militia", "underground")
    )


def _village_beside_war_parties(state: CoinState, space: str, entering: tuple[str, ...]) -> bool:
    """8.7: a Village the Event places goes to a space that already has War Parties
    if possible."""
    return "village" in entering and state.pieces(space, "war_party") > 0


EVENT_BOXES: dict[str, EventBox] = {
    "british": _box(
        BRITISH,
        "8.4",
        _british_cities,
        "five Cities under British Control",
        {"the Event places Tories, a Fort or Regulars where they count": _british_room},
    ),
    "patriots": _box(
        PATRIOTS,
        "8.5",
        _patriot_pieces,
        "25 Patriot pieces on the map",
        {"the Event places Underground Militia where they count": _militia_room},
    ),
    "french": _box(
        FRENCH, "8.6", lambda o: o.before.flag("toa_played"), "the Treaty of Alliance played"
    ),
    "indians": _box(
        INDIANS,
        "8.7",
        lambda o: _on_map(o.before, "village") >= VILLAGES_ON_MAP,
        "four Villages on the map",
        {"the Event places a Village or grants a free Gather": _village_beside_war_parties},
    ),
}
