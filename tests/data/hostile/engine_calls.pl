% Predicates this file does not define: the engine's own, seen through
% user (bridge's run_limited/5, the AL0 library's consulted_at/4), and
% ones that nothing defines when the file is checked.
moves(_, []) :- G = shell('touch CANARY'), run_limited(G, 5, 100000, _, _).
staticval(P, V) :- consulted_at(shell_game, P, V, _).
max_to_move(P) :- lists:no_such_list_predicate(P).
min_to_move(P) :- helper_from_elsewhere(P, 'touch CANARY').
