:- module(test_guard, []).

% plunit tests of guard.pl: run with  swipl -g run_tests -t halt kb/test_guard.pl

:- use_module(library(plunit)).
:- use_module(library(lists)).
:- use_module(library(http/json), [atom_json_term/3]).
:- use_module(guard).

% offences(+Lines, -Offences): check_file/2 of a file holding Lines.
offences(Lines, Offences) :-
    with_file(Lines, File, check_file(File, Offences)).

% texts(+Lines, -Texts): the Line-Text pairs of the offences.
texts(Lines, Texts) :-
    offences(Lines, Offences),
    findall(Line-Text, member(offence(Line, _, Text), Offences), Texts).

with_file(Lines, File, Goal) :-
    tmp_file_stream(text, File, Out),
    forall(member(Line, Lines), format(Out, "~w~n", [Line])),
    close(Out),
    call_cleanup(Goal, delete_file(File)).

:- begin_tests(guard).

test(clean_module, Offences == []) :-
    offences([ ':- module(clean, [moves/2]).',
               ':- use_module(library(lists)).',
               ':- dynamic seen/1.',
               'moves(P, Ps) :- findall(Q, member(Q, [P]), Ps), assertz(seen(P)).',
               'show(P, T) :- with_output_to(string(T), (write(P), nl)).',
               'sum(L, S) :- foldl([X, A0, A]>>(A is A0+X), L, 0, S).',
               'inc(L, L1) :- maplist(succ, L, L1).',
               'digits([D|Ds]) --> [D], { code_type(D, digit) }, digits(Ds).',
               'digits([]) --> [].'
             ], Offences).

test(goal_line_in_a_clause, Texts == [3-"shell/1 is not allowed in a knowledge base"]) :-
    texts([ 'p(X) :-',
            '    X > 0,',
            '    shell(ls).'
          ], Texts).

test(every_syntax_error, Lines == [1, 3]) :-
    offences([ 'a(X) :- X is (1 + .', 'b(1).', 'c(X :- .' ], Offences),
    findall(Line, member(offence(Line, _, _), Offences), Lines).

test(directives, Texts == [ 1-"the directive shell/1 is not allowed in a knowledge base",
                            2-"the directive initialization/1 is not allowed in a knowledge base",
                            3-"the directive consult/1 is not allowed in a knowledge base: it loads another file",
                            4-"the directive forall/2 is not allowed in a knowledge base"
                          ]) :-
    texts([ ':- shell(ls).',
            ':- initialization(shell(ls)).',
            ':- consult(other).',
            ':- forall(between(1, 3, _), true).'
          ], Texts).

test(libraries, Line == 2) :-
    texts([ ':- use_module(library(lists)).', ':- use_module(library(process)).' ],
          [Line-Text]),
    sub_string(Text, 0, _, _, "use_module/1 of library(process) is not allowed").

test(module_only_first, Texts == [2-"module/2 is allowed only as the first term of a knowledge base"]) :-
    texts([ 'a.', ':- module(late, []).' ], Texts).

test(declarations_of_other_modules, [Line] == [1]) :-
    texts([ ':- dynamic user:secret/1.', ':- dynamic mine/1.' ], Texts),
    findall(L, member(L-_, Texts), [Line]).

test(flags, [Line] == [2]) :-
    texts([ ':- set_prolog_flag(double_quotes, codes).',
            ':- set_prolog_flag(unknown, fail).' ], Texts),
    findall(L, member(L-_, Texts), [Line]).

test(meta_calls, Texts == [ 1-"call/1 of a goal only known at run time is not allowed in a knowledge base: name the goal it calls",
                            2-"a goal only known at run time (a variable) is not allowed in a knowledge base"
                          ]) :-
    texts([ 'a(G) :- call(G).', 'b(G) :- G.', 'c(L) :- maplist(atom, L).' ], Texts).

test(other_modules, Texts == [ 1-"assertz/1 into module bridge is not allowed in a knowledge base",
                               2-"calling bridge:load_kb/4 is not allowed in a knowledge base: it is a call into another module",
                               3-"defining user:portray/1 is not allowed in a knowledge base: it is a predicate of another module",
                               4-"assertz/1 of a rule is not allowed in a knowledge base (facts only)"
                             ]) :-
    texts([ 'a :- assertz(bridge:foo).',
            'b :- bridge:load_kb(_, _, _, _).',
            'user:portray(_) :- fail.',
            'c :- assertz((d :- true)).',
            'e :- lists:append(_, _, _), assertz(f(1)).'
          ], Texts).

test(a_predicate_of_its_own_may_have_a_builtins_name, Offences == []) :-
    offences([ 'shell(_).', 'p :- shell(ls).' ], Offences).

test(expansion_hooks, Texts == [ 1-"goal_expansion/2 is not allowed in a knowledge base: it would rewrite the file after it was checked",
                                 2-"assertz/1 of term_expansion/2 is not allowed in a knowledge base"
                               ]) :-
    texts([ 'goal_expansion(a, b).', 'p :- assertz(term_expansion(a, b)).' ], Texts).

test(a_module_name_that_is_taken, Line == 1) :-
    texts([ ':- module(lists, [append/3]).' ], [Line-Text]),
    sub_string(Text, 0, _, _, "the module name lists is taken by "),
    once(sub_string(Text, _, _, _, "lists.pl")).

test(allowed_libraries) :-
    allowed_library(lists),
    \+ allowed_library(process),
    \+ allowed_library(readutil).

test(what_term_expansion_makes_is_checked, [Kinds, Loaded, Made] == [[error, error], no, no]) :-
    tmp_file(canary, Canary),
    format(atom(Shell), "shell('touch ~w')", [Canary]),
    format(atom(Expansion),
           "term_expansion(hostile, [(:- ~w), (p :- ~w)]).", [Shell, Shell]),
    with_file([ ':- module(test_guard_expansion, [p/0]).', Expansion, 'hostile.' ], File,
              load_guarded(File, test_guard_context, true, Json)),
    atom_string(Atom, Json),
    atom_json_term(Atom, Messages, []),
    findall(Kind, member(json([kind=Kind|_]), Messages), Kinds),
    (   catch(test_guard_expansion:p, _, fail) -> Loaded = yes ; Loaded = no ),
    (   exists_file(Canary) -> Made = yes ; Made = no ).

test(a_clean_file_is_loaded, Json == "[]") :-
    with_file([ ':- module(test_guard_clean, [q/1]).', 'q(1).' ], File,
              load_guarded(File, test_guard_context, true, Json)),
    test_guard_clean:q(1).

test(what_the_compiler_makes_of_dicts_is_checked,
     Texts == [ 2-"the function call/1 on a dict (Dict.call(...)) is not allowed in a knowledge base: it calls a predicate of the module the dict's tag names",
                3-"dict functional notation (Dict.Key) in a directive is not allowed in a knowledge base: the compiler turns it into goals that run when the file loads"
              ]) :-
    texts([ 'p(D, V) :- V = D.a, W = D.put(b, 1), _ = W.get(b).',
            'q(V) :- V = lists{}.call(x).',
            ':- dynamic(_{a: f/1}.a).'
          ], Texts).

test(a_call_nothing_defines, Texts == [ 1-"nowhere/2 is not allowed in a knowledge base: it is not defined in this file nor by an allowed library",
                                        2-"located_somewhere/3 is not allowed in a knowledge base: it is not defined in this file nor by an allowed library"
                                      ]) :-
    texts([ 'p(X) :- nowhere(X, _), mine(X), sum_list([X], _).',
            'q :- findall(X, located_somewhere(X, _, _), _).',
            'mine(_).'
          ], Texts).

test(a_syntax_error_hides_calls_nothing_defines, Lines == [2]) :-
    offences([ 'p :- r.', 'r :- .' ], Offences),
    findall(Line, member(offence(Line, _, _), Offences), Lines).

test(an_engine_predicate_through_user, Texts == [1-"guard_test_engine_pred/1 is not allowed in a knowledge base: it is not defined in this file nor by an allowed library"]) :-
    setup_call_cleanup(assertz(user:guard_test_engine_pred(_)),
                       texts([ 'p :- guard_test_engine_pred(x).' ], Texts),
                       retractall(user:guard_test_engine_pred(_))).

test(write_options, Texts == [ 2-"write_term/2 with the option portray(true) is not allowed in a knowledge base (the write options it may have: quoted, ignore_ops, dotlists, brace_terms, numbervars, character_escapes, character_escapes_unicode, quote_non_ascii, cycles, fullstop, nl, no_lists, partial, portray(false), portrayed(false), max_depth, priority, spacing, back_quotes, attributes, variable_names)",
                               3-"write_term/2 with options only known at run time is not allowed in a knowledge base",
                               4-"print/1 is not allowed in a knowledge base: it calls user:portray/1 hooks (write/1 and writeq/1 write without them)"
                             ]) :-
    texts([ 'a(T) :- write_term(T, [quoted(true), max_depth(3), spacing(next_argument)]).',
            'b(T) :- write_term(T, [quoted(true), portray(true)]).',
            'c(T, O) :- write_term(T, O).',
            'd(T) :- with_output_to(string(_), print(T)).'
          ], Texts).

test(format_directives, Texts == [ 2-"format/2 with the directive ~p is not allowed in a knowledge base: it calls user:portray/1 hooks (~w and ~q write without them)",
                                   3-"format/3 with the directive ~W and the option blobs(portray) is not allowed in a knowledge base (the write options it may have: quoted, ignore_ops, dotlists, brace_terms, numbervars, character_escapes, character_escapes_unicode, quote_non_ascii, cycles, fullstop, nl, no_lists, partial, portray(false), portrayed(false), max_depth, priority, spacing, back_quotes, attributes, variable_names)",
                                   4-"format/2 of a format only known at run time is not allowed in a knowledge base",
                                   5-"print_message/2 with the directive ~W and options only known at run time is not allowed in a knowledge base",
                                   6-"print_message/2 of a message other than format(Format, Args) is not allowed in a knowledge base: its text is made by the message hooks of other modules"
                                 ]) :-
    texts([ 'a(T) :- format("~a ~w ~q ~*c~t~20|~W~n", [x, T, T, 3, 0\'-, T, [quoted(true)]]).',
            'b(T) :- format("~p", [T]).',
            'c(T, S) :- format(string(S), "~W", [T, [blobs(portray)]]).',
            'd(F) :- format(F, []).',
            'e(T, O) :- print_message(error, format("~W", [T, O])).',
            'f(T) :- print_message(error, bad(T)).'
          ], Texts).

test(table_modes, Texts == [ 2-"table/1 of p/2 with the mode lattice(join/3) is not allowed in a knowledge base: answer subsumption may call only the built-in modes (index, first, last, min, max, sum)",
                             3-"table/1 of q/2 with the mode po((@<)/2) is not allowed in a knowledge base: answer subsumption may call only the built-in modes (index, first, last, min, max, sum)"
                           ]) :-
    texts([ ':- table path/2, cost(_, min), best(index, max), firsts(_, first) as subsumptive.',
            ':- table p(_, lattice(join/3)).',
            ':- table q(_, po((@<)/2)).',
            'path(_, _).', 'cost(_, 1).', 'best(_, 1).', 'firsts(_, 1).',
            'p(_, 1).', 'q(_, 1).', 'join(A, B, C) :- C is max(A, B).'
          ], Texts).

test(what_term_expansion_defines_may_be_called, Json == "[]") :-
    with_file([ ':- module(test_guard_made, [q/1]).',
                'term_expansion(make, [made(1), made(2)]).',
                'make.',
                'q(X) :- made(X).'
              ], File,
              load_guarded(File, test_guard_made_context, true, Json)),
    findall(X, test_guard_made:q(X), [1, 2]).

test(what_term_expansion_does_not_define_is_refused, [Texts, Loaded] == [[4-"not_made/1 is not allowed in a knowledge base: it is not defined in this file nor by an allowed library"], no]) :-
    with_file([ ':- module(test_guard_not_made, [q/1]).',
                'term_expansion(make, [made(1)]).',
                'make.',
                'q(X) :- not_made(X).'
              ], File,
              ( load_guarded(File, test_guard_not_made_context, true, Json),
                atom_string(Atom, Json),
                atom_json_term(Atom, Messages, []),
                findall(L-T, ( member(json([kind=error, text=Line]), Messages),
                               split_string(Line, ":", "", [_, LS|Rest]),
                               number_string(L, LS),
                               atomic_list_concat(Rest, ':', T0),
                               sub_atom(T0, 1, _, 0, TA), atom_string(TA, T) ), Texts) )),
    (   catch(test_guard_not_made:q(_), _, fail) -> Loaded = yes ; Loaded = no ).

:- end_tests(guard).
