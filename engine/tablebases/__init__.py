"""Endgame tablebases for any material of at most four pieces.

:class:`~engine.tablebases.store.Store` builds a table by retrograde
analysis (:mod:`~engine.tablebases.retrograde`, numpy) after the smaller
tables it needs, and keeps it in the cache; SWI-Prolog reads the same
bytes (``kb/chess/tablebase.pl``) to play and to defend perfectly.
"""
from engine.tablebases.material import Material, SignatureError, parse_signature
from engine.tablebases.store import Store, Table

__all__ = ["Material", "SignatureError", "Store", "Table", "parse_signature"]
