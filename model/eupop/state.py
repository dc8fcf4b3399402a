"""The state the EU:PoP event system reads and changes (chapter 16).

Only what events touch is modelled: Realms (Player Realms, Non-player Realms and
DNPRs), Provinces with their owners, towns (``t``), vassal tokens (``v``),
occupation, Unrest and DNPR tokens; Areas with their religion, religion tokens,
Influence and ``G`` tokens; Sea Zones' marks, ships and Trade Nodes with their
Merchants and Pirates; the Papal Curia; characters with their mortality symbols
and Ill Health. A state is a pydantic model: it round-trips through JSON exactly,
and :func:`state_from_json` checks it against the map and the caps of 16.3, each
fault an :class:`~legalis.model.errors.InputError` with the path of the bad field.

The letters of the seed stand for the game's icons: ``I`` Influence, ``A``/``M``
Alliance and Royal Marriage markers, ``G`` (at most one per player per Area),
``t``/``v`` a player's town and vassal token on a Province, ``u`` Unrest, ``æ`` a
DNPR token, ``Q`` a Protestant or Counter-Reformed token, ``^`` a Revolutionary
token, ``H`` Ill Health, ``C`` a Cardinal. ``docs/rules-questions.md`` records
how each is read.

>>> state = small_state()
>>> state.influence_total("saxony"), state.realm_of("Leipzig")
(3, 'saxony_realm')
>>> state_from_json(state.to_json()) == state
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import cached_property
from typing import Any, Literal

from legalis.model.core.documents import package_folder
from legalis.model.errors import InputError
from legalis.model.eupop.mapdata import EuMap, load_map
from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt, ValidationError

__all__ = [
    "MAX_COLONISTS",
    "MAX_CURIA",
    "MAX_LAND_UNITS",
    "MAX_MARKERS",
    "MAX_PIRATES",
    "MAX_REBELS",
    "MAX_REVOLUTIONARY",
    "MAX_SHIPS",
    "MAX_TAX",
    "PIECE_RULE",
    "SMALL_STATE",
    "STABILITY_RANGE",
    "AreaState",
    "Character",
    "EuState",
    "Idea",
    "ProvinceState",
    "RealmState",
    "TradeNode",
    "bundled_state",
    "keep_players",
    "small_state",
    "state_from_json",
    "turn_started",
]

Religion = Literal["catholic", "protestant", "counter_reformed", "orthodox", "muslim"]
INFECTIOUS: tuple[Religion, ...] = ("protestant", "counter_reformed")
ReligionToken = Literal["protestant", "counter_reformed", "diverse_faiths"]
Town = Literal["small", "large"]
RealmKind = Literal["player", "npr", "dnpr"]
RealmStatus = Literal["independent", "vassal", "annexed"]

INFLUENCE_PER_AREA = 5  # 16.3 Gain/place Influence: "the 5 I per Area limit"
G_PER_AREA = 1  # 16.3 Gain G: "You can only have 1 G in each Area"
MAX_MERCHANTS = 3  # 16.3 Gain Merchant: a third only when you have exactly two

# How many pieces of each kind a state may hold. Chapter 16 gives the caps above; it
# does not count the pieces in the box, so these bounds are the project's reading
# (docs/rules-questions.md, "EU:PoP state limits"): above anything a game reaches,
# and low enough that a state cannot ask for absurd work.
PIECE_RULE = "legalis piece bound (chapter 16 gives no piece counts)"
MAX_LAND_UNITS = 40  # a PR's Regular Land Units: Available, Manpower, Casualties, deployed
MAX_SHIPS = 20  # a PR's Ships on the map
MAX_REBELS = 30  # Rebels (?) on the map, all Provinces together
MAX_PIRATES = 10  # Pirate Ships on the Trade Nodes, all together
MAX_MARKERS = 10  # one PR's available A markers, and its available M markers
MAX_COLONISTS = 10  # one PR's Colonist Pool
MAX_TAX = 10  # a Province's Tax Value
STABILITY_RANGE = (-3, 3)  # a PR's Stability track
MAX_REVOLUTIONARY = 20  # available ^ tokens
MAX_CURIA = 12  # C in the Papal Curia, Roma's included


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=False)


class Character(_Closed):
    """A Ruler, Leader or Advisor: the mortality symbols by its portrait, its Ill
    Health tokens (16.5 Character Mortality: a second one kills it)."""

    name: str
    role: Literal["ruler", "heir", "leader", "advisor"]
    symbols: list[str] = Field(default_factory=list)
    ill_health: int = Field(default=0, ge=0, le=1)


class RealmState(_Closed):
    """A Realm. Player Realms keep their markers and pools; Non-player Realms their
    status, Alliance and Marriages; DNPRs also their token colour."""

    kind: RealmKind
    capital: str | None = Field(default=None, description="The Capital Province.")
    # Player Realms
    alliance_markers: int = Field(default=0, ge=0, description="Available A markers.")
    marriage_markers: int = Field(default=0, ge=0, description="Available M markers.")
    merchants: int = Field(default=0, ge=0, le=MAX_MERCHANTS)
    colonists: int = Field(default=0, ge=0, description="The Colonist Pool.")
    units_available: int = Field(default=0, ge=0, description="Available Regular Units.")
    manpower: int = Field(default=0, ge=0, description="Units in the Manpower Reserve.")
    casualties: int = Field(default=0, ge=0, description="Land Units lost as Casualties.")
    stability: int = 0
    passed: bool = False
    characters: list[Character] = Field(default_factory=list)
    core_provinces: list[str] = Field(default_factory=list)
    # Non-player Realms (NPRs and DNPRs)
    status: RealmStatus = "independent"
    overlord: str | None = Field(default=None, description="The PR a vassal belongs to.")
    ally: str | None = Field(default=None, description="The PR whose A is on this Realm.")
    active_ally: bool = Field(default=False, description="The A is an Active Ally (K).")
    disputed_succession: bool = Field(default=False, description="A Disputed Succession (L).")
    marriages: list[str] = Field(default_factory=list, description="PRs with an M here.")
    tax_income: int = Field(default=0, ge=0, description="Pre-War Tax Income.")
    color: str | None = Field(default=None, description="A DNPR's token colour.")
    # everyone
    at_war: bool = False
    enemies: list[str] = Field(
        default_factory=list, description="PRs at War with this Realm (16.3 Gain Military Unit)."
    )


class ProvinceState(_Closed):
    """A Province: its owner Realm and what lies on it."""

    owner: str | None = Field(default=None, description="The owning Realm; None: vacant.")
    tax: int = Field(default=1, ge=0, description="Tax Value.")
    town: Town | None = Field(default=None, description="A player's t, small or large.")
    vassal: bool = Field(default=False, description="The t is a v (a Vassal's town).")
    town_of: str | None = Field(default=None, description="The PR whose t or v it is.")
    occupied_by: str | None = None
    unrest: bool = False
    dnpr_token: str | None = Field(default=None, description="The DNPR whose token is here.")
    capital: bool = False
    port: bool = False
    distant: bool = Field(default=False, description="A Distant Province (Native Uprising).")
    territory: bool = Field(default=False, description="A Territory outside any Realm.")
    rebels: int = Field(default=0, ge=0, description="Rebels (?) here (16.5 Disloyal Vassals).")


class AreaState(_Closed):
    """An Area: its printed religion, the religion token on it, Influence and G."""

    religion: Religion = "catholic"
    token: ReligionToken | None = None
    token_placed_this_turn: bool = False
    revolutionary: bool = False
    revolutionary_placed_this_turn: bool = False
    influence: dict[str, NonNegativeInt] = Field(default_factory=dict)
    g: list[str] = Field(default_factory=list, description="PRs with a G here.")
    battleground: bool = False

    @property
    def faith(self) -> Religion:
        """The religion in force: a Protestant or Counter-Reformed token overrides
        the printed one."""
        if self.token in INFECTIOUS:
            return self.token
        return self.religion


class Idea(_Closed):
    """An Idea card on the Idea display (16.3 Research Idea): Basic or not, and the
    players who have picked (Researched) it."""

    name: str
    basic: bool = False
    picked_by: list[str] = Field(default_factory=list)


class TradeNode(_Closed):
    maritime: bool = True
    expanded: bool = False
    merchants: dict[str, NonNegativeInt] = Field(default_factory=dict)
    pirates: int = Field(default=0, ge=0)


class EuState(_Closed):
    """The event system's state. ``players`` lists the Player Realms in clockwise
    seat order; ``active`` is the Active player (None while unpicked Events are
    auto-resolved, 16.4)."""

    game: Literal["eupop"] = "eupop"
    age: int = Field(default=1, ge=1, le=4)
    players: list[str]
    active: str | None = None
    realms: dict[str, RealmState]
    provinces: dict[str, ProvinceState] = Field(default_factory=dict)
    areas: dict[str, AreaState] = Field(default_factory=dict)
    sea_marks: dict[str, Literal["none", "*", "†"]] = Field(
        default_factory=dict, description="Marks of Sea Zones the map leaves unknown."
    )
    ships: dict[str, dict[str, NonNegativeInt]] = Field(
        default_factory=dict, description="Per PR, its ships per Sea Zone."
    )
    friendly_ports: dict[str, list[str]] = Field(
        default_factory=dict, description="Per PR, the Sea Zones next to its Friendly Ports."
    )
    land_units: dict[str, dict[str, NonNegativeInt]] = Field(
        default_factory=dict, description="Per PR, its deployed Land Units per Area."
    )
    trade_nodes: dict[str, TradeNode] = Field(default_factory=dict)
    curia: list[str] = Field(default_factory=list, description="Cardinals' owners, left first.")
    power_struggles: dict[str, list[str]] = Field(
        default_factory=dict, description="Power Struggles in play: each one's Battleground Areas."
    )
    upcoming_power_struggle: str | None = Field(default=None, description="The Upcoming one.")
    active_power_struggle: str | None = Field(default=None, description="The Active one.")
    revolutionary_tokens: int = Field(default=0, ge=0, description="^ tokens available.")
    idea_display: dict[str, list[Idea | None]] = Field(
        default_factory=dict,
        description="Per Idea type, its column of the Idea display, row by row (None: empty).",
    )
    idea_deck: list[str] = Field(default_factory=list, description="Ideas in the Idea deck.")
    map_spec: str | dict[str, Any] = Field(
        default="bundled", alias="map", description="'bundled', or a map of its own."
    )

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    # ------------------------------------------------------------------ reading

    @cached_property
    def map(self) -> EuMap:
        return load_map(self.map_spec)

    def influence_total(self, area: str) -> int:
        """All players' Influence in an Area."""
        return sum(self.areas[area].influence.values())

    def realm_of(self, province: str) -> str | None:
        return self.provinces[province].owner

    def provinces_of(self, realm: str) -> list[str]:
        """The Provinces a Realm owns, sorted."""
        return sorted(p for p, s in self.provinces.items() if s.owner == realm)

    def areas_of(self, realm: str) -> list[str]:
        """The Areas holding a Province the Realm owns, sorted."""
        return sorted({self.map.area_of(p) for p in self.provinces_of(realm)})

    def player_realms(self) -> list[str]:
        return list(self.players)

    def clockwise_from(self, first: str | None) -> list[str]:
        """The players in clockwise order starting with ``first`` (16.3: effects on
        several players go player by player, the Active player first)."""
        if first is None or first not in self.players:
            return list(self.players)
        at = self.players.index(first)
        return self.players[at:] + self.players[:at]

    def sea_mark(self, sea: str) -> str:
        """A Sea Zone's mark; the state's mark wins over the map's.

        Raises :class:`InputError` when neither knows it."""
        mark = self.sea_marks.get(sea) or self.map.seas[sea].mark
        if mark == "unknown":
            raise InputError(
                f"the mark of Sea Zone {sea} is not known: give it in sea_marks",
                path=f"sea_marks.{sea}",
                allowed=["none", "*", "†"],
            )
        return mark

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True, exclude_defaults=False)

    def copy(self) -> EuState:  # type: ignore[override]
        return self.model_copy(deep=True)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EuState) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------------ checks

    def problems(self) -> Iterator[tuple[str, str]]:
        """Every broken invariant as ``(path, message)``."""
        map_ = self.map
        realms = self.realms
        for player in self.players:
            if realms.get(player) is None or realms[player].kind != "player":
                yield f"players.{player}", "not a Player Realm of realms"
        if len(set(self.players)) != len(self.players):
            yield "players", "a player is listed twice"
        if self.active is not None and self.active not in self.players:
            yield "active", f"{self.active!r} is not a player"
        for name, realm in realms.items():
            where = f"realms.{name}"
            if realm.kind == "player" and name not in self.players:
                yield where, "a Player Realm missing from players"
            if realm.capital is not None and realm.capital not in self.provinces:
                yield f"{where}.capital", f"unknown Province {realm.capital!r}"
            for field, value in (("overlord", realm.overlord), ("ally", realm.ally)):
                if value is not None and value not in self.players:
                    yield f"{where}.{field}", f"{value!r} is not a player"
            if realm.status == "vassal" and realm.overlord is None:
                yield f"{where}.overlord", "a vassal needs its overlord"
            if realm.active_ally and realm.ally is None:
                yield f"{where}.active_ally", "an Active Ally needs an A on it"
            for enemy in realm.enemies:
                if enemy not in self.players or enemy == name:
                    yield f"{where}.enemies", f"{enemy!r} is not an opposing player"
            for partner in realm.marriages:
                if partner not in self.players:
                    yield f"{where}.marriages", f"{partner!r} is not a player"
            if realm.kind == "dnpr" and realm.color is None:
                yield f"{where}.color", "a DNPR has a token colour"
        for name, province in self.provinces.items():
            where = f"provinces.{name}"
            if not map_.has_province(name):
                yield where, "not a Province of the map"
            for field in ("owner", "occupied_by", "dnpr_token"):
                value = getattr(province, field)
                if value is not None and value not in realms:
                    yield f"{where}.{field}", f"unknown Realm {value!r}"
            token_realm = realms.get(province.dnpr_token or "")
            if token_realm is not None and token_realm.kind != "dnpr":
                yield f"{where}.dnpr_token", "only a DNPR has tokens"
            if (province.town is None) != (province.town_of is None):
                yield f"{where}.town_of", "a t or v belongs to exactly one player"
            if province.town_of is not None and province.town_of not in self.players:
                yield f"{where}.town_of", f"{province.town_of!r} is not a player"
            if province.vassal and province.town is None:
                yield f"{where}.vassal", "a v is a town token"
        for name, area in self.areas.items():
            where = f"areas.{name}"
            if name not in map_.areas:
                yield where, "not an Area of the map"
            for player, amount in area.influence.items():
                if player not in self.players:
                    yield f"{where}.influence.{player}", "not a player"
                if amount < 0:
                    yield f"{where}.influence.{player}", "negative Influence"
            if sum(area.influence.values()) > INFLUENCE_PER_AREA:
                yield f"{where}.influence", f"more than {INFLUENCE_PER_AREA} I in one Area (16.3)"
            if len(set(area.g)) != len(area.g):
                yield f"{where}.g", f"more than {G_PER_AREA} G of one player in an Area (16.3)"
            for player in area.g:
                if player not in self.players:
                    yield f"{where}.g", f"{player!r} is not a player"
        for sea, _mark in self.sea_marks.items():
            if sea not in map_.seas:
                yield f"sea_marks.{sea}", "not a Sea Zone of the map"
        for player, seas in self.friendly_ports.items():
            if player not in self.players:
                yield f"friendly_ports.{player}", "not a player"
            for sea in seas:
                if sea not in map_.seas:
                    yield f"friendly_ports.{player}", f"unknown Sea Zone {sea!r}"
        for name, realm in realms.items():
            for core in realm.core_provinces:
                if not map_.has_province(core):
                    yield f"realms.{name}.core_provinces", f"unknown Province {core!r}"
        for owner in self.curia:
            if owner != "roma" and owner not in self.players:
                yield "curia", f"{owner!r} is neither Roma nor a player"
        for field in ("upcoming_power_struggle", "active_power_struggle"):
            named = getattr(self, field)
            if named is not None and named not in self.power_struggles:
                yield field, f"{named!r} is not in power_struggles"
        for struggle, grounds in self.power_struggles.items():
            for ground in grounds:
                if ground not in map_.areas:
                    yield f"power_struggles.{struggle}", f"unknown Area {ground!r}"
        for label, table in (("ships", self.ships), ("land_units", self.land_units)):
            for player, spread in table.items():
                if player not in self.players:
                    yield f"{label}.{player}", "not a player"
                for place, count in spread.items():
                    known = map_.seas if label == "ships" else map_.areas
                    if place not in known:
                        yield f"{label}.{player}.{place}", "unknown place"
                    if count < 0:
                        yield f"{label}.{player}.{place}", "a negative count"
        rows = {len(column) for column in self.idea_display.values()}
        if len(rows) > 1:
            yield "idea_display", "every column of the Idea display has the same rows"
        seen_ideas: set[str] = set(self.idea_deck)
        if len(seen_ideas) != len(self.idea_deck):
            yield "idea_deck", "an Idea is in the deck twice"
        for kind, column in self.idea_display.items():
            for row, idea in enumerate(column):
                if idea is None:
                    continue
                where = f"idea_display.{kind}.{row}"
                if idea.name in seen_ideas:
                    yield where, f"Idea {idea.name!r} is twice in the display or also in the deck"
                seen_ideas.add(idea.name)
                for player in idea.picked_by:
                    if player not in self.players:
                        yield f"{where}.picked_by", f"{player!r} is not a player"
                if len(set(idea.picked_by)) != len(idea.picked_by):
                    yield f"{where}.picked_by", "a player picked the Idea twice"
        for node, trade in self.trade_nodes.items():
            for player, count in trade.merchants.items():
                if player not in self.players or count < 0:
                    yield f"trade_nodes.{node}.merchants.{player}", "not a player, or negative"
        yield from self._piece_problems()

    def _piece_problems(self) -> Iterator[tuple[str, str]]:
        """Every count above its limit, with the limit and the rule it rests on."""

        def over(count: int, limit: int, what: str, rule: str = PIECE_RULE) -> str:
            return f"{count} {what}: at most {limit} ({rule})"

        merchant_rule = "16.3 Gain Merchant: at most 3 Merchants"
        for name, realm in self.realms.items():
            where = f"realms.{name}"
            land = sum(self.land_units.get(name, {}).values())
            held = realm.units_available + realm.manpower + realm.casualties + land
            if held > MAX_LAND_UNITS:
                yield where, over(held, MAX_LAND_UNITS, "Regular Land Units (Available, "
                                  "Manpower Reserve, Casualties and deployed)")  # fmt: skip
            ships = sum(self.ships.get(name, {}).values())
            if ships > MAX_SHIPS:
                yield f"ships.{name}", over(ships, MAX_SHIPS, "Ships")
            for field in ("alliance_markers", "marriage_markers"):
                if getattr(realm, field) > MAX_MARKERS:
                    yield f"{where}.{field}", over(getattr(realm, field), MAX_MARKERS, "markers")
            if realm.colonists > MAX_COLONISTS:
                yield f"{where}.colonists", over(realm.colonists, MAX_COLONISTS, "Colonists")
            low, high = STABILITY_RANGE
            if not low <= realm.stability <= high:
                range_text = f"from {low} to {high} ({PIECE_RULE})"
                yield f"{where}.stability", f"Stability {realm.stability}: {range_text}"
        for player in self.players:
            placed = sum(node.merchants.get(player, 0) for node in self.trade_nodes.values())
            if placed > MAX_MERCHANTS:
                yield "trade_nodes", over(placed, MAX_MERCHANTS, f"Merchants of {player} on "
                                          "Trade Nodes", merchant_rule)  # fmt: skip
        rebels = sum(province.rebels for province in self.provinces.values())
        if rebels > MAX_REBELS:
            yield "provinces", over(rebels, MAX_REBELS, "Rebels on the map")
        for name, province in self.provinces.items():
            if province.tax > MAX_TAX:
                yield f"provinces.{name}.tax", over(province.tax, MAX_TAX, "Tax Value")
        pirates = sum(node.pirates for node in self.trade_nodes.values())
        if pirates > MAX_PIRATES:
            yield "trade_nodes", over(pirates, MAX_PIRATES, "Pirate Ships")
        if self.revolutionary_tokens > MAX_REVOLUTIONARY:
            yield "revolutionary_tokens", over(self.revolutionary_tokens, MAX_REVOLUTIONARY,
                                               "^ tokens")  # fmt: skip
        if len(self.curia) > MAX_CURIA:
            yield "curia", over(len(self.curia), MAX_CURIA, "C in the Papal Curia")


def state_from_json(raw: Any, *, source: str | None = None) -> EuState:
    """Read and check a state; every fault is an :class:`InputError` with its path.

    >>> state_from_json({"players": ["france"], "realms": {}})
    Traceback (most recent call last):
    ...
    legalis.model.errors.InputError: players.france: not a Player Realm of realms
    """
    if not isinstance(raw, Mapping):
        raise InputError("a state is a JSON object", source=source, path="state")
    if raw.get("game", "eupop") != "eupop":
        raise InputError(
            f"this is a {raw['game']!r} state", source=source, path="game", allowed=["eupop"]
        )
    try:  # strict: each field of the type its schema states (0 is not false, "2" not 2)
        state = EuState.model_validate(raw, strict=True)
    except ValidationError as error:
        first = error.errors()[0]
        path = ".".join(str(part) for part in first["loc"])
        raise InputError(first["msg"], source=source, path=path) from error
    for path, message in state.problems():
        raise InputError(message, source=source, path=path)
    return state


def bundled_state() -> EuState:
    """The bundled sample state on the bundled map (``sample_state.json``): three
    players, a few Non-player Realms and DNPRs, Protestant clusters in Saxony and
    Switzerland. Original sample data for the demo and the commands' defaults.

    >>> state = bundled_state()
    >>> state.players, state.areas["saxony"].faith
    (['france', 'england', 'castile'], 'protestant')
    """
    text = package_folder("legalis.model.eupop").joinpath("sample_state.json").read_text("utf-8")
    return state_from_json(json.loads(text), source="sample_state.json")


SMALL_STATE: dict[str, Any] = {
    "players": ["france", "england"],
    "active": "france",
    "realms": {
        "france": {"kind": "player", "alliance_markers": 2, "merchants": 2},
        "england": {"kind": "player", "alliance_markers": 1},
        "saxony_realm": {"kind": "npr", "capital": "Dresden", "tax_income": 4},
    },
    "provinces": {
        "Leipzig": {"owner": "saxony_realm"},
        "Dresden": {"owner": "saxony_realm", "capital": True, "tax": 2},
    },
    "areas": {"saxony": {"influence": {"france": 2, "england": 1}}},
}


def small_state() -> EuState:
    """A small state on the bundled map (:data:`SMALL_STATE`): two players, Saxony
    an independent NPR.

    >>> small_state().players
    ['france', 'england']
    """
    return state_from_json(SMALL_STATE)


def keep_players(state: EuState, players: list[str]) -> EuState:
    """The state with only ``players`` as Player Realms, in that (clockwise seat)
    order, for a scenario that puts fewer Realms in play than the state holds: every
    other Player Realm becomes a Non-player Realm keeping its Provinces, its Tax
    Income the sum of their Tax Values; what only a player has leaves the map (its
    I, G, t/v, Ships, Land Units, Merchants, C, Ideas, its A/M on Non-player Realms,
    Vassals and Wars). ``docs/rules-questions.md`` ("EU:PoP as a game") records it.

    >>> state = keep_players(bundled_state(), ["england", "france"])
    >>> state.players, state.realms["castile"].kind, state.realms["naples_realm"].overlord
    (['england', 'france'], 'npr', None)
    >>> keep_players(bundled_state(), ["france", "savoy"])
    Traceback (most recent call last):
    ...
    legalis.model.errors.InputError: players: 'savoy' is not a Player Realm of the state \
(allowed: france, england, castile)
    """
    for name in players:
        if name not in state.players:
            raise InputError(
                f"{name!r} is not a Player Realm of the state",
                path="players",
                allowed=state.players,
            )
    gone = set(state.players) - set(players)
    new = state.copy()
    new.players = list(players)
    if new.active in gone:
        new.active = None
    for name in gone:
        tax = sum(new.provinces[p].tax for p in new.provinces_of(name))
        new.realms[name] = RealmState(kind="npr", capital=new.realms[name].capital, tax_income=tax)
        for table in (new.ships, new.land_units, new.friendly_ports):
            table.pop(name, None)
    for realm in new.realms.values():
        if realm.overlord in gone:
            realm.overlord, realm.status = None, "independent"
        if realm.ally in gone:
            realm.ally, realm.active_ally = None, False
        realm.enemies = [p for p in realm.enemies if p not in gone]
        realm.marriages = [p for p in realm.marriages if p not in gone]
    for province in new.provinces.values():
        if province.town_of in gone:
            province.town, province.town_of, province.vassal = None, None, False
        if province.occupied_by in gone:
            province.occupied_by = None
    for area in new.areas.values():
        area.influence = {p: n for p, n in area.influence.items() if p not in gone}
        area.g = [p for p in area.g if p not in gone]
    for node in new.trade_nodes.values():
        node.merchants = {p: n for p, n in node.merchants.items() if p not in gone}
    new.curia = [owner for owner in new.curia if owner not in gone]
    for column in new.idea_display.values():
        for idea in column:
            if idea is not None:
                idea.picked_by = [p for p in idea.picked_by if p not in gone]
    return state_from_json(new.to_json(), source="keep_players")


def turn_started(state: EuState) -> EuState:
    """The state as a new Turn begins: no Q or ^ counts as placed this Turn any more
    (16.5 Spread of Religious Ideas counts the Q "placed ... this Turn"). A new state
    whose fields other than ``areas`` are shared with ``state``: set its top-level
    fields (``active``) freely, copy it before changing anything nested.

    >>> state = bundled_state()
    >>> state.areas["saxony"].token_placed_this_turn = True
    >>> turn_started(state).areas["saxony"].token_placed_this_turn
    False
    """
    cleared = {"token_placed_this_turn": False, "revolutionary_placed_this_turn": False}
    areas = {name: area.model_copy(update=cleared) for name, area in state.areas.items()}
    return state.model_copy(update={"areas": areas})  # the rest is shared, not copied
