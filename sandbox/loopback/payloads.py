"""Discord API v10 JSON shapes of the emulator's objects, as discord.py 2.7 parses them
(user, member, guild for GUILD_CREATE, message). Mixed into :class:`Emulator`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sandbox.loopback.model import SimGuild, SimMessage, iso_now

if TYPE_CHECKING:
    from sandbox.loopback.members import SimInteraction


def numbered(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``components`` as Discord answers them: every component has an ``id``, those the
    bot gave none numbered 1, 2 … in reading order (depth first), skipping ids in use."""
    used: set[int] = set()

    def collect(items: list[dict[str, Any]]) -> None:
        for c in items:
            if isinstance(c.get("id"), int):
                used.add(c["id"])
            collect(c.get("components") or [])

    collect(components)
    counter = 0

    def fill(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        nonlocal counter
        out = []
        for c in items:
            c = dict(c)
            if not isinstance(c.get("id"), int):
                counter += 1
                while counter in used:
                    counter += 1
                c["id"] = counter
            if "components" in c:
                c["components"] = fill(c["components"])
            out.append(c)
        return out

    return fill(components)


class Payloads:
    """Builds payloads; needs ``application_id``, ``api_base`` and ``by_id`` on ``self``."""

    application_id: int
    by_id: dict[int, SimInteraction]

    @property
    def api_base(self) -> str:
        raise NotImplementedError

    def bot_user_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "username": "ddz-bot",
            "global_name": None,
            "discriminator": "0",
            "avatar": None,
            "bot": True,
            "verified": True,
            "mfa_enabled": False,
            "flags": 0,
            "public_flags": 0,
            "primary_guild": None,
            "locale": "en-US",
        }

    def bot_member_payload(self, g: SimGuild) -> dict[str, Any]:
        return {
            "user": self.bot_user_payload(),
            "nick": None,
            "avatar": None,
            "roles": [str(g.role("DDZ Bot").id)],
            "joined_at": iso_now(),
            "premium_since": None,
            "banner": None,
            "communication_disabled_until": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
        }

    def guild_payload(self, g: SimGuild) -> dict[str, Any]:
        members = [m.member_payload(with_permissions=False) for m in g.members.values()]
        members.append(self.bot_member_payload(g))
        return {
            "id": str(g.id),
            "name": g.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(g.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": g.locale,
            "features": [],
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "max_members": 500000,
            "roles": [r.payload() for r in g.roles],
            "emojis": [],
            "stickers": [],
            "joined_at": iso_now(),
            "large": False,
            "unavailable": False,
            "member_count": len(members),
            "voice_states": [],
            "members": members,
            "channels": [c.payload() for c in g.channels if not c.is_thread],
            "threads": [c.payload() for c in g.channels if c.is_thread],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def message_payload(self, m: SimMessage) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": str(m.id),
            "type": m.type,
            "channel_id": str(m.channel.id),
            "guild_id": str(m.channel.guild.id),
            "author": self.bot_user_payload(),
            "content": m.content,
            "timestamp": m.created_at,
            "edited_timestamp": m.edited_at,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload(self.api_base) for a in m.attachments],
            "embeds": m.embeds,
            "pinned": False,
            "flags": m.flags,
            "components": numbered(m.components),
        }
        ix = self.by_id.get(m.interaction_id or 0)
        if ix is not None:
            out["webhook_id"] = str(self.application_id)
            out["application_id"] = str(self.application_id)
            out["interaction_metadata"] = {
                "id": str(ix.id),
                "type": ix.type,
                "user": ix.member.user_payload(),
                "authorizing_integration_owners": {"0": str(ix.member.guild.id)},
            }
            if ix.type == 3 and ix.source_message is not None:
                out["interaction_metadata"]["interacted_message_id"] = str(ix.source_message.id)
        return out
