"""Versioned schema of the PostgreSQL store (table ``schema_version`` = number applied).

The same versions as the SQLite ``MIGRATIONS`` (bot/storage/migrations.py), entry for
entry, with the same tables, columns in the same order and indexes (tests/storage/test_schema.py
compares both after every version);
only the types differ: ids are BIGINT (Discord snowflakes), times DOUBLE PRECISION
(seconds), JSON stays TEXT. Append new scripts; never edit an applied one.
"""

from __future__ import annotations

PG_MIGRATIONS: list[str] = [
    # 1: initial schema
    """
    CREATE TABLE guild_settings (
        guild_id          BIGINT  PRIMARY KEY,
        turn_seconds_play INTEGER NOT NULL,
        turn_seconds_bid  INTEGER NOT NULL,
        rules             TEXT    NOT NULL,
        language          TEXT
    );
    CREATE TABLE open_tables (
        table_id   TEXT    PRIMARY KEY,
        guild_id   BIGINT  NOT NULL,
        channel_id BIGINT  NOT NULL,
        state      TEXT    NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX open_tables_guild ON open_tables (guild_id);
    CREATE TABLE guild_match (
        guild_id   BIGINT  PRIMARY KEY,
        match_no   INTEGER NOT NULL,
        hands      INTEGER NOT NULL DEFAULT 0,
        started_at DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE ledger (
        guild_id BIGINT  NOT NULL,
        match_no INTEGER NOT NULL,
        user_id  BIGINT  NOT NULL,
        total    INTEGER NOT NULL DEFAULT 0,
        hands    INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, match_no, user_id)
    );
    CREATE TABLE match_results (
        guild_id BIGINT  NOT NULL,
        match_no INTEGER NOT NULL,
        target   INTEGER NOT NULL,
        hands    INTEGER NOT NULL,
        ended_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (guild_id, match_no)
    );
    CREATE TABLE match_winners (
        guild_id BIGINT  NOT NULL,
        match_no INTEGER NOT NULL,
        user_id  BIGINT  NOT NULL,
        total    INTEGER NOT NULL,
        PRIMARY KEY (guild_id, match_no, user_id),
        FOREIGN KEY (guild_id, match_no) REFERENCES match_results (guild_id, match_no)
            ON DELETE CASCADE
    );
    CREATE TABLE finished_hands (
        hand_id     TEXT    PRIMARY KEY,
        guild_id    BIGINT  NOT NULL,
        table_id    TEXT    NOT NULL,
        match_no    INTEGER NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL,
        hand        TEXT    NOT NULL,
        settlement  TEXT    NOT NULL
    );
    CREATE INDEX finished_hands_guild ON finished_hands (guild_id, finished_at);
    CREATE TABLE hand_players (
        hand_id TEXT    NOT NULL REFERENCES finished_hands (hand_id) ON DELETE CASCADE,
        seat    INTEGER NOT NULL,
        user_id BIGINT,
        role    TEXT    NOT NULL,
        points  INTEGER NOT NULL,
        PRIMARY KEY (hand_id, seat)
    );
    CREATE INDEX hand_players_user ON hand_players (user_id);
    CREATE TABLE player_stats (
        guild_id       BIGINT  NOT NULL,
        user_id        BIGINT  NOT NULL,
        hands          INTEGER NOT NULL DEFAULT 0,
        hands_landlord INTEGER NOT NULL DEFAULT 0,
        wins_landlord  INTEGER NOT NULL DEFAULT 0,
        wins_peasant   INTEGER NOT NULL DEFAULT 0,
        springs        INTEGER NOT NULL DEFAULT 0,
        bombs          INTEGER NOT NULL DEFAULT 0,
        net_points     INTEGER NOT NULL DEFAULT 0,
        best_hand      INTEGER NOT NULL DEFAULT 0,
        matches_won    INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, user_id)
    );
    CREATE TABLE display_names (
        guild_id   BIGINT  NOT NULL,
        user_id    BIGINT  NOT NULL,
        name       TEXT    NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    );
    """,
    # 2: skill ratings (docs/RATINGS.md) and what the /ddz stats chart needs per hand
    """
    CREATE TABLE ratings (
        guild_id   BIGINT  NOT NULL,
        player     TEXT    NOT NULL,
        user_id    BIGINT,
        mu         DOUBLE PRECISION NOT NULL,
        sigma      DOUBLE PRECISION NOT NULL,
        hands      INTEGER NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (guild_id, player)
    );
    CREATE INDEX ratings_user ON ratings (user_id);
    ALTER TABLE hand_players ADD COLUMN total INTEGER;
    ALTER TABLE hand_players ADD COLUMN mu    DOUBLE PRECISION;
    ALTER TABLE hand_players ADD COLUMN sigma DOUBLE PRECISION;
    """,
    # 3: hand numbers per server (``/ddz replay 12``), in order of settlement
    """
    ALTER TABLE finished_hands ADD COLUMN hand_no INTEGER;
    UPDATE finished_hands SET hand_no = (
        SELECT COUNT(*) FROM finished_hands f WHERE f.guild_id = finished_hands.guild_id
        AND (f.finished_at < finished_hands.finished_at
             OR (f.finished_at = finished_hands.finished_at AND f.hand_id <= finished_hands.hand_id))
    );
    CREATE UNIQUE INDEX finished_hands_no ON finished_hands (guild_id, hand_no);
    """,
    # 4: issue 12 — the card counter setting, how a match ended (target, hands or
    # /ddz newmatch) with its hand limit, and each member's auto-play pace
    """
    ALTER TABLE guild_settings ADD COLUMN counter INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE match_results ADD COLUMN ended_by TEXT NOT NULL DEFAULT 'target';
    ALTER TABLE match_results ADD COLUMN match_hands INTEGER;
    CREATE TABLE member_prefs (
        guild_id      BIGINT NOT NULL,
        user_id       BIGINT NOT NULL,
        autoplay_pace DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    );
    """,
    # 5: issue 30 — the server's standings on the web page (/ddz config web), off by default
    """
    ALTER TABLE guild_settings ADD COLUMN web INTEGER NOT NULL DEFAULT 0;
    """,
    # 6: issue 26 — the channel a hand was played in (who may replay it), and each
    # computer seat's level (``python -m bot.storage rerate``); NULL before
    """
    ALTER TABLE finished_hands ADD COLUMN channel_id BIGINT;
    ALTER TABLE hand_players ADD COLUMN computer TEXT;
    """,
    # 7: issue 29 — the daily deal (see migrations.py)
    """
    ALTER TABLE guild_settings ADD COLUMN timezone TEXT;
    ALTER TABLE guild_settings ADD COLUMN daily_level TEXT NOT NULL DEFAULT 'hard';
    ALTER TABLE guild_settings ADD COLUMN daily_channel BIGINT;
    CREATE TABLE daily_keys (
        guild_id BIGINT PRIMARY KEY,
        secret   TEXT   NOT NULL
    );
    CREATE TABLE daily_plays (
        guild_id    BIGINT  NOT NULL,
        day         TEXT    NOT NULL,
        user_id     BIGINT  NOT NULL,
        table_id    TEXT    NOT NULL,
        level       TEXT    NOT NULL,
        started_at  DOUBLE PRECISION NOT NULL,
        finished_at DOUBLE PRECISION,
        points      INTEGER,
        moves       INTEGER,
        won         INTEGER,
        hand        TEXT,
        PRIMARY KEY (guild_id, day, user_id)
    );
    CREATE INDEX daily_plays_user ON daily_plays (guild_id, user_id, day);
    CREATE TABLE daily_posts (
        guild_id BIGINT NOT NULL,
        day      TEXT   NOT NULL,
        PRIMARY KEY (guild_id, day)
    );
    """,
    # 8: issue 29 — duplicate events (see migrations.py)
    """
    CREATE TABLE events (
        event_id     TEXT    PRIMARY KEY,
        guild_id     BIGINT  NOT NULL,
        channel_id   BIGINT  NOT NULL,
        name         TEXT    NOT NULL,
        deals        INTEGER NOT NULL,
        level        TEXT    NOT NULL,
        created_by   BIGINT  NOT NULL,
        created_at   DOUBLE PRECISION NOT NULL,
        closes_at    DOUBLE PRECISION NOT NULL,
        closed_at    DOUBLE PRECISION,
        announced_at DOUBLE PRECISION
    );
    CREATE INDEX events_guild ON events (guild_id, created_at);
    CREATE UNIQUE INDEX events_open ON events (guild_id) WHERE announced_at IS NULL;
    CREATE TABLE event_entries (
        event_id  TEXT   NOT NULL,
        user_id   BIGINT NOT NULL,
        guild_id  BIGINT NOT NULL,
        joined_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (event_id, user_id)
    );
    CREATE INDEX event_entries_user ON event_entries (guild_id, user_id);
    CREATE TABLE event_plays (
        event_id    TEXT    NOT NULL,
        deal        INTEGER NOT NULL,
        user_id     BIGINT  NOT NULL,
        guild_id    BIGINT  NOT NULL,
        table_id    TEXT    NOT NULL,
        started_at  DOUBLE PRECISION NOT NULL,
        finished_at DOUBLE PRECISION,
        points      INTEGER,
        moves       INTEGER,
        hand        TEXT,
        PRIMARY KEY (event_id, deal, user_id)
    );
    CREATE TABLE event_standins (
        event_id TEXT    NOT NULL,
        deal     INTEGER NOT NULL,
        points   INTEGER NOT NULL,
        hand     TEXT    NOT NULL,
        PRIMARY KEY (event_id, deal)
    );
    """,
    # 9: issue 35 — turn pings (see migrations.py)
    """
    ALTER TABLE guild_settings ADD COLUMN turn_ping TEXT NOT NULL DEFAULT 'after';
    ALTER TABLE guild_settings ADD COLUMN turn_ping_after INTEGER NOT NULL DEFAULT 10;
    CREATE TABLE member_pings (
        guild_id BIGINT  NOT NULL,
        user_id  BIGINT  NOT NULL,
        notify   INTEGER NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    );
    CREATE TABLE turn_pings (
        table_id   TEXT    PRIMARY KEY,
        guild_id   BIGINT  NOT NULL,
        channel_id BIGINT  NOT NULL,
        user_id    BIGINT  NOT NULL,
        move_seq   INTEGER NOT NULL,
        message_id BIGINT  NOT NULL
    );
    """,
    # 10: issue 36 — a day's level and rules, an event's rules, frozen (see migrations.py)
    """
    CREATE TABLE daily_days (
        guild_id BIGINT NOT NULL,
        day      TEXT   NOT NULL,
        level    TEXT   NOT NULL,
        rules    TEXT   NOT NULL,
        PRIMARY KEY (guild_id, day)
    );
    ALTER TABLE events ADD COLUMN rules TEXT;
    """,
    # 11: issue 39 — endgame puzzles (see migrations.py)
    """
    CREATE TABLE puzzle_attempts (
        attempt_id  TEXT             PRIMARY KEY,
        guild_id    BIGINT           NOT NULL,
        user_id     BIGINT           NOT NULL,
        puzzle_id   TEXT             NOT NULL,
        mode        TEXT             NOT NULL,
        day         TEXT             NOT NULL,
        started_at  DOUBLE PRECISION NOT NULL,
        finished_at DOUBLE PRECISION,
        solved      INTEGER          NOT NULL DEFAULT 0,
        line        TEXT             NOT NULL DEFAULT '[]',
        plies       INTEGER          NOT NULL DEFAULT 0,
        moves       INTEGER          NOT NULL DEFAULT 0
    );
    CREATE UNIQUE INDEX puzzle_daily_once ON puzzle_attempts (guild_id, day, user_id)
        WHERE mode = 'daily';
    CREATE INDEX puzzle_attempts_user ON puzzle_attempts (guild_id, user_id);
    CREATE TABLE puzzle_players (
        guild_id   BIGINT           NOT NULL,
        user_id    BIGINT           NOT NULL,
        rating     DOUBLE PRECISION NOT NULL,
        deviation  DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        attempts   INTEGER          NOT NULL,
        solved     INTEGER          NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    );
    CREATE TABLE puzzle_ratings (
        puzzle_id  TEXT             PRIMARY KEY,
        rating     DOUBLE PRECISION NOT NULL,
        deviation  DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        attempts   INTEGER          NOT NULL,
        solved     INTEGER          NOT NULL
    );
    """,
    # 12: issue 38 — tournaments (see migrations.py)
    """
    CREATE TABLE tournaments (
        tournament_id     TEXT    PRIMARY KEY,
        guild_id          BIGINT  NOT NULL,
        number            INTEGER NOT NULL,
        channel_id        BIGINT  NOT NULL,
        name              TEXT    NOT NULL,
        rounds            INTEGER NOT NULL,
        hands             INTEGER NOT NULL,
        level             TEXT    NOT NULL,
        created_by        BIGINT  NOT NULL,
        created_at        DOUBLE PRECISION NOT NULL,
        starts_at         DOUBLE PRECISION,
        seed              BIGINT  NOT NULL,
        status            TEXT    NOT NULL DEFAULT 'open',
        current_round     INTEGER NOT NULL DEFAULT 0,
        started_at        DOUBLE PRECISION,
        ended_at          DOUBLE PRECISION,
        signup_message_id BIGINT,
        announced_at      DOUBLE PRECISION,
        rules             TEXT
    );
    CREATE UNIQUE INDEX tournaments_number ON tournaments (guild_id, number);
    CREATE UNIQUE INDEX tournaments_live ON tournaments (guild_id)
        WHERE status IN ('open', 'running');
    CREATE TABLE tournament_entrants (
        tournament_id TEXT   NOT NULL,
        user_id       BIGINT NOT NULL,
        guild_id      BIGINT NOT NULL,
        joined_at     DOUBLE PRECISION NOT NULL,
        status        TEXT   NOT NULL DEFAULT 'in',
        left_at       DOUBLE PRECISION,
        PRIMARY KEY (tournament_id, user_id)
    );
    CREATE INDEX tournament_entrants_user ON tournament_entrants (guild_id, user_id);
    CREATE TABLE tournament_rounds (
        tournament_id TEXT    NOT NULL,
        round_no      INTEGER NOT NULL,
        seated_at     DOUBLE PRECISION NOT NULL,
        finished_at   DOUBLE PRECISION,
        PRIMARY KEY (tournament_id, round_no)
    );
    CREATE TABLE tournament_tables (
        tournament_id TEXT    NOT NULL,
        round_no      INTEGER NOT NULL,
        table_no      INTEGER NOT NULL,
        seat0         BIGINT,
        seat1         BIGINT,
        seat2         BIGINT,
        opened_at     DOUBLE PRECISION,
        thread_id     BIGINT,
        table_id      TEXT,
        finished_at   DOUBLE PRECISION,
        points0       INTEGER,
        points1       INTEGER,
        points2       INTEGER,
        PRIMARY KEY (tournament_id, round_no, table_no)
    );
    CREATE INDEX tournament_tables_table ON tournament_tables (table_id);
    CREATE TABLE tournament_hands (
        tournament_id TEXT    NOT NULL,
        round_no      INTEGER NOT NULL,
        table_no      INTEGER NOT NULL,
        hand          INTEGER NOT NULL,
        hand_no       INTEGER NOT NULL,
        points0       INTEGER NOT NULL,
        points1       INTEGER NOT NULL,
        points2       INTEGER NOT NULL,
        PRIMARY KEY (tournament_id, round_no, table_no, hand)
    );
    """,
    # 13: issue 49 — each feature's own server settings, the daily deal's moved there
    # (see migrations.py)
    """
    ALTER TABLE guild_settings ADD COLUMN features TEXT NOT NULL DEFAULT '{}';
    UPDATE guild_settings SET features = jsonb_build_object('daily', jsonb_strip_nulls(
        jsonb_build_object('level', NULLIF(daily_level, 'hard'), 'channel', daily_channel)))::text
     WHERE daily_level <> 'hard' OR daily_channel IS NOT NULL;
    """,
]
