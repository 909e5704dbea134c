:- module(krrk, [chess_material/2]).
:- reexport(endgame).

/** <module> King and two rooks against king

The domain of kb/chess/krrk.adv: chess/endgame.pl for this material, whose
goals and move constraints (chess/mating.pl) the table is written in.
*/

%! chess_material(-White, -Black) is det.
chess_material('KRR', 'K').
