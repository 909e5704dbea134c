% The teacher's plunit tests of the test routine compare_searches/3 (see
% README.md). `advice grade` loads this file into the module of each
% student's file, so the tests call the student's predicates by their
% names; each test is one point.

:- begin_tests(compare_searches).

% X in two corners, O in the centre, O to move: the game tree below has
% 1,053 positions, the root included.
opening(pos([x,e,e, e,o,e, e,e,x], o)).

test(minimax_visits_the_whole_tree, Minimax == 1053) :-
    opening(Pos),
    compare_searches(Pos, Minimax, _).

test(alphabeta_visits_fewer) :-
    opening(Pos),
    compare_searches(Pos, Minimax, Alphabeta),
    Alphabeta < Minimax.

test(counts_start_again_each_time) :-
    opening(Pos),
    compare_searches(Pos, Minimax1, Alphabeta1),
    compare_searches(Pos, Minimax2, Alphabeta2),
    Minimax1 == Minimax2,
    Alphabeta1 == Alphabeta2.

:- end_tests(compare_searches).
