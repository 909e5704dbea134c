moves(_, []) :-
    assertz(bridge:foo),
    assertz(user:foo).
% a hook the engine's Prolog would call whenever it prints a term
user:portray(_) :- fail.
