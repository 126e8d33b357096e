"""The layering of docs/ARCHITECTURE.md, checked on the source (``ast``, nothing imported).

Fails on: a forbidden import into a pure package (``bot/rules``, ``bot/game``,
``bot/ai``, ``bot/values``, ``bot/i18n``, ``rendering``) or a wing's pure floor;
``discord`` outside the Discord adapters; storage reaching up to the
service; the cogs importing storage or ai; an import cycle between packages or between
files; a reference to a ``.md`` document that does not exist in the repository.

Every import counts, module-level or inside a function (a lazy import still
runs). Imports under ``if TYPE_CHECKING:`` are left out of the cycle check only:
they never execute, so they cannot make an import cycle at run time, and they
are the standard way for two modules to name each other's types in
annotations. They still obey the layer rules.

``python -m tests.test_architecture [root]`` prints the cycles and violations
of a checkout (the figures of the restructuring's closing note).
"""

from __future__ import annotations

import ast
import functools
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCE_DIRS = ("bot", "cogs", "rendering", "sandbox", "tools", "benchmarks", "fitting")
"""Top-level folders whose modules form the import graph."""

PURE = ("bot.rules", "bot.game", "bot.ai", "bot.values", "bot.i18n", "rendering")
"""Packages without I/O, concurrency or Discord (docs/ARCHITECTURE.md §Layers)."""
FORBIDDEN_IN_PURE = (
    "asyncio", "multiprocessing", "concurrent", "threading", "aiosqlite", "asyncpg",
    "discord", "bot.storage", "bot.service", "bot.client", "cogs", "benchmarks",
)
"""What a pure package may not import (itself or any submodule of it)."""
LAYER_BELOW = {
    "bot.rules": ("bot.game", "bot.ai", "bot.features", "bot.values", "rendering", "bot.i18n"),
    "bot.ai": ("bot.game", "bot.features", "bot.values", "rendering", "bot.i18n"),
    "bot.game": ("bot.values",),
}
"""Pure packages that sit lower than others and may not reach up to them."""
DISCORD_ALLOWED = ("cogs", "bot.client", "bot.__main__", "bot.doctor", "benchmarks.interaction")
"""Where ``discord`` may be imported: the adapters, start-up, the admin's check of the
token and permissions (``python -m bot doctor``), and the benchmark that
drives the bot through the test fake of Discord (tests/support/fake_discord.py)."""
STORAGE_MAY_NOT = ("bot.service", "cogs", "bot.client", "discord")
"""Storage may use game value types, never the layers above it."""
COGS_MAY_NOT = ("bot.storage", "bot.ai")
"""The cogs reach data and computer moves through the service only: its value types
(``bot.values``) and its ``Decision`` (``bot.service``)."""
WEB_MAY_NOT = ("discord", "bot.storage", "bot.client", "cogs")
"""The web page (``bot/web``) is an adapter beside the cogs: it reads through the
service, never the storage, and knows nothing of Discord."""
WEB_USERS = ("bot.web", "bot.client", "bot.features.contract")
"""Who may import the web page: itself, the wiring and the features' contract (``Feature``
is a ``bot.web.routes.WebFeature``), besides a wing's ``web.py`` and ``feature.py``
(``web_user``); the cogs get its links as ``bot.service.links.WebLinks``."""
SHIPPED = ("bot", "cogs", "rendering")
"""The bot's own packages; ``sandbox`` (a separate program) and ``tools`` (developer
tools: sample images, the palette chooser) sit beside them."""
SANDBOX = "sandbox"
SANDBOX_MAY_NOT = ("bot", "cogs", "rendering", "tools", "discord", "tests", "benchmarks")
"""The sandbox and its loopback Discord run the bot as a subprocess and talk to it only
as Discord would: they import none of the bot (docs/ARCHITECTURE.md §The sandbox)."""

WING_MODULE = re.compile(r"bot\.features\.\w+\.(\w+)$")
"""A module of a feature's wing, ``bot.features.<name>.<module>`` (docs/ARCHITECTURE.md
§Features): its floor is its name (``WING_FLOORS``)."""
WING_FLOORS: dict[str, str | None] = {
    "service": "service", "store": "storage", "queries": "storage", "cog": "adapter",
    "rendering": "rendering", "web": "web", "feature": None}
"""The floors inside a wing named by their module: its service, its store (the class over the
``Repository``, and its SQL steps, ``queries``), its Discord side, its images (drawn like
``rendering``), its web pages (``web``: like ``bot/web``, through its service, no Discord),
and its ``feature.py`` that wires them (like
``bot/client.py``: no floor). Every other module of a wing is its pure part (``PURE_FLOOR``):
its rules and values, the puzzles' solver, the tournaments' seating — pure unless named."""
PURE_FLOOR = "pure"
RENDERING_MAY_NOT = ("discord", "cogs", "bot.storage", "bot.service", "bot.client")
"""A wing's images only draw: no Discord, storage or service (like ``rendering``)."""
SERVICE_MAY_NOT = ("discord", "cogs", "bot.client")
"""A service (a wing's too) never reaches the adapters."""


def web_user(module: str) -> bool:
    """Whether ``module`` may import the web page (``bot.web``): ``WEB_USERS``, a wing's
    web floor or its ``feature.py``."""
    found = WING_MODULE.match(module)
    return within(module, WEB_USERS) or (
        found is not None and found.group(1) in ("web", "feature"))


def wing_floor(module: str) -> str | None:
    """The floor of a wing's module (``WING_FLOORS``, else ``PURE_FLOOR``), None for its
    ``feature.py`` and any module outside a wing."""
    found = WING_MODULE.match(module)
    return WING_FLOORS.get(found.group(1), PURE_FLOOR) if found else None


DOC_REFERENCE = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.md)\b")
"""A path ending in ``.md`` written in a module (docstring, comment or string)."""
SECTION = re.compile(r"§([^\W_]+)")
"""The first word of a ``§Section`` reference."""


@dataclass(frozen=True)
class Import:
    """One import statement's target as seen from ``source`` (dotted module names)."""

    source: str
    target: str
    line: int
    type_checking: bool


def module_name(path: Path, root: Path) -> str:
    """``bot/game/table.py`` → ``bot.game.table``; a package's ``__init__`` → the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_files(root: Path, dirs: tuple[str, ...] = SOURCE_DIRS) -> dict[str, Path]:
    """Every module under ``dirs`` of ``root`` by dotted name."""
    found: dict[str, Path] = {}
    for top in dirs:
        for path in sorted((root / top).rglob("*.py")):
            found[module_name(path, root)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _walk(node: ast.AST, guarded: bool) -> Iterator[tuple[ast.AST, bool]]:
    """Every node below ``node`` with whether it sits in an ``if TYPE_CHECKING:`` body."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for stmt in child.body:
                yield stmt, True
                yield from _walk(stmt, True)
            for stmt in child.orelse:
                yield stmt, guarded
                yield from _walk(stmt, guarded)
            continue
        yield child, guarded
        yield from _walk(child, guarded)


def imports_of(name: str, path: Path, modules: set[str]) -> list[Import]:
    """The imports of one module; ``from pkg import sub`` names the submodule when
    ``pkg.sub`` is a module of the tree, else ``pkg``. Relative imports are resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[Import] = []
    for node, guarded in _walk(tree, False):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Import(name, alias.name, node.lineno, guarded))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.append(Import(name, sub if sub in modules else base, node.lineno, guarded))
    return found


def all_imports(root: Path = ROOT) -> list[Import]:
    """Every import of every module under ``SOURCE_DIRS``."""
    files = source_files(root)
    names = set(files)
    return [imp for name, path in files.items() for imp in imports_of(name, path, names)]


def within(name: str, prefixes: tuple[str, ...] | str) -> bool:
    """Whether ``name`` is one of ``prefixes`` or a submodule of one."""
    if isinstance(prefixes, str):
        prefixes = (prefixes,)
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def package_of(module: str) -> str:
    """The layer a module belongs to: ``bot.<sub>`` for bot's subpackages and
    ``bot.settings`` (the settings, which import nothing of the bot: a feature's install
    reads them), else its top-level folder (``bot.client``, ``bot.__main__``,
    ``bot.doctor`` → ``bot``)."""
    if wing_floor(module) is not None or module.startswith("bot.features."):
        return module  # each file of a wing stands on its own floor (``wing_floor``)
    parts = module.split(".")
    if parts[0] == "bot" and len(parts) > 1 and parts[1] not in (
            "client", "__main__", "doctor"):
        return f"bot.{parts[1]}"
    return parts[0]


def cycles(edges: set[tuple[str, str]]) -> list[list[str]]:
    """Strongly connected components with more than one node (Tarjan), each sorted."""
    graph: dict[str, set[str]] = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def module_cycles(imports: list[Import], modules: set[str]) -> list[list[str]]:
    """Import cycles between files (runtime imports between modules of the tree)."""
    return cycles({(i.source, i.target) for i in imports
                   if not i.type_checking and i.target in modules and i.target != i.source})


def package_cycles(imports: list[Import], modules: set[str]) -> list[list[str]]:
    """Import cycles between packages (layers), runtime imports only."""
    edges = {(package_of(i.source), package_of(i.target)) for i in imports
             if not i.type_checking and i.target in modules}
    return cycles({(a, b) for a, b in edges if a != b})


def layer_violations(imports: list[Import]) -> list[str]:
    """Forbidden imports, as ``source:line imports target (why)``."""
    bad: list[str] = []
    for imp in imports:
        where = f"{imp.source}:{imp.line} imports {imp.target}"
        floor, below = wing_floor(imp.source), wing_floor(imp.target)
        if floor == "pure" and (within(imp.target, FORBIDDEN_IN_PURE) or
                                below not in (None, "pure")):
            bad.append(f"{where} (a wing's pure part)")
        if floor == "rendering" and (within(imp.target, (*FORBIDDEN_IN_PURE, *RENDERING_MAY_NOT))
                                     or below not in (None, "pure")):
            bad.append(f"{where} (a wing's images only draw)")
        if floor == "service" and (within(imp.target, SERVICE_MAY_NOT) or below == "adapter"):
            bad.append(f"{where} (a wing's service sits below its Discord side)")
        if floor == "storage" and (within(imp.target, STORAGE_MAY_NOT) or
                                   below in ("service", "adapter")):
            bad.append(f"{where} (a wing's store sits below its service)")
        if floor == "adapter" and within(imp.target, COGS_MAY_NOT):
            bad.append(f"{where} (a wing's Discord side goes through its service)")
        if floor == "web" and (within(imp.target, WEB_MAY_NOT) or
                               below in ("storage", "adapter")):
            bad.append(f"{where} (a wing's web page reads through its service)")
        if within(imp.source, PURE) and within(imp.target, FORBIDDEN_IN_PURE):
            bad.append(f"{where} (a pure package)")
        for low, above in LAYER_BELOW.items():
            if within(imp.source, low) and within(imp.target, above):
                bad.append(f"{where} ({low} sits below {', '.join(above)})")
        if (within(imp.target, "discord") and not within(imp.source, DISCORD_ALLOWED)
                and floor != "adapter"):
            bad.append(f"{where} (discord only in the adapters)")
        if within(imp.source, "bot.storage") and within(imp.target, STORAGE_MAY_NOT):
            bad.append(f"{where} (storage sits below the service)")
        if within(imp.source, "cogs") and within(imp.target, COGS_MAY_NOT):
            bad.append(f"{where} (cogs go through the service)")
        if within(imp.source, "bot.web") and within(imp.target, WEB_MAY_NOT):
            bad.append(f"{where} (the web page reads through the service)")
        if within(imp.target, "bot.web") and not web_user(imp.source):
            bad.append(f"{where} (only the wiring starts the web page)")
        if within(imp.source, SANDBOX) and within(imp.target, SANDBOX_MAY_NOT):
            bad.append(f"{where} (the sandbox runs the bot, it imports none of it)")
        if within(imp.target, SANDBOX) and not within(imp.source, (SANDBOX, "benchmarks")):
            bad.append(f"{where} (the bot never imports the sandbox)")
        if within(imp.target, "tools") and within(imp.source, SHIPPED):
            bad.append(f"{where} (the shipped packages never import the developer tools)")
    return list(dict.fromkeys(bad))


SENDERS = ("followup", "delivery", "outbox")
"""What a cog may call ``send`` on: an interaction's follow-up (its token), ``Delivery`` and
its ``Outbox``. Every channel request goes through ``cogs/delivery.py`` (the global
budget and the request metric, docs/ARCHITECTURE.md §Layers)."""


def channel_requests(root: Path = ROOT) -> list[str]:
    """Calls under ``cogs/`` outside ``cogs/delivery.py``, and in a wing's Discord side
    (``bot/features/<name>/cog.py``), that send to a channel (``send`` on anything but
    ``SENDERS``) or read its history (any ``.history(``), as ``file:line``."""
    bad: list[tuple[str, int]] = []
    for path in sorted([*(root / "cogs").rglob("*.py"), *root.glob("bot/features/*/cog.py")]):
        if path.name == "delivery.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            receiver = node.func.value
            name = (receiver.attr if isinstance(receiver, ast.Attribute)
                    else receiver.id if isinstance(receiver, ast.Name) else "")
            if node.func.attr == "history" or (node.func.attr == "send"
                                               and name not in SENDERS):
                bad.append((str(path.relative_to(root)), node.lineno))
    return [f"{file}:{line}" for file, line in sorted(bad)]


@functools.cache
def headings(document: Path) -> list[str]:
    """The Markdown headings of a document, lower case, without the ``#`` marks (read once
    a run: ``missing_documents`` asks for every reference, 0.6 -> 0.4 s of CPU)."""
    return [line.lstrip("#").strip().lower() for line in
            document.read_text(encoding="utf-8").splitlines() if line.startswith("#")]


def missing_documents(root: Path = ROOT) -> list[str]:
    """References to ``.md`` documents (paths from the repository root) that do not
    exist, or whose ``§Section`` (the word after ``§``, on the same line) starts no
    heading of that document; searched in every Python file (but this one, whose
    tests hold made-up references) and in the docs."""
    bad: list[str] = []
    texts = [p for top in (*SOURCE_DIRS, "tests") for p in sorted((root / top).rglob("*.py"))]
    texts += sorted((root / "docs").glob("*.md")) + [root / "README.md"]
    for path in texts:
        if not path.exists() or path.resolve() == Path(__file__).resolve():  # its own examples
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            refs = list(DOC_REFERENCE.finditer(line))
            for k, match in enumerate(refs):
                ref = match.group(1)
                where = f"{path.relative_to(root)}:{number}"
                target = next((t for t in (root / ref, path.parent / ref) if t.is_file()), None)
                if target is None:
                    bad.append(f"{where} cites {ref}")
                    continue
                end = refs[k + 1].start() if k + 1 < len(refs) else len(line)
                titles = headings(target)
                for section in SECTION.findall(line[match.end():end]):
                    if not any(title.startswith(section.lower()) for title in titles):
                        bad.append(f"{where} cites {ref} §{section}")
    return bad


# ----- the tests ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def imports() -> list[Import]:
    """``all_imports()`` of the repository, parsed once when a test first asks (every
    source file's syntax tree: about a second of CPU that each xdist worker spent on
    collecting this module when it was a module constant; docs/CONTRIBUTING.md)."""
    return all_imports()

MODULES = set(source_files(ROOT))


def test_the_finder_sees_lazy_and_relative_imports_and_skips_type_checking_ones(
        tmp_path: Path) -> None:
    pkg = tmp_path / "bot" / "game"
    pkg.mkdir(parents=True)
    (tmp_path / "bot" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("from .a import x\n")
    (pkg / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.game import b\n"
        "def f():\n    import asyncio\n    from bot.game.b import y\n")
    (pkg / "b.py").write_text("from bot.game import a\n")
    files = source_files(tmp_path, ("bot",))
    found = [imp for name, path in files.items() for imp in imports_of(name, path, set(files))]
    pairs = {(i.source, i.target, i.type_checking) for i in found}
    assert ("bot.game", "bot.game.a", False) in pairs
    assert ("bot.game.a", "bot.game.b", True) in pairs
    assert ("bot.game.a", "bot.game.b", False) in pairs  # the lazy one
    assert ("bot.game.a", "asyncio", False) in pairs
    assert module_cycles(found, set(files)) == [["bot.game.a", "bot.game.b"]]
    assert layer_violations(found) == ["bot.game.a:5 imports asyncio (a pure package)"]


def test_the_document_check_wants_the_file_and_the_section(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "RULES.md").write_text("# Rules\n\n## Beating a play\n")
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "a.py").write_text(
        '"""Spec: docs/RULES.md §Beating a play, §Scoring; PRODUCT.md."""\n'
        "# see docs/RULES.md and docs/NOTES.md\n")
    assert missing_documents(tmp_path) == [
        "bot/a.py:1 cites docs/RULES.md §Scoring",
        "bot/a.py:1 cites PRODUCT.md",
        "bot/a.py:2 cites docs/NOTES.md",
    ]


def test_pure_packages_import_no_io_concurrency_discord_or_upper_layers(
        imports: list[Import]) -> None:
    assert layer_violations(imports) == []


def test_cogs_import_neither_storage_nor_ai(imports: list[Import]) -> None:
    reached = {i.target for i in imports if within(i.source, "cogs")}
    assert "bot.service" in reached and "bot.values" in reached
    assert [t for t in reached if within(t, COGS_MAY_NOT)] == []


def test_the_web_page_reads_through_the_service_and_nothing_below_uses_it(
        imports: list[Import]) -> None:
    web = [i for i in imports if within(i.source, "bot.web")]
    assert {i.target for i in web} >= {"bot.service.replays", "bot.service.links"}
    assert [i for i in web if within(i.target, WEB_MAY_NOT)] == []
    assert {i.source for i in imports if within(i.target, "bot.web")
            and not within(i.source, "bot.web") and wing_floor(i.source) is None
            and not WING_MODULE.match(i.source)} == {"bot.client", "bot.features.contract"}
    assert {i.source for i in imports if within(i.target, "bot.web")} >= {
        "bot.features.tournaments.web"}  # a wing's page
    forged = [Import("bot.web.site", "bot.storage.sqlite", 3, False),
              Import("cogs.replay", "bot.web.app", 4, False),
              Import("bot.features.x.web", "bot.features.x.store", 5, False),
              Import("bot.features.x.web", "discord", 6, False),
              Import("bot.features.x.cog", "bot.web.site", 7, False),
              Import("bot.features.x.web", "bot.web.routes", 8, False),
              Import("bot.features.x.web", "bot.features.x.service", 9, False)]
    assert layer_violations(forged) == [
        "bot.web.site:3 imports bot.storage.sqlite (the web page reads through the service)",
        "cogs.replay:4 imports bot.web.app (only the wiring starts the web page)",
        "bot.features.x.web:5 imports bot.features.x.store (a wing's web page reads through"
        " its service)",
        "bot.features.x.web:6 imports discord (a wing's web page reads through its service)",
        "bot.features.x.web:6 imports discord (discord only in the adapters)",
        "bot.features.x.cog:7 imports bot.web.site (only the wiring starts the web page)"]


def test_discord_is_imported_only_by_the_adapters(imports: list[Import]) -> None:
    users = {i.source for i in imports if within(i.target, "discord")}
    assert users and all(within(u, DISCORD_ALLOWED) or wing_floor(u) == "adapter"
                         for u in users), sorted(users)


def test_the_sandbox_and_the_bot_never_import_each_other(
        tmp_path: Path, imports: list[Import]) -> None:
    for folder in ("sandbox", "cogs"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "sandbox" / "web.py").write_text("from bot.service import tables\n")
    (tmp_path / "cogs" / "ddz.py").write_text("from sandbox.loopback import model\n")
    files = source_files(tmp_path, ("sandbox", "cogs"))
    found = [imp for name, path in files.items() for imp in imports_of(name, path, set(files))]
    assert layer_violations(found) == [
        "sandbox.web:1 imports bot.service (the sandbox runs the bot, it imports none of it)",
        "cogs.ddz:1 imports sandbox.loopback (the bot never imports the sandbox)",
    ]
    assert any(within(i.source, SANDBOX) for i in imports)


def test_channel_sends_and_history_reads_are_only_in_delivery(tmp_path: Path) -> None:
    assert channel_requests() == []
    (tmp_path / "cogs").mkdir()
    (tmp_path / "cogs" / "daily.py").write_text(
        "async def post(channel, outbox, interaction):\n"
        "    await channel.send('hi')\n    await outbox.send(content='hi')\n"
        "    await interaction.followup.send('hi')\n"
        "    async for m in channel.history(limit=5):\n        pass\n")
    (tmp_path / "cogs" / "delivery.py").write_text("async def f(c):\n    await c.send()\n")
    assert channel_requests(tmp_path) == ["cogs/daily.py:2", "cogs/daily.py:5"]


def test_no_import_cycle_between_files(imports: list[Import]) -> None:
    assert module_cycles(imports, MODULES) == []


TYPED_CYCLE_FREE = ("bot", "cogs", "rendering", "tools", "sandbox")
"""Where not even an import under ``if TYPE_CHECKING:`` may close a circle: two modules
that name each other's types are one seam too few (a protocol, ``bot/service/host.py``,
or a narrow handle, ``cogs/hand_screens.py``, breaks it). The loopback Discord's parts
(``sandbox/loopback``) each state what they use of its ``Emulator`` as a protocol."""


def typed_cycles(imports: list[Import], modules: set[str],
                 within_: tuple[str, ...] = TYPED_CYCLE_FREE) -> list[list[str]]:
    """Import cycles between files of ``within_``, ``TYPE_CHECKING`` imports included."""
    return cycles({(i.source, i.target) for i in imports
                   if i.target in modules and i.target != i.source
                   and within(i.source, within_) and within(i.target, within_)})


def test_no_import_cycle_even_through_type_checking_imports(imports: list[Import]) -> None:
    assert typed_cycles(imports, MODULES) == []
    forged = [Import("cogs.a", "cogs.b", 1, False), Import("cogs.b", "cogs.a", 2, True)]
    assert module_cycles(forged, {"cogs.a", "cogs.b"}) == []
    assert typed_cycles(forged, {"cogs.a", "cogs.b"}) == [["cogs.a", "cogs.b"]]


def test_no_cog_module_imports_the_ddz_cog_or_takes_it(imports: list[Import]) -> None:
    """Features get the ``CogContext`` and the hand screens, never the ``/ddz`` cog."""
    importers = {i.source for i in imports if within(i.target, "cogs.ddz")}
    assert [m for m in importers if within(m, "cogs")] == []  # the wiring (bot.client) only
    takers = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "cogs").glob("*.py"))
              if p.name != "ddz.py" and re.search(r":\s*\"?DdzCog\b", p.read_text(encoding="utf-8"))]
    assert takers == []


FEATURE_SERVICES = ("bot.features",)
"""The features built over ``TableService`` (their wings, ``bot/features``, and the
services not moved into one yet): the Bot installs them, the service knows none of them."""


def test_the_table_service_imports_no_feature(imports: list[Import]) -> None:
    """``bot/service/tables.py`` imports none of the features, not even for annotations
    (docs/ARCHITECTURE.md §How to … add a feature): a new one plugs in unedited."""
    imported = {i.target for i in imports if i.source == "bot.service.tables"}
    assert "bot.service.host" in imported  # the finder sees the module's imports
    assert sorted(m for m in imported if within(m, FEATURE_SERVICES)) == []


def test_no_import_cycle_between_packages(imports: list[Import]) -> None:
    assert package_cycles(imports, MODULES) == []


def test_every_cited_document_exists_in_the_repository() -> None:
    assert missing_documents() == []


def main(argv: list[str]) -> None:
    """Print the violations and cycles of the checkout at ``argv[0]`` (default: this one)."""
    root = Path(argv[0]).resolve() if argv else ROOT
    imports, modules = all_imports(root), set(source_files(root))
    lines = sum(len(p.read_text(encoding="utf-8").splitlines())
                for p in source_files(root).values())
    print(f"{root}: {len(modules)} modules, {lines} lines")
    for title, items in (("file cycles", module_cycles(imports, modules)),
                         ("package cycles", package_cycles(imports, modules)),
                         ("layer violations", layer_violations(imports)),
                         ("missing documents", missing_documents(root))):
        print(f"{title}: {len(items)}")
        for item in items:
            print("   ", item)


if __name__ == "__main__":
    main(sys.argv[1:])


def test_no_test_imports_a_conftest() -> None:
    """Shared helpers live in tests/support (loaded through ``pytest_plugins``); a
    conftest is pytest's to load, never a module another test imports."""
    offenders = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "tests").rglob("*.py"))
        if re.search(r"^\s*(from\s+\S*conftest\s+import|import\s+\S*conftest)", path.read_text(encoding="utf-8"), re.M)
    ]
    assert offenders == []


def helper_imports_outside_support(root: Path = ROOT) -> list[str]:
    """Imports of a ``tests`` module other than ``tests/support`` (and the ``tests``
    package itself) by any module of ``tests``, ``benchmarks`` or ``tools``, as
    ``file:line imports module``. Shared helpers live in tests/support only; a test
    file, a conftest or a ``python -m`` script (``tests/sandbox/*_screenshots.py``,
    ``tests/web/screenshots.py``) is never imported by another module."""
    files = source_files(root, ("tests", "benchmarks", "tools"))
    names = set(files)
    return [
        f"{files[imp.source].relative_to(root)}:{imp.line} imports {imp.target}"
        for name, path in files.items()
        for imp in imports_of(name, path, names)
        if within(imp.target, "tests") and imp.target != "tests"
        and not within(imp.target, "tests.support")
    ]


def test_the_helper_check_flags_a_test_importing_another_test(tmp_path: Path) -> None:
    for folder in ("tests", "tests/e2e", "tests/support"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "tests" / "support" / "driver.py").write_text("X = 1\n")
    (tmp_path / "tests" / "e2e" / "helper.py").write_text("Y = 2\n")
    (tmp_path / "tests" / "e2e" / "test_a.py").write_text(
        "from tests.support.driver import X\nfrom tests.e2e import helper\n"
        "def test_a():\n    from tests.e2e.test_b import call\n")
    (tmp_path / "tests" / "e2e" / "test_b.py").write_text("def call(): ...\n")
    assert helper_imports_outside_support(tmp_path) == [
        "tests/e2e/test_a.py:2 imports tests.e2e.helper",
        "tests/e2e/test_a.py:4 imports tests.e2e.test_b",
    ]


def test_tests_import_shared_helpers_only_from_tests_support() -> None:
    assert helper_imports_outside_support() == []


FEATURE_WORDS = re.compile(
    r"daily|tournament|puzzle|duplicate event|\bevent_|\"event\"|"
    r"Event(?:Service|Info|Commands|Announcer|Play|Entry|Standings?|Summary)", re.IGNORECASE)
"""A feature named: the daily deal, tournaments, puzzles, duplicate events (not the table's
``Event``s, the game's events that every table has)."""
CORE_FILES = ("bot/storage/repository.py", "bot/storage/base.py", "bot/values.py",
              "bot/game/table.py", "cogs/ddz.py", "cogs/context.py", "cogs/hand_view.py",
              "cogs/hand_screens.py", "cogs/wing.py", "bot/features/contract.py",
              "bot/service/features.py", "cogs/items.py", "cogs/feature_clicks.py",
              "bot/service/renderer.py", "bot/storage/copy.py",
              "bot/web/app.py", "bot/web/site.py", "bot/web/views.py", "bot/web/routes.py",
              "bot/service/links.py", "bot/service/records.py", "cogs/records.py",
              "cogs/private_replay.py", "bot/service/forget.py", "bot/service/host.py",
              "bot/service/tables.py", "bot/service/replays.py", "cogs/private_view.py",
              "cogs/replay.py", "cogs/hand_actions.py", "cogs/table_message.py",
              "cogs/public_view.py", "cogs/board.py", "cogs/delivery.py",
              "cogs/info.py",
              *(f"bot/web/templates/{p.name}" for p in sorted(
                  (ROOT / "bot/web/templates").glob("*.html"))))
"""The core's files that a feature plugs into (docs/ARCHITECTURE.md §Features): a feature's
web page, templates and links live in its wing (``Feature.web``, bot/web/routes.py)."""


def feature_words(path: Path) -> list[str]:
    """``line: text`` of each line of ``path`` that names a feature."""
    return [f"{n}: {line.strip()}" for n, line in
            enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
            if FEATURE_WORDS.search(line)]


def test_the_core_names_no_feature() -> None:
    """The core iterates ``FEATURES`` and never names one: a new feature edits no core file."""
    named = {name: feature_words(ROOT / name) for name in CORE_FILES}
    assert named == {name: [] for name in CORE_FILES}
    assert feature_words(ROOT / "bot/features/daily/cog.py")  # it sees a feature's words


def test_a_wings_floors_are_checked() -> None:
    """A wing's pure part imports no discord, asyncio or storage, and no other floor; its
    service no Discord side; its Discord side no storage (``layer_violations``)."""
    assert wing_floor("bot.features.daily.rules") == "pure"
    assert wing_floor("bot.features.daily.feature") is None
    forged = [Import("bot.features.x.rules", "asyncio", 1, False),
              Import("bot.features.x.rules", "bot.storage.sql", 2, False),
              Import("bot.features.x.rules", "bot.features.x.service", 3, False),
              Import("bot.features.x.service", "discord", 4, False),
              Import("bot.features.x.cog", "bot.storage.sql", 5, False),
              Import("bot.features.x.cog", "discord", 6, False),
              Import("bot.features.x.rules", "bot.game.private", 7, False)]
    assert sorted({v.split(" imports ")[0] for v in layer_violations(forged)}) == [
        "bot.features.x.cog:5", "bot.features.x.rules:1", "bot.features.x.rules:2",
        "bot.features.x.rules:3", "bot.features.x.service:4"]
    assert any(m.startswith("bot.features.daily.") and wing_floor(m) == "pure"
               for m in MODULES)  # the daily deal's wing has its pure floor


def test_a_wings_modules_are_pure_unless_named_and_its_images_only_draw() -> None:
    """The puzzles' solver and the tournaments' seating (once ``bot/puzzles``,
    ``bot/tournament``) are their wings' pure floor; a wing's ``rendering.py`` draws only."""
    moved = ("bot.features.puzzles.solver", "bot.features.puzzles.generate",
             "bot.features.puzzles.glicko2", "bot.features.puzzles.__main__",
             "bot.features.tournaments.seating", "bot.features.tournaments.scoring")
    assert [m for m in moved if m not in MODULES or wing_floor(m) != "pure"] == []
    assert not any(within(m, ("bot.puzzles", "bot.tournament")) for m in MODULES)
    assert wing_floor("bot.features.x.rendering") == "rendering"
    assert wing_floor("bot.features.daily.queries") == "storage"
    assert "bot.features.puzzles.rendering" in MODULES and not any(
        within(m, ("bot.storage.daily", "bot.storage.events", "bot.storage.puzzles",
                   "bot.storage.tournaments", "rendering.puzzle")) for m in MODULES)
    forged = [Import("bot.features.x.solver", "asyncio", 1, False),
              Import("bot.features.x.solver", "bot.features.x.rendering", 2, False),
              Import("bot.features.x.rendering", "discord", 3, False),
              Import("bot.features.x.rendering", "bot.service.renderer", 4, False),
              Import("bot.features.x.rendering", "bot.features.x.store", 5, False),
              Import("bot.features.x.rendering", "bot.features.x.solver", 6, False),
              Import("bot.features.x.rendering", "rendering.cards", 7, False),
              Import("bot.ai.search", "bot.features.x.solver", 8, False)]
    assert sorted({v.split(" imports ")[0] for v in layer_violations(forged)}) == [
        "bot.ai.search:8", "bot.features.x.rendering:3", "bot.features.x.rendering:4",
        "bot.features.x.rendering:5", "bot.features.x.solver:1", "bot.features.x.solver:2"]
