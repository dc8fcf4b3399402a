"""`legalis draw --game eupop`: the SVG names every Area; --json lists clusters and
the reachable Areas (16.5 Spread of Religious Ideas)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import legalis.cli as cli

STATE = {
    "players": ["france"],
    "realms": {"france": {"kind": "player"}},
    "areas": {"alsace": {"religion": "protestant"}, "kiev": {"religion": "orthodox"}},
    "map": {
        "area": [
            {"id": "alsace", "provinces": ["A"], "borders": ["burgundy", "kiev"]},
            {"id": "burgundy", "provinces": ["B"], "borders": ["alsace"]},
            {"id": "kiev", "provinces": ["K"], "borders": ["alsace"]},
            {"id": "wessex", "provinces": ["W"], "borders": []},
        ],
        "sea": [{"id": "channel", "mark": "none", "areas": ["alsace", "wessex"]}],
    },
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        cli.main(list(argv))
    captured = capsys.readouterr()
    return int(done.value.code or 0), captured.out, captured.err


def test_draw_writes_an_svg_naming_each_area(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state, svg = tmp_path / "s.json", tmp_path / "map.svg"
    state.write_text(json.dumps(STATE))
    code, out, _ = run(capsys, "draw", "--game", "eupop", "--state", str(state),
                       "--out", str(svg), "--json")  # fmt: skip
    assert code == 0
    body = json.loads(out)
    assert body["clusters"] == [{"label": "protestant", "areas": ["alsace"]}]
    # 16.5 step 1: land and across the Sea Zone; never the Orthodox Area
    assert body["reachable"] == ["burgundy", "wessex"]
    text = svg.read_text()
    for area in ("alsace", "burgundy", "kiev", "wessex"):
        assert area in text


def test_draw_bad_input_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    state = tmp_path / "s.json"
    state.write_text(json.dumps(STATE))
    code, _, err = run(capsys, "draw", "--game", "eupop", "--state", str(state),
                       "--out", str(tmp_path / "m.svg"), "--spread", "plague")  # fmt: skip
    assert code == 2 and "--spread" in err
