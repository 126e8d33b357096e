"""bot/faults.py: the DDZ_FAULT spec is parsed strictly (a typo must not test nothing)."""

from __future__ import annotations

import pytest

from bot import faults


def test_a_spec_names_the_point_and_the_pass() -> None:
    assert faults.parse("crash_after_post:table:2") == ("table", 2)
    assert faults.parse(" crash_after_post:announce ") == ("announce", 1)
    assert faults.parse("") is None


@pytest.mark.parametrize("spec", ["crash_after_post:tabel", "crash:table", "crash_after_post:view:0",
                                  "crash_after_post:table:x"])
def test_a_malformed_spec_is_refused(spec: str) -> None:
    with pytest.raises(ValueError):
        faults.parse(spec)


def test_without_a_spec_crash_points_do_nothing() -> None:
    assert faults._SPEC is None  # the test process has no DDZ_FAULT
    faults.crash_point("table")


def test_without_a_spec_nothing_is_hooked_into_the_posts() -> None:
    """The crash points cost nothing on the production path: no hook to call."""
    assert faults.crash_hook() is None
