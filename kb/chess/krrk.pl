:- module(krrk, [chess_material/2, mating_distance/2]).
:- reexport(endgame).
:- use_module(concepts, [box_lines/2, kings_distance/2, hanging/2]).

/** <module> King and two rooks against king

The domain of kb/chess/krrk.adv: chess/endgame.pl for this material, whose
goals and move constraints (chess/mating.pl) the table is written in, and
the measure its closer_in_1 advice drives by, mating_distance/2, written in
the concepts of chess/concepts.pl.  Nothing here reads a tablebase.
*/

%! chess_material(-White, -Black) is det.
chess_material('KRR', 'K').

%! mating_distance(+Pos, -Distance) is det.
%
%  How far White is from mate at Pos, as the rook roller sees it (an
%  integer; smaller is nearer): the lines the black king's box spans to
%  its edge (concepts:box_lines/2, 1000 each), then the box's squares
%  (4 each) and the kings' distance (30 each), and 2000 when a rook
%  stands attacked and undefended.  A line counts for more than all the
%  rest, so a move that takes no line is progress when it takes squares
%  from the box or brings our king nearer, and never when it gives the
%  box a line.

mating_distance(eg(P, _), D) :-
    box_lines(P, Lines-Squares),
    kings_distance(P, Kings),
    (   hanging(P, _) -> Hanging = 1 ; Hanging = 0 ),
    D is 1000 * Lines + 4 * Squares + 30 * Kings + 2000 * Hanging.
