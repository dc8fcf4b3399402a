"""Every command of README.md runs as written, from the repository's root.

The commands are read from the README itself, so a command added there is tested
too. They run in a temporary folder that links the root's data folders (the
README's relative paths resolve the same; the files the commands write land there),
each as a process of the installed ``legalis``. The two install lines at the top
make virtual environments: their shape is checked, and what they end with (``legalis
demo``) is run.
"""

from __future__ import annotations

import ast
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from legalis.registry import games
from tests.processes import stop

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BIN = Path(sys.executable).parent
# The README's exit codes: 1 for findings, such as a refused --check or a failed proof.
EXPECTED_CODES = {"--check": 1, "reshuffle=any_draw": 1}
README_PORT = 8080


def code_blocks(language: str = "") -> list[str]:
    """The README's fenced code blocks in ``language`` (none: the untagged ones)."""
    return re.findall(rf"^```{language}\n(.*?)^```$", README, flags=re.MULTILINE | re.DOTALL)


def readme_commands() -> list[str]:
    """Every ``legalis`` command line of the untagged blocks after the install ones,
    with its continuation lines joined and its trailing comment dropped."""
    commands = []
    for block in code_blocks()[2:]:
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if words and words[0] == "legalis":
                commands.append(shlex.join(words))
    return commands


def legalis(command: str) -> list[str]:
    """``command`` as the argv of the test environment's ``legalis``."""
    words = shlex.split(command)
    found = shutil.which("legalis", path=str(BIN))
    assert found, "legalis is not installed in the test environment"
    return [found, *words[1:]]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder where the README's relative paths lead to the root's files."""
    folder = tmp_path_factory.mktemp("readme")
    for name in ("model", "docs", "studies"):
        (folder / name).symlink_to(ROOT / name)
    return folder


def test_the_install_commands_have_the_documented_shape() -> None:
    first, second = code_blocks()[:2]
    assert first.strip() == (
        "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/legalis demo"
    )
    assert second.strip() == (
        "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest"
    )
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "test" in extras["optional-dependencies"] and extras["scripts"]["legalis"]


def test_the_readme_lists_the_commands_people_try_first() -> None:
    commands = readme_commands()
    assert len(commands) >= 20
    for verb in ("new", "moves", "apply", "play", "replay", "simulate", "sweep", "verify",
                 "serve"):
        assert any(command.split()[1] == verb for command in commands), verb
    # the one shape: every game has its own commands, the game first, no old flags
    for name in games():
        assert any(command.split()[2:3] == [name] for command in commands), name
    for old in ("--game", "--british", "--french", "--log", "--apply"):
        assert not any(old in command.split() for command in commands), old


def test_the_demo_the_install_line_ends_with_runs(workdir: Path) -> None:
    (install, _) = code_blocks()[:2]
    demo = install.strip().rsplit("&& ", 1)[1].replace(".venv/bin/legalis", "legalis")
    done = subprocess.run(legalis(demo), cwd=workdir, capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    for name in games():  # every game is shown, with its legal moves
        assert f"({name})" in done.stdout, name
    assert done.stdout.count("legal moves for") == len(games())


def test_every_readme_command_runs_as_written(workdir: Path) -> None:
    ran = 0
    for command in readme_commands():
        if command.split()[1] == "serve":
            continue  # a server runs until stopped: the next test
        # A person answers the human player's prompts: the first choice, every time.
        human = any(word.endswith("=human") for word in command.split())
        answers = "1\n" * 2000 if human else ""
        done = subprocess.run(legalis(command), cwd=workdir, input=answers, capture_output=True,
                              text=True, timeout=300)  # fmt: skip
        expected = next((code for key, code in EXPECTED_CODES.items() if key in command), 0)
        report = f"{command}\nexit {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr}"
        assert done.returncode == expected, report
        assert done.stdout.strip() or done.stderr.strip(), report
        assert "Traceback" not in done.stdout + done.stderr, report
        ran += 1
    # the files the commands say they write are there
    for written in ("s.json", "game.jsonl", "after.json", "map.svg", "fixtures/manifest.json",
                    "sweep-lod/summary.json", "sweep-7yw/win-rates.png"):
        assert (workdir / written).stat().st_size > 0, written
    assert ran >= 20


def _port_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@pytest.mark.parametrize(
    "command", [c for c in readme_commands() if c.split()[1] == "serve"], ids=lambda c: c
)
def test_each_readme_server_command_serves_the_table_and_the_api(
    workdir: Path, command: str
) -> None:
    import httpx

    argv = legalis(command)
    port = README_PORT
    if not _port_free(port):  # another program holds the README's port: only the port differs
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
    if "--port" in argv:
        argv[argv.index("--port") + 1] = str(port)
    else:
        argv += ["--port", str(port)]
    opened = workdir / "opened.txt"
    # --open hands the address to the program BROWSER names: here one that writes it down
    browser = f"sh -c 'echo %s > {opened}'"
    environment = {**os.environ, "BROWSER": browser}
    server = subprocess.Popen(argv, cwd=workdir, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, env=environment)  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/v1/games", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and server.poll() is None
                time.sleep(0.2)
        assert answer.status_code == 200 and "sevenyears" in answer.text
        page = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
        assert page.status_code == 200 and "/table/table.js" in page.text
        if "--open" in argv:
            while not opened.exists() and time.monotonic() < deadline:
                time.sleep(0.2)
            assert opened.read_text().strip() == f"http://127.0.0.1:{port}/"
    finally:
        stop(server)


def test_the_python_example_runs_from_the_root() -> None:
    (example,) = code_blocks("python")
    done = subprocess.run([sys.executable, "-c", example], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = ast.literal_eval(done.stdout.strip())  # the example prints the result
    assert result["winner"] in ("british", "french", None)


def _install_as_setuptools_does(target: Path) -> Path:
    """The package as a plain (non-editable) install lays it out, following
    pyproject's ``packages`` and ``package-dir``: ``target/legalis/model/...``."""
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders: dict[str, str] = setup["package-dir"]
    for package in setup["packages"]:
        top = max((name for name in folders if package == name or package.startswith(
            name + ".")), key=len)  # fmt: skip
        source = ROOT / folders[top] / Path(*package[len(top) :].split(".")[1:])
        destination = target / Path(*package.split("."))
        destination.mkdir(parents=True, exist_ok=True)
        for item in source.iterdir():
            if item.is_file():
                shutil.copy2(item, destination / item.name)
    return target


@pytest.mark.parametrize("where", ["root", "elsewhere"])
def test_an_installed_legalis_imports_from_the_root_and_elsewhere(
    tmp_path: Path, where: str
) -> None:
    # After `pip install .`, `python -c "import legalis"` at the root finds the root's
    # legalis/ folder first (the script's folder comes first on the path): it must
    # still find its subpackages. The installed copy stands in a folder of the path;
    # the environment's site-packages give the dependencies, without the editable
    # install's import hook (-S: its .pth file is not read).
    installed = _install_as_setuptools_does(tmp_path / "site")
    site_packages = next(Path(p) for p in sys.path if p.endswith("site-packages"))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(installed), str(site_packages)])}
    code = "import legalis; print(legalis.load_game('sevenyears').title, legalis.__file__)"
    cwd = ROOT if where == "root" else tmp_path
    done = subprocess.run([sys.executable, "-S", "-c", code], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("The Seven Years War ")
    expected_home = ROOT / "legalis" if where == "root" else installed / "legalis"
    assert done.stdout.split()[-1] == str(expected_home / "__init__.py")
