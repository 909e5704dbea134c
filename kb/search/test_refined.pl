/*  plunit tests of alpha-beta refined (refined.pl) and the search
    budget (search.pl), over tic-tac-toe and Connect Four.
    Run: swipl -g run_tests -t halt kb/search/test_refined.pl
*/
:- use_module(search).
:- use_module(refined).
:- use_module('../games/tictactoe', []).
:- use_module('../games/connect4', []).

:- begin_tests(refined).

visits(Goal, Nodes) :-
    reset_visited, call(Goal), visited(Nodes).

test(ordered_successors_best_first_for_the_mover) :-
    connect4:parse_position("44", P),             % MAX to move
    ordered_successors(connect4, P, Succs),
    maplist(connect4:staticval, Succs, Vals),
    assertion(length(Succs, 7)),
    msort(Vals, Ascending), reverse(Ascending, Descending),
    assertion(Vals == Descending).

test(ordered_alphabeta) :-
    visits(ordered_alphabeta_pv(tictactoe:ttt(0, 0, x), -1.0Inf, 1.0Inf, inf, _, V), N),
    assertion(V == 0),
    assertion(N == 3126).

test(transposition_table) :-
    clear_table,
    visits(tt_alphabeta_pv(tictactoe:ttt(0, 0, x), inf, [_, Best|_], V), N),
    clear_table,
    assertion(V == 0),
    assertion(N == 856),
    assertion(Best = ttt(_, _, o)).

test(table_agrees_with_minimax, forall(member(P, [ttt(1,16,x), ttt(3,16,o), ttt(17,0,o)]))) :-
    minimax(tictactoe:P, _, V1),
    clear_table,
    tt_alphabeta_pv(tictactoe:P, inf, _, V2),
    clear_table,
    assertion(V1 == V2).

test(depth_limited_table_agrees_with_alphabeta, forall(between(1, 4, D))) :-
    connect4:initial(P),
    alphabeta_pv(connect4:P, -1.0Inf, 1.0Inf, D, _, V1),
    clear_table,
    tt_alphabeta_pv(connect4:P, D, _, V2),
    clear_table,
    assertion(V1 == V2).

test(iterative_deepening_per_depth) :-
    connect4:initial(P),
    iterative_deepening(connect4:P, positions(600), id(D, _, _, PerDepth)),
    assertion(D == 4),
    assertion(PerDepth == [1-8, 2-21, 3-61, 4-128]).

test(iterative_deepening_solves_tictactoe) :-
    iterative_deepening(tictactoe:ttt(0, 0, x), positions(1000000), id(D, _, V, _)),
    assertion(D-V == 9-0).

test(budget_of_positions, [throws(budget_exceeded)]) :-
    reset_visited,
    with_budget(positions(100), alphabeta_pv(tictactoe:ttt(0, 0, x), -inf, inf, inf, _, _)).

test(budget_is_lifted_after) :-
    reset_visited,
    catch(with_budget(positions(10), minimax_pv(tictactoe:ttt(0, 0, x), inf, _, _)), _, true),
    visits(alphabeta_pv(tictactoe:ttt(0, 0, x), -inf, inf, inf, _, _), N),
    assertion(N == 20866).

test(quiescence_sees_past_the_horizon) :-
    % o has 1, 2, 3 on the bottom row: at depth 1 plain alpha-beta likes
    % x on 5 best, past which o wins on 4; the noisy moves (o's win after
    % x on 5, x's block on 4) show it
    connect4:parse_position("53513732", P),
    visits(alphabeta_pv(connect4:P, -inf, inf, 1, [_, Plain|_], V1), N1),
    assertion(connect4:move_label(P, Plain, "5")),
    assertion(V1-N1 == 42-8),
    visits(quiescence_pv(connect4:P, 1, [_, Quiet|_], V2), N2),
    assertion(connect4:move_label(P, Quiet, "4")),
    assertion(V2-N2 == 39-14).

test(quiescence_without_noisy_moves_is_alphabeta, forall(between(1, 3, D))) :-
    visits(alphabeta_pv(tictactoe:ttt(0, 0, x), -inf, inf, D, L1, V1), N1),
    visits(quiescence_pv(tictactoe:ttt(0, 0, x), D, L2, V2), N2),
    assertion(L1-V1-N1 == L2-V2-N2).

test(noisy_moves_of_connect4) :-
    connect4:parse_position("53513732", P),
    connect4:noisy_moves(P, [Block]),
    assertion(connect4:move_label(P, Block, "4")),
    connect4:parse_position("535137325", Q),       % x has three up column 5
    connect4:noisy_moves(Q, [Win, Block5]),
    assertion(Win = c4(_, _, _, _, _, won(min))),
    assertion(connect4:move_label(Q, Block5, "5")),
    connect4:parse_position("4", Quiet),
    assertion(connect4:noisy_moves(Quiet, [])).

test(bad_budget, [error(domain_error(search_budget, minutes(3)))]) :-
    with_budget(minutes(3), true).

:- end_tests(refined).
