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
    none runs a goal of the file (a table/1 declaration may name no
    answer-subsumption mode that calls a predicate, lattice(PI) or
    po(PI): only index, first, last, min, max and sum). Everything else is refused, in
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
libraries the file does.

What is checked is what will run: each clause is first expanded as the
compiler will expand it (expand_term/4 in the temporary module: grammar
rules, dict functional notation, which turns `X = Dict.f(A)` into a call
of './3', goal expansion), and a clause whose expansion raises an error
is refused. A directive holding functional notation is refused (the
compiler would turn it into goals that run at load time). Then each
body is walked with its source positions:

  - control constructs (`,` `;` `->` `*->` `\+`) are walked through;
  - a call of one of the file's own predicates is fine (its own
    clauses are checked where they stand);
  - a call of a meta-predicate (findall/3, forall/2, maplist/N,
    call/N, ...: whatever has a meta_predicate/1 declaration) has its
    goal arguments walked as bodies (closures extended with their
    extra arguments, yall lambdas opened), and is itself checked with
    safe_goal/1 with those arguments replaced by a harmless stub;
  - a goal must name a built-in, a predicate of one of SWI-Prolog's
    libraries or one that a shipped library the file loads exports:
    a predicate nothing defines when the file is checked is an
    offence ("it is not defined in this file nor by an allowed
    library"), for the engine may define it later (its modules load
    after the guard, and a call the file's module does not define is
    resolved in `user`); so is a predicate of one of the engine's own
    modules, which a knowledge base would reach through `user`. A file
    with a term_expansion/2,4 of its own may define more when it
    loads: its calls of predicates nothing defines are checked again
    once it has loaded, and refused unless the file defined them;
  - output that may call a goal is refused: print/1,2 and the format
    directive `~p` (user:portray/1 hooks), write_term/2,3,
    term_string/3 and `~W` unless every option is on a white list of
    options that only write (harmless_write_options/1; not
    portray_goal/1, portray(true), ...), format/1,2,3, debug/3 and
    print_message/2 of a format only known at run time, and
    print_message/2 of anything but format(Format, Args);
    functions on dicts other than the built-in get and put;
  - any other goal is checked with safe_goal/1 in the temporary
    module: the sandbox's white list of built-ins, and the library
    code it reaches, transitively;
  - `M:Goal` is allowed when M is the file's own module or the module
    of an allowed library; assert/retract only into the file's own
    module, only facts (the sandbox's rule), and never of
    term_expansion/2,4 or goal_expansion/2,4.

Besides the sandbox's list, writing to the *current* output (write/1,
writeq/1, nl/0, tab/1, ...) is allowed, so that a game can draw a
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
:- use_module(library(prolog_format), [format_spec/2]).
:- use_module(job_io, [json_string/2, message_text/2]).
:- use_module(library(lists), [append/2, append/3, list_to_set/2, member/2, nth1/3]).
:- use_module(library(apply), [maplist/3, maplist/4, foldl/4, include/3, exclude/3, partition/4]).
:- use_module(library(yall)).
:- use_module(bridge, [load_kb/4, taken_module_name/3]).

:- dynamic
    advice_import/2,            % Tmp, Module: the file checked in Tmp loads Module
    expands_itself/1,           % Tmp: the file checked in Tmp has a term_expansion/2,4
    expanding/0,                % the guard expands a term as the compiler will
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
% Not print/1, which calls user:portray/1 hooks, and write_term/2 only
% with options of the white list (harmless_write_options/1): library
% code that calls it with options it was given is refused.
sandbox:safe_primitive(system:write(_)).
sandbox:safe_primitive(system:writeq(_)).
sandbox:safe_primitive(system:write_canonical(_)).
sandbox:safe_primitive(system:write_term(_, Options)) :-
    harmless_write_options(Options).
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

%!  harmless_write_options(@Options) is semidet.
%
%   Options is a proper list of write options that write a term and
%   call nothing: not portray_goal(_), portray(true) or portrayed(true)
%   (user:portray/1 hooks), attributes(portray) or blobs(portray). An
%   option only known at run time is not harmless.

harmless_write_options(Options) :-
    is_list(Options),
    maplist(harmless_write_option, Options).

harmless_write_option(Option) :-
    nonvar(Option),
    write_option(Option).

write_option(quoted(B)) :- boolean(B).
write_option(ignore_ops(B)) :- boolean(B).
write_option(dotlists(B)) :- boolean(B).
write_option(brace_terms(B)) :- boolean(B).
write_option(numbervars(B)) :- boolean(B).
write_option(character_escapes(B)) :- boolean(B).
write_option(character_escapes_unicode(B)) :- boolean(B).
write_option(quote_non_ascii(B)) :- boolean(B).
write_option(cycles(B)) :- boolean(B).
write_option(fullstop(B)) :- boolean(B).
write_option(nl(B)) :- boolean(B).
write_option(no_lists(B)) :- boolean(B).
write_option(partial(B)) :- boolean(B).
write_option(portray(false)).
write_option(portrayed(false)).
write_option(max_depth(N)) :- var_or_integer(N).
write_option(priority(N)) :- var_or_integer(N).
write_option(spacing(S)) :- nonvar(S), memberchk(S, [standard, next_argument]).
write_option(back_quotes(B)) :- nonvar(B), memberchk(B, [codes, chars, string, symbol_char]).
write_option(attributes(A)) :- nonvar(A), memberchk(A, [ignore, dots, write]).
write_option(variable_names(_)).

% The functions on dicts that are built in; any other calls a
% predicate of the module that the dict's tag names.
dict_built_in(get(_)).
dict_built_in(put(_)).
dict_built_in(put(_, _)).

var_or_integer(N) :- var(N), !.
var_or_integer(N) :- integer(N).

% The names of the write options a knowledge base may give, for messages.
write_option_names(Text) :-
    findall(Name, ( clause(write_option(Option), _),
                    (   ground(Option)
                    ->  format(string(Name), "~q", [Option])
                    ;   functor(Option, Name, _)
                    ) ), Names0),
    list_to_set(Names0, Names),
    atomic_list_concat(Names, ', ', Text).

%!  table_mode(@Mode) is semidet.
%
%   Mode may be an argument of a mode-directed `table` declaration: it
%   indexes or keeps the first, last, least, greatest or the sum of the
%   answers, and calls nothing (lattice(PI) and po(PI) call PI on the
%   answers; so does any mode the white list does not name).

table_mode(Mode) :- var(Mode), !.
table_mode(Mode) :- atom(Mode), memberchk(Mode, [index, first, last, min, max, sum, '-', '+']).

% Options of `table Spec as Options` that change how answers are kept
% and call nothing.
table_option(Option) :-
    atom(Option),
    memberchk(Option, [variant, subsumptive, incremental, opaque, dynamic, monotonic,
                       lazy, shared, private]).
table_option(Option) :-
    compound(Option),
    compound_name_arity(Option, Name, 1),
    memberchk(Name, [max_answers, subgoal_abstract, answer_abstract, max_answer_size,
                     max_subgoal_size]),
    arg(1, Option, N),
    integer(N).

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
    in_checking_module(Tmp, ( file_report(File, Tmp, _, _, Offences0),
                              pending_calls(Offences0, Offences, _) )).

% in_temporary_module/3 with the facts about the module removed after.
in_checking_module(Tmp, Goal) :-
    in_temporary_module(Tmp, true,
                        call_cleanup(guard:Goal, guard:forget(Tmp))).

forget(Tmp) :-
    retractall(advice_import(Tmp, _)),
    retractall(expands_itself(Tmp)).

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
    (   member(item(Term, _, _, _, _), Items),
        defines(Term, Self, term_expansion/Arity),
        memberchk(Arity, [2, 4])
    ->  assertz(expands_itself(Tmp))
    ;   true
    ),
    Ctx = ctx(Tmp, Self, File),
    foldl(item_offences(Ctx, Text), Items, Found, []),
    in_file_order(Found, Offences0),
    undefined_calls(Offences0, Items, Tmp, Offences),
    findall(Sha, member(item(_, Sha, _, _, _), Items), Checked).

% undefined_calls(+Offences0, +Items, +Tmp, -Offences): a call of a
% predicate that nothing defines is an offence, but not when the file
% has a syntax error (the clause that could not be read may define it),
% and only once the file has loaded when the file has a term_expansion/2,4
% of its own (what it makes may define it): then the offence stays
% pending(PI, Message) for load_guarded/4.
undefined_calls(Offences0, Items, Tmp, Offences) :-
    (   memberchk(offence(_, _, _), Items)
    ->  exclude([offence(_, _, Text)]>>(Text = pending(_, _)), Offences0, Offences)
    ;   expands_itself(Tmp)
    ->  Offences = Offences0
    ;   maplist(settled, Offences0, Offences)
    ).

settled(offence(L, C, pending(_, Text)), offence(L, C, Text)) :- !.
settled(Offence, Offence).

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
    catch(Tmp:use_module(Spec, Imports), _, true),
    (   Spec = advice(_),
        catch(absolute_file_name(Spec, File, [file_type(prolog), access(read)]), _, fail),
        module_property(Module, file(File))
    ->  assertz(advice_import(Tmp, Module))
    ;   true
    ).
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
term_offence(Term, Pos, Order, Ctx, At) :-
    expanded(Term, Pos, Ctx, Expanded),
    (   Expanded = refused(Message)
    ->  At = at(Pos, Message)
    ;   member(Clause-CPos, Expanded),
        expanded_offence(Clause, CPos, Order, Ctx, At)
    ).

% expanded(+Term, +Pos, +Ctx, -Expanded): Term expanded as the compiler
% will expand it (term_expansion/2,4 and goal_expansion/2,4 hooks of
% the modules it sees, grammar rules, dict functional notation, in the
% temporary module that stands for the file's): a list of Clause-Pos,
% or refused(Message) when the expansion raises an error.
expanded(Term, Pos, ctx(Tmp, _, _), Expanded) :-
    catch(setup_call_cleanup(start_expanding(Tmp, Old),
                             once(expand_term(Term, Pos, Clauses, CPos)),
                             stop_expanding(Old)),
          Error, true),
    (   var(Error)
    ->  expanded_list(Clauses, CPos, Expanded)
    ;   message_text(Error, Text),
        format(string(Message),
               "a clause that cannot be expanded as the compiler will is not allowed \c
                in a knowledge base (~w)", [Text]),
        Expanded = refused(Message)
    ).

% While a guarded file loads, the guard's own user:term_expansion/2
% hook must not check the terms the guard itself expands.
start_expanding(Tmp, Old) :-
    '$set_source_module'(Old, Tmp),
    (   watching(_, _) -> asserta(expanding) ; true ).

stop_expanding(Old) :-
    '$set_source_module'(Old),
    (   watching(_, _) -> retractall(expanding) ; true ).

expanded_list(Clauses, Pos, Expanded) :-
    is_list(Clauses),
    !,
    (   nonvar(Pos), Pos = list_position(_, _, Poss, none), is_list(Poss),
        same_length(Poss, Clauses)
    ->  true
    ;   same_length(Poss, Clauses)
    ),
    maplist([C, P, C-P]>>true, Clauses, Poss, Expanded).
expanded_list(Clause, Pos, [Clause-Pos]).

% expanded_offence(+Clause, +Pos, +Order, +Ctx, -At) is nondet: a term
% the compiler will compile, from expanding one of the file.
expanded_offence(Clause, _, _, _, _) :-
    var(Clause), !, fail.
expanded_offence('$source_location'(_, _):Clause, Pos, Order, Ctx, At) :-
    !,
    expanded_offence(Clause, Pos, Order, Ctx, At).
expanded_offence((:- non_terminal(_)), _, _, _, _) :-
    !,
    fail.
expanded_offence((:- Directive), Pos, Order, Ctx, At) :-
    !,
    sub_pos(Pos, 1, DPos),
    directive_offence(Directive, DPos, Order, Ctx, At).
expanded_offence(Term, Pos, _, Ctx, At) :-
    clause_parts(Term, Pos, Module, Head, HPos, Body, BPos),
    (   head_offence(Module, Head, HPos, Ctx, At)
    ;   goal_offence(Body, BPos, Ctx, At)
    ).

% functional_notation(@Term): Term holds dict functional notation
% (`Dict.Key`, read as a '.'/2 term), which the compiler turns into
% calls of './3'.
functional_notation(Term) :-
    compound(Term),
    (   compound_name_arity(Term, '.', 2)
    ->  true
    ;   arg(_, Term, Arg),
        functional_notation(Arg)
    ->  true
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
directive_offence(Directive, Pos, _, _, at(Pos, Message)) :-
    functional_notation(Directive),
    !,
    Message = "dict functional notation (Dict.Key) in a directive is not allowed in a \c
               knowledge base: the compiler turns it into goals that run when the file loads".
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
directive_offence(table(Specs), Pos, _, _, at(Pos, Message)) :-
    table_offence(Specs, Message),
    !.
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

% table_offence(+Specs, -Message) is semidet: a table/1 declaration
% with a mode or an option that calls a predicate, or that the white
% lists (table_mode/1, table_option/1) do not name.
table_offence(Specs, Message) :-
    table_spec(Specs, Spec),
    table_spec_offence(Spec, Message),
    !.

table_spec(Specs, _) :- var(Specs), !, fail.
table_spec((A, B), Spec) :- !, ( table_spec(A, Spec) ; table_spec(B, Spec) ).
table_spec(List, Spec) :- is_list(List), !, member(Spec0, List), table_spec(Spec0, Spec).
table_spec(Spec, Spec).

table_spec_offence(Spec, Message) :-
    var(Spec),
    !,
    Message = "table/1 of a predicate only known at run time is not allowed in a \c
               knowledge base".
table_spec_offence(Spec as Options, Message) :-
    !,
    (   table_spec(Spec, Spec1),
        table_spec_offence(Spec1, Message)
    ->  true
    ;   option_member(Option, Options),
        \+ table_option(Option)
    ->  format(string(Message),
               "table/1 with the option ~q is not allowed in a knowledge base", [Option])
    ).
table_spec_offence(_:Spec, Message) :-
    !,
    table_spec_offence(Spec, Message).
table_spec_offence(Name/Arity, _) :- atom(Name), integer(Arity), !, fail.
table_spec_offence(Name//Arity, _) :- atom(Name), integer(Arity), !, fail.
table_spec_offence(Head, Message) :-
    compound(Head),
    arg(_, Head, Mode),
    \+ table_mode(Mode),
    !,
    functor(Head, Name, Arity),
    format(string(Message),
           "table/1 of ~q/~w with the mode ~q is not allowed in a knowledge base: \c
            answer subsumption may call only the built-in modes (index, first, last, \c
            min, max, sum)", [Name, Arity, Mode]).

option_member(Option, Options) :-
    var(Options), !, Option = Options.
option_member(Option, (A, B)) :- !, ( option_member(Option, A) ; option_member(Option, B) ).
option_member(Option, List) :- is_list(List), !, member(Option0, List), option_member(Option, Option0).
option_member(Option, Option).

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
call_offence(Module, Goal, Pos, ctx(Tmp, _, _), at(Pos, Refusal)) :-
    resolution(Module, Goal, Resolution),
    Resolution \== library,
    !,
    goal_name(Goal, Name),
    format(string(Message),
           "~w is not allowed in a knowledge base: it is not defined in this file \c
            nor by an allowed library", [Name]),
    (   Resolution == undefined,
        Module == Tmp
    ->  functor(Goal, F, A),
        Refusal = pending(F/A, Message)     % see undefined_calls/4
    ;   Refusal = Message
    ).
call_offence(_, Goal, Pos, _, at(Pos, Message)) :-
    output_offence(Goal, Message),
    !.
call_offence(_, '.'(_, Function, _), Pos, _, at(Pos, Message)) :-
    callable(Function),
    \+ atom(Function),
    \+ dict_built_in(Function),
    !,
    functor(Function, Name, Arity),
    format(string(Message),
           "the function ~q/~w on a dict (Dict.~q(...)) is not allowed in a knowledge \c
            base: it calls a predicate of the module the dict's tag names",
           [Name, Arity, Name]).
call_offence(Module, Goal, Pos, Ctx, At) :-
    catch(predicate_property(Module:Goal, meta_predicate(Spec)), _, fail),
    !,
    meta_offence(Module, Goal, Spec, Pos, Ctx, At).
call_offence(Module, Goal, Pos, Ctx, at(Pos, Message)) :-
    unsafe(Module, Goal, Ctx, Why),
    goal_name(Goal, Name),
    format(string(Message), "~w is not allowed in a knowledge base~w", [Name, Why]).

% resolution(+Module, +Goal, -Resolution): Resolution is `library`
% when Goal, called in Module, is a built-in, a predicate of a library
% of SWI-Prolog's (whose code the sandbox checks), of the temporary
% module, or one that a shipped library the file loads
% (advice_library/1) exports; `undefined` when no module defines it
% now (the engine may define it later: its own modules are loaded after
% the guard, and a call the file's module does not define is resolved
% in `user`); `engine` when it is a predicate of one of the engine's own
% modules, which a knowledge base sees through `user`.
resolution(Module, Goal, Resolution) :-
    (   defined_in(Module, Goal, Impl)
    ->  true
    ;   catch('$define_predicate'(Module:Goal), _, fail),   % autoloads
        defined_in(Module, Goal, Impl)
    ->  true
    ;   Impl = (-)
    ),
    (   Impl == (-)
    ->  Resolution = undefined
    ;   Impl == Module
    ->  Resolution = library
    ;   catch(module_property(Impl, class(Class)), _, fail),
        memberchk(Class, [system, library])
    ->  Resolution = library
    ;   functor(Goal, Name, Arity),
        advice_export(Module, Name/Arity)
    ->  Resolution = library
    ;   Resolution = engine
    ).

defined_in(Module, Goal, Impl) :-
    catch(predicate_property(Module:Goal, defined), _, fail),
    predicate_property(Module:Goal, implementation_module(Impl)).

% advice_export(+Tmp, ?PI): PI is exported by a shipped library
% (advice_library/1) that the file being checked in Tmp loads.
advice_export(Tmp, PI) :-
    advice_import(Tmp, Module),
    module_property(Module, exports(PIs)),
    memberchk(PI, PIs).

% output_offence(+Goal, -Message) is semidet: Goal writes a term with
% options, a format or a message that may call a goal or a portray
% hook, or that is only known at run time.
output_offence(Goal, Message) :-
    output_goal(Goal, What),
    output_refusal(What, Which, Why),
    goal_name(Goal, Name),
    format(string(Message), "~w~w is not allowed in a knowledge base~w",
           [Name, Which, Why]).

% output_goal(+Goal, -What): what an output predicate will do.
output_goal(print(_), portray).
output_goal(print(_, _), portray).
output_goal(write_term(_, Options), options(Options)).
output_goal(write_term(_, _, Options), options(Options)).
output_goal(write_length(_, _, Options), options(Options)).
output_goal(term_string(_, _, Options), options(Options)).
output_goal(format(Format), format(Format, [])).
output_goal(format(Format, Args), format(Format, Args)).
output_goal(format(_, Format, Args), format(Format, Args)).
output_goal(sformat(_, Format), format(Format, [])).
output_goal(sformat(_, Format, Args), format(Format, Args)).
output_goal(debug(_, Format, Args), format(Format, Args)).
output_goal(print_message(_, Message), message(Message)).
output_goal(message_to_codes(Message, _, _), message(Message)).

% output_refusal(+What, -Which, -Why) is semidet: What is refused;
% Which says which use of the predicate, Why why (either may be "").
output_refusal(portray, "",
               ": it calls user:portray/1 hooks (write/1 and writeq/1 write without them)").
output_refusal(options(Options), Which, Why) :-
    options_refusal(Options, Which, Why).
output_refusal(format(Format, Args), Which, Why) :-
    format_refusal(Format, Args, Which, Why).
output_refusal(message(Message), Which, Why) :-
    (   var(Message)
    ->  Which = " of a message only known at run time", Why = ""
    ;   Message = format(Format, Args)
    ->  format_refusal(Format, Args, Which, Why)
    ;   Which = " of a message other than format(Format, Args)",
        Why = ": its text is made by the message hooks of other modules"
    ).

options_refusal(Options, " with options only known at run time", "") :-
    \+ is_list(Options),
    !.
options_refusal(Options, Which, Why) :-
    member(Option, Options),
    \+ harmless_write_option(Option),
    !,
    (   var(Option)
    ->  Which = " with an option only known at run time"
    ;   copy_term(Option, Copy),
        numbervars(Copy, 0, _),
        format(string(Which), " with the option ~W", [Copy, [quoted(true), numbervars(true)]])
    ),
    write_option_names(Names),
    format(string(Why), " (the write options it may have: ~w)", [Names]).

% format_refusal(+Format, +Args, -Which, -Why) is semidet: Format is
% not known at check time, or has a directive that calls
% user:portray/1 (~p), or writes with options (~W) that are not known
% or not harmless.
format_refusal(Format, _, " of a format only known at run time", "") :-
    \+ format_text(Format, _),
    !.
format_refusal(Format, Args, Which, Why) :-
    format_text(Format, Text),
    (   catch(format_spec(Text, Spec), _, fail)
    ->  format_args(Args, List),
        directives_refusal(Spec, List, Which, Why)
    ;   Which = " of a format that is not valid", Why = ""
    ).

% format_args(+Args, -List): the arguments as a list, or `unknown`.
format_args(Args, unknown) :- var(Args), !.
format_args(Args, List) :- is_list(Args), !, List = Args.
format_args([_|_], unknown) :- !.
format_args(Arg, [Arg]).

directives_refusal([Directive|Spec], Args0, Which, Why) :-
    directive_step(Directive, Args0, Step),
    (   Step = refused(Which, Why)
    ->  true
    ;   Step = next(Args),
        directives_refusal(Spec, Args, Which, Why)
    ).

% directive_step(+Directive, +Args0, -Step): Step is next(Args), Args
% the arguments after Directive, when Directive is harmless, else
% refused(Which, Why).
directive_step(text(_), Args, next(Args)).
directive_step(escape(Numeric, _, Char), Args0, Step) :-
    (   Numeric == star -> skip_args(1, Args0, Args1) ; Args1 = Args0 ),
    char_step(Char, Args1, Step).

char_step(p, _, refused(" with the directive ~p",
                        ": it calls user:portray/1 hooks (~w and ~q write without them)")) :- !.
char_step('W', Args0, Step) :-
    !,
    (   Args0 = [_, Options|Args1]
    ->  (   options_refusal(Options, Which0, Why)
        ->  (   string_concat(" with", Rest, Which0) -> true ; Rest = Which0 ),
            format(string(Which), " with the directive ~~W and~w", [Rest]),
            Step = refused(Which, Why)
        ;   Step = next(Args1)
        )
    ;   Step = refused(" with the directive ~W of options only known at run time", "")
    ).
char_step(Char, Args0, next(Args)) :-
    format_directive_args(Char, N),
    !,
    skip_args(N, Args0, Args).
char_step(Char, _, refused(Which, "")) :-
    format(string(Which), " with the directive ~~~w", [Char]).

skip_args(_, unknown, unknown) :- !.
skip_args(0, Args, Args) :- !.
skip_args(N, [_|Args0], Args) :- !, N1 is N-1, skip_args(N1, Args0, Args).
skip_args(_, [], unknown).

% format_directive_args(?Char, ?N): the format directive ~Char takes N
% arguments and calls nothing (~@ calls its argument, which the
% sandbox checks as a goal).
format_directive_args(a, 1).
format_directive_args(c, 1).
format_directive_args(d, 1).
format_directive_args('D', 1).
format_directive_args(e, 1).
format_directive_args(f, 1).
format_directive_args(g, 1).
format_directive_args(i, 1).
format_directive_args('I', 1).
format_directive_args(q, 1).
format_directive_args(r, 1).
format_directive_args('R', 1).
format_directive_args(s, 1).
format_directive_args(w, 1).
format_directive_args('@', 1).
format_directive_args(n, 0).
format_directive_args(t, 0).
format_directive_args('|', 0).
format_directive_args('+', 0).
format_directive_args('~', 0).

format_text(Format, _) :- var(Format), !, fail.
format_text(Format, Text) :- atomic(Format), !, atom_string(Format, Text).
format_text(Format, Text) :- catch(text_to_string(Format, Text), _, fail).
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
    why(Error, Why).

why(error(existence_error(procedure, _), sandbox(_, [])), Why) :-
    !,
    Why = ": it is not defined in this file nor by an allowed library".
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
    in_checking_module(Tmp, guarded(Path, Tmp, Context, If, Json)).

guarded(File, Tmp, Context, If, Json) :-
    file_report(File, Tmp, Self, Checked, Offences0),
    pending_calls(Offences0, Offences, Pending),
    (   Offences == []
    ->  watched_load(File, ctx(Tmp, Self, File), Checked, Pending, Context, If, Json)
    ;   errors_json(File, Offences, Json)
    ).

% pending_calls(+Offences0, -Offences, -Pending): Pending are the
% offences of calls of predicates that nothing defines when the file is
% checked, in a file whose own term_expansion/2,4 may define them when
% it loads; they are offences unless the file defines them once loaded.
pending_calls(Offences0, Offences, Pending) :-
    partition([offence(_, _, Text)]>>(Text = pending(_, _)), Offences0, Pending, Offences).

watched_load(File, Ctx, Checked, Pending0, Context, If, Json) :-
    retractall(late_offence(_)),
    setup_call_cleanup(watch(File, Ctx, Checked),
                       load_kb(File, Context, If, Json0),
                       unwatch),
    findall(Offence, retract(late_offence(Offence)), Late1),
    pending_calls(Late1, Late0, LatePending),
    append(Pending0, LatePending, Pending),
    (   Late0 == []
    ->  Ctx = ctx(_, Self, _),
        (   Self == (-) -> Module = Context ; Module = Self ),
        include(undefined_after_load(Module), Pending, Undefined),
        maplist([offence(L, C, pending(_, T)), offence(L, C, T)]>>true, Undefined, Late2)
    ;   Late2 = Late0
    ),
    (   Late2 == []
    ->  Json = Json0
    ;   in_file_order(Late2, Late),
        catch(unload_file(File), _, true),
        errors_json(File, Late, Json)
    ).

% undefined_after_load(+Module, +Pending): the predicate of a pending
% call is not defined in Module, the file's, now that it is loaded.
undefined_after_load(Module, offence(_, _, pending(Name/Arity, _))) :-
    functor(Head, Name, Arity),
    \+ ( predicate_property(Module:Head, defined),
          predicate_property(Module:Head, implementation_module(Module)) ).

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
    \+ expanding,
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
