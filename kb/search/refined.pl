:- module(refined,
          [ ordered_alphabeta_pv/6,     % :Pos, +Alpha, +Beta, +MaxDepth, -Line, -Val
            tt_alphabeta_pv/4,          % :Pos, +MaxDepth, -Line, -Val
            iterative_deepening/3,      % :Pos, +Budget, -Result
            quiescence_pv/4,            % :Pos, +MaxDepth, -Line, -Val
            ordered_successors/3,       % +Game, +Pos, -Succs
            clear_table/0
          ]).
:- use_module(library(lists)).
:- use_module(library(pairs)).
:- use_module(library(apply)).
:- use_module(search, [visit/0, visited/1, reset_visited/0, with_budget/2]).
:- use_module(outcomes, [leaf_value/4, leaf_value/5, farther/2, nearer/2]).
:- set_prolog_flag(optimise, true).

/** <module> Alpha-beta refined: move ordering, a transposition table, iterative deepening

The searches of search.pl, made faster the ways a course teaches, for any
game with Bratko's interface (moves/2, staticval/2, max_to_move/1,
min_to_move/1; kb/README.md, "Game-tree search"):

  - **move ordering**: the successors of a position are searched best
    first for the side to move, by their static values, unless the game
    exports `order_moves(+Pos, -Succs)` to order them itself;
  - **a transposition table**: each position searched is stored with its
    value, whether that value is exact or a lower or upper bound (a
    cut-off leaves only a bound), the depth it was searched to, and its
    best successor, which is searched first when the position comes
    again.  Positions are found by `position_key(+Pos, -Key)` when the
    game exports it, else by term_hash/2, and compared in full, so two
    positions with the same key are never confused;
  - **iterative deepening**: depth 1, 2, ... until a budget of positions
    or milliseconds runs out, keeping the table between depths, so that
    the best line of one depth is searched first at the next;
  - **quiescence search**: at the depth limit, a position the game calls
    noisy (`noisy_moves(+Pos, -Succs)` gives successors, e.g. captures or
    the answers to a threat) is searched further along those moves only,
    until every line ends in a quiet position.

Every search counts the positions it visits as search.pl does (visited/1
after reset_visited/0); ordering by static value evaluates successors
without counting them as visited.
*/

:- meta_predicate
    ordered_alphabeta_pv(:, +, +, +, -, -),
    quiescence_pv(:, +, -, -),
    tt_alphabeta_pv(:, +, -, -),
    iterative_deepening(:, +, -).

:- dynamic entry/6.                 % Key, Pos, Depth, Bound, Val, Best

%!  clear_table is det.
%
%   Empties the transposition table.

clear_table :-
    retractall(entry(_, _, _, _, _, _)).

%!  ordered_successors(+Game, +Pos, -Succs) is semidet.
%
%   The successors of Pos, best first for the side to move: the game's
%   order_moves/2, else moves/2 sorted by static value (descending for
%   MAX, ascending for MIN; equal values keep their order).  Fails when
%   Pos is over.

ordered_successors(Game, Pos, Succs) :-
    to_move(Game, Pos, Side),
    ordered_successors(Game, Pos, Side, Succs).

% ordered_successors(+Game, +Pos, +Side, -Succs): as ordered_successors/3,
% Side (max or min) moving in Pos.
ordered_successors(Game, Pos, Side, Succs) :-
    (   current_predicate(Game:order_moves/2)
    ->  Game:order_moves(Pos, Succs)
    ;   Game:moves(Pos, Succs0),
        map_list_to_pairs(static_key(Game, Side), Succs0, Keyed),
        keysort(Keyed, Sorted),
        pairs_values(Sorted, Succs)
    ),
    Succs \== [].

static_key(Game, Side, Succ, Key) :-
    Game:staticval(Succ, V),
    (   Side == max -> Key is -V ; Key = V ).

% to_move(+Game, +Pos, -Side): Side (max or min) moves in Pos.
to_move(Game, Pos, Side) :-
    (   Game:max_to_move(Pos) -> Side = max ; Side = min ).

%!  ordered_alphabeta_pv(:Pos, +Alpha, +Beta, +MaxDepth, -Line, -Val) is det.
%
%   Alpha-beta (as search:alphabeta_pv/6) with the successors searched
%   best first (ordered_successors/3).

ordered_alphabeta_pv(Game:Pos, Alpha, Beta, MaxDepth, Line, Val) :-
    oab(Game, Pos, Alpha, Beta, MaxDepth, Line, Val).

oab(Game, Pos, Alpha, Beta, Depth, [Pos|Line], Val) :-
    visit,
    (   Depth \== 0,
        to_move(Game, Pos, Side),
        ordered_successors(Game, Pos, Side, Succs)
    ->  lower(Depth, Depth1),
        best_successor(Succs, oab, Game, Side, Alpha, Beta, Depth1, none, Line, Val)
    ;   leaf_value(Game, Pos, Depth, Val),
        Line = []
    ).

% best_successor(+Succs, +Search, +Game, +Side, +Alpha, +Beta, +Depth,
%                +Best0, -Line, -Val): searches the successors Succs of
% Pos, where Side moves, in turn with Search (oab, tab, qab or quiet),
% narrowing the window, until one cuts off; Best0 is `none` or
% Line0-Val0, the best successor so far.
% Values and the window are Pos's (outcomes.pl): a successor is searched
% in the window one ply nearer, and its value taken one ply farther.
best_successor([], _, _, _, _, _, _, Line-Val, Line, Val).
best_successor([S|Ss], Search, Game, Side, Alpha, Beta, Depth, Best0, Line, Val) :-
    nearer(Alpha, AlphaS),
    nearer(Beta, BetaS),
    call(Search, Game, S, AlphaS, BetaS, Depth, L1, VS),
    farther(VS, V1),
    better(Side, Best0, L1-V1, Best),
    Best = _-BV,
    (   cut_off(Side, BV, Alpha, Beta)
    ->  Best = Line-Val
    ;   narrowed(Side, BV, Alpha, Beta, Alpha1, Beta1),
        best_successor(Ss, Search, Game, Side, Alpha1, Beta1, Depth, Best, Line, Val)
    ).

better(_, none, New, New) :- !.
better(max, L0-V0, L1-V1, Best) :-
    (   V1 > V0 -> Best = L1-V1 ; Best = L0-V0 ).
better(min, L0-V0, L1-V1, Best) :-
    (   V1 < V0 -> Best = L1-V1 ; Best = L0-V0 ).

cut_off(max, V, _, Beta) :-
    V >= Beta.
cut_off(min, V, Alpha, _) :-
    V =< Alpha.

narrowed(max, V, Alpha, Beta, Alpha1, Beta) :-
    Alpha1 is max(Alpha, V).
narrowed(min, V, Alpha, Beta, Alpha, Beta1) :-
    Beta1 is min(Beta, V).

lower(inf, inf) :- !.
lower(D, D1) :- D1 is D - 1.

%!  quiescence_pv(:Pos, +MaxDepth, -Line, -Val) is det.
%
%   Alpha-beta to MaxDepth (an integer) whose positions at the depth
%   limit are valued by quiescence search: where the game's
%   `noisy_moves/2` gives successors, the side to move takes the better
%   of its static value (it "stands pat") and the noisy moves, each
%   searched the same way, with no depth limit: noisy moves must come to
%   an end. Without noisy_moves/2 every position is quiet (plain
%   alpha-beta). Line runs through the noisy moves searched.

quiescence_pv(Game:Pos, MaxDepth, Line, Val) :-
    must_be(nonneg, MaxDepth),
    qab(Game, Pos, -1.0Inf, 1.0Inf, MaxDepth, Line, Val).

qab(Game, Pos, Alpha, Beta, 0, Line, Val) :- !,
    quiet(Game, Pos, Alpha, Beta, 0, Line, Val).
qab(Game, Pos, Alpha, Beta, Depth, [Pos|Line], Val) :-
    visit,
    (   Game:moves(Pos, Succs),
        Succs \== []
    ->  Depth1 is Depth - 1,
        to_move(Game, Pos, Side),
        best_successor(Succs, qab, Game, Side, Alpha, Beta, Depth1, none, Line, Val)
    ;   leaf_value(Game, Pos, Depth, Val),
        Line = []
    ).

quiet(Game, Pos, Alpha, Beta, _, [Pos|Line], Val) :-
    visit,
    leaf_value(Game, Pos, 0, Stand, Kind),
    (   Kind == guess,
        current_predicate(Game:noisy_moves/2),
        Game:noisy_moves(Pos, Succs),
        Succs \== [],
        to_move(Game, Pos, Side),
        \+ cut_off(Side, Stand, Alpha, Beta)
    ->  narrowed(Side, Stand, Alpha, Beta, Alpha1, Beta1),
        best_successor(Succs, quiet, Game, Side, Alpha1, Beta1, 0, []-Stand, Line, Val)
    ;   Line = [],
        Val = Stand
    ).

%!  tt_alphabeta_pv(:Pos, +MaxDepth, -Line, -Val) is det.
%
%   Val is the value of Pos searched to MaxDepth (an integer or `inf`) by
%   alpha-beta with move ordering and the transposition table (which is
%   kept: clear_table/0 empties it); Line is the best line found, Pos
%   first (it stops where the table answered).

tt_alphabeta_pv(Game:Pos, MaxDepth, Line, Val) :-
    tab(Game, Pos, -1.0Inf, 1.0Inf, MaxDepth, Line, Val).

tab(Game, Pos, Alpha, Beta, Depth, Line, Val) :-
    key(Game, Pos, Key),
    (   entry(Key, Pos, Stored, Bound, V, Best), deep_enough(Stored, Depth)
    ->  Hit = hit(Bound, V, Stored, Best)
    ;   entry(Key, Pos, _, _, _, Best)
    ->  Hit = first(Best)
    ;   Hit = none
    ),
    tab_hit(Hit, Game, Pos, Key, Alpha, Beta, Depth, Line, Val).

tab_hit(hit(Bound, V, Stored, _), _, Pos, _, Alpha, Beta, _, [Pos], V) :-
    (   Bound == exact -> true
    ;   Bound == lower -> V >= Beta
    ;   V =< Alpha
    ),
    !,
    at_horizon(Stored).
tab_hit(Hit, Game, Pos, Key, Alpha0, Beta0, Depth, [Pos|Line], Val) :-
    narrowed_by(Hit, Alpha0, Beta0, Alpha, Beta),
    visit,
    nb_getval(search_horizon, H0),
    (   Depth \== 0,
        to_move(Game, Pos, Side),
        ordered_successors(Game, Pos, Side, Succs0)
    ->  first_move(Hit, Succs0, Succs),
        lower(Depth, Depth1),
        best_successor(Succs, tab, Game, Side, Alpha, Beta, Depth1, none, Line, Val),
        Line = [Best|_]
    ;   leaf_value(Game, Pos, Depth, Val, Kind),
        Line = [], Best = none,
        (   Kind == guess -> horizon ; true )
    ),
    nb_getval(search_horizon, H1),
    (   H1 =:= H0 -> Stored = inf ; Stored = Depth ),   % searched to the end
    bound(Val, Alpha, Beta, Bound),
    retractall(entry(Key, Pos, _, _, _, _)),
    assertz(entry(Key, Pos, Stored, Bound, Val, Best)).

% horizon: a value rests on the depth limit (iterative deepening goes on).
horizon :-
    nb_getval(search_horizon, H0),
    H is H0 + 1,
    nb_setval(search_horizon, H).

at_horizon(inf) :- !.
at_horizon(_) :- horizon.

:- nb_setval(search_horizon, 0).

narrowed_by(hit(lower, V, _, _), A0, B, A, B) :- !, A is max(A0, V).
narrowed_by(hit(upper, V, _, _), A, B0, A, B) :- !, B is min(B0, V).
narrowed_by(_, A, B, A, B).

first_move(hit(_, _, _, Best), Succs0, Succs) :- !, first_move(first(Best), Succs0, Succs).
first_move(first(Best), Succs0, [Best|Rest]) :-
    Best \== none,
    selectchk(Best, Succs0, Rest), !.
first_move(_, Succs, Succs).

% bound(+Val, +Alpha, +Beta, -Bound): what a value found in the window
% Alpha..Beta says of the position's value.
bound(V, Alpha, _, upper) :- V =< Alpha, !.
bound(V, _, Beta, lower) :- V >= Beta, !.
bound(_, _, _, exact).

deep_enough(inf, _) :- !.
deep_enough(_, inf) :- !, fail.
deep_enough(Stored, Depth) :- Stored >= Depth.

key(Game, Pos, Key) :-
    (   current_predicate(Game:position_key/2)
    ->  Game:position_key(Pos, Key)
    ;   term_hash(Pos, Key)
    ).

%!  iterative_deepening(:Pos, +Budget, -Result) is det.
%
%   Searches Pos to depth 1, 2, ... with tt_alphabeta_pv/4 (one table for
%   all depths) until Budget runs out (search:with_budget/2:
%   `positions(N)` in all, or `ms(N)`) or a depth searches the game to its
%   end everywhere.  Result is `id(Depth, Line, Val, PerDepth)`: the
%   deepest completed depth, its line and value, and `D-Visited` for each
%   completed depth.  Depth is 0 (Line [Pos], the static value) when not
%   even depth 1 completes.

iterative_deepening(Game:Pos, Budget, Result) :-
    clear_table,
    reset_visited,
    Game:staticval(Pos, V0),
    catch(with_budget(Budget, deepen(Game, Pos, 1, id(0, [Pos], V0, []), Result0)),
          budget_out(Result1), Result0 = Result1),
    Result0 = id(D, Line, Val, PerDepth0),
    reverse(PerDepth0, PerDepth),
    Result = id(D, Line, Val, PerDepth).

deepen(Game, Pos, Depth, Done, Result) :-
    visited(Before),
    nb_getval(search_horizon, H0),
    catch(tt_alphabeta_pv(Game:Pos, Depth, Line, Val), budget_exceeded,
          throw(budget_out(Done))),
    visited(After),
    nb_getval(search_horizon, H1),
    Used is After - Before,
    Done = id(_, _, _, PerDepth),
    Next = id(Depth, Line, Val, [Depth-Used|PerDepth]),
    (   H1 =:= H0                       % no value rested on the depth limit
    ->  Result = Next
    ;   Depth1 is Depth + 1,
        deepen(Game, Pos, Depth1, Next, Result)
    ).
