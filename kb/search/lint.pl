:- module(search_lint,
          [ lint/5,                     % +Game, +Starts, +MaxPositions, +MaxDepth, -Report
            lint_json/2,                % +Report, -JsonTerm
            root_faults/3,              % +Game, +Pos, -Faults
            fault_json/3,               % +Game, +Fault, -JsonTerm
            diagnosing/2,               % +Game, :Goal
            checked_staticval/3         % +Game, +Pos, -Val
          ]).

/** <module> What is wrong with a search game, named by predicate and position

A game for the searches (Bratko's interface, kb/README.md) can be wrong
in ways the searches do not notice, or notice only by failing. This
module finds such faults and names, for each, the game's predicate and
the position:

    * moves/2 raises an error, gives something other than a list, or a
      successor that is not a ground term (the engine writes and reads
      positions as text) or that the game does not take for a position;
      for the linter also: it has more than one solution, leaves a
      choice point, or gives the same successor more than once;
    * staticval/2 fails, raises an error or gives a value that is not a
      number;
    * max_to_move/1 or min_to_move/1 raises an error, or not exactly one
      of them holds.

A fault is a term `fault(PI, Pos, Problem)`: PI the predicate
(Name/Arity, or `turn` for max_to_move/1 and min_to_move/1 together),
Pos the position, Problem one of `raised(Error)`, `failed`,
`not_a_list(Term)`, `not_ground(Succ)`, `not_a_position(Succ)` (a
successor of another shape than its parent, name and arity or type,
that neither moves/2 nor staticval/2 accepts), `not_a_number(Val)`,
`several_solutions`, `choice_point`, `duplicate(Succ, Times)`,
`both_hold`, `neither_holds`.

Three users:

    * lint/5, the linter (`advice check --kb`): breadth-first from the
      start positions, every fault of every position within a bound;
    * diagnosing/2, the searches' second pass: this module is itself a
      game, the game being diagnosed with each call checked; a search
      run again on it throws `error(search_fault(Game, Fault), _)` at the
      first fault it meets (search.pl runs it only after the plain search
      failed or raised an error, so the hot path pays nothing);
    * root_faults/3, the cheap check `advice search` makes before it
      searches: what moves/2 gives at the root, and the side to move at
      the root and at its successors.

Errors other than `error(_, _)` (time and inference limits) and resource
errors (a stack overflow, reported by the bridge with the predicate it
happened in) are never taken for faults: they pass through.
*/

:- use_module(library(lists), [append/2, append/3, member/2]).
:- use_module(library(apply), [include/3, exclude/3, partition/4, maplist/3, foldl/4]).
:- use_module('../job_io', [message_text/2]).

:- meta_predicate diagnosing(+, 0).

		 /*******************************
		 *     CALLING THE GAME         *
		 *******************************/

% outcome(:Goal, -Outcome): Outcome is `true` (Goal succeeded, its
% bindings kept), `false` or raised(Error).
:- meta_predicate outcome(0, -).

outcome(Goal, Outcome) :-
    catch(( call(Goal) -> Outcome = true ; Outcome = false ),
          Error, caught(Error, Outcome)).

caught(Error, raised(Error)) :-
    Error = error(Formal, _),
    \+ ( nonvar(Formal), Formal = resource_error(_) ),
    !.
caught(Error, _) :-
    throw(Error).

% moves_faults(+Game, +Pos, +How, -Succs, -Faults): Succs are the
% successors moves/2 gives for Pos that are positions ([] when it fails
% or gives none); Faults what is wrong, the first fault first. How is
% `search` (what breaks a search) or `lint` (also: determinism and
% duplicates).
moves_faults(Game, Pos, How, Succs, Faults) :-
    catch(first_moves(How, Game, Pos, Outcome), Error, caught(Error, Outcome)),
    moves_outcome(Outcome, How, Game, Pos, Succs, Faults).

first_moves(search, Game, Pos, Outcome) :-
    (   Game:moves(Pos, Succs)
    ->  Outcome = gave(Succs, det)
    ;   Outcome = false
    ).
first_moves(lint, Game, Pos, Outcome) :-
    (   call_cleanup(Game:moves(Pos, Succs), Det = true),
        (   Det == true -> Rest = det ; Rest = choice_point ),
        !,
        Outcome = gave(Succs, Rest)
    ;   Outcome = false
    ).

moves_outcome(false, _, _, _, [], []).
moves_outcome(raised(Error), _, _, Pos, [], [fault(moves/2, Pos, raised(Error))]).
moves_outcome(gave(Succs0, Rest), How, Game, Pos, Succs, Faults) :-
    (   is_list(Succs0)
    ->  partition(ground, Succs0, Ground, Unground),
        partition(alien(Game, Pos), Ground, Aliens, Succs),
        first_of(Unground, not_ground, Pos, Faults, Faults1),
        first_of(Aliens, not_a_position, Pos, Faults1, Faults2),
        determinism(Rest, Game, Pos, Faults2, Faults3),
        (   How == lint -> duplicates(Succs, Pos, Faults3) ; Faults3 = [] )
    ;   Succs = [],
        Faults = [fault(moves/2, Pos, not_a_list(Succs0))]
    ).

% first_of(+Bad, +Name, +Pos, -Faults, ?Tail): a fault Name(Succ) of
% moves/2 at Pos for the first Succ of the successors Bad, if any.
first_of([], _, _, Tail, Tail).
first_of([Succ|_], Name, Pos, [fault(moves/2, Pos, Problem)|Tail], Tail) :-
    Problem =.. [Name, Succ].

% alien(+Game, +Pos, +Succ): Succ, a successor of Pos, is not a position
% of Game: it has another shape than Pos (name and arity, or type), and
% neither moves/2 nor staticval/2 accepts it.
alien(Game, Pos, Succ) :-
    \+ same_shape(Pos, Succ),
    \+ accepted(Game:moves(Succ, _)),
    \+ accepted(Game:staticval(Succ, _)).

same_shape(A, B) :-
    compound(A),
    !,
    compound(B),
    compound_name_arity(A, Name, Arity),
    compound_name_arity(B, Name, Arity).
same_shape(A, B) :- atom(A), !, atom(B).
same_shape(A, B) :- number(A), !, number(B).
same_shape(A, B) :- string(A), string(B).

:- meta_predicate accepted(0).

accepted(Goal) :-
    catch(Goal, error(_, _), fail),
    !.

determinism(det, _, _, Faults, Faults).
determinism(choice_point, Game, Pos, [fault(moves/2, Pos, Problem)|Faults], Faults) :-
    findall(x, limit(2, catch(Game:moves(Pos, _), error(_, _), true)), Solutions),
    (   Solutions = [_, _] -> Problem = several_solutions ; Problem = choice_point ).

% duplicates(+Succs, +Pos, -Faults): the first successor given more
% than once, if any.
duplicates(Succs, Pos, Faults) :-
    (   append(_, [S|Rest], Succs),
        memberchk(S, Rest)
    ->  include(==(S), Succs, Copies),
        length(Copies, Times),
        Faults = [fault(moves/2, Pos, duplicate(S, Times))]
    ;   Faults = []
    ).

% staticval_faults(+Game, +Pos, -Val, -Faults)
staticval_faults(Game, Pos, Val, Faults) :-
    outcome(Game:staticval(Pos, Val), Outcome),
    (   Outcome == true
    ->  (   number(Val) -> Faults = [] ; Faults = [fault(staticval/2, Pos, not_a_number(Val))] )
    ;   Outcome == false
    ->  Faults = [fault(staticval/2, Pos, failed)]
    ;   Outcome = raised(Error),
        Faults = [fault(staticval/2, Pos, raised(Error))]
    ).

% turn_faults(+Game, +Pos, -Faults): max_to_move/1 and min_to_move/1
% at Pos.
turn_faults(Game, Pos, Faults) :-
    outcome(Game:max_to_move(Pos), Max),
    outcome(Game:min_to_move(Pos), Min),
    (   Max = raised(Error)
    ->  Faults = [fault(max_to_move/1, Pos, raised(Error))|Faults1]
    ;   Faults = Faults1
    ),
    (   Min = raised(Error1)
    ->  Faults1 = [fault(min_to_move/1, Pos, raised(Error1))]
    ;   Max == true, Min == true
    ->  Faults1 = [fault(turn, Pos, both_hold)]
    ;   Max == false, Min == false
    ->  Faults1 = [fault(turn, Pos, neither_holds)]
    ;   Faults1 = []
    ).

% first_fault(+Faults, +Game): throws the first of Faults, if any.
first_fault([], _).
first_fault([Fault|_], Game) :-
    throw(error(search_fault(Game, Fault), _)).

		 /*******************************
		 *   THE GAME BEING DIAGNOSED   *
		 *******************************/

%!  diagnosing(+Game, :Goal) is semidet.
%
%   Calls Goal, a search of this module (`search_lint`) as a game,
%   which then plays Game with every call of Game's predicates checked:
%   the first fault throws `error(search_fault(Game, Fault), _)`.

diagnosing(Game, Goal) :-
    b_setval(search_lint_game, Game),
    call(Goal).

moves(Pos, Succs) :-
    b_getval(search_lint_game, Game),
    moves_faults(Game, Pos, search, Succs, Faults),
    first_fault(Faults, Game).

staticval(Pos, Val) :-
    b_getval(search_lint_game, Game),
    staticval_faults(Game, Pos, Val, Faults),
    first_fault(Faults, Game).

max_to_move(Pos) :-
    b_getval(search_lint_game, Game),
    outcome(Game:max_to_move(Pos), Outcome),
    side(Outcome, Game, max_to_move/1, Pos).

min_to_move(Pos) :-
    b_getval(search_lint_game, Game),
    outcome(Game:min_to_move(Pos), Outcome),
    side(Outcome, Game, min_to_move/1, Pos).

% side(+Outcome, +Game, +PI, +Pos): succeeds when PI held at Pos, fails
% when it did not, throws the error it raised.
side(true, _, _, _).
side(raised(Error), Game, PI, Pos) :-
    first_fault([fault(PI, Pos, raised(Error))], Game).

%!  checked_staticval(+Game, +Pos, -Val) is det.
%
%   Val is the static value of Pos in Game.
%
%   @throws error(search_fault(Game, Fault), _) when staticval/2 fails,
%           raises an error or gives something other than a number.

checked_staticval(Game, Pos, Val) :-
    staticval_faults(Game, Pos, Val, Faults),
    first_fault(Faults, Game).

		 /*******************************
		 *          THE LINTER          *
		 *******************************/

%!  lint(+Game, +Starts, +MaxPositions, +MaxDepth, -Report) is det.
%
%   Examines the positions of Game reachable from the list of positions
%   Starts, breadth-first, each once: at most MaxPositions of them, and
%   none more than MaxDepth moves (an integer or `inf`) from a start.
%   Report is `lint(Game, Examined, Depth, Complete, Faults)`: Examined
%   positions were examined, the deepest Depth moves from a start;
%   Complete is `true` when they are every position reachable from
%   Starts, else `false`; Faults are the faults found, in the order
%   found.

lint(Game, Starts, MaxPositions, MaxDepth, lint(Game, Examined, Depth, Complete, Faults)) :-
    trie_new(Seen),
    include(ground, Starts, Ground),
    foldl(enqueue(Seen, 0), Ground, Front, Back),
    examine(Front, Back, Game, Seen, limits(MaxPositions, MaxDepth),
            s(0, 0, true), s(Examined, Depth, Complete), Faults).

enqueue(Seen, Depth, Pos, Queue, Tail) :-
    (   trie_insert(Seen, Pos)
    ->  Queue = [Pos-Depth|Tail]
    ;   Queue = Tail
    ).

% examine(+Front, ?Back, ...): Front-Back is the queue (empty when
% Front == Back, both the same unbound tail).
examine(Front, _, _, _, _, s(N, D, C), s(N, D, C), []) :-
    var(Front),
    !.
examine(_, _, _, _, limits(Max, _), s(N, D, _), s(N, D, false), []) :-
    N >= Max,
    !.
examine([Pos-Depth|Front], Back, Game, Seen, Limits, s(N0, D0, C0), S, Faults) :-
    position_faults(Game, Pos, Succs, Faults, Faults1),
    N is N0 + 1,
    D is max(D0, Depth),
    Limits = limits(_, MaxDepth),
    (   Depth == MaxDepth
    ->  Back1 = Back,
        (   member(Succ, Succs), \+ trie_lookup(Seen, Succ, _) -> C = false ; C = C0 )
    ;   Depth1 is Depth + 1,
        foldl(enqueue(Seen, Depth1), Succs, Back, Back1),
        C = C0
    ),
    examine(Front, Back1, Game, Seen, Limits, s(N, D, C), S, Faults1).

position_faults(Game, Pos, Succs, Faults, Tail) :-
    moves_faults(Game, Pos, lint, Succs, Moves),
    staticval_faults(Game, Pos, _, Value),
    turn_faults(Game, Pos, Turn),
    append(Moves, Faults1, Faults),
    append(Value, Faults2, Faults1),
    append(Turn, Tail, Faults2).

%!  root_faults(+Game, +Pos, -Faults) is det.
%
%   The faults a search can find cheaply before it starts, which the
%   search itself may not notice (its value is then wrong): what is
%   wrong with what moves/2 gives for Pos (errors, successors that are
%   not positions, a successor given more than once), and a side to
%   move that is not exactly one of MAX and MIN, at Pos and at each of
%   its successors. Faults holds the first fault of each kind.

root_faults(Game, Pos, Faults) :-
    moves_faults(Game, Pos, search, Succs, Moves),
    duplicates(Succs, Pos, Dups),
    foldl(side_faults(Game), [Pos|Succs], Sides, []),
    append([Moves, Dups, Sides], All),
    one_per_kind(All, [], Faults).

one_per_kind([], _, []).
one_per_kind([Fault|All], Seen, Faults) :-
    Fault = fault(PI, _, Problem),
    once(kind(Problem, PI, Kind, _)),
    (   memberchk(Kind, Seen)
    ->  Faults = Faults1
    ;   Faults = [Fault|Faults1]
    ),
    one_per_kind(All, [Kind|Seen], Faults1).

% side_faults(+Game, +Pos, -Faults, ?Tail): not exactly one side to move.
side_faults(Game, Pos, Faults, Tail) :-
    turn_faults(Game, Pos, Turn),
    include([fault(PI, _, _)]>>(PI == turn), Turn, Sides),
    append(Sides, Tail, Faults).

		 /*******************************
		 *            IN WORDS          *
		 *******************************/

% kind(?Problem, ?PI, -Kind, -Summary): the kind of a fault, and what is
% wrong in words (to be followed by "on N positions"), in the order
% the linter reports them.
kind(raised(_), moves/2, moves_raised, "moves/2 raises an error").
kind(not_a_list(_), moves/2, moves_not_a_list, "moves/2 gives something other than a list").
kind(not_ground(_), moves/2, moves_not_ground,
     "moves/2 gives a successor that is not a ground term").
kind(not_a_position(_), moves/2, moves_not_a_position,
     "moves/2 gives a successor that neither moves/2 nor staticval/2 accepts").
kind(several_solutions, moves/2, moves_several_solutions, "moves/2 has more than one solution").
kind(choice_point, moves/2, moves_choice_point, "moves/2 leaves a choice point").
kind(duplicate(_, _), moves/2, moves_duplicate, "moves/2 gives the same successor more than once").
kind(raised(_), staticval/2, staticval_raised, "staticval/2 raises an error").
kind(failed, staticval/2, staticval_failed, "staticval/2 fails").
kind(not_a_number(_), staticval/2, staticval_not_a_number,
     "staticval/2 gives a value that is not a number").
kind(raised(_), max_to_move/1, max_to_move_raised, "max_to_move/1 raises an error").
kind(raised(_), min_to_move/1, min_to_move_raised, "min_to_move/1 raises an error").
kind(both_hold, turn, turn_both, "both max_to_move/1 and min_to_move/1 hold").
kind(neither_holds, turn, turn_neither, "neither max_to_move/1 nor min_to_move/1 holds").

% sentence(+Fault, -Text): one fault in words, naming the predicate and
% the position.
sentence(fault(PI, Pos, raised(Error)), Text) :-
    error_words(Error, Words),
    format(string(Text), "~w raised an error on position ~q: ~w", [PI, Pos, Words]).
sentence(fault(PI, Pos, failed), Text) :-
    format(string(Text), "~w failed on position ~q", [PI, Pos]).
sentence(fault(PI, Pos, not_a_list(Term)), Text) :-
    term_words(Term, Words),
    format(string(Text), "~w gave ~w on position ~q, not a list of positions", [PI, Words, Pos]).
sentence(fault(PI, Pos, not_ground(Succ)), Text) :-
    term_words(Succ, Words),
    format(string(Text), "~w gave ~w on position ~q: a position must be a ground term",
           [PI, Words, Pos]).
sentence(fault(PI, Pos, not_a_position(Succ)), Text) :-
    format(string(Text), "~w gave ~q on position ~q, which is not a position: neither \c
                          moves/2 nor staticval/2 accepts it", [PI, Succ, Pos]).
sentence(fault(PI, Pos, not_a_number(Val)), Text) :-
    term_words(Val, Words),
    format(string(Text), "~w gave ~w on position ~q, not a number", [PI, Words, Pos]).
sentence(fault(PI, Pos, several_solutions), Text) :-
    format(string(Text), "~w has more than one solution on position ~q", [PI, Pos]).
sentence(fault(PI, Pos, choice_point), Text) :-
    format(string(Text), "~w left a choice point on position ~q", [PI, Pos]).
sentence(fault(PI, Pos, duplicate(Succ, Times)), Text) :-
    (   Times =:= 2 -> How = "twice" ; format(string(How), "~d times", [Times]) ),
    format(string(Text), "~w gave ~q ~w on position ~q", [PI, Succ, How, Pos]).
sentence(fault(turn, Pos, both_hold), Text) :-
    format(string(Text), "both max_to_move/1 and min_to_move/1 hold on position ~q", [Pos]).
sentence(fault(turn, Pos, neither_holds), Text) :-
    format(string(Text), "neither max_to_move/1 nor min_to_move/1 holds on position ~q",
           [Pos]).

% term_words(+Term, -Text): Term written with ~q, its variables as `_`
% (or A, B, ... where one occurs twice).
term_words(Term, Text) :-
    copy_term(Term, Copy),
    numbervars(Copy, 0, _, [singletons(true)]),
    format(string(Text), "~W", [Copy, [quoted(true), numbervars(true)]]).

% error_words(+Error, -Text): the message of Error, on one line.
error_words(Error, Text) :-
    message_text(Error, Text0),
    split_string(Text0, "\n", " ", Parts),
    exclude(==(""), Parts, Kept),
    atomic_list_concat(Kept, ' ', Atom),
    atom_string(Atom, Text).

% place(+Game, +PI, -File, -Line): where PI is defined: its file and
% the line of its first clause (for the side to move, the file of
% max_to_move/1 and no line: @(null)).
place(Game, turn, File, @(null)) :-
    !,
    place(Game, max_to_move/1, File, _).
place(Game, Name/Arity, File, Line) :-
    functor(Head, Name, Arity),
    (   predicate_property(Game:Head, file(File0))
    ->  File = File0,
        (   predicate_property(Game:Head, line_count(Line0)) -> Line = Line0 ; Line = @(null) )
    ;   File = Game, Line = @(null)
    ).

place_text(Game, PI, Text) :-
    place(Game, PI, File, Line),
    (   Line == @(null)
    ->  format(string(Text), "~w", [File])
    ;   format(string(Text), "~w:~d", [File, Line])
    ).

predicate_text(turn, "max_to_move/1 and min_to_move/1") :- !.
predicate_text(PI, Text) :-
    format(string(Text), "~w", [PI]).

%!  fault_json(+Game, +Fault, -JsonTerm) is det.
%
%   JsonTerm describes Fault (a fault of Game, see the module comment):
%   kind, predicate, file, line (of the predicate's first clause, or
%   null), position (`~q`) and text (the fault in words, naming the
%   predicate and the position).

fault_json(Game, Fault, json([kind=Kind, predicate=P, file=File, line=Line,
                              position=PosText, text=Text])) :-
    Fault = fault(PI, Pos, Problem),
    once(kind(Problem, PI, Kind, _)),
    predicate_text(PI, P),
    place(Game, PI, File, Line),
    format(string(PosText), "~q", [Pos]),
    sentence(Fault, Text).

%!  lint_json(+Report, -JsonTerm) is det.
%
%   JsonTerm is Report (of lint/5) for the engine: positions (how many
%   were examined), depth (the deepest, in moves from a start),
%   complete, and findings: one per kind of fault found, in a fixed
%   order, each with kind, predicate, file, line, summary (what is
%   wrong, in words), count (the positions where it is) and examples
%   (the first three, each a position and the fault in words).

lint_json(lint(Game, Examined, Depth, Complete, Faults),
          json([positions=Examined, depth=Depth, complete= @(Complete),
                findings=Findings])) :-
    findall(Finding, finding(Game, Faults, Finding), Findings).

finding(Game, Faults, json([kind=Kind, predicate=P, file=File, line=Line,
                            summary=Summary, count=Count, examples=Examples])) :-
    kind(Problem, PI, Kind, Summary),
    include(of_kind(PI, Problem), Faults, Found),
    Found \== [],
    length(Found, Count),
    predicate_text(PI, P),
    place(Game, PI, File, Line),
    first(3, Found, Shown),
    maplist(example_json, Shown, Examples).

of_kind(PI, Problem, fault(PI1, _, Problem1)) :-
    PI1 == PI,
    \+ Problem1 \= Problem.

first(N, List, First) :-
    length(List, Len),
    (   Len =< N -> First = List ; length(First, N), append(First, _, List) ).

example_json(Fault, json([position=PosText, text=Text])) :-
    Fault = fault(_, Pos, _),
    format(string(PosText), "~q", [Pos]),
    sentence(Fault, Text).

:- multifile prolog:error_message//1.

prolog:error_message(search_fault(Game, Fault)) -->
    { Fault = fault(PI, _, _),
      place_text(Game, PI, Place),
      sentence(Fault, Text) },
    [ '~w: ~w'-[Place, Text] ].
