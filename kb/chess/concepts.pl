:- module(chess_concepts,
          [ edge_distance/2,            % +Square, -Distance
            corner_distance/3,          % +Square, +Corner, -Distance
            square_distance/3,          % +Square1, +Square2, -Distance
            king_square/3,              % +Pos, +Colour, -Square
            kings_distance/2,           % +Pos, -Distance
            opposition/1,               % +Pos
            room/2,                     % +Pos, -Room
            room_squares/2,             % +Pos, -Squares
            room_mask/2,                % +Pos, -Mask
            box/2,                      % +Pos, -Box
            box_mask/2,                 % +Pos, -Mask
            box_lines/2,                % +Pos, -Lines-Squares
            mask_distance/3,            % +Square, +Mask, -Distance
            secure_room_mask/2,         % +Pos, -Mask
            mating_corners/2,           % +Pos, -Corners
            corner_steps/3,             % +Square, +Corners, -Steps
            corner_king_steps/3,        % +Square, +Corners, -Steps
            corner_weight/3,            % +Mask, +Corners, -Weight
            corner_area/3,              % +Mask, +Corners, -Steps
            hanging/2,                  % +Pos, -Square
            bishop_corners/2,           % +Pos, -Corners
            square_colour/2,            % +Square, -Colour
            guarded_by/4,               % +Pos, +Kind, +Squares, -Guarded
            not_stalemate/1,            % +Pos
            mate_in/2,                  % +Pos, +Moves
            mate_in/3,                  % +Pos, +Moves, :Deeper
            mate_in/4,                  % +Pos, +Moves, :Deeper, :Escapes
            safe_mate_in/4              % +Pos, +Moves, :Deeper, :Escapes
          ]).
:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(aggregate)).
:- use_module(chess, [attacked/3, attack_mask/3, attack_mask/4, king_step_mask/2, legal_move/3,
                      checking_move/3, mate/1,
                      stalemate/1]).
% Arithmetic compiled in this file (the flag ends with it): distances and
% rooms are worked out at every measure a table asks for.
:- set_prolog_flag(optimise, true).

/** <module> Endgame concepts that advice tables share, for any material

The chess knowledge a table's goals and move constraints are written in,
once for every endgame of kb/chess/chess.pl: distances of squares and
kings, the opposition, the room of the defending king (whatever pieces
confine it), a piece attacked and undefended, the corners and squares of
a bishop's colour, the squares a piece guards, and mate by search.
Nothing here reads a tablebase: these are concepts, not answers.

Positions are chess.pl's `pos(Side, Pieces, EP)`; White (`w`) is the
attacker, Black (`b`) the defending king, as in the chess domains.
Squares are 0..63 (a1 = 0, h8 = 63).
*/

file_rank(Sq, F, R) :-
    F is Sq mod 8,
    R is Sq // 8.

%! edge_distance(+Square, -Distance) is det.
%
%  How many king steps Square is from the nearest edge: 0 on the edge,
%  3 on the four centre squares.

edge_distance(Sq, D) :-
    file_rank(Sq, F, R),
    D is min(min(F, 7 - F), min(R, 7 - R)).

%! square_distance(+Square1, +Square2, -Distance) is det.
%
%  The number of king steps between two squares (Chebyshev distance).

square_distance(S1, S2, D) :-
    file_rank(S1, F1, R1),
    file_rank(S2, F2, R2),
    D is max(abs(F1 - F2), abs(R1 - R2)).

%! corner_distance(+Square, +Corner, -Distance) is det.
%
%  King steps from Square to Corner, one of `a1`, `h1`, `a8`, `h8`.

corner_distance(Sq, Corner, D) :-
    corner(Corner, CornerSq),
    square_distance(Sq, CornerSq, D).

corner(a1, 0).
corner(h1, 7).
corner(a8, 56).
corner(h8, 63).

%! king_square(+Pos, +Colour, -Square) is det.
%
%  The square of the king of Colour (`w` or `b`).

king_square(pos(_, Pieces, _), Colour, Sq) :-
    memberchk(p(Colour, k, Sq), Pieces).

%! kings_distance(+Pos, -Distance) is det.
%
%  King steps between the two kings.

kings_distance(Pos, D) :-
    king_square(Pos, w, W),
    king_square(Pos, b, B),
    square_distance(W, B, D).

%! opposition(+Pos) is semidet.
%
%  White has the opposition: the kings face each other on a file or a
%  rank with one square between them, and Black is to move.

opposition(Pos) :-
    Pos = pos(b, _, _),
    king_square(Pos, w, W),
    king_square(Pos, b, B),
    file_rank(W, FW, RW),
    file_rank(B, FB, RB),
    (   FW =:= FB, abs(RW - RB) =:= 2
    ;   RW =:= RB, abs(FW - FB) =:= 2
    ),
    !.

%! room(+Pos, -Room) is det.
%
%  The number of squares the black king can reach by king steps through
%  squares White does not attack (as if only the black king moved and
%  White stood still), its own square included: the box White's pieces
%  confine it to, whichever they are. A White piece it may take (one
%  White does not defend) is part of the room.

room(Pos, Room) :-
    room_mask(Pos, Mask),
    Room is popcount(Mask).

%! room_squares(+Pos, -Squares) is det.
%
%  The squares of room/2, in ascending order.

room_squares(Pos, Squares) :-
    room_mask(Pos, Mask),
    findall(Sq, ( between(0, 63, Sq), Mask /\ (1 << Sq) =\= 0 ), Squares).

%! room_mask(+Pos, -Mask) is det.
%
%  The squares of room/2 as a bitboard (bit Square set, a1 = bit 0).
%  White's attacks are those with the black king off the board, so that
%  a line through it stays closed behind it.

room_mask(pos(_, Pieces, _), Room) :-
    memberchk(p(b, k, B), Pieces),
    exclude(==(p(b, k, B)), Pieces, Others),
    attack_mask(Others, w, Attacked),
    reach(B, Attacked, Room).

%! box(+Pos, -Box) is det.
%
%  The number of squares of box_mask/2: the room that White's pieces
%  other than the king leave the black king, however near White's king
%  stands.

box(Pos, Box) :-
    box_mask(Pos, Mask),
    Box is popcount(Mask).

%! box_mask(+Pos, -Mask) is det.
%
%  The squares the black king can reach by king steps through squares
%  that White's pieces other than the king do not attack (White's king
%  blocks their lines but attacks nothing), as a bitboard: the box the
%  confining pieces alone make, which White's king walks up to.  The
%  confining pieces' own squares are not in the box: whether the black
%  king can take one is another question (hanging/2).

box_mask(pos(_, Pieces, _), Box) :-
    box_closed(Pieces, B, Closed),
    reach(B, Closed, Box).

%! box_lines(+Pos, -Measure) is det.
%
%  Measure is Lines-Squares, how far the black king's box (box_mask/2)
%  is from the edge it is pushed against: Lines is how many lines
%  (ranks, or files) the box spans when it reaches the first or last
%  rank (or the a- or h-file), the fewer of the two, 9 when it reaches
%  no edge; Squares is its size.  With the black king in check, the
%  largest Measure (in the standard order of terms) of the parts of the
%  box it may step into, 0-0 when it may step nowhere.  Black's moves
%  never make it larger: the confining pieces push the box to the edge
%  a line at a time, the rook roller's measure of progress.

box_lines(pos(_, Pieces, _), Measure) :-
    box_closed(Pieces, B, Closed),
    Free is \Closed /\ 0xffffffffffffffff,
    Start is 1 << B,
    (   Closed /\ Start =\= 0
    ->  king_step_mask(Start, Around),
        Exits is Around /\ Free,
        parts_lines(Exits, Free, 0-0, Measure)
    ;   flood(Start, Free, Box),
        mask_lines(Box, Measure)
    ).

% box_closed(+Pieces, -BlackKing, -Closed): the black king's square and
% the bitboard of the squares its box excludes: those White's pieces
% other than the king attack (the king blocks their lines) or stand on.
box_closed(Pieces, B, Closed) :-
    memberchk(p(b, k, B), Pieces),
    memberchk(p(w, k, W), Pieces),
    exclude(==(p(b, k, B)), Pieces, Others),
    exclude(==(p(w, k, W)), Others, Confining),
    attack_mask(Confining, Others, w, Attacked),
    foldl(occupied_by, Confining, Attacked, Closed).

% parts_lines(+Exits, +Free, +Measure0, -Measure): the largest of
% Measure0 and the measures of the parts of Free that the squares of
% Exits lie in.
parts_lines(0, _, Measure, Measure) :- !.
parts_lines(Exits, Free, Measure0, Measure) :-
    Sq is lsb(Exits),
    flood(1 << Sq, Free, Part),
    mask_lines(Part, Measure1),
    (   Measure1 @> Measure0 -> Measure2 = Measure1 ; Measure2 = Measure0 ),
    Exits1 is Exits /\ \ Part,
    parts_lines(Exits1, Free, Measure2, Measure).

% mask_lines(+Mask, -Lines-Squares): box_lines/2 of one part.  Files
% folds the ranks onto one byte, Ranks the files onto the a-file.
mask_lines(Mask, Lines-Squares) :-
    Squares is popcount(Mask),
    F1 is Mask \/ (Mask >> 32),
    F2 is F1 \/ (F1 >> 16),
    Files is (F2 \/ (F2 >> 8)) /\ 0xff,
    R1 is Mask \/ (Mask >> 4),
    R2 is R1 \/ (R1 >> 2),
    Ranks is (R2 \/ (R2 >> 1)) /\ 0x0101010101010101,
    (   Ranks /\ 0x0100000000000001 =\= 0 -> ByRanks is popcount(Ranks) ; ByRanks = 9 ),
    (   Files /\ 0x81 =\= 0 -> ByFiles is popcount(Files) ; ByFiles = 9 ),
    Lines is min(ByRanks, ByFiles).

% reach(+Square, +Closed, -Mask): the squares a king on Square reaches
% by king steps through squares not in the bitboard Closed, its own
% square included.
reach(Sq, Closed, Mask) :-
    Free is \Closed /\ 0xffffffffffffffff,
    Start is 1 << Sq,
    flood(Start, Free, Mask).

flood(Reached, Free, Room) :-
    king_step_mask(Reached, Around),
    Reached1 is (Around /\ Free) \/ Reached,
    (   Reached1 =:= Reached
    ->  Room = Reached
    ;   flood(Reached1, Free, Room)
    ).

occupied_by(p(_, _, Sq), M0, M) :-
    M is M0 \/ (1 << Sq).

%! mask_distance(+Square, +Mask, -Distance) is semidet.
%
%  The king steps from Square to the nearest square of the bitboard
%  Mask; fails when Mask is empty.

mask_distance(Sq, Mask, D) :-
    Mask =\= 0,
    Start is 1 << Sq,
    mask_distance(Start, Mask, 0, D).

mask_distance(Reached, Mask, D0, D) :-
    (   Reached /\ Mask =\= 0
    ->  D = D0
    ;   king_step_mask(Reached, Reached1),
        D1 is D0 + 1,
        mask_distance(Reached1, Mask, D1, D)
    ).

%! secure_room_mask(+Pos, -Mask) is det.
%
%  The room of room_mask/2 that the black king keeps even if it walks up
%  to White's pieces: a piece other than the king that stands next to a
%  square of the room, and that White's king does not defend, is left
%  out of the pieces that close it (the king may chase it away), until
%  every piece left is out of reach or defended.  White's pieces' own
%  squares stay closed.  A measure of confinement that harassment does
%  not undo.

secure_room_mask(pos(_, Pieces, _), Room) :-
    memberchk(p(b, k, B), Pieces),
    memberchk(p(w, k, W), Pieces),
    exclude(==(p(b, k, B)), Pieces, Others),
    exclude(==(p(w, k, W)), Others, Confining),
    foldl(occupied_by, Others, 0, Closed0),
    king_step_mask(1 << W, Near0),
    Guarded is Near0 /\ \ (1 << W),
    secure_room(Confining, Others, B, Guarded, Closed0, Room).

secure_room(Confining, Blockers, B, Guarded, Closed0, Room) :-
    attack_mask(Confining, Blockers, w, Attacked),
    Closed is Closed0 \/ Attacked \/ Guarded,
    reach(B, Closed, Room0),
    king_step_mask(Room0, Reach),
    partition(within_reach(Reach, Guarded), Confining, Chased, Kept),
    (   Chased == []
    ->  Room = Room0
    ;   secure_room(Kept, Blockers, B, Guarded, Closed0, Room)
    ).

within_reach(Reach, Guarded, p(_, _, Sq)) :-
    Reach /\ (1 << Sq) =\= 0,
    Guarded /\ (1 << Sq) =:= 0.

%! mating_corners(+Pos, -Corners) is det.
%
%  Corners (a list of squares) are the corners where White's pieces can
%  force mate: with a bishop and a knight and no other piece, the two
%  corners of the bishop's colour; otherwise all four.

mating_corners(pos(_, Pieces, _), Corners) :-
    (   findall(K, ( member(p(w, K, _), Pieces), K \== k ), Kinds),
        msort(Kinds, [b, n]),
        memberchk(p(w, b, Sq), Pieces)
    ->  square_colour(Sq, Colour),
        findall(C, ( corner(_, C), square_colour(C, Colour) ), Corners)
    ;   findall(C, corner(_, C), Corners)
    ).

%! corner_steps(+Square, +Corners, -Steps) is det.
%
%  Steps along files and ranks (the king walking without diagonal
%  steps) from Square to the nearest square of Corners: how far a king
%  driven along the edges is from its corner.

corner_steps(Sq, Corners, Steps) :-
    file_rank(Sq, F, R),
    aggregate_all(min(D), ( member(C, Corners), file_rank(C, CF, CR),
                            D is abs(F - CF) + abs(R - CR) ), Steps).

%! corner_king_steps(+Square, +Corners, -Steps) is det.
%
%  King steps from Square to the nearest square of Corners.

corner_king_steps(Sq, Corners, Steps) :-
    aggregate_all(min(D), ( member(C, Corners), square_distance(Sq, C, D) ), Steps).

%! corner_weight(+Mask, +Corners, -Weight) is det.
%
%  Weight is the sum, over the squares of the bitboard Mask, of one plus
%  their king steps to the nearest of Corners: a room counted so that a
%  square far from the corners weighs more.

corner_weight(Mask, Corners, Weight) :-
    corner_rings(Corners, Rings),
    foldl(ring_weight(Mask), Rings, 0-1, Weight-_).

ring_weight(Mask, Ring, W0-K, W-K1) :-
    W is W0 + K * popcount(Mask /\ Ring),
    K1 is K + 1.

% corner_rings(+Corners, -Rings): the bitboards of the squares 0, 1, 2,
% ... king steps from the nearest of Corners, remembered for each set.
:- dynamic rings_of/2.

corner_rings(Corners, Rings) :-
    (   rings_of(Corners, Rings0)
    ->  Rings = Rings0
    ;   findall(Ring, ( between(0, 7, K),
                        aggregate_all(sum(1 << Sq),
                                      ( between(0, 63, Sq), corner_king_steps(Sq, Corners, K) ),
                                      Ring),
                        Ring =\= 0 ),
                Rings),
        assertz(rings_of(Corners, Rings))
    ).

%! corner_area(+Mask, +Corners, -Steps) is det.
%
%  The triangle at one of Corners that the squares of the bitboard Mask
%  lie in: Steps is the least, over Corners, of the most steps along
%  files and ranks from that corner to a square of Mask (0 for an empty
%  Mask).  A room within 2 steps of a1 lies in the triangle a1, a3, c1;
%  driving the defending king into a mating corner shrinks it.

corner_area(Mask, Corners, Steps) :-
    aggregate_all(min(Far), ( member(C, Corners), farthest_steps(Mask, C, Far) ), Steps).

% farthest_steps(+Mask, +Corner, -Far): the most steps along files and
% ranks from Corner to a square of Mask.
farthest_steps(Mask, Corner, Far) :-
    step_rings(Corner, Rings),
    foldl(ring_reached(Mask), Rings, 0, Far).

ring_reached(Mask, Ring, F0, F) :-
    (   Mask /\ Ring =\= 0 -> F is F0 + 1 ; F = F0 ).

% step_rings(+Corner, -Rings): the bitboards of the squares at least 1,
% 2, ..., 14 steps along files and ranks from Corner, remembered.
:- dynamic step_rings_of/2.

step_rings(Corner, Rings) :-
    (   step_rings_of(Corner, Rings0)
    ->  Rings = Rings0
    ;   file_rank(Corner, CF, CR),
        findall(Ring, ( between(1, 14, S),
                        aggregate_all(sum(1 << Sq),
                                      ( between(0, 63, Sq), file_rank(Sq, F, R),
                                        abs(F - CF) + abs(R - CR) >= S ),
                                      Ring) ),
                Rings),
        assertz(step_rings_of(Corner, Rings))
    ).

%! hanging(+Pos, -Square) is nondet.
%
%  A White piece other than the king stands on Square, attacked by
%  Black and not defended by White.

hanging(pos(_, Pieces, _), Sq) :-
    member(p(w, Kind, Sq), Pieces),
    Kind \== k,
    attacked(Sq, b, Pieces),
    \+ attacked(Sq, w, Pieces).

%! square_colour(+Square, -Colour) is det.
%
%  Colour is `dark` (a1 is dark) or `light`.

square_colour(Sq, Colour) :-
    file_rank(Sq, F, R),
    (   (F + R) mod 2 =:= 0 -> Colour = dark ; Colour = light ).

%! bishop_corners(+Pos, -Corners) is semidet.
%
%  Corners (a sorted list of corner names) are those of the colour of
%  White's bishop, where mate with bishop and knight is forced; fails
%  without a White bishop.

bishop_corners(pos(_, Pieces, _), Corners) :-
    memberchk(p(w, b, Sq), Pieces),
    square_colour(Sq, Colour),
    findall(C, ( corner(C, CSq), square_colour(CSq, Colour) ), Corners0),
    sort(Corners0, Corners).

%! guarded_by(+Pos, +Kind, +Squares, -Guarded) is det.
%
%  Guarded is the list of Squares that White's piece of Kind (`q r b n
%  p`; the first such piece) attacks: for instance the squares around
%  the black king that the knight and the bishop each cover, where they
%  must work together.

guarded_by(pos(_, Pieces, _), Kind, Squares, Guarded) :-
    (   memberchk(p(w, Kind, At), Pieces)
    ->  % the piece and the black pieces (which block its lines) alone
        exclude(white_piece_but(At), Pieces, Only),
        include(attacked_from(At, Only), Squares, Guarded)
    ;   Guarded = []
    ).

attacked_from(At, Pieces, Sq) :-
    Sq \== At,
    attacked(Sq, w, Pieces).

white_piece_but(At, p(w, _, S)) :-
    S \== At.

%! not_stalemate(+Pos) is semidet.
%
%  Pos is not stalemate.

not_stalemate(Pos) :-
    \+ stalemate(Pos).

%! mate_in(+Pos, +Moves) is semidet.
%
%  White, to move in Pos, mates in at most Moves moves against every
%  defence (a search of the game tree, depth 2 * Moves - 1 plies).

mate_in(Pos, N) :-
    mate_in(Pos, N, mate_in).

%! mate_in(+Pos, +Moves, :Deeper) is semidet.
%
%  The search of mate_in/2, which asks call(Deeper, Pos2, Moves - 1) of
%  each position Pos2 after a move of White and a reply: Deeper is
%  mate_in/2 itself, or a predicate that remembers its answers.

:- meta_predicate
    mate_in(+, +, 2),
    mate_in(+, +, 2, 2),
    safe_mate_in(+, +, 2, 2).

mate_in(Pos, N, Deeper) :-
    mate_search(Pos, N, any, Deeper, []).

%! mate_in(+Pos, +Moves, :Deeper, :Escapes) is semidet.
%
%  The search of mate_in/3, which before it asks Deeper of the replies
%  to a move of White asks call(Escapes, Pos2, Moves - 1) of each: a
%  reply for which that succeeds (one remembered to escape mate in
%  Moves - 1, say) refutes the move without a search.

mate_in(Pos, N, Deeper, Escapes) :-
    mate_search(Pos, N, any, Deeper, [Escapes]).

%! safe_mate_in(+Pos, +Moves, :Deeper, :Escapes) is semidet.
%
%  As mate_in/4, but White mates without giving up a piece: each move
%  of White's that does not mate leaves no piece attacked and undefended
%  (hanging/2), so no defence takes one.  Deeper and Escapes answer for
%  this search, not mate_in/4's.

safe_mate_in(Pos, N, Deeper, Escapes) :-
    mate_search(Pos, N, safe, Deeper, [Escapes]).

% mate_search(+Pos, +N, +Pieces, +Deeper, +Escapes): mate_in/3 with
% Escapes [], mate_in/4 with [Escapes], Pieces `any`; safe_mate_in/4
% with Pieces `safe`.  A mate in one is looked for among the moves that
% give check alone (chess:checking_move/3): KRRK's every-defence sample
% (`advice verify krrk --defender all --sample 100 --seed 1`) took 71
% and 74 s with every legal move, 63 and 68 s with these, its figures
% the same; its whole proof was no faster (3,330 s against 3,272), its
% mate searches answered mostly from the cache.
mate_search(Pos, 1, _, _, _) :-
    !,
    Pos = pos(w, _, _),
    checking_move(Pos, _, Pos1),
    \+ legal_move(Pos1, _, _),
    !.
mate_search(Pos, N, Pieces, Deeper, Escapes) :-
    N > 1,
    Pos = pos(w, _, _),
    legal_move(Pos, _, Pos1),
    (   mate(Pos1)
    ->  true
    ;   \+ stalemate(Pos1),
        pieces_kept(Pieces, Pos1),
        N1 is N - 1,
        \+ ( Escapes = [Escaping],
             legal_move(Pos1, _, Pos2),
             call(Escaping, Pos2, N1) ),
        forall(legal_move(Pos1, _, Pos2), call(Deeper, Pos2, N1))
    ),
    !.

pieces_kept(any, _).
pieces_kept(safe, Pos) :-
    \+ hanging(Pos, _).
