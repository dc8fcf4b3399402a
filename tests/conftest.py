"""Test settings shared by the whole suite.

Property tests run without a per-example deadline (a loaded CI machine is slow,
not wrong). Under CI (``CI`` set) they are derandomized, so a run on the same
code always tries the same examples and a failure reproduces; locally each run
explores new ones.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("local", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "local")
