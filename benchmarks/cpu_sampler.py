"""A profile of where the bot process's CPU time goes, by sampling on CPU time.

``py-spy`` samples wall time and counts a thread as busy while it waits for a core
after a system call: on this 2-core machine, a pipe write that wakes a worker
process, or a clock read, then looks expensive although it costs microseconds.
cProfile's own cost per call inflates code that makes many small calls. This
sampler asks the kernel for a ``SIGPROF`` after every ``interval`` seconds of CPU
used by the process (``ITIMER_PROF``) and records the main thread's Python stack,
so samples fall where the CPU time is spent. Samples landing while the main
thread waits in ``select`` are CPU of another thread (aiosqlite's, the pipe
feeders'); they are counted apart. The kernel delivers at most one pending
signal, so some samples are lost under load: read the shares, not the counts.

Linux and the main thread only (``signal``); used by ``benchmarks.interaction
--profile``.
"""

from __future__ import annotations

import collections
import pickle
import re
import signal
from types import FrameType

_IDLE = re.compile(r"^(select|poll|_poll|wait)$")


class CpuSampler:
    """``start()`` … ``stop()``; then ``report()`` prints the shares (percent of the
    samples taken on the event loop) of the top functions, self and inclusive."""

    def __init__(self, interval: float = 0.002) -> None:
        self.interval = interval
        self.stacks: collections.Counter[tuple[str, ...]] = collections.Counter()
        self.other_threads = 0
        """Samples taken while the main thread waited in ``select`` (other threads' CPU)."""

    def start(self) -> None:
        """Start sampling (from the main thread)."""
        signal.signal(signal.SIGPROF, self._sample)
        signal.setitimer(signal.ITIMER_PROF, self.interval, self.interval)

    def stop(self) -> None:
        """Stop sampling."""
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, signal.SIG_DFL)

    def _sample(self, _signum: int, frame: FrameType | None) -> None:
        names: list[str] = []
        while frame is not None:
            code = frame.f_code
            names.append(f"{code.co_name} ({_short(code.co_filename)})")
            frame = frame.f_back
        if names and _IDLE.match(names[0].split(" ")[0]) and "selectors" in names[0]:
            self.other_threads += 1
            return
        self.stacks[tuple(reversed(names))] += 1

    def report(self, top: int = 20, only: tuple[str, ...] = ("bot/", "cogs/", "discord/")) -> None:
        """Print the ``top`` functions by self share and by inclusive share (those of
        files starting with one of ``only``), and the share of each package by self."""
        total = sum(self.stacks.values())
        if not total:
            print("profile: no sample")
            return
        own: collections.Counter[str] = collections.Counter()
        inclusive: collections.Counter[str] = collections.Counter()
        packages: collections.Counter[str] = collections.Counter()
        for stack, n in self.stacks.items():
            own[stack[-1]] += n
            packages[_package(stack[-1])] += n
            for name in set(stack):
                inclusive[name] += n
        print(f"profile: {total} samples on the event loop's thread, "
              f"{self.other_threads} while it waited (other threads' CPU)")
        print("by package (self): " + ", ".join(
            f"{name} {100 * n / total:.1f}%" for name, n in packages.most_common(10)))
        print("top self:")
        for name, n in own.most_common(top):
            print(f"  {100 * n / total:5.1f}%  {name}")
        print("top inclusive (bot, cogs, discord.py):")
        shown = [(name, n) for name, n in inclusive.most_common()
                 if any(f"({p}" in name for p in only)]
        for name, n in shown[:top]:
            print(f"  {100 * n / total:5.1f}%  {name}")


    def save(self, path: str) -> None:
        """Write the sampled stacks (``{(outermost, …, innermost frame name): samples}``)
        to ``path`` as a pickle, for a closer look than ``report`` gives."""
        with open(path, "wb") as handle:
            pickle.dump(dict(self.stacks), handle)


def _short(path: str) -> str:
    """``discord/message.py``, ``cogs/ddz.py``, ``asyncio/events.py``: the path from the
    package on."""
    for marker in ("site-packages/", "/python3.", "/benchmarks/", "/bot/", "/cogs/",
                   "/rendering/", "/tests/"):
        if marker in path:
            tail = path.split(marker, 1)[1]
            if marker == "/python3.":
                tail = tail.split("/", 1)[1] if "/" in tail else tail
            elif marker != "site-packages/":
                tail = marker.strip("/") + "/" + tail
            return tail
    return path


def _package(name: str) -> str:
    path = name.rsplit("(", 1)[-1].rstrip(")")
    head = path.split("/", 1)[0]
    if head == "bot" and "/" in path:
        return "bot/" + path.split("/")[1].removesuffix(".py")
    return head.removesuffix(".py")
