"""Reason codes are stable snake_case keys with an English sentence each."""

from __future__ import annotations

import re

import pytest

from bot.ai import REASONS, Decision


def test_every_reason_code_is_snake_case_with_a_sentence() -> None:
    for code, text in REASONS.items():
        assert re.fullmatch(r"[a-z][a-z0-9_]*", code)
        assert text.endswith(".") and len(text) > 5


def test_issue_reason_codes_exist() -> None:
    for code in (
        "lead_lowest_single",
        "keep_bomb_for_control",
        "let_partner_win",
        "stop_landlord_one_card",
        "finish_hand",
        "pass_cannot_beat",
        "beat_with_smallest",
        "bomb_to_win",
    ):
        assert code in REASONS


def test_unknown_reason_code_is_rejected() -> None:
    with pytest.raises(ValueError):
        Decision(None, "no_such_reason")
