"""The OpenAPI check itself (tests/support/openapi.py): a mismatch names the route and
the field; allowances let through only the gap they name."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from sandbox.loopback.rest import Exchange
from tests.support import openapi
from tests.support.openapi import ALLOWED, Tally, check, spec_route


def exchange(method: str, path: str, payload: Any, status: int, response: Any) -> Exchange:
    raw = json.dumps(response).encode() if response is not None else b""
    return Exchange(None, method, "/api/v10" + path, {}, "application/json",  # type: ignore[arg-type]
                    payload, 0, status, raw, "application/json")


def test_routes_map_to_the_spec_templates_literal_segments_first() -> None:
    assert spec_route("/api/v10/webhooks/1/tok/messages/@original") == (
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
    assert spec_route("/api/v10/webhooks/1/tok/messages/22") == (
        "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
    assert spec_route("/api/v10/no/such/route") is None


def test_a_bad_request_field_is_named_with_its_route() -> None:
    tally = Tally()
    problems = check(exchange("POST", "/channels/1/messages", {"content": 5}, 400,
                              {"message": "Invalid Form Body", "code": 50035}), tally)
    assert [p.text for p in problems] == [
        "POST /channels/{channel_id}/messages request $.content: 5 is not of type "
        "'string', 'null'"]
    assert (tally.requests, tally.responses) == (1, 1)


def test_a_missing_response_field_inside_a_union_names_the_deepest_field() -> None:
    tally = Tally()
    body = {"interaction": {"id": "1", "type": 3},
            "resource": {"type": 7, "message": {"id": "x"}}}
    problems = check(exchange("POST", "/interactions/1/tok/callback", {"type": 6}, 200, body),
                     tally)
    assert problems and all(p.side == "response" for p in problems)
    assert problems[0].text.startswith(
        "POST /interactions/{interaction_id}/{interaction_token}/callback response "
        "$.resource.message")


def test_allowances_let_only_their_gap_through() -> None:
    assert all(a.why and a.name for a in ALLOWED)
    tally = Tally()
    rate_limited = {"message": "You are being rate limited.", "retry_after": 0.5,
                    "global": True}
    assert check(exchange("PATCH", "/channels/1/messages/2", {"content": "x"}, 429,
                          rate_limited), tally) == []
    assert tally.allowed == {"429 without a code": 1}
    broken = {"message": "You are being rate limited.", "global": True}
    problems = check(exchange("PATCH", "/channels/1/messages/2", {"content": "x"}, 429,
                              broken), tally)
    assert [p.text for p in problems] == [
        "PATCH /channels/{channel_id}/messages/{message_id} response $: 'retry_after' is a "
        "required property"]


@pytest.mark.processes
def test_an_exchange_checked_in_the_checking_process_counts_as_one_checked_inline(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``hook`` hands exchanges to a process of its own; ``drain`` brings back the same
    counts and mismatches as ``check`` in this process (the test then takes its mismatch
    back out of the session's tally, which would fail it)."""
    bad = exchange("POST", "/channels/1/messages", {"content": 5}, 400,
                   {"message": "Invalid Form Body", "code": 50035})
    good = exchange("PATCH", "/channels/1/messages/2", {"content": "x"}, 429,
                    {"message": "You are being rate limited.", "retry_after": 1.0,
                     "global": False})
    inline = Tally()
    expected = [m.text for e in (bad, good) for m in check(e, inline)]
    counts = (openapi.TALLY.requests, openapi.TALLY.responses, len(openapi.TALLY.mismatches),
              openapi.TALLY.allowed["429 without a code"])
    monkeypatch.setattr(openapi, "INLINE", False)  # whatever DDZ_OPENAPI_CHECK says
    openapi.hook(bad)
    openapi.hook(good)
    openapi.drain()
    tally = openapi.TALLY
    found = tally.mismatches[counts[2]:]
    del tally.mismatches[counts[2]:]
    assert [m.text for m in found] == expected and len(expected) == 1
    assert (tally.requests - counts[0], tally.responses - counts[1]) == (2, 2)
    assert tally.allowed["429 without a code"] - counts[3] == inline.allowed[
        "429 without a code"] == 1


def test_the_cheaper_one_of_reports_what_stock_jsonschema_reports(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/support/openapi.py ``_one_of`` skips branches it can prove fail (enums of
    consts, unions tagged by ``type``): valid bodies stay valid and broken ones name the
    same field and message as jsonschema's own ``oneOf``."""
    button = {"type": 2, "style": 1, "label": "Play", "custom_id": "ddz:t:1:play"}
    cases = [
        {"type": 7, "data": {"content": "x", "components": [
            {"type": 1, "components": [button]}]}},  # valid
        {"type": 7, "data": {"components": [
            {"type": 1, "components": [{**button, "style": 9}]}]}},  # no such style
        {"type": 7, "data": {"components": [
            {"type": 1, "components": [{**button, "type": 99}]}]}},  # no such component
        {"type": 7, "data": {"components": [
            {"type": 1, "components": [{"type": 3, "custom_id": "s", "options": "x"}]}]}},
        {"type": 42},  # no such callback
    ]

    def run() -> list[list[str]]:
        openapi._validator.cache_clear()
        return [[m.text for m in check(exchange("POST", "/interactions/1/tok/callback", body,
                                                204, None), Tally())] for body in cases]

    cheaper = run()
    monkeypatch.setattr(openapi, "_Validator", jsonschema.Draft202012Validator)
    stock = run()
    openapi._validator.cache_clear()
    assert cheaper == stock
    assert cheaper[0] == [] and all(cheaper[1:]), cheaper
