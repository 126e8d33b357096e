"""The database half of ``/healthz``: does the database answer, within a bound?"""

from __future__ import annotations

import asyncio
from typing import Any

DATABASE_TIMEOUT = 2.0
"""Seconds the database may take to answer the probe."""


async def database_problem(storage: Any, timeout: float = DATABASE_TIMEOUT) -> str | None:
    """None when ``storage`` (a Repository) answers one read (the settings of guild 0,
    never stored: the defaults) within ``timeout`` seconds, else a one-line reason."""
    if storage is None:
        return "the database is closed"
    try:
        await asyncio.wait_for(storage.get_settings(0), timeout)
    except TimeoutError:
        return f"the database did not answer within {timeout:g} s"
    except Exception as error:
        text = str(error).splitlines()[0][:120] if str(error) else ""
        return f"the database does not answer: {type(error).__name__}{': ' + text if text else ''}"
    return None
