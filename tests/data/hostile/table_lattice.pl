:- table reach(_, po(call/2)).
:- table best(_, lattice(shortest/3)).
:- table plain/1, cost(_, min), longest(index, max) as subsumptive.
:- table again/1 as on_answer(shell).
reach(a, 1).
best(a, 1).
shortest(A, B, C) :- C is min(A, B).
plain(1).
cost(a, 1).
longest(a, 1).
again(1).
moves(_, []) :- reach(a, _), best(a, _).
