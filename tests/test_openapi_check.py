"""The OpenAPI check itself (tests/support/openapi.py): a mismatch names the route and
the field; allowances let through only the gap they name."""

from __future__ import annotations

import json
from typing import Any

from sandbox.loopback.rest import Exchange
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
