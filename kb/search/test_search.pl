/*  plunit tests of the game-tree searches, over tic-tac-toe and Nim.
    Run: swipl -g run_tests -t halt kb/search/test_search.pl
*/
:- use_module(search).
:- use_module('../games/tictactoe', []).
:- use_module('../games/nim', []).

:- begin_tests(search).

visits(Goal, Nodes) :-
    reset_visited, call(Goal), visited(Nodes).

test(minimax_full_tree) :-
    visits(minimax(tictactoe:ttt(0, 0, x), _, Val), Nodes),
    assertion(Val == 0),
    assertion(Nodes == 549946).

test(alphabeta_prunes) :-
    visits(alphabeta(tictactoe:ttt(0, 0, x), -1000, 1000, Best, Val), Nodes),
    assertion(Val == 0),
    assertion(Best == ttt(1, 0, o)),
    assertion(Nodes == 18297).

test(alphabeta_agrees_with_minimax, forall(member(P, [ttt(1,16,x), ttt(3,16,o), ttt(17,0,o)]))) :-
    minimax(tictactoe:P, _, V1),
    alphabeta(tictactoe:P, -1000, 1000, _, V2),
    assertion(V1 == V2).

test(win_found) :-
    % X on 1 and 2, O on 4 and 5, X to move: X on 3 wins
    alphabeta(tictactoe:ttt(3, 24, x), -1000, 1000, Best, Val),
    assertion(Val == 100),
    assertion(Best == ttt(7, 24, o)).

test(depth_limited_uses_staticval) :-
    visits(alphabeta(tictactoe:ttt(0, 0, x), -1000, 1000, Best, Val, 1), Nodes),
    assertion(Nodes == 10),
    assertion(Best == ttt(16, 0, o)),      % the centre opens four lines
    assertion(Val == 4).

test(terminal_has_no_successor, [fail]) :-
    minimax(tictactoe:ttt(7, 24, o), _, _).

test(nim_mod4, forall(between(1, 13, N))) :-
    minimax(nim:nim(N, max), _, Val),
    (   N mod 4 =:= 1 -> assertion(Val < 0) ; assertion(Val > 0) ).

test(pv_ends_at_game_end) :-
    minimax_pv(nim:nim(5, max), inf, Line, Val),
    assertion(Line == [nim(5,max), nim(4,min), nim(1,max), nim(0,min)]),
    assertion(Val == -100).

:- end_tests(search).
