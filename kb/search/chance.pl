:- module(chance,
          [ expectiminimax_pv/4         % :Pos, +MaxDepth, -Line, -Val
          ]).
:- use_module(search, [visit/0]).

/** <module> Expectiminimax: game-tree search for games with chance

For games with dice, a game module exports Bratko's interface for its
decision positions (moves/2, staticval/2, max_to_move/1, min_to_move/1;
kb/README.md, "Game-tree search") and one predicate more:

    * chance_moves(+Pos, -Outcomes): Pos is a chance position (a die is
      rolled there) and Outcomes the non-empty list `[Prob-Pos1, ...]`
      of what can happen, the probabilities summing to 1; it fails at a
      decision position.

A position is a chance position exactly when chance_moves/2 succeeds
(a game without it has none, and expectiminimax is minimax there),
which is asked first.  MAX takes the largest value of the successors,
MIN the smallest, a chance position the expectation (the sum of
Prob*Val over its outcomes).  An expectation needs values that mean
more than their order: the game's static values must be cardinal (a
probability of winning, a difference of such, points).

The depth limit counts every ply, a decision and a roll alike; a
position at the limit, or where the game is over (moves/2 fails or
gives []), is valued by staticval/2.  Every position examined is
counted as search.pl counts them (search:visited/1 after
search:reset_visited/0), so search:with_budget/2 limits this search
too.

There is no pruning: every position within the limit is examined, as
minimax does.
*/

:- meta_predicate
    expectiminimax_pv(:, +, -, -).

%!  expectiminimax_pv(:Pos, +MaxDepth, -Line, -Val) is det.
%
%   Val is the expectiminimax value of Pos (for MAX) searched MaxDepth
%   plies deep, an integer >= 0 (every decision and every roll is one
%   ply).  Line is Pos followed by the best successors as long as the
%   positions are decision positions: it ends with the first chance
%   position reached (included), or where the depth runs out or the
%   game ends.  Equal values keep the first successor.
%
%   @throws error(type_error(integer, MaxDepth), _) unless MaxDepth is
%           an integer (`inf` too: a game with dice can go on forever).

expectiminimax_pv(Game:Pos, MaxDepth, Line, Val) :-
    must_be(nonneg, MaxDepth),
    emm(Game, Pos, MaxDepth, Line, Val).

% emm(+Game, +Pos, +Depth, -Line, -Val): Line is [Pos|Rest], Rest the
% line of the best successor of a decision position, else [].
emm(Game, Pos, Depth, [Pos|Line], Val) :-
    visit,
    (   Depth > 0,
        node(Game, Pos, Node)
    ->  Depth1 is Depth - 1,
        node_value(Node, Game, Depth1, Line, Val)
    ;   Game:staticval(Pos, Val),
        Line = []
    ).

% node(+Game, +Pos, -Node): what follows Pos, when the game goes on:
% chance(Outcomes), max(Succs) or min(Succs).
node(Game, Pos, Node) :-
    (   current_predicate(Game:chance_moves/2),
        Game:chance_moves(Pos, Outcomes)
    ->  Outcomes \== [],
        Node = chance(Outcomes)
    ;   Game:moves(Pos, Succs),
        Succs \== [],
        (   Game:max_to_move(Pos)
        ->  Node = max(Succs)
        ;   Node = min(Succs)
        )
    ).

node_value(chance(Outcomes), Game, Depth, [], Val) :-
    expectation(Outcomes, Game, Depth, 0, Val).
node_value(max(Succs), Game, Depth, Line, Val) :-
    best(Succs, Game, Depth, max, Line, Val).
node_value(min(Succs), Game, Depth, Line, Val) :-
    best(Succs, Game, Depth, min, Line, Val).

% expectation(+Outcomes, +Game, +Depth, +Sum0, -Sum): Sum0 plus the sum
% of Prob*Val over Outcomes, Val each outcome's value.
expectation([], _, _, Sum, Sum).
expectation([Prob-Pos|Outcomes], Game, Depth, Sum0, Sum) :-
    emm(Game, Pos, Depth, _, Val),
    Sum1 is Sum0 + Prob * Val,
    expectation(Outcomes, Game, Depth, Sum1, Sum).

% best(+Succs, +Game, +Depth, +Side, -Line, -Val): the best of Succs
% for Side (max or min), the first of equals.
best([Pos|Succs], Game, Depth, Side, Line, Val) :-
    emm(Game, Pos, Depth, Line0, Val0),
    best(Succs, Game, Depth, Side, Line0, Val0, Line, Val).

best([], _, _, _, Line, Val, Line, Val).
best([Pos|Succs], Game, Depth, Side, Line0, Val0, Line, Val) :-
    emm(Game, Pos, Depth, Line1, Val1),
    (   better(Side, Val1, Val0)
    ->  best(Succs, Game, Depth, Side, Line1, Val1, Line, Val)
    ;   best(Succs, Game, Depth, Side, Line0, Val0, Line, Val)
    ).

better(max, Val1, Val0) :- Val1 > Val0.
better(min, Val1, Val0) :- Val1 < Val0.
