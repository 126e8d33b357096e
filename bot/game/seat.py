"""Seats and events of a table (docs/RULES.md §A hand at the table)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from bot.ai import Level

AUTOPLAY_AFTER_TIMEOUTS = 2
"""Consecutive turn timeouts after which a seat stays on autoplay (docs/RULES.md §Timers)."""
PACE_MIN, PACE_MAX, PACE_DEFAULT = 1.0, 10.0, 2.0
"""Auto-play pace in seconds (``/ddz autoplay on pace``): the computer waits this long
before each move it makes for a member (docs/RULES.md §Controls, "choose the interval")."""


class Seat(BaseModel):
    """One of three seats. Empty when ``user_id`` and ``computer`` are both None.

    * ``computer``: level of a computer player (then ``user_id`` is None).
    * ``autoplay``: the computer plays for the member (chosen, or after two timeouts).
    * ``timeouts``: consecutive turn timeouts; reset when the member acts.
    * ``away``: the member left during a hand; the seat is on autoplay and is
      still theirs (points count) until the hand ends or they come back.
    * ``pace``: seconds the computer waits before each auto-play move of this
      member (``PACE_MIN``..``PACE_MAX``; the member's stored choice when seated).
    * ``timeout_hand``: the table's ``hand_no`` in which two timeouts put the seat on
      auto-play (None: auto-play is off or the member chose it). Auto-play the member
      chose lasts across deals; auto-play from timeouts lasts into the next deal, and
      a seat that played a whole hand on it is released at Play again
      (docs/RULES.md §Timers).
    """

    user_id: int | None = None
    name: str = ""
    computer: Level | None = None
    autoplay: bool = False
    timeouts: int = 0
    locale: str | None = None
    away: bool = False
    pace: float = Field(default=PACE_DEFAULT, ge=PACE_MIN, le=PACE_MAX)
    timeout_hand: int | None = None

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and self.computer is None

    @property
    def automatic(self) -> bool:
        """Whether the computer acts for this seat."""
        return self.computer is not None or self.autoplay


class Event(BaseModel):
    """Something that happened, for listeners (public message, private views).

    ``kind`` is one of: joined, rejoined, left, computer_added, computer_removed,
    started, bid, landlord, redeal, play, pass, cleared, warning, finished,
    timeout, autoplay_on, autoplay_off, stopped, lobby, closed, released, fill.
    ``seat`` is the
    seat concerned (if any); ``params`` hold details (amount, cards, kind, …).
    """

    model_config = ConfigDict(frozen=True)

    kind: str
    seat: int | None = None
    params: dict[str, str | int] = Field(default_factory=dict)


def computer_name(index: int) -> str:
    """A computer player's name by its seat (0-based): "Bot 2" at seat 1, in every
    language (a name, like a member's), at tables and in puzzles alike."""
    return f"Bot {index + 1}"


def computer_seat(index: int, level: Level) -> Seat:
    """A computer player's seat, named by position (``computer_name``)."""
    return Seat(name=computer_name(index), computer=level)
