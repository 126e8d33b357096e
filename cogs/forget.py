"""``/ddz forget``: a member deletes their own data in this server, after a confirm button.

The answer is ephemeral: the question with Delete / Keep buttons whose
custom_id ``ddzforget:<user id>:<yes|no>`` survives restarts. Refused while the
member is seated at an open table of this server (their seat still counts in
that hand). Deletion is ``storage.forget_user(guild_id, user_id)`` (stats,
ledger totals, match wins, display name; finished hands keep their points with
the name shown as "?").
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.game.errors import GameError
from bot.i18n import resolve_locale, t
from cogs.replies import answer_error, defer, respond

FORGET_TEMPLATE = r"ddzforget:(?P<user>\d+):(?P<answer>yes|no)"


def check_not_seated(service: Any, guild_id: int, user_id: int) -> None:
    """Raise GameError("forget_while_seated") while the member sits at an open table."""
    table = service.table_of_user(guild_id, user_id)
    if table is not None and table.phase != "closed":
        raise GameError("forget_while_seated", table=table.id)


def confirm_view(user_id: int, lang: str) -> discord.ui.View:
    """Delete (danger) and Keep buttons for ``user_id``."""
    view = discord.ui.View(timeout=None)
    view.add_item(ForgetButton(user_id, "yes", label=t("btn.forget_yes", lang),
                               style=discord.ButtonStyle.danger))
    view.add_item(ForgetButton(user_id, "no", label=t("btn.forget_no", lang)))
    return view


async def ask(interaction: discord.Interaction, service: Any) -> None:
    """``/ddz forget``: the ephemeral question (or the refusal, via GameError)."""
    await defer(interaction, ephemeral=True, thinking=True)
    assert interaction.guild_id is not None
    check_not_seated(service, interaction.guild_id, interaction.user.id)
    lang = resolve_locale(interaction.locale)
    await respond(interaction, t("forget.confirm", lang),
                  view=confirm_view(interaction.user.id, lang))


async def answer(interaction: discord.Interaction, user_id: int, yes: bool) -> None:
    """A click on Delete / Keep: re-check, delete, and replace the question."""
    lang = resolve_locale(interaction.locale)
    try:
        await defer(interaction)
        if interaction.user.id != user_id or interaction.guild_id is None:
            raise GameError("not_seated")
        if not yes:
            await respond(interaction, t("forget.kept", lang), edit=True, view=None)
            return
        bot = interaction.client
        check_not_seated(bot.service, interaction.guild_id, user_id)  # type: ignore[attr-defined]
        await bot.storage.forget_user(interaction.guild_id, user_id)  # type: ignore[attr-defined]
        await respond(interaction, t("forget.done", lang), edit=True, view=None)
    except Exception as exc:
        await answer_error(interaction, exc)


class ForgetButton(discord.ui.DynamicItem[discord.ui.Button], template=FORGET_TEMPLATE):
    """Delete / Keep under the ``/ddz forget`` question."""

    def __init__(self, user_id: int, answer: str, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label or answer, style=style,
                                           custom_id=f"ddzforget:{user_id}:{answer}"))
        self.user_id, self.answer = user_id, answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> ForgetButton:
        return cls(int(match["user"]), match["answer"])

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        await answer(interaction, self.user_id, self.answer == "yes")
