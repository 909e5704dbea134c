/*  Tests of the KRK domain (kb/chess/krk.pl).

    Run:  swipl -g run_tests -t halt kb/chess/test_krk.pl

    Squares are python-chess numbers: a1 = 0, h1 = 7, a8 = 56, h8 = 63.
*/

:- use_module(library(plunit)).
:- use_module(library(aggregate)).
:- prolog_load_context(directory, Dir),
   atom_concat(Dir, '/krk', Krk),
   use_module(Krk).

% sq(+Name, -Square): the square of an algebraic name, for readability.
sq(Name, Sq) :-
    square_name(Sq, Name).

% pos(+Side, +WK, +WR, +BK, -Pos): a depth-0 position from square names.
pos(Side, WK, WR, BK, Pos) :-
    sq(WK, W),
    (   WR == none -> R = none ; sq(WR, R) ),
    sq(BK, B),
    krk_position(W, R, B, Side, Pos).

moves_text(Pos, Texts) :-
    findall(T, (legalmove(Pos, M, _), move_text(Pos, M, T)), Texts).

constraint_texts(C, Pos, Texts) :-
    findall(T, (call(C, Pos, M, _), move_text(Pos, M, T)), Texts).

:- begin_tests(krk_moves).

test(white_moves_in_order) :-
    pos(w, e1, a1, e8, P),
    moves_text(P, Ts),
    assertion(Ts == [e1f2, e1d2, e1f1, e1d1, e1e2,
                     a1a2, a1b1, a1a3, a1c1, a1a4, a1d1,
                     a1a5, a1a6, a1a7, a1a8]).

test(rook_blocked_by_black_king) :-     % (Black in check: generator only)
    pos(w, a1, e4, e6, P),
    constraint_texts(rookmove, P, Ts),
    assertion(\+ memberchk(e4e6, Ts)),
    assertion(\+ memberchk(e4e7, Ts)),
    assertion(memberchk(e4e5, Ts)),
    length(Ts, N),
    assertion(N == 11).

test(black_moves_and_capture) :-
    pos(b, d5, b7, a8, P),          % rook next to the black king, unguarded
    moves_text(P, Ts),
    assertion(Ts == [a8b7]),
    once(legalmove(P, _, P1)),
    assertion(P1 = krk(w, _, none, _, 1)).

test(guarded_rook_cannot_be_taken) :-
    pos(b, c6, b7, a8, P),
    assertion(\+ legalmove(P, _, _)).

test(black_king_cannot_step_along_check_line) :-
    pos(b, a1, e1, e4, P),          % check along the e-file
    moves_text(P, Ts),
    msort(Ts, Sorted),
    assertion(Sorted == [e4d3, e4d4, e4d5, e4f3, e4f4, e4f5]).

test(depth_increments) :-
    pos(w, e1, a1, e8, P0),
    P0 = krk(S, W, R, B, _),
    P = krk(S, W, R, B, 3),
    forall(legalmove(P, _, P1), depth(P1, 4)).

test(all_positions_move_counts) :-
    aggregate_all(count,
                  ( between(0, 63, W), between(0, 63, R), between(0, 63, B),
                    krk_position(W, R, B, w, P), legal_position(P),
                    legalmove(P, _, _) ),
                  WM),
    aggregate_all(count,
                  ( between(0, 63, W), between(0, 63, R), between(0, 63, B),
                    krk_position(W, R, B, b, P), legal_position(P),
                    legalmove(P, _, _) ),
                  BM),
    % counted independently with python-chess
    assertion(WM == 3383416),
    assertion(BM == 1085792).

test(move_text) :-
    pos(w, e1, a1, e8, P),
    move_text(P, m(4, 12), T),
    assertion(T == e1e2).

test(without_rook) :-
    pos(w, e1, none, e8, P),
    moves_text(P, Ts),
    length(Ts, N),
    assertion(N == 5),
    assertion(rooklost(P)).

:- end_tests(krk_moves).

:- begin_tests(krk_status).

test(mate) :-
    pos(b, b6, h8, a8, P),
    assertion(check(P)),
    assertion(mate(P)),
    assertion(\+ stalemate(P)).

test(not_mate_escape) :-
    pos(b, c6, h8, a8, P),
    assertion(check(P)),
    assertion(\+ mate(P)).

test(stalemate) :-
    pos(b, c6, b7, a8, P),
    assertion(stalemate(P)),
    assertion(\+ mate(P)),
    assertion(\+ check(P)),
    assertion(\+ rooklost(P)).

test(rooklost_unguarded) :-
    pos(b, d5, b7, a8, P),
    assertion(rooklost(P)).

test(rooklost_only_black_to_move) :-
    pos(w, d5, b7, a8, P),
    assertion(\+ rooklost(P)).

test(counts_over_board) :-
    aggregate_all(count,
                  ( between(0, 63, W), between(0, 63, R), between(0, 63, B),
                    krk_position(W, R, B, b, P), legal_position(P), mate(P) ),
                  NM),
    aggregate_all(count,
                  ( between(0, 63, W), between(0, 63, R), between(0, 63, B),
                    krk_position(W, R, B, b, P), legal_position(P),
                    stalemate(P) ),
                  NS),
    assertion(NM == 216),
    assertion(NS == 68).

test(legal_positions) :-
    aggregate_all(count,
                  ( between(0, 63, W), between(0, 63, R), between(0, 63, B),
                    krk_position(W, R, B, w, P), legal_position(P) ),
                  NW),
    aggregate_all(count,
                  ( between(0, 63, W), between(0, 63, R), between(0, 63, B),
                    krk_position(W, R, B, b, P), legal_position(P) ),
                  NB),
    assertion(NW == 175168),
    assertion(NB == 223944).

test(illegal_positions) :-
    pos(w, e1, a1, e2, P1),
    assertion(\+ legal_position(P1)),           % kings adjacent
    pos(w, e1, a8, e8, P2),
    assertion(\+ legal_position(P2)),           % White to move, Black in check
    pos(b, e1, a8, e8, P3),
    assertion(legal_position(P3)),
    pos(b, e1, e1, e8, P4),
    assertion(\+ legal_position(P4)).           % two pieces on one square

test(to_move) :-
    pos(w, e1, a1, e8, P),
    to_move(P, S),
    assertion(S == us),
    assertion(ustomove(P)),
    pos(b, e1, a1, e8, Q),
    to_move(Q, T),
    assertion(T == them),
    assertion(themtomove(Q)).

test(reset_depth) :-
    reset_depth(krk(w, 1, 2, 40, 7), P),
    assertion(P == krk(w, 1, 2, 40, 0)).

:- end_tests(krk_status).

:- begin_tests(krk_constraints).

test(constraint_names) :-
    findall(C, move_constraint(C), Cs),
    assertion(Cs == [legal, rookmove, kingdiagfirst, checkmove, nomove, rooktight,
                      kingtoward]).

test(kingdiagfirst) :-
    pos(w, e4, a1, e8, P),
    constraint_texts(kingdiagfirst, P, Ts),
    assertion(Ts == [e4f5, e4f3, e4d5, e4d3, e4f4, e4d4, e4e5, e4e3]).

test(kingdiagfirst_not_for_black) :-
    pos(b, e4, a1, e8, P),
    assertion(\+ kingdiagfirst(P, _, _)).

test(rookmove_count) :-
    pos(w, e1, a1, e8, P),
    aggregate_all(count, rookmove(P, _, _), N),
    assertion(N == 10).

test(rookmove_as_test) :-
    pos(w, e1, a1, e8, P),
    assertion(rookmove(P, m(0, 56), _)),
    assertion(\+ rookmove(P, m(0, 4), _)),      % e1 holds the white king
    assertion(\+ rookmove(P, m(4, 12), _)).     % a king move

test(checkmove_rook) :-
    pos(w, e1, a1, e8, P),
    constraint_texts(checkmove, P, Ts),
    assertion(Ts == [a1a8]).

test(checkmove_discovered) :-
    pos(w, e4, e1, e8, P),
    constraint_texts(checkmove, P, Ts),
    assertion(Ts == [e4f5, e4f3, e4d5, e4d3, e4f4, e4d4]),
    forall(checkmove(P, _, P1), check(P1)).

test(rooktight_tightest_first) :-
    pos(w, c2, b3, a5, P),          % black king on the a-file, rook b3
    constraint_texts(rooktight, P, Ts),
    constraint_texts(rookmove, P, Rs),
    msort(Ts, S1), msort(Rs, S2),
    assertion(S1 == S2),            % the same moves as rookmove
    assertion(Ts = [b3b4|_]),       % room 1x4 = 4: the tightest cut
    findall(Room, ( rooktight(P, _, P1), room(P1, Room) ), Rooms),
    assertion(msort(Rooms, Rooms)).

test(rooktight_as_test) :-
    pos(w, c2, b3, a5, P),
    sq(b3, B3), sq(b4, B4), sq(b2, B2),
    assertion(rooktight(P, m(B3, B4), _)),
    assertion(\+ rooktight(P, m(B3, B2), krk(w, _, _, _, _))).

test(kingtoward_nearest_first) :-
    pos(w, e1, a1, e8, P),
    constraint_texts(kingtoward, P, Ts),
    assertion(Ts == [e1e2, e1f2, e1d2, e1f1, e1d1]).

test(kingtoward_ties_by_manhattan) :-
    pos(w, d4, a1, h8, P),          % e5 (md 6) before e4/d5 (md 7), all kd 3
    constraint_texts(kingtoward, P, Ts),
    assertion(Ts == [d4e5, d4e4, d4d5, d4e3, d4c5, d4c4, d4d3, d4c3]).

test(kingtoward_as_test) :-
    pos(w, e1, a1, e8, P),
    sq(e1, E1), sq(d1, D1),
    assertion(kingtoward(P, m(E1, D1), _)),
    assertion(\+ kingtoward(P, m(E1, E1), _)).


test(nomove) :-
    pos(w, e1, a1, e8, P),
    assertion(\+ nomove(P, _, _)).

test(legal_is_legalmove) :-
    pos(w, e1, a1, e8, P),
    findall(M, legal(P, M, _), A),
    findall(M, legalmove(P, M, _), B),
    assertion(A == B).

:- end_tests(krk_constraints).

:- begin_tests(krk_goals).

test(room) :-
    pos(w, e1, d4, a8, P),
    room(P, R),
    assertion(R == 12),
    pos(w, e1, d4, d8, Q),
    room(Q, R2),
    assertion(R2 == 64),
    pos(w, e1, b7, a8, S),
    room(S, R3),
    assertion(R3 == 1),
    assertion(\+ roomgt2(S)),
    assertion(roomgt2(P)),
    assertion(room_below(3, S)).

test(newroomsmaller) :-
    pos(w, e1, d4, a8, Root),
    pos(b, e1, c4, a8, P),
    assertion(newroomsmaller(P, Root)),
    assertion(\+ newroomsmaller(Root, P)).

test(rookdivides) :-
    pos(w, e1, d4, a8, P1),
    assertion(rookdivides(P1)),                 % files e > d > a
    pos(w, a1, d4, b8, P2),
    assertion(rookdivides(P2)),                 % ranks 1 < 4 < 8
    pos(w, a1, h8, c3, P3),
    assertion(\+ rookdivides(P3)),
    pos(w, a1, d4, d8, P4),
    assertion(rookdivides(P4)).                 % ranks 1 < 4 < 8

test(lpatt) :-
    pos(w, e6, f6, e8, P),
    assertion(lpatt(P)),
    pos(w, e5, f6, e8, Q),
    assertion(\+ lpatt(Q)).

test(critical_square) :-
    pos(w, e1, d4, a8, P),
    critical_square(P, F, R),
    assertion(F-R == 2-4),                      % c5
    csquare_mdist(P, D),
    assertion(D == 6),
    pos(w, e1, a1, h8, Q),
    critical_square(Q, F2, R2),
    assertion(F2-R2 == 1-1),                    % b2
    pos(w, e1, h1, a8, O),
    critical_square(O, F3, R3),
    assertion(F3-R3 == 6-1).                    % g2

test(critical_square_off_board) :-
    pos(w, e1, h4, h8, P),                      % black king on the rook's file
    critical_square(P, F, R),
    assertion(F-R == 8-4).

test(okapproachedcsquare) :-
    pos(w, e1, d4, a8, Root),
    pos(b, d2, d4, a8, P),
    assertion(okapproachedcsquare(P, Root)),
    assertion(\+ okapproachedcsquare(Root, P)),
    assertion(\+ okapproachedcsquare(Root, Root)).

test(rookexposed) :-
    pos(w, h1, a5, c6, P1),
    assertion(rookexposed(P1)),
    pos(w, b4, a5, c6, P2),
    assertion(\+ rookexposed(P2)),
    % White to move: one tempo of slack (book: D1 > D2+1)
    pos(w, d3, a5, c6, P3),                     % dist 3 vs 2
    assertion(\+ rookexposed(P3)),
    pos(b, d3, a5, c6, P4),                     % Black to move: 3 > 2
    assertion(rookexposed(P4)).

test(kings_close) :-
    pos(w, e1, a1, e8, P),
    assertion(\+ kings_close(P)),
    pos(w, e5, a1, e8, Q),
    assertion(kings_close(Q)).

test(edges) :-
    pos(w, e1, d4, b5, P),
    assertion(our_king_edge(P)),
    assertion(okedge(P)),
    assertion(\+ their_king_edge(P)),
    pos(w, e2, d4, h5, Q),
    assertion(\+ our_king_edge(Q)),
    assertion(\+ okedge(Q)),
    assertion(their_king_edge(Q)).

test(okorndle) :-
    pos(w, e1, a1, e8, Root),
    pos(b, d2, a1, e8, P),
    assertion(okorndle(P, Root)),               % king-rook 3 =< 4
    pos(b, f2, a1, e8, Q),
    assertion(\+ okorndle(Q, Root)),            % 5 > 4
    assertion(okorndle(Root, Root)).

test(distances) :-
    kingdist(0, 63, D1),
    assertion(D1 == 7),
    manhattan(0, 63, D2),
    assertion(D2 == 14),
    kingdist(4, 12, D3),
    assertion(D3 == 1).

:- end_tests(krk_goals).

:- begin_tests(krk_boxed_on_edge).

test(boxed_on_first_rank) :-
    pos(b, c1, c2, e1, P),          % room: files d-h of the first rank
    assertion(boxed_on_edge(P)),
    assertion(room(P, 5)).

test(boxed_on_a_file) :-
    pos(w, c5, b6, a3, P),
    assertion(boxed_on_edge(P)),
    assertion(room(P, 5)).

test(two_lines_wide_is_not_boxed) :-
    pos(w, e1, c3, a1, P),          % room 3 x 3
    assertion(\+ boxed_on_edge(P)).

test(on_the_rook_line_is_not_boxed) :-
    pos(b, c1, c2, e2, P),          % in check: room 64
    assertion(\+ boxed_on_edge(P)).

test(no_rook_is_not_boxed) :-
    pos(w, c1, none, e1, P),
    assertion(\+ boxed_on_edge(P)).

:- end_tests(krk_boxed_on_edge).


:- begin_tests(krk_mates_in).

test(mate_in_one) :-                    % Rc8#
    pos(w, b6, c1, a8, P),
    assertion(mates_in(1, P)).

test(mate_in_four_not_three) :-         % Ka5 Ka8 Kb6 Kb8 Rc4 Ka8 Rc8#
    pos(w, a4, b4, a7, P),
    assertion(\+ mates_in(3, P)),
    assertion(mates_in(4, P)),
    assertion(mates_in(4, P)),          % the remembered answer
    assertion(\+ mates_in(3, P)).

test(one_answer_for_the_eight_images) :-
    % the answer for a position is kept where its images' answers are
    findall(I, ( member(W-R-B, [a4-b4-a7, h4-g4-h7, a5-b5-a2, d1-d2-g1, e8-e7-b8]),
                 maplist(square_name, [WS, RS, BS], [W, R, B]),
                 krk:mate_index(4, WS, RS, BS, I) ),
            [I0|Is]),
    assertion(maplist(==(I0), Is)),
    pos(w, a4, b4, a7, P),
    assertion(mates_in(4, P)),
    pos(w, h4, g4, h7, Image),
    krk:mate_index(4, 31, 30, 55, J),
    krk:mates_known(Known),
    assertion(arg(J, Known, 1)),        % remembered before it is asked
    assertion(mates_in(4, Image)).

test(not_with_black_to_move) :-
    pos(b, b6, c1, a8, P),
    assertion(\+ mates_in(1, P)).

test(not_without_the_rook) :-
    pos(w, b6, none, a8, P),
    assertion(\+ mates_in(8, P)).

test(mate_in_eleven_not_ten) :-        % 11 at best (the tablebase)
    pos(w, a2, d8, c4, P),
    assertion(\+ mates_in(10, P)),
    assertion(mates_in(11, P)).

test(at_most_eleven_moves, [error(type_error(between(1, 11), 12))]) :-
    pos(w, b6, c1, a8, P),
    mates_in(12, P).

:- end_tests(krk_mates_in).
