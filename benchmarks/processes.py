"""One process on SQLite vs N processes on one PostgreSQL, same load, side by side.

Run: ``python -m benchmarks.interaction --processes 2 --database postgresql://… [--tables
100] [--seconds 30]`` (the options of ``benchmarks/interaction.py`` apply to both runs).

Each configuration runs the in-process benchmark of ``benchmarks/interaction.py`` in
worker subprocesses started together: once as one process on a temporary SQLite file
with every table, then as N processes (``--shard-count N --shard-id i``), each serving
the tables of the guilds on its shard, on a fresh schema of the PostgreSQL database
(dropped afterwards). Printed per configuration: interactions/s handled in all, the
full-answer (event in → handler done) and first-response p50/p99 in ms over every
process's interactions, and CPU per interaction (the bot processes' CPU time in the
measured window / interactions; the Hint worker subprocess is not counted, in
either configuration). docs/SCALING.md keeps the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

from tests.support.databases import create_schema, drop_schema, with_search_path

ROOT = Path(__file__).resolve().parents[1]
PASSED = ("think", "idle_factor", "hint_share", "seed", "tables", "seconds", "ramp", "event_loop")


async def worker(
    args: argparse.Namespace, database: str | None, shards: tuple[int, int] | None
) -> dict[str, Any]:
    """Run one benchmark process to the end; its JSON result."""
    argv = [sys.executable, "-m", "benchmarks.interaction", "--worker-json"]
    for name in PASSED:
        argv += [f"--{name.replace('_', '-')}", str(getattr(args, name))]
    if database is not None:
        argv += ["--database", database]
    if shards is not None:
        argv += ["--shard-count", str(shards[0]), "--shard-id", str(shards[1])]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = await asyncio.create_subprocess_exec(
        *argv, cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    out, err = await proc.communicate()
    lines = [line for line in out.decode().splitlines() if line.startswith("RESULT ")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"benchmark worker failed ({proc.returncode}): {err.decode()[-2000:]}")
    return json.loads(lines[-1].removeprefix("RESULT "))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def summary(name: str, processes: int, results: list[dict[str, Any]]) -> dict[str, Any]:
    """One configuration's figures over all its processes."""
    samples = [s for r in results for s in r["samples"]]
    first = [s[1] for s in samples]
    full = [s[2] for s in samples]
    wall = max(r["wall"] for r in results)
    cpu = sum(r["cpu"] for r in results)
    errors: dict[str, int] = {}
    for r in results:
        for key, n in r["errors"].items():
            errors[key] = errors.get(key, 0) + n
    return {
        "name": name,
        "processes": processes,
        "n": len(samples),
        "rate": len(samples) / wall,
        "full50": pct(full, 0.5),
        "full99": pct(full, 0.99),
        "first50": pct(first, 0.5),
        "first99": pct(first, 0.99),
        "cpu_ms": cpu * 1000 / max(1, len(samples)),
        "hands": sum(r["hands"] for r in results),
        "errors": errors,
    }


async def compare(args: argparse.Namespace) -> bool:
    """Run both configurations one after the other and print them side by side."""
    if not args.database or not args.database.startswith(("postgresql://", "postgres://")):
        print("--processes needs --database postgresql://…", file=sys.stderr)
        return False
    n = max(1, args.processes)
    print(
        f"{args.tables} tables × 3 members, think {args.think:.1f} s, measured {args.seconds:.0f} s"
        f" after a {args.ramp:.0f} s ramp; machine: {os.cpu_count()} cores"
    )
    rows = [summary("SQLite", 1, [await worker(args, None, None)])]
    schema = await create_schema(args.database, "bench_")
    url = with_search_path(args.database, schema)
    try:
        results = await asyncio.gather(*(worker(args, url, (n, i)) for i in range(n)))
    finally:
        await drop_schema(args.database, schema)
    rows.append(summary("PostgreSQL", n, list(results)))
    print(
        f"{'database':<12}{'procs':>6}{'interactions':>13}{'per s':>8}{'full p50':>10}"
        f"{'p99':>8}{'first p50':>11}{'p99':>8}{'CPU ms/int':>12}{'hands':>7}"
    )
    for r in rows:
        print(
            f"{r['name']:<12}{r['processes']:>6}{r['n']:>13}{r['rate']:>8.1f}{r['full50']:>10.1f}"
            f"{r['full99']:>8.1f}{r['first50']:>11.1f}{r['first99']:>8.1f}{r['cpu_ms']:>12.2f}"
            f"{r['hands']:>7}" + (f"  problems: {r['errors']}" if r["errors"] else "")
        )
    base, multi = rows
    print(
        f"PostgreSQL × {n} / SQLite × 1: throughput ×{multi['rate'] / base['rate']:.2f},"
        f" full p50 ×{multi['full50'] / base['full50']:.2f},"
        f" full p99 ×{multi['full99'] / base['full99']:.2f},"
        f" CPU per interaction ×{multi['cpu_ms'] / base['cpu_ms']:.2f}"
    )
    return True
