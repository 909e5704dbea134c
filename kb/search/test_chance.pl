/*  plunit tests of expectiminimax (chance.pl), over a toy game with one
    coin toss and over Pig, with values worked out by hand.
    Run: swipl -g run_tests -t halt kb/search/test_chance.pl
*/
:- use_module(search).
:- use_module(chance).
:- use_module('../games/pig', []).

/*  The toy game, module toy: MAX chooses between `safe` (over, worth
    1/4) and `gamble`, where a coin is tossed: heads, `jackpot` (over,
    worth 1); tails, `duel`, where MIN chooses between `a` (over, 0) and
    `b` (over, -1/2).  The static values of `start`, `gamble` and `duel`
    are guesses (0, 0 and 1/2).  Searched deep enough, gamble is worth
    1/2 * 1 + 1/2 * -1/2 = 1/4, as much as safe.  From `lead`, MAX can
    only go to the duel.
*/

toy:moves(start, [safe, gamble]).
toy:moves(lead, [duel]).
toy:moves(duel, [a, b]).

toy:chance_moves(gamble, [0.5-jackpot, 0.5-duel]).

toy:staticval(start, 0).
toy:staticval(lead, 0).
toy:staticval(safe, 0.25).
toy:staticval(gamble, 0).
toy:staticval(jackpot, 1).
toy:staticval(duel, 0.5).
toy:staticval(a, 0).
toy:staticval(b, -0.5).

toy:max_to_move(start).
toy:max_to_move(lead).
toy:max_to_move(gamble).

toy:min_to_move(duel).

% emm(:Pos, +Depth, -Line, -Val, -Visited): expectiminimax and the
% positions it visits.
emm(Pos, Depth, Line, Val, Visited) :-
    reset_visited,
    expectiminimax_pv(Pos, Depth, Line, Val),
    visited(Visited).

close_to(X, Y) :-
    abs(X - Y) < 1.0e-12.

:- begin_tests(chance).

test(depth_0_is_the_static_value) :-
    emm(toy:start, 0, Line, Val, N),
    assertion(Line-Val-N == [start]-0-1).

test(depth_1) :-
    % safe 1/4 against gamble's static 0
    emm(toy:start, 1, Line, Val, N),
    assertion(Line-Val-N == [start, safe]-0.25-3).

test(depth_2_the_gamble_looks_good) :-
    % gamble = 1/2 * 1 + 1/2 * static(duel) 1/2 = 3/4; the line ends at the toss
    emm(toy:start, 2, Line, Val, N),
    assertion(Line-Val-N == [start, gamble]-0.75-5).

test(depth_3_ties_keep_the_first) :-
    % duel = min(0, -1/2); gamble = 1/4, equal to safe: safe, the first
    emm(toy:start, 3, Line, Val, N),
    assertion(Line-Val-N == [start, safe]-0.25-7).

test(the_end_of_the_game_before_the_limit) :-
    emm(toy:start, 10, Line, Val, N),
    assertion(Line-Val-N == [start, safe]-0.25-7).

test(a_chance_root) :-
    emm(toy:gamble, 5, Line, Val, N),
    assertion(Line-Val-N == [gamble]-0.25-5).

test(a_min_root) :-
    emm(toy:duel, 1, Line, Val, N),
    assertion(Line-Val-N == [duel, b]-(-0.5)-3).

test(a_line_of_two_decisions) :-
    emm(toy:lead, 2, Line, Val, N),
    assertion(Line-Val-N == [lead, duel, b]-(-0.5)-4).

test(inf_is_refused, [error(type_error(nonneg, inf), _)]) :-
    expectiminimax_pv(toy:start, inf, _, _).

test(negative_depth_is_refused, [error(type_error(nonneg, -1), _)]) :-
    expectiminimax_pv(toy:start, -1, _, _).

test(within_a_budget, [throws(budget_exceeded)]) :-
    reset_visited,
    with_budget(positions(4), expectiminimax_pv(toy:start, 3, _, _)).

:- end_tests(chance).

:- begin_tests(chance_pig).

test(start_depth_1) :-
    % the only move is roll; the roll is valued statically (needs 6 and 6)
    emm(pig:pig(6, 0, 0, 0, max, choosing), 1, Line, Val, N),
    assertion(Line == [pig(6, 0, 0, 0, max, choosing), pig(6, 0, 0, 0, max, rolling)]),
    assertion(Val == 0.0),
    assertion(N == 2).

test(start_depth_2) :-
    % the die: 1 passes the turn (0), 2..5 give MAX needs 4..1 against 6
    % (2/10, 3/9, 4/8, 5/7), 6 wins (1): (1/5+1/3+1/2+5/7+1)/6 = 577/1260
    emm(pig:pig(6, 0, 0, 0, max, choosing), 2, Line, Val, N),
    assertion(Line == [pig(6, 0, 0, 0, max, choosing), pig(6, 0, 0, 0, max, rolling)]),
    assertion(close_to(Val, 577/1260)),
    assertion(N == 8).

test(start_depth_3) :-
    % after 2..5 roll and hold tie (the turn total counts as banked):
    % the same value; 1 + 1 + 6 + 1 + 4 * 2 positions (6 ended the game)
    emm(pig:pig(6, 0, 0, 0, max, choosing), 3, _, Val, N),
    assertion(close_to(Val, 577/1260)),
    assertion(N == 17).

test(ties_keep_roll) :-
    % roll and hold are both worth 3/9 statically: roll, the first
    emm(pig:pig(6, 0, 0, 3, max, choosing), 1, Line, Val, N),
    assertion(Line == [pig(6, 0, 0, 3, max, choosing), pig(6, 0, 0, 3, max, rolling)]),
    assertion(close_to(Val, 3/9)),
    assertion(N == 3).

test(roll_for_the_win) :-
    % MAX needs 2 with a turn total of 1: a roll wins on 2..6, and a 1
    % leaves MAX needing 2 against 6 (4/8); holding leaves MIN to roll
    % with MAX needing 1 against 6 (5/7)
    emm(pig:pig(6, 4, 0, 1, max, choosing), 2, Line, Val, N),
    assertion(Line == [pig(6, 4, 0, 1, max, choosing), pig(6, 4, 0, 1, max, rolling)]),
    assertion(close_to(Val, (1/2 + 5) / 6)),
    assertion(N == 10).

test(min_rolls_for_the_win_too) :-
    emm(pig:pig(6, 0, 4, 1, min, choosing), 2, Line, Val, N),
    assertion(Line == [pig(6, 0, 4, 1, min, choosing), pig(6, 0, 4, 1, min, rolling)]),
    assertion(close_to(Val, -(1/2 + 5) / 6)),
    assertion(N == 10).

test(roll_rather_than_hold_at_one_to_go) :-
    % MAX 0 with a turn total of 5, MIN 5 of 6: a roll wins on 2..6 and
    % on a 1 leaves MIN needing 1 against 6 (-5/7): (-5/7 + 5)/6 = 5/7;
    % holding makes it 5 all, MIN to roll (0)
    emm(pig:pig(6, 0, 5, 5, max, choosing), 2, Line, Val, N),
    assertion(Line == [pig(6, 0, 5, 5, max, choosing), pig(6, 0, 5, 5, max, rolling)]),
    assertion(close_to(Val, 5/7)),
    assertion(N == 10).

test(game_over_at_the_root) :-
    emm(pig:pig(6, 7, 3, 0, max, choosing), 5, Line, Val, N),
    assertion(Line-Val-N == [pig(6, 7, 3, 0, max, choosing)]-1-1).

test(deterministic) :-
    expectiminimax_pv(pig:pig(6, 0, 0, 0, max, choosing), 6, _, _).

test(visits_grow_with_depth) :-
    findall(N, ( between(0, 8, D),
                 emm(pig:pig(6, 0, 0, 0, max, choosing), D, _, _, N) ),
            Ns),
    assertion(Ns == [1, 2, 8, 17, 51, 94, 209, 445, 887]).

:- end_tests(chance_pig).
