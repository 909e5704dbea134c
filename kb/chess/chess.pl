:- module(chess,
          [ % positions
            legal_position/1,           % +Pos
            position_check/2,           % +Pos, -Problem
            side_to_move/2,             % +Pos, -Side
            material/2,                 % +Pos, -Signature
            piece_at/3,                 % +Pos, +Square, -Piece
            kind_rank/2,                % ?Kind, ?Rank
            % boards (the terms Python builds from a chess.Board)
            chess_position/3,           % +Turn, +Pieces, -Pos
            chess_position/4,           % +Turn, +Pieces, +EP, -Pos
            named_position/3,           % +Turn, +Named, -Pos
            board_problem/4,            % +Turn, +Pieces, +EP, -Problem
            board_position/4,           % +Turn, +Pieces, +EP, -Pos
            chess_board/3,              % +Pos, -Turn, -Pieces
            chess_board/4,              % +Pos, -Turn, -Pieces, -EP
            % squares
            square_name/2,              % ?Square, ?Name
            king_target/2,              % ?Square, ?Square1
            % moves
            legal_move/3,               % +Pos, ?Move, ?Pos1
            legal_moves/2,              % +Pos, -Moves
            checking_move/3,            % +Pos, ?Move, ?Pos1
            move_uci/2,                 % ?Move, ?Text
            uci_move/4,                 % +Pos, +Text, -Move, -Pos1
            % status
            attacked/3,                 % +Square, +ByColour, +Pieces
            attack_mask/3,              % +Pieces, +ByColour, -Mask
            attack_mask/4,              % +Pieces, +Blockers, +ByColour, -Mask
            king_step_mask/2,           % +Mask, -Mask1
            in_check/1,                 % +Pos
            mate/1,                     % +Pos
            stalemate/1,                % +Pos
            status/2,                   % +Pos, -Status
            % jobs
            legal_moves_json/2,         % +Boards, -Json
            count_legal_positions/3     % +Signature, +Side, -Count
          ]).
:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(aggregate)).
:- use_module(library(yall)).
:- use_module(library(http/json)).
:- set_prolog_flag(optimise, true).

/** <module> Chess endgames with up to four pieces

The rules of chess for positions of at most four pieces (kings included),
any material, either colour the stronger: legal moves (king, queen, rook,
bishop, knight, pawn with single and double steps, captures, promotion to
Q, R, B or N, en passant), check, mate and stalemate, the material of a
position, boards in and out as terms, UCI move text.  Castling is out
of scope.

There is no FEN here: a board comes from Python as a term built from a
`chess.Board` (python-chess reads and writes FEN, see DESIGN.md section
4), `board(Turn, Pieces, EP)` in the terms of the AL0 chess domains
(kb/README.md), and goes in through chess_position/4 (or /3), which
checks that it is a legal position; board_problem/4 says why one is
not.  chess_board/4 (or /3) gives a position's board back.

## Positions

A position is the term

    pos(Side, Pieces, EP)

  - Side is `w` or `b`, the side to move;
  - Pieces is a list of `p(Colour, Kind, Square)` sorted in the standard
    order of terms (so a position has exactly one term), Colour `w` or
    `b`, Kind one of `k q r b n p`, Square 0..63 numbered as python-chess
    does (a1 = 0, h1 = 7, a8 = 56, h8 = 63);
  - EP is the en-passant target square or `none`.  It is normalised: it
    is set only when the side to move has a *legal* en-passant capture
    (python-chess's `Board.has_legal_en_passant()`), so two positions
    that allow the same moves are the same term.

A move is the term `m(From, To, Promo)` with Promo `none` or one of
`q r b n`.

## Speed

Every square relation is a table of facts generated when this file is
compiled: king and knight targets, pawn pushes and captures, the rays of
the sliding pieces (`ray(Dir, From, Squares)`, nearest first) and, for
attack tests, the line between two squares keyed on `From*64+To`.  No
arithmetic on coordinates is done while generating moves.
*/

		 /*******************************
		 *   TABLES (generated at load)  *
		 *******************************/

sq_fr(Sq, F, R) :-
    between(0, 63, Sq),
    F is Sq mod 8,
    R is Sq // 8.

on_board(F, R) :-
    F >= 0, F =< 7, R >= 0, R =< 7.

dir_delta(n,   0,  1).
dir_delta(s,   0, -1).
dir_delta(e,   1,  0).
dir_delta(w,  -1,  0).
dir_delta(ne,  1,  1).
dir_delta(nw, -1,  1).
dir_delta(se,  1, -1).
dir_delta(sw, -1, -1).

dir_kind(n, orth). dir_kind(s, orth). dir_kind(e, orth). dir_kind(w, orth).
dir_kind(ne, diag). dir_kind(nw, diag). dir_kind(se, diag). dir_kind(sw, diag).

knight_delta(1, 2). knight_delta(2, 1). knight_delta(2, -1). knight_delta(1, -2).
knight_delta(-1, -2). knight_delta(-2, -1). knight_delta(-2, 1). knight_delta(-1, 2).

step(Sq, DF, DR, Sq1) :-
    sq_fr(Sq, F, R),
    F1 is F+DF, R1 is R+DR,
    on_board(F1, R1),
    Sq1 is R1*8+F1.

ray_squares(Sq, DF, DR, [S1|Ss]) :-
    Sq1 = Sq,
    F is Sq1 mod 8, R is Sq1 // 8,
    F1 is F+DF, R1 is R+DR,
    on_board(F1, R1), !,
    S1 is R1*8+F1,
    ray_squares(S1, DF, DR, Ss).
ray_squares(_, _, _, []).

table_clause(king_target(S, T)) :-
    dir_delta(_, DF, DR), step(S, DF, DR, T).
table_clause(knight_target(S, T)) :-
    knight_delta(DF, DR), step(S, DF, DR, T).
table_clause(king_pair(Key)) :-
    dir_delta(_, DF, DR), step(S, DF, DR, T), Key is S*64+T.
table_clause(knight_pair(Key)) :-
    knight_delta(DF, DR), step(S, DF, DR, T), Key is S*64+T.
table_clause(ray(Dir, S, Squares)) :-
    dir_delta(Dir, DF, DR), between(0, 63, S),
    ray_squares(S, DF, DR, Squares), Squares \== [].
table_clause(line(Key, Kind, Between)) :-
    dir_delta(Dir, DF, DR), dir_kind(Dir, Kind), between(0, 63, S),
    ray_squares(S, DF, DR, Squares),
    append(Between, [T|_], Squares),
    Key is S*64+T.
table_clause(pawn_push(C, S, T)) :-
    pawn_dir(C, DR), sq_fr(S, _, R), R >= 1, R =< 6, step(S, 0, DR, T).
table_clause(pawn_double(C, S, M, T)) :-
    pawn_dir(C, DR), pawn_start_rank(C, R0),
    sq_fr(S, _, R0), step(S, 0, DR, M), step(M, 0, DR, T).
table_clause(pawn_capture(C, S, T)) :-
    pawn_dir(C, DR), sq_fr(S, _, R), R >= 1, R =< 6,
    ( DF = -1 ; DF = 1 ), step(S, DF, DR, T).
table_clause(pawn_pair(C, Key)) :-
    pawn_dir(C, DR), sq_fr(S, _, R), R >= 1, R =< 6,
    ( DF = -1 ; DF = 1 ), step(S, DF, DR, T), Key is S*64+T.
table_clause(ray_mask(Dir, S, Mask)) :-
    dir_delta(Dir, DF, DR), between(0, 63, S),
    ray_squares(S, DF, DR, Squares), Squares \== [],
    foldl([T, M0, M]>>(M is M0 \/ (1 << T)), Squares, 0, Mask).
table_clause(king_mask(S, Mask)) :-
    between(0, 63, S),
    findall(T, table_clause(king_target(S, T)), Ts),
    foldl([T, M0, M]>>(M is M0 \/ (1 << T)), Ts, 0, Mask).
table_clause(knight_mask(S, Mask)) :-
    between(0, 63, S),
    findall(T, table_clause(knight_target(S, T)), Ts),
    foldl([T, M0, M]>>(M is M0 \/ (1 << T)), Ts, 0, Mask).
table_clause(pawn_mask(C, S, Mask)) :-
    pawn_dir(C, _), between(0, 63, S),
    findall(T, table_clause(pawn_capture(C, S, T)), Ts),
    Ts \== [],
    foldl([T, M0, M]>>(M is M0 \/ (1 << T)), Ts, 0, Mask).
table_clause(last_rank(C, S)) :-
    ( C = w, R = 7 ; C = b, R = 0 ), sq_fr(S, _, R).
table_clause(sq_name(S, Name)) :-
    sq_fr(S, F, R), FC is 0'a+F, RC is 0'1+R, atom_codes(Name, [FC, RC]).

pawn_dir(w, 1).
pawn_dir(b, -1).
pawn_start_rank(w, 1).
pawn_start_rank(b, 6).

term_expansion(chess_tables, Clauses) :-
    findall(C, table_clause(C), Clauses).

chess_tables.

opponent(w, b).
opponent(b, w).

slider_dir(q, D) :- dir_kind(D, _).
slider_dir(r, D) :- dir_kind(D, orth).
slider_dir(b, D) :- dir_kind(D, diag).

promotion(q).
promotion(r).
promotion(b).
promotion(n).

kind_letter(k, k). kind_letter(q, q). kind_letter(r, r).
kind_letter(b, b). kind_letter(n, n). kind_letter(p, p).

%! kind_rank(?Kind, ?Rank) is nondet.
%
%  Rank (0 to 5) is the place of a piece's Kind (`k q r b n p`) in the
%  material order, that of the letters of a signature.

kind_rank(k, 0). kind_rank(q, 1). kind_rank(r, 2).
kind_rank(b, 3). kind_rank(n, 4). kind_rank(p, 5).

		 /*******************************
		 *            SQUARES           *
		 *******************************/

%! square_name(?Square, ?Name) is semidet.
%
%  Name is the algebraic name (an atom, `e4`) of Square (0..63, a1 = 0).
%  Either argument may be bound; with neither bound it enumerates.

square_name(Sq, Name) :-
    (   var(Sq), nonvar(Name)
    ->  atom(Name), sq_name(Sq, Name)
    ;   sq_name(Sq, Name)
    ).

%! king_target(?Square, ?Square1) is nondet.
%
%  Square1 is one king step from Square (a table of facts, generated
%  when this file is compiled, as every square relation here).

		 /*******************************
		 *            ATTACKS           *
		 *******************************/

%! attacked(+Square, +ByColour, +Pieces) is semidet.
%
%  Square is attacked by a piece of ByColour among Pieces (a list of
%  `p(Colour, Kind, Square)`), sliding pieces being blocked by any piece.

attacked(Sq, By, Pieces) :-
    member(p(By, K, S), Pieces),
    S \== Sq,
    Key is S*64+Sq,
    attacks(K, By, Key, Pieces),
    !.

attacks(k, _, Key, _) :- king_pair(Key).
attacks(n, _, Key, _) :- knight_pair(Key).
attacks(p, C, Key, _) :- pawn_pair(C, Key).
attacks(q, _, Key, Ps) :- line(Key, _, B), clear(B, Ps).
attacks(r, _, Key, Ps) :- line(Key, orth, B), clear(B, Ps).
attacks(b, _, Key, Ps) :- line(Key, diag, B), clear(B, Ps).

%! attack_mask(+Pieces, +ByColour, -Mask) is det.
%
%  Mask is the bitboard (bit Square set) of the squares that the pieces
%  of ByColour among Pieces attack, sliding pieces being blocked by any
%  piece in Pieces.  A piece's own square is in Mask only when another
%  piece of its colour defends it.

attack_mask(Pieces, By, Mask) :-
    attack_mask(Pieces, Pieces, By, Mask).

%! attack_mask(+Pieces, +Blockers, +ByColour, -Mask) is det.
%
%  As attack_mask/3 for the pieces of ByColour among Pieces, sliding
%  pieces being blocked by the pieces in Blockers.

attack_mask(Pieces, Blockers, By, Mask) :-
    foldl(occupy, Blockers, 0, Occupied),
    foldl(add_attacks(By, Occupied), Pieces, 0, Mask).

occupy(p(_, _, S), M0, M) :-
    M is M0 \/ (1 << S).

add_attacks(By, Occupied, p(C, K, S), M0, M) :-
    (   C == By
    ->  piece_mask(K, C, S, Occupied, PM),
        M is M0 \/ PM
    ;   M = M0
    ).

piece_mask(k, _, S, _, M) :- !, king_mask(S, M).
piece_mask(n, _, S, _, M) :- !, knight_mask(S, M).
piece_mask(p, C, S, _, M) :- !, ( pawn_mask(C, S, M) -> true ; M = 0 ).
piece_mask(q, _, S, Occupied, M) :- !,
    slider_mask([n, s, e, w, ne, nw, se, sw], S, Occupied, 0, M).
piece_mask(r, _, S, Occupied, M) :- !,
    slider_mask([n, s, e, w], S, Occupied, 0, M).
piece_mask(b, _, S, Occupied, M) :-
    slider_mask([ne, nw, se, sw], S, Occupied, 0, M).

% slider_mask(+Dirs, +Square, +Occupied, +M0, -M): the squares a slider
% on Square attacks along Dirs: each ray up to and including its first
% occupied square, which is the lowest such square on a ray that goes up
% the board and the highest on one that goes down.
slider_mask([], _, _, M, M).
slider_mask([Dir|Dirs], S, Occupied, M0, M) :-
    (   ray_mask(Dir, S, Ray)
    ->  Blockers is Ray /\ Occupied,
        (   Blockers =:= 0
        ->  Attacks = Ray
        ;   ray_up(Dir)
        ->  First is lsb(Blockers),
            beyond(Dir, First, Ray, Attacks)
        ;   First is msb(Blockers),
            beyond(Dir, First, Ray, Attacks)
        ),
        M1 is M0 \/ Attacks
    ;   M1 = M0
    ),
    slider_mask(Dirs, S, Occupied, M1, M).

beyond(Dir, First, Ray, Attacks) :-
    (   ray_mask(Dir, First, Behind)
    ->  Attacks is Ray /\ \Behind
    ;   Attacks = Ray
    ).

ray_up(n). ray_up(e). ray_up(ne). ray_up(nw).

%! king_step_mask(+Mask, -Mask1) is det.
%
%  Mask1 is Mask with every square one king step from a square of Mask
%  added (bitboards as in attack_mask/3).

king_step_mask(M, M1) :-
    Row is M \/ ((M << 1) /\ 0xfefefefefefefefe) \/ ((M >> 1) /\ 0x7f7f7f7f7f7f7f7f),
    M1 is (Row \/ (Row << 8) \/ (Row >> 8)) /\ 0xffffffffffffffff.

clear([], _) :- !.
clear(B, Ps) :-
    \+ ( member(p(_, _, S), Ps), memberchk(S, B) ).

king_square(C, [P|Ps], K) :-
    (   P = p(C, k, S)
    ->  K = S
    ;   king_square(C, Ps, K)
    ).

% checkers(+Colour, +Pieces, -Squares): the pieces giving check to Colour.
checkers(C, Ps, Checkers) :-
    opponent(C, O),
    king_square(C, Ps, KSq),
    findall(S, ( member(p(O, K, S), Ps),
                 Key is S*64+KSq,
                 attacks(K, O, Key, Ps) ),
            Checkers).

		 /*******************************
		 *             MOVES            *
		 *******************************/

%! legal_move(+Pos, ?Move, ?Pos1) is nondet.
%
%  Move, a term `m(From, To, Promo)`, is a legal move of the side to move
%  at Pos and leads to Pos1 (its own king not left in check).

legal_move(pos(C, Ps, EP), m(From, To, Promo), pos(O, Ps1, EP1)) :-
    opponent(C, O),
    member(p(C, K, From), Ps),
    pseudo(K, C, From, Ps, EP, To, Promo, Cap, Double),
    make(Ps, C, K, From, To, Promo, Cap, Ps1),
    king_square(C, Ps1, KSq),
    \+ attacked(KSq, O, Ps1),
    ep_after(Double, O, Ps1, EP1).

% pseudo(+Kind, +C, +From, +Pieces, +EP, -To, -Promo, -Captured, -Double)
pseudo(k, C, From, Ps, _, To, none, Cap, none) :-
    king_target(From, To),
    target(To, C, Ps, Cap).
pseudo(n, C, From, Ps, _, To, none, Cap, none) :-
    knight_target(From, To),
    target(To, C, Ps, Cap).
pseudo(q, C, From, Ps, _, To, none, Cap, none) :-
    slide(q, C, From, Ps, To, Cap).
pseudo(r, C, From, Ps, _, To, none, Cap, none) :-
    slide(r, C, From, Ps, To, Cap).
pseudo(b, C, From, Ps, _, To, none, Cap, none) :-
    slide(b, C, From, Ps, To, Cap).
pseudo(p, C, From, Ps, EP, To, Promo, Cap, Double) :-
    pawn_move(C, From, Ps, EP, To, Promo, Cap, Double).

target(To, C, Ps, Cap) :-
    (   memberchk(p(C1, _, To), Ps)
    ->  C1 \== C, Cap = To
    ;   Cap = none
    ).

slide(K, C, From, Ps, To, Cap) :-
    slider_dir(K, D),
    ray(D, From, Squares),
    slide_along(Squares, C, Ps, To, Cap).

slide_along([S|Ss], C, Ps, To, Cap) :-
    (   memberchk(p(C1, _, S), Ps)
    ->  C1 \== C, To = S, Cap = S
    ;   (   To = S, Cap = none
        ;   slide_along(Ss, C, Ps, To, Cap)
        )
    ).

pawn_move(C, From, Ps, _, To, Promo, none, none) :-
    pawn_push(C, From, To),
    \+ memberchk(p(_, _, To), Ps),
    promo(C, To, Promo).
pawn_move(C, From, Ps, _, To, none, none, Mid) :-
    pawn_double(C, From, Mid, To),
    \+ memberchk(p(_, _, Mid), Ps),
    \+ memberchk(p(_, _, To), Ps).
pawn_move(C, From, Ps, EP, To, Promo, Cap, none) :-
    pawn_capture(C, From, To),
    (   memberchk(p(C1, _, To), Ps)
    ->  C1 \== C, Cap = To, promo(C, To, Promo)
    ;   To == EP
    ->  Promo = none,
        pawn_push(C, Cap, To)           % the pawn captured stands behind EP
    ).

promo(C, To, Promo) :-
    (   last_rank(C, To)
    ->  promotion(Promo)
    ;   Promo = none
    ).

% make(+Pieces, +C, +K, +From, +To, +Promo, +Captured, -Pieces1)
make(Ps, C, K, From, To, Promo, Cap, Ps1) :-
    (   Promo == none -> K1 = K ; K1 = Promo ),
    remove(Ps, From, Cap, Rest),
    sort([p(C, K1, To)|Rest], Ps1).

remove([], _, _, []).
remove([P|Ps], From, Cap, Rest) :-
    P = p(_, _, S),
    (   ( S == From ; S == Cap )
    ->  remove(Ps, From, Cap, Rest)
    ;   Rest = [P|Rest1],
        remove(Ps, From, Cap, Rest1)
    ).

% ep_after(+Double, +Side, +Pieces, -EP): the en-passant square after a
% move, kept only when Side (to move) has a legal en-passant capture.
ep_after(none, _, _, EP) :- !, EP = none.
ep_after(Mid, C, Ps, EP) :-
    (   ep_capture_exists(C, Ps, Mid)
    ->  EP = Mid
    ;   EP = none
    ).

ep_capture_exists(C, Ps, EP) :-
    opponent(C, O),
    member(p(C, p, From), Ps),
    pawn_capture(C, From, EP),
    pawn_push(C, Victim, EP),
    make(Ps, C, p, From, EP, none, Victim, Ps1),
    king_square(C, Ps1, KSq),
    \+ attacked(KSq, O, Ps1),
    !.

%! checking_move(+Pos, ?Move, ?Pos1) is nondet.
%
%  As legal_move/3, but only the moves that give check, in the same
%  order: a mate search's last move must give check, and most moves
%  are dropped here before the position after them is made.  A move
%  may give check only when the piece moved attacks the king from its
%  new square, or leaves a line through the king (another piece's
%  check uncovered), or is a pawn's (en passant, promotion); only
%  those are made and asked.

checking_move(pos(C, Ps, EP), m(From, To, Promo), pos(O, Ps1, EP1)) :-
    opponent(C, O),
    king_square(O, Ps, Their),
    member(p(C, K, From), Ps),
    pseudo(K, C, From, Ps, EP, To, Promo, Cap, Double),
    may_give_check(K, From, To, Promo, Their, Ps),
    make(Ps, C, K, From, To, Promo, Cap, Ps1),
    attacked(Their, C, Ps1),
    king_square(C, Ps1, KSq),
    \+ attacked(KSq, O, Ps1),
    ep_after(Double, O, Ps1, EP1).

% may_give_check(+Kind, +From, +To, +Promo, +TheirKing, +Pieces): the
% move of a piece of Kind from From to To (Promo as in m/3) may give
% check to the king on TheirKing (a superset of the moves that do).
may_give_check(p, _, _, _, _, _) :- !.
may_give_check(_, From, _, _, Their, _) :-
    Key is From*64+Their,
    line(Key, _, _),
    !.
may_give_check(K, From, To, Promo, Their, Ps) :-
    (   Promo == none -> K1 = K ; K1 = Promo ),
    Key is To*64+Their,
    attacks_past(K1, Key, From, Ps).

% attacks_past(+Kind, +Key, +From, +Pieces): a piece of Kind (not a
% pawn) attacks along Key (Square*64+Target) once the piece on From
% has left it.
attacks_past(k, Key, _, _) :- king_pair(Key).
attacks_past(n, Key, _, _) :- knight_pair(Key).
attacks_past(q, Key, From, Ps) :- line(Key, _, B), clear_past(B, From, Ps).
attacks_past(r, Key, From, Ps) :- line(Key, orth, B), clear_past(B, From, Ps).
attacks_past(b, Key, From, Ps) :- line(Key, diag, B), clear_past(B, From, Ps).

clear_past([], _, _) :- !.
clear_past(B, From, Ps) :-
    \+ ( member(p(_, _, S), Ps), S \== From, memberchk(S, B) ).

%! legal_moves(+Pos, -Moves) is det.
%
%  Moves is the list of `Move-Pos1` pairs of all legal moves at Pos, in
%  the order legal_move/3 generates them.

legal_moves(Pos, Moves) :-
    findall(M-P1, legal_move(Pos, M, P1), Moves).

		 /*******************************
		 *             STATUS           *
		 *******************************/

%! in_check(+Pos) is semidet.
%
%  The side to move at Pos is in check.

in_check(pos(C, Ps, _)) :-
    opponent(C, O),
    king_square(C, Ps, KSq),
    attacked(KSq, O, Ps).

%! mate(+Pos) is semidet.
%
%  The side to move at Pos is checkmated.

mate(Pos) :-
    in_check(Pos),
    \+ legal_move(Pos, _, _).

%! stalemate(+Pos) is semidet.
%
%  The side to move at Pos has no legal move and is not in check.

stalemate(Pos) :-
    \+ in_check(Pos),
    \+ legal_move(Pos, _, _).

%! status(+Pos, -Status) is det.
%
%  Status is `mate`, `stalemate`, `check` or `none`.

status(Pos, Status) :-
    (   \+ legal_move(Pos, _, _)
    ->  ( in_check(Pos) -> Status = mate ; Status = stalemate )
    ;   in_check(Pos)
    ->  Status = check
    ;   Status = none
    ).

%! side_to_move(+Pos, -Side) is det.
%
%  Side (`w` or `b`) is to move at Pos.

side_to_move(pos(Side, _, _), Side).

%! piece_at(+Pos, +Square, -Piece) is semidet.
%
%  Piece, a term `p(Colour, Kind, Square)`, stands on Square at Pos.

piece_at(pos(_, Ps, _), Sq, P) :-
    P = p(_, _, Sq),
    memberchk(P, Ps).

%! material(+Pos, -Signature) is det.
%
%  Signature is the material of Pos as an atom of lowercase piece letters:
%  White's pieces then Black's, each side's starting with its king and
%  ordered k, q, r, b, n, p (`kqk`: king and queen against king; `kkr`:
%  king against king and rook, White the weaker; `kpkp`).

material(pos(_, Ps, _), Sig) :-
    side_letters(w, Ps, W),
    side_letters(b, Ps, B),
    append(W, B, Letters),
    atomic_list_concat(Letters, Sig).

side_letters(C, Ps, Letters) :-
    findall(R-L, ( member(p(C, K, _), Ps), kind_rank(K, R), kind_letter(K, L) ),
            Pairs),
    msort(Pairs, Sorted),
    pairs_values(Sorted, Letters).

		 /*******************************
		 *        LEGAL POSITIONS       *
		 *******************************/

%! legal_position(+Pos) is semidet.
%
%  Pos is a legal position: at most four pieces on distinct squares,
%  exactly one king of each colour, no pawn on the first or last rank,
%  the kings not adjacent, the side not to move not in check, at most two
%  checkers and not two aligned with the king (as python-chess's
%  `Board.is_valid()` rules), and an en-passant square only where a
%  legal en-passant capture exists.

legal_position(Pos) :-
    \+ position_check(Pos, _).

%! position_check(+Pos, -Problem) is semidet.
%
%  Problem is the first reason why Pos is not a legal position (an atom
%  such as `kings_adjacent`, `opposite_check`, `pawn_on_back_rank`);
%  fails when Pos is legal.

position_check(Pos, Problem) :-
    position_problem(Pos, Problem),
    !.

position_problem(pos(C, _, _), side) :-
    \+ opponent(C, _).
position_problem(pos(_, Ps, _), too_many_pieces) :-
    length(Ps, N), N > 4.
position_problem(pos(_, Ps, _), same_square) :-
    findall(S, member(p(_, _, S), Ps), Ss),
    sort(Ss, Set), length(Ss, N), length(Set, N1), N1 =\= N.
position_problem(pos(_, Ps, _), white_kings) :-
    aggregate_all(count, member(p(w, k, _), Ps), N), N =\= 1.
position_problem(pos(_, Ps, _), black_kings) :-
    aggregate_all(count, member(p(b, k, _), Ps), N), N =\= 1.
position_problem(pos(_, Ps, _), pawn_on_back_rank) :-
    member(p(_, p, S), Ps), ( S < 8 ; S > 55 ).
position_problem(pos(_, Ps, _), kings_adjacent) :-
    king_square(w, Ps, W), king_square(b, Ps, B),
    Key is W*64+B, king_pair(Key).
position_problem(pos(C, Ps, _), opposite_check) :-
    opponent(C, O),
    king_square(O, Ps, K), attacked(K, C, Ps).
position_problem(pos(C, Ps, _), too_many_checkers) :-
    checkers(C, Ps, Cs), length(Cs, N), N > 2.
position_problem(pos(C, Ps, _), impossible_check) :-
    checkers(C, Ps, [A, B]),
    king_square(C, Ps, K),
    Key is A*64+B, line(Key, _, Between), memberchk(K, Between).
position_problem(pos(C, Ps, EP), invalid_ep_square) :-
    EP \== none,
    \+ ( integer(EP),
         opponent(C, O),
         pawn_push(O, EP, Pawn), memberchk(p(O, p, Pawn), Ps),
         pawn_push(O, From, EP),
         \+ memberchk(p(_, _, EP), Ps),
         \+ memberchk(p(_, _, From), Ps),
         ( C == w -> EP >= 40, EP =< 47 ; EP >= 16, EP =< 23 ) ).

		 /*******************************
		 *          UCI MOVES           *
		 *******************************/

%! move_uci(?Move, ?Text) is semidet.
%
%  Text (a string; an atom is accepted) is the UCI text of Move, a term
%  `m(From, To, Promo)`: `e2e4`, `e7e8q`.

move_uci(m(From, To, Promo), Text) :-
    nonvar(From), !,
    sq_name(From, F), sq_name(To, T),
    (   Promo == none
    ->  format(string(Text), "~w~w", [F, T])
    ;   format(string(Text), "~w~w~w", [F, T, Promo])
    ).
move_uci(m(From, To, Promo), Text) :-
    atom_codes(Text, Codes),
    (   Codes = [A, B, C, D]
    ->  Promo = none
    ;   Codes = [A, B, C, D, P],
        char_code(Promo, P),
        promotion(Promo)
    ),
    atom_codes(F, [A, B]), sq_name(From, F),
    atom_codes(T, [C, D]), sq_name(To, T).

%! uci_move(+Pos, +Text, -Move, -Pos1) is semidet.
%
%  Move is the legal move at Pos whose UCI text is Text, leading to Pos1;
%  fails when Text names no legal move.

uci_move(Pos, Text, Move, Pos1) :-
    move_uci(Move, Text),
    legal_move(Pos, Move, Pos1),
    !.

		 /*******************************
		 *       BOARDS (AL0 TERMS)     *
		 *******************************/

%! chess_position(+Turn, +Pieces, -Pos) is semidet.
%
%  As chess_position/4 with no en-passant square: Pos is the legal
%  position of a board given in the terms of the AL0 chess domains
%  (kb/README.md).  Fails when the board is not one (board_problem/4
%  says why).

chess_position(Turn, Pieces, Pos) :-
    chess_position(Turn, Pieces, none, Pos).

%! chess_position(+Turn, +Pieces, +EP, -Pos) is semidet.
%
%  Pos is the legal position of the board
%
%    - Turn, `w` or `b`, the side to move;
%    - Pieces, a list of `piece(Colour, Letter, Square)`, Colour `w` or
%      `b`, Letter one of `k q r b n p`, Square an integer 0..63 (a1 = 0,
%      b1 = 1, ..., h8 = 63, as python-chess numbers them), in any order;
%    - EP, the en-passant square (an integer 0..63, python-chess's
%      `Board.ep_square`) or `none`.
%
%  The en-passant square is normalised: kept in Pos only when the side to
%  move has a legal en-passant capture, dropped otherwise (an en-passant
%  square that no double step can have made is a problem, though:
%  `invalid_ep_square`).
%
%  Fails when the board is not a legal position (legal_position/1: at
%  most four pieces on distinct squares, one king of each colour, no
%  pawn on the first or last rank, the kings not adjacent, the side not
%  to move not in check, ...) or not a board term at all;
%  board_problem/4 names the first reason.  Never raises an error.

chess_position(Turn, Pieces, EP, Pos) :-
    \+ board_problem(Turn, Pieces, EP, _),
    board_position(Turn, Pieces, EP, Pos).

%! named_position(+Turn, +Named, -Pos) is semidet.
%
%  As chess_position/3, the pieces written for people: Named is a list
%  of `Colour-Letter-SquareName` (`w-k-e1`, `b-q-d8`).  Fails when the
%  board is not a legal position.

named_position(Turn, Named, Pos) :-
    maplist(named_piece, Named, Pieces),
    chess_position(Turn, Pieces, Pos).

named_piece(Colour-Letter-Name, piece(Colour, Letter, Square)) :-
    square_name(Square, Name).

%! board_position(+Turn, +Pieces, +EP, -Pos) is det.
%
%  Pos is the position of a board known to be legal (board_problem/4
%  has passed it, or a tablebase marks it legal), built without
%  checking: as chess_position/4, the en-passant square normalised.
board_position(Turn, Pieces, EP0, pos(Turn, Ps, EP)) :-
    board_pieces(Pieces, Ps),
    (   EP0 \== none, ep_capture_exists(Turn, Ps, EP0)
    ->  EP = EP0
    ;   EP = none
    ).

%! board_problem(+Turn, +Pieces, +EP, -Problem) is semidet.
%
%  Problem is the first reason why the board Turn, Pieces, EP (see
%  chess_position/4) is not a legal position; fails when it is one.
%  Problem is one of
%
%    - `not_a_board(What)`: the arguments are not a board term; What is
%      `turn` (Turn is not `w` or `b`), `pieces` (Pieces is not a proper
%      list), `piece(Term)` (Term is not `piece(Colour, Letter, Square)`
%      with the values above) or `ep` (EP is neither `none` nor a square);
%    - a problem of position_check/2: `too_many_pieces`, `same_square`,
%      `white_kings`, `black_kings` (not exactly one king of that colour),
%      `pawn_on_back_rank`, `kings_adjacent`, `opposite_check` (the side
%      not to move is in check), `too_many_checkers`, `impossible_check`,
%      `invalid_ep_square`.

board_problem(Turn, Pieces, EP, Problem) :-
    (   shape_problem(Turn, Pieces, EP, Problem0)
    ->  Problem = not_a_board(Problem0)
    ;   board_pieces(Pieces, Ps),
        position_check(pos(Turn, Ps, EP), Problem)
    ).

shape_problem(Turn, _, _, turn) :-
    \+ ( atom(Turn), opponent(Turn, _) ).
shape_problem(_, Pieces, _, pieces) :-
    \+ is_list(Pieces).
shape_problem(_, Pieces, _, piece(P)) :-
    member(P, Pieces),
    \+ board_piece_ok(P),
    !.
shape_problem(_, _, EP, ep) :-
    \+ ( EP == none ; square(EP) ).

board_piece_ok(P) :-
    nonvar(P),
    P = piece(C, L, S),
    atom(C), opponent(C, _),
    atom(L), kind_letter(L, _),
    square(S).

square(S) :-
    integer(S), S >= 0, S =< 63.

% board_pieces(+Pieces, -Ps): the pieces of a board as the sorted p/3
% list of a position (msort: a piece given twice stays twice, for
% position_check/2 to call `same_square`).
board_pieces(Pieces, Ps) :-
    maplist(board_piece, Pieces, Ps0),
    msort(Ps0, Ps).

board_piece(piece(C, L, S), p(C, L, S)).

%! chess_board(+Pos, -Turn, -Pieces) is det.
%
%  The board of Pos: Turn and a list of `piece(Colour, Letter, Square)`
%  (the en-passant square is left out; see chess_board/4).

chess_board(Pos, Turn, Pieces) :-
    chess_board(Pos, Turn, Pieces, _).

%! chess_board(+Pos, -Turn, -Pieces, -EP) is det.
%
%  The board of Pos in the terms of chess_position/4: Turn, a list of
%  `piece(Colour, Letter, Square)` (in the standard order of terms of
%  their `p/3` counterparts) and EP, the en-passant square or `none`
%  (set only when a legal en-passant capture exists).

chess_board(pos(Turn, Ps, EP), Turn, Pieces, EP) :-
    maplist(board_piece, Pieces, Ps).

		 /*******************************
		 *             JOBS             *
		 *******************************/

%! legal_moves_json(+Boards, -Json) is det.
%
%  Json is a JSON string: a list with, for each board of Boards, an object
%  `{"moves": [UCI, ...], "status": S}` with the legal moves sorted and S
%  one of `mate`, `stalemate`, `check`, `none`; or `{"error": Problem}`
%  for a board that is not a legal position, Problem the text (`~q`) of
%  the term board_problem/4 gives, e.g. `"kings_adjacent"`.
%
%  A board is a term `board(Turn, Pieces, EP)` as chess_position/4 takes
%  them, or `board(Turn, Pieces)` without an en-passant square; Python
%  builds them from `chess.Board`s (tests/test_chess_kb.py, `board_term`).
%  Anything else in Boards gets `{"error": "not_a_board"}`.

legal_moves_json(Boards, Json) :-
    maplist(board_moves_dict, Boards, Dicts),
    with_output_to(string(Json), json_write_dict(current_output, Dicts, [width(0)])).

board_moves_dict(Board, Dict) :-
    (   board_args(Board, Turn, Pieces, EP)
    ->  (   board_problem(Turn, Pieces, EP, Problem)
        ->  format(string(Msg), "~q", [Problem]),
            Dict = _{error: Msg}
        ;   board_position(Turn, Pieces, EP, Pos),
            findall(U, ( legal_move(Pos, M, _), move_uci(M, U) ), Us0),
            msort(Us0, Us),
            status(Pos, Status),
            Dict = _{moves: Us, status: Status}
        )
    ;   Dict = _{error: "not_a_board"}
    ).

board_args(Board, Turn, Pieces, EP) :-
    nonvar(Board),
    (   Board = board(Turn, Pieces, EP)
    ->  true
    ;   Board = board(Turn, Pieces),
        EP = none
    ).

%! count_legal_positions(+Signature, +Side, -Count) is det.
%
%  Count is the number of legal positions (legal_position/1, without an
%  en-passant square) with the material Signature (an atom such as `kqk`,
%  see material/2) and Side (`w` or `b`) to move.  Identical pieces are
%  not told apart.

count_legal_positions(Sig, Side, Count) :-
    signature_pieces(Sig, Kinds),
    aggregate_all(count,
                  ( place(Kinds, -1, [], Ps0),
                    sort(Ps0, Ps),
                    legal_position(pos(Side, Ps, none)) ),
                  Count).

signature_pieces(Sig, Pieces) :-
    atom_chars(Sig, [k|Cs]),
    append(Ws, [k|Bs], Cs), !,
    findall(w-K, member(K, Ws), W),
    findall(b-K, member(K, Bs), B),
    append([w-k|W], [b-k|B], Pieces).

% place(+ColourKinds, +PrevSquare, +Acc, -Pieces): squares for the pieces,
% identical consecutive pieces in increasing order.
place([], _, Ps, Ps).
place([C-K|CKs], Prev, Acc, Ps) :-
    between(0, 63, S),
    \+ memberchk(p(_, _, S), Acc),
    (   Acc = [p(C, K, _)|_] -> S > Prev ; true ),
    place(CKs, S, [p(C, K, S)|Acc], Ps).
