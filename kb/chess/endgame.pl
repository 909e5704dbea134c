:- module(chess_endgame,
          [ % the AL0 interface (kb/README.md, "AL0 domains")
            legalmove/3,                % +Pos, ?Move, -Pos1
            to_move/2,                  % +Pos, -Side
            depth/2,                    % +Pos, -Depth
            reset_depth/2,              % +Pos, -Pos0
            outcome/2,                  % +Pos, -Result
            move_text/3,                % +Pos, +Move, -Text
            move_constraint/1,          % ?Name
            % move constraints
            legal/3,                    % +Pos, ?Move, -Pos1
            kingmove/3,                 % +Pos, ?Move, -Pos1
            checkmove/3,                % +Pos, ?Move, -Pos1
            % goal predicates
            mate/1,                     % +Pos
            stalemate/1,                % +Pos
            check/1,                    % +Pos
            piece_lost/1,               % +Pos
            their_king_edge/1,          % +Pos
            themtomove/1,               % +Pos
            ustomove/1,                 % +Pos
            % declarations
            start_set/1,                % ?Name
            start/2,                    % +Name, -Pos
            success/1,                  % ?Result
            perfect_reply/3,            % +Pos, -Move, -Pos1
            optimal_moves/2,            % +Pos, -N
            optimal_move/3,             % +Pos, -Move, -Pos1
            chess_position/3,           % +Turn, +Pieces, -Pos
            chess_board/3               % +Pos, -Turn, -Pieces
          ]).
:- use_module(chess, [legal_move/3, move_uci/2, in_check/1, chess_board/4]).
:- use_module(tablebase, [position_value/2, value_moves/2, best_move/3, won_position/3]).
:- reexport(mating, except([mating_constraint/1])).
:- use_module(mating, [mating_constraint/1]).

/** <module> Any chess endgame of at most four pieces as an AL0 domain

A chess domain for advice tables needs no code of its own: a knowledge
base re-exports this module and declares its material, and everything
else (moves, outcomes, the perfect defender and optimal counts from the
tablebase, boards in and out) comes from here:

    :- module(kbnk, [chess_material/2]).
    :- reexport(advice(chess/endgame)).

    chess_material('KBN', 'K').

White is `us`, the side the material names first; a FEN with the
colours the other way round is mirrored by the engine.  The engine
builds the tablebase of the material (engine/tablebases) and loads it
before play, so perfect_reply/3 and optimal_moves/2 work for any
material.  The knowledge base adds the goal predicates and move
constraints its tables need, on the positions described below, with
chess.pl's predicates.  The words of mating tables (chess/mating.pl:
the room of the black king shrinking, the kings closing in, pieces
safe, mate by search, the tightest move first) are re-exported here,
so every such domain has them.

## Positions

`eg(Pos, Depth)`: Pos a position of kb/chess/chess.pl (`pos(Side,
Pieces, EP)`), Depth the moves made since the root of the forcing tree.
Moves are chess.pl's `m(From, To, Promo)`, written as UCI.

The predicates that need the material (start/2, piece_lost/1, outcome/2)
are module-transparent: they read chess_material/2 of the knowledge base
they are called through.
*/

:- module_transparent
    start/2,
    piece_lost/1,
    outcome/2.

%! legalmove(+Pos, ?Move, -Pos1) is nondet.
legalmove(eg(P, D), M, eg(P1, D1)) :-
    legal_move(P, M, P1),
    D1 is D + 1.

%! to_move(+Pos, -Side) is det.  White is `us`.
to_move(eg(pos(S, _, _), _), Side) :-
    ( S == w -> Side = us ; Side = them ).

%! depth(+Pos, -Depth) is det.
depth(eg(_, D), D).

%! reset_depth(+Pos, -Pos0) is det.
reset_depth(eg(P, _), eg(P, 0)).

%! outcome(+Pos, -Result) is semidet.
%
%  `mate` or `stalemate` when the side to move has no move; `piece_lost`
%  when White has fewer pieces than the knowledge base's material.
outcome(eg(P, D), Result) :-
    (   \+ legal_move(P, _, _)
    ->  ( in_check(P) -> Result = mate ; Result = stalemate )
    ;   piece_lost(eg(P, D))
    ->  Result = piece_lost
    ).

%! move_text(+Pos, +Move, -Text) is det.  UCI.
move_text(_, Move, Text) :-
    move_uci(Move, Text).

%! move_constraint(?Name) is nondet.
%
%  `legal`, `kingmove`, `checkmove` and the move constraints of
%  chess/mating.pl.
move_constraint(legal).
move_constraint(kingmove).
move_constraint(checkmove).
move_constraint(Name) :-
    mating_constraint(Name).

%! legal(+Pos, ?Move, -Pos1) is nondet.  Any legal move.
legal(Pos, Move, Pos1) :-
    legalmove(Pos, Move, Pos1).

%! kingmove(+Pos, ?Move, -Pos1) is nondet.  A move of the king.
kingmove(eg(pos(S, Ps, EP), D), m(F, T, Pr), Pos1) :-
    memberchk(p(S, k, F), Ps),
    legalmove(eg(pos(S, Ps, EP), D), m(F, T, Pr), Pos1).

%! checkmove(+Pos, ?Move, -Pos1) is nondet.  A move that gives check.
checkmove(Pos, Move, Pos1) :-
    legalmove(Pos, Move, Pos1),
    check(Pos1).

%! mate(+Pos) is semidet.
mate(eg(P, _)) :- chess:mate(P).

%! stalemate(+Pos) is semidet.
stalemate(eg(P, _)) :- chess:stalemate(P).

%! check(+Pos) is semidet.  The side to move is in check (or mated).
check(eg(P, _)) :- in_check(P).

%! piece_lost(+Pos) is semidet.
%
%  White has fewer pieces than chess_material/2 of the knowledge base
%  this is called through gives it.
piece_lost(eg(pos(_, Ps, _), _)) :-
    context_module(M),
    M:chess_material(White, _),
    atom_length(White, N),
    aggregate_all(count, member(p(w, _, _), Ps), Have),
    Have < N.

%! their_king_edge(+Pos) is semidet.  Black's king is on the edge.
their_king_edge(eg(pos(_, Ps, _), _)) :-
    memberchk(p(b, k, Sq), Ps),
    F is Sq /\ 7, R is Sq >> 3,
    ( F =:= 0 ; F =:= 7 ; R =:= 0 ; R =:= 7 ), !.

%! themtomove(+Pos) is semidet.
themtomove(eg(pos(b, _, _), _)).

%! ustomove(+Pos) is semidet.
ustomove(eg(pos(w, _, _), _)).

%! success(?Result) is nondet.
success(mate).

%! start_set(?Name) is nondet.
%
%  `won`: every position of the material with White to move that the
%  tablebase says White wins, one per class of symmetric positions.
start_set(won).

%! start(+Name, -Pos) is nondet.  The positions of start set Name.
start(won, eg(P, 0)) :-
    context_module(M),
    M:chess_material(White, Black),
    won_position(White, Black, P).

%! perfect_reply(+Pos, -Move, -Pos1) is semidet.
%
%  The tablebase's best move for the side to move: the fastest win, else
%  a draw, else the longest resistance; ties in chess.pl's move order.
perfect_reply(eg(P, D), M, eg(P1, D1)) :-
    best_move(P, M, P1),
    D1 is D + 1.

%! optimal_moves(+Pos, -N) is semidet.
%
%  White's moves to mate from Pos (White to move: including this one;
%  Black to move: against the best defence); fails where White does not
%  win.
optimal_moves(eg(P, _), N) :-
    position_value(P, V),
    P = pos(S, _, _),
    (   S == w -> V = win(_) ; V = loss(_) ),
    value_moves(V, N).

%! optimal_move(+Pos, -Move, -Pos1) is semidet.  White's best move.
optimal_move(Pos, Move, Pos1) :-
    perfect_reply(Pos, Move, Pos1).

%! chess_position(+Turn, +Pieces, -Pos) is semidet.
chess_position(Turn, Pieces, eg(P, 0)) :-
    chess:chess_position(Turn, Pieces, P).

%! chess_board(+Pos, -Turn, -Pieces) is det.
chess_board(eg(P, _), Turn, Pieces) :-
    chess_board(P, Turn, Pieces, _).
