"""`/roll`: the dice notation for every roll the war machine procedures do not cover.

No dice library on PyPI reads these games' notation (success pools, the artillery and scatter
dice, the wargame D66) while taking its dice from our :class:`~engine.dice.Dice` sources, which
the roll log needs to re-derive every die; so this is a small grammar of our own. It reads what
users of Avrae's d20 and of Dice Maiden type (docs/dice.md compares them form by form), one or
more expressions separated by commas, semicolons or plain spaces (a new expression starts wherever
a die or number stands where an operator could), then an optional label::

    command    = expression [label] { [","|";"] expression [label] }
    label      = ("!" | "#") TEXT | WORDS            "1d20+5 to hit, 2d6 damage", "4d6 ! stats", "2d6 # morale"
                                                    (words end at a comma; after ! or # the line does)
    expression = sum
    sum        = product { ("+"|"-") product }
    product    = unary { ("*"|"/") unary }           "/" rounds down
    unary      = ["+"|"-"] atom                      "+d20" / "-d20" alone: advantage / disadvantage
    atom       = NUMBER | dice | "(" sum ")"
    dice       = [COUNT] ("d" SIDES | "d%" | "dF" | "d66" | "a" | "s") { modifier }
    modifier   = ("kh"|"kl"|"k") [K]                 keep the K (default 1) highest or lowest; k: highest
               | ("dh"|"dl") [K]                     drop the K highest or lowest ("4d6d1" too: lowest)
               | ("r"|"ir") [cmp] FACE              re-roll FACE or below (Dice Maiden): once, or again and again
               | ("ro"|"rr") [cmp] FACE             re-roll FACE exactly (d20): once, or again and again
               | ("e"|"ie"|"!") [FACE]              explode on FACE or more (default: the top face):
                                                      once (e), or again and again (ie, !)
               | (">="|">"|"<="|"<"|"=") FACE | "t" FACE | FACE "+"    count the dice that pass: a pool
               | "f" FACE                            a pool's failures: dice at or below, taken away
               | "adv" | "dis"                       one die rolled twice, the higher or lower kept

Letters are case-insensitive and spaces between the parts are allowed (``10d6>=5 r1``). ``a`` is
the artillery die (2 4 6 8 10 Misfire), ``s`` the scatter die (HIT or an arrow), ``d66`` the
wargame D66 (two D6 read as tens and units: 11 to 66, rolled and logged as two D6), ``dF`` the
Fudge die (-1, 0, +1, rolled and logged as a D3), ``d%`` a d100. Dice order (for ``dice:``):
expressions left to right, each term's dice in order, then its re-rolls in order, then its
explosions in order.

Re-rolls and explosions are bounded: a die is re-rolled or explodes at most :data:`MAX_CHAIN`
times in a row, and one command adds at most :data:`MAX_EXTRA` such dice; where a bound stops a
chain, the result says so.

A mistake raises :class:`RollSyntaxError`, whose message names the problem and shows the
expression with a caret under the bad character.
"""

from __future__ import annotations

import enum
import functools
import re
from dataclasses import dataclass, replace

from engine.dice import MAX_SIDES, Dice, DieKind, DieRoll
from engine.errors import RulesError

MAX_DICE = 1000
"""The most dice one command asks for (re-rolls and explosions not counted)."""
MAX_EXPRESSIONS = 10
"""The most expressions one command rolls (one embed field each)."""
MAX_NUMBER = 10_000
"""The largest number written in an expression."""
MAX_LENGTH = 200
"""The longest command text read."""
SHOWN_AROUND = 80
"""At most this many characters of the expression are quoted back in an error, around the caret."""
MAX_CHAIN = 100
"""A die is re-rolled, or explodes, at most this many times in a row (Dice Maiden's bound)."""
MAX_EXTRA = 1000
"""Re-rolls and explosions one command rolls at most, all terms together."""
MAX_LABEL = 100
"""The longest label shown."""
MAX_DEPTH = 10
"""Parentheses nest at most this deep."""


class RollSyntaxError(RulesError):
    """An expression `/roll` cannot read, with where: the message shows it with a caret."""

    def __init__(self, text: str, position: int, reason: str) -> None:
        self.text = text
        self.position = position
        self.reason = reason
        shown = text.replace("\n", " ").replace("\t", " ")  # one line, the caret still under its character
        caret = position
        if len(shown) > SHOWN_AROUND:  # a window around the caret: an error quotes a short excerpt, never all
            start = max(0, min(position - SHOWN_AROUND // 2, len(shown) - SHOWN_AROUND))
            end = start + SHOWN_AROUND
            shown = ("…" if start else "") + shown[start:end] + ("…" if end < len(shown) else "")
            caret = position - start + (1 if start else 0)
        super().__init__(
            f"Roll: {reason} (at character {position + 1}):\n```\n{shown}\n{' ' * caret}^\n```"
        )


class Compare(enum.Enum):
    """How a die's value is compared with a face: success pools, re-rolls and explosions."""

    AT_LEAST = ">="
    ABOVE = ">"
    AT_MOST = "<="
    BELOW = "<"
    EQUAL = "="

    def passes(self, value: int, face: int) -> bool:
        if self is Compare.AT_LEAST:
            return value >= face
        if self is Compare.ABOVE:
            return value > face
        if self is Compare.AT_MOST:
            return value <= face
        if self is Compare.BELOW:
            return value < face
        return value == face


@dataclass(frozen=True, slots=True)
class Condition:
    compare: Compare
    face: int

    def passes(self, value: int) -> bool:
        return self.compare.passes(value, self.face)

    def __str__(self) -> str:
        return f"{'' if self.compare is Compare.EQUAL else self.compare.value}{self.face}"


class Special(enum.Enum):
    """Dice that are not one numbered die each."""

    D66 = "d66"
    """Two D6, tens and units: 11 to 66 (36 results, each equally likely)."""
    FUDGE = "dF"
    """-1, 0 or +1, from a D3 (1, 2, 3)."""


@dataclass(frozen=True, slots=True)
class Term:
    """One part of an expression as written: a number, or a handful of one kind of die."""

    text: str
    """As written, spaces dropped: ``20d6>=4r1``."""
    sign: int
    """+1 or -1: added or taken away (always +1 inside an expression with ``*``, ``/`` or
    parentheses, whose :attr:`Expression.tree` then says how the terms combine)."""
    constant: int | None
    """A plain number; None for dice."""
    count: int = 0
    kind: DieKind | None = None
    sides: int | None = None
    """Numbered dice (D3, D6, dX): how many sides; None for the artillery and scatter dice."""
    keep: tuple[str, int] | None = None
    """``("h", K)`` or ``("l", K)``: only the K highest or lowest count."""
    reroll: Condition | None = None
    """Dice passing this are rolled once more; the new face stands."""
    target: Condition | None = None
    """A success pool: the number of dice passing this is the result."""
    drop: tuple[str, int] | None = None
    """``("l", K)`` or ``("h", K)``: the K lowest or highest left out (before keep)."""
    reroll_again: bool = False
    """Re-roll a new face that passes again (``ir``, ``rr``), up to :data:`MAX_CHAIN` times."""
    explode: Condition | None = None
    """Each die passing this adds another die."""
    explode_again: bool = False
    """An added die that passes explodes too (``ie``, ``!``), up to :data:`MAX_CHAIN` times."""
    failure: Condition | None = None
    """A pool's failures: each die passing this takes one success away."""
    special: Special | None = None
    alias: str | None = None
    """How the term was written when it stands for another: ``advantage`` for ``1d20 adv`` and
    ``+d20`` (2d20, the higher kept), ``disadvantage``."""


@dataclass(frozen=True, slots=True)
class Expression:
    text: str
    """As written, spaces dropped."""
    terms: tuple[Term, ...]
    tree: tuple | None = None
    """How the terms combine when the expression multiplies, divides or uses parentheses:
    ``("t", i)`` is term `i`, ``("neg", node)``, ``(op, left, right)`` with op one of + - * /.
    None for a plain sum, where each term's sign says it."""
    label: str | None = None
    """The label written after it: words up to the next comma (``1d20+5 to hit, 2d6 damage``),
    or the rest of the line after ``!`` or ``#``."""


class ExpressionKind(enum.Enum):
    SUM = "sum"
    POOL = "pool"
    SCATTER = "scatter"


@dataclass(frozen=True, slots=True)
class RolledDie:
    """One die of a term and what became of it."""

    roll: DieRoll
    rerolled: bool
    """Replaced by a re-roll (shown struck through)."""
    dropped: bool
    """Left out by keep or drop."""
    success: bool | None
    """Success pools: whether it passed; None otherwise."""
    value: int | None = None
    """What it counts for: its face, a D66's tens and units, a Fudge die's -1/0/+1; None for the
    artillery die's misfire and the scatter die."""
    units: DieRoll | None = None
    """A D66's second die (the units); ``roll`` is the tens."""
    exploded: bool = False
    """Added by an explosion."""
    after: int | None = None
    """The index (in :attr:`TermResult.dice`) of the die this one re-rolls or explodes from."""
    failure: bool = False
    """A pool's failure (``f1``): takes one success away."""
    fudge: bool = False
    """A Fudge die: its D3 read as -1, 0 or +1."""

    @property
    def face(self) -> str:
        if self.units is not None:
            return f"{self.roll.face}{self.units.face}"
        if self.fudge:
            return {-1: "-", 0: "0", 1: "+"}[self.value]
        return self.roll.face

    @property
    def rolls(self) -> tuple[DieRoll, ...]:
        return (self.roll,) if self.units is None else (self.roll, self.units)


@dataclass(frozen=True, slots=True)
class TermResult:
    term: Term
    dice: tuple[RolledDie, ...]
    """Every die in the order rolled: the first throw, then the re-rolls, then the explosions."""
    value: int | None
    """What it adds (signed): the number, the kept dice's sum, or the successes; None when an
    artillery die misfired or for scatter dice."""
    bounded: bool = False
    """A re-roll or explosion chain was stopped by :data:`MAX_CHAIN` or :data:`MAX_EXTRA`."""

    def in_order(self) -> list[RolledDie]:
        """The dice as a table shows them: each die of the first throw followed by its re-rolls
        and explosions, in turn."""
        children: dict[int, list[int]] = {}
        for i, d in enumerate(self.dice):
            if d.after is not None:
                children.setdefault(d.after, []).append(i)
        out: list[RolledDie] = []

        def walk(i: int) -> None:
            out.append(self.dice[i])
            for c in children.get(i, ()):
                walk(c)

        for i, d in enumerate(self.dice):
            if d.after is None:
                walk(i)
        return out


@dataclass(frozen=True, slots=True)
class ExpressionResult:
    expression: Expression
    kind: ExpressionKind
    terms: tuple[TermResult, ...]
    total: int | None
    """The sum, or the number of successes (less failures); None for a misfire and for scatter dice."""
    misfire: bool
    """An artillery die showed the misfire face (the sum then has no total)."""

    @property
    def dice(self) -> tuple[DieRoll, ...]:
        return tuple(r for t in self.terms for d in t.dice for r in d.rolls)

    @property
    def bounded(self) -> bool:
        return any(t.bounded for t in self.terms)


@dataclass(frozen=True, slots=True)
class RollResult:
    text: str
    """The command as typed."""
    expressions: tuple[ExpressionResult, ...]
    dice: tuple[DieRoll, ...]
    """Every die, in the order rolled."""
    label: str | None = None
    """The first label written after the dice (``1d20+5 to hit``: "to hit"); each expression
    keeps its own (:attr:`Expression.label`)."""


# ---------------------------------------------------------------------------------------- reading

_LABEL_MARKS = ("!", "#")
_WORD_END = re.compile(r"(?=$|[\s,;!#])")


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.low = text.lower()
        self.pos = 0
        self.dice = 0
        self.depth = 0

    def fail(self, reason: str, at: int | None = None) -> RollSyntaxError:
        return RollSyntaxError(self.text, self.pos if at is None else at, reason)

    def peek(self, ahead: int = 0) -> str:
        i = self.pos + ahead
        return self.low[i] if i < len(self.low) else ""

    def skip_spaces(self) -> None:
        while self.peek() in (" ", "\t", "\n") and self.peek():
            self.pos += 1

    def at_end(self) -> bool:
        return self.pos >= len(self.low)

    def looking_at(self, word: str) -> bool:
        return self.low.startswith(word, self.pos)

    def word_ends(self, at: int) -> bool:
        """Whether a word ends at `at`: the end, a space, a comma, or a label mark."""
        return _WORD_END.match(self.low, at) is not None

    def digit(self, ahead: int = 0) -> bool:
        c = self.peek(ahead)
        return c != "" and c.isdigit() and c.isascii()

    def number(self, what: str) -> int:
        start = self.pos
        while self.digit():
            self.pos += 1
        if self.pos == start:
            shown = f"'{self.text[start]}'" if start < len(self.text) else "the end"
            raise self.fail(f"{what} should be a number here, not {shown}", start)
        digits = self.low[start : self.pos]
        if len(digits) > 5 or int(digits) > MAX_NUMBER:
            raise self.fail(f"{digits} is too big: numbers go up to {MAX_NUMBER}", start)
        return int(digits)

    def starts_term(self) -> bool:
        c = self.peek()
        return c != "" and (c.isdigit() and c.isascii() or c in "das(")

    def starts_label(self) -> bool:
        """Whether what follows (after a space) is words rather than dice: ``to hit``, ``damage``.
        A word that reads as a die (``d6``, ``2d6``, ``a``, ``s``, ``d%``, ``df``) is a die."""
        c = self.peek()
        if c in _LABEL_MARKS:
            return True
        if not c.isalpha() or not c.isascii():
            return False
        return re.match(r"(d(\d|%|f(?![a-z]))|[as](?![a-z]))", self.low[self.pos:]) is None


def _compare(r: _Reader) -> Compare | None:
    for word, compare in ((">=", Compare.AT_LEAST), ("<=", Compare.AT_MOST), (">", Compare.ABOVE), ("<", Compare.BELOW), ("=", Compare.EQUAL)):
        if r.looking_at(word):
            r.pos += len(word)
            return compare
    return None


def _count_after(r: _Reader, default: int) -> int:
    return r.number("how many") if r.digit() else default


def _modifiers(r: _Reader, start: int, count: int, kind: DieKind, sides: int | None, special: Special | None) -> dict:
    """The modifiers after a handful of dice, each once; checked against the dice they apply to."""
    found: dict = {}
    numbered = sides is not None and special is None
    while True:
        before = r.pos
        spaced = False
        r.skip_spaces()
        spaced = r.pos > before
        at = r.pos
        value: object
        if (r.looking_at("kh") or r.looking_at("kl")) and (r.digit(2) or r.word_ends(at + 2)):
            name, what = "keep", "keep"
            r.pos += 2
            value = (r.low[at + 1], _count_after(r, 1))
        elif r.peek() == "k" and (r.digit(1) or r.word_ends(at + 1)):
            name, what = "keep", "keep"  # Dice Maiden's k3: the highest 3
            r.pos += 1
            value = ("h", _count_after(r, 1))
        elif (r.looking_at("dh") or r.looking_at("dl")) and (r.digit(2) or r.word_ends(at + 2)):
            name, what = "drop", "drop"
            r.pos += 2
            value = (r.low[at + 1], _count_after(r, 1))
        elif r.peek() == "d" and r.digit(1) and (not spaced or _digits_at(r, at + 1) in (0, 1)):
            # Dice Maiden's drop: "4d6d1" (attached) or "3d10 d1" (no die has one side)
            name, what = "drop", "drop"
            r.pos += 1
            value = ("l", r.number("how many to drop"))
        elif r.looking_at("adv") or r.looking_at("dis"):
            if not (r.word_ends(at + 3) or r.peek(3) in ("+", "-", "*", "/", ")") and r.peek(3)):
                r.pos = before
                return found
            name, what = "advantage", r.low[at : at + 3]
            r.pos += 3
            value = "advantage" if what == "adv" else "disadvantage"
        elif (any(r.looking_at(w) for w in ("ro", "rr", "ir")) and (r.digit(2) or r.peek(2) in ("<", "=") and r.peek(2))
              or r.peek() == "r" and not r.peek(1).isalpha()):
            name, what = "reroll", "a re-roll"
            word = "r" if r.peek(1) not in ("o", "r") and r.peek() == "r" else r.low[at : at + 2]
            r.pos += len(word)
            compare = _compare(r)
            if compare is None:  # r2 / ir2: that face or below (Dice Maiden); ro1 / rr1: that face (d20)
                compare = Compare.AT_MOST if word in ("r", "ir") else Compare.EQUAL
            if compare not in (Compare.EQUAL, Compare.BELOW, Compare.AT_MOST):
                raise r.fail("a re-roll takes a face (r1) or faces below one (r<3, r<=2)", at)
            value = (Condition(compare, r.number("the face to re-roll")), word in ("ir", "rr"))
        elif (r.looking_at("ie") and (r.digit(2) or r.word_ends(at + 2)) or r.peek() == "!" and not spaced
              or r.peek() == "e" and (r.digit(1) or r.word_ends(at + 1))):
            name, what = "explode", "an explosion"
            word = "ie" if r.looking_at("ie") else r.peek()
            r.pos += len(word)
            face = r.number("the face to explode on") if r.digit() else None
            value = (face, word != "e")
        elif r.peek() == "t" and r.digit(1):
            name, what = "target", "a success target"
            r.pos += 1
            value = Condition(Compare.AT_LEAST, r.number("the target"))
        elif r.peek() == "f" and r.digit(1):
            name, what = "failure", "a failure face"
            r.pos += 1
            value = Condition(Compare.AT_MOST, r.number("the failure face"))
        elif r.digit() and _pool_plus(r):
            name, what = "target", "a success target"  # "10d6 4+": a wargamer's pool
            value = Condition(Compare.AT_LEAST, r.number("the target"))
            r.pos += 1
        elif r.peek() in "<>=" and r.peek():
            name, what = "target", "a success target"
            compare = _compare(r)
            value = Condition(compare, r.number("the target"))
        else:
            r.pos = before
            return found
        if special is not None:
            raise r.fail(f"{what} does not apply to the {'D66 (tens and units)' if special is Special.D66 else 'Fudge die'}", at)
        if not numbered and name != "advantage":
            raise r.fail(f"{what} applies to numbered dice (d6, d20), not the {kind.label}", at)
        if name in found:
            raise r.fail(f"{what} is given twice for one roll", at)
        found[name] = value
        _check_modifier(r, start, at, name, value, count, sides)


def _digits_at(r: _Reader, at: int) -> int:
    """The number written at `at` (0 when none), for telling a drop from a die."""
    m = re.match(r"[0-9]{1,5}", r.low[at:])
    return int(m.group()) if m else 0


def _pool_plus(r: _Reader) -> bool:
    """Whether a number here is a pool's target written ``4+`` (a word of its own)."""
    m = re.match(r"[0-9]{1,5}\+", r.low[r.pos:])
    return m is not None and r.word_ends(r.pos + m.end())


def _check_modifier(r: _Reader, start: int, at: int, name: str, value, count: int, sides: int | None) -> None:
    term = _squeeze(r.text[start : r.pos])
    if name == "advantage":
        if count != 1:
            raise r.fail(f"'{value[:3]}' rolls one die twice and keeps the {'higher' if value == 'advantage' else 'lower'}: "
                         f"write 1d{sides or 20} {value[:3]}", at)
        return
    if sides is None:
        return
    if name in ("keep", "drop") and not 1 <= value[1] <= count:
        verb = "keeps" if name == "keep" else "drops"
        raise r.fail(f"'{term}' {verb} {value[1]} of {count} dice: {name} 1 to {count}", at)
    if name == "reroll":
        condition = value[0]
        faces = [f for f in range(1, sides + 1) if condition.passes(f)]
        if not faces:
            raise r.fail(f"'{term}' re-rolls no face a d{sides} shows (1 to {sides})", at)
        if len(faces) == sides:
            raise r.fail(f"'{term}' would re-roll every face of the d{sides}", at)
    if name == "explode":
        face, again = value
        if face is not None and not 1 <= face <= sides:
            raise r.fail(f"'{term}' explodes on {face}, a face a d{sides} never shows (1 to {sides})", at)
        if again and (face or sides) <= 1:
            raise r.fail(f"'{term}' would explode on every face of the d{sides} for ever: explode on 2 or more", at)
    if name in ("target", "failure"):
        passing = [f for f in range(1, sides + 1) if value.passes(f)]
        if not passing:
            raise r.fail(f"'{term}' can never succeed: a d{sides} shows 1 to {sides}" if name == "target"
                         else f"'{term}' can never fail: a d{sides} shows 1 to {sides}", at)


def _dice(r: _Reader, start: int, count: int | None) -> Term:
    """The dice after an optional count: ``d6``, ``d%``, ``dF``, ``d66``, ``a``, ``s``."""
    if count == 0:
        raise r.fail("0 dice rolls nothing: roll at least 1", start)
    count = 1 if count is None else count
    letter = r.peek()
    r.pos += 1
    special = None
    if letter == "d":
        sides_at = r.pos
        if r.peek() == "%":
            r.pos += 1
            sides = 100
        elif r.peek() == "f" and not r.peek(1).isalpha():
            r.pos += 1
            sides, special = 3, Special.FUDGE
        elif r.looking_at("66") and not r.digit(2):
            r.pos += 2
            sides, special = 6, Special.D66
        else:
            sides = r.number("the number of sides")
            if not 2 <= sides <= MAX_SIDES:
                raise r.fail(f"a d{sides} cannot be rolled: dice have 2 to {MAX_SIDES} sides", sides_at)
        kind = DieKind.D6 if sides == 6 else DieKind.D3 if sides == 3 else DieKind.DX
    else:
        sides = None
        kind = DieKind.ARTILLERY if letter == "a" else DieKind.SCATTER
    r.dice += count * (2 if special is Special.D66 else 1)
    if r.dice > MAX_DICE:
        raise r.fail(f"that makes {r.dice} dice; one /roll rolls at most {MAX_DICE}", start)
    mods = _modifiers(r, start, count, kind, sides, special)
    keep = mods.get("keep")
    alias = mods.get("advantage")
    if alias is not None:
        if keep is not None or "drop" in mods or "target" in mods:
            raise r.fail(f"'{alias[:3]}' already keeps one of two dice: give no keep, drop or target with it", start)
        r.dice += 1
        if r.dice > MAX_DICE:
            raise r.fail(f"that makes {r.dice} dice; one /roll rolls at most {MAX_DICE}", start)
        count, keep = 2, ("h" if alias == "advantage" else "l", 1)
    reroll = mods.get("reroll")
    explode = mods.get("explode")
    if "failure" in mods and "target" not in mods:
        raise r.fail("a failure face counts against successes: give a target too, e.g. 5d10 t8 f1", start)
    return Term(
        text=_squeeze(r.low[start : r.pos]), sign=1, constant=None, count=count, kind=kind,
        sides=sides, keep=keep, reroll=reroll[0] if reroll else None, target=mods.get("target"),
        drop=mods.get("drop"), reroll_again=bool(reroll and reroll[1]),
        explode=None if explode is None else Condition(Compare.AT_LEAST, explode[0] or sides),
        explode_again=bool(explode and explode[1]), failure=mods.get("failure"), special=special, alias=alias,
    )


class _Parser:
    """Recursive descent over one expression, collecting its terms (leaves) in order."""

    def __init__(self, r: _Reader) -> None:
        self.r = r
        self.terms: list[Term] = []
        self.arithmetic = False

    def leaf(self, term: Term) -> tuple:
        self.terms.append(term)
        return ("t", len(self.terms) - 1)

    def sum(self) -> tuple:
        node = self.product()
        while True:
            before = self.r.pos
            self.r.skip_spaces()
            c = self.r.peek()
            if c in ("+", "-") and c:
                op_at = self.r.pos
                self.r.pos += 1
                right = self.product()
                self.check_mix(op_at)
                node = (c, node, right)
                continue
            self.r.pos = before
            return node

    def product(self) -> tuple:
        node = self.unary()
        while True:
            before = self.r.pos
            self.r.skip_spaces()
            c = self.r.peek()
            if c in ("*", "/") and c:
                op_at = self.r.pos
                self.r.pos += 1
                self.arithmetic = True
                right = self.unary()
                self.check_mix(op_at)
                if c == "/" and right[0] == "t" and self.terms[right[1]].constant == 0:
                    raise self.r.fail("a division by 0 has no result", op_at)
                node = (c, node, right, op_at) if c == "/" else (c, node, right)
                continue
            self.r.pos = before
            return node

    def unary(self) -> tuple:
        r = self.r
        r.skip_spaces()
        if r.peek() in ("+", "-") and r.peek():
            at = r.pos
            sign = r.peek()
            r.pos += 1
            if not self.terms and r.peek() == "d" and (r.digit(1) or r.peek(1) == "%"):
                return self.leaf(self.advantage(at, sign))  # Dice Maiden: "+d20", "-d20"
            node = self.atom()
            if sign == "-":
                if self.terms and self.terms[-1].constant is None and (
                        self.terms[-1].target is not None or self.terms[-1].kind is DieKind.SCATTER):
                    raise r.fail("a minus sign goes only before dice or numbers that add up", at)
                return ("neg", node)
            return node
        return self.atom()

    def advantage(self, at: int, sign: str) -> Term:
        """Dice Maiden's ``+dX`` (two dice, the higher kept) and ``-dX`` (the lower)."""
        r = self.r
        term = _dice(r, r.pos, None)
        if term.alias or term.keep or term.drop or term.target or term.special:
            raise r.fail(f"'{sign}d{term.sides}' is Dice Maiden's {'advantage' if sign == '+' else 'disadvantage'} "
                         f"and takes nothing more: write 2d{term.sides}kh1 with what you need", at)
        r.dice += 1
        if r.dice > MAX_DICE:
            raise r.fail(f"that makes {r.dice} dice; one /roll rolls at most {MAX_DICE}", at)
        alias = "advantage" if sign == "+" else "disadvantage"
        return Term(text=f"{sign}{term.text}", sign=1, constant=None, count=2, kind=term.kind, sides=term.sides,
                    keep=("h" if sign == "+" else "l", 1), reroll=term.reroll, reroll_again=term.reroll_again,
                    explode=term.explode, explode_again=term.explode_again, alias=alias)

    def atom(self) -> tuple:
        r = self.r
        r.skip_spaces()
        start = r.pos
        if r.peek() == "(":
            if r.depth >= MAX_DEPTH:
                raise r.fail(f"parentheses nest at most {MAX_DEPTH} deep here")
            r.depth += 1
            r.pos += 1
            self.arithmetic = True
            node = self.sum()
            r.skip_spaces()
            if r.peek() != ")":
                if r.at_end():
                    raise r.fail(f"the parenthesis at character {start + 1} is never closed")
                raise r.fail(f"'{r.text[r.pos]}' is not part of a roll here: a ')' should close the parenthesis at character {start + 1}")
            r.pos += 1
            r.depth -= 1
            return node
        if not r.starts_term() or r.peek() == "(":
            if r.at_end():
                raise r.fail("the expression ends where a die or a number should follow")
            raise r.fail(f"'{r.text[r.pos]}' cannot start a roll: write a die like 2d6, 1a or 1s, or a number")
        count = r.number("the number of dice") if r.digit() else None
        if r.peek() not in ("d", "a", "s") or not r.peek():
            return self.leaf(Term(text=r.low[start : r.pos], sign=1, constant=count))
        return self.leaf(_dice(r, start, count))

    def check_mix(self, at: int) -> None:
        if any(t.target is not None for t in self.terms):
            raise self.r.fail("a success pool stands alone: give it its own expression, after a comma", at)
        if any(t.kind is DieKind.SCATTER for t in self.terms):
            raise self.r.fail("scatter dice show a direction and cannot be added: give them their own expression", at)


def _flatten(node: tuple, sign: int, out: list[tuple[int, int]]) -> bool:
    """A tree of + and - over terms as (sign, term index) pairs; False when it holds * or /."""
    if node[0] == "t":
        out.append((sign, node[1]))
        return True
    if node[0] == "neg":
        return _flatten(node[1], -sign, out)
    if node[0] in ("+", "-"):
        return _flatten(node[1], sign, out) and _flatten(node[2], sign if node[0] == "+" else -sign, out)
    return False


def _expression(r: _Reader) -> Expression:
    r.skip_spaces()
    start = r.pos
    p = _Parser(r)
    tree = p.sum()
    terms = p.terms
    if all(t.constant is not None for t in terms):
        r.skip_spaces()
        if not r.at_end() and r.peek() not in (",", ";") and not r.starts_term():
            raise r.fail(f"'{r.text[r.pos]}' is not part of a roll here")
        raise r.fail(f"'{r.text[start:r.pos].strip()}' rolls no dice", start)
    text = _squeeze(r.low[start : r.pos])
    flat: list[tuple[int, int]] = []
    if not p.arithmetic and _flatten(tree, 1, flat):
        signed = [t if s > 0 else _negated(t) for (s, i), t in zip(sorted(flat, key=lambda f: f[1]), terms)]
        return Expression(text=text, terms=tuple(signed))
    return Expression(text=text, terms=tuple(terms), tree=tree)


def _squeeze(text: str) -> str:
    """`text` without its spaces, except one kept between two digits ("10d6 4+" stays readable)."""
    words = text.split()
    out = words[0] if words else ""
    for w in words[1:]:
        out += (" " if out[-1:].isdigit() and w[:1].isdigit() else "") + w
    return out


def _negated(t: Term) -> Term:
    return replace(t, sign=-t.sign)


def parse(text: str) -> tuple[Expression, ...]:
    """Read a `/roll` command's expressions, or raise :class:`RollSyntaxError`."""
    return read(text)[0]


@functools.lru_cache(maxsize=512)
def read(text: str) -> tuple[tuple[Expression, ...], str | None]:
    """Read a `/roll` command: its expressions and its label (or None). What was read is kept for
    the next time the same text comes (records are frozen), as d20 keeps its parses."""
    if len(text) > MAX_LENGTH:
        raise RollSyntaxError(text[:MAX_LENGTH], MAX_LENGTH - 1, f"the roll is {len(text)} characters long; keep it to {MAX_LENGTH}")
    r = _Reader(text.translate(_DASHES))
    r.skip_spaces()
    if r.at_end():
        raise r.fail("give at least one expression, e.g. 2d6+1")
    expressions: list[Expression] = []
    while True:
        if len(expressions) >= MAX_EXPRESSIONS:
            raise r.fail(f"one /roll takes at most {MAX_EXPRESSIONS} expressions")
        lead = _leading_advantage(r)
        expressions.append(_expression(r))
        if lead is not None:
            expressions[-1] = _with_advantage(r, expressions[-1], *lead)
        before = r.pos
        r.skip_spaces()
        if r.at_end():
            return tuple(expressions), _first_label(expressions)
        if r.peek() in _LABEL_MARKS:  # "! label", "# label": the rest of the line
            expressions[-1] = replace(expressions[-1], label=_label(r, r.text[r.pos + 1:]))
            return tuple(expressions), _first_label(expressions)
        if r.pos > before and r.starts_label():  # "to hit": words up to the next comma
            end = min([i for i in (r.text.find(",", r.pos), r.text.find(";", r.pos)) if i >= 0], default=len(r.text))
            expression, words, times = _label_words(r, expressions[-1], r.pos, end)
            expressions[-1] = replace(expression, label=_label(r, words))
            if times > 1:  # "2d6 x2": the same roll again
                if len(expressions) + times - 1 > MAX_EXPRESSIONS:
                    raise r.fail(f"one /roll takes at most {MAX_EXPRESSIONS} expressions", r.pos)
                r.dice += _dice_in(expressions[-1]) * (times - 1)
                if r.dice > MAX_DICE:
                    raise r.fail(f"that makes {r.dice} dice; one /roll rolls at most {MAX_DICE}", r.pos)
                expressions += [expressions[-1]] * (times - 1)
            r.pos = end
            if r.at_end():
                return tuple(expressions), _first_label(expressions)
        if r.peek() in (",", ";"):
            r.pos += 1
            r.skip_spaces()
            if r.at_end():
                raise r.fail("a comma at the end should be followed by another expression", r.pos - 1)
            continue
        if not r.starts_term() or r.peek() == "(" and r.pos == before:
            raise r.fail(f"'{r.text[r.pos]}' is not part of a roll here")


_DASHES = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u00d7": "x"})
"""An en dash (what a phone types for a minus), an em dash and the minus sign read as "-"; a
multiplication sign as the "x" of a repeat (each one character for one, so carets stay put)."""

_ADVANTAGE = {"adv": "advantage", "advantage": "advantage", "dis": "disadvantage", "disadvantage": "disadvantage"}
_REPEAT = re.compile(r"x(\d{1,3})$")
_MODIFIER_WORD = re.compile(
    r"(k[hl]?\d+|k[hl]|d[hl]\d*|r[or]?[<=]{0,2}\d+|ir[<=]{0,2}\d+|ie\d*|e\d+|[<>]=?\d+|=\d+|t\d+|f\d+|\d+\+)$")
"""A word that is a roll modifier (``kh1``, ``r1``, ``e6``, ``>=4``, ``4+``...) when written on its own."""


def _words_at(text: str, start: int, end: int) -> list[tuple[int, str]]:
    return [(start + m.start(), m.group()) for m in re.finditer(r"\S+", text[start:end])]


def _label_words(r: _Reader, expression: Expression, start: int, end: int) -> tuple[Expression, str, int]:
    """The words after an expression, read as players type them (issue 30): ``adv`` and ``dis``
    give its die advantage or disadvantage (as Avrae reads them, anywhere after the dice), ``x2``
    repeats it; a word that is a roll modifier not written right after its dice is refused with
    the way to write it; the other words are its label. Returns the expression, the label's words
    and how many times it is rolled."""
    kept: list[str] = []
    times = 1
    for at, word in _words_at(r.text, start, end):
        low = word.lower()
        if low in _ADVANTAGE:
            expression = _with_advantage(r, expression, _ADVANTAGE[low], at)
        elif (m := _REPEAT.match(low)) is not None:
            if times > 1:
                raise r.fail(f"'{word}' repeats the roll a second time: give one repeat, e.g. 2d6 x3", at)
            times = int(m[1])
            if not 2 <= times <= MAX_EXPRESSIONS:
                raise r.fail(f"'{word}' repeats the roll {times} times: repeat it 2 to {MAX_EXPRESSIONS} times", at)
        elif _MODIFIER_WORD.match(low):
            raise r.fail(f"'{word}' is a roll modifier, but here it would be a label: write it right after its dice, "
                         f"e.g. {_placed(expression, low)}, or after # to keep it as a label ({expression.text} # {word})", at)
        else:
            kept.append(word)
    return expression, " ".join(kept), times


def _placed(expression: Expression, modifier: str) -> str:
    """The expression with `modifier` written right after its first dice (``2d20kh1+5``)."""
    term = next((t for t in expression.terms if t.constant is None), None)
    if term is None:
        return expression.text + modifier
    text = term.text.lstrip("+-")
    if modifier.startswith("k") and term.count == 1 and term.sides:
        return expression.text.replace(text, f"2d{term.sides}{modifier}", 1)
    return expression.text.replace(text, text + modifier, 1)


def _leading_advantage(r: _Reader) -> tuple[str, int] | None:
    """``adv 1d20+5``: advantage (or ``dis``) written before the expression."""
    for word, value in _ADVANTAGE.items():
        if r.looking_at(word) and r.word_ends(r.pos + len(word)) and r.pos + len(word) < len(r.low):
            at = r.pos
            r.pos += len(word)
            r.skip_spaces()
            return value, at
    return None


def _with_advantage(r: _Reader, expression: Expression, value: str, at: int) -> Expression:
    """`expression` with its one die rolled twice, the higher (advantage) or lower kept: the first
    single numbered die without a keep, drop or pool (``1d20+5 adv`` is ``2d20kh1+5``)."""
    for i, t in enumerate(expression.terms):
        if t.constant is None and t.count == 1 and t.sides is not None and t.special is None and t.alias is None \
                and t.keep is None and t.drop is None and t.target is None:
            r.dice += 1
            if r.dice > MAX_DICE:
                raise r.fail(f"that makes {r.dice} dice; one /roll rolls at most {MAX_DICE}", at)
            term = replace(t, count=2, keep=("h" if value == "advantage" else "l", 1), alias=value,
                           text=f"{t.text}{value[:3]}")
            terms = expression.terms[:i] + (term,) + expression.terms[i + 1:]
            return replace(expression, terms=terms, text=f"{expression.text} {value[:3]}")
    word = value[:3]
    raise r.fail(f"'{word}' rolls one die twice and keeps the {'higher' if word == 'adv' else 'lower'}, and "
                 f"'{expression.text}' has no single die for it: e.g. 1d20+5 {word}", at)


def _dice_in(expression: Expression) -> int:
    return sum(t.count * (2 if t.special is Special.D66 else 1) for t in expression.terms if t.constant is None)


def _first_label(expressions: list[Expression]) -> str | None:
    return next((e.label for e in expressions if e.label), None)


def _label(r: _Reader, rest: str) -> str | None:
    """`rest` as a label: one line of printable words, at most :data:`MAX_LABEL` characters."""
    label = " ".join("".join(c if c.isprintable() else " " for c in rest).split())
    if len(label) > MAX_LABEL:
        cut = label[:MAX_LABEL].rsplit(" ", 1)[0]
        label = cut + "…"
    return label or None


# ---------------------------------------------------------------------------------------- rolling


class _Budget:
    """Re-rolls and explosions left for the whole command."""

    def __init__(self) -> None:
        self.left = MAX_EXTRA


def _roll_term(term: Term, dice: Dice, budget: _Budget) -> TermResult:
    if term.constant is not None:
        return TermResult(term, (), term.sign * term.constant)
    if term.sides is not None and not (term.special or term.reroll or term.explode or term.drop or term.keep
                                       or term.target):
        # Plain numbered dice, the common case: each die as rolled, summed.
        rolls = [dice.dx(term.sides, term.text) for _ in range(term.count)]
        return TermResult(term, tuple(RolledDie(d, False, False, None, d.value) for d in rolls),
                          term.sign * sum(d.value for d in rolls))
    if term.target is not None and term.sides is not None and not (term.special or term.reroll or term.explode
                                                                   or term.drop or term.keep or term.failure):
        # A plain success pool: each die passes or not.
        passes, face = term.target.compare.passes, term.target.face
        rolled = []
        for _ in range(term.count):
            d = dice.dx(term.sides, term.text)
            rolled.append(RolledDie(d, False, False, passes(d.value, face), d.value))
        return TermResult(term, tuple(rolled), term.sign * sum(1 for d in rolled if d.success))
    built: list[dict] = [_one(term, dice, term.text) for _ in range(term.count)]
    bounded = False
    standing = list(range(term.count))
    # Re-rolls: each die of the first throw passing the re-roll face is rolled again, once, or
    # again and again while the new face passes (ir, rr), within the bounds.
    if term.reroll is not None:
        for n in range(term.count):
            i, times = n, 0
            while term.reroll.passes(built[i]["value"]):
                if times == (MAX_CHAIN if term.reroll_again else 1):
                    bounded = bounded or term.reroll_again
                    break
                if budget.left == 0:
                    bounded = True
                    break
                budget.left -= 1
                built[i]["rerolled"] = True
                built.append(_one(term, dice, f"{term.text} re-roll", after=i))
                i, times = len(built) - 1, times + 1
            standing[n] = i
    # Explosions: each standing die passing the explosion face adds a die, and so does an added
    # die that passes when explosions go on (ie, !).
    if term.explode is not None:
        for n in range(term.count):
            i, times = standing[n], 0
            while term.explode.passes(built[i]["value"]):
                if times == (MAX_CHAIN if term.explode_again else 1):
                    bounded = bounded or term.explode_again
                    break
                if budget.left == 0:
                    bounded = True
                    break
                budget.left -= 1
                built.append(_one(term, dice, f"{term.text} explosion", after=i, exploded=True))
                i, times = len(built) - 1, times + 1
                standing.append(i)
    counted = [i for i in standing]
    # Drop, then keep (Dice Maiden's order), by value; ties go to the die rolled first.
    for rule in (term.drop, term.keep):
        if rule is None:
            continue
        which, k = rule
        order = sorted(counted, key=lambda i: -built[i]["value"] if which == "h" else built[i]["value"])
        if rule is term.drop:
            gone = set(order[:k])
        else:
            gone = set(order[k:])
        for i in gone:
            built[i]["dropped"] = True
        counted = [i for i in counted if i not in gone]
    if term.target is not None:
        for i in counted:
            built[i]["success"] = term.target.passes(built[i]["value"])
            if term.failure is not None and term.failure.passes(built[i]["value"]):
                built[i]["failure"] = True
        for i in standing:
            if i not in counted:
                built[i]["success"] = False
    rolled = tuple(RolledDie(b["roll"], b["rerolled"], b["dropped"], b["success"], b["value"], b["units"],
                             b["exploded"], b["after"], b["failure"], term.special is Special.FUDGE) for b in built)
    if term.kind is DieKind.SCATTER:
        value = None
    elif term.target is not None:
        value = term.sign * (sum(1 for i in counted if built[i]["success"])
                             - sum(1 for i in counted if built[i]["failure"]))
    elif any(built[i]["value"] is None for i in standing):
        value = None  # a misfire
    else:
        value = term.sign * sum(built[i]["value"] for i in counted)
    return TermResult(term, rolled, value, bounded)


def _one(term: Term, dice: Dice, purpose: str, *, after: int | None = None, exploded: bool = False) -> dict:
    units = None
    if term.kind is DieKind.ARTILLERY:
        roll = dice.artillery(purpose)
        value = roll.value
    elif term.kind is DieKind.SCATTER:
        roll = dice.scatter(purpose)
        value = None
    elif term.special is Special.D66:
        roll = dice.d6(f"{purpose} tens")
        units = dice.d6(f"{purpose} units")
        value = 10 * roll.value + units.value
    elif term.special is Special.FUDGE:
        roll = dice.d3(f"{purpose} (D3: 1 is -, 2 is 0, 3 is +)")
        value = roll.value - 2
    else:
        roll = dice.dx(term.sides, purpose)
        value = roll.value
    return {"roll": roll, "units": units, "value": value, "rerolled": False, "dropped": False, "success": None,
            "exploded": exploded, "after": after, "failure": False}


def _evaluate(node: tuple, values: list[int | None], text: str) -> int | None:
    """The value of an expression's tree; None when a term has none (a misfire)."""
    kind = node[0]
    if kind == "t":
        return values[node[1]]
    if kind == "neg":
        v = _evaluate(node[1], values, text)
        return None if v is None else -v
    a, b = _evaluate(node[1], values, text), _evaluate(node[2], values, text)
    if a is None or b is None:
        return None
    if kind == "+":
        return a + b
    if kind == "-":
        return a - b
    if kind == "*":
        return a * b
    if b == 0:
        raise RollSyntaxError(text, node[3], "the dice made this divisor 0, so the roll has no total")
    return a // b  # rounded down, as Dice Maiden does


def roll_expression(expression: Expression, dice: Dice, budget: _Budget | None = None, text: str = "") -> ExpressionResult:
    budget = budget or _Budget()
    terms = tuple(_roll_term(t, dice, budget) for t in expression.terms)
    if any(t.term.kind is DieKind.SCATTER for t in terms):
        return ExpressionResult(expression, ExpressionKind.SCATTER, terms, None, False)
    misfire = any(d.roll.is_misfire and not d.rerolled for t in terms if t.term.kind is DieKind.ARTILLERY for d in t.dice)
    if any(t.term.target is not None for t in terms):
        return ExpressionResult(expression, ExpressionKind.POOL, terms, terms[0].value, False)
    if misfire:
        total = None
    elif expression.tree is not None:
        total = _evaluate(expression.tree, [t.value for t in terms], text or expression.text)
    else:
        total = sum(t.value for t in terms)
    return ExpressionResult(expression, ExpressionKind.SUM, terms, total, misfire)


def roll(text: str, dice: Dice) -> RollResult:
    """Read and roll a `/roll` command: every expression, left to right, from `dice`."""
    expressions, label = read(text)
    return roll_parsed(text, expressions, dice, label=label)


def roll_parsed(text: str, expressions: tuple[Expression, ...], dice: Dice, *, label: str | None = None) -> RollResult:
    """Roll expressions already read by :func:`parse` (a command reads them before it draws its
    dice, so a typo costs no roll number in the log)."""
    budget = _Budget()
    results = tuple(roll_expression(e, dice, budget, text) for e in expressions)
    dice.finish()
    return RollResult(text=text.strip(), expressions=results,
                      dice=tuple(d for e in results for d in e.dice), label=label)
