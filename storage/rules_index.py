"""The rules index: full-text search over every rules entry, forgiving typos, other words and whole
questions.

Built once when the bot starts (:class:`RulesIndex`, 30-60 ms for ~200 entries): an SQLite FTS5 table in memory,
through sqlite-utils, over each entry's name, aliases, keywords, source and summary (Porter
stemming, so "hits" finds "hit"), plus rapidfuzz over names and aliases. A query is read three ways
and the scores added:

- a name or alias typed whole (``misfire``, ``canon``), or a keyword typed whole (``glance``),
  which counts for less;
- the words, stop words dropped and each unknown word replaced by the nearest word of the index
  (typos in questions), ranked by bm25 with names weighing most;
- rapidfuzz against every name and alias (typos in names: ``stone throwr``).

A ``game`` filters; a ``preferred`` game (the channel's default) ranks that game's entries first
among the good matches. Nothing found still answers: the nearest names by rapidfuzz.
"""

from __future__ import annotations

import bisect
import re
import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass

import sqlite_utils
from rapidfuzz import fuzz, process

from config.rules import GAMES, RuleEntry, names_by_slug, outside_rules, related_entry

STOP_WORDS = frozenset("""
a about above after again against all am an and any are as at be because been before being below between both
but by can could did do does doing down during each few for from further had has have having he her here hers
how i if in into is it its itself just me more most my no nor not of off on once only or other our out over own
same she should so some such than that the their them then there these they this those through to too under until
up very was we were what when where which while who whom why will with would you your rule rules happens happen
work works explain tell mean means does get gets
""".split())
"""Words a question is made of that say nothing about which rule it is."""

QUESTION_WORDS = frozenset("""
whats whos hows wheres much many far long big often can cant could should must may might do dont did
is isnt are arent was which who what when where why how i me my mine we our us you your please pls plz
does doesnt rule rules work works happen happens use used using roll rolls need needs get gets got
""".split())
"""Words of a question that name no rule: dropped before a question is compared to names whole."""

WEIGHTS = {"name": 10.0, "aliases": 8.0, "keywords": 5.0, "source": 1.5, "summary": 1.0}
"""bm25 column weights: a word in the name counts far more than one in the summary."""

WEAK = 0.5
"""With a game filter, matches weaker than this share of the best match in another game are not
passed off as answers."""
AUTOCOMPLETE_LIMIT = 25
"""Discord's limit on autocomplete choices."""
CHOICE_LENGTH = 100
"""Discord's limit on a choice's name and value."""

_WORD = re.compile(r"[a-z0-9]+")


def normalise(text: str) -> str:
    """Lower case, apostrophes dropped, other punctuation as spaces: ``"Who's Been Hit?"`` ->
    ``"whos been hit"``."""
    return " ".join(_WORD.findall(text.lower().replace("'", "").replace("\u2019", "")))


@dataclass(frozen=True, slots=True)
class Found:
    """The answer to one query."""

    query: str
    entries: tuple[RuleEntry, ...]
    """Best first; never empty when the index has entries."""
    matched: bool
    """False when nothing matched and `entries` are only the nearest names."""
    elsewhere: RuleEntry | None = None
    """With a game filter that left only weak matches: the strong match in another game."""
    weak: bool = False
    """Something matched, but too little of the question to answer with it: `entries` are offered
    as "did you mean" (and `matched` is False)."""
    outside: str | None = None
    """The question names a rule of the game that the rulebooks Bombardier holds do not describe
    (``Terror``): `entries` are the nearest entries, offered as suggestions."""


class RulesIndex:
    """Every rules entry, searchable. Build once; queries are read-only and fast."""

    def __init__(self, entries: Iterable[RuleEntry]) -> None:
        start = time.perf_counter()
        self.entries: tuple[RuleEntry, ...] = tuple(entries)
        self.by_key = {e.key: e for e in self.entries}
        self._by_slug = names_by_slug(self.entries)
        # built in a worker thread and read on the event loop's: one connection, never written after
        self._db = sqlite_utils.Database(sqlite3.connect(":memory:", check_same_thread=False))
        self._db["entries"].insert_all(
            ({
                "rowid": i, "key": e.key, "game": e.game, "name": e.name, "aliases": " | ".join(e.aliases),
                "keywords": " | ".join(e.keywords), "source": e.source, "summary": e.summary,
            } for i, e in enumerate(self.entries)),
            pk="rowid",
        )
        self._db["entries"].enable_fts(list(WEIGHTS), tokenize="porter", create_triggers=False)
        self._weights = ", ".join(str(WEIGHTS[c]) for c in WEIGHTS)
        # names and aliases for exact and fuzzy matching: (normalised text, entry index)
        self._entry_names: list[tuple[str, ...]] = [
            tuple(normalise(text) for text in (e.name, *e.aliases)) for e in self.entries
        ]
        self._names: list[str] = []
        self._owners: list[int] = []
        self._exact: dict[str, list[int]] = {}
        for i, e in enumerate(self.entries):
            for text in (e.name, *e.aliases):
                n = normalise(text)
                self._names.append(n)
                self._owners.append(i)
                self._exact.setdefault(n, []).append(i)
        self._sorted_names = sorted(zip(self._names, self._owners))
        # names and aliases as word tuples, plurals folded, for finding them inside a question
        self._phrases: list[tuple[tuple[str, ...], int, bool]] = []
        self._name_words: list[frozenset[str]] = []
        for i, e in enumerate(self.entries):
            for n, text in enumerate((e.name, *e.aliases)):
                words = tuple(fold(w) for w in meaningful(normalise(text).split()))
                if words:
                    self._phrases.append((words, i, n == 0))
            self._name_words.append(frozenset(
                fold(w) for text in (e.name, *e.aliases, *e.keywords) for w in meaningful(normalise(text).split())))
        self._keyword_owners: dict[str, list[int]] = {}
        for i, e in enumerate(self.entries):
            for text in e.keywords:
                self._keyword_owners.setdefault(normalise(text), []).append(i)
        self._vocabulary = sorted({w for i in range(len(self.entries)) for w in _WORD.findall(self._text(i))})
        self._outside: dict[str, tuple[str, str]] = {}  # normalised name -> (name as written, game)
        for game, out in outside_rules().items():
            for name in out.rules:
                self._outside.setdefault(normalise(name), (name, game))
        self._outside_names = sorted(self._outside)
        self._uses: list[frozenset[str]] = [frozenset(fold(w) for w in _WORD.findall(self._text(i)))
                                            for i in range(len(self.entries))]
        self._vocabulary_set = frozenset(self._vocabulary)
        self.build_seconds = time.perf_counter() - start

    def _text(self, i: int) -> str:
        e = self.entries[i]
        return " ".join((e.name, *e.aliases, *e.keywords, e.source, e.summary)).lower()

    # --- the three readings -----------------------------------------------------------------

    def _words(self, query: str) -> list[str]:
        """The query's meaningful words, each unknown one replaced by the index's nearest word."""
        words = [w for w in normalise(query).split() if w not in STOP_WORDS]
        out = []
        for w in words:
            if w in self._vocabulary_set or len(w) < 3:
                out.append(w)
                continue
            near = process.extractOne(w, self._vocabulary, scorer=fuzz.ratio, score_cutoff=75)
            out.append(near[0] if near else w)
        return out

    def _full_text(self, words: list[str], *, prefix_last: bool) -> dict[int, float]:
        """bm25 over the FTS5 table, any word matching, scaled so the best is 1."""
        if not words:
            return {}
        terms = [f'"{w}"' for w in words]
        if prefix_last:
            terms[-1] += "*"
        sql = (
            f"select rowid, bm25(entries_fts, {self._weights}) as rank from entries_fts "
            f"where entries_fts match ? order by rank limit 60"
        )
        rows = self._db.execute(sql, [" OR ".join(terms)]).fetchall()
        if not rows:
            return {}
        best = -rows[0][1] or 1.0
        return {rowid: (-rank) / best for rowid, rank in rows}

    def _fuzzy(self, text: str, limit: int = 40) -> dict[int, float]:
        """rapidfuzz against names and aliases: 0-1 for each entry's best name."""
        if not text:
            return {}
        scores: dict[int, float] = {}
        for _, score, at in process.extract(text, self._names, scorer=fuzz.ratio, limit=limit, score_cutoff=60):
            owner = self._owners[at]
            scores[owner] = max(scores.get(owner, 0.0), score / 100)
        return scores

    # --- queries ----------------------------------------------------------------------------

    def search(self, query: str, *, game: str | None = None, preferred: str | None = None, limit: int = 10,
               autocomplete: bool = False) -> Found:
        """Entries for a query, best first; `game` keeps one game's; `preferred` ranks one game's
        first among the good matches. Never empty: with no match, the nearest names."""
        if game is not None and game not in GAMES:
            raise ValueError(f"unknown game {game!r}")
        text = normalise(query)
        if not text:
            return Found(query, self._default(game, preferred, limit), matched=False)
        content = self._content(text)
        if not autocomplete:
            outside = self._outside_rule(text, content)
            if outside is not None:  # a rule of the game the held rulebooks do not describe
                return Found(query, self._mentioning(outside, game, preferred), matched=False, outside=outside)
        scores: dict[int, float] = {}

        def add(found: dict[int, float], weight: float) -> None:
            for i, s in found.items():
                scores[i] = scores.get(i, 0.0) + weight * s

        words = self._words(query)
        asked = [w for w in words if w not in QUESTION_WORDS]  # typos mended, question words gone
        exact = self._exact_names(text) or self._exact_names(content) or self._about(asked)
        add(exact, 3.0)
        add({i: 1.0 for i in self._keyword_owners.get(text, [])}, 1.5)
        phrases = self._phrases_in(asked)
        add(phrases, 1.0)
        if len(asked) >= 2:  # every word of the question among an entry's names: "bolt thrower skewer"
            folded = [fold(w) for w in asked]
            add({i: c for i, names in enumerate(self._name_words)
                 if (c := sum(w in names for w in folded) / len(folded)) >= 0.5}, 2.0)
        bm25 = self._full_text(words, prefix_last=autocomplete)
        add(bm25, 1.0)
        fuzzy: dict[int, float] = {}
        if len(content.split()) <= 4:  # names are short: a whole question is not compared to one
            fuzzy = {i: (s - 0.6) / 0.4 for i, s in self._fuzzy(content or text).items() if s >= 0.75}
            add(fuzzy, 1.5)
        if autocomplete:
            add({i: 1.0 for i in self._starting_with(text)}, 1.0)
        if game is not None and scores:
            strongest = max(scores, key=scores.get)
            kept = {i: s for i, s in scores.items() if self.entries[i].game == game}
            best_kept = max(kept, key=kept.get, default=None)
            if self.entries[strongest].game != game and (best_kept is None or (
                    kept[best_kept] < scores[strongest] * WEAK and not self._names_a_word_of(best_kept, text))):
                # what was asked for is another game's rule: say so rather than pass off a weak match
                return Found(query, self._nearest(text, game, preferred, limit), matched=False,
                             elsewhere=self.entries[strongest])
            scores = kept
        if not scores:
            return Found(query, self._nearest(text, game, preferred, limit), matched=False)
        best = max(scores.values())
        floor = best * 0.25

        def rank(item: tuple[int, float]) -> tuple:
            i, s = item
            good = s >= best * 0.5
            # equal scores: the games in their usual order (Fantasy, the default game, first)
            return (-(good and self.entries[i].game == preferred), -round(s / best * 20), list(GAMES).index(self.entries[i].game),
                    -s, self.entries[i].name)

        ordered = sorted(((i, s) for i, s in scores.items() if s >= floor), key=rank)
        words = asked
        if not autocomplete:
            ordered = self._machine_first(ordered, words, phrases, game, preferred)
        top = ordered[0][0]
        named = top in exact or top in phrases or fuzzy.get(top, 0.0) >= 0.5
        if not autocomplete and not named and (self._named_share(top, words) <= 0.5 or self._unused(top, content)):
            # only a word or two of a longer question matched: offer, do not answer
            return Found(query, tuple(self.entries[i] for i, _ in ordered[:5]), matched=False, weak=True)
        return Found(query, tuple(self.entries[i] for i, _ in ordered[:limit]), matched=True)

    def _outside_rule(self, text: str, content: str) -> str | None:
        """The rule a query names when it is one the held rulebooks do not describe (``terror``,
        ``how does regeneration work``), unless an entry is named so too."""
        for asked in (text, content):
            if not asked or self._exact_names(asked) or asked in self._keyword_owners and asked not in self._outside:
                continue
            if any(share >= 0.5 for share in self._phrases_in(meaningful(asked.split())).values()):
                continue  # a held entry's name is half the question ("pinning test": Barrage Pinning)
            if asked in self._outside:
                return self._outside[asked][0]
            folded = " ".join(fold(w) for w in asked.split())
            near = process.extractOne(asked, self._outside_names, scorer=fuzz.ratio, score_cutoff=88)
            if near is None:
                near = next(((n, 100, 0) for n in self._outside_names
                             if " ".join(fold(w) for w in n.split()) == folded), None)
            if near is not None and not self._fuzzy(asked, limit=1).get(next(iter(self._fuzzy(asked, limit=1)), -1), 0) >= 0.9:
                return self._outside[near[0]][0]
        return None

    def _mentioning(self, name: str, game: str | None, preferred: str | None) -> tuple[RuleEntry, ...]:
        """Suggestions for a rule the rulebooks do not hold: the entries whose text mentions it,
        the nearest names after them."""
        words = [w for w in normalise(name).split() if w not in STOP_WORDS]
        found = self._full_text(words, prefix_last=False)
        mentioning = [i for i in sorted(found, key=lambda i: -found[i])
                      if (game is None or self.entries[i].game == game)
                      and all(fold(w) in self._uses[i] for w in words)]
        mentioning.sort(key=lambda i: self.entries[i].game != (preferred or self._outside[normalise(name)][1]))
        out = [self.entries[i] for i in mentioning[:5]]
        for e in self._nearest(normalise(name), game, preferred, 5):
            if len(out) >= 5:
                break
            if e not in out:
                out.append(e)
        return tuple(out)

    def _machine_first(self, ordered: list[tuple[int, float]], words: list[str], phrases: dict[int, float],
                       game: str | None, preferred: str | None) -> list[tuple[int, float]]:
        """A question that names a machine and asks about something else ("does armour save work
        against a cannon", "can I move my cannon and still shoot") reaches the machine's own entry
        before a general one, when the machine's entry speaks of that something else."""
        if len(words) < 2 or not ordered:
            return ordered
        top = ordered[0][0]
        folded = {fold(w) for w in words}
        machines = [i for i in phrases if _is_machine(self.entries[i]) and (game is None or self.entries[i].game == game)
                    and set(self._name_words_of(i)) < folded]
        if preferred is not None and any(self.entries[i].game == preferred for i in machines):
            machines = [i for i in machines if self.entries[i].game == preferred]
        if not machines or top in machines:
            return ordered
        best = max(machines, key=lambda i: (phrases[i], -list(GAMES).index(self.entries[i].game)))
        machine = set(self._name_words_of(best))
        if top in phrases and machine <= self._name_words[top] and (preferred is None or self.entries[top].game == preferred):
            return ordered  # the top is named after the machine too: its misfire chart, who it hits
        rest = folded - machine
        if not rest or not all(w in self._uses[best] for w in rest):
            return ordered
        score = dict(ordered).get(best, ordered[0][1])
        return [(best, score)] + [(i, s) for i, s in ordered if i != best]

    def _name_words_of(self, i: int) -> tuple[str, ...]:
        e = self.entries[i]
        return tuple(fold(w) for w in meaningful(normalise(e.name).split()))

    def _content(self, text: str) -> str:
        """A normalised question less its stop and question words: what it is about."""
        return " ".join(w for w in text.split() if w not in STOP_WORDS and w not in QUESTION_WORDS)

    def _exact_names(self, text: str) -> dict[int, float]:
        """Entries named (1.0) or aliased (0.8) exactly `text`."""
        out: dict[int, float] = {}
        for i in self._exact.get(text, []) if text else []:
            named = normalise(self.entries[i].name) == text
            out[i] = max(out.get(i, 0.0), 1.0 if named else 0.8)
        return out

    def _about(self, asked: list[str]) -> dict[int, float]:
        """The entry named by what is left of the question once the topic words go ("cannon range",
        "great cannon strength"): the machine or troop whose profile answers it."""
        rest = " ".join(w for w in asked if w not in TOPIC_WORDS)
        return self._exact_names(rest) if rest and len(rest.split()) < len(asked) else {}

    def _phrases_in(self, asked: list[str]) -> dict[int, float]:
        """Entries all of whose name's or alias's words are in the question, scored by the share of
        the question it covers: the most specific name found wins ("stone thrower misfire" is the
        misfire chart's alias, "stone thrower" only the machine's name)."""
        words = {fold(w) for w in asked}
        if not words:
            return {}
        out: dict[int, float] = {}
        for phrase, i, is_name in self._phrases:
            if set(phrase) <= words:  # in any order: "crew of a war machine" finds "war machine crew"
                share = len(set(phrase)) / len(words) * (1.0 if is_name else 0.9)
                out[i] = max(out.get(i, 0.0), share)
        return out

    def _unused(self, i: int, content: str) -> bool:
        """Whether entry `i`'s text uses fewer than half the words the question asked with (as typed,
        before typos were mended): an entry is never chosen for words it does not use."""
        typed = [fold(w) for w in content.split() if len(w) > 2]
        return bool(typed) and sum(w in self._uses[i] for w in typed) * 2 < len(typed)

    def _named_share(self, i: int, words: list[str]) -> float:
        """The share of the question's words among entry `i`'s name, aliases and keywords."""
        if not words:
            return 0.0
        return sum(1 for w in words if fold(w) in self._name_words[i]) / len(words)

    def _names_a_word_of(self, i: int, text: str) -> bool:
        """Entry `i`'s name, aliases or keywords share a word with the query ("cannon" and
        Battle Cannon): a weak match that is still about what was asked."""
        e = self.entries[i]
        words = set(normalise(" ".join((e.name, *e.aliases, *e.keywords))).split())
        return bool(words & set(text.split()))

    def lookup(self, term: str, *, game: str | None = None, preferred: str | None = None) -> Found:
        """What ``/rules term:...`` shows: the entry whose key autocomplete handed back, else the
        search's best first."""
        entry = self.by_key.get(term.strip())
        if entry is not None and (game is None or entry.game == game):
            rest = [e for e in self.related(entry)]
            return Found(term, (entry, *rest), matched=True)
        return self.search(term, game=game, preferred=preferred)

    def autocomplete(self, current: str, *, game: str | None = None, preferred: str | None = None) -> list[tuple[str, str]]:
        """Up to 25 (label, key) pairs for Discord's autocomplete, labels within 100 characters."""
        found = self.search(current, game=game, preferred=preferred, limit=AUTOCOMPLETE_LIMIT, autocomplete=True)
        return [(choice_label(e), e.key[:CHOICE_LENGTH]) for e in found.entries]

    def related(self, entry: RuleEntry) -> list[RuleEntry]:
        """The entries `entry` names as related, in its order."""
        out = []
        for name in entry.related:
            r = related_entry(self._by_slug, entry, name)
            if r is not None:
                out.append(r)
        return out

    def _starting_with(self, text: str) -> set[int]:
        """Entries with a name or alias that starts with `text` (a binary search in the sorted names)."""
        found = set()
        at = bisect.bisect_left(self._sorted_names, (text, -1))
        while at < len(self._sorted_names) and self._sorted_names[at][0].startswith(text):
            found.add(self._sorted_names[at][1])
            at += 1
        return found

    def _default(self, game: str | None, preferred: str | None, limit: int) -> tuple[RuleEntry, ...]:
        pool = [e for e in self.entries if game is None or e.game == game]
        pool.sort(key=lambda e: (e.game != preferred, list(GAMES).index(e.game), e.name))
        return tuple(pool[:limit])

    def _nearest(self, text: str, game: str | None, preferred: str | None, limit: int) -> tuple[RuleEntry, ...]:
        scores: dict[int, float] = {}
        for _, score, at in process.extract(text, self._names, scorer=fuzz.WRatio, limit=None):
            owner = self._owners[at]
            if game is None or self.entries[owner].game == game:
                scores[owner] = max(scores.get(owner, 0.0), score)
        if not scores:
            return self._default(game, preferred, limit)
        ordered = sorted(scores, key=lambda i: (-scores[i], self.entries[i].game != preferred, self.entries[i].name))
        return tuple(self.entries[i] for i in ordered[: min(limit, 5)])


TOPIC_WORDS = frozenset("""
range minimum maximum min max strength profile profiles stats stat statline characteristics points cost costs
much long far big
""".split())
"""Words that ask for part of a machine's or troop's profile: "cannon range" is about the cannon."""


MACHINE_PROFILES = ("fantasy:cannon:", "fantasy:bolt-thrower", "fantasy:grapeshot", "fantasy:stone-thrower",
                    "fantasy:fire-thrower", "warmaster:artillery:", "warmaster:siege-artillery", "warmaster:siege-profile",
                    "wh40k:blast", "wh40k:barrage")
"""Profile references of machines (a gun, a catapult, a siege engine, an ordnance weapon): the
entries a question naming a machine reaches first (:meth:`RulesIndex._machine_first`)."""


def _is_machine(entry: RuleEntry) -> bool:
    return bool(entry.profile) and entry.profile.startswith(MACHINE_PROFILES)


def meaningful(words: list[str]) -> list[str]:
    """Words less the stop and question words."""
    return [w for w in words if w not in STOP_WORDS and w not in QUESTION_WORDS]


def fold(word: str) -> str:
    """A word with its ending folded (``misfires`` -> ``misfire``, ``moving`` and ``move`` ->
    ``mov``), for matching a question's words to names."""
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word


def choice_label(entry: RuleEntry) -> str:
    """``Cannon · Warhammer Fantasy``, cut to Discord's 100 characters."""
    label = f"{entry.name} · {entry.game_name}"
    return label if len(label) <= CHOICE_LENGTH else label[: CHOICE_LENGTH - 1] + "…"
