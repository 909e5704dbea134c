:- open('CANARY', write, S), write(S, hostile), close(S).
moves(_, []).
