"""``--dist loadgroup`` keeps the tests of a module that share a module-scoped fixture on
one worker (tests/support/workers.py, docs/CONTRIBUTING.md): pytest-xdist names the group
in each such test's id. pytest 9.2 stopped that renaming from taking effect (its nodeid
comes from the item's structured id), and a fresh virtual environment then spread
``tests/e2e/test_game_computers.py``'s three tests, which share one played hand, over
three workers; pyproject.toml keeps pytest below 9.2."""

from __future__ import annotations

import pytest

from tests.support import workers


@pytest.fixture(scope="module")
def shared() -> list[str]:
    """A module-scoped fixture, as a module's shared bot is."""
    return []


def test_a_test_with_a_module_fixture_runs_in_its_modules_group(
        request: pytest.FixtureRequest, shared: list[str]) -> None:
    if workers.worker_id() is None or not getattr(request.config.option, "loadgroup", False):
        pytest.skip("only under pytest-xdist's --dist loadgroup (the default addopts)")
    module = request.node.nodeid.split("::", 1)[0]
    assert request.node.nodeid.endswith(f"@{module}"), request.node.nodeid
