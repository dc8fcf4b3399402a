"""Resolving a whole EU:PoP Event: what needs no move generator.

An Event is resolved in two stages (16.5): its main text's effects in order (the
structured ``effects`` of :mod:`legalis.model.eupop.events`), then its symbols
left to right by the Active player. This module holds the parts that need no
legal-move views of the Standard Event effects: the named options of a
resolution, the simple conditions of an ``if`` (16.3: "Ignore any effects whose
conditions are not met"), and the symbols stage, resolved either by the
auto-resolution rules (:func:`~legalis.model.eupop.secondary.resolve_symbols`,
:func:`~legalis.model.eupop.religion.auto_spread`) or by the Active player's
choices. The step-by-step driver of the main text, which needs the views, is
:mod:`legalis.solver.eupop_play`.

>>> from legalis.model.eupop.state import small_state
>>> from legalis.model.eupop.events import Condition
>>> condition_holds(small_state(), "france", Condition("at_peace", True))
True
>>> condition_holds(small_state(), "england", Condition("active", True))
False
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from legalis.model.core.options import read_options, settable
from legalis.model.core.views import ListView, RandomSource
from legalis.model.errors import InputError
from legalis.model.eupop import religion, secondary
from legalis.model.eupop.effects import DEFAULT, EffectOptions
from legalis.model.eupop.events import Condition, Symbol
from legalis.model.eupop.resolution import ResolutionLog, readable
from legalis.model.eupop.state import EuState

__all__ = [
    "GENERAL",
    "SYMBOL_STAGE",
    "PlayOptions",
    "SymbolChooser",
    "condition_holds",
    "jsonable",
    "log_json",
    "require_active",
    "resolve_card_symbols",
    "secondary_symbol",
    "state_changes",
]

GENERAL = "16.3 General Event guidelines"
SYMBOL_STAGE = "16.5 Secondary Effects"

# events.toml symbol names -> secondary.SYMBOLS kinds (the two spreads live in religion)
_SECONDARY_KIND = {
    "character_mortality": "character_mortality",
    "unrest": "unrest_rebellion",
    "native_uprising": "native_uprising",
    "lost_at_sea": "lost_at_sea",
    "pirates": "pirates",
    "cardinal_dies": "cardinal_dies",
    "attrition": "attrition",
    "disloyal_vassals": "disloyal_vassals",
    "dnpr_expansion": "dnpr_expansion",
    "power_struggle": "activate_power_struggle",
}
_SPREADS: dict[str, religion.Kind] = {
    "spread_religion": "religion",
    "spread_revolution": "revolution",
}


@dataclass(frozen=True)
class PlayOptions:
    """The named readings of a whole resolution (``docs/rules-questions.md``, "EU:PoP
    resolving an Event").

    ``player_default``: how ``--auto`` makes a player's choice: ``"first"`` (default)
    the first legal choice in the view's order; ``"random"`` a uniform draw from the
    seeded source. ``ab_default``: the side ``--auto`` picks when both A) and B) are
    open (default ``"A"``). ``ab_met``: a side "can be met" when ``"all"`` (default)
    of its effects can take effect, or ``"any"`` of them. ``inclusive_or``: an effect
    naming a list of targets, Areas or Provinces ("X, Y or Z") may be taken for
    ``"several"`` of them (default; 16.3: "or" is inclusive, "you may pick any, or
    even several"), one after another until the player stops, or for ``"one"``.
    """

    inclusive_or: Literal["several", "one"] = "several"
    player_default: Literal["first", "random"] = "first"
    ab_default: Literal["A", "B"] = "A"
    ab_met: Literal["all", "any"] = "all"
    effects: EffectOptions = DEFAULT
    secondary: secondary.SecondaryOptions = field(default_factory=secondary.SecondaryOptions)
    spread: religion.SpreadOptions = field(default_factory=religion.SpreadOptions)

    @classmethod
    def names(cls) -> dict[str, str]:
        """Each option settable by name and the field holding its option class (``""``:
        this one); the hooks holding functions (``marriage_eligible``, ``dow_allowed``,
        ``rebel_die_outcome``) are set from Python only.

        >>> PlayOptions.names()["cardinal_tie"], PlayOptions.names()["ab_met"]
        ('secondary', '')
        """
        defaults = cls()
        held = [(f.name, getattr(defaults, f.name)) for f in dataclasses.fields(cls)]
        return {
            **dict.fromkeys(settable(cls), ""),
            **{
                name: group
                for group, options in held
                if dataclasses.is_dataclass(options)
                for name in settable(type(options))
            },
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any] | None, *, path: str = "options") -> PlayOptions:
        """The options named in ``raw`` (one flat name to value, as the CLI's ``--option``
        and the API's ``options`` give them; values also as text), the rest at their
        defaults; an unknown name or value is an :class:`InputError` listing the
        allowed ones.

        >>> chosen = PlayOptions.from_json({"ab_default": "B", "units_split": "true"})
        >>> chosen.ab_default, chosen.effects.units_split
        ('B', True)
        """
        return read_options(cls(), raw, path=path, groups=cls.names())


def require_active(state: EuState) -> str:
    """The Active player ("you", 16.3); a picked Event needs one."""
    if state.active is None:
        raise InputError(
            "the state has no Active player: a picked Event is resolved by its Active "
            "player (16.5); unpicked Events (16.4) only auto-resolve their symbols",
            path="active",
            allowed=state.players,
        )
    return state.active


def condition_holds(state: EuState, player: str, condition: Condition) -> bool:
    """Whether a simple condition holds for ``player`` ("you")."""
    realm = state.realms[player]
    at_war = (
        realm.at_war
        or bool(realm.enemies)
        or any(player in state.realms[p].enemies for p in state.players)
    )
    if condition.kind == "at_peace":
        return (not at_war) == condition.value
    if condition.kind == "at_war":
        return at_war == condition.value
    if condition.kind == "active":
        return (player == state.active) == condition.value
    if condition.kind == "merchants_below":
        return realm.merchants < int(condition.value)
    province = state.provinces.get(str(condition.value))
    return province is not None and (
        province.owner == player or (province.town_of == player and not province.vassal)
    )


def secondary_symbol(symbol: Symbol) -> secondary.Symbol:
    """The catalogue's symbol as :mod:`~legalis.model.eupop.secondary` names it."""
    return secondary.Symbol(_SECONDARY_KIND[symbol.name], symbol.mortality or symbol.colour)


SymbolChooser = Callable[[str, str, ListView[Any]], Any]


def resolve_card_symbols(
    state: EuState,
    symbols: Sequence[Symbol],
    *,
    log: ResolutionLog,
    rng: RandomSource,
    options: PlayOptions | None = None,
    choose: SymbolChooser | None = None,
) -> EuState:
    """16.5: the symbols left to right; a new state.

    Without ``choose``, every symbol follows its auto-resolution rules. With it, each
    player's own choices go to ``choose(rule, player, view)`` (the answer is checked
    against the view): the Active player's, and those a symbol leaves to each
    affected player (:func:`~legalis.model.eupop.secondary.resolve_symbols`)."""
    options = options or PlayOptions()
    for symbol in symbols:
        kind = _SPREADS.get(symbol.name)
        if kind is None:
            state = secondary.resolve_symbols(
                state, [secondary_symbol(symbol)], log=log, rng=rng,
                options=options.secondary, choose=choose,
            )  # fmt: skip
        elif choose is None or state.active is None:
            state = religion.auto_spread(state, kind, log, rng, options.spread)
        else:
            state = _chosen_spread(state, kind, state.active, log, options, choose)
    return state


def _chosen_spread(
    state: EuState,
    kind: religion.Kind,
    active: str,
    log: ResolutionLog,
    options: PlayOptions,
    choose: SymbolChooser,
) -> EuState:
    rule = religion.RELIGION_RULE if kind == "religion" else religion.REVOLUTION_RULE
    progress = religion.SpreadProgress(kind, options=options.spread)
    while True:
        view = religion.spread_moves(state, progress)
        if not view:
            return state
        move = choose(rule, active, view)
        log.decide(rule, f"chosen by {active}", list(view), move)
        state, progress = religion.apply_placement(state, progress, move)


def jsonable(value: Any) -> Any:
    """A move or log entry as plain JSON values (dataclasses as tables)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [jsonable(item) for item in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    return value


def log_json(log: ResolutionLog) -> list[dict[str, Any]]:
    """The log's decisions as JSON, moves included."""
    return [jsonable(entry) for entry in log.to_json()]


def state_changes(before: EuState, after: EuState) -> list[str]:
    """What a resolution changed, one line per changed field: its path, the old value
    and the new one (as :func:`~legalis.model.eupop.resolution.readable` text).

    >>> from legalis.model.eupop.state import small_state
    >>> after = small_state()
    >>> after.areas["saxony"].g.append("france")
    >>> state_changes(small_state(), after)
    ['areas.saxony.g: none -> france']
    """
    return list(_changes(before.to_json(), after.to_json(), ""))


def _changes(old: Any, new: Any, path: str) -> Iterator[str]:
    if isinstance(old, dict) and isinstance(new, dict):
        for key in [*old, *(key for key in new if key not in old)]:
            yield from _changes(old.get(key), new.get(key), f"{path}.{key}" if path else key)
    elif old != new:
        yield f"{path}: {readable(old)} -> {readable(new)}"
