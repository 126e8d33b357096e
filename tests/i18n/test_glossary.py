"""One word per thing in each language (``bot/i18n/locales/<lang>/glossary.toml``), and
commands named in the reader's language: a Spanish text names ``/ddz evento jugar``,
never ``/ddz event play`` (issue 37: the events' Spanish texts named the English
commands, and "the computer" was *ordenador*, *computadora* and *máquina*)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from bot.i18n import available_locales, catalog
from bot.i18n.catalog import LOCALES_DIR

COMMAND_RE = re.compile(r"/ddz((?: [^\s`:.,;()：，。；（）、]+)+)")
"""``/ddz`` and the words after it (a command, its subcommand, an option or value…), up to
a space, a quote or a punctuation mark (Chinese full-width ones too)."""
GROUPS = {"event": "event_"}
"""Command groups: the group's key → the prefix of its subcommands' keys (``cmd.event_play``)."""


def glossary(lang: str) -> dict[str, dict[str, object]]:
    with (LOCALES_DIR / lang / "glossary.toml").open("rb") as f:
        return tomllib.load(f)["terms"]


def texts(lang: str) -> dict[str, str]:
    """Every message a member reads in ``lang`` (the command names themselves aside)."""
    return {k: v for k, v in catalog(lang).items()
            if not k.startswith(("cmd.", "param.", "choice."))}


def commands(lang: str) -> tuple[set[str], dict[str, set[str]]]:
    """``lang``'s top-level command names and, per group name, its subcommand names, from
    the app-command translations (``cmd.<name>.name``) as Discord shows them."""
    names = {k[4:-5]: v for k, v in catalog(lang).items()
             if k.startswith("cmd.") and k.endswith(".name") and k != "cmd.ddz.name"}
    top = {v for k, v in names.items() if not any(k.startswith(p) for p in GROUPS.values())}
    subs = {names[g]: {v for k, v in names.items() if k.startswith(p)} for g, p in GROUPS.items()}
    return top, subs


HAN = re.compile(r"[\u3400-\u9fff]")
"""A Chinese character: Chinese has no spaces between words, so a word to avoid is found
anywhere in a text (``\\w`` is a letter there too, and word boundaries would hide it)."""


def avoided(word: str) -> str:
    """The pattern that finds ``word`` in a text: as a word or its plural, or anywhere
    for a Chinese word."""
    if HAN.search(word):
        return re.escape(word)
    return r"(?<!\w)" + re.escape(word) + r"(?:s|es)?(?!\w)"


def named_commands(text: str) -> list[tuple[str, ...]]:
    """The command paths ``text`` names: ``("event", "play")``, ``("score",)``."""
    return [tuple(m.group(1).split()) for m in COMMAND_RE.finditer(text)]


@pytest.mark.parametrize("lang", available_locales())
def test_every_command_a_text_names_is_a_command_of_its_language(lang: str) -> None:
    top, subs = commands(lang)
    others = [commands(o) for o in available_locales() if o != lang]
    wrong = []
    for key, text in texts(lang).items():
        for words in named_commands(text):
            ok = words[0] in top or (words[0] in subs and len(words) > 1
                                     and words[1] in subs[words[0]])
            if not ok:
                wrong.append((key, " ".join(words[:2])))
    assert wrong == [], f"{lang} texts naming commands {lang} lacks: {wrong}"
    # and a name of another language only when it is also this language's (config, ddz)
    foreign = {n for o_top, o_subs in others for n in o_top | set(o_subs)} - top - set(subs)
    assert not [k for k, text in texts(lang).items()
                for words in named_commands(text) if words[0] in foreign]


def test_the_spanish_event_texts_name_the_spanish_commands() -> None:
    es, en = catalog("es"), catalog("en")
    assert "`/ddz evento unirse` y luego `/ddz evento jugar`" in es["event.created"]
    assert "`/ddz evento jugar`" in es["event.joined"]
    assert "`/ddz evento clasificacion`" in es["event.next"]
    assert "`/ddz olvidar`" in es["error.event_forgotten"]
    assert "`/ddz event join`, then `/ddz event play`" in en["event.created"]
    assert named_commands("`/ddz event play` te reparte") == [("event", "play")]


def test_a_chinese_word_to_avoid_is_found_inside_a_sentence() -> None:
    # Chinese is written without spaces: "(?<!\\w)火箭" never matched "打出火箭就翻倍"
    assert re.findall(avoided("火箭"), "打出火箭就翻倍") == ["火箭"]
    assert re.findall(avoided("robot"), "robots, a robotic arm") == ["robots"]


@pytest.mark.parametrize("lang", available_locales())
def test_each_thing_has_one_word_in_each_language(lang: str) -> None:
    terms = glossary(lang)
    assert {"computer", "kitty"} <= set(terms)
    body = "\n".join(texts(lang).values())
    for name, term in terms.items():
        assert re.search(re.escape(str(term["use"])), body, re.I), (lang, name)
        for word in term["avoid"]:  # type: ignore[attr-defined]
            found = re.findall(avoided(word), body, re.I)
            assert found == [], (lang, name, found)


def test_the_spanish_glossary_picks_ordenador_and_fondo() -> None:
    terms = glossary("es")
    assert terms["computer"]["use"] == "ordenador" and terms["kitty"]["use"] == "fondo"
    es = catalog("es")
    assert "con un ordenador de compañero" in es["event.role_peasant_after"]
    assert "el fondo, contra dos ordenadores" in es["daily.opened"]


def test_every_language_has_a_glossary() -> None:
    assert sorted(p.parent.name for p in Path(LOCALES_DIR).glob("*/glossary.toml")) == list(
        available_locales())
