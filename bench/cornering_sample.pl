:- module(cornering_sample, [cornering_sample_job/4]).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(solution_sequences)).

/** <module> A sample of a domain's won positions, with the terms of a cornering measure

For bench/fit_cornering.py: the tablebase's moves to mate beside the
values of chess/cornering.pl's terms, from which the script fits a
knowledge base's weights.  It reads the tablebase, so it belongs to no
table.
*/

%! cornering_sample_job(+KB, +Every, +Names, -Text) is det.
%
%  Text has a line for every Every-th position of KB's start set `won`
%  (the first, then every Every-th after it): the moves to mate with
%  best play (KB's optimal_moves/2), KB's own measure there (its
%  mating_distance/2), then the value of each term of Names
%  (chess_cornering:cornering_term/3), separated by spaces.

cornering_sample_job(M, Every, Names, Text) :-
    findall(Line,
            ( call_nth(M:start(won, Pos), Nth),
              Nth mod Every =:= 1 mod Every,
              sampled_line(M, Names, Pos, Line) ),
            Lines),
    atomic_list_concat(Lines, '\n', Text).

sampled_line(M, Names, Pos, Line) :-
    M:optimal_moves(Pos, Moves),
    M:mating_distance(Pos, Shipped),
    Pos = eg(P, _),
    maplist(term_value(P), Names, Values),
    atomic_list_concat([Moves, Shipped|Values], ' ', Line).

term_value(P, Name, Value) :-
    chess_cornering:cornering_term(Name, P, Value).
