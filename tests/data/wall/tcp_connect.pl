% Opens a network connection.
:- use_module(library(socket)).
moves(_, []) :- tcp_connect(localhost:9, Stream, []), close(Stream).
