"""Tournaments: Swiss rounds at tables of three (docs/RULES.md §Tournaments). Its ``Feature``
in ``feature.py``; its pure floor (no clock, storage, Discord or concurrency): who sits where
each round (``seating.seat_round``: round 1 by a seeded shuffle, later rounds by the Swiss
rule), the match points of a finished table and the standings (``scoring``), the bounds
(``limits``); its service stores and plays what these decide."""
