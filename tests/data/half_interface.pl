moves(_, []).
