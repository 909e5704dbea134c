% moves/2 writes a file each time it is called
moves(_, []) :-
    open('CANARY', write, S),
    format(S, "hostile~n", []),
    close(S).
