% Ada's Nim player: leave the opponent 4k + 1 sticks when a take of 1, 2
% or 3 does; otherwise take one.

take(Sticks, Take) :-
    between(1, 3, Take),
    Take =< Sticks,
    (Sticks - Take) mod 4 =:= 1,
    !.
take(_, 1).
