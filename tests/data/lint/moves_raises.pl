% moves/2 takes "two" sticks where it means 2.
initial(c(4, max)).

moves(c(N, P), Ps) :-
    N > 0,
    other(P, Q),
    findall(c(M, Q), (member(D, [1, two]), M is N - D, M >= 0), Ps).

other(max, min).
other(min, max).

max_to_move(c(_, max)).
min_to_move(c(_, min)).

staticval(c(0, min), 1) :- !.
staticval(c(0, max), -1) :- !.
staticval(c(_, _), 0).
