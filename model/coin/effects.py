"""The effect language of COIN event cards.

An event side is a sequence of effects carried out in order. Each effect names
what it does (place, remove, replace, move, flip, shift, set support, adjust a
track, grant a free action, set a lasting marker or flag, branch on a condition,
offer a choice) and where: a space selection built from filters. The language
says what the card asks; the interpreter (``model/coin/interpret.py``) gives it
its meaning under section 5 of the rules, so limits such as stacking, Available
pieces and track caps are never written into a card.

Decks are TOML; every table of an effect carries ``op``, every filter ``is``,
every condition ``if``. The models are pydantic: loading a deck validates every
field, and the JSON Schema of the language comes from the same classes.

>>> side = side_from_toml({"text": "Place 2 Militia in each of up to 3 Colonies.",
...     "effects": [{"op": "place", "pieces": ["militia"], "count": 2,
...                  "where": {"filter": {"is": "type", "types": ["Colony"]},
...                            "spaces": 3, "up_to": True}}]})
>>> effect = side.effects[0]
>>> effect.op, effect.count.n, effect.where.spaces, effect.where.up_to
('place', 2, 3, True)
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal

from legalis.model.errors import InputError
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    NonNegativeInt,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

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

    Every tagged node sits in a union told apart by the tag, and pydantic refuses a
    table without it; the default the tag field carries only names the node.

    >>> TypeIs.model_json_schema()["required"]  # the tag first
    ['is', 'types']
    """
    for name, field in model.model_fields.items():
        if name == "op" or field.alias in ("is", "if", "of"):
            required = schema.setdefault("required", [])
            required.insert(0, field.alias or name)


class Node(BaseModel):
    """A frozen node of the effect language; unknown fields are errors."""

    # defer_build: a model's validator is built when first used, not at import. Play
    # validates a deck's sides and little else; building every model's validator (each
    # holding the recursive unions again) took about 9 MiB and 0.12 s at import.
    model_config = ConfigDict(
        frozen=True, extra="forbid", json_schema_extra=_tag_required, defer_build=True
    )


# ---------------------------------------------------------------------- counts


class Count(Node):
    """How many pieces (or markers): ``n``, ``up to n`` when ``up_to``; a bare integer
    in TOML means exactly ``n``.

    ``all``: every matching piece ("all Tories"); with ``up_to`` any number of them
    ("any Tories"). ``at_least``: the fewest the chooser may take ("2-5 pieces": at
    least 2, up to 5). ``amount``: a number read from the state when the effect runs
    ("a die roll of", "one per Village"), in place of ``n``.

    Under 5.1.3 an exact count the state cannot meet is carried out as far as it can.
    """

    n: int = Field(default=1, ge=0)
    up_to: bool = False
    all: bool = False
    at_least: int | None = Field(default=None, ge=0)
    amount: Amount | None = None


def _count(value: Any) -> Any:
    return {"n": value} if isinstance(value, int) and not isinstance(value, bool) else value


# ---------------------------------------------------------------------- amounts

# An amount is read from the state when its effect runs (event-language "per",
# "half", "a die roll of", "N times <Track> value"); quantities are told apart by ``of``.


class OfPieces(Node):
    """How many ``pieces`` (any status unless given) lie in spaces matching ``where``
    (``None``: the whole map), or in ``box`` when one is named.

    ``relative`` narrows the types to the executing Faction's own (``own``), its
    side's (``friendly``) or the other side's (``enemy``) pieces."""

    kind: Literal["pieces"] = Field(default="pieces", alias="of")
    pieces: tuple[str, ...] = Field(min_length=1)
    where: Filter | None = None
    box: str | None = None
    status: PieceStatus | None = None
    relative: Relative | None = None


class OfSpaces(Node):
    """How many spaces match ``filter``."""

    kind: Literal["spaces"] = Field(default="spaces", alias="of")
    filter: Filter


class OfTrack(Node):
    """A track's value (Resources, Aid, Trail, FNI, ...)."""

    kind: Literal["track"] = Field(default="track", alias="of")
    track: str


class OfPopulation(Node):
    """The summed population of the spaces matching ``filter``."""

    kind: Literal["population"] = Field(default="population", alias="of")
    filter: Filter


class OfMarkers(Node):
    """How many ``marker`` markers lie in spaces matching ``where`` (``None``: the map)."""

    kind: Literal["markers"] = Field(default="markers", alias="of")
    marker: str
    where: Filter | None = None


class OfCards(Node):
    """How many names a kept card list holds (``rvn_leaders``, ``brilliant_strokes``)."""

    kind: Literal["cards"] = Field(default="cards", alias="of")
    list: str


class OfBound(Node):
    """A number bound earlier in the side: a die roll (:class:`Roll`) or how many
    pieces an effect with ``bind`` took or placed ("for each piece removed")."""

    kind: Literal["bound"] = Field(default="bound", alias="of")
    name: str


class OfVictory(Node):
    """A Faction's victory margin as the game computes it for its victory check
    (LoD 7.2, FitL 7.2): positive when ahead of its condition."""

    kind: Literal["victory"] = Field(default="victory", alias="of")
    faction: str


Quantity = Annotated[
    OfPieces | OfSpaces | OfTrack | OfPopulation | OfMarkers | OfCards | OfBound | OfVictory,
    Field(discriminator="kind"),
]


class Amount(Node):
    """``round(quantity * times / per) + plus``: "+1 per 3 Villages" is
    ``times=1, per=3``; "half, rounding down" ``per=2``; "4 times Trail value"
    ``times=4``. ``round`` is the rounding the text gives (down unless it says up).

    ``minus``: a second quantity taken off, the result never below 0 ("until half of
    them are Active": half of them, less those Active already).
    """

    quantity: Quantity
    times: int = 1
    per: int = Field(default=1, ge=1)
    round: Literal["down", "up"] = "down"
    plus: int = 0
    minus: Quantity | None = None


# ---------------------------------------------------------------------- filters


class TypeIs(Node):
    """Spaces of these map types (City, Colony, Reserve, Province, LoC)."""

    kind: Literal["type"] = Field(default="type", alias="is")
    types: tuple[str, ...] = Field(min_length=1)


class NamedSpaces(Node):
    """Exactly these spaces (or boxes, such as the West Indies)."""

    kind: Literal["named"] = Field(default="named", alias="is")
    names: tuple[str, ...] = Field(min_length=1)


class PopulationIs(Node):
    kind: Literal["population"] = Field(default="population", alias="is")
    compare: Comparison = ">="
    value: int = Field(ge=0)


class ControlIs(Node):
    """Spaces with this control: LoD ``rebellion``, ``british``; FitL ``coin``, ``nva``;
    ``none`` for uncontrolled."""

    kind: Literal["control"] = Field(default="control", alias="is")
    control: str


class PiecesPresent(Node):
    """Spaces holding ``compare value`` pieces of these types (any status unless given)."""

    kind: Literal["pieces"] = Field(default="pieces", alias="is")
    pieces: tuple[str, ...] = Field(min_length=1)
    compare: Comparison = ">="
    value: int = Field(default=1, ge=0)
    status: PieceStatus | None = None


class SupportIs(Node):
    kind: Literal["support"] = Field(default="support", alias="is")
    levels: tuple[SupportLevel, ...] = Field(min_length=1)


class AdjacentTo(Node):
    """Spaces adjacent to at least one space matching ``filter``; with ``distance``
    N > 1, within N spaces of one ("within 2 spaces of"). ``include_self``: the
    matching spaces themselves count too ("in or adjacent to")."""

    kind: Literal["adjacent"] = Field(default="adjacent", alias="is")
    filter: Filter
    distance: int = Field(default=1, ge=1)
    include_self: bool = False


class BoundSpaces(Node):
    """The spaces bound to ``name`` earlier in the side: chosen by a :class:`Select`,
    or acted in by an effect whose ``where`` carries ``bind`` ("there", "in each",
    "that space", "it", "them")."""

    kind: Literal["bound"] = Field(default="bound", alias="is")
    name: str


class MarkersPresent(Node):
    """Spaces holding ``compare value`` markers of a kind (Terror, Propaganda, ...)."""

    kind: Literal["markers"] = Field(default="markers", alias="is")
    marker: str
    compare: Comparison = ">="
    value: int = Field(default=1, ge=0)


class CountryIs(Node):
    kind: Literal["country"] = Field(default="country", alias="is")
    countries: tuple[str, ...] = Field(min_length=1)


class TerrainIs(Node):
    kind: Literal["terrain"] = Field(default="terrain", alias="is")
    terrains: tuple[str, ...] = Field(min_length=1)


class CoastalIs(Node):
    kind: Literal["coastal"] = Field(default="coastal", alias="is")
    coastal: bool = True


class AllOf(Node):
    kind: Literal["all"] = Field(default="all", alias="is")
    filters: tuple[Filter, ...] = Field(min_length=1)


class AnyOf(Node):
    kind: Literal["any"] = Field(default="any", alias="is")
    filters: tuple[Filter, ...] = Field(min_length=1)


class NoneOf(Node):
    kind: Literal["not"] = Field(default="not", alias="is")
    filter: Filter


class Anywhere(Node):
    """Every space of the map (boxes excluded)."""

    kind: Literal["anywhere"] = Field(default="anywhere", alias="is")


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
    Field(discriminator="kind"),
]


class Where(Node):
    """Which spaces an effect acts in.

    ``spaces``: how many matching spaces are chosen (``None``: every matching space);
    ``up_to``: fewer may be chosen. ``per_space``: the effect's count applies in each
    chosen space ("2 Militia in each of 3 Colonies"); otherwise the count is a total
    spread over the chosen spaces ("remove 4 Militia from Colonies"). ``bind``: the
    spaces the effect acted in are bound to that name (see :class:`BoundSpaces`).
    """

    filter: Filter = Anywhere()
    spaces: int | None = Field(default=None, ge=1)
    up_to: bool = False
    per_space: bool = True
    bind: str | None = None  # name the spaces this effect acted in, for later effects


# ---------------------------------------------------------------------- conditions


class FlagSet(Node):
    """A game flag is set, e.g. ``toa_played``."""

    kind: Literal["flag"] = Field(default="flag", alias="if")
    flag: str
    value: bool = True


class TrackCompare(Node):
    kind: Literal["track"] = Field(default="track", alias="if")
    track: str
    compare: Comparison
    value: int


class LastingInForce(Node):
    """A Capability (on ``side``, if given) or Momentum marker is in force."""

    kind: Literal["lasting"] = Field(default="lasting", alias="if")
    name: str
    side: Literal["unshaded", "shaded"] | None = None


class SpacesCount(Node):
    """The number of spaces matching ``filter`` compares to ``value``."""

    kind: Literal["spaces"] = Field(default="spaces", alias="if")
    filter: Filter
    compare: Comparison = ">="
    value: int = Field(default=1, ge=0)


class ExecutingFaction(Node):
    kind: Literal["executing"] = Field(default="executing", alias="if")
    factions: tuple[str, ...] = Field(min_length=1)


class QuantityCompare(Node):
    """Two amounts compared ("if 3+ Villages are on the map", "if Aid exceeds
    Patronage", "on a roll of 1-3", "if the Patriots lead their victory margin");
    ``right`` is a number or another amount."""

    kind: Literal["compare"] = Field(default="compare", alias="if")
    left: Amount
    compare: Comparison = ">="
    right: Amount | int = 1


class AllTrue(Node):
    kind: Literal["all"] = Field(default="all", alias="if")
    conditions: tuple[Condition, ...] = Field(min_length=1)


class AnyTrue(Node):
    kind: Literal["any"] = Field(default="any", alias="if")
    conditions: tuple[Condition, ...] = Field(min_length=1)


class NotTrue(Node):
    kind: Literal["not"] = Field(default="not", alias="if")
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
    Field(discriminator="kind"),
]


# ---------------------------------------------------------------------- effects


class SubLimit(Node):
    """No more than ``at_most`` of ``pieces`` inside a group ("no more than 1 Base")."""

    pieces: tuple[str, ...] = Field(min_length=1)
    at_most: int = Field(ge=0)


class _PieceEffect(Node):
    """Shared fields: which piece types, how many, where, and who decides (5.1).

    ``relative`` narrows ``pieces`` to the executing Faction's own, friendly or enemy
    types when the effect runs. ``last``: types taken only once no other listed type
    is left in that space ("Forts last"). ``limits``: caps inside the group.
    ``bind``: the number of pieces the effect moved is bound to that name
    (:class:`OfBound`).
    """

    pieces: tuple[str, ...] = Field(min_length=1)
    count: Count = Field(default_factory=lambda: Count(n=1))
    where: Where = Field(default_factory=lambda: Where())
    chooser: str | None = None  # None: the executing Faction (5.1)
    relative: Relative | None = None
    last: tuple[str, ...] = ()
    limits: tuple[SubLimit, ...] = ()
    bind: str | None = None

    @field_validator("count", mode="before", json_schema_input_type=Count | NonNegativeInt)
    @classmethod
    def _bare_count(cls, value: Any) -> Any:
        return _count(value)


class _TakingEffect(_PieceEffect):
    """A piece effect acting on pieces already on the map. ``taking``: only pieces in
    this status are taken ("Remove 2 Underground VC Guerrillas"); ``None``: any
    status the effect acts on."""

    taking: PieceStatus | None = None


class Place(_PieceEffect):
    """Place pieces from ``source`` (Available unless the text names another box, 5.1.1)."""

    op: Literal["place"] = "place"
    source: str = "available"
    status: PieceStatus | None = None  # None: the type's placing status (Underground)


class Remove(_TakingEffect):
    """Remove pieces to ``destination`` (None: where the rules send them).

    ``tunneled``: the text explicitly removes Tunneled Bases (FitL 5.1.1).
    """

    op: Literal["remove"] = "remove"
    destination: str | None = None
    tunneled: bool = False


class Replace(_TakingEffect):
    """Replace pieces with ``by`` pieces from ``source``; removed instead when the
    replacement is not available or would break stacking (5.1.1). ``ratio``: so
    many placed for so many removed ("every 1 Tory with 3 Militia" is ``[1, 3]``).
    """

    op: Literal["replace"] = "replace"
    by: tuple[str, ...] = Field(min_length=1)
    source: str = "available"
    ratio: tuple[int, int] = (1, 1)
    by_relative: Relative | None = None


class MovePieces(_TakingEffect):
    """Move pieces from spaces matching ``where`` to spaces matching ``to``."""

    op: Literal["move"] = "move"
    to: Where


class Activate(_TakingEffect):
    """Flip Underground pieces to Active."""

    op: Literal["activate"] = "activate"


class GoUnderground(_TakingEffect):
    """Flip Active pieces to Underground."""

    op: Literal["underground"] = "underground"


class Tunnel(_PieceEffect):
    """Put Tunnel markers on untunneled Bases (FitL 1.4.4): they become Tunneled,
    never more than the six markers allow."""

    op: Literal["tunnel"] = "tunnel"


class Transfer(_PieceEffect):
    """Move pieces from one off-map box to another ("from Casualties to Available",
    FitL's verbless "4 Available Rangers out of play"); ``where`` is unused, boxes
    are never map spaces."""

    op: Literal["transfer"] = "transfer"
    source: str
    destination: str


class Shift(Node):
    """Shift each chosen space ``levels`` steps: positive toward Active Support,
    negative toward Active Opposition.

    ``toward``: a level in between (Passive Support, Neutral, Passive Opposition):
    each space moves ``abs(levels)`` steps in the direction of that level and stops
    there. ``either``: the chooser picks the direction for each space.
    """

    op: Literal["shift"] = "shift"
    levels: int = Field(json_schema_extra={"minimum": -4, "maximum": 4, "not": {"const": 0}})
    where: Where = Field(default_factory=lambda: Where())
    chooser: str | None = None
    toward: SupportLevel | None = None
    either: bool = False

    @field_validator("levels")
    @classmethod
    def _nonzero(cls, value: int) -> int:
        if value == 0 or abs(value) > 4:
            raise ValueError("a shift moves 1 to 4 levels, toward Support (+) or Opposition (-)")
        return value


class SetSupport(Node):
    op: Literal["set_support"] = "set_support"
    level: SupportLevel
    where: Where = Field(default_factory=lambda: Where())
    chooser: str | None = None


def _some_change_schema(schema: dict[str, Any], model: type[Any]) -> None:
    """An :class:`Adjust` names an ``amount`` or a non-zero ``delta``, in its JSON Schema too."""
    _tag_required(schema, model)
    schema["anyOf"] = [
        {"required": ["amount"]},
        {"required": ["delta"], "properties": {"delta": {"not": {"const": 0}}}},
    ]


class Adjust(Node):
    """Add ``delta`` (or a computed ``amount``, negated when ``delta`` is -1 and
    ``amount`` given) to a track (Resources of a Faction, Aid, Patronage, FNI,
    Trail, ...); never past its cap or below its floor (5.1.1).

    ``track`` may name the executing Faction's Resources as ``executing_resources``.
    ``bind``: the size of the change actually made is bound to that name
    (:class:`OfBound`), so "transfer 3 from Aid to Patronage" adds only what Aid lost.
    """

    model_config = ConfigDict(json_schema_extra=_some_change_schema)

    op: Literal["adjust"] = "adjust"
    track: str
    amount: Amount | None = None  # before ``delta``: its check reads it
    delta: int = 0
    bind: str | None = None  # name the size of the change made, after clamping

    @field_validator("delta")
    @classmethod
    def _changes(cls, value: int, info: ValidationInfo) -> int:
        if info.data.get("amount") is None and value == 0:
            raise ValueError("a track change of 0 does nothing")
        if info.data.get("amount") is not None and value not in (0, 1, -1):
            raise ValueError("with an amount, delta is only its sign: 1 or -1")
        return value

    @model_validator(mode="after")
    def _some_change(self) -> Adjust:
        if self.amount is None and self.delta == 0:
            raise ValueError("a track change of 0 does nothing")
        return self


class SetTrack(Node):
    """Set a track to ``value`` (a number or an amount): ``mode`` ``set`` ("FNI to
    2", "cut to half"), ``at_least`` ("improve to 4": raise only), ``at_most``
    (lower only). Clamped to the track's range (5.1.1)."""

    op: Literal["set_track"] = "set_track"
    track: str
    value: Amount | int
    mode: Literal["set", "at_least", "at_most"] = "set"


class Eligibility(Node):
    """Change Eligibility (LoD 2.3, FitL 2.3).

    ``factions``: Faction ids, ``executing`` (whoever plays the card) or ``all``.
    ``to``: ``eligible`` (stays or becomes Eligible for the next card; for the
    executing Faction, it is not marked as having acted) or ``ineligible``.
    ``through_next_card``: Ineligible through the next card as well.
    """

    op: Literal["eligibility"] = "eligibility"
    factions: tuple[str, ...] = Field(min_length=1)
    to: Literal["eligible", "ineligible"]
    through_next_card: bool = False


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
    count: Count = Field(default_factory=lambda: Count(n=1))
    where: Where = Field(default_factory=lambda: Where())
    source: str | None = None
    destination: str | None = None
    chooser: str | None = None

    @field_validator("count", mode="before", json_schema_input_type=Count | NonNegativeInt)
    @classmethod
    def _bare_count(cls, value: Any) -> Any:
        return _count(value)


class Select(Node):
    """Choose spaces now and bind them to ``bind`` for the clauses after ("Select a
    City with Tories.", a fronted "In one Colony with Militia, ..."). Under 5.1.3 as
    many as exist are chosen, up to ``where.spaces``."""

    op: Literal["select"] = "select"
    where: Where
    bind: str
    chooser: str | None = None


class ChooseFaction(Node):
    """Pick a Faction among ``factions`` and bind it to ``bind`` ("Any one Faction",
    "Select a non-British Faction"); later fields name it as ``$`` + the name."""

    op: Literal["choose_faction"] = "choose_faction"
    factions: tuple[str, ...] = Field(min_length=1)
    bind: str
    chooser: str | None = None


class Roll(Node):
    """Roll ``dice`` six-sided dice now, a chance decision of the move, and bind the
    total to ``bind`` (:class:`OfBound`)."""

    op: Literal["roll"] = "roll"
    bind: str
    dice: int = Field(default=1, ge=1, le=3)


class PlaceLeader(Node):
    """Put a Leader in a space (LoD 1.10): one chosen space of ``where``."""

    op: Literal["leader"] = "leader"
    leader: str
    where: Where
    chooser: str | None = None


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


class AtPhase(Node):
    """Effects carried out later, at a phase ("Indian Resources +4 during Reset
    Phase", LoD 6.8): recorded in the state for that phase."""

    op: Literal["at_phase"] = "at_phase"
    phase: Literal["reset", "winter_quarters", "coup", "next_card"]
    effects: tuple[Effect, ...] = Field(min_length=1)


class BattleModifier(Node):
    """A modifier of the next Battle (LoD 3.6, 4.x Brilliant Strokes): ``loss_level``
    added to the Attacker's or Defender's Loss Level, ``force_level`` to its Force
    Level. Recorded until a Battle uses it."""

    op: Literal["battle_modifier"] = "battle_modifier"
    role: Literal["attacker", "defender"]
    loss_level: int = 0
    force_level: int = 0


class CardAction(Node):
    """Act on a card in play: ``cancel`` or ``remove`` a Capability/Momentum or an
    event (``target`` its title, or ``capability`` with ``count``/``faction``/
    ``side``), ``flip`` Capabilities to the other side, ``return`` a card to a
    Faction, ``play`` another card's event as printed, ``allow`` a card's effect
    while ``condition`` holds."""

    op: Literal["card"] = "card"
    action: Literal["cancel", "remove", "flip", "return", "play", "allow"]
    target: str
    count: int | None = Field(default=None, ge=1)
    faction: str | None = None
    side: Literal["unshaded", "shaded"] | None = None
    condition: Condition | None = None


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
    times: int = Field(default=1, ge=1)
    count: int = Field(default=1, ge=1)
    no_activation: bool = False
    hits: int | None = Field(default=None, ge=0)
    force_level: int = 0
    pieces: tuple[str, ...] = ()
    remove_per_space: int | None = Field(default=None, ge=0)
    remove_pieces: tuple[str, ...] = ()
    note: str = ""


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
    max_spaces: int | None = Field(default=None, ge=0)
    pieces: tuple[str, ...] = ()
    effects: tuple[Effect, ...] = ()
    at: str | None = None
    condition: Condition | None = None
    card: str | None = None
    modelled: bool = False


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


class When(Node):
    """``If condition, then ...; otherwise ...``."""

    op: Literal["if"] = "if"
    condition: Condition
    then: tuple[Effect, ...] = Field(min_length=1)
    otherwise: tuple[Effect, ...] = ()


class Choose(Node):
    """One of several effect sequences, picked by ``chooser`` (default the executing
    Faction): "Patriots or French ...". An empty option is doing nothing ("if
    desired")."""

    op: Literal["choose"] = "choose"
    options: tuple[tuple[Effect, ...], ...] = Field(min_length=2)
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
    Field(discriminator="op"),
]


class Side(Node):
    """One side of an event card: its printed text and the effects it compiles to.

    ``lasting`` marks the side as a Capability or Momentum (FitL 5.3, 5.4).
    ``flavour``: the italic phrase the card prints before the colon, kept apart.
    """

    text: str = ""
    effects: tuple[Effect, ...] = ()
    lasting: Literal["capability", "momentum"] | None = None
    flavour: str = ""


class TaggedSchema(GenerateJsonSchema):
    """JSON Schema of the effect language with every union's tag named.

    The filter and condition unions are told apart by ``is`` and ``if``, aliases of
    the field ``kind``; inside the recursive unions pydantic cannot look the alias
    up in time, warns, and leaves out the ``discriminator`` mapping. The alias is
    the JSON key, so this generator names it outright.

    >>> schema = Side.model_json_schema(schema_generator=TaggedSchema)
    >>> schema["$defs"]["AllOf"]["properties"]["filters"]["items"]["discriminator"]["propertyName"]
    'is'
    """

    def tagged_union_schema(self, schema: core_schema.TaggedUnionSchema) -> JsonSchemaValue:
        tag = schema["discriminator"]
        # pydantic lists the attribute's path, then the alias's
        last = tag[-1] if isinstance(tag, list) and tag else None
        if isinstance(last, list) and len(last) == 1 and isinstance(last[0], str):
            schema = core_schema.tagged_union_schema(
                schema["choices"], last[0], ref=schema.get("ref")
            )
        return super().tagged_union_schema(schema)


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
    return {str(member.model_fields[discriminator].default) for member in union.__origin__.__args__}


_TAGS = (
    _tags(Effect, "op") | _tags(Filter, "kind") | _tags(Condition, "kind") | _tags(Quantity, "kind")
)


def validation_error(error: ValidationError, *, source: str | None, prefix: str) -> InputError:
    """The first problem pydantic found, as an :class:`InputError` with its field path."""
    first = error.errors()[0]
    where = _path(tuple(part for part in first["loc"] if not str(part).startswith("function-")))
    path = f"{prefix}.{where}" if where else prefix
    return InputError(first["msg"], source=source, path=path)


def side_from_toml(
    raw: Mapping[str, Any], *, source: str | None = None, path: str = "side"
) -> Side:
    """A :class:`Side` from its TOML table; errors name the field path."""
    try:
        return Side.model_validate(raw)
    except ValidationError as error:
        raise validation_error(error, source=source, prefix=path) from error


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
    if isinstance(value, BaseModel):
        out = {}
        for name, field in type(value).model_fields.items():
            item = getattr(value, name)
            # the tags ``op``, ``is`` and ``if`` always stay: they say what the table is
            if name in ("op", "kind") or item != field.get_default(call_default_factory=True):
                out[field.alias or name] = _table(item)
        return out
    if isinstance(value, tuple | list):
        return [_table(item) for item in value]
    return value
