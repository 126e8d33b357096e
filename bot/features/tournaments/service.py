"""Tournaments with people (docs/RULES.md §Tournaments): sign-up, rounds of tables of three,
each table in its own public thread, standings, the organiser's controls.

``TournamentService`` is built over a ``DealingHost`` (``bot/service/host.py``: the
``TableService`` that owns the tables) and registered with ``TableService.register(
"tournament", …)`` as the ``PublicKind`` of ``Table.kind`` ``"tournament"``: the table
service tells it of every hand settled at a tournament table (``settled``). The seating
and the scoring are pure (``bot.features.tournaments.seating``, ``scoring``); every step
that must happen once (start,
the round's seating, a table's opening, its result, the round's end, the final post) is
a claim of the repository (``Repository.start_tournament``, ``seat_tournament_round``,
``claim_tournament_table``, ``finish_tournament_table``, ``finish_tournament_round``,
``finish_tournament``, ``cancel_tournament``) that is True for one caller only, across
restarts and processes.

Nothing here keeps state a restart would need: ``reconcile`` reads the tournament from
the repository and the open tables from the host and does what is missing (open a
table not opened yet, record a hand settled before a crash, deal a table's next hand,
finish a table, end a round, seat the next, post the results). It runs after every
settled hand, at start-up and on every ``tick`` (``bot/features/tournaments/cog.py``'s background
task), so a ``kill -9`` at any point loses nothing and repeats nothing.

Discord is the poster's (``TournamentPoster``, set by the cogs): it creates the threads
and posts the sign-up, the rounds, the standings and the cancellation.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.ai import Level
from bot.features.tournaments.limits import (
    MAX_HANDS,
    MAX_ROUNDS,
    MAX_TABLES,
    MIN_ACTIVE,
    MIN_ENTRANTS,
)
from bot.features.tournaments.rules import hand_over
from bot.features.tournaments.scoring import StandingRow
from bot.features.tournaments.scoring import standings as rank
from bot.features.tournaments.seating import seat_round
from bot.features.tournaments.store import TournamentStore
from bot.features.tournaments.values import (
    TournamentEntrant,
    TournamentHand,
    TournamentInfo,
    TournamentKey,
    TournamentTable,
)
from bot.game.errors import GameError
from bot.game.seat import Event, Seat, computer_seat
from bot.game.table import Table
from bot.rules import RuleSet
from bot.service.host import DealingHost, Title
from bot.storage.repository import ForgetStep
from bot.values import NO_ORGANISER, Settlement

log = logging.getLogger(__name__)

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
VARIANTS: tuple[str, ...] = ("classic", "happy")
"""The rule sets an organiser may pick for a tournament's tables."""
MAX_START_MINUTES = 7 * 24 * 60
"""``start_in_minutes`` at most a week."""
HAND_PAUSE = 8.0
"""Seconds a tournament table shows a hand's result before the next deal (times the
service's ``pace_scale``, 0 in the fast end-to-end tests, but at least ``min_pause``)."""
MIN_PAUSE = 3.0
"""Seconds at least between a hand's end and the next deal (``TournamentService.min_pause``,
``Settings.tournament_hand_pause``): the board redraws at most once a second, last state
wins (cogs/board.py), so a next deal sooner could replace the result before it was ever
drawn."""


FIRST_TURN_GRACE = 30.0
"""Seconds added to the first bid timer of a round's table by default (``Settings.
tournament_grace`` sets ``TournamentService.grace``): the members find the new thread."""


THREAD_RETRY = 30.0
"""Seconds before the first new try at a table's thread after Discord refused one, by
default (``Settings.tournament_thread_retry`` sets ``TournamentService.thread_retry``);
each further refusal doubles it, up to ``THREAD_RETRY_MAX``."""
THREAD_RETRY_MAX = 600.0
THREAD_REASONS = ("limit", "permission", "other")


class ThreadRefused(Exception):
    """Discord refused to open a table's thread (raised by ``TournamentPoster.open_thread``):
    ``reason`` ``"limit"`` (the server's active threads, codes 160006/160007),
    ``"permission"`` (403: Create Public Threads or Send Messages in Threads missing) or
    ``"other"`` (any other refusal, e.g. 160004); docs/DISCORD.md rows 23 and 26."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason if reason in THREAD_REASONS else "other"
        self.detail = detail


@dataclass
class _Refusals:
    """A tournament's run of refused threads: ``step`` refusals so far, the clock time of
    the next try (``retry_at``); ``told``: the organiser has been told in the channel."""

    step: int = 0
    retry_at: float = 0.0
    told: bool = False


class TournamentPoster(Protocol):
    """What the cogs do on Discord for the tournaments (``bot/features/tournaments/cog.py``). Each call
    may fail (an exception is logged; the step is tried again on the next ``reconcile``
    where it can be: a thread)."""

    async def signup_changed(self, info: TournamentInfo, entrants: int) -> None: ...

    async def open_thread(self, info: TournamentInfo, table: TournamentTable) -> int:
        """The table's thread, with its opening message; its id. Raises ``ThreadRefused``
        when Discord refuses the thread."""
        ...

    async def thread_refused(self, info: TournamentInfo, reason: str, retry_in: float) -> None:
        """Tell the organiser in the tournament's channel, once per run of refusals, that
        Discord refused a table's thread (``ThreadRefused.reason``), what to do, and that
        the bot tries again by itself (in ``retry_in`` seconds at first)."""
        ...

    async def close_thread(self, info: TournamentInfo, thread_id: int,
                           shown: tuple[str, int] | None) -> None:
        """Archive and lock a finished table's thread; ``shown`` (game table id, seq): first
        wait (bounded) until the table's board shows that state, its result."""
        ...

    async def round_seated(self, info: TournamentInfo, round_no: int,
                           tables: Sequence[TournamentTable]) -> None: ...

    async def start_refused(self, info: TournamentInfo, entrants: int) -> None: ...

    async def finished(self, info: TournamentInfo, rows: Sequence[StandingRow],
                       entrants: Sequence[TournamentEntrant]) -> None: ...

    async def cancelled(self, info: TournamentInfo) -> None: ...


class NullPoster:
    """A poster that creates no thread (fails) and posts nothing (service tests set theirs)."""

    async def signup_changed(self, info: TournamentInfo, entrants: int) -> None:
        return None

    async def open_thread(self, info: TournamentInfo, table: TournamentTable) -> int:
        raise RuntimeError("no poster")

    async def thread_refused(self, info: TournamentInfo, reason: str, retry_in: float) -> None:
        return None

    async def close_thread(self, info: TournamentInfo, thread_id: int,
                           shown: tuple[str, int] | None) -> None:
        return None

    async def round_seated(self, info: TournamentInfo, round_no: int,
                           tables: Sequence[TournamentTable]) -> None:
        return None

    async def start_refused(self, info: TournamentInfo, entrants: int) -> None:
        return None

    async def finished(self, info: TournamentInfo, rows: Sequence[StandingRow],
                       entrants: Sequence[TournamentEntrant]) -> None:
        return None

    async def cancelled(self, info: TournamentInfo) -> None:
        return None


@dataclass(frozen=True)
class Standings:
    """A tournament's standings now (``/ddz tournament standings``): its info, the rows
    (``scoring.StandingRow``, best first) and every entrant (names, status)."""

    info: TournamentInfo
    rows: list[StandingRow]
    entrants: list[TournamentEntrant]


def game_table_id(tournament_id: str, round_no: int, table_no: int) -> str:
    """The game table's id, the same on every try (a restart finds the table it dealt)."""
    return hashlib.blake2b(f"{tournament_id}:{round_no}:{table_no}".encode(),
                           digest_size=4).hexdigest()


def _points(hands: Sequence[TournamentHand], round_no: int,
            table_no: int) -> tuple[int, int, int]:
    """Points won per seat over a table's recorded hands."""
    total = [0, 0, 0]
    for hand in hands:
        if (hand.round_no, hand.table_no) == (round_no, table_no):
            for seat in range(3):
                total[seat] += hand.points[seat]
    return total[0], total[1], total[2]


class TournamentService:
    """The server's tournaments (docs/ARCHITECTURE.md §Tournaments) over a ``DealingHost``.

    ``poster``: the cogs' ``TournamentPoster`` (default ``NullPoster``). Commands raise
    GameError with a code the cogs translate (``error.<code>``): ``tournament_exists``,
    ``no_tournament``, ``tournament_closed``, ``tournament_full``, ``tournament_absent``,
    ``tournament_too_few``, ``tournament_bad_option``, ``tournament_stale`` (a sign-up
    button of a tournament that is not the server's current one).
    """

    def __init__(self, host: DealingHost, poster: TournamentPoster | None = None) -> None:
        self.host = host
        self.store = TournamentStore(host.storage)
        """The tournaments' rows (``bot.features.tournaments.store``)."""
        self.poster: TournamentPoster = poster or NullPoster()
        self.grace = FIRST_TURN_GRACE
        """Seconds added to the first bid timer of each table a round opens (the members
        find the new thread first; ``Settings.tournament_grace``)."""
        self._locks: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closed = False
        self._refused: set[str] = set()
        self.thread_retry = THREAD_RETRY
        """Seconds before the first new try at a refused thread (then doubling)."""
        self.min_pause = MIN_PAUSE
        """Seconds at least between a table's hand and its next deal (``MIN_PAUSE``)."""
        self._threads: dict[str, _Refusals] = {}
        """Each tournament's run of refused threads (in memory: a restart tries at once)."""
        self._closed_threads: set[int] = set()
        """Threads archived by this process (the round's end archives the others)."""

    def _seed(self) -> int:
        """A new tournament's seed (round 1's draw): from the service's deal seed when its
        deals follow one (``DDZ_DEAL_SEED``, tests only: the same seats every run), else
        random."""
        seed = self.host.deal_seed()
        return seed % 2**31 if seed is not None else random.randrange(2**31)

    # ----- commands ------------------------------------------------------------------

    async def create(
        self, guild_id: int, channel_id: int, user_id: int, name: str, rounds: int,
        hands: int, level: str = "normal", start_in_minutes: int | None = None,
        variant: str = "classic",
    ) -> TournamentInfo:
        """Open a tournament's sign-up in ``channel_id`` (one open or running tournament per
        server). Its tables play ``variant`` (``classic`` or ``happy``, the organiser's
        choice; docs/RULES.md §Tournaments) with the server's other rule variants and the
        cap, dealt shuffled. Raises GameError ``tournament_bad_option`` (rounds 1–9, hands
        1–12, a level, a variant, a name, start within a week), ``tournament_exists``."""
        name = " ".join(name.split())[:60]
        if (not name or not 1 <= rounds <= MAX_ROUNDS or not 1 <= hands <= MAX_HANDS
                or level not in LEVELS or variant not in VARIANTS
                or (start_in_minutes is not None
                    and not 1 <= start_in_minutes <= MAX_START_MINUTES)):
            raise GameError("tournament_bad_option")
        settings = await self.host.settings(guild_id)
        now = self.host.clock.now()
        info = TournamentInfo(
            tournament_id=uuid.uuid4().hex, guild_id=guild_id, channel_id=channel_id,
            name=name, rounds=rounds, hands=hands, level=level, created_by=user_id,
            created_at=now, seed=self._seed(),
            starts_at=None if start_in_minutes is None else now + 60.0 * start_in_minutes,
            rules=RuleSet.model_validate({**settings.rules.as_classic().model_dump(),
                                          "variant": variant}),
        )  # fmt: skip
        created = await self.store.create_tournament(info)
        if created is None:
            raise GameError("tournament_exists")
        return created

    async def current(self, guild_id: int) -> TournamentInfo | None:
        """The server's open or running tournament, else its latest, else None."""
        return await self.store.current_tournament(guild_id)

    async def live(self, guild_id: int, tournament_id: str | None = None) -> TournamentInfo:
        """The server's open or running tournament (``tournament_id``: that one only, for a
        button). Raises GameError ``no_tournament``, ``tournament_closed``."""
        info = await self.store.current_tournament(guild_id)
        if tournament_id is not None and (info is None or info.tournament_id != tournament_id):
            raise GameError("tournament_stale")  # a button of one that is over, or forged
        if info is None:
            raise GameError("no_tournament")
        if info.status not in ("open", "running"):
            raise GameError("tournament_closed")
        return info

    async def set_signup(self, tournament_id: str, message_id: int) -> None:
        """Remember the public sign-up message (its Join/Leave buttons and count)."""
        await self.store.set_tournament_signup(tournament_id, message_id)

    async def join(self, guild_id: int, user_id: int, name: str,
                   tournament_id: str | None = None) -> TournamentInfo:
        """Enter the open tournament. Raises GameError ``no_tournament``,
        ``tournament_closed`` (started), ``tournament_full``, ``tournament_already``."""
        info = await self.live(guild_id, tournament_id)
        answer = await self.store.join_tournament(
            info.tournament_id, user_id, name, self.host.clock.now())
        if answer != "joined":
            raise GameError({"full": "tournament_full", "already": "tournament_already"}
                            .get(answer, "tournament_closed"))
        await self._signup_changed(info)
        return info

    async def leave(self, guild_id: int, user_id: int,
                    tournament_id: str | None = None) -> str:
        """Leave before the start (``"left"``), or withdraw after it (``"withdrawn"``: the
        seat plays on auto-play until the round ends, never seated again). Raises
        GameError ``no_tournament``, ``tournament_closed``, ``tournament_absent``."""
        info = await self.live(guild_id, tournament_id)
        answer = await self.store.leave_tournament(
            info.tournament_id, user_id, self.host.clock.now())
        return await self._gone(info, user_id, answer, computer=False)

    async def drop(self, guild_id: int, member_id: int) -> str:
        """The organiser takes a member out at once (their seat to a computer); before the
        start it removes the entry (``"left"``), after it ``"dropped"``. Raises GameError
        ``no_tournament``, ``tournament_closed``, ``tournament_absent``."""
        info = await self.live(guild_id)
        answer = await self.store.drop_tournament_entrant(
            info.tournament_id, member_id, self.host.clock.now())
        return await self._gone(info, member_id, answer, computer=True)

    async def _gone(self, info: TournamentInfo, user_id: int, answer: str, *,
                    computer: bool) -> str:
        if answer == "absent":
            raise GameError("tournament_absent")
        if answer == "closed":
            raise GameError("tournament_closed")
        if answer == "left":
            await self._signup_changed(info)
        else:
            await self._hand_over(info, user_id, computer=computer)
            self._spawn(self.reconcile(info.tournament_id))
        return answer

    async def _hand_over(self, info: TournamentInfo, user_id: int, *, computer: bool) -> None:
        """The member's seat at their current table: auto-play, or a computer."""
        for played in await self.store.tournament_tables(info.tournament_id,
                                                                info.current_round):
            # the game table's fixed id: it may be dealt before the tournament notes it
            table = self.host.get(game_table_id(info.tournament_id, played.round_no,
                                                played.table_no))
            if user_id in played.seats and table is not None and table.seat_of(user_id) is not None:
                await self.host.act(table.id, lambda t, now: hand_over(t, user_id,
                                                                        computer=computer))

    async def start(self, guild_id: int) -> TournamentInfo:
        """Close the sign-up; round 1 is seated and opened in a task of its own (at least 3
        entrants). Raises GameError
        ``no_tournament``, ``tournament_closed`` (running), ``tournament_too_few``
        (param ``count``: the entrants)."""
        info = await self.live(guild_id)
        if info.status != "open":
            raise GameError("tournament_closed")
        return await self._start(info)

    async def _start(self, info: TournamentInfo) -> TournamentInfo:
        if not await self.store.start_tournament(info.tournament_id,
                                                        self.host.clock.now()):
            now = await self.store.tournament(info.tournament_id)
            if now is None or now.status != "open":
                raise GameError("tournament_closed")
            count = len(self._active(await self.store.tournament_entrants(
                info.tournament_id)))
            raise GameError("tournament_too_few", count=str(count), needed=str(MIN_ENTRANTS))
        self._spawn(self.reconcile(info.tournament_id))  # round 1: up to 30 threads
        started = await self.store.tournament(info.tournament_id)
        return started or info

    async def cancel(self, guild_id: int) -> TournamentInfo:
        """End the open or running tournament: its tables close (a hand being played adds
        no points) and their threads are archived, what was played is kept, the channel is
        told once. Raises GameError ``no_tournament``, ``tournament_closed``."""
        info = await self.live(guild_id)
        async with self._lock(info.tournament_id):
            if not await self.store.cancel_tournament(info.tournament_id,
                                                             self.host.clock.now()):
                raise GameError("tournament_closed")
            threads = []
            for table in self.host.tables():
                key = TournamentKey.of(table)
                if key is not None and key.tournament_id == info.tournament_id:
                    closed = await self._close(table.id)
                    if closed is not None:  # its thread: archived once its board shows it
                        threads.append(self._close_thread(info, closed.channel_id,
                                                          (closed.id, closed.seq)))
            await asyncio.gather(*threads)
            await self._post(self.poster.cancelled(info))
        return info

    async def standings(self, guild_id: int) -> Standings:
        """The current (or latest) tournament's standings. Raises GameError
        ``no_tournament``."""
        info = await self.store.current_tournament(guild_id)
        if info is None:
            raise GameError("no_tournament")
        return await self._standings(info)

    async def _standings(self, info: TournamentInfo) -> Standings:
        entrants = await self.store.tournament_entrants(info.tournament_id)
        tables = await self.store.tournament_tables(info.tournament_id)
        rows = rank([e.user_id for e in entrants], tables)
        return Standings(info, rows, entrants)

    async def of_member(self, guild_id: int, user_id: int
                        ) -> list[tuple[TournamentInfo, StandingRow | None, int]]:
        """The finished and cancelled tournaments the member entered, oldest first, each
        with the member's line of its standings (None: not listed; its ``shown`` place)
        and how many members it had (``/ddz stats``)."""
        out: list[tuple[TournamentInfo, StandingRow | None, int]] = []
        for info in await self.store.tournaments_of_user(guild_id, user_id):
            board = await self._standings(info)
            row = next((r for r in board.rows if r.user_id == user_id), None)
            out.append((info, row, len(board.entrants)))
        return out

    async def forget_step(self, guild_id: int, user_id: int) -> ForgetStep:
        """Its part of ``/ddz forget`` (``Forgetting.add_step``): the member's lines."""
        return self.store.forget_step(guild_id, user_id)

    async def forget_check(self, guild_id: int, user_id: int) -> None:
        """``/ddz forget``'s question to the tournaments (``Forgetting.add_check``):
        raise GameError ``forget_while_tournament`` while the member is in the server's
        open or running tournament (not withdrawn or dropped): they leave it first, as
        they leave a table (docs/RULES.md §Tournaments). Once out, forgetting keeps
        their line of it under a stand-in id with no name (``Repository.forget_user``)."""
        info = await self.store.current_tournament(guild_id)
        if info is None or info.status not in ("open", "running"):
            return
        entrants = await self.store.tournament_entrants(info.tournament_id)
        if any(e.user_id == user_id and e.status == "in" for e in entrants):
            raise GameError("forget_while_tournament", tournament=info.tournament_id)

    def forgotten(self, guild_id: int, user_id: int) -> None:
        """After ``/ddz forget`` (``Forgetting.listeners``): the server's tournament
        tables still open whose starter is the member (the organiser, ``created_by``:
        never seated there, ``Forgetting.check`` refuses that) take ``NO_ORGANISER``
        instead, as storage did for the tournament, so the tables' saved state keeps no
        id of theirs; admins still stop or close them (docs/RULES.md §Tournaments)."""
        for table in self.host.tables():
            if (table.guild_id == guild_id and table.kind == TournamentKey.KIND
                    and table.starter_id == user_id):
                self._spawn(self._no_starter(table.id))

    async def _no_starter(self, table_id: str) -> None:
        def apply(table: Table, now: float) -> list[Event]:
            table.starter_id = NO_ORGANISER  # nothing a member sees: no event, no notice
            return []

        with contextlib.suppress(GameError):  # closed meanwhile: its saved state is gone
            await self.host.act(table_id, apply, notify=False, schedule=False)

    # ----- the table service's seam ------------------------------------------------

    def hand_title(self, table: Table) -> Title:
        """The hand view's first line at a tournament's table ("Your hand · round 2,
        table 3 · hand 1 of the round": no "#", the one hand number being the server's
        that its result shows, issue 48), ``TitledKind``, from its ``TournamentKey`` alone."""
        key = TournamentKey.of(table)
        round_no, table_no = ("", "") if key is None else (str(key.round_no), str(key.table_no))
        return "tournament.hand_title", {"round": round_no, "table": table_no,
                                         "hand": table.hand_no}

    async def settled(self, table: Table, settlement: Settlement) -> None:
        """A hand settled at one of our tables (``PublicKind``): reconcile its tournament
        in a task of its own (the next deal waits ``HAND_PAUSE``)."""
        key = TournamentKey.of(table)
        if key is not None:
            self._spawn(self._after_hand(key.tournament_id))

    async def _after_hand(self, tournament_id: str) -> None:
        info = await self.store.tournament(tournament_id)
        if info is not None and info.hands > 1:
            await self.host.clock.sleep(max(self.min_pause, HAND_PAUSE * self.host.pace_scale))
        await self.reconcile(tournament_id)

    # ----- the one path that moves a tournament on -----------------------------------

    async def tick(self, serves: Callable[[int], bool] | None = None) -> None:
        """Start the tournaments whose time has come and reconcile every live one (the
        cogs call it at start-up, after ``TableService.restore``, and every few seconds);
        ``serves``: only the servers of this process's shards (docs/SCALING.md)."""
        for info in await self.store.live_tournaments():
            if serves is not None and not serves(info.guild_id):
                continue
            try:
                if info.status == "open" and info.starts_at is not None \
                        and info.starts_at <= self.host.clock.now():
                    await self._scheduled_start(info)
                elif info.status == "running":
                    await self.reconcile(info.tournament_id)
            except Exception:
                log.exception("tournament %s: tick failed", info.tournament_id)

    async def _scheduled_start(self, info: TournamentInfo) -> None:
        """Start at the scheduled time; with too few entrants it says so once (per process)
        and stays open for the organiser's ``start``."""
        if info.tournament_id in self._refused:
            return
        try:
            await self._start(info)
        except GameError as error:
            if error.code != "tournament_too_few":
                raise
            self._refused.add(info.tournament_id)
            await self._post(self.poster.start_refused(info, int(error.params["count"])))

    async def reconcile(self, tournament_id: str) -> None:
        """Do whatever the tournament's state in the repository says is missing (see the
        module docstring); a no-op on a tournament that is not running."""
        if self._closed:
            return
        async with self._lock(tournament_id):
            for _ in range(MAX_ROUNDS + 2):  # a round may end and the next be seated
                info = await self.store.tournament(tournament_id)
                if info is None or info.status != "running" or not await self._step(info):
                    return

    async def _step(self, info: TournamentInfo) -> bool:
        """One pass over the current round; True when it moved to another round."""
        now = self.host.clock.now()
        if info.current_round == 0:
            return await self._seat(info, 1)
        tables = await self.store.tournament_tables(info.tournament_id, info.current_round)
        hands = await self.store.tournament_hands(info.tournament_id)
        for played in tables:
            if played.finished_at is None:
                try:
                    await self._table_step(info, played, hands)
                except ThreadRefused as refused:  # the server's threads: the others wait too
                    await self._thread_refused(info, refused)
                    break
                except Exception:  # that table again on the next pass; the others go on
                    log.exception("tournament %s: round %d table %d", info.tournament_id,
                                  played.round_no, played.table_no)
        tables = await self.store.tournament_tables(info.tournament_id, info.current_round)
        if any(t.finished_at is None for t in tables):
            return False
        if await self.store.finish_tournament_round(info.tournament_id, info.current_round, now):
            log.info("tournament %s: round %d over", info.tournament_id, info.current_round)
            for played in tables:  # a thread a crash left open
                if played.thread_id is not None and played.thread_id not in self._closed_threads:
                    await self._close_thread(info, played.thread_id, None)
        return await self._seat(info, info.current_round + 1)

    async def _seat(self, info: TournamentInfo, round_no: int) -> bool:
        """Seat ``round_no`` (once) and announce it, or finish the tournament."""
        entrants = await self.store.tournament_entrants(info.tournament_id)
        active = self._active(entrants)
        if round_no > info.rounds or (round_no > 1 and len(active) < MIN_ACTIVE) or not active:
            await self._finish(info, entrants)
            return False
        played = await self.store.tournament_tables(info.tournament_id)
        ranked = [row.user_id for row in rank([e.user_id for e in entrants], played)]
        seats = seat_round(round_no, active, ranked, [t.seats for t in played], info.seed)
        if len(seats) > MAX_TABLES:  # MAX_ENTRANTS keeps a field below it
            raise GameError("tournament_full")
        if await self.store.seat_tournament_round(info.tournament_id, round_no, seats,
                                               self.host.clock.now()):
            tables = await self.store.tournament_tables(info.tournament_id, round_no)
            await self._post(self.poster.round_seated(info, round_no, tables))
        return True

    async def _table_step(self, info: TournamentInfo, played: TournamentTable,
                          hands: Sequence[TournamentHand]) -> None:
        """Open, record, deal on or finish one table of the current round."""
        storage = self.host.storage
        now = self.host.clock.now()
        key = (info.tournament_id, played.round_no, played.table_no)
        table_id = game_table_id(*key)
        table = self.host.get(table_id)
        if played.thread_id is None or played.table_id is None:
            refusals = self._threads.get(info.tournament_id)
            if played.thread_id is None and refusals is not None and now < refusals.retry_at:
                return  # Discord refused a thread: wait for the back-off
            if played.opened_at is None and not await self.store.claim_tournament_table(*key, now):
                return
            await self._open(info, played, table_id)
            return
        if table is None:  # closed (finished, or an admin closed it): what was played counts
            await self._finish_table(info, played, hands)
            return
        if table.settleable and table.hand is not None:
            result = table.hand.result
            assert result is not None
            recorded = [h for h in hands if (h.round_no, h.table_no, h.hand) == (
                played.round_no, played.table_no, table.hand_no)]
            if not recorded:  # settled before a crash, not recorded yet
                settled = await storage.finished_hand(table.hand_id)
                hand_no = settled[1].hand_no if settled is not None else None
                hand = TournamentHand(
                    round_no=played.round_no, table_no=played.table_no, hand=table.hand_no,
                    hand_no=hand_no or 0,
                    points=(result.points[0], result.points[1], result.points[2]))
                await self.store.record_tournament_hand(info.tournament_id, hand)
                hands = [*hands, hand]
            if table.hand_no >= info.hands:
                await self._finish_table(info, played, hands)
            else:
                seed = self.host.deal_seed()
                await self.host.act(table_id, lambda t, now: t.deal_next(now, seed=seed))
        elif table.phase in ("finished", "lobby"):  # a hand stopped by an admin: deal again
            seed = self.host.deal_seed()
            await self.host.act(table_id, lambda t, now: t.deal_next(now, seed=seed))

    async def _open(self, info: TournamentInfo, played: TournamentTable, table_id: str) -> None:
        """The table's thread (the poster) and its game table, dealt."""
        table = self.host.get(table_id)
        thread_id = played.thread_id
        if thread_id is None:
            thread_id = await self.poster.open_thread(info, played)
            if self._threads.pop(info.tournament_id, None) is not None:
                log.info("tournament %s: threads open again", info.tournament_id)
        if table is None:
            table = await self._deal_table(info, played, table_id, thread_id)
        await self.store.set_tournament_table(
            info.tournament_id, played.round_no, played.table_no, thread_id, table.id)

    async def _deal_table(self, info: TournamentInfo, played: TournamentTable,
                          table_id: str, thread_id: int) -> Table:
        settings = await self.host.settings(info.guild_id)
        names = {e.user_id: e.name or str(e.user_id)
                 for e in await self.store.tournament_entrants(info.tournament_id)}
        level: Level = info.level if info.level in LEVELS else "normal"  # type: ignore[assignment]  # checked
        table = Table(
            id=table_id, guild_id=info.guild_id, channel_id=thread_id,
            starter_id=info.created_by,
            rules=info.rules if info.rules is not None else settings.rules.as_classic(),
            turn_seconds_play=settings.turn_seconds_play,
            turn_seconds_bid=settings.turn_seconds_bid, computer_level=level,
        )  # fmt: skip
        TournamentKey(tournament_id=info.tournament_id, round_no=played.round_no,
                      table_no=played.table_no).mark(table)
        table.feature_hands = info.hands  # its result says which hand is the round's last
        for i, user_id in enumerate(played.seats):
            table.seats[i] = (computer_seat(i, level) if user_id is None
                              else Seat(user_id=user_id, name=names.get(user_id, "?")))
        events = [Event(kind="opened", seat=0),
                  *table.deal_next(self.host.clock.now(), seed=self.host.deal_seed())]
        if table.deadline is not None:  # the round's first turn: time to find the thread
            table.deadline += self.grace

        async def claim() -> bool:
            await self.host.storage.save_table(table)
            return True

        await self.host.add_private(table, claim, events)
        return table

    async def _finish_table(self, info: TournamentInfo, played: TournamentTable,
                            hands: Sequence[TournamentHand]) -> None:
        """Record the table's points, close its game table, then archive and lock its
        thread once its board shows the result (before the round's end or the final
        standings are posted: a reader never sees standings of a hand not shown yet)."""
        points = _points(hands, played.round_no, played.table_no)
        await self.store.finish_tournament_table(
            info.tournament_id, played.round_no, played.table_no, points,
            self.host.clock.now())
        table_id = game_table_id(info.tournament_id, played.round_no, played.table_no)
        closed = await self._close(table_id)
        if played.thread_id is not None:
            await self._close_thread(info, played.thread_id,
                                     None if closed is None else (table_id, closed.seq))

    async def _close_thread(self, info: TournamentInfo, thread_id: int,
                            shown: tuple[str, int] | None) -> None:
        try:
            await self.poster.close_thread(info, thread_id, shown)
        except Exception as error:  # left active: Discord archives it when idle
            log.warning("tournament %s: thread %s not archived: %s", info.tournament_id,
                        thread_id, error)
        else:
            self._closed_threads.add(thread_id)

    async def _thread_refused(self, info: TournamentInfo, refused: ThreadRefused) -> None:
        """One refusal of a table's thread: the next try waits ``thread_retry`` seconds,
        doubling up to ``THREAD_RETRY_MAX``; one warning per step, and the organiser hears
        of it once per run of refusals (``TournamentPoster.thread_refused``)."""
        run = self._threads.setdefault(info.tournament_id, _Refusals())
        run.step += 1
        wait = min(self.thread_retry * 2 ** (run.step - 1), THREAD_RETRY_MAX)
        run.retry_at = self.host.clock.now() + wait
        log.warning("tournament %s: Discord refused a table's thread (%s%s), refusal %d in a "
                    "row; next try in %.0f s", info.tournament_id, refused.reason,
                    f", {refused.detail}" if refused.detail else "", run.step, wait)
        if not run.told:
            run.told = True
            await self._post(self.poster.thread_refused(info, refused.reason, wait))

    async def _close(self, table_id: str) -> Table | None:
        """Close the game table; the closed state (None: it was gone already)."""
        table = self.host.get(table_id)
        if table is None:
            return None
        return await self.host.act(table_id, lambda t, now: t.cancel(t.starter_id, True))

    async def _finish(self, info: TournamentInfo, entrants: list[TournamentEntrant]) -> None:
        if await self.store.finish_tournament(info.tournament_id,
                                                     self.host.clock.now()):
            result = await self._standings(info)
            await self._post(self.poster.finished(info, result.rows, entrants))

    # ----- helpers --------------------------------------------------------------------

    @staticmethod
    def _active(entrants: Sequence[TournamentEntrant]) -> list[int]:
        return [e.user_id for e in entrants if e.status == "in"]

    async def _signup_changed(self, info: TournamentInfo) -> None:
        count = len(self._active(await self.store.tournament_entrants(
            info.tournament_id)))
        await self._post(self.poster.signup_changed(info, count))

    async def _post(self, call: Any) -> None:
        try:
            await call
        except Exception:
            log.exception("tournament post failed")

    def _lock(self, tournament_id: str) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    def _spawn(self, work: Any) -> None:
        if self._closed:
            work.close()
            return
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Cancel the pending steps (``reconcile`` redoes them at the next start)."""
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
