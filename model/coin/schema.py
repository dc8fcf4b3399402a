"""The JSON state document of a COIN game as a pydantic model, built from the game's data.

:func:`state_document_model` describes a state as
:meth:`~legalis.model.coin.state.CoinState.to_json` writes it and
:func:`~legalis.model.coin.state.state_from_json` reads it. Space, box, piece,
marker, track, flag, Faction, Leader and list names are enums of the game's data
files; piece counts are bounded by the inventory, marker counts by their pool,
tracks by their floor and cap. What the data fixes about a place is in the schema
too: an always-Neutral space shows only ``neutral``, and a piece a box may not hold,
or a marker a space or box may not carry, can only be 0 there. The engine's reader
stays the authority for what no schema can say (conservation, stacking, the side
rules that depend on flags).

>>> from legalis.model.coin.state import CoinState
>>> State = state_document_model("lod")
>>> State.model_validate(CoinState.new("lod").to_json()).game
'lod'
>>> raw = CoinState.new("lod").to_json()
>>> raw["spaces"]["Bostn"] = {}
>>> State.model_validate(raw)
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for LibertyOrDeathState
spaces.Bostn
  Extra inputs are not permitted [type=extra_forbidden, input_value={}, input_type=dict]
...
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal, cast, get_args

from legalis.model.coin.deck import SIDES
from legalis.model.coin.effects import (
    AtPhase,
    BattleModifier,
    CardAction,
    FreeAction,
    SetLasting,
)
from legalis.model.coin.gamedata import ELIGIBILITY, SUPPORT_LEVELS, GameData
from legalis.model.coin.state import END_ELIGIBILITY, CoinRules, rules_for
from legalis.model.core.document_models import (
    OMITTED,
    camel,
    closed_object,
    count,
    dict_of,
    list_of,
    name_type,
    unique_list,
)
from legalis.model.core.records import field_types
from pydantic import BaseModel, Field

__all__ = ["state_document_model"]

_Spec = tuple[Any, Any] | tuple[Any, Any, str]
_NONE_HERE = cast(Any, Literal[0])


def _not_here(what: str, rule: str) -> tuple[Any, Any, str]:
    return (_NONE_HERE, 0, f"{what} ({rule}): only 0")


def _literals(model: type[Any], field: str, *, none: bool = False) -> tuple[str, ...]:
    """The names a Literal field of an effect allows (without None)."""
    annotation = field_types(model)[field]
    if none:
        annotation = next(arg for arg in get_args(annotation) if arg is not type(None))
    return tuple(get_args(annotation))


class _Builder:
    """The models of one game's state document, sharing its enums."""

    def __init__(self, rules: CoinRules) -> None:
        self.rules = rules
        self.data: GameData = rules.data
        self.location = name_type("Location", rules.locations)
        self.support = name_type("SupportLevel", SUPPORT_LEVELS)
        by_status: dict[str, Any] = {}
        for piece in self.data.pieces:
            if len(piece.statuses) > 1:
                by_status[piece.id] = closed_object(
                    f"{camel(piece.id)}ByStatus",
                    f"{piece.name} on a map space, counted by status (a status left out: 0).",
                    {status: (count(0, piece.inventory), 0) for status in piece.statuses},
                )
        self.by_status = by_status

    def pool_size(self, marker_pool: str) -> int:
        return self.data.pool(marker_pool).count

    def space_pieces(self) -> type[BaseModel]:
        fields: dict[str, _Spec] = {}
        for piece in self.data.pieces:
            shape = self.by_status.get(piece.id, count(0, piece.inventory))
            fields[piece.id] = (shape, {} if piece.id in self.by_status else 0, piece.name)
        return closed_object(
            "SpacePieces",
            "The pieces on a map space; a type with several statuses is given per status.",
            fields,
        )

    def space_model(self, space_type: str, can_support: bool, name: str) -> type[BaseModel]:
        markers: dict[str, _Spec] = {}
        for marker in self.data.markers:
            if space_type in marker.space_types:
                markers[marker.id] = (count(0, self.pool_size(marker.pool)), 0, marker.name)
            else:
                markers[marker.id] = _not_here(
                    f"{marker.name} markers never lie on a {space_type}", marker.rule
                )
        marker_model = closed_object(
            f"{name}Markers", f"The markers on a {space_type} space.", markers
        )
        support: Any = self.support if can_support else Literal["neutral"]
        where = "" if can_support else f", always Neutral ({self.data.support_rule})"
        return closed_object(
            name,
            f"A {space_type} space{where}: Support, pieces and markers (each may be left out).",
            {
                "support": (support, "neutral"),
                "pieces": (self.pieces_model, {}),
                "markers": (marker_model, {}),
            },
        )

    def spaces(self) -> type[BaseModel]:
        self.pieces_model = self.space_pieces()
        infos = self.rules.info[: self.rules.n_spaces]
        kinds = sorted({(info.type, info.can_support) for info in infos}, key=str)
        types = [space_type for space_type, _ in kinds]
        models: dict[tuple[str, bool], type[BaseModel]] = {}
        for space_type, can_support in kinds:
            name = f"{camel(space_type)}Space"
            if types.count(space_type) > 1 and not can_support:
                name += "AlwaysNeutral"
            models[space_type, can_support] = self.space_model(space_type, can_support, name)
        return closed_object(
            "Spaces",
            "The map spaces; a space left out is Neutral and empty.",
            {info.name: (models[info.type, info.can_support], {}) for info in infos},
        )

    def boxes(self) -> type[BaseModel]:
        fields: dict[str, _Spec] = {}
        for box in self.data.boxes:
            pieces: dict[str, _Spec] = {}
            for piece in self.data.pieces:
                if piece.id in box.pieces:
                    pieces[piece.id] = (count(0, piece.inventory), 0, piece.name)
                else:
                    pieces[piece.id] = _not_here(f"{piece.name} may not be here", box.rule)
            markers: dict[str, _Spec] = {}
            for marker in self.data.markers:
                if box.name in marker.boxes:
                    markers[marker.id] = (count(0, self.pool_size(marker.pool)), 0, marker.name)
                else:
                    markers[marker.id] = _not_here(f"no {marker.name} markers here", marker.rule)
            prefix = camel(box.id)
            model = closed_object(
                f"{prefix}Box",
                f"The {box.name} box: pieces (a bare count each: no status in a box) and markers.",
                {
                    "pieces": (closed_object(f"{prefix}Pieces", f"In {box.name}.", pieces), {}),
                    "markers": (
                        closed_object(f"{prefix}Markers", f"In {box.name}.", markers),
                        {},
                    ),
                },
            )
            fields[box.name] = (model, {})
        return closed_object("Boxes", "The holding boxes; a box left out is empty.", fields)

    def free_action(self) -> type[BaseModel]:
        data = self.data
        faction = name_type(
            "FactionName", [f.id for f in data.factions] + [f.name for f in data.factions]
        )
        # a grant's spaces are read as locations, which a box's id also names
        place = name_type("Place", [*self.rules.locations, *(box.id for box in data.boxes)])
        kind = _literals(FreeAction, "kind")
        return closed_object(
            "FreeAction",
            "A free Command, Operation or Special Activity an event granted (5.3, 5.5).",
            {
                "faction": (faction, ..., "The Faction that may take it"),
                "action": (str, ..., "The action, e.g. march or air_lift"),
                "kind": (name_type("ActionKind", kind), ...),
                "limited": (bool, ...),
                "spaces": (list_of(place) | None, ..., "Where it may act; null: anywhere"),
                "pays_resources": (bool, ..., "Whether it still costs Resources"),
                "modifiers": (
                    dict[str, Any],
                    OMITTED,
                    "How the text changes the action (as_faction, with_special, times, "
                    "count, no_activation, hits, force_level, pieces, remove_per_space, "
                    "remove_pieces, origin, where_spaces, note); left out when it changes "
                    "nothing",
                ),
            },
        )

    def records(self) -> dict[str, _Spec]:
        """What events leave for later parts of the game (``state.RECORDS``)."""
        faction = name_type("FactionId", [f.id for f in self.data.factions])
        names = Annotated[str, Field(min_length=1)]
        at_end = name_type("EligibilityAtEnd", END_ELIGIBILITY)
        deferred = closed_object(
            "DeferredEffects",
            "Effects an event left for a later phase (at_phase).",
            {
                "phase": (name_type("Phase", _literals(AtPhase, "phase")), ...),
                "faction": (faction, ..., "The Faction that executed the event"),
                "effects": (
                    list[dict[str, Any]],
                    ...,
                    "The effects, as a deck writes them (see the effect language's schema)",
                ),
            },
        )
        modifier = closed_object(
            "BattleModifierRecord",
            "A modifier of the next Battle, until a Battle uses it.",
            {
                "faction": (faction, ..., "The Faction that executed the event"),
                "role": (name_type("BattleRole", _literals(BattleModifier, "role")), ...),
                "loss_level": (int, ...),
                "force_level": (int, ...),
            },
        )
        procedure = closed_object(
            "ProcedureRecord",
            "A rules procedure an event runs out of turn that the project does not carry out.",
            {
                "name": (names, ..., "desertion, support_phase, redeploy, commitment, reset"),
                "faction": (faction, ..., "The Faction that executed the event"),
                "factions": (list_of(faction), ...),
                "pieces": (list_of(names), ...),
                "spaces": (list_of(self.location) | None, ..., "null: not limited"),
                "note": (str, ...),
            },
        )
        card_action = closed_object(
            "CardActionRecord",
            "An act on a card that the state cannot carry out itself.",
            {
                "action": (name_type("CardActionName", _literals(CardAction, "action")), ...),
                "target": (names, ...),
                "faction": (faction | None, ...),
                "count": (int | None, ...),
                "side": (name_type("EventSide", SIDES) | None, ...),
            },
        )
        lasting = closed_object(
            "LastingRecord",
            "How long a lasting effect lasts and the rules it puts in force.",
            {
                "kind": (name_type("LastingKind", _literals(SetLasting, "kind")), ...),
                "side": (name_type("EventSide", SIDES) | None, None),
                "duration": (
                    name_type("LastingDuration", _literals(SetLasting, "duration", none=True))
                    | None,
                    None,
                ),
                "rules": (
                    list[dict[str, Any]],
                    [],
                    "Its rules, as a deck writes a LastingRule (see the effect language)",
                ),
            },
        )
        return {
            "eligibility_at_end": (
                dict_of(faction, at_end),
                {},
                "Where each Faction's eligibility goes when the card ends, set by an event",
            ),
            "deferred": (list_of(deferred), [], "Effects deferred to a phase"),
            "battle_modifiers": (list_of(modifier), [], "Modifiers of the next Battle"),
            "lasting_rules": (dict_of(names, lasting), {}, "Lasting effects' durations and rules"),
            "procedures": (list_of(procedure), [], "Procedures recorded, not carried out"),
            "card_actions": (list_of(card_action), [], "Card actions recorded"),
        }

    def state(self) -> type[BaseModel]:
        data = self.data
        tracks = closed_object(
            "Tracks",
            "Every track's value, within its floor and cap.",
            {
                track.id: (count(track.lo, track.hi), ..., f"{track.name} ({track.rule})")
                for track in data.tracks
            },
        )
        flags = closed_object(
            "Flags", "Every game flag.", {flag: (bool, ..., name) for flag, name in data.flags}
        )
        eligibility = name_type("Eligibility", ELIGIBILITY)
        factions = closed_object(
            "EligibilityTable",
            "Every Faction's eligibility.",
            {f.id: (eligibility, ..., f.name) for f in data.factions},
        )
        leaders = closed_object(
            "Leaders",
            "Where each Leader is (a space or box); null or left out: not in play.",
            {
                leader.name: (self.location | None, None, f"A {leader.faction} Leader")
                for leader in data.leaders
            },
        )
        lists = closed_object(
            "Lists",
            "The kept lists of names; a list left out is empty.",
            {
                spec.id: (
                    unique_list(name_type(f"{camel(spec.id)}Name", spec.allowed)),
                    [],
                    spec.name
                    + (", in order" if spec.ordered else ", in the order of the game's list"),
                )
                for spec in data.card_lists
            },
        )
        side = name_type("EventSide", SIDES)
        name = Annotated[str, Field(min_length=1)]
        return closed_object(
            f"{camel(data.name)}State",
            f"A {data.name} state, as CoinState.to_json writes it.",
            {
                "game": (cast(Any, Literal)[data.game], ...),
                "spaces": (self.spaces(), ...),
                "boxes": (self.boxes(), ...),
                "tracks": (tracks, ...),
                "flags": (flags, ...),
                "capabilities": (dict_of(name, side), {}, "Capabilities in force, by side"),
                "momentum": (unique_list(name), [], "Momentum events in force"),
                "free_actions": (list_of(self.free_action()), [], "Free actions still to take"),
                "eligibility": (factions, ...),
                "leaders": (leaders, {}),
                "lists": (lists, {}),
                **self.records(),
            },
        )


@cache
def state_document_model(game: str) -> type[BaseModel]:
    """The model of ``game``'s state document ("lod" or "fitl").

    >>> schema = state_document_model("fitl").model_json_schema()
    >>> schema["$defs"]["Tracks"]["properties"]["trail"]["maximum"]
    4
    >>> schema["$defs"]["LoCSpace"]["properties"]["support"]["const"]
    'neutral'
    """
    return _Builder(rules_for(game)).state()
