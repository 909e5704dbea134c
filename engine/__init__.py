"""The runtime: the one place that talks to SWI-Prolog.

- :func:`engine.search.search`: minimax, alpha-beta and their refinements,
  expectiminimax and MCTS over a game KB; :func:`engine.referee.match`: two
  players against each other;
- :func:`engine.tables.load_table` and :class:`engine.advice_play.AdvicePlayer`:
  advice tables, from a path or a string, checked, compiled and played;
- :func:`engine.verify.verify`: a table over every start position;
- :func:`engine.domains.describe`: what a domain declares; :mod:`engine.chess_io`:
  FEN, SAN and boards for chess domains.

The engine holds no list of games or domains and no domain's name: each
says what it is in Prolog (``kb/README.md``). README.md shows the API at
work on the shipped tables.
"""

__all__ = ["search", "match", "load_table", "AdvicePlayer"]

_HOMES = {"search": "engine.search", "match": "engine.referee", "load_table": "engine.tables",
          "AdvicePlayer": "engine.advice_play"}


def __getattr__(name: str):
    # The entry points load on first use, so that ``advice`` starts fast.
    if name in _HOMES:
        import importlib

        return getattr(importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'engine' has no attribute {name!r}")
