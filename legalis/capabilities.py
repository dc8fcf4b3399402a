"""What a game offers beside play: verifying its data and rules, edge-case fixtures,
and a picture of a state.

The command line and the HTTP API ask for a capability by game name and get a
function, or an :class:`~legalis.model.errors.InputError` naming the games that
have it, so neither holds a branch per game. Every verifier takes the same
arguments and returns a report with ``ok``, ``findings`` and ``to_json()``.

>>> with_capability("fixtures")
['fitl', 'lod']
>>> with_capability("draw")
['eupop', 'fitl', 'lod', 'sevenyears']
>>> verifier("chess")
Traceback (most recent call last):
legalis.model.errors.InputError: game: no verify for 'chess' (allowed: eupop, fitl, lod, sevenyears)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from legalis.board import drawn_games
from legalis.model.errors import InputError, clip
from legalis.verify.tasks import Mapper, in_process

__all__ = ["VerifyInput", "drawer", "finding_codes", "fixture_maker", "verifier", "with_capability"]


@dataclass(frozen=True)
class VerifyInput:
    """What a verification reads: the game's data to check (a COIN deck, the Seven
    Years War card list, an EU:PoP Event catalogue) as a parsed document or None for
    the bundled one, where it came from (for error messages), the rule options, an
    optional rule-numbers document (the Seven Years War), ``strict`` (COIN: text
    legalis does not read is an error), a callback per card checked, and the
    ``mapper`` that runs the verification's tasks (None: one by one, in this
    process; see :mod:`legalis.verify.tasks`)."""

    data: Mapping[str, Any] | None = None
    source: str | None = None
    options: Mapping[str, Any] | None = None
    rules: Mapping[str, Any] | None = None
    strict: bool = False
    on_card: Callable[[int], None] | None = None
    mapper: Mapper | None = None

    @property
    def chosen_mapper(self) -> Mapper:
        """The mapper to hand the verifier: the one given, or :func:`in_process`."""
        return self.mapper or in_process

    def refuse(self, game: str, *names: str) -> None:
        """Refuse the inputs ``names`` that ``game``'s verification does not read."""
        given = {"options": bool(self.options), "rules": self.rules is not None,
                 "strict": self.strict}  # fmt: skip
        for name in names:
            if given[name]:
                raise InputError(f"{game} verification does not read {name}", path=name)


def _verify_coin(game: str, given: VerifyInput) -> Any:
    from legalis.model.coin.deck import deck_from_toml, of_game
    from legalis.verify.coin import verify_coin

    given.refuse(game, "options", "rules")
    deck = None
    if given.data is not None:
        deck = of_game(deck_from_toml(given.data, source=given.source), game, "deck.game")
    return verify_coin(
        game, deck, on_card=given.on_card, strict=given.strict, mapper=given.chosen_mapper
    )


def _verify_sevenyears(given: VerifyInput) -> Any:
    from legalis.model.sevenyears.options import SevenYearsOptions
    from legalis.verify.sevenyears import verify_sevenyears

    given.refuse("sevenyears", "strict")
    options = SevenYearsOptions.from_json(dict(given.options) if given.options else None)
    return verify_sevenyears(
        raw_cards=given.data, raw_game=given.rules, options=options, mapper=given.chosen_mapper
    )


def _verify_eupop(given: VerifyInput) -> Any:
    from legalis.model.eupop.events import catalogue_from_data, load_catalogue
    from legalis.verify.eupop import verify_eupop

    given.refuse("eupop", "options", "rules", "strict")
    catalogue = (
        load_catalogue()
        if given.data is None
        else catalogue_from_data(given.data, source=given.source)
    )
    return verify_eupop(catalogue, mapper=given.chosen_mapper)


_VERIFIERS: dict[str, Callable[[VerifyInput], Any]] = {
    "eupop": _verify_eupop,
    "fitl": lambda given: _verify_coin("fitl", given),
    "lod": lambda given: _verify_coin("lod", given),
    "sevenyears": _verify_sevenyears,
}


def _fixtures(game: str) -> Callable[..., Any]:
    def make(
        out_dir: Path | None, *, per_rule: int, seed: int, mapper: Mapper | None = None
    ) -> dict[str, Any]:
        """The fixtures as one document; written to ``out_dir`` when it is given.
        ``mapper`` runs one task per fixture (None: one by one, in this process)."""
        from legalis.verify.fixtures import build_fixtures, generate_fixtures

        tasks = mapper or in_process
        if out_dir is not None:
            written = generate_fixtures(game, out_dir, per_rule=per_rule, seed=seed, mapper=tasks)
            body: dict[str, Any] = written.to_json()
            return body
        manifest, built = build_fixtures(game, per_rule=per_rule, seed=seed, mapper=tasks)
        return {"manifest": manifest.to_json(), "fixtures": built}

    return make


_FIXTURES = {"fitl": _fixtures("fitl"), "lod": _fixtures("lod")}


# Finding codes of the verifiers beside the COIN deck checks' (which list their own).
_GENERAL_CODES = {
    "proof.failed": (
        "error",
        "the claim's rule",
        "a claim has a counterexample: the rule can be broken",
    ),
    "proof.vacuous": ("warning", "the claim's rule", "a claim's assumptions contradict each other"),
    "proof.limit": ("warning", "the claim's rule", "the prover gave up within its time limit"),
    "data.<check>": ("error", "CARD LIST", "a field of the Seven Years War card data is wrong"),
    "eupop.event-no-effects": (
        "error",
        "16.3 Standard Event effects",
        "an EU:PoP Event's text says what happens, but it carries no effects",
    ),
    "eupop.event-unknown-name": (
        "error",
        "16.3 Standard Event effects",
        "an EU:PoP Event's effects name a place the bundled map does not know",
    ),
}


def finding_codes() -> dict[str, tuple[str, str, str]]:
    """Every finding code a verifier reports: its severity, the rule behind it and
    what it means (``data.<check>`` stands for every data check of a card list).

    >>> finding_codes()["proof.failed"][0]
    'error'
    """
    from legalis.verify.coin_findings import CODES

    return {**CODES, **_GENERAL_CODES}


def _draw(game: Any, state: Any, **how: Any) -> Any:
    from legalis.board import draw_state

    return draw_state(game, state, **how)


_DRAWERS = {name: _draw for name in drawn_games()}
_TABLES: dict[str, dict[str, Any]] = {
    "verify": _VERIFIERS,
    "fixtures": _FIXTURES,
    "draw": _DRAWERS,
}


def with_capability(capability: str) -> list[str]:
    """The games that offer ``capability`` (verify, fixtures, draw)."""
    return sorted(_TABLES[capability])


def _lookup(capability: str, game: str) -> Any:
    table = _TABLES[capability]
    if game not in table:
        raise InputError(f"no {capability} for {clip(game)!r}", path="game",
                         allowed=sorted(table))  # fmt: skip
    return table[game]


def verifier(game: str) -> Callable[[VerifyInput], Any]:
    """The function that verifies ``game``'s data and rules."""
    function: Callable[[VerifyInput], Any] = _lookup("verify", game)
    return function


def fixture_maker(game: str) -> Callable[..., dict[str, Any]]:
    """The function that builds ``game``'s edge-case fixtures:
    ``make(out_dir or None, per_rule=, seed=, mapper=None)``."""
    function: Callable[..., dict[str, Any]] = _lookup("fixtures", game)
    return function


def drawer(game: str) -> Callable[..., Any]:
    """The function that draws a state of ``game`` as SVG: ``draw(game, state,
    viewer=, layer=)`` gives a :class:`~legalis.board.Board`."""
    function: Callable[..., Any] = _lookup("draw", game)
    return function
