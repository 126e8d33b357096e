"""A server's database written by an earlier ``main`` (87289a3, before issue 49 moved each
feature into a wing of its own, each with its own store and migrations) opens with today's
code on both backends, migrated, with every row it held still there, unchanged.

The fixtures (tests/storage/main_db/) were written by that code through
``tests/storage/main_db/make.py``: every kind of row the storage holds. Beside them,
``tables.json`` holds open tables as ``main`` at 2f51224 stored them for a restart, one
field per feature (written by ``tests/storage/main_db/tables.py``): a channel's table, the
daily deal's, an event's and a tournament's mid-hand, a tournament's between hands, a
demonstration feature's. They load under today's layout (one ``kind``, the flags and the
feature's payload, bot/game/table_upgrade.py) with nothing lost, by themselves and from
both backends' ``open_tables``, and play on. The servers' settings keep the daily deal's
level and channel, now its part of ``GuildSettings.features`` (``DailySettings``,
migration 13), whichever of the two was set."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.features.daily.values import DailySettings, DailyTable
from bot.features.events.rules import event_label
from bot.features.events.values import EventDeal
from bot.features.tournaments.values import TournamentKey
from bot.game.errors import GameError
from bot.game.table import Table
from bot.storage.postgres import PostgresStorage
from bot.storage.sqlite import SqliteStorage
from tests.support.databases import create_schema, drop_schema, server_url, with_search_path

HERE = Path(__file__).parent / "main_db"
TABLES = 31
"""The tables of that database, ``schema_version`` included (the SQLite file keeps its
version in ``PRAGMA user_version``)."""

Rows = dict[str, set[tuple[Any, ...]]]

STORED: dict[str, dict[str, Any]] = json.loads((HERE / "tables.json").read_text())
"""The open tables of 2f51224 by name: their JSON and what that code said of them."""
OLD_FIELDS = ("daily", "event", "tournament", "feature")
NEW_FIELDS = ("kind", "private", "feature_deals", "feature")


def label_of(table: Table) -> dict[str, str | None]:
    """The old per-feature fields, told again by each wing's payload of ``table``."""
    daily, event, cup = DailyTable.of(table), EventDeal.of(table), TournamentKey.of(table)
    return {
        "daily": None if daily is None else daily.day,
        "event": None if event is None else event_label(event.event_id, event.deal),
        "tournament": None if cup is None else
        f"{cup.tournament_id}:{cup.round_no}:{cup.table_no}",
        "feature": None if table.kind in ("table", "daily", "event", "tournament")
        else table.kind,
    }


def check_loaded(name: str, table: Table) -> None:
    """``table`` (loaded by today's code) is the stored table ``name``: the same kind, the
    same private / feature-dealt flags and label, every other field the same, and today's
    JSON loads back equal without the old fields."""
    old = STORED[name]
    assert (table.kind, table.private, table.feature_deals) == (
        old["kind"], old["private"], old["tournament"] is not None), name
    assert label_of(table) == {key: old[key] for key in OLD_FIELDS}, name
    assert (table.phase, table.hand_no, table.seq) == (old["phase"], old["hand_no"], old["seq"])
    before = {k: v for k, v in json.loads(old["json"]).items() if k not in OLD_FIELDS}
    now = json.loads(table.model_dump_json())
    assert not set(now) & {"daily", "event", "tournament"}, name
    assert {k: v for k, v in now.items() if k not in NEW_FIELDS} == before, name
    assert Table.model_validate_json(table.model_dump_json()) == table, name


@pytest.mark.parametrize("name", sorted(STORED))
def test_a_table_stored_by_the_earlier_main_loads_with_nothing_lost(name: str) -> None:
    check_loaded(name, Table.model_validate_json(STORED[name]["json"]))


def test_the_stored_tables_play_on() -> None:
    """Mid-hand, the seat to act plays; a tournament's table between its hands still deals
    its next hand itself (Play again refused as before) and keeps the member who left."""
    tables = {name: Table.model_validate_json(old["json"]) for name, old in STORED.items()}
    for name, table in tables.items():
        hand = table.hand
        if table.phase != "playing" or hand is None or hand.turn is None:
            continue
        seat = table.seats[hand.turn]
        seq = table.seq
        if hand.phase == "bidding":
            amount = hand.allowed_bids(hand.turn)[-1]
            if seat.user_id is None or seat.automatic:
                table.auto_act(amount, 10.0)
            else:
                table.bid(seat.user_id, amount, 10.0)
        else:
            plays = hand.legal_plays(hand.turn)
            if seat.user_id is None or seat.automatic:
                table.auto_act(plays[0] if plays else None, 10.0)
            elif plays:
                table.play(seat.user_id, plays[0], 10.0)
            else:
                table.pass_turn(seat.user_id, 10.0)
        assert table.seq == seq + 1, name
    between = tables["tournament_between_hands"]
    with pytest.raises(GameError) as refused:
        between.play_again(104, 10.0)
    assert refused.value.code == "tournament_table"
    between.deal_next(10.0, seed=1)
    left = between.seats[0]
    assert (between.phase, left.user_id, left.autoplay, left.away) == (
        "playing", 104, True, True)


async def stored_tables(store: Any) -> dict[str, Table]:
    """The tables of ``tables.json`` that ``store`` loads by id (its other open tables are
    the storage tests' stand-ins, no Table)."""
    ids = {json.loads(old["json"])["id"] for old in STORED.values()}
    states = [json.loads(state) for state in await store.load_table_states()]
    return {state["id"]: Table.model_validate(state) for state in states if state["id"] in ids}


OLD_SETTINGS = ("INSERT INTO guild_settings (guild_id, turn_seconds_play, turn_seconds_bid,"
                " rules, language, counter, web, timezone, daily_level, daily_channel, turn_ping,"
                " turn_ping_after) VALUES ({})")
"""A settings row as 2f51224's ``write_settings`` wrote it (placeholders to fill)."""
MORE_SETTINGS = ((5, 60, 30, '{"kickers":"default","bidding":"once","target_points":30,'
                  '"match_hands":null}', None, 1, 1, None, "easy", None, "now", 10),
                 (6, 90, 20, '{"kickers":"default","bidding":"once","target_points":30,'
                  '"match_hands":null}', "en", 1, 0, "Asia/Tokyo", "hard", 99, "off", 10))
"""Two more servers: a level without a channel, a channel with the default level."""


async def check_settings(store: Any) -> None:
    """Every server's settings as that code had them, the daily deal's in its part."""
    got = {guild: await store.get_settings(guild) for guild in (1, 2 << 22, 5, 6)}
    assert {guild: (DailySettings.of(s).level, DailySettings.of(s).channel)
            for guild, s in got.items()} == {1: ("normal", 7), 2 << 22: ("hard", None),
                                             5: ("easy", None), 6: ("hard", 99)}
    assert got[2 << 22].features == {}  # the defaults: nothing stored
    one = got[1]
    assert (one.turn_seconds_play, one.language, one.counter, one.timezone) == (
        45, "es", False, "Europe/Madrid")
    six = got[6]
    assert (six.turn_seconds_play, six.turn_seconds_bid, six.language, six.web, six.timezone,
            six.turn_ping) == (90, 20, "en", False, "Asia/Tokyo", "off")
    assert (got[5].web, got[5].turn_ping) == (True, "now")
    assert got[2 << 22].rules.kickers == "distinct"


async def store_old_tables(execute: Any) -> None:
    """Put the stored tables in ``open_tables`` as 2f51224's ``save_table`` wrote them."""
    for n, old in enumerate(STORED.values()):
        state = json.loads(old["json"])
        await execute(state["id"], state["guild_id"], state["channel_id"], old["json"], float(n))


def sqlite_rows(path: Path) -> tuple[Rows, list[str]]:
    """Every row of every table of the SQLite file (each table's columns in name order),
    and each table's column names."""
    raw = sqlite3.connect(path)
    try:
        names = [r[0] for r in raw.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        out: Rows = {}
        for name in names:
            columns = sorted(r[1] for r in raw.execute(f"PRAGMA table_info({name})"))
            out[name] = {tuple(zip(columns, row, strict=True)) for row in raw.execute(
                f"SELECT {', '.join(columns)} FROM {name}")}
        return out, names
    finally:
        raw.close()


def kept(before: Rows, after: Rows) -> dict[str, int]:
    """Each table of ``before`` with how many of its rows ``after`` lacks: a row is kept
    when ``after`` has the same table with a row holding the same value in every column
    the row had (a migration may add columns)."""
    lost = {}
    for name, rows in before.items():
        newer = after.get(name, set())
        lost[name] = sum(1 for row in rows
                         if not any(set(row) <= set(new) for new in newer))
    return lost


async def test_a_sqlite_database_of_the_earlier_main_migrates_and_keeps_every_row(
        tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    shutil.copy(HERE / "main.sqlite3", path)
    raw = sqlite3.connect(path)

    async def insert(*row: Any) -> None:
        raw.execute("INSERT INTO open_tables VALUES (?, ?, ?, ?, ?, ?)", (*row, row[-1]))

    await store_old_tables(insert)
    for row in MORE_SETTINGS:
        raw.execute(OLD_SETTINGS.format(", ".join("?" * len(row))), row)
    raw.commit()
    raw.close()
    before, _ = sqlite_rows(path)
    assert sum(1 for rows in before.values() if rows) == len(before) == TABLES - 1
    store = await SqliteStorage.open(path)
    assert (await store.match_standings(1)) != []
    loaded = await stored_tables(store)
    await check_settings(store)
    await store.close()
    for name, old in STORED.items():
        check_loaded(name, loaded[json.loads(old["json"])["id"]])
    after, _ = sqlite_rows(path)
    assert kept(before, after) == {name: 0 for name in before}


async def postgres_rows(url: str) -> Rows:
    """Every row of every table of the schema ``url`` selects (columns in name order)."""
    conn = await asyncpg.connect(url)
    try:
        names = [r[0] for r in await conn.fetch(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'")]
        out: Rows = {}
        for name in names:
            rows = await conn.fetch(f"SELECT * FROM {name}")
            out[name] = {tuple(sorted(dict(row).items())) for row in rows}
        return out
    finally:
        await conn.close()


async def test_a_postgres_database_of_the_earlier_main_migrates_and_keeps_every_row() -> None:
    server = server_url()
    schema = await create_schema(server, prefix="main_")
    url = with_search_path(server, schema)
    try:
        conn = await asyncpg.connect(server)
        try:
            await conn.execute((HERE / "main.postgres.sql").read_text().replace(
                "__SCHEMA__", schema))

            async def insert(*row: Any) -> None:
                await conn.execute(f"INSERT INTO {schema}.open_tables VALUES"
                                   " ($1, $2, $3, $4, $5, $5)", *row)

            await store_old_tables(insert)
            for row in MORE_SETTINGS:
                marks = ", ".join(f"${n}" for n in range(1, len(row) + 1))
                await conn.execute(OLD_SETTINGS.format(marks).replace(
                    "guild_settings", f"{schema}.guild_settings"), *row)
        finally:
            await conn.close()
        before = await postgres_rows(url)
        assert len(before) == TABLES and all(before.values())
        store = await PostgresStorage.open(url)
        assert (await store.match_standings(1)) != []
        loaded = await stored_tables(store)
        await check_settings(store)
        await store.close()
        for name, old in STORED.items():
            check_loaded(name, loaded[json.loads(old["json"])["id"]])
        after = await postgres_rows(url)
        lost = kept({k: v for k, v in before.items() if k != "schema_version"}, after)
        assert lost == {name: 0 for name in before if name != "schema_version"}
    finally:
        await drop_schema(server, schema)
