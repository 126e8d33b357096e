"""Replays and reviews of private hands: a feature's private deal's (its wing's ``cog.py``),
one path for every feature's.

A private hand is not a table hand: no hand number, no channel, no Share. Its feature's
service shapes it as a settled table hand (``bot.service.replays.private_record``) and
``ReplayService.rebuilt`` pages it, so it is drawn by the Renderer as table replays
are (``replay._page_file`` / ``_animation``: image pages with alt text, the Animation
GIF) and reviewed by the same machinery (``replay.run_review``). ``PrivateHand`` names
which hand and how its texts and buttons read; ``on_click`` answers every button of it
after its caller's ``locate`` re-checked the guild, the hand and who may see it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

import discord

from bot.game.errors import GameError
from bot.game.private import PRIVATE_SEAT
from bot.i18n import resolve_locale, t
from bot.service.replays import Replay, Review
from cogs import permissions, replay
from cogs.components import Components
from cogs.context import CogContext
from cogs.items import RoutedButton
from cogs.replies import answer_error, defer, respond

PRIVATE_REPLAY_VERBS = ("prev", "next", "gif", "rev", "open")
"""The verbs of a private replay's buttons (no Share: a private hand is shown privately),
the last part of each feature's template of them (its own prefix, ``ddz:<prefix>``)."""


@dataclass(frozen=True)
class PrivateHand:
    """Which private hand a replay shows and how it reads.

    ``kind``: the prefix of its texts, its feature's catalog keys (``<kind>.replay_name``,
    ``.replay_caption``, ``.review_caption``, ``.review_caption_none``, ``.review_title``,
    ``.replay_animation``, ``error.<kind>_review_own``); ``texts``: their placeholders (the
    feature's own; captions get ``name``, ``page`` and ``pages`` too); ``custom_id``:
    ``(page, review, verb) -> str``, the custom_id of its button (≤ 100 characters,
    cogs/items.py)."""

    kind: str
    texts: Mapping[str, str | int]
    custom_id: Callable[[int, bool, str], str]

    def name(self, lang: str) -> str:
        """What the hand is called in alt texts and the animation (``<kind>.replay_name``)."""
        return t(f"{self.kind}.replay_name", lang, **self.texts)

    def _escaped(self) -> dict[str, str | int]:
        return {k: discord.utils.escape_markdown(v) if isinstance(v, str) else v
                for k, v in self.texts.items()}


class PrivateReplayButton(RoutedButton):
    """◀ ▶ Animation Review under a private replay page, Replay / Review under a result
    (clicks: ``route_click`` → the cog's handler → ``on_click``)."""

    def __init__(self, hand: PrivateHand, page: int, review: bool, verb: str, *, label: str,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False) -> None:
        super().__init__(label=label, style=style, disabled=disabled,
                         custom_id=hand.custom_id(page, review, verb))


def open_buttons(hand: PrivateHand, lang: str) -> Components:
    """Replay and Review of the member's own hand (each opens a new message).
    ``Components``, not a ``discord.ui.View``: discord.py would give an ephemeral answer's
    View a 15-minute timeout task, and the clicks are routed by custom_id anyway."""
    view = Components()
    view.add_item(PrivateReplayButton(hand, 0, False, "open", label=t("btn.replay", lang)))
    view.add_item(PrivateReplayButton(hand, 0, True, "open", label=t("btn.review", lang),
                                      style=discord.ButtonStyle.success))
    return view


def _nav(hand: PrivateHand, found: Replay, page: int, review: bool, own: bool,
         lang: str) -> Components:
    last = len(found.steps) - 1
    view = Components()
    view.add_item(PrivateReplayButton(hand, page, review, "prev", label="◀",
                                      disabled=page <= 0))
    view.add_item(PrivateReplayButton(hand, page, review, "next", label="▶",
                                      disabled=page >= last))
    view.add_item(PrivateReplayButton(hand, page, review, "gif",
                                      label=t("btn.animation", lang)))
    if own and not review:
        view.add_item(PrivateReplayButton(hand, page, True, "rev", label=t("btn.review", lang),
                                          style=discord.ButtonStyle.success))
    return view


def _caption(hand: PrivateHand, found: Replay, page: int, lang: str,
             review: Review | None) -> str:
    key = f"{hand.kind}.replay_caption"
    if review is not None:
        key = f"{hand.kind}.review_caption" if review.worst else f"{hand.kind}.review_caption_none"
    name = discord.utils.escape_markdown(found.record.settlement.changes[PRIVATE_SEAT].name)
    return t(key, lang, name=name, page=page + 1, pages=len(found.steps), **hand._escaped())


def _own(found: Replay, interaction: discord.Interaction) -> bool:
    return found.record.user_ids[PRIVATE_SEAT] == interaction.user.id


async def show_page(interaction: discord.Interaction, ctx: CogContext, hand: PrivateHand,
                    found: Replay, page: int, review: Review | None, lang: str) -> None:
    """Answer with page ``page`` of the hand (edit of the deferred message), the review's
    summary and marks when ``review``, and its buttons."""
    marks = replay.marks_of(found, review) if review is not None else None
    embed = (replay.review_embed(found, review, lang,
                                 t(f"{hand.kind}.review_title", lang, **hand._escaped()))
             if review is not None else None)
    file = await replay._page_file(ctx.board.renderer, found, page, lang, marks,
                                   called=hand.name(lang))
    await respond(interaction, _caption(hand, found, page, lang, review), edit=True, file=file,
                  view=_nav(hand, found, page, review is not None, _own(found, interaction),
                            lang), embed=embed)


async def _review(interaction: discord.Interaction, ctx: CogContext, hand: PrivateHand,
                  found: Replay, lang: str) -> None:
    if not _own(found, interaction):
        raise GameError(f"{hand.kind}_review_own")  # a review covers one's own decisions only
    await respond(interaction, t("review.progress", lang, done=0, total="…"), edit=True,
                  view=None)
    review = await replay.run_review(interaction, ctx, found, lang)
    await show_page(interaction, ctx, hand, found, replay.first_marked_page(found, review),
                    review, lang)


Locate = Callable[[int], Awaitable[tuple[PrivateHand, Replay]]]
"""``async (guild id) -> (hand, replay)``: the clicked hand, re-checked for the clicker
(its day or event and deal, and who may see it); raises GameError (``stale``, ``…_not_yet``,
``…_no_hand``) when refused."""


async def on_click(interaction: discord.Interaction, ctx: CogContext, locate: Locate,
                   page: int, review: bool, verb: str) -> None:
    """A private replay button: re-check the guild and the hand (``locate``) and the page,
    then open, page, animate or review (a review only of the clicker's own hand). Every
    refusal is a polite ephemeral answer; nothing is changed."""
    try:
        guild_id = permissions.guild_id(interaction)
        lang = resolve_locale(interaction.locale)
        if verb in ("gif", "open"):
            await defer(interaction, ephemeral=True, thinking=True)  # a new message
        else:
            await defer(interaction)  # the replay message is edited
        hand, found = await locate(guild_id)
        last = len(found.steps) - 1
        if page > last:
            raise GameError("stale")
        if verb == "rev" or (verb == "open" and review):
            await _review(interaction, ctx, hand, found, lang)
            return
        if review and not _own(found, interaction):  # a forged review-mode page
            raise GameError(f"{hand.kind}_review_own")
        marks_review = await replay.run_review(interaction, ctx, found, lang) if review else None
        if verb == "open":
            await show_page(interaction, ctx, hand, found, 0, None, lang)
        elif verb in ("prev", "next"):
            page = max(0, page - 1) if verb == "prev" else min(last, page + 1)
            await show_page(interaction, ctx, hand, found, page, marks_review, lang)
        elif verb == "gif":
            await respond(interaction, t(f"{hand.kind}.replay_animation", lang,
                                         **hand._escaped()), edit=True,
                          file=await replay._animation(ctx, found, lang, hand.name(lang)))
    except Exception as exc:
        await answer_error(interaction, exc)
