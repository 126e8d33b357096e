"""Stable reason codes of the computer players, with an English sentence each.

The i18n catalogs copy these as ``reason.<code>``; placeholders in braces are
filled from ``Decision.params`` (``{cards}`` = docs/RULES.md notation, ``{seat}``,
``{n}`` = a count, ``{bid}``).
"""

REASONS: dict[str, str] = {
    # bidding
    "bid_strong_hand": "Strong hand: bid {bid}.",
    "bid_fair_hand": "Playable hand: bid {bid}.",
    "bid_pass_weak_hand": "Hand too weak to be landlord: pass.",
    "bid_pass_outbid": "Cannot bid higher than {bid} with this hand: pass.",
    "bid_win_rate": "As landlord this hand should win about {n}% of the time: bid {bid}.",
    "bid_pass_win_rate": "As landlord this hand would win only about {n}% of the time: pass.",
    "bid_expected": ("Bid {bid}: as landlord this hand should win about {n}% of the time;"
                     " expected points a hand: {gain} if you bid {bid}, {passing} if you pass."),
    "bid_pass_expected": ("Pass: as landlord this hand would win only about {n}% of the time;"
                          " expected points a hand: {gain} if you bid {bid}, {passing} if you"
                          " pass."),
    # the Happy rules' decisions (bot.ai.happy.advise): n = the estimated P(win) in %,
    # need = the threshold the computer decides by (docs/AI.md §Happy rules)
    "happy_call": ("Call the landlord: as landlord this hand should win about {n}% of the"
                   " time; the computer calls from {need}%."),
    "happy_no_call": ("Don't call: as landlord this hand would win only about {n}% of the"
                      " time; the computer calls from {need}%."),
    "happy_grab": ("Grab the landlord (points ×2): as landlord this hand should win about"
                   " {n}% of the time; the computer grabs from {need}%."),
    "happy_no_grab": ("Don't grab: as landlord this hand would win only about {n}% of the"
                      " time; the computer grabs from {need}%."),
    "happy_show_deal": ("Show your hand (points ×4), then call: as landlord it should win"
                        " about {n}% of the time even face up; the computer shows from"
                        " {need}%."),
    "happy_show": ("Show your hand (points ×2): it should win about {n}% of the time even"
                   " face up; the computer shows from {need}%."),
    "happy_keep_hidden": ("Keep your hand hidden: it should win about {n}% of the time, and"
                          " the computer shows only from {need}%."),
    "happy_keep_hidden_cap": "Keep your hand hidden: the stakes are at the cap already.",
    "happy_super_double": ("Super double (points ×4): your side should win about {n}% of"
                           " the time; the computer super doubles from {need}%."),
    "happy_double": ("Double (points ×2): your side should win about {n}% of the time; the"
                     " computer doubles from {need}% and super doubles from {high}%."),
    "happy_no_double": ("No double: your side would win only about {n}% of the time; the"
                        " computer doubles from {need}%."),
    "happy_no_double_cap": "No double: every stake it would raise is at the cap already.",
    # leading
    "finish_hand": "Play {cards}: it empties the hand and wins.",
    "play_control_then_finish": "Play {cards}: nobody can beat it, and the rest goes out next.",
    "lead_lowest_single": "Lead the low single {cards} to get rid of it.",
    "lead_lowest_pair": "Lead the low pair {cards} to get rid of it.",
    "lead_single": "Lead the single {cards} to get rid of it.",
    "lead_pair": "Lead the pair {cards} to get rid of it.",
    "lead_trio": "Lead the trio {cards} with its kicker.",
    "lead_longest_chain": "Lead the chain {cards}: many cards in one play.",
    "lead_airplane": "Lead the airplane {cards}: many cards in one play.",
    "lead_fewest_plays": "Lead {cards}: it leaves the hand with the fewest plays ({n}).",
    "lead_avoid_single": "An opponent has one card left: lead {cards} instead of a low single.",
    "lead_avoid_pair": "An opponent has two cards left: lead {cards} instead of a low pair.",
    "lead_highest_single": "An opponent has one card left: lead your highest single, {cards}.",
    "lead_low_single_risky": ("An opponent has one card left: {cards} is lower than your"
                              " highest single and may let them go out."),
    "feed_partner": "The partner has few cards left: lead {cards} for them.",
    "lead_bomb": "Lead the bomb {cards}: nothing else is left to do.",
    "lead_rocket": "Lead {cards}: nothing else is left to do.",
    # following
    "beat_with_smallest": "Beat it with {cards}, the smallest play that does.",
    "beat_keep_shape": "Beat it with {cards} without breaking up the rest of the hand.",
    "stop_landlord_one_card": "The landlord has one card left: stop it with {cards}.",
    "stop_opponent_few_cards": "An opponent has only {n} cards left: stop it with {cards}.",
    "bomb_to_win": "Bomb with {cards}: the hand can go out after it.",
    "bomb_to_stop": "Bomb with {cards}: the opponent is about to go out.",
    "keep_bomb_for_control": "Pass and keep the bomb for later control.",
    "let_partner_win": "The partner's play is winning: pass.",
    "raise_partner": "The landlord plays next: raise the partner's low card with {cards}, so it costs the landlord a high one.",
    "pass_cannot_beat": "Nothing in the hand beats it: pass.",
    "pass_save_cards": "Beating it would break up the hand: pass.",
    "pass_random": "Pass (a random choice).",
    "play_random": "Play {cards} (a random choice).",
    "search_best": "Play {cards}: it won {n}% of simulated games.",
    "search_pass": "Pass: passing won {n}% of simulated games.",
    "endgame_forced_win": "Play {cards}: it wins by force from here.",
    "endgame_pass_wins": "Pass: the hand is won by force from here.",
}
