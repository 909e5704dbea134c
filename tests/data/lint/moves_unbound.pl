% moves/2 forgets to say who moves next.
initial(c(4, max)).

moves(c(N, _), Ps) :-
    N > 0,
    findall(c(M, _), (member(D, [1, 2]), M is N - D, M >= 0), Ps).

max_to_move(c(_, max)).
min_to_move(c(_, min)).

staticval(c(0, min), 1) :- !.
staticval(c(0, max), -1) :- !.
staticval(c(_, _), 0).
