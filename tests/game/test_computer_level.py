"""The table remembers the computer level chosen at ``/ddz start`` (docs/AI.md)."""

import json
from pathlib import Path

from bot.game import Table
from bot.storage.sqlite import SqliteStorage
from tests.support.service_clock import featured_service

ALICE, BOB = 1, 2


def test_open_remembers_the_level_and_add_computer_uses_it_by_default():
    table = Table.open(10, 20, ALICE, "Alice", computers=1, level="hard")
    assert table.computer_level == "hard"
    events = table.add_computer(ALICE)
    assert events[0].params == {"level": "hard"}
    assert [s.computer for s in table.seats] == [None, "hard", "hard"]


def test_an_explicit_level_still_wins_over_the_tables():
    table = Table.open(10, 20, ALICE, "Alice", level="easy")
    table.add_computer(ALICE, "hard")
    table.add_computer(ALICE)
    assert [s.computer for s in table.seats] == [None, "hard", "easy"]


def test_a_table_opened_without_a_level_adds_normal_computers():
    table = Table.open(10, 20, ALICE, "Alice")
    table.add_computer(ALICE)
    assert table.computer_level == "normal" and table.seats[1].computer == "normal"


def test_the_level_round_trips_and_old_json_without_it_loads_as_normal():
    table = Table.open(10, 20, ALICE, "Alice", computers=2, level="easy")
    again = Table.model_validate_json(table.model_dump_json())
    assert again == table and again.computer_level == "easy"
    stored = json.loads(table.model_dump_json())
    del stored["computer_level"]
    old = Table.model_validate_json(json.dumps(stored))
    assert old.computer_level == "normal"
    assert [s.computer for s in old.seats] == [None, "easy", "easy"]


async def test_service_add_computer_without_a_level_uses_the_tables(tmp_path: Path):
    storage = await SqliteStorage.open(tmp_path / "level.sqlite3")
    service = featured_service(storage)
    try:
        table = await service.open_table(10, 20, ALICE, "Alice", computers=1, level="hard")
        table = await service.add_computer(table.id, ALICE)
        assert [s.computer for s in table.seats] == [None, "hard", "hard"]
        assert (await storage.load_open_tables())[0].computer_level == "hard"
    finally:
        await service.close()
        await storage.close()
