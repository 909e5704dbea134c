% passes the check (facts asserted into its own module); fills memory
:- dynamic hoard/1.
moves(_, _) :- forall(between(1, inf, I), assertz(hoard(I))).
