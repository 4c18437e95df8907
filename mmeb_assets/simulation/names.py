"""Invented name pools: people (diverse), companies, codenames, cities, domains, voices."""
from __future__ import annotations

import random
import re
import unicodedata

FIRST_NAMES = [
    "Amara", "Tomas", "Priya", "Kenji", "Olumide", "Ingrid", "Mateo", "Leila", "Dmitri", "Ananya",
    "Chidi", "Sofia", "Haruto", "Zainab", "Lars", "Mei", "Rafael", "Noor", "Kwame", "Elif",
    "Santiago", "Yuki", "Fatima", "Arjun", "Hana", "Bongani", "Camille", "Omar", "Linnea", "Thandiwe",
    "Ravi", "Ximena", "Tariq", "Ayesha", "Nikolai", "Jiwoo", "Maren", "Emeka", "Valentina", "Farhan",
    "Aiko", "Siddharth", "Ines", "Mirela", "Kofi", "Anouk", "Bilal", "Rosa", "Tenzin", "Ilse",
    "Joaquin", "Nadia", "Oskar", "Lucia", "Sanjay", "Wanjiru", "Teodor", "Paloma", "Hamid", "Greta",
]
LAST_NAMES = [
    "Okafor", "Lindqvist", "Nakamura", "Haddad", "Ferreira", "Kowalski", "Mensah", "Banerjee", "Castillo",
    "Novak", "Achterberg", "Osei", "Tanaka", "Rahman", "Moreau", "Petrov", "Adeyemi", "Kaur", "Delgado",
    "Yilmaz", "Sorensen", "Mwangi", "Iyer", "Villanueva", "Brennan", "Takahashi", "Abara", "Lundgren",
    "Chaudhry", "Esposito", "Nwosu", "Hoffmann", "Quispe", "Demir", "Varga", "Ncube", "Sato", "Bianchi",
    "Oyelaran", "Marchetti", "Kim", "Ozturk", "Fonseca", "Halvorsen", "Mbeki", "Reyes", "Whitlock", "Duarte",
]
COMPANY_HEADS = [
    "Brightwell", "Northmere", "Quillstone", "Tessellate", "Halcyon", "Vantor", "Larchfield", "Ostrava",
    "Keelbridge", "Marrowind", "Sablecrest", "Fernhollow", "Corvane", "Ridgeline", "Lumenfold", "Tidemark",
    "Ashgrove", "Pellucid", "Wrenford", "Calloway",
]
COMPANY_TAILS = {
    "research_lab": ["Labs", "Systems", "AI", "Machines", "Computing"],
    "analysis_firm": ["Advisory", "Analytics", "Partners", "Insight", "Economics"],
}
CUSTOMER_HEADS = ["Harborline", "Meridian", "Stonegate", "Bluefen", "Orchard", "Granitebay", "Silverreed",
                  "Westhollow", "Pinecrest", "Copperfield", "Eastmarch", "Riverton"]
CUSTOMER_TAILS = ["Logistics", "Health", "Insurance", "Retail Group", "Utilities", "Public Authority",
                  "Ports Agency", "Bank", "Transit", "Foundation"]
CODENAMES = ["Kestrel", "Driftwood", "Lanternfish", "Basalt", "Marigold", "Tidewater", "Juniper", "Cobalt",
             "Sandpiper", "Halyard", "Bramble", "Quarry", "Larkspur", "Ember", "Nimbus", "Saltmarsh"]
CITIES = ["Rotterdam", "Porto", "Leeds", "Montreal", "Pune", "Nairobi", "Osaka", "Tallinn", "Valparaiso",
          "Adelaide", "Ghent", "Kraków", "Accra", "Busan", "Aarhus", "Bilbao"]

# (style key, voice description): the key picks the phrasing style in voice.py
VOICES = [
    ("terse", "terse, lowercase, no greetings, numbers first"),
    ("warm", "friendly and upbeat, thanks people, the odd emoji"),
    ("formal", "formal full sentences, careful wording, signs off politely"),
    ("bullets", "structured, writes short bullet lists with labels"),
    ("hedging", "cautious, hedges and asks clarifying questions"),
    ("brisk", "brisk and direct, action items and owners"),
    ("chatty", "chatty, explains context, uses dashes and asides"),
]
COLOURS = ["#4a6fa5", "#c0504d", "#9bbb59", "#8064a2", "#4bacc6", "#f79646", "#2c7a7b", "#b83280"]


def ascii_slug(text: str) -> str:
    norm = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", norm.lower()).strip("-")


def pick_people_names(rng: random.Random, count: int, avoid: set[str] = frozenset()) -> list[str]:
    """`count` distinct full names with distinct first names and surnames."""
    firsts = [n for n in FIRST_NAMES if n not in avoid]
    lasts = list(LAST_NAMES)
    rng.shuffle(firsts)
    rng.shuffle(lasts)
    return [f"{firsts[i]} {lasts[i]}" for i in range(count)]


def company_name(rng: random.Random, archetype: str) -> str:
    return f"{rng.choice(COMPANY_HEADS)} {rng.choice(COMPANY_TAILS[archetype])}"


def customer_name(rng: random.Random) -> str:
    return f"{rng.choice(CUSTOMER_HEADS)} {rng.choice(CUSTOMER_TAILS)}"


def domain_for(name: str) -> str:
    """An invented e-mail domain under the reserved `.example` top-level domain."""
    return ascii_slug(name).replace("-", "") + ".example"
