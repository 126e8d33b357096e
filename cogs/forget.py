"""``/ddz forget``: a member deletes their own data in this server, after a confirm button.

The answer is ephemeral: the question with Delete / Keep buttons whose
custom_id ``ddzforget:<user id>:<yes|no>`` (cogs/items.py) survives restarts. Refused while the
member is seated at an open table of this server (their seat still counts in
that hand) or is in its open or running tournament (they leave it first). Deletion is ``TableService.forget_user(guild_id, user_id)`` (stats,
ledger totals, match wins, display name; finished hands keep their points with
the name shown as "?").
"""

from __future__ import annotations

import discord

from bot.game.errors import GameError
from bot.i18n import resolve_locale, t
from bot.service import TableService
from cogs.items import RoutedButton, forget_id
from cogs.replies import answer_error, defer, respond


def confirm_view(user_id: int, lang: str) -> discord.ui.View:
    """Delete (danger) and Keep buttons for ``user_id``."""
    view = discord.ui.View(timeout=None)
    view.add_item(ForgetButton(user_id, "yes", label=t("btn.forget_yes", lang),
                               style=discord.ButtonStyle.danger))
    view.add_item(ForgetButton(user_id, "no", label=t("btn.forget_no", lang)))
    return view


async def ask(interaction: discord.Interaction, service: TableService) -> None:
    """``/ddz forget``: the ephemeral question (or the refusal, via GameError)."""
    await defer(interaction, ephemeral=True, thinking=True)
    assert interaction.guild_id is not None
    await service.check_can_forget(interaction.guild_id, interaction.user.id)
    lang = resolve_locale(interaction.locale)
    await respond(interaction, t("forget.confirm", lang),
                  view=confirm_view(interaction.user.id, lang))


async def answer(interaction: discord.Interaction, service: TableService, user_id: int,
                 yes: bool) -> None:
    """A click on Delete / Keep: re-check, delete, and replace the question."""
    lang = resolve_locale(interaction.locale)
    try:
        await defer(interaction)
        if interaction.user.id != user_id or interaction.guild_id is None:
            raise GameError("forget_not_yours")  # was "You're not seated at this table."
        if not yes:
            await respond(interaction, t("forget.kept", lang), edit=True, view=None)
            return
        await service.forget_user(interaction.guild_id, user_id)
        await respond(interaction, t("forget.done", lang), edit=True, view=None)
    except Exception as exc:
        await answer_error(interaction, exc)


class ForgetButton(RoutedButton):
    """Delete / Keep under the ``/ddz forget`` question (clicks: ``DdzCog.on_forget_click``)."""

    def __init__(self, user_id: int, answer: str, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(label=label or answer, style=style, custom_id=forget_id(user_id, answer))
        self.user_id, self.answer = user_id, answer
