"""``/ddz newmatch``: an admin puts every current match total of the server back to zero,
after a confirm button (docs/RULES.md §Match: "starting a new match puts the three at zero").

The question is ephemeral, with Start / Keep buttons whose custom_id
``ddznew:<user id>:<match no>:<yes|no>`` (cogs/items.py) survives restarts and names the match it
ends: a second click (or a click after someone else started a new match) changes
nothing. Manage Server is re-checked on the click. The finished match stays in the
history (``/ddz score`` scope "previous match"); hands being played settle into the
new match. A public line tells the channel.
"""

from __future__ import annotations

import discord

from bot.game.errors import GameError
from bot.i18n import resolve_locale, t, tn
from cogs import permissions
from cogs.context import CogContext
from cogs.items import RoutedButton, newmatch_id
from cogs.replies import answer_error, defer, respond


def confirm_view(user_id: int, match_no: int, lang: str) -> discord.ui.View:
    """Start (danger) and Keep buttons for ``user_id`` ending match ``match_no``."""
    view = discord.ui.View(timeout=None)
    view.add_item(NewMatchButton(user_id, match_no, "yes", label=t("btn.newmatch_yes", lang),
                                 style=discord.ButtonStyle.danger))
    view.add_item(NewMatchButton(user_id, match_no, "no", label=t("btn.newmatch_no", lang)))
    return view


async def ask(interaction: discord.Interaction, ctx: CogContext) -> None:
    """``/ddz newmatch``: the ephemeral question (or why not, via GameError)."""
    await defer(interaction, ephemeral=True, thinking=True)
    guild_id = permissions.guild_id(interaction)
    if not permissions.is_admin(interaction):
        raise GameError("not_admin_match")
    lang = resolve_locale(interaction.locale)
    current = await ctx.records.match_standings(guild_id)
    if current.hands_played == 0:
        await respond(interaction, t("newmatch.empty", lang, match=current.match_no))
        return
    await respond(interaction, tn("newmatch.confirm", current.hands_played, lang,
                                  match=current.match_no, hands=current.hands_played),
                  view=confirm_view(interaction.user.id, current.match_no, lang))


async def answer(interaction: discord.Interaction, ctx: CogContext, user_id: int,
                 match_no: int, yes: bool) -> None:
    """A click on Start / Keep: re-check, start the new match once, tell the channel."""
    lang = resolve_locale(interaction.locale)
    try:
        await defer(interaction)
        if interaction.user.id != user_id or interaction.guild_id is None:
            raise GameError("not_admin_match")
        if not yes:
            await respond(interaction, t("newmatch.kept", lang, match=match_no), edit=True,
                          view=None)
            return
        if not permissions.is_admin(interaction):
            raise GameError("not_admin_match")
        done = await ctx.service.new_match(interaction.guild_id, expected=match_no)
        if not done.started:
            await respond(interaction, t("newmatch.already", lang, match=match_no), edit=True,
                          view=None)
            return
        await respond(interaction, t("newmatch.done", lang, old=done.old, new=done.new),
                      edit=True, view=None)
        public = await ctx.languages.language(interaction.guild_id)
        if interaction.channel_id is not None:
            await ctx.board.delivery.post(
                interaction.channel_id, interaction.guild_id,
                content=t("newmatch.public", public, name=interaction.user.display_name,
                          old=done.old, new=done.new),
                allowed_mentions=discord.AllowedMentions.none())
    except Exception as exc:
        await answer_error(interaction, exc)


class NewMatchButton(RoutedButton):
    """Start / Keep under the ``/ddz newmatch`` question (clicks:
    ``DdzCog.on_newmatch_click``)."""

    def __init__(self, user_id: int, match_no: int, answer: str, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(label=label or answer, style=style,
                         custom_id=newmatch_id(user_id, match_no, answer))
        self.user_id, self.match_no, self.answer = user_id, match_no, answer
