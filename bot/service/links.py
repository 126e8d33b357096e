"""Signed links to the web page (docs/WEB.md §Links): HMAC-SHA256 with ``DDZ_WEB_SECRET``.

A replay link names one settled hand of one server, ``/r/<token>`` where the token is
base64url(guild id (8 bytes) ‖ hand number (4 bytes) ‖ the first 12 bytes of the HMAC);
a standings link names a server, ``/s/<token>`` (guild id ‖ HMAC); a feature's page signs
its own payload under an HMAC domain of its own (``token`` / ``read``, bot/web/routes.py).
Each kind has its own HMAC domain, so a replay token never opens a standings page or a
feature's. Tokens are 32 and 27 characters; anything longer than ``MAX_TOKEN`` is refused
before decoding, and a token
must be the canonical encoding of its bytes (base64's unused bits of the last character
zero), so each token has one spelling and any changed character is refused. Pure: no I/O.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
import struct

MAC_BYTES = 12
"""Bytes of the HMAC kept in a token (96 bits: forging one takes ~2^95 tries)."""
MAX_TOKEN = 48
"""Longest token read (the longest the core makes is 32 characters)."""
TOKEN = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_TOKEN}}}")
_REPLAY = struct.Struct(">QI")
_SERVER = struct.Struct(">Q")


def _encode(raw: bytes) -> str:
    """base64url of ``raw`` without padding: the one spelling a token has."""
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class WebLinks:
    """Makes and reads the page's signed links.

    ``secret``: the key (``DDZ_WEB_SECRET``, ≥ 16 characters); ``base_url``: the public
    address without a trailing slash (``Settings.web_url``).
    """

    def __init__(self, secret: str, base_url: str) -> None:
        if len(secret) < 16:
            raise ValueError("the web secret needs at least 16 characters")
        self._key = secret.encode()
        self.base_url = base_url.rstrip("/")

    def _mac(self, kind: bytes, payload: bytes) -> bytes:
        return hmac.new(self._key, kind + b":" + payload, hashlib.sha256).digest()[:MAC_BYTES]

    def token(self, kind: bytes, payload: bytes) -> str:
        """The token of ``payload`` signed in the HMAC domain ``kind`` (``b"r"`` replays,
        ``b"s"`` standings; a feature's page one of its own)."""
        return _encode(payload + self._mac(kind, payload))

    def read(self, kind: bytes, token: str, size: int) -> bytes | None:
        """The ``size`` bytes of payload of a genuine ``kind`` token, else None (tampered,
        truncated, too long, another kind, not the one spelling)."""
        if not TOKEN.fullmatch(token):
            return None
        try:
            raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        except (binascii.Error, ValueError):
            return None
        if len(raw) != size + MAC_BYTES or _encode(raw) != token:
            return None  # the wrong size, or not the one spelling: the last character's
            # unused bits must be zero (20 bytes: 27 characters, 2 bits spare)
        payload, mac = raw[:size], raw[size:]
        return payload if hmac.compare_digest(mac, self._mac(kind, payload)) else None

    def replay_token(self, guild_id: int, hand_no: int) -> str:
        """The token of hand ``hand_no`` (1, 2, … per server) of ``guild_id``."""
        return self.token(b"r", _REPLAY.pack(guild_id, hand_no))

    def read_replay(self, token: str) -> tuple[int, int] | None:
        """(guild id, hand number) of a genuine replay token, else None (tampered,
        truncated, too long, another kind)."""
        payload = self.read(b"r", token, _REPLAY.size)
        return None if payload is None else _REPLAY.unpack(payload)

    def server_token(self, guild_id: int) -> str:
        """The token of ``guild_id``'s standings page."""
        return self.token(b"s", _SERVER.pack(guild_id))

    def read_server(self, token: str) -> int | None:
        """The guild id of a genuine standings token, else None."""
        payload = self.read(b"s", token, _SERVER.size)
        return None if payload is None else _SERVER.unpack(payload)[0]

    def replay_url(self, guild_id: int, hand_no: int) -> str:
        """The public address of a hand's replay page."""
        return f"{self.base_url}/r/{self.replay_token(guild_id, hand_no)}"

    def standings_url(self, guild_id: int) -> str:
        """The public address of a server's standings page."""
        return f"{self.base_url}/s/{self.server_token(guild_id)}"
