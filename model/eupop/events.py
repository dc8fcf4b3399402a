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

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from legalis.model.errors import InputError

__all__ = [
    "ID_FORMS",
    "SYMBOLS",
    "Catalogue",
    "Event",
    "EventId",
    "Ruler",
    "Symbol",
    "catalogue_from_data",
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


_EVENT_FIELDS = ("id", "title", "half", "text", "realm", "ruler", "symbols")


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
        if realm not in realms:
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
        if raw["realm"] not in realms:
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
    try:
        if path is None:
            text = resources.files("legalis.model.eupop").joinpath(bundled).read_text("utf-8")
            return tomllib.loads(text), bundled
        return tomllib.loads(Path(path).read_text(encoding="utf-8")), str(path)
    except FileNotFoundError as error:
        raise InputError("no such file", source=str(path or bundled)) from error
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read: {error}", source=str(path or bundled)) from error
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"bad TOML: {error}", source=str(path or bundled)) from error


def load_catalogue(path: Path | None = None) -> Catalogue:
    """Load a catalogue TOML file; without a path, the bundled sample ``events.toml``."""
    data, source = read_toml(path, "events.toml")
    return catalogue_from_data(data, source=source)
