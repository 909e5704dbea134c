:- shell('touch CANARY').
moves(_, []).
