"""Invented names keyed by the project's random seed: people, companies, customers, codenames.

The retrieval workspace holds every project, so a name two projects share makes a question ambiguous
(and lets a model learn the stock list). Every kind of name is drawn from a large combinatorial space
(first names x composed surnames, two-word codenames, composed company and customer heads) through an
affine bijection of the random seed: two projects whose random seeds are below a space's size never
share a name of that kind, and hashed seeds (derive_random_seed) collide only by a birthday draw over
the whole space (`SPACE_SIZES`).
"""
from __future__ import annotations

import math
import re
import unicodedata
from itertools import product

FIRST_NAMES = [
    "Amara", "Tomas", "Priya", "Kenji", "Olumide", "Ingrid", "Mateo", "Leila", "Dmitri", "Ananya",
    "Chidi", "Sofia", "Haruto", "Zainab", "Lars", "Mei", "Rafael", "Noor", "Kwame", "Elif",
    "Santiago", "Yuki", "Fatima", "Arjun", "Hana", "Bongani", "Camille", "Omar", "Linnea", "Thandiwe",
    "Ravi", "Ximena", "Tariq", "Ayesha", "Nikolai", "Jiwoo", "Maren", "Emeka", "Valentina", "Farhan",
    "Aiko", "Siddharth", "Ines", "Mirela", "Kofi", "Anouk", "Bilal", "Rosa", "Tenzin", "Ilse",
    "Joaquin", "Nadia", "Oskar", "Lucia", "Sanjay", "Wanjiru", "Teodor", "Paloma", "Hamid", "Greta",
    "Adaeze", "Bruno", "Chiara", "Dawit", "Esra", "Felipe", "Gulnara", "Henrik", "Isabela", "Jonas",
    "Kavya", "Luca", "Marisol", "Nasser", "Olga", "Pedro", "Qamar", "Rania", "Stellan", "Tamar",
    "Ugo", "Vesna", "Wiremu", "Xiadani", "Yara", "Zoltan", "Abena", "Benedikt", "Cyrus", "Dalia",
    "Eero", "Folake", "Goran", "Hyejin", "Ivo", "Jahid", "Kalani", "Lorenzo", "Manon", "Nikhil",
    "Orla", "Pilar", "Quentin", "Roksana", "Sione", "Tuva", "Uzma", "Viggo", "Wen", "Yusuf",
    "Zofia", "Anders", "Beatriz", "Cormac", "Delphine", "Emre", "Freya", "Gideon", "Halima", "Idris",
    "Jelena", "Kaito", "Leonie", "Malik", "Nerea", "Oren", "Petra",
]
# Surnames are composed: a stem and an ending of one naming tradition ('Lind' + 'qvist', 'Naka' + 'mura').
SURNAME_PARTS = [
    (["Lind", "Berg", "Sand", "Holm", "Dahl", "Nord", "Ek", "Hag", "Lund", "Fal", "Ros", "Ahl"],
     ["qvist", "strom", "gren", "berg", "lund", "dahl", "man", "by"]),
    (["Naka", "Taka", "Yama", "Mori", "Kawa", "Ishi", "Fuji", "Hara", "Matsu", "Oka"],
     ["mura", "hashi", "moto", "da", "guchi", "saki", "no", "shima"]),
    (["Kowal", "Nowak", "Lewan", "Wisni", "Zielin", "Dombro", "Kamin", "Wojcie", "Grabow", "Pawlo"],
     ["ski", "ska", "czyk", "ewski", "owicz"]),
    (["Ade", "Olu", "Oye", "Ola", "Aki", "Bam", "Fola", "Ayo", "Tunde", "Kay"],
     ["yemi", "wale", "lowo", "laran", "nde", "bayo", "kunle"]),
    (["Fer", "Mar", "Cas", "Vel", "Gal", "Mor", "Del", "Ben", "Car", "Sal"],
     ["reira", "tinez", "tillo", "asco", "lardo", "eno", "gado", "avides", "vajal"]),
    (["Ash", "Whit", "Brad", "Hol", "Cran", "Stan", "Thorn", "Wood", "Ald", "Fair"],
     ["ford", "lock", "ley", "well", "bridge", "wick", "ton", "by", "more", "hurst"]),
    (["Petr", "Ivan", "Smirn", "Volk", "Sokol", "Pavl", "Orl", "Kuzn", "Bel", "Lebed"],
     ["ov", "enko", "ova", "ovich", "insky"]),
    (["Ban", "Chak", "Muk", "Bhatt", "Sen", "Ray", "Chaud", "Gang", "Das", "Mitr"],
     ["erjee", "raborty", "herjee", "acharya", "gupta", "hury", "uly"]),
    (["Hoff", "Kauf", "Zimmer", "Sch", "Wag", "Brau", "Lehr", "Kell", "Neu", "Hart"],
     ["mann", "ner", "er", "berger", "hofer", "stein"]),
    (["Ok", "Nwa", "Eze", "Ob", "Chu", "Ugo", "Ike", "Ama", "Onu", "Ndu"],
     ["afor", "chukwu", "eke", "ike", "kwu", "oma", "du"]),
]
CODENAME_WORDS = (
    ["Amber", "Silver", "Quiet", "Northern", "Copper", "Hidden", "Rapid", "Distant", "Crimson", "Frosted",
     "Golden", "Patient", "Restless", "Salt", "Slate", "Velvet", "Wild", "Hollow", "Iron",
     "Second", "Tidal", "Upper", "Winter", "Bright", "Deep", "Low", "Open", "Steady", "Woven", "Cedar",
     "Ashen", "Blue", "Clear", "Dusky", "Early", "Fallow", "Gentle", "High", "Inner", "Jade", "Keen", "Lone",
     "Misty", "Noble", "Olive", "Pale", "Red", "Silent", "True", "Umber", "Vivid", "Western", "Young", "Zinc"],
    ["Kestrel", "Driftwood", "Lanternfish", "Basalt", "Marigold", "Tidewater", "Juniper", "Cobalt",
     "Sandpiper", "Halyard", "Bramble", "Quarry", "Larkspur", "Ember", "Nimbus", "Saltmarsh", "Heron",
     "Cormorant", "Foxglove", "Granite", "Harbor", "Lichen", "Meadow", "Osprey", "Pebble", "Quill",
     "Reef", "Sorrel", "Thistle", "Wren", "Alder", "Beacon", "Cinder", "Delta", "Estuary", "Fjord",
     "Gannet", "Hawthorn", "Inlet", "Jackdaw", "Kelp", "Lagoon", "Magpie", "Nettle", "Orchid", "Plover",
     "Rook", "Spruce", "Tern", "Willow", "Yarrow", "Badger", "Comet", "Dunlin", "Egret", "Finch"],
)
COMPANY_PARTS = (["Bright", "North", "Quill", "Tessel", "Halcy", "Van", "Larch", "Ostra", "Keel", "Marrow",
                  "Sable", "Fern", "Cor", "Ridge", "Lumen", "Tide", "Ash", "Pell", "Wren", "Callo",
                  "Elder", "Glen", "Hazel", "Ivory", "Jasper", "Kiln", "Loom", "Mist", "Nettle", "Oar",
                  "Pax", "Rowan", "Sorrel", "Thorn", "Umber", "Vel", "Wick", "Yew", "Zephyr", "Birch"],
                 ["well", "mere", "stone", "late", "on", "tor", "field", "va", "bridge", "wind", "crest",
                  "hollow", "vane", "line", "fold", "mark", "grove", "ucid", "ford", "way"])
COMPANY_TAILS = {
    "research_lab": ["Labs", "Systems", "AI", "Machines", "Computing"],
    "analysis_firm": ["Advisory", "Analytics", "Partners", "Insight", "Economics"],
}
CUSTOMER_PARTS = (["Harbor", "Meridian", "Stone", "Blue", "Orchard", "Granite", "Silver", "West", "Pine",
                   "Copper", "East", "River", "Bay", "Cedar", "Dune", "Elm", "Falcon", "Gate", "High", "Lake",
                   "Marsh", "North", "Oak", "Port", "Red", "South", "Thorn", "Vale", "Wold", "York"],
                  ["line", "gate", "fen", "field", "bay", "reed", "hollow", "crest", "march", "ton", "side",
                   "mouth", "view", "wood", "haven"])
CUSTOMER_TAILS = ["Logistics", "Health", "Insurance", "Retail Group", "Utilities", "Public Authority",
                  "Ports Agency", "Bank", "Transit", "Foundation", "Water Board", "Housing Trust"]
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
PEOPLE_PER_PROJECT = 10   # up to 8 team members, the customer contact, one spare
FIRST_STEP = 13           # first names of one project: f0, f0+13, ... (distinct while 13*9 < len(FIRST_NAMES))


def _stable_order(words: list[str]) -> list[str]:
    """A fixed interleaving (by a hash, not by tradition) so every block of the pool mixes traditions."""
    import hashlib
    unique = sorted(set(words))
    return sorted(unique, key=lambda w: hashlib.sha256(w.encode()).hexdigest())


SURNAMES = _stable_order([stem + end for stems, ends in SURNAME_PARTS for stem, end in product(stems, ends)])
SURNAMES = SURNAMES[:len(SURNAMES) - len(SURNAMES) % PEOPLE_PER_PROJECT]
CODENAMES = [f"{a} {b}" for a, b in product(*CODENAME_WORDS)]
COMPANY_HEADS = _stable_order([a + b for a, b in product(*COMPANY_PARTS)])
CUSTOMER_HEADS = _stable_order([a + b for a, b in product(*CUSTOMER_PARTS)])
SPACE_SIZES = {
    "people": len(FIRST_NAMES) * len(SURNAMES) // PEOPLE_PER_PROJECT,
    "codename": len(CODENAMES),
    "company": len(COMPANY_HEADS) * len(COMPANY_TAILS["research_lab"]),
    "customer": len(CUSTOMER_HEADS) * len(CUSTOMER_TAILS),
}
_MULTIPLIER = 2_147_483_647  # a prime larger than every space: the affine map below is a bijection of each


def _slot(random_seed: int, kind: str) -> int:
    """The project's index in one name space: distinct seeds below the space's size get distinct slots."""
    size = SPACE_SIZES[kind]
    offset = sum(map(ord, kind)) * 7919
    assert math.gcd(_MULTIPLIER, size) == 1
    return (_MULTIPLIER * int(random_seed) + offset) % size


def ascii_slug(text: str) -> str:
    norm = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", norm.lower()).strip("-")


def project_people_names(random_seed: int, count: int) -> list[str]:
    """`count` full names (count <= 10) with distinct first names and surnames, none shared with a
    project whose slot differs: person k's surname comes from the k-th tenth of the pool, so a full
    name gives back (slot, k)."""
    if count > PEOPLE_PER_PROJECT:
        raise ValueError(f"at most {PEOPLE_PER_PROJECT} people per project, asked for {count}")
    block = len(SURNAMES) // PEOPLE_PER_PROJECT
    first0, surname0 = divmod(_slot(random_seed, "people"), block)
    return [f"{FIRST_NAMES[(first0 + FIRST_STEP * k) % len(FIRST_NAMES)]} {SURNAMES[surname0 + k * block]}"
            for k in range(count)]


def company_name(random_seed: int, archetype: str) -> str:
    tails = COMPANY_TAILS[archetype]
    head, tail = divmod(_slot(random_seed, "company"), len(tails))
    return f"{COMPANY_HEADS[head]} {tails[tail]}"


def customer_name(random_seed: int) -> str:
    head, tail = divmod(_slot(random_seed, "customer"), len(CUSTOMER_TAILS))
    return f"{CUSTOMER_HEADS[head]} {CUSTOMER_TAILS[tail]}"


def codename(random_seed: int) -> str:
    return CODENAMES[_slot(random_seed, "codename")]


def domain_for(name: str) -> str:
    """An invented e-mail domain under the reserved `.example` top-level domain."""
    return ascii_slug(name).replace("-", "") + ".example"
