"""P(pass | could beat, role, kind): written by ``python -m fitting.fit_inference``.

Fitted on 3000 normal self-play games (seeds 20,000,000+); key = (the passing
seat is the landlord, kind bucket, how it could beat with the same kind: 0 not at all,
1 only with 2s or jokers, 2 with a lower body). docs/AI.md §Inference.
"""

PASS_RATE: dict[tuple[bool, str, int], float] = {
    (True, 'single', 0): 0.9851,  # 3948 passes or plays
    (True, 'single', 1): 0.1670,  # 2298 passes or plays
    (True, 'single', 2): 0.0711,  # 8087 passes or plays
    (True, 'pair', 0): 0.9647,  # 1724 passes or plays
    (True, 'pair', 1): 0.2075,  # 263 passes or plays
    (True, 'pair', 2): 0.2343,  # 2286 passes or plays
    (True, 'other', 0): 0.9622,  # 2509 passes or plays
    (True, 'other', 1): 0.3759,  # 139 passes or plays
    (True, 'other', 2): 0.3591,  # 1201 passes or plays
    (False, 'single', 0): 0.9950,  # 5039 passes or plays
    (False, 'single', 1): 0.1738,  # 3491 passes or plays
    (False, 'single', 2): 0.0400,  # 7495 passes or plays
    (False, 'pair', 0): 0.9816,  # 2058 passes or plays
    (False, 'pair', 1): 0.2422,  # 415 passes or plays
    (False, 'pair', 2): 0.2068,  # 2305 passes or plays
    (False, 'other', 0): 0.9760,  # 4377 passes or plays
    (False, 'other', 1): 0.2258,  # 153 passes or plays
    (False, 'other', 2): 0.2781,  # 1997 passes or plays
}
