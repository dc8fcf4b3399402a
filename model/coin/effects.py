"""The effect language of COIN event cards.

An event side is a sequence of effects carried out in order. Each effect names
what it does (place, remove, replace, move, flip, shift, set support, adjust a
track, grant a free action, set a lasting marker or flag, branch on a condition,
offer a choice) and where: a space selection built from filters. The language
says what the card asks; the interpreter (``model/coin/interpret.py``) gives it
its meaning under section 5 of the rules, so limits such as stacking, Available
pieces and track caps are never written into a card.

Decks are TOML; every table of an effect carries ``op``, every filter ``is``,
every condition ``if``. The nodes are frozen records (``model/core/records.py``):
loading a deck validates every field with pydantic, and the JSON Schema of the
language comes from the same classes; play reads them as plain dataclasses.

>>> side = side_from_toml({"text": "Place 2 Militia in each of up to 3 Colonies.",
...     "effects": [{"op": "place", "pieces": ["militia"], "count": 2,
...                  "where": {"filter": {"is": "type", "types": ["Colony"]},
...                            "spaces": 3, "up_to": True}}]})
>>> effect = side.effects[0]
>>> effect.op, effect.count.n, effect.where.spaces, effect.where.up_to
('place', 2, 3, True)
"""

from __future__ import annotations

import dataclasses
import functools
import operator
from collections.abc import Callable, Mapping
from dataclasses import field
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, TypeVar

from legalis.model.core.records import (
    Keys,
    Record,
    Rule,
    document_key,
    field_default,
    record,
    record_fields,
    union_members,
)
from legalis.model.errors import InputError

if TYPE_CHECKING:
    from pydantic import ValidationInfo

_N = TypeVar("_N", bound=Record)

Comparison = Literal["<", "<=", "==", "!=", ">=", ">"]
COMPARE: dict[str, Callable[[int, int], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    "==": operator.eq,
    "!=": operator.ne,
    ">=": operator.ge,
    ">": operator.gt,
}  # what each comparison of the language means
SupportLevel = Literal[
    "active_support", "passive_support", "neutral", "passive_opposition", "active_opposition"
]
PieceStatus = Literal["active", "underground", "tunneled"]
Relative = Literal["own", "friendly", "enemy"]
"""Pieces relative to the executing Faction: its own, its side's, the other side's."""


def _tag_required(schema: dict[str, Any], model: type[Any]) -> None:
    """List a node's tag (``op``, ``is``, ``if``, ``of``) as required in its JSON Schema.

    Every tagged node sits in a union told apart by the tag, and validation refuses a
    table without it; the default the tag field carries only names the node.

    >>> TypeIs.model_json_schema()["required"]  # the tag first
    ['is', 'types']
    """
    for each in dataclasses.fields(model):
        key = document_key(model, each.name)
        if each.name == "op" or key in ("is", "if", "of"):
            schema.setdefault("required", []).insert(0, key)


class Node(Record):
    """A frozen node of the effect language; unknown fields are errors."""

    __slots__ = ()
    __pydantic_config__: ClassVar[dict[str, Any]] = {
        "extra": "forbid",
        "json_schema_extra": _tag_required,
    }


class QuantityNode(Node):
    """A quantity, told apart by its key ``of``."""

    __slots__ = ()
    __pydantic_config__: ClassVar[dict[str, Any]] = {
        **Node.__pydantic_config__,
        "alias_generator": Keys(kind="of"),
    }


class FilterNode(Node):
    """A space filter, told apart by its key ``is``."""

    __slots__ = ()
    __pydantic_config__: ClassVar[dict[str, Any]] = {
        **Node.__pydantic_config__,
        "alias_generator": Keys(kind="is"),
    }


class ConditionNode(Node):
    """A condition, told apart by its key ``if``."""

    __slots__ = ()
    __pydantic_config__: ClassVar[dict[str, Any]] = {
        **Node.__pydantic_config__,
        "alias_generator": Keys(kind="if"),
    }


# ---------------------------------------------------------------------- counts


@record
class Count(Node):
    """How many pieces (or markers): ``n``, ``up to n`` when ``up_to``; a bare integer
    in TOML means exactly ``n``.

    ``all``: every matching piece ("all Tories"); with ``up_to`` any number of them
    ("any Tories"). ``at_least``: the fewest the chooser may take ("2-5 pieces": at
    least 2, up to 5). ``amount``: a number read from the state when the effect runs
    ("a die roll of", "one per Village"), in place of ``n``.

    Under 5.1.3 an exact count the state cannot meet is carried out as far as it can.
    """

    n: Annotated[int, Rule("Field", ge=0)] = 1
    up_to: bool = False
    all: bool = False
    at_least: Annotated[int | None, Rule("Field", ge=0)] = None
    amount: Amount | None = None


def _count(value: Any) -> Any:
    return {"n": value} if isinstance(value, int) and not isinstance(value, bool) else value


PieceCount = Annotated[
    Count,
    Rule(
        "BeforeValidator",
        _count,
        json_schema_input_type=Count | Annotated[int, Rule("Field", ge=0)],
    ),
]
"""A :class:`Count`, or in a document a bare integer: exactly that many."""


# ---------------------------------------------------------------------- amounts

# An amount is read from the state when its effect runs (event-language "per",
# "half", "a die roll of", "N times <Track> value"); quantities are told apart by ``of``.


@record
class OfPieces(QuantityNode):
    """How many ``pieces`` (any status unless given) lie in spaces matching ``where``
    (``None``: the whole map), or in ``box`` when one is named.

    ``relative`` narrows the types to the executing Faction's own (``own``), its
    side's (``friendly``) or the other side's (``enemy``) pieces."""

    kind: Literal["pieces"] = "pieces"
    pieces: Annotated[tuple[str, ...], Rule("Field", min_length=1)]
    where: Filter | None = None
    box: str | None = None
    status: PieceStatus | None = None
    relative: Relative | None = None


@record
class OfSpaces(QuantityNode):
    """How many spaces match ``filter``."""

    kind: Literal["spaces"] = "spaces"
    filter: Filter


@record
class OfTrack(QuantityNode):
    """A track's value (Resources, Aid, Trail, FNI, ...)."""

    kind: Literal["track"] = "track"
    track: str


@record
class OfPopulation(QuantityNode):
    """The summed population of the spaces matching ``filter``."""

    kind: Literal["population"] = "population"
    filter: Filter


@record
class OfMarkers(QuantityNode):
    """How many ``marker`` markers lie in spaces matching ``where`` (``None``: the map)."""

    kind: Literal["markers"] = "markers"
    marker: str
    where: Filter | None = None


@record
class OfCards(QuantityNode):
    """How many names a kept card list holds (``rvn_leaders``, ``brilliant_strokes``)."""

    kind: Literal["cards"] = "cards"
    list: str


@record
class OfBound(QuantityNode):
    """A number bound earlier in the side: a die roll (:class:`Roll`) or how many
    pieces an effect with ``bind`` took or placed ("for each piece removed")."""

    kind: Literal["bound"] = "bound"
    name: str


@record
class OfVictory(QuantityNode):
    """A Faction's victory margin as the game computes it for its victory check
    (LoD 7.2, FitL 7.2): positive when ahead of its condition."""

    kind: Literal["victory"] = "victory"
    faction: str


Quantity = Annotated[
    OfPieces | OfSpaces | OfTrack | OfPopulation | OfMarkers | OfCards | OfBound | OfVictory,
    Rule("Field", discriminator="kind"),
]


@record
class Amount(Node):
    """``round(quantity * times / per) + plus``: "+1 per 3 Villages" is
    ``times=1, per=3``; "half, rounding down" ``per=2``; "4 times Trail value"
    ``times=4``. ``round`` is the rounding the text gives (down unless it says up).

    ``minus``: a second quantity taken off, the result never below 0 ("until half of
    them are Active": half of them, less those Active already).
    """

    quantity: Quantity
    times: int = 1
    per: Annotated[int, Rule("Field", ge=1)] = 1
    round: Literal["down", "up"] = "down"
    plus: int = 0
    minus: Quantity | None = None


# ---------------------------------------------------------------------- filters


@record
class TypeIs(FilterNode):
    """Spaces of these map types (City, Colony, Reserve, Province, LoC)."""

    kind: Literal["type"] = "type"
    types: Annotated[tuple[str, ...], Rule("Field", min_length=1)]


@record
class NamedSpaces(FilterNode):
    """Exactly these spaces (or boxes, such as the West Indies)."""

    kind: Literal["named"] = "named"
    names: Annotated[tuple[str, ...], Rule("Field", min_length=1)]


@record
class PopulationIs(FilterNode):
    kind: Literal["population"] = "population"
    compare: Comparison = ">="
    value: Annotated[int, Rule("Field", ge=0)]


@record
class ControlIs(FilterNode):
    """Spaces with this control: LoD ``rebellion``, ``british``; FitL ``coin``, ``nva``;
    ``none`` for uncontrolled."""

    kind: Literal["control"] = "control"
    control: str


@record
class PiecesPresent(FilterNode):
    """Spaces holding ``compare value`` pieces of these types (any status unless given)."""

    kind: Literal["pieces"] = "pieces"
    pieces: Annotated[tuple[str, ...], Rule("Field", min_length=1)]
    compare: Comparison = ">="
    value: Annotated[int, Rule("Field", ge=0)] = 1
    status: PieceStatus | None = None


@record
class SupportIs(FilterNode):
    kind: Literal["support"] = "support"
    levels: Annotated[tuple[SupportLevel, ...], Rule("Field", min_length=1)]


@record
class AdjacentTo(FilterNode):
    """Spaces adjacent to at least one space matching ``filter``; with ``distance``
    N > 1, within N spaces of one ("within 2 spaces of"). ``include_self``: the
    matching spaces themselves count too ("in or adjacent to")."""

    kind: Literal["adjacent"] = "adjacent"
    filter: Filter
    distance: Annotated[int, Rule("Field", ge=1)] = 1
    include_self: bool = False


@record
class BoundSpaces(FilterNode):
    """The spaces bound to ``name`` earlier in the side: chosen by a :class:`Select`,
    or acted in by an effect whose ``where`` carries ``bind`` ("there", "in each",
    "that space", "it", "them")."""

    kind: Literal["bound"] = "bound"
    name: str


@record
class MarkersPresent(FilterNode):
    """Spaces holding ``compare value`` markers of a kind (Terror, Propaganda, ...)."""

    kind: Literal["markers"] = "markers"
    marker: str
    compare: Comparison = ">="
    value: Annotated[int, Rule("Field", ge=0)] = 1


@record
class CountryIs(FilterNode):
    kind: Literal["country"] = "country"
    countries: Annotated[tuple[str, ...], Rule("Field", min_length=1)]


@record
class TerrainIs(FilterNode):
    kind: Literal["terrain"] = "terrain"
    terrains: Annotated[tuple[str, ...], Rule("Field", min_length=1)]


@record
class CoastalIs(FilterNode):
    kind: Literal["coastal"] = "coastal"
    coastal: bool = True


@record
class AllOf(FilterNode):
    kind: Literal["all"] = "all"
    filters: Annotated[tuple[Filter, ...], Rule("Field", min_length=1)]


@record
class AnyOf(FilterNode):
    kind: Literal["any"] = "any"
    filters: Annotated[tuple[Filter, ...], Rule("Field", min_length=1)]


@record
class NoneOf(FilterNode):
    kind: Literal["not"] = "not"
    filter: Filter


@record
class Anywhere(FilterNode):
    """Every space of the map (boxes excluded)."""

    kind: Literal["anywhere"] = "anywhere"


Filter = Annotated[
    TypeIs
    | NamedSpaces
    | PopulationIs
    | ControlIs
    | PiecesPresent
    | SupportIs
    | AdjacentTo
    | CountryIs
    | TerrainIs
    | CoastalIs
    | AllOf
    | AnyOf
    | NoneOf
    | Anywhere
    | BoundSpaces
    | MarkersPresent,
    Rule("Field", discriminator="kind"),
]


@record
class Where(Node):
    """Which spaces an effect acts in.

    ``spaces``: how many matching spaces are chosen (``None``: every matching space);
    ``up_to``: fewer may be chosen. ``per_space``: the effect's count applies in each
    chosen space ("2 Militia in each of 3 Colonies"); otherwise the count is a total
    spread over the chosen spaces ("remove 4 Militia from Colonies"). ``bind``: the
    spaces the effect acted in are bound to that name (see :class:`BoundSpaces`).
    """

    filter: Filter = Anywhere()
    spaces: Annotated[int | None, Rule("Field", ge=1)] = None
    up_to: bool = False
    per_space: bool = True
    bind: str | None = None  # name the spaces this effect acted in, for later effects


# ---------------------------------------------------------------------- conditions


@record
class FlagSet(ConditionNode):
    """A game flag is set, e.g. ``toa_played``."""

    kind: Literal["flag"] = "flag"
    flag: str
    value: bool = True


@record
class TrackCompare(ConditionNode):
    kind: Literal["track"] = "track"
    track: str
    compare: Comparison
    value: int


@record
class LastingInForce(ConditionNode):
    """A Capability (on ``side``, if given) or Momentum marker is in force."""

    kind: Literal["lasting"] = "lasting"
    name: str
    side: Literal["unshaded", "shaded"] | None = None


@record
class SpacesCount(ConditionNode):
    """The number of spaces matching ``filter`` compares to ``value``."""

    kind: Literal["spaces"] = "spaces"
    filter: Filter
    compare: Comparison = ">="
    value: Annotated[int, Rule("Field", ge=0)] = 1


@record
class ExecutingFaction(ConditionNode):
    kind: Literal["executing"] = "executing"
    factions: Annotated[tuple[str, ...], Rule("Field", min_length=1)]


@record
class QuantityCompare(ConditionNode):
    """Two amounts compared ("if 3+ Villages are on the map", "if Aid exceeds
    Patronage", "on a roll of 1-3", "if the Patriots lead their victory margin");
    ``right`` is a number or another amount."""

    kind: Literal["compare"] = "compare"
    left: Amount
    compare: Comparison = ">="
    right: Amount | int = 1


@record
class AllTrue(ConditionNode):
    kind: Literal["all"] = "all"
    conditions: Annotated[tuple[Condition, ...], Rule("Field", min_length=1)]


@record
class AnyTrue(ConditionNode):
    kind: Literal["any"] = "any"
    conditions: Annotated[tuple[Condition, ...], Rule("Field", min_length=1)]


@record
class NotTrue(ConditionNode):
    kind: Literal["not"] = "not"
    condition: Condition


Condition = Annotated[
    FlagSet
    | TrackCompare
    | LastingInForce
    | SpacesCount
    | ExecutingFaction
    | QuantityCompare
    | AllTrue
    | AnyTrue
    | NotTrue,
    Rule("Field", discriminator="kind"),
]


# ---------------------------------------------------------------------- effects


@record
class SubLimit(Node):
    """No more than ``at_most`` of ``pieces`` inside a group ("no more than 1 Base")."""

    pieces: Annotated[tuple[str, ...], Rule("Field", min_length=1)]
    at_most: Annotated[int, Rule("Field", ge=0)]


@record
class _PieceEffect(Node):
    """Shared fields: which piece types, how many, where, and who decides (5.1).

    ``relative`` narrows ``pieces`` to the executing Faction's own, friendly or enemy
    types when the effect runs. ``last``: types taken only once no other listed type
    is left in that space ("Forts last"). ``limits``: caps inside the group.
    ``bind``: the number of pieces the effect moved is bound to that name
    (:class:`OfBound`).
    """

    pieces: Annotated[tuple[str, ...], Rule("Field", min_length=1)]
    count: PieceCount = field(default_factory=lambda: Count(n=1))
    where: Where = field(default_factory=lambda: Where())
    chooser: str | None = None  # None: the executing Faction (5.1)
    relative: Relative | None = None
    last: tuple[str, ...] = ()
    limits: tuple[SubLimit, ...] = ()
    bind: str | None = None


@record
class _TakingEffect(_PieceEffect):
    """A piece effect acting on pieces already on the map. ``taking``: only pieces in
    this status are taken ("Remove 2 Underground VC Guerrillas"); ``None``: any
    status the effect acts on."""

    taking: PieceStatus | None = None


@record
class Place(_PieceEffect):
    """Place pieces from ``source`` (Available unless the text names another box, 5.1.1)."""

    op: Literal["place"] = "place"
    source: str = "available"
    status: PieceStatus | None = None  # None: the type's placing status (Underground)


@record
class Remove(_TakingEffect):
    """Remove pieces to ``destination`` (None: where the rules send them).

    ``tunneled``: the text explicitly removes Tunneled Bases (FitL 5.1.1).
    """

    op: Literal["remove"] = "remove"
    destination: str | None = None
    tunneled: bool = False


@record
class Replace(_TakingEffect):
    """Replace pieces with ``by`` pieces from ``source``; removed instead when the
    replacement is not available or would break stacking (5.1.1). ``ratio``: so
    many placed for so many removed ("every 1 Tory with 3 Militia" is ``[1, 3]``).
    """

    op: Literal["replace"] = "replace"
    by: Annotated[tuple[str, ...], Rule("Field", min_length=1)]
    source: str = "available"
    ratio: tuple[int, int] = (1, 1)
    by_relative: Relative | None = None


@record
class MovePieces(_TakingEffect):
    """Move pieces from spaces matching ``where`` to spaces matching ``to``."""

    op: Literal["move"] = "move"
    to: Where


@record
class Activate(_TakingEffect):
    """Flip Underground pieces to Active."""

    op: Literal["activate"] = "activate"


@record
class GoUnderground(_TakingEffect):
    """Flip Active pieces to Underground."""

    op: Literal["underground"] = "underground"


@record
class Tunnel(_PieceEffect):
    """Put Tunnel markers on untunneled Bases (FitL 1.4.4): they become Tunneled,
    never more than the six markers allow."""

    op: Literal["tunnel"] = "tunnel"


@record
class Transfer(_PieceEffect):
    """Move pieces from one off-map box to another ("from Casualties to Available",
    FitL's verbless "4 Available Rangers out of play"); ``where`` is unused, boxes
    are never map spaces."""

    op: Literal["transfer"] = "transfer"
    source: str
    destination: str


def _shift_levels(value: int) -> int:
    if value == 0 or abs(value) > 4:
        raise ValueError("a shift moves 1 to 4 levels, toward Support (+) or Opposition (-)")
    return value


@record
class Shift(Node):
    """Shift each chosen space ``levels`` steps: positive toward Active Support,
    negative toward Active Opposition.

    ``toward``: a level in between (Passive Support, Neutral, Passive Opposition):
    each space moves ``abs(levels)`` steps in the direction of that level and stops
    there. ``either``: the chooser picks the direction for each space.
    """

    op: Literal["shift"] = "shift"
    levels: Annotated[
        int,
        Rule("Field", json_schema_extra={"minimum": -4, "maximum": 4, "not": {"const": 0}}),
        Rule("AfterValidator", _shift_levels),
    ]
    where: Where = field(default_factory=lambda: Where())
    chooser: str | None = None
    toward: SupportLevel | None = None
    either: bool = False


@record
class SetSupport(Node):
    op: Literal["set_support"] = "set_support"
    level: SupportLevel
    where: Where = field(default_factory=lambda: Where())
    chooser: str | None = None


def _some_change_schema(schema: dict[str, Any], model: type[Any]) -> None:
    """An :class:`Adjust` names an ``amount`` or a non-zero ``delta``, in its JSON Schema too."""
    _tag_required(schema, model)
    schema["anyOf"] = [
        {"required": ["amount"]},
        {"required": ["delta"], "properties": {"delta": {"not": {"const": 0}}}},
    ]


def _adjust_delta(value: int, info: ValidationInfo) -> int:
    if info.data.get("amount") is None and value == 0:
        raise ValueError("a track change of 0 does nothing")
    if info.data.get("amount") is not None and value not in (0, 1, -1):
        raise ValueError("with an amount, delta is only its sign: 1 or -1")
    return value


@record
class Adjust(Node):
    """Add ``delta`` (or a computed ``amount``, negated when ``delta`` is -1 and
    ``amount`` given) to a track (Resources of a Faction, Aid, Patronage, FNI,
    Trail, ...); never past its cap or below its floor (5.1.1).

    ``track`` may name the executing Faction's Resources as ``executing_resources``.
    ``bind``: the size of the change actually made is bound to that name
    (:class:`OfBound`), so "transfer 3 from Aid to Patronage" adds only what Aid lost.
    """

    __pydantic_config__: ClassVar[dict[str, Any]] = {
        **Node.__pydantic_config__,
        "json_schema_extra": _some_change_schema,
    }

    op: Literal["adjust"] = "adjust"
    track: str
    amount: Amount | None = None  # before ``delta``: its check reads it
    delta: Annotated[int, Rule("AfterValidator", _adjust_delta)] = 0
    bind: str | None = None  # name the size of the change made, after clamping

    def _check(self) -> None:
        if self.amount is None and self.delta == 0:
            raise ValueError("a track change of 0 does nothing")


@record
class SetTrack(Node):
    """Set a track to ``value`` (a number or an amount): ``mode`` ``set`` ("FNI to
    2", "cut to half"), ``at_least`` ("improve to 4": raise only), ``at_most``
    (lower only). Clamped to the track's range (5.1.1)."""

    op: Literal["set_track"] = "set_track"
    track: str
    value: Amount | int
    mode: Literal["set", "at_least", "at_most"] = "set"


@record
class Eligibility(Node):
    """Change Eligibility (LoD 2.3, FitL 2.3).

    ``factions``: Faction ids, ``executing`` (whoever plays the card) or ``all``.
    ``to``: ``eligible`` (stays or becomes Eligible for the next card; for the
    executing Faction, it is not marked as having acted) or ``ineligible``.
    ``through_next_card``: Ineligible through the next card as well.
    """

    op: Literal["eligibility"] = "eligibility"
    factions: Annotated[tuple[str, ...], Rule("Field", min_length=1)]
    to: Literal["eligible", "ineligible"]
    through_next_card: bool = False


@record
class Marker(Node):
    """Place, remove or move markers (LoD Propaganda, Raid, Squadron/Blockade; FitL
    Terror, Sabotage). Placement is limited by the marker's stock, the spaces it
    may go (its space types) and its flag (a Blockade needs the Treaty, 1.9).

    ``action`` ``place``/``remove`` acts in the spaces of ``where``; ``move`` takes
    markers from box or space ``source`` to ``destination``.
    """

    op: Literal["marker"] = "marker"
    marker: str
    action: Literal["place", "remove", "move"] = "place"
    count: PieceCount = field(default_factory=lambda: Count(n=1))
    where: Where = field(default_factory=lambda: Where())
    source: str | None = None
    destination: str | None = None
    chooser: str | None = None


@record
class Select(Node):
    """Choose spaces now and bind them to ``bind`` for the clauses after ("Select a
    City with Tories.", a fronted "In one Colony with Militia, ..."). Under 5.1.3 as
    many as exist are chosen, up to ``where.spaces``."""

    op: Literal["select"] = "select"
    where: Where
    bind: str
    chooser: str | None = None


@record
class ChooseFaction(Node):
    """Pick a Faction among ``factions`` and bind it to ``bind`` ("Any one Faction",
    "Select a non-British Faction"); later fields name it as ``$`` + the name."""

    op: Literal["choose_faction"] = "choose_faction"
    factions: Annotated[tuple[str, ...], Rule("Field", min_length=1)]
    bind: str
    chooser: str | None = None


@record
class Roll(Node):
    """Roll ``dice`` six-sided dice now, a chance decision of the move, and bind the
    total to ``bind`` (:class:`OfBound`)."""

    op: Literal["roll"] = "roll"
    bind: str
    dice: Annotated[int, Rule("Field", ge=1, le=3)] = 1


@record
class PlaceLeader(Node):
    """Put a Leader in a space (LoD 1.10): one chosen space of ``where``."""

    op: Literal["leader"] = "leader"
    leader: str
    where: Where
    chooser: str | None = None


@record
class Procedure(Node):
    """Run a rules procedure out of its turn, as the text asks: ``desertion`` (LoD
    6.6), ``support_phase`` (LoD 6.5 / FitL 6.3 steps for ``factions``),
    ``redeploy`` (LoD 6.4 / FitL 6.4), ``commitment`` (FitL 6.5), ``reset`` steps.
    ``where``: the spaces it is limited to, when the text says. Carried out where
    the project models that procedure, recorded for the game otherwise."""

    op: Literal["procedure"] = "procedure"
    name: str
    factions: tuple[str, ...] = ()
    pieces: tuple[str, ...] = ()
    where: Where | None = None
    to: Where | None = None
    note: str = ""


@record
class AtPhase(Node):
    """Effects carried out later, at a phase ("Indian Resources +4 during Reset
    Phase", LoD 6.8): recorded in the state for that phase."""

    op: Literal["at_phase"] = "at_phase"
    phase: Literal["reset", "winter_quarters", "coup", "next_card"]
    effects: Annotated[tuple[Effect, ...], Rule("Field", min_length=1)]


@record
class BattleModifier(Node):
    """A modifier of the next Battle (LoD 3.6, 4.x Brilliant Strokes): ``loss_level``
    added to the Attacker's or Defender's Loss Level, ``force_level`` to its Force
    Level. Recorded until a Battle uses it."""

    op: Literal["battle_modifier"] = "battle_modifier"
    role: Literal["attacker", "defender"]
    loss_level: int = 0
    force_level: int = 0


@record
class CardAction(Node):
    """Act on a card in play: ``cancel`` or ``remove`` a Capability/Momentum or an
    event (``target`` its title, or ``capability`` with ``count``/``faction``/
    ``side``), ``flip`` Capabilities to the other side, ``return`` a card to a
    Faction, ``play`` another card's event as printed, ``allow`` a card's effect
    while ``condition`` holds."""

    op: Literal["card"] = "card"
    action: Literal["cancel", "remove", "flip", "return", "play", "allow"]
    target: str
    count: Annotated[int | None, Rule("Field", ge=1)] = None
    faction: str | None = None
    side: Literal["unshaded", "shaded"] | None = None
    condition: Condition | None = None


@record
class FreeAction(Node):
    """A free Command, Operation or Special Activity (LoD 5.3, FitL 5.5).

    It costs nothing and leaves Eligibility alone, except the actions the game
    lists as still paying (FitL Pacification, Trail Improvement, Agitation).

    ``faction``: a Faction id, ``executing`` (the Faction playing the card), or a
    bound Faction (``$name``). ``action``: the Command or Special Activity id, or
    ``any`` (of ``kind``: "a free Limited Command of its choice"). Modifiers:
    ``origin`` (moves from there), ``as_faction`` ("as if US"), ``with_special``
    (may add its Special Activity), ``times`` ("twice"), ``count`` (how many of
    ``any``), ``no_activation``, ``hits`` (a fixed number of hits), ``force_level``
    (added to its Force Level), ``pieces`` (done with these pieces only),
    ``remove_per_space`` (it removes so many pieces in each space) of the types
    ``remove_pieces`` (empty: the action's own targets); ``note``: modifier words
    kept as written, not modelled.
    """

    op: Literal["free"] = "free"
    faction: str
    action: str
    kind: Literal["command", "operation", "special_activity"] = "command"
    limited: bool = False
    where: Where | None = None
    origin: Where | None = None
    as_faction: str | None = None
    with_special: bool = False
    times: Annotated[int, Rule("Field", ge=1)] = 1
    count: Annotated[int, Rule("Field", ge=1)] = 1
    no_activation: bool = False
    hits: Annotated[int | None, Rule("Field", ge=0)] = None
    force_level: int = 0
    pieces: tuple[str, ...] = ()
    remove_per_space: Annotated[int | None, Rule("Field", ge=0)] = None
    remove_pieces: tuple[str, ...] = ()
    note: str = ""


@record
class LastingRule(Node):
    """One rule a Capability or Momentum puts in force (FitL 5.3, 5.4).

    ``kind``: ``limit`` (an action is max ``max_spaces`` spaces, or ``pieces``
    only), ``ban`` (no ``action`` while it lasts), ``addon`` (``effects`` added to
    each space of ``action``, or at a trigger), ``recurring`` (``effects`` at each
    ``at``: ``reset``, ``coup``), ``allow`` (the effect of ``card``, a card title,
    allowed while ``condition``), ``change`` (any other change of how an action works). The text
    is kept as written; ``modelled`` is False where it changes a Command the project
    does not model (FitL Operations).
    """

    text: str
    kind: Literal["limit", "ban", "addon", "recurring", "allow", "change"]
    faction: str | None = None
    action: str | None = None
    max_spaces: Annotated[int | None, Rule("Field", ge=0)] = None
    pieces: tuple[str, ...] = ()
    effects: tuple[Effect, ...] = ()
    at: str | None = None
    condition: Condition | None = None
    card: str | None = None
    modelled: bool = False


@record
class SetLasting(Node):
    """Put a Capability (for the rest of the game) or Momentum (to the next Coup
    Reset) marker in force, or set a game flag (``toa_played``).

    ``duration``: how long the text says it lasts (``game`` for a Capability,
    ``until_coup`` / ``through_coup`` for Momentum, ``phase`` for this phase only).
    ``rules``: what it changes, read from its rules text.
    """

    op: Literal["lasting"] = "lasting"
    kind: Literal["capability", "momentum", "flag"]
    name: str
    side: Literal["unshaded", "shaded"] | None = None
    duration: Literal["game", "until_coup", "through_coup", "phase"] | None = None
    rules: tuple[LastingRule, ...] = ()


@record
class When(Node):
    """``If condition, then ...; otherwise ...``."""

    op: Literal["if"] = "if"
    condition: Condition
    then: Annotated[tuple[Effect, ...], Rule("Field", min_length=1)]
    otherwise: tuple[Effect, ...] = ()


@record
class Choose(Node):
    """One of several effect sequences, picked by ``chooser`` (default the executing
    Faction): "Patriots or French ...". An empty option is doing nothing ("if
    desired")."""

    op: Literal["choose"] = "choose"
    options: Annotated[tuple[tuple[Effect, ...], ...], Rule("Field", min_length=2)]
    chooser: str | None = None


Effect = Annotated[
    Place
    | Remove
    | Replace
    | MovePieces
    | Activate
    | GoUnderground
    | Tunnel
    | Transfer
    | Shift
    | SetSupport
    | Adjust
    | SetTrack
    | Eligibility
    | Marker
    | Select
    | ChooseFaction
    | Roll
    | PlaceLeader
    | Procedure
    | AtPhase
    | BattleModifier
    | CardAction
    | FreeAction
    | SetLasting
    | When
    | Choose,
    Rule("Field", discriminator="op"),
]


@record
class Side(Node):
    """One side of an event card: its printed text and the effects it compiles to.

    ``lasting`` marks the side as a Capability or Momentum (FitL 5.3, 5.4).
    ``flavour``: the italic phrase the card prints before the colon, kept apart.
    """

    text: str = ""
    effects: tuple[Effect, ...] = ()
    lasting: Literal["capability", "momentum"] | None = None
    flavour: str = ""


def json_schema(model: type[Node]) -> dict[str, Any]:
    """The JSON Schema of ``model``'s documents, with every union's tag named.

    The filter and condition unions are told apart by ``is`` and ``if``, the keys of
    the field ``kind``; inside the recursive unions pydantic cannot look the key up
    in time, warns, and leaves out the ``discriminator`` mapping. The key is what
    the document holds, so the schema names it outright.

    >>> schema = json_schema(Side)
    >>> schema["$defs"]["AllOf"]["properties"]["filters"]["items"]["discriminator"]["propertyName"]
    'is'
    """
    return model.model_json_schema(schema_generator=_tagged_schema())


@functools.cache
def _tagged_schema() -> type[Any]:
    from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
    from pydantic_core import core_schema

    class TaggedSchema(GenerateJsonSchema):
        def tagged_union_schema(self, schema: core_schema.TaggedUnionSchema) -> JsonSchemaValue:
            tag = schema["discriminator"]
            # pydantic lists the attribute's path, then the key's
            last = tag[-1] if isinstance(tag, list) and tag else None
            if isinstance(last, list) and len(last) == 1 and isinstance(last[0], str):
                schema = core_schema.tagged_union_schema(
                    schema["choices"], last[0], ref=schema.get("ref")
                )
            return super().tagged_union_schema(schema)

        def encode_default(self, default: Any) -> Any:
            # a node's default is shown as a document writes it, with its keys
            if isinstance(default, Node):
                return default.model_dump(mode="json", by_alias=True)
            return super().encode_default(default)

    return TaggedSchema


def _path(location: tuple[int | str, ...]) -> str:
    """``effects[0].where.filter``: pydantic's location without the union tags it inserts."""
    out = ""
    for index, part in enumerate(location):
        before = location[index - 1] if index else None
        tagged = ("filter", "condition", "quantity", "where", "left", "right", "value")
        if part in _TAGS and (isinstance(before, int) or before in tagged):
            continue
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _tags(union: Any, discriminator: str) -> set[str]:
    return {str(field_default(member, discriminator)) for member in union_members(union)}


_TAGS = (
    _tags(Effect, "op") | _tags(Filter, "kind") | _tags(Condition, "kind") | _tags(Quantity, "kind")
)


def validated(model: type[_N], raw: Any, *, source: str | None, path: str) -> _N:
    """``raw`` read as a ``model`` document, every field checked; the first fault is an
    :class:`InputError` naming its field path after ``path``.

    >>> try:
    ...     validated(Count, {"n": -1}, source=None, path="count")
    ... except InputError as refused:
    ...     print(refused.path)
    count.n
    """
    from pydantic import ValidationError

    try:
        return model.model_validate(raw)
    except ValidationError as error:
        first = error.errors()[0]
        location = tuple(part for part in first["loc"] if not str(part).startswith("function-"))
        where = _path(location)
        at = f"{path}.{where}" if where else path
        raise InputError(first["msg"], source=source, path=at) from error


def side_from_toml(
    raw: Mapping[str, Any], *, source: str | None = None, path: str = "side"
) -> Side:
    """A :class:`Side` from its TOML table; errors name the field path."""
    return validated(Side, raw, source=source, path=path)


def side_to_toml(side: Side) -> dict[str, Any]:
    """The TOML table of ``side``, defaults left out; :func:`side_from_toml` reads it back equal.

    >>> raw = {"effects": [{"op": "adjust", "track": "fni", "delta": 1}]}
    >>> side_to_toml(side_from_toml(raw)) == raw
    True
    """
    table = _table(side)
    assert isinstance(table, dict)
    return table


def _table(value: Any) -> Any:
    if isinstance(value, Node):
        out = {}
        model = type(value)
        for name in record_fields(model):
            item = getattr(value, name)
            # the tags ``op``, ``is`` and ``if`` always stay: they say what the table is
            if name in ("op", "kind") or item != field_default(model, name):
                out[document_key(model, name)] = _table(item)
        return out
    if isinstance(value, tuple | list):
        return [_table(item) for item in value]
    return value
