"""Fitting the computer players' models on played-out deals (not measurements: those
are in ``benchmarks/``). ``python -m fitting.bidding_outcomes`` plays the deals out,
``python -m fitting.fit_bidding`` fits ``bot.ai.bidding``'s constants (docs/AI.md)."""
