"""The EU:PoP event catalogue: event ids (16.1), the cards, and their TOML loader.

An event id carries the Age and the type of the card (16.1): A-events
``<age><group>A-<n>`` (``11A-1``), B-events ``<age><nn>B`` (``354B``) and
Realm-specific events ``<age><realm>-<n>`` (``202-2``), whose two digits after the
Age are the Realm's code.

>>> parse_event_id("11A-1")
EventId(text='11A-1', kind='A', age=1, group=1, number=1, realm_code=None)
>>> parse_event_id("202-2").realm_code
'02'
>>> catalogue = load_catalogue()
>>> catalogue.events["202-2"].realm
'england'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from legalis.model.core.documents import package_folder, parse_toml, read_document
from legalis.model.errors import InputError

__all__ = [
    "CONDITIONS",
    "EFFECT_OPS",
    "ID_FORMS",
    "SYMBOLS",
    "Alliance",
    "Catalogue",
    "ChooseAB",
    "Condition",
    "Develop",
    "EachPlayer",
    "Effect",
    "Event",
    "EventId",
    "GainGOp",
    "If",
    "Influence",
    "Marriage",
    "Merchant",
    "Ruler",
    "Symbol",
    "Town",
    "Units",
    "catalogue_from_data",
    "effect_ops",
    "effects_from_data",
    "load_catalogue",
    "parse_event_id",
]

EventKind = Literal["A", "B", "realm"]
Half = Literal["1", "2", "X"]
HALVES: tuple[Half, ...] = ("1", "2", "X")
AGES = (1, 2, 3, 4)
ID_FORMS = ("<age><group>A-<n> (11A-1)", "<age><nn>B (354B)", "<age><realm>-<n> (202-2)")

# 16.5: the secondary-effect symbols along the bottom of a card.
SYMBOLS = (
    "character_mortality",
    "unrest",
    "native_uprising",
    "lost_at_sea",
    "pirates",
    "cardinal_dies",
    "attrition",
    "disloyal_vassals",
    "dnpr_expansion",
    "spread_religion",
    "spread_revolution",
    "power_struggle",
)
REVOLUTION_AGE = 4  # 16.5 Spread of the Revolution: "only appears on Age IV Events"

_A_ID = re.compile(r"([1-4])([0-9])A-([0-9]{1,2})")
_B_ID = re.compile(r"([1-4])([0-9]{2})B")
_REALM_ID = re.compile(r"([1-4])([0-9]{2})-([0-9]{1,2})")


@dataclass(frozen=True, slots=True)
class EventId:
    """A parsed event id (16.1): its kind, Age, and the group, number or Realm code."""

    text: str
    kind: EventKind
    age: int
    group: int | None = None
    number: int | None = None
    realm_code: str | None = None


def parse_event_id(text: object, *, source: str | None = None, path: str | None = None) -> EventId:
    """Parse an event id; anything else is an :class:`InputError` naming the id and
    the three forms of 16.1.

    >>> parse_event_id("354B")
    EventId(text='354B', kind='B', age=3, group=None, number=54, realm_code=None)
    >>> parse_event_id("54B")
    Traceback (most recent call last):
    ...
    legalis.model.errors.InputError: bad event id '54B' (allowed: <age><group>A-<n> (11A-1), \
<age><nn>B (354B), <age><realm>-<n> (202-2))
    """
    if not isinstance(text, str):
        raise InputError(f"bad event id {text!r}: not a string", source=source, path=path,
                         allowed=ID_FORMS)  # fmt: skip
    if match := _A_ID.fullmatch(text):
        age, group, number = match.groups()
        return EventId(text, "A", int(age), group=int(group), number=int(number))
    if match := _B_ID.fullmatch(text):
        age, number = match.groups()
        return EventId(text, "B", int(age), number=int(number))
    if match := _REALM_ID.fullmatch(text):
        age, code, number = match.groups()
        return EventId(text, "realm", int(age), number=int(number), realm_code=code)
    raise InputError(f"bad event id {text!r}", source=source, path=path, allowed=ID_FORMS)


@dataclass(frozen=True, slots=True)
class Ruler:
    """A historical Ruler printed on a card (16.1), and the Realm it belongs to."""

    name: str
    realm: str


@dataclass(frozen=True, slots=True)
class Symbol:
    """One secondary-effect symbol (16.5): Character Mortality carries the mortality
    symbol it matches, DNPR Expansion the colour of the DNPRs it moves."""

    name: str
    mortality: str | None = None
    colour: str | None = None

    def to_json(self) -> dict[str, str]:
        body = {"name": self.name}
        if self.mortality is not None:
            body["mortality"] = self.mortality
        if self.colour is not None:
            body["colour"] = self.colour
        return body


# ---------------------------------------------------------------- the effect language
#
# An Event's main text may carry a structured ``effects`` list: each entry a table
# with an ``op`` naming one of the 16.3 Standard Event effects, or one of the three
# general guidelines of 16.3 (``choose_ab``, ``each_player``, ``if``).


@dataclass(frozen=True, slots=True)
class Influence:
    """Gain/place ``amount`` I in the named Areas (16.3 Gain/place Influence)."""

    amount: int
    areas: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Alliance:
    """Gain an Alliance with one of ``targets`` (16.3 Gain Alliance)."""

    targets: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Marriage:
    """Gain a Royal Marriage with one of ``targets`` (16.3 Gain Royal Marriage)."""

    targets: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GainGOp:
    """Gain a G in one of ``areas`` (16.3 Gain G)."""

    areas: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Town:
    """Gain a t (``vassal``: a v) on one of ``provinces`` (16.3 Gain/place t or v)."""

    provinces: tuple[str, ...]
    vassal: bool = False


@dataclass(frozen=True, slots=True)
class Develop:
    """Develop one of your Small t into a Large t (16.3)."""


@dataclass(frozen=True, slots=True)
class Merchant:
    """Gain a Merchant (16.3 Gain Merchant)."""


@dataclass(frozen=True, slots=True)
class Units:
    """Gain ``count`` Regular Units (``ships``: Ships) in one of ``places``
    (16.3 Gain Military Unit)."""

    count: int
    places: tuple[str, ...]
    ships: bool = False


@dataclass(frozen=True, slots=True)
class ChooseAB:
    """An A) or B) choice (16.3): forced when one side cannot be met, either when
    neither can."""

    a: tuple[Effect, ...]
    b: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class EachPlayer:
    """``effects`` for every player, clockwise from the Active player (16.3)."""

    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class Condition:
    """A simple condition on "you": ``kind`` one of :data:`CONDITIONS`, ``value`` its
    argument (a bool, a number, or a Province)."""

    kind: str
    value: bool | int | str

    def describe(self) -> str:
        """The condition as its TOML reads: ``at_peace = true``, ``owns = "Paris"``."""
        return f"{self.kind} = {json.dumps(self.value)}"


@dataclass(frozen=True, slots=True)
class If:
    """``effects`` only when ``condition`` holds; otherwise ignored (16.3)."""

    condition: Condition
    effects: tuple[Effect, ...]


Effect = (
    Influence
    | Alliance
    | Marriage
    | GainGOp
    | Town
    | Develop
    | Merchant
    | Units
    | ChooseAB
    | EachPlayer
    | If
)

# op -> (required fields, optional fields)
EFFECT_OPS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "influence": (("amount", "areas"), ()),
    "alliance": (("targets",), ()),
    "marriage": (("targets",), ()),
    "g": (("areas",), ()),
    "town": (("provinces",), ("vassal",)),
    "develop": ((), ()),
    "merchant": ((), ()),
    "units": (("count", "places"), ("ships",)),
    "choose_ab": (("a", "b"), ()),
    "each_player": (("effects",), ()),
    "if": (("condition", "effects"), ()),
}
# condition -> the type of its value
CONDITIONS: dict[str, type] = {
    "at_peace": bool,
    "at_war": bool,
    "active": bool,
    "merchants_below": int,
    "owns": str,
}


def _names(value: object, source: str | None, path: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        raise InputError("expected a non-empty list of names", source=source, path=path)
    return tuple(_text(item, source, f"{path}[{i}]") for i, item in enumerate(value))


def _count(value: object, source: str | None, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(f"expected a positive whole number, not {value!r}", source=source,
                         path=path)  # fmt: skip
    return value


def _flag(value: object, source: str | None, path: str) -> bool:
    if not isinstance(value, bool):
        raise InputError(f"expected true or false, not {value!r}", source=source, path=path)
    return value


def _condition(value: object, source: str | None, path: str) -> Condition:
    if not isinstance(value, dict) or len(value) != 1:
        raise InputError("expected a table with one condition", source=source, path=path,
                         allowed=CONDITIONS)  # fmt: skip
    ((kind, arg),) = value.items()
    if kind not in CONDITIONS:
        raise InputError(f"unknown condition {kind!r}", source=source, path=path,
                         allowed=CONDITIONS)  # fmt: skip
    wanted = CONDITIONS[kind]
    if wanted is int:
        return Condition(kind, _count(arg, source, f"{path}.{kind}"))
    if wanted is bool:
        return Condition(kind, _flag(arg, source, f"{path}.{kind}"))
    return Condition(kind, _text(arg, source, f"{path}.{kind}"))


def _effect(value: object, source: str | None, path: str, *, nested: bool) -> Effect:
    if not isinstance(value, dict):
        raise InputError("expected an effect table with an op", source=source, path=path)
    op = value.get("op")
    if not isinstance(op, str) or op not in EFFECT_OPS:
        raise InputError(f"unknown op {op!r}", source=source, path=f"{path}.op",
                         allowed=EFFECT_OPS)  # fmt: skip
    required, optional = EFFECT_OPS[str(op)]
    unknown = sorted(set(value) - {"op", *required, *optional})
    if unknown:
        raise InputError(f"unknown field {unknown[0]!r} for op {op}", source=source,
                         path=f"{path}.{unknown[0]}", allowed=[*required, *optional])  # fmt: skip
    for name in required:
        if name not in value:
            raise InputError(f"op {op} needs {name}", source=source, path=f"{path}.{name}")

    def at(name: str) -> str:
        return f"{path}.{name}"

    def inner(name: str, *, top: bool = False) -> tuple[Effect, ...]:
        return effects_from_data(value[name], source=source, path=at(name), nested=nested or top)

    if op == "influence":
        return Influence(_count(value["amount"], source, at("amount")),
                         _names(value["areas"], source, at("areas")))  # fmt: skip
    if op == "alliance":
        return Alliance(_names(value["targets"], source, at("targets")))
    if op == "marriage":
        return Marriage(_names(value["targets"], source, at("targets")))
    if op == "g":
        return GainGOp(_names(value["areas"], source, at("areas")))
    if op == "town":
        vassal = _flag(value.get("vassal", False), source, at("vassal"))
        return Town(_names(value["provinces"], source, at("provinces")), vassal)
    if op == "develop":
        return Develop()
    if op == "merchant":
        return Merchant()
    if op == "units":
        ships = _flag(value.get("ships", False), source, at("ships"))
        return Units(_count(value["count"], source, at("count")),
                     _names(value["places"], source, at("places")), ships)  # fmt: skip
    if op == "choose_ab":
        return ChooseAB(inner("a", top=True), inner("b", top=True))
    if op == "each_player":
        if nested:
            raise InputError("each_player stands at the top of the text or in an if, not "
                             "inside another each_player or an A)/B) side", source=source,
                             path=path)  # fmt: skip
        return EachPlayer(inner("effects", top=True))
    return If(_condition(value["condition"], source, at("condition")), inner("effects"))


def effects_from_data(
    data: object, *, source: str | None = None, path: str = "effects", nested: bool = False
) -> tuple[Effect, ...]:
    """Read an ``effects`` list; each fault is an :class:`InputError` with its path.

    >>> effects_from_data([{"op": "g", "areas": ["saxony"]}])
    (GainGOp(areas=('saxony',)),)
    >>> effects_from_data([{"op": "g"}])
    Traceback (most recent call last):
    ...
    legalis.model.errors.InputError: effects[0].areas: op g needs areas
    """
    if not isinstance(data, list):
        raise InputError("expected a list of effect tables", source=source, path=path)
    return tuple(
        _effect(item, source, f"{path}[{i}]", nested=nested) for i, item in enumerate(data)
    )


def effect_ops(effects: tuple[Effect, ...]) -> set[str]:
    """Every op used in ``effects``, nested ones included."""
    names = {
        Influence: "influence", Alliance: "alliance", Marriage: "marriage", GainGOp: "g",
        Town: "town", Develop: "develop", Merchant: "merchant", Units: "units",
        ChooseAB: "choose_ab", EachPlayer: "each_player", If: "if",
    }  # fmt: skip
    found: set[str] = set()
    for effect in effects:
        found.add(names[type(effect)])
        if isinstance(effect, ChooseAB):
            found |= effect_ops(effect.a) | effect_ops(effect.b)
        elif isinstance(effect, EachPlayer | If):
            found |= effect_ops(effect.effects)
    return found


@dataclass(frozen=True, slots=True)
class Event:
    """An Event card: id, title, half marking (1, 2 or X; Optional Rule 6), the Realm
    of a Realm-specific event, its historical Ruler, its symbols in order, its text."""

    id: EventId
    title: str
    half: Half
    text: str
    realm: str | None = None
    ruler: Ruler | None = None
    symbols: tuple[Symbol, ...] = ()
    effects: tuple[Effect, ...] = ()

    @property
    def age(self) -> int:
        return self.id.age

    @property
    def kind(self) -> EventKind:
        return self.id.kind


@dataclass(frozen=True)
class Catalogue:
    """The known events by id, and the Realm codes of Realm-specific events."""

    realms: Mapping[str, str]
    events: Mapping[str, Event]

    def realm_of_code(self, code: str) -> str | None:
        return next((realm for realm, known in self.realms.items() if known == code), None)

    def event(self, event_id: object, *, path: str = "event") -> Event:
        """The event with this id; an unknown id is an :class:`InputError` at ``path``."""
        if not isinstance(event_id, str) or event_id not in self.events:
            raise InputError(f"unknown event {event_id!r}", path=path, allowed=sorted(self.events))
        return self.events[event_id]


def _text(value: object, source: str | None, path: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError("expected a non-empty string", source=source, path=path)
    return value


def _symbol(value: object, source: str | None, path: str) -> Symbol:
    if isinstance(value, str):
        value = {"name": value}
    if not isinstance(value, dict):
        raise InputError("expected a symbol name or table", source=source, path=path)
    unknown = sorted(set(value) - {"name", "mortality", "colour"})
    if unknown:
        raise InputError(f"unknown field {unknown[0]!r}", source=source, path=path,
                         allowed=["name", "mortality", "colour"])  # fmt: skip
    name = value.get("name")
    if name not in SYMBOLS:
        raise InputError(f"unknown symbol {name!r}", source=source, path=f"{path}.name",
                         allowed=SYMBOLS)  # fmt: skip
    mortality = value.get("mortality")
    colour = value.get("colour")
    if (mortality is not None) != (name == "character_mortality"):
        raise InputError("a mortality symbol goes with character_mortality, and only there",
                         source=source, path=f"{path}.mortality")  # fmt: skip
    if (colour is not None) != (name == "dnpr_expansion"):
        raise InputError("a colour goes with dnpr_expansion, and only there",
                         source=source, path=f"{path}.colour")  # fmt: skip
    return Symbol(
        str(name),
        None if mortality is None else _text(mortality, source, f"{path}.mortality"),
        None if colour is None else _text(colour, source, f"{path}.colour"),
    )


_EVENT_FIELDS = ("id", "title", "half", "text", "realm", "ruler", "symbols", "effects")


def _event(entry: object, realms: Mapping[str, str], source: str | None, path: str) -> Event:
    if not isinstance(entry, dict):
        raise InputError("expected a table", source=source, path=path)
    unknown = sorted(set(entry) - set(_EVENT_FIELDS))
    if unknown:
        raise InputError(f"unknown field {unknown[0]!r}", source=source, path=path,
                         allowed=_EVENT_FIELDS)  # fmt: skip
    event_id = parse_event_id(entry.get("id"), source=source, path=f"{path}.id")
    half = entry.get("half")
    if half not in HALVES:
        raise InputError(f"bad half {half!r}", source=source, path=f"{path}.half",
                         allowed=HALVES)  # fmt: skip
    realm = entry.get("realm")
    if event_id.kind == "realm":
        # 16.1: a Realm-specific event's id carries its Realm's code.
        if not isinstance(realm, str) or realm not in realms:
            raise InputError(f"unknown realm {realm!r}", source=source, path=f"{path}.realm",
                             allowed=sorted(realms))  # fmt: skip
        if realms[str(realm)] != event_id.realm_code:
            raise InputError(
                f"id {event_id.text} has realm code {event_id.realm_code}, but {realm} has "
                f"code {realms[str(realm)]}", source=source, path=f"{path}.realm")  # fmt: skip
    elif realm is not None:
        raise InputError(f"an {event_id.kind}-event has no realm", source=source,
                         path=f"{path}.realm")  # fmt: skip
    ruler = None
    if "ruler" in entry:
        raw = entry["ruler"]
        if not isinstance(raw, dict) or set(raw) != {"name", "realm"}:
            raise InputError("expected a table with name and realm", source=source,
                             path=f"{path}.ruler")  # fmt: skip
        if not isinstance(raw["realm"], str) or raw["realm"] not in realms:
            raise InputError(f"unknown realm {raw['realm']!r}", source=source,
                             path=f"{path}.ruler.realm", allowed=sorted(realms))  # fmt: skip
        if realm is not None and raw["realm"] != realm:
            raise InputError("16.1: the Ruler belongs to the event's Realm", source=source,
                             path=f"{path}.ruler.realm", allowed=[realm])  # fmt: skip
        ruler = Ruler(_text(raw["name"], source, f"{path}.ruler.name"), str(raw["realm"]))
    raw_symbols = entry.get("symbols", [])
    if not isinstance(raw_symbols, list):
        raise InputError("expected a list", source=source, path=f"{path}.symbols")
    symbols = tuple(
        _symbol(raw, source, f"{path}.symbols[{index}]") for index, raw in enumerate(raw_symbols)
    )
    if event_id.age != REVOLUTION_AGE and any(s.name == "spread_revolution" for s in symbols):
        raise InputError("16.5: spread_revolution appears on Age IV events only",
                         source=source, path=f"{path}.symbols")  # fmt: skip
    return Event(
        id=event_id,
        title=_text(entry.get("title"), source, f"{path}.title"),
        half=half,
        text=_text(entry.get("text"), source, f"{path}.text"),
        realm=None if realm is None else str(realm),
        ruler=ruler,
        symbols=symbols,
        effects=effects_from_data(entry.get("effects", []), source=source, path=f"{path}.effects"),
    )


def catalogue_from_data(data: Mapping[str, Any], *, source: str | None = None) -> Catalogue:
    """Build a catalogue from parsed TOML; each fault is an :class:`InputError` with
    the path of the bad field."""
    unknown = sorted(set(data) - {"realms", "event"})
    if unknown:
        raise InputError(f"unknown field {unknown[0]!r}", source=source, path=unknown[0],
                         allowed=["realms", "event"])  # fmt: skip
    raw_realms = data.get("realms", {})
    if not isinstance(raw_realms, dict):
        raise InputError("expected a table of realm = code", source=source, path="realms")
    realms: dict[str, str] = {}
    for realm, code in raw_realms.items():
        if not isinstance(code, str) or not re.fullmatch(r"[0-9]{2}", code):
            raise InputError(f"bad realm code {code!r}: two digits", source=source,
                             path=f"realms.{realm}")  # fmt: skip
        if code in realms.values():
            raise InputError(f"realm code {code} used twice", source=source,
                             path=f"realms.{realm}")  # fmt: skip
        realms[realm] = code
    entries = data.get("event", [])
    if not isinstance(entries, list):
        raise InputError("expected an array of tables", source=source, path="event")
    events: dict[str, Event] = {}
    for index, entry in enumerate(entries):
        event = _event(entry, realms, source, f"event[{index}]")
        if event.id.text in events:
            raise InputError(f"event {event.id.text} listed twice", source=source,
                             path=f"event[{index}].id")  # fmt: skip
        events[event.id.text] = event
    return Catalogue(realms, events)


def read_toml(path: Path | None, bundled: str) -> tuple[dict[str, Any], str]:
    """Read a TOML file (or a bundled one by name): its data and the name to cite."""
    if path is not None:
        return read_document(path, "toml"), str(path)
    text = package_folder("legalis.model.eupop").joinpath(bundled).read_text("utf-8")
    return parse_toml(text, source=bundled), bundled


def load_catalogue(path: Path | None = None) -> Catalogue:
    """Load a catalogue TOML file; without a path, the bundled sample ``events.toml``."""
    data, source = read_toml(path, "events.toml")
    return catalogue_from_data(data, source=source)
