:- module(al0_solver,
          [ search_reply/4,             % +D, +Pos, -Move, -Pos1
            search_optimal/3,           % +D, +Pos, -N
            search_optimal_move/4,      % +D, +Pos, -Move, -Pos1
            set_search_limit/1,         % +Positions
            search_limit/1,             % -Positions
            search_expanded/1,          % -Positions
            forget_solutions/0
          ]).

/** <module> The perfect defender by search, for any AL0 domain

A domain that has no perfect_reply/3 of its own (a tablebase) is
defended by search. The domain module D follows the AL0 interface
(kb/README.md): legalmove/3, to_move/2, reset_depth/2, outcome/2, and
success/1, the outcomes that count as success for us.

The value of a position is the least number of OUR moves with which we
can force a success outcome (their moves count 0), or "unwinnable".

## Algorithm

A depth-bounded AND-OR search with iterative deepening and a memo.
solve/6 gives, for a position P and a bound N (an integer, or `inf`):

  - `win`: we force success within N more of our moves;
  - `lose`: proven that we can never force success from P, whatever N;
  - `cut(Dep, Sens)`: not found within N. Dep is the index, on the
    current path from the root (root 0), of the highest position whose
    repetition cut the search (P's own index when none). Sens says what
    else cut it: `depth` (the bound N ran out somewhere), `memo` (only
    lower bounds in the memo did), `none` (nothing: only repetitions).

A success outcome is `win`, any other outcome `lose`. With us to move:
N = 0 is `cut`; else any `win` child gives `win`, all `lose` give
`lose`. With them to move: any `lose` child gives `lose`, all `win`
give `win`; a position with them to move, no legal move and no outcome
is `lose` (they are stuck and we never reach success), as is one with
us to move and no move.

Games may have cycles. A position that repeats one on the current path
is `cut(J, none)`, J the index of the earlier occurrence. A shortest
winning strategy never repeats a position along a line (one can always
jump ahead to the later occurrence), so when a `cut` at P depends on no
position above P (Dep >= index of P):

  - it is a fact about P: not within N (kept in the memo as a lower
    bound);
  - if Sens is `none`, P is unwinnable: every strategy of ours meets a
    non-success outcome or goes round a cycle. So draws by repetition
    are proven, not searched until the budget runs out.

A `cut` that depends on a position above P is path-dependent and is not
remembered (the graph-history interaction problem).

search_optimal/3 tries N = 0, 1, 2, ... until `win` or `lose`. When an
iteration ends in a `cut` that the bound itself did not cause (only memo
lower bounds, which can keep each other alive from one iteration to the
next), one search with N = `inf` (no depth cut, no lower bound used)
decides whether the position can be won at all; in a finite game this
always happens once N exceeds the number of our moves on any line
without repetition, so the deepening ends with the answer.

The memo holds, per domain, success set and depth-reset position, either
`lose` or `b(L, U)`: not within L, within U (`inf` unknown). Entries are
facts about positions, so they are kept across calls until
forget_solutions/0.

Every call of an exported search predicate may expand at most
search_limit/1 positions (one expansion = enumerating the legal moves of
one position); beyond that it throws
`error(resource_error(al0_search_positions), al0_search(D, Limit, Pos))`.
*/

:- dynamic
    limit/1,
    known/5.                    % known(Hash, Key, D, Ok, Value)

limit(200_000).

%!  set_search_limit(+Positions) is det.
%
%   At most Positions expansions per call of search_reply/4,
%   search_optimal/3 or search_optimal_move/4 (default 200,000: some
%   twenty seconds of search here).

set_search_limit(Positions) :-
    must_be(positive_integer, Positions),
    retractall(limit(_)),
    assertz(limit(Positions)).

%!  search_limit(-Positions) is det.
%
%   Positions is the budget of expansions per call.

search_limit(Positions) :-
    limit(Positions).

%!  search_expanded(-Positions) is det.
%
%   Positions is the number of positions the last (or current) call
%   expanded, in this thread.

search_expanded(Positions) :-
    (   nb_current(al0_solver_expanded, N)
    ->  Positions = N
    ;   Positions = 0
    ).

%!  forget_solutions is det.
%
%   Clears the memo of solved positions.

forget_solutions :-
    retractall(known(_, _, _, _, _)).

%!  search_optimal(+D, +Pos, -N) is semidet.
%
%   N is the least number of our moves with which we force a success
%   outcome of domain D from Pos (either side to move; 0 when Pos is a
%   success outcome). Fails when we cannot force success (proven).
%
%   @error existence_error(al0_success, D) if D has no success/1.
%   @error resource_error(al0_search_positions) beyond the budget.

search_optimal(D, Pos, N) :-
    start(D, Pos, S),
    optimal(S, Pos, N).

%!  search_optimal_move(+D, +Pos, -Move, -Pos1) is semidet.
%
%   Move (to Pos1) is the first legal move of Pos (us to move) that
%   keeps an optimal line: after it we force success in one move less.
%   Fails when we cannot force success, or Pos is a success outcome.
%
%   @error domain_error(us_to_move, Pos) if them are to move.

search_optimal_move(D, Pos, Move, Pos1) :-
    start(D, Pos, S),
    must_move(D, Pos, us),
    optimal(S, Pos, N),
    N > 0,
    N1 is N - 1,
    expanding(S),
    D:legalmove(Pos, Move, Pos1),
    solve(S, Pos1, [], 0, N1, win),
    !.

%!  search_reply(+D, +Pos, -Move, -Pos1) is semidet.
%
%   Move (to Pos1) is the perfect defence of Pos (them to move): the
%   first reply, in legalmove/3 order, after which we cannot force
%   success; if there is none, the reply after which our optimal number
%   of moves is largest, the first of equals (a reply ending the game in
%   success counts 0). Fails when Pos has no legal move.
%
%   @error domain_error(them_to_move, Pos) if us are to move.

search_reply(D, Pos, Move, Pos1) :-
    start(D, Pos, S),
    must_move(D, Pos, them),
    expanding(S),
    findall(M-P1, D:legalmove(Pos, M, P1), Replies),
    defence(Replies, S, none, Move, Pos1).

defence([], _, best(_, Move, Pos1), Move, Pos1).
defence([M-P|Replies], S, Best0, Move, Pos1) :-
    (   optimal(S, P, N)
    ->  (   Best0 = best(N0, _, _), N0 >= N
        ->  Best = Best0
        ;   Best = best(N, M, P)
        ),
        defence(Replies, S, Best, Move, Pos1)
    ;   Move = M,
        Pos1 = P
    ).

% start(+D, +Pos, -S): the state of one call: s(D, Ok, Limit, Pos), Ok
% the sorted success outcomes; the count of expansions starts at 0.
start(D, Pos, s(D, Ok, Limit, Pos)) :-
    (   current_predicate(D:success/1)
    ->  findall(R, D:success(R), Ok0),
        sort(Ok0, Ok)
    ;   throw(error(existence_error(al0_success, D), _))
    ),
    limit(Limit),
    nb_setval(al0_solver_expanded, 0).

must_move(D, Pos, Side) :-
    D:to_move(Pos, Side0),
    (   Side0 == Side
    ->  true
    ;   atom_concat(Side, '_to_move', Expected),
        domain_error(Expected, Pos)
    ).

% expanding(+S): counts one expansion, or throws when over budget.
expanding(s(D, _, Limit, Start)) :-
    nb_getval(al0_solver_expanded, E0),
    (   E0 < Limit
    ->  E is E0 + 1,
        nb_setval(al0_solver_expanded, E)
    ;   throw(error(resource_error(al0_search_positions),
                    al0_search(D, Limit, Start)))
    ).

% optimal(+S, +Pos, -N): iterative deepening from bound 0. Bounds the
% memo already rules out answer `cut` without expanding anything.
optimal(S, Pos, N) :-
    deepen(S, Pos, 0, false, N).

deepen(S, Pos, N0, Winnable0, N) :-
    solve(S, Pos, [], 0, N0, R),
    (   R == win
    ->  N = N0
    ;   R = cut(_, Sens),
        winnable(Sens, S, Pos, Winnable0, Winnable),
        N1 is N0 + 1,
        deepen(S, Pos, N1, Winnable, N)
    ).

% winnable(+Sens, +S, +Pos, +Winnable0, -Winnable): deepening goes on
% when the bound cut the search, when Pos is known to be winnable, or
% when a search without bound shows that it is (else it fails: Pos is
% then remembered as lost).
winnable(depth, _, _, W, W) :- !.
winnable(_, _, _, true, true) :- !.
winnable(memo, S, Pos, false, true) :-
    solve(S, Pos, [], 0, inf, win).

%   solve(+S, +Pos, +Path, +I, +N, -R)
%
%   R (win, lose or cut(Dep, Sens)) for Pos with bound N. Path lists
%   the keys of the positions above, nearest first; I is the index of
%   Pos (the length of Path).

solve(S, Pos, Path, I, N, R) :-
    S = s(D, Ok, _, _),
    (   D:outcome(Pos, Result)
    ->  (   memberchk(Result, Ok)
        ->  R = win
        ;   R = lose
        )
    ;   D:reset_depth(Pos, Key),
        term_hash(Key, H),
        (   known(H, Key, D, Ok, V)
        ->  true
        ;   V = b(-1, inf)
        ),
        (   V == lose
        ->  R = lose
        ;   V = b(_, U),
            integer(U),
            ( N == inf -> true ; N >= U )
        ->  R = win
        ;   V = b(L, _),
            integer(N),
            N =< L
        ->  R = cut(I, memo)
        ;   I0 is I - 1,
            on_path(Path, Key, I0, J)
        ->  R = cut(J, none)
        ;   D:to_move(Pos, Side),
            (   Side == us,
                N == 0
            ->  R = cut(I, depth)
            ;   expand(S, Pos, Side, [Key|Path], I, N, R0),
                settle(R0, S, H, Key, I, N, R)
            )
        )
    ).

on_path([K|Ks], Key, I0, I) :-
    (   K == Key
    ->  I = I0
    ;   I1 is I0 - 1,
        on_path(Ks, Key, I1, I)
    ).

expand(S, Pos, Side, Path, I, N, R) :-
    expanding(S),
    S = s(D, _, _, _),
    findall(P1, D:legalmove(Pos, _, P1), Children),
    I1 is I + 1,
    (   Side == us
    ->  ( N == inf -> N1 = inf ; N1 is N - 1 ),
        us_node(Children, S, Path, I1, N1, lose, R)
    ;   Children == []
    ->  R = lose
    ;   them_node(Children, S, Path, I1, N, win, R)
    ).

us_node([], _, _, _, _, R, R).
us_node([P|Ps], S, Path, I, N, Acc, R) :-
    solve(S, P, Path, I, N, R1),
    (   R1 == win
    ->  R = win
    ;   join(Acc, R1, Acc1),
        us_node(Ps, S, Path, I, N, Acc1, R)
    ).

them_node([], _, _, _, _, R, R).
them_node([P|Ps], S, Path, I, N, Acc, R) :-
    solve(S, P, Path, I, N, R1),
    (   R1 == lose
    ->  R = lose
    ;   join(Acc, R1, Acc1),
        them_node(Ps, S, Path, I, N, Acc1, R)
    ).

% join(+Acc, +R, -Acc1): a cut dominates; two cuts merge.
join(cut(D0, S0), cut(D1, S1), cut(D, S)) :- !,
    D is min(D0, D1),
    stronger(S0, S1, S).
join(cut(D, S), _, cut(D, S)) :- !.
join(_, R, R).

stronger(depth, _, depth) :- !.
stronger(_, depth, depth) :- !.
stronger(memo, _, memo) :- !.
stronger(_, S, S).

% settle(+R0, +S, +H, +Key, +I, +N, -R): remembers what R0 proves
% about the position Key (index I, bound N) and gives its result.
settle(win, S, H, Key, _, N, win) :-
    (   integer(N)
    ->  remember(S, H, Key, b(-1, N))
    ;   true
    ).
settle(lose, S, H, Key, _, _, lose) :-
    remember(S, H, Key, lose).
settle(cut(Dep, Sens), S, H, Key, I, N, R) :-
    (   Dep < I
    ->  R = cut(Dep, Sens)
    ;   Sens == none
    ->  remember(S, H, Key, lose),
        R = lose
    ;   remember(S, H, Key, b(N, inf)),
        R = cut(I, Sens)
    ).

remember(s(D, Ok, _, _), H, Key, V) :-
    (   retract(known(H, Key, D, Ok, V0))
    ->  merge(V0, V, V1)
    ;   V1 = V
    ),
    assertz(known(H, Key, D, Ok, V1)).

merge(lose, _, lose) :- !.
merge(_, lose, lose) :- !.
merge(b(L0, U0), b(L1, U1), b(L, U)) :-
    L is max(L0, L1),
    (   U0 == inf
    ->  U = U1
    ;   U1 == inf
    ->  U = U0
    ;   U is min(U0, U1)
    ).

:- multifile prolog:message//1.

prolog:message(error(resource_error(al0_search_positions),
                     al0_search(D, Limit, Pos))) -->
    [ 'the search defender of ~w gave up after ~D positions from ~q: \c
       the domain is too large for search; \c
       give it perfect_reply/3 and optimal_moves/2'-[D, Limit, Pos] ].
prolog:message(error(existence_error(al0_success, D), _)) -->
    [ '~w declares no success/1: the search defender needs to know \c
       which outcomes count as success for us'-[D] ].
