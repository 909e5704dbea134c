:- module(ordinary, [initial/1, moves/2, staticval/2, max_to_move/1, min_to_move/1,
                     show_position/2]).
/** <module> What an ordinary student's game may do

A counter from N; each move subtracts 1 or 2; whoever reaches 0 wins.
It uses what the check allows: standard libraries, declarations,
findall/3, named closures and lambdas, grammar rules, output captured
in a string, and facts asserted into its own module.
*/

:- use_module(library(lists)).
:- use_module(library(apply), [maplist/3, foldl/4]).
:- dynamic seen/1.
:- discontiguous staticval/2.
:- set_prolog_flag(double_quotes, codes).

initial(c(4, max)).

moves(c(N, P), Ps) :-
    N > 0,
    other(P, Q),
    findall(c(M, Q), (member(D, [1, 2]), M is N - D, M >= 0), Ps0),
    maplist([Pos, Pos]>>true, Ps0, Ps),
    remember(c(N, P)).

remember(Pos) :-
    (   seen(Pos) -> true ; assertz(seen(Pos)) ).

other(max, min).
other(min, max).

max_to_move(c(_, max)).
min_to_move(c(_, min)).

staticval(c(0, min), 1) :- !.
staticval(c(0, max), -1) :- !.
staticval(c(_, _), 0).

show_position(c(N, P), Text) :-
    sticks(N, Codes),
    with_output_to(string(Text), (format("~s", [Codes]), tab(1), writeq(P), nl)).

sticks(N, Codes) :-
    phrase(bars(N), Codes).

bars(0) --> !, [].
bars(N) --> "|", { N1 is N - 1, call(succ, N1, N) }, bars(N1).

total(Ns, Sum) :-
    foldl([X, A0, A]>>(A is A0 + X), Ns, 0, Sum).
