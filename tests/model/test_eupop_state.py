"""An EU:PoP state is checked against the rules' caps and the piece bounds: a count
past its limit is an input error naming the field, the limit and the rule."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from legalis.model.errors import InputError
from legalis.model.eupop import state as eu
from legalis.model.eupop.state import SMALL_STATE, state_from_json

HUGE = 10**9


def changed(path: str, value: Any) -> dict[str, Any]:
    """SMALL_STATE with the field at the dotted ``path`` set to ``value``."""
    raw = copy.deepcopy(SMALL_STATE)
    *parents, last = path.split(".")
    node = raw
    for key in parents:
        node = node.setdefault(key, {})
    node[last] = value
    return raw


# (field set, value at the limit, the path named, the limit[, its rule: the piece bound])
LIMITS = [
    ("realms.france.units_available", eu.MAX_LAND_UNITS, "realms.france", eu.MAX_LAND_UNITS),
    ("land_units.france", {"saxony": eu.MAX_LAND_UNITS}, "realms.france", eu.MAX_LAND_UNITS),
    ("ships.france", {"north_sea": eu.MAX_SHIPS}, "ships.france", eu.MAX_SHIPS),
    ("provinces.Leipzig.rebels", eu.MAX_REBELS, "provinces", eu.MAX_REBELS),
    ("trade_nodes.lubeck", {"merchants": {"france": eu.MAX_MERCHANTS}}, "trade_nodes",
     eu.MAX_MERCHANTS, "16.3 Gain Merchant"),
    ("trade_nodes.lubeck", {"pirates": eu.MAX_PIRATES}, "trade_nodes", eu.MAX_PIRATES),
    ("realms.france.alliance_markers", eu.MAX_MARKERS, "realms.france.alliance_markers",
     eu.MAX_MARKERS),
    ("realms.france.colonists", eu.MAX_COLONISTS, "realms.france.colonists", eu.MAX_COLONISTS),
    ("provinces.Dresden.tax", eu.MAX_TAX, "provinces.Dresden.tax", eu.MAX_TAX),
    ("revolutionary_tokens", eu.MAX_REVOLUTIONARY, "revolutionary_tokens", eu.MAX_REVOLUTIONARY),
]  # fmt: skip


def one_more(value: Any) -> Any:
    if isinstance(value, int):
        return value + 1
    ((key, inner),) = value.items()
    return {key: one_more(inner)}


def huge(value: Any) -> Any:
    if isinstance(value, int):
        return HUGE
    ((key, inner),) = value.items()
    return {key: huge(inner)}


@pytest.mark.parametrize("case", LIMITS, ids=[case[0] for case in LIMITS])
def test_a_count_past_its_limit_names_the_limit_and_the_rule(case: tuple[Any, ...]) -> None:
    field, at_limit, path, limit, rule = (*case, eu.PIECE_RULE)[:5]
    state_from_json(changed(field, at_limit))  # the limit itself is allowed
    for value in (one_more(at_limit), huge(at_limit)):
        with pytest.raises(InputError) as caught:
            state_from_json(changed(field, value))
        assert caught.value.path == path
        assert f"at most {limit} ({rule}" in caught.value.message


def test_merchants_of_a_realm_keep_the_cap_of_16_3() -> None:
    # 16.3 Gain Merchant: a third Merchant only from two; never a fourth
    with pytest.raises(InputError) as caught:
        state_from_json(changed("realms.france.merchants", HUGE))
    assert caught.value.path == "realms.france.merchants" and "3" in caught.value.message


@pytest.mark.parametrize("value", [-4, 4, HUGE])
def test_stability_stays_on_its_track(value: int) -> None:
    with pytest.raises(InputError) as caught:
        state_from_json(changed("realms.france.stability", value))
    assert caught.value.path == "realms.france.stability" and "from -3 to 3" in str(caught.value)


def test_the_curia_has_a_bound() -> None:
    state_from_json(changed("curia", ["roma"] * eu.MAX_CURIA))
    with pytest.raises(InputError) as caught:
        state_from_json(changed("curia", ["roma"] * (eu.MAX_CURIA + 1)))
    assert caught.value.path == "curia"


@pytest.mark.parametrize(
    ("field", "value", "path"),
    [
        ("friendly_ports.france", ["atlantis"], "friendly_ports.france"),
        ("friendly_ports.nobody", ["north_sea"], "friendly_ports.nobody"),
        ("realms.france.core_provinces", ["Atlantis"], "realms.france.core_provinces"),
    ],
)
def test_unknown_places_in_the_state_are_refused(field: str, value: Any, path: str) -> None:
    with pytest.raises(InputError) as caught:
        state_from_json(changed(field, value))
    assert caught.value.path == path
