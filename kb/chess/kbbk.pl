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
%  The measure estimates White's moves to mate, in hundredths of a
%  move.  Its terms (chess/cornering.pl) and all but one of their
%  weights were fitted by least squares to the moves to mate of every
%  tenth won position (`python bench/fit_cornering.py chess/kbbk.adv
%  --every 10`, which reads our tablebase: R^2 0.75, an error of 1.49
%  moves root mean square); the table reads nothing of it.  Each step
%  of the black king along files and ranks to the nearest corner costs
%  about two moves (less nearly one for each king step), each step
%  between the kings about two thirds of one, the bishops' distances to
%  the black king and its room and secure room (each square weighed by
%  its distance to the corners) the rest, and a bishop en prise nearly
%  two moves.  The weight set by hand: a corner taken (our king nearer
%  it than the black king, or a bishop on it) costs four moves.  The
%  fit gives it less than half a move, for most such positions are no
%  farther from mate than the others; but where our king or a bishop
%  holds the corner the black king stands beside, no forcing tree of
%  five moves made the fitted measure smaller (the black king stays by
%  the corner, and our piece cannot leave it without moving away), and
%  with this weight leaving the corner is progress.

kbbk_weights([ king_corner_steps-196, king_corner_distance-(-84), kings_distance-66,
               kings_steps-31, our_king_edge_distance-(-25), pieces_distance-21,
               room_weight-5, room-(-14), secure_room_weight-4, secure_room-(-11),
               piece_hanging-179, corner_taken-400 ]).
