"""The runtime: the one place that talks to SWI-Prolog.

- :func:`engine.search.search`: minimax and alpha-beta over a game KB;
- :func:`engine.tables.load_table` and :class:`engine.advice_play.AdvicePlayer`:
  advice tables, from a path or a string, checked, compiled and played;
- :func:`engine.verify.verify`: a table over every start position;
- :func:`engine.domains.describe`: what a domain declares; :mod:`engine.chess_io`:
  FEN, SAN and boards for chess domains.

The engine holds no list of games or domains and no domain's name: each
says what it is in Prolog (``kb/README.md``). README.md shows the API at
work on the shipped tables.
"""

from engine.advice_play import AdvicePlayer
from engine.search import search
from engine.tables import load_table

__all__ = ["search", "load_table", "AdvicePlayer"]
