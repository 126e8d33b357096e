"""A demonstration feature written only for a test (issue 49): ``/ddz ping`` deals the
member a table of its own kind (``ping``) against two computers, in the channel, and its
store keeps one row per table (its result once the hand is settled), and its web page
``/ping/<table id>`` shows that row.

It touches no file of the core: its pure part (``rules.py``), its store and migrations
(``store.py``), its service (``service.py``), its Discord side (``cog.py``), its web page
(``web.py``, ``templates/``) and its
``Feature`` (``feature.py``) live here, and tests/cogs/test_demo_feature.py installs it
through the contract (``DdzBot(settings, features=[*FEATURES, FEATURE])``). Its texts are
catalog keys that exist already (a real feature adds its own to the catalogs).
"""
