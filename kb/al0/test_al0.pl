/*  plunit tests of the AL0 library, over tic-tac-toe with a small table
    written here in the form the compiler gives (module al0_test_table).
    Run: swipl -g run_tests -t halt kb/al0/test_al0.pl
*/
:- use_module(al0).
:- use_module('../games/tictactoe_al0', []).

al0_test_table:domain(tictactoe_al0).
al0_test_table:rule(Pos, finish, [win]) :- tictactoe_al0:we_threaten(Pos).
al0_test_table:rule(_, develop, [centre, two_ahead]).
al0_test_table:better(win, Pos, _) :- tictactoe_al0:we_won(Pos).
al0_test_table:better(centre, Pos, Root) :- tictactoe_al0:took_centre(Pos, Root).
al0_test_table:better(two_ahead, Pos, _) :- tictactoe_al0:we_fork(Pos).
al0_test_table:holding(_, _, _).
al0_test_table:us_move(_, Pos, Move, Pos1) :-
    tictactoe_al0:depth(Pos, D), D < 3, tictactoe_al0:legal(Pos, Move, Pos1).
al0_test_table:them_move(two_ahead, Pos, Move, Pos1) :-
    tictactoe_al0:depth(Pos, D), D < 2, tictactoe_al0:legal(Pos, Move, Pos1).
al0_test_table:table_rule(finish, pred(we_threaten, []), [win]).
al0_test_table:table_rule(develop, true, [centre, two_ahead]).
al0_test_table:table_advice(win, pred(we_won, []), true,
                            and([depth(<, 3), pred(legal, [])]), nomove).
al0_test_table:table_advice(centre, pred(took_centre, []), true,
                            and([depth(<, 3), pred(legal, [])]), nomove).
al0_test_table:table_advice(two_ahead, pred(we_fork, []), true,
                            and([depth(<, 3), pred(legal, [])]),
                            and([depth(<, 2), pred(legal, [])])).

:- begin_tests(al0).

ctx(Mode, C) :- table_context(al0_test_table, Mode, C).

test(first_rule_and_advice, forall(member(M, [compiled, interpreted]))) :-
    ctx(M, C),
    decide(C, t(0, 0, us, 0), Rule, Advice, Tree),
    assertion(Rule-Advice == develop-centre),
    assertion(Tree == us(5, t(16, 0, them, 1), leaf)).

test(win_when_threatening, forall(member(M, [compiled, interpreted]))) :-
    ctx(M, C),
    % ours on 1 and 2, theirs on 4 and 5: square 3 completes the line
    decide(C, t(3, 24, us, 0), finish, win, us(3, _, leaf)).

test(them_nodes_answer_every_reply, forall(member(M, [compiled, interpreted]))) :-
    ctx(M, C),
    % ours on 1, theirs on 2: square 4 threatens 7, and after each of the
    % six replies one more move of ours makes two threats at once
    forcing_tree(C, two_ahead, t(1, 2, us, 0), Tree),
    Tree = us(4, t(9, 2, them, 1), them(Branches)),
    findall(R, member(b(R, _, _), Branches), Replies),
    assertion(Replies == [3, 5, 6, 7, 8, 9]),
    assertion(memberchk(b(7, _, us(5, _, leaf)), Branches)).

test(no_move_without_a_generator, [fail]) :-
    ctx(compiled, C),
    forcing_tree(C, win, t(0, 0, us, 0), _).

test(holds_resolves_root_goals_at_run_time) :-
    holds(pred(took_centre, []), tictactoe_al0, t(16, 0, them, 1), t(0, 0, us, 0)),
    \+ holds(pred(took_centre, []), tictactoe_al0, t(16, 0, them, 1), t(16, 0, us, 0)),
    holds(and([true, not(pred(we_won, []))]), tictactoe_al0, t(0, 0, us, 0), t(0, 0, us, 0)),
    holds(or([false, pred(we_won, [])]), tictactoe_al0, t(7, 0, us, 0), t(0, 0, us, 0)).

test(play_follows_the_table_to_a_win) :-
    ctx(compiled, C),
    % the opponent always takes the lowest free square
    play_game(C, t(0, 0, us, 0), lowest, 9, Result, Steps),
    assertion(Result == won),
    assertion(Steps = [us(5, develop, centre)|_]).

test(play_tells_each_step_as_it_is_made, [cleanup(retractall(told(_, _, _)))]) :-
    ctx(compiled, C),
    play_game(C, t(0, 0, us, 0), lowest, 9, tell_step, Result, Steps),
    assertion(Result == won),
    findall(Step, told(_, Step, _), Told),
    assertion(Told == Steps),
    % each told from the position it was made at to the one it made
    once(told(Pos0, us(5, develop, centre), Pos1)),
    assertion(Pos0 == t(0, 0, us, 0)),
    assertion(tictactoe_al0:legalmove(Pos0, 5, Pos1)).

:- end_tests(al0).

lowest(Pos, Move, Pos1) :-
    once(tictactoe_al0:legalmove(Pos, Move, Pos1)).

:- dynamic told/3.

tell_step(Pos0, Step, Pos1) :-
    assertz(told(Pos0, Step, Pos1)).
