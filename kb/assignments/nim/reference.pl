% The teacher's reference solution of the Nim assignment (see README.md),
% with the predicates the grader judges a student's player by.
%
% One pile of sticks; a move takes 1, 2 or 3 of them; whoever takes the
% last stick loses. The player to move loses against best play exactly
% when the pile holds 4k + 1 sticks.

%!  take(+Sticks, -Take) is det.
%
%   Take is how many sticks to take from a pile of Sticks (at least 1):
%   as many as leave the opponent 4k + 1, else one (and hope).

take(Sticks, Take) :-
    Take0 is (Sticks - 1) mod 4,
    (   Take0 =:= 0 -> Take = 1 ; Take = Take0 ).

%!  legal_take(+Sticks, +Take) is semidet.
%
%   Take is a legal move from a pile of Sticks.

legal_take(Sticks, Take) :-
    integer(Take),
    Most is min(3, Sticks),
    between(1, Most, Take).

%!  winning_take(+Sticks, +Take) is semidet.
%
%   Take is legal and leaves the opponent a losing pile (4k + 1).

winning_take(Sticks, Take) :-
    legal_take(Sticks, Take),
    (Sticks - Take) mod 4 =:= 1.

%!  pile(-Sticks) is nondet.
%
%   The piles the grader tries: 1 to 40 sticks.

pile(Sticks) :-
    between(1, 40, Sticks).

%!  winning_pile(-Sticks) is nondet.
%
%   The piles up to 40 from which the player to move wins.

winning_pile(Sticks) :-
    pile(Sticks),
    Sticks mod 4 =\= 1.
