"""Fixtures shared by every test package.

``database``: one test database per backend (``sqlite``, ``postgres``; see
``tests/databases.py``); a test that takes it runs once per backend.
``postgres_database``: a PostgreSQL one only (for PostgreSQL-specific behaviour).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.databases import BACKENDS, Database, postgres_schema


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    if request.param == "sqlite":
        yield Database("sqlite", str(tmp_path / "ddz.sqlite3"))
        return
    async with postgres_schema() as url:
        yield Database("postgres", url)


@pytest.fixture
async def postgres_database() -> AsyncIterator[Database]:
    async with postgres_schema() as url:
        yield Database("postgres", url)
