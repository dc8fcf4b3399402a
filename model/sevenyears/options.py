"""Named options for every place where the seed's rules leave a question open.

Each option's question and the reason for its default are in
``docs/rules-questions.md``.

>>> SevenYearsOptions().turmoil_end
'pass_is_final'
>>> SevenYearsOptions.from_json({"difficulty_chooser": "owner"}).difficulty_chooser
'owner'
>>> [spec.rule for spec in option_specs() if spec.name == "reshuffle"]
['PLAN PHASE']
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from legalis.model.core.game import OptionSpec
from legalis.model.errors import InputError

__all__ = ["CHOICES", "FLAGS", "SevenYearsOptions", "option_specs"]

CHOICES: dict[str, tuple[str, ...]] = {
    "turmoil_end": ("pass_is_final", "two_passes_in_a_row"),
    "conflict_end": ("pass_is_final", "two_passes_in_a_row"),
    "difficulty_chooser": ("owner", "attacker"),
    "difficulty_timing": ("simultaneous", "in_order"),
    "tied_medals_status": ("nobody", "both"),
    "reshuffle": ("plan_only", "any_draw"),
    "first_to_draw": ("british", "french"),
}
FLAGS = ("effect_cards_in_conflict", "europe_win_ends_game")


@dataclass(frozen=True)
class SevenYearsOptions:
    """The rule options; each default is the project's reading of the seed.

    - ``turmoil_end`` / ``conflict_end``: does a pass end a player's part in the
      phase (``pass_is_final``), or does the phase end only at two passes in a row?
    - ``difficulty_chooser``: who picks the card a ``*`` card makes the opponent
      discard: its ``owner`` (the opponent) or the ``attacker``.
    - ``difficulty_timing``: do all ``*`` cards on the grid act (``simultaneous``),
      or do they act in the order laid, a discarded one no longer acting?
    - ``tied_medals_status``: with medals tied, is ``nobody`` Winning or Losing, or
      ``both`` (both may use L and V cards)?
    - ``reshuffle``: is the discard shuffled into a new deck only in the Plan phase
      (``plan_only``), or for any draw that finds the deck empty (``any_draw``)?
    - ``first_to_draw``: who draws and executes first in Plan and Execute.
    - ``effect_cards_in_conflict``: may X/Z cards be laid in Conflict (force 0)?
    - ``europe_win_ends_game``: does winning the European Campaign end the game at
      once, or is the winner declared at the end of the last turn?
    """

    turmoil_end: str = "pass_is_final"
    conflict_end: str = "pass_is_final"
    difficulty_chooser: str = "owner"
    difficulty_timing: str = "simultaneous"
    tied_medals_status: str = "nobody"
    reshuffle: str = "plan_only"
    first_to_draw: str = "british"
    effect_cards_in_conflict: bool = False
    europe_win_ends_game: bool = True

    def __post_init__(self) -> None:
        for name, allowed in CHOICES.items():
            if getattr(self, name) not in allowed:
                raise InputError(
                    f"bad value {getattr(self, name)!r}", path=f"options.{name}", allowed=allowed
                )
        for name in FLAGS:
            if not isinstance(getattr(self, name), bool):
                raise InputError(
                    f"bad value {getattr(self, name)!r}",
                    path=f"options.{name}",
                    allowed=["true", "false"],  # as JSON writes them
                )

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, raw: Any, *, path: str = "options") -> SevenYearsOptions:
        """Options from a JSON object; unknown names and bad values are input errors."""
        if raw is None:
            return cls()
        if not isinstance(raw, dict):
            raise InputError("options must be an object", path=path)
        names = [field.name for field in fields(cls)]
        for key in raw:
            if key not in names:
                raise InputError(f"unknown option {key!r}", path=f"{path}.{key}", allowed=names)
        return cls(**raw)


# The seed has no paragraph numbers: each option names the headings of the seed it
# reads, and says in a line what it settles (docs/rules-questions.md has the why).
_ABOUT: dict[str, tuple[str, str]] = {
    "turmoil_end": (
        "TURMOIL PHASE",
        "whether a pass ends a player's part in the phase, or only two passes in a row end it",
    ),
    "conflict_end": (
        "CONFLICT PHASE",
        "whether a pass ends a player's part in the phase, or only two passes in a row end it",
    ),
    "difficulty_chooser": (
        "DIFFICULTY PHASE; CARD LIST NOTATION: *",
        "who picks the card a * card makes the opponent discard: its owner or the attacker",
    ),
    "difficulty_timing": (
        "DIFFICULTY PHASE",
        "whether all * cards act together, or in the order laid (one discarded first does not)",
    ),
    "tied_medals_status": (
        "AFTERMATH PHASE; CARD LIST NOTATION: L, V",
        "with medals tied, whether nobody or both count as Winning and Losing",
    ),
    "reshuffle": (
        "PLAN PHASE",
        "whether only the Plan phase's draws, or any draw, turn the discard into a new deck",
    ),
    "first_to_draw": (
        "PLAN PHASE; EXECUTE PHASE",
        "which player draws and executes first from the shared deck",
    ),
    "effect_cards_in_conflict": (
        "CONFLICT PHASE; CARD LIST NOTATION: X, Z",
        "whether X and Z cards may be laid on the grid with a Force of 0",
    ),
    "europe_win_ends_game": (
        "VICTORY",
        "whether winning the European Campaign ends the game at once or at its end",
    ),
}


def option_specs() -> tuple[OptionSpec, ...]:
    """Every rule option of The Seven Years War: its values (from :data:`CHOICES`
    and :data:`FLAGS`), its default (:class:`SevenYearsOptions`'), the seed's
    headings it reads and a line for people.

    >>> specs = {spec.name: spec for spec in option_specs()}
    >>> specs["first_to_draw"].allowed, specs["first_to_draw"].default
    (('british', 'french'), 'british')
    >>> specs["europe_win_ends_game"].allowed
    (True, False)
    """
    defaults = SevenYearsOptions()
    values = {**CHOICES, **dict.fromkeys(FLAGS, (True, False))}
    return tuple(
        OptionSpec(
            field.name, values[field.name], getattr(defaults, field.name), *_ABOUT[field.name]
        )
        for field in fields(SevenYearsOptions)
    )
