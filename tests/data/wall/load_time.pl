% Starts a program while the file loads, before any search.
:- initialization(shell('touch CANARY')).
moves(_, []).
