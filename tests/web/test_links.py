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


ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


@pytest.mark.parametrize("kind", ["replay", "server"])
def test_every_single_character_change_is_refused(kind: str) -> None:
    """Every other character at every place, the last one too (docs/WEB.md §Links)."""
    token, read = ((LINKS.replay_token(77, 3), LINKS.read_replay) if kind == "replay"
                   else (LINKS.server_token(4242), LINKS.read_server))
    assert read(token) is not None
    for i, ch in enumerate(token):
        for other in ALPHABET.replace(ch, ""):
            forged = token[:i] + other + token[i + 1:]
            assert read(forged) is None, (i, forged)


def test_a_standings_token_has_one_spelling_not_four() -> None:
    """20 bytes are 27 characters with 2 bits to spare: base64 decoders ignore them, so
    the last character A, B, C and D all read as the same bytes; only the canonical one
    (spare bits zero) may open the page."""
    token = LINKS.server_token(4242)
    assert token == "AAAAAAAAEJJf4eFvZV6lmdyNAjA"
    spellings = [token[:-1] + last for last in "ABCD"]
    assert [LINKS.read_server(s) for s in spellings] == [4242, None, None, None]


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
