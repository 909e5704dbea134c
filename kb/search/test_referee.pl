/*  plunit tests of the referee (referee.pl).
    Run: swipl -g run_tests -t halt kb/search/test_referee.pl
*/
:- use_module(referee).
:- use_module('../games/tictactoe', []).
:- use_module('../games/nim', []).
:- use_module('../games/pig', []).

:- begin_tests(referee).

test(alphabeta_beats_random_at_nim) :-
    set_random(seed(1)),
    referee_game(nim, nim(10, max), players(alphabeta(inf), random), 100,
                 played(Result, Steps)),
    assertion(Result == max),
    Steps = [move(max, nim(10, max), First, stats(Visited, _))|_],
    assertion(First == nim(9, min)),             % 1 mod 4 left: the mover loses
    assertion(Visited == 279).

test(the_same_seed_plays_the_same_game) :-
    play_seeded(3, Steps1),
    play_seeded(3, Steps2),
    assertion(Steps1 == Steps2).

test(dice_are_rolled_where_they_decide) :-
    set_random(seed(0)),
    referee_game(pig, pig(6, 0, 0, 0, max, choosing), players(random, random), 1000,
                 played(Result, Steps)),
    assertion(memberchk(Result, [max, min])),
    assertion(memberchk(roll(pig(6, 0, 0, 0, max, rolling), _), Steps)),
    \+ ( member(move(_, P, _, _), Steps), pig:chance_moves(P, _) ).

test(a_chance_step_is_one_of_the_outcomes, forall(between(1, 20, Seed))) :-
    set_random(seed(Seed)),
    chance_step(pig, pig(6, 0, 0, 2, min, rolling), Pos1),
    pig:chance_moves(pig(6, 0, 0, 2, min, rolling), Outcomes),
    assertion(memberchk(_-Pos1, Outcomes)).

test(no_chance_step_at_a_decision) :-
    assertion(\+ chance_step(pig, pig(6, 0, 0, 0, max, choosing), _)),
    assertion(\+ chance_step(nim, nim(3, max), _)).

test(a_move_limit_leaves_the_game_unfinished) :-
    referee_game(tictactoe, ttt(0, 0, x), players(random, random), 2, played(Result, Steps)),
    assertion(Result == unfinished),
    assertion(length(Steps, 2)).

:- end_tests(referee).

play_seeded(Seed, Steps) :-
    set_random(seed(Seed)),
    referee_game(tictactoe, ttt(0, 0, x), players(random, random), 100, played(_, Steps0)),
    maplist(without_time, Steps0, Steps).

without_time(move(S, P, P1, stats(N, _)), move(S, P, P1, N)).
