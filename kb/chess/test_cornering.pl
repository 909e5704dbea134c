/*  Tests of the cornering measure (kb/chess/cornering.pl).

    Run:  swipl -g run_tests -t halt kb/chess/test_cornering.pl
*/

:- use_module(library(plunit)).
:- use_module(library(apply)).
:- prolog_load_context(directory, Dir),
   atom_concat(Dir, '/chess', Chess), use_module(Chess),
   atom_concat(Dir, '/cornering', Cornering), use_module(Cornering).

% White Ke4, Bd3 (a light square: the corners are a8 and h1), Nf3;
% Black Kb7, next to a8.
bishop_and_knight(P) :-
    named_position(w, [w-k-e4, w-b-d3, w-n-f3, b-k-b7], P).

:- begin_tests(cornering).

test(terms_of_the_black_king) :-
    bishop_and_knight(P),
    assertion(cornering_term(king_corner_steps, P, 2)),
    assertion(cornering_term(king_corner_distance, P, 1)),
    assertion(cornering_term(king_edge_distance, P, 1)),
    assertion(cornering_term(room_without_corner, P, 0)).

test(terms_of_the_kings) :-
    bishop_and_knight(P),
    assertion(cornering_term(kings_distance, P, 3)),
    assertion(cornering_term(kings_steps, P, 6)),
    assertion(cornering_term(our_king_corner_steps, P, 6)),   % to h1
    assertion(cornering_term(our_king_edge_distance, P, 3)),
    assertion(cornering_term(corner_taken, P, 0)).

test(a_corner_taken_by_our_king) :-
    % Black Kb6: its nearest mating corner is a8, two steps away
    named_position(w, [w-k-b8, w-b-d3, w-n-f3, b-k-b6], P),
    assertion(cornering_term(corner_taken, P, 1)),             % our king one step from a8
    named_position(w, [w-k-d8, w-b-d3, w-n-f3, b-k-b6], Q),
    assertion(cornering_term(corner_taken, Q, 0)),             % three steps: no nearer
    % Black Kb3, our king on a1, a dark corner: no mate there, a8 is
    % the corner, and our king is far from it
    named_position(w, [w-k-a1, w-b-d3, w-n-f3, b-k-b3], R),
    assertion(cornering_term(corner_taken, R, 0)).

test(a_corner_taken_by_a_piece) :-
    % Black Ka3: its nearest corner is a1, where a bishop stands
    named_position(w, [w-k-h8, w-b-a1, w-b-e4, b-k-a3], P),
    assertion(cornering_term(corner_taken, P, 1)),
    named_position(w, [w-k-h8, w-b-d2, w-b-e4, b-k-a3], Q),
    assertion(cornering_term(corner_taken, Q, 0)).

test(terms_of_the_pieces) :-
    bishop_and_knight(P),
    assertion(cornering_term(pieces_distance, P, 8)),
    assertion(cornering_term(knight_distance, P, 4)),
    assertion(cornering_term(pieces_edge_distance, P, 4)),
    assertion(cornering_term(pieces_side_by_side, P, 0)),
    assertion(cornering_term(piece_hanging, P, 0)),
    named_position(w, [w-k-e4, w-b-d3, w-n-c3, b-k-b4], Q),             % the knight en prise, next to the bishop
    assertion(cornering_term(piece_hanging, Q, 1)),
    assertion(cornering_term(pieces_side_by_side, Q, 1)).

test(a_room_in_a_wrong_corner_has_no_mating_corner) :-
    % Black Ka1 shut in on a1 (a dark corner; the bishop is light) by
    % our king on b3 and the bishop's diagonal through b1
    named_position(w, [w-k-b3, w-b-d3, w-n-f3, b-k-a1], P),
    assertion(cornering_term(room_without_corner, P, 1)),
    cornering_term(room, P, Room),
    cornering_term(room_weight, P, Weight),
    assertion(Room == 1),
    assertion(Weight == 8).                                    % a1: 7 steps from a8 and h1, plus one

test(measure_is_the_weighted_sum) :-
    bishop_and_knight(P),
    cornering_measure(P, [king_corner_steps-2, kings_distance-(-1)], M),
    assertion(M == 1),
    cornering_measure(P, [], Zero),
    assertion(Zero == 0).

test(every_term_has_a_value, [nondet]) :-
    bishop_and_knight(P),
    findall(N, cornering_term(N, P, _), Names),
    length(Names, 23).

test(the_triangle_the_room_lies_in_and_our_king_far) :-
    % Black Ka1 (a dark corner; the bishop on d1 is light) kept to a1,
    % b1, a2, a3 by the bishop's diagonal d1-a4 and the knight on d3
    named_position(w, [w-k-h8, w-b-d1, w-n-d3, b-k-a1], P),
    assertion(cornering_term(room, P, 4)),
    assertion(cornering_term(room_area, P, 8)),     % b1 is 8 steps from a8, a3 9 from h1
    assertion(cornering_term(our_king_far, P, 5)),  % h8 is 7 steps from a3
    assertion(cornering_term(cage, P, 0)),
    named_position(w, [w-k-b4, w-b-d1, w-n-d3, b-k-a1], Q),
    assertion(cornering_term(our_king_far, Q, 0)).

test(a_cage_is_a_small_room_without_mate_in_one) :-
    % Black Ka8 kept to a8 and b8 by our king on b6 and the bishop on f5
    % (c8); Be4+ lets it out to b8
    named_position(w, [w-k-b6, w-b-f5, w-n-h1, b-k-a8], P),
    assertion(cornering_term(room, P, 2)),
    assertion(cornering_term(room_area, P, 1)),
    assertion(cornering_term(cage, P, 1)),
    % the knight on d7 takes b8 instead, and Bg2 mates
    named_position(w, [w-k-b6, w-b-f1, w-n-d7, b-k-a8], Q),
    assertion(cornering_term(room, Q, 1)),
    assertion(cornering_term(cage, Q, 0)).

test(a_knight_in_the_way_of_the_net) :-
    % the light bishop's corners are a8 and h1: the knight on b7 stands
    % diagonally next to a8, the black king two steps from it
    named_position(w, [w-k-d6, w-b-e4, w-n-b7, b-k-c8], P),
    assertion(cornering_term(jam, P, 1)),
    named_position(w, [w-k-d6, w-b-e4, w-n-b7, b-k-e8], Q),   % four steps from a8
    assertion(cornering_term(jam, Q, 0)),
    named_position(w, [w-k-d6, w-b-d4, w-n-b7, b-k-c8], R),   % a dark bishop: no mate on a8
    assertion(cornering_term(jam, R, 0)).

:- end_tests(cornering).
