"""Scenario set-ups of the COIN games, read from TOML and built into states.

A scenario file (``model/<game>/scenarios/<name>.toml``) gives the tracks, flags,
kept lists and Leaders, then the pieces, Support and markers of each space and
the pieces of each box other than Available; every piece not placed goes to
Available. Optional checks repeat totals printed in the set-up (Total Support
and Opposition, the Available pieces, Control of a space) and the loader
verifies them, so a transcription slip is an error, not a wrong game.

>>> state = load_scenario("lod", "1775")
>>> state.pieces("Boston", "british_regular"), state.available("militia")
(3, 11)
>>> state.control("Massachusetts"), state.total_support(), state.total_opposition()
('rebellion', 4, 4)
>>> sorted(scenario_names("lod"))
['1775', '1776', '1778']
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from legalis.model.coin.gamedata import GAME_PACKAGES, SUPPORT_LEVELS
from legalis.model.coin.state import CoinState, rules_for
from legalis.model.core.documents import package_folder
from legalis.model.errors import InputError

__all__ = ["Release", "Scenario", "load_scenario", "scenario_info", "scenario_names"]

_TOP = (
    "game", "name", "title", "campaigns", "coup_cards", "cards_per_campaign", "tracks",
    "flags", "lists", "leaders", "eligibility", "release", "boxes", "spaces", "check",
    "period_events", "capabilities", "momentum",
)  # fmt: skip


@dataclass(frozen=True)
class Release:
    """Pieces moved from Unavailable to Available at the Winter Quarters round
    after the year ``after`` (LoD British release dates).

    >>> scenario_info("lod", "1775").releases[0]
    Release(after=1775, pieces={'british_regular': 6, 'tory': 6})
    """

    after: int
    pieces: Mapping[str, int]


@dataclass(frozen=True)
class Scenario:
    """A scenario's set-up state and the facts of its set-up kept beside the state.

    ``details`` holds the remaining scalar fields of the file (campaign years,
    Coup cards, ...). ``period_capabilities`` are put in force by the Period
    Events option only.

    >>> info = scenario_info("fitl", "short")
    >>> info.title, info.period_capabilities, info.details["coup_cards"]
    ("Westy's War (1965-1967)", {'AAA': 'shaded'}, 3)
    """

    game: str
    name: str
    title: str
    state: CoinState
    releases: tuple[Release, ...] = ()
    period_capabilities: Mapping[str, str] = field(default_factory=dict)
    details: Mapping[str, Any] = field(default_factory=dict)


def scenario_names(game: str) -> list[str]:
    """The names of the scenarios bundled with ``game``.

    >>> scenario_names("fitl")
    ['short']
    """
    if game not in GAME_PACKAGES:
        raise InputError(f"no COIN game {game!r}", path="game", allowed=GAME_PACKAGES)
    folder = package_folder(GAME_PACKAGES[game]).joinpath("scenarios")
    return sorted(
        entry.name.removesuffix(".toml")
        for entry in folder.iterdir()
        if entry.name.endswith(".toml")
    )


def load_scenario(game: str, name: str, *, period_events: bool = False) -> CoinState:
    """The opening state of a bundled scenario, a fresh copy on every call.

    ``period_events``: apply the Period Events option (the scenario's period
    Capabilities are in force from the start).

    Raises
    ------
    InputError
        An unknown game or scenario, or a scenario file that fails its checks.

    Examples
    --------
    >>> state = load_scenario("fitl", "short", period_events=True)
    >>> state.capability("AAA"), state.pieces("Tay Ninh", "vc_base", "tunneled")
    ('shaded', 1)
    >>> load_scenario("lod", "1777")
    Traceback (most recent call last):
    ...
    legalis.model.errors.InputError: scenario: no lod scenario '1777' (allowed: 1775, 1776, 1778)
    """
    info = scenario_info(game, name)
    state = info.state.copy()
    if period_events:
        for capability, side in info.period_capabilities.items():
            state.set_capability(capability, side)
    return state


@cache
def scenario_info(game: str, name: str) -> Scenario:
    """A bundled scenario, read and checked once.

    >>> scenario_info("lod", "1778").state.flag("toa_played")
    True
    """
    names = scenario_names(game)
    if name not in names:
        raise InputError(f"no {game} scenario {name!r}", path="scenario", allowed=names)
    source = f"{game}/scenarios/{name}.toml"
    try:
        text = (
            package_folder(GAME_PACKAGES[game])
            .joinpath("scenarios", f"{name}.toml")
            .read_text("utf-8")
        )
        raw = tomllib.loads(text)
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise InputError(f"cannot read the scenario: {err}", source=source) from err
    return parse_scenario(game, raw, source=source)


def parse_scenario(game: str, raw: Mapping[str, Any], *, source: str = "scenario") -> Scenario:
    """Build a :class:`Scenario` from the parsed TOML of a scenario file.

    Raises
    ------
    InputError
        Naming the field path of the first fault: an unknown name, more pieces
        placed than exist, a broken invariant, a check that does not hold.

    Examples
    --------
    >>> tracks = {t.id: 0 for t in rules_for("lod").data.tracks}
    >>> parse_scenario("lod", {"game": "lod", "name": "x", "title": "x",
    ...     "tracks": tracks, "spaces": {"Boston": {"war_party": 1}}})
    Traceback (most recent call last):
    ...
    legalis.model.errors.InputError: scenario:spaces.Boston.war_party: Indian pieces may never be in a City (1.4.2)
    """  # noqa: E501
    return _ScenarioReader(game, source).read(raw)


class _ScenarioReader:
    def __init__(self, game: str, source: str) -> None:
        self.game = game
        self.source = source
        self.rules = rules_for(game)

    def fail(self, message: str, path: str, allowed: Any = None) -> InputError:
        return InputError(message, source=self.source, path=path, allowed=allowed)

    def table(self, value: Any, path: str) -> Mapping[str, Any]:
        if not isinstance(value, dict):
            raise self.fail("expected a table", path)
        return value

    def whole(self, value: Any, path: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise self.fail(f"expected a whole number 0 or more, got {value!r}", path)
        return value

    def read(self, raw: Mapping[str, Any]) -> Scenario:
        rules = self.rules
        data = rules.data
        for key in raw:
            if key not in _TOP:
                raise self.fail(f"unknown field {key!r}", key, _TOP)
        if raw.get("game") != self.game:
            raise self.fail(f"expected game = {self.game!r}", "game", [self.game])
        for key in ("name", "title"):
            if not isinstance(raw.get(key), str):
                raise self.fail("expected a string", key)
        state = CoinState.new(self.game)
        # markers are placed from scratch: conserved stocks get their remainder at home
        state.marks = [0] * len(state.marks)

        tracks = self.table(raw.get("tracks", {}), "tracks")
        for key in tracks:
            if key not in rules.track_index:
                raise self.fail(f"unknown track {key!r}", f"tracks.{key}", rules.track_index)
        for track in data.tracks:
            if track.id not in tracks:
                raise self.fail("missing track", f"tracks.{track.id}")
            value = tracks[track.id]
            if not isinstance(value, int) or isinstance(value, bool):
                raise self.fail(f"expected a whole number, got {value!r}", f"tracks.{track.id}")
            state.set_track(track.id, value)
        for key, value in self.table(raw.get("flags", {}), "flags").items():
            rules.flag(key, path=f"flags.{key}")
            if not isinstance(value, bool):
                raise self.fail("expected true or false", f"flags.{key}")
            state.set_flag(key, value)
        for key, value in self.table(raw.get("lists", {}), "lists").items():
            if key not in rules.list_ids:
                raise self.fail(f"unknown list {key!r}", f"lists.{key}", rules.list_ids)
            if not isinstance(value, list):
                raise self.fail("expected a list of names", f"lists.{key}")
            state.set_card_list(key, value)
        for key, value in self.table(raw.get("leaders", {}), "leaders").items():
            if key not in rules.leader_names:
                raise self.fail(f"unknown Leader {key!r}", f"leaders.{key}", rules.leader_names)
            if value not in rules.locations:
                raise self.fail(
                    f"unknown space or box {value!r}", f"leaders.{key}", rules.locations
                )
            state.set_leader(key, value)
        for key, value in self.table(raw.get("eligibility", {}), "eligibility").items():
            if key not in rules.faction_ids:
                raise self.fail(f"unknown Faction {key!r}", f"eligibility.{key}", rules.faction_ids)
            if value not in ("eligible", "ineligible"):
                raise self.fail(
                    f"unknown eligibility {value!r}",
                    f"eligibility.{key}",
                    ("eligible", "ineligible"),
                )
            state.set_eligibility(key, value)
        for key, value in self.table(raw.get("capabilities", {}), "capabilities").items():
            if value not in ("unshaded", "shaded"):
                raise self.fail(
                    f"unknown side {value!r}", f"capabilities.{key}", ("unshaded", "shaded")
                )
            state.set_capability(key, value)
        momentum = raw.get("momentum", [])
        if not isinstance(momentum, list) or not all(isinstance(m, str) and m for m in momentum):
            raise self.fail("expected a list of names", "momentum")
        for name in momentum:
            state.add_momentum(name)

        expected_control: list[tuple[str, str, Any]] = []
        boxes = self.table(raw.get("boxes", {}), "boxes")
        for name, entry in boxes.items():
            path = f"boxes.{name}"
            if name not in rules.boxes or name == data.available_box:
                allowed = [box for box in rules.boxes if box != data.available_box]
                raise self.fail(
                    f"unknown box {name!r} (Available holds every piece not placed)",
                    path,
                    allowed,
                )
            self.contents(state, name, self.table(entry, path), path, expected_control)
        spaces = self.table(raw.get("spaces", {}), "spaces")
        for name, entry in spaces.items():
            path = f"spaces.{name}"
            if name not in rules.spaces:
                raise self.fail(f"unknown {self.game} space {name!r}", path, rules.spaces)
            entry = self.table(entry, path)
            if "support" in entry:
                level = entry["support"]
                if level not in SUPPORT_LEVELS:
                    raise self.fail(
                        f"unknown support level {level!r}", f"{path}.support", SUPPORT_LEVELS
                    )
                if level != "neutral" and not state.can_have_support(name):
                    raise self.fail(
                        f"{name} is always Neutral ({data.support_rule})", f"{path}.support"
                    )
                state.set_support(name, level)
            self.contents(state, name, entry, path, expected_control)
        self.home_markers(state)

        problems = state.invariant_problems()
        if problems:
            where, _, message = problems[0].partition(": ")
            # a piece or marker problem in a space is reported at the scenario's own field
            where = where.replace(".pieces.", ".")
            raise self.fail(message, where)
        for name, path, wanted in expected_control:
            got = state.control(name)
            if (got or "none") != wanted:
                raise self.fail(
                    f"the set-up gives {wanted} Control, the pieces give {got or 'none'}", path
                )
        self.checks(state, self.table(raw.get("check", {}), "check"))

        releases = []
        release_rows = raw.get("release", [])
        if not isinstance(release_rows, list):
            raise self.fail("expected a list of [[release]] tables", "release")
        for index, row in enumerate(release_rows):
            path = f"release[{index}]"
            row = self.table(row, path)
            pieces: dict[str, int] = {}
            after = None
            for key, value in row.items():
                if key == "after":
                    after = self.whole(value, f"{path}.after")
                    continue
                piece = rules.piece_types[rules.piece(key, path=f"{path}.{key}")]
                pieces[piece.id] = self.whole(value, f"{path}.{key}")
            if after is None:
                raise self.fail("missing field", f"{path}.after")
            releases.append(Release(after, pieces))
        period = self.table(raw.get("period_events", {}), "period_events")
        period_caps: dict[str, str] = {}
        for key, value in period.items():
            if key != "capabilities":
                raise self.fail(f"unknown field {key!r}", f"period_events.{key}", ["capabilities"])
            for cap_name, side in self.table(value, "period_events.capabilities").items():
                if side not in ("unshaded", "shaded"):
                    raise self.fail(
                        f"unknown side {side!r}",
                        f"period_events.capabilities.{cap_name}",
                        ("unshaded", "shaded"),
                    )
                period_caps[cap_name] = side
        details = {
            key: raw[key] for key in ("campaigns", "coup_cards", "cards_per_campaign") if key in raw
        }
        return Scenario(
            game=self.game,
            name=raw["name"],
            title=raw["title"],
            state=state,
            releases=tuple(releases),
            period_capabilities=period_caps,
            details=details,
        )

    def contents(
        self,
        state: CoinState,
        location: str,
        entry: Mapping[str, Any],
        path: str,
        expected_control: list[tuple[str, str, Any]],
    ) -> None:
        rules = self.rules
        available = rules.data.available_box
        for key, value in entry.items():
            where = f"{path}.{key}"
            if key == "support":
                continue
            if key == "control":
                allowed = [rule.id for rule in rules.data.control] + ["none"]
                if value not in allowed:
                    raise self.fail(f"unknown Control {value!r}", where, allowed)
                expected_control.append((location, where, value))
                continue
            if key == "markers":
                for marker, n in self.table(value, where).items():
                    rules.marker(marker, path=f"{where}.{marker}")
                    state.add_marker(location, marker, self.whole(n, f"{where}.{marker}"))
                continue
            index = rules.piece_index.get(key)
            if index is None or rules.piece_types[index].id != key:
                raise self.fail(
                    f"unknown field or piece type {key!r}",
                    where,
                    ["support", "control", "markers"] + [p.id for p in rules.piece_types],
                )
            piece = rules.piece_types[index]
            by_status = (
                {piece.default_status: value} if not isinstance(value, dict) else dict(value)
            )
            for status, n in by_status.items():
                if status not in piece.statuses:
                    raise self.fail(
                        f"{piece.name} cannot be {status!r}", f"{where}.{status}", piece.statuses
                    )
                n = self.whole(n, where if not isinstance(value, dict) else f"{where}.{status}")
                have = state.pieces(available, key)
                if have < n:
                    raise self.fail(
                        f"{n} {piece.name} placed, only {have} left of {piece.inventory}", where
                    )
                state.move_pieces(available, location, key, n, None, status)

    def home_markers(self, state: CoinState) -> None:
        rules = self.rules
        for pool in rules.data.pools:
            if not pool.conserved:
                continue
            placed = sum(
                state.markers(location, marker.id)
                for marker in rules.marker_types
                if marker.pool == pool.id
                for location in rules.locations
            )
            for marker in rules.marker_types:
                if marker.pool == pool.id and marker.home is not None:
                    if placed < pool.count:
                        state.add_marker(marker.home, marker.id, pool.count - placed)
                    break

    def checks(self, state: CoinState, check: Mapping[str, Any]) -> None:
        rules = self.rules
        for key, value in check.items():
            path = f"check.{key}"
            if key == "total_support":
                got = state.total_support()
            elif key == "total_opposition":
                got = state.total_opposition()
            elif key == "available":
                for piece, n in self.table(value, path).items():
                    rules.piece(piece, path=f"{path}.{piece}")
                    have = state.available(piece)
                    if have != n:
                        raise self.fail(
                            f"the set-up gives {n} Available, the pieces leave {have}",
                            f"{path}.{piece}",
                        )
                continue
            else:
                raise self.fail(
                    f"unknown check {key!r}",
                    path,
                    ["total_support", "total_opposition", "available"],
                )
            if got != value:
                raise self.fail(f"the set-up gives {value}, the state gives {got}", path)
