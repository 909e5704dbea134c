:- module(grading,
          [ plunit_tests_json/2,        % +File, -Json
            plunit_job/3,               % +Tests, +Limits, -Json
            compare_job/5,              % +Submission, +Reference, +Spec, +Limits, -Json
            inputs_json/3,              % +Texts, +Arity, -Json
            search_point_job/5,         % +Submission, +Reference, +Spec, +Limits, -Json
            taken_module_json/2         % +File, -Json
          ]).

/** <module> Grading a student's Prolog: the jobs `advice grade` runs

Each job is one call that answers one JSON string. Submission is the
module a student's file was loaded into, Reference the module of the
teacher's reference solution. Every call of a student's code runs
under Limits, `limits(Seconds, Inferences)` per call, with what it
prints captured; a call that fails, raises an error or runs past a
limit costs that case only.

The engine loads this module into a context module of its own (not
`user`, whose predicates every module sees), calls its jobs as
`grading:Job`, and loads every file into a context whose name a
submission cannot know; taken_module_json/2 refuses a submitted module
file that would share a module with anything loaded before it.

The teacher's plunit file is loaded into the submission's module
before the submission itself (so that the tests call the student's
predicates by their names, and no term_expansion/2 of the student's
rewrites them); plunit_job/3 runs its tests one at a time.

The per-test results are read from plunit's own records
(`plunit:passed/5`, `plunit:failed/4`, `plunit:failed_assertion/7`,
SWI-Prolog 9.0), and its messages are collected instead of printed.
*/

:- use_module(library(plunit)).
:- use_module(library(lists), [append/3, member/2]).
:- use_module(library(apply), [maplist/3, maplist/4, exclude/3, partition/4]).
:- use_module('../bridge', [run_limited/5]).
:- use_module('../job_io', [json_string/2, message_text/2, lines_text/2]).
:- use_module('../search/search', [minimax_pv/4, alphabeta_pv/6, reset_visited/0,
                                   visited/1]).
:- use_module('../search/game_io', [game_position/3, refusal/2]).

%!  limited(:Goal, +Limits, -Status, -Message, -Printed) is det.
%
%   Runs Goal once under Limits (`limits(Seconds, Inferences)`), as
%   bridge:run_limited/5 does (Status `true`, `false`, `time_limit`,
%   `inference_limit` or `error`, Message the error's text), with what
%   it writes to the current output captured in Printed.

:- meta_predicate limited(0, +, -, -, -).

limited(Goal, limits(Seconds, Inferences), Status, Message, Printed) :-
    with_output_to(string(Printed),
                   run_limited(Goal, Seconds, Inferences, Status, Message)).

% status_text(+Status, +Message, +Limits, -Text): why a call did not
% give an answer, in words; status_text/5 names what was called.
status_text(Status, Message, Limits, Text) :-
    status_text(Status, Message, Limits, "it", Text).

status_text(false, _, _, Who, Text) :-
    format(string(Text), "~w failed", [Who]).
status_text(error, Message, _, Who, Text) :-
    format(string(Text), "~w raised an error: ~w", [Who, Message]).
status_text(time_limit, _, limits(Seconds, _), Who, Text) :-
    format(string(Text), "~w ran past its time limit of ~g s", [Who, Seconds]).
status_text(inference_limit, _, limits(_, Inferences), Who, Text) :-
    format(string(Text), "~w ran past its limit of ~D inferences", [Who, Inferences]).

%!  term_text(+Term, -Text) is det.
%
%   Text is Term written as Prolog reads it (variables as `A`, `B`,
%   ...), cut to 300 characters.

term_text(Term, Text) :-
    catch(( copy_term(Term, Copy),
            numbervars(Copy, 0, _),
            format(string(Text0), "~W",
                   [Copy, [quoted(true), numbervars(true), max_depth(40)]]) ),
          _, format(string(Text0), "~q", [Term])),
    cut_text(Text0, 300, Text).

cut_text(Text0, Max, Text) :-
    string_length(Text0, Length),
    (   Length =< Max
    ->  Text = Text0
    ;   sub_string(Text0, 0, Max, _, Start),
        string_concat(Start, "...", Text)
    ).

		 /*******************************
		 *        MODULE NAMES          *
		 *******************************/

%!  taken_module_json(+File, -Json) is det.
%
%   Whether the module/2 header of File (a submitted file, read, not
%   loaded) names a module that exists in this Prolog already: the
%   grader's, a context, a teacher's file's (a plunit unit's too), a
%   library's or the system's. Loading File would add its clauses to
%   that module, or import them from it. Json is `{"taken": false}` or
%   `{"taken": true, "module": Name, "line": Line}`.

taken_module_json(File, Json) :-
    (   bridge:module_header(File, Module, _, Line),
        (   current_module(Module)
        ;   bridge:taken_module_name(Module, File, _)
        )
    ->  format(string(Name), "~q", [Module]),
        Term = json([taken= @(true), module=Name, line=Line])
    ;   Term = json([taken= @(false)])
    ),
    json_string(Term, Json).

		 /*******************************
		 *            PLUNIT            *
		 *******************************/

%!  plunit_tests_json(+File, -Json) is det.
%
%   Json lists the plunit tests File defines, found by *reading* it
%   (nothing in it runs): `{"tests": [{"unit": U, "name": N, "line":
%   L}], "errors": [Text]}`, with U and N written with `~q` (as
%   plunit_job/3 takes them back) and the syntax errors as
%   `File:Line: message`. Tests marked `blocked` or `fixme` are left
%   out: plunit does not count them.

plunit_tests_json(File, Json) :-
    setup_call_cleanup(open(File, read, In),
                       read_tests(In, File, none, Tests, Errors),
                       close(In)),
    json_string(json([tests=Tests, errors=Errors]), Json).

read_tests(In, File, Unit, Tests, Errors) :-
    catch(read_term(In, Term, [term_position(Pos)]), Error, true),
    (   nonvar(Error)
    ->  syntax_error_text(Error, File, Text),
        Errors = [Text|Errors1],
        read_tests(In, File, Unit, Tests, Errors1)
    ;   Term == end_of_file
    ->  Tests = [], Errors = []
    ;   stream_position_data(line_count, Pos, Line),
        unit_after(Term, Unit, Unit1),
        (   Unit1 == Unit,
            Unit \== none,
            graded_test(Term, Name)
        ->  format(string(U), "~q", [Unit]),
            format(string(N), "~q", [Name]),
            Tests = [json([unit=U, name=N, line=Line])|Tests1]
        ;   Tests = Tests1
        ),
        read_tests(In, File, Unit1, Tests1, Errors)
    ).

unit_after((:- begin_tests(Unit)), _, Unit) :- !.
unit_after((:- begin_tests(Unit, _)), _, Unit) :- !.
unit_after((:- end_tests(_)), _, none) :- !.
unit_after(_, Unit, Unit).

graded_test((test(Name) :- _), Name).
graded_test((test(Name, Options) :- _), Name) :-
    (   is_list(Options) -> List = Options ; List = [Options] ),
    \+ ( member(Option, List), nonvar(Option),
         ( Option = blocked(_) ; Option = fixme(_) ) ).

syntax_error_text(error(syntax_error(What), Context), File, Text) :-
    syntax_context_line(Context, Line),
    !,
    format(string(Text), "~w:~w: syntax error: ~w", [File, Line, What]).
syntax_error_text(Error, File, Text) :-
    message_text(Error, Message),
    format(string(Text), "~w: ~w", [File, Message]).

syntax_context_line(stream(_, Line, _, _), Line).
syntax_context_line(file(_, Line, _, _), Line).

%!  plunit_job(+Tests, +Limits, -Json) is det.
%
%   Runs each test of Tests (a list of `test(UnitText, NameText)`, as
%   plunit_tests_json/2 writes them) on its own, under Limits. Json is
%   `{"tests": [{"passed": Bool, "output": Text}]}` in the order of
%   Tests; Output holds plunit's messages about the test (why it
%   failed) and what the test printed.

plunit_job(Tests, Limits, Json) :-
    maplist(plunit_result(Limits), Tests, Results),
    json_string(json([tests=Results]), Json).

plunit_result(Limits, test(UnitText, NameText),
              json([passed=Passed, output=Output])) :-
    term_string(Unit, UnitText),
    term_string(Name, NameText),
    setup_call_cleanup(
        assertz(capturing),
        limited(run_tests(Unit:Name), Limits, Status, Message, Printed),
        retractall(capturing)),
    findall(Text, retract(captured(Text)), Texts),
    test_verdict(Unit, Name, Status, Message, Limits, Passed, Why),
    (   plunit:failed(Unit, Name, _, Reason),
        limit_status(Reason, LimitStatus)
    ->  status_text(LimitStatus, "", Limits, LimitWhy),
        output_text([LimitWhy], Printed, Output)      % plunit's words are the bare atom
    ;   output_text([Why|Texts], Printed, Output)
    ).

limit_status(inference_limit_exceeded, inference_limit).
limit_status(time_limit_exceeded, time_limit).

:- dynamic capturing/0, captured/1.

:- multifile user:message_hook/3.

% While a test runs, plunit's messages (and the test's) are kept, not
% printed: errors and warnings as text for the student's report.
user:message_hook(Term, Kind, Lines) :-
    capturing,
    (   memberchk(Kind, [error, warning]),
        \+ Term = plunit(progress(_, _, _))
    ->  lines_text(Lines, Text),
        assertz(captured(Text))
    ;   true
    ).

% test_verdict(+Unit, +Name, +Status, +Message, +Limits, -Passed, -Why):
% Passed by plunit's records of the test; Why says why a test that
% plunit did not record did not run.
test_verdict(Unit, Name, _, _, _, @(false), "") :-
    (   plunit:failed(Unit, Name, _, _)
    ;   plunit:failed_assertion(Unit, Name, _, _, _, _, _)
    ),
    !.
test_verdict(Unit, Name, _, _, _, @(true), "") :-
    plunit:passed(Unit, Name, _, _, _),
    !.
test_verdict(_, _, Status, Message, Limits, @(false), Why) :-
    (   memberchk(Status, [true, false])
    ->  Why = "the test did not run (its unit's setup failed, or there is no such test)"
    ;   status_text(Status, Message, Limits, Why0),
        format(string(Why), "the test did not run: ~w", [Why0])
    ).

% output_text(+Texts, +Printed, -Output): the texts that are not empty,
% one per line, then what was printed.
output_text(Texts0, Printed, Output) :-
    exclude(==(""), Texts0, Texts1),
    maplist(without_location, Texts1, Texts),
    (   Printed == ""
    ->  All = Texts
    ;   cut_text(Printed, 1000, Cut),
        format(string(Shown), "printed:~n~w", [Cut]),
        append(Texts, [Shown], All)
    ),
    atomic_list_concat(All, '\n', Atom),
    atom_string(Atom, Output).

% plunit starts a message with the test's File:Line, a colon, a new line
% and a tab, then `test Name: `; the report says which test it is.
without_location(Text0, Text) :-
    (   sub_string(Text0, Before, _, _, ":\n\t"),
        \+ sub_string(Text0, 0, Before, _, "\n")
    ->  Skip is Before + 3,
        sub_string(Text0, Skip, _, 0, Text1)
    ;   Text1 = Text0
    ),
    (   sub_string(Text1, 0, _, _, "test "),
        sub_string(Text1, Colon, _, _, ": ")
    ->  From is Colon + 2,
        sub_string(Text1, From, _, 0, Text)
    ;   Text = Text1
    ).

		 /*******************************
		 *            COMPARE           *
		 *******************************/

%!  compare_job(+Submission, +Reference, +Spec, +Limits, -Json) is det.
%
%   Calls the student's predicate on every input and checks its answer
%   against the reference's. Spec is
%   `compare(Name/Arity, RefName/RefArity, Outputs, Check, Inputs)`:
%   the last Outputs arguments of the student's predicate are its
%   answer; Check is `equal` (the reference, called on the same input,
%   gives the same answer, up to the names of variables) or `accepts`
%   (the reference, called with the input and the student's answer,
%   succeeds); Inputs is `texts(Texts)` (each the input arguments
%   written as in a call, `"3, [a, b]"`) or `from(GenName/GenArity)`
%   (every solution of the reference's predicate is an input).
%
%   Json is `{"cases": N, "passed": K, "failures": [{"input": Text,
%   "why": Text, "printed": Text}]}` with the first 20 failures.

compare_job(Submission, Reference, Spec, Limits, Json) :-
    Spec = compare(_, _, _, _, Inputs),
    inputs(Inputs, Reference, Limits, Given),
    (   Given = cases(Cases)
    ->  maplist(compare_case(Submission, Reference, Spec, Limits), Cases, Verdicts),
        length(Cases, N),
        partition(==(passed), Verdicts, Passes, Failures),
        length(Passes, Passed),
        first(20, Failures, Shown),
        Answer = json([cases=N, passed=Passed, failures=Shown])
    ;   Given = none(Why),
        Answer = json([error=Why])
    ),
    json_string(Answer, Json).

% inputs(+Inputs, +Reference, +Limits, -Given): Given is cases(Cases),
% the argument lists of the inputs, or none(Why) when the reference's
% generator gives none.
inputs(texts(Texts), _, _, cases(Cases)) :-
    maplist(input_args, Texts, Cases).
inputs(from(Name/Arity), Reference, Limits, Given) :-
    functor(Goal, Name, Arity),
    Goal =.. [_|Args],
    limited(findall(Args, Reference:Goal, Cases0), Limits, Status, Message, _),
    (   Status == true
    ->  Given = cases(Cases0)
    ;   status_text(Status, Message, Limits, Why0),
        format(string(Why), "the reference's ~q/~w gave no inputs: ~w",
               [Name, Arity, Why0]),
        Given = none(Why)
    ).

input_args(Text, Args) :-
    atomics_to_string(["args(", Text, ")"], Wrapped),
    term_string(Term, Wrapped),
    Term =.. [args|Args].

compare_case(Submission, Reference, compare(Name/_, RefName/_, Outputs, Check, _),
             Limits, Args, Verdict) :-
    length(Answer, Outputs),
    append(Args, Answer, All),
    Goal =.. [Name|All],
    limited(Submission:Goal, Limits, Status, Message, Printed),
    (   Status == true
    ->  judge(Check, Reference, RefName, Args, Answer, Limits, Why)
    ;   status_text(Status, Message, Limits, Why)
    ),
    (   Why == ""
    ->  Verdict = passed
    ;   args_text(Args, Input),
        cut_text(Printed, 300, Shown),
        Verdict = json([input=Input, why=Why, printed=Shown])
    ).

% judge(+Check, +Reference, +RefName, +Args, +Answer, +Limits, -Why):
% Why is "" when the reference finds Answer right for Args, else why not.
judge(equal, Reference, RefName, Args, Answer, Limits, Why) :-
    length(Answer, N),
    length(Expected, N),
    append(Args, Expected, All),
    Goal =.. [RefName|All],
    limited(Reference:Goal, Limits, Status, Message, _),
    (   Status \== true
    ->  status_text(Status, Message, Limits, Why0),
        format(string(Why), "the reference gave no answer: ~w", [Why0])
    ;   Answer =@= Expected
    ->  Why = ""
    ;   answer_text(Answer, Got),
        answer_text(Expected, Want),
        format(string(Why), "answered ~w where ~w was expected", [Got, Want])
    ).
judge(accepts, Reference, RefName, Args, Answer, Limits, Why) :-
    append(Args, Answer, All),
    Goal =.. [RefName|All],
    limited(Reference:Goal, Limits, Status, Message, _),
    (   Status == true
    ->  Why = ""
    ;   Status == false
    ->  answer_text(Answer, Got),
        format(string(Why), "answered ~w, which is not a right answer", [Got])
    ;   status_text(Status, Message, Limits, Why0),
        format(string(Why), "the reference could not judge the answer: ~w", [Why0])
    ).

% answer_text(+Answer, -Text): one output as itself, more as (A, B).
answer_text([One], Text) :-
    !,
    term_text(One, Text).
answer_text(Answer, Text) :-
    args_text(Answer, Inner),
    format(string(Text), "(~w)", [Inner]).

args_text(Args, Text) :-
    maplist(term_text, Args, Texts),
    atomic_list_concat(Texts, ', ', Atom),
    atom_string(Atom, Text).

first(N, List, First) :-
    length(List, Length),
    (   Length =< N
    ->  First = List
    ;   length(First, N),
        append(First, _, List)
    ).

%!  inputs_json(+Texts, +Arity, -Json) is det.
%
%   Checks the inputs of a compare test as the teacher wrote them: Json
%   is a JSON list with, for each text, null when it reads as Arity
%   arguments, else what is wrong with it.

inputs_json(Texts, Arity, Json) :-
    maplist(input_problem(Arity), Texts, Problems),
    json_string(Problems, Json).

input_problem(Arity, Text, Problem) :-
    catch(( input_args(Text, Args) -> Read = args(Args) ; Read = other ),
          error(syntax_error(What), _), Read = syntax(What)),
    read_problem(Read, Arity, Problem).

read_problem(args(Args), Arity, Problem) :-
    length(Args, N),
    (   N =:= Arity
    ->  Problem = @(null)
    ;   format(string(Problem), "gives ~d arguments where ~d are needed", [N, Arity])
    ).
read_problem(syntax(What), _, Problem) :-
    term_to_atom(What, Atom),
    atomic_list_concat(Words, '_', Atom),
    atomic_list_concat(Words, ' ', Spaced),
    format(string(Problem), "does not read: syntax error: ~w", [Spaced]).
read_problem(other, _, "is not the arguments of one call, e.g. \"3, [a, b]\"").

		 /*******************************
		 *            SEARCH            *
		 *******************************/

%!  search_point_job(+Submission, +Reference, +Spec, +Limits, -Json) is det.
%
%   Searches the student's game module with the project's searches and
%   the reference game the same way. Spec is `search(Starts, Algos,
%   Depth)`: Starts a list of `typed(Text)` (a position as both games
%   read it) or `initial` (each game's initial/1), Algos a list of
%   `minimax` and `alphabeta`, Depth an integer or `inf`. Json is
%   `{"positions": [{"position": Text, "expected": Value or null,
%   "why": Text, "results": [{"algo": A, "value": V or null, "nodes":
%   N or null, "why": Text}]}]}`: the reference's value (by
%   alpha-beta), and each search of the student's game; a "why" says
%   what went wrong, "" when nothing did.

search_point_job(Submission, Reference, search(Starts, Algos, Depth), Limits, Json) :-
    maplist(search_case(Submission, Reference, Algos, Depth, Limits), Starts, Cases),
    json_string(json([positions=Cases]), Json).

search_case(Submission, Reference, Algos, Depth, Limits, Start,
            json([position=Text, expected=Expected, why=Why, results=Results])) :-
    start_text(Start, Text),
    searched(Reference, Start, alphabeta, Depth, Limits, RefValue, _, RefWhy),
    (   RefWhy == ""
    ->  Expected = RefValue, Why = ""
    ;   Expected = @(null),
        format(string(Why), "the reference game: ~w", [RefWhy])
    ),
    maplist(algo_result(Submission, Start, Depth, Limits), Algos, Results).

start_text(initial, "the initial position").
start_text(typed(Text), Text).

algo_result(Submission, Start, Depth, Limits, Algo,
            json([algo=Algo, value=Value, nodes=Nodes, why=Why])) :-
    searched(Submission, Start, Algo, Depth, Limits, Value, Nodes, Why).

% searched(+Game, +Start, +Algo, +Depth, +Limits, -Value, -Nodes, -Why)
searched(Game, Start, Algo, Depth, Limits, Value, Nodes, Why) :-
    catch(start_position(Start, Game, Pos), Error, true),
    (   nonvar(Error)
    ->  Value = @(null), Nodes = @(null),
        (   refusal(Error, Why) -> true ; message_text(Error, Why) )
    ;   var(Pos)
    ->  Value = @(null), Nodes = @(null),
        Why = "it has no initial/1"
    ;   limited(searched_value(Algo, Game, Pos, Depth, Value0, Nodes0), Limits,
                Status, Message, _),
        (   Status == true
        ->  Value = Value0, Nodes = Nodes0, Why = ""
        ;   Value = @(null), Nodes = @(null),
            status_text(Status, Message, Limits, Algo, Why)
        )
    ).

start_position(initial, Game, Pos) :-
    (   current_predicate(Game:initial/1), Game:initial(Pos0)
    ->  Pos = Pos0
    ;   true
    ).
start_position(typed(Text), Game, Pos) :-
    game_position(Game, Text, Pos).

searched_value(Algo, Game, Pos, Depth, Value, Nodes) :-
    reset_visited,
    run(Algo, Game, Pos, Depth, Value),
    visited(Nodes).

run(minimax, Game, Pos, Depth, Value) :-
    minimax_pv(Game:Pos, Depth, _, Value).
run(alphabeta, Game, Pos, Depth, Value) :-
    alphabeta_pv(Game:Pos, -1.0Inf, 1.0Inf, Depth, _, Value).
