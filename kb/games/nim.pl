:- module(nim,
          [ initial/1,                  % -Pos
            moves/2,                    % +Pos, -PosList
            staticval/2,                % +Pos, -Val
            max_to_move/1,              % +Pos
            min_to_move/1               % +Pos
          ]).

/** <module> Nim with one pile, for Bratko's game-tree searches

A position is nim(Sticks, Mover): Sticks left on the pile and Mover
(max or min) to move. A move takes 1, 2 or 3 sticks; whoever takes the
last stick loses. The side to move loses exactly when Sticks mod 4 is 1.

Values are for MAX: 100 for a win, -100 for a loss. The static
evaluation of a position that is not over applies the mod-4 rule at half
weight (50 or -50): the theory of the game, as a heuristic.
*/

%!  initial(-Pos) is det.
%
%   Pos is a pile of 21 sticks with MAX to move.

initial(nim(21, max)).

%!  max_to_move(+Pos) is semidet.
%
%   MAX is to move in Pos.

max_to_move(nim(_, max)).

%!  min_to_move(+Pos) is semidet.
%
%   MIN is to move in Pos.

min_to_move(nim(_, min)).

%!  moves(+Pos, -PosList) is semidet.
%
%   PosList holds the positions after taking 1, 2 or 3 sticks (as many
%   as there are). Fails on an empty pile: the game is over.

moves(nim(Sticks, Mover), Succs) :-
    Sticks > 0,
    other(Mover, Other),
    Most is min(3, Sticks),
    findall(nim(Left, Other),
            ( between(1, Most, Take), Left is Sticks - Take ),
            Succs).

other(max, min).
other(min, max).

%!  staticval(+Pos, -Val) is det.
%
%   On an empty pile the side to move has won (the other took the last
%   stick): 100 or -100 for MAX. Elsewhere the side to move is losing
%   exactly when Sticks mod 4 is 1: -50 or 50 for MAX.

staticval(nim(0, Mover), Val) :- !,
    for_max(Mover, 100, Val).
staticval(nim(Sticks, Mover), Val) :-
    (   Sticks mod 4 =:= 1
    ->  for_max(Mover, -50, Val)
    ;   for_max(Mover, 50, Val)
    ).

for_max(max, Val, Val).
for_max(min, Val0, Val) :- Val is -Val0.
