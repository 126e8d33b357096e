"""Skill ratings of members and computer levels (pure; the openskill library does the maths).

Spec: docs/RATINGS.md. A finished hand is one game between two teams: the landlord
and the two peasants, rated with openskill's Plackett-Luce model (Weng-Lin), μ = 25,
σ = 25/3 for a newcomer. The landlord's extra cards (20 against 17 + 17, the kitty)
are modelled as a teammate whose μ is the mean μ of the hand's three players, with no
uncertainty (issue 26): three equal players are an even match at any μ, a landlord
win moves each rating as much as a peasant win does, and a stronger landlord is still
the favourite (team μ difference ``4/3 · (μ_landlord − mean μ of the peasants)``).
Without a teammate the sum of two peasants' μ makes any landlord an outsider; with
the fixed teammate at μ 25 used before, three equal players at μ 35 gave the
landlord 26 % (7 % once σ is small), at μ 15 74 % (93 %), so members who bid often
drifted up in strong groups and down in weak ones (``edge="fixed"`` keeps that model
for the comparison in docs/RATINGS.md and for reading old records).
The value shown on leaderboards is the ordinal ``μ − 3σ`` (0 for a newcomer).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from openskill.models import PlackettLuce, PlackettLuceRating
from pydantic import BaseModel, ConfigDict, Field

MU = 25.0
"""A newcomer's mean skill μ (openskill's default scale)."""
SIGMA = 25.0 / 3.0
"""A newcomer's uncertainty σ (skill points)."""
PROVISIONAL_HANDS = 5
"""Members with fewer rated hands are listed apart on the rating leaderboard."""
LANDLORD_EDGE_SIGMA = 0.001
"""σ of the landlord's teammate (its μ: the table's mean μ): close to 0, so it absorbs no
update."""
Edge = Literal["table", "fixed"]
"""The landlord's teammate: ``table`` (its μ is the mean μ of the three players; the
model) or ``fixed`` (μ = MU whatever the table: the model before issue 26)."""

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


class SkillRating(BaseModel):
    """One rating: mean skill ``mu`` and uncertainty ``sigma`` (skill points), ``hands`` rated."""

    model_config = ConfigDict(frozen=True)

    mu: float = MU
    sigma: float = Field(default=SIGMA, gt=0)
    hands: int = Field(default=0, ge=0)

    @property
    def ordinal(self) -> float:
        """The leaderboard value ``μ − 3σ``: skill we are ~99.7 % sure of (0 for a newcomer)."""
        return self.mu - 3.0 * self.sigma

    @property
    def provisional(self) -> bool:
        """Fewer than PROVISIONAL_HANDS rated hands."""
        return self.hands < PROVISIONAL_HANDS


NEW_RATING = SkillRating()
"""The rating of anyone who has not finished a rated hand."""


def member_key(user_id: int) -> str:
    """The rating key of a member (``"member:<user id>"``)."""
    return f"member:{int(user_id)}"


def computer_key(level: str) -> str:
    """The rating key of a computer level (``"computer:easy"``, ``…normal``, ``…hard``)."""
    return f"computer:{level}"


@dataclass(frozen=True)
class RatedSeat:
    """A seat of a finished hand as the rating sees it: who (a key) and which side."""

    key: str
    landlord: bool


def _openskill(rating: SkillRating) -> PlackettLuceRating:
    return _MODEL.rating(mu=rating.mu, sigma=rating.sigma)


def _edge(players: Sequence[SkillRating], edge: Edge) -> PlackettLuceRating:
    mu = MU if edge == "fixed" else sum(r.mu for r in players) / len(players)
    return _MODEL.rating(mu=mu, sigma=LANDLORD_EDGE_SIGMA)


def _sides(seats: Sequence[RatedSeat]) -> tuple[RatedSeat, list[RatedSeat]]:
    landlords = [s for s in seats if s.landlord]
    peasants = [s for s in seats if not s.landlord]
    if len(seats) != 3 or len(landlords) != 1:
        raise ValueError("a rated hand has three seats, exactly one of them the landlord")
    return landlords[0], peasants


def landlord_win_chance(
    landlord: SkillRating, peasants: tuple[SkillRating, SkillRating], *, edge: Edge = "table"
) -> float:
    """The model's probability (0..1) that ``landlord`` beats the two ``peasants``
    (0.5 for three equal players: docs/RATINGS.md §The landlord's edge)."""
    teammate = _edge([landlord, *peasants], edge)
    chances = _MODEL.predict_win(
        [[_openskill(landlord), teammate], [_openskill(p) for p in peasants]]
    )
    return float(chances[0])


def rate_hand(
    seats: Sequence[RatedSeat], landlord_won: bool, current: Mapping[str, SkillRating],
    *, edge: Edge = "table",
) -> dict[str, SkillRating]:
    """The ratings after one finished hand, for every key seated in it.

    ``seats``: the three seats (one landlord); ``current``: ratings before the hand
    (a missing key is a newcomer, NEW_RATING). Each rated key gets its updated μ/σ
    and ``hands + 1``. A key seated on both sides (the same computer level as
    landlord and as peasant) keeps its rating and count: it played itself. A key
    seated twice as peasant (two computers of one level) is updated once.
    ``edge``: the landlord's teammate (``Edge``).
    Raises ValueError unless there are three seats and exactly one landlord.
    """
    landlord, peasants = _sides(seats)
    before = {s.key: current.get(s.key, NEW_RATING) for s in seats}
    teammate = _edge([before[s.key] for s in seats], edge)
    teams = [
        [_openskill(before[landlord.key]), teammate],
        [_openskill(before[p.key]) for p in peasants],
    ]
    ranks = [1, 2] if landlord_won else [2, 1]
    rated = _MODEL.rate(teams, ranks=[float(r) for r in ranks])
    after: dict[str, SkillRating] = {}
    for seat, new in [(landlord, rated[0][0]), *zip(peasants, rated[1], strict=True)]:
        if seat.key in after:
            continue  # the second of two peasants of one computer level
        old = before[seat.key]
        if seat.key == landlord.key and any(p.key == landlord.key for p in peasants):
            after[seat.key] = old
            continue
        after[seat.key] = SkillRating(mu=new.mu, sigma=new.sigma, hands=old.hands + 1)
    return after
