/*  Tests of the chess endgame KB (kb/chess/chess.pl).

    Run:  swipl -g run_tests -t halt kb/chess/test_chess.pl

    Squares are python-chess numbers: a1 = 0, h1 = 7, a8 = 56, h8 = 63.
*/

:- use_module(library(plunit)).
:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(http/json)).
:- prolog_load_context(directory, Dir),
   atom_concat(Dir, '/chess', Chess),
   use_module(Chess).

% The boards here are written with square names for people to read;
% at(Turn, Pieces, EP, Board) turns them into the terms chess_position/4
% takes (what Python builds from a chess.Board): Pieces a list of
% Colour-Letter-Name (w-k-e1), EP a square name or none.

at(Turn, Named, EP, board(Turn, Pieces, EPSq)) :-
    maplist(named_piece, Named, Pieces),
    (   EP == none -> EPSq = none ; square_name(EPSq, EP) ).

named_piece(C-L-Name, piece(C, L, Sq)) :-
    square_name(Sq, Name).

% pos(+Turn, +Named, +EP, -Pos) and pos(+Turn, +Named, -Pos) (no EP)
pos(Turn, Named, EP, Pos) :-
    at(Turn, Named, EP, board(T, Ps, E)),
    chess_position(T, Ps, E, Pos).
pos(Turn, Named, Pos) :-
    pos(Turn, Named, none, Pos).

% named(+Pos, -Turn, -Named, -EP): the board of Pos with square names,
% pieces sorted.
named(Pos, Turn, Named, EP) :-
    chess_board(Pos, Turn, Pieces, EPSq),
    maplist(named_piece, Named0, Pieces),
    msort(Named0, Named),
    (   EPSq == none -> EP = none ; square_name(EPSq, EP) ).

% ucis(+Pos, -Texts): the sorted UCI texts of the legal moves.
ucis(Pos, Texts) :-
    findall(T, ( legal_move(Pos, M, _), move_uci(M, T) ), Ts),
    msort(Ts, Texts).

% problem(+Turn, +Named, +EP, -Problem): what board_problem/4 says,
% `none` when the board is a legal position (chess_position/4 then
% succeeds, and fails otherwise).
problem(Turn, Named, EP, Problem) :-
    at(Turn, Named, EP, board(T, Ps, E)),
    (   board_problem(T, Ps, E, Problem0)
    ->  Problem = Problem0,
        \+ chess_position(T, Ps, E, _)
    ;   Problem = none,
        chess_position(T, Ps, E, _)
    ).

% the positions of the tests
rook_and_king(P) :-                     % 8/8/8/8/8/4k3/8/R3K3 w
    pos(w, [w-r-a1, w-k-e1, b-k-e3], P).
ep_position(P) :-                       % 8/8/8/3pP3/8/8/k7/7K w - d6
    pos(w, [b-p-d5, w-p-e5, b-k-a2, w-k-h1], d6, P).

:- begin_tests(boards).

test(representation, Pos == pos(w, [p(b,k,20), p(w,k,4), p(w,r,0)], none)) :-
    chess_position(w, [piece(w,r,0), piece(w,k,4), piece(b,k,20)], Pos).
test(named_position, Pos == pos(w, [p(b,k,20), p(w,k,4), p(w,r,0)], none)) :-
    named_position(w, [w-r-a1, w-k-e1, b-k-e3], Pos).
test(named_position_of_no_legal_board, fail) :-
    named_position(w, [w-k-e1, b-k-e2], _).
test(board_round_trip, Pieces == [piece(b,k,20), piece(w,k,4), piece(w,r,0)]) :-
    chess_position(w, [piece(w,k,4), piece(b,k,20), piece(w,r,0)], Pos),
    chess_board(Pos, w, Pieces).
test(ep_kept_with_legal_capture, EP == d6) :-
    ep_position(P),
    named(P, w, _, EP).
test(ep_dropped_without_legal_capture, EP == none) :-
    pos(w, [b-k-e8, b-p-d5, w-k-e1], d6, P),
    named(P, _, _, EP).
test(five_pieces, Pr == too_many_pieces) :-
    problem(w, [b-k-e8, w-p-a2, w-p-b2, w-p-c2, w-k-e1], none, Pr).
test(same_square, Pr == same_square) :-
    problem(w, [b-k-e8, w-r-a1, w-p-a1, w-k-e1], none, Pr).
test(piece_given_twice, Pr == same_square) :-
    problem(w, [b-k-e8, w-k-e1, w-k-e1], none, Pr).
test(kings_adjacent, Pr == kings_adjacent) :-
    problem(w, [b-k-d2, w-k-e1], none, Pr).
test(side_not_to_move_in_check, Pr == opposite_check) :-
    problem(w, [w-r-a8, b-k-e8, w-k-e1], none, Pr).
test(pawn_on_last_rank, Pr == pawn_on_back_rank) :-
    problem(b, [w-p-a8, b-k-e8, w-k-e1], none, Pr).
test(pawn_on_first_rank, Pr == pawn_on_back_rank) :-
    problem(b, [b-p-c1, b-k-e8, w-k-e1], none, Pr).
test(two_white_kings, Pr == white_kings) :-
    problem(b, [b-k-e8, w-k-a1, w-k-e1], none, Pr).
test(no_black_king, Pr == black_kings) :-
    problem(b, [w-k-a1, w-r-e1], none, Pr).
test(bad_ep_square, Pr == invalid_ep_square) :-
    problem(b, [b-k-e8, w-r-a1, w-k-e1], e3, Pr).
test(legal, Pr == none) :-
    problem(b, [b-k-e8, w-r-a1, w-k-e1], none, Pr).
test(not_a_turn, Pr == not_a_board(turn)) :-
    board_problem(x, [piece(w,k,4), piece(b,k,60)], none, Pr).
test(unbound_turn, Pr == not_a_board(turn)) :-
    board_problem(_, [piece(w,k,4), piece(b,k,60)], none, Pr).
test(not_a_list, Pr == not_a_board(pieces)) :-
    board_problem(w, [piece(w,k,4)|_], none, Pr).
test(off_board, Pr == not_a_board(piece(piece(w,k,64)))) :-
    board_problem(w, [piece(w,k,64), piece(b,k,60)], none, Pr).
test(bad_letter, Pr == not_a_board(piece(piece(w,x,4)))) :-
    board_problem(w, [piece(w,x,4), piece(b,k,60)], none, Pr).
test(unbound_piece, Pr = not_a_board(piece(_))) :-
    board_problem(w, [_, piece(b,k,60)], none, Pr).
test(ep_not_a_square, Pr == not_a_board(ep)) :-
    board_problem(b, [piece(w,k,4), piece(b,k,60)], e3, Pr).
test(chess_position_fails, [fail]) :-
    chess_position(w, [piece(w,k,4), piece(b,k,11)], _).

:- end_tests(boards).

:- begin_tests(moves).

test(rook_and_king, Ms == ["a1a2","a1a3","a1a4","a1a5","a1a6","a1a7","a1a8",
                           "a1b1","a1c1","a1d1","e1d1","e1f1"]) :-
    rook_and_king(P),
    ucis(P, Ms).
test(knight_in_corner, Ms == ["a8b6","a8c7","h1g1","h1g2","h1h2"]) :-
    pos(w, [w-n-a8, b-k-a1, w-k-h1], P),                % N7/8/8/8/8/8/8/k6K w
    ucis(P, Ms).
test(promotions, Ms == ["a7a8b","a7a8n","a7a8q","a7a8r","h1g1","h1g2","h1h2"]) :-
    pos(w, [w-p-a7, b-k-a1, w-k-h1], P),                % 8/P7/8/8/8/8/8/k6K w
    ucis(P, Ms).
test(capture_promotion, [true(memberchk("a7b8n", Ms))]) :-
    pos(w, [b-r-b8, w-p-a7, b-k-a1, w-k-h1], P),        % 1r6/P7/8/8/8/8/8/k6K w
    ucis(P, Ms).
test(double_step, [true((memberchk("e2e4", Ms), memberchk("e2e3", Ms)))]) :-
    pos(w, [b-k-a8, w-p-e2, w-k-h1], P),                % k7/8/8/8/8/8/4P3/7K w
    ucis(P, Ms).
test(double_step_blocked, [true(\+ memberchk("e2e4", Ms))]) :-
    pos(w, [b-k-a8, b-n-e4, w-p-e2, w-k-h1], P),        % k7/8/8/8/4n3/8/4P3/7K w
    ucis(P, Ms).
test(en_passant, B == b-[b-k-a2, w-k-h1, w-p-d6]-none) :-
    ep_position(P),
    uci_move(P, "e5d6", _, P1),
    named(P1, T, Ps, EP), B = T-Ps-EP.
test(double_step_sets_ep, B == b-[b-k-a8, b-p-d4, w-k-h1, w-p-e4]-e3) :-
    pos(w, [b-k-a8, b-p-d4, w-p-e2, w-k-h1], P),        % k7/8/8/8/3p4/8/4P3/7K w
    uci_move(P, "e2e4", _, P1),
    named(P1, T, Ps, EP), B = T-Ps-EP.
test(double_step_no_ep_when_illegal, EP1 == none) :-
    % five pieces (built directly, chess_position/4 refuses them): the
    % black pawn is pinned on the rank, d4xe3 would expose its king
    msort([p(b,k,24), p(b,p,27), p(w,r,31), p(w,p,12), p(w,k,7)], Ps),
    once(legal_move(pos(w, Ps, none), m(12, 28, none), pos(b, _, EP1))).
test(pinned_piece, [true(\+ (member(M, Ms), sub_string(M, 0, 2, _, "e2")))]) :-
    pos(w, [b-r-e8, b-k-h8, w-n-e2, w-k-e1], P),        % 4r2k/8/8/8/8/8/4N3/4K3 w
    ucis(P, Ms).
test(capture_changes_material, Sig == kk) :-
    pos(b, [b-k-b2, w-r-a1, w-k-h1], P),                % 8/8/8/8/8/8/1k6/R6K b
    uci_move(P, "b2a1", _, P1),
    material(P1, Sig).
test(uci_both_ways, [true(M == m(52, 60, q))]) :-
    move_uci(M, "e7e8q"),
    move_uci(M, T), T == "e7e8q".
test(uci_illegal, [fail]) :-
    rook_and_king(P),
    uci_move(P, "a1b2", _, _).

% checks(+Pos, -Texts): the UCI texts of checking_move/3's moves, in its
% order, after checking that they are legal_move/3's moves that give
% check, in that order.
checks(Pos, Texts) :-
    findall(M, ( legal_move(Pos, M, P1), in_check(P1) ), Checking),
    findall(M, checking_move(Pos, M, _), Checking),
    maplist(move_uci, Checking, Texts).

test(checks_discovered, Ms == ["e4f5","e4g6","e4h7","e4d5","e4c6","e4b7","e4a8",
                               "e4f3","e4g2","e4h1","e4d3","e4c2","e4b1"]) :-
    % every move of the bishop uncovers the rook's check (Bc6 alone would
    % check by itself too); no move of the rook or the king checks
    pos(w, [w-k-a1, w-r-e1, w-b-e4, b-k-e8], P),       % 4k3/8/8/8/4B3/8/8/K3R3 w
    checks(P, Ms).
test(checks_promotion, Ms == ["a7a8q","a7a8r"]) :-
    pos(w, [w-p-a7, w-k-c1, b-k-h8], P),               % P6k/8/8/8/8/8/8/2K5 w
    checks(P, Ms).
test(checks_en_passant, Ms == ["e5d6"]) :-
    % taking en passant empties d5 and e5: the rook checks along the
    % rank (five pieces, built directly: chess_position/4 refuses them)
    msort([p(w,r,32), p(w,p,36), p(b,p,35), p(b,k,39), p(w,k,0)], Ps),
    checks(pos(w, Ps, 43), Ms).                        % 8/8/8/R2pP2k/8/8/8/K7 w - d6
test(checks_as_legal_moves_with_check) :-
    % a queen, a rook or a bishop, and a knight, on every pair of squares
    % beside the kings
    forall(( member(K, [q, r, b]), between(0, 63, S), between(0, 63, N),
             chess_position(w, [piece(w,k,0), piece(w,K,S), piece(w,n,N), piece(b,k,36)],
                            none, P) ),
           checks(P, _)).

:- end_tests(moves).

:- begin_tests(status).

% k7/1Q6/1K6/8/8/8/8/8 b
mated(P) :- pos(b, [b-k-a8, w-q-b7, w-k-b6], P).
% k7/8/1Q6/8/8/8/8/7K b
stalemated(P) :- pos(b, [b-k-a8, w-q-b6, w-k-h1], P).
% k7/8/8/8/8/8/8/1R5K b
quiet(P) :- pos(b, [b-k-a8, w-r-b1, w-k-h1], P).

test(mate, St == mate) :-
    mated(P), status(P, St).
test(mate_pred) :-
    mated(P), mate(P).
test(stalemate, St == stalemate) :-
    stalemated(P), status(P, St).
test(stalemate_pred) :-
    stalemated(P), stalemate(P).
test(check, St == check) :-
    pos(b, [b-k-a8, w-r-a1, w-k-h1], P), status(P, St), in_check(P).
test(none, St == none) :-
    quiet(P), status(P, St).
test(material_black_stronger, Sig == kkqr) :-
    pos(w, [b-k-a8, b-r-a2, b-q-f1, w-k-h1], P),        % k7/8/8/8/8/8/r7/5q1K w
    material(P, Sig).
test(side_to_move, S == b) :-
    quiet(P), side_to_move(P, S).

:- end_tests(status).

:- begin_tests(attack_masks).

% attack_mask/3 agrees with attacked/3 on every square.
same_as_attacked(Named) :-
    maplist(named_piece, Named, Board),
    maplist([piece(C, K, S), p(C, K, S)]>>true, Board, Pieces),
    attack_mask(Pieces, w, Mask),
    forall(between(0, 63, Sq),
           (   Mask /\ (1 << Sq) =\= 0
           ->  assertion(attacked(Sq, w, Pieces))
           ;   assertion(\+ attacked(Sq, w, Pieces))
           )).

test(sliders_blocked_by_any_piece) :-
    same_as_attacked([w-k-e1, w-q-d4, w-r-d7, b-k-h8]),
    same_as_attacked([w-k-a1, w-r-a8, w-r-h1, b-k-e5]),
    same_as_attacked([w-k-c3, w-b-f5, w-n-g2, b-k-b7]),
    same_as_attacked([w-k-h1, w-q-a1, w-p-b2, b-k-h8]),
    same_as_attacked([w-k-e4, w-b-a1, w-b-h1, b-k-e6]).

test(king_steps) :-
    square_name(A1, a1), square_name(H8, h8),
    king_step_mask(1 << A1, M),
    assertion(popcount(M) =:= 4),
    king_step_mask(1 << H8, M8),
    assertion(popcount(M8) =:= 4).

:- end_tests(attack_masks).

:- begin_tests(counts).

% The KRK figures of the KRK tablebase (tests/test_chess.py).
test(krk_white, N == 175168) :-
    count_legal_positions(krk, w, N).
test(krk_black, N == 223944) :-
    count_legal_positions(krk, b, N).

:- end_tests(counts).

:- begin_tests(jobs).

json_terms(Json, Terms) :-
    atom_string(A, Json),
    atom_json_term(A, Terms, []).

test(json, T == [ json([moves=[], status=mate]),
                  json([error=kings_adjacent]),
                  json([error='not_a_board(piece(piece(w,k,64)))']),
                  json([error=not_a_board]),
                  json([moves=[e5d6, e5e6, h1g1, h1g2, h1h2], status=none]) ]) :-
    at(b, [b-k-a8, w-q-b7, w-k-b6], none, Mate),
    at(w, [b-k-d2, w-k-e1], none, Adjacent),
    at(w, [b-p-d5, w-p-e5, b-k-a2, w-k-h1], d6, EP),
    legal_moves_json([Mate, Adjacent, board(w, [piece(w,k,64)], none), foo, EP],
                     Json),
    json_terms(Json, T).
test(board_without_ep, T == [json([moves=[], status=mate])]) :-
    at(b, [b-k-a8, w-q-b7, w-k-b6], none, board(Turn, Ps, none)),
    legal_moves_json([board(Turn, Ps)], Json),
    json_terms(Json, T).

:- end_tests(jobs).
