"""Application commands the bot synced, and turning "/ddz start computers:2" into
the interaction ``data`` Discord would send (API v10 "Application Commands")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sandbox.loopback.members import EmulatorUsageError
from sandbox.loopback.model import PERM_ADMINISTRATOR, SimChannel, SimRole, snowflake

if TYPE_CHECKING:
    from sandbox.loopback.members import SimMember

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10


def _matches(item: dict[str, Any], name: str, locale: str) -> bool:
    return item.get("name") == name or (item.get("name_localizations") or {}).get(locale) == name


class CommandRegistry:
    """Synced commands per scope: ``None`` for global, else a guild id.

    ``sync_count`` counts bulk overwrites (PUT); ids stay stable per (scope, name).
    """

    def __init__(self, application_id: int) -> None:
        self.application_id = application_id
        self.scopes: dict[int | None, list[dict[str, Any]]] = {}
        self.sync_count = 0
        self._ids: dict[tuple[int | None, str, int], int] = {}

    def _stored(self, scope: int | None, cmd: dict[str, Any]) -> dict[str, Any]:
        key = (scope, cmd["name"], int(cmd.get("type", 1)))
        cid = self._ids.setdefault(key, snowflake())
        out = {
            "id": str(cid),
            "application_id": str(self.application_id),
            "version": str(snowflake()),
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            **cmd,
        }
        out["id"], out["application_id"] = str(cid), str(self.application_id)
        if out.get("integration_types") is None:  # Discord stores its default: guild install
            out["integration_types"] = [0]
        if scope is not None:
            out["guild_id"] = str(scope)
        return out

    def bulk_overwrite(
        self, scope: int | None, commands: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        self.scopes[scope] = [self._stored(scope, c) for c in commands]
        self.sync_count += 1
        return self.scopes[scope]

    def upsert(self, scope: int | None, cmd: dict[str, Any]) -> dict[str, Any]:
        stored = self._stored(scope, cmd)
        cmds = [c for c in self.scopes.get(scope, []) if c["id"] != stored["id"]]
        self.scopes[scope] = [*cmds, stored]
        return stored

    def get(self, scope: int | None, command_id: int) -> dict[str, Any] | None:
        return next((c for c in self.scopes.get(scope, []) if int(c["id"]) == command_id), None)

    def delete(self, scope: int | None, command_id: int) -> bool:
        before = self.scopes.get(scope, [])
        self.scopes[scope] = [c for c in before if int(c["id"]) != command_id]
        return len(before) != len(self.scopes[scope])

    def all(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        """Commands a member of ``guild_id`` sees: that guild's, then global ones."""
        scoped = self.scopes.get(guild_id, []) if guild_id is not None else []
        return [*scoped, *self.scopes.get(None, [])]

    # ---- building interaction data --------------------------------------------

    def build_data(
        self, member: SimMember, command: str, options: dict[str, Any]
    ) -> dict[str, Any]:
        """Interaction ``data`` for ``/command`` with ``options``; EmulatorUsageError on misuse."""
        words = command.strip().lstrip("/").split()
        if not words:
            raise EmulatorUsageError("empty command")
        loc = member.locale
        top = next(
            (
                c
                for c in self.all(member.guild.id)
                if c.get("type", 1) == 1 and _matches(c, words[0], loc)
            ),
            None,
        )
        if top is None:
            synced = [c["name"] for c in self.all(member.guild.id)]
            raise EmulatorUsageError(f"/{words[0]} is not synced for this guild (synced: {synced})")
        perms = top.get("default_member_permissions")
        if perms is not None and not member.permissions & PERM_ADMINISTRATOR:
            needed = int(perms)
            if member.permissions & needed != needed:
                raise EmulatorUsageError(
                    f"{member.name} lacks permissions {needed} for /{top['name']}"
                )
        data: dict[str, Any] = {"id": top["id"], "name": top["name"], "type": 1}
        if "guild_id" in top:
            data["guild_id"] = top["guild_id"]
        resolved: dict[str, dict[str, Any]] = {}
        container: dict[str, Any] = data
        node = top
        for word in words[1:]:
            sub = next(
                (
                    o
                    for o in node.get("options") or []
                    if o["type"] in (1, 2) and _matches(o, word, loc)
                ),
                None,
            )
            if sub is None:
                subs = [o["name"] for o in node.get("options") or [] if o["type"] in (1, 2)]
                raise EmulatorUsageError(
                    f"no subcommand {word!r} under /{node['name']} (has {subs})"
                )
            entry: dict[str, Any] = {"type": sub["type"], "name": sub["name"], "options": []}
            container["options"] = [entry]
            container, node = entry, sub
        params = node.get("options") or []
        if any(o["type"] in (1, 2) for o in params):
            raise EmulatorUsageError(f"/{command} needs a subcommand")
        container["options"] = self._param_values(member, node, params, options, resolved)
        if resolved:
            data["resolved"] = resolved
        return data

    def _param_values(
        self,
        member: SimMember,
        node: dict[str, Any],
        params: list[dict[str, Any]],
        given: dict[str, Any],
        resolved: dict[str, dict[str, Any]],
    ) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        remaining = dict(given)
        for p in params:
            key = next((k for k in remaining if _matches(p, k, member.locale)), None)
            if key is None:
                if p.get("required"):
                    raise EmulatorUsageError(
                        f"missing required option {p['name']!r} of /{node['name']}"
                    )
                continue
            value = self._convert(member, p, remaining.pop(key), resolved)
            out.append({"name": p["name"], "type": p["type"], "value": value})
        if remaining:
            names = [p["name"] for p in params]
            raise EmulatorUsageError(
                f"unknown options {sorted(remaining)} for /{node['name']} (has {names})"
            )
        return out

    def _convert(
        self, member: SimMember, p: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]]
    ) -> Any:
        t, name = p["type"], p["name"]

        def bad(kind: str) -> EmulatorUsageError:
            return EmulatorUsageError(f"option {name!r} wants {kind}, got {value!r}")

        if t == STRING:
            if not isinstance(value, str):
                raise bad("str")
            if not p.get("min_length", 0) <= len(value) <= p.get("max_length", 6000):
                raise bad(f"length {p.get('min_length', 0)}..{p.get('max_length', 6000)}")
        elif t == INTEGER:
            if not isinstance(value, int) or isinstance(value, bool):
                raise bad("int")
        elif t == NUMBER:
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise bad("number")
        elif t == BOOLEAN:
            if not isinstance(value, bool):
                raise bad("bool")
        elif t in (USER, MENTIONABLE) and hasattr(value, "member_payload"):
            resolved.setdefault("users", {})[str(value.id)] = value.user_payload()
            mp = value.member_payload()
            mp.pop("user")
            resolved.setdefault("members", {})[str(value.id)] = mp
            return str(value.id)
        elif t == CHANNEL and isinstance(value, SimChannel):
            ch = value.payload()
            ch["permissions"] = str(member.permissions)
            resolved.setdefault("channels", {})[str(value.id)] = ch
            return str(value.id)
        elif t in (ROLE, MENTIONABLE) and isinstance(value, SimRole):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        else:
            raise bad(f"option type {t}")
        if t in (INTEGER, NUMBER):
            lo, hi = p.get("min_value"), p.get("max_value")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise bad(f"a value in {lo}..{hi}")
        choices = p.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise bad(f"one of {[c['value'] for c in choices]}")
        return value
