"""A click while the database refuses writes (issue 25): "try again in a moment".

The bot's SQLite file lives on a small tmpfs the test fills up for real
(``tests/service/test_storage_faults.py`` has the service's side and PostgreSQL).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.disks import fill, small_disk
from tests.support.fake_discord import FakeDiscord
from tests.support.fake_game import seated_hand

TRY_AGAIN = ("The database is busy for a moment, so nothing changed. Please try again in a"
             " moment.")


@pytest.fixture
def tmp_path() -> Iterator[Path]:
    """The ``fake`` bot's database directory (tests/support/fixtures.py): a 2 MiB tmpfs."""
    with small_disk() as disk:
        yield disk


async def test_a_click_on_a_full_disk_is_answered_try_again_and_works_once_room_returns(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    ana, _, cy = await seated_hand(fake)
    before = fake.table_message().content
    raw = sqlite3.connect(tmp_path / "ddz.sqlite3")
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the next write must grow the WAL
    raw.close()
    filler = fill(tmp_path)
    reply = await ana.click(fake.table_message(), "Bid 1")
    assert reply.last.ephemeral and reply.text == TRY_AGAIN
    await fake.idle()
    assert fake.table_message().content == before
    assert "Traceback" not in caplog.text and "database unavailable" in caplog.text
    score = await cy.slash("score")  # reads keep working
    assert [e["title"] for e in score.last.embeds] == ["Dou Dizhu scores"]
    os.remove(filler)
    reply = await ana.click(fake.table_message(), "Bid 1")
    await fake.idle()
    assert "Bids: Ana: 1" in fake.table_message().content
