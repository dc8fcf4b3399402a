"""The clause frames of event text, each read into the effects that do what it says.

One original sentence (or short side) per form of the sentence-form catalogue
(``event-language.md`` sections 3 and 4.5-4.11), with the effects written by hand
from the form's meaning; then whole sides that chain references, fronted
locations, "Then", choices and lasting wording, where later clauses must act on
the space, pieces or Faction an earlier one chose. No sentence is a published
card's.
"""

from __future__ import annotations

from typing import Any

import pytest
from legalis.model.coin.effects import Side, side_from_toml, side_to_toml
from legalis.verify.text import parse_side

Table = dict[str, Any]
ANY_TOTAL: Table = {"filter": {"is": "anywhere"}, "per_space": False}
FORT = ["british_fort", "patriot_fort"]  # "Fort": either Faction's (LoD 1.4)
CASUALTY_PIECES = ["us_troop", "irregular", "us_base"]  # what FitL's Casualties box holds


def named(*names: str) -> Table:
    return {"filter": {"is": "named", "names": list(names)}}


def typed(kind: str, spaces: int | None = None, *more: Table, **fields: Any) -> Table:
    filters = [{"is": "type", "types": [kind] if kind != "Province(LoD)" else
                ["Colony", "Reserve"]}, *more]  # fmt: skip
    where: Table = {
        "filter": filters[0] if len(filters) == 1 else {"is": "all", "filters": filters}
    }
    if spaces is not None:
        where["spaces"] = spaces
    where.update(fields)
    return where


def bound(name: str = "s1", **fields: Any) -> Table:
    return {"filter": {"is": "bound", "name": name}, **fields}


def holding(*pieces: str) -> Table:
    return {"is": "pieces", "pieces": list(pieces)}


def lasting(kind: str, duration: str, *rules: Table, **fields: Any) -> Table:
    table: Table = {"op": "lasting", "kind": kind, "name": "Test Card", "duration": duration,
                    "rules": list(rules), **fields}  # fmt: skip
    if kind == "capability":
        table["side"] = "unshaded"
    return table


# (form id, game, text, the effects it means)
FORMS: list[tuple[str, str, str, list[Table]]] = [
    # ------------------------------------------------------------ 3.1 placement
    (
        "PL-1",
        "lod",
        "Patriots place three Militia in New Hampshire. Then FNI -1.",
        [
            {
                "op": "place",
                "pieces": ["militia"],
                "count": 3,
                "chooser": "patriots",
                "where": named("New Hampshire"),
            },
            {"op": "adjust", "track": "fni", "delta": -1},
        ],
    ),
    (
        "PL-2",
        "fitl",
        "VC places 3 VC Guerrillas. Then Aid -1.",
        [
            {
                "op": "place",
                "pieces": ["vc_guerrilla"],
                "count": 3,
                "chooser": "vc",
                "where": ANY_TOTAL,
            },
            {"op": "adjust", "track": "aid", "delta": -1},
        ],
    ),
    (
        "PL-3",
        "lod",
        "French add two French Regulars to Savannah.",
        [
            {
                "op": "place",
                "pieces": ["french_regular"],
                "count": 2,
                "chooser": "french",
                "where": named("Savannah"),
            }
        ],
    ),
    # one placement or the other, the executor's pick
    (
        "PL-4",
        "fitl",
        "Place 3 VC Guerrillas in Quang Nam or 1 VC Base in Kien Phong.",
        [
            {
                "op": "choose",
                "options": [
                    [
                        {
                            "op": "place",
                            "pieces": ["vc_guerrilla"],
                            "count": 3,
                            "where": named("Quang Nam"),
                        }
                    ],
                    [{"op": "place", "pieces": ["vc_base"], "where": named("Kien Phong")}],
                ],
            }
        ],
    ),
    (
        "PL-5",
        "lod",
        "Place two Tories in New Jersey, one British Regular in Pennsylvania.",
        [
            {"op": "place", "pieces": ["tory"], "count": 2, "where": named("New Jersey")},
            {"op": "place", "pieces": ["british_regular"], "where": named("Pennsylvania")},
        ],
    ),
    # as many as are there already
    (
        "PL-6",
        "fitl",
        "Place enough NVA Troops in Quang Tri-Thua Thien to double their number.",
        [
            {
                "op": "place",
                "pieces": ["nva_troop"],
                "where": named("Quang Tri-Thua Thien"),
                "count": {
                    "amount": {
                        "quantity": {
                            "of": "pieces",
                            "pieces": ["nva_troop"],
                            "where": {"is": "named", "names": ["Quang Tri-Thua Thien"]},
                        }
                    }
                },
            }
        ],
    ),
    # ------------------------------------------------------------ 3.2 removal
    (
        "RM-1",
        "fitl",
        "Remove all ARVN Police from Can Tho to Available.",
        [
            {
                "op": "remove",
                "pieces": ["police"],
                "count": {"all": True},
                "destination": "available",
                "where": named("Can Tho"),
            }
        ],
    ),
    (
        "RM-2",
        "lod",
        "Remove three Militia on South Carolina.",
        [{"op": "remove", "pieces": ["militia"], "count": 3, "where": named("South Carolina")}],
    ),
    # each group to its own box, both from the one space written last
    (
        "RM-3",
        "lod",
        "Remove one Tory to Casualties and two War Parties to Available from Quebec.",
        [
            {
                "op": "remove",
                "pieces": ["tory"],
                "destination": "casualties",
                "where": named("Quebec"),
            },
            {
                "op": "remove",
                "pieces": ["war_party"],
                "count": 2,
                "destination": "available",
                "where": named("Quebec"),
            },
        ],
    ),
    (
        "RM-5",
        "fitl",
        "NVA takes 3 of its Guerrillas from the map to Available.",
        [
            {
                "op": "remove",
                "pieces": ["nva_guerrilla"],
                "count": 3,
                "chooser": "nva",
                "destination": "available",
                "where": ANY_TOTAL,
            }
        ],
    ),
    # ------------------------------------------------------------ 3.3 replacement
    (
        "RP-1",
        "fitl",
        "Replace 3 NVA Troops in Binh Dinh with 3 ARVN Troops from Casualties. Then Aid -1.",
        [
            {
                "op": "replace",
                "pieces": ["nva_troop"],
                "count": 3,
                "by": ["arvn_troop"],
                "source": "casualties",
                "where": named("Binh Dinh"),
            },
            {"op": "adjust", "track": "aid", "delta": -1},
        ],
    ),
    (
        "RP-2",
        "lod",
        "Indians replace two Tories with two War Parties in Quebec.",
        [
            {
                "op": "replace",
                "pieces": ["tory"],
                "count": 2,
                "by": ["war_party"],
                "chooser": "indians",
                "where": named("Quebec"),
            }
        ],
    ),
    # ------------------------------------------------------------ 3.4 movement
    (
        "MV-1",
        "fitl",
        "Move 4 US Troops from Hue to Da Nang. Then Aid +2.",
        [
            {
                "op": "move",
                "pieces": ["us_troop"],
                "count": 4,
                "where": named("Hue"),
                "to": named("Da Nang"),
            },
            {"op": "adjust", "track": "aid", "delta": 2},
        ],
    ),
    # a box at one end is never a space: box to box, box to map, map to box
    (
        "MV-2",
        "lod",
        "Move four Tories from Casualties to Available.",
        [
            {
                "op": "transfer",
                "pieces": ["tory"],
                "count": 4,
                "source": "casualties",
                "destination": "available",
            }
        ],
    ),
    (
        "MV-2",
        "lod",
        "Move two British Regulars from Philadelphia to Casualties.",
        [
            {
                "op": "remove",
                "pieces": ["british_regular"],
                "count": 2,
                "destination": "casualties",
                "where": named("Philadelphia"),
            }
        ],
    ),
    (
        "MV-2",
        "fitl",
        "Move 2 US Troops from out of play to Saigon.",
        [
            {
                "op": "place",
                "pieces": ["us_troop"],
                "count": 2,
                "source": "out_of_play",
                "where": named("Saigon"),
            }
        ],
    ),
    (
        "MV-3",
        "fitl",
        "VC moves 2 VC Guerrillas to Tay Ninh.",
        [
            {
                "op": "move",
                "pieces": ["vc_guerrilla"],
                "count": 2,
                "chooser": "vc",
                "where": ANY_TOTAL,
                "to": named("Tay Ninh"),
            }
        ],
    ),
    (
        "MV-4",
        "lod",
        "Patriots relocate up to two Continentals from Virginia to Norfolk.",
        [
            {
                "op": "move",
                "pieces": ["continental"],
                "count": {"n": 2, "up_to": True},
                "chooser": "patriots",
                "where": named("Virginia"),
                "to": named("Norfolk"),
            }
        ],
    ),
    (
        "MV-5",
        "fitl",
        "Redeploy all ARVN Troops in Saigon to Cities.",
        [
            {
                "op": "procedure",
                "name": "redeploy",
                "pieces": ["arvn_troop"],
                "where": named("Saigon"),
                "to": typed("City", None, per_space=False),
            }
        ],
    ),
    # any of them, to a space that near
    (
        "MV-6",
        "fitl",
        "NVA Troops in North Vietnam may move 1 space.",
        [
            {
                "op": "move",
                "pieces": ["nva_troop"],
                "count": {"all": True, "up_to": True},
                "where": named("North Vietnam"),
                "to": {
                    "filter": {
                        "is": "adjacent",
                        "filter": {"is": "named", "names": ["North Vietnam"]},
                    }
                },
            }
        ],
    ),
    # one placement per row, each under its condition
    (
        "MV-7",
        "fitl",
        "Move ARVN Rangers from Casualties to map: 3 if Aid is 15 or more; "
        "1 if Aid is less than 15.",
        [
            {
                "op": "if",
                "condition": {"if": "track", "track": "aid", "compare": ">=", "value": 15},
                "then": [
                    {
                        "op": "place",
                        "pieces": ["ranger"],
                        "count": 3,
                        "source": "casualties",
                        "where": ANY_TOTAL,
                    }
                ],
            },
            {
                "op": "if",
                "condition": {"if": "track", "track": "aid", "compare": "<", "value": 15},
                "then": [
                    {
                        "op": "place",
                        "pieces": ["ranger"],
                        "source": "casualties",
                        "where": ANY_TOTAL,
                    }
                ],
            },
        ],
    ),
    # ------------------------------------------------------------ 3.5 verbless transfers
    (
        "VB-1",
        "fitl",
        "3 US Troops from Available to Casualties.",
        [
            {
                "op": "transfer",
                "pieces": ["us_troop"],
                "count": 3,
                "source": "available",
                "destination": "casualties",
            }
        ],
    ),
    (
        "VB-2",
        "fitl",
        "2 Available US Irregulars out of play.",
        [
            {
                "op": "transfer",
                "pieces": ["irregular"],
                "count": 2,
                "source": "available",
                "destination": "out_of_play",
            }
        ],
    ),
    (
        "VB-3",
        "fitl",
        "3 out-of-play US Troops to Saigon.",
        [
            {
                "op": "place",
                "pieces": ["us_troop"],
                "count": 3,
                "source": "out_of_play",
                "where": named("Saigon"),
            }
        ],
    ),
    (
        "VB-4",
        "fitl",
        "2 ARVN Troops in Hue to Casualties.",
        [
            {
                "op": "remove",
                "pieces": ["arvn_troop"],
                "count": 2,
                "destination": "casualties",
                "where": named("Hue"),
            }
        ],
    ),
    # every piece the box holds
    (
        "VB-5",
        "fitl",
        "All Casualties out of play.",
        [
            {
                "op": "transfer",
                "pieces": CASUALTY_PIECES,
                "count": {"all": True},
                "source": "casualties",
                "destination": "out_of_play",
            }
        ],
    ),
    (
        "VB-6",
        "fitl",
        "All US Troops in Casualties go out of play.",
        [
            {
                "op": "transfer",
                "pieces": ["us_troop"],
                "count": {"all": True},
                "source": "casualties",
                "destination": "out_of_play",
            }
        ],
    ),
    # ------------------------------------------------------------ 3.6 flipping
    (
        "FL-1",
        "lod",
        "Activate one War Party in Florida. Then FNI -1.",
        [
            {"op": "activate", "pieces": ["war_party"], "where": named("Florida")},
            {"op": "adjust", "track": "fni", "delta": -1},
        ],
    ),
    (
        "FL-2",
        "fitl",
        "Flip 3 NVA Guerrillas Active in Central Laos. Then Trail -1.",
        [
            {
                "op": "activate",
                "pieces": ["nva_guerrilla"],
                "count": 3,
                "where": named("Central Laos"),
            },
            {"op": "adjust", "track": "trail", "delta": -1},
        ],
    ),
    (
        "FL-3",
        "fitl",
        "All VC Guerrillas in Saigon go Active.",
        [
            {
                "op": "activate",
                "pieces": ["vc_guerrilla"],
                "count": {"all": True},
                "where": named("Saigon"),
            }
        ],
    ),
    # half of those pieces, rounded up
    (
        "FL-4",
        "lod",
        "Patriots Activate their Militia in Virginia until half of them are Active.",
        [
            {
                "op": "activate",
                "pieces": ["militia"],
                "chooser": "patriots",
                "where": named("Virginia"),
                "count": {
                    "amount": {
                        "quantity": {
                            "of": "pieces",
                            "pieces": ["militia"],
                            "where": {"is": "named", "names": ["Virginia"]},
                        },
                        "per": 2,
                        "round": "up",
                        "minus": {  # those Active already
                            "of": "pieces",
                            "pieces": ["militia"],
                            "status": "active",
                            "where": {"is": "named", "names": ["Virginia"]},
                        },
                    }
                },
            }
        ],
    ),
    # ------------------------------------------------------------ 3.7 support
    (
        "SP-1",
        "lod",
        "Shift Quebec City two levels toward Active Support. Then FNI +1.",
        [
            {"op": "shift", "levels": 2, "where": named("Quebec City")},
            {"op": "adjust", "track": "fni", "delta": 1},
        ],
    ),
    # toward a level in between: stops there
    (
        "SP-2",
        "fitl",
        "Shift Hue 2 levels toward Neutral.",
        [{"op": "shift", "levels": 2, "toward": "neutral", "where": named("Hue")}],
    ),
    # no location: the space the sentence before chose
    (
        "SP-3",
        "lod",
        "Remove one Tory from one City. Shift two levels toward Active Opposition.",
        [
            {"op": "remove", "pieces": ["tory"], "where": typed("City", 1, bind="s1")},
            {"op": "shift", "levels": -2, "where": bound()},
        ],
    ),
    (
        "SP-4",
        "lod",
        "Shift Norfolk to Passive Opposition.",
        [{"op": "set_support", "level": "passive_opposition", "where": named("Norfolk")}],
    ),
    (
        "SP-5",
        "fitl",
        "Set Quang Nam to Active Opposition. Then Aid -1.",
        [
            {"op": "set_support", "level": "active_opposition", "where": named("Quang Nam")},
            {"op": "adjust", "track": "aid", "delta": -1},
        ],
    ),
    (
        "SP-6",
        "fitl",
        "1 Passive Support Province to Neutral.",
        [
            {
                "op": "set_support",
                "level": "neutral",
                "where": typed("Province", 1, {"is": "support", "levels": ["passive_support"]}),
            }
        ],
    ),
    (
        "SP-7",
        "fitl",
        "Remove Support from Saigon.",
        [
            {
                "op": "set_support",
                "level": "neutral",
                "where": {
                    "filter": {
                        "is": "all",
                        "filters": [
                            {"is": "named", "names": ["Saigon"]},
                            {"is": "support", "levels": ["active_support", "passive_support"]},
                        ],
                    }
                },
            }
        ],
    ),
    (
        "SP-8",
        "fitl",
        "Shift Kontum 1 level either direction.",
        [{"op": "shift", "levels": 1, "either": True, "where": named("Kontum")}],
    ),
    # the cap belongs to the procedure before it
    (
        "SP-9",
        "fitl",
        "US immediately Pacify as if Support Phase. Shift at most 3 levels per space.",
        [
            {
                "op": "procedure",
                "name": "support_phase",
                "factions": ["us"],
                "note": "Shift at most 3 levels per space",
            }
        ],
    ),
    # ------------------------------------------------------------ 3.8 tracks
    (
        "TR-1",
        "fitl",
        "NVA Resources +6. Then Trail -2.",
        [
            {"op": "adjust", "track": "nva_resources", "delta": 6},
            {"op": "adjust", "track": "trail", "delta": -2},
        ],
    ),
    ("TR-2", "fitl", "+4 NVA Resources.", [{"op": "adjust", "track": "nva_resources", "delta": 4}]),
    (
        "TR-3",
        "fitl",
        "Aid and ARVN Resources each +2.",
        [
            {"op": "adjust", "track": "aid", "delta": 2},
            {"op": "adjust", "track": "arvn_resources", "delta": 2},
        ],
    ),
    (
        "TR-4",
        "fitl",
        "Patronage +3 or -3.",
        [
            {
                "op": "choose",
                "options": [
                    [{"op": "adjust", "track": "patronage", "delta": 3}],
                    [{"op": "adjust", "track": "patronage", "delta": -3}],
                ],
            }
        ],
    ),
    (
        "TR-5",
        "lod",
        "British lose three Resources.",
        [{"op": "adjust", "track": "british_resources", "delta": -3}],
    ),
    (
        "TR-5",
        "fitl",
        "ARVN add 5 Resources.",
        [{"op": "adjust", "track": "arvn_resources", "delta": 5}],
    ),
    ("TR-6", "lod", "Raise FNI two levels.", [{"op": "adjust", "track": "fni", "delta": 2}]),
    (
        "TR-7",
        "lod",
        "French Resources to 4.",
        [{"op": "set_track", "track": "french_resources", "value": 4}],
    ),
    (
        "TR-8",
        "fitl",
        "Degrade the Trail 2 boxes.",
        [{"op": "adjust", "track": "trail", "delta": -2}],
    ),
    # raise only
    (
        "TR-9",
        "fitl",
        "Improve the Trail to 3.",
        [{"op": "set_track", "track": "trail", "value": 3, "mode": "at_least"}],
    ),
    (
        "TR-10",
        "fitl",
        "Transfer 4 from Patronage to Aid.",
        [
            {"op": "adjust", "track": "patronage", "delta": -4, "bind": "n1"},
            {"op": "adjust", "track": "aid", "amount": {"quantity": {"of": "bound", "name": "n1"}}},
        ],
    ),
    (
        "TR-11",
        "lod",
        "Cut Patriot Resources to half, rounding up.",
        [
            {
                "op": "set_track",
                "track": "patriots_resources",
                "value": {
                    "quantity": {"of": "track", "track": "patriots_resources"},
                    "per": 2,
                    "round": "up",
                },
            }
        ],
    ),
    # every non-empty set of the tracks, each up or down
    (
        "TR-12",
        "fitl",
        "Increase or decrease any or all of NVA Resources and Aid by 1 each.",
        [
            {
                "op": "choose",
                "options": [
                    [
                        {"op": "adjust", "track": "nva_resources", "delta": 1},
                        {"op": "adjust", "track": "aid", "delta": 1},
                    ],
                    [
                        {"op": "adjust", "track": "nva_resources", "delta": 1},
                        {"op": "adjust", "track": "aid", "delta": -1},
                    ],
                    [{"op": "adjust", "track": "nva_resources", "delta": 1}],
                    [
                        {"op": "adjust", "track": "nva_resources", "delta": -1},
                        {"op": "adjust", "track": "aid", "delta": 1},
                    ],
                    [
                        {"op": "adjust", "track": "nva_resources", "delta": -1},
                        {"op": "adjust", "track": "aid", "delta": -1},
                    ],
                    [{"op": "adjust", "track": "nva_resources", "delta": -1}],
                    [{"op": "adjust", "track": "aid", "delta": 1}],
                    [{"op": "adjust", "track": "aid", "delta": -1}],
                ],
            }
        ],
    ),
    # ------------------------------------------------------------ 3.9 free actions
    (
        "FA-1",
        "lod",
        "Patriots free Rally in Georgia, then free Partisans there.",
        [
            {"op": "free", "faction": "patriots", "action": "rally", "where": named("Georgia")},
            {
                "op": "free",
                "faction": "patriots",
                "action": "partisans",
                "kind": "special_activity",
                "where": named("Georgia"),
            },
        ],
    ),
    # a destination and an origin
    (
        "FA-2",
        "fitl",
        "NVA free March into Quang Tri-Thua Thien from Central Laos.",
        [
            {
                "op": "free",
                "faction": "nva",
                "action": "march",
                "kind": "operation",
                "where": named("Quang Tri-Thua Thien"),
                "origin": named("Central Laos"),
            }
        ],
    ),
    (
        "FA-3",
        "fitl",
        "US free Sweep 2 Provinces with VC Guerrillas.",
        [
            {
                "op": "free",
                "faction": "us",
                "action": "sweep",
                "kind": "operation",
                "where": typed("Province", 2, holding("vc_guerrilla")),
            }
        ],
    ),
    (
        "FA-4",
        "lod",
        "Indians may War Path in Florida.",
        [
            {
                "op": "free",
                "faction": "indians",
                "action": "war_path",
                "kind": "special_activity",
                "where": named("Florida"),
            }
        ],
    ),
    # no subject: whoever plays the card
    (
        "FA-5",
        "fitl",
        "Free Ambush in Tay Ninh.",
        [
            {
                "op": "free",
                "faction": "executing",
                "action": "ambush",
                "kind": "special_activity",
                "where": named("Tay Ninh"),
            }
        ],
    ),
    (
        "FA-6",
        "lod",
        "French free Muster or Battle in Savannah.",
        [
            {
                "op": "choose",
                "options": [
                    [
                        {
                            "op": "free",
                            "faction": "french",
                            "action": "muster",
                            "where": named("Savannah"),
                        }
                    ],
                    [
                        {
                            "op": "free",
                            "faction": "french",
                            "action": "battle",
                            "where": named("Savannah"),
                        }
                    ],
                ],
            }
        ],
    ),
    (
        "FA-7",
        "fitl",
        "ARVN executes 2 free Limited Operations.",
        [
            {
                "op": "free",
                "faction": "arvn",
                "action": "any",
                "kind": "operation",
                "limited": True,
                "count": 2,
            }
        ],
    ),
    # done with those pieces, by their Faction
    (
        "FA-8",
        "fitl",
        "VC Guerrillas free Tax in Tay Ninh.",
        [
            {
                "op": "free",
                "faction": "vc",
                "action": "tax",
                "kind": "special_activity",
                "pieces": ["vc_guerrilla"],
                "where": named("Tay Ninh"),
            }
        ],
    ),
    (
        "FA-10",
        "fitl",
        "US free Sweep in Hue. Then ARVN do the same.",
        [
            {
                "op": "free",
                "faction": "us",
                "action": "sweep",
                "kind": "operation",
                "where": named("Hue"),
            },
            {
                "op": "free",
                "faction": "arvn",
                "action": "sweep",
                "kind": "operation",
                "where": named("Hue"),
            },
        ],
    ),
    # ------------------------------------------------------------ 3.10 compound actions
    # one space chosen once, both actions in it
    (
        "CP-1",
        "lod",
        "Indians may free Scout to and free War Path in one Reserve.",
        [
            {"op": "select", "bind": "s1", "chooser": "indians", "where": typed("Reserve", 1)},
            {"op": "free", "faction": "indians", "action": "scout", "where": bound()},
            {
                "op": "free",
                "faction": "indians",
                "action": "war_path",
                "kind": "special_activity",
                "where": bound(),
            },
        ],
    ),
    (
        "CP-2",
        "fitl",
        "VC free Rally and Tax in one Province.",
        [
            {"op": "select", "bind": "s1", "chooser": "vc", "where": typed("Province", 1)},
            {
                "op": "free",
                "faction": "vc",
                "action": "rally",
                "kind": "operation",
                "where": bound(),
            },
            {
                "op": "free",
                "faction": "vc",
                "action": "tax",
                "kind": "special_activity",
                "where": bound(),
            },
        ],
    ),
    (
        "CP-3",
        "lod",
        "British may place two Tories and free Skirmish in one City.",
        [
            {"op": "select", "bind": "s1", "chooser": "british", "where": typed("City", 1)},
            {"op": "place", "pieces": ["tory"], "count": 2, "chooser": "british", "where": bound()},
            {
                "op": "free",
                "faction": "british",
                "action": "skirmish",
                "kind": "special_activity",
                "where": bound(),
            },
        ],
    ),
    (
        "CP-4",
        "fitl",
        "Place 1 NVA Base in and shift Quang Tri-Thua Thien 1 level toward Active Opposition.",
        [
            {"op": "place", "pieces": ["nva_base"], "where": named("Quang Tri-Thua Thien")},
            {"op": "shift", "levels": -1, "where": named("Quang Tri-Thua Thien")},
        ],
    ),
    # ------------------------------------------------------------ 3.11 eligibility
    (
        "EL-1",
        "fitl",
        "VC Ineligible through next card.",
        [{"op": "eligibility", "factions": ["vc"], "to": "ineligible", "through_next_card": True}],
    ),
    (
        "EL-2",
        "fitl",
        "Faction executing Event stays Eligible.",
        [{"op": "eligibility", "factions": ["executing"], "to": "eligible"}],
    ),
    (
        "EL-3",
        "lod",
        "Indians Eligible.",
        [{"op": "eligibility", "factions": ["indians"], "to": "eligible"}],
    ),
    (
        "EL-4",
        "lod",
        "French free Battle in Boston and remain or become Eligible.",
        [
            {"op": "free", "faction": "french", "action": "battle", "where": named("Boston")},
            {"op": "eligibility", "factions": ["french"], "to": "eligible"},
        ],
    ),
    (
        "EL-5",
        "lod",
        "All Factions to Eligible.",
        [{"op": "eligibility", "factions": ["all"], "to": "eligible"}],
    ),
    # ------------------------------------------------------------ 3.12 markers
    (
        "MK-1",
        "lod",
        "Place two Propaganda markers in Massachusetts.",
        [{"op": "marker", "marker": "propaganda", "count": 2, "where": named("Massachusetts")}],
    ),
    (
        "MK-2",
        "fitl",
        "Place Tunnel markers on 2 NVA Bases in Southern Laos.",
        [{"op": "tunnel", "pieces": ["nva_base"], "count": 2, "where": named("Southern Laos")}],
    ),
    (
        "MK-3",
        "lod",
        "Move two Squadrons/Blockades from Unavailable to the West Indies.",
        [
            {
                "op": "marker",
                "marker": "blockade",
                "action": "move",
                "count": 2,
                "source": "unavailable",
                "destination": "west_indies",
            }
        ],
    ),
    (
        "MK-4",
        "fitl",
        "Sabotage 2 LoCs with VC Guerrillas.",
        [{"op": "marker", "marker": "sabotage", "where": typed("LoC", 2, holding("vc_guerrilla"))}],
    ),
    # ------------------------------------------------------------ 3.13 lasting rules
    (
        "LR-1",
        "fitl",
        "VC CAPABILITY: Terror max 2 spaces.",
        [
            lasting(
                "capability",
                "game",
                {
                    "text": "Terror max 2 spaces",
                    "kind": "limit",
                    "action": "terror",
                    "max_spaces": 2,
                },
            )
        ],
    ),
    (
        "LR-2",
        "fitl",
        "MOMENTUM: No Govern until Coup.",
        [
            lasting(
                "momentum",
                "until_coup",
                {"text": "No Govern until Coup", "kind": "ban", "action": "govern"},
            )
        ],
    ),
    # the added effect runs in each space of the action, chosen by its Faction
    (
        "LR-3",
        "fitl",
        "NVA CAPABILITY: Each NVA Attack space may remove 1 US Base.",
        [
            lasting(
                "capability",
                "game",
                {
                    "text": "Each NVA Attack space may remove 1 US Base",
                    "kind": "addon",
                    "faction": "nva",
                    "action": "attack",
                    "effects": [{"op": "remove", "pieces": ["us_base"], "chooser": "nva"}],
                },
            )
        ],
    ),
    # kept as written, not modelled: FitL Operations are not modelled
    (
        "LR-4",
        "fitl",
        "ARVN CAPABILITY: Train costs 0 Resources.",
        [
            lasting(
                "capability",
                "game",
                {"text": "Train costs 0 Resources", "kind": "change", "action": "train"},
            )
        ],
    ),
    (
        "LR-5",
        "fitl",
        "VC CAPABILITY: VC Resources +2 each Reset.",
        [
            lasting(
                "capability",
                "game",
                {
                    "text": "VC Resources +2 each Reset",
                    "kind": "recurring",
                    "at": "reset",
                    "modelled": True,
                    "effects": [{"op": "adjust", "track": "vc_resources", "delta": 2}],
                },
            )
        ],
    ),
    (
        "LR-6",
        "fitl",
        "US CAPABILITY: Crossing Guard allowed when Aid > 10.",
        [
            lasting(
                "capability",
                "game",
                {
                    "text": "Crossing Guard allowed when Aid > 10",
                    "kind": "allow",
                    "card": "Crossing Guard",
                    "condition": {"if": "track", "track": "aid", "compare": ">", "value": 10},
                },
            )
        ],
    ),
    # ------------------------------------------------------------ 3.14 procedures, cards, battle
    (
        "PR-1",
        "lod",
        "Execute French Desertion as per Winter Quarters Round.",
        [{"op": "procedure", "name": "desertion", "factions": ["french"]}],
    ),
    (
        "PR-2",
        "fitl",
        "Flip 1 unshaded NVA Capability to shaded.",
        [
            {
                "op": "card",
                "action": "flip",
                "target": "capability",
                "count": 1,
                "faction": "nva",
                "side": "unshaded",
            }
        ],
    ),
    (
        "PR-3",
        "lod",
        "Patriots may choose to enter the war.",
        [
            {
                "op": "procedure",
                "name": "brilliant_stroke",
                "factions": ["patriots"],
                "note": "Patriots may choose to enter the war",
            }
        ],
    ),
    (
        "PR-4",
        "lod",
        "-2 to Attacker's Loss Level.",
        [{"op": "battle_modifier", "role": "attacker", "loss_level": -2}],
    ),
    (
        "SL-1",
        "fitl",
        "Select a Province with NVA Troops. Place 2 VC Guerrillas there.",
        [
            {"op": "select", "bind": "s1", "where": typed("Province", 1, holding("nva_troop"))},
            {"op": "place", "pieces": ["vc_guerrilla"], "count": 2, "where": bound()},
        ],
    ),
    # the condition covers the whole side
    (
        "CO-1",
        "lod",
        "Play if FNI is 1 or more. French Resources +3. British Resources -1.",
        [
            {
                "op": "if",
                "condition": {"if": "track", "track": "fni", "compare": ">=", "value": 1},
                "then": [
                    {"op": "adjust", "track": "french_resources", "delta": 3},
                    {"op": "adjust", "track": "british_resources", "delta": -1},
                ],
            }
        ],
    ),
    (
        "MD-1",
        "fitl",
        "US free Assault in 2 Cities, removing 3 VC Guerrillas per space.",
        [
            {
                "op": "free",
                "faction": "us",
                "action": "assault",
                "kind": "operation",
                "where": typed("City", 2),
                "remove_per_space": 3,
                "remove_pieces": ["vc_guerrilla"],
            }
        ],
    ),
    # ------------------------------------------------------------ 4.5 references back
    (
        "R-1",
        "fitl",
        "Remove 2 VC Guerrillas from a Province with ARVN Police. Place 1 ARVN Base there.",
        [
            {
                "op": "remove",
                "pieces": ["vc_guerrilla"],
                "count": 2,
                "where": typed("Province", 1, holding("police"), bind="s1"),
            },
            {"op": "place", "pieces": ["arvn_base"], "where": bound()},
        ],
    ),
    (
        "R-2",
        "lod",
        "Place one Fort in each of two Colonies. Remove one Militia from each.",
        [
            {"op": "place", "pieces": FORT, "where": typed("Colony", 2, bind="s1")},
            {"op": "remove", "pieces": ["militia"], "where": bound()},
        ],
    ),
    (
        "R-3",
        "lod",
        "Place one Tory in one Colony. Shift that space one level toward Active Support.",
        [
            {"op": "place", "pieces": ["tory"], "where": typed("Colony", 1, bind="s1")},
            {"op": "shift", "levels": 1, "where": bound()},
        ],
    ),
    # "it" is the space chosen, not every space like it
    (
        "R-4",
        "lod",
        "Remove two Tories from one City. Set it to Neutral.",
        [
            {"op": "remove", "pieces": ["tory"], "count": 2, "where": typed("City", 1, bind="s1")},
            {"op": "set_support", "level": "neutral", "where": bound()},
        ],
    ),
    (
        "R-5",
        "lod",
        "British free Garrison in two Cities, then place one Tory in one of those spaces.",
        [
            {
                "op": "free",
                "faction": "british",
                "action": "garrison",
                "where": typed("City", 2, bind="s1"),
            },
            {"op": "place", "pieces": ["tory"], "chooser": "british", "where": bound(spaces=1)},
        ],
    ),
    (
        "R-6",
        "lod",
        "Select a non-French Faction. That Faction removes one Fort from Norfolk.",
        [
            {"op": "choose_faction", "factions": ["british", "patriots", "indians"], "bind": "f1"},
            {"op": "remove", "pieces": FORT, "chooser": "$f1", "where": named("Norfolk")},
        ],
    ),
    # ------------------------------------------------------------ 4.6 fronted locations, wrappers
    (
        "W-1",
        "fitl",
        "In 1 City with US Troops, place 2 ARVN Police.",
        [
            {"op": "select", "bind": "s1", "where": typed("City", 1, holding("us_troop"))},
            {"op": "place", "pieces": ["police"], "count": 2, "where": bound()},
        ],
    ),
    (
        "W-2",
        "fitl",
        "Outside South Vietnam, remove 2 NVA Troops.",
        [
            {
                "op": "remove",
                "pieces": ["nva_troop"],
                "count": 2,
                "where": {
                    "filter": {
                        "is": "not",
                        "filter": {"is": "country", "countries": ["South Vietnam"]},
                    },
                    "per_space": False,
                },
            }
        ],
    ),
    (
        "W-3",
        "lod",
        "In one Colony with Militia, place one Tory and shift one level toward Active Support.",
        [
            {"op": "select", "bind": "s1", "where": typed("Colony", 1, holding("militia"))},
            {"op": "place", "pieces": ["tory"], "where": bound()},
            {"op": "shift", "levels": 1, "where": bound()},
        ],
    ),
    (
        "W-4",
        "fitl",
        "US CAPABILITY: Each US Sweep space, 1 NVA Guerrilla to Casualties.",
        [
            lasting(
                "capability",
                "game",
                {
                    "text": "Each US Sweep space, 1 NVA Guerrilla to Casualties",
                    "kind": "addon",
                    "faction": "us",
                    "action": "sweep",
                    "effects": [
                        {
                            "op": "remove",
                            "pieces": ["nva_guerrilla"],
                            "chooser": "us",
                            "destination": "casualties",
                        }
                    ],
                },
            )
        ],
    ),
    (
        "W-5",
        "fitl",
        "Aid +3. Then Patronage -2.",
        [
            {"op": "adjust", "track": "aid", "delta": 3},
            {"op": "adjust", "track": "patronage", "delta": -2},
        ],
    ),
    # "there" after a named space is that space
    (
        "W-6",
        "lod",
        "Remove one Village from Southwest, then place two War Parties there.",
        [
            {"op": "remove", "pieces": ["village"], "where": named("Southwest")},
            {"op": "place", "pieces": ["war_party"], "count": 2, "where": named("Southwest")},
        ],
    ),
    # ------------------------------------------------------------ 4.7 lasting wording
    (
        "T-1",
        "fitl",
        "ARVN CAPABILITY: ARVN Govern max 1 space.",
        [
            lasting(
                "capability",
                "game",
                {
                    "text": "ARVN Govern max 1 space",
                    "kind": "limit",
                    "faction": "arvn",
                    "action": "govern",
                    "max_spaces": 1,
                },
            )
        ],
    ),
    (
        "T-2",
        "fitl",
        "Until Coup, Rally is max 3 spaces.",
        [
            lasting(
                "momentum",
                "until_coup",
                {
                    "text": "Rally is max 3 spaces",
                    "kind": "limit",
                    "action": "rally",
                    "max_spaces": 3,
                },
            )
        ],
    ),
    (
        "T-3",
        "fitl",
        "No Infiltrate until Coup.",
        [
            lasting(
                "momentum",
                "until_coup",
                {"text": "No Infiltrate until Coup", "kind": "ban", "action": "infiltrate"},
            )
        ],
    ),
    (
        "T-4",
        "fitl",
        "Through next Coup, no Bombard.",
        [
            lasting(
                "momentum",
                "through_coup",
                {"text": "no Bombard", "kind": "ban", "action": "bombard"},
            )
        ],
    ),
    (
        "T-5",
        "fitl",
        "This Support phase, Pacify costs 2 Resources per level.",
        [
            lasting(
                "momentum",
                "phase",
                {
                    "text": "Pacify costs 2 Resources per level",
                    "kind": "change",
                    "action": "pacify",
                },
            )
        ],
    ),
    (
        "T-6",
        "fitl",
        "MOMENTUM: No Tax until Coup (mark).",
        [
            lasting(
                "momentum",
                "until_coup",
                {"text": "No Tax until Coup", "kind": "ban", "action": "tax"},
            )
        ],
    ),
    (
        "T-7",
        "lod",
        "British Resources +3 during Reset Phase.",
        [
            {
                "op": "at_phase",
                "phase": "reset",
                "effects": [{"op": "adjust", "track": "british_resources", "delta": 3}],
            }
        ],
    ),
    # ------------------------------------------------------------ 4.8 conditionals
    (
        "C-1",
        "fitl",
        "If Patronage is 10 or more, Aid -3. If not, Aid +1.",
        [
            {
                "op": "if",
                "condition": {"if": "track", "track": "patronage", "compare": ">=", "value": 10},
                "then": [{"op": "adjust", "track": "aid", "delta": -3}],
                "otherwise": [{"op": "adjust", "track": "aid", "delta": 1}],
            }
        ],
    ),
    (
        "C-2",
        "lod",
        "If FNI is 3 or more, French Resources +2. If not, FNI +1.",
        [
            {
                "op": "if",
                "condition": {"if": "track", "track": "fni", "compare": ">=", "value": 3},
                "then": [{"op": "adjust", "track": "french_resources", "delta": 2}],
                "otherwise": [{"op": "adjust", "track": "fni", "delta": 1}],
            }
        ],
    ),
    (
        "C-3",
        "lod",
        "Unless the Treaty of Alliance has been played, French Preparations +2.",
        [
            {
                "op": "if",
                "condition": {"if": "not", "condition": {"if": "flag", "flag": "toa_played"}},
                "then": [{"op": "adjust", "track": "french_preparations", "delta": 2}],
            }
        ],
    ),
    (
        "C-4",
        "fitl",
        "If ARVN executing, that Faction Resources +4.",
        [
            {
                "op": "if",
                "condition": {"if": "executing", "factions": ["arvn"]},
                "then": [{"op": "adjust", "track": "arvn_resources", "delta": 4}],
            }
        ],
    ),
    # optional: doing nothing is an option
    (
        "C-5",
        "fitl",
        "Patronage +2 if desired.",
        [{"op": "choose", "options": [[{"op": "adjust", "track": "patronage", "delta": 2}], []]}],
    ),
    # what the first space could not give comes from the second
    (
        "C-5",
        "fitl",
        "Remove 3 NVA Troops from Kontum or, once none, Binh Dinh.",
        [
            {
                "op": "remove",
                "pieces": ["nva_troop"],
                "count": 3,
                "bind": "n1",
                "where": named("Kontum"),
            },
            {
                "op": "remove",
                "pieces": ["nva_troop"],
                "where": named("Binh Dinh"),
                "count": {
                    "amount": {"quantity": {"of": "bound", "name": "n1"}, "times": -1, "plus": 3}
                },
            },
        ],
    ),
    # ------------------------------------------------------------ 4.9 choices
    (
        "H-1",
        "lod",
        "French Resources +3, or Patriot Resources +2.",
        [
            {
                "op": "choose",
                "options": [
                    [{"op": "adjust", "track": "french_resources", "delta": 3}],
                    [{"op": "adjust", "track": "patriots_resources", "delta": 2}],
                ],
            }
        ],
    ),
    # a verb clause or another: the first word opens a placement, the "or" the choice
    (
        "H-1",
        "lod",
        "Place one Tory in Georgia or remove one Militia from Georgia.",
        [
            {
                "op": "choose",
                "options": [
                    [{"op": "place", "pieces": ["tory"], "where": named("Georgia")}],
                    [{"op": "remove", "pieces": ["militia"], "where": named("Georgia")}],
                ],
            }
        ],
    ),
    # a sentence opening with "Or" offers it instead of the sentence before
    (
        "H-1",
        "fitl",
        "Aid +4. Or Patronage +2.",
        [
            {
                "op": "choose",
                "options": [
                    [{"op": "adjust", "track": "aid", "delta": 4}],
                    [{"op": "adjust", "track": "patronage", "delta": 2}],
                ],
            }
        ],
    ),
    (
        "H-2",
        "fitl",
        "Either Patronage +2 or Aid -2.",
        [
            {
                "op": "choose",
                "options": [
                    [{"op": "adjust", "track": "patronage", "delta": 2}],
                    [{"op": "adjust", "track": "aid", "delta": -2}],
                ],
            }
        ],
    ),
    (
        "H-3",
        "fitl",
        "VC Resources +5 or -5.",
        [
            {
                "op": "choose",
                "options": [
                    [{"op": "adjust", "track": "vc_resources", "delta": 5}],
                    [{"op": "adjust", "track": "vc_resources", "delta": -5}],
                ],
            }
        ],
    ),
    (
        "H-4",
        "fitl",
        "Place 1 US Base or 2 US Troops in Da Nang.",
        [
            {
                "op": "choose",
                "options": [
                    [{"op": "place", "pieces": ["us_base"], "where": named("Da Nang")}],
                    [
                        {
                            "op": "place",
                            "pieces": ["us_troop"],
                            "count": 2,
                            "where": named("Da Nang"),
                        }
                    ],
                ],
            }
        ],
    ),
    (
        "H-5",
        "fitl",
        "US or ARVN remove 2 VC Guerrillas from Hue. Then Aid +1.",
        [
            {
                "op": "choose",
                "options": [
                    [
                        {
                            "op": "remove",
                            "pieces": ["vc_guerrilla"],
                            "count": 2,
                            "chooser": "us",
                            "where": named("Hue"),
                        }
                    ],
                    [
                        {
                            "op": "remove",
                            "pieces": ["vc_guerrilla"],
                            "count": 2,
                            "chooser": "arvn",
                            "where": named("Hue"),
                        }
                    ],
                ],
            },
            {"op": "adjust", "track": "aid", "delta": 1},
        ],
    ),
    # ------------------------------------------------------------ 4.10 subjects
    (
        "S-1",
        "lod",
        "Indians place two Villages in Northwest. Then FNI -1.",
        [
            {
                "op": "place",
                "pieces": ["village"],
                "count": 2,
                "chooser": "indians",
                "where": named("Northwest"),
            },
            {"op": "adjust", "track": "fni", "delta": -1},
        ],
    ),
    (
        "S-2",
        "lod",
        "British may remove one Militia from New York. Then FNI +1.",
        [
            {
                "op": "remove",
                "pieces": ["militia"],
                "chooser": "british",
                "where": named("New York"),
            },
            {"op": "adjust", "track": "fni", "delta": 1},
        ],
    ),
    (
        "S-3",
        "lod",
        "Indians must remove one Tory from Quebec.",
        [{"op": "remove", "pieces": ["tory"], "chooser": "indians", "where": named("Quebec")}],
    ),
    # one effect per Faction, in order
    (
        "S-4",
        "fitl",
        "ARVN then US free Sweep in Binh Dinh.",
        [
            {
                "op": "free",
                "faction": "arvn",
                "action": "sweep",
                "kind": "operation",
                "where": named("Binh Dinh"),
            },
            {
                "op": "free",
                "faction": "us",
                "action": "sweep",
                "kind": "operation",
                "where": named("Binh Dinh"),
            },
        ],
    ),
    (
        "S-5",
        "lod",
        "Any one Faction places one Fort in Virginia.",
        [
            {
                "op": "choose_faction",
                "factions": ["british", "patriots", "french", "indians"],
                "bind": "f1",
            },
            {"op": "place", "pieces": FORT, "chooser": "$f1", "where": named("Virginia")},
        ],
    ),
    (
        "S-6",
        "fitl",
        "The executing Faction removes 2 NVA Guerrillas from Hue. Then Aid -1.",
        [
            {"op": "remove", "pieces": ["nva_guerrilla"], "count": 2, "where": named("Hue")},
            {"op": "adjust", "track": "aid", "delta": -1},
        ],
    ),
    (
        "S-7",
        "fitl",
        "NVA free March into Kontum. It then free Bombard.",
        [
            {
                "op": "free",
                "faction": "nva",
                "action": "march",
                "kind": "operation",
                "where": named("Kontum"),
            },
            {"op": "free", "faction": "nva", "action": "bombard", "kind": "special_activity"},
        ],
    ),
    (
        "S-8",
        "lod",
        "Indians free Gather in Quebec and may free War Path there.",
        [
            {"op": "free", "faction": "indians", "action": "gather", "where": named("Quebec")},
            {
                "op": "free",
                "faction": "indians",
                "action": "war_path",
                "kind": "special_activity",
                "where": named("Quebec"),
            },
        ],
    ),
    # ------------------------------------------------------------ 4.11 free-action details
    (
        "D-2",
        "lod",
        "British free March to Norfolk from Virginia.",
        [
            {
                "op": "free",
                "faction": "british",
                "action": "march",
                "where": named("Norfolk"),
                "origin": named("Virginia"),
            }
        ],
    ),
    (
        "D-3",
        "fitl",
        "ARVN free Patrol in Hue as if US.",
        [
            {
                "op": "free",
                "faction": "arvn",
                "action": "patrol",
                "kind": "operation",
                "as_faction": "us",
                "where": named("Hue"),
            }
        ],
    ),
    (
        "D-4",
        "lod",
        "British free Battle in Norfolk with +2 Force Level.",
        [
            {
                "op": "free",
                "faction": "british",
                "action": "battle",
                "force_level": 2,
                "where": named("Norfolk"),
            }
        ],
    ),
    (
        "D-5",
        "lod",
        "Indians perform free Scout in Northwest.",
        [{"op": "free", "faction": "indians", "action": "scout", "where": named("Northwest")}],
    ),
]


def show(effects: tuple[Any, ...]) -> Any:
    return side_to_toml(Side(effects=effects)).get("effects")


@pytest.mark.parametrize(
    ("form", "game", "text", "expected"),
    FORMS,
    ids=[f"{form}-{text}" for form, _, text, _ in FORMS],
)
def test_every_frame_reads_into_what_it_means(
    form: str, game: str, text: str, expected: list[Table]
) -> None:
    result = parse_side(text, game, title="Test Card", side="unshaded")
    assert result.diagnostics == [], result.diagnostics
    assert result.effects == side_from_toml({"effects": expected}).effects, show(result.effects)


# ---------------------------------------------------------------------- whole sides

SIDES: list[tuple[str, str, list[Table]]] = [
    # a fronted choice, then "there" and "it" in later sentences: one space throughout
    (
        "lod",
        "In one Colony with Tories, remove two Militia. Place one Fort there. "
        "Then shift it one level toward Active Support.",
        [
            {"op": "select", "bind": "s1", "where": typed("Colony", 1, holding("tory"))},
            {"op": "remove", "pieces": ["militia"], "count": 2, "where": bound()},
            {"op": "place", "pieces": FORT, "where": bound()},
            {"op": "shift", "levels": 1, "where": bound()},
        ],
    ),
    # the space a removal chose, reused inside a condition's branch
    (
        "fitl",
        "Remove 2 VC Guerrillas from a Province with US Troops. Place 1 US Base there. "
        "If Aid is 15 or more, set it to Passive Support; otherwise Aid +3.",
        [
            {
                "op": "remove",
                "pieces": ["vc_guerrilla"],
                "count": 2,
                "where": typed("Province", 1, holding("us_troop"), bind="s1"),
            },
            {"op": "place", "pieces": ["us_base"], "where": bound()},
            {
                "op": "if",
                "condition": {"if": "track", "track": "aid", "compare": ">=", "value": 15},
                "then": [{"op": "set_support", "level": "passive_support", "where": bound()}],
                "otherwise": [{"op": "adjust", "track": "aid", "delta": 3}],
            },
        ],
    ),
    # a picked Faction acts, and a later sentence acts in the space it chose
    (
        "lod",
        "Select a non-British Faction. That Faction places two Militia in one City. "
        "Place one Fort in that space.",
        [
            {"op": "choose_faction", "factions": ["patriots", "french", "indians"], "bind": "f1"},
            {
                "op": "place",
                "pieces": ["militia"],
                "count": 2,
                "chooser": "$f1",
                "where": typed("City", 1, bind="s1"),
            },
            {"op": "place", "pieces": FORT, "where": bound()},
        ],
    ),
    # one of the spaces of an earlier action, then a choice between two effects
    (
        "fitl",
        "VC free Rally in 2 Provinces, then free Tax in one of those spaces. "
        "Aid -2, or Patronage -2.",
        [
            {
                "op": "free",
                "faction": "vc",
                "action": "rally",
                "kind": "operation",
                "where": typed("Province", 2, bind="s1"),
            },
            {
                "op": "free",
                "faction": "vc",
                "action": "tax",
                "kind": "special_activity",
                "where": bound(spaces=1),
            },
            {
                "op": "choose",
                "options": [
                    [{"op": "adjust", "track": "aid", "delta": -2}],
                    [{"op": "adjust", "track": "patronage", "delta": -2}],
                ],
            },
        ],
    ),
    # two spaces chosen one after the other get their own names
    (
        "lod",
        "Place two Tories in one City. Place one Fort there. Remove one Militia from "
        "one Colony. Place one Tory in that space.",
        [
            {"op": "place", "pieces": ["tory"], "count": 2, "where": typed("City", 1, bind="s1")},
            {"op": "place", "pieces": FORT, "where": bound("s1")},
            {"op": "remove", "pieces": ["militia"], "where": typed("Colony", 1, bind="s2")},
            {"op": "place", "pieces": ["tory"], "where": bound("s2")},
        ],
    ),
    # an event, then a Momentum whose every sentence is one of its rules
    (
        "fitl",
        "Trail +1. MOMENTUM: Until Coup, no Air Strike. ARVN Resources +2 each Reset.",
        [
            {"op": "adjust", "track": "trail", "delta": 1},
            lasting(
                "momentum",
                "until_coup",
                {"text": "no Air Strike", "kind": "ban", "action": "air_strike"},
                {
                    "text": "ARVN Resources +2 each Reset",
                    "kind": "recurring",
                    "at": "reset",
                    "modelled": True,
                    "effects": [{"op": "adjust", "track": "arvn_resources", "delta": 2}],
                },
            ),
        ],
    ),
]


@pytest.mark.parametrize(("game", "text", "expected"), SIDES, ids=[t for _, t, _ in SIDES])
def test_whole_sides_act_on_what_earlier_clauses_chose(
    game: str, text: str, expected: list[Table]
) -> None:
    result = parse_side(text, game, title="Test Card", side="unshaded")
    assert result.diagnostics == [], result.diagnostics
    assert result.effects == side_from_toml({"effects": expected}).effects, show(result.effects)


def test_groups_sharing_one_space_choose_it_once() -> None:
    # P-9: "in one Colony" written once for two groups is one space, not two choices
    effects = parse_side("Place two Tories and one Fort in one Colony.", "lod").effects
    assert [effect.op for effect in effects] == ["select", "place", "place"]
    assert {effect.where.filter.name for effect in effects[1:]} == {"s1"}


def test_it_is_the_space_chosen_not_every_space_like_it() -> None:
    # the old reading set every Province with ARVN Troops
    effects = parse_side("Remove 1 VC Base from a Province with ARVN Troops. "
                         "Set it to Passive Support.", "fitl").effects  # fmt: skip
    assert effects[0].where.bind == "s1"
    assert effects[1].where.filter.kind == "bound"


def test_a_box_is_never_a_map_space() -> None:
    # MV-2: "from Available" named no space and the move did nothing
    [effect] = parse_side("Move 3 Militia from Available to Boston.", "lod").effects
    assert (effect.op, effect.source) == ("place", "available")


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("Place one Fort there.", "'there' names no earlier space", 16),
        ("If not, FNI +1.", "'If not' follows no condition", 1),
        (
            "That Faction removes one Fort from Boston.",
            "'that Faction' names no earlier Faction",
            1,
        ),
    ],
)
def test_a_reference_to_nothing_is_a_diagnostic(text: str, message: str, column: int) -> None:
    [problem] = parse_side(text, "lod").diagnostics
    assert problem.message == message
    assert (problem.line, problem.column) == (1, column)


def test_a_problem_in_a_later_sentence_is_reported_where_it_is() -> None:
    [problem] = parse_side("FNI +1.\nPlace one Fort there.", "lod").diagnostics
    assert problem.message == "'there' names no earlier space"
    assert (problem.line, problem.column) == (2, 16)
