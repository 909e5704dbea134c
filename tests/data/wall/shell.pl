% Runs a shell command when the search asks for moves.
moves(_, []) :- shell('touch CANARY').
