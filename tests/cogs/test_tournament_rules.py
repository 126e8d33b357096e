"""``/ddz tournament create rules:`` (issue 52, docs/RULES.md §Tournaments): the organiser
picks the rules of the tournament's tables at creation, classic by default whatever the
server's default for its tables; the sign-up message says them, in the server's language."""

from __future__ import annotations

import pytest

from bot.features.tournaments import cog as tournament_cog
from bot.features.tournaments.service import TournamentService
from tests.support.fake_discord import FakeDiscord, Member
from tests.support.fake_game import members


@pytest.fixture(autouse=True)
def threads_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake's interactions grant no Create Public Threads (its members' app
    permissions); the tournament's channel here may."""
    monkeypatch.setattr(tournament_cog, "missing_for_threads", lambda interaction: [])


def cups(fake: FakeDiscord) -> TournamentService:
    assert fake.bot.features is not None
    return fake.bot.features.get(TournamentService)


def signup_text(fake: FakeDiscord) -> str:
    return next(m.content for m in fake.public() if "🏆" in (m.content or ""))


@pytest.mark.parametrize(("language", "happy", "classic"), [
    ("en", "Rules: Happy, cap ×32", "Rules: classic"),
    ("es", "Reglas: Happy, tope ×32", "Reglas: clásicas"),
    ("zh_CN", "规则：欢乐，封顶 ×32", "规则：经典"),
])
async def test_the_organiser_picks_the_happy_rules_and_the_sign_up_says_them(
        fake: FakeDiscord, language: str, happy: str, classic: str) -> None:
    boss, _, _ = members(fake)
    boss.admin = True
    await boss.slash("config", rules="happy", cap="32", language=language)
    made = await boss.slash("tournament create", name="Cup", rounds=1, rules="happy")
    assert made.last.ephemeral, made.text
    info = await cups(fake).current(fake.guild_id)
    assert info is not None and info.rules is not None
    assert (info.rules.variant, info.rules.cap, info.rules.deal) == ("happy", 32, "shuffled")
    assert happy in signup_text(fake), signup_text(fake)
    await boss.slash("tournament cancel")
    made = await boss.slash("tournament create", name="Cup 2", rounds=1)  # the default
    info = await cups(fake).current(fake.guild_id)
    assert info is not None and info.rules is not None and info.rules.variant == "classic"
    assert classic in fake.public()[-1].content, fake.public()[-1].content


async def test_a_forged_rules_choice_creates_nothing(fake: FakeDiscord) -> None:
    boss = Member(fake, 11, "Ana", admin=True)
    reply = await boss.slash("tournament create", name="Cup", rounds=1, rules="poker")
    assert "nothing was changed" in reply.text or "option" in reply.text, reply.text
    assert await cups(fake).current(fake.guild_id) is None

