from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage.sqlite import SqliteStorage


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "ddz.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[SqliteStorage]:
    storage = await SqliteStorage.open(db_path)
    yield storage
    await storage.close()
