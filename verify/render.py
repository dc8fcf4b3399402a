"""Effects rendered back to event text, in the project's own words.

Each effect (and each field of one) has one canonical sentence form, chosen from
the sentence-form catalogue (``reference/event-language.md``): a placement is
written as PL-1 ("Place two Tories in Boston."), a removal as RM-1, a track change
as TR-1 ("Indian Resources +3."), and so on. The forms are those the parser reads,
so :func:`render_side` is the inverse of :func:`legalis.verify.text.parse_side`:
the text it writes parses to the effects it was given. An effect no form can
write raises :class:`~legalis.model.errors.InputError` naming the field.

>>> from legalis.model.coin.effects import side_from_toml
>>> side = side_from_toml({"effects": [{"op": "place", "pieces": ["tory"], "count": 2,
...     "where": {"filter": {"is": "named", "names": ["Boston"]}}}]})
>>> render_side(side.effects, "lod")
'Place two Tories in Boston.'
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from legalis.model.coin import effects as fx
from legalis.model.coin.gamedata import load_game_data
from legalis.model.coin.mapdata import load_map
from legalis.model.errors import InputError
from legalis.verify.lexicon import lexicon

__all__ = ["render_effect", "render_side"]

_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                 "ten")  # fmt: skip
_LEVELS = {
    "active_support": "Active Support",
    "passive_support": "Passive Support",
    "neutral": "Neutral",
    "passive_opposition": "Passive Opposition",
    "active_opposition": "Active Opposition",
}
_COMPARE_WORDS = {">=": "{} or more", "<=": "{} or less", ">": "more than {}", "<": "less than {}"}


def number(n: int) -> str:
    """A count as the cards print it: a word up to ten, digits beyond.

    >>> number(3), number(12)
    ('three', '12')
    """
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)


@dataclass(frozen=True)
class _Names:
    """The printed names of one game's ids: pieces (plural and singular), Factions,
    tracks, boxes, Commands and Special Activities, markers, flags, Controls."""

    pieces: dict[str, tuple[str, str]]
    groups: dict[tuple[str, ...], tuple[str, str]]
    factions: dict[str, str]
    tracks: dict[str, str]
    boxes: dict[str, str]
    actions: dict[str, str]
    markers: dict[str, str]
    flags: dict[str, str]
    control: dict[str, str]
    spaces: frozenset[str]


@cache
def _names(game: str) -> _Names:
    data = load_game_data(game)
    words = lexicon(game)
    pieces = {}
    for piece in data.pieces:
        # the singular is the lexicon's other printed form of the same piece alone
        same = [
            form
            for form, ids in words.pieces.items()
            if ids == (piece.id,)
            and form != piece.name
            and form.split()[:-1] == piece.name.split()[:-1]
        ]
        pieces[piece.id] = (piece.name, min(same, key=len) if same else piece.name)
    actions = _first_names(
        {printed: action_id for printed, (action_id, _) in words.actions.items()}
    )
    # a group the game names with one noun: "Forts" (either Faction's), "NVA pieces"
    groups: dict[tuple[str, ...], tuple[str, str]] = {}
    for form, ids in words.pieces.items():
        if len(ids) > 1 and form.endswith("s") and ids not in groups:
            singular = next(f for f, same in words.pieces.items() if same == ids and f != form)
            groups[ids] = (form, singular)
    for faction in data.factions:
        own = words.faction_pieces[faction.id]
        groups.setdefault(own, (f"{faction.name} pieces", f"{faction.name} piece"))
    return _Names(
        pieces=pieces,
        groups=groups,
        factions={faction.id: faction.name for faction in data.factions},
        tracks={track.id: track.name for track in data.tracks},
        boxes={box.id: box.name for box in data.boxes},
        actions=actions,
        markers={marker.id: marker.name for marker in data.markers},
        flags=dict(data.flags),
        control=_first_names(words.control),
        spaces=frozenset(space.name for space in load_map(game).spaces),
    )


def _refuse(path: str, what: str) -> InputError:
    return InputError(f"no sentence form writes {what}", path=path)


class _Renderer:
    def __init__(self, game: str) -> None:
        self.game = game
        self.names = _names(game)
        self.rolled: set[str] = set()  # die rolls written as "a die roll of" next

    # ------------------------------------------------------------ names

    def pieces(self, ids: Sequence[str], count: int, path: str) -> str:
        """The printed noun of the pieces: one type ("Tories"), a group the game names
        with one word ("Forts": either Faction's), or types listed with "or" (P-7)."""
        names = self.names.groups.get(tuple(ids))
        if names is None and len(ids) > 1:
            return _listed([self.pieces((one,), count, path) for one in ids], "or")
        if names is None and (len(ids) != 1 or ids[0] not in self.names.pieces):
            raise _refuse(path, f"the pieces {list(ids)}")
        plural, singular = names or self.names.pieces[ids[0]]
        return singular if count == 1 else plural

    def faction(self, faction_id: str, path: str) -> str:
        if faction_id == "executing":
            return "Executing Faction"
        if faction_id.startswith("$"):
            return "That Faction"  # the Faction picked before
        if faction_id not in self.names.factions:
            raise _refuse(path, f"the Faction {faction_id!r}")
        return self.names.factions[faction_id]

    def name(self, table: dict[str, str], key: str, path: str) -> str:
        if key not in table:
            raise _refuse(path, repr(key))
        return table[key]

    def count(self, count: fx.Count, path: str) -> tuple[str, int]:
        """The count phrase and the number that decides singular or plural."""
        if count.at_least is not None and count.up_to and count.amount is None and not count.all:
            return f"{count.at_least}-{count.n}", count.n  # "2-5 ARVN pieces"
        if count.amount is not None or count.at_least is not None:
            raise _refuse(path, "a computed or ranged count")
        if count.all:
            return ("any" if count.up_to else "all"), 2
        words = number(count.n)
        return (f"up to {words}" if count.up_to else words), count.n

    def computed_count(self, effect: fx._PieceEffect, path: str) -> tuple[str, int]:
        """The count of a piece effect, with the amounts written of its own pieces:
        "half the Tories" (A-3, A-5), "one in three Tories", "a die roll of" (A-1,
        the roll the effect before made)."""
        amount = effect.count.amount
        if amount is None or effect.count != fx.Count(n=effect.count.n, amount=amount):
            return self.count(effect.count, path)
        quantity = amount.quantity
        plain = amount.round == "down" and amount.plus == 0 and amount.minus is None
        if isinstance(quantity, fx.OfBound) and plain and amount == fx.Amount(quantity=quantity):
            if quantity.name not in self.rolled:
                raise _refuse(f"{path}.amount", "a count bound to no die roll just before")
            self.rolled.discard(quantity.name)  # "a die roll of" reads as a roll of its own
            return "a die roll of", 2
        where = effect.where.filter
        if _doubles(effect):
            return "enough", 2  # PL-6: "... to double their number", written after
        own = fx.OfPieces(pieces=effect.pieces,
                          where=None if isinstance(where, fx.Anywhere) else where)  # fmt: skip
        if quantity == own and plain and amount.per > 1 and 0 < amount.times < amount.per:
            if (amount.times, amount.per) == (1, 2):
                return "half the", 2
            return f"{number(amount.times)} in {number(amount.per)}", 2
        raise _refuse(f"{path}.amount", "a computed count")

    # ------------------------------------------------------------ where

    def space_filter(self, node: fx.Filter, many: bool, path: str) -> str:
        """A space phrase: named spaces, or a space type (plural when ``many``; "space"
        when none is given) with its adjectives before ("Jungle Province", "Passive
        Support City", L-22, L-24) and its restrictions after ("Colonies with Tories",
        "space in Laos", "space within 2 spaces of Hue")."""
        if isinstance(node, fx.NamedSpaces):
            return " and ".join(node.names)
        if isinstance(node, fx.Anywhere):
            return "spaces" if many else "space"  # "in one space": any space at all
        parts = list(node.filters) if isinstance(node, fx.AllOf) else [node]
        kind = "space"
        if isinstance(parts[0], fx.TypeIs):
            if len(parts[0].types) != 1:
                raise _refuse(path, "a space filter of several space types")
            kind, parts = parts[0].types[0], parts[1:]
        before = [self.adjective(part) for part in parts]
        after = [
            self.restriction(part, path)
            for part, word in zip(parts, before, strict=True)
            if not word
        ]
        head = _plural(kind) if many else kind
        return " ".join([*(word for word in before if word), head, *after])

    def adjective(self, node: fx.Filter) -> str:
        """The adjective a filter is written as before the space type, or ""."""
        if isinstance(node, fx.TerrainIs) and len(node.terrains) == 1:
            return node.terrains[0]
        if isinstance(node, fx.CoastalIs) and node.coastal:
            return "coastal"
        if isinstance(node, fx.ControlIs) and node.control == "none":
            return "uncontrolled"
        if isinstance(node, fx.SupportIs):
            printed = [_LEVELS[level].split() for level in node.levels]
            if len(printed) == 1:
                return " ".join(printed[0])
            poles = {words[-1] for words in printed}
            if len(poles) == 1 and all(len(words) == 2 for words in printed):
                # "Passive or Active Opposition": the levels share their pole word
                return f"{_listed([words[0] for words in printed], 'or')} {poles.pop()}"
        return ""

    def restriction(self, node: fx.Filter, path: str) -> str:
        """A restriction after the space type: "with Tories", "with no Militia",
        "with British Control", "adjacent to Boston", "in Laos", "outside Cambodia",
        "within 2 spaces of Hue", "with 2 or more Terror markers"."""
        if (present := _some_pieces(node)) is not None:
            return f"with {self.pieces(present.pieces, 2, path)}"
        if isinstance(node, fx.NoneOf) and (absent := _some_pieces(node.filter)) is not None:
            return f"with no {self.pieces(absent.pieces, 2, path)}"
        if isinstance(node, fx.ControlIs):
            return f"with {self.name(self.names.control, node.control, path)}"
        # a country that is also a space's name ("North Vietnam") reads as the space
        country = node.filter if isinstance(node, fx.NoneOf) else node
        if (
            isinstance(country, fx.CountryIs)
            and (len(country.countries) == 1 or country is node)
            and not set(country.countries) & self.names.spaces
        ):
            where = _listed(country.countries, "or")  # L-13: "in Laos or Cambodia"
            return f"{'outside' if country is not node else 'in'} {where}"
        if isinstance(node, fx.PopulationIs) and node.compare == "==":
            return f"with population {node.value}"  # L-21
        if isinstance(node, fx.CoastalIs) and not node.coastal:
            return "that is not coastal"
        if (
            isinstance(node, fx.NoneOf)
            and isinstance(node.filter, fx.SupportIs)
            and len(node.filter.levels) == 1
        ):
            return f"not at {_LEVELS[node.filter.levels[0]]}"
        if (
            isinstance(node, fx.PiecesPresent)
            and node == fx.PiecesPresent(pieces=node.pieces, value=node.value)
            and node.value >= 2
        ):  # L-23
            return f"with {node.value} or more {self.pieces(node.pieces, 2, path)}"
        if isinstance(node, fx.MarkersPresent) and node.compare == ">=" and node.value >= 1:
            marker = self.name(self.names.markers, node.marker, f"{path}.marker")
            if node.value == 1:
                return f"with a {marker} marker"
            return f"with {node.value} or more {marker} markers"
        if (
            isinstance(node, fx.AdjacentTo)
            and isinstance(node.filter, fx.NamedSpaces)
            and len(node.filter.names) == 1
        ):
            name = node.filter.names[0]
            if not node.include_self and node.distance == 1:
                return f"adjacent to {name}"
            if node.include_self:  # L-16
                return f"within {node.distance} space{'s' if node.distance > 1 else ''} of {name}"
        if isinstance(node, fx.AdjacentTo) and node == fx.AdjacentTo(filter=node.filter):
            # L-15: "adjacent to a Colony with Rebellion Control"
            return f"adjacent to a {self.space_filter(node.filter, False, f'{path}.filter')}"
        raise _refuse(path, f"the space restriction {node.kind!r}")

    def where(self, where: fx.Where, path: str, *, each: bool) -> str:
        """The location of an effect ("Boston", "Norfolk or Savannah", "each of up to
        two Cities", "one Colony with Tories"); ``each``: the effect's count applies in
        each space ("each of three Colonies", not "three Colonies")."""
        if isinstance(where.filter, fx.BoundSpaces) and where.spaces is None:
            return "there"  # the spaces chosen before (the reading names the binding)
        if isinstance(where.filter, fx.BoundSpaces) and where.spaces == 1 and not where.up_to:
            return "one of those spaces"
        if isinstance(where.filter, fx.NamedSpaces):
            names = where.filter.names
            if where.spaces is None:
                return _listed(names, "and")
            if where.spaces == 1 and not where.up_to and len(names) > 1:
                return _listed(names, "or")
            raise _refuse(f"{path}.spaces", "a number of named spaces")
        if where.spaces is None:
            if not where.per_space:
                raise _refuse(f"{path}.per_space", "a total over every such space")
            return f"each {self.space_filter(where.filter, False, path)}"
        if where.spaces == 1 and not where.up_to:
            return f"one {self.space_filter(where.filter, False, path)}"
        phrase = self.space_filter(where.filter, True, path)
        amount = f"up to {number(where.spaces)}" if where.up_to else number(where.spaces)
        return f"each of {amount} {phrase}" if each else f"{amount} {phrase}"

    def pieces_in(
        self, effect: fx._PieceEffect, verb: str, preposition: str, path: str, after: str = ""
    ) -> str:
        """A piece effect's subject, count, pieces and location: "Place two Tories in
        Boston", "Remove a total of four Militia from Boston and Norfolk" (Q-8), "Place
        four Tories" (PL-2: anywhere, as a total)."""
        if effect.bind:
            raise _refuse(f"{path}.bind", "a piece count bound for a later effect")
        count, n = self.computed_count(effect, f"{path}.count")
        status = getattr(effect, "status", None) or getattr(effect, "taking", None)
        pieces = self.pieces(effect.pieces, n, f"{path}.pieces")
        pieces = f"{status.capitalize()} {pieces}" if status else pieces
        if effect.relative == "own" and effect.count != fx.Count(n=effect.count.n):
            raise _refuse(f"{path}.relative", "a count other than a number of own pieces")
        if effect.relative == "own":
            count = f"{count} of the executing Faction's"
        elif effect.relative is not None:  # P-6
            pieces = f"{effect.relative} {pieces}"
        head = self.subject(verb, effect.chooser, path)
        # ``after``: words that follow the pieces, before their location ("Underground")
        text = self.located(effect, head, f"{count} {pieces}{after}", preposition, path)
        if effect.last:  # P-12
            text += f" ({self.pieces(effect.last, 2, f'{path}.last')} last)"
        for index, limit in enumerate(effect.limits):  # P-14
            noun = self.pieces(limit.pieces, limit.at_most, f"{path}.limits[{index}]")
            text += f" (no more than {number(limit.at_most)} {noun})"
        return text

    def located(
        self, effect: fx._PieceEffect, head: str, counted: str, preposition: str, path: str
    ) -> str:
        """The verb, counted pieces and location of a piece effect."""
        where = effect.where
        if where.per_space:
            if isinstance(where.filter, fx.Anywhere):
                raise _refuse(f"{path}.where", "an effect in each space of the map")
            located = self.where(where, f"{path}.where", each=True)
            if located == "there":
                return f"{head} {counted} there"
            return f"{head} {counted} {preposition} {located}"
        if isinstance(where.filter, fx.Anywhere) and where.spaces is None:
            return f"{head} {counted}"
        if (
            where.spaces is None
            and where.bind is None
            and not isinstance(where.filter, fx.NamedSpaces)
        ):
            # L-8: a total over any such spaces
            spaces = self.space_filter(where.filter, True, f"{path}.where")
            return f"{head} {counted} {preposition} any {spaces}"
        named = isinstance(where.filter, fx.NamedSpaces) and len(where.filter.names) > 1
        exact = effect.count == fx.Count(n=effect.count.n)
        if not named or where.spaces is not None or not exact:
            raise _refuse(f"{path}.where.per_space", "a total over spaces not named")
        located = self.where(where, f"{path}.where", each=False)
        return f"{head} a total of {counted} {preposition} {located}"

    # ------------------------------------------------------------ effects

    def effect(self, effect: fx.Effect, path: str) -> str:
        """One effect as one sentence (without its full stop)."""
        method = getattr(self, f"op_{effect.op}", None)
        if method is None:
            raise _refuse(f"{path}.op", f"the effect {effect.op!r}")
        text: str = method(effect, path)
        return text

    def subject(self, verb: str, chooser: str | None, path: str) -> str:
        if chooser is None:
            return verb[0].upper() + verb[1:]
        return f"{self.faction(chooser, f'{path}.chooser')} {verb}"

    def op_place(self, effect: fx.Place, path: str) -> str:
        source = ""
        if effect.source != "available":
            source = " from " + self.name(self.names.boxes, effect.source, f"{path}.source")
        text = self.pieces_in(effect, "place", "in", path, after=source)
        if _doubles(effect):
            text += " to double their number"  # PL-6
        return text

    def op_remove(self, effect: fx.Remove, path: str) -> str:
        text = self.pieces_in(effect, "remove", "from", path)
        if effect.tunneled:  # P-17
            if effect.destination is not None:
                raise _refuse(f"{path}.tunneled", "Tunneled Bases removed to a box")
            return f"{text}, even if Tunneled"
        if effect.destination is not None:
            box = self.name(self.names.boxes, effect.destination, f"{path}.destination")
            text += f" to {box}"
        return text

    def op_tunnel(self, effect: fx.Tunnel, path: str) -> str:
        """MK-2: "Place Tunnel markers on three VC Bases in Quang Nam"."""
        return self.pieces_in(effect, "place Tunnel markers on", "in", path)

    def op_replace(self, effect: fx.Replace, path: str) -> str:
        """Q-6 "Replace two Militia in Boston with two Tories"; Q-10 in another ratio:
        "Replace every two Militia in Virginia with one Tory", "Replace any four ...";
        RP-1 "... with two friendly Troops"."""
        if effect.chooser:
            raise _refuse(f"{path}.chooser", "a replacement by another Faction")
        given, gets = effect.ratio
        if (given, gets) == (1, 1):
            if effect.count.all:
                raise _refuse(f"{path}.count", "a replacement of all the pieces")
            text = self.pieces_in(effect, "replace", "in", path)
            gets = self.count(effect.count, f"{path}.count")[1]
            if effect.count.up_to:  # as many as were taken, "with Militia"
                by = self.pieces(effect.by, 2, f"{path}.by")
                return f"{text} with {by}" + self.replaced_from(effect, path)
        elif effect.count.all or effect.count == fx.Count(n=given):
            each = effect.model_copy(update={"count": fx.Count(n=given)})
            text = self.pieces_in(each, "replace", "in", path)
            word = "every" if effect.count.all else "any"
            text = text.replace("Replace ", f"Replace {word} ", 1)
        else:
            raise _refuse(f"{path}.count", "a replacement in a ratio of another count")
        by = self.pieces(effect.by, gets, f"{path}.by")
        if effect.by_relative is not None:
            by = f"{effect.by_relative} {by}"
        return f"{text} with {number(gets)} {by}" + self.replaced_from(effect, path)

    def replaced_from(self, effect: fx.Replace, path: str) -> str:
        """Where the replacing pieces come from, when not Available."""
        if effect.source == "available":
            return ""
        return " from " + self.name(self.names.boxes, effect.source, f"{path}.source")

    def op_move(self, effect: fx.MovePieces, path: str) -> str:
        text = self.pieces_in(effect, "move", "from", path)
        near = fx.AdjacentTo(filter=effect.where.filter)
        parts = effect.to.filter.filters if isinstance(effect.to.filter, fx.AllOf) else ()
        if (
            isinstance(effect.where.filter, fx.NamedSpaces)
            and len(parts) == 2
            and parts[0] == near
            and isinstance(parts[1], fx.TypeIs)
            and len(parts[1].types) == 1
            and effect.to == fx.Where(filter=effect.to.filter, spaces=1)
        ):  # MV-2: "to one adjacent Colony", next to where they were
            return f"{text} to one adjacent {parts[1].types[0]}"
        return f"{text} to {self.where(effect.to, f'{path}.to', each=False)}"

    def _flip(self, effect: fx._PieceEffect, path: str, verb: str, after: str) -> str:
        return self.pieces_in(effect, verb, "in", path, after=after)

    def op_activate(self, effect: fx.Activate, path: str) -> str:
        named = isinstance(effect.where.filter, fx.NamedSpaces)
        within = effect.where.filter if named else None
        pieces = fx.OfPieces(pieces=effect.pieces, where=within)
        active = fx.OfPieces(pieces=effect.pieces, where=within, status="active")
        half = fx.Amount(quantity=pieces, per=2, round="up", minus=active)
        place = effect.where if named else fx.Where(filter=fx.Anywhere(), per_space=False)
        if effect.count.amount == half and effect.chooser is not None:
            # FL-4: "Indians Activate their War Parties [in Quebec] until half of them are Active"
            until = fx.Activate(pieces=effect.pieces, count=fx.Count(amount=half),
                                where=place, chooser=effect.chooser)  # fmt: skip
            if effect != until:
                raise _refuse(path, "an Activation to half with other fields")
            noun = self.pieces(effect.pieces, 2, f"{path}.pieces")
            faction = self.faction(effect.chooser, f"{path}.chooser")
            there = f" in {self.where(place, f'{path}.where', each=False)}" if named else ""
            return f"{faction} Activate their {noun}{there} until half of them are Active"
        return self._flip(effect, path, "activate", "")

    def op_underground(self, effect: fx.GoUnderground, path: str) -> str:
        return self._flip(effect, path, "flip", " Underground")

    def op_transfer(self, effect: fx.Transfer, path: str) -> str:
        _plain_pieces(effect, path)
        count, n = self.count(effect.count, f"{path}.count")
        source = self.name(self.names.boxes, effect.source, f"{path}.source")
        box = self.name(self.names.boxes, effect.destination, f"{path}.destination")
        text = f"{self.subject('move', effect.chooser, path)} {count} "
        return text + f"{self.pieces(effect.pieces, n, f'{path}.pieces')} from {source} to {box}"

    def op_shift(self, effect: fx.Shift, path: str) -> str:
        if effect.chooser or (effect.either and (effect.levels < 0 or effect.toward)):
            raise _refuse(path, "a shift by another Faction, or either way toward a level")
        where = self.where(effect.where, f"{path}.where", each=False)
        steps = abs(effect.levels)
        levels = f"{number(steps)} level{'s' if steps > 1 else ''}"
        if effect.either:  # SP-8
            return f"Shift {where} {levels} either direction"
        pole = "Active Support" if effect.levels > 0 else "Active Opposition"
        toward = _LEVELS[effect.toward] if effect.toward is not None else pole
        return f"Shift {where} {levels} toward {toward}"

    def op_set_support(self, effect: fx.SetSupport, path: str) -> str:
        if effect.chooser:
            raise _refuse(f"{path}.chooser", "a support level set by another Faction")
        if (removed := self.support_removed(effect, path)) is not None:
            return removed
        where = self.where(effect.where, f"{path}.where", each=False)
        return f"Set {where} to {_LEVELS[effect.level]}"

    def support_removed(self, effect: fx.SetSupport, path: str) -> str | None:
        """SP-7: "Remove Support from Kontum", "Remove all Support within 1 space of
        Hue" (Neutral where there was Support), or None for another form."""
        supported = fx.SupportIs(levels=("active_support", "passive_support"))
        where = effect.where
        parts = where.filter.filters if isinstance(where.filter, fx.AllOf) else ()
        if effect.level != "neutral" or len(parts) != 2 or parts[1] != supported:
            return None
        place, plain = parts[0], fx.Where(filter=where.filter, per_space=where.per_space)
        if where != plain or where.spaces is not None:
            return None
        if isinstance(place, fx.NamedSpaces) and where.per_space:
            return f"Remove Support from {_listed(place.names, 'and')}"
        if isinstance(place, fx.AdjacentTo) and place.include_self and not where.per_space:
            return f"Remove all Support {self.restriction(place, f'{path}.where.filter')}"
        return None

    def op_adjust(self, effect: fx.Adjust, path: str) -> str:
        if effect.bind is not None:
            raise _refuse(f"{path}.bind", "a track change bound for a later effect")
        track = self.name(self.names.tracks, effect.track, f"{path}.track")
        amount = effect.amount
        if amount is None:
            return f"{track} {effect.delta:+d}"  # TR-1
        if effect.delta not in (0, -1):  # 0: the amount added as it is
            raise _refuse(f"{path}.delta", "a change by a multiple of an amount")
        if isinstance(amount.quantity, fx.OfTrack | fx.OfPopulation) and effect.delta == 0:
            return f"Add {self.whole(amount, f'{path}.amount')} to {track}"
        sign = "-" if effect.delta < 0 else "+"
        return f"{track} {sign}{self.amount(amount, f'{path}.amount')}"

    def picked_pair(
        self, select: fx.Select, first: fx.FreeAction | fx.Place, second: fx.FreeAction, path: str
    ) -> str:
        """CP-1..CP-3: "Patriots free March and free Battle in one City", "Patriots
        place two Militia and free Partisans in one Colony"."""
        where = self.where(select.where, f"{path}.where", each=False)
        if isinstance(first, fx.Place):
            total = fx.Where(filter=fx.Anywhere(), per_space=False)
            head = self.op_place(first.model_copy(update={"where": total}), f"{path}[1]")
            head = head.replace(" place ", " may place ", 1)
        else:
            head = self.op_free(first.model_copy(update={"where": None}), f"{path}[1]")
        tail = self.op_free(second.model_copy(update={"where": None}), f"{path}[2]")
        faction = self.faction(second.faction, f"{path}[2].faction")
        return f"{head} and {tail.removeprefix(faction + ' ')} in {where}"

    def transfer(self, taken: fx.Adjust, given: fx.Adjust, path: str) -> str:
        """TR-10: "Transfer 3 from Aid to Patronage"."""
        source = self.name(self.names.tracks, taken.track, f"{path}.track")
        destination = self.name(self.names.tracks, given.track, f"{path}.track")
        return f"Transfer {-taken.delta} from {source} to {destination}"

    def whole(self, amount: fx.Amount, path: str) -> str:
        """A-4: a track's value or a population, whole or a multiple: "two times FNI
        value", "the population of Cities with Tories"."""
        quantity = amount.quantity
        plain = fx.Amount(quantity=quantity, times=amount.times)
        if amount != plain or amount.times < 1:
            raise _refuse(path, "a track value or population divided, rounded or summed")
        if isinstance(quantity, fx.OfTrack):
            value = f"{self.name(self.names.tracks, quantity.track, f'{path}.quantity')} value"
            return value if amount.times == 1 else f"{number(amount.times)} times {value}"
        if isinstance(quantity, fx.OfPopulation) and amount.times == 1:
            return f"the population of {self.space_filter(quantity.filter, True, path)}"
        raise _refuse(path, f"a multiple of an amount of {quantity.kind!r}")

    def amount(self, amount: fx.Amount, path: str) -> str:
        """A change by a rate of the state (A-2, A-5): "1 per City with British
        Control", "3 for every two Villages on the map, rounding up", "1 for each US
        Troop Casualty"."""
        if amount.plus or amount.minus is not None or amount.times < 1:
            raise _refuse(path, "an amount with a sum or a difference")
        many = amount.per > 1
        noun = self.counted(amount.quantity, 2 if many else 1, path)
        rate = f"for every {number(amount.per)}" if many else "per"
        text = f"{amount.times} {rate} {noun}"
        return text + (", rounding up" if amount.round == "up" else "")

    def counted(self, quantity: fx.Quantity, n: int, path: str) -> str:
        """What an amount counts, singular for ``n`` 1: "City with British Control",
        "Underground VC Guerrillas on the map", "Terror marker in South Vietnam"."""
        if isinstance(quantity, fx.OfSpaces):
            return self.space_filter(quantity.filter, n > 1, f"{path}.quantity.filter")
        if isinstance(quantity, fx.OfPieces) and quantity.where is None and not quantity.relative:
            pieces = self.pieces(quantity.pieces, n, f"{path}.quantity.pieces")
            if quantity.status:
                pieces = f"{quantity.status.capitalize()} {pieces}"
            if quantity.box is None:
                return f"{pieces} on the map"
            if quantity.box == "casualties" and n == 1 and not quantity.status:
                return f"{pieces} Casualty"
        if isinstance(quantity, fx.OfMarkers):
            marker = self.name(self.names.markers, quantity.marker, f"{path}.quantity.marker")
            marker += " marker" if n == 1 else " markers"
            country = quantity.where
            if country is None:
                return f"{marker} on the map"
            if isinstance(country, fx.CountryIs) and len(country.countries) == 1:
                return f"{marker} in {country.countries[0]}"
        raise _refuse(path, f"an amount of {quantity.kind!r}")

    def op_at_phase(self, effect: fx.AtPhase, path: str) -> str:
        if effect.phase != "reset" or len(effect.effects) != 1:
            raise _refuse(f"{path}.phase", "effects at a phase other than Reset")
        return f"{self.effect(effect.effects[0], f'{path}.effects[0]')} during Reset Phase"

    def op_procedure(self, effect: fx.Procedure, path: str) -> str:
        """PR-1, PR-3, SP-9, MV-5: a rules procedure run out of its turn."""
        if effect.name == "redeploy":
            return self.redeploy(effect, path)
        if effect.name == "brilliant_stroke":
            return self.brilliant_stroke(effect, path)
        steps = {"desertion": "Desertion", "support_phase": "Support Phase",
                 "commitment": "Commitment Phase"}  # fmt: skip
        plain = fx.Procedure(name=effect.name, factions=effect.factions, note=effect.note)
        if effect != plain or effect.name not in steps:
            raise _refuse(path, f"the procedure {effect.name!r}")
        if effect.name in ("commitment", "support_phase") and not (effect.factions or effect.note):
            return f"Conduct a {steps[effect.name]}"
        if effect.name == "support_phase" and len(effect.factions) == 1:
            faction = self.faction(effect.factions[0], f"{path}.factions")
            text = f"{faction} immediately Pacify as if Support Phase"
            if not effect.note:
                return text
            if re.fullmatch(r"Shift at most (1 level|[2-9] levels) per space", effect.note):
                return f"{text}. {effect.note}"  # SP-9: the limit follows as its sentence
            raise _refuse(f"{path}.note", "a Support Phase note other than a shift limit")
        if effect.name != "desertion" or len(effect.factions) != 1 or effect.note:
            raise _refuse(path, f"the procedure {effect.name!r}")
        faction = self.faction(effect.factions[0], f"{path}.factions")
        adjective = faction[:-1] if faction.endswith("s") and faction[-2].islower() else faction
        return f"Execute {adjective} Desertion as per Winter Quarters Round"

    def redeploy(self, effect: fx.Procedure, path: str) -> str:
        """MV-5: "Redeploy all ARVN Police in Laos to Saigon"."""
        if effect.factions or effect.note or not effect.pieces or effect.to is None:
            raise _refuse(path, "a Redeploy without pieces and a destination")
        pieces = self.pieces(effect.pieces, 2, f"{path}.pieces")
        text = f"Redeploy all {pieces}"
        if effect.where is not None:
            text += f" in {self.region(effect.where, f'{path}.where')}"
        return f"{text} to {self.region(effect.to, f'{path}.to')}"

    def region(self, where: fx.Where, path: str) -> str:
        """A procedure's spaces: named spaces, or every space of a type or country."""
        if isinstance(where.filter, fx.NamedSpaces):
            return self.where(where, path, each=False)
        if where.spaces is None and not where.per_space and not where.up_to:
            if isinstance(where.filter, fx.TypeIs) and len(where.filter.types) == 1:
                return _plural(where.filter.types[0])
            if isinstance(where.filter, fx.CountryIs) and len(where.filter.countries) == 1:
                return where.filter.countries[0]
        raise _refuse(path, "a procedure's spaces other than named ones, a type or a country")

    def brilliant_stroke(self, effect: fx.Procedure, path: str) -> str:
        """PR-3: a Brilliant Stroke step, kept in its words."""
        if effect.factions:
            faction = self.faction(effect.factions[0], f"{path}.factions")
            words = f"{faction} may choose to enter the war"
        else:
            words = "Leader must be involved in at least "
            words = effect.note if effect.note.startswith(words) else ""
        if effect != fx.Procedure(name=effect.name, factions=effect.factions[:1], note=words):
            raise _refuse(f"{path}.note", "a Brilliant Stroke step no sentence form writes")
        return words

    def op_card(self, effect: fx.CardAction, path: str) -> str:
        """PR-2: "Flip two shaded VC Capabilities to unshaded", "Remove one unshaded US
        Capability"."""
        if (
            effect.action not in ("flip", "remove")
            or effect.target != "capability"
            or None in (effect.count, effect.faction, effect.side)
            or effect.condition is not None
        ):
            raise _refuse(path, "a card effect other than flipping or removing Capabilities")
        assert effect.count is not None and effect.faction is not None
        noun = "Capability" if effect.count == 1 else "Capabilities"
        faction = self.faction(effect.faction, f"{path}.faction")
        text = f"{effect.action.capitalize()} {effect.count} {effect.side} {faction} {noun}"
        if effect.action == "remove":
            return text
        other = "unshaded" if effect.side == "shaded" else "shaded"
        return f"{text} to {other}"

    def op_leader(self, effect: fx.PlaceLeader, path: str) -> str:
        """P-16: "Place <Leader> in Boston"."""
        if effect.leader not in lexicon(self.game).leaders:
            raise _refuse(f"{path}.leader", f"the Leader {effect.leader!r}")
        where = self.where(effect.where, f"{path}.where", each=False)
        return f"{self.subject('place', effect.chooser, path)} {effect.leader} in {where}"

    def op_set_track(self, effect: fx.SetTrack, path: str) -> str:
        track = self.name(self.names.tracks, effect.track, f"{path}.track")
        value = effect.value
        if isinstance(value, int) and effect.mode == "set":
            return f"{track} to {value}"
        if isinstance(value, int) and effect.mode == "at_least":
            return f"Improve {track} to {value}"  # TR-9: raised to the value, never lowered
        fractions = {2: "half", 3: "a third"}
        if (
            isinstance(value, fx.Amount)
            and effect.mode == "set"
            and value.quantity == fx.OfTrack(track=effect.track)
            and value == fx.Amount(quantity=value.quantity, per=value.per, round=value.round)
            and value.per in fractions
        ):  # TR-11: a track cut to a fraction of itself
            rounding = ", rounding up" if value.round == "up" else ""
            return f"Reduce {track} to {fractions[value.per]}{rounding}"
        raise _refuse(f"{path}.value", "a track set to a computed value or a bound")

    def op_eligibility(self, effect: fx.Eligibility, path: str) -> str:
        if effect.factions == ("all",):
            if effect.through_next_card:
                raise _refuse(path, "every Faction Ineligible through the next card")
            return f"All Factions to {effect.to.capitalize()}"
        names = [self.faction(f, f"{path}.factions") for f in effect.factions]
        who = " and ".join(names)
        if effect.to == "ineligible":
            if not effect.through_next_card:
                raise _refuse(path, "a Faction Ineligible for this card only")
            return f"{who} Ineligible through the next card"
        if effect.through_next_card:
            raise _refuse(path, "a Faction Eligible through the next card")
        return f"{who} stays Eligible" if effect.factions == ("executing",) else f"{who} Eligible"

    def op_marker(self, effect: fx.Marker, path: str) -> str:
        if effect.chooser:
            raise _refuse(path, "a marker placed, removed or moved by another Faction")
        name = self.name(self.names.markers, effect.marker, f"{path}.marker")
        count, n = self.count(effect.count, f"{path}.count")
        marker = f"{name} marker" + ("" if n == 1 else "s")
        if effect.action == "move":  # MK-3: from a box or space to another
            if effect.where != fx.Where():
                raise _refuse(f"{path}.where", "markers moved within chosen spaces")
            source = self.box_or_space(effect.source, f"{path}.source")
            destination = self.box_or_space(effect.destination, f"{path}.destination")
            return f"Move {count} {marker} from {source} to {destination}"
        where = self.where(effect.where, f"{path}.where", each=True)
        if effect.action == "remove":  # MK-1
            return f"Remove {count} {marker} from {where}"
        return f"Place {count} {marker} in {where}"

    def box_or_space(self, place: str | None, path: str) -> str:
        """A box's printed name, or a space's."""
        if place in self.names.boxes:
            return self.names.boxes[place]
        if place in self.names.spaces:
            return place
        raise _refuse(path, f"the place {place!r}")

    def op_free(self, effect: fx.FreeAction, path: str) -> str:
        """FA-1..FA-8 and D-2..D-4: "French free Battle in Boston as if Patriots",
        "Execute two free Limited Commands"; MD-1's removal per space after a comma."""
        who = None
        if effect.faction != "executing":
            who = self.faction(effect.faction, f"{path}.faction")
        if effect.pieces:
            if who is None:
                raise _refuse(f"{path}.pieces", "a free action of the executing Faction's pieces")
            pieces = self.pieces(effect.pieces, 2, f"{path}.pieces")
            who = pieces if pieces.startswith(who + " ") else f"{who} {pieces}"
        limited = "Limited " if effect.limited else ""
        if effect.action == "any":
            noun = {"command": "Command", "operation": "Operation",
                    "special_activity": "Special Activity"}[effect.kind]  # fmt: skip
            noun = noun if effect.count == 1 else _plural(noun)
            verb = "Execute" if who is None else f"{who} execute"
            text = f"{verb} {number(effect.count)} free {limited}{noun}"
        else:
            if effect.count != 1:
                raise _refuse(f"{path}.count", "a count of a named free action")
            action = self.name(self.names.actions, effect.action, f"{path}.action")
            text = f"Free {limited}{action}" if who is None else f"{who} free {limited}{action}"
        if effect.origin is not None:  # D-2
            text += f" from {self.where(effect.origin, f'{path}.origin', each=False)}"
        if effect.where is not None:
            located = self.where(effect.where, f"{path}.where", each=False)
            preposition = " to " if effect.origin is not None else " in "
            text += " there" if located == "there" else f"{preposition}{located}"
        if effect.as_faction is not None:  # D-3
            text += f" as if {self.faction(effect.as_faction, f'{path}.as_faction')}"
        if effect.force_level:  # D-4
            text += f" with {effect.force_level:+d} Force Level"
        if effect.hits is not None:
            text += f" with {effect.hits} hits"
        if effect.no_activation:
            text += " without Activation"
        if effect.times == 2:
            text += " twice"
        elif effect.times != 1:
            raise _refuse(f"{path}.times", "a free action more than twice")
        if effect.note:
            text += f" ({effect.note})"
        if effect.with_special:
            text += ", including a Special Activity"
        if effect.remove_per_space:  # MD-1
            noun = self.pieces(effect.remove_pieces, effect.remove_per_space,
                               f"{path}.remove_pieces")  # fmt: skip
            text += f", removing {effect.remove_per_space} {noun} per space"
        return text

    def op_roll(self, effect: fx.Roll, path: str) -> str:
        """A die roll is written inside the effect after it ("a die roll of"), which
        :func:`render_side` renders next; this sentence is empty."""
        if effect != fx.Roll(bind=effect.bind):
            raise _refuse(path, "a roll of more than one die")
        self.rolled.add(effect.bind)
        return ""

    def op_choose_faction(self, effect: fx.ChooseFaction, path: str) -> str:
        """SL-1: "Select one Faction", "Select a non-British Faction"; later effects
        name the pick "That Faction" (R-6)."""
        if effect.chooser is not None:
            raise _refuse(f"{path}.chooser", "a Faction picked by another Faction")
        every = list(self.names.factions)
        if list(effect.factions) == every:
            return "Select one Faction"
        left_out = [f for f in every if f not in effect.factions]
        if len(left_out) == 1 and len(effect.factions) == len(every) - 1:
            return f"Select a non-{self.faction(left_out[0], f'{path}.factions')} Faction"
        raise _refuse(f"{path}.factions", "a pick among Factions other than all or all but one")

    def op_lasting(self, effect: fx.SetLasting, path: str) -> str:
        """LR-1..LR-6: a Capability or Momentum banner and its rules, each rule as the
        text it keeps; the side's last effect, since every sentence after a banner
        is a rule of it."""
        if _sets_flag(effect) and effect.name in self.names.flags:
            flag = self.names.flags[effect.name].removesuffix(" played")
            return f"The {flag} is now in effect"  # LR-7: a game flag set for good
        if effect.kind == "flag" or not effect.rules:
            raise _refuse(f"{path}.kind", "a game flag, or a lasting effect with no rules")
        if effect.kind == "capability":
            if effect.duration not in (None, "game"):
                raise _refuse(f"{path}.duration", "a Capability for less than the game")
            # the banner's Faction is not part of the effect: a rule's, else the first
            faction = next((rule.faction for rule in effect.rules if rule.faction),
                           next(iter(self.names.factions)))  # fmt: skip
            banner = f"{self.faction(faction, f'{path}.rules')} CAPABILITY: "
        else:
            durations = {None: "", "until_coup": "", "through_coup": "Through the next Coup, ",
                         "phase": "This Support phase, "}  # fmt: skip
            if effect.duration not in durations:
                raise _refuse(f"{path}.duration", f"a Momentum lasting {effect.duration!r}")
            if effect.duration == "phase" and len(effect.rules) > 1:
                raise _refuse(f"{path}.rules", "several rules for this Support phase")
            banner = f"MOMENTUM: {durations[effect.duration]}"
        # a ban of several actions is one rule per action, all with the sentence's text
        texts = [rule.text.rstrip(". ") for rule in effect.rules]
        return banner + ". ".join(t for i, t in enumerate(texts) if i == 0 or t != texts[i - 1])

    def op_battle_modifier(self, effect: fx.BattleModifier, path: str) -> str:
        role = effect.role.capitalize()
        if bool(effect.force_level) == bool(effect.loss_level):
            raise _refuse(path, "a modifier of both or neither Level")
        if effect.force_level:
            return f"{effect.force_level:+d} to {role}'s Force Level"
        return f"{effect.loss_level:+d} to {role}'s Loss Level"

    def op_choose(self, effect: fx.Choose, path: str) -> str:
        """H-1: the options, each its clauses, joined by ", or "; C-5: an option or
        nothing, "... if desired"."""
        if (raised := self.raise_or_lower(effect, path)) is not None:
            return raised
        only, *other = effect.options
        if effect.chooser is None and len(only) == 1 and other == [()]:
            # C-5: one option or nothing
            return f"{self.clauses(only, f'{path}.options[0]')} if desired"
        if effect.chooser is not None and all(effect.options):
            # H-2: "ARVN choose one: Aid +6 and Patronage -4; or Patronage +4 and Aid -6"
            chosen = [
                " and ".join(self.effect(e, f"{path}.options[{i}][{j}]") for j, e in enumerate(o))
                for i, o in enumerate(effect.options)
            ]
            by = self.faction(effect.chooser, f"{path}.chooser")
            return f"{by} choose one: " + "; or ".join(chosen)
        if effect.chooser is not None or any(len(option) != 1 for option in effect.options):
            raise _refuse(path, "a choice by another Faction, or of no effect or several")
        options = [self.clauses(option, f"{path}.options[{i}]") for i, option in
                   enumerate(effect.options)]  # fmt: skip
        first, *rest = options
        return ", or ".join([first, *(_lower_verb(option) for option in rest)])

    def raise_or_lower(self, effect: fx.Choose, path: str) -> str | None:
        """TR-12: "Increase or decrease any or all of Aid and Patronage by 2 each": every
        way to raise, lower or leave each track, at least one changed; or None."""
        first = effect.options[0] if effect.options else ()
        changes = [e for e in first if isinstance(e, fx.Adjust) and e.amount is None]
        if effect.chooser is not None or len(changes) != len(first) or not 2 <= len(first) <= 3:
            return None
        step, tracks = changes[0].delta, [change.track for change in changes]
        ways = []
        for deltas in itertools.product((step, -step, 0), repeat=len(tracks)):
            pairs = zip(tracks, deltas, strict=True)
            ways.append(tuple(fx.Adjust(track=t, delta=d) for t, d in pairs if d))
        if step <= 0 or effect.options != tuple(way for way in ways if way):
            return None
        names = [self.name(self.names.tracks, t, f"{path}.options[0]") for t in tracks]
        return f"Increase or decrease any or all of {_listed(names, 'and')} by {step} each"

    def op_select(self, effect: fx.Select, path: str) -> str:
        """SL-1: "Select one City with Tories" (the reading names the binding)."""
        if effect.chooser is not None:
            raise _refuse(f"{path}.chooser", "a selection by another Faction")
        return f"Select {self.where(effect.where, f'{path}.where', each=False)}"

    def op_if(self, effect: fx.When, path: str) -> str:
        """C-1 "If <condition>, <clauses>", with C-2's "If not, <clauses>" after; C-3
        "Unless <condition>, <clauses>" for a condition that must not hold."""
        if any(isinstance(inner, fx.When) for inner in (*effect.then, *effect.otherwise)):
            raise _refuse(path, "a condition inside a condition")
        branches = (*effect.then, *effect.otherwise)
        if any(_is_brilliant_stroke(e) or _sets_flag(e) for e in branches):
            raise _refuse(path, "a Brilliant Stroke step or a flag set under a longer side's If")
        condition = effect.condition
        if (roll := self.roll_range(condition)) is not None:  # a range of the roll
            text = f"On a die roll of {roll}, {self.clauses(effect.then, f'{path}.then')}"
            if effect.otherwise:
                text += f". If not, {self.clauses(effect.otherwise, f'{path}.otherwise')}"
            return text
        if isinstance(condition, fx.NotTrue) and not effect.otherwise:  # C-3: "Unless"
            inner = self.condition(condition.condition, f"{path}.condition.condition")
            return f"Unless {inner}, {self.clauses(effect.then, f'{path}.then')}"
        text = f"If {self.condition(condition, f'{path}.condition')}, "
        text += self.clauses(effect.then, f"{path}.then")
        if effect.otherwise:
            text += f". If not, {self.clauses(effect.otherwise, f'{path}.otherwise')}"
        return text

    def roll_range(self, condition: fx.Condition) -> str | None:
        """The range "1-3" of a condition on the die rolled just before, or None."""
        if not isinstance(condition, fx.QuantityCompare) or not isinstance(condition.right, int):
            return None
        quantity = condition.left.quantity
        if (
            condition.left != fx.Amount(quantity=quantity)
            or not isinstance(quantity, fx.OfBound)
            or quantity.name not in self.rolled
            or not 1 <= condition.right <= 6
        ):
            return None
        self.rolled.discard(quantity.name)
        if condition.compare == "<=":
            return f"1-{condition.right}"
        return f"{condition.right}-6" if condition.compare == ">=" else None

    def clauses(self, effects: Sequence[fx.Effect], path: str) -> str:
        """Effects as one sentence's clauses, joined by ", then" (W-6)."""
        first, *rest = [self.effect(e, f"{path}[{i}]") for i, e in enumerate(effects)]
        return ", then ".join([first, *(_lower_verb(clause) for clause in rest)])

    def condition(self, node: fx.Condition, path: str) -> str:
        if isinstance(node, fx.FlagSet):
            flag = self.name(self.names.flags, node.flag, f"{path}.flag")
            played = "has been played" if node.value else "has not been played"
            return f"the {flag.removesuffix(' played')} {played}"
        if isinstance(node, fx.TrackCompare) and node.compare in _COMPARE_WORDS:
            track = self.name(self.names.tracks, node.track, f"{path}.track")
            return f"{track} is {_COMPARE_WORDS[node.compare].format(node.value)}"
        if isinstance(node, fx.LastingInForce):
            side = f" ({node.side})" if node.side else ""
            return f"{node.name}{side} is in force"
        if isinstance(node, fx.AllTrue) and not any(
            isinstance(inner, (fx.AllTrue, fx.AnyTrue)) for inner in node.conditions
        ):
            return " and ".join(
                self.condition(inner, f"{path}.conditions[{index}]")
                for index, inner in enumerate(node.conditions)
            )
        if isinstance(node, fx.AnyTrue) and not any(
            isinstance(inner, (fx.AllTrue, fx.AnyTrue)) for inner in node.conditions
        ):  # CO-2: "Aid is 30 or more, or US Troops are in 6 or more spaces"
            return ", or ".join(
                self.condition(inner, f"{path}.conditions[{index}]")
                for index, inner in enumerate(node.conditions)
            )
        if isinstance(node, fx.ExecutingFaction) and len(node.factions) == 1:
            return f"{self.faction(node.factions[0], f'{path}.factions')} executing"  # C-4
        if isinstance(node, fx.QuantityCompare):
            return self.comparison(node, path)
        if isinstance(node, fx.SpacesCount) and node.compare == ">=":
            return self.spaces_condition(node, path)
        none = node.condition if isinstance(node, fx.NotTrue) else None
        if isinstance(none, fx.SpacesCount) and none == fx.SpacesCount(filter=none.filter):
            parts = none.filter.filters if isinstance(none.filter, fx.AllOf) else ()
            if (
                len(parts) == 2
                and isinstance(parts[0], fx.TypeIs)
                and len(parts[0].types) == 1
                and (present := _some_pieces(parts[1])) is not None
            ):  # C-7: "no City holds US Bases"
                pieces = self.pieces(present.pieces, 2, f"{path}.condition.filter")
                return f"no {parts[0].types[0]} holds {pieces}"
        raise _refuse(path, f"the condition {node.kind!r}")

    def spaces_condition(self, node: fx.SpacesCount, path: str) -> str:
        """C-6 "Tories occupy Boston", C-2 "2 or more Cities have NVA Control", CO-1
        "NVA Troops are in 3 or more spaces in South Vietnam"."""
        parts = list(node.filter.filters) if isinstance(node.filter, fx.AllOf) else [node.filter]
        present = _some_pieces(parts[-1])
        where = parts[:-1]
        if present is not None:
            pieces = self.pieces(present.pieces, 2, f"{path}.filter")
            if node.value == 1 and len(where) == 1 and isinstance(where[0], fx.NamedSpaces):
                return f"{pieces} occupy {_listed(where[0].names, 'or')}"
            if node.value >= 2 and not where:
                return f"{pieces} are in {node.value} or more spaces"
            if (
                node.value >= 2
                and len(where) == 1
                and isinstance(where[0], fx.CountryIs)
                and len(where[0].countries) == 1
            ):
                return f"{pieces} are in {node.value} or more spaces in {where[0].countries[0]}"
        if (
            node.value >= 2
            and len(parts) == 2
            and isinstance(parts[0], fx.TypeIs)
            and len(parts[0].types) == 1
            and isinstance(parts[1], fx.ControlIs)
        ):
            control = self.name(self.names.control, parts[1].control, f"{path}.filter")
            return f"{node.value} or more {_plural(parts[0].types[0])} have {control}"
        if (
            node.value == 1
            and len(parts) == 2
            and isinstance(parts[0], fx.TypeIs)
            and len(parts[0].types) == 1
            and isinstance(parts[1], fx.SupportIs)
            and len(parts[1].levels) == 1
        ):  # C-6: "any City is at Active Opposition"
            return f"any {parts[0].types[0]} is at {_LEVELS[parts[1].levels[0]]}"
        raise _refuse(path, "a count of spaces no sentence form writes")

    def comparison(self, node: fx.QuantityCompare, path: str) -> str:
        """C-6: "3 or more Villages are on the map", "fewer than 3 US Bases are on the
        map", "Aid exceeds Patronage"."""
        left, right = node.left, node.right
        if left != fx.Amount(quantity=left.quantity):
            raise _refuse(f"{path}.left", "a comparison of a computed amount")
        quantity = left.quantity
        if (
            isinstance(quantity, fx.OfPieces)
            and quantity == fx.OfPieces(pieces=quantity.pieces)
            and isinstance(right, int)
            and node.compare in (">=", "<")
        ):
            pieces = self.pieces(quantity.pieces, 2, f"{path}.left.quantity.pieces")
            amount = f"{right} or more" if node.compare == ">=" else f"fewer than {right}"
            return f"{amount} {pieces} are on the map"
        if (
            isinstance(quantity, fx.OfTrack)
            and isinstance(right, fx.Amount)
            and isinstance(right.quantity, fx.OfTrack)
            and right == fx.Amount(quantity=right.quantity)
            and node.compare == ">"
        ):
            track = self.name(self.names.tracks, quantity.track, f"{path}.left")
            other = self.name(self.names.tracks, right.quantity.track, f"{path}.right")
            return f"{track} exceeds {other}"
        if isinstance(quantity, fx.OfVictory) and right == 0 and node.compare == ">":
            faction = self.faction(quantity.faction, f"{path}.left.quantity.faction")
            return f"the {faction} are ahead in their victory condition"
        boxes = {list_id: name for name, list_id in lexicon(self.game).card_boxes.items()}
        if (
            isinstance(quantity, fx.OfCards)
            and quantity.list in boxes
            and isinstance(right, int)
            and node.compare == ">="
        ):
            return f"{right} or more cards are in the {boxes[quantity.list]}"  # CO-1
        raise _refuse(path, "a comparison no sentence form writes")


_VERBS = ("Place", "Remove", "Replace", "Move", "Activate", "Flip", "Shift", "Set", "Execute",
          "Free", "Select", "Reduce")  # fmt: skip


def _lower_verb(clause: str) -> str:
    """A clause after ", then": its verb in lower case, a name as it is."""
    word = clause.split(" ", 1)[0]
    return clause[0].lower() + clause[1:] if word in _VERBS else clause


def _listed(names: Sequence[str], conjunction: str) -> str:
    """Names in a list: "Boston", "Boston and Norfolk", "Hue, Da Nang and Kontum"."""
    if len(names) == 1:
        return names[0]
    return f"{', '.join(names[:-1])} {conjunction} {names[-1]}"


def _plain_pieces(effect: fx._PieceEffect, path: str) -> None:
    """Refuse the piece-effect fields no canonical sentence writes yet."""
    if effect.relative or effect.last or effect.limits or effect.bind:
        raise _refuse(path, "a piece effect with relative, last, limits or bind")


def _first_names(forms: dict[str, str]) -> dict[str, str]:
    """Each id's first printed form (the name the game's data gives it)."""
    out: dict[str, str] = {}
    for printed, key in forms.items():
        out.setdefault(key, printed)
    return out


def _doubles(effect: fx._PieceEffect) -> bool:
    """Whether a placement adds as many pieces as one named space holds (PL-6)."""
    where = effect.where.filter
    there = fx.Amount(quantity=fx.OfPieces(pieces=effect.pieces, where=where))
    return (
        isinstance(effect, fx.Place)
        and isinstance(where, fx.NamedSpaces)
        and len(where.names) == 1
        and effect.count == fx.Count(amount=there)
    )


def _some_pieces(node: fx.Filter) -> fx.PiecesPresent | None:
    """``node`` when it asks for at least one of some pieces, of any status."""
    plain = isinstance(node, fx.PiecesPresent) and node == fx.PiecesPresent(pieces=node.pieces)
    return node if plain and isinstance(node, fx.PiecesPresent) else None


def _plural(space_type: str) -> str:
    """City -> Cities, Colony -> Colonies, Province -> Provinces, LoC -> LoCs."""
    if space_type.endswith("y") and space_type[-2:-1] not in "aeiou":
        return space_type[:-1] + "ies"
    return space_type + "s"


def render_effect(effect: fx.Effect, game: str) -> str:
    """One effect as one sentence, in its canonical form.

    >>> from legalis.model.coin.effects import Adjust
    >>> render_effect(Adjust(track="indians_resources", delta=3), "lod")
    'Indian Resources +3.'
    """
    return _Renderer(game).effect(effect, "effects[0]") + "."


def render_side(effects: Sequence[fx.Effect], game: str) -> str:
    """A side's effects as text, one sentence each; ``parse_side`` reads it back.

    >>> from legalis.model.coin.effects import Eligibility
    >>> render_side([Eligibility(factions=("french",), to="eligible")], "lod")
    'French Eligible.'
    """
    renderer = _Renderer(game)
    for index, effect in enumerate(effects[:-1]):
        if isinstance(effect, fx.SetLasting):
            raise _refuse(f"effects[{index}]", "a lasting effect before other effects")
    sentences: list[str] = []
    if len(effects) == 1 and _played_only_if(effects[0]):
        # PR-3: a Brilliant Stroke's steps follow its "Play only if" as sentences
        when = effects[0]
        assert isinstance(when, fx.When)
        sentences.append(
            f"Play only if {renderer.condition(when.condition, 'effects[0].condition')}"
        )
        sentences += [renderer.effect(effect, f"effects[0].then[{index}]") for index, effect
                      in enumerate(when.then)]  # fmt: skip
        return " ".join(sentence + "." for sentence in sentences)
    index = 0
    while index < len(effects):
        if (pair := _picked_pair(effects[index : index + 3])) is not None:
            sentences.append(renderer.picked_pair(*pair, f"effects[{index}]"))
            index += 3
            continue
        if (transfer := _transfer(effects[index : index + 2])) is not None:
            sentences.append(renderer.transfer(*transfer, f"effects[{index}]"))
            index += 2
            continue
        sentences.append(renderer.effect(effects[index], f"effects[{index}]"))
        index += 1
    for index, effect in enumerate(effects):
        if isinstance(effect, fx.Roll) and not _uses_roll(effects[index + 1 : index + 2], effect):
            raise _refuse(f"effects[{index}]", "a die roll not counted by the next effect")
    return " ".join(sentence + "." for sentence in sentences if sentence)


def _picked_pair(
    triple: Sequence[fx.Effect],
) -> tuple[fx.Select, fx.FreeAction | fx.Place, fx.FreeAction] | None:
    """CP-1..CP-3: a space a Faction picks, then two things it does there."""
    if len(triple) != 3:
        return None
    select, first, second = triple
    if not isinstance(select, fx.Select) or select.chooser is None:
        return None
    there = fx.Where(filter=fx.BoundSpaces(name=select.bind))
    acts = [
        (isinstance(e, fx.Place) and e.chooser == select.chooser and e.where == there)
        or (isinstance(e, fx.FreeAction) and e.faction == select.chooser and e.where == there)
        for e in (first, second)
    ]
    if all(acts) and isinstance(first, fx.Place | fx.FreeAction):
        return (select, first, second) if isinstance(second, fx.FreeAction) else None
    return None


def _transfer(pair: Sequence[fx.Effect]) -> tuple[fx.Adjust, fx.Adjust] | None:
    """TR-10: a track lowered by a number bound, then another raised by that number."""
    if len(pair) != 2:
        return None
    taken, given = pair
    if not isinstance(taken, fx.Adjust) or not isinstance(given, fx.Adjust):
        return None
    if taken.bind is None or taken.amount is not None or taken.delta >= 0:
        return None
    gains = fx.Adjust(track=given.track, amount=fx.Amount(quantity=fx.OfBound(name=taken.bind)))
    return (taken, given) if given == gains else None


def _played_only_if(effect: fx.Effect) -> bool:
    """Whether a side is one condition, and no otherwise, over Brilliant Stroke steps or
    a flag set ("Play only if ...", its effects as sentences after)."""
    return (
        isinstance(effect, fx.When)
        and not effect.otherwise
        and not isinstance(effect.condition, fx.NotTrue)
        and any(_is_brilliant_stroke(inner) or _sets_flag(inner) for inner in effect.then)
    )


def _sets_flag(effect: fx.Effect) -> bool:
    """Whether an effect sets a game flag for good ("... is now in effect")."""
    return isinstance(effect, fx.SetLasting) and effect == fx.SetLasting(
        kind="flag", name=effect.name
    )


def _is_brilliant_stroke(effect: fx.Effect) -> bool:
    return isinstance(effect, fx.Procedure) and effect.name == "brilliant_stroke"


def _uses_roll(following: Sequence[fx.Effect], roll: fx.Roll) -> bool:
    """Whether the effect after a roll counts its pieces by it ("a die roll of") or
    asks for a range of it ("On a die roll of 1-3")."""
    rolled = fx.OfBound(name=roll.bind)
    if following and isinstance(following[0], fx.When):
        condition = following[0].condition
        return isinstance(condition, fx.QuantityCompare) and condition.left.quantity == rolled
    count = getattr(following[0], "count", None) if following else None
    amount = count.amount if isinstance(count, fx.Count) else None
    return amount is not None and amount.quantity == rolled
