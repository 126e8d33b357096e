"""Versioned schema of the SQLite store (PRAGMA user_version = number applied).

Append new scripts; never edit an applied one. Script ``i`` (0-based) moves the
schema from version ``i`` to ``i + 1``.
"""

from __future__ import annotations

MIGRATIONS: list[str] = [
    # 1: initial schema
    """
    CREATE TABLE guild_settings (
        guild_id          INTEGER PRIMARY KEY,
        turn_seconds_play INTEGER NOT NULL,
        turn_seconds_bid  INTEGER NOT NULL,
        rules             TEXT    NOT NULL,          -- RuleSet JSON (target inside)
        language          TEXT
    );
    CREATE TABLE open_tables (
        table_id   TEXT    PRIMARY KEY,
        guild_id   INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        state      TEXT    NOT NULL,                 -- Table JSON
        created_at REAL    NOT NULL,
        updated_at REAL    NOT NULL
    );
    CREATE INDEX open_tables_guild ON open_tables (guild_id);
    CREATE TABLE guild_match (                       -- the current match of a guild
        guild_id   INTEGER PRIMARY KEY,
        match_no   INTEGER NOT NULL,
        hands      INTEGER NOT NULL DEFAULT 0,
        started_at REAL    NOT NULL
    );
    CREATE TABLE ledger (                            -- totals per match and user
        guild_id INTEGER NOT NULL,
        match_no INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        total    INTEGER NOT NULL DEFAULT 0,
        hands    INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, match_no, user_id)
    );
    CREATE TABLE match_results (
        guild_id INTEGER NOT NULL,
        match_no INTEGER NOT NULL,
        target   INTEGER NOT NULL,
        hands    INTEGER NOT NULL,
        ended_at REAL    NOT NULL,
        PRIMARY KEY (guild_id, match_no)
    );
    CREATE TABLE match_winners (
        guild_id INTEGER NOT NULL,
        match_no INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        total    INTEGER NOT NULL,
        PRIMARY KEY (guild_id, match_no, user_id),
        FOREIGN KEY (guild_id, match_no) REFERENCES match_results (guild_id, match_no)
            ON DELETE CASCADE
    );
    CREATE TABLE finished_hands (
        hand_id     TEXT    PRIMARY KEY,             -- idempotency key of settle_hand
        guild_id    INTEGER NOT NULL,
        table_id    TEXT    NOT NULL,
        match_no    INTEGER NOT NULL,
        finished_at REAL    NOT NULL,
        hand        TEXT    NOT NULL,                -- Hand JSON (full history)
        settlement  TEXT    NOT NULL                 -- Settlement JSON
    );
    CREATE INDEX finished_hands_guild ON finished_hands (guild_id, finished_at);
    CREATE TABLE hand_players (
        hand_id TEXT    NOT NULL REFERENCES finished_hands (hand_id) ON DELETE CASCADE,
        seat    INTEGER NOT NULL,
        user_id INTEGER,                             -- NULL: computer or forgotten
        role    TEXT    NOT NULL,
        points  INTEGER NOT NULL,
        PRIMARY KEY (hand_id, seat)
    );
    CREATE INDEX hand_players_user ON hand_players (user_id);
    CREATE TABLE player_stats (
        guild_id       INTEGER NOT NULL,
        user_id        INTEGER NOT NULL,
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
        guild_id   INTEGER NOT NULL,
        user_id    INTEGER NOT NULL,
        name       TEXT    NOT NULL,
        updated_at REAL    NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    );
    """,
    # 2: skill ratings (docs/RATINGS.md) and what the /ddz stats chart needs per hand
    """
    CREATE TABLE ratings (
        guild_id   INTEGER NOT NULL,
        player     TEXT    NOT NULL,                 -- 'member:<user id>' / 'computer:<level>'
        user_id    INTEGER,                          -- the member; NULL for a computer level
        mu         REAL    NOT NULL,
        sigma      REAL    NOT NULL,
        hands      INTEGER NOT NULL,
        updated_at REAL    NOT NULL,
        PRIMARY KEY (guild_id, player)
    );
    CREATE INDEX ratings_user ON ratings (user_id);
    ALTER TABLE hand_players ADD COLUMN total INTEGER;  -- match total after the hand
    ALTER TABLE hand_players ADD COLUMN mu    REAL;     -- rating after the hand
    ALTER TABLE hand_players ADD COLUMN sigma REAL;
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
        guild_id      INTEGER NOT NULL,
        user_id       INTEGER NOT NULL,
        autoplay_pace REAL    NOT NULL,                -- seconds, 1..10
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
    ALTER TABLE finished_hands ADD COLUMN channel_id INTEGER;
    ALTER TABLE hand_players ADD COLUMN computer TEXT;
    """,
    # 7: issue 29 — the daily deal: the server's time zone, computer level and channel, a
    # secret key per server (the day's seed), one row per member and day, the posts made
    """
    ALTER TABLE guild_settings ADD COLUMN timezone TEXT;
    ALTER TABLE guild_settings ADD COLUMN daily_level TEXT NOT NULL DEFAULT 'hard';
    ALTER TABLE guild_settings ADD COLUMN daily_channel INTEGER;
    CREATE TABLE daily_keys (
        guild_id INTEGER PRIMARY KEY,
        secret   TEXT    NOT NULL                    -- hex; HMAC key of the day's seed
    );
    CREATE TABLE daily_plays (                       -- once per member per day
        guild_id    INTEGER NOT NULL,
        day         TEXT    NOT NULL,                -- YYYY-MM-DD in the server's zone
        user_id     INTEGER NOT NULL,
        table_id    TEXT    NOT NULL,
        level       TEXT    NOT NULL,
        started_at  REAL    NOT NULL,
        finished_at REAL,                            -- NULL while the hand is played
        points      INTEGER,
        moves       INTEGER,
        won         INTEGER,
        hand        TEXT,                            -- Hand JSON once finished
        PRIMARY KEY (guild_id, day, user_id)
    );
    CREATE INDEX daily_plays_user ON daily_plays (guild_id, user_id, day);
    CREATE TABLE daily_posts (
        guild_id INTEGER NOT NULL,
        day      TEXT    NOT NULL,
        PRIMARY KEY (guild_id, day)
    );
    """,
    # 8: issue 29 — duplicate events: one row per event (at most one not yet announced
    # per server), its entrants, each member's play of each deal, and the stand-in
    # result of each deal (auto-play, for entrants who did not play it by the close)
    """
    CREATE TABLE events (
        event_id     TEXT    PRIMARY KEY,
        guild_id     INTEGER NOT NULL,
        channel_id   INTEGER NOT NULL,               -- where the results are announced
        name         TEXT    NOT NULL,
        deals        INTEGER NOT NULL,
        level        TEXT    NOT NULL,
        created_by   INTEGER NOT NULL,
        created_at   REAL    NOT NULL,
        closes_at    REAL    NOT NULL,
        closed_at    REAL,                           -- an early /ddz event close
        announced_at REAL                            -- results posted (once)
    );
    CREATE INDEX events_guild ON events (guild_id, created_at);
    CREATE UNIQUE INDEX events_open ON events (guild_id) WHERE announced_at IS NULL;
    CREATE TABLE event_entries (
        event_id  TEXT    NOT NULL,
        user_id   INTEGER NOT NULL,
        guild_id  INTEGER NOT NULL,
        joined_at REAL    NOT NULL,
        PRIMARY KEY (event_id, user_id)
    );
    CREATE INDEX event_entries_user ON event_entries (guild_id, user_id);
    CREATE TABLE event_plays (                       -- once per member per deal
        event_id    TEXT    NOT NULL,
        deal        INTEGER NOT NULL,
        user_id     INTEGER NOT NULL,
        guild_id    INTEGER NOT NULL,
        table_id    TEXT    NOT NULL,
        started_at  REAL    NOT NULL,
        finished_at REAL,                            -- NULL while the deal is played
        points      INTEGER,
        moves       INTEGER,
        hand        TEXT,                            -- Hand JSON once finished
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
    # 9: issue 35 — turn pings: the server's setting (off / now / after N seconds), each
    # member's own choice (/ddz notify), and the pings sent and not yet deleted (a restart
    # deletes them when their turn ends)
    """
    ALTER TABLE guild_settings ADD COLUMN turn_ping TEXT NOT NULL DEFAULT 'after';
    ALTER TABLE guild_settings ADD COLUMN turn_ping_after INTEGER NOT NULL DEFAULT 10;
    CREATE TABLE member_pings (
        guild_id INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        notify   INTEGER NOT NULL,                   -- 0: /ddz notify off
        PRIMARY KEY (guild_id, user_id)
    );
    CREATE TABLE turn_pings (                        -- one sent ping per table at most
        table_id   TEXT    PRIMARY KEY,
        guild_id   INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        user_id    INTEGER NOT NULL,
        move_seq   INTEGER NOT NULL,                 -- the turn it was sent for
        message_id INTEGER NOT NULL
    );
    """,
    # 10: issue 36 — the same game for everyone: the computers' level and the rule variants
    # of a day's deal frozen at its first deal, an event's rules frozen at its creation
    # (NULL for an event created before: the server's rules)
    """
    CREATE TABLE daily_days (
        guild_id INTEGER NOT NULL,
        day      TEXT    NOT NULL,                   -- YYYY-MM-DD in the server's zone
        level    TEXT    NOT NULL,
        rules    TEXT    NOT NULL,                   -- RuleSet JSON
        PRIMARY KEY (guild_id, day)
    );
    ALTER TABLE events ADD COLUMN rules TEXT;       -- RuleSet JSON
    """,
    # 11: issue 39 — endgame puzzles: each member's attempts (the daily puzzle once per
    # member and day), their puzzle rating and each puzzle's own (Glicko-2)
    """
    CREATE TABLE puzzle_attempts (
        attempt_id  TEXT    PRIMARY KEY,
        guild_id    INTEGER NOT NULL,
        user_id     INTEGER NOT NULL,                -- below 0: a forgotten member's mark
        puzzle_id   TEXT    NOT NULL,
        mode        TEXT    NOT NULL,                -- daily | practice
        day         TEXT    NOT NULL,                -- YYYY-MM-DD in the server's zone
        started_at  REAL    NOT NULL,
        finished_at REAL,                            -- NULL while it is played
        solved      INTEGER NOT NULL DEFAULT 0,
        line        TEXT    NOT NULL DEFAULT '[]',   -- the actions so far (JSON)
        plies       INTEGER NOT NULL DEFAULT 0,
        moves       INTEGER NOT NULL DEFAULT 0       -- the member's own actions
    );
    CREATE UNIQUE INDEX puzzle_daily_once ON puzzle_attempts (guild_id, day, user_id)
        WHERE mode = 'daily';
    CREATE INDEX puzzle_attempts_user ON puzzle_attempts (guild_id, user_id);
    CREATE TABLE puzzle_players (                    -- a member's puzzle rating
        guild_id   INTEGER NOT NULL,
        user_id    INTEGER NOT NULL,
        rating     REAL    NOT NULL,
        deviation  REAL    NOT NULL,
        volatility REAL    NOT NULL,
        attempts   INTEGER NOT NULL,
        solved     INTEGER NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    );
    CREATE TABLE puzzle_ratings (                    -- a puzzle's own rating (every server)
        puzzle_id  TEXT    PRIMARY KEY,
        rating     REAL    NOT NULL,
        deviation  REAL    NOT NULL,
        volatility REAL    NOT NULL,
        attempts   INTEGER NOT NULL,
        solved     INTEGER NOT NULL
    );
    """,
    # 12: issue 38 — tournaments: Swiss rounds at tables of three, each table in its own
    # thread (docs/RULES.md §Tournaments). One open or running tournament per server (the
    # partial unique index tournaments_live); every step that must happen once (start, a
    # round seated, a table opened or finished, a round finished, the end, the final post)
    # is a conditional UPDATE or an INSERT on a primary key that only one caller wins.
    """
    CREATE TABLE tournaments (
        tournament_id     TEXT    PRIMARY KEY,
        guild_id          INTEGER NOT NULL,
        number            INTEGER NOT NULL,          -- 1, 2, … per server (/t/ link)
        channel_id        INTEGER NOT NULL,          -- sign-up, posts, threads' parent
        name              TEXT    NOT NULL,
        rounds            INTEGER NOT NULL,
        hands             INTEGER NOT NULL,          -- per round at each table
        level             TEXT    NOT NULL,
        created_by        INTEGER NOT NULL,          -- the organiser
        created_at        REAL    NOT NULL,
        starts_at         REAL,                      -- scheduled start, else NULL
        seed              INTEGER NOT NULL,          -- round 1's draw
        status            TEXT    NOT NULL DEFAULT 'open',  -- open|running|finished|cancelled
        current_round     INTEGER NOT NULL DEFAULT 0,       -- last round seated
        started_at        REAL,
        ended_at          REAL,
        signup_message_id INTEGER,
        announced_at      REAL,                      -- the final post, claimed once
        rules             TEXT                       -- RuleSet JSON
    );
    CREATE UNIQUE INDEX tournaments_number ON tournaments (guild_id, number);
    CREATE UNIQUE INDEX tournaments_live ON tournaments (guild_id)
        WHERE status IN ('open', 'running');
    CREATE TABLE tournament_entrants (
        tournament_id TEXT    NOT NULL,
        user_id       INTEGER NOT NULL,
        guild_id      INTEGER NOT NULL,
        joined_at     REAL    NOT NULL,
        status        TEXT    NOT NULL DEFAULT 'in', -- in|withdrawn|dropped
        left_at       REAL,
        PRIMARY KEY (tournament_id, user_id)
    );
    CREATE INDEX tournament_entrants_user ON tournament_entrants (guild_id, user_id);
    CREATE TABLE tournament_rounds (                 -- a round seated once
        tournament_id TEXT    NOT NULL,
        round_no      INTEGER NOT NULL,
        seated_at     REAL    NOT NULL,
        finished_at   REAL,                          -- every table finished (claimed once)
        PRIMARY KEY (tournament_id, round_no)
    );
    CREATE TABLE tournament_tables (
        tournament_id TEXT    NOT NULL,
        round_no      INTEGER NOT NULL,
        table_no      INTEGER NOT NULL,
        seat0         INTEGER,                       -- user ids; NULL: a computer
        seat1         INTEGER,
        seat2         INTEGER,
        opened_at     REAL,                          -- claimed once by its opener
        thread_id     INTEGER,
        table_id      TEXT,                          -- the game table
        finished_at   REAL,
        points0       INTEGER,                       -- points won per seat, once finished
        points1       INTEGER,
        points2       INTEGER,
        PRIMARY KEY (tournament_id, round_no, table_no)
    );
    CREATE INDEX tournament_tables_table ON tournament_tables (table_id);
    CREATE TABLE tournament_hands (                  -- each settled hand, once
        tournament_id TEXT    NOT NULL,
        round_no      INTEGER NOT NULL,
        table_no      INTEGER NOT NULL,
        hand          INTEGER NOT NULL,              -- 1 … hands, at that table
        hand_no       INTEGER NOT NULL,              -- the server's hand number (replay)
        points0       INTEGER NOT NULL,
        points1       INTEGER NOT NULL,
        points2       INTEGER NOT NULL,
        PRIMARY KEY (tournament_id, round_no, table_no, hand)
    );
    """,
    # 13: issue 49 — each feature's own server settings in one JSON column by feature name
    # (GuildSettings.features, typed by each wing's FeatureSettings): the daily deal's
    # level and channel move there, only the values other than the defaults (hard, no
    # channel). Its two columns stay, no longer read or written: nothing is lost.
    """
    ALTER TABLE guild_settings ADD COLUMN features TEXT NOT NULL DEFAULT '{}';
    UPDATE guild_settings SET features = json_object('daily', json_patch('{}', json_object(
        'level', NULLIF(daily_level, 'hard'), 'channel', daily_channel)))
     WHERE daily_level <> 'hard' OR daily_channel IS NOT NULL;
    """,
]
