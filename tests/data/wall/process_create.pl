% Starts a program with process_create/3.
:- use_module(library(process)).
moves(_, []) :- process_create(path(touch), ['CANARY'], []).
