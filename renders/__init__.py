"""Pictures of result records: a frozen record from the engine in, PNG bytes out.

Every renderer is a pure function of its record with keyword-only options (python-chess's
``chess.svg.board`` is the model): it draws what the engine decided and never recomputes a
rule. :mod:`renders.canvas` is the drawing kit they share: the palette, fonts, the
:class:`~renders.canvas.Viewport` that alone turns model coordinates into pixels, and the
marks every picture needs (scale bar, arrows, labels, legend, title bar, PNG encoding).
"""
