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
from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt, ValidationError, field_validator
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


def _tag_required(schema: dict[str, Any], model: type[Any]) -> None:
    """List a node's tag (``op``, ``is``, ``if``) as required in its JSON Schema.

    Every tagged node sits in a union told apart by the tag, and pydantic refuses a
    table without it; the default the tag field carries only names the node.

    >>> TypeIs.model_json_schema()["required"]  # the tag first
    ['is', 'types']
    """
    for name, field in model.model_fields.items():
        if name == "op" or field.alias in ("is", "if"):
            required = schema.setdefault("required", [])
            required.insert(0, field.alias or name)


class Node(BaseModel):
    """A frozen node of the effect language; unknown fields are errors."""

    model_config = ConfigDict(frozen=True, extra="forbid", json_schema_extra=_tag_required)


# ---------------------------------------------------------------------- counts


class Count(Node):
    """``n`` pieces, or ``up to n`` when ``up_to``; a bare integer in TOML means exactly ``n``.

    Under 5.1.3 an exact count the state cannot meet is carried out as far as it can.
    """

    n: int = Field(ge=0)
    up_to: bool = False


def _count(value: Any) -> Any:
    return {"n": value} if isinstance(value, int) and not isinstance(value, bool) else value


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
    """Spaces adjacent to at least one space matching ``filter``."""

    kind: Literal["adjacent"] = Field(default="adjacent", alias="is")
    filter: Filter


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
    | Anywhere,
    Field(discriminator="kind"),
]


class Where(Node):
    """Which spaces an effect acts in.

    ``spaces``: how many matching spaces are chosen (``None``: every matching space);
    ``up_to``: fewer may be chosen. ``per_space``: the effect's count applies in each
    chosen space ("2 Militia in each of 3 Colonies"); otherwise the count is a total
    spread over the chosen spaces ("remove 4 Militia from Colonies").
    """

    filter: Filter = Anywhere()
    spaces: int | None = Field(default=None, ge=1)
    up_to: bool = False
    per_space: bool = True


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
    | AllTrue
    | AnyTrue
    | NotTrue,
    Field(discriminator="kind"),
]


# ---------------------------------------------------------------------- effects


class _PieceEffect(Node):
    """Shared fields: which piece types, how many, where, and who decides (5.1)."""

    pieces: tuple[str, ...] = Field(min_length=1)
    count: Count = Field(default_factory=lambda: Count(n=1))
    where: Where = Field(default_factory=lambda: Where())
    chooser: str | None = None  # None: the executing Faction (5.1)

    @field_validator("count", mode="before", json_schema_input_type=Count | NonNegativeInt)
    @classmethod
    def _bare_count(cls, value: Any) -> Any:
        return _count(value)


class Place(_PieceEffect):
    """Place pieces from ``source`` (Available unless the text names another box, 5.1.1)."""

    op: Literal["place"] = "place"
    source: str = "available"
    status: PieceStatus | None = None  # None: the type's placing status (Underground)


class Remove(_PieceEffect):
    """Remove pieces to ``destination`` (None: where the rules send them).

    ``tunneled``: the text explicitly removes Tunneled Bases (FitL 5.1.1).
    """

    op: Literal["remove"] = "remove"
    destination: str | None = None
    tunneled: bool = False


class Replace(_PieceEffect):
    """Replace pieces with ``by`` pieces from ``source``; removed instead when the
    replacement is not available or would break stacking (5.1.1)."""

    op: Literal["replace"] = "replace"
    by: tuple[str, ...] = Field(min_length=1)
    source: str = "available"


class MovePieces(_PieceEffect):
    """Move pieces from spaces matching ``where`` to spaces matching ``to``."""

    op: Literal["move"] = "move"
    to: Where


class Activate(_PieceEffect):
    """Flip Underground pieces to Active."""

    op: Literal["activate"] = "activate"


class GoUnderground(_PieceEffect):
    """Flip Active pieces to Underground."""

    op: Literal["underground"] = "underground"


class Shift(Node):
    """Shift each chosen space ``levels`` steps: positive toward Active Support,
    negative toward Active Opposition."""

    op: Literal["shift"] = "shift"
    levels: int = Field(json_schema_extra={"minimum": -4, "maximum": 4, "not": {"const": 0}})
    where: Where = Field(default_factory=lambda: Where())
    chooser: str | None = None

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


class Adjust(Node):
    """Add ``delta`` to a track (Resources of a Faction, Aid, Patronage, FNI, ...);
    never past its cap or below its floor (5.1.1)."""

    op: Literal["adjust"] = "adjust"
    track: str
    delta: int = Field(json_schema_extra={"not": {"const": 0}})

    @field_validator("delta")
    @classmethod
    def _nonzero(cls, value: int) -> int:
        if value == 0:
            raise ValueError("a track change of 0 does nothing")
        return value


class FreeAction(Node):
    """A free Command, Operation or Special Activity (LoD 5.3, FitL 5.5).

    It costs nothing and leaves Eligibility alone, except the actions the game
    lists as still paying (FitL Pacification, Trail Improvement, Agitation).
    """

    op: Literal["free"] = "free"
    faction: str
    action: str
    kind: Literal["command", "operation", "special_activity"] = "command"
    limited: bool = False
    where: Where | None = None


class SetLasting(Node):
    """Put a Capability (for the rest of the game) or Momentum (to the next Coup
    Reset) marker in force, or set a game flag (``toa_played``)."""

    op: Literal["lasting"] = "lasting"
    kind: Literal["capability", "momentum", "flag"]
    name: str
    side: Literal["unshaded", "shaded"] | None = None


class When(Node):
    """``If condition, then ...; otherwise ...``."""

    op: Literal["if"] = "if"
    condition: Condition
    then: tuple[Effect, ...] = Field(min_length=1)
    otherwise: tuple[Effect, ...] = ()


class Choose(Node):
    """One of several effect sequences, picked by ``chooser`` (default the executing
    Faction): "Patriots or French ..."."""

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
    | Shift
    | SetSupport
    | Adjust
    | FreeAction
    | SetLasting
    | When
    | Choose,
    Field(discriminator="op"),
]


class Side(Node):
    """One side of an event card: its printed text and the effects it compiles to.

    ``lasting`` marks the side as a Capability or Momentum (FitL 5.3, 5.4).
    """

    text: str = ""
    effects: tuple[Effect, ...] = ()
    lasting: Literal["capability", "momentum"] | None = None


for _model in (AdjacentTo, AllOf, AnyOf, NoneOf, Where, SpacesCount, AllTrue, AnyTrue, NotTrue,
               MovePieces, When, Choose, Side, FreeAction, Place, Remove, Replace,
               Activate, GoUnderground, Shift, SetSupport):  # fmt: skip
    _model.model_rebuild()


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
        if part in _TAGS and (isinstance(before, int) or before in ("filter", "condition")):
            continue
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _tags(union: Any, discriminator: str) -> set[str]:
    return {str(member.model_fields[discriminator].default) for member in union.__origin__.__args__}


_TAGS = _tags(Effect, "op") | _tags(Filter, "kind") | _tags(Condition, "kind")


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
