"""Fill a database with many saved decks, for the sharing, statistics and revalidation benchmarks.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gatesite_bench \\
        .venv/bin/python bench/gen_decks.py --decks 100000

Needs the rules loaded and a catalog (``manage.py load_rules``, ``manage.py import_cards``); with
an empty catalog it loads the rules and imports the practice set (data/practice/) itself.

What it writes, so the benchmarks do realistic work:

- ``--users`` players (``bench-player-0001`` …, no usable password) owning ``--decks`` decks;
- for each ruler in force today (and each geas, one deck in five where the ruler has one), a
  few "archetypes": legal decks the engine's builder finds in a random half of the catalog;
- every deck is an archetype with copies spread over substitutes (same faction, type, level),
  then one deck in ten gets a random card too many or too few; the engine judges every deck
  (legal, judged_on); 0-14 cards on the considering board: about 25 deck-card rows a deck in all
  (100 000 decks give about 2.5 M rows, 1.8 M of them in main decks and resources);
- visibility 60 % public, 20 % unlisted, 20 % private; created over the last 24 months;
  one deck in twenty copied from an earlier public deck (forked_from, copies_count); one
  DeckVersion per deck (its first save).

Deterministic for a given --seed and catalog. Decks of earlier runs (owners named bench-player-*)
are deleted first, unless there are already exactly --decks of them (then nothing is done; pass
--force to regenerate). PostgreSQL rows go in by COPY; SQLite by bulk_create (small runs only).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import defaultdict
from datetime import timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gatesite.settings")
os.environ.setdefault("DEBUG", "1")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from cards.models import Card, Geas, Printing, Ruler  # noqa: E402
from cards.rules_selectors import rules_choice_get  # noqa: E402
from cards.selectors import card_facts, card_queryset  # noqa: E402
from cards.services import card_files_import  # noqa: E402
from decks.models import Deck, DeckCard, DeckVersion, Section, Visibility, new_public_id  # noqa: E402
from decks.rules.builder import build_legal_deck  # noqa: E402
from decks.rules.engine import validate_deck  # noqa: E402
from decks.rules.types import CardFacts, DeckEntry, DeckSnapshot  # noqa: E402
from gatesite.errors import ApplicationError  # noqa: E402

USER_PREFIX = "bench-player-"
ARCHETYPES_PER_CHOICE = 4
VISIBILITIES = [Visibility.PUBLIC] * 3 + [Visibility.UNLISTED, Visibility.PRIVATE]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decks", type=int, default=100_000)
    parser.add_argument("--users", type=int, default=5_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--force", action="store_true", help="regenerate even if the decks are there")
    args = parser.parse_args()
    generate(decks=args.decks, users=args.users, seed=args.seed, force=args.force)


def generate(*, decks: int, users: int, seed: int = 1, force: bool = False) -> int:
    """Write the decks (see the module's docstring); the number of deck-card rows written."""
    started = time.perf_counter()
    existing = Deck.objects.filter(owner__username__startswith=USER_PREFIX).count()
    if existing == decks and not force:
        print(f"{existing} bench decks already there; nothing to do (--force regenerates).")
        return 0
    catalog_ready()
    rng = random.Random(seed)
    facts = [card_facts(card) for card in card_queryset().order_by("name")]
    archetypes = build_archetypes(facts, rng)
    if not archetypes:
        raise SystemExit("The builder found no legal deck in this catalog; import more cards.")
    print(f"{len(facts)} cards, {len(archetypes)} archetypes ({time.perf_counter() - started:.1f} s)")

    with transaction.atomic():
        deleted = Deck.objects.filter(owner__username__startswith=USER_PREFIX).delete()[0]
        get_user_model().objects.filter(username__startswith=USER_PREFIX).delete()
        if deleted:
            print(f"deleted {deleted} rows of an earlier run")
        owners = make_users(users)
        rows = write_decks(decks, owners, archetypes, facts, rng)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            for model in (Deck, DeckCard, DeckVersion):
                cursor.execute(f"ANALYZE {model._meta.db_table}")
    print(f"{decks} decks, {rows} deck-card rows in {time.perf_counter() - started:.1f} s")
    return rows


def catalog_ready() -> None:
    if not Ruler.objects.exists():
        call_command("load_rules", verbosity=0)
    if not Card.objects.exists():
        # The import service itself, not the command: that sends a Celery task, and with REDIS_URL
        # set a worker may not be running.
        card_files_import(paths=sorted(str(p) for p in (REPO / "data" / "practice").glob("*.json")))


class Archetype:
    """A legal deck for a ruler (and geas): the template decks are varied from."""

    def __init__(self, ruler: Ruler, geas: Geas | None, deck: DeckSnapshot, rules: object) -> None:
        self.ruler, self.geas, self.deck, self.rules = ruler, geas, deck, rules


def build_archetypes(facts: list[CardFacts], rng: random.Random) -> list[Archetype]:
    today = timezone.localdate()
    geases = defaultdict(list)
    for geas in Geas.objects.select_related("ruler"):
        geases[geas.ruler_id].append(geas)
    archetypes = []
    for ruler in Ruler.objects.order_by("slug"):
        for geas in [None, *geases[ruler.pk]]:
            try:
                choice = rules_choice_get(ruler_slug=ruler.slug, geas_slug=geas.slug if geas else None, on=today)
            except ApplicationError:  # a ruler or geas not in force today has no decks
                continue
            for _ in range(ARCHETYPES_PER_CHOICE):
                half = rng.sample(facts, k=max(1, len(facts) // 2))
                deck = build_legal_deck(half, choice.rules)
                if deck is not None:
                    archetypes.append(Archetype(ruler, geas, deck, choice.rules))
    return archetypes


def make_users(n: int) -> list[int]:
    User = get_user_model()
    users = [User(username=f"{USER_PREFIX}{i:05d}", password="!") for i in range(n)]
    User.objects.bulk_create(users, batch_size=5000)
    return list(User.objects.filter(username__startswith=USER_PREFIX).order_by("pk").values_list("pk", flat=True))


def varied(archetype: Archetype, substitutes: dict[tuple, list[CardFacts]], facts: list[CardFacts], rng: random.Random):
    """The archetype's main deck with copies spread over substitutes (kept only if still legal), and
    one deck in ten with a card too many or too few."""
    card_of = {
        e.printing or e.card.collector_numbers[0]: e.card for e in (*archetype.deck.main, *archetype.deck.resources)
    }
    resources = {e.printing or e.card.collector_numbers[0]: e.count for e in archetype.deck.resources}
    counts: dict[str, int] = {}
    for entry in archetype.deck.main:
        options = substitutes[_likeness(entry.card)]
        for _ in range(entry.count):
            card = entry.card if rng.random() < 0.25 else rng.choice(options)
            number = entry.printing if card is entry.card and entry.printing else rng.choice(card.collector_numbers)
            counts[number] = counts.get(number, 0) + 1
            card_of[number] = card
    if not judge(archetype, counts, resources, card_of):
        counts = {e.printing or e.card.collector_numbers[0]: e.count for e in archetype.deck.main}
    if rng.random() < 0.1:
        if rng.random() < 0.5:
            number = rng.choice(sorted(counts))
            counts[number] -= 1
        else:
            card = rng.choice(facts)
            number = card.collector_numbers[0]
            counts[number] = counts.get(number, 0) + 1
            card_of[number] = card
    counts = {n: c for n, c in counts.items() if c > 0}
    return counts, resources, card_of, judge(archetype, counts, resources, card_of)


def judge(archetype: Archetype, main: dict[str, int], resources: dict[str, int], card_of: dict[str, CardFacts]) -> bool:
    deck = DeckSnapshot(
        main=tuple(DeckEntry(card_of[num], c, num) for num, c in main.items()),
        resources=tuple(DeckEntry(card_of[num], c, num) for num, c in resources.items()),
        attribute=archetype.deck.attribute,
    )
    return validate_deck(deck, archetype.rules).legal


def _likeness(card: CardFacts) -> tuple:
    return (card.type, card.faction, card.level, card.cnt, card.legend, card.attributes)


def write_decks(n: int, owners: list[int], archetypes: list[Archetype], facts: list[CardFacts], rng) -> int:
    substitutes: dict[tuple, list[CardFacts]] = defaultdict(list)
    for card in facts:
        substitutes[_likeness(card)].append(card)
    printing_ids = dict(Printing.objects.values_list("collector_number", "pk"))
    now = timezone.now()
    today = timezone.localdate()
    next_pk = (Deck.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    deck_rows, card_rows, version_rows = [], [], []
    public_pks: list[int] = []
    copies: dict[int, int] = defaultdict(int)
    for i in range(n):
        pk = next_pk + i
        archetype = rng.choice(archetypes)
        main, resources, _, legal = varied(archetype, substitutes, facts, rng)
        attribute = archetype.deck.attribute or ""
        visibility = rng.choice(VISIBILITIES)
        created = now - timedelta(days=730 * (n - i) / n, seconds=rng.randrange(86_400))
        forked_from = rng.choice(public_pks) if public_pks and rng.random() < 0.05 else None
        if forked_from:
            copies[forked_from] += 1
        name = f"{archetype.ruler.name} deck {i + 1}"
        deck_rows.append(
            [pk, new_public_id(), rng.choice(owners), name, "", archetype.ruler.pk,
             archetype.geas.pk if archetype.geas else None, attribute, None, 1, created, created,
             legal, today, None, "", visibility, forked_from, 0, False]
        )  # fmt: skip
        if visibility == Visibility.PUBLIC:
            public_pks.append(pk)
        # Candidates on the considering board (not part of the deck: statistics and verdicts ignore them).
        considering = {rng.choice(facts).collector_numbers[0]: rng.randint(1, 2) for _ in range(rng.randint(0, 14))}
        for section, lines in (
            (Section.MAIN, main),
            (Section.RESOURCES, resources),
            (Section.CONSIDERING, considering),
        ):
            for number, count in lines.items():
                card_rows.append([pk, printing_ids[number], section.value, count])
        snapshot = {
            "ruler": archetype.ruler.slug,
            "geas": archetype.geas.slug if archetype.geas else None,
            "attribute": attribute,
            "rules_date": None,
            "name": name,
            "description": "",
            "main": main,
            "resources": resources,
        }
        version_rows.append([pk, 1, 1, json.dumps(snapshot), created])
        if (i + 1) % 10_000 == 0:
            print(f"  {i + 1} decks made", flush=True)
    for row in deck_rows:
        row[18] = copies.get(row[0], 0)
    deck_columns = [
        "id", "public_id", "owner_id", "name", "description", "ruler_id", "geas_id", "attribute", "rules_date",
        "version", "created_at", "updated_at", "legal", "judged_on", "illegal_since", "verdict_reason",
        "visibility", "forked_from_id", "copies_count", "archived",
    ]  # fmt: skip
    insert(Deck, deck_columns, deck_rows)
    insert(DeckCard, ["deck_id", "printing_id", "section", "count"], card_rows)
    insert(DeckVersion, ["deck_id", "version", "number", "snapshot", "created_at"], version_rows)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT setval(pg_get_serial_sequence(%s, 'id'), (SELECT MAX(id) FROM " + Deck._meta.db_table + "))",
                [Deck._meta.db_table],
            )
    return len(card_rows)


def insert(model, columns: list[str], rows: list[list]) -> None:
    started = time.perf_counter()
    table = model._meta.db_table
    if connection.vendor == "postgresql":
        with (
            connection.cursor() as cursor,
            cursor.cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy,
        ):
            for row in rows:
                copy.write_row(row)
    else:
        with connection.cursor() as cursor:
            placeholders = ", ".join(["%s"] * len(columns))
            cursor.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({placeholders})", rows)
    print(f"  {table}: {len(rows)} rows in {time.perf_counter() - started:.1f} s", flush=True)


if __name__ == "__main__":
    main()
