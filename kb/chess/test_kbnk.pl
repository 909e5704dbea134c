/*  Tests of the KBNK domain's measure of progress (kb/chess/kbnk.pl).

    Run:  swipl -g run_tests -t halt kb/chess/test_kbnk.pl

    Positions are eg(Pos, Depth) of kb/chess/endgame.pl, built from
    boards written as Turn and a list of Colour-Letter-Name (w-k-e1).
*/

:- use_module(library(plunit)).
:- use_module(library(apply)).
:- prolog_load_context(directory, Dir),
   atom_concat(Dir, '/chess', Chess), use_module(Chess, [named_position/3]),
   atom_concat(Dir, '/cornering', Cornering), use_module(Cornering, [cornering_term/3]),
   atom_concat(Dir, '/kbnk', Kbnk), use_module(Kbnk, [mating_distance/2]).

distance(Named, D) :-
    named_position(w, Named, Pos),
    mating_distance(eg(Pos, 0), D).

:- begin_tests(kbnk).

test(every_weight_is_of_a_cornering_term) :-
    kbnk:kbnk_weights(Weights),
    named_position(w, [w-k-e4, w-b-d3, w-n-f3, b-k-b7], P),
    forall(member(Name-_, Weights), assertion(cornering_term(Name, P, _))).

test(a_cage_then_the_triangle_then_the_rest) :-
    % Black Ka8 kept to a8 and b8 (our king on b6, the bishop on f5):
    % a cage, 10000, then the secure room's triangle 1 * 1010, the room
    % and the secure room (2 squares: 7 * 2 + 3 * 3 each), the kings 2
    % and 3 steps apart (5 * 2 + 2 * 3), the knight 7 away, our king a
    % line from the edge (-2)
    distance([w-k-b6, w-b-f5, w-n-h1, b-k-a8], Cage),
    assertion(Cage == 11077),
    % the knight on d7 takes b8, and Bg2 mates: no cage, the triangle 0
    distance([w-k-b6, w-b-f1, w-n-d7, b-k-a8], Net),
    assertion(Net == 37).                   % 7 + 3 + 7 + 3 + 10 + 6 + 3 - 2

:- end_tests(kbnk).
