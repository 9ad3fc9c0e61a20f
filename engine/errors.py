"""Errors a player can cause. Anything else that goes wrong is a bug and is never caught as these."""


class RulesError(ValueError):
    """Input the rules cannot accept. The message is one sentence a player understands and quotes
    the bad value, so adapters show it as it is."""


class DiceError(RulesError):
    """Player-entered dice that do not fit the procedure: a face the die cannot show, or faces
    left over once the procedure is done."""
