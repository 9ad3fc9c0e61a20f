"""Issue 16, Warhammer Fantasy: hits on a war machine whose crew mix profiles.

Seed 000, Shooting at War Machines: "In case the crew of the war machine is made up of models with
different profiles, such as a character or other unique crew model; allocate the hits between the
crew as you would for shooting at characters in a unit (see the Characters chapter)."

The Characters chapter is the core rulebook's, not a seed: a crew is always under five rank-and-file
models, so each hit is randomised among the crew models (docs/choices.md). Every model stands
against the machine's Toughness ("using the Toughness value of the war machine") with its own
saves; wounds beyond a character's Wounds are lost."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from config.gamedata import fantasy
from engine.dice import EnteredDice, RandomDice
from engine.errors import RulesError
from engine.fantasy.shooting_sequence import CREW, MAX_CREW, CrewModel, fire_missiles, read_crew
from engine.fantasy.wounding import Profile
from tests.engine.conftest import NoDice

DATA = fantasy()
MACHINE = Profile(7, 1, 6)  # the machine's Toughness 7; the crew's armour save 6+


def fire(faces: str, *, shots: int, crew: int, characters, strength: int = 4, **kw):
    return fire_missiles(EnteredDice(faces, NoDice()), DATA.to_hit_penalties, shots=shots, ballistic_skill=3,
                         strength=strength, profile=MACHINE, crew=crew, characters=characters, **kw)


ENGINEER = CrewModel("engineer", wounds=2, save=4)


def test_each_hit_is_randomised_among_the_crew_models_then_wounds_with_the_models_own_saves():
    # 6 shots at BS3 (4+): 4 hits. Faces 1-3 are the crew, 4 the engineer: hits on shots 1 and 4
    # go to the crew, 2 and 3 to the engineer. Crew: to wound 6, 6 against T7 (6+); S4 leaves the
    # crew's 6+ no save: 2 crew lost. Engineer: 6 wounds, 5 fails; his 4+ is 5+ at S4: a 5 saves.
    f = fire("5 5 5 5 1 1  1 4 4 2  6 6  6 5  5", shots=6, crew=3, characters=(ENGINEER,))
    assert [(h.shot, h.model, h.die.value) for h in f.allocation] == [
        (1, CREW, 1), (2, "engineer", 4), (3, "engineer", 4), (4, CREW, 2)]
    crew, engineer = f.shares
    assert crew.shots == (1, 4) and crew.lost == 2 and crew.profile.save == 6
    assert engineer.shots == (2, 3) and engineer.profile.save == 4 and engineer.lost == 0
    assert [w.save_needed for w in engineer.wounds if w.wounded] == [5]
    assert f.crew == 4 and f.crew_lost == 2 and not f.machine_destroyed
    assert [d.purpose for d in f.dice][6] == "crew model hit by shot 1 (1-3 crew, 4 engineer)"


def test_wounds_beyond_a_characters_wounds_are_lost_and_the_machine_falls_with_its_last_model():
    # 1 crew and the engineer (W2); 4 shots, all hit (4s). Faces: 2 2 2 1 -> three on the engineer,
    # one on the crewman. S7 against T7 wounds on 4+: all wound (4s). The crew's 6+ at S7 is gone;
    # the engineer's 4+ is 7+ at S7: no saves. Engineer: 3 unsaved, only 2 count, slain on the
    # second; crewman slain: the machine is removed.
    f = fire("4 4 4 4  2 2 2 1  4  4 4 4", shots=4, crew=1, characters=(ENGINEER,), strength=7)
    crew, engineer = f.shares
    assert [w.wounds for w in engineer.wounds] == [1, 1, 0]
    assert [w.slain for w in engineer.wounds] == [False, True, False]
    assert engineer.unsaved == 2 and engineer.lost == 1 and crew.lost == 1
    assert f.crew_lost == 2 and f.machine_destroyed


def test_a_model_with_no_save_and_a_ward_of_its_own():
    # 2 crew and a shaman with no armour but a 5+ ward. 1 shot hits (5); face 3: the shaman.
    # S3 against T7 cannot wound: nothing to save.
    shaman = CrewModel("shaman", no_save=True, ward=5)
    f = fire("5  3", shots=1, crew=2, characters=(shaman,), strength=3)
    (_, share) = f.shares
    assert share.profile.save is None and share.profile.ward == 5
    assert share.wounds[0].to_wound_needed is None and f.crew_lost == 0


def test_a_lone_character_needs_no_allocation_die():
    # One hit (5) on the only crew model; to wound 6; his 4+ is gone at S7: one of his 3 Wounds.
    f = fire("5  6", shots=1, crew=0, characters=(CrewModel("master engineer", wounds=3, save=4),), strength=7)
    assert f.allocation[0].die is None and f.allocation[0].model == "master engineer"
    assert f.crew == 1 and f.crew_lost == 0 and f.shares[0].unsaved == 1


@pytest.mark.parametrize("text, crew, names", [
    ("3", 3, ()),
    ("3, engineer W2 4+", 3, ("engineer",)),
    ("2, master engineer W3 save 4 ward 5+, shaman no save 5++", 2, ("master engineer", "shaman")),
    ("engineer", 0, ("engineer",)),
])
def test_crews_are_read_as_players_write_them(text, crew, names):
    n, models = read_crew(text)
    assert n == crew and tuple(m.name for m in models) == names


def test_a_read_crew_keeps_each_value():
    _, (master, shaman) = read_crew("2, master engineer W3 save 4 ward 5+, shaman no save 5++")
    assert (master.wounds, master.save, master.ward, master.no_save) == (3, 4, 5, False)
    assert (shaman.wounds, shaman.save, shaman.ward, shaman.no_save) == (1, None, 5, True)


@pytest.mark.parametrize("text, message", [
    ("3, 2", "gives the number of ordinary crew twice"),
    ("11", "give 1 to 10 crew models left"),
    ("0", "give 1 to 10 crew models left"),
    ("9, a, b", "is 11 models"),
    ("1, a, b, c, d", "at most 3 fit one command"),
    ("2, engineer W2 4+ x7", "'x7' is not a name"),
    ("2, W2 4+", "has no name"),
    ("2, engineer W0", "Wounds 0 is not possible"),
    ("2, engineer 9+", r"Armour save 9\+ is not possible"),
    ("2, engineer, Engineer", "a name of its own"),
    ("2, crew W2", "a name of its own"),
    ("2, engineer W²", "is not a name"),
    ("2, " + "e" * 30, "too long"),
])
def test_a_crew_that_cannot_be_read_is_one_sentence(text, message):
    with pytest.raises(RulesError, match=message):
        read_crew(text)


@settings(max_examples=60, deadline=None)
@given(crew=st.integers(0, 4), wounds=st.integers(1, 3), shots=st.integers(1, 12), seed=st.integers(0, 10**6),
       strength=st.integers(3, 10))
def test_any_volley_at_a_mixed_crew_adds_up(crew, wounds, shots, seed, strength):
    f = fire_missiles(RandomDice(seed), DATA.to_hit_penalties, shots=shots, ballistic_skill=3, strength=strength,
                      profile=MACHINE, crew=crew, characters=(CrewModel("engineer", wounds=wounds, save=4),))
    assert len(f.allocation) == f.volley.hits
    assert sorted(n for s in f.shares for n in s.shots) == [h.shot for h in f.allocation]
    assert all(s.unsaved <= (s.models if s.model == CREW else s.profile.wounds) or s.model == CREW for s in f.shares)
    assert 0 <= f.crew_lost <= crew + 1 == f.crew
    assert f.machine_destroyed == (f.crew_lost == crew + 1)
    assert f.crew <= MAX_CREW
