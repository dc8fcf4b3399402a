"""The phrases inside event-text clauses: counts, amounts, pieces, locations, references
and conditions (event-language.md sections 4.1-4.5 and 4.8 C-6).

Every sentence is original, written for one phrase form inside a plain frame ("Place
... in ...", "Remove ... from ...", "<Track> +N", "If ..., ..."), with the effects it
means written by hand from the form's meaning; the form's id is the test id.
"""

from __future__ import annotations

from typing import Any

import pytest
from legalis.model.coin.effects import Side, side_from_toml, side_to_toml
from legalis.verify.lexicon import lexicon
from legalis.verify.text import ParseResult, parse_side

LOD_PIECES = ["british_regular", "tory", "british_fort", "continental", "militia",
              "patriot_fort", "french_regular", "war_party", "village"]  # fmt: skip
FITL_PIECES = ["us_troop", "irregular", "us_base", "arvn_troop", "police", "ranger",
               "arvn_base", "nva_troop", "nva_guerrilla", "nva_base", "vc_guerrilla",
               "vc_base"]  # fmt: skip
FORTS = ["british_fort", "patriot_fort"]
SPREAD = {"filter": {"is": "anywhere"}, "per_space": False}
TORIES_IN_GEORGIA = {"of": "pieces", "pieces": ["tory"],
                     "where": {"is": "named", "names": ["Georgia"]}}  # fmt: skip


def effects(*tables: dict[str, Any]) -> tuple[Any, ...]:
    """Hand-written effect tables, validated by the effect language itself."""
    return side_from_toml({"effects": list(tables)}).effects


def show(result: ParseResult) -> Any:
    return side_to_toml(Side(effects=result.effects)).get("effects"), result.diagnostics


def named(*names: str, **where: Any) -> dict[str, Any]:
    return {"filter": {"is": "named", "names": list(names)}, **where}


def all_of(*filters: dict[str, Any], **where: Any) -> dict[str, Any]:
    return {"filter": {"is": "all", "filters": list(filters)}, **where}


def kind(*types: str) -> dict[str, Any]:
    return {"is": "type", "types": list(types)}


def has(*pieces: str, **fields: Any) -> dict[str, Any]:
    return {"is": "pieces", "pieces": list(pieces), **fields}


def place(pieces: list[str], where: dict[str, Any], count: Any = 1, **rest: Any) -> dict[str, Any]:
    return {"op": "place", "pieces": pieces, "count": count, "where": where, **rest}


def remove(pieces: list[str], where: dict[str, Any], count: Any = 1, **rest: Any) -> dict[str, Any]:
    return {"op": "remove", "pieces": pieces, "count": count, "where": where, **rest}


# (form id, game, text, effects)
PHRASES: list[tuple[str, str, str, tuple[Any, ...]]] = [
    # ------------------------------------------------------------ 4.1 quantifiers
    # Q-1..Q-3 already parsed; these add a space the map knows by another name (L-26)
    ("Q-1", "fitl", "Remove 3 VC Guerrillas from Pleiku.", effects(
        remove(["vc_guerrilla"], named("Pleiku-Darlac"), 3))),
    ("Q-2", "lod", "Remove four Continentals from GA.", effects(
        remove(["continental"], named("Georgia"), 4))),
    ("Q-3", "lod", "Place up to three Militia in Rhode Island.", effects(
        place(["militia"], named("Connecticut-Rhode Island"), {"n": 3, "up_to": True}))),
    # any N: exactly N, of the chooser's pick
    ("Q-4", "lod", "Remove any three Tories from Norfolk.", effects(
        remove(["tory"], named("Norfolk"), 3))),
    ("Q-4", "fitl", "Remove any 2 NVA Troops from Kontum.", effects(
        remove(["nva_troop"], named("Kontum"), 2))),
    # all: every matching piece
    ("Q-5", "lod", "Remove all Tories from Norfolk.", effects(
        remove(["tory"], named("Norfolk"), {"all": True}))),
    ("Q-5", "fitl", "Remove all VC Guerrillas from Binh Dinh.", effects(
        remove(["vc_guerrilla"], named("Binh Dinh"), {"all": True}))),
    # any (no number): as many as the chooser likes
    ("Q-6", "lod", "Remove any Tories from Savannah.", effects(
        remove(["tory"], named("Savannah"), {"all": True, "up_to": True}))),
    # a/an: one
    ("Q-7", "lod", "Place a Tory in Boston.", effects(place(["tory"], named("Boston")))),
    ("Q-7", "fitl", "Place an NVA Base in Kontum.", effects(place(["nva_base"], named("Kontum")))),
    # a total of N: N altogether over the spaces
    ("Q-8", "lod", "Place a total of four Tories in Georgia and South Carolina.", effects(
        place(["tory"], named("Georgia", "South Carolina", per_space=False), 4))),
    # both: each of the two
    ("Q-11", "lod", "Place one Fort in both Boston and Norfolk.", effects(
        place(FORTS, named("Boston", "Norfolk")))),
    ("Q-11", "lod", "Remove two Tories from a Colony with both Militia and Continentals.", effects(
        remove(["tory"], all_of(kind("Colony"), has("militia"), has("continental"), spaces=1),
               2))),
    # ranges: at least the first, at most the second
    ("Q-12", "fitl", "Remove 2-5 ARVN pieces from Kontum.", effects(
        remove(["arvn_troop", "police", "ranger", "arvn_base"], named("Kontum"),
               {"n": 5, "up_to": True, "at_least": 2}))),
    ("Q-12", "fitl", "Place 1 VC Guerrilla in 2 or 3 Provinces.", effects(
        place(["vc_guerrilla"], {"filter": kind("Province"), "spaces": 3, "up_to": True}))),
    # bounds
    ("Q-13", "lod", "Remove at most three Tories from Boston.", effects(
        remove(["tory"], named("Boston"), {"n": 3, "up_to": True}))),
    ("Q-13", "lod", "Remove at least two Militia from Virginia.", effects(
        remove(["militia"], named("Virginia"), {"all": True, "up_to": True, "at_least": 2}))),
    # partitive of the acting Faction's pieces
    ("Q-14", "fitl", "VC removes 3 of its Guerrillas from Kontum.", effects(
        remove(["vc_guerrilla"], named("Kontum"), 3, chooser="vc"))),
    ("Q-14", "lod", "Remove two of the executing Faction's pieces from Boston.", effects(
        remove(LOD_PIECES, named("Boston"), 2, relative="own"))),
    # ------------------------------------------------------------ 4.2 arithmetic
    # a die roll: rolled first, its result is the count
    ("A-1", "fitl", "Remove a die roll of NVA Troops from Kontum.", effects(
        {"op": "roll", "bind": "r1"},
        remove(["nva_troop"], named("Kontum"),
               {"amount": {"quantity": {"of": "bound", "name": "r1"}}}))),
    # per / for every
    ("A-2", "lod", "British Resources +2 per City with British Control.", effects(
        {"op": "adjust", "track": "british_resources", "amount": {"times": 2, "quantity": {
            "of": "spaces", "filter": {"is": "all", "filters": [
                kind("City"), {"is": "control", "control": "british"}]}}}})),
    ("A-2", "lod", "Indian Resources +1 for every three Villages on the map.", effects(
        {"op": "adjust", "track": "indians_resources",
         "amount": {"per": 3, "quantity": {"of": "pieces", "pieces": ["village"]}}})),
    ("A-2", "fitl", "Aid -1 for each US Troop in Casualties.", effects(
        {"op": "adjust", "track": "aid", "delta": -1, "amount": {"quantity": {
            "of": "pieces", "pieces": ["us_troop"], "box": "casualties"}}})),
    ("A-2", "fitl", "Patronage -1 per Terror marker in South Vietnam.", effects(
        {"op": "adjust", "track": "patronage", "delta": -1, "amount": {"quantity": {
            "of": "markers", "marker": "terror",
            "where": {"is": "country", "countries": ["South Vietnam"]}}}})),
    # half of the pieces there
    ("A-3", "lod", "Remove half the Tories from Georgia.", effects(
        remove(["tory"], named("Georgia"), {"amount": {"per": 2, "quantity": TORIES_IN_GEORGIA}}))),
    ("A-3", "lod", "Remove two in five Militia from Virginia.", effects(
        remove(["militia"], named("Virginia"), {"amount": {"times": 2, "per": 5, "quantity": {
            "of": "pieces", "pieces": ["militia"],
            "where": {"is": "named", "names": ["Virginia"]}}}}))),
    ("A-4", "fitl", "Add double the Econ value to Aid.", effects(
        {"op": "adjust", "track": "aid",
         "amount": {"times": 2, "quantity": {"of": "track", "track": "econ"}}})),
    # N times a track, the population of spaces
    ("A-4", "fitl", "Add 4 times Trail value to VC Resources.", effects(
        {"op": "adjust", "track": "vc_resources",
         "amount": {"times": 4, "quantity": {"of": "track", "track": "trail"}}})),
    ("A-4", "lod", "Add the population of Cities with Tories to British Resources.", effects(
        {"op": "adjust", "track": "british_resources", "amount": {"quantity": {
            "of": "population", "filter": {"is": "all", "filters": [
                kind("City"), has("tory")]}}}})),
    # rounding
    ("A-5", "lod", "Indian Resources +1 for every two Villages on the map, rounding up.", effects(
        {"op": "adjust", "track": "indians_resources", "amount": {
            "per": 2, "round": "up", "quantity": {"of": "pieces", "pieces": ["village"]}}})),
    ("A-5", "lod", "Remove half the Tories from Georgia, rounding up.", effects(
        remove(["tory"], named("Georgia"), {"amount": {"per": 2, "round": "up",
                                                       "quantity": TORIES_IN_GEORGIA}}))),
    # ------------------------------------------------------------ 4.3 piece phrases
    ("P-1", "lod", "Remove two Indian Villages from Quebec.", effects(
        remove(["village"], named("Quebec"), 2))),
    ("P-1", "lod", "Place three Patriot Militia in Georgia.", effects(
        place(["militia"], named("Georgia"), 3))),
    ("P-1", "fitl", "Remove 2 COIN Bases from Kontum.", effects(
        remove(["us_base", "arvn_base"], named("Kontum"), 2))),
    # generic nouns: LoD cubes are Regulars, Tories and Continentals (LoD 1.4)
    ("P-2", "lod", "Remove two cubes from Boston.", effects(
        remove(["british_regular", "tory", "continental", "french_regular"], named("Boston"), 2))),
    ("P-2", "fitl", "Remove 2 Insurgents from Kontum.", effects(
        remove(["nva_troop", "nva_guerrilla", "nva_base", "vc_guerrilla", "vc_base"],
               named("Kontum"), 2))),
    ("P-2", "fitl", "Remove 3 US forces from Hue.", effects(
        remove(["us_troop", "irregular"], named("Hue"), 3))),
    # a Faction alone: all its pieces
    ("P-3", "fitl", "Remove 2 NVA from Kontum.", effects(
        remove(["nva_troop", "nva_guerrilla", "nva_base"], named("Kontum"), 2))),
    # status adjectives
    ("P-4", "lod", "Place two Active War Parties in Quebec.", effects(
        place(["war_party"], named("Quebec"), 2, status="active"))),
    ("P-4", "fitl", "Remove 2 non-Base VC pieces from Kontum.", effects(
        remove(["vc_guerrilla"], named("Kontum"), 2))),
    ("P-5", "fitl", "Place 2 US Troop Casualties in Saigon.", effects(
        place(["us_troop"], named("Saigon"), 2, source="casualties"))),
    # a box as adjective: the pieces come from that box
    ("P-5", "fitl", "Place 3 out-of-play ARVN Troops in Kontum.", effects(
        place(["arvn_troop"], named("Kontum"), 3, source="out_of_play"))),
    # relative Factions
    ("P-6", "lod", "Place two friendly Forts in Boston.", effects(
        place(FORTS, named("Boston"), 2, relative="friendly"))),
    ("P-6", "fitl", "Remove 2 enemy pieces from Kontum.", effects(
        remove(FITL_PIECES, named("Kontum"), 2, relative="enemy"))),
    ("P-6", "fitl", "US removes 2 enemy pieces from Kontum.", effects(
        remove(["nva_troop", "nva_guerrilla", "nva_base", "vc_guerrilla", "vc_base"],
               named("Kontum"), 2, chooser="us"))),
    ("P-7", "lod", "Remove two Tories or Forts from MA.", effects(
        remove(["tory", *FORTS], named("Massachusetts"), 2))),
    ("P-8", "lod", "Remove three Militia and/or Forts from Boston.", effects(
        remove(["militia", *FORTS], named("Boston"), 3))),
    # a noun shared by two Factions
    ("P-11", "fitl", "Remove 2 COIN or NVA Bases from Kontum.", effects(
        remove(["us_base", "arvn_base", "nva_base"], named("Kontum"), 2))),
    # order notes and inline limits
    ("P-12", "lod", "Remove four British pieces (Forts last) from Boston.", effects(
        remove(["british_regular", "tory", "british_fort"], named("Boston"), 4,
               last=["british_fort"]))),
    ("P-12", "fitl", "Remove 3 Insurgent pieces (VC first) from Kontum.", effects(
        remove(["nva_troop", "nva_guerrilla", "nva_base", "vc_guerrilla", "vc_base"],
               named("Kontum"), 3, last=["nva_troop", "nva_guerrilla", "nva_base"]))),
    ("P-14", "fitl", "Place 4 VC pieces (no more than 1 VC Base) in Kontum.", effects(
        place(["vc_guerrilla", "vc_base"], named("Kontum"), 4,
              limits=[{"pieces": ["vc_base"], "at_most": 1}]))),
    ("P-14", "fitl", "Place 4 VC pieces in Kontum, to a maximum of 1 VC Base.", effects(
        place(["vc_guerrilla", "vc_base"], named("Kontum"), 4,
              limits=[{"pieces": ["vc_base"], "at_most": 1}]))),
    ("P-14", "fitl", "Place 4 VC pieces in Kontum, 1 of the pieces may be a Base.", effects(
        place(["vc_guerrilla", "vc_base"], named("Kontum"), 4,
              limits=[{"pieces": ["vc_base"], "at_most": 1}]))),
    ("P-17", "fitl", "Remove 1 VC Base (even if Tunneled) from Kontum.", effects(
        remove(["vc_base"], named("Kontum"), tunneled=True))),
    # ------------------------------------------------------------ 4.4 locations
    ("L-2", "lod", "Place two Tories in Norfolk or Savannah.", effects(
        place(["tory"], named("Norfolk", "Savannah", spaces=1), 2))),
    ("L-2", "lod", "Remove one Militia from Virginia, Georgia or Maryland-Delaware.", effects(
        remove(["militia"], named("Virginia", "Georgia", "Maryland-Delaware", spaces=1)))),
    ("L-3", "lod", "Place two Tories in either Norfolk or Savannah.", effects(
        place(["tory"], named("Norfolk", "Savannah", spaces=1), 2))),
    ("L-4", "lod", "Place one Tory in Boston and Norfolk.", effects(
        place(["tory"], named("Boston", "Norfolk")))),
    ("L-4", "fitl", "Remove 1 VC Base from Hue, Kontum, and Da Nang.", effects(
        remove(["vc_base"], named("Hue", "Kontum", "Da Nang")))),
    ("L-6", "lod", "Remove two Militia from one Colony with Indian Villages.", effects(
        remove(["militia"], all_of(kind("Colony"), has("village"), spaces=1), 2))),
    ("L-7", "lod", "Place two Tories in any one Colony.", effects(
        place(["tory"], {"filter": kind("Colony"), "spaces": 1}, 2))),
    ("L-8", "lod", "Place three Tories in any Colonies.", effects(
        place(["tory"], {"filter": kind("Colony"), "per_space": False}, 3))),
    ("L-9", "lod", "Remove one Village from an Indian Reserve with War Parties.", effects(
        remove(["village"], all_of(kind("Reserve"), has("war_party"), spaces=1)))),
    ("L-10", "lod", "Place one Militia in each of any two Cities.", effects(
        place(["militia"], {"filter": kind("City"), "spaces": 2}))),
    ("L-11", "lod", "Remove one Militia from each Colony with Indian War Parties.", effects(
        remove(["militia"], all_of(kind("Colony"), has("war_party"))))),
    ("L-12", "lod", "Place five Tories anywhere.", effects(place(["tory"], SPREAD, 5))),
    ("L-12", "fitl", "Place 2 ARVN Troops anywhere in Laos.", effects(
        place(["arvn_troop"], {"filter": {"is": "country", "countries": ["Laos"]},
                               "per_space": False}, 2))),
    ("L-13", "lod", "Place three Continentals onto the map.", effects(
        place(["continental"], SPREAD, 3))),
    ("L-13", "lod", "Remove five Tories from map to Casualties.", effects(
        remove(["tory"], SPREAD, 5, destination="casualties"))),
    ("L-14", "fitl", "Place 3 ARVN Police in Laos.", effects(
        place(["police"], {"filter": {"is": "country", "countries": ["Laos"]},
                           "per_space": False}, 3))),
    ("L-14", "fitl", "Place 1 VC Guerrilla in each Cambodia space.", effects(
        place(["vc_guerrilla"], {"filter": {"is": "country", "countries": ["Cambodia"]}}))),
    ("L-14", "fitl", "Place 2 NVA Troops in the South.", effects(
        place(["nva_troop"], {"filter": {"is": "country", "countries": ["South Vietnam"]},
                              "per_space": False}, 2))),
    ("L-15", "fitl", "Place 3 NVA Troops outside Laos.", effects(
        place(["nva_troop"], {"filter": {"is": "not", "filter": {
            "is": "country", "countries": ["Laos"]}}, "per_space": False}, 3))),
    ("L-16", "fitl", "Remove 2 VC Guerrillas from a Province within 2 spaces of Hue.", effects(
        remove(["vc_guerrilla"], all_of(kind("Province"), {
            "is": "adjacent", "filter": {"is": "named", "names": ["Hue"]}, "distance": 2,
            "include_self": True}, spaces=1), 2))),
    ("L-17", "lod", "Place two War Parties in one space in or adjacent to Quebec.", effects(
        place(["war_party"], {"filter": {"is": "adjacent", "filter": {
            "is": "named", "names": ["Quebec"]}, "include_self": True}, "spaces": 1}, 2))),
    ("L-18", "lod", "Remove two Tories from one Colony with Active Militia.", effects(
        remove(["tory"], all_of(kind("Colony"), has("militia", status="active"), spaces=1), 2))),
    ("L-19", "lod", "Place two Tories in a Colony with Patriots.", effects(
        place(["tory"], all_of(kind("Colony"), has("continental", "militia", "patriot_fort"),
                               spaces=1), 2))),
    ("L-19", "fitl", "Remove 2 ARVN Police from a Province with NVA.", effects(
        remove(["police"], all_of(kind("Province"), has("nva_troop", "nva_guerrilla",
                                                        "nva_base"), spaces=1), 2))),
    ("L-20", "lod", "Place two Tories in each of two British Controlled Colonies.", effects(
        place(["tory"], all_of(kind("Colony"), {"is": "control", "control": "british"},
                               spaces=2), 2))),
    ("L-20", "fitl", "Place 2 ARVN Troops in 1 COIN-Controlled Province.", effects(
        place(["arvn_troop"], all_of(kind("Province"), {"is": "control", "control": "coin"},
                                     spaces=1), 2))),
    ("L-21", "lod", "Place one Fort in one Colony without British Control.", effects(
        place(FORTS, all_of(kind("Colony"), {"is": "not", "filter": {
            "is": "control", "control": "british"}}, spaces=1)))),
    ("L-22", "fitl", "Place 3 NVA Guerrillas in each Passive Support City.", effects(
        place(["nva_guerrilla"], all_of(kind("City"), {
            "is": "support", "levels": ["passive_support"]}), 3))),
    ("L-23", "fitl", "Remove 1 VC Base from a Province with 3+ ARVN Troops.", effects(
        remove(["vc_base"], all_of(kind("Province"), has("arvn_troop", value=3), spaces=1)))),
    ("L-23", "fitl", "Remove 1 VC Base from a Province with at least 2 US Troops.", effects(
        remove(["vc_base"], all_of(kind("Province"), has("us_troop", value=2), spaces=1)))),
    ("L-23", "fitl", "Remove 1 VC Base from a space with 2 or more Terror markers.", effects(
        remove(["vc_base"], {"filter": {"is": "markers", "marker": "terror", "value": 2},
                             "spaces": 1}))),
    # "where you have N": at least N there
    ("L-23", "fitl", "Place 1 VC Base in 1 Province where you have 2 VC Guerrillas.", effects(
        place(["vc_base"], all_of(kind("Province"), has("vc_guerrilla", value=2), spaces=1)))),
    ("L-24", "fitl", "Place 2 VC Guerrillas in a Jungle.", effects(
        place(["vc_guerrilla"], {"filter": {"is": "terrain", "terrains": ["Jungle"]},
                                 "spaces": 1}, 2))),
    ("L-24", "fitl", "Place 2 NVA Troops in a non-Jungle Province.", effects(
        place(["nva_troop"], all_of(kind("Province"), {"is": "not", "filter": {
            "is": "terrain", "terrains": ["Jungle"]}}, spaces=1), 2))),
    ("L-25", "lod", "Place one Fort in a Colony where you have a Village.", effects(
        place(FORTS, all_of(kind("Colony"), has("village"), spaces=1)))),
    ("L-26", "lod", "Place one Tory in MD.", effects(place(["tory"], named("Maryland-Delaware")))),
    ("L-26", "fitl", "Place 2 VC Guerrillas in Fishhook.", effects(
        place(["vc_guerrilla"], named("The Fishhook"), 2))),
    ("L-27", "lod", "Remove five Tories from one Indian Reserve Province.", effects(
        remove(["tory"], {"filter": kind("Reserve"), "spaces": 1}, 5))),
    ("L-27", "lod", "Place one War Party in each Indian Reserve Province.", effects(
        place(["war_party"], {"filter": kind("Reserve")}))),
    # ------------------------------------------------------------ 4.5 references back
    ("R-1", "lod", "Place two Tories in one City. Place one Fort there.", effects(
        place(["tory"], {"filter": kind("City"), "spaces": 1, "bind": "s1"}, 2),
        place(FORTS, {"filter": {"is": "bound", "name": "s1"}}))),
    ("R-2", "lod", "Remove one Militia from each of two Colonies. Place one Tory in each.",
     effects(remove(["militia"], {"filter": kind("Colony"), "spaces": 2, "bind": "s1"}),
             place(["tory"], {"filter": {"is": "bound", "name": "s1"}}))),
    ("R-3", "lod", "Remove one Fort from one Colony. Place two Militia in that space.", effects(
        remove(FORTS, {"filter": kind("Colony"), "spaces": 1, "bind": "s1"}),
        place(["militia"], {"filter": {"is": "bound", "name": "s1"}}, 2))),
    ("R-4", "fitl", "Remove 1 VC Base from a Province with ARVN Troops. Place 2 ARVN Police in it.",
     effects(remove(["vc_base"], all_of(kind("Province"), has("arvn_troop"), spaces=1,
                                        bind="s1")),
             place(["police"], {"filter": {"is": "bound", "name": "s1"}}, 2))),
    ("R-5", "lod", "Remove one Militia from three Colonies. Place one Fort in one of those spaces.",
     effects(remove(["militia"], {"filter": kind("Colony"), "spaces": 3, "bind": "s1"}),
             place(FORTS, {"filter": {"is": "bound", "name": "s1"}, "spaces": 1}))),
    ("R-5", "fitl", "Remove 1 VC Base from 3 Provinces. Place 1 ARVN Base in one.", effects(
        remove(["vc_base"], {"filter": kind("Province"), "spaces": 3, "bind": "s1"}),
        place(["arvn_base"], {"filter": {"is": "bound", "name": "s1"}, "spaces": 1}))),
    ("L-25", "lod", "Remove two Militia from one Colony. Place one Tory where the Militia were "
     "removed.", effects(
         remove(["militia"], {"filter": kind("Colony"), "spaces": 1, "bind": "s1"}, 2),
         place(["tory"], {"filter": {"is": "bound", "name": "s1"}}))),
    # ------------------------------------------------------------ 4.8 C-6 conditions
    ("C-6", "lod", "If Tories occupy Boston, remove two Militia from Boston.", effects(
        {"op": "if", "condition": {"if": "spaces", "filter": {"is": "all", "filters": [
            {"is": "named", "names": ["Boston"]}, has("tory")]}},
         "then": [remove(["militia"], named("Boston"), 2)]})),
    ("C-6", "lod", "If 3 or more Villages are on the map, Indian Resources +2.", effects(
        {"op": "if", "condition": {"if": "compare", "left": {"quantity": {
            "of": "pieces", "pieces": ["village"]}}, "compare": ">=", "right": 3},
         "then": [{"op": "adjust", "track": "indians_resources", "delta": 2}]})),
    ("C-6", "fitl", "If fewer than 4 US Bases are in Available, Aid +2.", effects(
        {"op": "if", "condition": {"if": "compare", "left": {"quantity": {
            "of": "pieces", "pieces": ["us_base"], "box": "available"}}, "compare": "<",
            "right": 4},
         "then": [{"op": "adjust", "track": "aid", "delta": 2}]})),
    ("C-6", "fitl", "If more VC Guerrillas than US Troops are in Hue, Aid -3.", effects(
        {"op": "if", "condition": {"if": "compare",
            "left": {"quantity": {"of": "pieces", "pieces": ["vc_guerrilla"],
                                  "where": {"is": "named", "names": ["Hue"]}}},
            "compare": ">",
            "right": {"quantity": {"of": "pieces", "pieces": ["us_troop"],
                                   "where": {"is": "named", "names": ["Hue"]}}}},
         "then": [{"op": "adjust", "track": "aid", "delta": -3}]})),
    ("C-6", "fitl", "If Aid exceeds Patronage, Patronage +2.", effects(
        {"op": "if", "condition": {"if": "compare",
            "left": {"quantity": {"of": "track", "track": "aid"}}, "compare": ">",
            "right": {"quantity": {"of": "track", "track": "patronage"}}},
         "then": [{"op": "adjust", "track": "patronage", "delta": 2}]})),
    ("C-6", "fitl", "If 2 or more cards are in the RVN Leader box, Aid +4.", effects(
        {"op": "if", "condition": {"if": "compare", "left": {"quantity": {
            "of": "cards", "list": "rvn_leaders"}}, "compare": ">=", "right": 2},
         "then": [{"op": "adjust", "track": "aid", "delta": 4}]})),
    ("C-6", "fitl", "If VC victory margin is 3 or more, VC Resources -2.", effects(
        {"op": "if", "condition": {"if": "compare", "left": {"quantity": {
            "of": "victory", "faction": "vc"}}, "compare": ">=", "right": 3},
         "then": [{"op": "adjust", "track": "vc_resources", "delta": -2}]})),
    ("C-6", "fitl", "If Hue is at Active Support, Patronage +1.", effects(
        {"op": "if", "condition": {"if": "spaces", "filter": {"is": "all", "filters": [
            {"is": "named", "names": ["Hue"]},
            {"is": "support", "levels": ["active_support"]}]}},
         "then": [{"op": "adjust", "track": "patronage", "delta": 1}]})),
    ("C-6", "fitl", "If 2 or more Cities have NVA Control, Patronage -3.", effects(
        {"op": "if", "condition": {"if": "spaces", "filter": {"is": "all", "filters": [
            kind("City"), {"is": "control", "control": "nva"}]}, "value": 2},
         "then": [{"op": "adjust", "track": "patronage", "delta": -3}]})),
    ("C-6", "fitl", "If Aid > 25, Patronage +1.", effects(
        {"op": "if", "condition": {"if": "track", "track": "aid", "compare": ">", "value": 25},
         "then": [{"op": "adjust", "track": "patronage", "delta": 1}]})),
    ("C-6", "fitl", "If Aid is 10-20, Patronage +1.", effects(
        {"op": "if", "condition": {"if": "all", "conditions": [
            {"if": "track", "track": "aid", "compare": ">=", "value": 10},
            {"if": "track", "track": "aid", "compare": "<=", "value": 20}]},
         "then": [{"op": "adjust", "track": "patronage", "delta": 1}]})),
]  # fmt: skip


@pytest.mark.parametrize(
    ("form", "game", "text", "expected"), PHRASES, ids=[f"{f}-{t}" for f, _, t, _ in PHRASES]
)
def test_every_phrase_form_reads_into_what_it_means(
    form: str, game: str, text: str, expected: tuple[Any, ...]
) -> None:
    result = parse_side(text, game, title="Phrase Card")
    assert result.diagnostics == [], (form, text)
    assert result.effects == expected, (form, show(result))


# ---------------------------------------------------------------------- action names


@pytest.mark.parametrize(
    ("text", "action", "kind"),
    [
        ("ARVN free Patrols in Kontum.", "patrol", "operation"),
        ("ARVN free Air Strikes in Kontum.", "air_strike", "special_activity"),
        ("ARVN free Marches in Kontum.", "march", "operation"),
    ],
)
def test_inflected_action_names_are_the_same_action(text: str, action: str, kind: str) -> None:
    # D-1: the lexicon knows the inflected forms of the actions
    result = parse_side(text, "fitl")
    assert result.diagnostics == []
    assert result.effects == effects(
        {"op": "free", "faction": "arvn", "action": action, "kind": kind,
         "where": {"filter": {"is": "named", "names": ["Kontum"]}}})  # fmt: skip


# ---------------------------------------------------------------------- boxes are never spaces


@pytest.mark.parametrize(
    ("game", "text", "expected"),
    [
        (
            "lod",
            "Move three Continentals from Unavailable to Available.",
            effects(
                {
                    "op": "transfer",
                    "pieces": ["continental"],
                    "count": 3,
                    "source": "unavailable",
                    "destination": "available",
                }
            ),
        ),
        (
            "fitl",
            "US moves 5 US Bases from Casualties to Available.",
            effects(
                {
                    "op": "transfer",
                    "pieces": ["us_base"],
                    "count": 5,
                    "chooser": "us",
                    "source": "casualties",
                    "destination": "available",
                }
            ),
        ),
    ],
)
def test_a_box_in_a_location_is_a_box_never_a_space(
    game: str, text: str, expected: tuple[Any, ...]
) -> None:
    # MV-2: a box name compiled to a `named` filter matched no space, silently
    result = parse_side(text, game, title="Phrase Card")
    assert result.diagnostics == []
    assert result.effects == expected, show(result)


def test_the_west_indies_stay_a_place_of_the_map() -> None:
    # LoD 1.4.2: the West Indies box holds pieces like a space; events place there
    result = parse_side("Place 2 British Regulars in the West Indies.", "lod")
    assert result.effects == effects(place(["british_regular"], named("West Indies"), 2))


# ---------------------------------------------------------------------- the lexicon


@pytest.mark.parametrize(
    ("game", "alias", "space"),
    [
        ("lod", "VA", "Virginia"),
        ("lod", "SC", "South Carolina"),
        ("lod", "Delaware", "Maryland-Delaware"),
        ("fitl", "Quang Ngai", "Quang Tin-Quang Ngai"),
        ("fitl", "Parrot's Beak", "The Parrot's Beak"),
    ],
)
def test_spaces_are_known_by_their_other_names(game: str, alias: str, space: str) -> None:
    assert lexicon(game).spaces[alias] == space
    assert alias in lexicon(game).vocabulary("SPACE")


def test_a_part_of_a_name_that_is_itself_a_space_is_no_alias() -> None:
    # "Quebec" is a space of its own, and a part of "Quebec City" only by chance
    assert lexicon("lod").spaces["Quebec"] == "Quebec"
    assert lexicon("fitl").spaces["Hue"] == "Hue"


def test_sides_name_their_factions_and_qualify_their_pieces() -> None:
    fitl = lexicon("fitl")
    assert fitl.groups["Insurgents"] == ("nva", "vc")
    assert fitl.pieces["COIN Troops"] == ("us_troop", "arvn_troop")
    assert lexicon("lod").pieces["Indian War Parties"] == ("war_party",)
    assert "Insurgents" in fitl.vocabulary("GROUP")


def test_a_typo_of_a_new_name_is_still_an_unknown_name() -> None:
    result = parse_side("Remove 2 Insurgnets from Hue.", "fitl")
    assert result.effects == ()
    assert "Insurgents" in result.diagnostics[0].message
