"""EU:PoP scenario decks: checking, preparing each Age, moving on, and the display.

A scenario set-up lists the Realms in play, its Ages, and per Age the events of the
first half, the second half, and the X-events with the half suggested for them
(16 "Preparing Event Decks", Optional Rule 6). :func:`check_scenario` returns every
problem with its rule; :func:`prepare_age` refuses a broken deck and otherwise
shuffles the halves (or, with Optional Rule 6, deals the X-events to equal stacks)
from an injected random source, so a seed replays. :func:`end_of_round` prepares
the next Age when the current one has run out; :func:`draw_display` lays out the
Event display of 16.2 and :func:`unpicked_event` settles 16.4.

>>> from legalis.model.core.randomness import LoggedRandom
>>> from legalis.model.eupop.events import load_catalogue
>>> catalogue, scenario = load_catalogue(), load_scenario("three_crowns")
>>> check_scenario(scenario, catalogue)
[]
>>> deck = new_deck(scenario, catalogue, LoggedRandom(1))
>>> deck.age, len(deck.cards)
(1, 18)
>>> display, deck = draw_display(deck, scenario.realms)
>>> len(display.slots), [slot.face_up for slot in display.slots]
(4, [True, True, True, False])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal, get_args

from legalis.model.core.documents import package_folder
from legalis.model.core.options import read_options, settable
from legalis.model.core.views import RandomSource
from legalis.model.errors import IllegalMoveError, InputError
from legalis.model.eupop.events import AGES, Catalogue, Symbol, read_toml

__all__ = [
    "A_EVENTS_PER_AGE",
    "ODD_X_CARD",
    "REALM_EVENTS_PER_AGE",
    "AgeDeck",
    "DeckOptions",
    "Display",
    "DisplaySlot",
    "EventDeck",
    "Problem",
    "RoundEnd",
    "RulerOffer",
    "Scenario",
    "Unpicked",
    "check_scenario",
    "deck_document",
    "draw_display",
    "end_of_round",
    "load_scenario",
    "new_deck",
    "prepare_age",
    "scenario_from_data",
    "scenario_names",
    "take_event",
    "unpicked_event",
]

A_EVENTS_PER_AGE = 8  # 16.1: "All scenarios must include 8 A-Events per Age."
REALM_EVENTS_PER_AGE = 2  # 16.1: "2 Realm-specific Events per Age for each" Realm
FACE_UP = 3  # 16.2: "The first 3 Events ... are placed face-up"
FACE_UP_REVEAL_MORE = 4  # Optional Rule 7: "reveal the first 4 Events instead of 3"
REVEAL_MORE_PLAYERS = 6  # Optional Rule 7: "in games with 6 players"
RULER_COST = 2  # 16.4: "may pay 2 a to appoint the Ruler"
# Optional Rule 6 with an odd number of cards: which stack gets the extra one.
OddXCard = Literal["first_half", "second_half", "random"]
ODD_X_CARD: tuple[OddXCard, ...] = get_args(OddXCard)
PREPARING = "16 Preparing Event Decks"
OPTIONAL_6 = "Optional Rule 6"

Half = Literal["1", "2"]


@dataclass(frozen=True, slots=True)
class AgeSetup:
    """One Age of a scenario: the listed halves and the X-events' suggested halves."""

    first_half: tuple[str, ...]
    second_half: tuple[str, ...]
    x: tuple[tuple[str, Half], ...]

    def ids(self) -> list[str]:
        return [*self.first_half, *self.second_half, *(event for event, _ in self.x)]


@dataclass(frozen=True)
class Scenario:
    """A scenario set-up: its name, the Player Realms in play, its Ages in order."""

    name: str
    realms: tuple[str, ...]
    ages: Mapping[int, AgeSetup]


@dataclass(frozen=True, slots=True)
class Problem:
    """One fault of a scenario's deck: the rule it breaks, the Age, and what is wrong."""

    rule: str
    age: int
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "age": self.age, "message": self.message}

    def __str__(self) -> str:
        return f"Age {self.age}: {self.message} [{self.rule}]"


def _ids(value: object, source: str, path: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise InputError("expected a list of event ids", source=source, path=path)
    return tuple(value)


def scenario_from_data(data: Mapping[str, Any], *, source: str = "scenario") -> Scenario:
    """Build a scenario from parsed TOML; a malformed one is an :class:`InputError`
    with the path of the bad field (a well-formed but broken deck is left to
    :func:`check_scenario`)."""
    unknown = sorted(set(data) - {"name", "realms", "ages", "age"})
    if unknown:
        raise InputError(f"unknown field {unknown[0]!r}", source=source, path=unknown[0],
                         allowed=["name", "realms", "ages", "age"])  # fmt: skip
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise InputError("expected a name", source=source, path="name")
    realms = _ids(data.get("realms"), source, "realms")
    if not realms or len(set(realms)) != len(realms):
        raise InputError("expected distinct realms", source=source, path="realms")
    ages = data.get("ages")
    if not isinstance(ages, list) or not ages or any(age not in AGES for age in ages):
        raise InputError(f"bad ages {ages!r}", source=source, path="ages", allowed=AGES)
    if ages != sorted(set(ages)):
        raise InputError("16: Ages enter play in chronological order, each once",
                         source=source, path="ages")  # fmt: skip
    sections = data.get("age", {})
    if not isinstance(sections, dict) or set(sections) != {str(age) for age in ages}:
        raise InputError("expected one [age.N] table per Age listed", source=source,
                         path="age", allowed=[str(age) for age in ages])  # fmt: skip
    setups: dict[int, AgeSetup] = {}
    for age in ages:
        section, path = sections[str(age)], f"age.{age}"
        if not isinstance(section, dict) or set(section) - {"first_half", "second_half", "x"}:
            raise InputError("expected first_half, second_half, x", source=source, path=path,
                             allowed=["first_half", "second_half", "x"])  # fmt: skip
        xs: list[tuple[str, Half]] = []
        raw_x = section.get("x", [])
        if not isinstance(raw_x, list):
            raise InputError("expected a list", source=source, path=f"{path}.x")
        for index, entry in enumerate(raw_x):
            where = f"{path}.x[{index}]"
            if not isinstance(entry, dict) or set(entry) != {"id", "half"}:
                raise InputError("expected { id, half }", source=source, path=where)
            if not isinstance(entry["id"], str):
                raise InputError("expected an event id", source=source, path=f"{where}.id")
            if entry["half"] not in ("1", "2"):
                raise InputError(f"bad half {entry['half']!r}", source=source,
                                 path=f"{where}.half", allowed=["1", "2"])  # fmt: skip
            xs.append((entry["id"], entry["half"]))
        setups[age] = AgeSetup(
            _ids(section.get("first_half", []), source, f"{path}.first_half"),
            _ids(section.get("second_half", []), source, f"{path}.second_half"),
            tuple(xs),
        )
    return Scenario(name, realms, setups)


def scenario_names() -> list[str]:
    """The bundled scenarios."""

    folder = package_folder("legalis.model.eupop").joinpath("scenarios")
    return sorted(item.name.removesuffix(".toml") for item in folder.iterdir()
                  if item.name.endswith(".toml"))  # fmt: skip


def load_scenario(name_or_path: str | Path) -> Scenario:
    """Load a bundled scenario by name, or a scenario TOML file by path."""
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.exists():
        data, source = read_toml(path, "")
    else:
        if str(name_or_path) not in scenario_names():
            raise InputError(f"no scenario {str(name_or_path)!r}", path="scenario",
                             allowed=scenario_names())  # fmt: skip
        data, source = read_toml(None, f"scenarios/{name_or_path}.toml")
    return scenario_from_data(data, source=source)


def check_scenario(
    scenario: Scenario, catalogue: Catalogue, ages: Sequence[int] | None = None
) -> list[Problem]:
    """Every problem of the scenario's deck in the given Ages (all by default).

    Checked: 8 A-events per Age and 2 Realm-specific events per Age for each Realm
    in play, and none of another Realm (16.1); each event of the Age it is listed
    in (16.1: the first digit is the Age); every id known and listed once
    (16 Preparing Event Decks); the (1) and (2) cards in their half, the (X) cards
    among the X-events (Optional Rule 6).
    """
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    for realm in scenario.realms:
        if realm not in catalogue.realms:
            problems.append(Problem("16.1", min(scenario.ages), f"realm {realm} is not in the "
                                    "catalogue's realm table"))  # fmt: skip
    for age in ages if ages is not None else scenario.ages:
        setup = scenario.ages.get(age)
        if setup is None:
            problems.append(Problem(PREPARING, age, f"the scenario has no Age {age}"))
            continue
        listed = setup.ids()
        for event_id, count in Counter(listed).items():
            if count > 1 or event_id in seen:
                problems.append(Problem(PREPARING, age, f"{event_id} is listed more than once"))
            seen[event_id] = age
        known = []
        for event_id in dict.fromkeys(listed):
            if event_id not in catalogue.events:
                problems.append(Problem(PREPARING, age, f"{event_id} is not in the catalogue"))
            else:
                known.append(catalogue.events[event_id])
        for event in known:
            if event.age != age:
                problems.append(Problem("16.1", age, f"{event.id.text} belongs to Age "
                                        f"{event.age}"))  # fmt: skip
        a_events = sum(1 for event in known if event.kind == "A")
        if a_events != A_EVENTS_PER_AGE:
            problems.append(Problem("16.1", age, f"{a_events} A-events; exactly "
                                    f"{A_EVENTS_PER_AGE} are needed"))  # fmt: skip
        per_realm = Counter(event.realm for event in known if event.kind == "realm")
        for realm in scenario.realms:
            if per_realm[realm] != REALM_EVENTS_PER_AGE:
                message = f"{per_realm[realm]} realm events of {realm}; exactly "
                problems.append(Problem("16.1", age, f"{message}{REALM_EVENTS_PER_AGE} are needed"))
        for other in sorted(set(per_realm) - set(scenario.realms), key=str):
            problems.append(Problem("16.1", age, f"{per_realm[other]} realm events of {other}, "
                                    "which is not in play"))  # fmt: skip
        placed = [(e, "1") for e in setup.first_half] + [(e, "2") for e in setup.second_half]
        for event_id, half in placed:
            marked = catalogue.events.get(event_id)
            if marked is not None and marked.half != half:
                problems.append(Problem(OPTIONAL_6, age, f"{event_id} is marked ({marked.half}) "
                                        f"but listed in half {half}"))  # fmt: skip
        for event_id, _ in setup.x:
            marked = catalogue.events.get(event_id)
            if marked is not None and marked.half != "X":
                problems.append(Problem(OPTIONAL_6, age, f"{event_id} is marked ({marked.half}) "
                                        "but listed among the X-events"))  # fmt: skip
    return problems


@dataclass(frozen=True, slots=True)
class AgeDeck:
    """One Age's prepared deck: the two halves, each top first."""

    age: int
    first_half: tuple[str, ...]
    second_half: tuple[str, ...]
    randomized_x: bool = False

    @property
    def cards(self) -> tuple[str, ...]:
        """The deck, top first: the first half on top of the second (16)."""
        return self.first_half + self.second_half

    def to_json(self) -> dict[str, Any]:
        return {
            "age": self.age,
            "randomized_x": self.randomized_x,
            "first_half": list(self.first_half),
            "second_half": list(self.second_half),
            "deck": list(self.cards),
        }


def _refuse_broken(scenario: Scenario, catalogue: Catalogue, age: int) -> None:
    problems = check_scenario(scenario, catalogue, [age])
    if problems:
        raise InputError(
            "the deck is broken: " + "; ".join(map(str, problems)),
            source=scenario.name,
            path=f"age.{age}",
        )


def prepare_age(
    scenario: Scenario,
    catalogue: Catalogue,
    age: int,
    rng: RandomSource,
    *,
    randomize_x: bool = False,
    odd_x_card: str = "first_half",
) -> AgeDeck:
    """Prepare the deck of one Age (16 Preparing Event Decks).

    By default the halves listed in the set-up (each X-event in its suggested half)
    are shuffled separately and the first is put on top of the second. With
    ``randomize_x`` (Optional Rule 6) the (X) cards are shuffled and dealt to the (1)
    and (2) stacks so that both have the same size; with an odd total, ``odd_x_card``
    says which stack takes the extra card (``docs/rules-questions.md``). A broken
    deck (:func:`check_scenario`) is refused with an :class:`InputError`.
    """
    if odd_x_card not in ODD_X_CARD:
        raise InputError(f"bad value {odd_x_card!r}", path="odd_x_card", allowed=ODD_X_CARD)
    _refuse_broken(scenario, catalogue, age)
    setup = scenario.ages[age]
    first, second = list(setup.first_half), list(setup.second_half)
    if not randomize_x:
        first += [event for event, half in setup.x if half == "1"]
        second += [event for event, half in setup.x if half == "2"]
    else:
        xs = [event for event, _ in setup.x]
        rng.shuffle(xs)  # Optional Rule 6: "shuffle the (X) cards before distributing"
        total = len(first) + len(second) + len(xs)
        size = total // 2
        if total % 2 and (
            odd_x_card == "first_half" or (odd_x_card == "random" and rng.randrange(2) == 0)
        ):
            size += 1
        # As near equal as the marked cards allow: all X-cards to one stack at worst.
        to_first = min(len(xs), max(0, size - len(first)))
        first += xs[:to_first]
        second += xs[to_first:]
    rng.shuffle(first)
    rng.shuffle(second)
    return AgeDeck(age, tuple(first), tuple(second), randomized_x=randomize_x)


@dataclass(frozen=True, slots=True)
class EventDeck:
    """The Event Deck in play: the current Age, its cards top first, the Ages to come."""

    age: int
    cards: tuple[str, ...]
    ages_left: tuple[int, ...]
    prepared: tuple[AgeDeck, ...] = ()


@dataclass(frozen=True, slots=True)
class DeckOptions:
    """The rule options of deck preparation: ``randomize_x`` (Optional Rule 6) and
    ``odd_x_card`` (``docs/rules-questions.md``).

    >>> DeckOptions.from_json({"randomize_x": "true", "odd_x_card": "random"})
    DeckOptions(randomize_x=True, odd_x_card='random')
    """

    randomize_x: bool = False
    odd_x_card: OddXCard = "first_half"

    @classmethod
    def from_json(cls, raw: Mapping[str, Any] | None, *, path: str = "options") -> DeckOptions:
        """The options named in ``raw`` (name to value, values also as text), the rest
        at their defaults; an unknown name or value is an :class:`InputError`."""
        return read_options(cls(), raw, path=path, groups=dict.fromkeys(settable(cls), ""))


def new_deck(
    scenario: Scenario,
    catalogue: Catalogue,
    rng: RandomSource,
    options: DeckOptions = DeckOptions(),
) -> EventDeck:
    """The deck at the start of the game: the scenario's first Age, prepared."""
    first, *rest = sorted(scenario.ages)
    prepared = prepare_age(scenario, catalogue, first, rng, randomize_x=options.randomize_x,
                           odd_x_card=options.odd_x_card)  # fmt: skip
    return EventDeck(first, prepared.cards, tuple(rest), (prepared,))


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """What :func:`end_of_round` did: the deck, the Age it prepared (if any), why."""

    deck: EventDeck
    prepared_age: int | None
    message: str


def end_of_round(
    deck: EventDeck,
    scenario: Scenario,
    catalogue: Catalogue,
    rng: RandomSource,
    options: DeckOptions = DeckOptions(),
) -> RoundEnd:
    """At the end of a Round, with no Event of the current Age left in the deck,
    prepare the next Age for the next Round (16); say what was done.

    >>> from legalis.model.core.randomness import LoggedRandom
    >>> from legalis.model.eupop.events import load_catalogue
    >>> scenario, catalogue = load_scenario("three_crowns"), load_catalogue()
    >>> deck = EventDeck(1, (), (2,))
    >>> end_of_round(deck, scenario, catalogue, LoggedRandom(0)).message
    'no Event of Age 1 remains: Age 2 prepared (18 Events)'
    """
    if deck.cards:
        return RoundEnd(deck, None, f"{len(deck.cards)} Events of Age {deck.age} remain")
    if not deck.ages_left:
        return RoundEnd(deck, None, f"no Event of Age {deck.age} remains and no Age follows")
    age, *rest = deck.ages_left
    prepared = prepare_age(scenario, catalogue, age, rng, randomize_x=options.randomize_x,
                           odd_x_card=options.odd_x_card)  # fmt: skip
    new = EventDeck(age, prepared.cards, tuple(rest), (*deck.prepared, prepared))
    return RoundEnd(new, age, f"no Event of Age {deck.age} remains: Age {age} prepared "
                    f"({len(prepared.cards)} Events)")  # fmt: skip


@dataclass(frozen=True, slots=True)
class DisplaySlot:
    """A place in the Event display (16.2): the event, whether it is face up, and
    the player who took it."""

    event: str
    face_up: bool
    taken_by: str | None = None


@dataclass(frozen=True, slots=True)
class Display:
    """The Event display of a Round (16.2), left to right, and its players."""

    slots: tuple[DisplaySlot, ...]
    players: tuple[str, ...]

    def to_json(self) -> list[dict[str, Any]]:
        return [
            {"event": slot.event, "face_up": slot.face_up, "taken_by": slot.taken_by}
            for slot in self.slots
        ]


def draw_display(
    deck: EventDeck, players: Sequence[str], *, reveal_more: bool = False
) -> tuple[Display, EventDeck]:
    """Draw players + 1 Events from the top of the deck into the display (16.2); the
    first 3 face up, or 4 with ``reveal_more`` (Optional Rule 7) in a 6-player game.
    With fewer Events left in the Age, the display holds those that remain."""
    if not players or len(set(players)) != len(players):
        raise InputError("expected distinct players", path="players")
    count = len(players) + 1  # 16.2: "the number of players plus 1"
    face_up = FACE_UP
    if reveal_more and len(players) == REVEAL_MORE_PLAYERS:
        face_up = FACE_UP_REVEAL_MORE
    drawn, rest = deck.cards[:count], deck.cards[count:]
    slots = tuple(DisplaySlot(event, index < face_up) for index, event in enumerate(drawn))
    return Display(slots, tuple(players)), replace(deck, cards=rest)


def take_event(display: Display, index: int, player: str) -> tuple[Display, str]:
    """A player takes the Event at ``index``; a face-down Event is revealed (16.2)."""
    if player not in display.players:
        raise InputError(f"unknown player {player!r}", path="player", allowed=display.players)
    if not 0 <= index < len(display.slots):
        raise IllegalMoveError(f"no Event at position {index}", rule="16.2")
    if any(slot.taken_by == player for slot in display.slots):
        raise IllegalMoveError(f"{player} has taken an Event this Round", rule="16.2")
    slot = display.slots[index]
    if slot.taken_by is not None:
        raise IllegalMoveError(f"{slot.event} was taken by {slot.taken_by}", rule="16.2")
    slots = list(display.slots)
    slots[index] = DisplaySlot(slot.event, True, player)
    return replace(display, slots=tuple(slots)), slot.event


@dataclass(frozen=True, slots=True)
class RulerOffer:
    """16.4: the player of the Ruler's Realm may pay ``cost`` to appoint it."""

    player: str
    ruler: str
    realm: str
    cost: int = RULER_COST
    rule: str = "16.4"


@dataclass(frozen=True, slots=True)
class Unpicked:
    """The unpicked Event (16.4): it does not take effect; the Ruler offer, if any,
    and its symbols in order, to auto-resolve with no Active player (16.5)."""

    event: str
    offer: RulerOffer | None
    symbols: tuple[Symbol, ...]
    active_player: None = None
    rule: str = "16.4"

    def to_json(self) -> dict[str, Any]:
        offer = self.offer
        return {
            "event": self.event,
            "rule": self.rule,
            "offer": None
            if offer is None
            else {
                "player": offer.player,
                "ruler": offer.ruler,
                "realm": offer.realm,
                "cost": offer.cost,
                "rule": offer.rule,
            },
            "auto_resolve": [symbol.to_json() for symbol in self.symbols],
            "active_player": None,
        }


def unpicked_event(
    display: Display, catalogue: Catalogue, realm_of_player: Mapping[str, str] | None = None
) -> Unpicked | None:
    """After every player has taken an Event, the one left on display (16.4); None
    when none is left. ``realm_of_player`` maps players to their Realms (by default a
    player is named by its Realm)."""
    if any(not any(s.taken_by == p for s in display.slots) for p in display.players):
        raise IllegalMoveError("not every player has taken an Event yet", rule="16.4")
    left = [slot.event for slot in display.slots if slot.taken_by is None]
    if not left:
        return None
    event = catalogue.events[left[0]]
    owners = realm_of_player or {player: player for player in display.players}
    offer = None
    if event.ruler is not None:
        player = next((p for p, realm in owners.items() if realm == event.ruler.realm), None)
        if player is not None:
            offer = RulerOffer(player, event.ruler.name, event.ruler.realm)
    return Unpicked(event.id.text, offer, event.symbols)


def deck_document(
    scenario: Scenario,
    catalogue: Catalogue,
    seed: int,
    *,
    ages: Sequence[int] | None = None,
    options: DeckOptions = DeckOptions(),
    players: int | None = None,
) -> tuple[dict[str, Any], list[Problem]]:
    """The prepared deck of each of ``ages`` (default: all the scenario's) from
    ``seed`` and the deck ``options``, the first display (16.2) for ``players``
    players (default: one per Realm of the scenario), and the deck's problems
    (16.1). With problems, no deck is prepared: the document holds the problems only.

    >>> from legalis.model.eupop.events import load_catalogue
    >>> body, problems = deck_document(load_scenario("three_crowns"), load_catalogue(), 1)
    >>> problems, [age["age"] for age in body["ages"]], len(body["display"])
    ([], [1, 2], 4)
    """
    from legalis.model.core.randomness import LoggedRandom

    chosen = sorted(scenario.ages) if ages is None else list(ages)
    problems = check_scenario(scenario, catalogue, chosen)
    body: dict[str, Any] = {"scenario": scenario.name, "seed": seed,
                            "problems": [problem.to_json() for problem in problems]}  # fmt: skip
    if problems:
        return body, problems
    rng = LoggedRandom(seed)
    decks = [prepare_age(scenario, catalogue, a, rng, randomize_x=options.randomize_x,
                         odd_x_card=options.odd_x_card) for a in chosen]  # fmt: skip
    count = players if players is not None else len(scenario.realms)
    names = [*scenario.realms, *(f"player{n}" for n in range(len(scenario.realms), count))]
    display, _ = draw_display(EventDeck(decks[0].age, decks[0].cards, ()), names[:count])
    body["ages"] = [deck.to_json() for deck in decks]
    body["display"] = display.to_json()
    return body, problems
