"""Every bundled EU:PoP sample Event does what its text says (16.3).

The text is read here on its own, by a few patterns for the sentence forms the
sample texts use (independent of the catalogue's ``effects``), and compared with
the effects the Event carries: the same effect kinds with the same amounts. Then
each Event is resolved on the bundled sample state: the log is not empty, names
the rule of each effect that always runs, and the state changes.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable

import pytest
from legalis.model.eupop import effects as fx
from legalis.model.eupop.events import (
    Alliance,
    ChooseAB,
    Develop,
    EachPlayer,
    Effect,
    Event,
    GainGOp,
    If,
    Influence,
    Marriage,
    Merchant,
    Town,
    Units,
    load_catalogue,
)
from legalis.model.eupop.resolution import ResolutionLog
from legalis.model.eupop.state import bundled_state
from legalis.solver.eupop_play import resolve_event

CATALOGUE = load_catalogue()
EVENTS = sorted(CATALOGUE.events)

Kind = tuple[object, ...]

# the sentence forms of the sample texts -> the effect kind (and amount) they say
PATTERNS: list[tuple[str, Callable[[re.Match[str]], Kind]]] = [
    (r"(\d+) Influence\b", lambda m: ("influence", int(m[1]))),
    (r"\ban Alliance with\b", lambda m: ("alliance",)),
    (r"\ba Royal Marriage with\b", lambda m: ("marriage",)),
    (r"\ba G in\b", lambda m: ("g",)),
    (r"\ba town on\b", lambda m: ("town", False)),
    (r"\ba vassal on\b", lambda m: ("town", True)),
    (r"\bDevelop a Small town into a Large town\b", lambda m: ("develop",)),
    (r"\ba Merchant\b", lambda m: ("merchant",)),
    (r"(\d+) Ships?\b", lambda m: ("units", int(m[1]), True)),
    (r"(\d+) Land Units?\b", lambda m: ("units", int(m[1]), False)),
    (r"\bA\) .*; or B\) ", lambda m: ("choose_ab",)),
    (r"\bEach player\b", lambda m: ("each_player",)),
    (r"\b[Ii]f\b", lambda m: ("if",)),
]


def said(text: str) -> Counter[Kind]:
    """The effect kinds the text says, with their amounts."""
    found: Counter[Kind] = Counter()
    for pattern, kind in PATTERNS:
        for match in re.finditer(pattern, text):
            found[kind(match)] += 1
    return found


def carried(effects: tuple[Effect, ...]) -> Counter[Kind]:
    """The effect kinds the Event's effects carry, nested ones included."""
    found: Counter[Kind] = Counter()
    for effect in effects:
        if isinstance(effect, Influence):
            found["influence", effect.amount] += 1
        elif isinstance(effect, Units):
            found["units", effect.count, effect.ships] += 1
        elif isinstance(effect, Town):
            found["town", effect.vassal] += 1
        elif isinstance(effect, ChooseAB):
            found["choose_ab",] += 1
            found += carried(effect.a) + carried(effect.b)
        elif isinstance(effect, EachPlayer | If):
            found["each_player" if isinstance(effect, EachPlayer) else "if",] += 1
            found += carried(effect.effects)
        else:
            names = {Alliance: "alliance", Marriage: "marriage", GainGOp: "g",
                     Develop: "develop", Merchant: "merchant"}  # fmt: skip
            found[names[type(effect)],] += 1
    return found


RULES = {Influence: fx.INFLUENCE, Alliance: fx.ALLIANCE, Marriage: fx.MARRIAGE,
         GainGOp: fx.G_RULE, Town: fx.TOWN, Develop: fx.DEVELOP, Merchant: fx.MERCHANT,
         Units: fx.UNITS}  # fmt: skip


def always_run(effects: tuple[Effect, ...]) -> set[str]:
    """The rules of the effects that run whatever the choices and conditions."""
    rules: set[str] = set()
    for effect in effects:
        if isinstance(effect, EachPlayer):
            rules |= always_run(effect.effects)
        elif type(effect) in RULES:
            rules.add(RULES[type(effect)])
    return rules


def test_the_patterns_read_a_text() -> None:
    text = "A) Gain 2 Ships in the North Sea; or B) gain a Merchant. If at Peace, a G in X."
    assert said(text) == Counter({("units", 2, True): 1, ("merchant",): 1, ("choose_ab",): 1,
                                  ("if",): 1, ("g",): 1})  # fmt: skip


@pytest.mark.parametrize("event_id", EVENTS)
def test_every_bundled_event_carries_the_effects_its_text_says(event_id: str) -> None:
    event: Event = CATALOGUE.events[event_id]
    assert event.effects, f"{event_id} has text but no effects"
    assert carried(event.effects) == said(event.text), event.text


@pytest.mark.parametrize("event_id", EVENTS)
def test_every_bundled_event_changes_the_sample_state(event_id: str) -> None:
    # 16.5: the main text is resolved before the symbols; here the main text alone
    event = CATALOGUE.events[event_id]
    state = bundled_state()
    log = ResolutionLog()
    after = resolve_event(state, event.effects, (), log=log, rng=random.Random(0))
    assert log.decisions, f"{event_id}: an empty log"
    assert always_run(event.effects) <= {d.rule for d in log.decisions}
    assert after != state, f"{event_id} changed nothing: {event.text}"
