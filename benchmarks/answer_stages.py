"""Where a hand-view click's full answer goes, by verb (``benchmarks/interaction.py
--counts``; docs/PERFORMANCE.md §Saves queued behind reads): the verb itself
(``cogs.hand_actions.handle_hand_verb``: the rule, the table's lock and save for Play
and Pass, the Hint's suggestions), drawing the view (``HandScreens.render``: the ranking
and the image in the render workers) and sending it (``respond``). Refreshes of open
views are drawn by ``HandScreens.render`` too (with ``shown``): not counted.
"""

from __future__ import annotations

import contextvars
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

_VERB: contextvars.ContextVar[str | None] = contextvars.ContextVar("verb", default=None)


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


class AnswerStages:
    """``times[(verb, stage)]``: seconds of each stage while ``active``."""

    def __init__(self) -> None:
        self.active = False
        self.times: defaultdict[tuple[str, str], list[float]] = defaultdict(list)

    def install(self) -> None:
        """Patch the hand-view click's path (for this process's life)."""
        import cogs.ddz as ddz
        import cogs.hand_screens as screens

        watch = self
        verb_of = getattr(ddz, "handle_hand_verb")  # noqa: B009  imported there, not exported

        async def timed_verb(*args: Any, **kwargs: Any) -> Any:
            verb = str(args[5]) if len(args) > 5 else str(kwargs.get("verb"))
            _VERB.set("rank" if verb.startswith("r") and verb[1:].isdigit() else verb)
            start = time.perf_counter()
            try:
                return await verb_of(*args, **kwargs)
            finally:
                watch._note("verb", start)

        setattr(ddz, "handle_hand_verb", timed_verb)  # noqa: B010
        render = screens.HandScreens.render

        async def timed_render(self: Any, *args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return await render(self, *args, **kwargs)
            finally:
                if kwargs.get("shown") is None:  # not a refresh of an open view
                    watch._note("draw", start)

        screens.HandScreens.render = timed_render  # type: ignore[method-assign]
        respond = getattr(screens, "respond")  # noqa: B009

        async def timed_respond(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return await respond(*args, **kwargs)
            finally:
                watch._note("send", start)

        setattr(screens, "respond", timed_respond)  # noqa: B010

    def _note(self, stage: str, start: float) -> None:
        verb = _VERB.get()
        if self.active and verb is not None:
            self.times[(verb, stage)].append(time.perf_counter() - start)

    def report(self) -> str:
        """One line per verb: each stage's p50 / p99 (ms)."""
        lines = []
        for verb in sorted({v for v, _ in self.times}):
            parts = []
            for stage in ("verb", "draw", "send"):
                v = [x * 1000 for x in self.times.get((verb, stage), [])]
                if v:
                    parts.append(f"{stage} {_pct(v, .5):.1f} / {_pct(v, .99):.1f}")
            lines.append(f"  {verb:<8} " + ", ".join(parts))
        return "hand-view answers by stage, p50 / p99 ms:\n" + "\n".join(lines)
