"""The private hand screens: what every feature with a hand view needs of them, in one
small object (``HandScreens``) that ``CogContext`` carries (docs/ARCHITECTURE.md §How to,
"add a feature"). The ``/ddz`` cog and the features draw and answer hand views through
it, never through the cog.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

import discord

from bot.game.table import Table
from bot.i18n import t
from bot.rules import Combo
from bot.service import TableService
from bot.service.renderer import HandKey, Renderer, hand_key
from cogs.hand_view import Screen, build_screen, draw_image, image_inputs
from cogs.happy_texts import shown_hands
from cogs.items import ViewState
from cogs.open_views import OpenViews
from cogs.replies import png_file, respond


def to_act(table: Table, seat: int) -> bool:
    """Whether ``seat`` is the one to play now (the hand in play, its turn): the one member
    whose view may ask for the Hint's suggestions at this position."""
    hand = table.hand
    return hand is not None and hand.phase == "playing" and table.turn_seat == seat


class HandScreens:
    """Draws hand views (``render``), answers with them (``show``) and keeps the open ones
    current (``views``: cogs/open_views.py). ``service``: the legal-play rankings
    (``TableService.hand_position``); ``renderer``: the render workers."""

    def __init__(self, service: TableService, renderer: Renderer) -> None:
        self.service = service
        self.renderer = renderer
        self.crash: Callable[[str], None] | None = None
        """The end-to-end tests' crash points (``bot.faults.crash_hook``): None unless
        ``DDZ_FAULT`` is set."""
        self.views = OpenViews(self.render)
        """The hand views open now (a refresh redraws them with ``render``)."""

    async def render(self, table: Table, seat: int, state: ViewState, lang: str, *,
                     notice: str | None = None, hint: str | None = None,
                     readings: Sequence[Combo] | None = None,
                     shown: HandKey | None = None) -> Screen:
        """Build and draw the hand view: the image in the render workers, and, for the
        member to play (``to_act``), the legal-play ranking at once (once per position,
        ``TableService.hand_position``: the Hint's quick suggestions come from it); only the
        image when the position's ranking is known already or the member is not to play
        (issue 54: the ranking of a view nobody can play from was a sixth of the render
        workers' CPU; the view itself needs only the number of legal plays, counted here).

        ``shown``: the ``Screen.image_key`` of the image already in the message;
        when it still matches, nothing is drawn and ``png`` stays None (keep it).
        Both are urgent for the render workers (ahead of the public table images): a
        member waits for their view, and a refresh holds the view's lock
        (``OpenViews``), so that member's next click waits for it too.
        The card counter shows when the server's ``/ddz config counter`` is on.
        """
        position = await self.service.hand_position(table, seat, urgent=True)
        inputs = image_inputs(table, seat, state, position.counter, counts=position.counts)
        cards, normal, counts = inputs
        face_up = shown_hands(table, lang, viewer=seat)  # 明牌: other seats' hands
        key = hand_key(cards, normal.selected, normal.sort, lang, counts, face_up)
        png: bytes | None = None
        ranked = position.known  # None: not ranked yet at this position
        wanted = ranked is None and to_act(table, seat)
        if shown is not None and key == shown:
            if wanted:
                ranked = await position.choices()
        elif not wanted:  # only the image to wait for: no tasks to run both at once
            png = await draw_image(cards, normal, lang, counts, self.renderer, urgent=True,
                                   shown=face_up)
        else:
            ranked, png = await asyncio.gather(
                position.choices(),
                draw_image(cards, normal, lang, counts, self.renderer, urgent=True,
                           shown=face_up))
        title, params = self.service.hand_title(table)  # the table's kind names its view
        screen = build_screen(table, seat, state, lang, notice=notice, hint=hint,
                              readings=readings, plays=ranked.plays if ranked else (),
                              legal=ranked.legal if ranked else None,
                              counter=position.counter, inputs=inputs,
                              title=t(title, lang, **params))
        screen.png = png
        return screen

    async def show(self, interaction: discord.Interaction, table: Table, seat: int,
                   state: ViewState, lang: str, *, notice: str | None = None,
                   hint: str | None = None,
                   readings: Sequence[Combo] | None = None) -> None:
        """Answer with the hand view (the initial response, or an edit of the deferred
        message) and keep it current."""
        screen = await self.render(table, seat, state, lang, notice=notice, hint=hint,
                                   readings=readings)
        file = png_file(screen.png or b"", "hand.png", screen.alt)
        await respond(interaction, screen.content, edit=True, file=file, view=screen.view)
        if self.crash is not None:
            self.crash("view")
        self.views.track(table.id, interaction.user.id, interaction, screen, lang)
