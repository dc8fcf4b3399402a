"""What The Seven Years War promises about itself, stated as IR claims.

Each claim reads "under these assumptions, this goal always holds" over a few
symbolic numbers: medal outcomes per turn and area, or the counts (hand sizes,
deck, discard, who is on turn) that the engine's Turmoil and Conflict phases
change. The claims are built from the card data and the rule options; the
verify layer hands them to a prover. Nothing here imports a solver.

The counting models follow ``state.py`` move for move, and the engine's tests
replay random games through :func:`turmoil_step` to keep the two in step.

>>> from legalis.model.sevenyears.data import load_data
>>> claims = all_claims(load_data(), SevenYearsOptions())
>>> claims[0].name, claims[0].rule
('medal-bound', 'MEDALS; RESOLVE PHASE; AFTERMATH PHASE')
"""

from __future__ import annotations

from collections.abc import Mapping

from legalis.model.core.ir import (
    Add,
    And,
    BoolVar,
    Claim,
    Const,
    CountTrue,
    Eq,
    Ge,
    Implies,
    IntVar,
    Ite,
    Le,
    Lt,
    Min,
    Ne,
    Not,
    Or,
    Sub,
    Term,
)
from legalis.model.sevenyears.data import BRITISH, FRENCH, SevenYearsData, area_key
from legalis.model.sevenyears.options import SevenYearsOptions
from legalis.model.sevenyears.rules import RULE_CLOSED, may_lay, symbols

RULE_MEDALS = "MEDALS; RESOLVE PHASE; AFTERMATH PHASE"
RULE_TURMOIL = "TURMOIL PHASE; CARD LIST NOTATION: X, Z"
RULE_CONFLICT = "CONFLICT PHASE"
RULE_LENGTH = "GAME LENGTH; TURN SEQUENCE; AFTERMATH PHASE"
RULE_DRAWS = "PLAN PHASE; EXECUTE PHASE"
RULE_EXECUTE = "EXECUTE PHASE"
RULE_DIFFICULTY = "DIFFICULTY PHASE; CARD LIST NOTATION: *"

NONE, BRITISH_WINS, FRENCH_WINS = 0, 1, 2
PASS, PLAY_X, PLAY_Z = 0, 1, 2
LAY = 1

State = dict[str, Term]


# ---------------------------------------------------------------------- medals


def outcome_name(turn: int, data: SevenYearsData, area: int) -> str:
    """The variable naming who won ``area`` in ``turn``.

    >>> from legalis.model.sevenyears.data import load_data
    >>> outcome_name(3, load_data(), 1)
    'outcome[3][north_america]'
    """
    return f"outcome[{turn}][{area_key(data.areas[area])}]"


def medal_bound(data: SevenYearsData, options: SevenYearsOptions) -> Claim:
    """No player ever needs more medals than the set of ``data.medals_per_player``.

    Every turn each area is won by the British, by the French or by nobody (a
    tie, or no cards). A Campaign whose medals show a lead of
    ``data.campaign_lead`` at the end of a turn is won and takes no more cards,
    so nobody wins it again; with ``europe_win_ends_game`` a won European
    Campaign ends the game. The objective is the British medal total, so the
    prover also reports the most medals a player can ever hold.

    >>> from legalis.model.sevenyears.data import load_data
    >>> claim = medal_bound(load_data(), SevenYearsOptions())
    >>> len(claim.assumptions), claim.objective is not None
    (42, True)
    """
    areas = range(len(data.areas))
    europe = [area.colonial for area in data.areas].index(False)
    outcome = {
        (turn, area): IntVar(outcome_name(turn, data, area), NONE, FRENCH_WINS)
        for turn in range(1, data.turns + 1)
        for area in areas
    }
    assumptions: list[Term] = []
    british: dict[int, Term] = dict.fromkeys(areas, Const(0))
    french: dict[int, Term] = dict.fromkeys(areas, Const(0))
    closed: dict[int, Term] = dict.fromkeys(areas, Const(False))
    for turn in range(1, data.turns + 1):
        # Every Campaign is open in turn 1; from turn 2 on, a won one takes no
        # cards: 0 force against 0 is a tie, and nobody gets a medal.
        for area in areas if turn > 1 else ():
            now = outcome[turn, area]
            assumptions.append(Implies(closed[area], Eq(now, NONE)))
            if options.europe_win_ends_game and area != europe:
                assumptions.append(Implies(closed[europe], Eq(now, NONE)))
        for area in areas:
            now = outcome[turn, area]
            british[area] = Add(british[area], Ite(Eq(now, BRITISH_WINS), 1, 0))
            french[area] = Add(french[area], Ite(Eq(now, FRENCH_WINS), 1, 0))
            # The Aftermath looks at the lead once the turn's medals are placed.
            lead = Or(
                Le(data.campaign_lead, Sub(british[area], french[area])),
                Le(data.campaign_lead, Sub(french[area], british[area])),
            )
            closed[area] = Or(closed[area], lead)
    british_total = Add(*british.values())
    french_total = Add(*french.values())
    return Claim(
        name="medal-bound",
        rule=RULE_MEDALS,
        description=(
            f"over {data.turns} turns and {len(data.areas)} areas no player wins more than "
            f"the {data.medals_per_player} medals of his set"
        ),
        assumptions=tuple(assumptions),
        goal=And(
            Le(british_total, data.medals_per_player), Le(french_total, data.medals_per_player)
        ),
        objective=british_total,
    )


# ---------------------------------------------------------------------- card use


def closed_campaign_gets_no_cards(data: SevenYearsData, options: SevenYearsOptions) -> Claim:
    """No card, player or Winning/Losing status may lay a card onto a won Campaign.

    >>> from legalis.model.sevenyears.data import load_data
    >>> closed_campaign_gets_no_cards(load_data(), SevenYearsOptions()).rule.split(":")[0]
    'AFTERMATH PHASE'
    """
    s = symbols(data)
    lay = may_lay(
        data, options, s["player"], s["card"], s["area"], s["closed"], s["winning"], s["losing"]
    )
    return Claim(
        name="closed-campaign-gets-no-cards",
        rule=RULE_CLOSED,
        description="the card-use rules refuse every card laid onto a won Campaign",
        assumptions=(),
        goal=Implies(s["closed"], Not(lay)),
    )


# ---------------------------------------------------------------------- counting states


def count_state(data: SevenYearsData, *, deck: bool = True) -> State:
    """The symbolic counts of a Turmoil (``deck=True``) or Conflict position.

    ``current`` is the player on turn; the active flags serve ``pass_is_final``,
    ``passes`` (passes in a row) serves ``two_passes_in_a_row``.

    >>> from legalis.model.sevenyears.data import load_data
    >>> sorted(count_state(load_data(), deck=False))
    ['british_active', 'british_hand', 'current', 'french_active', 'french_hand', 'passes']
    """
    size = data.deck_size
    state: State = {
        "british_hand": IntVar("british_hand", 0, size),
        "french_hand": IntVar("french_hand", 0, size),
        "current": IntVar("current", BRITISH, FRENCH),
        "british_active": BoolVar("british_active"),
        "french_active": BoolVar("french_active"),
        "passes": IntVar("passes", 0, 2),
    }
    if deck:
        state["deck"] = IntVar("deck", 0, size)
        state["discard"] = IntVar("discard", 0, size)
    return state


def relevant_keys(state: Mapping[str, Term], ending: str) -> list[str]:
    """The counts that matter under the phase-ending option ``ending``.

    >>> from legalis.model.sevenyears.data import load_data
    >>> relevant_keys(count_state(load_data()), "two_passes_in_a_row")[-2:]
    ['current', 'passes']
    """
    counts = [key for key in ("british_hand", "french_hand", "deck", "discard") if key in state]
    flags = ["british_active", "french_active"] if ending == "pass_is_final" else ["passes"]
    return [*counts, "current", *flags]


def _of(player: Term, british: Term, french: Term) -> Term:
    return Ite(Eq(player, BRITISH), british, french)


def phase_continues(state: Mapping[str, Term], ending: str) -> Term:
    """Whether the engine asks for another Turmoil or Conflict decision.

    >>> from legalis.model.core.ir import evaluate
    >>> from legalis.model.sevenyears.data import load_data
    >>> s = count_state(load_data())
    >>> evaluate(phase_continues(s, "two_passes_in_a_row"), {"passes": 2})
    False
    """
    if ending == "pass_is_final":
        return Or(state["british_active"], state["french_active"])
    return Lt(state["passes"], 2)


def mover_active(state: Mapping[str, Term]) -> Term:
    """Under ``pass_is_final``: the player on turn has not passed yet.

    >>> from legalis.model.core.ir import evaluate
    >>> from legalis.model.sevenyears.data import load_data
    >>> env = {"current": 1, "british_active": True, "french_active": False}
    >>> evaluate(mover_active(count_state(load_data())), env)
    False
    """
    return _of(state["current"], state["british_active"], state["french_active"])


def mover_hand(state: Mapping[str, Term]) -> Term:
    """The hand size of the player on turn."""
    return _of(state["current"], state["british_hand"], state["french_hand"])


def _took_turn(state: Mapping[str, Term], played: Term, ending: str) -> State:
    """Who is on turn next and what a pass did: ``SevenYearsState._took_turn``."""
    current = state["current"]
    passed = Not(played)
    out: State = {}
    if ending == "pass_is_final":
        out["british_active"] = And(state["british_active"], Not(And(passed, Eq(current, BRITISH))))
        out["french_active"] = And(state["french_active"], Not(And(passed, Eq(current, FRENCH))))
        other_active = _of(current, out["french_active"], out["british_active"])
        out["current"] = Ite(other_active, Sub(1, current), current)
        out["passes"] = state["passes"]
    else:
        out["british_active"] = state["british_active"]
        out["french_active"] = state["french_active"]
        out["passes"] = Ite(played, 0, Add(state["passes"], 1))
        out["current"] = Sub(1, current)
    return out


def turmoil_step(
    data: SevenYearsData, options: SevenYearsOptions, state: Mapping[str, Term], move: Term
) -> State:
    """The counts after the player on turn passes, plays an X card or plays a Z card.

    The played card goes to the discard. X: the opponent discards
    ``min(x_discards, hand)`` random cards. Z: draw ``z_draws`` cards; under
    ``reshuffle="plan_only"`` only what the deck holds, under ``"any_draw"`` an
    empty deck takes in the whole discard, the Z card just played included.

    >>> from legalis.model.core.ir import evaluate
    >>> from legalis.model.sevenyears.data import load_data
    >>> data, s = load_data(), count_state(load_data())
    >>> after = turmoil_step(data, SevenYearsOptions(reshuffle="any_draw"), s, PLAY_Z)
    >>> env = {"british_hand": 4, "french_hand": 84, "deck": 0, "discard": 0, "current": 0,
    ...        "british_active": True, "french_active": False, "passes": 0}
    >>> [evaluate(after[key], env) for key in ("british_hand", "deck", "discard", "current")]
    [4, 0, 0, 0]
    """
    is_pass, is_x = Eq(move, PASS), Eq(move, PLAY_X)
    mine = mover_hand(state)
    theirs = _of(state["current"], state["french_hand"], state["british_hand"])
    deck, discard = state["deck"], state["discard"]
    lost = Min(data.x_discards, theirs)
    wanted = data.z_draws
    if options.reshuffle == "plan_only":
        drawn: Term = Min(wanted, deck)
        z_deck: Term = Sub(deck, drawn)
        z_discard: Term = Add(discard, 1)
    else:
        enough = Le(wanted, deck)
        pool = Add(deck, discard, 1)
        drawn = Ite(enough, wanted, Min(wanted, pool))
        z_deck = Ite(enough, Sub(deck, wanted), Sub(pool, drawn))
        z_discard = Ite(enough, Add(discard, 1), 0)
    new_mine = Ite(is_pass, mine, Ite(is_x, Sub(mine, 1), Add(Sub(mine, 1), drawn)))
    new_theirs = Ite(is_x, Sub(theirs, lost), theirs)
    out = _took_turn(state, Not(is_pass), options.turmoil_end)
    british_moves = Eq(state["current"], BRITISH)
    out["british_hand"] = Ite(british_moves, new_mine, new_theirs)
    out["french_hand"] = Ite(british_moves, new_theirs, new_mine)
    out["deck"] = Ite(is_pass, deck, Ite(is_x, deck, z_deck))
    out["discard"] = Ite(is_pass, discard, Ite(is_x, Add(discard, 1, lost), z_discard))
    return out


def conflict_step(options: SevenYearsOptions, state: Mapping[str, Term], move: Term) -> State:
    """The counts after the player on turn passes (``PASS``) or lays a card (``LAY``).

    >>> from legalis.model.core.ir import evaluate
    >>> from legalis.model.sevenyears.data import load_data
    >>> after = conflict_step(SevenYearsOptions(), count_state(load_data(), deck=False), LAY)
    >>> env = {"british_hand": 2, "french_hand": 5, "current": 1,
    ...        "british_active": True, "french_active": True, "passes": 0}
    >>> evaluate(after["french_hand"], env), evaluate(after["current"], env)
    (4, 0)
    """
    laid = Eq(move, LAY)
    out = _took_turn(state, laid, options.conflict_end)
    british_moves = Eq(state["current"], BRITISH)
    for key, moves in (("british_hand", british_moves), ("french_hand", Not(british_moves))):
        out[key] = Ite(And(laid, moves), Sub(state[key], 1), state[key])
    return out


def step_is_legal(state: Mapping[str, Term], move: Term, ending: str) -> Term:
    """A decision is due and ``move`` may be taken: a pass always, a card only from a
    non-empty hand (which card it is does not change the counts).

    >>> from legalis.model.core.ir import evaluate
    >>> from legalis.model.sevenyears.data import load_data
    >>> env = {"current": 0, "british_hand": 0, "british_active": True, "french_active": True}
    >>> evaluate(step_is_legal(count_state(load_data()), PLAY_X, "pass_is_final"), env)
    False
    """
    legal = [phase_continues(state, ending), Or(Eq(move, PASS), Le(1, mover_hand(state)))]
    if ending == "pass_is_final":
        legal.append(mover_active(state))
    return And(*legal)


def rank(state: Mapping[str, Term], ending: str) -> Term:
    """A number that every Turmoil or Conflict step lowers and that never drops below 0.

    ``cards`` is the hands plus the deck (the discard is not counted: a card played
    leaves the hands for good until the next reshuffle). Under ``pass_is_final`` a
    card played lowers ``cards`` and a pass lowers the active count, so
    ``cards + active`` will do. Under ``two_passes_in_a_row`` a card played resets
    the pass count, so each card must outweigh two passes: ``2 * cards + 2 - passes``.

    >>> from legalis.model.core.ir import evaluate
    >>> from legalis.model.sevenyears.data import load_data
    >>> env = {"british_hand": 3, "french_hand": 2, "deck": 10, "passes": 1}
    >>> evaluate(rank(count_state(load_data()), "two_passes_in_a_row"), env)
    31
    """
    cards = Add(*(state[key] for key in ("british_hand", "french_hand", "deck") if key in state))
    if ending == "pass_is_final":
        return Add(cards, CountTrue(state["british_active"], state["french_active"]))
    return Add(cards, cards, Sub(2, state["passes"]))


# ---------------------------------------------------------------------- termination


def _ranking_claim(
    name: str,
    rule: str,
    description: str,
    state: Mapping[str, Term],
    after: Mapping[str, Term],
    legal: Term,
    ending: str,
    invariants: list[Term],
) -> Claim:
    before, next_rank = rank(state, ending), rank(after, ending)
    return Claim(
        name=name,
        rule=rule,
        description=description,
        assumptions=(*invariants, legal),
        goal=And(Lt(next_rank, before), Ge(next_rank, 0)),
        objective=before,
    )


def _mover_claim(
    name: str, rule: str, state: Mapping[str, Term], after: Mapping[str, Term], legal: Term
) -> Claim:
    return Claim(
        name=name,
        rule=rule,
        description=(
            "with pass_is_final the player asked to decide has never passed: the ranking "
            "claim may assume it"
        ),
        assumptions=(legal,),
        goal=Implies(phase_continues(after, "pass_is_final"), mover_active(after)),
    )


def phases_terminate(data: SevenYearsData, options: SevenYearsOptions) -> list[Claim]:
    """Every phase ends, so the game ends within ``data.turns`` turns.

    Turmoil and Conflict are the phases whose length the players decide; each
    gets a ranking claim (see :func:`rank`) whose objective reports the longest
    the phase can last. Turmoil also gets a no-cycle claim: no two steps lead
    back to the same counts. Under ``reshuffle="any_draw"`` both fail: once the
    deck and discard hold at most two cards between them, a Z card played is
    shuffled straight back into the deck and drawn again, for ever.

    >>> from legalis.model.sevenyears.data import load_data
    >>> [claim.name for claim in phases_terminate(load_data(), SevenYearsOptions())][:3]
    ['turmoil-rank', 'turmoil-no-cycle', 'turmoil-mover-active']
    """
    claims: list[Claim] = []
    size = data.deck_size

    turmoil = count_state(data)
    ending = options.turmoil_end
    # In Turmoil the grid is empty: every card is in a hand, the deck or the discard.
    counts = ("british_hand", "french_hand", "deck", "discard")
    whole = Eq(Add(*(turmoil[key] for key in counts)), size)
    first = IntVar("move[1]", PASS, PLAY_Z)
    second = IntVar("move[2]", PASS, PLAY_Z)
    after = turmoil_step(data, options, turmoil, first)
    legal = step_is_legal(turmoil, first, ending)
    claims.append(
        _ranking_claim(
            "turmoil-rank",
            RULE_TURMOIL,
            f"every pass, X or Z card lowers {_rank_text(ending, deck=True)}, so the bound "
            f"caps the steps (reshuffle={options.reshuffle}, turmoil_end={ending})",
            turmoil,
            after,
            legal,
            ending,
            [whole],
        )
    )
    again = turmoil_step(data, options, after, second)
    keys = relevant_keys(turmoil, ending)
    claims.append(
        Claim(
            name="turmoil-no-cycle",
            rule=RULE_TURMOIL,
            description=(
                "no two Turmoil steps lead back to the counts they started from "
                f"(reshuffle={options.reshuffle}, turmoil_end={ending})"
            ),
            assumptions=(whole, legal, step_is_legal(after, second, ending)),
            goal=Or(*(Ne(again[key], turmoil[key]) for key in keys)),
        )
    )
    if ending == "pass_is_final":
        claims.append(_mover_claim("turmoil-mover-active", RULE_TURMOIL, turmoil, after, legal))

    conflict = count_state(data, deck=False)
    ending = options.conflict_end
    lay = IntVar("move", PASS, LAY)
    after = conflict_step(options, conflict, lay)
    legal = step_is_legal(conflict, lay, ending)
    in_hands = Le(Add(conflict["british_hand"], conflict["french_hand"]), size)
    claims.append(
        _ranking_claim(
            "conflict-rank",
            RULE_CONFLICT,
            f"every pass or card laid lowers {_rank_text(ending, deck=False)}, so the bound "
            f"caps the steps (conflict_end={ending})",
            conflict,
            after,
            legal,
            ending,
            [in_hands],
        )
    )
    if ending == "pass_is_final":
        claims.append(_mover_claim("conflict-mover-active", RULE_CONFLICT, conflict, after, legal))
    claims.append(_draws_end(data))
    claims.append(_game_length(data, options))
    return claims


def _rank_text(ending: str, *, deck: bool) -> str:
    cards = "hands + deck" if deck else "hands"
    if ending == "pass_is_final":
        return f"{cards} + players still active"
    return f"2 * ({cards}) + 2 - passes in a row"


def _draws_end(data: SevenYearsData) -> Claim:
    """Owed draws end: ``SevenYearsState._draw_owed`` draws, reshuffles once, or gives up."""
    size = data.deck_size
    owed = IntVar("owed", 1, max(data.hand_size, data.z_draws, data.execute_max_discards))
    deck, discard = IntVar("deck", 0, size), IntVar("discard", 0, size)
    may_shuffle = BoolVar("may_shuffle")
    shuffles = And(Eq(deck, 0), Le(1, discard), may_shuffle)
    draws = Le(1, deck)
    next_owed = Ite(draws, Sub(owed, 1), Ite(shuffles, owed, 0))
    next_discard = Ite(shuffles, 0, discard)

    def measure(owed: Term, discard: Term) -> Term:
        # A reshuffle is worth less than one card drawn, and can happen only once in a row.
        return Add(owed, owed, Ite(And(Le(1, discard), may_shuffle), 1, 0))

    before, after = measure(owed, discard), measure(next_owed, next_discard)
    return Claim(
        name="draws-end",
        rule=RULE_DRAWS,
        description="filling a hand draws, reshuffles the discard once, or stops: it always ends",
        assumptions=(),
        goal=And(Lt(after, before), Ge(after, 0)),
    )


def _game_length(data: SevenYearsData, options: SevenYearsOptions) -> Claim:
    turn = IntVar("turn", 1, data.turns)
    europe_won = BoolVar("europe_won")
    over = Or(Le(data.turns, turn), And(europe_won, Const(options.europe_win_ends_game)))
    return Claim(
        name="game-length",
        rule=RULE_LENGTH,
        description=f"each Aftermath ends the game or starts a turn up to turn {data.turns}",
        assumptions=(),
        goal=Implies(Not(over), Le(Add(turn, 1), data.turns)),
    )


# ---------------------------------------------------------------------- decisions


def no_dead_decision(data: SevenYearsData, options: SevenYearsOptions) -> list[Claim]:
    """A player asked to decide always has a legal move.

    >>> from legalis.model.sevenyears.data import load_data
    >>> [c.name for c in no_dead_decision(load_data(), SevenYearsOptions())]
    ['execute-has-move', 'turmoil-has-move', 'conflict-has-move', 'difficulty-has-move']
    """
    size = data.deck_size
    hand = IntVar("hand", 0, size)
    discards = IntVar("discards", 0, size)

    def execute_legal(count: Term) -> Term:
        return And(Le(0, count), Le(count, Min(data.execute_max_discards, hand)))

    claims = [
        Claim(
            name="execute-has-move",
            rule=RULE_EXECUTE,
            description="discarding nothing is always a legal Execute choice",
            assumptions=(execute_legal(discards),),
            goal=execute_legal(Const(0)),
        )
    ]
    for name, rule, ending, deck in (
        ("turmoil-has-move", RULE_TURMOIL, options.turmoil_end, True),
        ("conflict-has-move", RULE_CONFLICT, options.conflict_end, False),
    ):
        state = count_state(data, deck=deck)
        player = IntVar("player", BRITISH, FRENCH)
        due = phase_continues(state, ending)
        # The engine refuses a pass only from a player who is not on turn.
        pass_legal = And(due, Eq(player, state["current"]))
        claims.append(
            Claim(
                name=name,
                rule=rule,
                description="whenever a decision is due, the player on turn may pass",
                assumptions=(Eq(player, state["current"]),),
                goal=Implies(due, pass_legal),
            )
        )
    claims.append(_difficulty_has_move(data, options))
    return claims


def _difficulty_has_move(data: SevenYearsData, options: SevenYearsOptions) -> Claim:
    size = data.deck_size
    cards = IntVar("victim_cards", 0, size)
    kinds = IntVar("victim_kinds", 0, size)
    star_laid = BoolVar("star_still_laid")
    # A discard is due when the victim has a card in the area (and, played in
    # order, when the * card itself is still there); otherwise the engine skips it.
    due = And(Le(1, cards), Or(star_laid, Const(options.difficulty_timing == "simultaneous")))
    return Claim(
        name="difficulty-has-move",
        rule=RULE_DIFFICULTY,
        description="a Difficulty discard is due only when the victim has a card there to lose",
        # ``kinds`` distinct cards among the victim's ``cards`` there: at least one
        # as soon as there is a card at all.
        assumptions=(Le(kinds, cards), Implies(Le(1, cards), Le(1, kinds))),
        # The legal choices are the victim's distinct cards there, the first among them.
        goal=Implies(due, Lt(0, kinds)),
    )


def all_claims(data: SevenYearsData, options: SevenYearsOptions) -> list[Claim]:
    """Every claim of the game under ``options``, medals first.

    >>> from legalis.model.sevenyears.data import load_data
    >>> len(all_claims(load_data(), SevenYearsOptions()))
    13
    """
    return [
        medal_bound(data, options),
        closed_campaign_gets_no_cards(data, options),
        *phases_terminate(data, options),
        *no_dead_decision(data, options),
    ]
