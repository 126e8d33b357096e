"""Test databases of both backends: a SQLite file, or a fresh PostgreSQL schema.

PostgreSQL needs a server: ``DDZ_TEST_DATABASE_URL`` (``.ci/postgres start`` makes a
throwaway one). Without it the PostgreSQL cases skip, except under ``CI=true``, where
they fail: CI must run them.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest

from bot.storage import open_repository
from bot.storage.base import SqlRepository
from tests.support.feature_stores import FeatureStores

BACKENDS = ("sqlite", "postgres")
URL_VARIABLE = "DDZ_TEST_DATABASE_URL"


@dataclass(frozen=True)
class Database:
    """Where one test's database lives: ``location`` is a SQLite path or a PostgreSQL URL."""

    backend: str
    location: str

    async def open(self) -> SqlRepository:
        """A new Repository on this database, with the features' stores over it
        (``tests.support.feature_stores``; the caller closes it)."""
        store = await open_repository(self.location)
        assert isinstance(store, SqlRepository)
        return FeatureStores(store)  # type: ignore[return-value]  # a SqlRepository by delegation


def server_url() -> str:
    """The test server's URL; skips the test (fails it under CI=true) when there is none."""
    url = os.environ.get(URL_VARIABLE, "").strip()
    if url:
        return url
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{URL_VARIABLE} is not set: CI must run the PostgreSQL tests (.ci/run)")
    pytest.skip(f'PostgreSQL: set {URL_VARIABLE} (e.g. eval "$(.ci/postgres start)")')


def with_search_path(url: str, schema: str) -> str:
    """``url`` with ``search_path=schema`` in its query (asyncpg passes it to the server)."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "search_path"]
    query.append(("search_path", schema))
    return urlunsplit(parts._replace(query=urlencode(query)))


async def create_schema(url: str, prefix: str = "t_") -> str:
    """Create an empty, uniquely named schema on the server at ``url``; its name."""
    import asyncpg

    name = prefix + uuid.uuid4().hex[:16]
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"CREATE SCHEMA {name}")
    finally:
        await conn.close()
    return name


async def drop_schema(url: str, name: str) -> None:
    """Drop schema ``name`` and everything in it."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
    finally:
        await conn.close()


@asynccontextmanager
async def postgres_schema() -> AsyncIterator[str]:
    """A fresh schema on the test server, dropped afterwards; yields the URL that
    selects it (skips / fails like ``server_url``)."""
    url = server_url()
    name = await create_schema(url)
    try:
        yield with_search_path(url, name)
    finally:
        await drop_schema(url, name)
