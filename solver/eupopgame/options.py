"""The options of an EU:PoP game: its scenario, how the game flows, which Realms
the rules play, and every named reading of the deck (:class:`DeckOptions`) and of an
Event's resolution (:class:`PlayOptions` and the classes it holds), each set by one
flat name (``docs/rules-questions.md``).

>>> options = EupopOptions.from_json({"scenario": "three_crowns", "ab_default": "B"})
>>> options.scenario, options.play.ab_default, options.deck.randomize_x
('three_crowns', 'B', False)
>>> EupopOptions.from_json(options.to_json()) == options
True
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from legalis.model.core.options import option_json, option_values, read_options, settable
from legalis.model.errors import InputError
from legalis.model.eupop.deck import DeckOptions, load_scenario, scenario_names
from legalis.model.eupop.play import PlayOptions

__all__ = ["EupopOptions", "NonplayerPick", "PickOrder"]

# Who takes an Event first in a Round: the first seat every Round, or the seat after
# the previous Round's first (docs/rules-questions.md, "EU:PoP as a game").
PickOrder = Literal["seat_order", "rotating"]
# Which Event a Non-player takes from the display (the Bot rules are not in chapter 16).
NonplayerPick = Literal["leftmost", "random"]


def _first_scenario() -> str:
    return scenario_names()[0]


@dataclass(frozen=True)
class EupopOptions:
    """The options of one game.

    ``scenario``: a bundled scenario set-up (16 Preparing Event Decks). ``rounds``:
    how many Rounds are played (0, the default: until the last Age's Event Deck is
    exhausted). ``pick_order``: ``"seat_order"`` (default) every Round the players
    take their Event in seat order from the first seat; ``"rotating"`` the first
    seat moves one on each Round. ``nonplayers``: the Realms the rules play; their
    Events are resolved by the auto-resolution (16.5: "for Events resolved by
    Bots"). ``nonplayer_pick``: the Event a Non-player takes, the ``"leftmost"``
    left on display (default) or a ``"random"`` one. ``reveal_more``: Optional Rule
    7. ``play`` and ``deck``: the readings of a resolution and of the deck.
    """

    scenario: str = field(default_factory=_first_scenario)
    rounds: int = 0
    pick_order: PickOrder = "seat_order"
    nonplayers: tuple[str, ...] = ()
    nonplayer_pick: NonplayerPick = "leftmost"
    reveal_more: bool = False
    play: PlayOptions = field(default_factory=PlayOptions)
    deck: DeckOptions = field(default_factory=DeckOptions)

    @staticmethod
    @functools.cache
    def owners() -> dict[str, type]:
        """Every option name settable by a value of its own, with the option class
        whose field it is (``scenario`` and ``nonplayers`` are read apart).

        >>> EupopOptions.owners()["odd_x_card"].__name__
        'DeckOptions'
        """
        play = PlayOptions()
        groups = PlayOptions.names()
        return {
            **dict.fromkeys(settable(EupopOptions), EupopOptions),
            **{name: type(getattr(play, g)) if g else PlayOptions for name, g in groups.items()},
            **dict.fromkeys(settable(DeckOptions), DeckOptions),
        }

    @classmethod
    def names(cls) -> list[str]:
        """Every option name, in the order :meth:`to_json` writes them."""
        return ["scenario", "nonplayers", *cls.owners()]

    @staticmethod
    def allowed(name: str) -> tuple[Any, ...] | None:
        """The values option ``name`` takes (None: a count, or a list of Realms).

        >>> EupopOptions.allowed("pick_order"), EupopOptions.allowed("rounds")
        (('seat_order', 'rotating'), None)
        """
        if name == "scenario":
            return tuple(scenario_names())
        if name == "nonplayers":
            return None
        return option_values(EupopOptions.owners()[name], name)

    @classmethod
    def from_json(cls, raw: Mapping[str, Any] | None, *, path: str = "options") -> EupopOptions:
        """The options named in ``raw`` (one flat name to value; values also as text,
        ``nonplayers`` also as a comma-separated list), the rest at their defaults.
        An unknown name or value is an :class:`InputError` listing the allowed ones.

        >>> EupopOptions.from_json({"nonplayers": "england,france"}).nonplayers
        ('france', 'england')
        >>> EupopOptions.from_json({"rounds": "two"})
        Traceback (most recent call last):
        ...
        legalis.model.errors.InputError: options.rounds: expected a count of 0 or more, not 'two'
        """
        if raw is None:
            return cls()
        if not isinstance(raw, Mapping):
            raise InputError("options must be an object", path=path)
        names = cls.names()
        for name in raw:
            if name not in names:
                raise InputError(
                    f"unknown option {name!r}", path=f"{path}.{name}", allowed=sorted(names)
                )
        scenario = raw.get("scenario", _first_scenario())
        if scenario not in scenario_names():
            raise InputError(
                f"no scenario {scenario!r}", path=f"{path}.scenario", allowed=scenario_names()
            )
        realms = load_scenario(scenario).realms
        chosen = _nonplayers(raw.get("nonplayers", ()), realms, f"{path}.nonplayers")
        own = {name: raw[name] for name in settable(cls) if name in raw}
        base = read_options(
            cls(scenario=scenario, nonplayers=chosen),
            own,
            path=path,
            groups=dict.fromkeys(settable(cls), ""),
        )
        play = {name: raw[name] for name in _play_groups() if name in raw}
        deck = {name: raw[name] for name in settable(DeckOptions) if name in raw}
        return replace(
            base,
            play=PlayOptions.from_json(play, path=path),
            deck=DeckOptions.from_json(deck, path=path),
        )

    def to_json(self) -> dict[str, Any]:
        """Every option by name, as :meth:`from_json` reads them back."""
        return {
            "scenario": self.scenario,
            "nonplayers": list(self.nonplayers),
            **option_json(self, dict.fromkeys(settable(EupopOptions), "")),
            **option_json(self.play, _play_groups()),
            **option_json(self.deck, dict.fromkeys(settable(DeckOptions), "")),
        }


@functools.cache
def _play_groups() -> dict[str, str]:
    """:meth:`PlayOptions.names`, read once."""
    return PlayOptions.names()


def _nonplayers(value: Any, realms: tuple[str, ...], path: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [name.strip() for name in value.split(",") if name.strip()]
    if not isinstance(value, list | tuple):
        raise InputError(f"expected a list of Realms, not {value!r}", path=path, allowed=realms)
    for name in value:
        if name not in realms:
            raise InputError(f"{name!r} is not a Realm of the scenario", path=path, allowed=realms)
    return tuple(realm for realm in realms if realm in value)
