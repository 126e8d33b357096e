"""Fair ratings through the real bot (issue 26 §4): after two hands the rating board shows
what the model gives when the landlord's teammate follows the table (docs/RATINGS.md
§The landlord's edge), not the old teammate fixed at μ 25; ``python -m bot.storage
rerate`` on the bot's database then finds the same ratings (they follow from the stored
hands alone) and a second run changes nothing."""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from bot.game.rating import RatedSeat, SkillRating, computer_key, member_key, rate_hand
from sandbox.loopback.emulator import Emulator
from tests.support import timing
from tests.support.botproc import BotProcess
from tests.support.ddz_driver import (
    FAST_ENV,
    changes_in_result,
    finished,
    public_actions,
    reply_text,
    wait_public,
    watch_table,
)
from tests.support.solo import NAMES, open_with_computers

BotFactory = Callable[..., BotProcess]
ENV = {**FAST_ENV, "DDZ_AUTOPLAY_PACE_SCALE": "0"}
ROOT = Path(__file__).resolve().parents[2]


def numbers(r: SkillRating) -> str:
    return f"{r.ordinal:.1f} (μ {r.mu:.1f} ± σ {r.sigma:.1f})"


def ratings_in(path: Path) -> list[tuple[str, float, float, int]]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT player, mu, sigma, hands FROM ratings ORDER BY player")
        return [(p, round(mu, 9), round(sigma, 9), n) for p, mu, sigma, n in rows]


async def test_ratings_follow_the_table_and_rerate_finds_the_same(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    emu = emulator
    watch_table(emu)
    bot = await bot_factory(extra_env=ENV).start(timeout=30)
    alice = emu.member(name="alice")
    await open_with_computers(emu, alice)
    ack = await finished(await alice.slash("ddz autoplay", mode="on"))  # lasts: both hands
    assert "in this hand and the next ones at this table" in reply_text(ack), reply_text(ack)
    keys = {"Alice": member_key(alice.id), "Bot 2": computer_key("normal"),
            "Bot 3": computer_key("normal")}
    new: dict[str, SkillRating] = {}
    old: dict[str, SkillRating] = {}
    for hand in (1, 2):
        result = await wait_public(
            emu, lambda m, h=hand: "again" in public_actions(m) and f"hand #{h}" in m.text,
            timeout=40, what=f"the result of hand {hand}")
        changes = changes_in_result(result.text, NAMES)
        (landlord,) = [n for n in NAMES if re.search(rf"^{n} \([^)]*landlord", result.text, re.M)]
        seats = [RatedSeat(keys[n], n == landlord) for n in NAMES]
        new.update(rate_hand(seats, changes[landlord] > 0, new))
        old.update(rate_hand(seats, changes[landlord] > 0, old, edge="fixed"))
        if hand == 1:
            await alice.click(result, public_actions(result)["again"]["custom_id"])
    board = reply_text(await finished(await alice.slash("ddz score", scope="rating")))
    assert f"Alice: {numbers(new[keys['Alice']])} · 2 hands" in board, (board, old)
    if numbers(old[keys["Alice"]]) != numbers(new[keys["Alice"]]):
        assert numbers(old[keys["Alice"]]) not in board, board
    await finished(await alice.slash("ddz autoplay", mode="off"))
    assert emu.errors == [] and emu.late_interactions() == []
    timing.record(emu)

    await bot.stop()
    live = ratings_in(bot.db_path)
    assert live and (keys["Alice"], round(new[keys["Alice"]].mu, 9)) in [r[:2] for r in live]

    def rerate() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "bot.storage", "rerate", str(bot.db_path)],
                              cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                              capture_output=True, text=True, timeout=60)

    for _ in range(2):
        proc = await asyncio.to_thread(rerate)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.startswith("re-rated 2 hands in 1 server of "), proc.stdout
        assert ratings_in(bot.db_path) == live
