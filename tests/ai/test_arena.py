"""The arena's per-deal record (benchmarks/arena.py ``--out``, docs/AI.md §Learned evaluation)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.arena import run_matchup


@pytest.mark.processes  # the arena's ProcessPoolExecutor (one worker per run)
def test_a_run_cut_short_resumes_from_its_out_file(tmp_path: Path) -> None:
    out = tmp_path / "deals.jsonl"
    first = run_matchup("normal", "greedy", 3, 1, 0.0, 1, out)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["seed"] for r in rows] == [1, 2, 3]
    assert {r["match"] for r in rows} == {"normal:greedy"}
    assert all(r["landlord"] in (0.0, 1.0) and r["peasants"] in (0.0, 1.0) for r in rows)
    assert "| normal | greedy | 3 |" in first
    resumed = run_matchup("normal", "greedy", 5, 1, 0.0, 1, out)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["seed"] for r in rows) == [1, 2, 3, 4, 5]  # deals 1-3 not replayed
    whole = run_matchup("normal", "greedy", 5, 1, 0.0, 1)
    assert resumed.split("|")[1:8] == whole.split("|")[1:8]  # the same figures, time aside
