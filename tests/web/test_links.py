"""Signed links: genuine tokens read back, any change of a character is refused."""

from __future__ import annotations

import pytest

from bot.service.links import WebLinks

LINKS = WebLinks("0123456789abcdef", "https://ddz.example.org/")


def test_a_replay_token_reads_back_its_guild_and_hand() -> None:
    token = LINKS.replay_token(123456789012345678, 42)
    assert len(token) == 32
    assert LINKS.read_replay(token) == (123456789012345678, 42)
    assert LINKS.replay_url(5, 1) == f"https://ddz.example.org/r/{LINKS.replay_token(5, 1)}"


def test_a_server_token_reads_back_its_guild() -> None:
    token = LINKS.server_token(987)
    assert len(token) == 27 and LINKS.read_server(token) == 987
    assert LINKS.standings_url(987).endswith("/s/" + token)


def test_every_single_character_change_is_refused() -> None:
    token = LINKS.replay_token(77, 3)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    for i, ch in enumerate(token):
        for other in alphabet.replace(ch, "")[:8]:
            forged = token[:i] + other + token[i + 1:]
            # the last character carries 2 unused bits: a change there may decode the same
            if LINKS.read_replay(forged) is not None:
                assert i == len(token) - 1
                assert LINKS.read_replay(forged) == (77, 3)


@pytest.mark.parametrize("token", ["", "x", "A" * 49, "A" * 10_000, "../../etc/passwd",
                                   "%00", "AAAA====", "🂡"])
def test_junk_is_refused(token: str) -> None:
    assert LINKS.read_replay(token) is None and LINKS.read_server(token) is None


def test_kinds_and_keys_do_not_mix() -> None:
    assert LINKS.read_server(LINKS.replay_token(1, 1)) is None
    assert LINKS.read_replay(LINKS.server_token(1)) is None
    other = WebLinks("fedcba9876543210", "http://x")
    assert other.read_replay(LINKS.replay_token(1, 1)) is None
    with pytest.raises(ValueError):
        WebLinks("short", "http://x")
