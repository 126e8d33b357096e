"""What a member types in the sandbox's message box, read as Discord's client would."""

from __future__ import annotations

import pytest

from sandbox.commandline import parse
from sandbox.loopback.emulator import Emulator
from sandbox.loopback.members import EmulatorUsageError
from sandbox.world import build_world

COMMANDS = [{
    "name": "ddz", "type": 1, "options": [
        {"type": 1, "name": "start", "name_localizations": {"es-ES": "empezar"}, "options": [
            {"type": 4, "name": "computers", "name_localizations": {"es-ES": "ordenadores"},
             "min_value": 0, "max_value": 2}]},
        {"type": 1, "name": "autoplay", "options": [
            {"type": 3, "name": "mode", "choices": [
                {"name": "On", "name_localizations": {"es-ES": "Activado"}, "value": "on"},
                {"name": "Off", "value": "off"}]}]},
        {"type": 1, "name": "play", "options": [{"type": 3, "name": "cards"}]},
        {"type": 1, "name": "stats", "options": [{"type": 6, "name": "member"},
                                                 {"type": 5, "name": "public"}]},
    ]}]


@pytest.fixture
def members() -> list:
    return build_world(Emulator(), members=2, lang="en").members


def test_names_and_values_become_the_options_discord_sends(members: list) -> None:
    alice, bob = members
    line = parse("/ddz start computers:2", COMMANDS, alice)
    assert (line.path, line.options) == ("ddz start", {"computers": 2})
    line = parse("/ddz play cards:3 3 4 4 ", COMMANDS, alice)
    assert line.options == {"cards": "3 3 4 4"}
    line = parse("/ddz stats member:@bob public:yes", COMMANDS, alice)
    assert line.options == {"member": bob, "public": True}
    assert parse("/ddz autoplay mode:On", COMMANDS, alice).options == {"mode": "on"}


def test_a_spanish_member_types_spanish_names(members: list) -> None:
    alice = members[0]
    alice.locale = "es-ES"
    line = parse("/ddz empezar ordenadores:1", COMMANDS, alice)
    assert (line.path, line.options) == ("ddz start", {"computers": 1})
    assert parse("/ddz autoplay mode:activado", COMMANDS, alice).options == {"mode": "on"}


@pytest.mark.parametrize(("text", "why"), [
    ("ddz start", "a command starts with /"),
    ("/", "type a command after /"),
    ("/dzz start", "/dzz is not a command of this server"),
    ("/ddz begin", "/ddz has no subcommand 'begin'"),
    ("/ddz start robots:2", "/ddz start has no option 'robots'"),
    ("/ddz start computers:two", "computers: 'two' is not a number"),
    ("/ddz stats public:maybe", "public: say true or false"),
    ("/ddz stats member:@nobody", "member: cannot read '@nobody'"),
])
def test_what_a_client_would_refuse_is_named(members: list, text: str, why: str) -> None:
    with pytest.raises(EmulatorUsageError) as refused:
        parse(text, COMMANDS, members[0])
    assert str(refused.value) == why
