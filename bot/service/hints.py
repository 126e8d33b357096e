"""The Hint button's suggestions: an answer at once, the hard search's pick when ready.

The hard search behind a Hint's first suggestion is pure Python (a tenth to a few
tenths of a second of CPU), so it runs in the AI worker process of
``bot.service.worker.ai_pool`` (shared with hard computer moves; thread fallback), never
on the event loop. A Hint is answered at once with the best suggestions ready
(``HintCache.now``): the full list when the search for that position is done
(``bot.ai.hint_options``: its pick, then the normal level's ranking), else the
normal level's ranking (``bot.ai.choices``, computed once per position on the
loop) plus a future of the full list, so the caller can show the better pick when
it arrives.

Searches are bounded: at most ``MAX_SEARCHES`` run or wait at once (beyond that a
Hint keeps the normal level's answer), a position's search runs once however
many clicks ask for it, and a search nobody waits for any more (the position
changed: ``forget_table``) is cancelled before it starts. ``prefetch`` starts the
search of a member's turn when the turn begins, only for a seat whose member has
asked for a Hint before at that table (``ASKED_SIZE``) and only while no other search
runs, so that their next Hints find it ready without ever delaying one that was asked
for, and members who never press Hint cost no search
(docs/PERFORMANCE.md §Searched ahead only for who asks). A position with one action only
(a pass with nothing that beats the play) is never searched: the normal level's answer is
the search's (docs/PERFORMANCE.md §One action, no search).
"""

from __future__ import annotations

import asyncio
import logging

from bot.ai import Decision
from bot.game.computer import hint_options_from_json
from bot.game.table import Table
from bot.service.lru import Lru, SingleFlight
from bot.service.pool import WorkerPool
from bot.service.positions import ChoicesCache, happy_asked
from bot.service.tasks import cancel_and_wait

log = logging.getLogger(__name__)

HINT_CACHE_SIZE = 256
"""Positions whose full suggestions are kept (least recently used dropped first)."""

MAX_SEARCHES = 2
"""Hard searches running or queued at once; a Hint beyond that keeps the quick answer."""

ASKED_SIZE = 4096
"""Seats (table id, seat) remembered as having asked for a Hint (least recently used
dropped first): only theirs are searched ahead (``HintCache.prefetch``)."""

Key = tuple[str, int, int]


async def compute(table: Table, seat: int, pool: WorkerPool | None = None) -> list[Decision]:
    """``bot.ai.hint_options`` for ``seat`` of ``table``, in ``pool`` (the AI worker pool;
    None: a thread). Raises GameError("wrong_phase") without a hand."""
    if pool is None:
        return await asyncio.to_thread(hint_options_from_json, table.model_dump_json(), seat)
    return await pool.run(hint_options_from_json, table.model_dump_json(), seat)


class HintCache:
    """Hint suggestions per position (table id, seq, seat): the full lists of the
    last ``size`` positions searched, and the searches in flight."""

    def __init__(self, size: int = HINT_CACHE_SIZE, choices: ChoicesCache | None = None,
                 pool: WorkerPool | None = None) -> None:
        self.pool = pool
        """Where the searches run (the AI worker pool; None: threads)."""
        self.choices = choices or ChoicesCache()
        self._options: Lru[Key, list[Decision]] = Lru(size)
        self._searches: SingleFlight[Key, list[Decision]] = SingleFlight()
        self._speculative: set[Key] = set()
        self._asked: Lru[tuple[str, int], bool] = Lru(ASKED_SIZE)
        self.answered = {"ready": 0, "quick": 0, "dropped": 0}
        """How Hints were answered: the full list ready, the quick answer while a
        search runs, the quick answer with no search (too many running)."""

    async def options(self, table: Table, seat: int) -> list[Decision]:
        """The full suggestions of ``seat`` at ``table``'s current position (searched once;
        a position with one action only is never searched: ``_only``)."""
        key = (table.id, table.seq, seat)
        self.note_asked(table.id, seat)
        found = self._options.get(key)
        if found is None:
            found = self._only(table, seat)
        if found is not None:
            return found
        return await asyncio.shield(self._search(table, seat, speculative=False))

    def now(self, table: Table, seat: int) -> tuple[list[Decision], asyncio.Task[list[Decision]] | None]:
        """``(suggestions, later)`` without waiting: the full list and None when the
        position was searched, else the normal level's ranking and the search's task
        (None when ``MAX_SEARCHES`` are already running; await it through
        ``asyncio.shield``, never cancel it: other clicks may share it). Never raises."""
        key = (table.id, table.seq, seat)
        self.note_asked(table.id, seat)
        found = self._options.get(key)
        if found is None:
            found = self._only(table, seat)
        if found is not None:
            self.answered["ready"] += 1
            return found, None
        quick = list(self.choices.get(table, seat).suggestions)
        if key not in self._searches and len(self._searches) >= MAX_SEARCHES:
            self.answered["dropped"] += 1
            return quick, None
        self.answered["quick"] += 1
        return quick, self._search(table, seat, speculative=False)

    def ready(self, table: Table, seat: int) -> bool:
        """Whether the search of ``seat``'s position at ``table`` is done (its full list
        kept): a Hint answered now is the search's pick, not the quick one."""
        return (table.id, table.seq, seat) in self._options

    def note_asked(self, table_id: str, seat: int) -> None:
        """``seat``'s member asked for a Hint at this table: their turns are searched ahead
        from now on (``prefetch``)."""
        self._asked.put((table_id, seat), True)

    def prefetch(self, table: Table, seat: int) -> None:
        """Start the search of ``seat``'s position now if its member asked for a Hint
        before at this table (``now``, ``options``) and no other search is running."""
        hand = table.hand
        if (self._searches or hand is None or self._asked.peek((table.id, seat)) is None
                or (hand.phase != "playing" and happy_asked(table, seat) is None)):
            return  # the play, or a Happy decision (call, grab, show)
        if ((table.id, table.seq, seat) not in self._options
                and self._only(table, seat, rank=False) is None):
            self._search(table, seat, speculative=True)

    def forget_table(self, table_id: str, seq: int) -> None:
        """The table moved on to ``seq``: cancel its older searches that were started
        speculatively and nobody asked for (a running one finishes in the worker)."""
        for key in [k for k in self._speculative if k[0] == table_id and k[1] != seq]:
            self._speculative.discard(key)
            task = self._searches.running(key)
            if task is not None:
                task.cancel()

    def _only(self, table: Table, seat: int, *, rank: bool = True) -> list[Decision] | None:
        """The normal level's one action when ``seat`` has only one in play (a pass with
        nothing that beats the play, a lone legal play), kept as the position's full list:
        the hard search returns that action unsearched (``bot.ai.search.hard_search``), so
        the quick answer is the search's, and no search is started. None otherwise
        (bidding, a Happy decision, several actions) and, with ``rank`` False, when the
        position is not ranked yet (``ChoicesCache.known``: nothing ranked on the loop)."""
        hand = table.hand
        if hand is None or hand.phase != "playing" or happy_asked(table, seat) is not None:
            return None
        ranked = self.choices.get(table, seat) if rank else self.choices.known(table, seat)
        if ranked is None or len(ranked.suggestions) != 1:
            return None
        quick = list(ranked.suggestions)
        self._options.put((table.id, table.seq, seat), quick)
        return quick

    def _search(self, table: Table, seat: int, *, speculative: bool) -> asyncio.Task[list[Decision]]:
        key = (table.id, table.seq, seat)
        task = self._searches.running(key)
        if task is None:
            task = self._searches.start(key, self._run(key, table, seat),
                                        name=f"ddz-hint-{table.id}-{table.seq}-{seat}")
            task.add_done_callback(_log_failure)
            if speculative:
                self._speculative.add(key)
        elif not speculative:
            self._speculative.discard(key)
        return task

    async def _run(self, key: Key, table: Table, seat: int) -> list[Decision]:
        try:
            found = await compute(table, seat, self.pool)
        finally:
            self._searches.drop(key)  # over: the next Hint reads ``_options``
            self._speculative.discard(key)
        self._options.put(key, found)
        return found

    def clear(self) -> None:
        """Forget every cached position (searches in flight go on)."""
        self._options.clear()

    async def close(self) -> None:
        """Cancel every search in flight and wait for them."""
        await cancel_and_wait(self._searches.tasks())


def _log_failure(task: asyncio.Task[list[Decision]]) -> None:
    """Retrieve a search's error (a Hint then keeps its quick answer)."""
    if not task.cancelled() and task.exception() is not None:
        log.error("hint search failed (%s)", task.get_name(), exc_info=task.exception())
