"""Discord's own OpenAPI spec as an independent check of the loopback and the bot.

Every REST request the bot sends to a loopback Discord and every answer the loopback
gives (``sandbox/loopback/rest.py`` ``REST_HOOKS``) is validated with
``jsonschema`` against ``tests/support/discord_spec/openapi.json`` (discord/discord-api-spec
at the commit named in that folder's README): the request body against the operation's
``requestBody`` (a multipart body's ``payload_json`` against the JSON schema), the
answer against ``responses[status]`` (else ``4XX``). A mismatch is kept as
"``METHOD /route`` request|response ``field``: message" and fails the test that made it
(the autouse fixture in tests/support/fixtures.py). The loopback does not wait for the
check: ``hook`` hands each exchange to one spawned checking process, and the fixture
collects its results (``drain``) before reading them, so the same exchanges are checked and a
mismatch still fails the test that made it, while the loopback answers the bot at once
(checked in the loopback's own loop, a hand view's answer waited about 0.15 s of CPU, and
a test about 3 s, several times that on a loaded machine). Gaps of the spec itself that we must
allow are :data:`ALLOWED`, each with why (also listed in the spec folder's README and
docs/DISCORD.md §OpenAPI check).
"""

from __future__ import annotations

import atexit
import json
import multiprocessing
import re
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema._utils import equal
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from sandbox.loopback.rest import REST_HOOKS, Exchange

SPEC_PATH = Path(__file__).parent / "discord_spec" / "openapi.json"
PREFIX = "/api/v10"
SPEC_URI = "urn:discord-openapi"


@dataclass(frozen=True)
class Allowance:
    """A spec gap we accept: ``route`` (``METHOD /spec/path``, a regex), ``side``
    (``request`` or ``response``), ``field`` (a regex on the JSON path) and why."""

    name: str
    route: str
    side: str
    field: str
    why: str
    message: str = ".*"
    """A regex the validation message must match (search)."""

    def covers(self, route: str, side: str, path: str, message: str) -> bool:
        return (
            side == self.side
            and re.fullmatch(self.route, route) is not None
            and re.fullmatch(self.field, path) is not None
            and re.search(self.message, message) is not None
        )


ALLOWED: tuple[Allowance, ...] = (
    Allowance(
        "new upload's attachment id as an integer",
        r"(POST /(channels/\{channel_id\}/messages|webhooks/.*|interactions/.*)"
        r"|PATCH /(channels|webhooks)/.*) \d+",
        "request",
        r"\$(\.data)?\.attachments\[\d+\]\.id",
        "a new upload's attachment id is the index n of its files[n] part, sent as a JSON "
        "integer by discord.py and in Discord's own example (docs: Reference § Uploading "
        "Files); the spec types every attachment id as a snowflake string",
    ),
    Allowance(
        "allowed_mentions ids as integers",
        r".*",
        "request",
        r"\$(\.data)?\.allowed_mentions\.(users|roles)\[\d+\]",
        "discord.py's AllowedMentions.to_dict() sends user and role ids as JSON integers "
        "(discord/mentions.py), which Discord accepts (every discord.py bot's mentions); "
        "the spec allows only snowflake strings there",
    ),
    Allowance(
        "form error codes as strings",
        r".*",
        "response",
        r"\$\.errors(\.[^.\[]+)*\._errors\[\d+\]\.code",
        "Discord's form errors carry string codes (\"BASE_TYPE_REQUIRED\", docs: Reference § "
        "Error Messages); the spec's Error object types every code as an integer",
    ),
    Allowance(
        "429 without a code",
        r".* 429",
        "response",
        r"\$",
        "Discord's rate-limit body is message, retry_after, global and an optional code "
        "(\"An error code for some limits\", docs: Rate Limits § Exceeding A Rate Limit; its "
        "example has none); the spec's RatelimitedResponse requires a code",
        message=r"^'code' is a required property$",
    ),
)
"""Every spec gap the check lets through, each with why."""


@dataclass(frozen=True)
class Mismatch:
    """One exchange that broke the spec: ``side`` is ``request`` or ``response``."""

    side: str
    text: str


@dataclass
class Tally:
    """What the check saw over a session: counts and the mismatches found."""

    requests: int = 0
    responses: int = 0
    allowed: Counter[str] = field(default_factory=Counter)
    unchecked: Counter[str] = field(default_factory=Counter)
    mismatches: list[Mismatch] = field(default_factory=list)
    reported: int = 0
    """How many of ``mismatches`` a test's check has seen (tests/support/fixtures.py)."""
    on_purpose: int = 0
    """Request mismatches of tests marked ``openapi_invalid_requests`` (not failures)."""

    def summary(self) -> str:
        """One line for pytest's terminal summary."""
        text = (
            f"Discord OpenAPI check: {self.requests} request bodies and {self.responses} "
            f"responses validated, {len(self.mismatches)} mismatches"
        )
        if self.on_purpose:
            text += f" (and {self.on_purpose} invalid requests sent on purpose)"
        if self.allowed:
            text += ", allowed gaps: " + ", ".join(f"{k} ×{n}" for k, n in self.allowed.items())
        if self.unchecked:
            text += "; no schema for: " + ", ".join(
                f"{k} ×{n}" for k, n in sorted(self.unchecked.items())
            )
        return text


TALLY = Tally()


@cache
def _spec() -> dict[str, Any]:
    return json.loads(SPEC_PATH.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@cache
def _registry() -> Registry:
    return Registry().with_resource(SPEC_URI, Resource.from_contents(_spec(), DRAFT202012))


_TAGS: dict[int, list[Any] | None] = {}
"""id of a ``oneOf`` branch of the spec → the values its ``type`` property allows (const or
enum), None when it does not say (the spec's dicts live as long as the process)."""
_CONST_KEYS = frozenset({"const", "title", "description"})


def _lookup(validator: Any, node: Any) -> Any:
    """``node``, following ``$ref`` (the spec's refs all point into it: ``#/components/…``)."""
    for _ in range(8):
        if not (isinstance(node, dict) and "$ref" in node):
            break
        node = validator._resolver.lookup(node["$ref"]).contents
    return node


def _tags(validator: Any, branch: Any) -> list[Any] | None:
    key = id(branch)
    if key not in _TAGS:
        resolved = _lookup(validator, branch)
        tag = _lookup(validator, (resolved.get("properties") or {}).get("type")
                      if isinstance(resolved, dict) else None)
        _TAGS[key] = ([tag["const"]] if isinstance(tag, dict) and "const" in tag
                      else list(tag["enum"]) if isinstance(tag, dict) and "enum" in tag
                      else None)
    return _TAGS[key]


def _one_of(validator: Any, one_of: list[Any], instance: Any, schema: Any) -> Iterator[Any]:
    """jsonschema's ``oneOf`` with the same answers, minus work it can prove useless: the
    spec writes its enums as ``oneOf`` lists of ``const`` schemas (compared at once), and
    its unions of objects tagged by a ``type`` const or enum (a branch whose tag cannot
    equal the instance's ``type`` fails on it anyway: it is skipped, and with it only
    errors that ``_reason`` leaves aside, ``_discriminated``). Anything else, or no or
    several matches among the consts, goes the stock way over the branches kept."""
    if all(isinstance(b, dict) and "const" in b and b.keys() <= _CONST_KEYS for b in one_of) \
            and sum(1 for b in one_of if equal(b["const"], instance)) == 1:
        return
    branches = list(enumerate(one_of))
    if isinstance(instance, dict) and "type" in instance:
        value = instance["type"]
        branches = [(i, b) for i, b in branches
                    if (tags := _tags(validator, b)) is None or any(equal(t, value) for t in tags)]
    errors: list[ValidationError] = []
    rest = iter(branches)
    for index, branch in rest:
        found = list(validator.descend(instance, branch, schema_path=index))
        if not found:
            first_valid = branch
            break
        errors.extend(found)
    else:
        yield ValidationError(f"{instance!r} is not valid under any of the given schemas",
                              context=errors)
        return
    more_valid = [b for _, b in rest if validator.evolve(schema=b).is_valid(instance)]
    if more_valid:
        more_valid.append(first_valid)
        shown = ", ".join(repr(b) for b in more_valid)
        yield ValidationError(f"{instance!r} is valid under each of {shown}")


_Validator = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"oneOf": _one_of})
"""Draft 2020-12 with the cheaper ``oneOf`` (same valid/invalid answers and reported errors):
the check took about 0.15 s of CPU per hand view's answer, 3 s per e2e test."""


@cache
def _validator(pointer: str) -> Any:
    """A validator for the schema at JSON ``pointer`` inside the spec (``/components/…``)."""
    return _Validator({"$ref": f"{SPEC_URI}#{pointer}"}, registry=_registry())


@cache
def _routes() -> list[tuple[re.Pattern[str], str]]:
    """Spec paths as regexes, literal segments before parameters (``@original`` before
    ``{message_id}``)."""
    out = []
    for path in _spec()["paths"]:
        regex = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path)) + "$"
        out.append((path.count("{"), re.compile(regex), path))
    out.sort(key=lambda t: t[0])
    return [(regex, path) for _, regex, path in out]


def spec_route(path: str) -> str | None:
    """The spec's path template for a request path (``/api/v10/...``), or None."""
    tail = path.removeprefix(PREFIX)
    return next((tpl for regex, tpl in _routes() if regex.match(tail)), None)


def _pointer(*parts: str) -> str:
    return "/" + "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        target: Any = _spec()
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def _field(error: ValidationError) -> str:
    return "$" + "".join(
        f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path
    )


def _discriminated(errors: list[ValidationError]) -> bool:
    """True when a union branch failed on its ``type`` tag (the branch is another kind)."""
    return any(
        e.validator in ("enum", "const") and list(e.relative_path)[-1:] == ["type"]
        and len(e.relative_path) == 1
        for e in errors
    )


def _reason(error: ValidationError) -> ValidationError:
    """The error to report: inside a oneOf/anyOf, the deepest error of the branch that
    matched furthest (not another JSON type, not another ``type`` tag; deepest error,
    then fewest errors); the union's own error when no branch fits."""
    while error.context:
        branches: dict[Any, list[ValidationError]] = {}
        for e in error.context:
            branches.setdefault(e.relative_schema_path[0], []).append(e)
        fitting = [
            errs for errs in branches.values()
            if not _discriminated(errs)
            and not any(e.validator == "type" and not e.relative_path for e in errs)
        ]
        if not fitting:
            return error
        errs = min(fitting, key=lambda es: (-max(len(e.absolute_path) for e in es), len(es)))
        error = max(errs, key=lambda e: len(e.absolute_path))
    return error


def _check(
    tally: Tally, route: str, side: str, pointer: str, instance: Any, status: int
) -> list[Mismatch]:
    """Validate ``instance`` against the schema at ``pointer``; ``route`` is
    ``METHOD /template``, matched with `` <status>`` against the allowances."""
    problems = []
    errors = list(_validator(pointer).iter_errors(instance))
    for error in errors:
        best = _reason(error)
        where = _field(best)
        allowance = next(
            (a for a in ALLOWED if a.covers(f"{route} {status}", side, where, best.message)),
            None,
        )
        if allowance is not None:
            tally.allowed[allowance.name] += 1
            continue
        problems.append(Mismatch(side, f"{route} {side} {where}: {best.message[:300]}"))
    return problems


def check(exchange: Exchange, tally: Tally = TALLY) -> list[Mismatch]:
    """Validate one exchange; return (and keep in ``tally``) its mismatches."""
    template = spec_route(exchange.path)
    method = exchange.method.lower()
    route = f"{exchange.method} {template}"
    if template is None or method not in _spec()["paths"][template]:
        tally.unchecked[f"{exchange.method} {exchange.path} (not in the spec)"] += 1
        problems = [
            Mismatch("request", f"{exchange.method} {exchange.path}: route not in Discord's spec")
        ]
        tally.mismatches.extend(problems)
        return problems
    operation = _spec()["paths"][template][method]
    problems: list[Mismatch] = []
    body = operation.get("requestBody")
    if exchange.payload is not None and body is not None:
        media = "application/json"
        if media in body["content"]:
            tally.requests += 1
            pointer = _pointer("paths", template, method, "requestBody", "content", media,
                               "schema")
            problems += _check(tally, route, "request", pointer, exchange.payload,
                               exchange.status)
    elif exchange.payload is not None and exchange.payload != {}:
        problems.append(Mismatch("request", f"{route} request $: a body where the spec takes none"))
    responses = operation.get("responses", {})
    status = str(exchange.status)
    key = status if status in responses else f"{status[0]}XX"
    if key not in responses:
        tally.unchecked[f"{route} {status}"] += 1
    else:
        answer = _resolve(responses[key])
        content = answer.get("content") or {}
        if "application/json" in content and exchange.response:
            tally.responses += 1
            if "$ref" in responses[key]:
                name = responses[key]["$ref"].removeprefix("#/")
                pointer = "/" + name + "/content/application~1json/schema"
            else:
                pointer = _pointer("paths", template, method, "responses", key, "content",
                                   "application/json", "schema")
            problems += _check(tally, route, "response", pointer, json.loads(exchange.response),
                               exchange.status)
        elif exchange.response and not content:
            problems.append(
                Mismatch("response", f"{route} response $: a body where the spec has none ({status})")
            )
        else:
            tally.responses += 1
    tally.mismatches.extend(problems)
    return problems


INLINE = False
"""True: ``hook`` checks each exchange in the loopback's own loop before it answers (``install``)."""


def install(inline: bool = False) -> None:
    """Switch the check on for every emulator of this process (idempotent); ``inline``:
    in the loopback's loop, not in the checking process (``DDZ_OPENAPI_CHECK=inline``)."""
    global INLINE
    INLINE = inline
    if hook not in REST_HOOKS:
        REST_HOOKS.append(hook)


Fields = tuple[str, str, dict[str, str], str, Any, int, int, bytes, str]
"""An :class:`Exchange` without its emulator: what crosses to the checking process."""

_POOL: ProcessPoolExecutor | None = None
_PENDING: list[tuple[Future[Tally], str]] = []


def hook(exchange: Exchange) -> None:
    """The ``REST_HOOKS`` entry: hands the exchange to the checking process and returns at
    once (the loopback answers without waiting; ``drain`` collects the results). Never
    raises (a broken check shows as a mismatch)."""
    global _POOL
    where = f"{exchange.method} {exchange.path}"
    try:
        if INLINE:
            check(exchange)
            return
        if _POOL is None:  # spawned: no copy of the test process's loop and threads
            _POOL = ProcessPoolExecutor(1, multiprocessing.get_context("spawn"))
            atexit.register(_POOL.shutdown, cancel_futures=True)
        fields: Fields = (exchange.method, exchange.path, exchange.query,
                          exchange.content_type, exchange.payload, exchange.files,
                          exchange.status, exchange.response, exchange.response_type)
        _PENDING.append((_POOL.submit(_check_fields, fields), where))
    except Exception as e:  # a bug here must not answer the bot with a 500
        TALLY.mismatches.append(Mismatch("response", f"{where}: check failed: {e!r}"))


def _check_fields(fields: Fields) -> Tally:
    """In the checking process: ``check`` one exchange into a tally of its own."""
    tally = Tally()
    check(Exchange(None, *fields), tally)  # type: ignore[arg-type]  # no emulator there
    return tally


def drain() -> None:
    """Wait for every exchange handed over by ``hook`` and add its results to ``TALLY``,
    in the order the loopback answered them (call before reading ``TALLY``)."""
    while _PENDING:
        future, where = _PENDING.pop(0)
        try:
            done = future.result()
        except Exception as e:  # the checking process failed: a mismatch, not a pass
            TALLY.mismatches.append(Mismatch("response", f"{where}: check failed: {e!r}"))
            continue
        TALLY.requests += done.requests
        TALLY.responses += done.responses
        TALLY.allowed.update(done.allowed)
        TALLY.unchecked.update(done.unchecked)
        TALLY.mismatches.extend(done.mismatches)
