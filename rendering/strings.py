"""Text drawn on images, per locale (en, es).

A stop-gap until the shared catalogs in ``bot/i18n`` exist; rendering does not
import them. ``text(locale, key, **fields)`` formats one string; an unknown
locale (or region such as ``es-ES`` → ``es``) falls back to English.
Spanish terms follow the rules sources (terrateniente, campesino, bomba,
cohete, primavera, contraprimavera).
"""

from __future__ import annotations

STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "landlord": "LANDLORD",
        "peasant": "Peasant",
        "computer": "computer",
        "cards_left": "{n} cards",
        "card_left": "1 card",
        "warn_two": "2 cards left!",
        "warn_one": "LAST CARD!",
        "pass": "Pass",
        "waiting": "—",
        "turn": "to play",
        "bid": "Bid",
        "no_bid": "Bid: —",
        "multiplier": "Multiplier ×{n}",
        "kitty": "Kitty",
        "hand_number": "Hand #{n}",
        "winner_landlord": "Landlord wins!",
        "winner_peasants": "Peasants win!",
        "base_bid": "Bid {n}",
        "no_doublings": "No doublings",
        "bomb": "Bomb",
        "rocket": "Rocket",
        "spring": "Spring",
        "anti_spring": "Anti-spring",
        "points": "P = {bid} × 2{n} = {p}",
        "change": "Change",
        "total": "Total",
        "remaining": "Cards left",
        "none_left": "out!",
        "match_won": "Match won by {names}",
        "no_cards": "No cards",
    },
    "es": {
        "landlord": "TERRATENIENTE",
        "peasant": "Campesino",
        "computer": "ordenador",
        "cards_left": "{n} cartas",
        "card_left": "1 carta",
        "warn_two": "¡Quedan 2 cartas!",
        "warn_one": "¡ÚLTIMA CARTA!",
        "pass": "Paso",
        "waiting": "—",
        "turn": "le toca",
        "bid": "Apuesta",
        "no_bid": "Apuesta: —",
        "multiplier": "Multiplicador ×{n}",
        "kitty": "Fondo",
        "hand_number": "Mano n.º {n}",
        "winner_landlord": "¡Gana el terrateniente!",
        "winner_peasants": "¡Ganan los campesinos!",
        "base_bid": "Apuesta {n}",
        "no_doublings": "Sin duplicaciones",
        "bomb": "Bomba",
        "rocket": "Cohete",
        "spring": "Primavera",
        "anti_spring": "Contraprimavera",
        "points": "P = {bid} × 2{n} = {p}",
        "change": "Cambio",
        "total": "Total",
        "remaining": "Cartas restantes",
        "none_left": "¡sin cartas!",
        "match_won": "Partida ganada por {names}",
        "no_cards": "Sin cartas",
    },
}


def normalize_locale(locale: str) -> str:
    """``"es-ES"``/``"es_MX"``/``"ES"`` → ``"es"``; anything unsupported → ``"en"``."""
    lang = locale.replace("_", "-").split("-")[0].lower()
    return lang if lang in STRINGS else "en"


def text(locale: str, key: str, **fields: object) -> str:
    """The string ``key`` in ``locale``, formatted with ``fields``. KeyError on an unknown key."""
    template = STRINGS[normalize_locale(locale)][key]
    return template.format(**fields) if fields else template
