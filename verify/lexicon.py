"""The names of a COIN game as event text writes them.

Every surface form of a piece, Faction, track, space, box, space type, terrain,
country, Control, Command and flag, mapped to what it stands for. The grammar's
name terminals are built from it (``legalis.verify.text.grammar_for``), and the
compiler turns tokens back into ids with it.

>>> lexicon("lod").pieces["Militia"]
('militia',)
>>> lexicon("lod").factions["Patriot"]
'patriots'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache
from typing import Any

from legalis.model.coin.gamedata import load_game_data
from legalis.model.coin.mapdata import COUNTRIES, SPACE_TYPES, TERRAINS, load_map

__all__ = ["Lexicon", "alternation", "lexicon", "norm"]

# The Commands and Special Activities each game names in event text: the printed
# name, its id in the effect language and its kind (LoD 3-4, FitL 3-4).
_ACTIONS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "lod": (
        ("Rally", "rally", "command"),
        ("March", "march", "command"),
        ("Battle", "battle", "command"),
        ("Muster", "muster", "command"),
        ("Garrison", "garrison", "command"),
        ("Gather", "gather", "command"),
        ("Scout", "scout", "command"),
        ("Raid", "raid", "command"),
        ("Rabble-Rousing", "rabble_rousing", "command"),
        ("Skirmish", "skirmish", "special_activity"),
        ("Naval Pressure", "naval_pressure", "special_activity"),
        ("Common Cause", "common_cause", "special_activity"),
        ("Partisans", "partisans", "special_activity"),
        ("Persuasion", "persuasion", "special_activity"),
        ("Trade", "trade", "special_activity"),
        ("War Path", "war_path", "special_activity"),
        ("Plunder", "plunder", "special_activity"),
        ("Preparer la Guerre", "preparer_la_guerre", "special_activity"),
    ),
    "fitl": (
        ("Train", "train", "operation"),
        ("Patrol", "patrol", "operation"),
        ("Sweep", "sweep", "operation"),
        ("Assault", "assault", "operation"),
        ("Rally", "rally", "operation"),
        ("March", "march", "operation"),
        ("Attack", "attack", "operation"),
        ("Terror", "terror", "operation"),
        ("Pacify", "pacify", "operation"),
        ("Improve the Trail", "improve_trail", "operation"),
        ("Improve Trail", "improve_trail", "operation"),
        ("Agitate", "agitate", "operation"),
        ("Advise", "advise", "special_activity"),
        ("Air Lift", "air_lift", "special_activity"),
        ("Air Strike", "air_strike", "special_activity"),
        ("Govern", "govern", "special_activity"),
        ("Transport", "transport", "special_activity"),
        ("Raid", "raid", "special_activity"),
        ("Infiltrate", "infiltrate", "special_activity"),
        ("Bombard", "bombard", "special_activity"),
        ("Ambush", "ambush", "special_activity"),
        ("Tax", "tax", "special_activity"),
        ("Subvert", "subvert", "special_activity"),
    ),
}


# Cubes (LoD 1.4, FitL 1.4): the piece kinds that are cubes on the board.
_CUBE_KINDS = frozenset({"regular", "tory", "continental", "troop", "police"})

# Abbreviations the cards use for spaces whose printed name is longer: the
# two-letter postal codes of the colonies the LoD map names (LoD 1.3).
_SPACE_ALIASES: dict[str, dict[str, str]] = {
    "lod": {
        "NH": "New Hampshire", "MA": "Massachusetts", "CT": "Connecticut-Rhode Island",
        "RI": "Connecticut-Rhode Island", "NY": "New York", "NJ": "New Jersey",
        "PA": "Pennsylvania", "MD": "Maryland-Delaware", "DE": "Maryland-Delaware",
        "VA": "Virginia", "NC": "North Carolina", "SC": "South Carolina", "GA": "Georgia",
    },
}  # fmt: skip

# Card boxes the text names, and the card list of the state each holds.
_CARD_BOXES: dict[str, dict[str, str]] = {
    "fitl": {"RVN Leader box": "rvn_leaders", "RVN Leaders box": "rvn_leaders"},
}


def norm(name: str) -> str:
    return " ".join(name.split())


def _singular(name: str) -> str:
    head, _, last = name.rpartition(" ")
    if last.endswith("ies"):
        last = last[:-3] + "y"
    elif last.endswith("s") and not last.endswith("ss") and len(last) > 3:
        last = last[:-1]
    return f"{head} {last}" if head else last


def _plural(word: str) -> str:
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def _inflect(verb: str) -> str:
    """The third-person or plural form of an action's last word ("March": "Marches")."""
    if verb.endswith(("ch", "sh", "s", "x")):
        return verb + "es"
    return _plural(verb)


def _initials(name: str) -> str | None:
    words = name.split()
    if len(words) < 3:
        return None
    return "".join(word[0] for word in words)


def _ascii(name: str) -> str:
    return unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()


class Lexicon:
    """The names of one game, each surface form mapped to what it stands for.

    Besides the printed names it knows the forms event text writes: a piece named
    with its Faction ("Patriot Militia", "Indian Villages") or side ("COIN Bases"),
    the sides as groups of Factions ("Insurgents"), abbreviations and partial names
    of spaces (:data:`_SPACE_ALIASES`, the parts of a hyphenated name), the
    Indian Reserve Provinces, and region names ("the South").

    >>> lexicon("lod").spaces["MD"], lexicon("fitl").groups["COIN"]
    ('Maryland-Delaware', ('us', 'arvn'))
    >>> lexicon("fitl").pieces["Insurgent Bases"]
    ('nva_base', 'vc_base')
    """

    def __init__(self, game: str) -> None:
        data = load_game_data(game)
        board = load_map(game)
        self.game = game
        self.faction_names = {f.id: f.name for f in data.factions}
        self.factions: dict[str, str] = {}  # surface -> faction id
        for faction in data.factions:
            for form in self._faction_forms(faction.name):
                self.factions[form] = faction.id
        self.faction_side = {f.id: f.side for f in data.factions}
        self.groups = self._groups(data.sides, data.factions)
        self.pieces: dict[str, tuple[str, ...]] = {}
        self.piece_kind = {p.id: (p.faction, p.kind) for p in data.pieces}
        self.faction_pieces = {
            f.id: tuple(p.id for p in data.pieces if p.faction == f.id) for f in data.factions
        }
        self.all_pieces = tuple(p.id for p in data.pieces)
        self.bases = tuple(p.id for p in data.pieces if p.stacking)
        self.cubes = tuple(p.id for p in data.pieces if p.kind in _CUBE_KINDS)
        tails: dict[str, list[str]] = {}
        for piece in data.pieces:
            for form in (piece.name, _singular(piece.name)):
                self.pieces[form] = (piece.id,)
            for form in self._faction_forms(self.faction_names[piece.faction]):
                if piece.name.startswith(form + " "):
                    tail = piece.name[len(form) + 1 :]
                    for other in self._faction_forms(self.faction_names[piece.faction]):
                        self.pieces.setdefault(f"{other} {tail}", (piece.id,))
                        self.pieces.setdefault(_singular(f"{other} {tail}"), (piece.id,))
                    tails.setdefault(tail, []).append(piece.id)
                    break
            else:
                tails.setdefault(piece.name, []).append(piece.id)
        for tail, ids in tails.items():
            for form in (tail, _singular(tail)):
                self.pieces.setdefault(form, tuple(dict.fromkeys(ids)))
        # a piece named with its Faction ("Patriot Militia") or its side ("COIN Bases")
        for tail, ids in tails.items():
            for faction in data.factions:
                own = tuple(piece for piece in ids if self.piece_kind[piece][0] == faction.id)
                for form in self._faction_forms(faction.name) if own else ():
                    for name in (f"{form} {tail}", _singular(f"{form} {tail}")):
                        self.pieces.setdefault(name, own)
            for group, factions in self.groups.items():
                if group.endswith("s") and group[:-1] in self.groups:
                    continue  # "Insurgent Bases", not "Insurgents Bases"
                own = tuple(piece for piece in ids if self.piece_kind[piece][0] in factions)
                for name in (f"{group} {tail}", _singular(f"{group} {tail}")) if own else ():
                    self.pieces.setdefault(name, own)
        self.tracks: dict[str, str] = {}
        for track in data.tracks:
            self.tracks[track.name] = track.id
            short = _initials(track.name)
            if short:
                self.tracks.setdefault(short, track.id)
            faction_id = track.id.removesuffix("_resources")
            if track.id.endswith("_resources") and faction_id in self.faction_names:
                for form in self._faction_forms(self.faction_names[faction_id]):
                    self.tracks.setdefault(f"{form} Resources", track.id)
        self.spaces = {space.name: space.name for space in board.spaces}
        for alias, name in self._space_aliases(game, list(self.spaces)).items():
            self.spaces.setdefault(alias, name)
        self.boxes: dict[str, str] = {box.name.lower(): box.id for box in data.boxes}
        self.box_names: dict[str, str] = {box.name.lower(): box.name for box in data.boxes}
        for name in board.boxes:
            self.box_names.setdefault(name.lower(), name)
            self.boxes.setdefault(name.lower(), name.lower().replace(" ", "_"))
        for name, box_id in list(self.boxes.items()):
            # "out-of-play ARVN Troops", "Casualty pieces"
            if name.count(" ") >= 2:
                self.boxes.setdefault(name.replace(" ", "-"), box_id)
            elif " " not in name:
                self.boxes.setdefault(_singular(name), box_id)
        self.box_pieces = {box.id: box.pieces for box in data.boxes}  # what each box holds
        self.map_boxes = frozenset(board.boxes)  # boxes the map holds (LoD West Indies)
        types = SPACE_TYPES[game]
        self.types_one: dict[str, tuple[str, ...]] = {kind: (kind,) for kind in types}
        if "Province" not in types and {"Colony", "Reserve"} <= set(types):
            self.types_one["Province"] = ("Colony", "Reserve")  # LoD 1.3
            # an Indian Reserve is a Province (LoD 1.3.2)
            for form in ("Indian Reserve Province", "Indian Reserve", "Reserve Province"):
                self.types_one[form] = ("Reserve",)
        self.types_many = {_plural(name): kinds for name, kinds in self.types_one.items()}
        self.terrains = {t: t for t in TERRAINS if any(s.terrain == t for s in board.spaces)}
        # a country that is one space of the same name (North Vietnam) is read as the space
        self.countries: dict[str, tuple[str, ...]] = {
            c: (c,) for c in COUNTRIES
            if any(s.country == c for s in board.spaces) and c not in self.spaces
        }  # fmt: skip
        if {"South Vietnam", "North Vietnam"} <= {s.country for s in board.spaces}:
            self.countries["South"] = ("South Vietnam",)  # "the South"
            self.countries["Vietnam"] = ("South Vietnam", "North Vietnam")
        self.control = {rule.name: rule.id for rule in data.control}
        for rule in data.control:  # "British Controlled Colonies", "COIN-Controlled"
            owner = rule.name.removesuffix(" Control")
            for form in (f"{owner} Controlled", f"{owner}-Controlled"):
                self.control.setdefault(form, rule.id)
        self.actions: dict[str, tuple[str, str]] = {}
        for printed, action_id, kind in _ACTIONS.get(game, ()):
            self.actions[printed] = (action_id, kind)
            self.actions.setdefault(_ascii(printed), (action_id, kind))
        for printed, (action_id, kind) in list(self.actions.items()):
            # "ARVN free Patrols", "US Air Lifts", "Pacifies": the same action
            head, _, last = printed.rpartition(" ")
            named_by_verb = not head or kind == "special_activity"  # not "Improve Trail"
            if named_by_verb and not last.endswith(("s", "ing", "ion")) and " " not in head:
                inflected = f"{head} {_inflect(last)}" if head else _inflect(last)
                self.actions.setdefault(inflected, (action_id, kind))
        self.flags: dict[str, str] = {}
        for flag_id, name in data.flags:
            subject = name.removesuffix(" played")
            self.flags[subject] = flag_id
            words = subject.split()
            if len(words) >= 2:
                self.flags.setdefault("".join(word[0] for word in words), flag_id)
        self.markers: dict[str, str] = {}  # "Raid", "Squadrons/Blockades", "Blockade"
        for marker in data.markers:
            parts = marker.name.split("/")
            plural = "/".join(_plural(part) for part in parts)
            for form in (marker.name, plural, *parts, *(_plural(part) for part in parts)):
                self.markers.setdefault(form, marker.id)
        self.leaders = {leader.name: leader.name for leader in data.leaders}
        # the boxes that hold cards, as the text names them
        lists = {card_list.id for card_list in data.card_lists}
        self.card_boxes = {
            name: list_id for name, list_id in _CARD_BOXES.get(game, {}).items() if list_id in lists
        }

    @staticmethod
    def _faction_forms(name: str) -> list[str]:
        forms = [name]
        if len(name) > 3 and name.endswith("s") and name[-2].islower():
            forms.append(name[:-1])  # Patriots -> Patriot (Patriot Resources)
        return forms

    @classmethod
    def _groups(
        cls, sides: Iterable[tuple[str, str]], factions: Iterable[Any]
    ) -> dict[str, tuple[str, ...]]:
        """Each side as a group of Factions under its names ("Insurgent(s)", "COIN"
        from "Counterinsurgent (COIN)", "Rebellion"), and two Factions of one side
        written together ("US/ARVN")."""
        groups: dict[str, tuple[str, ...]] = {}
        members = list(factions)
        for side_id, name in sides:
            ids = tuple(f.id for f in members if f.side == side_id)
            full, _, short = name.partition(" (")
            for form in (full, short.rstrip(")")):
                if not form:
                    continue
                groups.setdefault(form, ids)
                if not form.isupper() and not form.endswith("ion"):  # not "COINs", "Rebellions"
                    groups.setdefault(_plural(form), ids)
            for first in members:
                for second in members:
                    if first.side == second.side == side_id and first is not second:
                        groups.setdefault(f"{first.name}/{second.name}", (first.id, second.id))
        return groups

    @staticmethod
    def _space_aliases(game: str, names: list[str]) -> dict[str, str]:
        """Other names of spaces: the game's abbreviations, the parts of a hyphenated
        name ("Maryland" of "Maryland-Delaware"), a name without its article ("the
        Fishhook"); a part that is itself a space or part of two names is left out."""
        aliases = dict(_SPACE_ALIASES.get(game, {}))
        parts: dict[str, list[str]] = {}
        for name in names:
            if " -- " in name:  # a LoC is named by its ends
                continue
            for part in name.split("-") if "-" in name else ():
                parts.setdefault(part.strip(), []).append(name)
            if name.startswith("The "):
                parts.setdefault(name[4:], []).append(name)
        for part, owners in parts.items():
            if len(owners) == 1 and part not in names:
                aliases.setdefault(part, owners[0])
        return {alias: name for alias, name in aliases.items() if name in names}

    def categories(self) -> dict[str, tuple[dict[str, Any], bool]]:
        """Terminal name -> (surface forms, case-insensitive)."""
        return {
            "PIECE": (self.pieces, False),
            "FACTION": (self.factions, False),
            "GROUP": (self.groups, False),
            "TRACK": (self.tracks, False),
            "SPACE": (self.spaces, False),
            "BOX": (self.boxes, True),
            "TYPE_ONE": (self.types_one, False),
            "TYPE_MANY": (self.types_many, False),
            "TERRAIN": (self.terrains, False),
            "COUNTRY": (self.countries, False),
            "CONTROL": (self.control, False),
            "ACTION": (self.actions, False),
            "FLAG": (self.flags, False),
            "CARD_BOX": (self.card_boxes, False),
            "MARKER": (self.markers, True),
            "LEADER": (self.leaders, False),
        }

    def vocabulary(self, terminal: str) -> list[str]:
        """The printed forms of one name terminal, for nearest-name suggestions."""
        if terminal == "BOX":
            return list(self.box_names.values())
        forms = self.categories().get(terminal)
        return list(forms[0]) if forms else []

    def marker(self, name: str) -> str:
        """The id of the marker ``name`` names, any case ("raid", "Blockades")."""
        folded = {form.lower(): marker_id for form, marker_id in self.markers.items()}
        return folded[norm(name).lower()]

    def box(self, name: str) -> str:
        """The id of the box ``name`` names ("Out of Play", "out-of-play": ``out_of_play``)."""
        return self.boxes[norm(name).lower()]


def alternation(forms: Iterable[str], insensitive: bool) -> str:
    words = sorted(set(forms), key=lambda form: (-len(form), form))
    if not words:
        return "/(?!x)x/"
    body = "|".join(r"\s+".join(re.escape(part) for part in form.split()) for form in words)
    body = body.replace("/", "\\/")
    return f"/(?:{body})(?![\\w'\u2019-])/" + ("i" if insensitive else "")


@cache
def lexicon(game: str) -> Lexicon:
    """The lexicon of ``game``, built once."""
    return Lexicon(game)
