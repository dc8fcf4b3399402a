"""The previous release's command shapes, read for one more release.

:func:`translate` turns a command line of the old shapes into the one shape of every
game (the game the first argument, ``--seat``, ``--out``), or marks it for
:mod:`legalis.legacy_cli` when the old command has no counterpart of that shape (one
COIN event's executions, one EU:PoP effect's choices, ``resolve``, ``deck``,
``winter``). Either way it says so in a warning that names the new shape.

>>> translate(["moves", "--game", "sevenyears", "--limit", "3"]).argv
['moves', 'sevenyears', '--limit', '3']
>>> translate(["play", "sevenyears", "--british", "greedy", "--log", "g.jsonl"]).argv
['play', 'sevenyears', '--seat', 'british=greedy', '--out', 'g.jsonl']
>>> translate(["resolve", "--game", "eupop", "--event", "101-1"]).legacy
True
>>> translate(["moves", "lod", "--limit", "3"]).warnings
()
"""

from __future__ import annotations

from dataclasses import dataclass

from legalis.model.core.documents import parse_json, read_document
from legalis.model.errors import InputError, clip
from legalis.registry import games

__all__ = ["Translation", "translate"]

# Old commands with no counterpart in the one shape: they run as they did.
LEGACY_COMMANDS = {
    "resolve": "legalis new eupop, then legalis apply eupop --move ... (each choice is a move)",
    "deck": "legalis new eupop (the state holds each Age's deck and the display)",
    "winter": "legalis play lod (Winter Quarters Rounds are part of the whole game)",
}
# The successors of the old shapes that run as they did, per command.
LEGACY_SHAPES = {
    "moves": "legalis new GAME, then legalis moves GAME --state FILE",
    "apply": "legalis new GAME, then legalis apply GAME --state FILE --move MOVE",
    "bot": "legalis new GAME, then legalis bot GAME --state FILE",
    "draw": "legalis draw GAME",
}
EVENT_FLAGS = ("--card", "--side", "--faction")
EFFECT_FLAGS = ("--effect", "--player", "--amount", "--areas", "--targets", "--provinces",
                "--places", "--vassal", "--ships", "--colour")  # fmt: skip
SIDE_FLAGS = ("--british", "--french")
RENAMED_FLAGS = {"--log": "--out", "--apply": "--out"}
SHOWN = 500  # characters of a command line a warning echoes: one short line, whatever is given


@dataclass(frozen=True)
class Translation:
    """A command line in the one shape (or, with ``legacy``, as it was) and the
    warnings to show for it."""

    argv: list[str]
    warnings: tuple[str, ...] = ()
    legacy: bool = False


def _flag(argv: list[str], name: str) -> str | None:
    """The value of ``--name VALUE`` or ``--name=VALUE`` in ``argv``, if given."""
    for index, token in enumerate(argv):
        if token == name and index + 1 < len(argv):
            return argv[index + 1]
        if token.startswith(name + "="):
            return token.split("=", 1)[1]
    return None


def _without(argv: list[str], name: str) -> list[str]:
    """``argv`` without ``--name VALUE`` / ``--name=VALUE``."""
    kept: list[str] = []
    skip = False
    for token in argv:
        if skip:
            skip = False
        elif token == name:
            skip = True
        elif not token.startswith(name + "="):
            kept.append(token)
    return kept


def _has(argv: list[str], names: tuple[str, ...]) -> bool:
    return any(token == name or token.startswith(name + "=") for token in argv for name in names)


def _game_of_file(path: str) -> str | None:
    """The game a deck TOML or a game log names (its ``game`` field or header); None
    for a file that cannot be read as one (the command says why). Read as every
    command reads a file: bounded in size and nesting."""
    try:
        if path.endswith(".toml"):
            found = read_document(path, "toml").get("game")
        else:
            found = parse_json(read_document(path, "text").split("\n", 1)[0]).get("game")
    except (InputError, AttributeError):
        return None
    return found if isinstance(found, str) else None


def translate(argv: list[str]) -> Translation:
    """``argv`` (without the program name) in the one shape; see the module. Two
    different games named (the argument and ``--game``) are an ``InputError``."""
    if not argv or argv[0].startswith("-"):
        return Translation(list(argv))
    command, rest = argv[0], list(argv[1:])
    named = _flag(rest, "--game")
    positional = rest[0] if rest and not rest[0].startswith("-") else None
    game = named or positional
    old = clip(" ".join(["legalis", *argv]), SHOWN)
    if command in LEGACY_COMMANDS:
        return Translation(list(argv), (f"'{old}' is deprecated: use {LEGACY_COMMANDS[command]}",),
                           legacy=True)  # fmt: skip
    legacy_shape = (
        (command in ("moves", "apply") and game in ("lod", "fitl") and _has(rest, EVENT_FLAGS))
        or (command == "moves" and _has(rest, EFFECT_FLAGS))
        or (command == "bot" and _has(rest, ("--card", "--faction", "--players")))
        or (command == "draw" and named is not None)
    )
    if legacy_shape:
        hint = LEGACY_SHAPES[command].replace("GAME", game or "GAME")
        return Translation(list(argv), (f"'{old}' is deprecated: use {hint}",), legacy=True)
    changed = False
    if named is not None:
        rest = _without(rest, "--game")
        if positional is None or (command == "verify" and positional.endswith(".toml")):
            rest.insert(0, named)
        elif positional != named:  # as the old shape did: neither is dropped in silence
            raise InputError(f"two games named: {clip(positional)!r} and {clip(named)!r}",
                             path="--game")  # fmt: skip
        changed = True
    if command == "verify":
        cards = _flag(rest, "--cards")
        if cards is not None:
            rest = [*_without(rest, "--cards"), cards]
            changed = True
        deck_game = _game_of_file(rest[0]) if rest and rest[0].endswith(".toml") else None
        if deck_game is not None:
            rest.insert(0, deck_game)
            changed = True
    if command == "replay" and rest and not rest[0].startswith("-") and rest[0] not in games():
        found = _game_of_file(rest[0])
        if found is not None:
            rest.insert(0, found)
            changed = True
    for side in SIDE_FLAGS:
        kind = _flag(rest, side)
        if kind is not None:
            rest = [*_without(rest, side), "--seat", f"{side[2:]}={kind}"]
            changed = True
    for old_flag, new_flag in RENAMED_FLAGS.items():
        value = _flag(rest, old_flag)
        if value is not None:
            rest = [*_without(rest, old_flag), new_flag, value]
            changed = True
    translated = [command, *rest]
    if not changed:
        return Translation(translated)
    new = clip(" ".join(["legalis", *translated]), SHOWN)
    return Translation(translated, (f"'{old}' is deprecated: write '{new}'",))
