from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage.base import SqlRepository
from tests.databases import Database


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "ddz.sqlite3"


@pytest.fixture
async def store(database: Database) -> AsyncIterator[SqlRepository]:
    storage = await database.open()
    yield storage
    await storage.close()
