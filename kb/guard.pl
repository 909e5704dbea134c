:- module(guard,
          [ check_file/2,               % +File, -Offences
            check_file_json/2,          % +File, -Json
            load_guarded/4,             % +File, +Context, +If, -Json
            allowed_library/1           % ?Library
          ]).

/** <module> A user's knowledge base is checked before anything in it runs

A knowledge base a person hands the engine (`advice search --kb FILE`,
a table's `uses FILE`, a student's submission) is *read*, term by term,
never consulted, and refused with one line per offence when any of
these holds:

  - **a syntax error** (all of them are reported, not just the first);
  - **a directive** other than the declarations a knowledge base needs:
    module/2 as the first term, use_module/1,2 of an allowed library
    (allowed_library/1) or of a shipped library for domains
    (`advice(chess/endgame)`, `advice(chess/concepts)`, advice_library/1;
    reexport/1,2 too), dynamic/1, discontiguous/1, table/1, op/3,
    style_check/1, and set_prolog_flag/2 of `double_quotes` (local to
    the module), `optimise` or `generate_debug_info` (local to the
    file). These declare how the file is read and what it defines;
    none runs a goal of the file. Everything else is refused, in
    particular initialization/1,2, `if/1` (conditional compilation
    calls its goal), and whatever loads another file (consult/1,
    include/1, ensure_loaded/1, load_files/2, `[File]`, use_module/1,2
    of a file or of another library, foreign libraries);
  - **a module name that is taken**, by the system, by a module loaded
    from another file, by a file shipped under kb/ or by a library
    (bridge:taken_module_name/3; loading would fail, now or when the
    engine loads that file, with a permission error that names neither);
  - **a clause for another module** (`user:portray(_) :- ...`) or a
    definition of goal_expansion/2,4 (it rewrites the file's bodies
    after they were checked);
  - **a body that may call something unsafe** (below).

## How bodies are checked

library(sandbox)'s safe_goal/1 decides what a goal may call, but it
checks a goal *and the code it calls*, which must be loaded; the file
is not. So the file's predicates are first made known without their
code: every head the file defines becomes a *stub*, a fact with
general arguments, in a temporary module that imports the same
libraries the file does. Then each body is walked with its source
positions:

  - control constructs (`,` `;` `->` `*->` `\+`) are walked through;
  - a call of one of the file's own predicates is fine (its own
    clauses are checked where they stand);
  - a call of a meta-predicate (findall/3, forall/2, maplist/N,
    call/N, ...: whatever has a meta_predicate/1 declaration) has its
    goal arguments walked as bodies (closures extended with their
    extra arguments, yall lambdas opened), and is itself checked with
    safe_goal/1 with those arguments replaced by a harmless stub;
  - any other goal is checked with safe_goal/1 in the temporary
    module: the sandbox's white list of built-ins, and the library
    code it reaches, transitively. A predicate no module defines is
    not an offence (calling it raises an existence error);
  - `M:Goal` is allowed when M is the file's own module or the module
    of an allowed library; assert/retract only into the file's own
    module, only facts (the sandbox's rule), and never of
    term_expansion/2,4 or goal_expansion/2,4.

Besides the sandbox's list, writing to the *current* output (write/1,
print/1, nl/0, tab/1, ...) is allowed, so that a game can draw a
position with with_output_to/2; writing to a named stream, opening
files, shell/1, process_create/3, halt/0,1, setenv/2, thread_create/3,
nb_setval/2 (global variables are shared with the engine), flags other
than the sandbox's harmless ones and every other built-in outside the
lists are refused.

**Meta-calls.** A goal only known at run time (a variable in a body,
call/N or findall/3 of a variable, `=..` then call) cannot be checked
before it runs, so it is refused: a knowledge base names the goals it
calls. Closures that are written in the file (`maplist(succ, L, L1)`,
`foldl([X,A0,A]>>(A is A0+X), L, 0, S)`) are checked like any body.

## What runs at load time

term_expansion/2,4 of the file's own module run while it loads; their
bodies are checked like any other, but what they *produce* cannot be
known before they run. So load_guarded/4 loads the file with a
user:term_expansion/2 hook that sees every term after the file's own
expansion and refuses (drops, and reports) any term that was not
checked when the file was read and does not pass the same checks. The
run-time limits of the engine's Prolog process (time, inferences,
memory; a process that can be ended from outside) remain the second
line of defence.
*/

:- use_module(library(sandbox), [safe_goal/1]).

% library(sandbox) loads library(apply_macros), whose system-wide goal
% expansion rewrites maplist/N, forall/2, ... in every file compiled
% afterwards, and changes what they mean: a yall lambda's global
% variable becomes a fresh one (`maplist([I, P]>>arg(I, Term, P), Is,
% Ps)` then raises an instantiation error). The engine's own modules,
% loaded into the same Prolog after this one, must compile as written,
% so those two clauses are taken out again.
:- forall(( member(Hook, [goal_expansion(_, _), goal_expansion(_, _, _, _)]),
            clause(system:Hook, _, Ref),
            clause_property(Ref, file(File)),
            file_base_name(File, 'apply_macros.pl') ),
          erase(Ref)).
:- use_module(library(modules), [in_temporary_module/3]).
:- use_module(library(readutil), [read_file_to_string/3]).
:- use_module(job_io, [json_string/2, message_text/2]).
:- use_module(library(lists), [append/2, append/3, list_to_set/2, member/2, nth1/3]).
:- use_module(library(apply), [maplist/3, maplist/4, foldl/4]).
:- use_module(library(yall)).
:- use_module(bridge, [load_kb/4, taken_module_name/3]).

:- dynamic
    watching/2,                 % File, Ctx: a guarded load is under way
    checked/1,                  % Sha: a term read and found clean
    late_offence/1.             % offence(Line, Column, Text) found while loading

		 /*******************************
		 *           WHITE LISTS        *
		 *******************************/

%!  allowed_library(?Library) is nondet.
%
%   Library (as in `library(Library)`) may be loaded by a knowledge
%   base with use_module/1,2. These libraries hold data structures and
%   pure list, string and arithmetic predicates: loading them runs no
%   code of the user's, and every call into them is still checked by
%   the sandbox. Libraries that reach files, processes, threads, the
%   network, global state or the terminal (readutil, filesex,
%   process, debug, persistency, ...) are not listed.

allowed_library(Library) :-
    library_module(Library, _).

library_module(aggregate, aggregate).
library_module(apply, apply).
library_module(assoc, assoc).
library_module(clpfd, clpfd).
library_module(dcg/basics, dcg_basics).
library_module(dicts, dicts).
library_module(error, error).
library_module(lists, lists).
library_module(occurs, occurs).
library_module(ordsets, ordsets).
library_module(pairs, pairs).
library_module(random, random).
library_module(rbtrees, rbtrees).
library_module(solution_sequences, solution_sequences).
library_module(strings, strings).
library_module(ugraphs, ugraphs).
library_module(yall, yall).

% Writing to the current output is harmless (with_output_to/2 captures
% it); the sandbox leaves these to its host (pengines declares them).
sandbox:safe_primitive(system:write(_)).
sandbox:safe_primitive(system:writeq(_)).
sandbox:safe_primitive(system:print(_)).
sandbox:safe_primitive(system:write_canonical(_)).
sandbox:safe_primitive(system:write_term(_, _)).
sandbox:safe_primitive(system:nl).
sandbox:safe_primitive(system:tab(_)).
sandbox:safe_primitive(system:put_char(_)).

% Directives that declare and run nothing of the file's.
declaration(dynamic(_)).
declaration(discontiguous(_)).
declaration(table(_)).

% Directives that load another file.
loads_file(consult(_)).
loads_file(include(_)).
loads_file(ensure_loaded(_)).
loads_file(load_files(_)).
loads_file(load_files(_, _)).
loads_file(use_module(_)).
loads_file(use_module(_, _)).
loads_file(reexport(_)).
loads_file(reexport(_, _)).
loads_file(autoload(_)).
loads_file(autoload(_, _)).
loads_file(use_foreign_library(_)).
loads_file(use_foreign_library(_, _)).
loads_file(load_foreign_library(_)).
loads_file(load_foreign_library(_, _)).
loads_file([_|_]).

% Hooks that may not be defined (goal expansion) or asserted.
expansion_hook(goal_expansion(_, _)).
expansion_hook(goal_expansion(_, _, _, _)).
expansion_hook(term_expansion(_, _)).
expansion_hook(term_expansion(_, _, _, _)).

database(assert(_)).
database(asserta(_)).
database(assertz(_)).
database(asserta(_, _)).
database(assertz(_, _)).
database(retract(_)).
database(retractall(_)).

control((_, _)).
control((_ ; _)).
control((_ -> _)).
control((_ *-> _)).
control(\+ _).

		 /*******************************
		 *          THE CHECK           *
		 *******************************/

%!  check_file(+File, -Offences) is det.
%
%   Reads File (nothing in it runs, nothing is loaded) and gives every
%   reason to refuse it: Offences is a list of
%   `offence(Line, Column, Text)` terms sorted by position, Column 0
%   where only the line is known; `[]` when the file may be loaded.
%   What File may call and which module names are taken are judged
%   against the modules loaded in this Prolog.

check_file(File, Offences) :-
    in_temporary_module(Tmp, true, file_report(File, Tmp, _, _, Offences)).

%!  check_file_json(+File, -Json) is det.
%
%   check_file/2 for the engine: Json is a string holding a JSON list of
%   the offences, each one line `File:Line: Text`.

check_file_json(File, Json) :-
    check_file(File, Offences),
    maplist(offence_line(File), Offences, Lines),
    json_string(Lines, Json).

% file_report(+File, +Tmp, -Self, -Checked, -Offences): reads File in
% module Tmp; Self is its module (- for a plain file), Checked the
% hashes of the terms read.
file_report(File, Tmp, Self, Checked, Offences) :-
    read_file_to_string(File, Text, [encoding(utf8)]),
    setup_call_cleanup(open_string(Text, In),
                       read_items(In, Tmp, Items),
                       close(In)),
    file_module(Items, Self),
    stub_predicates(Items, Self, Tmp),
    Ctx = ctx(Tmp, Self, File),
    foldl(item_offences(Ctx, Text), Items, Found, []),
    in_file_order(Found, Offences),
    findall(Sha, member(item(_, Sha, _, _, _), Items), Checked).

		 /*******************************
		 *            READING           *
		 *******************************/

% An item is
%   - item(Term, Sha, Pos, where(Line, Char), Order): a clause or
%     directive, Order `first` for the first term read, else `later`;
%   - offence(Line, Column, Text): found while reading;
%   - self(Module): the file's module/2 header.
read_items(In, Tmp, Items) :-
    read_items(In, reading(Tmp, string, first), Items, []).

read_items(In, State, Items, Tail) :-
    State = reading(Tmp, DQ, Order),
    catch(read_term(In, Term,
                    [ module(Tmp), double_quotes(DQ), syntax_errors(error),
                      term_position(Start), subterm_positions(Pos) ]),
          Error, true),
    (   nonvar(Error)
    ->  read_error(Error, Offence),
        Items = [Offence|Rest],
        (   Error = error(syntax_error(_), _)
        ->  read_items(In, State, Rest, Tail)
        ;   Rest = Tail
        )
    ;   Term == end_of_file
    ->  Items = Tail
    ;   stream_position_data(line_count, Start, Line),
        stream_position_data(char_count, Start, Char),
        variant_sha1(Term, Sha),
        Where = where(Line, Char),
        Items = [item(Term, Sha, Pos, Where, Order)|Items1],
        read_effect(Term, State, State1, Items1, Rest),
        read_items(In, State1, Rest, Tail)
    ).

read_error(error(syntax_error(What), stream(_, Line, LinePos, _)),
           offence(Line, Column, Text)) :-
    !,
    Column is LinePos + 1,
    message_text(error(syntax_error(What), _), Text).
read_error(Error, offence(0, 0, Text)) :-
    message_text(Error, Text0),
    format(string(Text), "cannot be read: ~w", [Text0]).

% read_effect(+Term, +State0, -State, -Items, ?Tail): a declaration
% that changes how the rest is read takes effect, in the temporary
% module, as it would in the file's.
read_effect((:- Directive), reading(Tmp, DQ, First), State, Items, Tail) :-
    nonvar(Directive),
    !,
    State = reading(Tmp, DQ1, later),
    directive_effect(Directive, First, Tmp, DQ, DQ1, Items, Tail).
read_effect(_, reading(Tmp, DQ, _), reading(Tmp, DQ, later), Tail, Tail).

directive_effect(module(Module, Exports), first, Tmp, DQ, DQ, [self(Module)|Tail], Tail) :-
    atom(Module),
    is_list(Exports),
    !,
    forall(member(op(P, T, Names), Exports), declare_op(Tmp, P, T, Names)).
directive_effect(op(P, T, Names), _, Tmp, DQ, DQ, Tail, Tail) :-
    !,
    declare_op(Tmp, P, T, Names).
directive_effect(set_prolog_flag(double_quotes, DQ1), _, _, DQ, DQ2, Tail, Tail) :-
    !,
    (   syntax_flag(DQ1) -> DQ2 = DQ1 ; DQ2 = DQ ).
directive_effect(Directive, _, Tmp, DQ, DQ, Tail, Tail) :-
    library_import(Directive, Spec, Imports),
    allowed_spec(Spec),
    !,
    catch(Tmp:use_module(Spec, Imports), _, true).
directive_effect(_, _, _, DQ, DQ, Tail, Tail).

% library_import(+Directive, -Spec, -Imports): Directive loads Spec, a
% library(Name) or a shipped advice(Path) module.
library_import(use_module(library(Library)), library(Library), all).
library_import(use_module(library(Library), Imports), library(Library), Imports).
library_import(use_module(advice(Path)), advice(Path), all).
library_import(use_module(advice(Path), Imports), advice(Path), Imports).
library_import(reexport(advice(Path)), advice(Path), all).
library_import(reexport(advice(Path), Imports), advice(Path), Imports).

% allowed_spec(+Spec): a knowledge base may load Spec.
allowed_spec(library(Library)) :- allowed_library(Library).
allowed_spec(advice(Path)) :- advice_library(Path).

%!  advice_library(?Path) is nondet.
%
%   The shipped modules a knowledge base may load as `advice(Path)`
%   (use_module/1,2 or reexport/1,2): libraries for writing domains,
%   whose exported predicates read positions and tables and nothing else.

advice_library(chess/endgame).
advice_library(chess/concepts).

% Flags a knowledge base may set: double_quotes is local to its module,
% the others to the file being loaded (the loader restores them).
harmless_flag(double_quotes, Value) :- syntax_flag(Value).
harmless_flag(optimise, Value) :- boolean(Value).
harmless_flag(generate_debug_info, Value) :- boolean(Value).

boolean(true).
boolean(false).

syntax_flag(codes).
syntax_flag(chars).
syntax_flag(atom).
syntax_flag(string).

declare_op(Tmp, P, T, Names) :-
    (   is_list(Names) -> List = Names ; List = [Names] ),
    forall(member(Name, List),
           catch(op(P, T, Tmp:Name), _, true)).

file_module(Items, Self) :-
    (   member(self(Self), Items) -> true ; Self = (-) ).

		 /*******************************
		 *             STUBS            *
		 *******************************/

% stub_predicates(+Items, +Self, +Tmp): every predicate the file
% defines or declares dynamic exists in Tmp as a dynamic predicate, so
% that the sandbox takes a call of it as safe (its own clauses are
% checked where they stand); '$guard_ok'/0..9 stand in for the goal
% arguments of meta-predicates.
stub_predicates(Items, Self, Tmp) :-
    findall(PI, (member(item(Term, _, _, _, _), Items), defines(Term, Self, PI)), PIs0),
    sort(PIs0, PIs),
    maplist(stub(Tmp), PIs),
    forall(between(0, 9, Arity), stub(Tmp, '$guard_ok'/Arity)).

% A predicate that may not be (re)defined (write/1, an explicit
% import) gets no stub: the file's calls of it reach the built-in and
% are checked as such, and the loader refuses the definition. Nor does
% an expansion hook: a stub would rewrite whatever is loaded into the
% temporary module (the file's own expansion hooks are checked where
% they stand).
stub(Tmp, Name/Arity) :-
    functor(Head, Name, Arity),
    (   expansion_hook(Head)
    ->  true
    ;   catch(( dynamic(Tmp:Name/Arity),
                assertz(Tmp:Head) ), _, true)
    ).

defines((:- Directive), Self, PI) :-
    !,
    nonvar(Directive),
    declaration(Directive),
    arg(1, Directive, Specs),
    spec_member(Spec, Specs),
    own_spec(Spec, Self, PI).
defines((?- _), _, _) :- !, fail.
defines(Term, Self, Name/Arity) :-
    clause_parts(Term, _, Module, Head, _, _, _),
    own_module(Module, Self),
    callable(Head),
    functor(Head, Name, Arity).

spec_member(_, Specs) :- var(Specs), !, fail.
spec_member(Spec, (A, B)) :- !, ( spec_member(Spec, A) ; spec_member(Spec, B) ).
spec_member(Spec, List) :- is_list(List), !, member(Spec0, List), spec_member(Spec, Spec0).
spec_member(Spec, Spec0 as _) :- !, spec_member(Spec, Spec0).
spec_member(Spec, Spec).

own_spec(Module:Spec, Self, PI) :- !, Module == Self, own_spec(Spec, Self, PI).
own_spec(Name/Arity, _, Name/Arity) :- atom(Name), integer(Arity), !.
own_spec(Name//Arity0, _, Name/Arity) :- atom(Name), integer(Arity0), !, Arity is Arity0+2.
own_spec(Head, _, Name/Arity) :- callable(Head), functor(Head, Name, Arity).

own_module(Module, _) :- var(Module), !.
own_module(Module, Self) :- Module == Self.

		 /*******************************
		 *       CHECKING AN ITEM       *
		 *******************************/

% item_offences(+Ctx, +Text, +Item, -Offences, ?Tail)
item_offences(_, _, offence(L, C, T), [offence(L, C, T)|Tail], Tail) :- !.
item_offences(_, _, self(_), Tail, Tail) :- !.
item_offences(Ctx, Text, item(Term, _, Pos, Where, Order), Offences, Tail) :-
    findall(At, term_offence(Term, Pos, Order, Ctx, At), Ats),
    maplist(located(Text, Where), Ats, Located),
    append(Located, Tail, Offences).

located(Text, where(Line0, Char0), at(Pos, Message), offence(Line, 0, Message)) :-
    (   nonvar(Pos),
        arg(1, Pos, From),
        integer(From),
        From >= Char0
    ->  Length is From - Char0,
        sub_string(Text, Char0, Length, _, Before),
        split_string(Before, "\n", "", Parts),
        length(Parts, N),
        Line is Line0 + N - 1
    ;   Line = Line0
    ).

% term_offence(+Term, +Pos, +Order, +Ctx, -At) is nondet: At is
% at(Pos, Message) for each offence of a clause or directive; Order is
% `first` for the first term of the file, else `later`.
term_offence(Term, _, _, _, _) :-
    var(Term), !, fail.
term_offence((:- Directive), Pos, Order, Ctx, At) :-
    !,
    sub_pos(Pos, 1, DPos),
    directive_offence(Directive, DPos, Order, Ctx, At).
term_offence((?- Directive), Pos, Order, Ctx, At) :-
    !,
    term_offence((:- Directive), Pos, Order, Ctx, At).
term_offence(Term, Pos, _, Ctx, At) :-
    clause_parts(Term, Pos, Module, Head, HPos, Body, BPos),
    (   head_offence(Module, Head, HPos, Ctx, At)
    ;   goal_offence(Body, BPos, Ctx, At)
    ).

% clause_parts(+Term, +Pos, -Module, -Head, -HeadPos, -Body, -BodyPos):
% a clause taken apart; Module is the module its head names (unbound
% when it names none). A grammar rule is translated first.
clause_parts(Term, _, _, _, _, _, _) :-
    var(Term), !, fail.
clause_parts(Module:Term, Pos, Module, Head, HPos, Body, BPos) :-
    !,
    sub_pos(Pos, 2, TPos),
    clause_parts(Term, TPos, _, Head, HPos, Body, BPos).
clause_parts((Head0 :- Body), Pos, Module, Head, HPos, Body, BPos) :-
    !,
    sub_pos(Pos, 1, HPos),
    sub_pos(Pos, 2, BPos),
    strip_head(Head0, Module, Head).
clause_parts((Head --> Body), Pos, Module, Head1, HPos, Body1, BPos) :-
    !,
    catch(once(dcg_translate_rule((Head --> Body), Pos, Clause, CPos)), _, fail),
    clause_parts(Clause, CPos, Module, Head1, HPos, Body1, BPos).
clause_parts(Head0, Pos, Module, Head, Pos, true, Pos) :-
    strip_head(Head0, Module, Head).

strip_head(Head0, Module, Head) :-
    (   nonvar(Head0), Head0 = Module:Head1
    ->  strip_head(Head1, _, Head)
    ;   Head = Head0
    ).

head_offence(Module, Head, Pos, ctx(_, Self, _), at(Pos, Message)) :-
    nonvar(Module),
    Module \== Self,
    callable(Head),
    !,
    functor(Head, Name, Arity),
    format(string(Message),
           "defining ~q:~q/~w is not allowed in a knowledge base: \c
            it is a predicate of another module", [Module, Name, Arity]).
head_offence(_, Head, Pos, _, at(Pos, Message)) :-
    callable(Head),
    Head \= term_expansion(_, _),
    Head \= term_expansion(_, _, _, _),
    expansion_hook(Head),
    !,
    functor(Head, Name, Arity),
    format(string(Message), "~q/~w is not allowed in a knowledge base: \c
                             it would rewrite the file after it was checked",
           [Name, Arity]).

		 /*******************************
		 *          DIRECTIVES          *
		 *******************************/

% directive_offence(+Directive, +Pos, +Order, +Ctx, -At) is semidet.
directive_offence(Directive, Pos, _, _, at(Pos, Message)) :-
    var(Directive),
    !,
    Message = "a directive only known at run time is not allowed in a knowledge base".
directive_offence(Module:Directive, Pos, Order, Ctx, At) :-
    Ctx = ctx(_, Self, _),
    Module == Self,
    !,
    sub_pos(Pos, 2, DPos),
    directive_offence(Directive, DPos, Order, Ctx, At).
directive_offence(module(Module, Exports), Pos, Order, ctx(_, _, File), at(Pos, Message)) :-
    !,
    module_offence(Module, Exports, Order, File, Message).
directive_offence(Directive, Pos, _, _, at(Pos, Message)) :-
    library_import(Directive, Spec, _),
    !,
    \+ allowed_spec(Spec),
    functor(Directive, Name, Arity),
    findall(L, ( allowed_library(L0), term_to_atom(L0, L) ), Allowed),
    atomic_list_concat(Allowed, ', ', List),
    findall(A, ( advice_library(P), term_to_atom(advice(P), A) ), Shipped),
    atomic_list_concat(Shipped, ', ', ShippedList),
    format(string(Message),
           "~q/~w of ~q is not allowed in a knowledge base \c
            (the libraries it may use: ~w; and ~w)",
           [Name, Arity, Spec, List, ShippedList]).
directive_offence(Directive, Pos, _, _, at(Pos, Message)) :-
    loads_file(Directive),
    !,
    directive_name(Directive, What),
    format(string(Message),
           "~w is not allowed in a knowledge base: it loads another file", [What]).
directive_offence(Directive, Pos, _, ctx(_, Self, _), at(Pos, Message)) :-
    declaration(Directive),
    !,
    arg(1, Directive, Specs),
    spec_member(Spec, Specs),
    \+ own_spec(Spec, Self, _),
    !,
    functor(Directive, Name, Arity),
    format(string(Message),
           "~q/~w of ~q is not allowed in a knowledge base: \c
            it declares a predicate of another module", [Name, Arity, Spec]).
directive_offence(op(P, T, Names), Pos, _, _, at(Pos, Message)) :-
    !,
    \+ valid_op(P, T, Names),
    Message = "this op/3 is not allowed in a knowledge base: \c
               give a priority, a type and an atom or a list of atoms".
directive_offence(set_prolog_flag(Flag, Value), Pos, _, _, at(Pos, Message)) :-
    !,
    \+ harmless_flag(Flag, Value),
    format(string(Message),
           "set_prolog_flag/2 of ~q is not allowed in a knowledge base (only \c
            double_quotes, optimise and generate_debug_info may be set)", [Flag]).
directive_offence(style_check(Style), Pos, _, _, at(Pos, Message)) :-
    !,
    \+ ground(Style),
    Message = "style_check/1 of a variable is not allowed in a knowledge base".
directive_offence(Directive, Pos, _, _, at(Pos, Message)) :-
    directive_name(Directive, What),
    format(string(Message), "~w is not allowed in a knowledge base", [What]).

directive_name([File|_], What) :-
    !,
    format(string(What), "the directive [~q] (consulting a file)", [File]).
directive_name(Directive, What) :-
    findall(Name, ( directive_goal(Directive, Goal), goal_name(Goal, Name) ), Names0),
    list_to_set(Names0, Names),
    atomic_list_concat(Names, ', ', List),
    format(string(What), "the directive ~w", [List]).

% directive_goal(+Directive, -Goal) is nondet: the goals a directive
% runs, through control constructs.
directive_goal(Directive, Directive) :-
    var(Directive),
    !.
directive_goal(Directive, Goal) :-
    control(Directive),
    !,
    arg(_, Directive, Arg),
    directive_goal(Arg, Goal).
directive_goal(Goal, Goal).

module_offence(_, _, later, _, "module/2 is allowed only as the first term of a knowledge base").
module_offence(Module, Exports, first, _, Message) :-
    \+ ( atom(Module), is_list(Exports) ),
    Message = "module/2 must name the module (an atom) and list its exports".
module_offence(Module, _, first, File, Message) :-
    atom(Module),
    taken_module_name(Module, File, Message).

valid_op(P, T, Names) :-
    integer(P), between(0, 1200, P),
    atom(T), memberchk(T, [xfx, xfy, yfx, fy, fx, xf, yf]),
    (   atom(Names) -> true ; is_list(Names), maplist(atom, Names) ).

		 /*******************************
		 *            BODIES            *
		 *******************************/

% goal_offence(+Goal, +Pos, +Ctx, -At) is nondet.
goal_offence(Goal, Pos, _, at(Pos, Message)) :-
    var(Goal),
    !,
    Message = "a goal only known at run time (a variable) is not allowed \c
               in a knowledge base".
goal_offence(true, _, _, _) :-
    !,
    fail.
goal_offence(Goal, Pos, Ctx, At) :-
    control(Goal),
    !,
    arg(I, Goal, Arg),
    sub_pos(Pos, I, ArgPos),
    goal_offence(Arg, ArgPos, Ctx, At).
goal_offence(Module:Goal, Pos, Ctx, At) :-
    !,
    qualified_offence(Module, Goal, Pos, Ctx, At).
goal_offence(Goal, _, _, _) :-
    \+ callable(Goal),
    !,
    fail.
goal_offence(Goal, _, ctx(Tmp, _, _), _) :-
    own(Tmp, Goal),
    !,
    fail.
goal_offence(Goal, Pos, Ctx, At) :-
    Ctx = ctx(Tmp, _, _),
    call_offence(Tmp, Goal, Pos, Ctx, At).

qualified_offence(Module, _, Pos, _, at(Pos, Message)) :-
    var(Module),
    !,
    Message = "a call into a module only known at run time is not allowed \c
               in a knowledge base".
qualified_offence(Module, Goal, Pos, Ctx, At) :-
    Ctx = ctx(_, Self, _),
    Module == Self,
    !,
    sub_pos(Pos, 2, GoalPos),
    goal_offence(Goal, GoalPos, Ctx, At).
qualified_offence(Module, Goal, Pos, Ctx, At) :-
    library_module(_, Module),
    callable(Goal),
    !,
    sub_pos(Pos, 2, GoalPos),
    call_offence(Module, Goal, GoalPos, Ctx, At).
qualified_offence(Module, Goal, Pos, _, at(Pos, Message)) :-
    goal_name(Goal, Name),
    format(string(Message),
           "calling ~q:~w is not allowed in a knowledge base: \c
            it is a call into another module", [Module, Name]).

% call_offence(+Module, +Goal, +Pos, +Ctx, -At): Goal, resolved in
% Module (the temporary module or an allowed library's), is not own.
call_offence(Module, Goal, Pos, Ctx, At) :-
    database(Goal),
    !,
    database_offence(Module, Goal, Pos, Ctx, At).
call_offence(Module, Goal, Pos, Ctx, At) :-
    catch(predicate_property(Module:Goal, meta_predicate(Spec)), _, fail),
    !,
    meta_offence(Module, Goal, Spec, Pos, Ctx, At).
call_offence(Module, Goal, Pos, Ctx, at(Pos, Message)) :-
    unsafe(Module, Goal, Ctx, Why),
    goal_name(Goal, Name),
    format(string(Message), "~w is not allowed in a knowledge base~w", [Name, Why]).

% The goal arguments of a meta-predicate are checked as bodies; the
% meta-predicate itself with them replaced by '$guard_ok'.
meta_offence(_, Goal, Spec, Pos, Ctx, At) :-
    arg(I, Spec, S),
    goal_spec(S),
    arg(I, Goal, Arg),
    sub_pos(Pos, I, ArgPos),
    meta_arg_offence(Goal, S, Arg, ArgPos, Ctx, At).
meta_offence(Module, Goal, Spec, Pos, Ctx, at(Pos, Message)) :-
    Goal =.. [Name|Args],
    Spec =.. [_|Specs],
    maplist(stub_arg, Specs, Args, Args1),
    Goal1 =.. [Name|Args1],
    unsafe(Module, Goal1, Ctx, Why),
    goal_name(Goal, Text),
    format(string(Message), "~w is not allowed in a knowledge base~w", [Text, Why]).

goal_spec(S) :- integer(S), !.
goal_spec(^).
goal_spec(//).

stub_arg(S, _, '$guard_ok') :- goal_spec(S), !.
stub_arg(_, Arg, Arg).

meta_arg_offence(Goal, _, Arg, Pos, _, at(Pos, Message)) :-
    var(Arg),
    !,
    goal_name(Goal, Name),
    format(string(Message),
           "~w of a goal only known at run time is not allowed in a knowledge \c
            base: name the goal it calls", [Name]).
meta_arg_offence(_, S, Arg, Pos, Ctx, At) :-
    meta_goal(S, Arg, Pos, Goal, GoalPos),
    goal_offence(Goal, GoalPos, Ctx, At).

% meta_goal(+Spec, +Arg, +Pos, -Goal, -GoalPos): what a goal argument
% calls.
meta_goal(0, Goal, Pos, Goal, Pos) :- !.
meta_goal(^, Arg, Pos, Goal, GoalPos) :-
    !,
    (   nonvar(Arg), Arg = _^Arg1
    ->  sub_pos(Pos, 2, Pos1),
        meta_goal(^, Arg1, Pos1, Goal, GoalPos)
    ;   Goal = Arg, GoalPos = Pos
    ).
meta_goal(//, Body, Pos, Goal, Pos) :-
    !,
    catch(once(dcg_translate_rule(('$guard_nt' --> Body), (_ :- Goal))), _, fail).
meta_goal(N, Closure, Pos, Goal, GoalPos) :-
    extend(N, Closure, Pos, Goal, GoalPos).

% extend(+N, +Closure, +Pos, -Goal, -GoalPos): Closure called with N
% more arguments; yall lambdas are opened.
extend(_, Closure, Pos, call(Closure), Pos) :-
    var(Closure),
    !.
extend(N, Module:Closure, Pos, Module:Goal, Pos) :-
    !,
    sub_pos(Pos, 2, Pos1),
    extend(N, Closure, Pos1, Goal, _).
extend(N, _Free/Lambda, Pos, Goal, GoalPos) :-
    !,
    sub_pos(Pos, 2, Pos1),
    extend(N, Lambda, Pos1, Goal, GoalPos).
extend(N, Params>>Body, Pos, Goal, GoalPos) :-
    !,
    (   is_list(Params) -> length(Params, K) ; K = 0 ),
    Rest is max(0, N-K),
    sub_pos(Pos, 2, Pos1),
    extend(Rest, Body, Pos1, Goal, GoalPos).
extend(N, \Lambda, Pos, Goal, GoalPos) :-
    !,
    sub_pos(Pos, 1, Pos1),
    lambda_params(N, Lambda, Pos1, Goal, GoalPos).
extend(0, Goal, Pos, Goal, Pos) :- !.
extend(N, Closure, Pos, Goal, Pos) :-
    callable(Closure),
    length(Extra, N),
    Closure =.. List0,
    append(List0, Extra, List),
    Goal =.. List.

lambda_params(N, _^Body, Pos, Goal, GoalPos) :-
    N > 0,
    !,
    N1 is N-1,
    sub_pos(Pos, 2, Pos1),
    lambda_params(N1, Body, Pos1, Goal, GoalPos).
lambda_params(N, Body, Pos, Goal, GoalPos) :-
    extend(N, Body, Pos, Goal, GoalPos).

% assert/retract: only facts, only into the file's own module, never
% an expansion hook.
database_offence(_, Goal, Pos, ctx(_, Self, _), at(Pos, Message)) :-
    arg(1, Goal, Clause),
    goal_name(Goal, Name),
    database_refusal(Clause, Self, Name, Message),
    !.
database_offence(Module, Goal, Pos, Ctx, at(Pos, Message)) :-
    Ctx = ctx(_, Self, _),
    Goal =.. [Name, Clause0|Rest],
    strip_module(Self:Clause0, _, Clause),
    Goal1 =.. [Name, Clause|Rest],
    unsafe(Module, Goal1, Ctx, Why),
    goal_name(Goal, Text),
    (   nonvar(Clause), Clause = (_ :- _)
    ->  format(string(Message), "~w of a rule is not allowed in a knowledge base \c
                                 (facts only)", [Text])
    ;   format(string(Message), "~w is not allowed in a knowledge base~w", [Text, Why])
    ).

database_refusal(Clause, _, Name, Message) :-
    var(Clause),
    !,
    format(string(Message), "~w of a clause only known at run time is not \c
                             allowed in a knowledge base", [Name]).
database_refusal(Module:_, _, Name, Message) :-
    var(Module),
    !,
    format(string(Message), "~w into a module only known at run time is not \c
                             allowed in a knowledge base", [Name]).
database_refusal(Module:_, Self, Name, Message) :-
    Module \== Self,
    !,
    format(string(Message), "~w into module ~q is not allowed in a knowledge base",
           [Name, Module]).
database_refusal(Clause0, Self, Name, Message) :-
    strip_module(Self:Clause0, _, Clause),
    clause_head(Clause, Head),
    nonvar(Head),
    expansion_hook(Head),
    functor(Head, HName, HArity),
    format(string(Message), "~w of ~q/~w is not allowed in a knowledge base",
           [Name, HName, HArity]).

clause_head((Head :- _), Head) :- !.
clause_head(Head, Head).

% A predicate of the file's own: a stub in the temporary module.
own(Tmp, Goal) :-
    predicate_property(Tmp:Goal, dynamic),
    predicate_property(Tmp:Goal, implementation_module(Tmp)).

% unsafe(+Module, +Goal, +Ctx, -Why) is semidet: safe_goal/1 refuses
% Goal called in Module; Why says more where it can ("" otherwise).
unsafe(Module, Goal, ctx(Tmp, _, _), Why) :-
    (   Module == Tmp -> Qualified = Tmp:Goal ; Qualified = Tmp:(Module:Goal) ),
    catch(safe_goal(Qualified), Error, true),
    nonvar(Error),
    \+ undefined_goal(Error),
    why(Error, Why).

% A goal that no module defines is not unsafe: calling it raises an
% existence error.
undefined_goal(error(existence_error(procedure, _), sandbox(_, []))).

why(error(instantiation_error, _), Why) :-
    !,
    Why = ": what it does depends on arguments only known at run time".
why(error(existence_error(procedure, Goal), _), Why) :-
    !,
    goal_name(Goal, Name),
    format(string(Why), ": it calls ~w, which is not defined", [Name]).
why(_, "").

		 /*******************************
		 *        GUARDED LOADING       *
		 *******************************/

%!  load_guarded(+File, +Context, +If, -Json) is det.
%
%   Loads File as bridge:load_kb/4 does, after check_file/2 found
%   nothing to refuse; Json is bridge:load_kb/4's JSON list of
%   `{"kind": error|warning, "text": Message}` objects. When the
%   check finds offences, File is not loaded and Json lists them as
%   errors (`File:Line: Text`). While it loads, every term the file's
%   own term_expansion/2,4 produces is checked as well; a term that
%   fails the check is dropped, reported, and the file unloaded.

load_guarded(File, Context, If, Json) :-
    absolute_file_name(File, Path),
    in_temporary_module(Tmp, true, guarded(Path, Tmp, Context, If, Json)).

guarded(File, Tmp, Context, If, Json) :-
    file_report(File, Tmp, Self, Checked, Offences),
    (   Offences == []
    ->  watched_load(File, ctx(Tmp, Self, File), Checked, Context, If, Json)
    ;   errors_json(File, Offences, Json)
    ).

watched_load(File, Ctx, Checked, Context, If, Json) :-
    retractall(late_offence(_)),
    setup_call_cleanup(watch(File, Ctx, Checked),
                       load_kb(File, Context, If, Json0),
                       unwatch),
    findall(Offence, retract(late_offence(Offence)), Late0),
    (   Late0 == []
    ->  Json = Json0
    ;   in_file_order(Late0, Late),
        catch(unload_file(File), _, true),
        errors_json(File, Late, Json)
    ).

watch(File, Ctx, Checked) :-
    unwatch,
    forall(member(Sha, Checked), assertz(checked(Sha))),
    assertz(watching(File, Ctx)).

unwatch :-
    retractall(watching(_, _)),
    retractall(checked(_)).

:- multifile user:term_expansion/2.

% Sees every term of the guarded file after the file's own expansion:
% a term not read and checked beforehand is checked now, and dropped
% (expanded to []) when it is refused.
user:term_expansion(Term, []) :-
    watching(File, Ctx),
    prolog_load_context(source, Source),
    (   Source == File -> true ; catch(same_file(Source, File), _, fail) ),
    late_offences(Term, Ctx, Offences),
    Offences \== [],
    forall(member(Offence, Offences), assertz(late_offence(Offence))).

late_offences(Term, _, []) :-
    var(Term),
    !.
late_offences(Term, Ctx, Offences) :-
    is_list(Term),
    !,
    maplist([T, Os]>>late_offences(T, Ctx, Os), Term, Nested),
    append(Nested, Offences).
late_offences('$source_location'(_, _):Term, Ctx, Offences) :-
    !,
    late_offences(Term, Ctx, Offences).
late_offences(Term, _, []) :-
    harmless_marker(Term),
    !.
late_offences(Term, _, []) :-
    catch(variant_sha1(Term, Sha), _, fail),
    checked(Sha),
    !.
late_offences(Term, Ctx, Offences) :-
    source_location(_, Line),
    (   cyclic_term(Term)
    ->  Offences = [offence(Line, 0, "a cyclic term is not allowed in a knowledge base")]
    ;   findall(offence(Line, 0, Message),
                catch(term_offence(Term, _, later, Ctx, at(_, Message)), _,
                      Message = "a term that cannot be checked is not allowed in a \c
                                 knowledge base"),
                Offences)
    ).

harmless_marker(begin_of_file).
harmless_marker(end_of_file).

		 /*******************************
		 *            HELPERS           *
		 *******************************/

% in_file_order(+Offences0, -Offences): sorted on line, then column;
% offences at the same place keep the order they were found in.
in_file_order(Offences0, Offences) :-
    sort(2, @=<, Offences0, ByColumn),
    sort(1, @=<, ByColumn, Offences).

% sub_pos(+Pos, +N, -SubPos): the position of the Nth argument, or Pos
% itself where it is not known.
sub_pos(Pos, N, SubPos) :-
    nonvar(Pos),
    Pos = term_position(_, _, _, _, Args),
    nth1(N, Args, SubPos0),
    !,
    SubPos = SubPos0.
sub_pos(Pos, _, Pos).

goal_name(Goal, Name) :-
    strip_module(Goal, Module, Plain),
    (   callable(Plain)
    ->  functor(Plain, F, A),
        (   Goal = _:_, atom(Module)
        ->  format(string(Name), "~q:~q/~w", [Module, F, A])
        ;   format(string(Name), "~q/~w", [F, A])
        )
    ;   format(string(Name), "~q", [Goal])
    ).

offence_line(File, offence(Line, Column, Text), String) :-
    (   Column > 0
    ->  format(string(String), "~w:~w:~w: ~w", [File, Line, Column, Text])
    ;   format(string(String), "~w:~w: ~w", [File, Line, Text])
    ).

errors_json(File, Offences, Json) :-
    maplist(offence_line(File), Offences, Lines),
    maplist([Line, json([kind=error, text=Line])]>>true, Lines, Objects),
    json_string(Objects, Json).
