"""The card-use rules of The Seven Years War, stated once as IR terms.

The engine compiles these terms into lookup tables (:class:`RuleTables`); the
proofs of ``legalis verify`` read the very same terms into Z3.

>>> from legalis.model.sevenyears.data import load_data
>>> data = load_data()
>>> tables = RuleTables(data, SevenYearsOptions())
>>> clive = data.card_index("Clive of India")
>>> tables.lay_areas[0][BRITISH][clive], tables.lay_areas[0][FRENCH][clive]
((2,), ())
"""

from __future__ import annotations

from legalis.model.core.ir import (
    And,
    BoolVar,
    Const,
    Eq,
    IntVar,
    Lookup,
    Ne,
    Not,
    Or,
    Term,
    evaluate,
)
from legalis.model.sevenyears.data import BRITISH, FRENCH, SevenYearsData
from legalis.model.sevenyears.options import SevenYearsOptions

USE_CODE = {"B": 0, "F": 1, "A": 2, "L": 3, "V": 4}
EFFECT_CODE = {"": 0, "X": 1, "Z": 2}
LOCATION_COLONIES, LOCATION_ANY, LOCATION_NONE = 100, 101, 102

RULE_USE = "CARD LIST NOTATION: B, F, A, L, V"
RULE_LOCATION = "CARD LIST NOTATION: N, E, W, I, C, A"
RULE_CLOSED = "AFTERMATH PHASE: no further cards can be played to a won Campaign"
RULE_TURMOIL = "TURMOIL PHASE: players take turns using X and Z cards"
RULE_CONFLICT = "CONFLICT PHASE: lay one card at a time onto 1 of the 4 Campaign Areas"


def _location_code(data: SevenYearsData, letter: str) -> int:
    special = {"C": LOCATION_COLONIES, "A": LOCATION_ANY, "-": LOCATION_NONE}
    if letter in special:
        return special[letter]
    return [area.code for area in data.areas].index(letter)


def use_of(data: SevenYearsData, card: Term) -> Lookup:
    return Lookup(tuple(USE_CODE[c.use] for c in data.cards), card)


def effect_of(data: SevenYearsData, card: Term) -> Lookup:
    return Lookup(tuple(EFFECT_CODE[c.effect] for c in data.cards), card)


def location_of(data: SevenYearsData, card: Term) -> Lookup:
    return Lookup(tuple(_location_code(data, c.location) for c in data.cards), card)


def force_of(data: SevenYearsData, card: Term) -> Lookup:
    return Lookup(tuple(c.force for c in data.cards), card)


def may_use(data: SevenYearsData, player: Term, card: Term, winning: Term, losing: Term) -> Term:
    """B: British only; F: French only; A: anyone; L: the Losing player; V: the Winning one."""
    use = use_of(data, card)
    return Or(
        Eq(use, USE_CODE["A"]),
        And(Eq(use, USE_CODE["B"]), Eq(player, BRITISH)),
        And(Eq(use, USE_CODE["F"]), Eq(player, FRENCH)),
        And(Eq(use, USE_CODE["L"]), losing),
        And(Eq(use, USE_CODE["V"]), winning),
    )


def covers(data: SevenYearsData, card: Term, area: Term) -> Term:
    """The card's location admits the area: its own letter, C for a colony, A for any."""
    location = location_of(data, card)
    europe = [a.colonial for a in data.areas].index(False)
    return Or(
        Eq(location, area),
        Eq(location, LOCATION_ANY),
        And(Eq(location, LOCATION_COLONIES), Ne(area, europe)),
    )


def may_play_effect(
    data: SevenYearsData, player: Term, card: Term, winning: Term, losing: Term
) -> Term:
    """Turmoil: an X or Z card the player may use."""
    return And(Ne(effect_of(data, card), 0), may_use(data, player, card, winning, losing))


def may_lay(
    data: SevenYearsData,
    options: SevenYearsOptions,
    player: Term,
    card: Term,
    area: Term,
    closed: Term,
    winning: Term,
    losing: Term,
) -> Term:
    """Conflict: lay ``card`` onto ``area``; ``closed`` says the area's Campaign is won."""
    effect_card = Ne(effect_of(data, card), 0)
    placed = Or(
        And(Not(effect_card), covers(data, card, area)),
        And(effect_card, Const(options.effect_cards_in_conflict)),
    )
    return And(may_use(data, player, card, winning, losing), Not(closed), placed)


def symbols(data: SevenYearsData) -> dict[str, Term]:
    """The free variables the rule terms are stated over."""
    return {
        "player": IntVar("player", 0, 1),
        "card": IntVar("card", 0, len(data.cards) - 1),
        "area": IntVar("area", 0, len(data.areas) - 1),
        "closed": BoolVar("closed"),
        "winning": BoolVar("winning"),
        "losing": BoolVar("losing"),
    }


def status_code(winning: bool, losing: bool) -> int:
    """Index of a player's Winning/Losing status in the tables: 0 neither .. 3 both."""
    return 2 * winning + losing


class RuleTables:
    """The rule terms evaluated once over every player, status, card and area.

    ``effect_ok[status][player][card]``: may play this X/Z card in Turmoil.
    ``lay_areas[status][player][card]``: the open areas it may be laid onto.
    ``use_ok[status][player][card]``: the card's coalition letter admits the player.
    """

    def __init__(self, data: SevenYearsData, options: SevenYearsOptions) -> None:
        s = symbols(data)
        lay = may_lay(
            data, options, s["player"], s["card"], s["area"], s["closed"], s["winning"], s["losing"]
        )
        effect = may_play_effect(data, s["player"], s["card"], s["winning"], s["losing"])
        use = may_use(data, s["player"], s["card"], s["winning"], s["losing"])
        self.use_ok: list[list[tuple[bool, ...]]] = []
        self.effect_ok: list[list[tuple[bool, ...]]] = []
        self.lay_areas: list[list[tuple[tuple[int, ...], ...]]] = []
        for code in range(4):
            winning, losing = bool(code & 2), bool(code & 1)
            use_rows, effect_rows, lay_rows = [], [], []
            for player in (BRITISH, FRENCH):
                env = {"player": player, "winning": winning, "losing": losing, "closed": False}
                use_rows.append(
                    tuple(bool(evaluate(use, {**env, "card": c.index})) for c in data.cards)
                )
                effect_rows.append(
                    tuple(bool(evaluate(effect, {**env, "card": c.index})) for c in data.cards)
                )
                lay_rows.append(
                    tuple(
                        tuple(
                            a
                            for a in range(len(data.areas))
                            if evaluate(lay, {**env, "card": c.index, "area": a})
                        )
                        for c in data.cards
                    )
                )
            self.use_ok.append(use_rows)
            self.effect_ok.append(effect_rows)
            self.lay_areas.append(lay_rows)
