"""A ``cogs.tokens.TokenRef`` for interaction stand-ins of unit tests."""

from __future__ import annotations

from typing import Any

from cogs.tokens import KEY, TokenRef


class FakeTokenRef(TokenRef):
    """A ``TokenRef`` whose original-response requests go to the stand-in's own
    ``edit_original_response`` / ``delete_original_response`` and follow-up edits to
    its ``followup.edit_message`` (a test records them); other follow-ups go to its
    ``followup`` as for a real one."""

    def __init__(self, interaction: Any) -> None:
        super().__init__(interaction)
        self.fake = interaction

    async def edit_original(self, **kwargs: Any) -> None:
        await self.fake.edit_original_response(**kwargs)

    async def edit_message(self, message_id: int, **kwargs: Any) -> None:
        await self.fake.followup.edit_message(message_id, **kwargs)

    async def delete_original(self) -> None:
        await self.fake.delete_original_response()


def fake_token(interaction: Any) -> None:
    """Give the stand-in ``interaction`` (``id``, ``channel_id``, ``extras``,
    ``response.is_done()``, ``followup``) its ``FakeTokenRef``."""
    interaction.extras[KEY] = FakeTokenRef(interaction)
