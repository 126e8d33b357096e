"""ReplayService: finished hands for ``/ddz replay`` and reviews for ``/ddz review``.

Reads go through here (the cogs never open storage): a hand is found by its number
in the server or as the member's latest, and only a settled hand of the asking
server is ever returned (GameError ``hand_not_found`` / ``no_hands`` otherwise), and
only where ``check_access`` allows it: its players anywhere in the server, anyone
else only in the channel it was played in (docs/REPLAY.md §Who may see a hand).
A review runs decision by decision in the AI worker process (the ``ai`` WorkerPool's ``run``, which
falls back to a thread), never on the event loop; between two decisions other
work queued for the worker (Hints, hard computer moves) gets its turn. Reviews are
reproducible (seeded by hand and decision), kept in a small LRU cache, and two
requests for the same review share one computation.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Hashable
from dataclasses import dataclass
from typing import Any

from bot.ai.review import Assessment, Verdict, verdict
from bot.game.errors import GameError
from bot.game.hand import Hand
from bot.game.private import PRIVATE_SEAT
from bot.game.replay import Step, replay
from bot.game.seat import computer_seat
from bot.game.variants import load_hand
from bot.service import reviews
from bot.service.lru import Lru, SingleFlight
from bot.values import FinishedHand, SeatChange, Settlement

log = logging.getLogger(__name__)

Progress = Callable[[int, int], Awaitable[None]]
"""Called with (decisions reviewed, decisions in all) as a review advances."""
Runner = Callable[..., Awaitable[Any]]
"""Runs ``fn(*args)`` off the event loop (the AI worker pool's ``run``)."""

CACHE_SIZE = 64
"""Reviews (and replays) kept in memory, least recently used dropped first."""
ANIMATION_CACHE_SIZE = 8
"""Animations kept in memory (≈ 300-400 KB each)."""
WORST = 3
"""How many costliest decisions a review marks."""
MAX_RUNNING = 3
"""Reviews computed at once (the worker also serves Hints and hard moves); one per member."""


@dataclass(frozen=True)
class Replay:
    """A settled hand ready to show: the record, the rebuilt Hand and its steps."""

    record: FinishedHand
    hand: Hand
    steps: list[Step]


@dataclass(frozen=True)
class Review:
    """The hard player's view of one seat's decisions in a hand.

    ``decisions``: (history index, Assessment) in play order; ``worst``: history
    indices of up to ``WORST`` decisions that lost win chance, costliest first.
    """

    hand_id: str
    seat: int
    decisions: tuple[tuple[int, Assessment], ...]

    @property
    def verdict(self) -> Verdict:
        """What the review can say of the whole hand (``bot.ai.review.verdict``)."""
        return verdict([a for _, a in self.decisions])

    @property
    def worst(self) -> tuple[int, ...]:
        losing = [(a.loss, i) for i, a in self.decisions if a.loss > 0]
        return tuple(i for _, i in sorted(losing, key=lambda x: (-x[0], x[1]))[:WORST])


async def _default_runner(fn: Callable[..., Any], *args: Any) -> Any:
    return await asyncio.to_thread(fn, *args)


class ReplayService:
    """Finds settled hands and reviews decisions. ``storage``: a Repository;
    ``run``: how review work leaves the event loop (the bot: the AI worker pool's ``run``;
    default: a thread)."""

    def __init__(self, storage: Any, run: Runner | None = None) -> None:
        self.storage = storage
        self.run: Runner = run or _default_runner
        self._replays: Lru[str, Replay] = Lru(CACHE_SIZE)
        self._reviews: Lru[tuple[str, int], Review] = Lru(CACHE_SIZE)
        self._running: SingleFlight[tuple[str, int], Review] = SingleFlight()
        self._listeners: dict[tuple[str, int], list[Progress]] = {}
        """The progress listeners of each review running."""
        self._by_user: dict[int, tuple[str, int]] = {}
        self._animations: Lru[Hashable, bytes] = Lru(ANIMATION_CACHE_SIZE)
        self._drawing: SingleFlight[Hashable, bytes] = SingleFlight()

    @staticmethod
    def check_access(record: FinishedHand, user_id: int, channel_id: int | None, *,
                     public: bool = False, link: bool = False) -> None:
        """The one rule of who may see a settled hand of their server (docs/REPLAY.md
        §Who may see a hand), for every way to reach it (commands, buttons, Share, the
        web page): the hand's players anywhere in the server; anyone else only in the
        channel it was played in (``channel_id``: where the member asks; None: nowhere,
        e.g. outside Discord). ``public``: the answer is shown to everyone in
        ``channel_id`` (Share), so it must be the hand's channel whoever asks.
        ``link``: the web page's signed link, which only Share makes (so only in the
        hand's channel, where everyone could see it): valid for a hand whose channel
        is recorded.

        Raises GameError ``replay_elsewhere`` / ``share_elsewhere`` (params ``n``, and
        ``channel``: a mention of the hand's channel), or ``replay_players_only`` for a
        hand settled before its channel was recorded.
        """
        n = record.hand_no
        here = record.channel_id is not None and record.channel_id == channel_id
        if here or (link and record.channel_id is not None):
            return
        player = record.seat_of(user_id) is not None
        if player and not public:
            return
        if record.channel_id is None:
            raise GameError("replay_players_only", n=n)
        code = "share_elsewhere" if player else "replay_elsewhere"
        raise GameError(code, n=n, channel=f"<#{record.channel_id}>")

    async def find(self, guild_id: int, user_id: int, hand_no: int | None = None, *,
                   channel_id: int | None, public: bool = False, link: bool = False) -> Replay:
        """Hand ``hand_no`` of this guild, or (None) the member's latest one here, asked
        for in ``channel_id`` (``check_access``; ``public`` for Share, ``link`` for the
        web page's signed link).

        Raises GameError ``hand_not_found`` (params ``n``), ``no_hands``, or a refusal
        of ``check_access``.
        """
        if hand_no is None:
            record = await self.storage.last_hand_of(guild_id, user_id)
            if record is None:
                raise GameError("no_hands")
        else:
            record = await self.storage.numbered_hand(guild_id, hand_no)
            if record is None or record.guild_id != guild_id:
                raise GameError("hand_not_found", n=hand_no)
        self.check_access(record, user_id, channel_id, public=public, link=link)
        return await self._replay(record)

    async def rebuilt(self, record: FinishedHand) -> Replay:
        """The Replay of a record found elsewhere (a feature's private hand,
        ``private_record``, whose feature has checked who may see it), cached like the
        server's hands."""
        return await self._replay(record)

    async def _replay(self, record: FinishedHand) -> Replay:
        # Only the rebuilt hand is cached: the record (names, user ids, totals) is the one
        # just read, so a member's /ddz forget shows in the next replay.
        cached = self._replays.get(record.hand_id)
        if cached is not None:
            return Replay(record, cached.hand, cached.steps)
        # a private deal (a feature's: no hand number) was dealt with its bid fixed
        hand, steps = await asyncio.to_thread(_rebuild, record.hand_json, record.hand_no != 0)
        done = Replay(record, hand, steps)
        self._replays.put(record.hand_id, done)
        return done

    async def animation(self, key: Hashable,
                        draw: Callable[[], Coroutine[Any, Any, bytes]]) -> bytes:
        """The animation identified by ``key`` (hand, language, names): ``draw()`` (the
        Renderer's ``animation``) is awaited once; concurrent requests share it and the
        bytes are cached (LRU), so clicking Animation again (or twice at once) never
        draws the GIF twice."""
        cached = self._animations.get(key)
        if cached is not None:
            return cached
        data = await self._drawing.run(key, draw)
        self._animations.put(key, data)
        return data

    @staticmethod
    def reviewer_seat(found: Replay, user_id: int) -> int:
        """The seat the member played in that hand; GameError ``not_your_hand``
        otherwise (a review is only of one's own decisions)."""
        seat = found.record.seat_of(user_id)
        if seat is None:
            raise GameError("not_your_hand", n=found.record.hand_no)
        return seat

    def cached_review(self, hand_id: str, seat: int) -> Review | None:
        """A finished review of this hand and seat, if still in memory."""
        return self._reviews.peek((hand_id, seat))

    async def review(self, found: Replay, seat: int, progress: Progress | None = None,
                     user_id: int | None = None) -> Review:
        """The review of ``seat``'s decisions (cached; shared by concurrent callers).

        ``progress(done, total)`` is awaited after each decision (its errors are
        logged, never raised). A new computation is refused with GameError
        ``review_running`` while ``user_id`` has another review running, and
        ``review_busy`` while ``MAX_RUNNING`` are; joining a running one is always fine.
        Raises whatever the computation raises.
        """
        key = (found.record.hand_id, seat)
        cached = self._reviews.peek(key)
        if cached is not None:
            if progress is not None:
                await _tell(progress, len(cached.decisions), len(cached.decisions))
            return cached
        listeners: list[Progress] = [progress] if progress else []
        task = self._running.running(key)
        if task is None:
            busy = self._by_user.get(user_id) if user_id is not None else None
            if busy is not None and busy in self._running:
                raise GameError("review_running")
            if len(self._running) >= MAX_RUNNING:
                raise GameError("review_busy")
            if user_id is not None:
                self._by_user[user_id] = key
            task = self._running.start(key, self._compute(found, seat, listeners),
                                       name=f"ddz-review-{found.record.hand_id}-{seat}")
            self._listeners[key] = listeners
            task.add_done_callback(lambda _: self._finished(key, user_id))
        elif progress is not None:
            self._listeners[key].append(progress)
        return await asyncio.shield(task)

    def _finished(self, key: tuple[str, int], user_id: int | None) -> None:
        self._listeners.pop(key, None)
        if user_id is not None and self._by_user.get(user_id) == key:
            del self._by_user[user_id]

    async def _compute(self, found: Replay, seat: int, listeners: list[Progress]) -> Review:
        record = found.record
        indices: list[int] = await self.run(reviews.own_decisions, record.hand_json, seat)
        done: list[tuple[int, Assessment]] = []
        for listener in list(listeners):
            await _tell(listener, 0, len(indices))
        for index in indices:
            assessment = await self.run(reviews.review_decision, record.hand_json, seat, index)
            done.append((index, assessment))
            for listener in list(listeners):
                await _tell(listener, len(done), len(indices))
        result = Review(record.hand_id, seat, tuple(done))
        self._reviews.put((record.hand_id, seat), result)
        return result


def _rebuild(hand_json: str, bidding: bool = True) -> tuple[Hand, list[Step]]:
    hand = load_hand(hand_json)
    return hand, replay(hand, bidding=bidding)


async def _tell(progress: Progress, done: int, total: int) -> None:
    try:
        await progress(done, total)
    except Exception:
        log.exception("review progress callback failed")


def private_record(hand_id: str, guild_id: int, table_id: str, finished_at: float,
                   hand_json: str, user_id: int, name: str | None) -> FinishedHand | None:
    """A finished private hand (a feature's private deal's) shaped as a settled table
    hand for ``ReplayService`` (``rebuilt``, ``review``): no hand number (``hand_no`` 0),
    no channel, no match totals; seat 0 (``PRIVATE_SEAT``) is the member (``name``, ``"?"``
    once forgotten), seats 1 and 2 the computers, each with its role and points. None
    when ``hand_json`` (Hand JSON) has no result."""
    hand = Hand.model_validate_json(hand_json)
    result = hand.result
    if result is None:
        return None
    names = [name or "?", computer_seat(1, "normal").name, computer_seat(2, "normal").name]
    changes = [SeatChange(seat=i, user_id=user_id if i == PRIVATE_SEAT else None,
                          name=names[i], role="landlord" if i == result.landlord
                          else "peasant", points=result.points[i], total=None)
               for i in range(3)]
    settlement = Settlement(hand_id=hand_id, guild_id=guild_id, table_id=table_id,
                            match_no=0, changes=changes, winner=result.winner)
    return FinishedHand(hand_no=0, hand_id=hand_id, guild_id=guild_id,
                        finished_at=finished_at, hand_json=hand_json,
                        settlement=settlement, user_ids=(user_id, None, None))
