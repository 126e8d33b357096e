"""A TCP proxy in front of the test PostgreSQL server that can stop forwarding.

``freeze()`` is a network partition or a stuck failover as the bot sees it: its
connections stay open, nothing it sends is answered, new connections are accepted
and never reach the server. ``thaw()`` lets the held bytes through again. The real
server (shared by other tests) is never stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit, urlunsplit


class FreezableProxy:
    """Forwards 127.0.0.1:``port`` to the server of ``url``; ``url_via`` rewrites a URL.
    ``async with FreezableProxy(url) as proxy:`` starts it, and thaws and closes it after."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.upstream = (parts.hostname or "127.0.0.1", parts.port or 5432)
        self._flowing = asyncio.Event()
        self._flowing.set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._writers: list[asyncio.StreamWriter] = []
        self._server: asyncio.AbstractServer | None = None
        self.port = 0

    async def start(self) -> FreezableProxy:
        self._server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aenter__(self) -> FreezableProxy:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        self.thaw()
        await self.close()

    def url_via(self, url: str) -> str:
        """``url`` with its host and port replaced by the proxy's."""
        parts = urlsplit(url)
        auth = parts.netloc.rpartition("@")[0]
        netloc = f"{auth}@127.0.0.1:{self.port}" if auth else f"127.0.0.1:{self.port}"
        return urlunsplit(parts._replace(netloc=netloc))

    def freeze(self) -> None:
        self._flowing.clear()

    def thaw(self) -> None:
        self._flowing.set()

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        for writer in self._writers:
            writer.close()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self._writers.append(writer)
        try:
            await self._flowing.wait()
            up_reader, up_writer = await asyncio.open_connection(*self.upstream)
            self._writers.append(up_writer)
            await asyncio.gather(self._pump(reader, up_writer), self._pump(up_reader, writer))
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            self._tasks.discard(task)
            with contextlib.suppress(Exception):
                writer.close()

    async def _pump(self, source: asyncio.StreamReader, dest: asyncio.StreamWriter) -> None:
        while data := await source.read(65536):
            await self._flowing.wait()
            dest.write(data)
            await dest.drain()
        dest.close()
