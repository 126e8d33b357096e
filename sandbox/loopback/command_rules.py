"""What Discord checks in an application command the bot syncs (docs/DISCORD.md row 26;
discord-api-docs ``interactions/application-commands.mdx`` §Application Command Naming,
§Application Command Option Structure, §Localization, and ``reference.mdx`` §Locales).

``command_problems(command)`` lists every rule a command object breaks, each naming the
field's path and, for a localization, its locale (``options[2].name_localizations[zh-CN]:
...``): Discord's own answer (400 / 50035 *Invalid Form Body*) names the path too, but a
bot's sync log rarely shows it, so the loopback's answer says which locale broke.
"""

from __future__ import annotations

from typing import Any

import regex

NAME = regex.compile(r"^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$", regex.UNICODE)
"""A ``CHAT_INPUT`` command's or option's name ("with the unicode flag set")."""
LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu",
    "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk",
    "hi", "th", "zh-CN", "ja", "zh-TW", "ko"})
"""The keys a localization dictionary may have (``reference.mdx`` §Locales)."""
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_DESCRIPTION = 100
MAX_CHOICE_NAME = 100
MAX_COMMAND_CHARS = 8000
"""Combined name, description and value characters of a command, its options and choices,
counting the longest localization of each field."""
CHAT_INPUT = 1


def name_problem(name: object) -> str | None:
    """Why ``name`` is not a valid command or option name, or None: 1-32 characters of
    :data:`NAME`, and lowercase wherever a letter has a lowercase variant."""
    if not isinstance(name, str) or not NAME.match(name):
        return f"{name!r} does not match {NAME.pattern}"
    if name != name.lower():
        return f"{name!r} must be lowercase"
    return None


def _localized(path: str, field: str, item: dict[str, Any], check: Any) -> list[str]:
    problems = []
    message = check(item.get(field))
    if message:
        problems.append(f"{path}{field}: {message}")
    for locale, value in (item.get(f"{field}_localizations") or {}).items():
        if locale not in LOCALES:
            problems.append(f"{path}{field}_localizations[{locale}]: not a Discord locale")
            continue
        message = check(value)
        if message:
            problems.append(f"{path}{field}_localizations[{locale}]: {message}")
    return problems


def _description(text: object) -> str | None:
    if not isinstance(text, str) or not 1 <= len(text) <= MAX_DESCRIPTION:
        return f"must be 1-{MAX_DESCRIPTION} characters"
    return None


def _choice_name(text: object) -> str | None:
    if not isinstance(text, str) or not 1 <= len(text) <= MAX_CHOICE_NAME:
        return f"must be 1-{MAX_CHOICE_NAME} characters"
    return None


def _longest(item: dict[str, Any], field: str) -> int:
    values = [item.get(field) or "", *(item.get(f"{field}_localizations") or {}).values()]
    return max(len(str(v)) for v in values)


def _size(item: dict[str, Any]) -> int:
    total = _longest(item, "name") + _longest(item, "description")
    for choice in item.get("choices") or []:
        total += _longest(choice, "name") + len(str(choice.get("value", "")))
    return total + sum(_size(option) for option in item.get("options") or [])


def _options(path: str, options: list[dict[str, Any]]) -> list[str]:
    problems: list[str] = []
    if len(options) > MAX_OPTIONS:
        problems.append(f"{path}options: at most {MAX_OPTIONS}")
    defaults = [str(o.get("name")) for o in options]
    per_locale: dict[str, list[str]] = {}
    for i, option in enumerate(options):
        here = f"{path}options[{i}]."
        problems += _localized(here, "name", option, name_problem)
        problems += _localized(here, "description", option, _description)
        choices = option.get("choices") or []
        if len(choices) > MAX_CHOICES:
            problems.append(f"{here}choices: at most {MAX_CHOICES}")
        for j, choice in enumerate(choices):
            problems += _localized(f"{here}choices[{j}].", "name", choice, _choice_name)
        for locale, value in (option.get("name_localizations") or {}).items():
            per_locale.setdefault(locale, []).append(str(value))
        problems += _options(here, option.get("options") or [])
    for locale, names in per_locale.items():
        # "distinct from all other default option names of that command, as well as all
        # other option names within that locale" (§Localization)
        for i, option in enumerate(options):
            value = (option.get("name_localizations") or {}).get(locale)
            if value is None:
                continue
            clash = names.count(str(value)) > 1 or any(
                value == d for k, d in enumerate(defaults) if k != i)
            if clash:
                problems.append(f"{path}options[{i}].name_localizations[{locale}]: "
                                f"{value!r} is another option's name")
    return problems


def command_problems(command: dict[str, Any]) -> list[str]:
    """Every rule of Discord's that ``command`` (a ``CHAT_INPUT`` command object as the
    bot sends it) breaks; [] when Discord would take it. Other command types (user,
    message) are only checked for a non-empty name."""
    if int(command.get("type", CHAT_INPUT)) != CHAT_INPUT:
        name = command.get("name")
        return [] if isinstance(name, str) and 1 <= len(name) <= 32 else [
            f"name: {name!r} must be 1-32 characters"]
    problems = _localized("", "name", command, name_problem)
    problems += _localized("", "description", command, _description)
    problems += _options("", command.get("options") or [])
    size = _size(command)
    if size > MAX_COMMAND_CHARS:
        problems.append(f"{command.get('name')}: {size} characters, at most {MAX_COMMAND_CHARS}")
    return [f"{command.get('name')}: {p}" for p in problems]
