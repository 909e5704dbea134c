% moves/2 gives one successor, not the list of them.
initial(c(4, max)).

moves(c(N, P), c(M, Q)) :-
    N > 0,
    other(P, Q),
    M is N - 1.

other(max, min).
other(min, max).

max_to_move(c(_, max)).
min_to_move(c(_, min)).

staticval(c(0, min), 1) :- !.
staticval(c(0, max), -1) :- !.
staticval(c(_, _), 0).
