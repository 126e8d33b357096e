"""Every shared fixture is in the plugin ``tests/support/fixtures.py`` (its docstring
lists them); this file loads it, after turning bytecode caches back on."""

import sys

# Where the environment sets PYTHONDONTWRITEBYTECODE (this development machine's does),
# nothing is cached: every xdist worker compiled the bot and pytest rewrote the asserts of
# every test module again at each run (8.6 s of CPU a worker's collection, 3.3 s with the
# caches), and every process a test starts (AI workers, renderers) compiled what it
# imports. The caches go to __pycache__/ (.gitignore); docs/CONTRIBUTING.md §Measurements.
sys.dont_write_bytecode = False

pytest_plugins = ["tests.support.fixtures"]
