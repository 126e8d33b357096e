"""``FEATURES``: the features the bot runs, in the order they are installed (the order of
their seams: forget marks, shutdown steps, background tasks). A new feature is one more
entry here (docs/ARCHITECTURE.md §Features)."""

from __future__ import annotations

from bot.features.contract import Feature
from bot.features.daily.feature import FEATURE as DAILY
from bot.features.events.feature import FEATURE as EVENTS
from bot.features.puzzles.feature import FEATURE as PUZZLES
from bot.features.tournaments.feature import FEATURE as TOURNAMENTS

FEATURES: tuple[Feature, ...] = (DAILY, EVENTS, PUZZLES, TOURNAMENTS)
