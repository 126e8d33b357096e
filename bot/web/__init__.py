"""The web page beside the bot (docs/WEB.md): replays, server standings, ``/healthz``,
``/metrics``. An adapter like ``cogs``: it reads through the services
(``TableService``, ``ReplayService``), never the storage, and never imports discord.

``bot.web.server.WebServer`` runs it inside the bot process (aiohttp's server, Jinja2
templates through aiohttp-jinja2, static files served by it, nothing to build).
"""
