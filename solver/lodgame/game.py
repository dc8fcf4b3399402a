"""Liberty or Death as a registered game: options, states, moves and their JSON,
the seats, and what a person reads.

>>> game = LodGame({"scenario": "1775"})
>>> state = game.new_initial_state()
>>> game.name, state.to_move, game.summary(state)["scenario"]
('lod', 'chance', '1775')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from legalis.model.coin.deck import Card
from legalis.model.core.views import RandomSource
from legalis.model.errors import SolverLimitError
from legalis.model.lod.battle import BlockadeShift
from legalis.model.lod.command_base import RESOURCES, Command
from legalis.model.lod.special import SpecialActivity
from legalis.model.lod.victory import check_margins
from legalis.solver.events import describe_steps
from legalis.solver.lodgame.json import state_from_json
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
    move_from_json,
    move_to_json,
)
from legalis.solver.lodgame.rules import FACTIONS, LodOptions, LodRules
from legalis.solver.lodgame.seats import NonplayerSeat
from legalis.solver.lodgame.state import LodState

__all__ = ["SEAT_KINDS", "LodGame"]

SEAT_KINDS = ("human", "nonplayer", "random", "greedy")
GREEDY_SAMPLE = 12  # moves the greedy seat weighs at a decision


class LodGame:
    """Liberty or Death from a scenario, with its options (:class:`LodOptions`)."""

    name = "lod"
    title = "Liberty or Death"
    players = FACTIONS
    seat_kinds: tuple[str, ...] = SEAT_KINDS

    def __init__(self, options: Mapping[str, Any] | LodOptions | None = None) -> None:
        self.options = options if isinstance(options, LodOptions) else LodOptions.from_json(options)
        self.rules = LodRules.build(self.options)

    def new_initial_state(self) -> LodState:
        """The scenario's set-up, before the deck is prepared (a chance move, 2.1)."""
        return LodState(self.rules, self.rules.scenario.state.copy())

    def state_from_json(self, raw: Any, *, source: str | None = None) -> LodState:
        return state_from_json(raw, self.rules, source=source)

    def move_from_json(self, raw: Any) -> Any:
        return move_from_json(raw)

    def move_to_json(self, move: Any) -> dict[str, Any]:
        return move_to_json(move)

    def schemas(self) -> dict[str, dict[str, Any]]:
        """JSON Schemas (Draft 2020-12) of a whole game's state and of a move.

        >>> found = LodGame().schemas()
        >>> found["state"]["properties"]["game"]["const"], found["move"]["title"]
        ('lod', 'LodMove')
        """
        # pydantic builds the schemas; play never needs it, so it loads only here
        from legalis.solver.lodgame.schema import lod_schemas

        return lod_schemas()

    def nonplayer_seat(self, faction: str) -> NonplayerSeat:
        """The seat that plays ``faction`` by section 8."""
        return NonplayerSeat(self, faction)

    # ------------------------------------------------------------------ people

    def move_group(self, move: Any) -> str:
        """The heading a person's list shows the move under."""
        if isinstance(move, Fight):
            return "Command: Battle"
        if isinstance(move, Command):
            return f"Command: {_words(move.name)}" + (" (Limited)" if move.limited else "")
        if isinstance(move, SpecialActivity):
            return f"Special Activity: {_words(move.name)}"
        if isinstance(move, PlayEvent):
            return f"Event ({move.event.side})"
        return type(move).__name__

    def describe_move(self, move: Any) -> str:
        """One line for people, e.g. ``british: Pass (+2 Resources)``."""
        if isinstance(move, Prepare):
            return f"the deck is prepared: {len(move.order)} cards"
        if isinstance(move, Roll):
            return f"the card's dice are rolled (seed {move.seed})"
        if isinstance(move, Pass):
            return f"{move.faction}: Pass"
        if isinstance(move, Stroke):
            return f"{move.faction}: play the {move.card}"
        if isinstance(move, Decline):
            return f"{move.faction}: hold the Brilliant Stroke"
        if isinstance(move, Done):
            return f"{move.faction}: end the action"
        if isinstance(move, Redeploy):
            return f"{move.faction}: the Leader to {move.space}"
        if isinstance(move, PlayEvent):
            event = move.event
            return f"{move.faction}: {event.side} Event of card {event.card}: " + describe_steps(
                event.steps
            )
        if isinstance(move, Fight | During):
            during = f", with {_words(move.special.name)}" if isinstance(move, During) else ""
            return f"{move.faction}: " + _command_text(move.command) + during
        if isinstance(move, Command):
            return f"{move.faction}: " + _command_text(move)
        if isinstance(move, SpecialActivity):
            where = ", ".join(move.spaces)
            extra = f" ({move.option})" if move.option else ""
            return f"{move.faction}: {_words(move.name)}{extra}" + (f" in {where}" if where else "")
        if isinstance(move, BlockadeShift):
            return f"french: {move.count} Blockade(s) from {move.source} to {move.destination}"
        body = move_to_json(move)
        kind = body.pop("type")
        return f"{_words(kind)}: " + ", ".join(f"{k} {v}" for k, v in body.items())

    def describe_item(self, item: object) -> str:
        if isinstance(item, Card):
            return f"{item.number} {item.title}"
        return str(item)

    def describe_result(self, result: dict[str, Any] | None) -> str:
        if result is None:
            return "unfinished"
        winner = result.get("winner")
        head = f"{winner} win" if winner else "no winner"
        return f"{head} ({result.get('condition')}, {result.get('rule')}): {result.get('reason')}"

    def result_of(self, state: LodState) -> dict[str, Any] | None:
        return state.result

    def summary(self, state: LodState) -> dict[str, Any]:
        """Where the game stands: scenario, campaign, cards, eligibility, tracks."""
        coin = state.coin
        card, upcoming = state.card, state.next_card
        return {
            "scenario": self.options.scenario,
            "turn": state.turn,
            "phase": state.phase,
            "to_move": state.to_move,
            "card": None if card is None else {"number": card.number, "title": card.title},
            "next_card": (
                None if upcoming is None else {"number": upcoming.number, "title": upcoming.title}
            ),
            "cards_left": len(state.deck),
            "eligibility": {f: coin.eligibility(f) for f in FACTIONS},
            "resources": {f: coin.track(RESOURCES[f]) for f in FACTIONS},
            "tracks": {name: coin.track(name) for name in ("fni", "cbc", "crc")},
            "treaty_of_alliance": coin.flag("toa_played"),
            "brilliant_strokes": {f: state.held(f) for f in FACTIONS},
            "margins": {f: list(m) for f, m in check_margins(coin).items()},
            "nonplayers": list(self.options.nonplayers),
            "result": state.result,
        }

    def render(self, state: LodState, viewer: str | None = None) -> list[str]:
        """Lines for people: the card, who is Eligible, Resources and the margins."""
        info = self.summary(state)
        card, upcoming = info["card"], info["next_card"]
        lines = [
            f"Liberty or Death {self.options.scenario}, campaign {state.turn}: {state.phase}; "
            f"{state.to_move} to move",
            "  card: "
            + (f"{card['number']} {card['title']}" if card else "none")
            + ("; on deck: " + f"{upcoming['number']} {upcoming['title']}" if upcoming else ""),
        ]
        for faction in FACTIONS:
            margins = "/".join(str(m) for m in info["margins"].get(faction, []))
            held = ", ".join(info["brilliant_strokes"][faction]) or "-"
            lines.append(
                f"  {faction:<9} {info['eligibility'][faction]:<10} Resources "
                f"{info['resources'][faction]:>2}  margins {margins:<7} strokes: {held}"
            )
        tracks = info["tracks"]
        treaty = "played" if info["treaty_of_alliance"] else "not yet"
        lines.append(f"  FNI {tracks['fni']}  CBC {tracks['cbc']}  CRC {tracks['crc']}  "
                     f"Treaty of Alliance {treaty}")  # fmt: skip
        for line in state.log:
            lines.append(f"  | {line}")
        return lines

    # ------------------------------------------------------------------ greedy

    def greedy_move(self, state: LodState, rng: RandomSource) -> Any:
        """Of up to 12 legal moves drawn at random, the one after which the mover's
        two victory margins (7.2) add up highest (ties: the first drawn)."""
        view = state.legal_moves()
        try:
            total = view.count()
        except SolverLimitError:
            return next(iter(view))
        if total <= 1:
            return view.nth(0)
        faction = state.to_move
        picks = {rng.randrange(total) for _ in range(min(GREEDY_SAMPLE, total))}
        best, best_score = None, None
        for index in sorted(picks):
            move = view.nth(index)
            after = state.apply(move)
            score = sum(check_margins(after.coin).get(faction, (0, 0)))
            if best_score is None or score > best_score:
                best, best_score = move, score
        return best


def _words(name: str) -> str:
    return name.replace("_", " ").capitalize()


def _command_text(move: Command) -> str:
    parts = [_words(move.name)]
    if move.spaces:
        parts.append("in " + ", ".join(move.spaces))
    if move.amount:
        parts.append(f"paying {move.amount}")
    if move.moves:
        parts.append("moving " + "; ".join(f"{n} {p} {a}->{b}" for a, b, p, n in move.moves))
    if move.placed:
        parts.append("placing " + "; ".join(f"{n} {p} in {s}" for s, p, n in move.placed))
    flags = [word for word, on in (("Limited", move.limited), ("free", move.free)) if on]
    return " ".join(parts) + (f" ({', '.join(flags)})" if flags else "")
