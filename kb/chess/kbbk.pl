:- module(kbbk, [chess_material/2, mating_distance/2]).
:- reexport(endgame).
:- reexport(symmetry).
:- use_module(concepts, [room_mask/2, secure_room_mask/2, mating_corners/2, corner_weight/3,
                         corner_steps/3, corner_king_steps/3, edge_distance/2, kings_distance/2,
                         king_square/3, hanging/2]).

/** <module> King and two bishops against king

The domain of kb/chess/kbbk.adv: chess/endgame.pl for this material,
the board's symmetries (chess/symmetry.pl: the table decides alike in
symmetric positions, and a proof values each class of them once), and
the measure of progress the table drives by, mating_distance/2, written
in the concepts of chess/concepts.pl.  Nothing here reads a tablebase.
*/

%! chess_material(-White, -Black) is det.
chess_material('KBB', 'K').

%! mating_distance(+Pos, -Distance) is det.
%
%  How far White is from mate at Pos, as the two bishops' technique
%  sees it (an integer; smaller is nearer).  The black king must end in
%  a corner, shut in by the bishops' diagonals and our king, so the
%  measure adds up:
%
%    - its room (concepts:room_mask/2), each square weighed by its king
%      steps C to the nearest corner: 4C - 4, so a room near a corner
%      weighs little and one in the middle of the board much;
%    - its secure room (concepts:secure_room_mask/2: the room it keeps
%      even if it chases a bishop our king does not defend), each square
%      weighed 4C + 1: a cage the black king can break by harassing a
%      bishop is not counted as a cage;
%    - 462 when the room holds no corner (the king is shut in where it
%      cannot be mated: it must be let out first);
%    - the black king's steps along files and ranks to the nearest
%      corner (8 each) and its distance to the edge (10 each), less its
%      king steps to the corner (1 each);
%    - the kings' distance (8 each) and our king's distance to the edge
%      (1 each);
%    - 34 when a bishop stands attacked and undefended.
%
%  The weights were set by trying tables against the proof of
%  `advice verify kbbk --defender all` (every won start, every
%  defence): the measure must leave no position from which no forcing
%  tree of the table's makes it smaller.

mating_distance(eg(P, _), D) :-
    mating_corners(P, Corners),
    room_mask(P, Room),
    secure_room_mask(P, Secure),
    weighed(Room, Corners, 4, -4, RoomWeight),
    weighed(Secure, Corners, 4, 1, SecureWeight),
    (   member(C, Corners), Room /\ (1 << C) =\= 0 -> Cornered = 0 ; Cornered = 462 ),
    king_square(P, b, B),
    king_square(P, w, W),
    corner_steps(B, Corners, Steps),
    corner_king_steps(B, Corners, KingSteps),
    edge_distance(B, Edge),
    kings_distance(P, Kings),
    edge_distance(W, OurEdge),
    (   hanging(P, _) -> Hanging = 34 ; Hanging = 0 ),
    D is RoomWeight + SecureWeight + Cornered
         + 8*Steps + 10*Edge - KingSteps + 8*Kings + OurEdge + Hanging.

% weighed(+Mask, +Corners, +A, +B, -Weight): the sum over the squares of
% Mask of A*C + B, C their king steps to the nearest of Corners.
weighed(Mask, Corners, A, B, Weight) :-
    corner_weight(Mask, Corners, W1),          % the sum of C + 1
    Weight is A*W1 + (B - A)*popcount(Mask).
