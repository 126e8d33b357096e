"""The bot's Prometheus metrics (prometheus-client), served by the web page at ``/metrics``.

One ``Metrics`` per process (``METRICS``), with its own registry, so that a test can
build a fresh one. What each series means (docs/OPERATING.md §Metrics):

* ``ddz_open_tables`` — open tables of this process (gauge, read at scrape time);
* ``ddz_interactions_total{kind, outcome}`` — interactions by kind (``/score``,
  ``hplay``, ``replay``…) and how their first response went (``answered``: the
  answer itself; ``deferred``), plus once more ``refused`` (a polite refusal) or
  ``failed`` (an apology) when that is how they ended;
* ``ddz_answer_seconds{kind}`` — from arrival to the first response (histogram);
* ``ddz_worker_queue_length{pool}`` — calls waiting for a worker process (gauge);
* ``ddz_database_seconds{operation}`` — one repository call, i.e. one transaction
  (histogram);
* ``ddz_global_requests_total`` — Discord requests that count toward the global
  rate limit; ``count_global_request`` is the one hook that feeds it (a scraper's
  ``rate()`` gives requests per second);
* ``ddz_interaction_requests_total`` — requests on interaction routes (callbacks,
  follow-ups, token edits: exempt from the global limit, no Authorization header),
  every wire attempt; ``ddz_interaction_requests_per_second`` — their rate over the
  last 10 s (gauge, read at scrape; ``cogs/metering.py``, docs/SCALING.md §Exempt
  traffic);
* ``ddz_global_budget_leases_total{outcome}`` — round-trips to the global budget shared
  through PostgreSQL (``ok``, or ``failed``: then the process is on its shards' share
  for a while), fed by ``budget_lease``;
* ``ddz_web_requests_total{page, status}`` — the web page's own requests.

No discord import; cheap enough for every click (a label lookup and an add).
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

ANSWER_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0, 2.0, 3.0, 5.0)
"""Seconds: fine below 0.2 s (the p99 target) and up to Discord's 3 s."""
DATABASE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class _Queues(Collector):
    """``ddz_worker_queue_length``: each registered pool's waiting calls, read at scrape."""

    def __init__(self) -> None:
        self.sources: dict[str, Callable[[], int]] = {}

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily("ddz_worker_queue_length",
                                   "Calls waiting for a worker process", labels=["pool"])
        for name, read in sorted(self.sources.items()):
            try:
                family.add_metric([name], float(read()))
            except Exception:  # a pool shutting down: no sample rather than no page
                continue
        yield family


class Metrics:
    """The series above in one registry; ``exposition()`` is the ``/metrics`` body."""

    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry(auto_describe=True)
        self.open_tables = Gauge("ddz_open_tables", "Open tables of this process",
                                 registry=registry)
        self.interactions = Counter("ddz_interactions", "Interactions by kind and outcome",
                                    ["kind", "outcome"], registry=registry)
        self.answer_seconds = Histogram("ddz_answer_seconds",
                                        "Seconds from an interaction's arrival to its first response",
                                        ["kind"], buckets=ANSWER_BUCKETS, registry=registry)
        self.database_seconds = Histogram("ddz_database_seconds",
                                          "Seconds of one database transaction (repository call)",
                                          ["operation"], buckets=DATABASE_BUCKETS,
                                          registry=registry)
        self.global_requests = Counter("ddz_global_requests",
                                       "Discord requests counted toward the global rate limit",
                                       registry=registry)
        self.interaction_requests = Counter(
            "ddz_interaction_requests",
            "Discord requests on interaction routes (exempt from the global rate limit)",
            registry=registry)
        self.interaction_rate = Gauge(
            "ddz_interaction_requests_per_second",
            "Requests per second on interaction routes over the last 10 s", registry=registry)
        self.budget_leases = Counter("ddz_global_budget_leases",
                                     "Round-trips to the global budget shared through PostgreSQL",
                                     ["outcome"], registry=registry)
        self.web_requests = Counter("ddz_web_requests", "Web page requests by page and status",
                                    ["page", "status"], registry=registry)
        self._queues = _Queues()
        registry.register(self._queues)

    def watch_open_tables(self, count: Callable[[], int]) -> None:
        """Read ``count()`` at every scrape for ``ddz_open_tables``."""
        self.open_tables.set_function(lambda: float(count()))

    def watch_queue(self, pool: str, waiting: Callable[[], int]) -> None:
        """Read ``waiting()`` at every scrape for ``ddz_worker_queue_length{pool}``."""
        self._queues.sources[pool] = waiting

    def answered(self, kind: str, outcome: str, seconds: float | None) -> None:
        """An interaction's first response (``outcome`` ``answered`` / ``deferred``),
        ``seconds`` after it arrived (None: arrival unknown, counted only)."""
        self.interactions.labels(kind, outcome).inc()
        if seconds is not None:
            self.answer_seconds.labels(kind).observe(seconds)

    def ended(self, kind: str, outcome: str) -> None:
        """An interaction that ended ``refused`` or ``failed``."""
        self.interactions.labels(kind, outcome).inc()

    def count_global_request(self, n: int = 1) -> None:
        """Hook: ``n`` Discord requests that count toward the global rate limit were sent."""
        self.global_requests.inc(n)

    def count_interaction_request(self, n: int = 1) -> None:
        """Hook: ``n`` requests on interaction routes were sent (``cogs/metering.py``)."""
        self.interaction_requests.inc(n)

    def watch_interaction_rate(self, per_second: Callable[[], float]) -> None:
        """Read ``per_second()`` at every scrape for ``ddz_interaction_requests_per_second``."""
        self.interaction_rate.set_function(per_second)

    def budget_lease(self, ok: bool) -> None:
        """Hook: one lease from the shared global budget answered (``ok``) or failed."""
        self.budget_leases.labels("ok" if ok else "failed").inc()

    def exposition(self) -> bytes:
        """The text format of every series (``CONTENT_TYPE``)."""
        return generate_latest(self.registry)


class TimedRepository:
    """A repository whose every coroutine method's time goes to ``ddz_database_seconds``
    (labelled by method name); everything else passes through unchanged."""

    def __init__(self, storage: Any, metrics: Metrics) -> None:
        self._storage = storage
        self._metrics = metrics

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._storage, name)
        if name.startswith("_") or not inspect.iscoroutinefunction(value):
            return value
        histogram = self._metrics.database_seconds.labels(name)

        async def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return await value(*args, **kwargs)
            finally:
                histogram.observe(time.perf_counter() - start)

        setattr(self, name, timed)  # found directly from now on
        return timed


METRICS = Metrics()
"""The process's metrics (the bot's wiring, the cogs' replies and the web page use it)."""
