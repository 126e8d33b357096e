"""EventService: duplicate events of a server (docs/RULES.md §Events).

An admin creates an event (``create``: a name, 1–12 deals, the computers' level, a
closing time); members ``join`` and ``play`` its deals one after the other, each on a
private table dealt through ``TableService`` like the daily deal's (lock, ``seq``,
timers, restore after a restart; the same fixed-budget, position-seeded computers), from
the same seat as every other entrant. ``standings`` scores each deal against the field
(``bot.features.events.rules``); ``may_see`` is the one rule of who may see an event's deal: every
entrant once the event is closed, before that only members who finished that deal.
``close`` ends it early; ``due`` / ``announce`` give the results once, for the channel
where the event was created. Nothing here touches match totals, stats or ratings.
"""

from __future__ import annotations

import functools
import math
import secrets
import unicodedata
from dataclasses import dataclass
from fractions import Fraction

from bot.ai import LEVELS
from bot.features.events.rules import (
    EVENT_SEAT,
    MAX_DEALS,
    event_forgotten_mark,
    event_seed,
    event_table,
    member_points,
    standings,
)
from bot.features.events.store import EventStore
from bot.features.events.values import (
    EventDeal,
    EventInfo,
    EventPlay,
    EventRow,
    EventStandings,
    EventSummary,
)
from bot.game.errors import GameError
from bot.game.hand import Hand
from bot.game.private import move_rng, moves_of
from bot.game.table import Table
from bot.service.host import PrivateHost, Title
from bot.service.replays import private_record
from bot.storage.repository import ForgetStep
from bot.values import FinishedHand

MAX_HOURS = 14 * 24
"""Longest time an event stays open (``/ddz event create hours:``): two weeks."""
MAX_NAME = 60
"""Most characters of an event's name."""
STANDIN_MOVES = 200
"""Bound on the moves of a stand-in hand (a hand has at most 54 plays and their passes)."""


@dataclass(frozen=True)
class EventOpen:
    """What ``/ddz event play`` leads to: the member's table of deal ``deal`` (``fresh``
    when just dealt), or ``table`` None when they have played every deal."""

    event: EventInfo
    deal: int | None = None
    table: Table | None = None
    fresh: bool = False


class EventService:
    """Duplicate events over a TableService (its storage, clock, decider and tables)."""

    def __init__(self, tables: PrivateHost) -> None:
        self.tables = tables
        self.storage = tables.storage
        self.store = EventStore(tables.storage)
        """The events' rows (``bot.features.events.store``)."""

    def now(self) -> float:
        return self.tables.clock.now()

    def hand_title(self, table: Table) -> Title:
        """The hand view's first line at an event's table ("Event deal 2", ``TitledKind``)."""
        payload = EventDeal.of(table)
        return "event.title", {"deal": 0 if payload is None else payload.deal}

    # ----- admin -------------------------------------------------------------------------

    async def create(self, guild_id: int, channel_id: int, user_id: int, name: str,
                     deals: int, level: str, hours: float) -> EventInfo:
        """A new event of the server, open for ``hours``, announced in ``channel_id``, its
        computers' ``level`` and the server's rule variants now kept for all its deals
        (an admin's later change does not reach it: the same game for every entrant).
        Raises GameError: event_name (longer than ``MAX_NAME``, or nothing visible: empty,
        spaces, zero-width or control characters), event_deals
        (not 1–12), event_hours (not within 1 hour – two weeks), bad_option (level),
        event_exists (the server has an event whose results are not announced yet)."""
        name = " ".join(name.split())
        if len(name) > MAX_NAME or not any(_visible(c) for c in name):
            raise GameError("event_name", most=str(MAX_NAME))
        if not 1 <= deals <= MAX_DEALS:
            raise GameError("event_deals", most=str(MAX_DEALS))
        if not (math.isfinite(hours) and 1 <= hours <= MAX_HOURS):
            raise GameError("event_hours", most=str(MAX_HOURS))
        if level not in LEVELS:
            raise GameError("bad_option")
        now = self.now()
        rules = (await self.tables.settings(guild_id)).rules  # frozen for the whole event
        event = EventInfo(event_id=secrets.token_hex(4), guild_id=guild_id,
                          channel_id=channel_id, name=name, deals=deals, level=level,
                          created_by=user_id, created_at=now, closes_at=now + hours * 3600,
                          rules=rules)
        if not await self.store.create_event(event):
            current = await self.store.current_event(guild_id)
            raise GameError("event_exists", name=current.name if current else "?")
        return event

    async def close(self, guild_id: int) -> EventInfo:
        """Close the server's open event now (``/ddz event close``); its results are
        announced once the deals being played are over. Raises GameError: no_event,
        event_closed (closed already)."""
        event = await self._open(guild_id)
        if not await self.store.close_event(event.event_id, self.now()):
            raise GameError("event_closed", name=event.name)
        closed = await self.store.event(event.event_id)
        assert closed is not None
        return closed

    # ----- members -----------------------------------------------------------------------

    async def current(self, guild_id: int) -> EventInfo | None:
        """The server's event not yet announced, else its latest, else None."""
        return await self.store.current_event(guild_id)

    async def _open(self, guild_id: int) -> EventInfo:
        """The server's event while it is open. Raises GameError: no_event, event_closed."""
        event = await self.store.current_event(guild_id)
        if event is None or event.announced_at is not None:
            raise GameError("no_event")
        if event.is_closed(self.now()):
            raise GameError("event_closed", name=event.name)
        return event

    async def _enterable(self, guild_id: int, user_id: int) -> EventInfo:
        """The server's open event, which the member may enter. Raises GameError: no_event,
        event_closed, event_forgotten (they began a deal of it, then used ``/ddz forget``:
        ``forget_marks``)."""
        event = await self._open(guild_id)
        mark = event_forgotten_mark(await self._key(guild_id), guild_id, event.event_id, user_id)
        if await self.store.event_marked(event.event_id, mark):
            raise GameError("event_forgotten", name=event.name)
        return event

    async def forget_step(self, guild_id: int, user_id: int) -> ForgetStep:
        """Its part of ``/ddz forget`` (``Forgetting.add_step``): ``forget_marks`` kept."""
        return self.store.forget_step(guild_id, user_id, await self.forget_marks(guild_id, user_id))

    async def forget_marks(self, guild_id: int, user_id: int) -> list[tuple[str, int]]:
        """What ``/ddz forget`` keeps of the member's event entries: for the server's open
        event, if they began a deal of it, (event id, ``event_forgotten_mark``), a keyed
        hash with no id, name or result, so forgetting cannot buy a second entry (and a
        replay of deals whose cards they know). Dropped when the results are announced."""
        event = await self.store.current_event(guild_id)
        if event is None or event.announced_at is not None:
            return []
        if not await self.store.event_began(event.event_id, user_id):
            return []
        return [(event.event_id,
                 event_forgotten_mark(await self._key(guild_id), guild_id, event.event_id,
                                      user_id))]

    async def join(self, guild_id: int, user_id: int, name: str) -> tuple[EventInfo, bool]:
        """Enter the member in the open event; (event, False) when entered already.
        Raises GameError: no_event, event_closed, event_forgotten (``_enterable``)."""
        event = await self._enterable(guild_id, user_id)
        return event, await self.store.join_event(event, user_id, name)

    def table_of(self, guild_id: int, user_id: int, event_id: str) -> Table | None:
        """The member's open table of a deal of the event, or None."""
        for table in self.tables.tables():
            payload = EventDeal.of(table)
            if (payload is not None and table.guild_id == guild_id
                    and payload.event_id == event_id
                    and table.seats[EVENT_SEAT].user_id == user_id):
                return table
        return None

    async def play(self, guild_id: int, user_id: int, name: str,
                   locale: str | None = None) -> EventOpen:
        """``/ddz event play``: the member's deal being played (also after a restart),
        else the next deal they have not played, dealt now (entering them), else
        ``EventOpen(table=None)``: every deal played. Raises GameError: no_event,
        event_closed, event_forgotten (``_enterable``), event_lost (a play begun whose
        table this process does not hold). A deal begun before the close is still
        brought back (it is played to its end, docs/RULES.md §Events)."""
        current = await self.store.current_event(guild_id)
        if current is not None and current.announced_at is None:
            table = self.table_of(guild_id, user_id, current.event_id)
            if table is not None:
                return EventOpen(current, _deal(table), table)
        event = await self._enterable(guild_id, user_id)
        table = self.table_of(guild_id, user_id, event.event_id)
        if table is not None:  # dealt by a racing /ddz event play meanwhile
            return EventOpen(event, _deal(table), table)
        mine = {p.deal: p for p in await self.store.event_plays(event.event_id)
                if p.user_id == user_id}
        if any(not p.finished for p in mine.values()):
            raise GameError("event_lost")
        deal = next((d for d in range(1, event.deals + 1) if d not in mine), None)
        if deal is None:
            return EventOpen(event)
        settings = await self.tables.settings(guild_id)
        table, events = event_table(
            guild_id, user_id, name, locale, event_id=event.event_id, deal=deal,
            seed=await self.seed(event, deal), level=event.level,  # type: ignore[arg-type]  # checked at create
            rules=event.rules or settings.rules,
            turn_seconds=settings.turn_seconds_play, now=self.now())
        if await self.tables.add_private(
                table, functools.partial(self.store.begin_event_play, table, event, deal,
                                         user_id, name, self.now()), events):
            return EventOpen(event, deal, table, fresh=True)
        table = self.table_of(guild_id, user_id, event.event_id)
        if table is not None:  # a racing /ddz event play of the same member dealt it
            return EventOpen(event, deal, table)
        await self._open(guild_id)  # closed meanwhile: say so
        raise GameError("event_lost")

    async def seed(self, event: EventInfo, deal: int) -> int:
        """The seed of ``deal`` (``bot.features.events.rules.event_seed`` with the server's secret
        key, the daily deal's, created on first use)."""
        return event_seed(await self._key(event.guild_id), event.guild_id, event.event_id, deal)

    async def _key(self, guild_id: int) -> bytes:
        """The server's secret key (the daily deal's, created on first use)."""
        return bytes.fromhex(await self.storage.server_key(guild_id, secrets.token_hex(32)))

    async def finish(self, table: Table) -> None:
        """Record a finished event table as the member's result of its deal (``PrivateDeal``,
        called by ``TableService`` in place of settling a table hand: no totals, stats or
        ratings)."""
        payload = EventDeal.of(table)
        assert payload is not None
        event_id, deal = payload.event_id, payload.deal
        user_id = table.seats[EVENT_SEAT].user_id
        assert user_id is not None
        await self.store.finish_event_play(table, event_id, deal, user_id,
                                             member_points(table), moves_of(table, EVENT_SEAT))

    # ----- what may be seen --------------------------------------------------------------

    async def may_see(self, event: EventInfo, deal: int, user_id: int) -> bool:
        """Whether the member may see deal ``deal`` of ``event`` (its cards, anyone's play
        or points on it): once the member finished that deal; or once the event is
        closed, unless their own play of that deal is still unfinished (a deal begun
        before the close stays hidden from its player, admins included, until it ends or
        the results are announced). The one rule (standings, replays, stats)."""
        return _may_see(event, deal, user_id, await self.store.event_plays(event.event_id),
                        event.is_closed(self.now()))

    async def hand(self, event: EventInfo, deal: int, user_id: int, viewer_id: int
                   ) -> Hand | None:
        """``user_id``'s finished hand of ``deal`` for ``viewer_id``: None when unknown or
        when the viewer may not see that deal yet (``may_see``)."""
        if not await self.may_see(event, deal, viewer_id):
            return None
        blob = await self.store.event_hand(event.event_id, deal, user_id)
        return None if blob is None else Hand.model_validate_json(blob)

    async def event_of(self, guild_id: int, event_id: str) -> EventInfo | None:
        """The server's event with this id; None when unknown or another server's (a
        forged button)."""
        event = await self.store.event(event_id)
        return event if event is not None and event.guild_id == guild_id else None

    async def hand_record(self, event: EventInfo, deal: int, user_id: int, viewer_id: int
                          ) -> FinishedHand | None:
        """``user_id``'s finished hand of ``deal`` shaped as a settled table hand, so that
        ``ReplayService`` pages, animates and reviews it like a daily hand
        (``bot.service.replays.private_record``; hand id ``"event:<event id>:<deal>:<user>"``,
        seat 0 the member); for ``viewer_id``, None when unknown, when ``deal`` is not one
        of the event's, or when the viewer may not see it yet (``may_see``)."""
        if not 1 <= deal <= event.deals or not await self.may_see(event, deal, viewer_id):
            return None
        play = next((p for p in await self.store.event_plays(event.event_id)
                     if p.deal == deal and p.user_id == user_id and p.finished), None)
        blob = await self.store.event_hand(event.event_id, deal, user_id)
        if play is None or blob is None:
            return None
        return private_record(f"event:{event.event_id}:{deal}:{user_id}", event.guild_id,
                              play.table_id, play.finished_at or 0.0, blob, user_id, play.name)

    async def standings(self, guild_id: int, viewer_id: int) -> EventStandings | None:
        """The server's current event's standings as ``viewer_id`` may see them (None
        without an event): final once closed (every deal, stand-ins for deals not played,
        ``final_standings``), else over the deals the viewer finished, scoring only the
        entrants who finished each of them."""
        event = await self.current(guild_id)
        if event is None:
            return None
        if event.is_closed(self.now()):
            if (event.announced_at is not None
                    or not await self.store.event_in_progress(event.event_id)):
                return await self.final_standings(event)
            return await self.provisional_standings(event, viewer_id)
        plays = await self.store.event_plays(event.event_id)
        seen = sorted({p.deal for p in plays if p.user_id == viewer_id and p.finished})
        results: dict[int, dict[int, int]] = {d: {} for d in seen}
        for play in plays:
            if play.finished and play.deal in results:
                results[play.deal][play.user_id] = play.points
        return await self._standings(event, results, plays, final=False, seen=seen)

    async def final_standings(self, event: EventInfo) -> EventStandings:
        """The closed event's standings: every entrant on every deal, the stand-in result
        (``standin``) for a deal they did not finish by the close."""
        plays = await self.store.event_plays(event.event_id)
        entrants = [user for user, _ in await self.store.event_entrants(event.event_id)]
        done = {(p.deal, p.user_id): p.points for p in plays if p.finished}
        results: dict[int, dict[int, int]] = {}
        for deal in range(1, event.deals + 1):
            missing = [u for u in entrants if (deal, u) not in done]
            filler = await self.standin(event, deal) if missing else 0
            results[deal] = {u: done.get((deal, u), filler) for u in entrants}
        return await self._standings(event, results, plays, final=True,
                                     seen=list(range(1, event.deals + 1)))

    async def provisional_standings(self, event: EventInfo, viewer_id: int) -> EventStandings:
        """A closed event's standings while deals begun before the close are still being
        played (``provisional``, not final: docs/RULES.md §Events): over the deals the
        viewer may see (``may_see``: not the one they are still playing), every entrant
        who finished a deal with their points, who did not begin it with its stand-in,
        and who is still playing it left out of that deal until they finish."""
        plays = await self.store.event_plays(event.event_id)
        entrants = [user for user, _ in await self.store.event_entrants(event.event_id)]
        began = {(p.deal, p.user_id): p for p in plays}
        seen = [deal for deal in range(1, event.deals + 1)
                if _may_see(event, deal, viewer_id, plays, closed=True)]
        results: dict[int, dict[int, int]] = {}
        for deal in seen:
            missing = [u for u in entrants if (deal, u) not in began]
            filler = await self.standin(event, deal) if missing else 0
            results[deal] = {u: began[(deal, u)].points if (deal, u) in began else filler
                             for u in entrants
                             if (deal, u) not in began or began[(deal, u)].finished}
        return await self._standings(event, results, plays, final=False, seen=seen,
                                     provisional=True)

    async def _standings(self, event: EventInfo, results: dict[int, dict[int, int]],
                         plays: list[EventPlay], *, final: bool, seen: list[int],
                         provisional: bool = False) -> EventStandings:
        named = await self.store.event_entrants(event.event_id)
        names = dict(named)
        played: dict[int, int] = {}
        for play in plays:
            if play.finished:
                played[play.user_id] = played.get(play.user_id, 0) + 1
        if final or provisional:
            entrants = [user for user, _ in named]
        else:  # only who has a result on a deal the viewer may see, in the order they joined
            scored = {u for per in results.values() for u in per}
            entrants = [user for user, _ in named if user in scored]
            entrants += sorted(scored - set(entrants))
        rows = [EventRow(place=s.place, user_id=s.user_id, name=names.get(s.user_id),
                         score=float(s.total), exact=_exact(s.total), points=s.points,
                         played=s.played)
                for s in standings(results, entrants, played)]
        return EventStandings(event=event, final=final, provisional=provisional,
                              deals_seen=seen, rows=rows, entrants=len(named))

    async def standin(self, event: EventInfo, deal: int) -> int:
        """The stand-in result of ``deal``: the member's seat played by auto-play from the
        first move (what walking away gives, docs/RULES.md §Events), against the same
        computers. The same for every entrant who did not play it (the computers answer
        the position alone); worked out once and stored."""
        stored = await self.store.event_standins(event.event_id)
        if deal in stored:
            return stored[deal]
        settings = await self.tables.settings(event.guild_id)
        table, _ = event_table(
            event.guild_id, 0, "", None, event_id=event.event_id, deal=deal,
            seed=await self.seed(event, deal), level=event.level,  # type: ignore[arg-type]  # checked at create
            rules=event.rules or settings.rules, turn_seconds=settings.turn_seconds_play, now=0.0)
        table.seats[EVENT_SEAT].autoplay = True
        for _ in range(STANDIN_MOVES):
            if table.phase != "playing":
                break
            table.auto_act(await self.tables.decider(table, move_rng(table)), 0.0)
        points = member_points(table)
        assert table.hand is not None
        await self.store.save_event_standin(event.event_id, deal, points,
                                              table.hand.model_dump_json())
        return (await self.store.event_standins(event.event_id)).get(deal, points)

    # ----- closing and announcing --------------------------------------------------------

    async def due(self) -> list[EventInfo]:
        """Closed events (every server) whose results are due: not announced yet and no
        deal still being played (a deal begun before the close is played to its end)."""
        ready = []
        for event in await self.store.events_due(self.now()):
            if not await self.store.event_in_progress(event.event_id):
                ready.append(event)
        return ready

    async def announce(self, event: EventInfo) -> EventStandings | None:
        """The final standings to post, once: None when announced already (by this or
        another process). The stand-ins are worked out first, then the announcement is
        claimed, so a restart before the claim announces it later, never twice."""
        final = await self.final_standings(event)
        if not await self.store.claim_event_announcement(event.event_id, self.now()):
            return None
        return final

    async def summary(self, guild_id: int, user_id: int) -> EventSummary:
        """The member's record over the server's announced events (``/ddz stats``). An
        event is won by the entrants in first place, only when it had at least two: an
        event of one is entered, not won (docs/RULES.md §Events)."""
        events = await self.store.events_of_user(guild_id, user_id)
        won = deals = 0
        score = Fraction(0)
        for event in events:
            final = await self.final_standings(event)
            row = next((r for r in final.rows if r.user_id == user_id), None)
            if row is None:
                continue
            won += row.place == 1 and len(final.rows) > 1
            deals += row.played
            score += Fraction(row.exact)
        return EventSummary(events=len(events), won=won, deals=deals, score=float(score))


def _may_see(event: EventInfo, deal: int, user_id: int, plays: list[EventPlay],
             closed: bool) -> bool:
    """``EventService.may_see`` over the event's ``plays``: the member finished ``deal``,
    or the event is ``closed`` and their own play of it (if any) is over or the results
    are announced."""
    own = next((p for p in plays if p.deal == deal and p.user_id == user_id), None)
    if own is not None and own.finished:
        return True
    if not closed:
        return False
    return own is None or event.announced_at is not None


def _visible(char: str) -> bool:
    """Whether ``char`` shows (not a separator, control, format or unassigned one)."""
    return unicodedata.category(char)[0] not in "CZ"


def _exact(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def _deal(table: Table) -> int:
    """The deal of an event's table (``EventDeal``)."""
    payload = EventDeal.of(table)
    assert payload is not None
    return payload.deal
