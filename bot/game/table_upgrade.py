"""Stored tables of before the feature payload, read into today's shape (issue 49).

Until then a ``Table`` (its JSON kept in ``open_tables`` for a restart) had one field per
feature: ``daily`` (the day of a daily-deal table, private), ``event`` (``"<event id>:
<deal>"`` of a duplicate event's table, private), ``tournament`` (``"<tournament id>:
<round>:<table>"``, a table whose hands the tournament deals) and ``feature`` (the kind of
any other feature's table). Today a table keeps one ``kind``, its ``private`` and
``feature_deals`` flags and its feature's payload (``Table.feature``, typed by the wing's
``TablePayload``: ``DailyTable``, ``EventDeal``, ``TournamentKey``).

Pure and frozen: the shapes that code wrote, never a new feature's (a new one stores
today's shape from the start).
"""

from __future__ import annotations

OLD_FIELDS = ("daily", "event", "tournament")
"""The per-feature fields of the old shape (null at every other table)."""


def upgraded(data: dict[str, object]) -> dict[str, object]:
    """``data`` (a Table's fields) in today's shape: itself when it has no old field;
    else without them, with ``kind``, the flags and the payload they said. Raises
    ValueError for an old label that is not one (the table would not load either)."""
    label = data.get("feature")
    old_feature = "feature" in data and (label is None or isinstance(label, str))
    if not old_feature and not any(key in data for key in OLD_FIELDS):
        return data
    out = {key: value for key, value in data.items() if key not in OLD_FIELDS}
    if old_feature:
        del out["feature"]
    tournament, daily, event = (data.get(key) for key in ("tournament", "daily", "event"))
    if isinstance(label, str):  # the kind of a feature's table
        out["kind"] = label
    elif isinstance(tournament, str):
        tournament_id, round_no, table_no = tournament.rsplit(":", 2)
        out.update(kind="tournament", feature_deals=True, feature={
            "tournament_id": tournament_id, "round_no": int(round_no),
            "table_no": int(table_no)})
    elif isinstance(daily, str):
        out.update(kind="daily", private=True, feature={"day": daily})
    elif isinstance(event, str):
        event_id, _, deal = event.rpartition(":")
        if not event_id:
            raise ValueError(f"not an event's table: {event!r}")
        out.update(kind="event", private=True, feature={"event_id": event_id, "deal": int(deal)})
    return out
