CREATE TABLE __SCHEMA__.daily_days (
    guild_id bigint NOT NULL,
    day text NOT NULL,
    level text NOT NULL,
    rules text NOT NULL
);



CREATE TABLE __SCHEMA__.daily_keys (
    guild_id bigint NOT NULL,
    secret text NOT NULL
);



CREATE TABLE __SCHEMA__.daily_plays (
    guild_id bigint NOT NULL,
    day text NOT NULL,
    user_id bigint NOT NULL,
    table_id text NOT NULL,
    level text NOT NULL,
    started_at double precision NOT NULL,
    finished_at double precision,
    points integer,
    moves integer,
    won integer,
    hand text
);



CREATE TABLE __SCHEMA__.daily_posts (
    guild_id bigint NOT NULL,
    day text NOT NULL
);



CREATE TABLE __SCHEMA__.display_names (
    guild_id bigint NOT NULL,
    user_id bigint NOT NULL,
    name text NOT NULL,
    updated_at double precision NOT NULL
);



CREATE TABLE __SCHEMA__.event_entries (
    event_id text NOT NULL,
    user_id bigint NOT NULL,
    guild_id bigint NOT NULL,
    joined_at double precision NOT NULL
);



CREATE TABLE __SCHEMA__.event_plays (
    event_id text NOT NULL,
    deal integer NOT NULL,
    user_id bigint NOT NULL,
    guild_id bigint NOT NULL,
    table_id text NOT NULL,
    started_at double precision NOT NULL,
    finished_at double precision,
    points integer,
    moves integer,
    hand text
);



CREATE TABLE __SCHEMA__.event_standins (
    event_id text NOT NULL,
    deal integer NOT NULL,
    points integer NOT NULL,
    hand text NOT NULL
);



CREATE TABLE __SCHEMA__.events (
    event_id text NOT NULL,
    guild_id bigint NOT NULL,
    channel_id bigint NOT NULL,
    name text NOT NULL,
    deals integer NOT NULL,
    level text NOT NULL,
    created_by bigint NOT NULL,
    created_at double precision NOT NULL,
    closes_at double precision NOT NULL,
    closed_at double precision,
    announced_at double precision,
    rules text
);



CREATE TABLE __SCHEMA__.finished_hands (
    hand_id text NOT NULL,
    guild_id bigint NOT NULL,
    table_id text NOT NULL,
    match_no integer NOT NULL,
    finished_at double precision NOT NULL,
    hand text NOT NULL,
    settlement text NOT NULL,
    hand_no integer,
    channel_id bigint
);



CREATE TABLE __SCHEMA__.guild_match (
    guild_id bigint NOT NULL,
    match_no integer NOT NULL,
    hands integer DEFAULT 0 NOT NULL,
    started_at double precision NOT NULL
);



CREATE TABLE __SCHEMA__.guild_settings (
    guild_id bigint NOT NULL,
    turn_seconds_play integer NOT NULL,
    turn_seconds_bid integer NOT NULL,
    rules text NOT NULL,
    language text,
    counter integer DEFAULT 1 NOT NULL,
    web integer DEFAULT 0 NOT NULL,
    timezone text,
    daily_level text DEFAULT 'hard'::text NOT NULL,
    daily_channel bigint,
    turn_ping text DEFAULT 'after'::text NOT NULL,
    turn_ping_after integer DEFAULT 10 NOT NULL
);



CREATE TABLE __SCHEMA__.hand_players (
    hand_id text NOT NULL,
    seat integer NOT NULL,
    user_id bigint,
    role text NOT NULL,
    points integer NOT NULL,
    total integer,
    mu double precision,
    sigma double precision,
    computer text
);



CREATE TABLE __SCHEMA__.ledger (
    guild_id bigint NOT NULL,
    match_no integer NOT NULL,
    user_id bigint NOT NULL,
    total integer DEFAULT 0 NOT NULL,
    hands integer DEFAULT 0 NOT NULL
);



CREATE TABLE __SCHEMA__.match_results (
    guild_id bigint NOT NULL,
    match_no integer NOT NULL,
    target integer NOT NULL,
    hands integer NOT NULL,
    ended_at double precision NOT NULL,
    ended_by text DEFAULT 'target'::text NOT NULL,
    match_hands integer
);



CREATE TABLE __SCHEMA__.match_winners (
    guild_id bigint NOT NULL,
    match_no integer NOT NULL,
    user_id bigint NOT NULL,
    total integer NOT NULL
);



CREATE TABLE __SCHEMA__.member_pings (
    guild_id bigint NOT NULL,
    user_id bigint NOT NULL,
    notify integer NOT NULL
);



CREATE TABLE __SCHEMA__.member_prefs (
    guild_id bigint NOT NULL,
    user_id bigint NOT NULL,
    autoplay_pace double precision NOT NULL
);



CREATE TABLE __SCHEMA__.open_tables (
    table_id text NOT NULL,
    guild_id bigint NOT NULL,
    channel_id bigint NOT NULL,
    state text NOT NULL,
    created_at double precision NOT NULL,
    updated_at double precision NOT NULL
);



CREATE TABLE __SCHEMA__.player_stats (
    guild_id bigint NOT NULL,
    user_id bigint NOT NULL,
    hands integer DEFAULT 0 NOT NULL,
    hands_landlord integer DEFAULT 0 NOT NULL,
    wins_landlord integer DEFAULT 0 NOT NULL,
    wins_peasant integer DEFAULT 0 NOT NULL,
    springs integer DEFAULT 0 NOT NULL,
    bombs integer DEFAULT 0 NOT NULL,
    net_points integer DEFAULT 0 NOT NULL,
    best_hand integer DEFAULT 0 NOT NULL,
    matches_won integer DEFAULT 0 NOT NULL
);



CREATE TABLE __SCHEMA__.puzzle_attempts (
    attempt_id text NOT NULL,
    guild_id bigint NOT NULL,
    user_id bigint NOT NULL,
    puzzle_id text NOT NULL,
    mode text NOT NULL,
    day text NOT NULL,
    started_at double precision NOT NULL,
    finished_at double precision,
    solved integer DEFAULT 0 NOT NULL,
    line text DEFAULT '[]'::text NOT NULL,
    plies integer DEFAULT 0 NOT NULL,
    moves integer DEFAULT 0 NOT NULL
);



CREATE TABLE __SCHEMA__.puzzle_players (
    guild_id bigint NOT NULL,
    user_id bigint NOT NULL,
    rating double precision NOT NULL,
    deviation double precision NOT NULL,
    volatility double precision NOT NULL,
    attempts integer NOT NULL,
    solved integer NOT NULL
);



CREATE TABLE __SCHEMA__.puzzle_ratings (
    puzzle_id text NOT NULL,
    rating double precision NOT NULL,
    deviation double precision NOT NULL,
    volatility double precision NOT NULL,
    attempts integer NOT NULL,
    solved integer NOT NULL
);



CREATE TABLE __SCHEMA__.ratings (
    guild_id bigint NOT NULL,
    player text NOT NULL,
    user_id bigint,
    mu double precision NOT NULL,
    sigma double precision NOT NULL,
    hands integer NOT NULL,
    updated_at double precision NOT NULL
);



CREATE TABLE __SCHEMA__.schema_version (
    version integer NOT NULL
);



CREATE TABLE __SCHEMA__.tournament_entrants (
    tournament_id text NOT NULL,
    user_id bigint NOT NULL,
    guild_id bigint NOT NULL,
    joined_at double precision NOT NULL,
    status text DEFAULT 'in'::text NOT NULL,
    left_at double precision
);



CREATE TABLE __SCHEMA__.tournament_hands (
    tournament_id text NOT NULL,
    round_no integer NOT NULL,
    table_no integer NOT NULL,
    hand integer NOT NULL,
    hand_no integer NOT NULL,
    points0 integer NOT NULL,
    points1 integer NOT NULL,
    points2 integer NOT NULL
);



CREATE TABLE __SCHEMA__.tournament_rounds (
    tournament_id text NOT NULL,
    round_no integer NOT NULL,
    seated_at double precision NOT NULL,
    finished_at double precision
);



CREATE TABLE __SCHEMA__.tournament_tables (
    tournament_id text NOT NULL,
    round_no integer NOT NULL,
    table_no integer NOT NULL,
    seat0 bigint,
    seat1 bigint,
    seat2 bigint,
    opened_at double precision,
    thread_id bigint,
    table_id text,
    finished_at double precision,
    points0 integer,
    points1 integer,
    points2 integer
);



CREATE TABLE __SCHEMA__.tournaments (
    tournament_id text NOT NULL,
    guild_id bigint NOT NULL,
    number integer NOT NULL,
    channel_id bigint NOT NULL,
    name text NOT NULL,
    rounds integer NOT NULL,
    hands integer NOT NULL,
    level text NOT NULL,
    created_by bigint NOT NULL,
    created_at double precision NOT NULL,
    starts_at double precision,
    seed bigint NOT NULL,
    status text DEFAULT 'open'::text NOT NULL,
    current_round integer DEFAULT 0 NOT NULL,
    started_at double precision,
    ended_at double precision,
    signup_message_id bigint,
    announced_at double precision,
    rules text
);



CREATE TABLE __SCHEMA__.turn_pings (
    table_id text NOT NULL,
    guild_id bigint NOT NULL,
    channel_id bigint NOT NULL,
    user_id bigint NOT NULL,
    move_seq integer NOT NULL,
    message_id bigint NOT NULL
);



INSERT INTO __SCHEMA__.daily_days VALUES (1, '2026-12-01', 'hard', '{"kickers":"default","bidding":"once","target_points":30,"match_hands":null}');



INSERT INTO __SCHEMA__.daily_keys VALUES (1, 'abababababababababababababababababababababababababababababababab');



INSERT INTO __SCHEMA__.daily_plays VALUES (1, '2026-12-01', 101, '55036c11', 'hard', 1796526309.4163377, 1796526309.4170015, -12, 3, 0, '{"rules":{"kickers":"default","bidding":"once","target_points":30,"match_hands":null},"seed":5,"first_bidder":0,"redeals":0,"phase":"playing","turn":0,"dealt":[["5h","5c","7h","7d","9h","9c","Ts","Tc","Js","Qh","Ks","Kd","Ah","2h","2d","X","D"],["3s","3d","4s","4h","4d","5s","6s","6h","6d","7c","8s","8h","9d","Jc","Qs","Qd","Ad"],["3h","3c","4c","5d","6c","8d","8c","9s","Th","Td","Jh","Jd","Kh","Kc","As","2s","2c"]],"holdings":[["5h","5c","7s","7h","7d","9h","9c","Ts","Tc","Js","Qh","Qc","Ks","Kd","Ah","Ac","2h","2d","X","D"],["3s","3d","4s","4h","4d","5s","6s","6h","6d","7c","8s","8h","9d","Jc","Qs","Qd","Ad"],["3h","3c","4c","5d","6c","8d","8c","9s","Th","Td","Jh","Jd","Kh","Kc","As","2s","2c"]],"kitty":["7s","Qc","Ac"],"landlord":0,"winning_bid":3,"high_bidder":0,"history":[{"kind":"bid","seat":0,"amount":3,"combo":null,"auto":false}],"last_play":null,"passes":0,"round_plays":[null,null,null],"doublings":0,"bombs":0,"rockets":0,"result":null}');



INSERT INTO __SCHEMA__.daily_posts VALUES (1, '2026-12-01');



INSERT INTO __SCHEMA__.display_names VALUES (8388608, 201, 'user201', 1796526309.3831425);
INSERT INTO __SCHEMA__.display_names VALUES (1, 301, 'user301', 1796526309.3849406);
INSERT INTO __SCHEMA__.display_names VALUES (1, 303, 'user303', 1796526309.3849406);
INSERT INTO __SCHEMA__.display_names VALUES (1, 101, 'u101', 101);
INSERT INTO __SCHEMA__.display_names VALUES (1, 102, 'u102', 102);
INSERT INTO __SCHEMA__.display_names VALUES (1, 103, 'u103', 103);



INSERT INTO __SCHEMA__.event_entries VALUES ('ev01', 101, 1, 1);



INSERT INTO __SCHEMA__.event_plays VALUES ('ev01', 1, 101, 1, '33575b8f', 1, 1796526309.4244866, 6, 4, '{"rules":{"kickers":"default","bidding":"once","target_points":30,"match_hands":null},"seed":5,"first_bidder":0,"redeals":0,"phase":"playing","turn":0,"dealt":[["5h","5c","7h","7d","9h","9c","Ts","Tc","Js","Qh","Ks","Kd","Ah","2h","2d","X","D"],["3s","3d","4s","4h","4d","5s","6s","6h","6d","7c","8s","8h","9d","Jc","Qs","Qd","Ad"],["3h","3c","4c","5d","6c","8d","8c","9s","Th","Td","Jh","Jd","Kh","Kc","As","2s","2c"]],"holdings":[["5h","5c","7s","7h","7d","9h","9c","Ts","Tc","Js","Qh","Qc","Ks","Kd","Ah","Ac","2h","2d","X","D"],["3s","3d","4s","4h","4d","5s","6s","6h","6d","7c","8s","8h","9d","Jc","Qs","Qd","Ad"],["3h","3c","4c","5d","6c","8d","8c","9s","Th","Td","Jh","Jd","Kh","Kc","As","2s","2c"]],"kitty":["7s","Qc","Ac"],"landlord":0,"winning_bid":3,"high_bidder":0,"history":[{"kind":"bid","seat":0,"amount":3,"combo":null,"auto":false}],"last_play":null,"passes":0,"round_plays":[null,null,null],"doublings":0,"bombs":0,"rockets":0,"result":null}');



INSERT INTO __SCHEMA__.event_standins VALUES ('ev01', 2, -3, '{}');



INSERT INTO __SCHEMA__.events VALUES ('ev01', 1, 7, 'Cup', 2, 'hard', 101, 0, 3600, NULL, NULL, '{"kickers":"distinct","bidding":"once","target_points":30,"match_hands":null}');



INSERT INTO __SCHEMA__.finished_hands VALUES ('t-0', 1, 't', 1, 1796526309.3433185, '{"landlord":0,"result":{"winner":"peasants","landlord":0,"out_seat":0,"base":2,"doublings":3,"bombs":3,"rockets":0,"spring":false,"anti_spring":false,"points":[-32,16,16]},"history":[{"kind":"bid","seat":0,"amount":2,"combo":null,"auto":false},{"kind":"play","seat":1,"amount":null,"combo":{"kind":"bomb","length":1,"rank":"4","cards":["4s","4h","4d","4c"]},"auto":false},{"kind":"play","seat":2,"amount":null,"combo":{"kind":"bomb","length":1,"rank":"4","cards":["4s","4h","4d","4c"]},"auto":false},{"kind":"play","seat":1,"amount":null,"combo":{"kind":"bomb","length":1,"rank":"4","cards":["4s","4h","4d","4c"]},"auto":false},{"kind":"play","seat":0,"amount":null,"combo":{"kind":"single","length":1,"rank":"3","cards":["3s"]},"auto":false}]}', '{"hand_id":"t-0","guild_id":1,"table_id":"t","match_no":1,"changes":[{"seat":0,"user_id":101,"name":"user101","role":"landlord","points":-32,"total":-32},{"seat":1,"user_id":102,"name":"user102","role":"peasant","points":16,"total":16},{"seat":2,"user_id":103,"name":"user103","role":"peasant","points":16,"total":16}],"winner":"peasants","match_over":false,"winners":[],"final_totals":{},"target":30,"match_hands":null,"replayed":false,"hand_no":1}', 1, 10);
INSERT INTO __SCHEMA__.finished_hands VALUES ('t-1', 1, 't', 1, 1796526309.360432, '{"landlord":0,"result":{"winner":"peasants","landlord":0,"out_seat":0,"base":2,"doublings":3,"bombs":3,"rockets":0,"spring":false,"anti_spring":false,"points":[-32,16,16]},"history":[{"kind":"bid","seat":0,"amount":2,"combo":null,"auto":false},{"kind":"play","seat":1,"amount":null,"combo":{"kind":"bomb","length":1,"rank":"4","cards":["4s","4h","4d","4c"]},"auto":false},{"kind":"play","seat":2,"amount":null,"combo":{"kind":"bomb","length":1,"rank":"4","cards":["4s","4h","4d","4c"]},"auto":false},{"kind":"play","seat":1,"amount":null,"combo":{"kind":"bomb","length":1,"rank":"4","cards":["4s","4h","4d","4c"]},"auto":false},{"kind":"play","seat":0,"amount":null,"combo":{"kind":"single","length":1,"rank":"3","cards":["3s"]},"auto":false}]}', '{"hand_id":"t-1","guild_id":1,"table_id":"t","match_no":1,"changes":[{"seat":0,"user_id":101,"name":"user101","role":"landlord","points":-32,"total":-64},{"seat":1,"user_id":102,"name":"user102","role":"peasant","points":16,"total":32},{"seat":2,"user_id":103,"name":"user103","role":"peasant","points":16,"total":32}],"winner":"peasants","match_over":true,"winners":[102,103],"final_totals":{"101":-64,"102":32,"103":32},"target":30,"match_hands":null,"replayed":false,"hand_no":2}', 2, 10);
INSERT INTO __SCHEMA__.finished_hands VALUES ('t-2', 1, 't1', 2, 1796526309.3729327, '{"landlord":0,"result":{"winner":"landlord","landlord":0,"out_seat":0,"base":1,"doublings":1,"bombs":0,"rockets":0,"spring":true,"anti_spring":false,"points":[4,-2,-2]},"history":[{"kind":"bid","seat":0,"amount":1,"combo":null,"auto":false},{"kind":"play","seat":0,"amount":null,"combo":{"kind":"single","length":1,"rank":"3","cards":["3s"]},"auto":false}]}', '{"hand_id":"t-2","guild_id":1,"table_id":"t1","match_no":2,"changes":[{"seat":0,"user_id":101,"name":"user101","role":"landlord","points":4,"total":4},{"seat":1,"user_id":102,"name":"user102","role":"peasant","points":-2,"total":-2},{"seat":2,"user_id":103,"name":"user103","role":"peasant","points":-2,"total":-2}],"winner":"landlord","match_over":false,"winners":[],"final_totals":{},"target":30,"match_hands":null,"replayed":false,"hand_no":3}', 3, 10);
INSERT INTO __SCHEMA__.finished_hands VALUES ('c-1', 8388608, 'c', 1, 1796526309.3831425, '{"landlord":1,"result":{"winner":"landlord","landlord":1,"out_seat":1,"base":1,"doublings":0,"bombs":0,"rockets":0,"spring":false,"anti_spring":false,"points":[-1,2,-1]},"history":[{"kind":"bid","seat":1,"amount":1,"combo":null,"auto":false},{"kind":"play","seat":1,"amount":null,"combo":{"kind":"single","length":1,"rank":"3","cards":["3s"]},"auto":false}]}', '{"hand_id":"c-1","guild_id":8388608,"table_id":"c","match_no":1,"changes":[{"seat":0,"user_id":null,"name":"Bot 0","role":"peasant","points":-1,"total":null},{"seat":1,"user_id":201,"name":"user201","role":"landlord","points":2,"total":2},{"seat":2,"user_id":null,"name":"Bot 2","role":"peasant","points":-1,"total":null}],"winner":"landlord","match_over":false,"winners":[],"final_totals":{},"target":10,"match_hands":null,"replayed":false,"hand_no":1}', 1, 83886080);
INSERT INTO __SCHEMA__.finished_hands VALUES ('f-1', 1, 'f', 2, 1796526309.3849406, '{"landlord":0,"result":{"winner":"landlord","landlord":0,"out_seat":0,"base":1,"doublings":0,"bombs":0,"rockets":0,"spring":false,"anti_spring":false,"points":[2,-1,-1]},"history":[{"kind":"bid","seat":0,"amount":1,"combo":null,"auto":false},{"kind":"play","seat":0,"amount":null,"combo":{"kind":"single","length":1,"rank":"3","cards":["3s"]},"auto":false}]}', '{"hand_id": "f-1", "guild_id": 1, "table_id": "f", "match_no": 2, "changes": [{"seat": 0, "user_id": 301, "name": "user301", "role": "landlord", "points": 2, "total": 2}, {"seat": 1, "user_id": null, "name": "?", "role": "peasant", "points": -1, "total": null}, {"seat": 2, "user_id": 303, "name": "user303", "role": "peasant", "points": -1, "total": -1}], "winner": "landlord", "match_over": false, "winners": [], "final_totals": {}, "target": 30, "match_hands": null, "replayed": false, "hand_no": 4}', 4, 10);



INSERT INTO __SCHEMA__.guild_match VALUES (8388608, 1, 1, 1796526309.3831425);
INSERT INTO __SCHEMA__.guild_match VALUES (1, 2, 2, 1796526309.360432);



INSERT INTO __SCHEMA__.guild_settings VALUES (1, 45, 30, '{"kickers":"default","bidding":"once","target_points":30,"match_hands":null}', 'es', 0, 0, 'Europe/Madrid', 'normal', 7, 'after', 10);
INSERT INTO __SCHEMA__.guild_settings VALUES (8388608, 60, 30, '{"kickers":"distinct","bidding":"once","target_points":10,"match_hands":null}', NULL, 1, 0, NULL, 'hard', NULL, 'after', 10);



INSERT INTO __SCHEMA__.hand_players VALUES ('t-0', 0, 101, 'landlord', -32, -32, 22.772727540018934, 8.173105088484618, NULL);
INSERT INTO __SCHEMA__.hand_players VALUES ('t-0', 1, 102, 'peasant', 16, 16, 27.227272459981066, 8.105642895275782, NULL);
INSERT INTO __SCHEMA__.hand_players VALUES ('t-0', 2, 103, 'peasant', 16, 16, 27.227272459981066, 8.105642895275782, NULL);
INSERT INTO __SCHEMA__.hand_players VALUES ('t-1', 0, 101, 'landlord', -32, -64, 21.00471622028529, 8.02098314412179, NULL);
INSERT INTO __SCHEMA__.hand_players VALUES ('t-1', 1, 102, 'peasant', 16, 32, 28.96622032850103, 7.896624329713651, NULL);
INSERT INTO __SCHEMA__.hand_players VALUES ('t-1', 2, 103, 'peasant', 16, 32, 28.96622032850103, 7.896624329713651, NULL);
INSERT INTO __SCHEMA__.hand_players VALUES ('t-2', 0, 101, 'landlord', 4, 4, 23.887737278790375, 7.8835878503260775, NULL);
INSERT INTO __SCHEMA__.hand_players VALUES ('t-2', 1, 102, 'peasant', -2, -2, 26.17189446561297, 7.713401490758542, NULL);
INSERT INTO __SCHEMA__.hand_players VALUES ('t-2', 2, 103, 'peasant', -2, -2, 26.17189446561297, 7.713401490758542, NULL);
INSERT INTO __SCHEMA__.hand_players VALUES ('c-1', 0, NULL, 'peasant', -1, NULL, 22.772727540018934, 8.105642895275782, 'normal');
INSERT INTO __SCHEMA__.hand_players VALUES ('c-1', 1, 201, 'landlord', 2, 2, 27.227272459981066, 8.173105088484618, NULL);
INSERT INTO __SCHEMA__.hand_players VALUES ('c-1', 2, NULL, 'peasant', -1, NULL, 22.772727540018934, 8.105642895275782, 'normal');
INSERT INTO __SCHEMA__.hand_players VALUES ('f-1', 0, 301, 'landlord', 2, 2, 27.227272459981066, 8.173105088484618, NULL);
INSERT INTO __SCHEMA__.hand_players VALUES ('f-1', 2, 303, 'peasant', -1, -1, 22.772727540018934, 8.105642895275782, NULL);
INSERT INTO __SCHEMA__.hand_players VALUES ('f-1', 1, NULL, 'peasant', -1, NULL, NULL, NULL, NULL);



INSERT INTO __SCHEMA__.ledger VALUES (1, 1, 101, -64, 2);
INSERT INTO __SCHEMA__.ledger VALUES (1, 1, 102, 32, 2);
INSERT INTO __SCHEMA__.ledger VALUES (1, 1, 103, 32, 2);
INSERT INTO __SCHEMA__.ledger VALUES (1, 2, 101, 4, 1);
INSERT INTO __SCHEMA__.ledger VALUES (1, 2, 102, -2, 1);
INSERT INTO __SCHEMA__.ledger VALUES (1, 2, 103, -2, 1);
INSERT INTO __SCHEMA__.ledger VALUES (8388608, 1, 201, 2, 1);
INSERT INTO __SCHEMA__.ledger VALUES (1, 2, 301, 2, 1);
INSERT INTO __SCHEMA__.ledger VALUES (1, 2, 303, -1, 1);



INSERT INTO __SCHEMA__.match_results VALUES (1, 1, 30, 2, 1796526309.360432, 'target', NULL);



INSERT INTO __SCHEMA__.match_winners VALUES (1, 1, 102, 32);
INSERT INTO __SCHEMA__.match_winners VALUES (1, 1, 103, 32);



INSERT INTO __SCHEMA__.member_pings VALUES (1, 101, 0);



INSERT INTO __SCHEMA__.member_prefs VALUES (1, 101, 4.5);



INSERT INTO __SCHEMA__.open_tables VALUES ('t', 1, 10, '{"id":"t","guild_id":1,"channel_id":10,"seats":[{"user_id":101,"name":"user101","computer":null},{"user_id":102,"name":"user102","computer":null},{"user_id":103,"name":"user103","computer":null}],"hand":{"landlord":0,"result":{"winner":"peasants","landlord":0,"out_seat":0,"base":2,"doublings":3,"bombs":3,"rockets":0,"spring":false,"anti_spring":false,"points":[-32,16,16]},"history":[{"kind":"bid","seat":0,"amount":2,"combo":null,"auto":false},{"kind":"play","seat":1,"amount":null,"combo":{"kind":"bomb","length":1,"rank":"4","cards":["4s","4h","4d","4c"]},"auto":false},{"kind":"play","seat":2,"amount":null,"combo":{"kind":"bomb","length":1,"rank":"4","cards":["4s","4h","4d","4c"]},"auto":false},{"kind":"play","seat":1,"amount":null,"combo":{"kind":"bomb","length":1,"rank":"4","cards":["4s","4h","4d","4c"]},"auto":false},{"kind":"play","seat":0,"amount":null,"combo":{"kind":"single","length":1,"rank":"3","cards":["3s"]},"auto":false}]},"seq":7,"tournament":null}', 1796526309.3433185, 1796526309.360432);
INSERT INTO __SCHEMA__.open_tables VALUES ('t1', 1, 10, '{"id":"t1","guild_id":1,"channel_id":10,"seats":[{"user_id":101,"name":"user101","computer":null},{"user_id":102,"name":"user102","computer":null},{"user_id":103,"name":"user103","computer":null}],"hand":{"landlord":0,"result":{"winner":"landlord","landlord":0,"out_seat":0,"base":1,"doublings":1,"bombs":0,"rockets":0,"spring":true,"anti_spring":false,"points":[4,-2,-2]},"history":[{"kind":"bid","seat":0,"amount":1,"combo":null,"auto":false},{"kind":"play","seat":0,"amount":null,"combo":{"kind":"single","length":1,"rank":"3","cards":["3s"]},"auto":false}]},"seq":7,"tournament":null}', 1796526309.3729327, 1796526309.3729327);
INSERT INTO __SCHEMA__.open_tables VALUES ('c', 8388608, 83886080, '{"id":"c","guild_id":8388608,"channel_id":83886080,"seats":[{"user_id":null,"name":"Bot 0","computer":"normal"},{"user_id":201,"name":"user201","computer":null},{"user_id":null,"name":"Bot 2","computer":"normal"}],"hand":{"landlord":1,"result":{"winner":"landlord","landlord":1,"out_seat":1,"base":1,"doublings":0,"bombs":0,"rockets":0,"spring":false,"anti_spring":false,"points":[-1,2,-1]},"history":[{"kind":"bid","seat":1,"amount":1,"combo":null,"auto":false},{"kind":"play","seat":1,"amount":null,"combo":{"kind":"single","length":1,"rank":"3","cards":["3s"]},"auto":false}]},"seq":7,"tournament":null}', 1796526309.3831425, 1796526309.3831425);
INSERT INTO __SCHEMA__.open_tables VALUES ('f', 1, 10, '{"id":"f","guild_id":1,"channel_id":10,"seats":[{"user_id":301,"name":"user301","computer":null},{"user_id":302,"name":"user302","computer":null},{"user_id":303,"name":"user303","computer":null}],"hand":{"landlord":0,"result":{"winner":"landlord","landlord":0,"out_seat":0,"base":1,"doublings":0,"bombs":0,"rockets":0,"spring":false,"anti_spring":false,"points":[2,-1,-1]},"history":[{"kind":"bid","seat":0,"amount":1,"combo":null,"auto":false},{"kind":"play","seat":0,"amount":null,"combo":{"kind":"single","length":1,"rank":"3","cards":["3s"]},"auto":false}]},"seq":7,"tournament":null}', 1796526309.3849406, 1796526309.3849406);
INSERT INTO __SCHEMA__.open_tables VALUES ('open', 12582912, 125829120, '{"id":"open","guild_id":12582912,"channel_id":125829120,"seats":[{"user_id":101,"name":"user101","computer":null},{"user_id":102,"name":"user102","computer":null},{"user_id":103,"name":"user103","computer":null}],"hand":{"landlord":0,"result":{"winner":"landlord","landlord":0,"out_seat":0,"base":1,"doublings":0,"bombs":0,"rockets":0,"spring":false,"anti_spring":false,"points":[2,-1,-1]},"history":[{"kind":"bid","seat":0,"amount":1,"combo":null,"auto":false},{"kind":"play","seat":0,"amount":null,"combo":{"kind":"single","length":1,"rank":"3","cards":["3s"]},"auto":false}]},"seq":3,"tournament":null}', 1796526309.4073622, 1796526309.4073622);



INSERT INTO __SCHEMA__.player_stats VALUES (1, 101, 3, 3, 1, 0, 1, 0, -60, 4, 0);
INSERT INTO __SCHEMA__.player_stats VALUES (1, 102, 3, 0, 0, 2, 0, 4, 30, 16, 1);
INSERT INTO __SCHEMA__.player_stats VALUES (1, 103, 3, 0, 0, 2, 0, 2, 30, 16, 1);
INSERT INTO __SCHEMA__.player_stats VALUES (8388608, 201, 1, 1, 1, 0, 0, 0, 2, 2, 0);
INSERT INTO __SCHEMA__.player_stats VALUES (1, 301, 1, 1, 1, 0, 0, 0, 2, 2, 0);
INSERT INTO __SCHEMA__.player_stats VALUES (1, 303, 1, 0, 0, 0, 0, 0, -1, 0, 0);



INSERT INTO __SCHEMA__.puzzle_attempts VALUES ('pz1', 1, 101, 'p1', 'daily', '2026-12-01', 5, 9, 1, '[]', 0, 1);



INSERT INTO __SCHEMA__.puzzle_players VALUES (1, 101, 1600, 350, 0.06, 1, 1);



INSERT INTO __SCHEMA__.puzzle_ratings VALUES ('p1', 1500, 350, 0.06, 1, 0);



INSERT INTO __SCHEMA__.ratings VALUES (1, 'member:101', 101, 23.887737278790375, 7.8835878503260775, 3, 1796526309.3729327);
INSERT INTO __SCHEMA__.ratings VALUES (1, 'member:102', 102, 26.17189446561297, 7.713401490758542, 3, 1796526309.3729327);
INSERT INTO __SCHEMA__.ratings VALUES (1, 'member:103', 103, 26.17189446561297, 7.713401490758542, 3, 1796526309.3729327);
INSERT INTO __SCHEMA__.ratings VALUES (8388608, 'computer:normal', NULL, 22.772727540018934, 8.105642895275782, 1, 1796526309.3831425);
INSERT INTO __SCHEMA__.ratings VALUES (8388608, 'member:201', 201, 27.227272459981066, 8.173105088484618, 1, 1796526309.3831425);
INSERT INTO __SCHEMA__.ratings VALUES (1, 'member:301', 301, 27.227272459981066, 8.173105088484618, 1, 1796526309.3849406);
INSERT INTO __SCHEMA__.ratings VALUES (1, 'member:303', 303, 22.772727540018934, 8.105642895275782, 1, 1796526309.3849406);



INSERT INTO __SCHEMA__.schema_version VALUES (12);



INSERT INTO __SCHEMA__.tournament_entrants VALUES ('to1', 101, 1, 101, 'in', NULL);
INSERT INTO __SCHEMA__.tournament_entrants VALUES ('to1', 102, 1, 102, 'in', NULL);
INSERT INTO __SCHEMA__.tournament_entrants VALUES ('to1', 103, 1, 103, 'in', NULL);



INSERT INTO __SCHEMA__.tournament_hands VALUES ('to1', 1, 1, 1, 3, 4, -2, -2);



INSERT INTO __SCHEMA__.tournament_rounds VALUES ('to1', 1, 201, 204);



INSERT INTO __SCHEMA__.tournament_tables VALUES ('to1', 1, 1, 101, 102, 103, 202, 9001, 'tt1', 203, 4, -2, -2);



INSERT INTO __SCHEMA__.tournaments VALUES ('to1', 1, 1, 7, 'Cup', 2, 1, 'normal', 101, 0, 600, 5, 'running', 1, 200, NULL, NULL, NULL, '{"kickers":"default","bidding":"once","target_points":30,"match_hands":null}');



INSERT INTO __SCHEMA__.turn_pings VALUES ('open', 12582912, 8, 101, 3, 99);



ALTER TABLE ONLY __SCHEMA__.daily_days
    ADD CONSTRAINT daily_days_pkey PRIMARY KEY (guild_id, day);



ALTER TABLE ONLY __SCHEMA__.daily_keys
    ADD CONSTRAINT daily_keys_pkey PRIMARY KEY (guild_id);



ALTER TABLE ONLY __SCHEMA__.daily_plays
    ADD CONSTRAINT daily_plays_pkey PRIMARY KEY (guild_id, day, user_id);



ALTER TABLE ONLY __SCHEMA__.daily_posts
    ADD CONSTRAINT daily_posts_pkey PRIMARY KEY (guild_id, day);



ALTER TABLE ONLY __SCHEMA__.display_names
    ADD CONSTRAINT display_names_pkey PRIMARY KEY (guild_id, user_id);



ALTER TABLE ONLY __SCHEMA__.event_entries
    ADD CONSTRAINT event_entries_pkey PRIMARY KEY (event_id, user_id);



ALTER TABLE ONLY __SCHEMA__.event_plays
    ADD CONSTRAINT event_plays_pkey PRIMARY KEY (event_id, deal, user_id);



ALTER TABLE ONLY __SCHEMA__.event_standins
    ADD CONSTRAINT event_standins_pkey PRIMARY KEY (event_id, deal);



ALTER TABLE ONLY __SCHEMA__.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (event_id);



ALTER TABLE ONLY __SCHEMA__.finished_hands
    ADD CONSTRAINT finished_hands_pkey PRIMARY KEY (hand_id);



ALTER TABLE ONLY __SCHEMA__.guild_match
    ADD CONSTRAINT guild_match_pkey PRIMARY KEY (guild_id);



ALTER TABLE ONLY __SCHEMA__.guild_settings
    ADD CONSTRAINT guild_settings_pkey PRIMARY KEY (guild_id);



ALTER TABLE ONLY __SCHEMA__.hand_players
    ADD CONSTRAINT hand_players_pkey PRIMARY KEY (hand_id, seat);



ALTER TABLE ONLY __SCHEMA__.ledger
    ADD CONSTRAINT ledger_pkey PRIMARY KEY (guild_id, match_no, user_id);



ALTER TABLE ONLY __SCHEMA__.match_results
    ADD CONSTRAINT match_results_pkey PRIMARY KEY (guild_id, match_no);



ALTER TABLE ONLY __SCHEMA__.match_winners
    ADD CONSTRAINT match_winners_pkey PRIMARY KEY (guild_id, match_no, user_id);



ALTER TABLE ONLY __SCHEMA__.member_pings
    ADD CONSTRAINT member_pings_pkey PRIMARY KEY (guild_id, user_id);



ALTER TABLE ONLY __SCHEMA__.member_prefs
    ADD CONSTRAINT member_prefs_pkey PRIMARY KEY (guild_id, user_id);



ALTER TABLE ONLY __SCHEMA__.open_tables
    ADD CONSTRAINT open_tables_pkey PRIMARY KEY (table_id);



ALTER TABLE ONLY __SCHEMA__.player_stats
    ADD CONSTRAINT player_stats_pkey PRIMARY KEY (guild_id, user_id);



ALTER TABLE ONLY __SCHEMA__.puzzle_attempts
    ADD CONSTRAINT puzzle_attempts_pkey PRIMARY KEY (attempt_id);



ALTER TABLE ONLY __SCHEMA__.puzzle_players
    ADD CONSTRAINT puzzle_players_pkey PRIMARY KEY (guild_id, user_id);



ALTER TABLE ONLY __SCHEMA__.puzzle_ratings
    ADD CONSTRAINT puzzle_ratings_pkey PRIMARY KEY (puzzle_id);



ALTER TABLE ONLY __SCHEMA__.ratings
    ADD CONSTRAINT ratings_pkey PRIMARY KEY (guild_id, player);



ALTER TABLE ONLY __SCHEMA__.tournament_entrants
    ADD CONSTRAINT tournament_entrants_pkey PRIMARY KEY (tournament_id, user_id);



ALTER TABLE ONLY __SCHEMA__.tournament_hands
    ADD CONSTRAINT tournament_hands_pkey PRIMARY KEY (tournament_id, round_no, table_no, hand);



ALTER TABLE ONLY __SCHEMA__.tournament_rounds
    ADD CONSTRAINT tournament_rounds_pkey PRIMARY KEY (tournament_id, round_no);



ALTER TABLE ONLY __SCHEMA__.tournament_tables
    ADD CONSTRAINT tournament_tables_pkey PRIMARY KEY (tournament_id, round_no, table_no);



ALTER TABLE ONLY __SCHEMA__.tournaments
    ADD CONSTRAINT tournaments_pkey PRIMARY KEY (tournament_id);



ALTER TABLE ONLY __SCHEMA__.turn_pings
    ADD CONSTRAINT turn_pings_pkey PRIMARY KEY (table_id);



CREATE INDEX daily_plays_user ON __SCHEMA__.daily_plays USING btree (guild_id, user_id, day);



CREATE INDEX event_entries_user ON __SCHEMA__.event_entries USING btree (guild_id, user_id);



CREATE INDEX events_guild ON __SCHEMA__.events USING btree (guild_id, created_at);



CREATE UNIQUE INDEX events_open ON __SCHEMA__.events USING btree (guild_id) WHERE (announced_at IS NULL);



CREATE INDEX finished_hands_guild ON __SCHEMA__.finished_hands USING btree (guild_id, finished_at);



CREATE UNIQUE INDEX finished_hands_no ON __SCHEMA__.finished_hands USING btree (guild_id, hand_no);



CREATE INDEX hand_players_user ON __SCHEMA__.hand_players USING btree (user_id);



CREATE INDEX open_tables_guild ON __SCHEMA__.open_tables USING btree (guild_id);



CREATE INDEX puzzle_attempts_user ON __SCHEMA__.puzzle_attempts USING btree (guild_id, user_id);



CREATE UNIQUE INDEX puzzle_daily_once ON __SCHEMA__.puzzle_attempts USING btree (guild_id, day, user_id) WHERE (mode = 'daily'::text);



CREATE INDEX ratings_user ON __SCHEMA__.ratings USING btree (user_id);



CREATE INDEX tournament_entrants_user ON __SCHEMA__.tournament_entrants USING btree (guild_id, user_id);



CREATE INDEX tournament_tables_table ON __SCHEMA__.tournament_tables USING btree (table_id);



CREATE UNIQUE INDEX tournaments_live ON __SCHEMA__.tournaments USING btree (guild_id) WHERE (status = ANY (ARRAY['open'::text, 'running'::text]));



CREATE UNIQUE INDEX tournaments_number ON __SCHEMA__.tournaments USING btree (guild_id, number);



ALTER TABLE ONLY __SCHEMA__.hand_players
    ADD CONSTRAINT hand_players_hand_id_fkey FOREIGN KEY (hand_id) REFERENCES __SCHEMA__.finished_hands(hand_id) ON DELETE CASCADE;



ALTER TABLE ONLY __SCHEMA__.match_winners
    ADD CONSTRAINT match_winners_guild_id_match_no_fkey FOREIGN KEY (guild_id, match_no) REFERENCES __SCHEMA__.match_results(guild_id, match_no) ON DELETE CASCADE;
