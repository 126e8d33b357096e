"""How many examples a Hypothesis property test draws: all of them in the whole suite (CI,
the README's command), a quarter in the fast loop (``-m "not e2e and not processes"``,
docs/CONTRIBUTING.md §The fast loop).

A property test names its whole-suite count, ``@settings(max_examples=examples(150))``;
the fast loop draws ``fast_share(150)`` = 37 of them, the same property on fewer random
cases (Hypothesis's example database replays a failure found earlier first, either way).
Tests that name no count take the loaded profile's: ``FULL`` (Hypothesis's 100) or
``FAST_LOOP`` (25). ``tests/support/fixtures.py``'s ``pytest_configure`` chooses before
any test module is imported, in each xdist worker.
"""

from __future__ import annotations

FULL = "ddz-full"
"""The whole suite's profile: Hypothesis's defaults."""
FAST_LOOP = "ddz-fast-loop"
"""The fast loop's profile: a quarter of Hypothesis's 100 examples."""
SHARE = 4
"""The fast loop draws one example in ``SHARE`` (at least ``FLOOR``, or all when fewer)."""
FLOOR = 10

_fast = False
_loaded: list[str] = []


def use_fast_loop(fast: bool) -> None:
    """Choose the fast loop's profile (``fast``) or the whole suite's; ``examples`` follows.
    Hypothesis is imported (0.15 s of CPU) and the profile loaded by the first test module
    that asks, so that xdist's controller, which runs no test, never imports it."""
    global _fast
    _fast = fast
    if _loaded:
        _load()


def _load() -> None:
    from hypothesis import settings

    if not _loaded:
        settings.register_profile(FULL, settings())
        settings.register_profile(FAST_LOOP, settings(max_examples=100 // SHARE))
    name = FAST_LOOP if _fast else FULL
    settings.load_profile(name)
    _loaded[:] = [name]


def fast_share(full: int) -> int:
    """The fast loop's count for a test of ``full`` examples: a quarter, at least
    ``FLOOR`` (all of them below it)."""
    return max(min(full, FLOOR), full // SHARE)


def examples(full: int) -> int:
    """``max_examples`` for a property test of ``full`` examples in the whole suite."""
    if not _loaded:
        _load()
    return fast_share(full) if _fast else full
