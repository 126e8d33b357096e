"""The global budget shared by every process of one bot token, in PostgreSQL.

Discord's global rate limit is per bot token, whatever the number of processes
(docs/SCALING.md §Discord's global rate limit). ``PgBucket`` is a token bucket in one
row of ``global_budget`` (one row per bot application, ``bucket`` names it): ``tokens``
banked at ``stamp``, refilled at ``rate`` per second up to ``burst`` on the database
server's clock, so the processes' clocks never matter. A stamp ahead of that clock (it
stepped back) is taken as a reset to now, warned once (``STEP_SECONDS``).

``lease(n)`` is one statement, atomic under the row's lock: refill, then reserve
``n`` tokens, letting the row go into debt by up to ``DEBT_SECONDS × rate`` tokens
(fewer are granted when that would be deeper). The caller spends what it got once
the row is out of debt again (``ready_in`` seconds, -tokens / rate): the generic cell
rate algorithm. So reservations are served in the order they reach the server,
whichever process makes them (two busy processes take turns, neither starves), and
whatever is spent at its ready time stays within ``burst + rate × t`` in any ``t``
seconds, all processes together.

Each lease also notes how many requests wait in the leasing process (one row per
process in ``global_budget_demand``, named by the caller: the bot uses its shard ids)
and answers the most waiting in any other process in the last ``DEMAND_SECONDS``. A
process sizes its next reservation by it (``bot.service.budget``): each process holds
one reservation at a time, so reservations sized by demand split the rate by demand
(the busiest asks for ``burst``, one with a fifth of its waiting a fifth of that).

The tables are ``UNLOGGED`` (nothing in them is worth a WAL record; after a server crash
they are empty and the row comes back full) and created by the bucket itself, idempotently,
under a transaction advisory lock: it is not part of the schema migrations, nor of
``python -m bot.storage copy``. It lives in the URL's ``search_path`` like the rest.

The bucket keeps one connection of its own (not the pool's: a busy pool never delays a
board, nor a lease a game write). Every lease is bounded by ``timeout`` seconds in all,
connecting included; on any error or timeout the connection is dropped
(``terminate``, no wait) and the next lease connects again. The bucket's name is the
bot's application id, never its token.
"""

from __future__ import annotations

import asyncio
import logging

import asyncpg

from bot.storage.postgres import PASSING, lock_key
from bot.storage.repository import StorageUnavailable

log = logging.getLogger(__name__)

TABLE = "global_budget"
DEMAND = "global_budget_demand"

CREATE = f"""
CREATE UNLOGGED TABLE IF NOT EXISTS {TABLE} (
    bucket TEXT PRIMARY KEY,
    tokens DOUBLE PRECISION NOT NULL,
    stamp TIMESTAMPTZ NOT NULL,
    granted INTEGER NOT NULL
);
CREATE UNLOGGED TABLE IF NOT EXISTS {DEMAND} (
    bucket TEXT NOT NULL,
    process TEXT NOT NULL,
    waiting INTEGER NOT NULL,
    stamp TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (bucket, process)
)"""

DEMAND_SECONDS = 1.0
"""A process's demand counts for the others this long after its last lease (a process
that stopped leasing, or died, stops counting)."""

DEBT_SECONDS = 1.0
"""How far ahead the row reserves: at most a second of the rate owed, so a reservation
is spent within a second (a process asks again when the row owes more)."""

STEP_SECONDS = 1.0
"""A stamp further ahead of the server's clock than this means the clock stepped back
(an NTP correction, a restored VM): the row is taken as reset to now instead of waiting
for the clock to catch up (no refill meanwhile: every request stalled for the step).
A stamp less far ahead is a lease that waited for the row's lock (kept: the stamp
never moves back for it)."""

_NOW = "statement_timestamp()"
_AHEAD = f"b.stamp > {_NOW} + make_interval(secs => $9::float8)"
_BANKED = (f"least($3::float8, b.tokens + $2::float8"
           f" * greatest(0, extract(epoch FROM {_NOW} - b.stamp)))")
_GRANT = f"greatest(0, least($4::int, floor({_BANKED} + $5::float8)))::int"
LEASE = f"""
WITH noted AS (
    INSERT INTO {DEMAND} (bucket, process, waiting, stamp) VALUES ($1, $6, $7::int, {_NOW})
    ON CONFLICT (bucket, process) DO UPDATE SET waiting = excluded.waiting,
                                                stamp = excluded.stamp
), others AS (
    SELECT coalesce(max(waiting), 0) AS busiest FROM {DEMAND}
    WHERE bucket = $1 AND process <> $6
      AND stamp > {_NOW} - make_interval(secs => $8::float8)
      AND stamp <= {_NOW} + make_interval(secs => $9::float8)
), prior AS (
    SELECT extract(epoch FROM stamp - {_NOW})::float8 AS ahead FROM {TABLE} WHERE bucket = $1
), leased AS (
    INSERT INTO {TABLE} AS b (bucket, tokens, stamp, granted)
    VALUES ($1, $3::float8 - least($4::int, floor($3::float8 + $5::float8)), {_NOW},
            least($4::int, floor($3::float8 + $5::float8)))
    ON CONFLICT (bucket) DO UPDATE SET
        granted = {_GRANT},
        tokens = {_BANKED} - {_GRANT},
        stamp = CASE WHEN {_AHEAD} THEN {_NOW} ELSE greatest(b.stamp, {_NOW}) END
    RETURNING granted, tokens
)
SELECT leased.granted, leased.tokens, others.busiest,
       coalesce((SELECT ahead FROM prior), 0) AS ahead FROM leased, others"""
"""$1 bucket, $2 rate (tokens/s), $3 burst (tokens), $4 wanted, $5 the most owed
(tokens), $6 the leasing process, $7 requests waiting there, $8 ``DEMAND_SECONDS``,
$9 ``STEP_SECONDS``. Every expression of the ``SET`` reads the row as it was (the
newest version, once its lock is ours), so the grant and what is left agree; ``stamp``
never moves back (a lease that waited for the lock began before the one it waited
for) unless it is more than ``STEP_SECONDS`` ahead of the server's clock (the clock
stepped back): then it is now, the tokens stay as they were (nothing refills for the
step, no debt deeper than a second is kept) and the row refills from now on. A new
row starts full. The demand is noted whatever the grant (a data-modifying ``WITH``
always runs); ``others`` reads the other processes' rows only, none stamped in the
future. ``ahead``: seconds the row's stamp was ahead of the server's clock (as the
statement's snapshot saw it; ≤ 0 normally), for the warning."""


class PgBucket:
    """One bot token's shared token bucket (see the module docstring).

    ``url``: the database URL (its ``search_path`` selects the schema); ``bucket``: the
    row's name (``bot:<application id>``); ``rate`` tokens per second, ``burst`` at most
    banked; ``timeout``: seconds a lease may take in all; ``process``: this process's
    name among the bot's (its demand row; unique per process). ``leases`` counts the
    round-trips that answered. Implements ``bot.service.budget.SharedBucket``.
    """

    def __init__(self, url: str, bucket: str, rate: float, burst: float,
                 timeout: float, process: str = "") -> None:
        self.url = url
        self.bucket = bucket
        self.rate = rate
        self.burst = burst
        self.timeout = timeout
        self.process = process
        self.leases = 0
        self.clock_steps = 0
        """Backward steps of the server's clock seen (each warned once)."""
        self._stepped = False
        self._conn: asyncpg.Connection | None = None

    async def _connect(self) -> asyncpg.Connection:
        conn = await asyncpg.connect(self.url, timeout=self.timeout,
                                     command_timeout=self.timeout)
        try:
            async with conn.transaction():
                schema = await conn.fetchval("SELECT current_schema()")
                await conn.execute("SELECT pg_advisory_xact_lock($1)",
                                   lock_key(schema, TABLE))
                await conn.execute(CREATE)
        except BaseException:
            conn.terminate()
            raise
        return conn

    async def lease(self, wanted: int, waiting: int = 0) -> tuple[int, float, int]:
        """Reserve up to ``wanted`` tokens for this process, where ``waiting`` requests
        wait: ``(granted, ready_in, busiest)``: the granted ones may be spent ``ready_in``
        seconds from now (none granted: ask again in ``ready_in`` s); ``busiest``: the most
        requests waiting in another process lately. Raises StorageUnavailable (the
        connection dropped) on any database error or when the server does not answer
        within ``timeout`` seconds; ValueError for ``wanted`` < 1."""
        if wanted < 1:
            raise ValueError("lease at least one token")
        debt = self.rate * DEBT_SECONDS
        try:
            async with asyncio.timeout(self.timeout):
                if self._conn is None or self._conn.is_closed():
                    self._conn = await self._connect()
                row = await self._conn.fetchrow(LEASE, self.bucket, self.rate, self.burst,
                                                wanted, debt, self.process,
                                                max(waiting, wanted), DEMAND_SECONDS,
                                                STEP_SECONDS)
        except (*PASSING, asyncpg.PostgresError) as error:
            self._drop()
            raise StorageUnavailable(f"PostgreSQL: {type(error).__name__}: {error}") from error
        except BaseException:  # cancelled mid-statement: the connection's state is unknown
            self._drop()
            raise
        assert row is not None
        self.leases += 1
        granted, left, busiest = int(row["granted"]), float(row["tokens"]), int(row["busiest"])
        self._note_step(float(row["ahead"]))
        if granted:
            return granted, max(0.0, -left) / self.rate, busiest
        return 0, max(0.0, 1.0 - (left + debt)) / self.rate, busiest

    def _note_step(self, ahead: float) -> None:
        """Warn once per backward step of the server's clock (``ahead`` seconds)."""
        if ahead <= STEP_SECONDS:
            self._stepped = False
        elif not self._stepped:
            self._stepped = True
            self.clock_steps += 1
            log.warning("global budget: the bucket's stamp was %.1f s ahead of the server's"
                        " clock (the PostgreSQL server's clock stepped back): taken as a"
                        " reset, the bucket refills from now", ahead)

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.terminate()

    async def close(self) -> None:
        """Close the connection (at most ``timeout`` seconds, then dropped)."""
        conn, self._conn = self._conn, None
        if conn is None:
            return
        try:
            await conn.close(timeout=self.timeout)
        except (*PASSING, asyncpg.PostgresError):
            conn.terminate()
