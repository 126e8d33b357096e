"""``/ddz replay`` and ``/ddz review``: thin adapters over ``ReplayService``.

Buttons survive restarts: all their state is in the custom_id
``ddz:rp:<hand number>:<page>:<mode><verb>`` (cogs/items.py) — ``mode`` ``p`` (plain pages) or
``r`` (pages with the review's marks), ``verb`` one of ``prev next share gif open
rev``. Every click re-checks on the server: the hand must be a settled hand of the
clicking server (the custom_id holds no guild) that the clicker may see where they
click (``ReplayService.check_access``: its players anywhere, others only in its
channel; Share only in its channel), a review only of the clicker's own hand, the
page within range. Rendering runs in threads, the review in the AI worker.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands

from bot.game.errors import GameError
from bot.game.replay import step_of
from bot.i18n import resolve_locale, t, tn
from bot.service.renderer import Renderer
from bot.service.replays import Replay, Review
from cogs import permissions
from cogs.context import CogContext, CommandMixin
from cogs.items import ReplayButton
from cogs.items import result_buttons as result_buttons  # its old home: tests import it here
from cogs.replies import Upload, answer_error, defer, png_file, respond
from cogs.translator import cmd
from rendering import replay_pages as rp
from rendering.replay_models import ReviewMark

log = logging.getLogger("cogs.ddz")
PROGRESS_INTERVAL = 1.0
"""Seconds between two edits of the "Reviewing… 5/14" message."""
B = discord.ButtonStyle


def _nav(hand_no: int, page: int, pages: int, review: bool, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ReplayButton(hand_no, page, review, "prev", label="◀", disabled=page <= 0))
    view.add_item(ReplayButton(hand_no, page, review, "next", label="▶",
                               disabled=page >= pages - 1))
    view.add_item(ReplayButton(hand_no, page, review, "share", label=t("btn.share", lang),
                               style=B.primary))
    view.add_item(ReplayButton(hand_no, page, review, "gif", label=t("btn.animation", lang)))
    if not review:
        view.add_item(ReplayButton(hand_no, page, True, "rev", label=t("btn.review", lang),
                                   style=B.success))
    return view


def web_link(ctx: CogContext, found: Replay) -> str | None:
    """The web page's link to ``found`` (None while the page is off).

    The one place a replay link is made: ``found`` must come from
    ``ReplayService.find`` for the clicking member and server with ``public=True``
    (Share: only in the hand's own channel, docs/REPLAY.md §Who may see a hand), so a
    link exists only for a hand everyone in that channel could watch.
    """
    links = ctx.web_links
    if links is None:
        return None
    return links.replay_url(found.record.guild_id, found.record.hand_no)


def _browser_button(ctx: CogContext, found: Replay, page: int, lang: str) -> dict[str, Any]:
    """``view=`` with an "Open in browser" link button (at this page) for a shared page,
    or nothing when the web page is off."""
    url = web_link(ctx, found)
    if url is None:
        return {}
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(style=B.link, label=t("btn.open_browser", lang),
                                    url=f"{url}#{page + 1}"))
    return {"view": view}


def _players(found: Replay) -> rp.Players:
    return rp.players_of(found.record)


def marks_of(found: Replay, review: Review) -> dict[int, ReviewMark]:
    """Review marks by history index: the costliest decisions, 1 = worst."""
    decisions = dict(review.decisions)
    out = {}
    for rank, index in enumerate(review.worst, start=1):
        a = decisions[index]
        best = () if a.best is None else tuple(a.best.cards)  # type: ignore[union-attr]  # a play: bids are never marked
        out[index] = ReviewMark(rank, best, round(100 * a.best_win),  # type: ignore[operator]  # marked: both chances known
                                round(100 * a.played_win))  # type: ignore[operator]  # as best_win
    return out


async def _page_file(renderer: Renderer, found: Replay, page: int, lang: str,
                     marks: dict[int, ReviewMark] | None,
                     name: str = "replay.png", called: str | None = None) -> discord.File:
    """The image of page ``page`` (0-based; the last page is the result) with alt text
    (``called``: the hand's name there instead of "Hand #n", ``rp.page_alt``)."""
    players = _players(found)
    hand, steps, no = found.hand, found.steps, found.record.hand_no
    shown = no or None  # a private hand (a feature's) has no number: none drawn
    if page == len(steps) - 1:
        png = await renderer.result(rp.result_view(hand, players, shown, lang), locale=lang)
    else:
        model = rp.pages(hand, steps, players, shown, marks)[page]
        png = await renderer.replay_page(model, locale=lang)
    return png_file(png, name, rp.page_alt(hand, steps, page, players, lang, no, called))


async def _animation(ctx: CogContext, found: Replay, lang: str,
                     called: str | None = None) -> discord.File:
    players = _players(found)
    hand, steps, no = found.hand, found.steps, found.record.hand_no
    models = rp.pages(hand, steps, players, no or None)  # no number drawn on private hands

    result = rp.result_view(hand, players, no or None, lang)
    data = await ctx.replays.animation(
        (found.record.hand_id, lang, players),
        lambda: ctx.board.renderer.animation(models, result, locale=lang))
    return discord.File(Upload(data), filename=f"hand{no}.gif",
                        description=rp.plays_alt(hand, steps, players, lang, no, called))


def _caption(found: Replay, page: int, lang: str, review: Review | None) -> str:
    key = "replay.caption"
    if review is not None:
        key = "replay.caption_review" if review.worst else "replay.caption_review_none"
    return t(key, lang, n=found.record.hand_no, page=page + 1, pages=len(found.steps))


async def show_page(interaction: discord.Interaction, ctx: CogContext, found: Replay, page: int,
                    review: Review | None, lang: str, *, content: str | None = None,
                    embed: discord.Embed | None = None) -> None:
    """Answer with page ``page`` (edit of the deferred message) and its buttons."""
    marks = marks_of(found, review) if review is not None else None
    if review is not None and embed is None:
        embed = review_embed(found, review, lang)  # the summary stays while paging
    file = await _page_file(ctx.board.renderer, found, page, lang, marks)
    view = _nav(found.record.hand_no, page, len(found.steps), review is not None, lang)
    await respond(interaction, content or _caption(found, page, lang, review),
                  edit=True, file=file, view=view, embed=embed)


async def run_review(interaction: discord.Interaction, ctx: CogContext, found: Replay,
                     lang: str) -> Review:
    """The clicker's review (progress shown in the deferred message); GameError if the
    clicker did not play that hand."""
    service = ctx.replays
    seat = service.reviewer_seat(found, interaction.user.id)
    cached = service.cached_review(found.record.hand_id, seat)
    if cached is not None:
        return cached
    loop = asyncio.get_running_loop()
    state: dict[str, Any] = {"shown": -1e9, "task": None}

    async def progress(done: int, total: int) -> None:
        now = loop.time()
        running = state["task"]
        if now - state["shown"] < PROGRESS_INTERVAL or (running and not running.done()):
            return
        state["shown"] = now
        text = t("review.progress", lang, done=done, total=total)
        state["task"] = asyncio.create_task(_edit_quietly(interaction, text))

    review = await service.review(found, seat, progress, interaction.user.id)
    if state["task"] is not None:
        await asyncio.gather(state["task"], return_exceptions=True)
    return review


async def _edit_quietly(interaction: discord.Interaction, text: str) -> None:
    try:
        await interaction.edit_original_response(content=text, attachments=[], embeds=[],
                                                 view=None)
    except discord.HTTPException as error:
        log.info("review progress not shown: %s", error)


def review_embed(found: Replay, review: Review, lang: str,
                 title: str | None = None) -> discord.Embed:
    """The review summary: each decision with the hard player's choice and chances
    (``title``: instead of "Review of hand #n")."""
    steps, hand = found.steps, found.hand
    worst = {index: rank for rank, index in enumerate(review.worst, start=1)}
    lines = []
    fixed_bid = not any(s.kind == "bidding" for s in steps)  # a private deal
    if fixed_bid:  # dealt at bid 3: nobody's decision, neither a line nor in the summary
        review = replace(review, decisions=tuple(
            (index, a) for index, a in review.decisions if hand.history[index].kind != "bid"))
    for index, a in review.decisions:
        page = step_of(steps, index)
        kind = hand.history[index].kind
        where = (t("review.where_bidding", lang) if kind == "bid"
                 else t("review.where_calling", lang) if kind in rp.HAPPY_DECISIONS
                 else t("review.where_trick", lang, n=steps[page].trick))
        mine, best = rp.action_text(a.played, a.kind, lang), rp.action_text(a.best, a.kind, lang)
        if a.agrees:
            line = t("review.line_same", lang, where=where, mine=mine)
        elif a.played_win is None or a.best_win is None:
            line = t("review.line_other", lang, where=where, mine=mine, best=best)
        else:
            line = t("review.line_chances", lang, where=where, mine=mine, best=best,
                     p_mine=round(100 * a.played_win), p_best=round(100 * a.best_win))
        if index in worst:
            line = f"**{t('review.costly', lang, n=worst[index])}** {line}"
        lines.append(line)
    summary = review_summary(review, found.hand, lang)
    if summary:
        lines.append(summary)
    text = "\n".join(lines)
    if len(text) > 4000:
        text = text[:3999] + "…"
    embed = discord.Embed(title=title or t("review.title", lang, n=found.record.hand_no),
                          description=text, colour=discord.Colour(0xB22222))
    embed.set_footer(text=t("review.footer", lang))
    return embed


def review_summary(review: Review, hand: Any, lang: str) -> str | None:
    """The closing line of a review: only what it knows (``bot.ai.review.verdict``).
    "Well played!" only when the member's side won and no decision is known or
    suspected to have cost anything; None under costly decisions (they are marked)."""
    assessments = [a for _, a in review.decisions]
    found = review.verdict
    if found == "costly":
        return None
    if found == "none":
        return t("review.none", lang)
    result, landlord = getattr(hand, "result", None), getattr(hand, "landlord", None)
    won = result is not None and (result.winner == "landlord") == (review.seat == landlord)
    if found == "unmeasured":
        # the count of every line that differs, then how many of them were not measured
        # (issue 48: "1 decision differed" under two lines that differed)
        differed = sum(1 for a in assessments if not a.agrees)
        unknown = sum(1 for a in assessments if not a.agrees and not a.measured)
        if unknown == differed:
            return tn("review.unmeasured", unknown, lang, n=unknown)
        return tn("review.unmeasured_some", unknown, lang, n=differed, m=unknown)
    line = t("review.all_same" if found == "agreed" else "review.no_loss", lang)
    return line + (" " + t("review.well_played", lang) if won else "")


def first_marked_page(found: Replay, review: Review) -> int:
    """The page of the costliest decision (page 0 when none)."""
    if not review.worst:
        return 0
    return step_of(found.steps, review.worst[0])


async def start_review(interaction: discord.Interaction, ctx: CogContext,
                       hand_no: int | None) -> None:
    """``/ddz review`` and the Review buttons: progress, then the summary and the page of
    the costliest decision, with marks."""
    lang = resolve_locale(interaction.locale)
    found = await ctx.replays.find(permissions.guild_id(interaction),
                                   interaction.user.id, hand_no,
                                   channel_id=interaction.channel_id)
    ctx.replays.reviewer_seat(found, interaction.user.id)
    await respond(interaction, t("review.progress", lang, done=0, total="…"), edit=True,
                  view=None)
    review = await run_review(interaction, ctx, found, lang)
    await show_page(interaction, ctx, found, first_marked_page(found, review), review, lang,
                    embed=review_embed(found, review, lang))


async def on_click(interaction: discord.Interaction, ctx: CogContext, hand_no: int, page: int,
                   review: bool, verb: str) -> None:
    """A replay button: re-check guild / hand / page, then page, share, animate or review."""
    try:
        guild_id = permissions.guild_id(interaction)
        lang = resolve_locale(interaction.locale)
        message = interaction.message
        public = message is None or not message.flags.ephemeral
        if public and verb not in ("open", "rev"):
            # Only Replay / Review sit on a public message (the result); a paging, share or
            # animation id forged onto one must never turn it into a replay page.
            raise GameError("stale")
        from_result = verb in ("open", "rev") and public
        if verb == "gif" or from_result:
            await defer(interaction, ephemeral=True, thinking=True)
        else:
            await defer(interaction)
        if verb == "rev":
            await start_review(interaction, ctx, hand_no)
            return
        found = await ctx.replays.find(guild_id, interaction.user.id, hand_no,
                                       channel_id=interaction.channel_id,
                                       public=verb == "share")
        last = len(found.steps) - 1
        if page > last:
            raise GameError("stale")
        marks_review = await run_review(interaction, ctx, found, lang) if review else None
        if verb == "open":
            await show_page(interaction, ctx, found, 0, None, lang)
        elif verb in ("prev", "next"):
            page = max(0, page - 1) if verb == "prev" else min(last, page + 1)
            await show_page(interaction, ctx, found, page, marks_review, lang)
        elif verb == "gif":
            await respond(interaction, t("replay.animation", lang, n=hand_no), edit=True,
                          file=await _animation(ctx, found, lang))
        elif verb == "share":
            marks = marks_of(found, marks_review) if marks_review is not None else None
            file = await _page_file(ctx.board.renderer, found, page, lang, marks)
            # the replay message stays as it is; the page goes to the channel for everyone
            await interaction.followup.send(
                t("replay.shared", lang, name=interaction.user.display_name, n=hand_no,
                  page=page + 1, pages=last + 1), file=file, ephemeral=False,
                allowed_mentions=discord.AllowedMentions.none(),
                **_browser_button(ctx, found, page, lang))
    except Exception as exc:
        await answer_error(interaction, exc)


async def replay_command(interaction: discord.Interaction, ctx: CogContext,
                         hand: int | None) -> None:
    """``/ddz replay [hand]``: page 1 (the deal) of that hand, ephemeral."""
    await defer(interaction, ephemeral=True, thinking=True)
    found = await ctx.replays.find(permissions.guild_id(interaction),
                                   interaction.user.id, hand,
                                   channel_id=interaction.channel_id)
    await show_page(interaction, ctx, found, 0, None, resolve_locale(interaction.locale))


async def review_command(interaction: discord.Interaction, ctx: CogContext,
                         hand: int | None) -> None:
    """``/ddz review [hand]``: the review of the member's own decisions, ephemeral."""
    await defer(interaction, ephemeral=True, thinking=True)
    await start_review(interaction, ctx, hand)


class ReplayCommands(CommandMixin):
    """The ``/ddz replay`` and ``/ddz review`` commands (mixed into the ``ddz`` GroupCog,
    which sets ``ctx``)."""

    ctx: CogContext

    @app_commands.command(name=cmd("replay", "cmd.replay.name"),
                          description=cmd("A finished hand step by step", "cmd.replay.description"))
    @app_commands.rename(hand=cmd("hand", "param.hand.name"))
    @app_commands.describe(hand=cmd("Hand number (default: your last hand here)",
                                    "param.hand.description"))
    async def replay(self, interaction: discord.Interaction,
                     hand: app_commands.Range[int, 1, 999_999_999] | None = None) -> None:
        self.ctx.seen(interaction)
        await replay_command(interaction, self.ctx, hand)

    @app_commands.command(name=cmd("review", "cmd.review.name"),
                          description=cmd("The hard computer's view of your decisions in a hand",
                                          "cmd.review.description"))
    @app_commands.rename(hand=cmd("hand", "param.hand.name"))
    @app_commands.describe(hand=cmd("Hand number (default: your last hand here)",
                                    "param.hand.description"))
    async def review(self, interaction: discord.Interaction,
                     hand: app_commands.Range[int, 1, 999_999_999] | None = None) -> None:
        self.ctx.seen(interaction)
        await review_command(interaction, self.ctx, hand)
