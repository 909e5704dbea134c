:- module(chess_tablebase,
          [ load_tables/1,              % +Tables
            position_value/2,           % +Pos, -Value
            value_moves/2,              % +Value, -Moves
            best_moves/2,               % +Pos, -MovesPos1s
            best_move/3,                % +Pos, -Move, -Pos1
            optimal_line/3,             % +Pos, -Moves, -End
            won_position/3,             % +White, +Black, -Pos
            table_byte/4,               % +Name, +Side, +Squares, -Byte
            solve_json/3                % +Tables, +Pos, -Json
          ]).
:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(readutil)).
:- use_module(library(error)).
:- use_module('../job_io', [json_string/2]).
:- use_module(chess).
:- set_prolog_flag(optimise, true).

/** <module> Tablebases of endgames with up to four pieces, read in Prolog

The tables are built by the engine (engine/tablebases, numpy retrograde
analysis) and handed here as files by load_tables/1; this module reads a
position's value from them and plays optimally: the perfect defender and
the optimal line of `advice solve`.

## The bytes of a table (the same layout as engine/tablebases/layout.py)

A table of material `KQKR` (White the stronger side) holds one byte per
index for White to move, then one per index for Black to move.  The
index of a position is

    Slot(WK) * 64^(N-1) + Sq1 * 64^(N-2) + ... + SqN-1

over the pieces in the order White's king, White's other pieces (Q R B N
P), Black's king, Black's other pieces, with the board turned so that the
white king stands in its slot region: the a1-d1-d4 triangle (slots 0-9)
without pawns, files a-d (slot Rank*4+File) with pawns.  Every turn that
puts the king there gives the same value.  A position whose stronger side
is Black is looked up with the colours swapped and the board mirrored
rank for rank.

A byte is 0 for a draw, 255 for no legal position, otherwise Plies+1:
Plies is the distance to mate in half-moves, odd when the side to move
mates and even when it is mated.

## Values

position_value/2 gives `win(Plies)`, `loss(Plies)` or `draw` for the side
to move.  A position with an en-passant capture open is valued through
its moves (the tables hold no en-passant square).
*/

:- dynamic table_file/2.                   % Name, File

% The bytes of each loaded table are a string in the global variable
% table_bytes(Name), which nb_getval/2 gives without copying (a string in
% a clause would be copied at every call).

%! load_tables(+Tables) is det.
%
%  Tables is a list of `Name-File`: the table of material Name (`'KQKR'`)
%  is in File.  A table already loaded from the same file is kept.

load_tables(Tables) :-
    maplist(load_table, Tables).

load_table(Name-File) :-
    (   table_file(Name, File)
    ->  true
    ;   read_file_to_string(File, Bytes, [encoding(octet)]),
        table_key(Name, Key),
        nb_setval(Key, Bytes),
        retractall(table_file(Name, _)),
        assertz(table_file(Name, File))
    ).

table_key(Name, Key) :-
    atom_concat(chess_tablebase_, Name, Key).

%! position_value(+Pos, -Value) is det.
%
%  Value of Pos (a chess/3 `pos/3` term) for its side to move:
%  `win(Plies)`, `loss(Plies)` or `draw`.  Raises
%  `existence_error(tablebase, Name)` when the table of Pos's material
%  (`'KQKR'`) is not loaded.

position_value(Pos, Value) :-
    Pos = pos(_, _, EP),
    (   EP \== none
    ->  best_moves(Pos, [_-Pos1|_]),
        position_value(Pos1, Value1),
        negated(Value1, Value)
    ;   byte(Pos, Byte),
        byte_value(Byte, Value)
    ).

byte_value(0, draw) :- !.
byte_value(B, Value) :-
    Plies is B - 1,
    (   Plies mod 2 =:= 1
    ->  Value = win(Plies)
    ;   Value = loss(Plies)
    ).

negated(draw, draw).
negated(win(P), loss(P1)) :- P1 is P + 1.
negated(loss(P), win(P1)) :- P1 is P + 1.

%! value_moves(+Value, -Moves) is semidet.
%
%  The moves to mate of a value: of the side that mates, counted from
%  the side to move's move for a win, and of the opponent for a loss
%  (mated now is 0).  Fails for a draw.

value_moves(win(P), M) :- M is (P + 1) // 2.
value_moves(loss(P), M) :- M is P // 2.

% score(+Value, -Score): larger is better for the side to move.
score(win(P), S) :- S is 1000 - P.
score(draw, 0).
score(loss(P), S) :- S is P - 1000.

%! best_moves(+Pos, -Moves) is det.
%
%  Moves is the list of `Move-Pos1` pairs of the legal moves of Pos,
%  best first for the side to move (shortest win, then draws, then the
%  longest loss); moves of equal value keep legal_move/3's order.

best_moves(Pos, Best) :-
    legal_moves(Pos, Moves),
    map_list_to_pairs(reply_score, Moves, Scored),
    keysort(Scored, Sorted),
    pairs_values(Sorted, Best).

% reply_score(+MovePos1, -Score): the opponent's score after the move,
% so that the least comes first.
reply_score(_-Pos1, Score) :-
    position_value(Pos1, Value),
    score(Value, Score).

%! best_move(+Pos, -Move, -Pos1) is semidet.
%
%  The first of best_moves/2: fails when Pos has no legal move.

best_move(Pos, Move, Pos1) :-
    best_moves(Pos, [Move-Pos1|_]).

%! optimal_line(+Pos, -Moves, -End) is det.
%
%  Moves (UCI strings) are optimal play from Pos for both sides until the
%  game ends (End `mate` or `stalemate`), or a draw is certain (End
%  `draw`: the tablebase says so, or the material cannot mate).

optimal_line(Pos, Moves, End) :-
    position_value(Pos, Value),
    line(Value, Pos, Moves, End).

line(_, Pos, [], End) :-
    status(Pos, Status),
    memberchk(Status, [mate, stalemate]), !,
    End = Status.
line(draw, _, [], draw) :- !.
line(_, Pos, [Text|Moves], End) :-
    best_move(Pos, Move, Pos1),
    move_uci(Move, Text),
    position_value(Pos1, Value1),
    line(Value1, Pos1, Moves, End).

%! solve_json(+Tables, +Pos, -Json) is det.
%
%  The solve job: loads Tables (load_tables/1) and answers, as a JSON
%  string, Pos's `value` (`win`, `loss` or `draw` for the side to move),
%  `dtm` (moves to mate, or null), `plies`, the optimal `moves` (UCI) and
%  how the line `ends`.

solve_json(Tables, Pos, Json) :-
    load_tables(Tables),
    position_value(Pos, Value),
    (   Value = draw
    ->  Kind = draw, DTM = @(null), Plies = @(null)
    ;   Value =.. [Kind, Plies],
        value_moves(Value, DTM)
    ),
    optimal_line(Pos, Moves, End),
    json_string(json([value=Kind, dtm=DTM, plies=Plies, moves=Moves, ends=End]), Json).

%! won_position(+White, +Black, -Pos) is nondet.
%
%  Pos is a position of the material White against Black (atoms of
%  piece letters, each side's king first: `'KBN'`, `'K'`; White the
%  stronger), White to move, that White wins: one per class of
%  symmetric positions, in the order of the table.  The table must be
%  loaded.

won_position(White, Black, Pos) :-
    atom_chars(White, ['K'|WL]),
    atom_chars(Black, ['K'|BL]),
    maplist(downcase_atom, WL, WK0), maplist(downcase_atom, BL, BK0),
    sort_kinds(WK0, WKinds), sort_kinds(BK0, BKinds),
    (   stronger(WKinds, BKinds)
    ->  true
    ;   domain_error(stronger_side_first, White-Black)
    ),
    name_of(WKinds, BKinds, Name),
    (   table_file(Name, _) -> true ; existence_error(tablebase, Name) ),
    table_key(Name, Key),
    nb_getval(Key, Bytes),
    layout(WKinds, BKinds, Region, Pieces, Radix, Size),
    won_index(Bytes, Size, Index),
    index_squares(Region, Radix, Pieces, Index, Squares),
    (   \+ on_mirror_line(Region, Squares)
    ->  alike_in_order(Pieces, Squares)     % the least of the swaps' indexes
    ;   canonical(Region, Pieces, Squares, Index)
    ),
    table_position(Pieces, Squares, Pos).

% won_index(+Bytes, +Size, -Index): on backtracking, in order, each of
% the first Size indexes of Bytes whose byte says that White, to move,
% wins.  The bytes are read a chunk at a time as a list of codes: a
% sub_string/5 for each byte made KRRK's 520,702 starts take 9.8 s to
% list, and string_code/3 is not O(1).
won_index(Bytes, Size, Index) :-
    chunk_size(Chunk),
    LastChunk is (Size - 1) // Chunk,
    between(0, LastChunk, C),
    Offset is C * Chunk,
    Length is min(Chunk, Size - Offset),
    sub_string(Bytes, Offset, Length, _, Part),
    string_codes(Part, Codes),
    won_in(Codes, Offset, Index).

chunk_size(4096).

won_in([Byte|Bytes], Index0, Index) :-
    (   Byte =\= 0, Byte =\= 255, Byte mod 2 =:= 0,     % won for White
        Index = Index0
    ;   Index1 is Index0 + 1,
        won_in(Bytes, Index1, Index)
    ).

% table_position(+Pieces, +Squares, -Pos): the position, White to move, of
% the pieces (Colour-Kind) on their squares.  A table marks every
% illegal index (byte 255), so a won index needs no check of legality
% (chess_position/4 would make, and spend half the time of
% won_position/3 on): chess.pl's board_position/4 builds it unchecked.
table_position(Pieces, Squares, Pos) :-
    maplist(placed, Pieces, Squares, Board),
    board_position(w, Board, none, Pos).

placed(C-K, Sq, piece(C, K, Sq)).

sort_kinds(Kinds, Sorted) :-
    map_list_to_pairs(kind_order, Kinds, Pairs),
    msort(Pairs, SortedPairs),
    pairs_values(SortedPairs, Sorted).

% layout(+WKinds, +BKinds, -Region, -Pieces, -Radix, -Size): the pieces
% (Colour-Kind) in the table's order, and its sizes.
layout(WKinds, BKinds, Region, Pieces, Radix, Size) :-
    maplist([K, w-K]>>true, WKinds, WP),
    maplist([K, b-K]>>true, BKinds, BP),
    append([[w-k], WP, [b-k], BP], Pieces),
    (   ( memberchk(p, WKinds) ; memberchk(p, BKinds) ) -> Region = pawns
    ;   Region = pawnless
    ),
    length(Pieces, N),
    Radix is 64 ^ (N - 1),
    slots(Region, Slots),
    Size is Slots * Radix.

index_squares(Region, Radix, Pieces, Index, [WK|Rest]) :-
    Slot is Index // Radix,
    slot_square(Region, Slot, WK),
    Pieces = [_|Others],
    index_digits(Others, Index, [], Rest).

% index_digits(+Pieces, +Index, +Squares0, -Squares): the base-64 digits
% of Index, one for each of Pieces, the last digit last.
index_digits([], _, Squares, Squares).
index_digits([_|Pieces], Index, Squares0, Squares) :-
    Sq is Index /\ 63,
    Index1 is Index >> 6,
    index_digits(Pieces, Index1, [Sq|Squares0], Squares).

slot_square(Region, Slot, Sq) :-
    region_code(Region, R),
    Key is R << 6 \/ Slot,
    slot_king(Key, Sq).

% on_mirror_line(+Region, +Squares): without pawns, the white king (first)
% stands on the a1-h8 diagonal, whose mirror image is another index.
on_mirror_line(pawnless, [WK|_]) :-
    WK /\ 7 =:= WK >> 3.

slot_region(pawns, Sq) :- Sq /\ 7 =< 3.
slot_region(pawnless, Sq) :- F is Sq /\ 7, R is Sq >> 3, F =< 3, R =< F.

% alike_in_order(+Pieces, +Squares): alike pieces (next to each other in
% the table's order) stand on ascending squares: of the indexes that
% swapping them gives, this one is the least.
alike_in_order(Pieces, Squares) :-
    alike_ordered(Pieces, Squares, Ordered),
    Ordered == Squares.

% canonical(+Region, +Pieces, +Squares, +Index): Index is the least index
% of the position's images (the diagonal mirror when the white king is
% on a1-h8, swaps of alike pieces), as engine/tablebases/layout.py
% chooses: its alike pieces stand in order, and the mirror image, its
% alike pieces put in order, has no smaller index.
canonical(Region, Pieces, Squares, Index) :-
    alike_in_order(Pieces, Squares),
    maplist(symmetry(4), Squares, Mirrored),
    alike_ordered(Pieces, Mirrored, Ordered),
    digits_index(Region, Ordered, MirrorIndex),
    Index =< MirrorIndex.

% alike_ordered(+Pieces, +Squares, -Ordered): Squares with the squares of
% the alike pieces (a pair at most in four pieces, next to each other in
% the table's order) swapped into ascending order.
alike_ordered([P1, P2|Pieces], [S1, S2|Squares], Ordered) :-
    !,
    (   P1 == P2, S1 > S2
    ->  Ordered = [S2, S1|Squares]
    ;   Ordered = [S1|Ordered1],
        alike_ordered([P2|Pieces], [S2|Squares], Ordered1)
    ).
alike_ordered(_, Squares, Squares).

digits_index(Region, [WK|Rest], Index) :-
    slot(Region, 0, WK, Slot),
    foldl([Sq, A0, A]>>(A is A0 * 64 + Sq), Rest, Slot, Index).

		 /*******************************
		 *            INDEXES            *
		 *******************************/

% byte(+Pos, -Byte): the byte of Pos (no en-passant square) in its table.
byte(pos(Side, Pieces, _), Byte) :-
    material_sides(Pieces, White, Black),
    (   White == [], Black == []
    ->  Byte = 0                                    % bare kings
    ;   stronger(White, Black)
    ->  table_position(White, Black, Side, Pieces, Byte)
    ;   maplist(flipped_piece, Pieces, Flipped),
        opponent_side(Side, Side1),
        table_position(Black, White, Side1, Flipped, Byte)
    ).

table_position(White, Black, Side, Pieces, Byte) :-
    name_of(White, Black, Name),
    ordered_squares(White, Black, Pieces, Squares),
    table_byte(Name, Side, Squares, Byte).

%! table_byte(+Name, +Side, +Squares, -Byte) is det.
%
%  Byte of the position with Side to move in the loaded table Name
%  (`'KRK'`), the squares of its pieces given in the table's order
%  (White's king, White's other pieces, Black's king, Black's others).
%  Raises `existence_error(tablebase, Name)` when the table is not
%  loaded.

table_byte(Name, Side, [WK|Rest], Byte) :-
    (   table_file(Name, _)
    ->  table_key(Name, Key),
        nb_getval(Key, Bytes)
    ;   existence_error(tablebase, Name)
    ),
    (   sub_atom(Name, _, _, _, 'P') -> Region = pawns ; Region = pawnless ),
    region_code(Region, R),
    KingKey is R << 6 \/ WK,
    king_slot(KingKey, G, Slot),
    foldl(turned_digit(G), Rest, 0, Low),
    length(Rest, N1),
    Radix is 64 ^ N1,
    slots(Region, Slots),
    ( Side == w -> Row = 0 ; Row = 1 ),
    Offset is (Row * Slots + Slot) * Radix + Low,
    sub_string(Bytes, Offset, 1, _, Char),     % O(1); get_string_code/3 is not
    string_code(1, Char, Byte).

turned_digit(G, Sq, Acc0, Acc) :-
    Key is G << 6 \/ Sq,
    turn(Key, Sq1),
    Acc is Acc0 * 64 + Sq1.

region_code(pawnless, 0).
region_code(pawns, 1).

% material_sides(+Pieces, -White, -Black): kinds besides the kings, each
% side's in the order q r b n p.
material_sides(Pieces, White, Black) :-
    side_kinds(w, Pieces, White),
    side_kinds(b, Pieces, Black).

side_kinds(C, Pieces, Kinds) :-
    findall(R-K, ( member(p(C, K, _), Pieces), K \== k, kind_order(K, R) ), Pairs),
    msort(Pairs, Sorted),
    pairs_values(Sorted, Kinds).

kind_order(q, 0). kind_order(r, 1). kind_order(b, 2). kind_order(n, 3). kind_order(p, 4).
kind_value(q, 9). kind_value(r, 5). kind_value(b, 3). kind_value(n, 3). kind_value(p, 1).

% stronger(+White, +Black): White's side is the one the table stores
% first (as Material.is_canonical in engine/tablebases/material.py).
stronger(White, Black) :-
    strength(White, SW),
    strength(Black, SB),
    SW @>= SB.

strength(Kinds, Total-Ranks) :-
    foldl([K, A0, A]>>(kind_value(K, V), A is A0 + V), Kinds, 0, Total),
    maplist([K, R]>>(kind_order(K, O), R is 5 - O), Kinds, Ranks).

name_of(White, Black, Name) :-
    maplist(upcase_atom, White, W),
    maplist(upcase_atom, Black, B),
    append([['K'], W, ['K'], B], Letters),
    atomic_list_concat(Letters, Name).

ordered_squares(White, Black, Pieces, Squares) :-
    memberchk(p(w, k, WK), Pieces),
    memberchk(p(b, k, BK), Pieces),
    kind_squares(White, w, Pieces, WS),
    kind_squares(Black, b, Pieces, BS),
    append([[WK], WS, [BK], BS], Squares).

% kind_squares(+Kinds, +Colour, +Pieces, -Squares): one square per kind,
% alike pieces in any order.
kind_squares([], _, _, []).
kind_squares([K|Ks], C, Pieces, [Sq|Sqs]) :-
    select(p(C, K, Sq), Pieces, Rest), !,
    kind_squares(Ks, C, Rest, Sqs).

flipped_piece(p(C, K, Sq), p(C1, K, Sq1)) :-
    opponent_side(C, C1),
    Sq1 is Sq xor 56.

opponent_side(w, b).
opponent_side(b, w).

		 /*******************************
		 *   THE BOARD'S SYMMETRIES     *
		 *******************************/

% symmetry(?G, +Sq, -Sq1): the 8 turns of the board, numbered as
% engine/tablebases/board.py numbers them (bit 4: mirror in the a1-h8
% diagonal first; bit 1: mirror the files; bit 2: mirror the ranks).
symmetry(G, Sq, Sq1) :-
    F0 is Sq /\ 7, R0 is Sq >> 3,
    (   G /\ 4 =\= 0 -> F1 = R0, R1 = F0 ; F1 = F0, R1 = R0 ),
    (   G /\ 1 =\= 0 -> F is 7 - F1 ; F = F1 ),
    (   G /\ 2 =\= 0 -> R is 7 - R1 ; R = R1 ),
    Sq1 is R * 8 + F.

% orientation(+Region, +WK, -G): a turn that brings the white king into
% its slot region.
orientation(pawns, WK, G) :- !,
    ( WK /\ 7 =< 3 -> G = 0 ; G = 1 ).
orientation(pawnless, WK, G) :-
    between(0, 7, G),
    symmetry(G, WK, Sq),
    F is Sq /\ 7, R is Sq >> 3,
    F =< 3, R =< F, !.

slot(Region, G, WK, Slot) :-
    symmetry(G, WK, Sq),
    F is Sq /\ 7, R is Sq >> 3,
    (   Region == pawns
    ->  Slot is R * 4 + F
    ;   Slot is R * (9 - R) // 2 + F - R        % the triangle, rank by rank
    ).

slots(pawns, 32).
slots(pawnless, 10).

% turn(+G<<6 \/ Sq, -Sq1) and king_slot(+Region<<6 \/ WK, -G, -Slot):
% symmetry/3, orientation/3 and slot/4 as facts keyed on one integer (a
% lookup leaves no choice point), made when this file loads;
% slot_king(+Region<<6 \/ Slot, -WK) the white king's square of a slot.
:- dynamic turn/2, king_slot/3, slot_king/2.

make_turns :-
    retractall(turn(_, _)),
    retractall(king_slot(_, _, _)),
    retractall(slot_king(_, _)),
    forall(( between(0, 7, G), between(0, 63, Sq) ),
           ( symmetry(G, Sq, Sq1), Key is G << 6 \/ Sq, assertz(turn(Key, Sq1)) )),
    forall(( member(Region, [pawnless, pawns]), between(0, 63, WK) ),
           ( orientation(Region, WK, G), slot(Region, G, WK, Slot),
             region_code(Region, R), Key is R << 6 \/ WK,
             assertz(king_slot(Key, G, Slot)) )),
    forall(( member(Region, [pawnless, pawns]), between(0, 63, WK),
             slot_region(Region, WK) ),
           ( slot(Region, 0, WK, Slot), region_code(Region, R),
             Key is R << 6 \/ Slot, assertz(slot_king(Key, WK)) )).

:- make_turns.
