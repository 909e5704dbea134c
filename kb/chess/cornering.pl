:- module(chess_cornering,
          [ cornering_measure/3,        % +Pos, +Weights, -Measure
            cornering_term/3            % ?Name, +Pos, -Value
          ]).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(aggregate)).
:- use_module(concepts, [room_mask/2, secure_room_mask/2, mating_corners/2, corner_weight/3,
                         corner_area/3, corner_steps/3, corner_king_steps/3, edge_distance/2,
                         square_distance/3, mask_distance/3, king_square/3, hanging/2,
                         mate_in/2]).
% Arithmetic compiled in this file (the flag ends with it): the measure is
% worked out at every position a forcing tree meets.
:- set_prolog_flag(optimise, true).

/** <module> How far the defending king is from being mated in a corner

The measure a table drives by when its pieces mate only in a corner (two
bishops, bishop and knight): a weighted sum of named concepts of
chess/concepts.pl, the same for any material, each knowledge base
choosing its weights.  The corners are those where the pieces can mate
(concepts:mating_corners/2).  Nothing here reads a tablebase.
*/

%! cornering_measure(+Pos, +Weights, -Measure) is det.
%
%  Measure is the sum of Weight * Value over the Name-Weight pairs of
%  Weights, Value being cornering_term(Name, Pos, Value): smaller is
%  nearer mate as the weights see it.  Pos is chess.pl's position.

cornering_measure(Pos, Weights, Measure) :-
    cornering_view(Pos, View),
    foldl(weighed_term(View), Weights, 0, Measure).

weighed_term(View, Name-Weight, M0, M) :-
    term_value(Name, View, Value),
    M is M0 + Weight * Value.

%! cornering_term(?Name, +Pos, -Value) is nondet.
%
%  The terms a cornering measure may weigh, by name (the corners are
%  the mating corners; distances are king steps unless said):
%
%    - `room`: the squares of the black king's room (concepts:room_mask/2);
%    - `room_weight`: the room's squares, each counted one plus its
%      distance to the nearest corner (concepts:corner_weight/3);
%    - `secure_room`, `secure_room_weight`: the same for the secure room
%      (concepts:secure_room_mask/2);
%    - `room_area`, `secure_room_area`: the triangle at a corner the room
%      (the secure room) lies in (concepts:corner_area/3);
%    - `room_without_corner`: 1 when the room holds no corner, else 0;
%    - `cage`: 1 when the room has at most two squares and White, to
%      move, has no mate in one, else 0: White must let the black king
%      out before it can mate it;
%    - `king_corner_steps`: the black king's steps along files and ranks
%      to the nearest corner (concepts:corner_steps/3);
%    - `king_corner_distance`: its distance to the nearest corner;
%    - `king_edge_distance`: its distance to the edge;
%    - `kings_distance`: the distance between the kings;
%    - `kings_steps`: the steps along files and ranks between the kings;
%    - `our_king_corner_steps`, `our_king_edge_distance`: White's king's
%      steps to the nearest corner and distance to the edge;
%    - `our_king_far`: White's king's distance to the nearest square of
%      the room beyond two (0 within two);
%    - `corner_taken`: 1 when each of the black king's nearest corners
%      (one, or several as near) is held by White: a piece of White's
%      other than the king stands on it, or White's king stands nearer
%      it than the black king does; else 0: the black king cannot be
%      mated there until White makes way;
%    - `piece_hanging`: 1 when a piece is attacked and undefended, else 0;
%    - `pieces_distance`: the sum of the pieces' (other than the king)
%      distances to the black king;
%    - `knight_distance`: the knight's distance to the black king (0
%      without a knight);
%    - `jam`: 1 when a knight stands on the square diagonally next to a
%      corner, towards the centre, and the black king within two steps
%      of that corner, else 0: the knight is in the way of the net there,
%      and White must let the king run to another corner and drive it
%      back;
%    - `pieces_edge_distance`: the sum of the pieces' distances to the edge;
%    - `pieces_side_by_side`: 1 when two pieces stand next to each other.

cornering_term(Name, Pos, Value) :-
    cornering_view(Pos, View),
    term_value(Name, View, Value).

% cornering_view(+Pos, -View): what several terms need, worked out once.
cornering_view(Pos, view(Pos, Corners, Room, Secure, B, W, Pieces)) :-
    mating_corners(Pos, Corners),
    room_mask(Pos, Room),
    secure_room_mask(Pos, Secure),
    king_square(Pos, b, B),
    king_square(Pos, w, W),
    Pos = pos(_, All, _),
    findall(Kind-Sq, ( member(p(w, Kind, Sq), All), Kind \== k ), Pieces).

term_value(room, view(_, _, Room, _, _, _, _), V) :-
    V is popcount(Room).
term_value(room_weight, view(_, Corners, Room, _, _, _, _), V) :-
    corner_weight(Room, Corners, V).
term_value(secure_room, view(_, _, _, Secure, _, _, _), V) :-
    V is popcount(Secure).
term_value(secure_room_weight, view(_, Corners, _, Secure, _, _, _), V) :-
    corner_weight(Secure, Corners, V).
term_value(room_area, view(_, Corners, Room, _, _, _, _), V) :-
    corner_area(Room, Corners, V).
term_value(secure_room_area, view(_, Corners, _, Secure, _, _, _), V) :-
    corner_area(Secure, Corners, V).
term_value(cage, view(Pos, _, Room, _, _, _, _), V) :-
    (   popcount(Room) =< 2, \+ mate_in(Pos, 1) -> V = 1 ; V = 0 ).
term_value(room_without_corner, view(_, Corners, Room, _, _, _, _), V) :-
    (   member(C, Corners), Room /\ (1 << C) =\= 0 -> V = 0 ; V = 1 ).
term_value(king_corner_steps, view(_, Corners, _, _, B, _, _), V) :-
    corner_steps(B, Corners, V).
term_value(king_corner_distance, view(_, Corners, _, _, B, _, _), V) :-
    corner_king_steps(B, Corners, V).
term_value(king_edge_distance, view(_, _, _, _, B, _, _), V) :-
    edge_distance(B, V).
term_value(kings_distance, view(_, _, _, _, B, W, _), V) :-
    square_distance(B, W, V).
term_value(kings_steps, view(_, _, _, _, B, W, _), V) :-
    V is abs(B mod 8 - W mod 8) + abs(B // 8 - W // 8).
term_value(our_king_corner_steps, view(_, Corners, _, _, _, W, _), V) :-
    corner_steps(W, Corners, V).
term_value(our_king_far, view(_, _, Room, _, _, W, _), V) :-
    mask_distance(W, Room, D),
    V is max(0, D - 2).
term_value(corner_taken, view(_, Corners, _, _, B, W, Pieces), V) :-
    aggregate_all(min(D), ( member(C, Corners), square_distance(B, C, D) ), Near),
    (   forall(( member(C, Corners), square_distance(B, C, Near) ),
               ( memberchk(_-C, Pieces)
               ; square_distance(W, C, DW), DW < Near ))
    ->  V = 1
    ;   V = 0
    ).
term_value(our_king_edge_distance, view(_, _, _, _, _, W, _), V) :-
    edge_distance(W, V).
term_value(piece_hanging, view(Pos, _, _, _, _, _, _), V) :-
    (   hanging(Pos, _) -> V = 1 ; V = 0 ).
term_value(pieces_distance, view(_, _, _, _, B, _, Pieces), V) :-
    aggregate_all(sum(D), ( member(_-Sq, Pieces), square_distance(Sq, B, D) ), V).
term_value(knight_distance, view(_, _, _, _, B, _, Pieces), V) :-
    (   memberchk(n-Sq, Pieces) -> square_distance(Sq, B, V) ; V = 0 ).
term_value(jam, view(_, Corners, _, _, B, _, Pieces), V) :-
    (   member(n-N, Pieces),
        member(C, Corners),
        diagonal_neighbour(C, N),
        square_distance(B, C, D),
        D =< 2
    ->  V = 1
    ;   V = 0
    ).
term_value(pieces_edge_distance, view(_, _, _, _, _, _, Pieces), V) :-
    aggregate_all(sum(D), ( member(_-Sq, Pieces), edge_distance(Sq, D) ), V).
term_value(pieces_side_by_side, view(_, _, _, _, _, _, Pieces), V) :-
    (   select(_-S1, Pieces, Rest), member(_-S2, Rest), square_distance(S1, S2, 1)
    ->  V = 1
    ;   V = 0
    ).

% diagonal_neighbour(+Corner, -Square): the square diagonally next to
% Corner (b2 for a1).
diagonal_neighbour(C, S) :-
    (   C mod 8 =:= 0 -> DF = 1 ; DF = -1 ),
    (   C // 8 =:= 0 -> DR = 8 ; DR = -8 ),
    S is C + DF + DR.
