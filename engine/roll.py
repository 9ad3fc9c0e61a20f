"""`/roll`: the dice notation for every roll the war machine procedures do not cover.

No dice library on PyPI reads these games' notation (success pools, the artillery and scatter
dice) while taking its dice from our :class:`~engine.dice.Dice` sources, which the roll log needs
to re-derive every die; so this is a small grammar of our own. It reads one or more expressions,
separated by commas, semicolons or plain spaces (a new expression starts wherever a die or number
stands where an operator could)::

    command    = expression { [","|";"] expression }
    expression = term { ("+"|"-") term }          a sum, or one pool, or scatter dice alone
    term       = NUMBER | dice
    dice       = [COUNT] ("d" SIDES | "a" | "s") { modifier }
    modifier   = ("kh"|"kl") [K]                  keep the K (default 1) highest or lowest
               | "r" ["<"|"<="] FACE               re-roll once each die showing FACE (or below)
               | (">="|">"|"<="|"<") FACE          count the dice that pass: a success pool

Letters are case-insensitive and spaces between the parts are allowed (``10d6>=5 r1``). ``a`` is
the artillery die (2 4 6 8 10 Misfire), ``s`` the scatter die (HIT or an arrow). Dice order (for
``dice:``): expressions left to right, each term's dice in order, then its re-rolls in order.

A mistake raises :class:`RollSyntaxError`, whose message names the problem and shows the
expression with a caret under the bad character.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.dice import MAX_SIDES, Dice, DieKind, DieRoll
from engine.errors import RulesError

MAX_DICE = 1000
"""The most dice one command asks for (re-rolls not counted)."""
MAX_EXPRESSIONS = 10
"""The most expressions one command rolls (one embed field each)."""
MAX_NUMBER = 10_000
"""The largest number written in an expression."""
MAX_LENGTH = 200
"""The longest command text read."""
SHOWN_AROUND = 80
"""At most this many characters of the expression are quoted back in an error, around the caret."""


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
    """How a die's value is compared with a face: success pools and re-rolls."""

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


@dataclass(frozen=True, slots=True)
class Term:
    """One part of an expression as written: a number, or a handful of one kind of die."""

    text: str
    """As written, spaces dropped: ``20d6>=4r1``."""
    sign: int
    """+1 or -1: added or taken away."""
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


@dataclass(frozen=True, slots=True)
class Expression:
    text: str
    """As written, spaces dropped."""
    terms: tuple[Term, ...]


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
    """Left out by keep highest / lowest."""
    success: bool | None
    """Success pools: whether it passed; None otherwise."""


@dataclass(frozen=True, slots=True)
class TermResult:
    term: Term
    dice: tuple[RolledDie, ...]
    """Every die in the order rolled: the first throw, then the re-rolls."""
    value: int | None
    """What it adds (signed): the number, the kept dice's sum, or the successes; None when an
    artillery die misfired or for scatter dice."""


@dataclass(frozen=True, slots=True)
class ExpressionResult:
    expression: Expression
    kind: ExpressionKind
    terms: tuple[TermResult, ...]
    total: int | None
    """The sum, or the number of successes; None for a misfire and for scatter dice."""
    misfire: bool
    """An artillery die showed the misfire face (the sum then has no total)."""

    @property
    def dice(self) -> tuple[DieRoll, ...]:
        return tuple(d.roll for t in self.terms for d in t.dice)


@dataclass(frozen=True, slots=True)
class RollResult:
    text: str
    """The command as typed."""
    expressions: tuple[ExpressionResult, ...]
    dice: tuple[DieRoll, ...]
    """Every die, in the order rolled."""


# ---------------------------------------------------------------------------------------- reading


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.low = text.lower()
        self.pos = 0
        self.dice = 0

    def fail(self, reason: str, at: int | None = None) -> RollSyntaxError:
        return RollSyntaxError(self.text, self.pos if at is None else at, reason)

    def peek(self) -> str:
        return self.low[self.pos] if self.pos < len(self.low) else ""

    def skip_spaces(self) -> None:
        while self.peek() in (" ", "\t", "\n"):
            self.pos += 1

    def at_end(self) -> bool:
        return self.pos >= len(self.low)

    def looking_at(self, word: str) -> bool:
        return self.low.startswith(word, self.pos)

    def number(self, what: str) -> int:
        start = self.pos
        while self.peek().isdigit() and self.peek().isascii():
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
        return c != "" and (c.isdigit() and c.isascii() or c in "das")


def _compare(r: _Reader) -> Compare | None:
    for word, compare in ((">=", Compare.AT_LEAST), ("<=", Compare.AT_MOST), (">", Compare.ABOVE), ("<", Compare.BELOW), ("=", Compare.EQUAL)):
        if r.looking_at(word):
            r.pos += len(word)
            return compare
    return None


def _modifiers(r: _Reader, start: int, count: int, kind: DieKind, sides: int | None) -> dict:
    found: dict = {}
    numbered = sides is not None
    while True:
        before = r.pos
        r.skip_spaces()
        at = r.pos
        if r.looking_at("kh") or r.looking_at("kl"):
            name, what = "keep", "keep"
            r.pos += 2
            k = r.number("how many to keep") if r.peek().isdigit() else 1
            value: object = (r.low[at + 1], k)
        elif r.peek() == "k":
            raise r.fail("'k' keeps dice: write kh (highest) or kl (lowest), e.g. 2d6kh1", at)
        elif r.peek() == "r":
            name, what = "reroll", "a re-roll"
            r.pos += 1
            compare = _compare(r) or Compare.EQUAL
            if compare not in (Compare.EQUAL, Compare.BELOW, Compare.AT_MOST):
                raise r.fail("a re-roll takes a face (r1) or faces below one (r<3, r<=2)", at)
            value = Condition(compare, r.number("the face to re-roll"))
        elif r.peek() in "<>=" and r.peek():
            name, what = "target", "a success target"
            compare = _compare(r)
            value = Condition(compare, r.number("the target"))
        else:
            r.pos = before
            return found
        if not numbered:
            raise r.fail(f"{what} applies to numbered dice (d6, d20), not the {kind.label}", at)
        if name in found:
            raise r.fail(f"{what} is given twice for one roll", at)
        found[name] = value
        term = r.text[start : r.pos]
        if name == "keep" and not 1 <= value[1] <= count:
            raise r.fail(f"'{term}' keeps {value[1]} of {count} dice: keep 1 to {count}", at)
        if name == "reroll":
            faces = [f for f in range(1, sides + 1) if value.passes(f)]
            if not faces:
                raise r.fail(f"'{term}' re-rolls no face a d{sides} shows (1 to {sides})", at)
            if len(faces) == sides:
                raise r.fail(f"'{term}' would re-roll every face of the d{sides}", at)
        if name == "target":
            passing = [f for f in range(1, sides + 1) if value.passes(f)]
            if not passing:
                raise r.fail(f"'{term}' can never succeed: a d{sides} shows 1 to {sides}", at)


def _term(r: _Reader, sign: int) -> Term:
    r.skip_spaces()
    start = r.pos
    if not r.starts_term():
        if r.at_end():
            raise r.fail("the expression ends where a die or a number should follow")
        raise r.fail(f"'{r.text[r.pos]}' cannot start a roll: write a die like 2d6, 1a or 1s, or a number")
    count = r.number("the number of dice") if r.peek().isdigit() else None
    letter = r.peek()
    if letter not in ("d", "a", "s"):  # starts_term promised a digit, so `count` was read
        return Term(text=r.low[start : r.pos], sign=sign, constant=count)
    if count == 0:
        raise r.fail("0 dice rolls nothing: roll at least 1", start)
    count = 1 if count is None else count
    r.pos += 1
    if letter == "d":
        sides_at = r.pos
        sides = r.number("the number of sides")
        if not 2 <= sides <= MAX_SIDES:
            raise r.fail(f"a d{sides} cannot be rolled: dice have 2 to {MAX_SIDES} sides", sides_at)
        kind = DieKind.D6 if sides == 6 else DieKind.D3 if sides == 3 else DieKind.DX
    else:
        sides = None
        kind = DieKind.ARTILLERY if letter == "a" else DieKind.SCATTER
    r.dice += count
    if r.dice > MAX_DICE:
        raise r.fail(f"that makes {r.dice} dice; one /roll rolls at most {MAX_DICE}", start)
    mods = _modifiers(r, start, count, kind, sides)
    return Term(
        text="".join(r.low[start : r.pos].split()), sign=sign, constant=None, count=count, kind=kind,
        sides=sides, keep=mods.get("keep"), reroll=mods.get("reroll"), target=mods.get("target"),
    )


def _expression(r: _Reader) -> Expression:
    r.skip_spaces()
    start = r.pos
    sign = 1
    if r.peek() in ("+", "-") and r.peek():
        sign = -1 if r.peek() == "-" else 1
        r.pos += 1
    terms = [_term(r, sign)]
    if sign < 0 and (terms[0].target is not None or terms[0].kind is DieKind.SCATTER):
        raise r.fail("a minus sign goes only before dice or numbers that add up", start)
    while True:
        before = r.pos
        r.skip_spaces()
        c = r.peek()
        if c in ("+", "-") and c:
            op_at = r.pos
            r.pos += 1
            terms.append(_term(r, -1 if c == "-" else 1))
            _check_mix(r, terms, op_at)
            continue
        r.pos = before
        break
    if all(t.constant is not None for t in terms):
        r.skip_spaces()
        if not r.at_end() and r.peek() not in (",", ";") and not r.starts_term():
            raise r.fail(f"'{r.text[r.pos]}' is not part of a roll here")
        raise r.fail(f"'{r.text[start:r.pos].strip()}' rolls no dice", start)
    return Expression(text="".join(r.low[start : r.pos].split()), terms=tuple(terms))


def _check_mix(r: _Reader, terms: list[Term], at: int) -> None:
    if any(t.target is not None for t in terms):
        raise r.fail("a success pool stands alone: give it its own expression, after a comma", at)
    if any(t.kind is DieKind.SCATTER for t in terms):
        raise r.fail("scatter dice show a direction and cannot be added: give them their own expression", at)


def parse(text: str) -> tuple[Expression, ...]:
    """Read a `/roll` command's expressions, or raise :class:`RollSyntaxError`."""
    if len(text) > MAX_LENGTH:
        raise RollSyntaxError(text[:MAX_LENGTH], MAX_LENGTH - 1, f"the roll is {len(text)} characters long; keep it to {MAX_LENGTH}")
    r = _Reader(text)
    r.skip_spaces()
    if r.at_end():
        raise r.fail("give at least one expression, e.g. 2d6+1")
    expressions: list[Expression] = []
    while True:
        if len(expressions) == MAX_EXPRESSIONS:
            raise r.fail(f"one /roll takes at most {MAX_EXPRESSIONS} expressions")
        expressions.append(_expression(r))
        r.skip_spaces()
        if r.at_end():
            return tuple(expressions)
        if r.peek() in (",", ";"):
            r.pos += 1
            r.skip_spaces()
            if r.at_end():
                raise r.fail("a comma at the end should be followed by another expression", r.pos - 1)
            continue
        if not r.starts_term():
            raise r.fail(f"'{r.text[r.pos]}' is not part of a roll here")


# ---------------------------------------------------------------------------------------- rolling


def _roll_term(term: Term, dice: Dice) -> TermResult:
    if term.constant is not None:
        return TermResult(term, (), term.sign * term.constant)
    first = [_one(term, dice, term.text) for _ in range(term.count)]
    rerolled = [False] * len(first)
    final = list(first)
    if term.reroll is not None:
        for i, die in enumerate(first):
            if term.reroll.passes(die.value):
                rerolled[i] = True
                final[i] = _one(term, dice, f"{term.text} re-roll")
    kept = [True] * len(final)
    if term.keep is not None:
        which, k = term.keep
        order = sorted(range(len(final)), key=lambda i: -final[i].value if which == "h" else final[i].value)
        kept = [False] * len(final)
        for i in order[:k]:
            kept[i] = True
    success = [None] * len(final)
    if term.target is not None:
        success = [kept[i] and term.target.passes(d.value) for i, d in enumerate(final)]
    # Roll order: the first throw (a re-rolled die struck), then the re-rolls in the same order.
    shown = [
        RolledDie(d, True, False, None) if rerolled[i] else RolledDie(d, False, not kept[i], success[i])
        for i, d in enumerate(first)
    ]
    shown += [RolledDie(final[i], False, not kept[i], success[i]) for i in range(len(first)) if rerolled[i]]
    if term.kind is DieKind.SCATTER:
        value = None
    elif term.target is not None:
        value = term.sign * sum(1 for s in success if s)
    elif any(d.is_misfire for d in final):
        value = None
    else:
        value = term.sign * sum(d.value for d, k in zip(final, kept) if k)
    return TermResult(term, tuple(shown), value)


def _one(term: Term, dice: Dice, purpose: str) -> DieRoll:
    if term.kind is DieKind.ARTILLERY:
        return dice.artillery(purpose)
    if term.kind is DieKind.SCATTER:
        return dice.scatter(purpose)
    return dice.dx(term.sides, purpose)


def roll_expression(expression: Expression, dice: Dice) -> ExpressionResult:
    terms = tuple(_roll_term(t, dice) for t in expression.terms)
    if any(t.term.kind is DieKind.SCATTER for t in terms):
        return ExpressionResult(expression, ExpressionKind.SCATTER, terms, None, False)
    misfire = any(d.roll.is_misfire and not d.rerolled for t in terms for d in t.dice)
    if any(t.term.target is not None for t in terms):
        return ExpressionResult(expression, ExpressionKind.POOL, terms, terms[0].value, False)
    total = None if misfire else sum(t.value for t in terms)
    return ExpressionResult(expression, ExpressionKind.SUM, terms, total, misfire)


def roll(text: str, dice: Dice) -> RollResult:
    """Read and roll a `/roll` command: every expression, left to right, from `dice`."""
    return roll_parsed(text, parse(text), dice)


def roll_parsed(text: str, expressions: tuple[Expression, ...], dice: Dice) -> RollResult:
    """Roll expressions already read by :func:`parse` (a command reads them before it draws its
    dice, so a typo costs no roll number in the log)."""
    results = tuple(roll_expression(e, dice) for e in expressions)
    dice.finish()
    return RollResult(text=text.strip(), expressions=results, dice=tuple(d for e in results for d in e.dice))
