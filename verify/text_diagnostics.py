"""What the event-text parser could not read, and which kind of problem that is.

A text can fail to read for two reasons that mean different things to a designer:

- ``typo``: a word is a misspelling of a name the game knows ("War Partys" for
  "War Parties"). The card is wrong; the diagnostic names the name it most likely
  meant.
- ``unread``: the sentence is written in a form legalis does not read yet. The
  card may be right; the diagnostic says which sentence was not read, where, and
  (when the words tell) which effect of the effect language it needs.

A third kind, ``invalid``, is text that reads but compiles to effects that break
the effect language's own rules. :func:`syntax_diagnostic` decides between the
first two from a lark parse error.

Cards also print words that are not to be read at all: an italic flavour phrase
before the colon ("Winter storms: Place ..."). :func:`split_flavour` sets it apart
before the parse, so it is neither read nor reported.

>>> needed_effect("French Ineligible through the next card.")
'eligibility'
>>> split_flavour("Winter storms: Aid +1.")[0]
'Winter storms'
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal, Protocol

from lark import Lark
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput

DiagnosticKind = Literal["typo", "unread", "invalid"]

# What each name terminal stands for, in diagnostics.
_DESCRIBE = {
    "PIECE": "a piece name",
    "FACTION": "a Faction name",
    "TRACK": "a track name",
    "SPACE": "a space name",
    "BOX": "a box name",
    "TYPE_ONE": "a space type",
    "TYPE_MANY": "a space type (plural)",
    "TERRAIN": "a terrain",
    "COUNTRY": "a country",
    "CONTROL": "a Control",
    "ACTION": "a Command or Special Activity",
    "FLAG": "a game flag",
    "NUM": "a number",
    "SIGNED": "a signed number such as +3",
    "FREE_TEXT": "text",
    "TITLE": "a card title",
    "WORD": "a word",
    "SIDE_NAME": '"unshaded" or "shaded"',
    "DEGREE": '"Active" or "Passive"',
    "POLE": '"Support" or "Opposition"',
    "EXECUTING": '"Executing Faction"',
    "SPACE_WORD": '"space"',
    "SPACES_WORD": '"spaces"',
    "GROUP": "a group of Factions (COIN, Insurgent, Royalist, Rebellion)",
    "GENERIC": '"pieces", "cubes", "units" or "forces"',
    "STATUS": "a piece status (Active, Underground, Tunneled)",
    "RELATIVE": '"friendly", "its", "their", "own" or "enemy"',
    "RANGE": "a range of numbers such as 2-5",
    "PLUS_NUM": "a number with a plus such as 3+",
    "FRACTION": "a fraction such as 1/2",
    "CARD_BOX": "a card box",
    "CARD_NAME": "a card title",
    "MARKER": "a marker name",
    "MARKER_NOUN": "a marker name",
    "LEADER": "a Leader",
    "ARTICLE": '"a" or "an"',
    "LEVEL_WORDS": "a support level",
    "LEVELS": '"level" or "levels"',
    "NP_WORD": "a space type",
    "PREFIX_WORD": "a space adjective (coastal, uncontrolled, adjacent)",
    "REF_WORD": '"there", "it" or "them"',
    "MAP_WORDS": '"the map"',
    "PHASE_NAME": "a phase name",
    "ANY_ACTION": "an action kind (Limited Command, Operation, Special Activity)",
    "FREE_WORD": '"free"',
    "STATUS_WORDS": "a piece status",
    "COUNT_WORD": "a count (all, any, a total of, at least)",
    "COUNT_BEFORE": "a count (all, any, a total of, at least)",
    "TUNNEL_MARKER": '"Tunnel marker"',
    "ANYWHERE_ELSE": '"anywhere else"',
    "BOTH": '"both"',
    "NON": '"non-"',
    "THAT": '"that"',
    "THOSE": '"those"',
}


class Vocabulary(Protocol):
    """The names of a game as the parser knows them, by terminal."""

    def vocabulary(self, terminal: str) -> Iterable[str]: ...

    def categories(self) -> Iterable[str]: ...


@dataclass(frozen=True)
class Diagnostic:
    """Text the parser could not read: 1-based ``line`` and ``column``, a message,
    the forms it expected there (empty when the problem is not a missing form), and
    its ``kind`` (see the module docstring).

    >>> Diagnostic(1, 9, "unknown name 'Bostn' (did you mean 'Boston'?)", kind="typo").kind
    'typo'
    """

    line: int
    column: int
    message: str
    expected: list[str] = field(default_factory=list)
    kind: DiagnosticKind = "unread"


def position(text: str, index: int) -> tuple[int, int]:
    """The 1-based line and column of ``index`` in ``text``.

    >>> position("one\\ntwo", 5)
    (2, 2)
    """
    before = text[:index]
    return before.count("\n") + 1, index - (before.rfind("\n") + 1) + 1


def _describe(parser: Lark, names: Iterable[str]) -> list[str]:
    by_name = {terminal.name: terminal for terminal in parser.terminals}
    out: set[str] = set()
    for name in names:
        if name in _DESCRIBE:
            out.add(_DESCRIBE[name])
        elif name in by_name and by_name[name].pattern.type == "str":
            out.add(f'"{by_name[name].pattern.value}"')
        elif name.endswith("_V"):
            out.add(f'"{name[:-2].lower()}"')
        else:
            out.add(name.lower())
    return sorted(out)


_WORD = re.compile(r"[^\W\d_][\w'\u2019-]*")


def _keywords(parser: Lark, names: Iterable[str]) -> list[str]:
    """The printed words of the keyword terminals among ``names`` ("place" for PLACE_V)."""
    by_name = {terminal.name: terminal for terminal in parser.terminals}
    out = []
    for name in names:
        terminal = by_name.get(name)
        if terminal is not None and terminal.pattern.type == "str":
            out.append(str(terminal.pattern.value))
        elif name.endswith("_V"):
            out.append(name[:-2].lower())
    return [word for word in out if _WORD.fullmatch(word)]


def _known_words(parser: Lark, lexicon: Vocabulary) -> set[str]:
    """Every word the parser knows: of the game's names and of the grammar's keywords."""
    forms = [form for name in lexicon.categories() for form in lexicon.vocabulary(name)]
    forms += _keywords(parser, (terminal.name for terminal in parser.terminals))
    return {word.lower() for form in forms for word in form.split()}


def _misspelling(words: list[str], name: str, known: set[str]) -> float | None:
    """How close ``words`` come to ``name`` when they are a misspelling of it: word for
    word, each the same or a close variant that is no word the parser knows ("War
    Partys" of "War Parties"; not "Parties" of "War Parties", nor "Place War Parties").
    """
    name_words = name.split()
    if len(name_words) != len(words):
        return None
    misspelt = False
    for word, name_word in zip(words, name_words, strict=True):
        if word.lower() == name_word.lower():
            continue
        if word.lower() in known:
            return None
        if difflib.SequenceMatcher(None, word.lower(), name_word.lower()).ratio() < _CLOSE:
            return None
        misspelt = True
    if not misspelt:
        return None
    return difflib.SequenceMatcher(None, " ".join(words).lower(), name.lower()).ratio()


_CLOSE = 0.7  # how alike a misspelt word and the name's word must be (difflib ratio)


def _nearest(
    text: str,
    index: int,
    candidates: Iterable[str],
    known: set[str],
    beyond: int = 0,
) -> str | None:
    """The name or keyword among ``candidates`` that the words at ``index`` (a phrase
    ending past ``beyond``) most likely misspell, if any: the closest, and of the same
    grammatical number as the text ("War Partys" is "War Parties", not "War Party")."""
    vocabulary = sorted(set(candidates))
    words: list[tuple[str, int]] = []
    cursor = index
    while vocabulary and len(words) < 5:
        space = re.compile(r"[ \t\n]*").match(text, cursor)
        cursor = space.end() if space else cursor
        word = _WORD.match(text, cursor)
        if word is None:
            break
        words.append((word.group(), word.end()))
        cursor = word.end()
    best: tuple[bool, float, str, str] | None = None
    for size in range(len(words), 0, -1):
        if words[size - 1][1] <= beyond:
            break
        phrase = [word for word, _ in words[:size]]
        plural = phrase[-1].lower().endswith("s")
        for name in vocabulary:
            ratio = _misspelling(phrase, name, known)
            if ratio is None:
                continue
            rank = (name.lower().endswith("s") == plural, ratio, " ".join(phrase), name)
            if best is None or rank[:2] > best[:2]:
                best = rank
    if best is None:
        return None
    _, _, phrase_text, name = best
    if name.islower() and phrase_text[:1].isupper():
        name = name.capitalize()  # a keyword at the start of a sentence
    return f"unknown name {phrase_text!r} (did you mean {name!r}?)"


def _nearest_before(
    text: str, index: int, lexicon: Vocabulary, known: set[str]
) -> tuple[str, int] | None:
    """A name the parse read part of ("Patriot" of "Patriot Resourcs"): a phrase from
    one of the two words before ``index`` through the word at it, against every name."""
    starts = [match.start() for match in _WORD.finditer(text, 0, index)][-2:]
    every = [form for name in lexicon.categories() for form in lexicon.vocabulary(name)]
    for start in starts:
        if re.search(r"[,.;:()]", text[start:index]) is None:
            near = _nearest(text, start, every, known, beyond=index)
            if near is not None:
                return near, start
    return None


def syntax_diagnostic(
    error: UnexpectedInput, text: str, parser: Lark, lexicon: Vocabulary
) -> Diagnostic:
    """The diagnostic for a parse that stopped at ``error``: a typo when a known
    name is the likely meaning of the words there, else an unread form."""
    if isinstance(error, UnexpectedCharacters):
        index = error.pos_in_stream or 0
        allowed: set[str] = set(error.allowed or ())
    else:
        index = len(text.rstrip())
        allowed = set(getattr(error, "expected", ()) or ())
    # report at the start of the word the parse died in ("Annapolis", not "nnapolis"
    # after the article "An"), with the forms expected there
    start = index
    mid_word = isinstance(error, UnexpectedCharacters)
    while mid_word and 0 < start <= len(text) and re.match(r"[\w'\u2019-]", text[start - 1]):
        start -= 1
    if start != index:
        index = start
        try:
            parser.parse(text[:index], start="start")
        except UnexpectedEOF as cut:
            allowed = set(cut.expected or ())
        except LarkError:
            pass
    line, column = position(text, index)
    expected = _describe(parser, allowed)
    if isinstance(error, UnexpectedEOF) or index >= len(text.rstrip()):
        return _unread(text, index, "the text ends too early", expected)
    known = _known_words(parser, lexicon)
    names = [form for name in allowed for form in lexicon.vocabulary(name)]
    near = _nearest(text, index, [*names, *_keywords(parser, allowed)], known)
    if near is None:
        before = _nearest_before(text, index, lexicon, known)
        if before is not None:
            near, index = before
            line, column = position(text, index)
    if near is not None:
        return Diagnostic(line, column, near, expected, kind="typo")
    word = _WORD.match(text, index)
    found = word.group() if word else text[index : index + 1]
    return _unread(text, index, f"cannot read {found!r} here", expected)


# Words that tell which effect of the effect language an unread sentence needs
# (the concepts of the event-language catalogue), the most specific first.
_NEEDS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (effect, re.compile(pattern, re.IGNORECASE))
    for effect, pattern in (
        ("eligibility", r"\b(in)?eligible\b"),
        ("tunnel", r"\btunnel(ed|s)?\b"),
        ("marker", r"\b(markers?|propaganda|raids?|terror|sabotage|blockades?|squadrons?)\b"),
        ("roll", r"\b(die|dice)\b|\broll"),
        ("battle_modifier", r"\b(loss|force)\s+level\b"),
        ("procedure", r"\b(desertion|redeploy\w*|commitment|as\s+per|conduct|phase\s+now)\b"),
        ("at_phase", r"\b(during|at\s+the\s+start\s+of)\b"),
        ("leader", r"\bleaders?\b"),
        ("card", r"\b(cancel\w*|capabilit(y|ies)\s+to)\b"),
        ("select", r"\bselect\b"),
        ("choose_faction", r"\b(that|any(\s+one)?|non-\w+)\s+faction\b"),
        ("set_track", r"\b(to\s+half|to\s+a\s+(third|minimum)|\w+\s+to\s+\d+\s*\.)"),
        ("transfer", r"\b(casualties|out[\s-]+of[\s-]+play|unavailable)\b.*\b(to|go)\b"),
        ("lasting", r"\buntil\s+coup\b|\bthrough\s+(the\s+)?(next\s+)?coup\b"),
        ("amount", r"\b(per|half|times|double|for\s+(each|every))\b"),
    )
)


def needed_effect(sentence: str) -> str | None:
    """The effect an unread sentence most likely needs, when its words tell.

    >>> needed_effect("Patriots Ineligible through the next card.")
    'eligibility'
    >>> needed_effect("Place two Tories in Boston.") is None
    True
    """
    return next((effect for effect, words in _NEEDS if words.search(sentence)), None)


def _sentence_at(text: str, index: int) -> tuple[int, str]:
    """The start and the words of the sentence of ``text`` that holds ``index``."""
    starts = [0, *(match.end() for match in re.finditer(r"[.:]\s+", text[:index]))]
    start = starts[-1]
    end = re.compile(r"[.]\s|[.]$|$").search(text, index)
    stop = end.start() + 1 if end is not None else len(text)
    return start, " ".join(text[start:stop].split())


def _unread(text: str, index: int, problem: str, expected: list[str]) -> Diagnostic:
    """An unread form at ``index``: what stopped the parse there, the sentence that
    is not read, and the effect it needs, when the words tell."""
    _, sentence = _sentence_at(text, min(index, max(len(text.rstrip()) - 1, 0)))
    line, column = position(text, index)
    shown = sentence if len(sentence) <= 80 else sentence[:77] + "..."
    need = needed_effect(sentence)
    message = f"{problem}: the sentence {shown!r} is not read"
    message += f"; it needs the {need!r} effect" if need else ""
    return Diagnostic(line, column, message, expected)


# Words that make the phrase before a colon part of what is read, not flavour: the
# Capability and Momentum banners, "Play (only) if", a choice ("chooses one:"), a
# verb of the event language ("Move ... to map:", "execute a free Operation:").
_READ_BEFORE_COLON = frozenset((
    "capability", "capabilities", "momentum", "play", "if", "unless", "until", "through",
    "choose", "chooses", "place", "places", "add", "adds", "remove", "removes", "replace",
    "replaces", "move", "moves", "relocate", "relocates", "redeploy", "activate", "flip",
    "shift", "shifts", "set", "sets", "raise", "lower", "improve", "degrade", "cut",
    "increase", "decrease", "transfer", "execute", "executes", "free", "perform", "conduct",
    "select", "cancel", "sabotage", "map",
))  # fmt: skip
_FLAVOUR_WORDS = 12  # the longest flavour phrase taken as one (the cards print a few words)


def split_flavour(text: str) -> tuple[str, str]:
    """The flavour phrase a side prints before its first colon, and the text with that
    phrase (and the colon) blanked out, so positions in it are positions in ``text``.

    A phrase is flavour when it is a few words with no number and no word of a banner
    or a clause (:data:`_READ_BEFORE_COLON`); otherwise the flavour is empty and the
    text comes back unchanged.

    >>> split_flavour("Winter storms: Place two Tories in Boston.")
    ('Winter storms', '               Place two Tories in Boston.')
    >>> split_flavour("British CAPABILITY: Garrison costs nothing.")[0]
    ''
    """
    phrase, colon, rest = text.partition(":")
    words = [word.lower() for word in _WORD.findall(phrase)]
    if (
        not colon
        or not rest.strip()
        or not words
        or len(words) > _FLAVOUR_WORDS
        or re.search(r"[\d.;+]", phrase)
        or any(word in _READ_BEFORE_COLON for word in words)
    ):
        return "", text
    blank = re.sub(r"[^\n]", " ", phrase + colon)
    return " ".join(phrase.split()), blank + rest
