"""Suite-wide collector of ddz-bot's first-response times (docs/PERFORMANCE.md).

Game tests call :func:`record` with their emulator before closing it; the e2e
``conftest.py`` prints :func:`summary_line` in pytest's terminal summary.
"""

from __future__ import annotations

from collections import Counter

from sandbox.loopback.emulator import CLOSE_HOOKS, Emulator

RESPONSE_TIMES_MS: list[float] = []
ANSWER_TIMES_MS: list[float] = []  # dispatch → the bot's full answer (ddz_driver.finished)
EDITS_PER_WINDOW: list[int] = []  # per emulator: most channel-message edits in 5 s
RULES: Counter[str] = Counter()  # the loopback's rule answers (docs/DISCORD.md), all emulators


def record_edits(emu: Emulator) -> None:
    """Add the most channel-message edits one channel of ``emu`` got in 5 s (on close)."""
    EDITS_PER_WINDOW.append(emu.max_edits_per_channel())
    RULES.update(emu.rules.webhook_429)
    RULES.update({"30046": emu.rules.old_edits, "invalid": emu.rules.invalid})


CLOSE_HOOKS.append(record_edits)


def record(emu: Emulator) -> None:
    """Add every answered interaction's first-response time (ms) of ``emu``."""
    RESPONSE_TIMES_MS.extend(emu.response_times_ms())


def percentile(times: list[float], q: float) -> float:
    """Nearest-rank percentile ``q`` (0..1) of ``times`` (0.0 when empty)."""
    if not times:
        return 0.0
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary_line() -> str | None:
    """``"ddz-bot first response over N interactions: p50 … ms, p99 … ms, max … ms"``,
    plus the same for the full answer (rendered view, reply text) when measured, and the
    most channel-message edits any channel got in a 5 s window."""
    lines = []
    for label, times in (("first response", RESPONSE_TIMES_MS), ("full answer", ANSWER_TIMES_MS)):
        if times:
            lines.append(
                f"ddz-bot {label} over {len(times)} interactions: p50 "
                f"{percentile(times, 0.5):.1f} ms, p99 {percentile(times, 0.99):.1f} ms, "
                f"max {max(times):.1f} ms"
            )
    if any(EDITS_PER_WINDOW):
        lines.append(
            f"ddz-bot channel-message edits: at most {max(EDITS_PER_WINDOW)} per channel in any "
            f"5 s window over {len(EDITS_PER_WINDOW)} emulators (Discord's budget: about 5)"
        )
    if EDITS_PER_WINDOW:
        lines.append(
            f"loopback rules over {len(EDITS_PER_WINDOW)} emulators: webhook 429s "
            f"{RULES['per_token']} per token, {RULES['per_channel']} per channel; "
            f"{RULES['30046']} answers 30046; {RULES['invalid']} invalid requests (401/403/429)")
    return "\n".join(lines) or None
