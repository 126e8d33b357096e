"""Raw HTTP calls to the loopback emulator, without a bot (tests/e2e/test_emulator.py,
tests/e2e/test_discord_rules.py, tests/e2e/test_discord_threads.py)."""

from __future__ import annotations

from typing import Any

import aiohttp

from sandbox.loopback.emulator import Emulator


async def call(
    emu: Emulator, method: str, path: str, payload: Any = None, auth: bool = True
) -> tuple[int, Any]:
    """One raw HTTP request to the emulator's API (``path`` under ``api_base``, bot token
    unless ``auth`` is False); ``(status, JSON body or None)``."""
    headers = {"Authorization": f"Bot {emu.token}"} if auth else {}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, emu.api_base + path, json=payload, headers=headers) as resp,
    ):
        body = await resp.json() if resp.content_type == "application/json" else None
        return resp.status, body
