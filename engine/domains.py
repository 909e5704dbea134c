"""What an AL0 domain says about itself, read from Prolog.

The engine knows no domain by name: :func:`describe` asks the domain
module what it declares (``kb/README.md``, "AL0 domains"), and a
:class:`Domain` reads and shows positions and moves accordingly. A
chess domain (one that declares ``chess_material/2``) takes FENs and
shows SAN and boards through :mod:`engine.chess_io`; any other shows
what its own Prolog writes.

Values here are immutable: the start of a game is a :class:`Start`
passed to each call, never remembered by the domain.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from engine.cache import cache_dir
from engine.chess_io import ChessBoard, ChessMaterial, read_fen
from engine.prolog import BadInput, atom, session, string


@dataclass(frozen=True)
class Position:
    """A position as the domain shows it.

    ``term`` is the Prolog term as text (read back, never run), ``text``
    the form a person types, ``drawing`` the picture for people,
    ``to_move`` ``us`` or ``them``; ``board`` is the chess board
    (``{"turn": ..., "pieces": [[colour, letter, square], ...]}``) of a
    chess domain's position, else None.
    """

    term: str
    text: str
    drawing: str
    to_move: str | None
    board: dict | None = None

    @classmethod
    def from_json(cls, data: dict) -> "Position":
        """A position from the JSON that ``al0_domain:position_json/3`` writes."""
        return cls(data["term"], data["text"], data["drawing"], data["to_move"],
                   data.get("board"))


@dataclass(frozen=True)
class Start:
    """Where a game or an explanation starts: the position, and for a
    chess domain the board a person gave (in the person's colours)."""

    position: Position
    chess: ChessBoard | None = None


@dataclass(frozen=True)
class Prepared:
    """How a domain's data got ready: ``none``, ``session``, ``cache`` or ``built``."""

    source: str
    seconds: float


@dataclass(frozen=True)
class Domain:
    """An AL0 domain module and what it declares.

    ``start_sets`` names the sets of start positions for verification
    (the default first); ``success`` the outcomes that count as success
    for us; ``perfect`` and ``optimal`` say where the perfect defender
    and our optimal counts come from (``domain``: its own predicates;
    ``search``: the engine's search solver); ``chess`` is the material
    of a chess domain; ``example`` a position written as a person would.
    """

    module: str
    initial: bool
    start_sets: tuple[str, ...]
    success: tuple[str, ...]
    perfect: str
    optimal: str
    prepares: bool
    tablebase: bool
    chess: ChessMaterial | None
    example: str | None

    @property
    def is_chess(self) -> bool:
        """Whether positions are chess boards (FEN in, SAN and pictures out)."""
        return self.chess is not None

    # -- positions ------------------------------------------------------

    def start(self, text: str | None = None, *, fen: str | None = None,
              over_ok: bool = False) -> Start:
        """The start a person gave: ``text`` as the domain reads it, a
        ``fen`` for a chess domain, or neither for the domain's initial
        position. Raises :class:`BadInput` naming the domain; a FEN where
        the game is over is refused unless ``over_ok``."""
        if fen is not None and text is not None:
            raise BadInput("give --fen or --position, not both")
        if fen is not None:
            if self.chess is None:
                raise BadInput(f"--fen gives chess positions, and {self.module} is not a "
                               f"chess domain: give --position{self._example_hint()}")
            board = read_fen(fen, self.chess, over_ok=over_ok)
            return Start(self._position(board.given_term()), board)
        if text is None:
            if not self.initial:
                raise BadInput(f"{self.module} has no initial position: give "
                               f"{'--fen or ' if self.chess else ''}--position"
                               f"{self._example_hint()}")
            given = "initial"
        else:
            given = f"text({string(text)})"
        position = self._position(given)
        if self.chess is not None:
            return Start(position, ChessBoard.of_position(position.board))
        return Start(position)

    def _position(self, given: str) -> Position:
        reply = session().ask(f"al0_jobs:position_job({atom(self.module)}, {given}, Out)",
                              what=f"reading a position of {self.module}")
        return Position.from_json(json.loads(reply))

    def _example_hint(self) -> str:
        return f" (e.g. {self.example})" if self.example else ""

    # -- moves and boards for people ---------------------------------------

    def people_moves(self, start: Start, texts: list[str]) -> list[str]:
        """A line of move texts played from ``start``, as people write moves."""
        if start.chess is not None:
            return start.chess.san_line(texts)
        return list(texts)

    def drawing(self, start: Start, texts: list[str], reached: Position | None) -> str:
        """The picture of the position after ``texts`` from ``start``
        (``reached`` is that position as Prolog describes it)."""
        if start.chess is not None:
            return start.chess.after(texts).unicode(borders=True, empty_square="·")
        return (reached or start.position).drawing

    def read_move(self, start: Start, played: list[str], typed: str) -> str:
        """The move text that a person's ``typed`` move names (the domain
        then says whether it is legal); raises :class:`BadInput` for a
        chess move that python-chess refuses."""
        if start.chess is not None:
            return start.chess.read_move(played, typed)
        return typed.strip()

    def tree_for_people(self, start: Start, tree: dict) -> dict:
        """A forcing tree from ``start`` (as the explain job gives it), for people."""
        if start.chess is not None:
            return start.chess.san_tree(tree)
        return tree

    def position_for_people(self, start: Start, data: dict) -> str:
        """A position of the domain (as ``position_json/3`` writes it) as
        the person who gave ``start`` reads it: a FEN in their colours for
        chess, else the domain's text."""
        position = Position.from_json(data)
        if start.chess is None or position.board is None:
            return position.text
        board = ChessBoard.of_position(position.board).board
        return (board.mirror() if start.chess.mirrored else board).fen()

    def failure_for_people(self, failure: dict) -> dict:
        """A verifier's failing start and line, as people read them
        (FEN and SAN for chess)."""
        return {"result": failure["result"], **self.line_for_people(failure)}

    def line_for_people(self, start: dict) -> dict:
        """A verifier's start (``position``, a position's JSON) and its
        ``line`` (UCI for chess), as people read them (FEN and SAN for
        chess); other keys are kept."""
        position = Position.from_json(start["position"])
        out = {**start, "position": position.text}
        if self.chess is not None and position.board is not None:
            board = ChessBoard.of_position(position.board)
            out.update(fen=board.board.fen(), line=board.san_line(start["line"]))
        return out

    # -- data ---------------------------------------------------------------

    def prepare(self, *, rebuild: bool = False) -> Prepared:
        """Make the domain's data ready (its ``prepare/3``: e.g. load or build
        a tablebase in the cache directory)."""
        if not self.prepares:
            return Prepared("none", 0.0)
        reply = session().ask(
            f"al0_jobs:prepare_job({atom(self.module)}, {string(str(cache_dir()))}, "
            f"{'true' if rebuild else 'false'}, Out)",
            what=f"preparing the data of {self.module}", seconds=1800)
        data = json.loads(reply)
        return Prepared(data["source"], data["seconds"])

    def tablebase_statistics(self) -> dict:
        """The figures of the domain's tablebase (its ``tablebase_json/1``)."""
        if not self.tablebase:
            raise BadInput(f"{self.module} describes no tablebase (tablebase_json/1)")
        return json.loads(session().ask(f"{atom(self.module)}:tablebase_json(Out)",
                                        what=f"describing the tablebase of {self.module}"))

    def solve(self, start: Start) -> dict:
        """Our optimal count from ``start`` and an optimal line (for people)."""
        reply = session().ask(
            f"al0_jobs:solve_job({atom(self.module)}, {string(start.position.term)}, Out)",
            what=f"solving the position of {self.module}")
        data = json.loads(reply)
        return {"optimal": data["optimal"], "result": data["result"],
                "moves": self.people_moves(start, data["moves"])}


def load_tablebases(chess: ChessMaterial) -> None:
    """Build (once) and load into Prolog the tablebase of a chess domain's
    material and the smaller ones it reaches, for the defender and the
    optimal counts of ``kb/chess/endgame.pl``. Done when the domain's
    declarations are read (:func:`declarations`), before anything else
    asks for them."""
    from engine.endgames import tables_term
    from engine.tablebases import SignatureError, parse_signature

    try:
        material = parse_signature(chess.white + chess.black)
    except SignatureError:          # bare kings: no table
        return
    tables = tables_term(material)
    s = session()
    s.use_module("chess/tablebase.pl")
    s.ask(f"chess_tablebase:load_tables({tables}), Out = ok",
          what="loading the tablebases")


def declarations(module: str, what: str | None = None) -> dict:
    """What the loaded domain module ``module`` declares, as
    ``al0_domain:domain_json/2`` gives it; a chess domain's tablebases are
    loaded first, since its declarations may read them."""
    s = session()
    s.use_module("al0/jobs.pl")
    what = what or f"reading the declarations of {module}"
    material = json.loads(s.ask(f"al0_jobs:chess_material_job({atom(module)}, Out)",
                                what=what))
    if material is not None:
        load_tablebases(ChessMaterial(material["white"], material["black"]))
    return json.loads(s.ask(f"al0_jobs:domain_job({atom(module)}, Out)", what=what))


def describe(module: str) -> Domain:
    """What the loaded AL0 domain module ``module`` declares (one query)."""
    data = declarations(module)
    chess = data["chess"]
    return Domain(
        module=data["module"], initial=data["initial"],
        start_sets=tuple(data["start_sets"]), success=tuple(data["success"]),
        perfect=data["perfect"], optimal=data["optimal"], prepares=data["prepare"],
        tablebase=data["tablebase"],
        chess=ChessMaterial(chess["white"], chess["black"]) if chess else None,
        example=data["example"])

