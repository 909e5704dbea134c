:- module(krk,
          [ % positions
            krk_position/5,             % +WK, +WR, +BK, +Side, -Pos
            legal_position/1,           % +Pos
            side/2, wk/2, wr/2, bk/2,   % selectors
            depth/2,                    % +Pos, -Depth
            reset_depth/2,              % +Pos, -Pos0
            to_move/2,                  % +Pos, -UsOrThem
            themtomove/1,
            ustomove/1,
            % moves
            legalmove/3,                % +Pos, ?Move, ?Pos1
            move_text/3,                % +Pos, +Move, -Text
            square_name/2,              % ?Square, ?Name
            % move constraints
            move_constraint/1,
            legal/3,
            rookmove/3,
            kingdiagfirst/3,
            checkmove/3,
            nomove/3,
            rooktight/3,
            kingtoward/3,
            % status
            outcome/2,                  % +Pos, -Result
            check/1,
            mate/1,
            stalemate/1,
            rooklost/1,
            % goal predicates of Bratko's KRK library
            their_king_edge/1,
            our_king_edge/1,
            kings_close/1,
            rookexposed/1,
            rookdivides/1,
            lpatt/1,
            okapproachedcsquare/2,
            csquare_mdist/2,
            critical_square/3,
            newroomsmaller/2,
            room/2,
            roomgt2/1,
            room_below/2,
            okorndle/2,
            okedge/1,
            boxed_on_edge/1,
            mates_in/2,                 % +Moves, +Pos
            % distances
            kingdist/3,
            manhattan/3,
            % what the domain declares (kb/README.md, "AL0 domains")
            initial/1,                  % -Pos
            start_set/1,                % ?Name
            start/2,                    % +Name, -Pos
            success/1,                  % ?Result
            perfect_reply/3,            % +Pos, -Move, -Pos1
            optimal_moves/2,            % +Pos, -N
            optimal_move/3,             % +Pos, -Move, -Pos1
            prepare/3,                  % +CacheDir, +Rebuild, -Source
            tablebase_json/1,           % -Json
            chess_material/2,           % -White, -Black
            chess_position/3,           % +Turn, +Pieces, -Pos
            chess_board/3               % +Pos, -Turn, -Pieces
          ]).
% Compile arithmetic inline (this flag is restored at the end of the file).
:- set_prolog_flag(optimise, true).
:- use_module(symmetry, [sym_square/3, least_image_symmetries/3]).

/** <module> King and rook versus king: an AL0 domain

The chess endgame King and Rook (White, "us") against King (Black,
"them"), with the move generator, the move constraints and Bratko's
predicate library for the Advice Language 0 table of "Prolog Programming
for Artificial Intelligence" (chapter "Game Playing").

## Positions

A position is the term

    krk(Side, WK, WR, BK, Depth)

  - Side is `w` or `b`, the side to move;
  - WK, WR, BK are the squares of the white king, the white rook and the
    black king, integers 0..63 numbered as python-chess does:
    Square = Rank*8 + File with file 0..7 = a..h and rank 0..7 = ranks
    1..8 (a1 = 0, h1 = 7, a8 = 56, h8 = 63);
  - WR is the atom `none` once Black has captured the rook;
  - Depth is the number of moves made since the root of the forcing tree.

A move is the term m(From, To) with two squares.

## Speed

All square relations (king neighbours, king and Manhattan distances, rook
rays and the squares between two squares on a line) are tables of facts
generated when this file is compiled, indexed on their first argument
(pairs of squares are keyed as A*64+B).  No findall/3, =../2 or nth1/3
is used on the hot paths.

## Faithfulness to the book

The goal predicates follow the book's predicate library clause by clause
(rewritten for this representation); where the book is silent (okedge/1,
positions without the rook) the choice made is documented at the
predicate.  The move generator is exact chess (rook slides are stopped by
both kings), where the book lets the rook jump over the black king.  The
order of the generated moves is the book's: king moves diagonal first
(up-right, down-right, up-left, down-left, right, left, up, down), rook
moves by increasing coordinate I = 1..8, the file move to (Rx,I) before the
rank move to (I,Ry).
*/

		 /*******************************
		 *   TABLES (generated at load)  *
		 *******************************/

% sq_file_rank(?Sq, ?File, ?Rank): coordinates of a square, 0-based.
sq_file_rank(Sq, F, R) :-
    between(0, 63, Sq),
    F is Sq mod 8,
    R is Sq // 8.

on_board(F, R) :-
    F >= 0, F =< 7, R >= 0, R =< 7.

% The book's neighbour order: diagonal first.
king_delta( 1,  1).
king_delta( 1, -1).
king_delta(-1,  1).
king_delta(-1, -1).
king_delta( 1,  0).
king_delta(-1,  0).
king_delta( 0,  1).
king_delta( 0, -1).

king_step_clause(king_step(S, S1)) :-
    sq_file_rank(S, F, R),
    king_delta(DF, DR),
    F1 is F+DF, R1 is R+DR,
    on_board(F1, R1),
    S1 is R1*8+F1.

kd_clause(kd(Key, D)) :-
    sq_file_rank(A, FA, RA),
    sq_file_rank(B, FB, RB),
    Key is A*64+B,
    D is max(abs(FA-FB), abs(RA-RB)).

md_clause(md(Key, D)) :-
    sq_file_rank(A, FA, RA),
    sq_file_rank(B, FB, RB),
    Key is A*64+B,
    D is abs(FA-FB) + abs(RA-RB).

% between_mask(+A, +B, -Mask): bit set of the squares strictly between
% two distinct squares on one file or rank.
between_mask(A, B, Mask) :-
    sq_file_rank(A, FA, RA),
    sq_file_rank(B, FB, RB),
    (   FA =:= FB
    ->  Lo is min(RA, RB)+1, Hi is max(RA, RB)-1,
        foldl_mask(Lo, Hi, FA, file, 0, Mask)
    ;   RA =:= RB
    ->  Lo is min(FA, FB)+1, Hi is max(FA, FB)-1,
        foldl_mask(Lo, Hi, RA, rank, 0, Mask)
    ).

foldl_mask(I, Hi, _, _, M, M) :-
    I > Hi, !.
foldl_mask(I, Hi, Fixed, Kind, M0, M) :-
    (   Kind == file
    ->  Sq is I*8+Fixed
    ;   Sq is Fixed*8+I
    ),
    M1 is M0 \/ (1 << Sq),
    I1 is I+1,
    foldl_mask(I1, Hi, Fixed, Kind, M1, M).

line_mask_clause(line_mask(Key, Mask)) :-
    sq_file_rank(A, FA, RA),
    sq_file_rank(B, FB, RB),
    A =\= B,
    ( FA =:= FB ; RA =:= RB ),
    Key is A*64+B,
    between_mask(A, B, Mask).

% Rook targets in the book's order: for I = 0..7, first the file move to
% (F, I), then the rank move to (I, R).
rook_step_clause(rook_step(S, T, Mask)) :-
    sq_file_rank(S, F, R),
    between(0, 7, I),
    (   I =\= R, T is I*8+F
    ;   I =\= F, T is R*8+I
    ),
    between_mask(S, T, Mask).

sq_name_clause(sq_name(S, Name)) :-
    sq_file_rank(S, F, R),
    FC is 0'a+F, RC is 0'1+R,
    atom_codes(Name, [FC, RC]).

edge_clause(edge(S)) :-
    sq_file_rank(S, F, R),
    ( F =:= 0 ; F =:= 7 ; R =:= 0 ; R =:= 7 ).

term_expansion(krk_tables, Clauses) :-
    findall(C, king_step_clause(C), C1),
    findall(C, kd_clause(C), C2),
    findall(C, md_clause(C), C3),
    findall(C, line_mask_clause(C), C4),
    findall(C, rook_step_clause(C), C5),
    findall(C, sq_name_clause(C), C6),
    findall(C, edge_clause(C), C7),
    append([C1, C2, C3, C4, C5, C6, C7], Clauses).

krk_tables.

		 /*******************************
		 *          POSITIONS           *
		 *******************************/

%! krk_position(+WK, +WR, +BK, +Side, -Pos) is det.
%
%  Pos is the position with the white king on WK, the white rook on WR
%  (or `none`), the black king on BK and Side (`w` or `b`) to move, at
%  depth 0.  Legality is not checked: see legal_position/1.

krk_position(WK, WR, BK, Side, krk(Side, WK, WR, BK, 0)).

%! legal_position(+Pos) is semidet.
%
%  True when Pos is a legal chess position: the pieces stand on distinct
%  squares of the board, the kings are not next to each other, and if
%  White is to move the black king is not attacked by the rook.

legal_position(krk(Side, W, R, B, D)) :-
    integer(D), D >= 0,
    valid_square(W), valid_square(B),
    W =\= B,
    KK is W*64+B, kd(KK, KD), KD > 1,
    (   R == none
    ->  true
    ;   valid_square(R),
        R =\= W, R =\= B
    ),
    (   Side == b
    ->  true
    ;   Side == w,
        \+ rook_attacks(R, B, W)
    ).

valid_square(S) :-
    integer(S), S >= 0, S =< 63.

%! side(+Pos, -Side) is det.
%
%  Side (`w` or `b`) is to move in Pos.

side(krk(S, _, _, _, _), S).

%! wk(+Pos, -Square) is det.
%
%  Square is the square of the white king.

wk(krk(_, W, _, _, _), W).

%! wr(+Pos, -Square) is det.
%
%  Square is the square of the white rook, or `none` once it is captured.

wr(krk(_, _, R, _, _), R).

%! bk(+Pos, -Square) is det.
%
%  Square is the square of the black king.

bk(krk(_, _, _, B, _), B).

%! depth(+Pos, -Depth) is det.
%
%  Depth is the number of moves made since the root of the forcing tree.

depth(krk(_, _, _, _, D), D).

%! reset_depth(+Pos, -Pos0) is det.
%
%  Pos0 is Pos with the depth counter set to 0.

reset_depth(krk(S, W, R, B, _), krk(S, W, R, B, 0)).

%! to_move(+Pos, -Side) is det.
%
%  Side is `us` when White is to move in Pos and `them` when Black is.

to_move(krk(S, _, _, _, _), Side) :-
    to_move_(S, Side).

to_move_(w, us).
to_move_(b, them).

%! themtomove(+Pos) is semidet.
%
%  Black ("them") is to move in Pos.

themtomove(krk(b, _, _, _, _)).

%! ustomove(+Pos) is semidet.
%
%  White ("us") is to move in Pos.

ustomove(krk(w, _, _, _, _)).

		 /*******************************
		 *       SQUARE RELATIONS       *
		 *******************************/

%! kingdist(+Sq1, +Sq2, -D) is det.
%
%  D is the distance between two squares in king moves (Chebyshev
%  distance): the book's dist/3.

kingdist(A, B, D) :-
    K is A*64+B,
    kd(K, D).

%! manhattan(+Sq1, +Sq2, -D) is det.
%
%  D is the Manhattan distance between two squares (files plus ranks):
%  the book's manhdist/3.

manhattan(A, B, D) :-
    K is A*64+B,
    md(K, D).

% rook_attacks(+R, +B, +W): the rook on R attacks square B along a
% line not blocked by the white king on W.  Fails when R is `none`.
rook_attacks(R, B, W) :-
    R \== none,
    K is R*64+B,
    line_mask(K, M),
    M /\ (1 << W) =:= 0.

%! square_name(?Square, ?Name) is semidet.
%
%  Name is the algebraic name of Square, e.g. square_name(4, e1).

square_name(S, Name) :-
    sq_name(S, Name).

		 /*******************************
		 *            MOVES             *
		 *******************************/

%! legalmove(+Pos, ?Move, ?Pos1) is nondet.
%
%  Move is a legal move of the side to move in Pos, leading to Pos1, in
%  which the other side is to move and the depth is one more.  White's
%  king moves come first (diagonal ones first), then the rook moves.  The
%  black king may capture the rook when the white king does not guard it;
%  then the rook of Pos1 is `none`.

legalmove(krk(S, W, R, B, D), M, P1) :-
    legalmove_(S, W, R, B, D, M, P1).

legalmove_(w, W, R, B, D, M, P1) :-
    D1 is D+1,
    (   wk_move(W, R, B, W1),
        M = m(W, W1),
        P1 = krk(b, W1, R, B, D1)
    ;   rook_move(W, R, B, R1),
        M = m(R, R1),
        P1 = krk(b, W, R1, B, D1)
    ).
legalmove_(b, W, R, B, D, m(B, B1), krk(w, W, R1, B1, D1)) :-
    D1 is D+1,
    bk_move(W, R, B, B1, R1).

% wk_move(+W, +R, +B, -W1): a legal white king move.
wk_move(W, R, B, W1) :-
    king_step(W, W1),
    W1 \== R,
    K is W1*64+B,
    kd(K, KD),
    KD > 1.

% rook_move(+W, +R, +B, -R1): a legal rook move (slides stopped by both
% kings).
rook_move(W, R, B, R1) :-
    R \== none,
    Occ is (1 << W) \/ (1 << B),
    rook_step(R, R1, Mask),
    R1 =\= W, R1 =\= B,
    Mask /\ Occ =:= 0.

% bk_move(+W, +R, +B, -B1, -R1): a legal black king move; R1 is the rook
% after the move (`none` when it was captured).
bk_move(W, R, B, B1, R1) :-
    king_step(B, B1),
    K is W*64+B1,
    kd(K, KD),
    KD > 1,
    (   B1 == R
    ->  KR is W*64+R,               % capture: only an undefended rook
        kd(KR, KDR),
        KDR > 1,
        R1 = none
    ;   R1 = R,
        \+ rook_attacks(R, B1, W)
    ).

%! move_text(+Pos, +Move, -Text) is det.
%
%  Text is Move in UCI notation as an atom, e.g. 'e1e2'.

move_text(_Pos, m(From, To), Text) :-
    sq_name(From, A),
    sq_name(To, B),
    atom_concat(A, B, Text).

		 /*******************************
		 *       MOVE CONSTRAINTS       *
		 *******************************/

%! move_constraint(?Name) is nondet.
%
%  Name is a move constraint that advice tables may use; each is a
%  predicate Name(+Pos, ?Move, ?Pos1).

move_constraint(legal).
move_constraint(rookmove).
move_constraint(kingdiagfirst).
move_constraint(checkmove).
move_constraint(nomove).
move_constraint(rooktight).
move_constraint(kingtoward).

%! legal(+Pos, ?Move, ?Pos1) is nondet.
%
%  Every legal move of the side to move: the same as legalmove/3.

legal(Pos, M, P1) :-
    legalmove(Pos, M, P1).

%! rookmove(+Pos, ?Move, ?Pos1) is nondet.
%
%  The legal moves of the white rook (White to move), in the book's order.

rookmove(krk(w, W, R, B, D), m(R, R1), krk(b, W, R1, B, D1)) :-
    rook_move(W, R, B, R1),
    D1 is D+1.

%! kingdiagfirst(+Pos, ?Move, ?Pos1) is nondet.
%
%  The legal moves of the white king (White to move), diagonal moves
%  first.

kingdiagfirst(krk(w, W, R, B, D), m(W, W1), krk(b, W1, R, B, D1)) :-
    wk_move(W, R, B, W1),
    D1 is D+1.

%! checkmove(+Pos, ?Move, ?Pos1) is nondet.
%
%  The legal White moves that give check: first the rook moves that
%  check (in the book's rook order), then the king moves that uncover a
%  check by the rook.  (The book's checkmove considers rook moves only;
%  a discovered check can never be mate in KRK, so the two agree on
%  which mates are found.)

checkmove(krk(w, W, R, B, D), M, krk(b, W1, R1, B, D1)) :-
    R \== none,
    D1 is D+1,
    (   rook_move(W, R, B, R1),
        rook_attacks(R1, B, W),
        W1 = W,
        M = m(R, R1)
    ;   K is R*64+B,
        line_mask(K, Mask),
        Mask /\ (1 << W) =\= 0,     % the king stands in the rook's line
        wk_move(W, R, B, W1),
        Mask /\ (1 << W1) =:= 0,    % and leaves it
        R1 = R,
        M = m(W, W1)
    ).

%! rooktight(+Pos, ?Move, ?Pos1) is nondet.
%
%  The legal moves of the white rook (White to move), the tightest cut
%  first: ordered by the room they leave the black king, smallest first
%  (ties in the book's rook order).

rooktight(krk(w, W, R, B, D), m(R, R1), krk(b, W, R1, B, D1)) :-
    D1 is D+1,
    findall(Room-R2,
            ( rook_move(W, R, B, R2),
              room(krk(b, W, R2, B, D1), Room) ),
            Pairs),
    keysort(Pairs, Sorted),
    member(_-R1, Sorted).

%! kingtoward(+Pos, ?Move, ?Pos1) is nondet.
%
%  The legal moves of the white king (White to move), those that end
%  nearest to the black king first: ordered by the distance in king moves
%  between the kings after the move, then by the Manhattan distance
%  (ties in the order of kingdiagfirst/3).

kingtoward(krk(w, W, R, B, D), m(W, W1), krk(b, W1, R, B, D1)) :-
    D1 is D+1,
    findall(Key-W2,
            ( wk_move(W, R, B, W2),
              K is W2*64+B, kd(K, KD), md(K, MD),
              Key is KD*16+MD ),
            Pairs),
    keysort(Pairs, Sorted),
    member(_-W1, Sorted).

%! nomove(+Pos, ?Move, ?Pos1) is failure.
%
%  Admits no move.

nomove(_, _, _) :-
    fail.

		 /*******************************
		 *            STATUS            *
		 *******************************/

%! outcome(+Pos, -Result) is semidet.
%
%  The game is over at Pos: Result is `rook_lost` once Black has taken
%  the rook, `mate` when Black is checkmated, `stalemate` when Black,
%  to move, has no legal move and is not in check.

outcome(krk(_, _, none, _, _), rook_lost) :- !.
outcome(Pos, mate) :- mate(Pos), !.
outcome(Pos, stalemate) :- stalemate(Pos).

%! check(+Pos) is semidet.
%
%  Black is to move and its king is attacked by the rook.

check(krk(b, W, R, B, _)) :-
    rook_attacks(R, B, W).

%! mate(+Pos) is semidet.
%
%  Black is to move, in check, and has no legal move: checkmate.

mate(krk(b, W, R, B, _)) :-
    rook_attacks(R, B, W),
    \+ bk_move(W, R, B, _, _).

%! stalemate(+Pos) is semidet.
%
%  Black is to move, not in check, and has no legal move.

stalemate(krk(b, W, R, B, _)) :-
    \+ rook_attacks(R, B, W),
    \+ bk_move(W, R, B, _, _).

%! rooklost(+Pos) is semidet.
%
%  The rook is lost: it has been captured, or (as in the book) Black is
%  to move, the black king stands next to the rook and the white king
%  does not (so the rook is attacked and not guarded).

rooklost(krk(S, W, R, B, _)) :-
    (   R == none
    ->  true
    ;   S == b,
        KB is B*64+R, kd(KB, DB), DB =:= 1,
        KW is W*64+R, kd(KW, DW), DW > 1
    ).

		 /*******************************
		 *       GOAL PREDICATES        *
		 *******************************/

%! their_king_edge(+Pos) is semidet.
%
%  The black king stands on the edge of the board.

their_king_edge(krk(_, _, _, B, _)) :-
    edge(B).

%! our_king_edge(+Pos) is semidet.
%
%  The white king stands on the edge of the board.

our_king_edge(krk(_, W, _, _, _)) :-
    edge(W).

%! okedge(+Pos) is semidet.
%
%  "Our king (on the) edge": the white king stands on the edge of the
%  board, the same as our_king_edge/1.
%
%  The book's table uses `okedge` in the keeproom advice
%  (`roomgt2 or not okedge`) but its predicate library does not define
%  it, so there `not okedge` is always true.  In the library's names the
%  prefix "ok" reads "our king" (okapproachedcsquare, okcsquaremdist,
%  okorndle: "our king - rook: no larger distance"), and keeproom's
%  `roomgt2 or not okedge` mirrors approach's
%  `roomgt2 or not our_king_edge`; hence this definition.  A table that
%  wants the book's behaviour can drop the term.

okedge(Pos) :-
    our_king_edge(Pos).

%! kings_close(+Pos) is semidet.
%
%  The kings are fewer than 4 king moves apart.

kings_close(krk(_, W, _, B, _)) :-
    K is W*64+B,
    kd(K, D),
    D < 4.

%! rookexposed(+Pos) is semidet.
%
%  The rook is exposed: the black king is nearer to the rook than the
%  white king can defend it.  As the book, with distances in king moves:
%  with White to move, dist(WK,R) > dist(BK,R) + 1; with Black to move,
%  dist(WK,R) > dist(BK,R).  Also true when the rook has been captured.

rookexposed(krk(S, W, R, B, _)) :-
    (   R == none
    ->  true
    ;   KW is W*64+R, kd(KW, D1),
        KB is B*64+R, kd(KB, D2),
        (   S == w
        ->  D1 > D2+1
        ;   D1 > D2
        )
    ).

%! rookdivides(+Pos) is semidet.
%
%  The rook separates the kings: its file lies strictly between the
%  kings' files, or its rank strictly between the kings' ranks.

rookdivides(krk(_, W, R, B, _)) :-
    R \== none,
    (   ordered(W /\ 7, R /\ 7, B /\ 7)
    ->  true
    ;   ordered(W >> 3, R >> 3, B >> 3)
    ).

ordered(A, B, C) :-
    (   A < B
    ->  B < C
    ;   A > B,
        B > C
    ).

%! lpatt(+Pos) is semidet.
%
%  The L-pattern of the book: the Manhattan distance between the kings
%  is 2 and between the rook and the black king is 3.

lpatt(krk(_, W, R, B, _)) :-
    R \== none,
    KW is W*64+B, md(KW, 2),
    KR is R*64+B, md(KR, 3).

%! critical_square(+Pos, -File, -Rank) is semidet.
%
%  (File, Rank), 0-based and possibly off the board, is the critical
%  square: the rook's diagonal neighbour toward the black king (when the
%  black king is on the rook's file or rank, the book takes the side of
%  the higher coordinate).  Fails when the rook is captured.

critical_square(krk(_, _, R, B, _), CF, CR) :-
    R \== none,
    RF is R /\ 7, RR is R >> 3,
    (   B /\ 7 < RF -> CF is RF-1 ; CF is RF+1 ),
    (   B >> 3 < RR -> CR is RR-1 ; CR is RR+1 ).

%! csquare_mdist(+Pos, -D) is semidet.
%
%  D is the Manhattan distance between the white king and the critical
%  square (the book's okcsquaremdist/2).

csquare_mdist(Pos, D) :-
    critical_square(Pos, CF, CR),
    Pos = krk(_, W, _, _, _),
    D is abs((W /\ 7)-CF) + abs((W >> 3)-CR).

%! okapproachedcsquare(+Pos, +Root) is semidet.
%
%  "Our king approached the critical square": the Manhattan distance
%  between the white king and the critical square is smaller in Pos than
%  in Root (exactly the book's definition: a strict decrease, with no
%  exception for a king that is already close).

okapproachedcsquare(Pos, Root) :-
    csquare_mdist(Pos, D1),
    csquare_mdist(Root, D2),
    D1 < D2.

%! room(+Pos, -Room) is det.
%
%  Room is the area of the rectangle of the board that the rook cuts off
%  for the black king: the files on the king's side of the rook's file
%  times the ranks on the king's side of the rook's rank.  64 when the
%  black king stands on the rook's file or rank, or the rook is captured.

room(krk(_, _, R, B, _), Room) :-
    (   R == none
    ->  Room = 64
    ;   RF is R /\ 7, RR is R >> 3,
        BF is B /\ 7, BR is B >> 3,
        (   ( BF =:= RF ; BR =:= RR )
        ->  Room = 64
        ;   ( BF < RF -> SX = RF ; SX is 7-RF ),
            ( BR < RR -> SY = RR ; SY is 7-RR ),
            Room is SX*SY
        )
    ).

%! newroomsmaller(+Pos, +Root) is semidet.
%
%  The room of the black king is smaller in Pos than in Root.

newroomsmaller(Pos, Root) :-
    room(Pos, Room),
    room(Root, RootRoom),
    Room < RootRoom.

%! boxed_on_edge(+Pos) is semidet.
%
%  The rook shuts the black king in on the edge: the rectangle of
%  room/2 is one line wide (the black king is on the a- or h-file behind
%  a rook on the b- or g-file, or on the 1st or 8th rank behind a rook on
%  the 2nd or 7th rank).  Fails when the black king stands on the rook's
%  file or rank, or the rook is captured.

boxed_on_edge(krk(_, _, R, B, _)) :-
    R \== none,
    RF is R /\ 7, RR is R >> 3,
    BF is B /\ 7, BR is B >> 3,
    BF =\= RF, BR =\= RR,
    (   BF < RF -> SX = RF ; SX is 7-RF ),
    (   BR < RR -> SY = RR ; SY is 7-RR ),
    ( SX =:= 1 ; SY =:= 1 ), !.

%! roomgt2(+Pos) is semidet.
%
%  The room of the black king is larger than 2 squares.

roomgt2(Pos) :-
    room(Pos, Room),
    Room > 2.

%! room_below(+N, +Pos) is semidet.
%
%  The room of the black king is smaller than N (a goal with a literal
%  argument, e.g. `room_below(3)` in a table).

room_below(N, Pos) :-
    room(Pos, Room),
    Room < N.

%! okorndle(+Pos, +Root) is semidet.
%
%  "Our king - rook: no distance larger than at the root": the distance
%  in king moves between the white king and the rook in Pos is not
%  larger than in Root.  This is the book's definition (it compares the
%  king with its own rook, not with the black king).  Fails when the rook
%  is captured.

okorndle(krk(_, W, R, _, _), krk(_, W0, R0, _, _)) :-
    R \== none, R0 \== none,
    K is W*64+R, kd(K, D),
    K0 is W0*64+R0, kd(K0, D0),
    D =< D0.


%! mates_in(+Moves, +Pos) is semidet.
%
%  White, to move at Pos, mates in at most Moves (1 to 11) moves against
%  every defence: a search of the game tree (2 * Moves - 1 plies), not
%  the tablebase.  Every answer of the search, at every level, is
%  remembered for the session (in one array of 11 * 64^3 entries, 23 MB),
%  so that a proof, which asks again and again, searches each position
%  once.

mates_in(N, krk(w, W, R, B, _)) :-
    deepest_mate_search(Deepest),
    must_be(between(1, Deepest), N),
    R \== none,
    mate_within(N, W, R, B).

% deepest_mate_search(-Moves): the most moves mates_in/2 searches
% (krk_plus.adv's mating net asks for all of them).
deepest_mate_search(11).

% mate_within(+N, +W, +R, +B): mates_in/2 of krk(w, W, R, B, _),
% remembered: argument I of the global term `krk_mates` is 1 (mate in
% N), 2 (no mate in N) or unbound (not asked yet).
mate_within(N, W, R, B) :-
    mates_known(Known),
    mate_index(N, W, R, B, I),
    arg(I, Known, Found0),
    (   var(Found0)
    ->  (   known_by_neighbour(N, W, R, B, Known, Found)
        ->  true
        ;   mate_searched(N, W, R, B)
        ->  Found = 1
        ;   Found = 2
        ),
        nb_setarg(I, Known, Found)
    ;   Found = Found0
    ),
    Found == 1.

% mate_index(+N, +W, +R, +B, -I): where the answer for mate in N at W, R,
% B is kept: the same place for the position's eight images in the
% board's symmetries, which have the same answer, so that a search
% answers each class of them once (a fresh mates_in(11) from Ke1 Rb1 /
% Ke5 took 10.1 s with a place for each position, 3.8 to 5.0 s with one
% for each class).
mate_index(N, W, R, B, I) :-
    least_image_key(W, R, B, Key),
    I is (N - 1)*262144 + Key + 1.

% least_image_key(+W, +R, +B, -Key): the least (W1*64 + R1)*64 + B1 over
% the images W1, R1, B1 of the three squares in the eight symmetries;
% only the one or two symmetries that take W to its least image can
% give it.
least_image_key(W, R, B, Key) :-
    least_image_symmetries(W, G1, G2),
    image_key(G1, W, R, B, Key1),
    (   G2 == G1
    ->  Key = Key1
    ;   image_key(G2, W, R, B, Key2),
        Key is min(Key1, Key2)
    ).

image_key(G, W, R, B, Key) :-
    sym_square(G, W, W1),
    sym_square(G, R, R1),
    sym_square(G, B, B1),
    Key is (W1*64 + R1)*64 + B1.

% known_no_mate(+N, +W, +R, +B): no mate in N is already remembered.
known_no_mate(N, W, R, B) :-
    mates_known(Known),
    mate_index(N, W, R, B, I),
    arg(I, Known, Found),
    Found == 2.

% known_by_neighbour(+N, +W, +R, +B, +Known, -Found): the answer for
% mate in N follows from one already known for the same position: mate
% in N - 1 is mate in N, and no mate in N + 1 is no mate in N.
known_by_neighbour(N, W, R, B, Known, 1) :-
    N > 1,
    Below is N - 1,
    mate_index(Below, W, R, B, I),
    arg(I, Known, Found),
    Found == 1,
    !.
known_by_neighbour(N, W, R, B, Known, 2) :-
    deepest_mate_search(Deepest),
    N < Deepest,
    Above is N + 1,
    mate_index(Above, W, R, B, I),
    arg(I, Known, Found),
    Found == 2.

mates_known(Known) :-
    (   nb_current(krk_mates, Known0)
    ->  Known = Known0
    ;   deepest_mate_search(Deepest),
        Size is Deepest * 64 * 64 * 64,
        functor(Empty, mates, Size),
        nb_setval(krk_mates, Empty),
        nb_getval(krk_mates, Known)
    ).

% mate_searched(+N, +W, +R, +B): White has a move that mates, or after
% which Black has moves, none of which takes the rook, and each allows
% mate in N - 1.  A reply already remembered to escape is looked for
% before any reply is searched: a fresh mates_in(11) from Ke1 Rb1 / Ke5
% took 9.4 s without that and without known_by_neighbour/6, 4.2 s with
% both.
mate_searched(N, W, R, B) :-
    legalmove_(w, W, R, B, 0, _, krk(b, W1, R1, B1, _)),
    (   bk_move(W1, R1, B1, _, _)
    ->  N > 1,
        N1 is N - 1,
        \+ ( bk_move(W1, R1, B1, B2, R2),
             ( R2 == none ; known_no_mate(N1, W1, R2, B2) ) ),
        forall(bk_move(W1, R1, B1, B2, R2),
               mate_within(N1, W1, R2, B2))
    ;   rook_attacks(R1, B1, W1)
    ),
    !.

		 /*******************************
		 *   WHAT THE DOMAIN DECLARES   *
		 *******************************/

% The perfect defender, the optimal counts and the start positions come
% from the tablebase (krk_tablebase.pl, loaded at the end of this file).

%! initial(-Pos) is det.
%
%  The demonstration's start: white king e1, rook a1, black king e5,
%  White to move.

initial(krk(w, 4, 0, 36, 0)).

%! start_set(?Name) is nondet.
%
%  The sets of start positions for verification: `canonical` (the
%  default: one White-to-move position per symmetry class, 21,959) and
%  `all` (every White-to-move position, 175,168).

start_set(canonical).
start_set(all).

%! start(+Name, -Pos) is nondet.
%
%  Pos is a start position of the set Name (needs prepare/3 first).

start(Set, Pos) :-
    krk_tablebase:start_position(Set, Pos).

%! success(?Result) is nondet.
%
%  Checkmate is the only success.

success(mate).

%! perfect_reply(+Pos, -Move, -Pos1) is semidet.
%
%  The tablebase's longest resistance (krk_tablebase:perfect_reply/3).

perfect_reply(Pos, Move, Pos1) :-
    krk_tablebase:perfect_reply(Pos, Move, Pos1).

%! optimal_moves(+Pos, -N) is semidet.
%
%  N is White's number of moves to mate from Pos with best play on both
%  sides; fails for a draw.

optimal_moves(Pos, N) :-
    krk_tablebase:dtm(Pos, N),
    integer(N).

%! optimal_move(+Pos, -Move, -Pos1) is semidet.
%
%  A White move on a shortest mate (krk_tablebase:optimal_move/3).

optimal_move(Pos, Move, Pos1) :-
    krk_tablebase:optimal_move(Pos, Move, Pos1).

%! prepare(+CacheDir, +Rebuild, -Source) is det.
%
%  Loads the tablebase from CacheDir, or builds it (and saves it there)
%  when it is missing, corrupt or Rebuild is `true`. Source is
%  `session`, `cache` or `built`.

prepare(Dir, Rebuild, Source) :-
    krk_tablebase:prepare_cache(Dir, Rebuild, Source).

%! tablebase_json(-Json) is det.
%
%  Figures of the tablebase as a JSON string (krk_tablebase:stats_json/1).

tablebase_json(Json) :-
    krk_tablebase:stats_json(Json).

%! chess_material(-White, -Black) is det.
%
%  White has king and rook, Black the king.

chess_material('KR', 'K').

%! chess_position(+Turn, +Pieces, -Pos) is semidet.
%
%  Pos is the position of a board with exactly a white king and rook and
%  a black king (Pieces as piece(Colour, Letter, Square)), Turn to move.

chess_position(Turn, Pieces, krk(Turn, WK, WR, BK, 0)) :-
    memberchk(Turn, [w, b]),
    msort(Pieces, [piece(b, k, BK), piece(w, k, WK), piece(w, r, WR)]),
    legal_position(krk(Turn, WK, WR, BK, 0)).

%! chess_board(+Pos, -Turn, -Pieces) is det.
%
%  The board of Pos: its pieces as piece(Colour, Letter, Square).

chess_board(krk(Turn, WK, WR, BK, _), Turn, Pieces) :-
    (   WR == none
    ->  Pieces = [piece(w, k, WK), piece(b, k, BK)]
    ;   Pieces = [piece(w, k, WK), piece(w, r, WR), piece(b, k, BK)]
    ).

% Loaded last: krk_tablebase.pl imports this module, and an import of a
% predicate not yet defined here would be resolved through the user
% module (chess.pl's chess_position/3 when a session has loaded it).
:- use_module(krk_tablebase, []).
