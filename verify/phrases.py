"""Phrases inside event-text clauses: counts, amounts, pieces, locations, conditions.

The clause frames of ``text.lark`` (place, remove, shift, ...) are built from the
phrase rules of ``phrases.lark``; :class:`PhraseCompiler` turns those phrases
into tables of the effect language (:mod:`legalis.model.coin.effects`), and
``legalis.verify.text`` compiles the clauses on top of it. What each phrase rule
gives the clause compiler:

- ``count`` -> :meth:`PhraseCompiler.count`: a ``Count`` table (``n``, ``up_to``,
  ``all``, ``at_least``, ``amount``). A count that is a total spread over the
  spaces ("a total of 5") says so through :meth:`~PhraseCompiler.spread`; the
  number a count writes ("every 2") through :meth:`~PhraseCompiler.count_number`.
  A count read from the pieces it counts ("half the Tories", "two in five
  Militia") takes those pieces, the location and the rounding from the phrases
  compiled after it in the same clause, so compile count, pieces and location in
  the order the text gives them.
- ``piece_list`` -> :meth:`~PhraseCompiler.piece_phrase`: ``pieces`` plus the
  optional effect fields ``relative``, ``status``, ``source`` (the box the pieces
  come from: "out-of-play ARVN Troops"), ``last``, ``limits``, ``tunneled``;
  :meth:`~PhraseCompiler.pieces` gives the type list alone (filters, conditions),
  :meth:`~PhraseCompiler.bare_faction` the Faction of a phrase that is a Faction
  alone ("2 NVA"), for a noun shared across groups. A ``piece_note`` a frame reads
  after its location ("(Forts last)", ", to a maximum of 1 Base", ", rounding
  up") is applied to the effect table by :meth:`~PhraseCompiler.piece_note`.
- ``location`` -> :meth:`~PhraseCompiler.location`: a ``Where`` table, or, for an
  off-map box, ``{"box": "casualties"}`` (several: ``{"boxes": [...]}``) that the
  frame turns into a ``source``, ``destination`` or ``transfer``: a box is never a
  space filter. Boxes the map holds (LoD's West Indies) stay ``named``.
- references back ("there", "in each", "that space", "it", "them", "those
  spaces", "one of those spaces", "where the Militia were removed") call
  ``self.reference(kind, node)``, which the clause compiler provides (it knows
  which earlier effect chose which spaces); a die roll calls
  ``self.roll_binding(node)`` and reads the roll as ``{"of": "bound"}``.
- ``amount`` -> :meth:`~PhraseCompiler.amount`, ``condition`` ->
  :meth:`~PhraseCompiler.condition`, ``level``, ``support_levels``,
  ``faction_ref`` -> :meth:`~PhraseCompiler.factions`, ``box_ref`` ->
  :meth:`~PhraseCompiler.box`, a MARKER_NOUN -> :meth:`~PhraseCompiler.marker`.

Phrase words that always go together ("up to", "no more than", "that has") are
single terminals at the bottom of ``phrases.lark``: the Earley parser predicts every
alternative of a rule wherever the rule may start, so fewer alternatives read a
side faster.

>>> from legalis.verify.text import parse_side
>>> effect = parse_side("Remove 2 COIN Bases from Quang Ngai.", "fitl").effects[0]
>>> effect.pieces, effect.where.filter.names
(('us_base', 'arvn_base'), ('Quang Tin-Quang Ngai',))
"""

from __future__ import annotations

import re
from typing import Any

from lark import Token, Tree
from legalis.verify.lexicon import Lexicon, norm

NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
            "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}  # fmt: skip


class Unreadable(Exception):
    """A form the grammar accepts but the text cannot mean (no antecedent for "it")."""

    def __init__(self, message: str, node: Tree[Token] | Token | None) -> None:
        super().__init__(message)
        self.message = message
        self.line = 1
        self.column = 1
        if isinstance(node, Token):
            self.line, self.column = node.line or 1, node.column or 1
        elif isinstance(node, Tree) and not node.meta.empty:
            self.line, self.column = node.meta.line, node.meta.column


def subtrees(node: Tree[Token]) -> list[Tree[Token]]:
    return [child for child in node.children if isinstance(child, Tree)]


def tokens(node: Tree[Token], kind: str | None = None) -> list[Token]:
    return [
        child for child in node.children
        if isinstance(child, Token) and (kind is None or child.type == kind)
    ]  # fmt: skip


def child_named(node: Tree[Token], name: str) -> Tree[Token] | None:
    for item in subtrees(node):
        if item.data == name:
            return item
    return None


def number(token: Token) -> int:
    text = str(token).lower()
    return NUMBERS[text] if text in NUMBERS else int(text)


def span(token: Token) -> tuple[int, int]:
    """The two numbers of a range token ("2-5", or with an en dash)."""
    low, high = str(token).replace("\u2013", "-").split("-")
    return int(low), int(high)


def combine(filters: list[dict[str, Any]]) -> dict[str, Any]:
    if not filters:
        return {"is": "anywhere"}
    if len(filters) == 1:
        return filters[0]
    return {"is": "all", "filters": filters}


LEVEL = {("active", "support"): "active_support", ("passive", "support"): "passive_support",
          ("passive", "opposition"): "passive_opposition",
          ("active", "opposition"): "active_opposition"}  # fmt: skip

_REFERENCES = {"ref_there": "there", "ref_that_space": "that_space", "ref_those": "those",
               "ref_one_of_those": "one_of_those"}  # fmt: skip
_CMP = {"cmp_ge": ">=", "cmp_le": "<=", "cmp_gt": ">", "cmp_lt": "<", "cmp_eq": "==",
        "order_gt": ">", "order_lt": "<", "order_ge": ">="}  # fmt: skip
_NOTES = ("note_last", "note_first", "note_limit", "note_may_be", "note_tunneled", "rounding")
_PENDING = "?"  # stands for the pieces a fraction count takes until they are read


class PhraseCompiler:
    """Compiles the phrase rules of ``phrases.lark``; the clause compiler extends it.

    A fraction count ("half the Tories") is kept open until the pieces, location
    and rounding after it are read: :attr:`open_amount`.
    """

    lex: Lexicon
    chooser: str | None
    open_amount: dict[str, Any] | None = None

    # ------------------------------------------------------------ names

    def faction(self, token: Token) -> str:
        """The id of the Faction ``token`` names, as a loaded deck holds it."""
        return self.lex.factions[norm(token)]

    def factions(self, node: Tree[Token]) -> list[str]:
        """The Factions a ``faction_ref`` names: one, or a side ("COIN", "Insurgents")."""
        token = tokens(node)[0]
        if token.type == "GROUP":
            return list(self.lex.groups[norm(token)])
        return [self.faction(token)]

    def box(self, node: Tree[Token] | Token) -> str:
        """The id of the box a ``box_ref`` (or a BOX token) names."""
        token = node if isinstance(node, Token) else tokens(node, "BOX")[0]
        return self.lex.box(token)

    def marker(self, node: Tree[Token] | Token) -> str:
        """The id of the marker a MARKER_NOUN names ("Terror", "Raid markers")."""
        token = node if isinstance(node, Token) else tokens(node, "MARKER_NOUN")[0]
        return self.lex.marker(re.sub(r"\s+markers?$", "", norm(token), flags=re.I))

    def place_name(self, node: Tree[Token]) -> str:
        token = node.children[-1]
        assert isinstance(token, Token)
        if token.type == "BOX":
            return self.lex.box_names[norm(token).lower()]
        return self.lex.spaces[norm(token)]

    def _off_map(self, names: list[str]) -> list[str] | None:
        """The box ids when every name is an off-map box, None when none is one."""
        boxes = [name for name in names if name.lower() in self.lex.box_names]
        off_map = [name for name in boxes if name not in self.lex.map_boxes]
        if not off_map:
            return None
        if len(off_map) != len(names):
            raise Unreadable("a box and a map space as alternatives", None)
        return [self.lex.box(name) for name in off_map]

    # ------------------------------------------------------------ counts

    def count(self, node: Tree[Token]) -> dict[str, Any]:
        """A ``Count`` table: "3", "up to 3", "any 3", "a", "all", "any", "2-5",
        "at least 2", "a die roll of", "half the", "two in five"."""
        kind = node.data
        self.open_amount = None
        numbers = [number(token) for token in tokens(node, "NUM")]
        if kind == "exactly":
            return {"n": numbers[0]}
        if kind in ("all", "every"):
            return {"all": True}
        if kind == "count_range":
            low, high = numbers if numbers else span(tokens(node, "RANGE")[0])
            return {"n": high, "up_to": True, "at_least": low}
        if kind == "count_words":
            words = " ".join(str(tokens(node)[0]).lower().split())
            if words in ("up to", "at most", "no more than"):
                return {"n": numbers[0], "up_to": True}
            if words == "at least":
                return {"all": True, "up_to": True, "at_least": numbers[0]}
            if numbers:  # "any 3", "just 3", "a total of 3"
                return {"n": numbers[0]}
            if words in ("a", "an"):
                return {"n": 1}
            if words == "any":
                return {"all": True, "up_to": True}
            if words.startswith("all"):
                return {"all": True}
            if "roll" in words:
                name = self.roll_binding(node)
                return {"amount": {"quantity": {"of": "bound", "name": name}}}
            return self._fraction(1, 2, node)  # "half the", "½ of"
        fraction = tokens(node, "FRACTION")  # "two in five", "1/4 of the"
        times, per = numbers if not fraction else [int(p) for p in str(fraction[0]).split("/")]
        return self._fraction(times, per, node)

    def _fraction(self, times: int, per: int, node: Tree[Token]) -> dict[str, Any]:
        """A count that is a fraction of the pieces named after it: kept open."""
        if per == 0:
            raise Unreadable("a fraction of 0", node)
        amount: dict[str, Any] = {"quantity": {"of": "pieces", "pieces": [_PENDING]}}
        if (times, per) != (1, 1):
            amount.update({"times": times} if times != 1 else {}, per=per)
        self.open_amount = amount
        return {"amount": amount}

    def spread(self, node: Tree[Token]) -> bool:
        """Whether a count is a total spread over the chosen spaces ("a total of 5"),
        so the frame's ``where`` takes ``per_space = false``."""
        return node.data == "count_words" and "total" in str(tokens(node)[0]).lower()

    def count_number(self, node: Tree[Token]) -> int | None:
        """The number a count writes ("every 2": 2), None when it writes none."""
        numbers = tokens(node, "NUM")
        return number(numbers[0]) if numbers else None

    def roll_binding(self, node: Tree[Token]) -> str:
        """The name a die roll is bound to; the clause compiler emits the roll."""
        raise Unreadable("a die roll needs a clause to roll in", node)

    def _settle(self, **fields: Any) -> None:
        """Give an open fraction count what was read after it: its pieces (and their
        box, status, relative), then its location, which closes it."""
        amount = self.open_amount
        if amount is None:
            return
        quantity = amount["quantity"]
        if "where" in fields:
            if fields["where"] is not None:
                quantity["where"] = fields["where"]
            self.open_amount = None
        elif "round" in fields:
            amount["round"] = fields["round"]
        elif quantity["pieces"] == [_PENDING]:
            quantity.update({key: value for key, value in fields.items() if value is not None})

    def rounding(self, node: Tree[Token]) -> None:
        """ ", rounding up" after a fraction count ("half the Tories"): its rounding."""
        way = str(tokens(node, "ROUND_WAY")[0]).lower()
        if self.open_amount is None:
            raise Unreadable("nothing to round", node)
        self._settle(round=way)

    # ------------------------------------------------------------ pieces

    def pieces(self, node: Tree[Token] | Token) -> list[str]:
        """The piece types a piece phrase names, in the order written."""
        return (
            list(self.piece_phrase(node)["pieces"])
            if isinstance(node, Tree)
            else list(self.lex.pieces[norm(node)])
        )

    def bare_faction(self, node: Tree[Token]) -> str | None:
        """The Faction of a piece phrase that is a Faction alone ("2 NVA"), else None."""
        if node.data != "faction_alone":
            return None
        token = tokens(child_named(node, "faction_ref") or node)[0]
        return self.faction(token) if token.type == "FACTION" else None

    def piece_phrase(self, node: Tree[Token]) -> dict[str, Any]:
        """A piece phrase as effect fields: ``pieces`` and, when written, ``relative``,
        ``status``, ``source``, ``last``, ``limits``, ``tunneled``.

        A relative phrase ("its", "friendly", "enemy") after a named subject is
        narrowed to that Faction's pieces; after none it stays ``relative``.
        """
        table: dict[str, Any] = {}
        if node.data == "shared_noun":
            refs = [ref for ref in subtrees(node) if ref.data == "faction_ref"]
            named = list(self.lex.pieces[norm(tokens(node, "PIECE")[0])])
            kinds = {self.lex.piece_kind[piece][1] for piece in named}
            owners = [faction for ref in refs for faction in self.factions(ref)]
            same = [
                piece for faction in owners for piece in self.lex.faction_pieces[faction]
                if self.lex.piece_kind[piece][1] in kinds
            ]  # fmt: skip
            if not same:
                raise Unreadable("no such piece of those Factions", node)
            # "COIN or NVA Bases": the noun "NVA Bases" is one Faction's and stays; a
            # noun of every Faction ("Bases") is only the named Factions'
            qualified = len({self.lex.piece_kind[piece][0] for piece in named}) == 1
            table["pieces"] = list(dict.fromkeys(same + (named if qualified else [])))
            notes = [item for item in subtrees(node) if item.data in _NOTES]
        else:
            items = [
                item for item in node.children
                if (isinstance(item, Tree) and item.data not in _NOTES)
                or (isinstance(item, Token) and item.type == "PIECE")
            ]  # fmt: skip
            notes = [item for item in subtrees(node) if item.data in _NOTES]
            if node.data == "faction_alone":  # "2 NVA", "all Underground VC"
                items = [Tree("piece_item", [*items[:-1], Tree("faction_alone", [items[-1]])])]
            found: list[str] = []
            for item in items:
                found.extend(self._piece_item(item, table))
            table["pieces"] = list(dict.fromkeys(found))
        for note in notes:
            self.piece_note(note, table)
        self._narrow(table, node)
        self._settle(pieces=table["pieces"], relative=table.get("relative"),
                     status=table.get("status"), box=table.get("source"))  # fmt: skip
        return table

    def _piece_item(self, item: Tree[Token] | Token, table: dict[str, Any]) -> list[str]:
        if isinstance(item, Token):
            return list(self.lex.pieces[norm(item)])
        if item.data in ("piece_list", "shared_noun"):
            return list(self.piece_phrase(item)["pieces"])
        if item.data == "piece_item":
            adjectives = [child for child in item.children if isinstance(child, Tree)]
            noun = item.children[-1]
            adjectives = [child for child in adjectives if child is not noun]
            kinds = self._piece_item(noun, table)
            for adjective in adjectives:
                kinds = self._adjective(adjective, kinds, table)
            return kinds
        return self._noun(item, table)

    def _noun(self, node: Tree[Token], table: dict[str, Any]) -> list[str]:
        kind = node.data
        if kind == "generic":
            return self._generic(tokens(node, "GENERIC")[0], list(self.lex.all_pieces))
        if kind == "piece_box":
            return self._piece_box(node, table)
        owned = [
            piece for faction in self.factions(subtrees(node)[0])
            for piece in self.lex.faction_pieces[faction]
        ]  # fmt: skip
        boxes = tokens(node, "BOX")
        if boxes:  # "US Casualties": the Faction's pieces in that box
            table["source"] = self.box(boxes[0])
        if kind == "faction_pieces" and not boxes:
            return self._generic(tokens(node, "GENERIC")[0], owned)
        return owned

    def _piece_box(self, node: Tree[Token], table: dict[str, Any]) -> list[str]:
        """ "US Troop Casualties": those pieces, in that box."""
        table["source"] = self.box(tokens(node, "BOX")[0])
        return list(self.lex.pieces[norm(tokens(node, "PIECE")[0])])

    def _generic(self, token: Token, among: list[str]) -> list[str]:
        word = str(token).lower().rstrip("s")
        if word == "cube":
            keep = set(self.lex.cubes)
        elif word in ("unit", "force"):
            keep = set(self.lex.all_pieces) - set(self.lex.bases)
        else:
            keep = set(self.lex.all_pieces)
        return [piece for piece in among if piece in keep]

    def _adjective(self, node: Tree[Token], kinds: list[str], table: dict[str, Any]) -> list[str]:
        kind = node.data
        if kind == "piece_adj":
            word = tokens(node)[0]
            text = " ".join(str(word).lower().split())
            if word.type == "STATUS" and text != "untunneled":
                table["status"] = text
            elif word.type == "RELATIVE":
                table["relative"] = text if text in ("friendly", "enemy") else "own"
        elif kind == "not_kind":
            excluded = set(self.lex.pieces[norm(tokens(node, "PIECE")[0])])
            excluded_kinds = {self.lex.piece_kind[piece][1] for piece in excluded}
            kinds = [
                piece for piece in kinds if self.lex.piece_kind[piece][1] not in excluded_kinds
            ]
        elif kind == "from_box":
            table["source"] = self.box(tokens(node, "BOX")[0])
        # "unTunneled" Bases are the ones any effect takes unless told otherwise
        return kinds

    def piece_note(self, note: Tree[Token], table: dict[str, Any]) -> None:
        """Apply a note on a piece phrase to its effect ``table``: "(Forts last)",
        "(VC first)", "(no more than 1 Base)", "(even if Tunneled)", ", rounding up".
        A frame that reads a ``piece_note`` after its location applies it here."""
        # "(Forts last)" in a group of British pieces: the British Forts
        lists = [
            [piece for piece in found if piece in table["pieces"]] or found
            for found in (self.pieces(part) for part in subtrees(note))
        ]
        if note.data == "note_last":
            table["last"] = lists[0]
        elif note.data == "note_first":
            first = set(lists[0])
            table["last"] = (
                lists[1] if len(lists) > 1 else [p for p in table["pieces"] if p not in first]
            )
        elif note.data in ("note_limit", "note_may_be"):
            # "no more than 1 Base"; ", 1 of the pieces may be a Base"
            at_most = number(tokens(note, "NUM")[0])
            table.setdefault("limits", []).append({"pieces": lists[-1], "at_most": at_most})
        elif note.data == "note_tunneled":
            table["tunneled"] = True
        elif note.data == "rounding":
            self.rounding(note)

    def _narrow(self, table: dict[str, Any], node: Tree[Token]) -> None:
        """ "its"/"friendly"/"enemy" after a named subject: that Faction's pieces."""
        relative = table.get("relative")
        subject = getattr(self, "chooser", None)
        if relative is None or subject is None or subject not in self.lex.faction_pieces:
            return
        side = self.lex.faction_side[subject]
        owners = {
            "own": {subject},
            "friendly": {f for f, s in self.lex.faction_side.items() if s == side},
            "enemy": {f for f, s in self.lex.faction_side.items() if s != side},
        }[relative]
        narrowed = [p for p in table["pieces"] if self.lex.piece_kind[p][0] in owners]
        if not narrowed:
            raise Unreadable("the Faction has no such piece", node)
        table["pieces"] = narrowed
        del table["relative"]

    # ------------------------------------------------------------ amounts

    def amount(self, node: Tree[Token], times: int = 1) -> dict[str, Any]:
        """An ``Amount`` table: "per City with X", "for every 3 Villages on the map",
        "4 times Trail value", "half the Tories", "the population of ...";
        ``times`` is the number written before it ("+2 per ...")."""
        kind = node.data
        parts = subtrees(node)
        table: dict[str, Any] = {}
        if kind == "per_amount":
            per_word, quantity = parts[0], parts[1]
            every = tokens(per_word, "NUM")
            if every:
                table["per"] = number(every[0])
        elif kind == "times_amount":
            quantity = parts[0]
            times *= number(tokens(node, "NUM")[0])
        elif kind == "twice_amount":
            quantity = parts[0]
            times *= 2
        elif kind == "half_amount":
            quantity = parts[0]
            table["per"] = 2
        elif kind == "amount":
            quantity = parts[0]
        else:
            quantity = node
        rounding = child_named(node, "rounding")
        if rounding is not None:
            table["round"] = str(tokens(rounding, "ROUND_WAY")[0]).lower()
        table["quantity"] = self.quantity(quantity)
        if times != 1:
            table["times"] = times
        if table.get("per") == 0:
            raise Unreadable("an amount per 0", node)
        return table

    def quantity(self, node: Tree[Token]) -> dict[str, Any]:
        kind = node.data
        if kind == "of_track":
            return {"of": "track", "track": self.lex.tracks[norm(tokens(node, "TRACK")[0])]}
        if kind == "of_population":
            return {"of": "population", "filter": self.location(subtrees(node)[0])["filter"]}
        if kind == "of_spaces":
            return {"of": "spaces", "filter": combine(self.np(subtrees(node)[0]))}
        places = subtrees(node)[1:] if kind == "of_pieces" else subtrees(node)
        place = places[0] if places else None
        if kind == "of_markers":
            table: dict[str, Any] = {"of": "markers", "marker": self.marker(node)}
            found = self._place(place)
            if "box" in found:
                raise Unreadable("markers are counted on the map", node)
            table.update(found)
            return table
        return self._pieces_at(subtrees(node)[0], place)

    # ------------------------------------------------------------ support levels

    def level(self, node: Tree[Token]) -> str:
        if tokens(node, "NEUTRAL"):
            return "neutral"
        degree = str(tokens(node, "DEGREE")[0]).lower()
        return LEVEL[(degree, str(tokens(node, "POLE")[0]).lower())]

    def support_levels(self, node: Tree[Token]) -> list[str]:
        levels: list[str] = []
        for group in subtrees(node):
            if tokens(group, "NEUTRAL"):
                levels.append("neutral")
                continue
            pole = str(tokens(group, "POLE")[0]).lower()
            for degree in tokens(group, "DEGREE"):
                levels.append(LEVEL[(str(degree).lower(), pole)])
        return list(dict.fromkeys(levels))

    def level_words(self, token: Token) -> list[str]:
        """The levels a LEVEL_WORDS token names ("Active or Passive Support", "Neutral")."""
        words = str(token).lower().split()
        levels = ["neutral"] if "neutral" in words else []
        pole = next((word for word in words if word in ("support", "opposition")), None)
        degrees = [word for word in words if word in ("active", "passive")]
        levels[:0] = [LEVEL[(degree, pole)] for degree in degrees if pole is not None]
        return levels

    # ------------------------------------------------------------ locations

    def location(self, node: Tree[Token]) -> dict[str, Any]:
        """A ``Where`` table, or ``{"box": id}`` / ``{"boxes": [...]}`` for off-map boxes."""
        wheres = [self.loc_spec(spec) for spec in subtrees(node) if spec.data != "rounding"]
        if len(wheres) == 1:
            where = wheres[0]
        else:
            if any("filter" not in item for item in wheres):
                raise Unreadable("a box and a map space as alternatives", node)
            where = {"filter": {"is": "any", "filters": [item["filter"] for item in wheres]}}
            counted = [item for item in wheres if item.get("spaces") is not None]
            if counted:
                where["spaces"] = counted[0]["spaces"]
                where["up_to"] = counted[0].get("up_to", False)
        rounding = child_named(node, "rounding")
        if rounding is not None:
            self.rounding(rounding)
        if "filter" in where:
            self._settle(where=where["filter"] if where["filter"]["is"] != "anywhere" else None)
        return where

    def loc_spec(self, node: Tree[Token]) -> dict[str, Any]:
        kind = node.data
        if kind in _REFERENCES or kind == "ref_word":
            return self.reference(self._reference_kind(node), node)
        where: dict[str, Any]
        if kind in ("each_of_count", "count_np"):
            count, noun = subtrees(node)
            where = {"filter": combine(self.np(noun)), **self._spaces(count)}
        elif kind in ("each_of_names", "one_of_names", "names", "named"):
            lists = [part for part in subtrees(node) if part.data == "name_list"]
            places = subtrees(lists[0]) if lists else subtrees(node)
            names = [self.place_name(place) for place in places]
            boxes = self._off_map(names)
            if boxes is not None:
                return {"box": boxes[0]} if len(boxes) == 1 else {"boxes": boxes}
            where = {"filter": {"is": "named", "names": names}}
            # "Norfolk or Savannah", "one of ...", "either ...": one of them
            either = kind == "one_of_names" or (
                kind == "names" and str(tokens(lists[0], "AND_OR_WORD")[0]).lower() == "or"
            )
            if either and len(names) > 1:
                where["spaces"] = 1
        elif kind == "each_one":
            where = {"filter": combine(self.np(subtrees(node)[0]))}
        elif kind == "np_spec":  # "Colonies", "any Colonies", "a City", "every City"
            where = {"filter": combine(self.np(subtrees(node)[0]))}
            word = str(tokens(node, "NP_WORD")[0]).lower() if tokens(node, "NP_WORD") else "any"
            if word in ("a", "an"):
                where["spaces"] = 1
            elif word == "any":
                where["per_space"] = False
        elif kind == "anywhere":
            inside = subtrees(node)
            found: dict[str, Any] = {"is": "anywhere"}
            if inside and inside[0].data == "region":
                found = self.region(inside[0])
            elif inside:
                found = {"is": "named", "names": [self.place_name(inside[0])]}
            where = {"filter": found, "per_space": False}
        elif kind == "in_region":
            where = {"filter": self.region(subtrees(node)[0]), "per_space": False}
        elif kind == "outside":
            inner = subtrees(node)[0]
            if inner.data == "region":
                excluded = self.region(inner)
            elif inner.data == "place_name":
                excluded = {"is": "named", "names": [self.place_name(inner)]}
            else:
                excluded = combine(self.np(inner))
            where = {"filter": {"is": "not", "filter": excluded}, "per_space": False}
        elif kind == "within":
            where = {"filter": self._within(node), "per_space": False}
        elif kind == "box":
            return {"box": self.box(node)}
        else:  # pragma: no cover - the grammar has no other location
            raise Unreadable(f"unexpected location {kind}", node)
        return where

    def _within(self, node: Tree[Token]) -> dict[str, Any]:
        """ "within N spaces of X": X itself and every space N or fewer steps away."""
        distance = number(tokens(node, "NUM")[0])
        near = self.target(subtrees(node)[0])
        return {"is": "adjacent", "filter": near, "distance": distance, "include_self": True}

    @staticmethod
    def _reference_kind(node: Tree[Token]) -> str:
        """What a reference back names: "there", "each", "it", "them", "that_space",
        "those" or "one_of_those"."""
        if node.data == "ref_word":
            return str(tokens(node)[0]).lower()
        return _REFERENCES[node.data]

    def reference(self, kind: str, node: Tree[Token]) -> dict[str, Any]:
        """The ``Where`` of a reference back ("there", "each", "that_space", "it",
        "them", "those", "one_of_those"); the clause compiler knows the antecedent."""
        raise Unreadable(f"'{kind.replace('_', ' ')}' names no earlier space", node)

    def _spaces(self, node: Tree[Token]) -> dict[str, Any]:
        numbers = [number(token) for token in tokens(node, "NUM")]
        if node.data == "count_range":
            numbers = [max(numbers or span(tokens(node, "RANGE")[0]))]
        if numbers[0] == 0:
            raise Unreadable("a count of 0 spaces", node)
        # "2 or 3 Provinces": up to the larger, the smaller not kept (Where has no minimum)
        if node.data in ("up_to", "count_range"):
            return {"spaces": numbers[0], "up_to": True}
        return {"spaces": numbers[0]}

    def region(self, node: Tree[Token]) -> dict[str, Any]:
        countries = [
            c for token in tokens(node, "COUNTRY") for c in self.lex.countries[norm(token)]
        ]
        return {"is": "country", "countries": list(dict.fromkeys(countries))}

    def np(self, node: Tree[Token]) -> list[dict[str, Any]]:
        """The filters of a noun phrase ("coastal City with British Control"), unjoined."""
        filters: list[dict[str, Any]] = []
        before: list[dict[str, Any]] = []
        prefix: dict[str, dict[str, Any]] = {}
        after: list[dict[str, Any]] = []
        for child in node.children:
            if isinstance(child, Token):
                if child.type == "TYPE_ONE":
                    filters.append({"is": "type", "types": list(self.lex.types_one[norm(child)])})
                elif child.type == "TYPE_MANY":
                    kinds = list(self.lex.types_many[norm(child)])
                    filters.append({"is": "type", "types": kinds})
                elif child.type == "TERRAIN":  # "a Jungle": a Jungle Province
                    terrain = self.lex.terrains[norm(child)]
                    prefix["terrain"] = {"is": "terrain", "terrains": [terrain]}
                continue
            data = child.data
            word = str(tokens(child)[0]).lower() if data == "word_pre" else ""
            if word == "adjacent":  # "an adjacent Colony": next to the space named before
                before.append({"is": "adjacent", "filter": self.reference("it", child)["filter"]})
            elif data == "terrain_pre":
                terrain = self.lex.terrains[norm(tokens(child)[0])]
                prefix["terrain"] = {"is": "terrain", "terrains": [terrain]}
            elif data == "not_terrain_pre":
                terrain = self.lex.terrains[norm(tokens(child, "TERRAIN")[0])]
                prefix["terrain"] = {"is": "not", "filter": {"is": "terrain",
                                                             "terrains": [terrain]}}  # fmt: skip
            elif word == "coastal":
                prefix["coastal"] = {"is": "coastal"}
            elif word == "uncontrolled":
                prefix["control"] = {"is": "control", "control": "none"}
            elif data == "control_pre":
                prefix["control"] = {
                    "is": "control",
                    "control": self.lex.control[norm(tokens(child)[0])],
                }
            elif data == "country_pre":
                prefix["country"] = {
                    "is": "country",
                    "countries": list(self.lex.countries[norm(tokens(child)[0])]),
                }
            elif data == "level_pre":
                levels = self.level_words(tokens(child)[0])
                prefix["support"] = {"is": "support", "levels": levels}
            elif data in ("adjacent", "in_or_adjacent"):
                near: dict[str, Any] = {"is": "adjacent", "filter": self.target(subtrees(child)[0])}
                if data == "in_or_adjacent":
                    near["include_self"] = True
                after.append(near)
            else:
                after.extend(self.postmod(child))
        order = ("terrain", "coastal", "country", "support", "control")
        ordered = [prefix[key] for key in order if key in prefix]
        return before + filters + ordered + after

    def target(self, node: Tree[Token]) -> dict[str, Any]:
        """The filter of what a space is adjacent to or near."""
        if node.data == "named":
            return {"is": "named", "names": [self.place_name(subtrees(node)[0])]}
        if node.data in _REFERENCES or node.data == "ref_word":
            found = self.reference(self._reference_kind(node), node)
            filter_ = found.get("filter")
            if not isinstance(filter_, dict):
                raise Unreadable("no earlier space to be near", node)
            return filter_
        if node.data in ("np", "np_terrain"):
            return combine(self.np(node))
        return combine(self.np(subtrees(node)[0]))

    def postmod(self, node: Tree[Token]) -> list[dict[str, Any]]:
        kind = node.data
        if kind == "with_mod":
            return [self.with_item(item) for item in subtrees(node)]
        if kind == "without_mod":
            pieces = {"is": "pieces", "pieces": self.pieces(subtrees(node)[0])}
            return [{"is": "not", "filter": pieces}]
        if kind == "within_mod":
            return [self._within(node)]
        if kind == "not_control_mod":
            control = self.lex.control[norm(tokens(node)[0])]
            return [{"is": "not", "filter": {"is": "control", "control": control}}]
        if kind == "at_mod":
            return [{"is": "support", "levels": self.support_levels(subtrees(node)[0])}]
        if kind == "not_at_mod":
            levels = self.support_levels(subtrees(node)[0])
            return [{"is": "not", "filter": {"is": "support", "levels": levels}}]
        if kind == "country_mod":
            return [self.region(subtrees(node)[0])]
        if kind == "not_country_mod":
            return [{"is": "not", "filter": self.region(subtrees(node)[0])}]
        if kind == "under_mod":
            return [
                {"is": "control", "control": self.lex.control[norm(tokens(node, "CONTROL")[0])]}
            ]
        if kind == "not_coastal_mod":
            return [{"is": "coastal", "coastal": False}]
        if kind == "coastal_mod":
            return [{"is": "coastal"}]
        raise Unreadable(f"unexpected form {kind}", node)  # pragma: no cover

    def with_item(self, node: Tree[Token]) -> dict[str, Any]:
        if node.data == "with_control":
            return {"is": "control", "control": self.lex.control[norm(tokens(node)[0])]}
        if node.data == "with_support":
            return {"is": "support", "levels": self.support_levels(subtrees(node)[0])}
        if node.data == "with_marker":  # "with Terror", "with 2 or more Terror markers"
            markers: dict[str, Any] = {"is": "markers", "marker": self.marker(node)}
            bounds = subtrees(node)
            return self._counted(markers, bounds[0]) if bounds else markers
        if node.data == "with_population":
            return {"is": "population", "compare": "==", "value": number(tokens(node)[0])}
        phrase = self.piece_phrase(subtrees(node)[-1])
        pieces: dict[str, Any] = {"is": "pieces", "pieces": phrase["pieces"]}
        if "status" in phrase:
            pieces["status"] = phrase["status"]
        if node.data == "with_no":
            return {"is": "not", "filter": pieces}
        if node.data == "with_counted":
            return self._counted(pieces, subtrees(node)[0])
        return pieces

    def _counted(self, present: dict[str, Any], bound: Tree[Token]) -> dict[str, Any]:
        """A pieces or markers filter with its number: "at least N", "N or more", "N+",
        "N" (at least N), "N-M" (between)."""
        if bound.data == "range_pieces":
            low, high = span(tokens(bound, "RANGE")[0])
            at_most = {**present, "compare": "<=", "value": high}
            return {"is": "all", "filters": [{**present, "value": low}, at_most]}
        numbers = tokens(bound, "NUM")
        value = number(numbers[0]) if numbers else int(str(tokens(bound, "PLUS_NUM")[0])[:-1])
        return {**present, "value": value}

    # ------------------------------------------------------------ conditions

    def condition(self, node: Tree[Token]) -> dict[str, Any]:
        if node.data == "condition":
            parts = [self.condition(child) for child in subtrees(node)]
            return parts[0] if len(parts) == 1 else {"if": "any", "conditions": parts}
        if node.data == "cond_all":
            parts = [self.condition(child) for child in subtrees(node)]
            return parts[0] if len(parts) == 1 else {"if": "all", "conditions": parts}
        kind = node.data
        if kind in ("flag_cond", "flag_not"):
            flag = self.lex.flags[norm(tokens(node, "FLAG")[0])]
            table: dict[str, Any] = {"if": "flag", "flag": flag}
            if kind == "flag_not":
                table["value"] = False
            return table
        if kind == "track_cond":
            track = self.lex.tracks[norm(tokens(node, "TRACK")[0])]
            compare, value = self._comparison(subtrees(node)[0])
            return {"if": "track", "track": track, "compare": compare, "value": value}
        if kind == "track_range":
            track = self.lex.tracks[norm(tokens(node, "TRACK")[0])]
            low, high = span(tokens(node, "RANGE")[0])
            return {"if": "all", "conditions": [
                {"if": "track", "track": track, "compare": ">=", "value": low},
                {"if": "track", "track": track, "compare": "<=", "value": high}]}  # fmt: skip
        if kind == "track_vs_track":
            first, second = (self.lex.tracks[norm(t)] for t in tokens(node, "TRACK"))
            return {"if": "compare", "left": {"quantity": {"of": "track", "track": first}},
                    "compare": _CMP[subtrees(node)[0].data],
                    "right": {"quantity": {"of": "track", "track": second}}}  # fmt: skip
        if kind == "lasting_cond":
            table = {"if": "lasting", "name": norm(tokens(node, "TITLE")[0])}
            side = child_named(node, "lasting_side")
            if side is not None:
                table["side"] = str(tokens(side)[0]).lower()
            return table
        if kind in ("count_cond", "any_cond"):
            trees = subtrees(node)
            filters = self.np(trees[0])
            for mod in trees[1:]:  # "are adjacent to Hue", "have NVA Control"
                filters.extend(
                    self.postmod(mod) if mod.data.endswith("_mod") else [self.with_item(mod)]
                )
            table = {"if": "spaces", "filter": combine(filters)}
            if kind == "count_cond":
                table.update(compare=">=", value=number(tokens(node, "NUM")[0]))
            return table
        if kind == "no_cond":
            noun, pieces = subtrees(node)
            filters = [*self.np(noun), {"is": "pieces", "pieces": self.pieces(pieces)}]
            return {"if": "not", "condition": {"if": "spaces", "filter": combine(filters)}}
        if kind == "pieces_in_cond":
            trees = subtrees(node)
            filters = [f for mod in trees[1:] for f in self.postmod(mod)]
            filters.append({"is": "pieces", "pieces": self.pieces(trees[0])})
            value = number(tokens(node, "NUM")[0])
            return {"if": "spaces", "filter": combine(filters), "compare": ">=", "value": value}
        if kind == "occupy_cond":
            pieces, place = subtrees(node)
            found = self.location(place)
            if "filter" not in found:
                raise Unreadable("pieces in a box are counted with a number", node)
            present = {"is": "pieces", "pieces": self.pieces(pieces)}
            return {"if": "spaces", "filter": combine([found["filter"], present])}
        if kind == "pieces_cond":
            bound, pieces, place = subtrees(node)
            left = {"quantity": self._pieces_at(pieces, place)}
            return self._bounded(left, bound)
        if kind == "more_than_cond":
            more, fewer, place = subtrees(node)
            left = {"quantity": self._pieces_at(more, place)}
            right = {"quantity": self._pieces_at(fewer, place)}
            return {"if": "compare", "left": left, "compare": ">", "right": right}
        if kind == "cards_cond":
            card_list = self.lex.card_boxes[norm(tokens(node, "CARD_BOX")[0])]
            return self._bounded({"quantity": {"of": "cards", "list": card_list}},
                                 subtrees(node)[0])  # fmt: skip
        if kind == "space_level_cond":
            name, levels = subtrees(node)
            filters = [{"is": "named", "names": [self.place_name(name)]},
                       {"is": "support", "levels": self.support_levels(levels)}]  # fmt: skip
            return {"if": "spaces", "filter": combine(filters)}
        if kind in ("victory_cond", "victory_margin_cond"):
            faction = self.faction(tokens(node, "FACTION")[0])
            left = {"quantity": {"of": "victory", "faction": faction}}
            if kind == "victory_cond":  # ahead: a margin above 0 (LoD 7.2, FitL 7.2)
                return {"if": "compare", "left": left, "compare": ">", "right": 0}
            compare, value = self._comparison(subtrees(node)[0])
            return {"if": "compare", "left": left, "compare": compare, "right": value}
        if kind == "roll_cond":
            left = {"quantity": {"of": "bound", "name": self.roll_binding(node)}}
            ranges = tokens(node, "RANGE")
            if ranges:
                low, high = span(ranges[0])
                return {"if": "all", "conditions": [
                    {"if": "compare", "left": left, "compare": ">=", "right": low},
                    {"if": "compare", "left": left, "compare": "<=", "right": high}]}  # fmt: skip
            compare, value = self._comparison(subtrees(node)[0])
            return {"if": "compare", "left": left, "compare": compare, "right": value}
        if kind == "exec_cond":
            factions = [self.faction(token) for token in tokens(node, "FACTION")]
            return {"if": "executing", "factions": factions}
        raise Unreadable(f"unexpected condition {kind}", node)  # pragma: no cover

    def _comparison(self, node: Tree[Token]) -> tuple[str, int]:
        numbers = tokens(node, "NUM")
        value = number(numbers[0]) if numbers else int(str(tokens(node)[0]).rstrip("+"))
        return _CMP[node.data], value

    def _pieces_at(self, pieces: Tree[Token], place: Tree[Token] | None) -> dict[str, Any]:
        """An ``of: pieces`` quantity: these pieces on the map, in spaces or in a box."""
        phrase = self.piece_phrase(pieces)
        table: dict[str, Any] = {"of": "pieces", "pieces": phrase["pieces"]}
        for key in ("status", "relative"):
            if key in phrase:
                table[key] = phrase[key]
        if "source" in phrase:  # "US Casualties"
            table["box"] = phrase["source"]
        table.update(self._place(place))
        return table

    def _place(self, place: Tree[Token] | None) -> dict[str, Any]:
        """Where counted things lie: ``{}`` (the map), ``where`` spaces or a ``box``."""
        if place is None or not subtrees(place):  # "on the map"
            return {}
        found = self.location(subtrees(place)[0])
        if "boxes" in found:
            raise Unreadable("pieces are counted in one box", place)
        if "box" in found:
            return {"box": found["box"]}
        return {} if found["filter"]["is"] == "anywhere" else {"where": found["filter"]}

    def _bounded(self, left: dict[str, Any], bound: Tree[Token]) -> dict[str, Any]:
        if bound.data == "bound_none":
            return {"if": "compare", "left": left, "compare": "==", "right": 0}
        numbers = tokens(bound, "NUM") or [
            Token("NUM", str(tokens(bound, "PLUS_NUM")[0]).rstrip("+"))
        ]
        compare = "<" if bound.data == "bound_lt" else ">="
        return {"if": "compare", "left": left, "compare": compare, "right": number(numbers[0])}
