/*  Tests of the endgame concepts (kb/chess/concepts.pl).

    Run:  swipl -g run_tests -t halt kb/chess/test_concepts.pl

    Boards are written as Turn and a list of Colour-Letter-Name
    (w-k-e1): chess:named_position/3.
*/

:- use_module(library(plunit)).
:- use_module(library(apply)).
:- prolog_load_context(directory, Dir),
   atom_concat(Dir, '/chess', Chess), use_module(Chess),
   atom_concat(Dir, '/concepts', Concepts), use_module(Concepts).

sq(Name, Sq) :- square_name(Sq, Name).

:- begin_tests(concepts).

test(edge_and_corner_distance) :-
    sq(a4, A4), sq(d4, D4), sq(e5, E5), sq(b2, B2),
    assertion(edge_distance(A4, 0)),
    assertion(edge_distance(D4, 3)),
    assertion(edge_distance(E5, 3)),
    assertion(edge_distance(B2, 1)),
    assertion(corner_distance(B2, a1, 1)),
    assertion(corner_distance(B2, h8, 6)),
    assertion(corner_distance(D4, a8, 4)).

test(kings_distance_and_opposition) :-
    named_position(b, [w-k-e4, b-k-e6, w-q-a1], P),
    assertion(kings_distance(P, 2)),
    assertion(opposition(P)),
    named_position(w, [w-k-e4, b-k-e6, w-q-a1], Q),
    assertion(\+ opposition(Q)),               % White to move: Black has it
    named_position(b, [w-k-e4, b-k-f6, w-q-a1], R),
    assertion(\+ opposition(R)).

test(room_of_a_king_boxed_by_a_rook) :-
    % the rook on d1, defended, guards the d-file and the first rank:
    % the a-c files of ranks 2-8 are left
    named_position(b, [w-k-e2, w-r-d1, b-k-b7], P),
    room(P, Room),
    assertion(Room == 21),
    % on the edge: the rook on d7, defended, cuts the seventh rank and the
    % d-file (a8, b8, c8 are left)
    named_position(b, [w-k-c6, w-r-d7, b-k-a8], Q),
    room(Q, RoomQ),
    assertion(RoomQ == 3).

test(room_any_confining_pieces) :-
    % the queen on c6 (checking along the diagonal) leaves a8, b8, a7
    named_position(b, [w-k-h1, w-q-c6, b-k-a8], P),
    room(P, Room),
    assertion(Room == 3).

test(room_escapes_by_taking_an_undefended_piece) :-
    % from b7 the king walks to c6 and takes the rook on d5: the box is open
    named_position(b, [w-k-h1, w-r-d5, b-k-b7], P),
    room(P, Room),
    assertion(Room == 46).

test(room_counts_a_piece_it_can_take) :-
    named_position(b, [w-k-h1, w-r-b7, b-k-a8], P),  % the rook undefended next to it
    room(P, Room),
    assertion(Room > 1),
    named_position(b, [w-k-c6, w-r-b7, b-k-a8], Q),  % now defended: boxed in
    room(Q, RoomQ),
    assertion(RoomQ == 1).

test(room_squares_and_mask) :-
    named_position(b, [w-k-c6, w-r-d7, b-k-a8], P),
    room_squares(P, Squares),
    maplist(sq, [a8, b8, c8], Expected),
    assertion(Squares == Expected),
    room_mask(P, Mask),
    assertion(Mask =:= (1 << 56) \/ (1 << 57) \/ (1 << 58)).

test(box_leaves_out_our_king) :-
    % the rook on d7 alone leaves a8-c8, as with our king beside it
    named_position(b, [w-k-c6, w-r-d7, b-k-a8], P),
    box(P, Box),
    room(P, Room),
    assertion(Room == 3),
    assertion(Box == 3),
    % the rook on d1 far from our king: the same box of 21 squares, but
    % the room goes through the rook, which the black king may take
    named_position(b, [w-k-h8, w-r-d1, b-k-b7], Q),
    box(Q, BoxQ),
    room(Q, RoomQ),
    assertion(BoxQ == 21),
    assertion(RoomQ == 46).

test(box_of_a_queen_with_our_king_blocking_its_line) :-
    % the queen on a1 sees along the first rank only up to our king on
    % c1: d1-h1 are in the box, which they are not with our king on b3
    named_position(b, [w-k-c1, w-q-a1, b-k-e2], P),
    box(P, Box),
    named_position(b, [w-k-b3, w-q-a1, b-k-e2], Q),
    box(Q, BoxQ),
    assertion(Box - BoxQ =:= 5).

test(box_lines_of_the_rook_roller) :-
    % rooks on the third and seventh ranks: c1-h2 are left, two ranks
    % from the first (six files from the h-file)
    named_position(b, [w-k-h8, w-r-a3, w-r-b7, b-k-e1], P),
    box_lines(P, Measure),
    assertion(Measure == 2-12),
    % in check on the first rank, the king may step into c2-h6: six
    % files from the h-file, no rank reached
    named_position(b, [w-k-h8, w-r-a1, w-r-b7, b-k-e1], Q),
    box_lines(Q, MeasureQ),
    assertion(MeasureQ == 6-30),
    % mate: nowhere to step
    named_position(b, [w-k-h8, w-r-a1, w-r-b2, b-k-e1], R),
    box_lines(R, MeasureR),
    assertion(MeasureR == 0-0).

test(box_lines_of_a_queen) :-
    % the queen on e4 leaves the king on g7 f6-h8 but f5, g6 and h7, and
    % g5, h5: three files from the h-file (four ranks from the eighth)
    named_position(b, [w-k-a1, w-q-e4, b-k-g7], P),
    box_lines(P, Measure),
    assertion(Measure == 3-9).

test(mask_distance) :-
    sq(a1, A1), sq(h8, H8), sq(e4, E4),
    assertion(mask_distance(A1, 1 << H8, 7)),
    assertion(mask_distance(E4, (1 << A1) \/ (1 << H8), 4)),
    assertion(\+ mask_distance(E4, 0, _)).

test(hanging) :-
    named_position(b, [w-k-h1, w-r-b7, b-k-a8], P),
    assertion(hanging(P, 49)),                 % b7
    named_position(b, [w-k-c6, w-r-b7, b-k-a8], Q),
    assertion(\+ hanging(Q, _)).

test(bishop_corners) :-
    named_position(w, [w-k-e1, w-b-c1, w-n-g1, b-k-e8], P),   % c1 is dark
    assertion(bishop_corners(P, [a1, h8])),
    named_position(w, [w-k-e1, w-b-f1, w-n-g1, b-k-e8], Q),   % f1 is light
    assertion(bishop_corners(Q, [a8, h1])),
    sq(a1, A1), sq(h1, H1),
    assertion(square_colour(A1, dark)),
    assertion(square_colour(H1, light)).

test(guarded_by_knight_and_bishop) :-
    named_position(w, [w-k-e1, w-b-c1, w-n-c6, b-k-a8], P),
    maplist(sq, [a7, b8, b7], Around),
    guarded_by(P, n, Around, ByKnight),
    assertion(ByKnight == [48, 57]),           % a7 and b8
    guarded_by(P, b, Around, ByBishop),
    assertion(ByBishop == []),
    guarded_by(P, q, Around, None),
    assertion(None == []).

test(stalemate_and_mate_in) :-
    named_position(b, [w-k-c6, w-q-b6, b-k-a8], Stale),
    assertion(\+ not_stalemate(Stale)),
    named_position(w, [w-k-c6, w-q-b5, b-k-a8], P),
    assertion(mate_in(P, 1)),                  % Qb7#
    named_position(w, [w-k-c5, w-q-b1, b-k-a8], Q),
    assertion(\+ mate_in(Q, 1)),
    assertion(mate_in(Q, 2)).

test(mate_in_asks_deeper) :-                   % the deeper levels are Deeper's
    named_position(w, [w-k-c5, w-q-b1, b-k-a8], Q),
    assertion(mate_in(Q, 2, mate_in)),
    assertion(\+ mate_in(Q, 2, no_mate)),
    named_position(w, [w-k-c6, w-q-b5, b-k-a8], P),
    assertion(mate_in(P, 2, no_mate)).         % mate at once asks nothing

test(mate_in_asks_escapes_first) :-          % a reply that escapes refutes
    named_position(w, [w-k-c5, w-q-b1, b-k-a8], Q),
    assertion(mate_in(Q, 2, mate_in, no_mate)),
    assertion(\+ mate_in(Q, 2, mate_in, escapes)),
    named_position(w, [w-k-c6, w-q-b5, b-k-a8], P),
    assertion(mate_in(P, 2, no_mate, escapes)). % mate at once asks nothing

test(safe_mate_in_gives_up_no_piece) :-     % each move leaves no piece en prise
    named_position(w, [w-k-d1, w-r-a2, w-r-a3, b-k-b1], P),
    assertion(mate_in(P, 3)),                  % only by giving up a rook
    assertion(\+ safe_mate_in(P, 3, safe_mate, no_mate)),
    assertion(safe_mate_in(P, 4, safe_mate, no_mate)).

safe_mate(P, N) :- safe_mate_in(P, N, safe_mate, no_mate).

no_mate(_, _) :- fail.

escapes(_, _).


test(secure_room_leaves_out_a_piece_the_king_can_chase) :-
    % the bishops on b6 and a4 shut the king on a8 into a8, b8, c8, b7
    % and a6, but from c7 it walks up to b6, which our king (on h1) does
    % not defend: without b6, and then a4, it has 58 squares
    named_position(b, [w-k-h1, w-b-b6, w-b-a4, b-k-a8], P),
    room_mask(P, Room),
    secure_room_mask(P, Secure),
    assertion(popcount(Room) =:= 6),
    assertion(popcount(Secure) =:= 58),
    % our king on c5 defends b6: the room is secure
    named_position(b, [w-k-c5, w-b-b6, w-b-a4, b-k-a8], Q),
    room_mask(Q, RoomQ),
    secure_room_mask(Q, SecureQ),
    assertion(popcount(RoomQ) =:= 5),
    assertion(SecureQ =:= RoomQ).

test(mating_corners) :-
    sq(a1, A1), sq(h1, H1), sq(a8, A8), sq(h8, H8),
    named_position(w, [w-k-e1, w-b-c1, w-n-g1, b-k-e8], BN),     % a dark bishop
    mating_corners(BN, CornersBN),
    msort(CornersBN, SortedBN),
    assertion(SortedBN == [A1, H8]),
    named_position(w, [w-k-e1, w-b-c1, w-b-f1, b-k-e8], BB),
    mating_corners(BB, CornersBB),
    msort(CornersBB, SortedBB),
    assertion(SortedBB == [A1, H1, A8, H8]).

test(corner_steps_and_weight) :-
    sq(a1, A1), sq(h8, H8), sq(c2, C2), sq(e5, E5),
    assertion(corner_steps(C2, [A1, H8], 3)),
    assertion(corner_king_steps(C2, [A1, H8], 2)),
    assertion(corner_steps(E5, [A1, H8], 6)),
    % a1 weighs 1, c2 3 (two king steps from a1), h8 1
    Mask is (1 << A1) \/ (1 << C2) \/ (1 << H8),
    assertion(corner_weight(Mask, [A1, H8], 5)),
    assertion(corner_weight(0, [A1, H8], 0)).

test(corner_area) :-
    sq(a1, A1), sq(h8, H8), sq(c2, C2), sq(a3, A3), sq(g7, G7),
    % c2 and a3 are 3 and 2 steps from a1: the triangle a1, a4, d1
    Mask is (1 << C2) \/ (1 << A3),
    assertion(corner_area(Mask, [A1, H8], 3)),
    % with g7 too, neither corner's triangle is small: g7 is 12 steps
    % from a1, a3 12 from h8
    Wide is Mask \/ (1 << G7),
    assertion(corner_area(Wide, [A1, H8], 12)),
    assertion(corner_area(1 << A1, [A1, H8], 0)),
    assertion(corner_area(0, [A1, H8], 0)).

:- end_tests(concepts).
