"""Fixtures for the attack suite: the real bot on the recording fake Discord
(``tests.cogs.conftest.fake``), re-exported so pytest finds it here."""

from __future__ import annotations

from tests.cogs.conftest import fake  # noqa: F401  (fixture re-export)
