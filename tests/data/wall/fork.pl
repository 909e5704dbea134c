% Creates a process; the child makes the canary.
:- use_module(library(unix)).
moves(_, []) :- fork(P), ( P == child -> open('CANARY', write, S), close(S), halt ; true ).
