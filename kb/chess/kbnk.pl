:- module(kbnk, [chess_material/2, mating_distance/2]).
:- reexport(endgame).
:- reexport(symmetry).
:- use_module(cornering, [cornering_measure/3]).

/** <module> King, bishop and knight against king

The domain of a KBNK table (`uses chess/kbnk`; none is shipped yet):
chess/endgame.pl for this material, the board's symmetries
(chess/symmetry.pl), and the measure of progress such a table drives
by, mating_distance/2, written in the concepts of chess/concepts.pl.
Nothing here reads a tablebase.
*/

%! chess_material(-White, -Black) is det.
chess_material('KBN', 'K').

%! mating_distance(+Pos, -Distance) is det.
%
%  How far White is from mate at Pos, as the bishop and knight's
%  technique sees it (an integer; smaller is nearer): chess/cornering.pl's
%  measure with kbnk_weights/1.

mating_distance(eg(P, _), D) :-
    kbnk_weights(Weights),
    cornering_measure(P, Weights, D).

%! kbnk_weights(-Weights) is det.
%
%  The measure orders its concepts, each weight far above what the
%  terms after it can add up to: a piece left en prise first, then our
%  king far from the black king's room, the black king in a cage (a
%  room of one or two squares with no mate in one: it must be let out
%  before it can be mated) and the knight in the way of the net in a
%  mating corner (a jam: the black king must be let run to the other
%  corner), then the triangle at a mating corner that the secure room
%  lies in (concepts:corner_area/3), then the room and the secure room
%  and their weights, the kings' distance and the rest.  The weights
%  were chosen with bench/kbnk_forcing_depth.py, which works out over
%  every won position with White to move the least forcing tree that
%  makes the measure smaller: with these, every one has a tree of at
%  most ten moves, and all but 888 one of at most four.  No weight was
%  fitted to a tablebase.

kbnk_weights([ piece_hanging-100000, our_king_far-10000, cage-10000, jam-10000,
               secure_room_area-1010, room-7, room_weight-3, secure_room-7,
               secure_room_weight-3, kings_distance-5, kings_steps-2, knight_distance-1,
               king_corner_steps-1, king_edge_distance-3, our_king_edge_distance-(-2) ]).
