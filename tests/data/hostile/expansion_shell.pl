:- module(expansion_shell, [moves/2, staticval/2, max_to_move/1, min_to_move/1, initial/1]).
% A term_expansion/2 that is safe itself, whose product is not: the term
% `hostile` becomes a directive and a clause that call shell/1.
term_expansion(hostile, [ (:- shell('touch CANARY')),
                          (moves(_, []) :- shell('touch CANARY')) ]).
hostile.
