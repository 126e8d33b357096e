"""``/ddz config``: the server's settings (Manage Server), a mixin of the ``ddz`` GroupCog.

Every value is re-checked on the server (``GuildSettings.with_changes``): a forged
interaction may send anything. The answer shows the settings (``cogs/info.py``) and says
whether a change acts at once or from the next tables (docs/RULES.md §Match).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from pydantic import ValidationError

from bot.features.daily.values import DailySettings
from bot.game.errors import GameError
from bot.game.private import canonical_zone
from bot.i18n import resolve_locale, t
from cogs import info, permissions
from cogs.context import CogContext, CommandMixin
from cogs.replies import defer, respond
from cogs.translator import cmd

MAX_MATCH_HANDS = 100
"""``/ddz config hands`` upper bound (0 = play to the target points)."""
FROZEN_SETTINGS = ("daily_level", "kickers", "bidding")
"""``/ddz config`` options that today's daily deal (once dealt) and a running event do not
take up (``DailyService.frozen``, ``EventService.create``): the answer says so."""
Choice = app_commands.Choice


class ConfigCommands(CommandMixin):
    """``/ddz config`` (mixed into the ``ddz`` GroupCog). Its contract: ``ctx``."""

    ctx: CogContext

    @app_commands.command(name=cmd("config", "cmd.config.name"),
                          description=cmd("Server settings (Manage Server)", "cmd.config.description"))
    @app_commands.rename(
        turn_seconds=cmd("turn_seconds", "param.turn_seconds.name"),
        bid_seconds=cmd("bid_seconds", "param.bid_seconds.name"),
        target=cmd("target", "param.target.name"), kickers=cmd("kickers", "param.kickers.name"),
        bidding=cmd("bidding", "param.bidding.name"), language=cmd("language", "param.language.name"),
        hands=cmd("hands", "param.hands.name"), counter=cmd("counter", "param.counter.name"),
        web=cmd("web", "param.web.name"),
        timezone=cmd("timezone", "param.timezone.name"),
        daily_level=cmd("daily_level", "param.daily_level.name"),
        daily_channel=cmd("daily_channel", "param.daily_channel.name"),
        daily_posts=cmd("daily_posts", "param.daily_posts.name"),
        turn_ping=cmd("turn_ping", "param.turn_ping.name"),
        turn_ping_after=cmd("turn_ping_after", "param.turn_ping_after.name"),
        rules=cmd("rules", "param.rules.name"), deal=cmd("deal", "param.dealing.name"),
        cap=cmd("cap", "param.cap.name"))
    @app_commands.describe(
        turn_seconds=cmd("Turn timer while playing (10-600 s)", "param.turn_seconds.description"),
        bid_seconds=cmd("Turn timer while bidding (10-600 s)", "param.bid_seconds.description"),
        target=cmd("Match target in points (default 30)", "param.target.description"),
        kickers=cmd("Kicker rule variant", "param.kickers.description"),
        bidding=cmd("Bidding variant", "param.bidding.description"),
        language=cmd("Language of public messages", "param.language.description"),
        hands=cmd("Hands per match; 0 = play to the target (default)", "param.hands.description"),
        counter=cmd("Card counter in the private hand view (default on)",
                    "param.counter.description"),
        web=cmd("This server's standings on the bot's web page (default off)",
                "param.web.description"),
        timezone=cmd("Time zone of the daily deal's day, e.g. Europe/Madrid (default UTC)",
                     "param.timezone.description"),
        daily_level=cmd("Level of the daily deal's computers (default hard)",
                        "param.daily_level.description"),
        daily_channel=cmd("Channel for the daily deal's opening and podium",
                          "param.daily_channel.description"),
        daily_posts=cmd("Stop the daily deal's posts", "param.daily_posts.description"),
        turn_ping=cmd("A message mentioning a member whose turn waits (default after 10 s)",
                      "param.turn_ping.description"),
        turn_ping_after=cmd("Seconds of waiting before the turn ping (1-300; sets 'after')",
                            "param.turn_ping_after.description"),
        rules=cmd("Rules of new tables (default classic)", "param.config_rules.description"),
        deal=cmd("How new tables deal the hands after the first (default shuffled)",
                 "param.config_dealing.description"),
        cap=cmd("Happy rules: the cap of a stake (default 64)", "param.cap.description"))
    @app_commands.choices(
        kickers=[Choice(name=cmd("default: single wings may repeat ranks", "choice.kickers.default"),
                        value="default"),
                 Choice(name=cmd("distinct: single kickers all different", "choice.kickers.distinct"),
                        value="distinct")],
        bidding=[Choice(name=cmd("each seat speaks once", "choice.bidding.once"), value="once"),
                 Choice(name=cmd("until two passes follow a bid", "choice.bidding.until_two_passes"),
                        value="until_two_passes")],
        language=[Choice(name=cmd("the server's language", "choice.language.server"), value="server"),
                  Choice(name=cmd("English", "choice.language.en"), value="en"),
                  Choice(name=cmd("Español", "choice.language.es"), value="es"),
                  Choice(name=cmd("中文 (简体)", "choice.language.zh_CN"), value="zh_CN"),
                  Choice(name=cmd("中文 (繁體)", "choice.language.zh_TW"), value="zh_TW")],
        counter=[Choice(name=cmd("on", "choice.mode.on"), value="on"),
                 Choice(name=cmd("off", "choice.mode.off"), value="off")],
        web=[Choice(name=cmd("on", "choice.mode.on"), value="on"),
             Choice(name=cmd("off", "choice.mode.off"), value="off")],
        daily_level=[Choice(name=cmd("easy", "choice.level.easy"), value="easy"),
                     Choice(name=cmd("normal", "choice.level.normal"), value="normal"),
                     Choice(name=cmd("hard", "choice.level.hard"), value="hard")],
        daily_posts=[Choice(name=cmd("off", "choice.mode.off"), value="off")],
        turn_ping=[Choice(name=cmd("off", "choice.mode.off"), value="off"),
                   Choice(name=cmd("now: as the turn begins", "choice.turn_ping.now"),
                          value="now"),
                   Choice(name=cmd("after turn_ping_after seconds of waiting",
                                   "choice.turn_ping.after"), value="after")],
        rules=[Choice(name=cmd("classic (bids 1-3)", "choice.rules.classic"), value="classic"),
               Choice(name=cmd("Happy (call, grab, double)", "choice.rules.happy"),
                      value="happy")],
        deal=[Choice(name=cmd("shuffled", "choice.deal.shuffled"), value="shuffled"),
              Choice(name=cmd("no shuffle (more bombs)", "choice.deal.no_shuffle"),
                     value="no-shuffle")],
        cap=[Choice(name="×32", value="32"), Choice(name="×64", value="64"),
             Choice(name="×128", value="128"),
             Choice(name=cmd("no cap", "choice.cap.none"), value="0")])
    async def config(
        self, interaction: discord.Interaction,
        turn_seconds: app_commands.Range[int, 10, 600] | None = None,
        bid_seconds: app_commands.Range[int, 10, 600] | None = None,
        target: app_commands.Range[int, 1, 10000] | None = None,
        kickers: Choice[str] | None = None, bidding: Choice[str] | None = None,
        language: Choice[str] | None = None,
        hands: app_commands.Range[int, 0, 100] | None = None,
        counter: Choice[str] | None = None,
        web: Choice[str] | None = None,
        timezone: app_commands.Range[str, 1, 64] | None = None,
        daily_level: Choice[str] | None = None,
        daily_channel: discord.TextChannel | None = None,
        daily_posts: Choice[str] | None = None,
        turn_ping: Choice[str] | None = None,
        turn_ping_after: app_commands.Range[int, 1, 300] | None = None,
        rules: Choice[str] | None = None,
        deal: Choice[str] | None = None,
        cap: Choice[str] | None = None,
    ) -> None:
        """Admins (Manage Server) view or change the server's settings. ``hands``: a match
        of that many settled hands (0 = to the target points); ``counter``: the card
        counter in hand views (docs/RULES.md §Match, §Card counter); ``web``: the server's
        standings on the web page (docs/WEB.md §Pages), whose link the answer shows;
        ``turn_ping`` / ``turn_ping_after``: when a member whose turn waits is pinged
        (docs/RULES.md §Turn pings); ``rules``, ``deal``, ``cap``: the rule set, the deal
        and the Happy rules' cap of new tables (docs/RULES.md §Happy rules, §No-shuffle
        deals; ``cap`` 0 = none)."""
        self.ctx.seen(interaction)
        await defer(interaction, ephemeral=True, thinking=True)
        if not permissions.is_admin(interaction):
            raise GameError("not_admin")
        current = await self.ctx.service.settings(permissions.guild_id(interaction))
        if hands is not None and not 0 <= hands <= MAX_MATCH_HANDS:  # a forged interaction
            raise GameError("bad_setting")
        changes: dict[str, Any] = {
            "target_points": target, "turn_seconds_play": turn_seconds,
            "turn_seconds_bid": bid_seconds,
            "kickers": kickers.value if kickers is not None else None,
            "bidding": bidding.value if bidding is not None else None,
            "language": language.value if language is not None else None,
            "match_hands": hands, "counter": None if counter is None else counter.value == "on",
            "web": None if web is None else web.value == "on",
            "timezone": canonical_zone(timezone) if timezone is not None else None,
            "turn_ping": turn_ping.value if turn_ping is not None else None,
            "turn_ping_after": turn_ping_after,
            "variant": rules.value if rules is not None else None,
            "deal": deal.value if deal is not None else None,
            # a forged value that is no number fails the RuleSet's check as -1
            "cap": None if cap is None else int(cap.value) if cap.value.isdigit() else -1}
        daily = {"level": daily_level.value if daily_level else None,
                 "channel": (daily_channel.id if daily_channel is not None
                             else 0 if daily_posts is not None and daily_posts.value == "off"
                             else None)}
        try:  # re-checked here: a forged interaction may send any value
            settings = DailySettings.changed(current.with_changes(**changes), **daily)
        except ValidationError as error:
            raise GameError("bad_setting") from error
        except ValueError as error:  # an unknown time zone
            raise GameError("bad_timezone", zone=str(timezone)) from error
        lang = resolve_locale(interaction.locale)
        notice = None
        changes |= {f"daily_{name}": value for name, value in daily.items()}
        if any(value is not None for value in changes.values()):
            await self.ctx.service.save_settings(permissions.guild_id(interaction), settings)
            notice = t(_saved_key({k for k, v in changes.items() if v is not None}), lang)
            if any(changes[name] is not None for name in FROZEN_SETTINGS):
                notice += "\n" + t("config.frozen", lang)  # docs/RULES.md §Daily deal, §Events
        links = self.ctx.web_links
        guild_id = interaction.guild_id
        url = (links.standings_url(guild_id) if links is not None and guild_id is not None
               else None)
        lines = [line for lines_of in self.ctx.settings for line in lines_of(settings, lang)]
        await respond(interaction, notice, embed=info.config_embed(settings, lang, url, lines))


AT_ONCE_SETTINGS = frozenset({"web", "language", "counter", "timezone", "daily_channel"})
"""Settings read on every use, so they act at once (the web page, public messages'
language, the card counter of the next view drawn, the daily's day and channel); the
others are read when a table opens or a hand is dealt."""


def _saved_key(changed: set[str]) -> str:
    """The ``/ddz config`` notice for the settings ``changed``: whether they act at once
    (``web:on`` serves the page at once, not "for new tables") or from the next tables."""
    if changed <= AT_ONCE_SETTINGS:
        return "config.saved_now"
    return "config.saved_mixed" if changed & AT_ONCE_SETTINGS else "config.saved"
