:- module(search,
          [ minimax/3,                  % :Pos, -BestSucc, -Val
            minimax/4,                  % :Pos, -BestSucc, -Val, +MaxDepth
            alphabeta/5,                % :Pos, +Alpha, +Beta, -GoodPos, -Val
            alphabeta/6,                % :Pos, +Alpha, +Beta, -GoodPos, -Val, +MaxDepth
            minimax_pv/4,               % :Pos, +MaxDepth, -Line, -Val
            alphabeta_pv/6,             % :Pos, +Alpha, +Beta, +MaxDepth, -Line, -Val
            reset_visited/0,
            visited/1,                  % -Count
            visit/0,
            with_budget/2               % +Budget, :Goal
          ]).

/** <module> Bratko's game-tree searches, game-independent

The searches work on any game module that exports Bratko's interface:

    * moves(+Pos, -PosList): the positions one move away; fails or
      gives [] when the game is over;
    * staticval(+Pos, -Val): the value of Pos for MAX;
    * max_to_move(+Pos), min_to_move(+Pos): whose turn it is;
    * game_over(+Pos) (optional): the game is over in Pos, for a game
      that can tell it faster than moves/2.

Values know how a game ended (outcomes.pl): where the game is over, a
position is worth a definite win, loss or draw, and a win in fewer
plies is worth more than a win in more, a loss in more plies more than
a loss in fewer, and every definite win more than every guess (the
static value at the depth limit).

The position argument is module-sensitive: call `minimax(ttt:Pos, B, V)`
from outside, or plain `minimax(Pos, B, V)` from inside the game module.

Every search counts the positions it visits (the root included); read
the count with visited/1 after reset_visited/0.

Alpha-beta cuts on `Val >= Beta` (and `Val =< Alpha`), the test that
prunes where values tie. Bratko's `goodenough/7` uses the strict tests,
which barely prune when values are win/draw/loss.

A correct game never makes a search fail or raise an error. When a
game does (staticval/2 fails on a position, moves/2 gives something
that is not a list of positions, ...), the search is run again on the
game with every call checked (lint.pl), and throws
`error(search_fault(Game, Fault), _)`, whose message names the game's
predicate, its file and line, and the position. The searches
themselves pay nothing for it.
*/

:- meta_predicate
    with_budget(+, 0),
    minimax(:, -, -),
    minimax(:, -, -, +),
    alphabeta(:, +, +, -, -),
    alphabeta(:, +, +, -, -, +),
    minimax_pv(:, +, -, -),
    alphabeta_pv(:, +, +, +, -, -).

:- use_module(lint, [diagnosing/2]).
:- use_module(outcomes, [leaf_value/4, farther/2, nearer/2]).
:- set_prolog_flag(optimise, true).

%!  reset_visited is det.
%
%   Sets the count of visited positions to 0.

reset_visited :-
    nb_setval(search_visited, 0).

%!  visited(-Count) is det.
%
%   Count is the number of positions visited since reset_visited/0.

visited(Count) :-
    nb_getval(search_visited, Count).

%!  visit is det.
%
%   Counts one more visited position (for searches written elsewhere,
%   e.g. refined.pl); throws `budget_exceeded` past the budget that
%   with_budget/2 sets.

visit :-
    nb_getval(search_visited, N0),
    N is N0 + 1,
    nb_setval(search_visited, N),
    nb_getval(search_budget, Budget),
    (   Budget == none
    ->  true
    ;   within_budget(Budget, N)
    ->  true
    ;   throw(budget_exceeded)
    ).

within_budget(positions(Max), N) :-
    N =< Max.
within_budget(deadline(T), N) :-
    (   N /\ 255 =\= 0
    ->  true
    ;   get_time(Now), Now < T
    ).

%!  with_budget(+Budget, :Goal) is semidet.
%
%   Runs Goal with searches limited by Budget: `positions(N)`, at most N
%   positions visited in all (counted from 0 by reset_visited/0), or
%   `ms(N)`, N milliseconds from now.  A search past it throws
%   `budget_exceeded`.

with_budget(Budget, Goal) :-
    budget_term(Budget, Term),
    setup_call_cleanup(nb_setval(search_budget, Term),
                       Goal,
                       nb_setval(search_budget, none)).

budget_term(positions(N), positions(N)) :- !,
    must_be(positive_integer, N).
budget_term(ms(N), deadline(T)) :- !,
    must_be(positive_integer, N),
    get_time(Now), T is Now + N / 1000.
budget_term(Budget, _) :-
    domain_error(search_budget, Budget).

:- nb_setval(search_budget, none).

%!  minimax(:Pos, -BestSucc, -Val) is semidet.
%
%   Val is the minimax value of Pos searched to the end of the game, and
%   BestSucc its best successor. Fails when Pos is terminal.

minimax(Game:Pos, BestSucc, Val) :-
    minimax_pv(Game:Pos, inf, Line, Val),
    Line = [_, BestSucc|_].

%!  minimax(:Pos, -BestSucc, -Val, +MaxDepth) is semidet.
%
%   As minimax/3, but positions MaxDepth moves from Pos are valued by
%   staticval/2.

minimax(Game:Pos, BestSucc, Val, MaxDepth) :-
    minimax_pv(Game:Pos, MaxDepth, Line, Val),
    Line = [_, BestSucc|_].

%!  minimax_pv(:Pos, +MaxDepth, -Line, -Val) is det.
%
%   Line is the principal variation from Pos (Pos first) and Val its
%   minimax value. MaxDepth is an integer or `inf`.
%
%   @throws error(search_fault(Game, Fault), _) when the game is at
%           fault (see diagnosed/3).

minimax_pv(Game:Pos, MaxDepth, Line, Val) :-
    diagnosed(Game, mm(Game, Pos, MaxDepth, Line, Val),
              mm(search_lint, Pos, MaxDepth, _, _)).

mm(Game, Pos, Depth, [Pos|Line], Val) :-
    visit,
    (   Depth \== 0,
        Game:moves(Pos, Succs),
        Succs \== []
    ->  lower(Depth, Depth1),
        chooser(Game, Succs, Side),
        mm_best(Succs, Side, Game, Depth1, Line, Val0),
        farther(Val0, Val)
    ;   leaf_value(Game, Pos, Depth, Val),
        Line = []
    ).

mm_best([Pos], _, Game, Depth, Line, Val) :- !,
    mm(Game, Pos, Depth, Line, Val).
mm_best([Pos|Rest], Side, Game, Depth, Line, Val) :-
    mm(Game, Pos, Depth, Line0, Val0),
    mm_best(Rest, Side, Game, Depth, Line1, Val1),
    better_of(Side, Line0, Val0, Line1, Val1, Line, Val).

% chooser(+Game, +Succs, -Side): Side (max or min) chooses among the
% successors Succs of a position: MAX exactly when MIN moves in them.
chooser(Game, [Pos|_], Side) :-
    (   Game:min_to_move(Pos) -> Side = max ; Side = min ).

% better_of(+Side, +Line0, +Val0, +Line1, +Val1, -Line, -Val): the better
% for Side of two siblings' lines and values; ties keep the first.
better_of(max, Line0, Val0, _, Val1, Line0, Val0) :-
    Val0 >= Val1, !.
better_of(min, Line0, Val0, _, Val1, Line0, Val0) :-
    Val0 =< Val1, !.
better_of(_, _, _, Line1, Val1, Line1, Val1).

lower(inf, inf) :- !.
lower(Depth, Depth1) :-
    Depth1 is Depth - 1.

%!  alphabeta(:Pos, +Alpha, +Beta, -GoodPos, -Val) is semidet.
%
%   Val is the value of Pos within the window Alpha..Beta (exact when it
%   lies strictly inside), searched to the end of the game; GoodPos is
%   the best successor. Fails when Pos is terminal.

alphabeta(Game:Pos, Alpha, Beta, GoodPos, Val) :-
    alphabeta_pv(Game:Pos, Alpha, Beta, inf, Line, Val),
    Line = [_, GoodPos|_].

%!  alphabeta(:Pos, +Alpha, +Beta, -GoodPos, -Val, +MaxDepth) is semidet.
%
%   As alphabeta/5, with positions MaxDepth moves away valued by
%   staticval/2.

alphabeta(Game:Pos, Alpha, Beta, GoodPos, Val, MaxDepth) :-
    alphabeta_pv(Game:Pos, Alpha, Beta, MaxDepth, Line, Val),
    Line = [_, GoodPos|_].

%!  alphabeta_pv(:Pos, +Alpha, +Beta, +MaxDepth, -Line, -Val) is det.
%
%   Line is the principal variation found by alpha-beta (Pos first);
%   MaxDepth is an integer or `inf`.
%
%   @throws error(search_fault(Game, Fault), _) when the game is at
%           fault (see diagnosed/3).

alphabeta_pv(Game:Pos, Alpha, Beta, MaxDepth, Line, Val) :-
    diagnosed(Game, ab(Game, Pos, Alpha, Beta, MaxDepth, Line, Val),
              ab(search_lint, Pos, Alpha, Beta, MaxDepth, _, _)).

ab(Game, Pos, Alpha, Beta, Depth, [Pos|Line], Val) :-
    visit,
    (   Depth \== 0,
        Game:moves(Pos, Succs),
        Succs \== []
    ->  lower(Depth, Depth1),
        nearer(Alpha, Alpha1),
        nearer(Beta, Beta1),
        chooser(Game, Succs, Side),
        bounded_best(Succs, Side, Game, Alpha1, Beta1, Depth1, Line, Val0),
        farther(Val0, Val)
    ;   leaf_value(Game, Pos, Depth, Val),
        Line = []
    ).

bounded_best([Pos|Rest], Side, Game, Alpha, Beta, Depth, Line, Val) :-
    ab(Game, Pos, Alpha, Beta, Depth, Line0, Val0),
    good_enough(Rest, Side, Game, Alpha, Beta, Depth, Line0, Val0, Line, Val).

good_enough([], _, _, _, _, _, Line, Val, Line, Val) :- !.
good_enough(_, max, _, _, Beta, _, Line, Val, Line, Val) :-
    Val >= Beta, !.
good_enough(_, min, _, Alpha, _, _, Line, Val, Line, Val) :-
    Val =< Alpha, !.
good_enough(Rest, Side, Game, Alpha, Beta, Depth, Line0, Val0, Line, Val) :-
    new_bounds(Side, Val0, Alpha, Beta, Alpha1, Beta1),
    bounded_best(Rest, Side, Game, Alpha1, Beta1, Depth, Line1, Val1),
    better_of(Side, Line0, Val0, Line1, Val1, Line, Val).

% diagnosed(+Game, :Search, :Again): runs Search, a search of Game, at
% full speed. A correct game cannot make it fail or raise an error; when
% it does either (other than a limit or a resource error), Again, the
% same search of the game search_lint checks (lint:diagnosing/2), is run
% to find the first call of the game at fault on the way: it throws
% error(search_fault(Game, Fault), _), which names the predicate and
% the position. Without one, the failure or the error stands.
diagnosed(Game, Search, Again) :-
    catch(Search, Error, true),
    !,
    (   var(Error)
    ->  true
    ;   diagnosable(Error)
    ->  diagnose(Game, Again),
        throw(Error)
    ;   throw(Error)
    ).
diagnosed(Game, _, Again) :-
    diagnose(Game, Again),
    fail.

diagnose(Game, Again) :-
    (   catch(diagnosing(Game, Again), Error, true),
        nonvar(Error),
        (   Error = error(search_fault(_, _), _)
        ;   \+ diagnosable(Error)
        )
    ->  throw(Error)
    ;   true
    ).

diagnosable(error(Formal, _)) :-
    \+ ( nonvar(Formal), Formal = resource_error(_) ).

new_bounds(max, Val, Alpha, Beta, Val, Beta) :-
    Val > Alpha, !.
new_bounds(min, Val, Alpha, Beta, Alpha, Val) :-
    Val < Beta, !.
new_bounds(_, _, Alpha, Beta, Alpha, Beta).
