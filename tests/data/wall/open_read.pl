% Reads a file beside it that is not one of the job's inputs, and leaves
% what it read where a canary would show it.
moves(_, []) :- open('SECRET', read, In), read_term(In, T, []), close(In),
    open('CANARY', write, Out), write(Out, T), close(Out).
