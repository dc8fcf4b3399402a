"""The JSON documents of The Seven Years War as pydantic models.

:func:`state_document_model` describes a state as
:meth:`~legalis.model.sevenyears.state.SevenYearsState.to_json` writes it and
:func:`~legalis.model.sevenyears.state.state_from_json` reads it;
:func:`move_document_model` a move as
:func:`~legalis.model.sevenyears.moves.move_to_json` writes it and
:func:`~legalis.model.sevenyears.moves.move_from_json` reads it. Players, card
names, areas and phases are enums built from the loaded data; bounds (turns,
medals, discards) come from the rule numbers. The engine's readers stay the
authority: they also check what no schema can say, such as that the 88 cards are
all somewhere.

>>> from legalis.model.sevenyears.state import SevenYearsState
>>> State = state_document_model()
>>> State.model_validate(SevenYearsState.new().to_json()).phase
'plan'
>>> Move = move_document_model()
>>> Move.model_validate({"type": "lay", "player": "british", "card": "Forts", "area": "india"})
SevenYearsMove(root=Lay(type='lay', player='british', card='Forts', area='india'))
>>> Move.model_validate({"type": "pass", "player": "prussian"})
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for SevenYearsMove
pass.player
  Input should be 'british' or 'french' [type=literal_error, input_value='prussian', input_type=str]
...
"""

from __future__ import annotations

from dataclasses import fields as dataclass_fields
from functools import cache
from typing import Annotated, Any, Literal, cast

from legalis.model.core.document_models import (
    OMITTED,
    camel,
    closed_object,
    count,
    list_of,
    name_type,
    one_of,
)
from legalis.model.sevenyears.data import PLAYERS, SevenYearsData, area_key, load_data
from legalis.model.sevenyears.moves import MOVE_FIELDS
from legalis.model.sevenyears.options import CHOICES, FLAGS, SevenYearsOptions
from legalis.model.sevenyears.state import CONDITIONS, PHASES
from pydantic import BaseModel, Field, RootModel

__all__ = ["move_document_model", "state_document_model"]

SERIAL_MAX = 10**9  # the reader's bound on serial numbers of laid cards
TO_MOVE = (*PLAYERS, "chance", "none")


class _Names:
    """The enums and bounded numbers of one set of card data."""

    def __init__(self, data: SevenYearsData) -> None:
        self.data = data
        self.player = name_type("Player", PLAYERS)
        self.card = name_type("CardName", data.card_names())
        self.keys = [area_key(area) for area in data.areas]
        self.area = name_type("Area", self.keys)
        self.serial = count(0, SERIAL_MAX)


def _options_model() -> type[BaseModel]:
    defaults = {field.name: field.default for field in dataclass_fields(SevenYearsOptions)}
    spec: dict[str, tuple[Any, Any]] = {}
    for name, allowed in CHOICES.items():
        spec[name] = (name_type(f"Option{camel(name)}", allowed), defaults[name])
    for name in FLAGS:
        spec[name] = (bool, defaults[name])
    return closed_object(
        "Options",
        "The rule options (docs/rules-questions.md); an option left out takes its default.",
        spec,
    )


def _pending_model(n: _Names) -> Any:
    decision = closed_object(
        "PendingDecision",
        "A player's Execute, Turmoil or Conflict decision is due.",
        {
            "kind": (Literal["execute", "turmoil", "conflict"], ...),
            "player": (n.player, ...),
        },
    )
    difficulty = closed_object(
        "PendingDifficulty",
        "The player picks which of the victim's cards in the area a * card discards.",
        {
            "kind": (Literal["difficulty"], ...),
            "player": (n.player, ...),
            "victim": (n.player, ...),
            "area": (n.area, ...),
        },
    )
    random_discard = closed_object(
        "PendingRandomDiscard",
        "An X card makes the player discard this many cards at random.",
        {
            "kind": (Literal["random_discard"], ...),
            "player": (n.player, ...),
            "cards": (count(1, n.data.x_discards), ...),
        },
    )
    other = closed_object(
        "PendingOther",
        "A shuffle or a coin flip is due, or the game is over.",
        {"kind": (Literal["shuffle", "coin", "over"], ...)},
    )
    members = cast(Any, decision | difficulty | random_discard | other)
    return Annotated[members, Field(discriminator="kind")]


@cache
def state_document_model(data: SevenYearsData | None = None) -> type[BaseModel]:
    """The model of a state document for ``data`` (the bundled cards by default).

    >>> schema = state_document_model().model_json_schema()
    >>> schema["properties"]["turn"]["maximum"], len(schema["$defs"]["CardName"]["enum"])
    (7, 49)
    """
    n = _Names(data or load_data())
    d = n.data
    per_player = {
        "hands": ("Hands", "The cards in each player's hand.", list_of(n.card)),
        "active": (
            "Active",
            "Who is still in the Turmoil or Conflict phase (a pass may be final).",
            bool,
        ),
    }
    players: dict[str, type[BaseModel]] = {
        key: closed_object(title, doc, {p: (item, ...) for p in PLAYERS})
        for key, (title, doc, item) in per_player.items()
    }
    cell = closed_object(
        "GridCell",
        "A card laid face up on a Campaign Area; its serial orders the cards laid.",
        {"serial": (n.serial, ...), "player": (n.player, ...), "card": (n.card, ...)},
    )
    grid = closed_object(
        "Grid",
        "The cards laid on each Campaign Area, in the order laid.",
        {key: (list_of(cell), ...) for key in n.keys},
    )
    area_medals = closed_object(
        "AreaMedals",
        "One player's medals in each Campaign Area.",
        {key: (count(0, d.medals_per_player), ...) for key in n.keys},
    )
    medals = closed_object(
        "Medals", "Each player's medals per area.", {p: (area_medals, ...) for p in PLAYERS}
    )
    campaigns = closed_object(
        "Campaigns",
        "Who has won each Campaign (null: still open).",
        {key: (n.player | None, ...) for key in n.keys},
    )
    owed = closed_object(
        "Owed",
        "Cards a player still has to draw, or to discard at random.",
        {"player": (n.player, ...), "cards": (count(1, d.deck_size), ...)},
    )
    difficulty = closed_object(
        "DifficultyDue",
        "A * card's discard still to be made: the victim loses a card from the area.",
        {"area": (n.area, ...), "victim": (n.player, ...), "serial": (n.serial, ...)},
    )
    result = closed_object(
        "Result",
        "How the game ended: the winner (null: a draw) and the VICTORY condition.",
        {
            "winner": (n.player | None, ...),
            "condition": (name_type("Condition", CONDITIONS), ...),
        },
    )
    return closed_object(
        "SevenYearsState",
        "A state of The Seven Years War, as `legalis new` writes it. `pending` and "
        "`to_move` may be left out: the reader works them out, and refuses values "
        "that do not follow from the rest.",
        {
            "game": (Literal["sevenyears"], ...),
            "options": (_options_model() | None, ..., "null: every option at its default"),
            "turn": (count(1, d.turns), ...),
            "phase": (name_type("Phase", PHASES), ...),
            "step": (count(0, 2), ..., "The step reached in the phase"),
            "deck": (list_of(n.card), ..., "The draw deck; the last card is drawn first"),
            "discard": (list_of(n.card), ...),
            "hands": (players["hands"], ...),
            "grid": (grid, ...),
            "medals": (medals, ...),
            "campaigns": (campaigns, ...),
            "owed_draws": (list_of(owed), ...),
            "owed_random_discards": (list_of(owed), ...),
            "execute_queue": (list_of(n.player), ..., "Who still has to execute, in order"),
            "current": (n.player | None, ..., "The player on turn in Turmoil or Conflict"),
            "active": (players["active"], ...),
            "passes": (count(0, 2), ..., "Passes in a row (two_passes_in_a_row option)"),
            "difficulty_queue": (list_of(difficulty), ...),
            "serial": (n.serial, ..., "The serial number of the next card laid"),
            "pending": (_pending_model(n), OMITTED, "What the state waits for"),
            "to_move": (name_type("ToMove", TO_MOVE), OMITTED, "Who decides next"),
            "result": (result | None, ...),
        },
    )


@cache
def move_document_model(data: SevenYearsData | None = None) -> type[RootModel[Any]]:
    """The model of a move document for ``data`` (the bundled cards by default):
    one object per move type, told apart by ``type``.

    >>> schema = move_document_model().model_json_schema()
    >>> sorted(schema["discriminator"]["mapping"])[:3]
    ['coin_flip', 'difficulty_discard', 'execute_discard']
    """
    n = _Names(data or load_data())
    d = n.data
    # the move reader accepts an area's name and code as well as its key
    area = name_type("AreaName", [*n.keys, *(a.name for a in d.areas), *(a.code for a in d.areas)])
    values: dict[str, tuple[Any, str]] = {
        "player": (n.player, "The player who moves"),
        "victim": (n.player, "The player who loses the card"),
        "winner": (n.player, "The player who wins the coin flip"),
        "card": (n.card, "A card name"),
        "area": (area, "A Campaign Area"),
    }
    lists = {
        "execute_discard": (d.execute_max_discards, "The cards discarded"),
        "random_discard": (d.x_discards, "The cards discarded at random"),
        "shuffle": (d.deck_size, "The new deck; the last card is drawn first"),
    }
    docs = {
        "execute_discard": "Execute phase: discard these cards (none: keep the hand).",
        "play_effect": "Turmoil phase: play an X or Z card.",
        "lay": "Conflict phase: lay a card face up onto a Campaign Area.",
        "pass": "Turmoil or Conflict phase: play no card now.",
        "difficulty_discard": "Difficulty phase: which of the victim's cards in the area goes.",
        "shuffle": "Chance: the discard pile, shuffled, becomes the deck.",
        "coin_flip": "Chance: the winner of the coin flip.",
        "random_discard": "Chance: the cards an X card makes a player discard at random.",
    }
    members = []
    for kind, keys in MOVE_FIELDS.items():
        spec: dict[str, tuple[Any, Any] | tuple[Any, Any, str]] = {
            "type": (cast(Any, Literal)[kind], ...)
        }
        for key in keys:
            if key in ("cards", "order"):
                most, what = lists[kind]
                spec[key] = (list_of(n.card, max_length=most), ..., what)
            else:
                spec[key] = (values[key][0], ..., values[key][1])
        members.append(closed_object(camel(kind), docs[kind], spec))
    doc = "A move of The Seven Years War: a player's decision or a chance outcome."
    model: type[RootModel[Any]] = one_of("SevenYearsMove", doc, members)
    return model
