"""Every shipped rules entry (config/rules/*.toml): fields, references, coverage of the seeds and
of everything the engine knows, and our own words (no run of 12 words copied from a seed)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from config.gamedata import fantasy, warmaster, wh40k
from config.rules import GAMES, RESOLVERS, RuleEntry, help_page, load_file, resolve, rule_entries

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT.parent / "shared" / "seeds"
SPECIAL_RULES_SEED = SEEDS / "003_5f846e39a56c6689.txt"

LOST_HEADINGS = ["Ambushers", "Aquatic", "Ethereal", "Expendable", "Fear", "Flammable", "Frenzy", "Hatred", "Hidden"]
"""Special rules of seed 003 whose headings were lost in extraction (seeds/README.md names all but
Ambushers, which the text names in its own paragraph)."""

COPY_RUN = 12
"""A run of this many consecutive words shared with a seed counts as copied."""


def names_of(e: RuleEntry) -> set[str]:
    """Name and aliases, lower case, bracketed qualifiers and punctuation dropped."""
    return {bare(n) for n in (e.name, *e.aliases)}


def bare(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", re.sub(r"\([^)]*\)", "", text.lower()).replace("'", "")))


def entries_of(game: str) -> list[RuleEntry]:
    return [e for e in rule_entries() if e.game == game]


def known(game: str, name: str) -> bool:
    return any(bare(name) in names_of(e) for e in entries_of(game))


def test_every_entry_has_its_fields_and_a_known_game():
    entries = rule_entries()
    assert len(entries) > 150
    assert {e.game for e in entries} == set(GAMES)
    for e in entries:
        assert e.name.strip() and e.source.strip() and len(e.summary) >= 40, e.key
        assert e.key == f"{e.game}:{e.key.split(':', 1)[1]}" and len(e.key) <= 100, e.key
        assert len(f"{e.name} · {e.game_name}") <= 100, e.key
        assert e.source.startswith(("Warhammer Fantasy Battles", "Warmaster", "Warhammer 40,000")), e.key
        assert len(e.summary) <= 1500, f"{e.key}: keep summaries short"


def test_every_profile_and_chart_reference_resolves_to_a_table():
    refs = [(e, r) for e in rule_entries() for r in (e.profile, e.chart) if r]
    assert len(refs) >= 20
    for e, ref in refs:
        table = resolve(ref)
        assert table.rows and all(len(row) == len(table.headings) for row in table.rows), (e.key, ref)


def test_a_reference_no_resolver_knows_is_a_clear_error():
    with pytest.raises(ValueError, match="no resolver for 'chess:'"):
        resolve("chess:rook")
    with pytest.raises(ValueError, match="names nothing in the fantasy data"):
        resolve("fantasy:cannon:culverin")
    with pytest.raises(ValueError, match="names nothing in the warmaster data"):
        resolve("warmaster:siege-profile:catapult")
    with pytest.raises(ValueError, match="names nothing in the wh40k data"):
        resolve("wh40k:damage:catastrophic")
    assert set(RESOLVERS) == {"fantasy", "warmaster", "wh40k"}


def test_a_malformed_rules_file_names_the_file_and_entry(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "warmaster"\n[[entry]]\nname = "Tribock"\nsource = "Warmaster"\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad.toml entry 1 \(Tribock\): 'summary' is required"):
        load_file(bad)
    bad.write_text('game = "chess"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="'game' must be one of"):
        load_file(bad)
    bad.write_text('game = "wh40k"\n[[entry]]\nname = "X"\nsource = "Y"\nsummary = "Z"\ncolour = "red"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="unknown field"):
        load_file(bad)


def test_every_name_the_engine_knows_has_an_entry_that_shows_its_data():
    data = fantasy()
    refs = {r for e in rule_entries() for r in (e.profile, e.chart) if r}
    expected = (
        {f"fantasy:cannon:{k}" for k in data.cannons}
        | {f"fantasy:stone-thrower:{k}" for k in data.stone_throwers}
        | {f"fantasy:bolt-thrower:{k}" for k in data.bolt_throwers}
        | {"fantasy:grapeshot", "fantasy:to-hit:shooting"}
        | {f"fantasy:template:{k}" for k in data.templates}
        | {f"fantasy:misfire:{k}" for k in data.misfire_charts}
        | {f"fantasy:troop:{k}" for k in data.troops}
    )
    assert expected <= refs, sorted(expected - refs)
    profiles = [*data.cannons.values(), *data.stone_throwers.values(), *data.bolt_throwers.values(), data.grapeshot]
    for p in profiles:
        assert known("warhammer-fantasy", p.name), p.name
        for rule in p.special_rules:
            assert known("warhammer-fantasy", rule.split(",")[0]), rule
    for chart in data.misfire_charts.values():
        assert known("warhammer-fantasy", chart.name), chart.name
    for troop in data.troops.values():
        assert known("warhammer-fantasy", troop.name), troop.name


def test_every_warmaster_and_40k_name_the_engine_knows_has_an_entry_that_shows_its_data():
    """What the engine fires with in Warmaster and 40k is shown by some entry, read from the same
    data. Left out, having no entry of their own: the core rulebook's positions and full paces
    (not in the seeds) and 40k's hull size and bases (the bot's own choices)."""
    wm, w40 = warmaster(), wh40k()
    refs = {r for e in rule_entries() for r in (e.profile, e.chart) if r}
    expected = (
        {f"warmaster:siege-profile:{k}" for k, p in wm.siege_profiles.items() if k not in wm.siege_artillery}
        | {f"warmaster:siege-artillery:{k}" for k in wm.siege_artillery}
        | {f"warmaster:structure:{k}" for k in wm.structures}
        | {f"warmaster:artillery:{k}" for k in wm.artillery}
        | {f"warmaster:bands:{k}" for k, a in wm.artillery.items() if a.bands}
        | {f"warmaster:scenario:{k}" for k in wm.scenarios}
        | {"warmaster:oil", "warmaster:sally-gate", "warmaster:wall-breaching"}
        | {f"warmaster:list:{k}" for k in ("fortification", "siege-equipment", "siege-artillery")}
        | {f"wh40k:penetration:{k}" for k in w40.penetration if k != "normal"} | {"wh40k:penetration"}
        | {f"wh40k:damage:{k}" for k in w40.damage_tables}
        | {f"wh40k:blast:{k}" for k in w40.blast_markers}
        | {"wh40k:firing", "wh40k:wounds", "wh40k:barrage"}
    )
    assert expected <= refs, sorted(expected - refs)
    for name in [*(p.name for p in wm.siege_profiles.values()), *(a.name for a in wm.artillery.values()),
                 *(s.name for s in wm.structures.values()), *(s.name for s in wm.scenarios.values()), wm.oil.name]:
        assert known("warmaster", name.replace(" and rock droppers", "")), name
    for name in [*(w.name + "s" for w in w40.penetration.values() if w.strength is not None), "Monstrous creatures",
                 *(t.name for t in w40.damage_tables.values())]:
        assert known("wh40k", name), name


def test_warmaster_and_40k_tables_carry_the_engines_numbers():
    wm, w40 = warmaster(), wh40k()
    by_name = {(e.game, e.name): e for e in rule_entries()}

    def table(game: str, name: str, field: str = "profile"):
        return resolve(getattr(by_name[(game, name)], field))

    tower = table("warmaster", "Siege Towers")
    assert dict(zip(tower.headings, tower.rows[0])) == {"Type": "M", "Attack": "0", "Hits": "3", "Armour": "3+",
                                                        "Points": "20", "Min/max": "-/-"}
    oil = table("warmaster", "Boiling Oil", "chart")
    assert [r[:2] for r in oil.rows] == [("1", "0"), ("2-3", "1"), ("4-5", "2"), ("6", "3")]
    assert [r.attacks for r in wm.oil.rows] == [int(r[1]) for r in oil.rows]
    assert table("warmaster", "Gateway").rows[0][0] == str(wm.structures["gateway"].points) == "12"
    assert table("warmaster", "Gateway Tower").rows[0][0] == "25 (its gate 12)"
    # The lists' order and costs (issue 16: /rules shows the costs).
    assert [r[:3] for r in table("warmaster", "Fortification List", "chart").rows][:3] == [
        ("Gateway", "12", "40"), ("Gateway tower", "25 (its gate 12)", "150"), ("Wall", "20", "55")]
    assert [(r[0], r[5]) for r in table("warmaster", "Siege Equipment Lists", "chart").rows] == [
        ("Siege tower", "20"), ("Battering ram", "10"), ("Sow", "5"), ("Boiling oil or rock droppers", "5"),
        ("Log rams", "5"), ("Ladders", "5"), ("Mantlets", "10")]
    assert [r[0] for r in table("warmaster", "Siege Artillery List", "chart").rows] == ["Tribock", "Bombard", "Mangonel"]
    tribock = dict(zip(*(lambda t: (t.headings, t.rows[0]))(table("warmaster", "Tribock"))))
    assert tribock["Points"] == "120" and tribock["Range"] == "20-120 cm" and tribock["Sight"].startswith("4 cm")
    assert table("warmaster", "Cannon") == table("warmaster", "Grapeshot")
    assert table("warmaster", "Cannon").rows[0][:2] == ("60 cm", "2 a stand")
    assert table("warmaster", "Helblaster Gun", "chart").rows == (
        ("up to 10 cm", "6"), ("over 10, up to 20 cm", "3"), ("over 20, up to 30 cm", "1"))
    assert "Armour" not in table("warmaster", "Orc Rock Lobber").headings  # the seed stops before saying
    glancing = table("wh40k", "Glancing Hit Table", "chart")
    assert [r[:2] for r in glancing.rows] == [("1-2", "Crew shaken"), ("3", "Crew stunned"), ("4", "Armament destroyed"),
                                              ("5", "Immobilised"), ("6", "Vehicle destroyed")]
    assert table("wh40k", "Ordnance Hit Table", "chart").rows[-1][1] == "Vehicle annihilated"
    assert table("wh40k", "Melta Bombs").rows[0][:2] == ("8 + 2D6", "8 (fixed)")
    assert table("wh40k", "Krak Grenades").rows[0][:2] == ("6 + D6", "6 (fixed)")
    assert table("wh40k", "Ordnance Penetration").rows[0][2] == "Ordnance Hit table"
    firing = table("wh40k", "Moving and Firing", "chart")
    assert firing.rows[0] == ("Normal vehicle", '12"', "all weapons", "all defensive weapons and 1 main weapon",
                              "no weapons", "no weapons")
    assert table("wh40k", "Ordnance Weapons").rows[0][:2] == ('5"', "hit on 4+")
    assert w40.blast_markers["large"].diameter == 5.0


def seed_003_headings() -> list[str]:
    lines = SPECIAL_RULES_SEED.read_text(encoding="utf-8").split("\n")
    found = []
    for i, line in enumerate(lines[1:-1], start=1):
        text = line.strip()
        if (text and len(text) < 45 and not text.endswith((".", ":", ","))
                and not lines[i - 1].strip() and not lines[i + 1].strip()):
            found.append(text)
    return found


@pytest.mark.skipif(not SPECIAL_RULES_SEED.exists(), reason="the seeds are not beside the project")
def test_every_special_rule_heading_of_seed_003_has_an_entry():
    headings = seed_003_headings()
    assert len(headings) >= 28 and "Killing Blow" in headings and "Fire & Flee" in headings
    missing = [h for h in headings + LOST_HEADINGS if not known("warhammer-fantasy", h)]
    assert not missing


# Names of seeds 001, 002 and 004 that must each have an entry (name or alias) in their game.
WARMASTER = [
    # siege rules (001)
    "General siege rules", "Movement", "Shooting at fortifications", "Structure tests", "Destruction Token",
    "Battering", "Breaches", "Gateways", "Assaults", "Counter attacks on ramparts", "Giants", "Towers",
    "Gateway towers", "Flyers attacking fortifications", "Character movement", "Magic", "Siege machines",
    "Shooting straight ahead", "Wall breaching artillery",
    # machines and equipment
    "Siege towers", "Battering rams", "Sows", "Mantlets", "Boiling oil", "Rock droppers", "Log rams", "Ladders",
    "Earthworks", "Tribock", "Bombard", "Mangonel",
    # fortifications
    "Gateway", "Gateway tower", "Wall", "Sally gate", "Tower", "Palisade tower", "Palisade wall", "Earthwork",
    # lists and scenarios
    "Siege equipment lists", "Fortification", "Siege artillery list", "Into the breach", "The watchtower",
    # artillery and machines (002)
    "Shooting overhead", "Artillery in combat", "Cannons", "Bounce", "Grapeshot", "Helblaster", "Undead Bone Thrower",
    "Elven Bolt Thrower", "Orc Rock Lobbers",
]
WH40K = [
    "Open-Topped Vehicles", "Fast Vehicles", "Skimmers", "Tanks", "Walkers", "Vehicle Characteristics",
    "Vehicle Movement", "Difficult Terrain", "Terrain Effects", "Roads", "Carrying Troops", "Access Points",
    "Disembarking", "Embarking", "Embarking and Disembarking", "Passenger Capacity", "Dedicated Transports",
    "Vehicle Firing", "Vehicle Line of Sight", "Vehicle Weaponry", "Defensive Weaponry", "Main Weaponry",
    "Vehicle Moving & Firing Summary", "Turning to Face", "Troops Firing From Vehicles", "Fire Points",
    "Ordnance Weapons", "Normal Ordnance", "Firing procedure for ordnance weapons", "Ordnance Weaponry Summary",
    "Battle Cannon", "Demolisher", "Griffon Mortar", "Earthshaker", "Whirlwind", "Ordnance Barrages",
    "Ordnance Barrage Pinning", "Shooting at Vehicles", "Choosing a Vehicle as a Target", "Armour Penetration",
    "Vehicle Armour Values", "Damage Rolls", "Wrecks", "Glancing Hit", "Penetrating Hit", "Ordnance Hit",
    "Crew & Passengers", "Stun results", "Immobilised Vehicles", "Obscured Targets", "Skimmers Moving Fast",
    "Hull Down", "Smoke Launchers", "Vehicles in an Assault", "Tank Shock", "Death or Glory",
    "Infantry Assaulting Vehicles", "Monstrous Creatures", "Melta Bombs", "Krak Grenades", "Walkers in an Assault",
    "Using Grenades Against Walkers", "Dreadnought Close Combat Weapons", "Vehicle Morale", "Enemy Morale",
    "Addition to Trial Assault Rules",
]
FANTASY_WAR_MACHINES = [
    "Split Profile", "The Crew", "The War Machine", "Movement (War Machines)", "Charging a War Machine",
    "Shooting at War Machines", "Shooting with War Machines", "War Machines in Close Combat",
    "War Machines and Panic", "Bolt Throwers", "Resolving Bolt Thrower Hits", "Bolt Throwers and Characters",
    "Cannons", "Great Cannon", "Choose Target (Cannon)", "Fire! (Cannon)", "Bounce", "Who's Been Hit? (Cannon)",
    "Direct Hit (Cannon)", "Grapeshot", "Black Powder Misfire Chart", "Stone Throwers", "Scatter (Stone Thrower)",
    "Damage (Stone Thrower)", "Firing Indirectly", "Stone Thrower Misfire Chart", "Fire Throwers",
]


@pytest.mark.parametrize("game, names", [("warmaster", WARMASTER), ("wh40k", WH40K), ("warhammer-fantasy", FANTASY_WAR_MACHINES)])
def test_every_section_of_the_seeds_has_an_entry(game, names):
    missing = [n for n in names if not known(game, n)]
    assert not missing


def test_the_same_name_in_two_games_gives_two_entries():
    for name in ("Cannon", "Bounce", "Grapeshot"):
        assert {e.game for e in rule_entries() if e.name == name} == {"warhammer-fantasy", "warmaster"}


def words(text: str) -> list[str]:
    """Lower case, apostrophes dropped, any other punctuation a break between words."""
    return re.findall(r"[a-z0-9]+", text.lower().replace("'", "").replace("\u2019", ""))


def runs(text: str, n: int = COPY_RUN) -> set[tuple[str, ...]]:
    w = words(text)
    return {tuple(w[i : i + n]) for i in range(len(w) - n + 1)}


def shown_texts() -> list[tuple[str, str]]:
    """Every text the bot shows from data: entries, help, and the chart effects /rules prints."""
    out = [(e.key, " ".join((e.name, *e.aliases, *e.keywords, e.summary))) for e in rule_entries()]
    page = help_page()
    out += [("help.toml", " ".join((page.intro, page.dice, page.report)))]
    out += [(f"fantasy.toml {c.key}", " ".join(r.effect for r in c.rows)) for c in fantasy().misfire_charts.values()]
    out += [(ref, " ".join(" ".join(row) for row in resolve(ref).rows))
            for ref in sorted({r for e in rule_entries() for r in (e.profile, e.chart) if r and not r.startswith("fantasy")})]
    return out


@pytest.mark.skipif(not SEEDS.exists(), reason="the seeds are not beside the project")
def test_no_text_shares_a_run_of_twelve_words_with_a_seed():
    seed_runs: set[tuple[str, ...]] = set()
    for path in sorted(SEEDS.glob("0*.txt")):
        seed_runs |= runs(path.read_text(encoding="utf-8"))
    assert len(seed_runs) > 30000
    copied = {key: [" ".join(r) for r in runs(text) & seed_runs] for key, text in shown_texts()}
    assert not {k: v for k, v in copied.items() if v}


def test_the_copy_check_catches_a_copied_sentence():
    seed = "If the result is a misfire then the cannonball does not bounce and thuds into the ground."
    ours = "Note: if the result is a misfire then the cannonball does not bounce and thuds into mud."
    assert runs(ours) & runs(seed)
    assert not runs("A misfire means the ball buries itself where it landed.") & runs(seed)


def test_the_help_page_words_are_there():
    page = help_page()
    assert "open an issue in the project repository" in page.report.lower()
    assert "@DEG" in page.dice and "M" in page.dice
    raw = tomllib.loads((ROOT / "config" / "help.toml").read_text(encoding="utf-8"))
    assert set(raw["examples"]) == set(page.examples)


def test_another_games_resolver_plugs_in_with_one_line(monkeypatch):
    import config.rules as rules
    from config.rules import RulesTable

    def warmaster(rest: str) -> RulesTable:
        kind, _, key = rest.partition(":")
        if (kind, key) != ("siege-equipment", "siege-tower"):
            raise KeyError(rest)
        return RulesTable("Siege tower", ("Type", "Hits", "Armour"), (("M", "3", "3+"),), "Warmaster, Siege & Fortresses")

    monkeypatch.setattr(rules, "RESOLVERS", {**rules.RESOLVERS, "warmaster": warmaster})
    rules.resolve.cache_clear()
    try:
        assert resolve("warmaster:siege-equipment:siege-tower").rows == (("M", "3", "3+"),)
        with pytest.raises(ValueError, match="names nothing in the warmaster data"):
            resolve("warmaster:siege-equipment:catapult")
    finally:
        rules.resolve.cache_clear()
