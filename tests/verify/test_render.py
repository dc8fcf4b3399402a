"""Effects rendered back to text read as the same effects: for effects drawn from each
game's own pieces, spaces, tracks, Factions, boxes and actions, ``parse_side`` of
``render_side`` gives back what was rendered (the round trip of the event language)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from legalis.model.coin import effects as fx
from legalis.model.coin.gamedata import load_game_data
from legalis.model.coin.mapdata import SPACE_TYPES, load_map
from legalis.model.errors import InputError
from legalis.verify.lexicon import lexicon
from legalis.verify.render import number, render_effect, render_side
from legalis.verify.text import parse_side

GAMES = ("lod", "fitl")


def words(game: str) -> dict[str, list[Any]]:
    """The ids and names the strategies draw from, from the game's data and map."""
    data = load_game_data(game)
    board = load_map(game)
    return {
        "pieces": [piece.id for piece in data.pieces],
        "spaces": sorted(space.name for space in board.spaces),
        "types": list(SPACE_TYPES[game]),
        "tracks": [track.id for track in data.tracks],
        "factions": [faction.id for faction in data.factions],
        # off-map boxes other than Available (LoD's West Indies is a box on the map,
        # read as a space)
        "boxes": [
            box.id for box in data.boxes if box.id != "available" and box.name not in board.boxes
        ],
        "actions": sorted(set(lexicon(game).actions.values())),  # (id, kind)
        "markers": [marker.id for marker in data.markers],
        "controls": sorted(set(lexicon(game).control.values())),
        "flags": [flag for flag, _ in data.flags],
        # a country that is also a space's name is read as the space
        "countries": sorted(
            {space.country for space in board.spaces if space.country}
            - {space.name for space in board.spaces}
        ),
        "terrains": sorted({space.terrain for space in board.spaces if space.terrain}),
        # each Faction's pieces, and the types among them (a piece of the group)
        "own": [lexicon(game).faction_pieces[faction.id] for faction in data.factions],
        # pieces one noun names across Factions ("Forts", "Troops", "pieces")
        "shared": sorted(
            {ids for ids in lexicon(game).pieces.values() if len(ids) > 1}
            - set(lexicon(game).faction_pieces.values())
        ),
        # pieces named together: by one noun ("Forts") or as a Faction's pieces
        "groups": sorted(
            {ids for ids in lexicon(game).pieces.values() if len(ids) > 1}
            | set(lexicon(game).faction_pieces.values())
        ),
    }


def effects(game: str) -> st.SearchStrategy[fx.Effect]:
    """One effect of a canonical sentence form, over ``game``'s names."""
    names = words(game)
    piece = st.sampled_from(names["pieces"]).map(lambda p: (p,))
    pieces = st.one_of(piece, st.sampled_from(names["groups"]))  # P-1, P-2, P-7
    faction = st.sampled_from(names["factions"])
    counts = st.builds(fx.Count, n=st.integers(1, 12), up_to=st.booleans())
    named = st.sampled_from(names["spaces"]).map(lambda s: fx.NamedSpaces(names=(s,)))
    several = st.lists(st.sampled_from(names["spaces"]), min_size=2, max_size=3, unique=True)
    kind = st.sampled_from(names["types"]).map(lambda t: fx.TypeIs(types=(t,)))
    restriction = st.one_of(
        piece.map(lambda p: fx.PiecesPresent(pieces=p)),
        piece.map(lambda p: fx.NoneOf(filter=fx.PiecesPresent(pieces=p))),
        st.sampled_from(names["controls"]).map(lambda c: fx.ControlIs(control=c)),
        named.map(lambda n: fx.AdjacentTo(filter=n)),
    )
    typed = st.one_of(kind, st.tuples(kind, restriction).map(lambda pair: fx.AllOf(filters=pair)))
    spaces = st.one_of(
        named.map(lambda f: fx.Where(filter=f)),
        # L-2, L-4: one of several named spaces, each of several
        several.map(lambda n: fx.Where(filter=fx.NamedSpaces(names=tuple(n)), spaces=1)),
        several.map(lambda n: fx.Where(filter=fx.NamedSpaces(names=tuple(n)))),
        st.builds(fx.Where, filter=typed, spaces=st.sampled_from([None, 1])),
        st.builds(fx.Where, filter=typed, spaces=st.integers(2, 5), up_to=st.booleans()),
    )
    chooser = st.one_of(st.none(), faction)
    # PL-2, Q-8: anywhere, or spread over named spaces, as a total
    totals = st.one_of(
        st.just(fx.Where(per_space=False)),
        several.map(lambda n: fx.Where(filter=fx.NamedSpaces(names=tuple(n)), per_space=False)),
    )
    track_change = st.builds(
        fx.Adjust, track=st.sampled_from(names["tracks"]), delta=st.integers(-9, 9).filter(bool)
    )
    forms = [
        # PL-1, RM-1, RP-1, MV-1, FL-1, FL-2: pieces in spaces
        st.builds(fx.Place, pieces=pieces, count=counts, where=spaces, chooser=chooser),
        st.builds(
            fx.Place,
            pieces=piece,
            count=counts,
            where=named.map(lambda f: fx.Where(filter=f)),
            source=st.sampled_from(names["boxes"]),
        ),
        st.builds(fx.Remove, pieces=pieces, count=counts, where=spaces, chooser=chooser),
        st.builds(
            fx.Place, pieces=piece, count=st.builds(fx.Count, n=st.integers(1, 9)), where=totals
        ),
        st.builds(
            fx.Remove, pieces=piece, count=st.builds(fx.Count, n=st.integers(1, 9)), where=totals
        ),
        st.builds(
            fx.Replace,
            pieces=piece,
            by=piece,
            count=st.builds(fx.Count, n=st.integers(1, 6)),
            where=spaces,
        ),
        st.builds(fx.MovePieces, pieces=piece, count=counts, where=spaces, to=spaces),
        st.builds(fx.Activate, pieces=piece, count=counts, where=spaces),
        st.builds(fx.GoUnderground, pieces=piece, count=counts, where=spaces),
        # MV-2: from box to box
        st.builds(
            fx.Transfer,
            pieces=piece,
            count=counts,
            source=st.sampled_from(names["boxes"]),
            destination=st.just("available"),
        ),
        # SP-1, SP-5: support
        st.builds(
            fx.Shift,
            levels=st.sampled_from([-4, -3, -2, -1, 1, 2, 3, 4]),
            where=spaces,
        ),
        st.builds(
            fx.SetSupport,
            level=st.sampled_from(["active_support", "neutral", "passive_opposition"]),
            where=spaces,
        ),
        # TR-1, TR-7: tracks; T-7: at the Reset Phase; A-2: per spaces, for every N pieces
        track_change,
        st.builds(
            fx.Adjust,
            track=st.sampled_from(names["tracks"]),
            delta=st.sampled_from([0, -1]),  # with an amount, delta is only its sign
            amount=st.one_of(
                st.builds(fx.Amount, quantity=st.builds(fx.OfSpaces, filter=typed)),
                st.builds(
                    fx.Amount,
                    quantity=st.builds(fx.OfPieces, pieces=piece),
                    per=st.integers(2, 5),
                ),
            ),
        ),
        track_change.map(lambda e: fx.AtPhase(phase="reset", effects=(e,))),
        st.builds(fx.SetTrack, track=st.sampled_from(names["tracks"]), value=st.integers(0, 9)),
        # EL-1, EL-3, EL-5: eligibility
        st.builds(
            fx.Eligibility,
            factions=faction.map(lambda f: (f,)),
            to=st.just("ineligible"),
            through_next_card=st.just(True),
        ),
        st.builds(
            fx.Eligibility,
            factions=st.one_of(faction, st.just("executing")).map(lambda f: (f,)),
            to=st.just("eligible"),
        ),
        st.builds(
            fx.Eligibility,
            factions=st.just(("all",)),
            to=st.sampled_from(["eligible", "ineligible"]),
        ),
        # MK-1: markers
        st.builds(
            fx.Marker,
            marker=st.sampled_from(names["markers"]),
            count=st.builds(fx.Count, n=st.integers(1, 4)),
            where=spaces,
        ),
        # FA-1: free actions
        st.builds(
            lambda faction, action, where: fx.FreeAction(
                faction=faction, action=action[0], kind=action[1], where=where
            ),
            st.one_of(faction, st.just("executing")),
            st.sampled_from(names["actions"]),
            st.one_of(st.none(), spaces),
        ),
        # C-1, C-2: conditions, with what is done if not
        st.builds(
            fx.When,
            otherwise=st.one_of(st.just(()), track_change.map(lambda effect: (effect,))),
            condition=st.one_of(
                st.builds(
                    fx.TrackCompare,
                    track=st.sampled_from(names["tracks"]),
                    compare=st.sampled_from([">=", "<=", ">", "<"]),
                    value=st.integers(0, 9),
                ),
                *[st.just(fx.FlagSet(flag=flag)) for flag in names["flags"]],
            ),
            then=track_change.map(lambda effect: (effect,)),
        ),
    ]
    forms.extend(new_forms(game, names, piece, pieces, named, counts, track_change))
    if game == "lod":  # PR-1: the Desertion of LoD 6.6 out of turn; PR-4: Loss Level
        forms.append(
            st.builds(fx.Procedure, name=st.just("desertion"), factions=faction.map(lambda f: (f,)))
        )
        forms.append(
            st.builds(
                fx.BattleModifier,
                role=st.sampled_from(["attacker", "defender"]),
                loss_level=st.integers(-3, 3).filter(bool),
            )
        )
    # H-1: a choice between two effects
    forms.append(
        st.lists(st.one_of(track_change, *forms[:2]), min_size=2, max_size=2).map(
            lambda pair: fx.Choose(options=tuple((effect,) for effect in pair))
        )
    )
    return st.one_of(*forms)


# L-22: "Passive or Active Opposition" shares its pole word; one level alone
_LEVEL_PAIRS: list[tuple[fx.SupportLevel, ...]] = [
    ("passive_opposition", "active_opposition"),
    ("active_support",),
]


def new_forms(
    game: str,
    names: dict[str, list[Any]],
    piece: st.SearchStrategy[tuple[str, ...]],
    pieces: st.SearchStrategy[tuple[str, ...]],
    named: st.SearchStrategy[fx.NamedSpaces],
    counts: st.SearchStrategy[fx.Count],
    track_change: st.SearchStrategy[fx.Adjust],
) -> list[st.SearchStrategy[fx.Effect]]:
    """The forms of the grown language: relative pieces, order and limit notes,
    ranged and computed counts, space adjectives and countries, free-action
    modifiers, comparisons and the executing Faction."""
    faction = st.sampled_from(names["factions"])
    in_named = named.map(lambda f: fx.Where(filter=f))
    own = st.sampled_from(names["own"])
    kind = st.sampled_from(names["types"]).map(lambda t: fx.TypeIs(types=(t,)))
    adjectives: list[st.SearchStrategy[fx.Filter]] = [
        st.sampled_from(_LEVEL_PAIRS).map(lambda levels: fx.SupportIs(levels=levels)),
        named.map(lambda n: fx.AdjacentTo(filter=n, distance=2, include_self=True)),  # L-16
    ]
    if game == "fitl":  # L-14, L-15, L-24: countries and terrain
        country = st.sampled_from(names["countries"]).map(lambda c: fx.CountryIs(countries=(c,)))
        adjectives += [
            country,
            country.map(lambda c: fx.NoneOf(filter=c)),
            st.sampled_from(names["terrains"]).map(lambda t: fx.TerrainIs(terrains=(t,))),
        ]
    described = st.tuples(kind, st.one_of(*adjectives)).map(lambda p: fx.AllOf(filters=p))
    grown: list[st.SearchStrategy[fx.Effect]] = [
        # P-6: friendly and enemy pieces; Q-14: the executing Faction's
        st.builds(fx.Remove, pieces=st.sampled_from(names["shared"]), where=in_named,
                  count=st.builds(fx.Count, n=st.integers(2, 6)),
                  relative=st.sampled_from(["friendly", "enemy", "own"])),
        # P-12: an order note; P-14: a limit of one type among a Faction's pieces
        own.flatmap(lambda group: st.builds(
            fx.Remove, pieces=st.just(group), count=st.builds(fx.Count, n=st.integers(2, 6)),
            where=in_named, last=st.sampled_from(group).map(lambda p: (p,)))),
        own.flatmap(lambda group: st.builds(
            fx.Place, pieces=st.just(group), count=st.builds(fx.Count, n=st.integers(3, 6)),
            where=in_named, limits=st.sampled_from(group).map(
                lambda p: (fx.SubLimit(pieces=(p,), at_most=1),)))),
        # a range; A-3: half, or N in M, of the pieces there
        st.builds(fx.Place, pieces=piece, where=in_named, count=st.integers(1, 3).flatmap(
            lambda low: st.builds(fx.Count, n=st.integers(low + 1, 6), up_to=st.just(True),
                                  at_least=st.just(low)))),
        st.tuples(piece, named, st.sampled_from([(1, 2), (1, 3), (2, 5)])).map(
            lambda t: fx.Remove(pieces=t[0], where=fx.Where(filter=t[1]), count=fx.Count(
                amount=fx.Amount(quantity=fx.OfPieces(pieces=t[0], where=t[1]), times=t[2][0],
                                 per=t[2][1])))),
        # L-16, L-22, L-24, L-14, L-15: spaces described by adjectives and places
        st.builds(fx.Place, pieces=piece, count=counts,
                  where=st.builds(fx.Where, filter=described, spaces=st.just(1))),
        # D-2..D-4, FA-7: free actions with modifiers, and of the Faction's choice
        st.tuples(faction, faction, st.sampled_from(names["actions"]), named, named).map(
            lambda t: fx.FreeAction(faction=t[0], action=t[2][0], kind=t[2][1],
                                    origin=fx.Where(filter=t[3]), where=fx.Where(filter=t[4]))),
        st.tuples(faction, faction, st.sampled_from(names["actions"]), named).map(
            lambda t: fx.FreeAction(faction=t[0], action=t[2][0], kind=t[2][1], as_faction=t[1],
                                    where=fx.Where(filter=t[3]), times=2, no_activation=True)),
        st.builds(lambda who, n, limited: fx.FreeAction(
            faction=who, action="any", count=n, limited=limited,
            kind="operation" if game == "fitl" else "command"),
            st.one_of(faction, st.just("executing")), st.integers(1, 4), st.booleans()),
        # C-4: the executing Faction; C-6: pieces on the map compared with a number
        st.builds(fx.When, then=st.builds(fx.Adjust, track=st.sampled_from(names["tracks"]),
                                           delta=st.integers(1, 5)).map(lambda e: (e,)),
                  condition=st.one_of(
                      faction.map(lambda f: fx.ExecutingFaction(factions=(f,))),
                      st.builds(fx.QuantityCompare,
                                left=piece.map(lambda p: fx.Amount(quantity=fx.OfPieces(
                                    pieces=p))),
                                compare=st.sampled_from([">=", "<"]),
                                right=st.integers(1, 6)))),
        # C-3: "Unless" a track is at a level; C-5: a change "if desired"
        st.builds(lambda track, value, then: fx.When(
            condition=fx.NotTrue(condition=fx.TrackCompare(track=track, compare=">=", value=value)),
            then=(then,)), st.sampled_from(names["tracks"]), st.integers(0, 9), track_change),
        track_change.map(lambda effect: fx.Choose(options=((effect,), ()))),
        # TR-11: a track cut to a fraction of itself
        st.sampled_from(names["tracks"]).flatmap(lambda track: st.builds(
            fx.SetTrack, track=st.just(track), value=st.builds(
                fx.Amount, quantity=st.just(fx.OfTrack(track=track)), per=st.sampled_from([2, 3]),
                round=st.sampled_from(["down", "up"])))),
    ]  # fmt: skip
    fitl_only: list[st.SearchStrategy[fx.Effect]] = [
        # MK-2: Tunnel markers on Bases; P-17: Bases removed even if Tunneled
        st.builds(fx.Tunnel, pieces=st.sampled_from([("nva_base",), ("vc_base",)]),
                  count=counts, where=in_named),
        st.builds(fx.Remove, pieces=st.sampled_from([("nva_base",), ("vc_base",)]),
                  count=counts, where=in_named, tunneled=st.just(True)),
    ]  # fmt: skip
    lod_only: list[st.SearchStrategy[fx.Effect]] = [
        # PR-4: a Force Level modifier of the next Battle
        st.builds(fx.BattleModifier, role=st.sampled_from(["attacker", "defender"]),
                  force_level=st.integers(-2, 2).filter(bool)),
    ]  # fmt: skip
    return grown + (fitl_only if game == "fitl" else lod_only)


def picked_sides(game: str) -> st.SearchStrategy[list[fx.Effect]]:
    """SL-1, R-6: a Faction picked and acting as "That Faction"; A-1: a die roll
    counting the pieces of the next effect; LR-1, T-1: a Momentum banner and a rule."""
    names = words(game)
    every = tuple(names["factions"])
    picked = st.sampled_from([None, *every]).map(
        lambda out: fx.ChooseFaction(factions=tuple(f for f in every if f != out), bind="f1")
    )
    piece = st.sampled_from(names["pieces"]).map(lambda p: (p,))
    named = st.sampled_from(names["spaces"]).map(
        lambda s: fx.Where(filter=fx.NamedSpaces(names=(s,)))
    )
    acts = st.builds(
        fx.Remove,
        pieces=piece,
        where=named,
        chooser=st.just("$f1"),
        count=st.builds(fx.Count, n=st.integers(1, 4)),
    )
    rolled = fx.Count(amount=fx.Amount(quantity=fx.OfBound(name="r1")))
    roll = st.builds(fx.Remove, pieces=piece, where=named, count=st.just(rolled))
    ban = st.sampled_from(sorted({action for action, _ in names["actions"]}))
    return st.one_of(
        st.tuples(picked, acts).map(list),
        roll.map(lambda effect: [fx.Roll(bind="r1"), effect]),
        st.tuples(st.builds(fx.Adjust, track=st.sampled_from(names["tracks"]),
                            delta=st.integers(1, 3)), ban).map(
            lambda t: [t[0], fx.SetLasting(
                kind="momentum", name="Round Trip", duration="until_coup",
                rules=(fx.LastingRule(text=f"No {_printed_action(game, t[1])} until Coup",
                                      kind="ban", action=t[1], modelled=game == "lod"),))]),
    )  # fmt: skip


def _printed_action(game: str, action: str) -> str:
    return next(name for name, (key, _) in lexicon(game).actions.items() if key == action)


def bound_sides(game: str) -> st.SearchStrategy[list[fx.Effect]]:
    """SL-1 and R-1: spaces chosen once (by a selection, or by the first effect) and
    acted in again "there"; the reading names the binding ``s1``."""
    names = words(game)
    kind = st.sampled_from(names["types"]).map(lambda t: fx.TypeIs(types=(t,)))
    chosen = st.builds(fx.Where, filter=kind, spaces=st.integers(1, 3), bind=st.just("s1"))
    piece = st.sampled_from(names["pieces"]).map(lambda p: (p,))
    first = st.one_of(
        st.builds(fx.Select, where=chosen.map(lambda w: w.model_copy(update={"bind": None})),
                  bind=st.just("s1")),
        st.builds(fx.Place, pieces=piece, where=chosen),
        st.builds(fx.Remove, pieces=piece, where=chosen),
    )  # fmt: skip
    there = fx.Where(filter=fx.BoundSpaces(name="s1"))
    again = st.one_of(
        st.builds(fx.Place, pieces=piece, where=st.just(there)),
        st.builds(fx.Remove, pieces=piece, where=st.just(there)),
    )
    return st.tuples(first, again).map(list)


def read_back(text: str, game: str) -> tuple[fx.Effect, ...]:
    result = parse_side(text, game, title="Round Trip", side="unshaded")
    assert result.ok, (text, [d.message for d in result.diagnostics])
    return result.effects


@pytest.mark.parametrize("game", GAMES)
def test_rendered_effects_read_back_as_the_same_effects(game: str) -> None:
    @settings(max_examples=150, deadline=None)
    @given(
        st.one_of(
            st.lists(effects(game), min_size=1, max_size=3), bound_sides(game), picked_sides(game)
        )
    )
    def round_trip(side: list[fx.Effect]) -> None:
        text = render_side(side, game)
        assert read_back(text, game) == tuple(side), text

    round_trip()


def test_each_effect_has_one_sentence_in_the_projects_words() -> None:
    place = fx.Place(
        pieces=("militia",),
        count=fx.Count(n=2),
        where=fx.Where(filter=fx.TypeIs(types=("Colony",)), spaces=3, up_to=True),
    )
    # PL-1 with L-10: two Militia in each of up to three Colonies
    assert render_effect(place, "lod") == "Place two Militia in each of up to three Colonies."
    shift = fx.Shift(levels=-2, where=fx.Where(filter=fx.NamedSpaces(names=("Boston",))))
    # SP-1: a negative shift is toward Active Opposition
    assert render_effect(shift, "lod") == "Shift Boston two levels toward Active Opposition."
    assert (number(1), number(10), number(11)) == ("one", "ten", "11")


def test_effects_tied_by_a_binding_are_written_as_one_sentence() -> None:
    taken = fx.Adjust(track="aid", delta=-3, bind="n1")
    given = fx.Adjust(track="patronage", amount=fx.Amount(quantity=fx.OfBound(name="n1")))
    # TR-10: what one track loses the other gains
    assert render_side([taken, given], "fitl") == "Transfer 3 from Aid to Patronage."
    roll = fx.Roll(bind="r1")
    low = fx.QuantityCompare(left=fx.Amount(quantity=fx.OfBound(name="r1")), compare="<=", right=3)
    then = (fx.Adjust(track="aid", delta=-6),)
    # a range of the die just rolled
    side: list[fx.Effect] = [roll, fx.When(condition=low, then=then)]
    assert render_side(side, "fitl") == "On a die roll of 1-3, Aid -6."
    assert read_back(render_side(side, "fitl"), "fitl") == tuple(side)
    # a track lowered by a bound number nobody gains is no transfer
    with pytest.raises(InputError) as refused:
        render_side([taken], "fitl")
    assert refused.value.path == "effects[0].bind"


def test_an_effect_no_form_writes_is_refused_with_its_field() -> None:
    # A-4 writes a track's value or a multiple of it, never one with a sum added
    trail = fx.Amount(quantity=fx.OfTrack(track="trail"), plus=2)
    computed = fx.Adjust(track="aid", amount=trail)
    with pytest.raises(InputError) as refused:
        render_side([fx.Adjust(track="aid", delta=2), computed], "fitl")
    assert refused.value.path == "effects[1].amount"
