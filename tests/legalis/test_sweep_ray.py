"""The Ray backend against the local one: the same study, game by game, and the
same deck verification. One Ray is started here for the module (two CPUs) and
stopped after it; starting Ray is slow, so the checks share it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import ray
from legalis.model.core.documents import read_document

from legalis.backends import RayBackend, open_backend
from legalis.capabilities import VerifyInput, verifier
from legalis.sweep import report_study, run_study
from legalis.sweep.study import study_from_axes
from tests.legalis.test_backends import check_backend
from tests.legalis.test_sweep import rows
from tests.verify.test_tasks import untimed

pytestmark = pytest.mark.xdist_group("ray")  # one worker, so one Ray, runs them all


@pytest.fixture(scope="module")
def ray_backend() -> Iterator[Any]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _node_ip_address="127.0.0.1")
    try:
        with open_backend("ray") as backend:
            yield backend
    finally:
        ray.shutdown()


def _figures(summary: dict[str, Any]) -> list[Any]:
    """A summary without what depends on the clock (seconds, the slowest decisions)."""
    return [
        {k: v for k, v in cell.items() if k not in ("seconds_per_game", "slowest")}
        for cell in summary["cells"]
    ]


@pytest.mark.parametrize(
    "study",
    [
        study_from_axes(
            "lod", scenarios=["1775", "1778"], games=3, seats=["default", "indians=random"]
        ),
        study_from_axes(
            "sevenyears", games=20, options=["reshuffle=plan_only", "reshuffle=any_draw"]
        ),
    ],
    ids=["lod", "sevenyears"],
)
def test_a_study_gives_the_same_games_on_ray_as_locally(
    study: Any, ray_backend: Any, tmp_path: Path
) -> None:
    assert isinstance(ray_backend, RayBackend) and ray_backend.workers == 2
    with open_backend("local", workers=2) as local:
        run_study(study, tmp_path / "local", local)
    ran = run_study(study, tmp_path / "ray", ray_backend, size=2)
    assert ran["played"] == study.games * len(study.cells) and not ran["interrupted"]
    assert rows(tmp_path / "ray") == rows(tmp_path / "local")
    on_ray, here = report_study(study, tmp_path / "ray"), report_study(study, tmp_path / "local")
    assert _figures(on_ray) == _figures(here)
    assert (tmp_path / "ray" / "win-rates.svg").is_file()


def test_a_stopped_ray_run_keeps_its_games_and_resumes(ray_backend: Any, tmp_path: Path) -> None:
    study = study_from_axes("sevenyears", games=16)
    kept: list[int] = []
    stopped = run_study(
        study,
        tmp_path,
        ray_backend,
        size=2,
        stop=lambda: len(kept) >= 2,
        on_games=lambda games, _: kept.append(games),
    )
    assert stopped["interrupted"] and len(rows(tmp_path)) == sum(kept) < 16
    resumed = run_study(study, tmp_path, ray_backend)
    assert resumed["missing"] == 16 - sum(kept)
    assert json.loads(json.dumps(report_study(study, tmp_path)))["played"] == 16


def test_the_ray_backend_behaves_as_the_local_one(ray_backend: Any) -> None:
    check_backend(ray_backend)


@pytest.mark.parametrize(
    ("game", "deck"),
    [("lod", "model/lod/decks/sample.toml"), ("fitl", "model/fitl/decks/sample.toml"),
     ("sevenyears", None)],
)  # fmt: skip
def test_a_deck_verified_on_ray_gives_the_same_report(
    game: str, deck: str | None, ray_backend: Any
) -> None:
    data = None if deck is None else read_document(Path(deck), "toml")
    verify = verifier(game)
    here = verify(VerifyInput(data=data)).to_json()
    tasks: list[Any] = []

    def counted(function: Any, items: Any) -> Any:
        tasks.append(len(items))
        return ray_backend.in_order(function, items)

    on_ray = verify(VerifyInput(data=data, mapper=counted)).to_json()
    assert untimed(on_ray) == untimed(here)
    if data is not None:  # a card per task
        assert len(data["card"]) in tasks
