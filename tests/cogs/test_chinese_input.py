"""Typed input in Chinese (issue 51): ``/ddz play`` takes 王炸, 大王, 小王, full-width digits
and the words for passing (不出, 要不起…), and refuses in the member's script
(docs/RULES.md §Notation)."""

from __future__ import annotations

import pytest

from bot.i18n import available_locales, t
from tests.support.fake_discord import FakeDiscord
from tests.support.fake_game import three_members_ana_leads

pytestmark = pytest.mark.skipif("zh_CN" not in available_locales(),
                                reason="the Simplified catalog has not landed")


async def test_a_chinese_member_plays_the_rocket_passes_and_is_refused_in_chinese(
        fake: FakeDiscord) -> None:
    ana, bo, cy = await three_members_ana_leads(fake, "zh-CN")
    table = fake.bot.service.table_in_channel(fake.channel_id)
    assert table is not None and table.hand is not None
    reply = await ana.slash("play", cards="王炸")
    assert reply.last.ephemeral and reply.text == "你出了 王炸。"  # the rocket named, not XD
    assert (await bo.slash("play", cards="要不起")).text == t("ack.passed_typed", "zh-CN")
    assert (await cy.slash("play", cards="不出")).text == t("ack.passed_typed", "zh-CN")
    refused = await ana.slash("play", cards="三带一")
    assert refused.text == t("error.bad_cards", "zh-CN", token="三")
    assert (await ana.slash("play", cards="过")).text == t("error.cannot_pass_lead", "zh-CN")
    reply = await ana.slash("play", cards="３３３、４")
    assert reply.text == t("ack.played", "zh-CN", cards="3334")
    hand = fake.bot.service.table_in_channel(fake.channel_id).hand
    assert [(a.kind, a.seat) for a in hand.history if a.kind != "bid"] == [
        ("play", 0), ("pass", 1), ("pass", 2), ("play", 0)]
    assert (await bo.slash("play", cards=" 過！")).text == t("ack.passed_typed", "zh-CN")
    assert hand.history[-1].kind == "play"  # the answer is read from the new table
    assert fake.bot.service.table_in_channel(fake.channel_id).hand.history[-1].kind == "pass"


async def test_the_jokers_by_name_and_one_joker_asked_which(fake: FakeDiscord) -> None:
    ana, _, _ = await three_members_ana_leads(fake, "zh-CN")
    assert (await ana.slash("play", cards="王")).text == t("error.which_joker", "zh-CN")
    assert (await ana.slash("play", cards="大王")).text == "你出了 大王。"
