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

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from legalis.model.coin import effects as fx
from legalis.model.coin.gamedata import load_game_data
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
_COMPARE_WORDS = {">=": "or more", "<=": "or less"}


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
    )


def _refuse(path: str, what: str) -> InputError:
    return InputError(f"no sentence form writes {what}", path=path)


class _Renderer:
    def __init__(self, game: str) -> None:
        self.names = _names(game)

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
        if faction_id not in self.names.factions:
            raise _refuse(path, f"the Faction {faction_id!r}")
        return self.names.factions[faction_id]

    def name(self, table: dict[str, str], key: str, path: str) -> str:
        if key not in table:
            raise _refuse(path, repr(key))
        return table[key]

    def count(self, count: fx.Count, path: str) -> tuple[str, int]:
        """The count phrase and the number that decides singular or plural."""
        if count.amount is not None or count.at_least is not None:
            raise _refuse(path, "a computed or ranged count")
        if count.all:
            return ("any" if count.up_to else "all"), 2
        words = number(count.n)
        return (f"up to {words}" if count.up_to else words), count.n

    # ------------------------------------------------------------ where

    def space_filter(self, node: fx.Filter, many: bool, path: str) -> str:
        """A space phrase: named spaces, or a space type (plural when ``many``) with
        its restrictions ("Colonies with Tories")."""
        if isinstance(node, fx.NamedSpaces):
            return " and ".join(node.names)
        parts = list(node.filters) if isinstance(node, fx.AllOf) else [node]
        kind = parts[0]
        if not isinstance(kind, fx.TypeIs) or len(kind.types) != 1:
            raise _refuse(path, "a space filter without one space type first")
        head = _plural(kind.types[0]) if many else kind.types[0]
        return " ".join([head, *(self.restriction(part, path) for part in parts[1:])])

    def restriction(self, node: fx.Filter, path: str) -> str:
        """A restriction after the space type: "with Tories", "with no Militia",
        "with British Control", "adjacent to Boston"."""
        if (present := _some_pieces(node)) is not None:
            return f"with {self.pieces(present.pieces, 2, path)}"
        if isinstance(node, fx.NoneOf) and (absent := _some_pieces(node.filter)) is not None:
            return f"with no {self.pieces(absent.pieces, 2, path)}"
        if isinstance(node, fx.ControlIs):
            return f"with {self.name(self.names.control, node.control, path)}"
        if (
            isinstance(node, fx.AdjacentTo)
            and node == fx.AdjacentTo(filter=node.filter)
            and isinstance(node.filter, fx.NamedSpaces)
            and len(node.filter.names) == 1
        ):
            return f"adjacent to {node.filter.names[0]}"
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
            return f"each {self.space_filter(where.filter, False, path)}"
        if where.spaces == 1 and not where.up_to:
            return f"one {self.space_filter(where.filter, False, path)}"
        phrase = self.space_filter(where.filter, True, path)
        amount = f"up to {number(where.spaces)}" if where.up_to else number(where.spaces)
        return f"each of {amount} {phrase}" if each else f"{amount} {phrase}"

    def pieces_in(self, effect: fx._PieceEffect, verb: str, preposition: str, path: str) -> str:
        """A piece effect's subject, count, pieces and location: "Place two Tories in
        Boston", "Remove a total of four Militia from Boston and Norfolk" (Q-8), "Place
        four Tories" (PL-2: anywhere, as a total)."""
        _plain_pieces(effect, path)
        count, n = self.count(effect.count, f"{path}.count")
        status = getattr(effect, "status", None) or getattr(effect, "taking", None)
        pieces = self.pieces(effect.pieces, n, f"{path}.pieces")
        pieces = f"{status.capitalize()} {pieces}" if status else pieces
        head = self.subject(verb, effect.chooser, path)
        where = effect.where
        if where.per_space:
            if isinstance(where.filter, fx.Anywhere):
                raise _refuse(f"{path}.where", "an effect in each space of the map")
            located = self.where(where, f"{path}.where", each=True)
            if located == "there":
                return f"{head} {count} {pieces} there"
            return f"{head} {count} {pieces} {preposition} {located}"
        if isinstance(where.filter, fx.Anywhere) and where.spaces is None:
            return f"{head} {count} {pieces}"
        named = isinstance(where.filter, fx.NamedSpaces) and len(where.filter.names) > 1
        exact = effect.count == fx.Count(n=effect.count.n)
        if not named or where.spaces is not None or not exact:
            raise _refuse(f"{path}.where.per_space", "a total over spaces not named")
        located = self.where(where, f"{path}.where", each=False)
        return f"{head} a total of {count} {pieces} {preposition} {located}"

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
            return verb.capitalize()
        return f"{self.faction(chooser, f'{path}.chooser')} {verb}"

    def op_place(self, effect: fx.Place, path: str) -> str:
        text = self.pieces_in(effect, "place", "in", path)
        if effect.source != "available":
            source = self.name(self.names.boxes, effect.source, f"{path}.source")
            head, located = _split_location(text, " in ")
            text = f"{head} from {source}" + (f" in {located}" if located else "")
        return text

    def op_remove(self, effect: fx.Remove, path: str) -> str:
        if effect.tunneled:
            raise _refuse(f"{path}.tunneled", "the removal of Tunneled Bases")
        text = self.pieces_in(effect, "remove", "from", path)
        if effect.destination is not None:
            box = self.name(self.names.boxes, effect.destination, f"{path}.destination")
            text += f" to {box}"
        return text

    def op_replace(self, effect: fx.Replace, path: str) -> str:
        if effect.ratio != (1, 1) or effect.by_relative is not None or effect.chooser:
            raise _refuse(path, "a replacement in another ratio or by relative pieces")
        if effect.count.all or effect.count.up_to or not effect.where.per_space:
            raise _refuse(f"{path}.count", "a replacement of all or up to N pieces, or a total")
        count, n = self.count(effect.count, f"{path}.count")
        text = self.pieces_in(effect, "replace", "in", path)
        text += f" with {count} {self.pieces(effect.by, n, f'{path}.by')}"
        if effect.source != "available":
            text += " from " + self.name(self.names.boxes, effect.source, f"{path}.source")
        return text

    def op_move(self, effect: fx.MovePieces, path: str) -> str:
        text = self.pieces_in(effect, "move", "from", path)
        return f"{text} to {self.where(effect.to, f'{path}.to', each=False)}"

    def _flip(self, effect: fx._PieceEffect, path: str, verb: str, after: str) -> str:
        text = self.pieces_in(effect, verb, "in", path)
        if not after:
            return text
        head, located = _split_location(text, " in ")
        return f"{head}{after}" + (f" in {located}" if located else "")

    def op_activate(self, effect: fx.Activate, path: str) -> str:
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
        if effect.either or effect.chooser:
            raise _refuse(path, "a shift in either direction or by another Faction")
        where = self.where(effect.where, f"{path}.where", each=False)
        steps = abs(effect.levels)
        levels = f"{number(steps)} level{'s' if steps > 1 else ''}"
        pole = "Active Support" if effect.levels > 0 else "Active Opposition"
        toward = _LEVELS[effect.toward] if effect.toward is not None else pole
        return f"Shift {where} {levels} toward {toward}"

    def op_set_support(self, effect: fx.SetSupport, path: str) -> str:
        if effect.chooser:
            raise _refuse(f"{path}.chooser", "a support level set by another Faction")
        where = self.where(effect.where, f"{path}.where", each=False)
        return f"Set {where} to {_LEVELS[effect.level]}"

    def op_adjust(self, effect: fx.Adjust, path: str) -> str:
        if effect.bind is not None:
            raise _refuse(f"{path}.bind", "a track change bound for a later effect")
        track = self.name(self.names.tracks, effect.track, f"{path}.track")
        if effect.amount is None:
            return f"{track} {effect.delta:+d}"  # TR-1
        return f"{track} {'-' if effect.delta < 0 else '+'}{self.amount(effect.amount, path)}"

    def amount(self, amount: fx.Amount, path: str) -> str:
        """A change by an amount of the state (A-2): "1 per City with British Control",
        "1 for every three Villages on the map"."""
        quantity = amount.quantity
        if amount.times != 1 or amount.round != "down" or amount.plus or amount.minus:
            raise _refuse(f"{path}.amount", "an amount with a multiple, rounding up, a sum "
                          "or a difference")  # fmt: skip
        if isinstance(quantity, fx.OfSpaces) and amount.per == 1:
            return f"1 per {self.space_filter(quantity.filter, False, f'{path}.amount')}"
        if (
            isinstance(quantity, fx.OfPieces)
            and quantity == fx.OfPieces(pieces=quantity.pieces)
            and amount.per > 1
        ):
            pieces = self.pieces(quantity.pieces, 2, f"{path}.amount.quantity.pieces")
            return f"1 for every {number(amount.per)} {pieces} on the map"
        raise _refuse(f"{path}.amount", f"an amount of {quantity.kind!r}")

    def op_at_phase(self, effect: fx.AtPhase, path: str) -> str:
        if effect.phase != "reset" or len(effect.effects) != 1:
            raise _refuse(f"{path}.phase", "effects at a phase other than Reset")
        return f"{self.effect(effect.effects[0], f'{path}.effects[0]')} during Reset Phase"

    def op_procedure(self, effect: fx.Procedure, path: str) -> str:
        plain = fx.Procedure(name="desertion", factions=effect.factions)
        if effect != plain or len(effect.factions) != 1:
            raise _refuse(path, f"the procedure {effect.name!r}")
        faction = self.faction(effect.factions[0], f"{path}.factions")
        adjective = faction[:-1] if faction.endswith("s") and faction[-2].islower() else faction
        return f"Execute {adjective} Desertion as per Winter Quarters Round"

    def op_set_track(self, effect: fx.SetTrack, path: str) -> str:
        if not isinstance(effect.value, int) or effect.mode != "set":
            raise _refuse(f"{path}.value", "a track set to a computed value or a bound")
        return f"{self.name(self.names.tracks, effect.track, f'{path}.track')} to {effect.value}"

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
        if effect.action != "place" or effect.chooser:
            raise _refuse(path, "a marker removed, moved or placed by another Faction")
        name = self.name(self.names.markers, effect.marker, f"{path}.marker")
        count, n = self.count(effect.count, f"{path}.count")
        marker = f"{name} marker" + ("" if n == 1 else "s")
        return f"Place {count} {marker} in {self.where(effect.where, f'{path}.where', each=True)}"

    def op_free(self, effect: fx.FreeAction, path: str) -> str:
        plain = fx.FreeAction(faction=effect.faction, action=effect.action, kind=effect.kind,
                              where=effect.where)  # fmt: skip
        if effect != plain:
            raise _refuse(path, "a free action with modifiers")
        action = self.name(self.names.actions, effect.action, f"{path}.action")
        if effect.faction == "executing":
            text = f"Free {action}"
        else:
            text = f"{self.faction(effect.faction, f'{path}.faction')} free {action}"
        if effect.where is not None:
            located = self.where(effect.where, f"{path}.where", each=False)
            text += " there" if located == "there" else f" in {located}"
        return text

    def op_battle_modifier(self, effect: fx.BattleModifier, path: str) -> str:
        if effect.force_level or not effect.loss_level:
            raise _refuse(path, "a Force Level modifier")
        return f"{effect.loss_level:+d} to {effect.role.capitalize()}'s Loss Level"

    def op_choose(self, effect: fx.Choose, path: str) -> str:
        """H-1: the options, each its clauses, joined by ", or "."""
        if effect.chooser is not None or any(len(option) != 1 for option in effect.options):
            raise _refuse(path, "a choice by another Faction, or of no effect or several")
        options = [self.clauses(option, f"{path}.options[{i}]") for i, option in
                   enumerate(effect.options)]  # fmt: skip
        first, *rest = options
        return ", or ".join([first, *(_lower_verb(option) for option in rest)])

    def op_select(self, effect: fx.Select, path: str) -> str:
        """SL-1: "Select one City with Tories" (the reading names the binding)."""
        if effect.chooser is not None:
            raise _refuse(f"{path}.chooser", "a selection by another Faction")
        return f"Select {self.where(effect.where, f'{path}.where', each=False)}"

    def op_if(self, effect: fx.When, path: str) -> str:
        """C-1 "If <condition>, <clauses>", with C-2's "If not, <clauses>" after."""
        text = f"If {self.condition(effect.condition, f'{path}.condition')}, "
        text += self.clauses(effect.then, f"{path}.then")
        if effect.otherwise:
            text += f". If not, {self.clauses(effect.otherwise, f'{path}.otherwise')}"
        return text

    def clauses(self, effects: Sequence[fx.Effect], path: str) -> str:
        """Effects as one sentence's clauses, joined by ", then" (W-6)."""
        first, *rest = [self.effect(e, f"{path}[{i}]") for i, e in enumerate(effects)]
        return ", then ".join([first, *(_lower_verb(clause) for clause in rest)])

    def condition(self, node: fx.Condition, path: str) -> str:
        if isinstance(node, fx.FlagSet) and node.value:
            flag = self.name(self.names.flags, node.flag, f"{path}.flag")
            return f"the {flag.removesuffix(' played')} has been played"
        if isinstance(node, fx.TrackCompare) and node.compare in _COMPARE_WORDS:
            track = self.name(self.names.tracks, node.track, f"{path}.track")
            return f"{track} is {node.value} {_COMPARE_WORDS[node.compare]}"
        raise _refuse(path, f"the condition {node.kind!r}")


_VERBS = ("Place", "Remove", "Replace", "Move", "Activate", "Flip", "Shift", "Set", "Execute",
          "Free", "Select")  # fmt: skip


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


def _split_location(text: str, preposition: str) -> tuple[str, str]:
    """``text`` cut before its last ``preposition`` ("Place two Tories", "Boston")."""
    head, found, located = text.rpartition(preposition)
    return (head, located) if found else (text, "")


def _first_names(forms: dict[str, str]) -> dict[str, str]:
    """Each id's first printed form (the name the game's data gives it)."""
    out: dict[str, str] = {}
    for printed, key in forms.items():
        out.setdefault(key, printed)
    return out


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
    return " ".join(
        renderer.effect(effect, f"effects[{index}]") + "." for index, effect in enumerate(effects)
    )
