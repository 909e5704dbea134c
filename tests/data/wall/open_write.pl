% Writes a file outside the process's scratch folder.
moves(_, []) :- open('CANARY', write, Out), write(Out, owned), close(Out).
