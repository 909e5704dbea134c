/*  Tests of the board's symmetries (kb/chess/symmetry.pl).

    Run:  swipl -g run_tests -t halt kb/chess/test_symmetry.pl

    Positions are eg(Pos, Depth) of kb/chess/endgame.pl, built from
    boards written as Turn and a list of Colour-Letter-Name (w-k-e1).
*/

:- use_module(library(plunit)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- prolog_load_context(directory, Dir),
   atom_concat(Dir, '/chess', Chess), use_module(Chess),
   atom_concat(Dir, '/symmetry', Symmetry), use_module(Symmetry).

eg(Turn, Named, eg(Pos, 0)) :-
    named_position(Turn, Named, Pos).

images(Pos, Images) :-
    findall(Image, ( between(0, 7, G), symmetric_position(G, Pos, Image) ), Images).

:- begin_tests(symmetry).

test(eight_images_one_representative) :-
    eg(w, [w-k-b2, w-b-c1, w-n-g5, b-k-e7], Pos),
    images(Pos, Images),
    sort(Images, Distinct),
    assertion(length(Distinct, 8)),
    canonical(Pos, Canon, _),
    forall(member(Image, Images), canonical(Image, Canon, _)).

test(the_symmetry_maps_to_the_representative) :-
    eg(b, [w-k-h8, w-b-a3, w-b-f1, b-k-d5], Pos),
    canonical(Pos, Canon, G),
    symmetric_position(G, Pos, Image),
    assertion(Image == Canon).

test(named_squares) :-
    eg(w, [w-k-b1, w-b-c2, b-k-h8], Pos),
    symmetric_position(1, Pos, Files),             % mirror the files: g1, f2, a8
    assertion(Files == eg(pos(w, [p(b, k, 56), p(w, b, 13), p(w, k, 6)], none), 0)),
    symmetric_position(4, Pos, Diagonal),          % swap files and ranks: a2, b3, h8
    assertion(Diagonal == eg(pos(w, [p(b, k, 63), p(w, b, 17), p(w, k, 8)], none), 0)).

test(inverse_undoes) :-
    eg(w, [w-k-b1, w-b-c3, w-n-d7, b-k-h6], Pos),
    forall(between(0, 7, G),
           ( inverse_symmetry(G, Inverse),
             symmetric_position(G, Pos, Image),
             symmetric_position(Inverse, Image, Back),
             assertion(Back == Pos) )).

test(moves_of_an_image_are_images_of_moves) :-
    eg(w, [w-k-b2, w-b-c1, w-n-g5, b-k-e7], eg(P, D)),
    findall(M-P1, legal_move(P, M, P1), Moves),
    forall(between(0, 7, G),
           ( symmetric_position(G, eg(P, D), eg(PG, D)),
             findall(M1-eg(Q1, D), ( member(M-P1, Moves),
                                    symmetric_move(G, M, M1),
                                    symmetric_position(G, eg(P1, D), eg(Q1, D)) ),
                     Mapped),
             findall(M1-eg(Q1, D), legal_move(PG, M1, Q1), Direct),
             msort(Mapped, S1), msort(Direct, S2),
             assertion(S1 == S2) )).

:- end_tests(symmetry).
