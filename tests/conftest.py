"""Every shared fixture is in the plugin ``tests/support/fixtures.py`` (its docstring
lists them); this file only loads it."""

pytest_plugins = ["tests.support.fixtures"]
