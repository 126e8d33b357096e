"""ReplayService: settled hands of this server only; reviews off the loop, with progress."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot.ai import choose_bid, choose_play, search
from bot.game.errors import GameError
from bot.game.selfplay import seeded_hand
from bot.service.replays import ReplayService
from bot.values import FinishedHand, SeatChange, Settlement
from tests.support.fake_records import Records

CHANNEL = 50
"""The channel the test hands were played in."""


def _record(seed: int, hand_no: int, guild_id: int = 1,
            channel_id: int | None = CHANNEL) -> FinishedHand:
    rng = random.Random(seed)
    hand = seeded_hand(seed, lambda o: choose_bid(o, "normal", rng).action,
                       lambda o: choose_play(o, "normal", rng).action)
    users = (101, None, 103)
    changes = [SeatChange(seat=i, user_id=u, name=f"p{i}", points=hand.result.points[i],  # type: ignore[union-attr]
                          role="landlord" if i == hand.landlord else "peasant", total=None)
               for i, u in enumerate(users)]
    settlement = Settlement(hand_id=f"h{seed}", guild_id=guild_id, table_id="t", match_no=1,
                            changes=changes, winner=hand.result.winner, hand_no=hand_no)  # type: ignore[union-attr]
    return FinishedHand(hand_no=hand_no, hand_id=f"h{seed}", guild_id=guild_id, finished_at=1.0,
                        hand_json=hand.model_dump_json(), settlement=settlement, user_ids=users,
                        channel_id=channel_id)




@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reviews searching 200 steps a decision: the computers' (``STEP_BUDGET``) and the
    Hint's, which a review makes (``HINT_STEP_BUDGET``, 1,000: 1.4 s of CPU for the
    five-hand test); these tests are about who may run a review, not its choices."""
    from bot.ai import review

    monkeypatch.setattr(search, "STEP_BUDGET", 200)
    monkeypatch.setattr(review, "HINT_STEP_BUDGET", 200)


async def test_find_returns_only_settled_hands_of_the_asking_server() -> None:
    service = ReplayService(Records(_record(1, 1), _record(2, 2), _record(3, 1, guild_id=9)))
    assert (await service.find(1, 101, channel_id=CHANNEL)).record.hand_no == 2  # the member's latest
    found = await service.find(1, 999, 1, channel_id=CHANNEL)  # any member, in its channel
    assert found.record.hand_id == "h1" and found.steps[-1].kind == "result"
    with pytest.raises(GameError) as other_server:
        await service.find(1, 101, 3, channel_id=CHANNEL)
    assert other_server.value.code == "hand_not_found"
    with pytest.raises(GameError) as none:
        await service.find(1, 555, channel_id=CHANNEL)
    assert none.value.code == "no_hands"
    with pytest.raises(GameError) as not_played:
        service.reviewer_seat(found, 999)
    assert not_played.value.code == "not_your_hand"
    assert service.reviewer_seat(found, 103) == 2


async def test_a_hand_is_seen_by_its_players_anywhere_and_by_others_in_its_channel() -> None:
    """Issue 26 §3: the one rule of ReplayService.check_access, through find."""
    old = _record(4, 3, channel_id=None)  # settled before channels were recorded
    service = ReplayService(Records(_record(1, 1), _record(2, 2), old))
    elsewhere = 77
    assert (await service.find(1, 101, 1, channel_id=elsewhere)).record.hand_no == 1  # a player
    assert (await service.find(1, 103, 1, channel_id=None)).record.hand_no == 1  # the web page
    assert (await service.find(1, 999, 1, channel_id=CHANNEL)).record.hand_no == 1
    with pytest.raises(GameError) as refused:
        await service.find(1, 999, 2, channel_id=elsewhere)  # a forged id, another channel
    assert (refused.value.code, refused.value.params) == (
        "replay_elsewhere", {"n": 2, "channel": f"<#{CHANNEL}>"})
    with pytest.raises(GameError) as nowhere:
        await service.find(1, 999, 2, channel_id=None)
    assert nowhere.value.code == "replay_elsewhere"
    with pytest.raises(GameError) as shared:  # Share shows it to the whole channel
        await service.find(1, 101, 2, channel_id=elsewhere, public=True)
    assert (shared.value.code, shared.value.params) == (
        "share_elsewhere", {"n": 2, "channel": f"<#{CHANNEL}>"})
    assert (await service.find(1, 101, 2, channel_id=CHANNEL, public=True)).record.hand_no == 2
    assert (await service.find(1, 101, 3, channel_id=elsewhere)).record.hand_no == 3
    # the web page's signed link (made only by Share, in the hand's channel)
    assert (await service.find(1, 0, 2, channel_id=None, link=True)).record.hand_no == 2
    with pytest.raises(GameError) as old_link:
        await service.find(1, 0, 3, channel_id=None, link=True)
    assert old_link.value.code == "replay_players_only"
    for user, public in ((999, False), (101, True)):
        with pytest.raises(GameError) as unknown:
            await service.find(1, user, 3, channel_id=CHANNEL, public=public)
        assert unknown.value.code == "replay_players_only"


async def test_review_reports_progress_and_two_requests_share_one_computation(
    quick: None,
) -> None:
    calls: list[str] = []

    async def thread_runner(fn: Any, *args: Any) -> Any:
        calls.append(fn.__name__)
        return await asyncio.to_thread(fn, *args)

    service = ReplayService(Records(_record(5, 1)), run=thread_runner)
    found = await service.find(1, 101, 1, channel_id=CHANNEL)
    seen: list[tuple[int, int]] = []

    async def progress(done: int, total: int) -> None:
        seen.append((done, total))

    first, second = await asyncio.gather(service.review(found, 0, progress),
                                         service.review(found, 0))
    assert first is second
    total = len(first.decisions)
    assert total >= 3 and seen == [(k, total) for k in range(total + 1)]
    assert calls.count("review_decision") == total and calls.count("own_decisions") == 1
    assert all(found.hand.history[i].seat == 0 and not found.hand.history[i].auto
               for i, _ in first.decisions)
    losses = [dict(first.decisions)[i].loss for i in first.worst]
    assert len(first.worst) <= 3 and losses == sorted(losses, reverse=True) and min(losses) > 0
    again = await service.review(found, 0)
    assert again is first and calls.count("review_decision") == total  # cached


async def test_a_member_runs_one_review_at_a_time_and_the_server_a_few(quick: None) -> None:
    release = asyncio.Event()

    async def slow_runner(fn: Any, *args: Any) -> Any:
        await release.wait()
        return await asyncio.to_thread(fn, *args)

    records = [_record(seed, seed) for seed in range(1, 6)]
    service = ReplayService(Records(*records), run=slow_runner)
    found = [await service.find(1, 101, n, channel_id=CHANNEL) for n in range(1, 6)]
    first = asyncio.create_task(service.review(found[0], 0, user_id=101))
    await asyncio.sleep(0)
    with pytest.raises(GameError) as mine:
        await service.review(found[1], 0, user_id=101)
    assert mine.value.code == "review_running"
    joined = asyncio.create_task(service.review(found[0], 0, user_id=101))  # same review: joins
    others = [asyncio.create_task(service.review(found[n], 2, user_id=200 + n)) for n in (1, 2)]
    await asyncio.sleep(0)
    with pytest.raises(GameError) as everyone:
        await service.review(found[3], 2, user_id=300)
    assert everyone.value.code == "review_busy"
    release.set()
    done = await asyncio.gather(first, joined, *others)
    assert done[0] is done[1]
    again = await service.review(found[1], 0, user_id=101)  # free again once finished
    assert again.hand_id == "h2"


async def test_a_replay_after_forget_shows_the_forgotten_member_anonymously() -> None:
    # The cached replay kept the record read first: name and user id survived /ddz forget.
    record = _record(1, 1)
    records = Records(record)
    service = ReplayService(records)
    first = await service.find(1, 101, 1, channel_id=CHANNEL)
    assert first.record.seat_of(101) == 0 and first.record.settlement.changes[0].name == "p0"
    changes = [c.model_copy(update={"user_id": None, "name": "?"}) if c.user_id == 101 else c
               for c in record.settlement.changes]
    records.records = (record.model_copy(update={
        "user_ids": (None, None, 103),
        "settlement": record.settlement.model_copy(update={"changes": changes})}),)
    again = await service.find(1, 103, 1, channel_id=CHANNEL)
    assert again.hand is first.hand  # the rebuilt hand is still shared
    assert again.record.seat_of(101) is None and again.record.settlement.changes[0].name == "?"
    with pytest.raises(GameError) as refused:
        service.reviewer_seat(again, 101)
    assert refused.value.code == "not_your_hand"


async def test_an_animation_is_drawn_once_for_concurrent_and_repeated_requests() -> None:
    # Every click on Animation drew the whole GIF again (seconds of CPU per click).
    service = ReplayService(Records())
    drawn: list[str] = []

    async def draw(tag: str) -> bytes:
        drawn.append(tag)
        await asyncio.sleep(0)  # the Renderer's pool: the second request arrives meanwhile
        return f"GIF89a {tag}".encode()

    both = await asyncio.gather(service.animation(("h1", "en"), lambda: draw("en")),
                                service.animation(("h1", "en"), lambda: draw("en")))
    assert both == [b"GIF89a en", b"GIF89a en"] and drawn == ["en"]
    assert await service.animation(("h1", "en"), lambda: draw("en")) == b"GIF89a en"
    assert await service.animation(("h1", "es"), lambda: draw("es")) == b"GIF89a es"
    assert drawn == ["en", "es"]
