"""The features, each a wing of its own (docs/ARCHITECTURE.md §Features): the daily deal,
duplicate events, endgame puzzles and tournaments.

Each wing ``bot/features/<name>/`` offers one ``Feature`` (``bot.features.contract``) in its
``feature.py``; ``bot.features.installed.FEATURES`` lists the ones the bot runs. The core
(``TableService``, the ``/ddz`` cog, the hand view) iterates that list and names none of
them. This package's ``__init__`` imports nothing, so that a wing's pure part can be
imported without the others.
"""
