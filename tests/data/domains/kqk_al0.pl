:- module(kqk_al0,
          [ % the AL0 interface (kb/README.md, "AL0 domains")
            legalmove/3,                % +Pos, ?Move, -Pos1
            to_move/2,                  % +Pos, -Side
            depth/2,                    % +Pos, -Depth
            reset_depth/2,              % +Pos, -Pos0
            outcome/2,                  % +Pos, -Result
            move_text/3,                % +Pos, +Move, -Text
            move_constraint/1,          % ?Name
            % move constraints
            legal/3,                    % +Pos, ?Move, -Pos1
            queenmove/3,                % +Pos, ?Move, -Pos1
            kingmove/3,                 % +Pos, ?Move, -Pos1
            checkmove/3,                % +Pos, ?Move, -Pos1
            % status and goal predicates
            check/1,                    % +Pos
            mate/1,                     % +Pos
            stalemate/1,                % +Pos
            queenlost/1,                % +Pos
            their_king_edge/1,          % +Pos
            themtomove/1,               % +Pos
            % what the domain declares
            initial/1,                  % -Pos
            start_set/1,                % ?Name
            start/2,                    % +Name, -Pos
            success/1,                  % ?Result
            chess_material/2,           % -White, -Black
            chess_position/3,           % +Turn, +Pieces, -Pos
            chess_board/3               % +Pos, -Turn, -Pieces
          ]).

/** <module> King and queen versus king: a small chess AL0 domain

A test domain written as a new user would write one: the chess endgame
King and Queen (White, "us") against King (Black, "them"), with exact
move generation, a few move constraints and goal predicates, and the
chess declarations of kb/README.md ("AL0 domains"). There is no
perfect_reply/3: the engine's search defender is used.

## Positions

A position is the term

    kqk(Side, WK, WQ, BK, Depth)

  - Side is `w` or `b`, the side to move (`w` is us);
  - WK, WQ, BK are the squares of the white king, the white queen and
    the black king, integers 0..63 numbered as python-chess does:
    Square = Rank*8 + File (a1 = 0, b1 = 1, ..., h8 = 63);
  - WQ is the atom `none` once Black has captured the queen;
  - Depth is the number of moves made since the root of the forcing tree.

A move is the term m(From, To); it is written for people as a UCI
string ("e1e2").

## Tables

King steps, king distances and the queen's rays and lines are facts
generated when this file is compiled (term_expansion/2 of the atom
`kqk_tables`), indexed on their first argument; pairs of squares are
keyed as A*64+B.
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

direction( 1,  1).
direction( 1, -1).
direction(-1,  1).
direction(-1, -1).
direction( 1,  0).
direction(-1,  0).
direction( 0,  1).
direction( 0, -1).

% king_step(S, S1): S1 is next to S.
king_step_clause(king_step(S, S1)) :-
    sq_file_rank(S, F, R),
    direction(DF, DR),
    F1 is F+DF, R1 is R+DR,
    on_board(F1, R1),
    S1 is R1*8+F1.

% kd(Key, D): D is the king distance between A and B, Key = A*64+B.
kd_clause(kd(Key, D)) :-
    sq_file_rank(A, FA, RA),
    sq_file_rank(B, FB, RB),
    Key is A*64+B,
    D is max(abs(FA-FB), abs(RA-RB)).

% queen_ray(S, Squares): the squares of one ray from S, nearest first
% (eight clauses per square at most, one per direction).
queen_ray_clause(queen_ray(S, Squares)) :-
    sq_file_rank(S, F, R),
    direction(DF, DR),
    ray(F, R, DF, DR, Squares),
    Squares \== [].

ray(F, R, DF, DR, Squares) :-
    F1 is F+DF, R1 is R+DR,
    (   on_board(F1, R1)
    ->  S1 is R1*8+F1,
        Squares = [S1|Rest],
        ray(F1, R1, DF, DR, Rest)
    ;   Squares = []
    ).

% queen_line(Key, Mask): A and B (Key = A*64+B) are distinct squares on
% one file, rank or diagonal; Mask is the bit set of the squares
% strictly between them.
queen_line_clause(queen_line(Key, Mask)) :-
    sq_file_rank(A, F, R),
    direction(DF, DR),
    ray(F, R, DF, DR, Squares),
    append(Between, [B|_], Squares),
    foldl([S, M0, M]>>(M is M0 \/ (1 << S)), Between, 0, Mask),
    Key is A*64+B.

sq_name_clause(sq_name(S, Name)) :-
    sq_file_rank(S, F, R),
    FC is 0'a+F, RC is 0'1+R,
    atom_codes(Name, [FC, RC]).

edge_clause(edge(S)) :-
    sq_file_rank(S, F, R),
    ( F =:= 0 ; F =:= 7 ; R =:= 0 ; R =:= 7 ).

term_expansion(kqk_tables, Clauses) :-
    findall(C, king_step_clause(C), C1),
    findall(C, kd_clause(C), C2),
    findall(C, queen_ray_clause(C), C3),
    findall(C, queen_line_clause(C), C4),
    findall(C, sq_name_clause(C), C5),
    findall(C, edge_clause(C), C6),
    append([C1, C2, C3, C4, C5, C6], Clauses).

kqk_tables.

		 /*******************************
		 *       SQUARE RELATIONS       *
		 *******************************/

% kingdist(+A, +B, -D): the distance between two squares in king moves.
kingdist(A, B, D) :-
    K is A*64+B,
    kd(K, D).

% queen_attacks(+Q, +T, +W): the queen on Q attacks square T along a
% line not blocked by the white king on W. Fails when Q is `none`. The
% black king never blocks: it is either on T or moving away from it.
queen_attacks(Q, T, W) :-
    Q \== none,
    K is Q*64+T,
    queen_line(K, Mask),
    Mask /\ (1 << W) =:= 0.

		 /*******************************
		 *         AL0 INTERFACE        *
		 *******************************/

%!  legalmove(+Pos, ?Move, -Pos1) is nondet.
%
%   Move is a legal move of the side to move in Pos, leading to Pos1, in
%   which the other side is to move and the depth is one more. White's
%   king moves come first, then the queen's (ray by ray, nearest square
%   first). The black king may capture an undefended queen; the queen of
%   Pos1 is then `none`.

legalmove(kqk(w, W, Q, B, D), M, P1) :-
    D1 is D+1,
    (   wk_move(W, Q, B, W1),
        M = m(W, W1),
        P1 = kqk(b, W1, Q, B, D1)
    ;   queen_move(W, Q, B, Q1),
        M = m(Q, Q1),
        P1 = kqk(b, W, Q1, B, D1)
    ).
legalmove(kqk(b, W, Q, B, D), m(B, B1), kqk(w, W, Q1, B1, D1)) :-
    D1 is D+1,
    bk_move(W, Q, B, B1, Q1).

% wk_move(+W, +Q, +B, -W1): a legal white king move (not onto the queen,
% not next to the black king).
wk_move(W, Q, B, W1) :-
    king_step(W, W1),
    W1 \== Q,
    kingdist(W1, B, KD),
    KD > 1.

% queen_move(+W, +Q, +B, -Q1): a legal queen move (slides stopped by
% both kings).
queen_move(W, Q, B, Q1) :-
    Q \== none,
    queen_ray(Q, Squares),
    slide(Squares, W, B, Q1).

slide([S|Ss], W, B, T) :-
    S =\= W,
    S =\= B,
    (   T = S
    ;   slide(Ss, W, B, T)
    ).

% bk_move(+W, +Q, +B, -B1, -Q1): a legal black king move; Q1 is the
% queen after it (`none` when it was captured).
bk_move(W, Q, B, B1, Q1) :-
    king_step(B, B1),
    kingdist(W, B1, KD),
    KD > 1,
    (   B1 == Q
    ->  kingdist(W, Q, KQ),         % capture: only an undefended queen
        KQ > 1,
        Q1 = none
    ;   Q1 = Q,
        \+ queen_attacks(Q, B1, W)
    ).

%!  to_move(+Pos, -Side) is det.
%
%   Side is `us` when White is to move in Pos and `them` when Black is.

to_move(kqk(S, _, _, _, _), Side) :-
    to_move_(S, Side).

to_move_(w, us).
to_move_(b, them).

%!  depth(+Pos, -Depth) is det.
%
%   Depth is the number of moves made since the root of the forcing tree.

depth(kqk(_, _, _, _, D), D).

%!  reset_depth(+Pos, -Pos0) is det.
%
%   Pos0 is Pos with the depth counter set to 0.

reset_depth(kqk(S, W, Q, B, _), kqk(S, W, Q, B, 0)).

%!  outcome(+Pos, -Result) is semidet.
%
%   The game is over at Pos: Result is `queen_lost` once Black has taken
%   the queen, `mate` when Black is checkmated, `stalemate` when Black,
%   to move, has no legal move and is not in check.

outcome(kqk(_, _, none, _, _), queen_lost) :- !.
outcome(Pos, mate) :- mate(Pos), !.
outcome(Pos, stalemate) :- stalemate(Pos).

%!  move_text(+Pos, +Move, -Text) is det.
%
%   Text is Move in UCI notation as a string, e.g. "e1e2".

move_text(_Pos, m(From, To), Text) :-
    sq_name(From, A),
    sq_name(To, B),
    format(string(Text), "~w~w", [A, B]).

%!  move_constraint(?Name) is nondet.
%
%   Name is a move constraint that advice tables may use; each is a
%   predicate Name(+Pos, ?Move, -Pos1).

move_constraint(legal).
move_constraint(queenmove).
move_constraint(kingmove).
move_constraint(checkmove).

		 /*******************************
		 *       MOVE CONSTRAINTS       *
		 *******************************/

%!  legal(+Pos, ?Move, -Pos1) is nondet.
%
%   Every legal move of the side to move: the same as legalmove/3.

legal(Pos, M, P1) :-
    legalmove(Pos, M, P1).

%!  queenmove(+Pos, ?Move, -Pos1) is nondet.
%
%   The legal moves of the white queen (White to move).

queenmove(kqk(w, W, Q, B, D), m(Q, Q1), kqk(b, W, Q1, B, D1)) :-
    queen_move(W, Q, B, Q1),
    D1 is D+1.

%!  kingmove(+Pos, ?Move, -Pos1) is nondet.
%
%   The legal moves of the white king (White to move).

kingmove(kqk(w, W, Q, B, D), m(W, W1), kqk(b, W1, Q, B, D1)) :-
    wk_move(W, Q, B, W1),
    D1 is D+1.

%!  checkmove(+Pos, ?Move, -Pos1) is nondet.
%
%   The legal queen moves (White to move) that give check. King moves
%   that uncover a check by the queen are not included.

checkmove(kqk(w, W, Q, B, D), m(Q, Q1), kqk(b, W, Q1, B, D1)) :-
    queen_move(W, Q, B, Q1),
    queen_attacks(Q1, B, W),
    D1 is D+1.

		 /*******************************
		 *   STATUS AND GOAL PREDICATES  *
		 *******************************/

%!  check(+Pos) is semidet.
%
%   Black is to move and its king is attacked by the queen.

check(kqk(b, W, Q, B, _)) :-
    queen_attacks(Q, B, W).

%!  mate(+Pos) is semidet.
%
%   Black is to move, in check, and has no legal move: checkmate.

mate(kqk(b, W, Q, B, _)) :-
    queen_attacks(Q, B, W),
    \+ bk_move(W, Q, B, _, _).

%!  stalemate(+Pos) is semidet.
%
%   Black is to move, not in check, and has no legal move.

stalemate(kqk(b, W, Q, B, _)) :-
    \+ queen_attacks(Q, B, W),
    \+ bk_move(W, Q, B, _, _).

%!  queenlost(+Pos) is semidet.
%
%   Black has captured the queen.

queenlost(kqk(_, _, none, _, _)).

%!  their_king_edge(+Pos) is semidet.
%
%   The black king stands on the edge of the board.

their_king_edge(kqk(_, _, _, B, _)) :-
    edge(B).

%!  themtomove(+Pos) is semidet.
%
%   Black ("them") is to move in Pos.

themtomove(kqk(b, _, _, _, _)).

		 /*******************************
		 *   WHAT THE DOMAIN DECLARES   *
		 *******************************/

%!  initial(-Pos) is det.
%
%   The first position of the `near_mate` set: white king b6, queen
%   b1, black king a8, White to move (mate in 2).

initial(Pos) :-
    once(start(near_mate, Pos)).

%!  start_set(?Name) is nondet.
%
%   The one set of start positions: `near_mate`.

start_set(near_mate).

%!  start(+Name, -Pos) is nondet.
%
%   Pos is a start position of the set Name, White to move at depth 0.
%   `near_mate`: the black king on a8, the white king on b6, c7, c6 or
%   b5, the queen on the first rank (a1 .. h1), wherever the position is
%   legal and White mates in at most 2 moves: 24 positions, 12 of them
%   mates in 1. In that order (white king, then the queen's square).

start(near_mate, Pos) :-
    sq(a8, BK),
    member(WKName, [b6, c7, c6, b5]),
    sq(WKName, WK),
    between(0, 7, WQ),
    Pos = kqk(w, WK, WQ, BK, 0),
    legal_position(Pos),
    mate_within_2(Pos).

sq(Name, S) :-
    sq_name(S, Name).

% mate_within_2(+Pos): White, to move, mates in one or two moves against
% every defence.
mate_within_2(Pos) :-
    mate_in_1(Pos),
    !.
mate_within_2(Pos) :-
    legalmove(Pos, _, Pos1),
    \+ stalemate(Pos1),
    legalmove(Pos1, _, _),
    forall(legalmove(Pos1, _, Pos2), mate_in_1(Pos2)),
    !.

mate_in_1(Pos) :-
    legalmove(Pos, _, Pos1),
    mate(Pos1),
    !.

%!  success(?Result) is nondet.
%
%   Checkmate is the only success.

success(mate).

%!  chess_material(-White, -Black) is det.
%
%   White has king and queen, Black the king.

chess_material('KQ', 'K').

%!  chess_position(+Turn, +Pieces, -Pos) is semidet.
%
%   Pos is the position of a board with exactly a white king and queen
%   and a black king (Pieces as piece(Colour, Letter, Square)), Turn to
%   move, at depth 0. Fails for any other material and for an illegal
%   position (pieces on one square, kings next to each other, the black
%   king in check with White to move).

chess_position(Turn, Pieces, Pos) :-
    memberchk(Turn, [w, b]),
    msort(Pieces, [piece(b, k, BK), piece(w, k, WK), piece(w, q, WQ)]),
    Pos = kqk(Turn, WK, WQ, BK, 0),
    legal_position(Pos).

% legal_position(+Pos): the pieces stand on distinct squares, the kings
% are not next to each other, and with White to move the black king is
% not in check.
legal_position(kqk(Side, W, Q, B, _)) :-
    valid_square(W), valid_square(Q), valid_square(B),
    W =\= Q, W =\= B, Q =\= B,
    kingdist(W, B, KD), KD > 1,
    (   Side == b
    ->  true
    ;   \+ queen_attacks(Q, B, W)
    ).

valid_square(S) :-
    integer(S), S >= 0, S =< 63.

%!  chess_board(+Pos, -Turn, -Pieces) is det.
%
%   The board of Pos: its pieces as piece(Colour, Letter, Square).

chess_board(kqk(Turn, WK, WQ, BK, _), Turn, Pieces) :-
    (   WQ == none
    ->  Pieces = [piece(w, k, WK), piece(b, k, BK)]
    ;   Pieces = [piece(w, k, WK), piece(w, q, WQ), piece(b, k, BK)]
    ).
