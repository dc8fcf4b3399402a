"""legalis: rules verifier and legal-move generator for card-driven historical board games.

>>> import legalis
>>> game = legalis.load_game("sevenyears")
>>> state = game.new_initial_state()
>>> state.to_move
'chance'
"""

from pathlib import Path

# The layers live beside this folder in a source checkout (model/, graphs/, solver/,
# verify/) and are mapped into the package by the install (pyproject's package-dir).
# Run from the checkout's root, ``import legalis`` finds this folder first, not the
# installed package: the checkout's root then serves as a second place for the
# subpackages, so ``legalis.model`` is the checkout's model/.
_CHECKOUT = Path(__file__).resolve().parent.parent
if not (Path(__file__).parent / "model").is_dir() and (_CHECKOUT / "model").is_dir():
    __path__.append(str(_CHECKOUT))

from legalis.model.errors import (  # noqa: E402  (the subpackages are found only now)
    IllegalMoveError,
    InputError,
    LegalisError,
    SolverLimitError,
)
from legalis.registry import games, load_game  # noqa: E402


def __getattr__(name: str) -> str:
    """``__version__``, read from the install when first asked (the metadata reader
    costs a play-only process some megabytes)."""
    if name != "__version__":
        raise AttributeError(f"module 'legalis' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("legalis")
    except PackageNotFoundError:  # a checkout used without installing it
        return "unknown"


__all__ = [
    "IllegalMoveError",
    "InputError",
    "LegalisError",
    "SolverLimitError",
    "__version__",
    "games",
    "load_game",
]
