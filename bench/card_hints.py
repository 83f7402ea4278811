"""The card browser's hints, in this process: 30 cards tested against one deck, the incremental way
(decks.rules.hints.Additions) and the straightforward way (every rule run on the deck with each copy).

Run from the repository root (no database, no Django):

    .venv/bin/python -m bench.card_hints [--rounds 15] [-n 40]

The deck is bench/editor.py's (a legal 50-card Apprentice deck from the practice set, every limit
reached), then the same deck with one more card (51: the deck's size and a third faction broken,
as bench/request_cpu.py's "every deck new" clicks leave it). The 30 cards are 25 practice cards
not in the deck and 5 of its own. Each row is the best round's CPU time (time.process_time) for
counting the deck once and testing the 30 cards; the two ways run in turn within each round and
must give the same answers.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from decks.rules.hints import Additions, judge_tally, natural_section  # noqa: E402
from decks.rules.practice import card_facts  # noqa: E402
from decks.rules.registry import rule_get  # noqa: E402
from decks.rules.rule_hints import Addition  # noqa: E402
from decks.rules.ruleset import RulesInForce, rules_in_force  # noqa: E402
from decks.rules.tally import with_one_more  # noqa: E402
from decks.rules.types import CardFacts, DeckSnapshot  # noqa: E402

SHOWN = 30


def judged_blockers(additions: Additions, card: CardFacts, printing: str | None) -> list[str]:
    """The hints as before the rules declared what they read: every rule run on the deck with the copy."""
    section = natural_section(card)
    rules, before = additions.rules, additions.report
    after = judge_tally(additions.tally.plus_one(card, printing, section, rules), rules)
    addition = Addition(additions.tally.deck, rules, card, printing, section, before.summary, after.summary)
    reasons: list[str] = []
    for violation in after.violations:
        rule = rule_get(violation.rule)
        if rule is None or rule.hint is None:
            raise SystemExit(f"{violation.rule}: a rule without a hint")
        reason = rule.hint(card.name in violation.cards, addition)
        if reason and reason not in reasons:
            reasons.append(reason)
    return reasons


Way = Callable[[DeckSnapshot], list[list[str]]]


def ways(rules: RulesInForce, shown: Sequence[CardFacts]) -> dict[str, Way]:
    def incremental(deck: DeckSnapshot) -> list[list[str]]:
        additions = Additions.of(deck, rules)
        return [additions.blockers(card, card.collector_numbers[0]) for card in shown]

    def straightforward(deck: DeckSnapshot) -> list[list[str]]:
        additions = Additions.of(deck, rules)
        return [judged_blockers(additions, card, card.collector_numbers[0]) for card in shown]

    return {"incremental": incremental, "straightforward": straightforward}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="rounds, each way once per round (15)")
    parser.add_argument("-n", type=int, default=40, help="pages of 30 cards per way and round (40)")
    args = parser.parse_args(argv)

    from bench.validate import legal_deck, load_rules_data, ruler_object

    cards = card_facts()
    rules = rules_in_force(ruler_object(load_rules_data(), "Apprentice"))
    deck = legal_deck(cards, rules)
    names = {entry.card.name for entry in deck.main}
    shown = [card for card in cards if card.name not in names][: SHOWN - 5] + [e.card for e in deck.main[:5]]
    decks = {"50 cards": deck, "51 cards": with_one_more(deck, shown[0], None, "main")}
    measured = ways(rules, shown)
    for label, d in decks.items():
        answers = {name: way(d) for name, way in measured.items()}
        if answers["incremental"] != answers["straightforward"]:
            raise SystemExit(f"{label}: the two ways disagree")
    best: dict[tuple[str, str], float] = {}
    for _ in range(args.rounds):
        for name, way in measured.items():
            for label, d in decks.items():
                started = time.process_time()
                for _ in range(args.n):
                    way(d)
                spent = (time.process_time() - started) / args.n * 1e6
                best[name, label] = min(best.get((name, label), spent), spent)
    print(f"| deck | incremental µs / {SHOWN} cards | straightforward µs / {SHOWN} cards | ratio |")
    print("| --- | ---: | ---: | ---: |")
    for label in decks:
        fast, slow = best["incremental", label], best["straightforward", label]
        print(f"| {label} | {fast:.0f} | {slow:.0f} | {fast / slow:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
