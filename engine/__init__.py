"""The runtime: the one place that talks to SWI-Prolog.

>>> from engine import search, load_table, AdvicePlayer
>>> search("nim", "5", algo="minimax").value
-100
>>> from engine.prolog import kb_path
>>> player = AdvicePlayer(load_table(kb_path("games/tictactoe.adv")))
>>> player.choose("xx.oo....").move
'3'

- :func:`engine.search.search`: minimax and alpha-beta over a game KB;
- :func:`engine.tables.load_table` and :class:`engine.advice_play.AdvicePlayer`:
  advice tables, from a path or a string, checked, compiled and played;
- :func:`engine.verify.verify`: a table over every start position;
- :mod:`engine.tablebase`: the KRK tablebase; :mod:`engine.chess_io`: FEN and SAN.
"""

from engine.advice_play import AdvicePlayer
from engine.search import search
from engine.tables import load_table

__all__ = ["search", "load_table", "AdvicePlayer"]
