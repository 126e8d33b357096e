"""A table under the Happy rules through TableService (docs/RULES.md §Happy rules): the
members' calls, grabs, shows and doubles, the refused out-of-turn and late decisions,
the doubling's timer, the computers' decisions, a restart mid-doubling, settlement."""

from __future__ import annotations

import random

import pytest

from bot.game.errors import GameError
from bot.game.happy import HappyHand, HappyResult
from bot.game.table import Table
from bot.service import TableService
from bot.storage.base import SqlRepository
from tests.support.databases import Database
from tests.support.service_clock import (
    ALICE,
    BOB,
    CARL,
    CH,
    FakeClock,
    G,
    Recorder,
    featured_service,
    recorder,
    run,
    saved,
)

HAPPY = {"variant": "happy"}
HANDS = ("45TTJQQKKKAA222XD", "3333444555666789J", "6777888999TTJJQQK")
KITTY = "AA2"


async def happy_table(service: TableService) -> Table:
    table = await service.open_table(G, CH, ALICE, "Alice", "en", chosen=HAPPY)
    await service.join(table.id, BOB, "Bob")
    await service.join(table.id, CARL, "Carl")
    return await service.start(table.id, ALICE, hands=HANDS, kitty=KITTY, first_bidder=0)


async def refused(code: str, call: object) -> None:
    with pytest.raises(GameError) as error:
        await call  # type: ignore[misc]
    assert error.value.code == code


async def to_doubling(service: TableService) -> Table:
    """Alice calls, Bob grabs, Carl does not, Alice grabs (G = 4), Alice shows (S = 2)."""
    table = await happy_table(service)
    table = await service.decide(table.id, ALICE, "call", 1, seq=table.seq)
    table = await service.decide(table.id, BOB, "grab", 1, seq=table.seq)
    table = await service.decide(table.id, CARL, "grab", 0, seq=table.seq)
    table = await service.decide(table.id, ALICE, "grab", 1, seq=table.seq)
    table = await service.decide(table.id, ALICE, "show", 2, seq=table.seq)
    assert table.hand is not None and table.hand.phase == "doubling"
    return table


async def test_members_call_grab_show_double_and_bomb_settle_by_the_formula(
    service: TableService, store: SqlRepository
) -> None:
    table = await happy_table(service)
    assert isinstance(table.hand, HappyHand) and table.rules.variant == "happy"
    await refused("not_your_turn", service.decide(table.id, BOB, "call", 1, seq=table.seq))
    table = await service.decide(table.id, ALICE, "call", 1, seq=table.seq)
    before = table.seq
    await refused("not_your_turn", service.decide(table.id, CARL, "grab", 1, seq=table.seq))
    assert service.get(table.id).seq == before  # type: ignore[union-attr]
    table = await service.decide(table.id, BOB, "grab", 1, seq=table.seq)
    table = await service.decide(table.id, CARL, "grab", 0, seq=table.seq)
    table = await service.decide(table.id, ALICE, "grab", 1, seq=table.seq)
    await refused("not_your_turn", service.decide(table.id, BOB, "show", 2, seq=table.seq))
    table = await service.decide(table.id, ALICE, "show", 2, seq=table.seq)
    seq = table.seq
    table = await service.decide(table.id, BOB, "double", 1, seq=seq)
    await refused("wrong_phase", service.decide(table.id, BOB, "double", 4, seq=seq))
    table = await service.decide(table.id, ALICE, "double", 2, seq=seq)  # drawn before Bob's
    table = await service.decide(table.id, CARL, "double", 4, seq=seq)
    assert table.hand is not None and (table.hand.phase, table.turn_seat) == ("playing", 0)
    for user, cards in ((ALICE, "4"), (BOB, "3333"), (CARL, None), (ALICE, None),
                        (BOB, "444555666789"), (CARL, None), (ALICE, None), (BOB, "J")):
        if cards:
            table = await service.play(table.id, user, cards, seq=table.seq)
        else:
            table = await service.pass_turn(table.id, user, seq=table.seq)
    result = table.hand.result
    assert isinstance(result, HappyResult) and result.points == (-128, 64, 64)
    [settlement] = recorder(service).settlements
    assert [c.points for c in settlement.changes] == [-128, 64, 64]
    kinds = recorder(service).kinds()
    assert {"call", "grab", "show", "double", "landlord"} <= set(kinds)


async def test_the_doubling_timer_doubles_x1_for_those_who_did_not_choose(
    service: TableService, clock: FakeClock
) -> None:
    table = await to_doubling(service)
    assert table.deadline == clock.now() + table.turn_seconds_bid
    table = await service.decide(table.id, CARL, "double", 4, seq=table.seq)
    await run(service, clock, table.turn_seconds_bid + 1)
    after = service.get(table.id)
    assert after is not None and after.hand is not None
    assert (after.hand.phase, after.hand.doubles) == ("playing", (1, 1, 4))
    assert [a.auto for a in after.hand.history if a.kind == "double"] == [False, True, True]
    assert [s.timeouts for s in after.seats] == [1, 1, 0]
    await refused("wrong_phase", service.decide(table.id, BOB, "double", 2))


async def test_a_restart_in_the_middle_of_the_doubling_goes_on(
    database: Database, clock: FakeClock
) -> None:
    store = await database.open()
    first = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0)
    table = await to_doubling(first)
    table = await first.decide(table.id, BOB, "double", 2, seq=table.seq)
    await first.close()
    await store.close()

    store = await database.open()
    second = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0)
    [restored] = await second.restore()
    assert restored == table and isinstance(restored.hand, HappyHand)
    assert restored.hand.doubles == (None, 2, None)
    await second.decide(table.id, ALICE, "double", 1)
    after = await second.decide(table.id, CARL, "double", 1)
    assert after.hand is not None and after.hand.phase == "playing"
    assert await saved(store, table.id) == after
    await second.close()
    await store.close()


async def test_computers_and_auto_play_take_a_happy_hand_to_its_settlement(
    service: TableService, clock: FakeClock
) -> None:
    table = await service.open_table(G, CH, ALICE, "Alice", computers=2, chosen=HAPPY)
    for seed in (3, 4, 5):
        table = await service.start(table.id, ALICE, seed=seed)
        await service.set_autoplay(table.id, ALICE, True)
        await run(service, clock, 900.0)
        table = service.get(table.id)  # type: ignore[assignment]
        assert table is not None and table.phase == "finished"
        result = table.hand.result if table.hand else None
        assert isinstance(result, HappyResult) and sum(result.points) == 0
        assert all(d in (1, 2, 4) for d in result.doubles)
    assert len(recorder(service).settlements) == 3


def test_a_review_of_a_happy_hand_assesses_its_happy_decisions_and_its_plays() -> None:
    from bot.ai.happy import advise
    from bot.ai.players import HINT_SEED
    from bot.game.replay import position_before
    from bot.service.reviews import own_decisions, review_decision
    from tests.support.happy import played

    hand = played()
    mine = own_decisions(hand.model_dump_json(), 0)
    kinds = [hand.history[i].kind for i in mine]
    # seat 0 called, grabbed back, showed after the kitty, doubled ×2, then played
    assert kinds[:4] == ["call", "grab", "show", "double"], kinds
    assert set(kinds[4:]) <= {"play", "pass"} and "play" in kinds
    assert all(kind != "double" for kind in (hand.history[i].kind
                                             for i in own_decisions(hand.model_dump_json(), 2)))
    for index, kind, amount in zip(mine, ("call", "grab", "show", "double"), (1, 1, 2, 2),
                                   strict=False):
        review = review_decision(hand.model_dump_json(), 0, index)
        hint = advise(position_before(hand, index).observation(0), kind, "hard",
                      random.Random(HINT_SEED))
        assert (review.kind, review.played, review.best) == (kind, amount, hint.action)
        assert (review.reason, review.params) == (hint.reason, hint.params)
        assert not review.measured and review.loss == 0.0
    assert review_decision(hand.model_dump_json(), 0, mine[4]).kind == "play"
