"""The advice language: parse, check and compile advice tables.

>>> from advice import parse, KBVocabulary, check, compile_table
>>> table = parse('''
... table t
... uses games/tictactoe_al0
... rule r: if true then a
... advice a:
...     better: we_won
...     holding: true
...     us: depth = 0 and legal
...     them: nomove
... ''')
>>> vocab = KBVocabulary("tictactoe_al0", {"we_won": frozenset({1}),
...                                        "legal": frozenset({3})}, frozenset({"legal"}))
>>> check(table, vocab)
[]
>>> print(compile_table(table, vocab).source().splitlines()[9])
rule(Pos, r, [a]).

Running a table needs Prolog: see :func:`engine.tables.load_table` and
:class:`engine.advice_play.AdvicePlayer`.
"""

from advice.checker import KBVocabulary, check, check_or_raise
from advice.compiler import CompiledTable, compile_table
from advice.errors import (
    AdviceCheckError, AdviceError, AdviceFileError, AdviceSyntaxError, Diagnostic,
)
from advice.parser import parse, parse_file

__all__ = [
    "parse", "parse_file", "check", "check_or_raise", "KBVocabulary", "compile_table",
    "CompiledTable", "AdviceError", "AdviceSyntaxError", "AdviceCheckError",
    "AdviceFileError", "Diagnostic",
]
