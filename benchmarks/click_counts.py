"""What one click causes, counted: worker calls (by function, with their CPU in the
worker), hand images asked for and drawn, and the requests sent to Discord
(``benchmarks/interaction.py --counts``; docs/PERFORMANCE.md §Images from kept bands).

Counts per click are exact whatever the machine's load, so two trees can be compared
on them run by run. The patches work on any tree with ``bot.service.pool.WorkerPool.run``
and ``bot.service.renderer.Renderer.hand`` (2f51224 on): ``WorkerPool.run`` sends
``_timed(fn, *args)`` instead of ``fn(*args)``, which returns the result with the CPU
seconds the call took in the worker (``time.thread_time``), and the patched ``run``
hands back the result alone.
"""

from __future__ import annotations

import functools
import os
import pickle
import time
from collections import Counter, defaultdict
from typing import Any


def _timed(fn: Any, *args: Any) -> tuple[Any, float, int]:
    """``fn(*args)``, the CPU seconds it took and the id of the process that ran it."""
    start = time.thread_time()
    out = fn(*args)
    return out, time.thread_time() - start, os.getpid()


def _name(fn: Any) -> str:
    while isinstance(fn, functools.partial):
        fn = fn.func
    return getattr(fn, "__qualname__", repr(fn))


class ClickCounts:
    """Counters filled while ``active``: ``calls[(pool, fn)]``, ``cpu[(pool, fn)]``
    (seconds in the worker), ``hand_asked`` / ``hand_drawn`` (``Renderer.hand`` calls,
    the ones that reached a worker), ``requests[kind]`` and ``uploads`` (requests
    carrying a new file)."""

    def __init__(self) -> None:
        self.active = False
        self.calls: Counter[tuple[str, str]] = Counter()
        self.cpu: defaultdict[tuple[str, str], float] = defaultdict(float)
        self.requests: Counter[str] = Counter()
        self.uploads = 0
        self.hand_asked = 0
        self.fans_seen: set[tuple[Any, ...]] = set()
        self.seen: set[int] = set()
        self.last_worker: dict[tuple[str, Any], int] = {}
        self.again: Counter[tuple[str, bool]] = Counter()
        """Hand images of cards drawn before, table images of a table drawn before, by
        (function, whether the worker that drew them last drew them again)."""
        self.record: list[bytes] | None = None
        """Every worker call, (function, arguments) pickled apart, in order, when a list."""
        self.repeats: Counter[tuple[str, str]] = Counter()
        """Calls whose function and arguments were sent before (the same picture or
        ranking computed again), by (pool, function)."""
        self.hint_searches: Counter[str] = Counter()
        """Hint searches (``bot.service.hints.HintCache``): ``ahead`` started by
        ``prefetch``, ``asked`` started by a Hint, ``ahead used`` those of ``ahead`` a Hint
        then read or waited for."""
        self.hint_answers: Counter[str] = Counter()
        """How the Hints were answered (``HintCache.now``): ``ready`` (the search's pick,
        or the one action of a position that has one),
        ``searching`` (the quick answer, a search started or joined), ``dropped`` (the
        quick answer alone: ``MAX_SEARCHES`` searches already running)."""
        self._ahead: set[tuple[Any, ...]] = set()

    def install(self, fake: Any) -> None:
        """Patch the pool, the renderer and ``fake``'s request handlers."""
        from bot.service.pool import WorkerPool
        from bot.service.renderer import Renderer

        counts = self
        run = WorkerPool.run

        async def counted_run(pool: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
            if not counts.active:
                return await run(pool, fn, *args, **kwargs)
            urgent = kwargs.get("urgent", False)
            name = base = _name(fn)
            if name == "draw_hand":  # a fan of cards new to every worker, or one drawn before
                fan = (args[0], args[1], args[2])
                name = "draw_hand (fan seen)" if fan in counts.fans_seen else "draw_hand (new fan)"
                counts.fans_seen.add(fan)
            if counts.record is not None:
                counts.record.append(pickle.dumps((fn, args), protocol=pickle.HIGHEST_PROTOCOL))
            out, cpu, pid = await run(pool, _timed, fn, *args, **kwargs)
            if base in ("draw_hand", "_draw_table"):  # the same cards / table as before:
                drawn = args[0] if base == "draw_hand" else tuple(s.name for s in args[0].seats)
                last = counts.last_worker.get((base, drawn))
                if last is not None:  # drawn by the same worker (which keeps their bands)?
                    counts.again[(base, last == pid)] += 1
                counts.last_worker[(base, drawn)] = pid
            key = (pool.name, name + (" urgent" if urgent else ""))
            try:
                same = hash(pickle.dumps((base, args), protocol=pickle.HIGHEST_PROTOCOL))
            except Exception:  # noqa: BLE001 (a call that does not pickle: not counted)
                same = None
            if same is not None:
                if same in counts.seen:
                    counts.repeats[key] += 1
                counts.seen.add(same)
            counts.calls[key] += 1
            counts.cpu[key] += cpu
            return out

        WorkerPool.run = counted_run  # type: ignore[method-assign,assignment]  # counted, same call
        hand = Renderer.hand

        async def counted_hand(renderer: Any, *args: Any, **kwargs: Any) -> bytes:
            if counts.active:
                counts.hand_asked += 1
            return await hand(renderer, *args, **kwargs)

        Renderer.hand = counted_hand  # type: ignore[method-assign,assignment]  # counted, same call
        self._install_hints()
        on_rest, on_webhook = fake.on_rest, fake.on_webhook

        def rest(route: Any, body: dict[str, Any]) -> Any:
            counts._request("REST " + route.method + " " + route.path, body)
            return on_rest(route, body)

        def webhook(route: Any, body: dict[str, Any]) -> Any:
            kind = route.method + (" callback " + str(body.get("type")) if route.path.endswith(
                "/callback") else " @original" if route.url.endswith("@original") else
                " message" if "/messages/" in route.path else " follow-up")
            data = body.get("data") if route.path.endswith("/callback") else body
            counts._request("webhook " + kind, data or {})
            if counts.active and kind == "PATCH @original":
                counts._same_screen(fake, route.webhook_token, body)
            return on_webhook(route, body)

        fake.on_rest, fake.on_webhook = rest, webhook

    def _install_hints(self) -> None:
        """Count the Hint searches: started ahead of a Hint or by one, and how many of
        those started ahead a Hint used (a tree without ``HintCache``: none counted)."""
        try:
            from bot.service.hints import HintCache
        except ImportError:
            return
        counts = self
        search, now, options = HintCache._search, HintCache.now, HintCache.options

        def counted_search(cache: Any, table: Any, seat: int, *, speculative: bool) -> Any:
            key = (table.id, table.seq, seat)
            if counts.active:
                if cache._searches.running(key) is None:
                    counts.hint_searches["ahead" if speculative else "asked"] += 1
                    if speculative:
                        counts._ahead.add(key)
                elif not speculative:
                    counts._used(key)
            return search(cache, table, seat, speculative=speculative)

        def counted_now(cache: Any, table: Any, seat: int) -> Any:
            ready = cache.ready(table, seat)
            if counts.active and ready:
                counts._used((table.id, table.seq, seat))
            found = now(cache, table, seat)
            if counts.active:  # how the Hint was answered: the search's pick (ready
                # before, or a position with one action, kept by ``now``), a search started
                # or joined (its pick follows), or the quick answer alone
                counts.hint_answers["searching" if found[1] is not None
                                    else "ready" if cache.ready(table, seat)
                                    else "dropped"] += 1
            return found

        async def counted_options(cache: Any, table: Any, seat: int) -> Any:
            if counts.active and cache.ready(table, seat):
                counts._used((table.id, table.seq, seat))
            return await options(cache, table, seat)

        HintCache._search = counted_search  # type: ignore[method-assign,assignment]  # counted, same call
        HintCache.now = counted_now  # type: ignore[method-assign,assignment]  # counted, same call
        HintCache.options = counted_options  # type: ignore[method-assign,assignment]  # counted, same call

    def _used(self, key: tuple[Any, ...]) -> None:
        if key in self._ahead:
            self._ahead.discard(key)
            self.hint_searches["ahead used"] += 1

    def _same_screen(self, fake: Any, token: str, body: dict[str, Any]) -> None:
        """Count an edit of an interaction's message that changes nothing it shows (the
        same text and components, no new file)."""
        mid = fake.originals.get(token) or int(fake.interactions[token]["message"]["id"])
        message = fake.messages.get(mid)
        if message is None:
            return
        new_file = any(isinstance(a.get("id"), int) for a in body.get("attachments") or [])
        if (not new_file and body.get("content", message.content) == message.content
                and body.get("components", message.components) == message.components):
            self.requests["  of them changing nothing shown"] += 1

    def _request(self, kind: str, body: dict[str, Any]) -> None:
        if not self.active:
            return
        self.requests[kind] += 1
        attachments = body.get("attachments") or []
        if any(isinstance(a.get("id"), int) for a in attachments):  # files[n]: a new upload
            self.uploads += 1

    def report(self, clicks: int) -> str:
        """The counts per click (``clicks`` interactions measured), one line each."""
        n = max(clicks, 1)
        lines = [f"per click ({clicks} clicks): hand images asked {self.hand_asked / n:.3f}, "
                 f"uploads {self.uploads / n:.3f}, worker calls "
                 f"{sum(self.calls.values()) / n:.3f}, worker CPU "
                 f"{sum(self.cpu.values()) * 1000 / n:.3f} ms"]
        for (pool, name), count in sorted(self.calls.items(), key=lambda kv: -self.cpu[kv[0]]):
            cpu = self.cpu[(pool, name)]
            lines.append(f"  call {pool:<7}{name:<36}{count / n:8.3f}/click "
                         f"{cpu * 1000 / max(count, 1):7.3f} ms each {cpu * 1000 / n:7.3f} ms/click"
                         f", {self.repeats[(pool, name)] / n:.3f}/click the same call again")
        for base in ("draw_hand", "_draw_table"):
            same, other = self.again[(base, True)], self.again[(base, False)]
            if same + other:
                lines.append(f"  {base} of cards / a table drawn before: {same / (same + other):.0%} "
                             f"by the worker that drew them last ({same + other} calls)")
        for kind, count in self.requests.most_common():
            lines.append(f"  request {kind:<44}{count / n:8.3f}/click")
        ahead, used = self.hint_searches["ahead"], self.hint_searches["ahead used"]
        if ahead or self.hint_searches["asked"]:
            lines.append(f"  hint searches: {ahead / n:.4f}/click started ahead of a Hint, "
                         f"{used / max(ahead, 1):.0%} of them used by one; "
                         f"{self.hint_searches['asked'] / n:.4f}/click started by a Hint")
        if self.hint_answers:
            answers = self.hint_answers
            lines.append(f"  Hints answered: {answers['ready']} with the search's pick ready, "
                         f"{answers['searching']} with the quick answer and a search to follow, "
                         f"{answers['dropped']} with the quick answer alone (the searches at "
                         f"their cap)")
        return "\n".join(lines)
