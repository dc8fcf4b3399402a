"""Checking the names and numbers an EU:PoP effect is asked about, against a state.

The CLI (``legalis moves/resolve --game eupop``) and the HTTP API both ask for one
effect's legal choices with Areas, Sea Zones, Provinces, Realms and an amount, and
both resolve Events whose effects name such places. A name the state's map (or its
Realms) does not know is an :class:`~legalis.model.errors.InputError` naming the
allowed values, never dropped; an amount outside ``1..MAX_AMOUNT`` likewise.

>>> from legalis.model.eupop.state import small_state
>>> check_names(small_state(), "area", ["saxony"], "--areas")
('saxony',)
>>> check_names(small_state(), "area", ["atlantis"], "--areas")
Traceback (most recent call last):
...
legalis.model.errors.InputError: --areas[0]: unknown Area 'atlantis' (allowed: ...
>>> check_amount(-5, "--amount")
Traceback (most recent call last):
...
legalis.model.errors.InputError: --amount: -5 is not an amount from 1 to 20 (allowed: 1..20)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Literal

from legalis.model.errors import InputError
from legalis.model.eupop.events import (
    ChooseAB,
    EachPlayer,
    Effect,
    GainGOp,
    If,
    Influence,
    Town,
    Units,
)
from legalis.model.eupop.state import EuState

__all__ = ["MAX_AMOUNT", "NameKind", "check_amount", "check_effect_names", "check_names"]

# The largest amount of Influence or Units one effect is asked about: 4 Areas' worth
# of the 5 I per Area limit (16.3), far above any card's number.
MAX_AMOUNT = 20

NameKind = Literal["area", "sea", "province", "realm"]
_LABELS = {"area": "Area", "sea": "Sea Zone", "province": "Province", "realm": "Realm"}


def _known(state: EuState, kind: NameKind) -> Collection[str]:
    if kind == "area":
        return state.map.areas
    if kind == "sea":
        return state.map.seas
    if kind == "province":
        return state.map.province_area
    return state.realms


def check_names(state: EuState, kind: NameKind, names: Sequence[str], path: str) -> tuple[str, ...]:
    """``names`` when each is a known ``kind`` of the state (its map for places);
    otherwise an :class:`InputError` at ``path[i]`` naming the allowed values."""
    known = _known(state, kind)
    for index, name in enumerate(names):
        if name not in known:
            raise InputError(f"unknown {_LABELS[kind]} {name!r}", path=f"{path}[{index}]",
                             allowed=sorted(known))  # fmt: skip
    return tuple(names)


def check_amount(amount: object, path: str) -> int:
    """``amount`` when it is a whole number from 1 to :data:`MAX_AMOUNT`."""
    if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= MAX_AMOUNT:
        raise InputError(f"{amount!r} is not an amount from 1 to {MAX_AMOUNT}", path=path,
                         allowed=[f"1..{MAX_AMOUNT}"])  # fmt: skip
    return amount


def check_effect_names(state: EuState, effects: Sequence[Effect], path: str = "effects") -> None:
    """Every place an Event's effects name is on the state's map: an unknown Area, Sea
    Zone or Province is an :class:`InputError` with the effect's path. Realms are not
    checked: a Realm not in play is an ineligible target (16.3: the effect is ignored).

    >>> from legalis.model.eupop.events import effects_from_data
    >>> from legalis.model.eupop.state import small_state
    >>> check_effect_names(small_state(), effects_from_data([{"op": "g", "areas": ["mu"]}]))
    Traceback (most recent call last):
    ...
    legalis.model.errors.InputError: effects[0].areas[0]: unknown Area 'mu' (allowed: ...
    """
    for index, effect in enumerate(effects):
        at = f"{path}[{index}]"
        if isinstance(effect, Influence | GainGOp):
            check_names(state, "area", effect.areas, f"{at}.areas")
        elif isinstance(effect, Town):
            check_names(state, "province", effect.provinces, f"{at}.provinces")
        elif isinstance(effect, Units):
            check_names(state, "sea" if effect.ships else "area", effect.places, f"{at}.places")
        elif isinstance(effect, ChooseAB):
            check_effect_names(state, effect.a, f"{at}.a")
            check_effect_names(state, effect.b, f"{at}.b")
        elif isinstance(effect, EachPlayer | If):
            check_effect_names(state, effect.effects, f"{at}.effects")
