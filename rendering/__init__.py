"""Pillow drawings of hands, tables and results, as PNG bytes.

Public API (all return deterministic PNG bytes: same input → same bytes):

* ``render_hand(cards, *, selected=(), sort="rank", locale="en", show_indices=True)``
  — the private hand, 800 px wide; ``selected`` are ``Card.index`` values.
* ``render_hand_cached(...)`` — the same, memoized (small LRU) for redraws of an
  unchanged hand.
* ``sort_cards(cards, sort)`` — the display order ``render_hand`` uses, so a
  UI can map position labels (1..n) back to cards.
* ``render_table(view: TableView, *, locale="en")`` — the public table.
* ``render_result(view: ResultView, *, locale="en")`` — a settled hand.
* ``warm_up()`` — optionally pre-draw all card faces at start-up.

Rendering is CPU-bound (≈5-15 ms per image) and must not run on the event
loop. Callers in async code must use ``asyncio.to_thread``, e.g.::

    png = await asyncio.to_thread(render_hand, cards, selected=sel, locale="es")
    await interaction.edit_original_response(
        attachments=[discord.File(io.BytesIO(png), "hand.png")])

Card faces are drawn once and cached (``rendering.cards``); renders only
compose them. Fonts are the bundled DejaVu Sans files in ``rendering/fonts``
(see its LICENSE); no system font is ever used. Text on images comes from the
shared catalogs (``img.*`` keys, via ``rendering.strings``); unknown locales
fall back to English. This package imports Pillow, ``bot.rules.cards`` and
``bot.i18n`` (Babel) only, never discord.
"""

from rendering.cards import sort_cards, warm_up
from rendering.hand import render_hand, render_hand_cached
from rendering.models import ResultView, SeatResult, SeatView, TableView
from rendering.result import render_result
from rendering.table import render_table

__all__ = [
    "ResultView",
    "SeatResult",
    "SeatView",
    "TableView",
    "render_hand",
    "render_hand_cached",
    "render_result",
    "render_table",
    "sort_cards",
    "warm_up",
]
