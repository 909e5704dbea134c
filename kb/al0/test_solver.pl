/*  plunit tests of the search defender (module al0_solver), over toy
    domains defined here as module-qualified clauses, tic-tac-toe, and
    random cyclic graphs checked against a retrograde analysis.
    Run: swipl -g run_tests -t halt kb/al0/test_solver.pl
*/
:- use_module(solver).
:- use_module('../games/tictactoe_al0', []).
:- use_module(library(plunit)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(aggregate)).

other(us, them).
other(them, us).

% ------------------------------------------------------------------
% solver_nim: one pile, take 1..3, whoever takes the last stick loses.
% With us to move, we win exactly when Sticks mod 4 =\= 1, in
% (Sticks+2)//4 moves; with them to move, when Sticks mod 4 =:= 1, in
% (Sticks-1)//4 moves (checked by a separate minimax when writing this).

solver_nim:legalmove(nim(S, Side, D), take(K), nim(S1, Side1, D1)) :-
    between(1, 3, K), K =< S,
    S1 is S - K, other(Side, Side1), D1 is D + 1.
solver_nim:to_move(nim(_, Side, _), Side).
solver_nim:reset_depth(nim(S, Side, _), nim(S, Side, 0)).
solver_nim:outcome(nim(0, us, _), won).
solver_nim:outcome(nim(0, them, _), lost).
solver_nim:success(won).

nim_value(us, S, N)   :- S mod 4 =\= 1, N is (S + 2) // 4.
nim_value(them, S, N) :- S mod 4 =:= 1, N is (S - 1) // 4.

% ------------------------------------------------------------------
% solver_loop: a small graph with cycles. Node(Side): successors.
%   a(us): b, c       b(them): a        c(them): d, e
%   d(us): w1, b      e(us): h          h(them): k      k(us): w1
%   f(us): g          g(them): w2, f    w1, w2: won
% Values: k, h, d 1; e, c 2; a, b 3 (b only goes back to a, and a
% cycle through b never helps); f, g unwinnable (they go round f-g).

loop_node(a, us, [b, c]).
loop_node(b, them, [a]).
loop_node(c, them, [d, e]).
loop_node(d, us, [w1, b]).
loop_node(e, us, [h]).
loop_node(h, them, [k]).
loop_node(k, us, [w1]).
loop_node(f, us, [g]).
loop_node(g, them, [w2, f]).
loop_node(w1, them, []).
loop_node(w2, us, []).

solver_loop:legalmove(n(X, D), X-Y, n(Y, D1)) :-
    loop_node(X, _, Ys), member(Y, Ys), D1 is D + 1.
solver_loop:to_move(n(X, _), Side) :- loop_node(X, Side, _).
solver_loop:reset_depth(n(X, _), n(X, 0)).
solver_loop:outcome(n(X, _), won) :- memberchk(X, [w1, w2]).
solver_loop:success(won).

% solver_endless: an infinite line p(0), q(0), p(1), q(1), ... where
% they may stop (and we win) at every q(K): unwinnable, but no search
% can prove it, so the budget runs out.

solver_endless:legalmove(p(K, D), on, q(K, D1)) :- D1 is D + 1.
solver_endless:legalmove(q(K, D), on, p(K1, D1)) :- K1 is K + 1, D1 is D + 1.
solver_endless:legalmove(q(_, D), stop, won(D1)) :- D1 is D + 1.
solver_endless:to_move(p(_, _), us).
solver_endless:to_move(q(_, _), them).
solver_endless:to_move(won(_), us).
solver_endless:reset_depth(p(K, _), p(K, 0)).
solver_endless:reset_depth(q(K, _), q(K, 0)).
solver_endless:reset_depth(won(_), won(0)).
solver_endless:outcome(won(_), won).
solver_endless:success(won).

% solver_nosuccess: a domain that forgot success/1.
solver_nosuccess:legalmove(_, _, _) :- fail.
solver_nosuccess:to_move(_, them).
solver_nosuccess:reset_depth(P, P).
solver_nosuccess:outcome(_, _) :- fail.

% ------------------------------------------------------------------
% Tic-tac-toe: tictactoe_al0 itself (success = won or draw, declared
% here unless the module declares it), and solver_ttt, the same game
% where only a win counts.

:- (   current_predicate(tictactoe_al0:success/1)
   ->  true
   ;   assertz(tictactoe_al0:success(won)),
       assertz(tictactoe_al0:success(draw))
   ).

solver_ttt:legalmove(P, M, P1) :- tictactoe_al0:legalmove(P, M, P1).
solver_ttt:to_move(P, S) :- tictactoe_al0:to_move(P, S).
solver_ttt:reset_depth(P, P0) :- tictactoe_al0:reset_depth(P, P0).
solver_ttt:outcome(P, R) :- tictactoe_al0:outcome(P, R).
solver_ttt:success(won).

% ------------------------------------------------------------------
% solver_graph: random bipartite graphs (us nodes 1..K, them nodes
% 1..K, edge/3 facts), with cycles, some dead ends and terminal nodes;
% the solver must agree with a retrograde analysis.

:- dynamic graph_edge/3, graph_end/3.

solver_graph:legalmove(g(Side, X, D), Y, g(Side1, Y, D1)) :-
    \+ graph_end(Side, X, _),
    graph_edge(Side, X, Y), other(Side, Side1), D1 is D + 1.
solver_graph:to_move(g(Side, _, _), Side).
solver_graph:reset_depth(g(Side, X, _), g(Side, X, 0)).
solver_graph:outcome(g(Side, X, _), R) :- graph_end(Side, X, R).
solver_graph:success(won).

random_graph(K, MaxDegree) :-
    retractall(graph_edge(_, _, _)),
    retractall(graph_end(_, _, _)),
    forall(( member(Side, [us, them]), between(1, K, X) ),
           (   random(R), R < 0.15
           ->  random_member(Res, [won, lost]),
               assertz(graph_end(Side, X, Res))
           ;   random_between(0, MaxDegree, Degree),
               forall(between(1, Degree, _),
                      ( random_between(1, K, Y),
                        assertz(graph_edge(Side, X, Y)) ))
           )).

% fixed_graph: every node is lost (them 1 is stuck), but the lower
% bounds of us 1, 2, 3 keep each other alive round the cycles, so only
% prove/4 in the solver settles it.
fixed_graph :-
    retractall(graph_edge(_, _, _)),
    retractall(graph_end(_, _, _)),
    forall(member(Side-X-Y, [ us-1-3, us-2-3, us-3-1, us-3-2,
                              them-2-3, them-2-2, them-3-1, them-3-3 ]),
           assertz(graph_edge(Side, X, Y))).

% retrograde(+K, -Values): Values is a list of Side-X-V, V the number
% of our moves to force `won` (or `inf`), by iterating from "nothing is
% won" until nothing changes (the attractor of the won positions).
retrograde(K, Values) :-
    findall(Side-X-inf, ( member(Side, [us, them]), between(1, K, X) ),
            Values0),
    fixpoint(Values0, Values).

fixpoint(Values0, Values) :-
    maplist(improve(Values0), Values0, Values1),
    (   Values1 == Values0
    ->  Values = Values0
    ;   fixpoint(Values1, Values)
    ).

improve(Values, Side-X-_, Side-X-V) :-
    (   graph_end(Side, X, R)
    ->  ( R == won -> V = 0 ; V = inf )
    ;   findall(W, ( graph_edge(Side, X, Y), other(Side, S1),
                     memberchk(S1-Y-W, Values) ), Ws),
        node_value(Side, Ws, V)
    ).

node_value(us, Ws, V) :-
    include(integer, Ws, Finite),
    (   Finite == []
    ->  V = inf
    ;   min_list(Finite, M), V is M + 1
    ).
node_value(them, Ws, V) :-
    (   ( Ws == [] ; memberchk(inf, Ws) )
    ->  V = inf
    ;   max_list(Ws, V)
    ).

solver_value(Pos, V) :-
    (   search_optimal(solver_graph, Pos, N)
    ->  V = N
    ;   V = inf
    ).

% expected_reply(+Values, +X, -Y): the perfect defence at them's node X
% by the retrograde Values: the first child we cannot win, else the
% first child of largest value.
expected_reply(Values, X, Y) :-
    findall(Y1-V, ( graph_edge(them, X, Y1), memberchk(us-Y1-V, Values) ),
            Children),
    (   memberchk(Y-inf, Children)
    ->  true
    ;   aggregate_all(max(V), member(_-V, Children), Max),
        memberchk(Y-Max, Children)
    ).

% ------------------------------------------------------------------

% limit_message(+E, -Line): E as print_message/2 renders it, which must
% be one line.
limit_message(E, Line) :-
    phrase(prolog:translate_message(E), Lines),
    with_output_to(string(Text),
                   print_message_lines(current_output, '', Lines)),
    split_string(Text, "\n", "", [Line, ""]).

:- begin_tests(al0_solver, [setup(forget_solutions), cleanup(forget_solutions)]).

test(nim_optimal_us_to_move, forall(between(1, 30, S))) :-
    (   nim_value(us, S, N)
    ->  search_optimal(solver_nim, nim(S, us, 0), V),
        assertion(V == N)
    ;   assertion(\+ search_optimal(solver_nim, nim(S, us, 0), _))
    ).

test(nim_optimal_them_to_move, forall(between(0, 30, S))) :-
    (   S =:= 0
    ->  assertion(\+ search_optimal(solver_nim, nim(0, them, 0), _))
    ;   nim_value(them, S, N)
    ->  search_optimal(solver_nim, nim(S, them, 5), V),
        assertion(V == N)
    ;   assertion(\+ search_optimal(solver_nim, nim(S, them, 5), _))
    ).

test(nim_terminal_success_is_zero) :-
    search_optimal(solver_nim, nim(0, us, 3), N),
    assertion(N == 0).

test(nim_optimal_move, forall(between(1, 30, S))) :-
    (   nim_value(us, S, _)
    ->  K is (S - 1) mod 4,
        search_optimal_move(solver_nim, nim(S, us, 0), Move, Pos1),
        assertion(Move == take(K)),
        assertion(Pos1 = nim(_, them, 1))
    ;   assertion(\+ search_optimal_move(solver_nim, nim(S, us, 0), _, _))
    ).

test(nim_reply_wins_for_them_when_it_can, forall(between(2, 30, S))) :-
    search_reply(solver_nim, nim(S, them, 0), Move, _),
    (   S mod 4 =\= 1
    ->  K is (S - 1) mod 4,             % leave us a losing pile
        assertion(Move == take(K))
    ;   assertion(Move == take(1))      % all replies equally long: the first
    ).

test(nim_reply_takes_the_last_stick_when_forced) :-
    search_reply(solver_nim, nim(1, them, 0), Move, Pos1),
    assertion(Move-Pos1 == take(1)-nim(0, us, 1)).

test(side_to_move_is_checked, [error(domain_error(them_to_move, _))]) :-
    search_reply(solver_nim, nim(5, us, 0), _, _).

test(loop_values, forall(member(X-N, [k-1, h-1, d-1, e-2, c-2, a-3, b-3]))) :-
    search_optimal(solver_loop, n(X, 0), V),
    assertion(V == N).

test(loop_values_in_any_query_order,
     forall(member(Order, [[a, b], [b, a], [d, b, a]]))) :-
    forget_solutions,
    maplist([X, V]>>search_optimal(solver_loop, n(X, 0), V), Order, Vs),
    maplist([X, V]>>( loop_value(X, V0), assertion(V == V0) ), Order, Vs).

test(loop_cycle_proven_unwinnable, forall(member(X, [f, g]))) :-
    search_limit(Default),
    set_search_limit(1000),
    call_cleanup(\+ search_optimal(solver_loop, n(X, 0), _),
                 set_search_limit(Default)).

test(loop_reply_prefers_unwinnable_then_longest) :-
    search_reply(solver_loop, n(g, 0), M1, _),
    assertion(M1 == g-f),                % f is unwinnable, w2 a win
    search_reply(solver_loop, n(c, 0), M2, _),
    assertion(M2 == c-e),                % e takes 2 moves, d 1
    search_optimal_move(solver_loop, n(a, 0), M3, _),
    assertion(M3 == a-c).

test(budget_error_on_an_endless_line,
     [ error(resource_error(al0_search_positions),
             al0_search(solver_endless, 1000, p(0, 0))) ]) :-
    search_limit(Default),
    set_search_limit(1000),
    call_cleanup(search_optimal(solver_endless, p(0, 0), _),
                 set_search_limit(Default)).

test(budget_error_message_is_one_line) :-
    forget_solutions,
    search_limit(Default),
    set_search_limit(50),
    call_cleanup(catch(search_reply(solver_nim, nim(40, them, 0), _, _),
                       E, true),
                 set_search_limit(Default)),
    assertion(nonvar(E)),
    assertion(search_expanded(50)),
    limit_message(E, Text),
    assertion(Text == "the search defender of solver_nim gave up after 50 \c
                       positions from nim(40,them,0): the domain is too \c
                       large for search; give it perfect_reply/3 and \c
                       optimal_moves/2").

test(limit_is_kept) :-
    search_limit(L0),
    set_search_limit(123),
    search_limit(L),
    set_search_limit(L0),
    assertion(L == 123).

test(no_success_declared) :-
    catch(search_optimal(solver_nosuccess, x, _), E, true),
    assertion(E = error(existence_error(al0_success, solver_nosuccess), _)),
    limit_message(E, Text),
    assertion(Text == "solver_nosuccess declares no success/1: the search \c
                       defender needs to know which outcomes count as \c
                       success for us").

test(tictactoe_forces_a_draw_in_five) :-
    findall(R, tictactoe_al0:success(R), Ok),
    (   memberchk(draw, Ok)
    ->  search_optimal(tictactoe_al0, t(0, 0, us, 0), N),
        assertion(N == 5)
    ;   assertion(\+ search_optimal(tictactoe_al0, t(0, 0, us, 0), _))
    ).

test(tictactoe_cannot_force_a_win) :-
    \+ search_optimal(solver_ttt, t(0, 0, us, 0), _).

test(tictactoe_replies_to_the_centre) :-
    findall(M-V, ( tictactoe_al0:legalmove(t(16, 0, them, 1), M, P1),
                   ( search_optimal(solver_ttt, P1, V) -> true ; V = inf ) ),
            Values),
    assertion(Values == [1-inf, 2-3, 3-inf, 4-3, 6-3, 7-inf, 8-3, 9-inf]),
    search_reply(solver_ttt, t(16, 0, them, 1), Move, _),
    assertion(Move == 1).

test(a_cycle_the_deepening_alone_cannot_prove,
     [ setup(fixed_graph), forall(member(X, [1, 2, 3])) ]) :-
    forget_solutions,
    search_limit(Default),
    set_search_limit(2000),
    call_cleanup(\+ search_optimal(solver_graph, g(us, X, 0), _),
                 set_search_limit(Default)).

test(random_graphs_agree_with_retrograde_analysis,
     forall(( member(K-MaxDegree, [12-3, 20-6]), between(1, 25, Seed) ))) :-
    set_random(seed(Seed)),
    random_graph(K, MaxDegree),
    forget_solutions,
    retrograde(K, Expected),
    findall(Side-X-V, ( member(Side-X-_, Expected),
                        solver_value(g(Side, X, 0), V) ),
            Values),
    assertion(Values == Expected),
    forall(( member(them-X-_, Expected),
             \+ graph_end(them, X, _),
             graph_edge(them, X, _) ),
           ( expected_reply(Expected, X, Y),
             search_reply(solver_graph, g(them, X, 0), Move, _),
             assertion(Move == Y) )).

:- end_tests(al0_solver).

loop_value(a, 3).
loop_value(b, 3).
loop_value(d, 1).
