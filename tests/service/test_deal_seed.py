"""``deal_seed`` (``DDZ_DEAL_SEED``, tests only): the n-th deal of a service is the same
on every run, so an end-to-end test never rests on the luck of a deal."""

from __future__ import annotations

from pathlib import Path

from bot.game.table import Table
from bot.storage.sqlite import SqliteStorage
from tests.support.service_clock import featured_service

ANA, BO, CY = 101, 102, 103


def dealt(table: Table) -> tuple[list[str], list[str], int]:
    """(each seat's cards, the kitty, the first bidder) of the table's hand."""
    hand = table.hand
    assert hand is not None
    cards = ["".join(str(c) for c in seat) for seat in hand.dealt]
    return cards, ["".join(str(c) for c in hand.kitty)], hand.first_bidder


async def two_deals(path: Path, deal_seed: int | None) -> list[tuple[list[str], list[str], int]]:
    """A fresh service on its own database: Start, stop the hand, Play again."""
    store = await SqliteStorage.open(path)
    service = featured_service(store, ai_delay=0, deal_seed=deal_seed)
    try:
        table = await service.open_table(1, 10, ANA, "Ana")
        for user, name in ((BO, "Bo"), (CY, "Cy")):
            table = await service.join(table.id, user, name)
        first = await service.start(table.id, ANA)
        await service.stop_hand(table.id, ANA)
        second = await service.play_again(table.id, ANA)
        return [dealt(first), dealt(second)]
    finally:
        await service.close()
        await store.close()


async def test_the_same_deal_seed_deals_the_same_hands_in_the_same_order(tmp_path: Path) -> None:
    one = await two_deals(tmp_path / "one.sqlite3", 20261130)
    two = await two_deals(tmp_path / "two.sqlite3", 20261130)
    assert one == two
    assert one[0] != one[1]  # the next deal is another shuffle
    other = await two_deals(tmp_path / "other.sqlite3", 7)
    assert other[0] != one[0]


async def test_without_a_deal_seed_every_deal_is_shuffled_afresh(tmp_path: Path) -> None:
    one = await two_deals(tmp_path / "one.sqlite3", None)
    two = await two_deals(tmp_path / "two.sqlite3", None)
    assert one[0] != two[0] and one[1] != two[1]  # 54! orders: equal only by a bug
