:- module(kbbk, [chess_material/2, mating_distance/2]).
:- reexport(endgame).
:- reexport(symmetry).
:- use_module(cornering, [cornering_measure/3]).

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
%  sees it (an integer; smaller is nearer): chess/cornering.pl's
%  measure with kbbk_weights/1.

mating_distance(eg(P, _), D) :-
    kbbk_weights(Weights),
    cornering_measure(P, Weights, D).

%! kbbk_weights(-Weights) is det.
%
%  The black king must end in a corner, shut in by the bishops'
%  diagonals and our king, so the measure adds up:
%
%    - its room, each square weighed by its king steps C to the nearest
%      corner: 4C - 4 (4 for each step plus one, less 8 a square), so a
%      room near a corner weighs little and one in the middle of the
%      board much;
%    - its secure room (the room it keeps even if it chases a bishop our
%      king does not defend), each square weighed 4C + 1: a cage the
%      black king can break by harassing a bishop is not counted as a
%      cage;
%    - 462 when the room holds no corner (the king is shut in where it
%      cannot be mated: it must be let out first);
%    - the black king's steps along files and ranks to the nearest
%      corner (8 each) and its distance to the edge (10 each), less its
%      king steps to the corner (1 each);
%    - the kings' distance (8 each) and our king's distance to the edge
%      (1 each);
%    - 34 when a bishop stands attacked and undefended.
%
%  The weights were chosen by trying them, against a tablebase, in a
%  model of this table outside the project, until no won position was
%  left from which no forcing tree of the table's makes the measure
%  smaller; the table itself reads no tablebase, and
%  `advice verify kbbk --defender all` proves it from every start.

kbbk_weights([ room_weight-4, room-(-8), secure_room_weight-4, secure_room-(-3),
               room_without_corner-462, king_corner_steps-8, king_edge_distance-10,
               king_corner_distance-(-1), kings_distance-8, our_king_edge_distance-1,
               piece_hanging-34 ]).
