"""Every named reading a Liberty or Death Non-player turn or Winter Quarters Round
uses, gathered under one flat set of names (``docs/rules-questions.md``): the
Command and Battle rules, the sequence of play (8.1), each Faction's flowchart
(8.4-8.7), the supply paragraphs and one-player victory (8.8).

The names are those of the option classes' fields, each unique, so the CLI's
``--option name=value`` and the API's ``options`` object set any of them.

>>> options = NonplayerOptions.from_json({"skirmish_cubes": "alternate", "strike_most": "false"})
>>> options.british.skirmish_cubes, options.patriots.strike_most
('alternate', False)
>>> NonplayerOptions.from_json({"treaty_half_rounding": "down"}).sequence.treaty_half_rounding
'down'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from legalis.model.core.options import option_values, read_options
from legalis.model.lod.battle import BattleOptions
from legalis.model.lod.command_base import CommandOptions
from legalis.model.lod.victory import OnePlayerOptions
from legalis.solver.nonplayer.british import BritishOptions
from legalis.solver.nonplayer.french import FrenchOptions
from legalis.solver.nonplayer.indians import IndiansOptions
from legalis.solver.nonplayer.patriots import PatriotOptions
from legalis.solver.nonplayer.sequence import SequenceOptions
from legalis.solver.nonplayer.supply import SupplyChoiceOptions

__all__ = ["NonplayerOptions", "option_values"]


@dataclass(frozen=True)
class NonplayerOptions:
    """The option classes a Non-player turn or Winter Quarters Round reads, one
    field each (their defaults: the recorded readings)."""

    command: CommandOptions = field(default_factory=CommandOptions)
    battle: BattleOptions = field(default_factory=BattleOptions)
    sequence: SequenceOptions = field(default_factory=SequenceOptions)
    british: BritishOptions = field(default_factory=BritishOptions)
    patriots: PatriotOptions = field(default_factory=PatriotOptions)
    french: FrenchOptions = field(default_factory=FrenchOptions)
    indians: IndiansOptions = field(default_factory=IndiansOptions)
    supply: SupplyChoiceOptions = field(default_factory=SupplyChoiceOptions)
    one_player: OnePlayerOptions = field(default_factory=OnePlayerOptions)

    @classmethod
    def names(cls) -> dict[str, str]:
        """Each option name and the group (field of this class) holding it.

        >>> NonplayerOptions.names()["removal_pool"]
        'battle'
        """
        defaults = cls()
        return {
            option.name: group.name
            for group in fields(cls)
            for option in fields(getattr(defaults, group.name))
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any] | None, *, path: str = "options") -> NonplayerOptions:
        """The options named in ``raw`` (name to value), the rest at their defaults.
        A value may be given as text (``"true"``, ``"3"``), as the CLI passes it;
        an unknown name or a value outside the option's values is an
        :class:`InputError` listing what is allowed."""
        return read_options(cls(), raw, path=path, groups=cls.names())
