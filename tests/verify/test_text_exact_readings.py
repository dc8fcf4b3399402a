"""Sentence forms whose meaning needs a field of the effect language: each is read
from its (invented) sentence and then carried out, so the test checks both what the
parser writes and what the interpreter makes of it (rules section 5)."""

from __future__ import annotations

from typing import Any

from legalis.model.coin.deck import deck_from_toml
from legalis.model.coin.effects import Activate, Amount, Side, side_to_toml
from legalis.model.coin.interpret import Context, PieceChoice, Run, amount_value, resume, start
from legalis.model.coin.state import CoinState
from legalis.verify.coin_findings import check_deck
from legalis.verify.text import parse_side


def read(text: str, game: str, title: str = "Form Card") -> Side:
    result = parse_side(text, game, title=title, side="unshaded")
    assert result.diagnostics == [], text
    return Side(effects=result.effects)


def tables(side: Side) -> list[dict[str, Any]]:
    effects: list[dict[str, Any]] = side_to_toml(side)["effects"]
    return effects


def carry_out(state: CoinState, side: Side, faction: str) -> Run:
    return start(state, side, Context(faction, 1, "unshaded"))


def test_a_status_on_a_removal_takes_only_pieces_in_that_status() -> None:
    # P-4: "Underground" says which pieces are removed, not which spaces qualify.
    side = read("Remove 2 Underground VC Guerrillas from Kontum.", "fitl")
    assert tables(side) == [
        {"op": "remove", "pieces": ["vc_guerrilla"], "count": {"n": 2}, "taking": "underground",
         "where": {"filter": {"is": "named", "names": ["Kontum"]}}},
    ]  # fmt: skip
    state = CoinState.new("fitl")
    state.move_pieces("Available", "Kontum", "vc_guerrilla", 3)
    state.flip("Kontum", "vc_guerrilla", 2, "underground", "active")
    current = carry_out(state, side, "us")
    decision = current.decision
    assert isinstance(decision, PieceChoice)
    # 5.1.3: only the one Underground Guerrilla can be removed; the Active ones stay
    assert decision.room == ((1,),)
    done = resume(current, decision.selection([("Kontum", "vc_guerrilla", 1)]))
    assert done.state.pieces("Kontum", "vc_guerrilla", "underground") == 0
    assert done.state.pieces("Kontum", "vc_guerrilla", "active") == 2


def test_a_status_no_listed_piece_can_have_makes_the_removal_inert() -> None:
    # 5.1.3: Troops are never Underground, so the text can never remove any.
    side = read("Remove 2 Underground US Troops from Kontum.", "fitl")
    raw = {"game": "fitl", "card": [{"number": 3, "title": "Original", "factions":
           ["VC", "NVA", "US", "ARVN"], "unshaded": {"effects": tables(side)}}]}  # fmt: skip
    found = [(f.code, f.message) for f in check_deck(deck_from_toml(raw), "fitl")]
    assert any("Underground-capable us_troop" in message for _, message in found), found


def test_a_status_on_a_flip_is_what_is_flipped_in_any_chosen_space() -> None:
    # P-4 with FL-2: "Active War Parties ... go Underground" flips Active ones
    side = read("Up to 3 Active War Parties in one Reserve go Underground.", "lod")
    (effect,) = tables(side)
    assert effect["taking"] == "active"
    assert effect["where"] == {"filter": {"is": "type", "types": ["Reserve"]}, "spaces": 1}


def test_activate_until_half_are_active_counts_those_already_active() -> None:
    # FL-4: half of the War Parties, rounded up so that at least half end Active,
    # less those Active already; never below 0.
    side = read("Indians Activate their War Parties until half of them are Active.", "lod")
    (effect,) = tables(side)
    assert effect["count"] == {"amount": {
        "quantity": {"of": "pieces", "pieces": ["war_party"]}, "per": 2, "round": "up",
        "minus": {"of": "pieces", "pieces": ["war_party"], "status": "active"}}}  # fmt: skip
    state = CoinState.new("lod")
    state.move_pieces("Available", "Quebec", "war_party", 5)
    state.flip("Quebec", "war_party", 1, "underground", "active")
    (activate,) = side.effects
    assert isinstance(activate, Activate)
    amount = activate.count.amount
    assert isinstance(amount, Amount)
    assert amount_value(state, amount, Context("indians")) == 2  # 3 of 5 to be Active, 1 is
    current = carry_out(state, side, "indians")
    decision = current.decision
    assert isinstance(decision, PieceChoice) and decision.total == 2
    done = resume(current, decision.selection([("Quebec", "war_party", 2)]))
    assert done.state.pieces("Quebec", "war_party", "active") == 3
    state.flip("Quebec", "war_party", 3, "underground", "active")
    assert amount_value(state, amount, Context("indians")) == 0  # 4 Active: none to flip


def test_a_track_transfer_gives_only_what_the_source_lost() -> None:
    # TR-10 with 5.1.1: Aid at 1 can give only 1, so Patronage gains only 1.
    side = read("Transfer 3 from Aid to Patronage.", "fitl")
    assert tables(side) == [
        {"op": "adjust", "track": "aid", "delta": -3, "bind": "n1"},
        {"op": "adjust", "track": "patronage",
         "amount": {"quantity": {"of": "bound", "name": "n1"}}},
    ]  # fmt: skip
    state = CoinState.new("fitl")
    state.set_track("aid", 1)
    state.set_track("patronage", 10)
    done = carry_out(state, side, "arvn")
    assert done.finished
    assert (done.state.track("aid"), done.state.track("patronage")) == (0, 11)


def test_removing_per_space_names_the_pieces_and_is_kept_with_the_grant() -> None:
    # MD-1 with FitL 5.5: the rider changes the free Assault; the grant keeps it.
    side = read("ARVN free Assault in 3 Provinces, removing 4 Guerrillas per space.", "fitl")
    (effect,) = tables(side)
    assert (effect["remove_per_space"], effect["remove_pieces"]) == (
        4, ["nva_guerrilla", "vc_guerrilla"])  # fmt: skip
    done = carry_out(CoinState.new("fitl"), side, "us")
    (grant,) = done.state.free_actions
    assert grant["modifiers"]["remove_per_space"] == 4
    assert grant["modifiers"]["remove_pieces"] == ["nva_guerrilla", "vc_guerrilla"]


def test_an_allowed_card_is_named_in_its_rule() -> None:
    # LR-6: the rule names the card whose effect it allows, kept in force (FitL 5.3).
    text = "US CAPABILITY: Night Ferry Crossing allowed when Patronage > 15."
    side = read(text, "fitl", title="Harbour Ledger")
    (lasting,) = tables(side)
    (rule,) = lasting["rules"]
    assert (rule["kind"], rule["card"]) == ("allow", "Night Ferry Crossing")
    done = carry_out(CoinState.new("fitl"), side, "us")
    (kept,) = done.state.lasting_rules["Harbour Ledger"]["rules"]
    assert kept["card"] == "Night Ferry Crossing"
