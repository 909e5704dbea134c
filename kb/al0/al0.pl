:- module(al0,
          [ table_context/3,            % +Table, +Mode, -Ctx
            forcing_tree/4,             % +Ctx, +Advice, +Pos, -Tree
            decide/5,                   % +Ctx, +Pos, -Rule, -Advice, -Tree
            holds/4,                    % +GoalData, +Domain, +Pos, +Root
            new_game/2,                 % +Pos, -State
            us_turn/4,                  % +Ctx, +State0, -Step, -State
            them_turn/5,                % +Ctx, +State0, +Move, +Pos1, -State
            game_over/3,                % +Ctx, +State, -Result
            state_key/3,                % +Ctx, +State, -Key
            symmetric_domain/1,         % +Domain
            consulted_at/4,             % +Domain, +Pos, -At, -Back
            tree_back/4,                % +Domain, +Back, +Tree, -Tree1
            play_game/6,                % +Ctx, +Pos, :Defender, +MaxUsMoves, -Result, -Steps
            play_game/7,                % +Ctx, +Pos, :Defender, +MaxUsMoves, :OnStep, -Result, -Steps
            located/3                   % +Ctx, +Pos, :Closure
          ]).

/** <module> Advice Language 0: forcing-tree search and play

One library for every advice table. A table is a module made by the
compiler (advice/compiler.py) that defines, for each piece of advice,
better/3, holding/3, us_move/4 and them_move/4 clauses, and rule/3
clauses in the table's order; the same module holds the table as data
(table_rule/3, table_advice/5), which the **interpreted** mode walks at
run time as the book does. A context `ctx(Mode, Table, Domain)` says which
rendering to use; both must choose the same moves.

Semantics (kept exact from the book):

  * At a position with us to move, the first rule whose condition holds
    is chosen; its pieces of advice are tried in order; the first that is
    satisfiable gives a forcing tree.
  * Advice A is satisfiable at P when its holding-goal holds at P and
    either its better-goal holds at P, or (us to move) some move admitted
    by the us-move-constraints leads to a position where A is
    satisfiable, or (them to move) at least one move is admitted by the
    them-move-constraints and A is satisfiable after every one of them.
  * Play follows the tree until it runs out; then the table is consulted
    again with the depth counter reset to 0.

A forcing tree is `leaf`, `us(Move, Pos1, Tree)` or `them(Branches)` with
Branches a list of `b(Move, Pos1, Tree)`. A tree that is just `leaf` at
the root gives no move, so it does not count as a decision: the next
piece of advice is tried.

The domain module follows the interface in kb/README.md (legalmove/3,
to_move/2, depth/2, reset_depth/2, outcome/2, move constraints, goals).
*/

:- use_module(domain, [position_text/3, declares/3]).

:- meta_predicate
    play_game(+, +, 3, +, -, -),
    play_game(+, +, 3, +, 3, -, -),
    located(+, +, 1).

%!  table_context(+Table, +Mode, -Ctx) is det.
%
%   Ctx is the search context for the compiled table module Table in
%   Mode (`compiled` or `interpreted`).

table_context(Table, Mode, ctx(Mode, Table, Domain)) :-
    must_be(oneof([compiled, interpreted]), Mode),
    Table:domain(Domain).

% ------------------------------------------------------------------
% Table access in either mode

rule_for(ctx(compiled, T, _), Pos, Rule, Advices) :-
    T:rule(Pos, Rule, Advices), !.
rule_for(ctx(interpreted, T, D), Pos, Rule, Advices) :-
    T:table_rule(Rule, Cond, Advices),
    holds(Cond, D, Pos, Pos), !.

better(ctx(compiled, T, _), A, Pos, Root) :-
    T:better(A, Pos, Root).
better(ctx(interpreted, T, D), A, Pos, Root) :-
    T:table_advice(A, Better, _, _, _),
    holds(Better, D, Pos, Root).

holding(ctx(compiled, T, _), A, Pos, Root) :-
    T:holding(A, Pos, Root).
holding(ctx(interpreted, T, D), A, Pos, Root) :-
    T:table_advice(A, _, Holding, _, _),
    holds(Holding, D, Pos, Root).

us_move(ctx(compiled, T, _), A, Pos, Move, Pos1) :-
    T:us_move(A, Pos, Move, Pos1).
us_move(ctx(interpreted, T, D), A, Pos, Move, Pos1) :-
    T:table_advice(A, _, _, Us, _),
    admits(Us, D, Pos, Move, Pos1).

them_move(ctx(compiled, T, _), A, Pos, Move, Pos1) :-
    T:them_move(A, Pos, Move, Pos1).
them_move(ctx(interpreted, T, D), A, Pos, Move, Pos1) :-
    T:table_advice(A, _, _, _, Them),
    admits(Them, D, Pos, Move, Pos1).

%!  holds(+GoalData, +Domain, +Pos, +Root) is semidet.
%
%   The interpreted test of a goal given as data (`true`, `false`,
%   `and(Gs)`, `or(Gs)`, `not(G)`, `pred(Name, Args)`). A predicate is
%   called as Name(Args..., Pos) when Domain defines it, else as
%   Name(Args..., Pos, Root): the book's run-time resolution.

holds(true, _, _, _).
holds(false, _, _, _) :- fail.
holds(and(Goals), D, Pos, Root) :-
    holds_all(Goals, D, Pos, Root).
holds(or(Goals), D, Pos, Root) :-
    member(G, Goals),
    holds(G, D, Pos, Root), !.
holds(not(G), D, Pos, Root) :-
    \+ holds(G, D, Pos, Root).
holds(pred(Name, Args), D, Pos, Root) :-
    length(Args, K),
    K1 is K + 1,
    (   current_predicate(D:Name/K1)
    ->  append(Args, [Pos], CallArgs)
    ;   append(Args, [Pos, Root], CallArgs)
    ),
    Goal =.. [Name|CallArgs],
    call_reporting(D, Goal, Pos).

% call_reporting(+Domain, +Goal, +Pos): call a goal or move-constraint
% predicate of the domain; an error it raises is reported with the
% predicate's name and the position.
call_reporting(D, Goal, Pos) :-
    catch(D:Goal, Error, raised(D, Goal, Pos, Error)).

raised(D, Goal, Pos, error(Formal, Context)) :-
    !,
    functor(Goal, Name, Arity),
    throw(error(al0_raised(D, Name/Arity, Pos, error(Formal, Context)), _)).
raised(_, _, _, Error) :-
    throw(Error).

holds_all([], _, _, _).
holds_all([G|Gs], D, Pos, Root) :-
    holds(G, D, Pos, Root),
    holds_all(Gs, D, Pos, Root).

% admits(+MoveData, +Domain, +Pos, -Move, -Pos1): the book's move/4.
admits(then(Ms), D, Pos, Move, Pos1) :-
    member(M, Ms),
    admits(M, D, Pos, Move, Pos1).
admits(and(Ms), D, Pos, Move, Pos1) :-
    admits_all(Ms, D, Pos, Move, Pos1).
admits(depth(Op, N), D, Pos, _, _) :-
    D:depth(Pos, Depth),
    depth_test(Op, Depth, N).
admits(pred(Name, Args), D, Pos, Move, Pos1) :-
    append(Args, [Pos, Move, Pos1], CallArgs),
    Goal =.. [Name|CallArgs],
    call_reporting(D, Goal, Pos).
admits(nomove, _, _, _, _) :- fail.

admits_all([], _, _, _, _).
admits_all([M|Ms], D, Pos, Move, Pos1) :-
    admits(M, D, Pos, Move, Pos1),
    admits_all(Ms, D, Pos, Move, Pos1).

depth_test(=, X, N)   :- X =:= N.
depth_test(<, X, N)   :- X < N.
depth_test(=<, X, N)  :- X =< N.
depth_test(>, X, N)   :- X > N.
depth_test(>=, X, N)  :- X >= N.
depth_test(\=, X, N)  :- X =\= N.

% ------------------------------------------------------------------
% Forcing trees

%!  forcing_tree(+Ctx, +Advice, +Pos, -Tree) is semidet.
%
%   Tree is the first forcing tree (in move order) that satisfies Advice
%   from Pos, Pos being the root. Fails when Advice is not satisfiable.

forcing_tree(Ctx, Advice, Pos, Tree) :-
    retractall(known_subtree(_, _, _)),
    tree(Ctx, Advice, Pos, Pos, Tree).

tree(Ctx, A, Pos, Root, Tree) :-
    holding(Ctx, A, Pos, Root),
    (   better(Ctx, A, Pos, Root)
    ->  Tree = leaf
    ;   Ctx = ctx(_, _, D),
        D:to_move(Pos, us)
    ->  (   Pos == Root
        ->  us_tree(Ctx, A, Pos, Root, Tree)
        ;   known_us_tree(Ctx, A, Pos, Root, Tree)
        )
    ;   findall(Move-Pos1, them_move(Ctx, A, Pos, Move, Pos1), Replies),
        Replies \== [],
        branches(Replies, Ctx, A, Root, Branches),
        Tree = them(Branches)
    ).

us_tree(Ctx, A, Pos, Root, us(Move, Pos1, Tree1)) :-
    us_move(Ctx, A, Pos, Move, Pos1),
    tree(Ctx, A, Pos1, Root, Tree1),
    !.

% known_us_tree(+Ctx, +A, +Pos, +Root, -Tree): us_tree/5 below the root,
% remembered for the search under way (forcing_tree/4 forgets): a
% deeper tree meets the same position by different orders of moves, and
% its subtree there is the same.
:- dynamic known_subtree/3.         % Hash of the position, the position, found(Tree) or none

known_us_tree(Ctx, A, Pos, Root, Tree) :-
    term_hash(Pos, Hash),
    (   known_subtree(Hash, Pos, Known)
    ->  Known = found(Tree)
    ;   us_tree(Ctx, A, Pos, Root, Tree0)
    ->  assertz(known_subtree(Hash, Pos, found(Tree0))),
        Tree = Tree0
    ;   assertz(known_subtree(Hash, Pos, none)),
        fail
    ).

branches([], _, _, _, []).
branches([Move-Pos1|Replies], Ctx, A, Root, [b(Move, Pos1, Tree)|Branches]) :-
    tree(Ctx, A, Pos1, Root, Tree),
    !,
    branches(Replies, Ctx, A, Root, Branches).

%!  decide(+Ctx, +Pos, -Rule, -Advice, -Tree) is semidet.
%
%   Consults the table at Pos (us to move, depth 0): Rule is the first
%   rule whose condition holds, Advice the first of its pieces of advice
%   with a forcing tree that makes a move, Tree that tree. Fails when
%   no rule holds or none of the chosen rule's advice is satisfiable.
%
%   In compiled mode each decision is remembered (the table and the
%   position decide it), so games that meet the same position again, in
%   a sweep over a whole endgame, do not search again. The interpreted
%   mode searches every time, as the book does.
%
%   In a domain that declares its symmetries (canonical/3, see
%   symmetric_domain/1), the table is consulted at the representative
%   of Pos's class and Tree is the image of its tree: symmetric positions
%   get symmetric decisions.

decide(Ctx, Pos, Rule, Advice, Tree) :-
    Ctx = ctx(_, _, D),
    consulted_at(D, Pos, At, Back),
    decide_here(Ctx, At, Rule, Advice, Tree0),
    tree_back(D, Back, Tree0, Tree).

decide_here(Ctx, Pos, Rule, Advice, Tree) :-
    Ctx = ctx(compiled, Table, _),
    !,
    term_hash(Pos, Hash),
    (   decision(Hash, Table, Pos, Decision)
    ->  true
    ;   (   located(Ctx, Pos, consult_in(Pos, Rule0, Advice0, Tree0))
        ->  Decision = d(Rule0, Advice0, Tree0)
        ;   Decision = none
        ),
        assertz(decision(Hash, Table, Pos, Decision))
    ),
    Decision = d(Rule, Advice, Tree).
decide_here(Ctx, Pos, Rule, Advice, Tree) :-
    consult(Ctx, Pos, Rule, Advice, Tree).

%!  symmetric_domain(+Domain) is semidet.
%
%   Domain declares symmetries: canonical(+Pos, -Canon, -Sym) gives the
%   representative of Pos's class and the symmetry that maps Pos to it,
%   symmetric_position(+Sym, +Pos, -Pos1) and symmetric_move(+Sym, +Move,
%   -Move1) the images of a position and a move, inverse_symmetry(+Sym,
%   -Inverse) the symmetry that undoes Sym (kb/chess/symmetry.pl).

symmetric_domain(D) :-
    declares(D, canonical, 3).

%!  consulted_at(+Domain, +Pos, -At, -Back) is det.
%
%   The table is consulted at At for Pos: Pos itself, or in a domain
%   that declares symmetries, the representative of its class; Back is
%   the symmetry that takes At's trees back to Pos (`none` when At is
%   Pos), for tree_back/4.

consulted_at(D, Pos, At, Back) :-
    (   symmetric_domain(D)
    ->  D:canonical(Pos, At, Sym),
        D:inverse_symmetry(Sym, Back)
    ;   At = Pos, Back = none
    ).

%!  tree_back(+Domain, +Back, +Tree, -Tree1) is det.
%
%   Tree1 is the forcing tree Tree, found where consulted_at/4 consulted
%   the table, seen from the position it was consulted for.

tree_back(_, none, Tree, Tree) :- !.
tree_back(D, Back, Tree, Tree1) :-
    tree_image(D, Back, Tree, Tree1).

% tree_image(+Domain, +Sym, +Tree, -Tree1): Tree1 is the image of the
% forcing tree Tree in the symmetry Sym.
tree_image(_, _, leaf, leaf).
tree_image(_, _, none, none).
tree_image(D, G, us(Move, Pos, Tree), us(Move1, Pos1, Tree1)) :-
    node_image(D, G, Move-Pos-Tree, Move1-Pos1-Tree1).
tree_image(D, G, them(Branches), them(Branches1)) :-
    maplist(branch_image(D, G), Branches, Branches1).

branch_image(D, G, b(Move, Pos, Tree), b(Move1, Pos1, Tree1)) :-
    node_image(D, G, Move-Pos-Tree, Move1-Pos1-Tree1).

% node_image(+D, +G, +Move-Pos-Tree, -Move1-Pos1-Tree1): a move, the
% position it leads to and the tree below, in the symmetry G.
node_image(D, G, Move-Pos-Tree, Move1-Pos1-Tree1) :-
    D:symmetric_move(G, Move, Move1),
    D:symmetric_position(G, Pos, Pos1),
    tree_image(D, G, Tree, Tree1).

:- dynamic decision/4.

consult_in(Pos, Rule, Advice, Tree, Ctx) :-
    consult(Ctx, Pos, Rule, Advice, Tree).

consult(Ctx, Pos, Rule, Advice, Tree) :-
    rule_for(Ctx, Pos, Rule, Advices),
    member(Advice, Advices),
    forcing_tree(Ctx, Advice, Pos, Tree),
    Tree \== leaf,
    !.

%!  located(+Ctx, +Pos, :Closure) is semidet.
%
%   Calls call(Closure, Ctx), a search of the table from Pos (a closure
%   that takes the context last, so that the search can be run again in
%   the other mode). The
%   interpreted mode names the goal or move-constraint predicate that
%   raises an error, and the position; when the compiled mode meets an
%   error, the same search is run again interpreted to find that place.
%   Errors the search cannot place are raised with Pos.

located(Ctx, Pos, Closure) :-
    catch(call(Closure, Ctx), Error, relocate(Ctx, Pos, Closure, Error)).

relocate(_, _, _, error(al0_raised(D, PI, P, E), C)) :-
    !,
    throw(error(al0_raised(D, PI, P, E), C)).
relocate(ctx(Mode, T, D), Pos, Closure, error(Formal, Context)) :-
    !,
    (   Mode == compiled,
        catch(call(Closure, ctx(interpreted, T, D)), Again, true),
        nonvar(Again),
        Again = error(al0_raised(_, _, _, _), _)
    ->  throw(Again)
    ;   throw(error(al0_raised(D, table, Pos, error(Formal, Context)), _))
    ).
relocate(_, _, _, Error) :-
    throw(Error).

:- multifile prolog:error_message//1.

prolog:error_message(al0_raised(D, What, Pos, error(Formal, Context))) -->
    { position_text(D, Pos, Text),
      message_to_codes(error(Formal, Context), Codes),
      (   What = Name/Arity
      ->  format(string(Where), "~w/~w of ~w", [Name, Arity, D])
      ;   format(string(Where), "a predicate of ~w", [D])
      ) },
    [ '~w raised an error at ~w: ~s'-[Where, Text, Codes] ].

message_to_codes(Error, Codes) :-
    '$messages':translate_message(Error, Lines, []),
    with_output_to(codes(Codes0), print_message_lines(current_output, '', Lines)),
    maplist([C0, C]>>(C0 == 0'\n -> C = 0'\s ; C = C0), Codes0, Codes).

% ------------------------------------------------------------------
% Play

%!  new_game(+Pos, -State) is det.
%
%   The state of a game starting at Pos: no forcing tree yet.

new_game(Pos, state(Pos, none, none, none)).

%!  game_over(+Ctx, +State, -Result) is semidet.
%
%   The game is over in State with Result (the domain's outcome/2).

game_over(ctx(_, _, D), state(Pos, _, _, _), Result) :-
    D:outcome(Pos, Result).

%!  us_turn(+Ctx, +State0, -Step, -State) is semidet.
%
%   Our move in State0: along the forcing tree being followed, or, when
%   it has run out, from a fresh consultation of the table (depth reset
%   to 0). Step is `step(Move, Pos1, Rule, Advice, Fresh)` with Fresh
%   `true` when the table was consulted. Fails when no advice applies.

us_turn(Ctx, state(Pos, Tree0, Rule0, Advice0), Step, State) :-
    (   Tree0 = us(Move, Pos1, Tree)
    ->  Step = step(Move, Pos1, Rule0, Advice0, false),
        State = state(Pos1, Tree, Rule0, Advice0)
    ;   Ctx = ctx(_, _, D),
        D:reset_depth(Pos, Pos0),
        decide(Ctx, Pos0, Rule, Advice, us(Move, Pos1, Tree))
    ->  Step = step(Move, Pos1, Rule, Advice, true),
        State = state(Pos1, Tree, Rule, Advice)
    ).

%!  them_turn(+Ctx, +State0, +Move, +Pos1, -State) is det.
%
%   The opponent played Move (to Pos1): follow the tree when it answers
%   that move, else let it run out.

them_turn(_, state(_, Tree0, Rule, Advice), Move, Pos1, state(Pos1, Tree, Rule, Advice)) :-
    (   Tree0 = them(Branches),
        memberchk(b(Move, _, Tree), Branches)
    ->  true
    ;   Tree = none
    ).

%!  play_game(+Ctx, +Pos, :Defender, +MaxUsMoves, -Result, -Steps) is det.
%
%   Plays the table from Pos (us to move) against Defender, called as
%   call(Defender, Pos, Move, Pos1). Result is the domain's outcome
%   (mate, stalemate, ...), `no_advice`, `loop` (a position recurs with
%   the same tree to follow) or `move_limit`. Steps lists the moves:
%   us(Move, Rule, Advice) and them(Move).

play_game(Ctx, Pos, Defender, MaxUsMoves, Result, Steps) :-
    play_game(Ctx, Pos, Defender, MaxUsMoves, no_step, Result, Steps).

%!  play_game(+Ctx, +Pos, :Defender, +MaxUsMoves, :OnStep, -Result, -Steps) is det.
%
%   As play_game/6, calling call(OnStep, Pos0, Step, Pos1) as each step
%   is made (Pos0 the position before it, Pos1 after), so that a caller
%   can keep the game so far where it outlives this call.

play_game(Ctx, Pos, Defender, MaxUsMoves, OnStep, Result, Steps) :-
    new_game(Pos, State),
    play(Ctx, State, Defender-OnStep, MaxUsMoves, [], Result, Steps).

no_step(_, _, _).

play(Ctx, State, _, _, _, Result, []) :-
    game_over(Ctx, State, Result), !.
play(_, _, _, 0, _, move_limit, []) :- !.
play(Ctx, State0, Defender-OnStep, Left, Seen, Result, Steps) :-
    state_key(Ctx, State0, Key),
    State0 = state(Pos0, _, _, _),
    (   memberchk(Key, Seen)
    ->  Result = loop, Steps = []
    ;   us_turn(Ctx, State0, step(Move, Pos1, Rule, Advice, _), State1)
    ->  Steps = [us(Move, Rule, Advice)|Rest],
        call(OnStep, Pos0, us(Move, Rule, Advice), Pos1),
        (   game_over(Ctx, State1, Result)
        ->  Rest = []
        ;   call(Defender, Pos1, Reply, Pos2),
            Rest = [them(Reply)|Rest1],
            call(OnStep, Pos1, them(Reply), Pos2),
            them_turn(Ctx, State1, Reply, Pos2, State2),
            Left1 is Left - 1,
            play(Ctx, State2, Defender-OnStep, Left1, [Key|Seen], Result, Rest1)
        )
    ;   Result = no_advice,
        Steps = []
    ).

%!  state_key(+Ctx, +State, -Key) is det.
%
%   Key identifies State for loop detection: the position (depth aside)
%   and the forcing tree still to follow. In a domain that declares its
%   symmetries, both are taken in the symmetry that makes the position
%   canonical, so that symmetric states (which play alike) share a key.

state_key(ctx(_, _, D), state(Pos, Tree, _, _), Key) :-
    D:reset_depth(Pos, Pos0),
    (   symmetric_domain(D)
    ->  D:canonical(Pos0, Canon, Sym),
        tree_image(D, Sym, Tree, TreeC),
        Key = Canon-TreeC
    ;   Key = Pos0-Tree
    ).
