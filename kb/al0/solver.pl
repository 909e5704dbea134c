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
solve/6 gives, for a position P and a bound N:

  - `win`: we force success within N more of our moves;
  - `lose`: proven that we can never force success from P, whatever N;
  - `cut(Dep, Bounded)`: not found within N. Dep is the index, on the
    current path from the root (root 0), of the highest position whose
    repetition cut the search (P's own index when none); Bounded is
    `true` when the bound N cut it somewhere (directly, or through a
    lower bound in the memo), `false` when only repetitions did.

A success outcome is `win`, any other outcome `lose`. With us to move:
N = 0 is `cut`; else any `win` child gives `win`, all `lose` give
`lose`. With them to move: any `lose` child gives `lose`, all `win`
give `win`; a position with them to move, no legal move and no outcome
is `lose` (they are stuck and we never reach success), as is one with
us to move and no move.

Games may have cycles. A position that repeats one on the current path
is `cut(J, false)`, J the index of the earlier occurrence. A shortest
winning strategy never repeats a position along a line (one can always
jump ahead to the later occurrence), so when a `cut` at P depends on no
position above P (Dep >= index of P):

  - it is a fact about P: not within N (kept in the memo as a lower
    bound);
  - if Bounded is `false`, P is unwinnable: every strategy of ours meets
    a non-success outcome or goes round a cycle.

A `cut` that depends on a position above P is path-dependent and is not
remembered (the graph-history interaction problem).

search_optimal/3 tries N = L+1, L+2, ... (L the memo's lower bound, -1
if none) until `win` or `lose`. Lower bounds can keep each other alive
in a cycle that we cannot win, one more each round, so the deepening
alone may never prove such a position unwinnable. When N reaches L+3,
then twice that, four times, ..., prove/4 tries a retrograde analysis
of every position reachable from the root (the attractor of the success
outcomes), allowed as many expansions as the call has made so far (at
least 64); when it completes, it settles the question: the positions it
cannot win are remembered as `lose`. In a finite game the deepening
therefore ends with the answer, at most doubling its cost; in a large
one the retrograde analysis gives up and the budget decides.

The memo holds, per domain, success set and depth-reset position, either
`lose` or `b(L, U)`: not within L, within U (`inf` unknown). Entries are
facts about positions, so they are kept across calls until
forget_solutions/0.

Every call of an exported search predicate may expand at most
search_limit/1 positions (one expansion = enumerating the legal moves of
one position); beyond that it throws
`error(resource_error(al0_search_positions), al0_search(D, Limit, Pos))`.
*/

:- use_module(library(apply)).
:- use_module(library(assoc)).
:- use_module(library(lists)).
:- use_module(library(pairs)).

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

% optimal(+S, +Pos, -N): iterative deepening, from the first bound the
% memo does not already rule out.
optimal(S, Pos, N) :-
    S = s(D, _, _, _),
    (   D:outcome(Pos, _)
    ->  N0 = 0
    ;   D:reset_depth(Pos, Key),
        memo(S, Key, _, b(L, _)),
        N0 is L + 1
    ),
    Proof is N0 + 2,
    deepen(S, Pos, N0, Proof, N).

% deepen(+S, +Pos, +N0, +Proof, -N): Proof is the bound at which to try
% prove/4 next, `none` once Pos is known to be winnable.
deepen(S, Pos, N0, Proof0, N) :-
    solve(S, Pos, [], 0, N0, R),
    (   R == win
    ->  N = N0
    ;   R \== lose,
        (   Proof0 \== none,
            N0 >= Proof0
        ->  search_expanded(E),
            Allowance is max(64, E),
            (   prove(S, Pos, Allowance, Result)
            ->  Result == win,
                Proof = none
            ;   Proof is 2 * Proof0
            )
        ;   Proof = Proof0
        ),
        N1 is N0 + 1,
        deepen(S, Pos, N1, Proof, N)
    ).

%   solve(+S, +Pos, +Path, +I, +N, -R)
%
%   R (win, lose or cut(Dep, Bounded)) for Pos with bound N. Path lists
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
        memo(S, Key, H, V),
        (   V == lose
        ->  R = lose
        ;   V = b(_, U),
            integer(U),
            N >= U
        ->  R = win
        ;   V = b(L, _),
            N =< L
        ->  R = cut(I, true)
        ;   I0 is I - 1,
            on_path(Path, Key, I0, J)
        ->  R = cut(J, false)
        ;   D:to_move(Pos, Side),
            (   Side == us,
                N =:= 0
            ->  R = cut(I, true)
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
    ->  N1 is N - 1,
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
join(cut(D0, B0), cut(D1, B1), cut(D, B)) :- !,
    D is min(D0, D1),
    (   B0 == true
    ->  B = true
    ;   B = B1
    ).
join(cut(D, B), _, cut(D, B)) :- !.
join(_, R, R).

% settle(+R0, +S, +H, +Key, +I, +N, -R): remembers what R0 proves
% about the position Key (index I, bound N) and gives its result.
settle(win, S, H, Key, _, N, win) :-
    remember(S, H, Key, b(-1, N)).
settle(lose, S, H, Key, _, _, lose) :-
    remember(S, H, Key, lose).
settle(cut(Dep, Bounded), S, H, Key, I, N, R) :-
    (   Dep < I
    ->  R = cut(Dep, Bounded)
    ;   Bounded == false
    ->  remember(S, H, Key, lose),
        R = lose
    ;   remember(S, H, Key, b(N, inf)),
        R = cut(I, true)
    ).

% memo(+S, +Key, -H, -V): V is what the memo knows of Key (hash H):
% `lose` or b(L, U), b(-1, inf) when nothing.
memo(s(D, Ok, _, _), Key, H, V) :-
    term_hash(Key, H),
    (   known(H, Key, D, Ok, V0)
    ->  V = V0
    ;   V = b(-1, inf)
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

%   prove(+S, +Pos, +Allowance, -Result) is semidet.
%
%   Result (win or lose) says whether we can force success from Pos, by
%   a retrograde analysis of the positions reachable from Pos. Fails
%   when that takes more than Allowance expansions. Every reachable
%   position we cannot win is remembered as `lose`.

prove(S, Pos, Allowance, Result) :-
    empty_assoc(G0),
    reach([Pos], S, Allowance, G0, G),
    assoc_to_list(G, Nodes),
    attractor(Nodes, G, Won),
    forall(( member(Key-node(_, _), Nodes),
             \+ get_assoc(Key, Won, _) ),
           ( term_hash(Key, H),
             remember(S, H, Key, lose) )),
    S = s(D, _, _, _),
    D:reset_depth(Pos, Root),
    (   get_assoc(Root, Won, _)
    ->  Result = win
    ;   Result = lose
    ).

% reach(+Stack, +S, +Allowance, +G0, -G): G maps the key of every
% position reachable from Stack to leaf(win), leaf(lose) (outcomes, and
% what the memo already decides) or node(Side, ChildKeys).
reach([], _, _, G, G).
reach([P|Ps], S, A, G0, G) :-
    S = s(D, Ok, _, _),
    D:reset_depth(P, Key),
    (   get_assoc(Key, G0, _)
    ->  reach(Ps, S, A, G0, G)
    ;   (   D:outcome(P, Result)
        ->  ( memberchk(Result, Ok) -> W = win ; W = lose )
        ;   memo(S, Key, _, V),
            V \= b(_, inf)
        ->  ( V == lose -> W = lose ; W = win )
        )
    ->  put_assoc(Key, G0, leaf(W), G1),
        reach(Ps, S, A, G1, G)
    ;   A > 0,
        expanding(S),
        D:to_move(P, Side),
        findall(P1, D:legalmove(P, _, P1), Children),
        maplist(D:reset_depth, Children, Keys0),
        sort(Keys0, Keys),
        put_assoc(Key, G0, node(Side, Keys), G1),
        A1 is A - 1,
        append(Children, Ps, Stack),
        reach(Stack, S, A1, G1, G)
    ).

% attractor(+Nodes, +G, -Won): Won holds the keys of the positions from
% which we can force success: the won leaves, then every us position
% with a won child and every them position whose children are all won.
attractor(Nodes, G, Won) :-
    findall(C-K, ( member(K-node(_, Cs), Nodes), member(C, Cs) ), Edges),
    keysort(Edges, Sorted),
    group_pairs_by_key(Sorted, Grouped),
    list_to_assoc(Grouped, Parents),
    findall(K-Count, ( member(K-node(them, Cs), Nodes),
                       length(Cs, Count) ), Counts0),
    list_to_assoc(Counts0, Counts),
    findall(K, member(K-leaf(win), Nodes), Queue),
    findall(K-true, member(K, Queue), Won0Pairs),
    list_to_assoc(Won0Pairs, Won0),
    spread(Queue, G, Parents, Counts, Won0, Won).

spread([], _, _, _, Won, Won).
spread([K|Ks], G, Parents, C0, W0, W) :-
    (   get_assoc(K, Parents, Ps)
    ->  true
    ;   Ps = []
    ),
    won_parents(Ps, G, Ks, Queue, C0, C, W0, W1),
    spread(Queue, G, Parents, C, W1, W).

won_parents([], _, Q, Q, C, C, W, W).
won_parents([P|Ps], G, Q0, Q, C0, C, W0, W) :-
    (   get_assoc(P, W0, _)
    ->  Q1 = Q0, C1 = C0, W1 = W0
    ;   get_assoc(P, G, node(us, _))
    ->  Q1 = [P|Q0], C1 = C0, put_assoc(P, W0, true, W1)
    ;   get_assoc(P, C0, N0),
        N is N0 - 1,
        put_assoc(P, C0, N, C1),
        (   N =:= 0
        ->  Q1 = [P|Q0], put_assoc(P, W0, true, W1)
        ;   Q1 = Q0, W1 = W0
        )
    ),
    won_parents(Ps, G, Q1, Q, C1, C, W1, W).

:- multifile prolog:message//1.

prolog:message(error(resource_error(al0_search_positions),
                     al0_search(D, Limit, Pos))) -->
    [ 'the search defender of ~w gave up after ~D positions from ~q: \c
       the domain is too large for search; \c
       give it perfect_reply/3 and optimal_moves/2'-[D, Limit, Pos] ].
prolog:message(error(existence_error(al0_success, D), _)) -->
    [ '~w declares no success/1: the search defender needs to know \c
       which outcomes count as success for us'-[D] ].
