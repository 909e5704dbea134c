% moves/2 gives the sticks left, not positions.
initial(c(4, max)).

moves(c(N, _), Ms) :-
    N > 0,
    findall(M, (member(D, [1, 2]), M is N - D, M >= 0), Ms).

max_to_move(c(_, max)).
min_to_move(c(_, min)).

staticval(c(0, min), 1) :- !.
staticval(c(0, max), -1) :- !.
staticval(c(_, _), 0).
