"""Replay pages, the animation and reviews: ``python -m benchmarks.replay [--hands N]``.

For ``N`` seeded self-play hands (normal computers; kicker variants alternate):

* replay page render time (median / max ms) and PNG size (median / max KB), the
  result page included;
* the animated image of the whole hand as GIF (what the bot sends) and as animated
  WebP (for comparison), size and encode time, against the 2 MB target;
* review time per hand for the landlord's seat and one peasant's seat, through the
  real path: ``ReplayService`` sending each decision to the AI worker process
  (``--in-thread`` runs them in a thread of this process instead), against the
  10 s target. Decisions per hand are printed too.

Bounded: ``--hands`` (default 4) and ``--seconds`` (default 240) cap the run.
``--samples DIR`` instead writes the sample images of docs/ (a replay page, a
review page with its marks) from seeded hand ``--seed`` and exits.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from typing import Any

from bot.ai import choose_bid, choose_play
from bot.game.replay import replay
from bot.game.selfplay import seeded_hand
from bot.rules import RuleSet
from bot.service.replays import ReplayService
from bot.values import FinishedHand, SeatChange, Settlement
from rendering import render_result
from rendering.cards import warm_up
from rendering.replay import page_image, render_replay_animation, render_replay_page
from rendering.replay_pages import Players, pages, result_view

ANIMATION_LIMIT = 2 * 1024 * 1024
REVIEW_TARGET_S = 10.0


def _record(seed: int) -> FinishedHand:
    rules = RuleSet(kickers="distinct") if seed % 2 else RuleSet()
    rng = random.Random(seed)
    hand = seeded_hand(seed, lambda o: choose_bid(o, "normal", rng).bid,
                       lambda o: choose_play(o, "normal", rng).combo, rules)
    result = hand.result
    assert result is not None
    changes = [SeatChange(seat=i, user_id=100 + i, name=f"Player {i + 1}", points=result.points[i],
                          role="landlord" if i == hand.landlord else "peasant", total=result.points[i])
               for i in range(3)]
    settlement = Settlement(hand_id=f"bench{seed}", guild_id=1, table_id="t", match_no=1,
                            changes=changes, winner=result.winner, hand_no=seed)
    return FinishedHand(hand_no=seed, hand_id=f"bench{seed}", guild_id=1, finished_at=0.0,
                        hand_json=hand.model_dump_json(), settlement=settlement,
                        user_ids=(100, 101, 102))


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values):7.1f} / {max(values):7.1f}"


def bench_rendering(records: list[FinishedHand]) -> None:
    from bot.game.hand import Hand

    times: list[float] = []
    sizes: list[float] = []
    anim: dict[str, list[tuple[float, float]]] = {"gif": [], "webp": []}
    for record in records:
        hand = Hand.model_validate_json(record.hand_json)
        steps = replay(hand)
        players = Players(("Player 1", "Player 2", "Player 3"), (100, 101, 102))
        models = pages(hand, steps, players, record.hand_no)
        frames: list[Any] = []
        for model in models:
            start = time.perf_counter()
            png = render_replay_page(model)
            times.append((time.perf_counter() - start) * 1000)
            sizes.append(len(png) / 1024)
            frames.append(page_image(model))
        start = time.perf_counter()
        png = render_result(result_view(hand, players, record.hand_no))
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(png) / 1024)
        frames.append(png)
        for fmt in ("gif", "webp"):
            start = time.perf_counter()
            data = render_replay_animation(frames, fmt=fmt)
            anim[fmt].append((len(data) / 1024, time.perf_counter() - start))
        print(f"  hand {record.hand_no}: {len(steps)} pages, GIF {anim['gif'][-1][0]:.0f} KB, "
              f"WebP {anim['webp'][-1][0]:.0f} KB")
    from rendering import render_table
    from tools.samples import mid_game_table

    table = mid_game_table()
    ref = []
    for _ in range(max(10, len(times) // 2)):
        start = time.perf_counter()
        render_table(table)
        ref.append((time.perf_counter() - start) * 1000)
    print(f"replay page render ms (median / max over {len(times)} pages): {_ms(times)}")
    print(f"  side by side: the public table image (benchmarks.render) {statistics.median(ref):.1f} ms"
          f" median, so a page costs {statistics.median(times) / statistics.median(ref):.1f}× a table")
    print(f"replay page PNG KB    (median / max):                 {_ms(sizes)}")
    for fmt, rows in anim.items():
        kb = [k for k, _ in rows]
        secs = [s * 1000 for _, s in rows]
        ok = max(kb) * 1024 <= ANIMATION_LIMIT
        print(f"animation {fmt:<4} KB (median / max): {_ms(kb)}   encode ms {_ms(secs)}   "
              f"≤ 2 MB {'ok' if ok else 'MISSED'}")


async def bench_reviews(records: list[FinishedHand], in_thread: bool, deadline: float) -> None:
    async def thread_run(fn: Any, *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    class Records:
        async def numbered_hand(self, guild_id: int, hand_no: int) -> FinishedHand | None:
            return next((r for r in records if r.hand_no == hand_no), None)

    from bot.service.worker import ai_pool

    pool = ai_pool()
    service = ReplayService(Records(), run=thread_run if in_thread else pool.run)
    if not in_thread:  # start the worker process outside the timings
        await pool.wait_ready()
    rows: list[tuple[float, int]] = []
    for record in records:
        found = await service.find(1, 100, record.hand_no, channel_id=record.channel_id)
        landlord = found.hand.landlord or 0
        for seat in (landlord, (landlord + 1) % 3):
            if time.monotonic() > deadline:
                print("  (time cap reached)")
                break
            start = time.perf_counter()
            review = await service.review(found, seat)
            took = time.perf_counter() - start
            rows.append((took, len(review.decisions)))
            role = "landlord" if seat == landlord else "peasant"
            print(f"  hand {record.hand_no} {role:<8}: {len(review.decisions):2d} decisions, "
                  f"{took:5.2f} s, worst {[round(100 * dict(review.decisions)[i].loss) for i in review.worst]} %")
    if rows:
        secs = [r[0] for r in rows]
        per = [r[0] / max(1, r[1]) * 1000 for r in rows]
        ok = max(secs) <= REVIEW_TARGET_S
        print(f"review s per hand (median / max over {len(rows)} reviews): "
              f"{statistics.median(secs):.2f} / {max(secs):.2f}   ≤ {REVIEW_TARGET_S:.0f} s "
              f"{'ok' if ok else 'MISSED'}; ms per decision median {statistics.median(per):.0f}")
    pool.shutdown()


async def write_samples(out: str, seed: int) -> None:
    """docs/replay_page.png (a trick) and docs/review_page.png (the costliest decision)."""
    from pathlib import Path

    from bot.game.hand import Hand
    from cogs.replay import first_marked_page, marks_of

    record = _record(seed)
    hand = Hand.model_validate_json(record.hand_json)
    steps = replay(hand)
    players = Players(("Ana", "Bot 2", "Bob"), (100, None, 102))

    async def thread_run(fn: Any, *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    class Records:
        async def numbered_hand(self, guild_id: int, hand_no: int) -> FinishedHand | None:
            return record

    found = await ReplayService(Records(), run=thread_run).find(
        1, 100, record.hand_no, channel_id=record.channel_id)
    review = await ReplayService(Records(), run=thread_run).review(found, 0)
    trick = next(i for i, s in enumerate(steps) if s.kind == "trick" and len(s.actions) >= 4)
    plain = pages(hand, steps, players, record.hand_no)
    marked = pages(hand, steps, players, record.hand_no, marks_of(found, review))
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    for name, model in (("replay_page.png", plain[trick]),
                        ("review_page.png", marked[first_marked_page(found, review)])):
        (folder / name).write_bytes(render_replay_page(model))
        print(folder / name, f"{(folder / name).stat().st_size / 1024:.0f} KB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=240.0)
    parser.add_argument("--in-thread", action="store_true")
    parser.add_argument("--skip-review", action="store_true")
    parser.add_argument("--samples", metavar="DIR")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    if args.samples:
        asyncio.run(write_samples(args.samples, args.seed))
        return
    deadline = time.monotonic() + args.seconds
    warm_up()
    records = [_record(seed) for seed in range(1, args.hands + 1)]
    bench_rendering(records)
    if not args.skip_review:
        asyncio.run(bench_reviews(records, args.in_thread, deadline))


if __name__ == "__main__":
    main()
