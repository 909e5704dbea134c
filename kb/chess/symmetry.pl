:- module(chess_symmetry,
          [ canonical/3,                % +Pos, -Canon, -Symmetry
            symmetric_position/3,       % +Symmetry, +Pos, -Pos1
            symmetric_move/3,           % +Symmetry, +Move, -Move1
            inverse_symmetry/2,         % +Symmetry, -Inverse
            sym_square/3,               % ?Symmetry, ?Square, ?Image
            least_image_symmetries/3    % ?Square, ?Symmetry1, ?Symmetry2
          ]).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- set_prolog_flag(optimise, true).

/** <module> The eight symmetries of the board, for endgames without pawns

Without pawns (and castling) a chess position and its images in the
board's eight symmetries (the identity, the three turns, the mirrors in
the middle file, the middle rank and the two long diagonals) are the
same problem: the same moves up to the image, the same outcomes.  A
domain that re-exports this module declares so, and the AL0 engine
(kb/al0/al0.pl) then consults its table at the one representative of a
position's class (canonical/3) and plays the image of its choice: the
table decides alike in alike positions, and a proof values each class
once.

A symmetry is an integer 0..7 whose bits say: mirror the files (1),
mirror the ranks (2), then swap files and ranks (4); 0 is the identity.
Positions are those of kb/chess/endgame.pl, `eg(pos(Side, Pieces, EP),
Depth)`, with EP `none` (there are no pawns); moves are `m(From, To,
Promo)`.
*/

sym_square_clause(sym_square(G, S, S1)) :-
    between(0, 7, G),
    between(0, 63, S),
    F0 is S mod 8, R0 is S // 8,
    ( G /\ 1 =:= 0 -> F1 = F0 ; F1 is 7 - F0 ),
    ( G /\ 2 =:= 0 -> R1 = R0 ; R1 is 7 - R0 ),
    ( G /\ 4 =:= 0 -> F = F1, R = R1 ; F = R1, R = F1 ),
    S1 is R * 8 + F.

%! sym_square(?Symmetry, ?Square, ?Image) is nondet.
%
%  Image is the square Square goes to in Symmetry (facts, made when this
%  file is compiled).

%! least_image_symmetries(?Square, ?Symmetry1, ?Symmetry2) is nondet.
%
%  Symmetry1 and Symmetry2 take Square to the least (by number) of its
%  eight images; they are one and the same unless Square is on a long
%  diagonal.  The least image of a position keyed by one of its pieces
%  is found among the images by these two alone.

least_image_symmetries_clause(least_image_symmetries(S, G1, G2)) :-
    between(0, 63, S),
    aggregate_all(min(S1), sym_square_clause(sym_square(_, S, S1)), Least),
    findall(G, sym_square_clause(sym_square(G, S, Least)), [G1|Gs]),
    (   Gs = [G2] -> true ; Gs = [], G2 = G1 ).

term_expansion(sym_squares, Clauses) :-
    findall(C, sym_square_clause(C), C1),
    findall(C, least_image_symmetries_clause(C), C2),
    append(C1, C2, Clauses).

sym_squares.

%! canonical(+Pos, -Canon, -Symmetry) is det.
%
%  Canon is the representative of the class of Pos (the least of its
%  eight images in the standard order of terms, the depth kept) and
%  Symmetry the one that maps Pos to it (the least such).

canonical(eg(pos(Side, Pieces, EP), D), eg(pos(Side, Least, EP), D), Sym) :-
    findall(Image-G, ( between(0, 7, G), pieces_image(G, Pieces, Image) ), Images),
    keysort(Images, [Least-Sym|_]).

%! symmetric_position(+Symmetry, +Pos, -Pos1) is det.
%
%  Pos1 is the image of Pos in Symmetry.

symmetric_position(G, eg(pos(Side, Pieces, EP), D), eg(pos(Side, Image, EP), D)) :-
    pieces_image(G, Pieces, Image).

%! symmetric_move(+Symmetry, +Move, -Move1) is det.
%
%  Move1 is the image of Move in Symmetry.

symmetric_move(G, m(From, To, Promo), m(From1, To1, Promo)) :-
    sym_square(G, From, From1),
    sym_square(G, To, To1).

%! inverse_symmetry(+Symmetry, -Inverse) is det.
%
%  Inverse undoes Symmetry: every symmetry is its own inverse but the two
%  quarter turns (a mirror, then the swap of files and ranks), which are
%  each other's.

inverse_symmetry(G, Inverse) :-
    (   G =:= 5 -> Inverse = 6
    ;   G =:= 6 -> Inverse = 5
    ;   Inverse = G
    ).

pieces_image(G, Pieces, Image) :-
    maplist(piece_image(G), Pieces, Image0),
    msort(Image0, Image).

piece_image(G, p(C, K, S), p(C, K, S1)) :-
    sym_square(G, S, S1).
