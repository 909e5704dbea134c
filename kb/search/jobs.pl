:- module(search_jobs,
          [ search_job/5,               % +Game, +PosText, +Algo, +MaxDepth, -Json
            position_job/3              % +Game, +PosText, -Json
          ]).

/** <module> Search jobs for the engine: one call, one JSON string back

Positions travel as text and are read here with term_string/2 (reading
runs nothing); positions go back written with ~q.
*/

:- use_module('../job_io').
:- use_module(search).

%!  search_job(+Game, +PosText, +Algo, +MaxDepth, -Json) is det.
%
%   Searches the position PosText of module Game with Algo (`minimax` or
%   `alphabeta`) to MaxDepth (an integer or `inf`). Json is a string
%   holding value, line (the principal variation, root first), nodes
%   (positions visited) and seconds.

search_job(Game, PosText, Algo, MaxDepth, Json) :-
    read_position(PosText, Pos),
    reset_visited,
    get_time(T0),
    run(Algo, Game, Pos, MaxDepth, Line, Val),
    get_time(T1),
    visited(Nodes),
    Seconds is T1 - T0,
    maplist(show, Line, Texts),
    json_string(json([value=Val, line=Texts, nodes=Nodes, seconds=Seconds]), Json).

run(minimax, Game, Pos, MaxDepth, Line, Val) :-
    minimax_pv(Game:Pos, MaxDepth, Line, Val).
run(alphabeta, Game, Pos, MaxDepth, Line, Val) :-
    alphabeta_pv(Game:Pos, -1.0Inf, 1.0Inf, MaxDepth, Line, Val).

%!  position_job(+Game, +PosText, -Json) is det.
%
%   Json describes the position PosText of Game: its successors (each
%   written with ~q), whether MAX is to move, and its static value.

position_job(Game, PosText, Json) :-
    read_position(PosText, Pos),
    (   Game:moves(Pos, Succs) -> true ; Succs = [] ),
    maplist(show, Succs, Texts),
    (   Game:max_to_move(Pos) -> Max = @(true) ; Max = @(false) ),
    Game:staticval(Pos, Val),
    json_string(json([successors=Texts, max_to_move=Max, value=Val]), Json).

show(Pos, Text) :-
    format(string(Text), "~q", [Pos]).
