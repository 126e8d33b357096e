"""bot/logsafe.py: log records lose payloads, hand-view states and tokens, keep the rest."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot import logsafe

ALT = "Your hand: 3344556789TJQKA22XD"
EVENT = {"op": 0, "t": "INTERACTION_CREATE", "s": 7,
         "d": {"message": {"attachments": [{"description": ALT}]},
               "data": {"custom_id": "ddz:ab12cd:9:hr3.k2j9x.r0"}}}


@pytest.fixture
def captured() -> Iterator[io.StringIO]:
    """A root handler writing to a string, with logsafe installed; undone afterwards."""
    factory = logging.getLogRecordFactory()
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    root = logging.getLogger()
    old_level, sql_level = root.level, logging.getLogger("aiosqlite").level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    logsafe.install()
    try:
        yield stream
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
        logging.getLogger("aiosqlite").setLevel(sql_level)
        logging.setLogRecordFactory(factory)


def test_a_gateway_event_dump_keeps_op_t_s_and_loses_the_payload(captured: io.StringIO) -> None:
    logging.getLogger("discord.gateway").debug("For Shard ID %s: WebSocket Event: %s", None, EVENT)
    line = captured.getvalue()
    assert "WebSocket Event: <gateway op=0 t=INTERACTION_CREATE s=7 (payload withheld)>" in line
    assert "3344556789" not in line and "k2j9x" not in line


def test_an_http_body_as_json_text_or_parsed_is_withheld(captured: io.StringIO) -> None:
    http = logging.getLogger("discord.http")
    body = json.dumps({"content": "", "attachments": [{"description": ALT}]})
    http.debug("%s %s with %s has returned %s", "PATCH", "http://x/api/v10/channels/1", body, 200)
    http.debug("%s %s has received %s", "PATCH", "http://x/api/v10/channels/1", [EVENT])
    out = captured.getvalue()
    assert "PATCH http://x/api/v10/channels/1 with <str of" in out and "has returned 200" in out
    assert "<list of 1 items withheld>" in out and "Your hand" not in out


def test_a_lone_mapping_argument_and_a_dict_message_are_withheld(captured: io.StringIO) -> None:
    log = logging.getLogger("somelib")
    log.debug("payload %s", {"description": ALT})
    log.debug({"description": ALT})
    log.debug("named %(who)s at %(table)s", {"who": "alice", "table": {"hand": ALT}})
    out = captured.getvalue()
    assert "named alice at <dict of 1 keys withheld>" in out
    assert "Your hand" not in out and out.count("withheld") == 3


def test_hand_view_custom_ids_lose_mask_and_tokens_are_masked(captured: io.StringIO) -> None:
    log = logging.getLogger("discord.ui.view")
    button = "<Button label='5' custom_id='ddz:ab12cd:9:hpick.1x3f5.g2'>"
    url = "http://h/api/v10/webhooks/123/aW50ZXJhY3Rpb246abcdefghijklmnopqrstuv/messages/@original"
    log.error("Ignoring exception in view for item %r", button)
    log.debug("%s %s", "PATCH", url)
    out = captured.getvalue()
    assert "ddz:ab12cd:9:hpick.…" in out and "1x3f5" not in out
    assert "/webhooks/123/<token>/messages/@original" in out and "aW50ZXJh" not in out


def test_ids_numbers_and_exceptions_pass_unchanged(captured: io.StringIO) -> None:
    error = RuntimeError("404 Not Found (error code: 10008): Unknown Message")
    logging.getLogger("cogs.ddz").warning("drawing table %s failed (%s, try %d)", "ab12", error, 2)
    assert "drawing table ab12 failed (404 Not Found (error code: 10008): Unknown Message, try 2)" \
        in captured.getvalue()


def test_sql_statements_with_parameters_are_never_logged(captured: io.StringIO) -> None:
    logging.getLogger("aiosqlite").debug("executing %s", "UPDATE tables SET state=?")
    assert captured.getvalue() == ""
    assert logging.getLogger("aiosqlite").getEffectiveLevel() >= logging.INFO
