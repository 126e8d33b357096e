"""``python -m bot.sandbox``: see bot/sandbox/cli.py."""

from bot.sandbox.cli import main

raise SystemExit(main())
