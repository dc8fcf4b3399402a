"""The tooling CI relies on: ruff, mypy (strict) and the import-linter layering contract.

The four layer folders install as ``legalis.model`` and so on through setuptools'
``package-dir``; mypy and import-linter read packages from disk, so the tests lay
the package out as it installs, in a temporary tree.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("model", "graphs", "solver", "verify")
BIN = Path(sys.executable).parent


def tool(name: str) -> str:
    found = shutil.which(name, path=str(BIN)) or shutil.which(name)
    assert found, f"{name} is not installed: install the test extras"
    return found


def installed_layout(target: Path, *, copy: bool) -> Path:
    """``target/legalis`` laid out as the installed package, by links or by copies."""
    package = target / "legalis"
    package.mkdir(parents=True)
    sources = [
        (ROOT / "legalis" / entry.name, package / entry.name)
        for entry in (ROOT / "legalis").iterdir()
    ]
    sources += [(ROOT / layer, package / layer) for layer in LAYERS]
    for source, destination in sources:
        if source.name == "__pycache__":
            continue
        if copy and source.is_dir():
            shutil.copytree(source, destination, ignore=shutil.ignore_patterns("__pycache__"))
        elif copy:
            shutil.copy2(source, destination)
        else:
            destination.symlink_to(source)
    shutil.copy2(ROOT / "pyproject.toml", target / "pyproject.toml")
    return target


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(cwd)}
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def linked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return installed_layout(tmp_path_factory.mktemp("linked"), copy=False)


def test_ruff_finds_nothing() -> None:
    done = run([tool("ruff"), "check", "."], ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_finds_nothing(linked: Path) -> None:
    done = run(
        [tool("mypy"), "--config-file", str(ROOT / "pyproject.toml"), "-p", "legalis"], linked
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_layering_contract_is_kept(linked: Path) -> None:
    done = run([tool("lint-imports")], linked)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 kept, 0 broken" in done.stdout


def test_the_layering_contract_catches_the_model_importing_the_solver(tmp_path: Path) -> None:
    tree = installed_layout(tmp_path, copy=True)
    (tree / "legalis" / "model" / "shortcut.py").write_text("import legalis.solver.players\n")
    done = run([tool("lint-imports")], tree)
    assert done.returncode != 0 and "BROKEN" in done.stdout


def test_every_subpackage_is_installed() -> None:
    # a folder left out of pyproject's package list is missing from an installed copy
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
                 ["packages"])  # fmt: skip
    found = {
        ".".join(("legalis", *init.parent.relative_to(ROOT).parts))
        for layer in LAYERS
        for init in (ROOT / layer).rglob("__init__.py")
    }
    assert found <= listed, sorted(found - listed)


def test_every_front_door_module_is_in_the_top_layer() -> None:
    # a module of legalis/ left out of the contract would escape the layering check
    import tomllib

    contract = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    top = {name.strip() for name in contract["contracts"][0]["layers"][0].split(":")}
    modules = {f"legalis.{path.stem}" for path in (ROOT / "legalis").glob("*.py")}
    assert modules - {"legalis.__init__"} <= top
