:- module(mcts,
          [ mcts/3                      % :Pos, +Options, -Result
          ]).
:- use_module(library(error)).
:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(option)).
:- use_module(library(random), [random_member/2]).
:- use_module(search, [visit/0]).

/** <module> Monte Carlo tree search (UCT), game-independent

Monte Carlo tree search for any game with Bratko's interface (moves/2,
staticval/2, max_to_move/1, min_to_move/1; kb/README.md, "Game-tree
search").  It needs no evaluation: only the sign of staticval/2 at the
end of a game (> 0 MAX has won, < 0 MIN has, 0 a draw).

Each playout (one iteration) does four things:

  1. **selection**: from the root, down the tree, a child that has
     never been visited (the first in moves/2 order) or, once all have
     been, the child with the highest UCT score
     `Reward/Visits + C * sqrt(ln(ParentVisits)/Visits)`, where Reward
     counts for the side that chose the child (the side to move in its
     parent); ties keep the first child in moves/2 order;
  2. **expansion**: the unvisited child reached joins the tree (a node
     gets its own children the next time the selection reaches it);
  3. **simulation**: random moves (random_member/2 over moves/2) from
     that child to the end of the game;
  4. **backpropagation**: every node on the path counts one more visit,
     and its reward 1 if the side that chose it won the playout, 0.5
     for a draw, 0 for a loss.

The answer is the most visited child of the root.  A run is repeatable:
the random generator is seeded (set_random/1) with the seed option, 0
by default, so the same position and options give the same result and
visit the same positions.

Every position the search looks at calls search:visit/0: the tree nodes
on the path of every playout (the root included) and every position of
its random game, that is, each position of one game from the root to
its end, once per playout.  So visited/1 (after reset_visited/0) counts
them, and search:with_budget/2 limits them, as for the other searches.

**The tree** is one Prolog term, `n(Pos, Side, Visits, Halves, Kids)`
per node: Side is the side that chose Pos (the root's is `none`),
Halves the reward counted in half points (2 per win, 1 per draw, so
that it stays a small integer), Kids `none` before the node is
expanded, `over(Outcome)` when the game is over there, or the list of
child nodes in moves/2 order.  The counters are updated in place with
nb_setarg/3 in a failure-driven loop, so that the positions of each
random game are reclaimed on backtracking and the tree lives only as
long as the call: there is nothing global to clear.
*/

:- meta_predicate
    mcts(:, +, -).

%!  mcts(:Pos, +Options, -Result) is semidet.
%
%   Result is `mcts(Best, Stats)` after a Monte Carlo tree search (UCT)
%   from Pos: Best is the successor of Pos visited most (the first in
%   moves/2 order among equals), and Stats lists `Succ-stats(Visits,
%   Reward)` for every successor Succ of Pos, in moves/2 order, where
%   Reward (a float) is the total reward of the playouts through Succ
%   for the side to move in Pos: 1 per win, 0.5 per draw.  Fails when
%   the game is over in Pos.  Options:
%
%     * playouts(+N): the number of playouts, a positive integer
%       (required);
%     * seed(+S): the seed of the random generator, an integer
%       (default 0); the search reseeds the generator with
%       `set_random(seed(S))`;
%     * exploration(+C): the exploration constant C of UCT, a
%       non-negative number (default `sqrt(2)`).
%
%   An option given twice counts the first time.
%
%   @throws error(existence_error(mcts_option, playouts), _) without
%           playouts(N); error(domain_error(mcts_option, Opt), _) for an
%           unknown option; the errors of must_be/2 for a bad value.

mcts(Game:Pos, Options, mcts(Best, Stats)) :-
    mcts_options(Options, Playouts, Seed, C),
    Game:moves(Pos, Succs),
    Succs \== [],
    set_random(seed(Seed)),
    side_to_move(Game, Pos, Side),
    maplist(leaf(Side), Succs, Kids),
    Root = n(Pos, none, 0, 0, Kids),
    forall(between(1, Playouts, _),
           playout(Game, C, Root)),
    most_visited(Kids, Best),
    maplist(child_stats, Kids, Stats).

% mcts_options(+Options, -Playouts, -Seed, -C)
mcts_options(Options, Playouts, Seed, C) :-
    must_be(list, Options),
    maplist(check_option, Options),
    (   option(playouts(Playouts), Options)
    ->  true
    ;   existence_error(mcts_option, playouts)
    ),
    option(seed(Seed), Options, 0),
    DefaultC is sqrt(2),
    option(exploration(C), Options, DefaultC).

check_option(Option) :-
    must_be(nonvar, Option),
    (   valid_option(Option)
    ->  true
    ;   domain_error(mcts_option, Option)
    ).

valid_option(playouts(N)) :-
    must_be(positive_integer, N).
valid_option(seed(S)) :-
    must_be(integer, S).
valid_option(exploration(C)) :-
    must_be(number, C),
    (   C >= 0
    ->  true
    ;   domain_error(non_negative_number, C)
    ).

side_to_move(Game, Pos, Side) :-
    (   Game:max_to_move(Pos)
    ->  Side = max
    ;   Side = min
    ).

% leaf(+Side, +Pos, -Node): a node not yet visited; Side chose Pos.
leaf(Side, Pos, n(Pos, Side, 0, 0, none)).

% playout(+Game, +C, +Root): one iteration from the root (the tree is
% updated in place).
playout(Game, C, Root) :-
    descend(Game, C, Root, _).

% descend(+Game, +C, +Node, -Outcome): selection below Node, expansion,
% simulation and backpropagation up to Node; Outcome (max, min or draw)
% is the end of the game played.
descend(Game, C, Node, Outcome) :-
    visit,
    arg(5, Node, Kids0),
    (   Kids0 == none
    ->  expand(Game, Node, Kids)
    ;   Kids = Kids0
    ),
    (   Kids = over(Outcome0)
    ->  Outcome = Outcome0
    ;   arg(3, Node, Visits),
        select_child(Kids, C, Visits, Child),
        (   arg(3, Child, 0)
        ->  arg(1, Child, Pos),
            simulate(Game, Pos, Outcome),
            update(Child, Outcome)
        ;   descend(Game, C, Child, Outcome)
        )
    ),
    update(Node, Outcome).

% expand(+Game, +Node, -Kids): gives Node its children (or notes the
% end of the game), in the tree.
expand(Game, Node, Kids) :-
    arg(1, Node, Pos),
    (   Game:moves(Pos, Succs),
        Succs \== []
    ->  side_to_move(Game, Pos, Side),
        maplist(leaf(Side), Succs, Kids0)
    ;   game_over(Game, Pos, Outcome),
        Kids0 = over(Outcome)
    ),
    nb_setarg(5, Node, Kids0),
    arg(5, Node, Kids).             % the copy nb_setarg/3 put in the tree

% select_child(+Kids, +C, +Visits, -Child): the first child never
% visited, else the best by UCT (the first of equals).
select_child(Kids, C, Visits, Child) :-
    (   member(Kid, Kids),
        arg(3, Kid, 0)
    ->  Child = Kid
    ;   Kids = [Kid|Rest],
        LogN is log(Visits),
        uct(Kid, C, LogN, Score),
        best_uct(Rest, C, LogN, Kid, Score, Child)
    ).

best_uct([], _, _, Best, _, Best).
best_uct([Kid|Kids], C, LogN, Best0, Score0, Best) :-
    uct(Kid, C, LogN, Score),
    (   Score > Score0
    ->  best_uct(Kids, C, LogN, Kid, Score, Best)
    ;   best_uct(Kids, C, LogN, Best0, Score0, Best)
    ).

uct(n(_, _, Visits, Halves, _), C, LogN, Score) :-
    Score is Halves / (2 * Visits) + C * sqrt(LogN / Visits).

% simulate(+Game, +Pos, -Outcome): random moves from Pos to the end of
% the game.
simulate(Game, Pos, Outcome) :-
    visit,
    (   random_successor(Game, Pos, Next)
    ->  simulate(Game, Next, Outcome)
    ;   game_over(Game, Pos, Outcome)
    ).

% random_successor(+Game, +Pos, -Next): a successor of Pos chosen at
% random; fails when the game is over.
random_successor(Game, Pos, Next) :-
    Game:moves(Pos, Succs),
    Succs \== [],
    random_member(Next, Succs).

% game_over(+Game, +Pos, -Outcome): who won the game over in Pos.
game_over(Game, Pos, Outcome) :-
    Game:staticval(Pos, Val),
    (   Val > 0
    ->  Outcome = max
    ;   Val < 0
    ->  Outcome = min
    ;   Outcome = draw
    ).

% update(+Node, +Outcome): one more visit of Node, and its reward for
% the side that chose it.
update(Node, Outcome) :-
    arg(3, Node, Visits0),
    Visits is Visits0 + 1,
    nb_setarg(3, Node, Visits),
    arg(2, Node, Side),
    halves(Outcome, Side, Gain),
    (   Gain =:= 0
    ->  true
    ;   arg(4, Node, Halves0),
        Halves is Halves0 + Gain,
        nb_setarg(4, Node, Halves)
    ).

halves(draw, _, 1) :- !.
halves(Side, Side, 2) :- !.
halves(_, _, 0).

% most_visited(+Kids, -Best): the position of the most visited child,
% the first of equals.
most_visited([Kid|Kids], Best) :-
    foldl(more_visited, Kids, Kid, n(Best, _, _, _, _)).

more_visited(Kid, Best0, Best) :-
    arg(3, Kid, Visits),
    arg(3, Best0, Visits0),
    (   Visits > Visits0
    ->  Best = Kid
    ;   Best = Best0
    ).

child_stats(n(Pos, _, Visits, Halves, _), Pos-stats(Visits, Reward)) :-
    Reward is Halves / 2.0.
