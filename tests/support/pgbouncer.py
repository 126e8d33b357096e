"""A real PgBouncer (Debian ``pgbouncer``) in front of the test PostgreSQL server.

``running_pgbouncer(url, mode)`` starts one as the ``postgres`` system user (it refuses
to run as root) on a free local port, with trust authentication and the pool mode
asked for, and yields the URL that reaches ``url``'s database through it. Skips when
PgBouncer is not installed (``.ci/run`` installs it).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

PGBOUNCER = "/usr/sbin/pgbouncer"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running_pgbouncer(url: str, mode: str, ignore: str = "") -> Iterator[str]:
    """PgBouncer in ``mode`` (``session`` / ``transaction``) in front of ``url``'s server;
    ``ignore``: its ``ignore_startup_parameters``. Yields ``url`` through it."""
    if not os.path.exists(PGBOUNCER) or shutil.which("runuser") is None:
        pytest.skip("PgBouncer: apt-get install -y pgbouncer (.ci/run does)")
    parts = urlsplit(url)
    port = free_port()
    home = Path(tempfile.mkdtemp(prefix="ddz-pgbouncer-"))
    home.chmod(0o777)
    user = parts.username or "postgres"
    (home / "users.txt").write_text(f'"{user}" ""\n')
    (home / "pgbouncer.ini").write_text(f"""
[databases]
* = host={parts.hostname} port={parts.port or 5432}
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {port}
unix_socket_dir =
auth_type = trust
auth_file = {home}/users.txt
pool_mode = {mode}
ignore_startup_parameters = {ignore}
logfile = {home}/pgbouncer.log
pidfile = {home}/pgbouncer.pid
""")
    for path in home.iterdir():
        path.chmod(0o666)
    proc = subprocess.Popen(["runuser", "-u", "postgres", "--", PGBOUNCER,
                             str(home / "pgbouncer.ini")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"PgBouncer did not start: {proc.stderr.read() if proc.stderr else ''}")
            time.sleep(0.05)
        netloc = parts.netloc.rpartition("@")[0]
        yield urlunsplit(parts._replace(
            netloc=f"{netloc}@127.0.0.1:{port}" if netloc else f"127.0.0.1:{port}"))
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(home, ignore_errors=True)
