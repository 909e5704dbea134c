/*  plunit tests of Monte Carlo tree search (mcts.pl), over tic-tac-toe
    and Connect Four.
    Run: swipl -g run_tests -t halt kb/search/test_mcts.pl

    Playouts: 200 for a win in one move, 4,000 for a win in two of the
    mover's own moves.  With a fixed seed every run is the same, so the
    tests cannot be flaky; the counts are chosen with a margin so that
    they would hold for other seeds too: over seeds 1..50, 100 playouts
    took every win in one of the positions below (30 did not), and 3,000
    found every win in two (2,000 missed once in 200 searches).  The
    whole file runs in about 3 seconds.
*/
:- use_module(search).
:- use_module(mcts).
:- use_module('../games/tictactoe', []).
:- use_module('../games/connect4', []).

:- begin_tests(mcts).

visits(Goal, Nodes) :-
    reset_visited, call(Goal), visited(Nodes).

%   Connect Four positions (columns played, 1-based, x first) and the
%   columns that win.

% win_in_one(?Text, ?Columns): the side to move wins at once in Columns.
win_in_one("121212", [1]).          % x: four up column 1 (o threatens 2)
win_in_one("112233", [4]).          % x: four across the bottom (o threatens above)
win_in_one("1717275", [7]).         % o: four up column 7
win_in_one("1223433454", [4]).      % x: four on the diagonal from column 1 up

% win_in_two(?Text, ?Columns): no move wins at once, and each of Columns
% wins at the mover's next move, whatever the opponent answers.
win_in_two("3344", [2, 5]).         % x: an open three across the bottom
win_in_two("14751", [3]).           % o: an open three across the bottom
win_in_two("32544651", [3]).        % x: an open three across row 2
win_in_two("5355543127", [2, 4]).   % x: 2 threatens at (4,2) under x's diagonal
                                    % threat at (4,3), so o's block gives x the
                                    % win; 4 makes two threats at once

% column(+Pos, +Succ, -Column): the column (1-based) played from Pos.
column(Pos, Succ, Column) :-
    connect4:move_label(Pos, Succ, Text),
    number_string(Column, Text).

mover(Pos, Side) :-
    (   connect4:max_to_move(Pos) -> Side = max ; Side = min ).

% wins_at_once(+Pos, -Columns): by the rules, the columns where the side
% to move completes four.
wins_at_once(Pos, Columns) :-
    mover(Pos, Side),
    findall(C, ( between(1, 7, C), C0 is C - 1,
                 connect4:drop(Pos, C0, P1),
                 P1 = c4(_, _, _, _, _, won(Side)) ),
            Columns).

% wins_within(+Pos, +Depth, -Columns): the columns after which alpha-beta
% to Depth finds a definite win for the side to move in Pos, on a line
% that ends, by the rules, in a position that side has won.  Connect
% Four values a win 1000 (and search.pl may push definite outcomes
% further out); no heuristic value of these positions comes near it.
wins_within(Pos, Depth, Columns) :-
    mover(Pos, Side),
    connect4:moves(Pos, Succs),
    findall(C, ( member(S, Succs),
                 alphabeta_pv(connect4:S, -1.0Inf, 1.0Inf, Depth, Line, V),
                 won_value(Side, V),
                 last(Line, End),
                 End = c4(_, _, _, _, _, won(Side)),
                 column(Pos, S, C) ),
            Columns).

won_value(max, V) :- V >= 1000.
won_value(min, V) :- V =< -1000.

mcts_column(Pos, Playouts, Column) :-
    mcts(connect4:Pos, [playouts(Playouts), seed(42)], mcts(Best, _)),
    column(Pos, Best, Column).

test(same_seed_same_result_and_visits) :-
    connect4:initial(P),
    Options = [playouts(300), seed(7)],
    visits(mcts(connect4:P, Options, R1), N1),
    visits(mcts(connect4:P, Options, R2), N2),
    assertion(R1 == R2),
    assertion(N1 == N2).

test(visited_count_of_a_fixed_search) :-
    visits(mcts(tictactoe:ttt(0, 0, x), [playouts(2000), seed(42)], mcts(Best, _)), N),
    assertion(N == 17173),
    assertion(Best == ttt(16, 0, o)).           % the centre

test(another_seed_another_search) :-
    connect4:initial(P),
    mcts(connect4:P, [playouts(300), seed(1)], mcts(_, Stats1)),
    mcts(connect4:P, [playouts(300), seed(2)], mcts(_, Stats2)),
    assertion(Stats1 \== Stats2).

test(stats_of_every_root_child_in_moves_order) :-
    connect4:initial(P),
    mcts(connect4:P, [playouts(250), seed(3), exploration(1.0)], mcts(Best, Stats)),
    connect4:moves(P, Succs),
    pairs_keys_values(Stats, Keys, Values),
    assertion(Keys == Succs),
    findall(V, member(stats(V, _), Values), Visits),
    sum_list(Visits, Total),
    assertion(Total == 250),                    % each playout through one child
    forall(member(stats(V, R), Values), assertion((float(R), R =< V))),
    max_list(Visits, Most),
    nth1(I, Visits, Most), !,                   % the first most visited
    nth1(I, Keys, First),
    assertion(Best == First).

test(tictactoe_immediate_win_for_x) :-
    tictactoe:parse_position("xx.oo....", P),
    tictactoe:parse_position("xxxoo....", Won),
    mcts(tictactoe:P, [playouts(200)], mcts(Best, _)),
    assertion(Best == Won).

test(tictactoe_immediate_win_for_o) :-
    tictactoe:parse_position("xx.oo.x..", P),
    tictactoe:parse_position("xx.ooox..", Won),
    mcts(tictactoe:P, [playouts(200)], mcts(Best, _)),
    assertion(Best == Won).

test(fails_when_the_game_is_over, [fail]) :-
    tictactoe:parse_position("xxxoo....", P),
    mcts(tictactoe:P, [playouts(10)], _).

test(connect4_win_in_one, forall(win_in_one(Text, Columns))) :-
    connect4:parse_position(Text, P),
    wins_at_once(P, Rules),
    assertion(Rules == Columns),
    wins_within(P, 0, Searched),
    assertion(Searched == Columns),
    mcts_column(P, 200, C),
    assertion(memberchk(C, Columns)).

test(connect4_win_in_two, forall(win_in_two(Text, Columns))) :-
    connect4:parse_position(Text, P),
    wins_at_once(P, Rules),
    assertion(Rules == []),
    wins_within(P, 2, Searched),
    assertion(Searched == Columns),
    mcts_column(P, 4000, C),
    assertion(memberchk(C, Columns)).

test(budget_of_positions, [throws(budget_exceeded)]) :-
    reset_visited,
    with_budget(positions(100),
                mcts(tictactoe:ttt(0, 0, x), [playouts(1000)], _)).

test(playouts_must_be_positive, [error(type_error(positive_integer, 0))]) :-
    mcts(tictactoe:ttt(0, 0, x), [playouts(0)], _).

test(playouts_are_required, [error(existence_error(mcts_option, playouts))]) :-
    mcts(tictactoe:ttt(0, 0, x), [seed(1)], _).

test(unknown_option, [error(domain_error(mcts_option, depth(3)))]) :-
    mcts(tictactoe:ttt(0, 0, x), [playouts(10), depth(3)], _).

test(seed_must_be_an_integer, [error(type_error(integer, abc))]) :-
    mcts(tictactoe:ttt(0, 0, x), [playouts(10), seed(abc)], _).

test(exploration_must_not_be_negative,
     [error(domain_error(non_negative_number, -1.0))]) :-
    mcts(tictactoe:ttt(0, 0, x), [playouts(10), exploration(-1.0)], _).

test(options_must_be_a_list, [error(type_error(list, playouts(10)))]) :-
    mcts(tictactoe:ttt(0, 0, x), playouts(10), _).

test(an_option_must_be_bound, [error(instantiation_error)]) :-
    mcts(tictactoe:ttt(0, 0, x), [playouts(10), _], _).

:- end_tests(mcts).
