"""Embeds of ``/ddz score``, ``/ddz stats``, ``/ddz rules`` and ``/ddz config``."""

from __future__ import annotations

import re
from collections.abc import Sequence

import discord

from bot.game.rating import PROVISIONAL_HANDS, SkillRating
from bot.i18n import decimal, t, tn
from bot.rules import DEFAULT_RULES, RuleSet
from bot.values import (
    GuildSettings,
    HandPoint,
    LeaderRow,
    MatchStandings,
    PlayerStats,
    RatingRow,
    Standing,
)
from cogs.happy_texts import rules_name
from cogs.texts import join_names, signed
from rendering.stats import ChartHand, StatsView

COLOR = discord.Colour(0xB22222)


def _name(row: Standing | LeaderRow | RatingRow) -> str:
    return row.name or f"<@{row.user_id}>"


def score_embed(standings: MatchStandings, leaders: list[LeaderRow], lang: str,
                scope: str | None) -> discord.Embed:
    """Current match totals toward the target and/or the all-time leaderboard."""
    embed = discord.Embed(title=t("score.title", lang), colour=COLOR)
    if scope in (None, "match"):
        if standings.match_hands:  # "hand 3 of 8": the next hand to settle
            head = tn("score.match_hands", standings.hands_played, lang,
                      match=standings.match_no, played=standings.hands_played,
                      hands=standings.match_hands,
                      next=min(standings.hands_played + 1, standings.match_hands))
        else:
            points = tn("count.points", standings.target, lang, n=standings.target)
            head = tn("score.match", standings.hands_played, lang, match=standings.match_no,
                      points=points, hands=standings.hands_played)
        rows = [tn("score.match_row", s.hands, lang, rank=i + 1, name=_name(s),
                   total=signed(s.total), hands=s.hands)
                for i, s in enumerate(standings.standings[:15])]
        embed.add_field(name=head, value="\n".join(rows) or t("score.empty", lang), inline=False)
    if scope in (None, "alltime"):
        rows = [t("score.alltime_row", lang, rank=i + 1, name=_name(r),
                  matches=tn("score.matches_won", r.matches_won, lang, n=r.matches_won),
                  hands=tn("score.hands_won", r.hands_played, lang, won=r.hands_won,
                           n=r.hands_played),
                  net=signed(r.net_points))
                for i, r in enumerate(leaders[:15])]
        embed.add_field(name=t("score.alltime", lang),
                        value="\n".join(rows) or t("score.empty", lang), inline=False)
    if standings.last_hand_no:
        embed.set_footer(text=t("score.last_hand", lang, n=standings.last_hand_no))
    return embed


def previous_embed(previous: MatchStandings | None, lang: str) -> discord.Embed:
    """The last finished match: how it ended, its winners and final totals."""
    embed = discord.Embed(title=t("score.title", lang), colour=COLOR)
    if previous is None:
        embed.description = t("score.no_previous", lang)
        return embed
    length = previous.match_hands or previous.hands_played
    how = {"target": tn("score.ended_target", previous.target, lang, target=previous.target),
           "hands": tn("score.ended_hands", length, lang, hands=length),
           }.get(previous.ended_by or "", t("score.ended_newmatch", lang))
    names = {s.user_id: _name(s) for s in previous.standings}
    rows = [tn("score.match_row", s.hands, lang, rank=i + 1, name=_name(s),
               total=signed(s.total), hands=s.hands)
            for i, s in enumerate(previous.standings[:15])]
    if previous.winners:
        rows.append(t("score.previous_winners", lang, names=join_names(
            [names.get(u, f"<@{u}>") for u in previous.winners], lang)))
    head = tn("score.previous", previous.hands_played, lang, match=previous.match_no,
              hands=previous.hands_played, how=how)
    embed.add_field(name=head, value="\n".join(rows) or t("score.empty", lang), inline=False)
    return embed


def _rating_name(row: RatingRow, lang: str) -> str:
    if row.computer is not None:
        return t("score.computer", lang, level=t(f"level.{row.computer}", lang))
    return _name(row)


def _numbers(rating: SkillRating, lang: str) -> dict[str, str]:
    """The rating's ordinal, μ and σ to one decimal, written as ``lang`` writes them
    (``2,7`` in Spanish; docs/RATINGS.md)."""
    return {"rating": decimal(rating.ordinal, lang), "mu": decimal(rating.mu, lang),
            "sigma": decimal(rating.sigma, lang)}


def rating_embed(rows: Sequence[RatingRow], lang: str) -> discord.Embed:
    """``/ddz score scope:rating``: ratings best first (members and computer levels);
    those with fewer than PROVISIONAL_HANDS rated hands listed apart."""
    embed = discord.Embed(title=t("score.rating_title", lang), colour=COLOR)
    ranked = [r for r in rows if not r.rating.provisional]
    provisional = [r for r in rows if r.rating.provisional]
    lines = [tn("score.rating_row", r.rating.hands, lang, rank=i + 1,
                name=_rating_name(r, lang), hands=r.rating.hands, **_numbers(r.rating, lang))
             for i, r in enumerate(ranked[:15])]
    empty = (tn("score.rating_all_provisional", PROVISIONAL_HANDS, lang, n=PROVISIONAL_HANDS)
             if provisional else t("score.rating_empty", lang))
    embed.add_field(name=t("score.rating", lang), value=_fit(lines) or empty, inline=False)
    if provisional:
        lines = [tn("score.provisional_row", r.rating.hands, lang, name=_rating_name(r, lang),
                    hands=r.rating.hands, **_numbers(r.rating, lang)) for r in provisional[:15]]
        embed.add_field(name=tn("score.provisional", PROVISIONAL_HANDS, lang, n=PROVISIONAL_HANDS),
                        value=_fit(lines), inline=False)
    embed.set_footer(text=t("score.rating_footer", lang))
    return embed


def _fit(lines: list[str], limit: int = 1024) -> str:
    """Lines joined by newlines, dropping the last ones past Discord's field ``limit``."""
    while lines and len("\n".join(lines)) > limit:
        lines = lines[:-1]
    return "\n".join(lines)


def chart_view(stats: PlayerStats, history: Sequence[HandPoint], name: str) -> StatsView:
    """The ``/ddz stats`` chart of a PlayerStats and its HandPoint history (oldest first)."""
    hands = [ChartHand(won=h.won, landlord=h.role == "landlord", match_no=h.match_no,
                       total=h.total, rating=h.ordinal) for h in history]
    rating = stats.rating
    return StatsView(
        name=name, hands=hands,
        landlord_wins=stats.wins_landlord, landlord_hands=stats.hands_landlord,
        peasant_wins=stats.wins_peasant, peasant_hands=stats.hands - stats.hands_landlord,
        rating=rating.ordinal if rating else None, mu=rating.mu if rating else None,
        sigma=rating.sigma if rating else None,
    )


def stats_embed(stats: PlayerStats | None, name: str, lang: str,
                rank: tuple[int, int] | None = None,
                feature_fields: Sequence[tuple[str, str]] = ()) -> discord.Embed:
    """One player's record with their rating (``rank``: place and count on the server's
    rating board); a short note when they have not played here. ``feature_fields``: the
    features' records of the member, (name, value) each, a field of its own after the
    table play's (``cogs.wing.Wing.stats``)."""
    embed = discord.Embed(title=t("stats.title", lang, name=name), colour=COLOR)
    if stats is None or not stats.hands:
        embed.description = t("stats.none", lang, name=name)
        _feature_fields(embed, feature_fields)
        return embed
    fields = [
        ("stats.hands", stats.hands), ("stats.landlord_hands", stats.hands_landlord),
        ("stats.wins_landlord", stats.wins_landlord), ("stats.wins_peasant", stats.wins_peasant),
        ("stats.springs", stats.springs), ("stats.bombs", stats.bombs),
        ("stats.best_hand", signed(stats.best_hand) if stats.best_hand > 0
         else t("stats.best_hand_none", lang)),  # a player who never gained had no best
        ("stats.net", signed(stats.net_points)),
        ("stats.matches_won", stats.matches_won), ("stats.current", signed(stats.current_total)),
    ]
    for key, value in fields:
        embed.add_field(name=t(key, lang), value=str(value), inline=True)
    if getattr(stats, "last_hand_no", None):
        embed.add_field(name=t("stats.last_hand", lang),
                        value=t("stats.last_hand_value", lang, n=stats.last_hand_no), inline=True)
    if stats.rating is not None and rank is not None:
        rating = t("stats.rating_value", lang, rank=rank[0], count=rank[1],
                   **_numbers(stats.rating, lang))
    else:
        rating = t("stats.rating_none", lang)
    embed.add_field(name=t("stats.rating", lang), value=rating, inline=False)
    _feature_fields(embed, feature_fields)
    return embed


def _feature_fields(embed: discord.Embed, fields: Sequence[tuple[str, str]]) -> None:
    """The features' fields of ``/ddz stats`` (``cogs.wing.Wing.stats``), each on a line
    of its own."""
    for name, value in fields:
        embed.add_field(name=name, value=value, inline=False)


EMBED_DESCRIPTION = 4096
EMBED_FIELD_VALUE = 1024
EMBED_FIELD_NAME = 256
EMBED_FIELDS = 25
EMBED_TOTAL = 6000
"""Discord's embed limits (characters): description, a field's value and name, fields per
embed, and everything of a message's embeds together (``resources/message.mdx``
§Embed Limits)."""
_HEADING = re.compile(r"\*\*(.+?)\*\*\s*(.*)", re.S)


def rules_embed(lang: str, rules: RuleSet = DEFAULT_RULES,
                parts: Sequence[str] = ()) -> discord.Embed:
    """The rules, short, with card examples in docs/RULES.md notation, as this server
    plays them: its bidding and kicker variants and its match (a target in points or
    ``match_hands`` hands; docs/RULES.md §Deal and bidding, §Kickers, §Match), the
    features' ``parts`` (catalog keys, ``cogs.wing.Wing.rules``), and the Happy rules and
    no-shuffle deals in short (§Happy rules, §No-shuffle deals).

    The game itself (deal, play, combinations) is the description; each further part is a
    field named by its bold heading (``**Score.** …`` → field "Score"), so every language
    stays within Discord's limits (the Spanish text alone was 4,011 of the description's
    4,096 characters): a part longer than a field's 1,024 continues in the next field."""
    combos = t("rules.combos", lang)
    if rules.kickers == "distinct":
        combos += " " + t("rules.kickers_distinct", lang)
    match = (tn("rules.match_hands", rules.match_hands, lang, hands=rules.match_hands)
             if rules.match_hands else tn("rules.match_target", rules.target_points, lang,
                                          target=rules.target_points))
    game = [t("rules.deal", lang, bidding=t(f"rules.bidding_{rules.bidding}", lang)),
            t("rules.play", lang), combos]
    more = [t("rules.score", lang), match, t("rules.controls", lang), t("rules.away", lang),
            t("rules.pings", lang), t("rules.replays", lang), *(t(key, lang) for key in parts),
            t("rules.happy_section", lang), t("rules.no_shuffle_section", lang)]
    embed = discord.Embed(title=t("rules.title", lang), description="\n\n".join(game),
                          colour=COLOR)
    for part in more:
        found = _HEADING.match(part)
        name, value = (found.group(1), found.group(2)) if found else ("\u200b", part)
        name = name.rstrip(".:。：")[:EMBED_FIELD_NAME] or "\u200b"
        for chunk in _chunks(value, EMBED_FIELD_VALUE):
            embed.add_field(name=name, value=chunk, inline=False)
            name = "\u200b"  # a continuation: no heading of its own
    return embed


def _chunks(text: str, size: int) -> list[str]:
    """``text`` in pieces of at most ``size`` characters, cut after a sentence where one
    ends in the piece (``. ``, ``。``, a line break), else at ``size``."""
    pieces: list[str] = []
    while len(text) > size:
        head = text[:size]
        cut = max(head.rfind(". ") + 1, head.rfind("。") + 1, head.rfind("\n") + 1)
        cut = cut if cut > 0 else size
        pieces.append(text[:cut].rstrip())
        text = text[cut:].lstrip()
    return [*pieces, text] if text else pieces


def turn_ping_line(settings: GuildSettings, lang: str) -> str:
    """The server's turn ping setting in words (docs/RULES.md §Turn pings)."""
    if settings.turn_ping == "off":
        return t("config.turn_ping_off", lang)
    if settings.turn_ping == "now":
        return t("config.turn_ping_now", lang)
    return tn("config.turn_ping_after", settings.turn_ping_after, lang,
              n=settings.turn_ping_after)


def config_embed(settings: GuildSettings, lang: str, standings_url: str | None = None,
                 features: Sequence[str] = ()) -> discord.Embed:
    """The server's current settings; ``standings_url``: the server's standings page
    (None while the bot runs no web page), shown when ``settings.web`` is on;
    ``features``: the features' lines about their own settings (``cogs.wing.Wing.settings``),
    after the time zone."""
    rules = settings.rules
    language = (t(f"choice.language.{settings.language}", lang) if settings.language
                else t("choice.language.server", lang))
    lines = [
        t("config.turn_play", lang, n=settings.turn_seconds_play),
        t("config.turn_bid", lang, n=settings.turn_seconds_bid),
        (tn("config.match_hands", rules.match_hands, lang, n=rules.match_hands)
         if rules.match_hands else tn("config.target", rules.target_points, lang,
                                      n=rules.target_points)),
        t("config.kickers", lang, value=t(f"choice.kickers.{rules.kickers}", lang)),
        t("config.bidding", lang, value=t(f"choice.bidding.{rules.bidding}", lang)),
        t("config.rules", lang, value=rules_name(rules, lang),
          deal=t("deal.no_shuffle" if rules.deal == "no-shuffle" else "deal.shuffled", lang)),
        t("config.language", lang, value=language),
        t("config.counter_on" if settings.counter else "config.counter_off", lang),
        (t("config.web_off", lang) if not settings.web else
         t("config.web_link", lang, url=standings_url) if standings_url else
         t("config.web_unserved", lang)),
        t("config.timezone", lang, value=settings.timezone or "UTC"),
        *features,
        turn_ping_line(settings, lang),
    ]
    return discord.Embed(title=t("config.title", lang), description="\n".join(lines), colour=COLOR)
