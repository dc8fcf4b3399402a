"""Shared helpers for the Seven Years War model tests.

The helpers here are deliberately independent of the engine's rule code: the
card list is transcribed from the CARD LIST of the rules, and the legal moves of
a decision are worked out from that list and the state's JSON alone. Tests
compare the engine against them.

Tests reach the helpers through the fixture ``h``.
"""

from __future__ import annotations

import json
import random
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import pytest
from legalis.model.sevenyears.data import load_data
from legalis.model.sevenyears.moves import move_from_json, move_to_json
from legalis.model.sevenyears.options import SevenYearsOptions
from legalis.model.sevenyears.state import SevenYearsState, state_from_json

# The CARD LIST of the rules: name | copies | force (a trailing * is the Difficulty
# mark; X and Z are effect cards) | use | location.
CARD_LIST = """\
Clive of India|1|7|B|I
Native Troops|4|3|A|C
Frederic the Great|1|7|B|E
Prussian Armies|2|6|B|E
William Pitt|1|Z|B|-
Empress Maria|1|Z|F|-
French Armies|2|5|F|E
European Allies|2|4|A|E
Austrian Armies|1|5|F|E
Forts|4|4|A|A
Sieges|4|5|A|A
Corruption|1|X|A|-
Incompetence|1|X|A|-
Louis XV|1|X|B|-
King George|1|X|F|-
General Wolfe|1|5|B|N
General Montcalm|1|4|F|N
Fleet|2|5|A|C
Ships of the Line|2|5|A|C
Naval Superiority|2|6|B|C
Intrigue|2|3*|A|A
Russian Armies|1|4|F|E
Hanover|1|4|B|E
Expedition|4|4|A|C
Disease|4|1*|A|C
Isolated|1|1*|B|C
Privateers|2|4|A|C
East India Company|1|5|B|I
The Dutch|1|3|F|I
Mercenary Troops|2|3|A|A
Nawabs|2|4|A|I
Low Level Conflict|2|X|A|-
Atrocity|2|Z|A|-
Garrison|4|1|A|C
Surrender|2|1*|A|A
General Barrington|1|5|B|W
Exploit Opportunity|2|Z|A|-
Spain|1|3|F|W
Minorca|1|X|F|-
West Africa|1|X|B|-
New France|1|4|F|N
American Colonies|1|5|B|N
European Armies|2|4|A|A
Diplomacy|2|1*|A|A
Balance of Power|2|Z|L|-
Trade Route Profits|2|Z|V|-
Attack Ally|2|X|A|-
Deception|2|4|A|A
Countermarches|2|4|A|E
"""

# CAMPAIGN GRID: the JSON key of each area and its letter in the card list.
AREA_LETTER = {"europe": "E", "north_america": "N", "india": "I", "west_indies": "W"}
AREAS = tuple(AREA_LETTER)
COLONIAL = ("north_america", "india", "west_indies")
PLAYERS = ("british", "french")
PHASE_ORDER = ("plan", "execute", "turmoil", "conflict", "difficulty", "resolve", "aftermath")


@dataclass(frozen=True)
class Card:
    name: str
    copies: int
    force: int  # 0 for X and Z cards
    effect: str  # "", "X" or "Z"
    use: str
    location: str
    star: bool


def _parse_card_list() -> dict[str, Card]:
    cards = {}
    for line in CARD_LIST.splitlines():
        name, copies, force, use, location = line.split("|")
        effect = force if force in ("X", "Z") else ""
        star = force.endswith("*")
        value = 0 if effect else int(force.rstrip("*"))
        cards[name] = Card(name, int(copies), value, effect, use, location, star)
    return cards


def other(player: str) -> str:
    return PLAYERS[1 - PLAYERS.index(player)]


class Helpers:
    """Independent rules, seeded play and hand-built states."""

    # a hand of nine different cards
    NINE_DISTINCT = (
        "Forts", "Sieges", "Fleet", "Garrison", "Nawabs", "Spain", "Hanover", "Disease", "Intrigue",
    )  # fmt: skip

    def __init__(self) -> None:
        self.cards = _parse_card_list()
        self.data = load_data()
        self._openings: dict[SevenYearsOptions | None, SevenYearsState] = {}

    def new_state(self, options: SevenYearsOptions | None = None) -> SevenYearsState:
        """A fresh opening position; copies of one opening share its compiled rules."""
        if options == SevenYearsOptions():
            options = None
        if options not in self._openings:
            self._openings[options] = SevenYearsState.new(options)
        return self._openings[options].copy()

    # ---------------------------------------------------------------- cards

    def full_deck(self) -> Counter[str]:
        return Counter({card.name: card.copies for card in self.cards.values()})

    def cards_everywhere(self, j: dict[str, Any]) -> Counter[str]:
        """Every card a state's JSON holds: deck, discard, hands and grid."""
        found = Counter(j["deck"]) + Counter(j["discard"])
        for player in PLAYERS:
            found += Counter(j["hands"][player])
        for cells in j["grid"].values():
            found += Counter(cell["card"] for cell in cells)
        return found

    # ---------------------------------------------------------------- independent rules

    def status(self, j: dict[str, Any], player: str) -> tuple[bool, bool]:
        """(Winning, Losing) from the medal totals; a tie makes nobody (or both, per option)."""
        mine = sum(j["medals"][player].values())
        theirs = sum(j["medals"][other(player)].values())
        if mine == theirs:
            both = j["options"]["tied_medals_status"] == "both"
            return both, both
        return mine > theirs, mine < theirs

    def may_use(self, j: dict[str, Any], player: str, name: str) -> bool:
        use = self.cards[name].use
        winning, losing = self.status(j, player)
        return (
            use == "A"
            or (use == "B" and player == "british")
            or (use == "F" and player == "french")
            or (use == "L" and losing)
            or (use == "V" and winning)
        )

    def covers(self, name: str, area: str) -> bool:
        location = self.cards[name].location
        return location in ("A", AREA_LETTER[area]) or (location == "C" and area in COLONIAL)

    def may_lay(self, j: dict[str, Any], player: str, name: str, area: str) -> bool:
        card = self.cards[name]
        if j["campaigns"][area] is not None or not self.may_use(j, player, name):
            return False
        if card.effect:
            return bool(j["options"]["effect_cards_in_conflict"])
        return self.covers(name, area)

    def expected_moves(self, j: dict[str, Any]) -> list[dict[str, Any]]:
        """The legal moves of the decision a state's JSON awaits, as move JSON.

        Chance shuffles are not listed (they are counted by :meth:`shuffle_count`).
        """
        pending = j["pending"]
        kind = pending["kind"]
        if kind == "over":
            return []
        if kind == "coin":
            return [{"type": "coin_flip", "winner": p} for p in PLAYERS]
        if kind == "execute":
            player = pending["player"]
            hand = j["hands"][player]
            picks = {
                tuple(sorted(hand[i] for i in chosen))
                for size in range(min(5, len(hand)) + 1)
                for chosen in combinations(range(len(hand)), size)
            }
            return [
                {"type": "execute_discard", "player": player, "cards": list(p)}
                for p in sorted(picks)
            ]
        if kind == "random_discard":
            player = pending["player"]
            hand = j["hands"][player]
            picks = {
                tuple(sorted(hand[i] for i in c))
                for c in combinations(range(len(hand)), pending["cards"])
            }
            return [
                {"type": "random_discard", "player": player, "cards": list(p)}
                for p in sorted(picks)
            ]
        if kind == "turmoil":
            player = pending["player"]
            moves: list[dict[str, Any]] = [{"type": "pass", "player": player}]
            for name in sorted(set(j["hands"][player])):
                if self.cards[name].effect and self.may_use(j, player, name):
                    moves.append({"type": "play_effect", "player": player, "card": name})
            return moves
        if kind == "conflict":
            player = pending["player"]
            moves = [{"type": "pass", "player": player}]
            for name in sorted(set(j["hands"][player])):
                for area in AREAS:
                    if self.may_lay(j, player, name, area):
                        moves.append({"type": "lay", "player": player, "card": name, "area": area})
            return moves
        if kind == "difficulty":
            victim, area = pending["victim"], pending["area"]
            names = sorted({cell["card"] for cell in j["grid"][area] if cell["player"] == victim})
            return [
                {
                    "type": "difficulty_discard",
                    "player": pending["player"],
                    "victim": victim,
                    "area": area,
                    "card": name,
                }
                for name in names
            ]
        raise ValueError(f"no independent listing for {kind!r}")

    def shuffle_count(self, j: dict[str, Any]) -> int:
        """Distinct orders of the discard pile, counted the long way (n! over the copies)."""
        total = 1
        for i in range(2, len(j["discard"]) + 1):
            total *= i
        for copies in Counter(j["discard"]).values():
            for i in range(2, copies + 1):
                total //= i
        return total

    def expected_engine_moves(self, state: SevenYearsState) -> set[Any]:
        return {move_from_json(m, self.data) for m in self.expected_moves(state.to_json())}

    def canon(self, move_json: dict[str, Any]) -> tuple[Any, ...]:
        """A hashable form of a move's JSON with card lists as sorted tuples."""
        return tuple(
            sorted(
                (k, tuple(sorted(v)) if isinstance(v, list) else v) for k, v in move_json.items()
            )
        )

    def to_json(self, move: Any) -> dict[str, Any]:
        return move_to_json(move, self.data)

    # ---------------------------------------------------------------- play

    def step(self, state: SevenYearsState, rng: random.Random) -> Any:
        """Play one random move (or chance outcome) in place and return it."""
        move = state.sample_chance(rng) if state.is_chance else state.legal_moves().random(rng)
        state.play(move)
        return move

    def play_until(
        self,
        predicate: Callable[[SevenYearsState], bool],
        seed: int,
        options: SevenYearsOptions | None = None,
        state: SevenYearsState | None = None,
    ) -> SevenYearsState | None:
        """Seeded random play until ``predicate`` holds; ``None`` if the game ends first."""
        rng = random.Random(seed)
        state = state if state is not None else self.new_state(options)
        while not predicate(state):
            if state.is_over:
                return None
            self.step(state, rng)
        return state

    def find(
        self,
        predicate: Callable[[SevenYearsState], bool],
        seeds: range = range(200),
        options: SevenYearsOptions | None = None,
    ) -> SevenYearsState:
        """The first state of the first seeded game that reaches ``predicate``."""
        for seed in seeds:
            state = self.play_until(predicate, seed, options)
            if state is not None:
                return state
        raise AssertionError("no seeded game reaches the wanted position")

    def game_states(
        self, seed: int, options: SevenYearsOptions | None = None
    ) -> Iterator[SevenYearsState]:
        """Every state of one seeded random game, the final one included (copies)."""
        rng = random.Random(seed)
        state = self.new_state(options)
        yield state.copy()
        while not state.is_over:
            self.step(state, rng)
            yield state.copy()

    def chance(self, state: SevenYearsState) -> Any:
        """A chance outcome fixed by the state itself, so equal states draw alike."""
        text = json.dumps(state.to_json(), sort_keys=True)
        return state.sample_chance(random.Random(zlib.crc32(text.encode())))

    # ---------------------------------------------------------------- hand-built states

    def build(
        self,
        *,
        phase: str,
        step: int = 0,
        turn: int = 1,
        options: dict[str, Any] | None = None,
        hands: dict[str, list[str]] | None = None,
        grid: dict[str, list[tuple[str, str]]] | None = None,
        medals: dict[str, dict[str, int]] | None = None,
        campaigns: dict[str, str] | None = None,
        draws: list[str] | tuple[str, ...] = (),
        discard: list[str] | tuple[str, ...] = (),
        rest: str = "deck",
        current: str | None = None,
        active: dict[str, bool] | None = None,
        passes: int = 0,
        execute_queue: list[str] | tuple[str, ...] = (),
        owed_draws: list[dict[str, Any]] | tuple[dict[str, Any], ...] = (),
        owed_random: list[dict[str, Any]] | tuple[dict[str, Any], ...] = (),
    ) -> SevenYearsState:
        """A state from hand-written contents, loaded through ``state_from_json``.

        ``draws`` are the cards at the top of the deck in the order they will be
        drawn; every card not placed anywhere goes to the bottom of the deck
        (``rest="deck"``) or to the discard pile (``rest="discard"``).
        """
        return state_from_json(
            self.build_json(**{k: v for k, v in locals().items() if k != "self"})
        )

    def build_json(self, **fields: Any) -> dict[str, Any]:
        opts = SevenYearsOptions(**(fields.get("options") or {}))
        j = self.new_state(opts).to_json()
        hands = {p: list((fields.get("hands") or {}).get(p, [])) for p in PLAYERS}
        grid: dict[str, list[dict[str, Any]]] = {area: [] for area in AREAS}
        serial = 0
        for area, cells in (fields.get("grid") or {}).items():
            for player, name in cells:
                grid[area].append({"serial": serial, "player": player, "card": name})
                serial += 1
        medals = {
            p: {a: (fields.get("medals") or {}).get(p, {}).get(a, 0) for a in AREAS}
            for p in PLAYERS
        }
        campaigns = {a: (fields.get("campaigns") or {}).get(a) for a in AREAS}
        draws = list(fields.get("draws", ()))
        discard = list(fields.get("discard", ()))
        placed = (
            Counter(draws) + Counter(discard) + Counter(hands["british"]) + Counter(hands["french"])
        )
        placed += Counter(cell["card"] for cells in grid.values() for cell in cells)
        missing = placed - self.full_deck()
        assert not missing, f"the hand-built state uses more copies than the deck has: {missing}"
        rest = sorted((self.full_deck() - placed).elements())
        deck = list(reversed(draws))
        if fields.get("rest", "deck") == "deck":
            deck = rest + deck
        else:
            discard = discard + rest
        j.update(
            turn=fields.get("turn", 1),
            phase=fields["phase"],
            step=fields.get("step", 0),
            deck=deck,
            discard=discard,
            hands=hands,
            grid=grid,
            medals=medals,
            campaigns=campaigns,
            owed_draws=list(fields.get("owed_draws", ())),
            owed_random_discards=list(fields.get("owed_random", ())),
            execute_queue=list(fields.get("execute_queue", ())),
            current=fields.get("current"),
            active=fields.get("active") or {p: False for p in PLAYERS},
            passes=fields.get("passes", 0),
            difficulty_queue=[],
            serial=serial,
            result=None,
        )
        del j["pending"], j["to_move"]
        return j


@pytest.fixture(scope="module")
def h() -> Helpers:
    return Helpers()
