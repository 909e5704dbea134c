/*  Tests of the KRRK domain's measure of progress (kb/chess/krrk.pl).

    Run:  swipl -g run_tests -t halt kb/chess/test_krrk.pl

    Positions are eg(Pos, Depth) of kb/chess/endgame.pl, built from
    boards written as Turn and a list of Colour-Letter-Name (w-k-e1).
*/

:- use_module(library(plunit)).
:- prolog_load_context(directory, Dir),
   atom_concat(Dir, '/chess', Chess), use_module(Chess, [named_position/3]),
   atom_concat(Dir, '/krrk', Krrk), use_module(Krrk, [mating_distance/2]).

distance(Turn, Named, D) :-
    named_position(Turn, Named, Pos),
    mating_distance(eg(Pos, 0), D).

:- begin_tests(krrk).

test(lines_then_squares_then_kings) :-
    % two ranks, c1-h2 (12 squares), the kings seven steps apart
    distance(w, [w-k-h8, w-r-a3, w-r-b7, b-k-e1], Two),
    assertion(Two == 2258),                         % 2 * 1000 + 12 * 4 + 7 * 30
    % one rank, c1-h1 (6 squares)
    distance(b, [w-k-h8, w-r-a2, w-r-b7, b-k-e1], One),
    assertion(One == 1234),                         % 1000 + 6 * 4 + 7 * 30
    % the same box, our king two steps nearer
    distance(w, [w-k-h6, w-r-a3, w-r-b7, b-k-e1], Nearer),
    assertion(Nearer == 2198).

test(a_rook_en_prise_counts_as_two_lines) :-
    % two ranks, b1 and b2; the black king on b2 attacks the rook on a3,
    % which nothing defends
    distance(w, [w-k-h8, w-r-a3, w-r-c7, b-k-b2], Hanging),
    assertion(Hanging == 4188).                     % 2 * 1000 + 2 * 4 + 6 * 30 + 2000

:- end_tests(krrk).
