/*  plunit tests of the grading jobs (compare, search, reading a plunit
    file), over a small student's module and a reference written here.
    plunit_job/3 runs plunit itself, so it is tested from pytest
    (tests/test_grade.py), not from inside a plunit run.
    Run: swipl -g run_tests -t halt kb/grading/test_grading.pl
*/
:- use_module(grading).
:- use_module('../games/nim', []).
:- use_module(library(http/json), [atom_json_dict/3]).

% A student's module: double/2 right, half/2 wrong for odd numbers,
% loops/2 never answers, fails/2 never succeeds, noisy/2 prints.
grading_student:double(X, Y) :- Y is 2 * X.
grading_student:half(X, Y) :- Y is X // 2.
grading_student:loops(X, Y) :- grading_student:loops(X, Y).
grading_student:fails(_, _) :- fail.
grading_student:noisy(X, X) :- write(hello).

% The reference: the right answers, and a judge.
grading_reference:double(X, Y) :- Y is X * 2.
grading_reference:half(X, Y) :- Y is X / 2.
grading_reference:even_double(X, Y) :- Y =:= 2 * X.
grading_reference:small(X) :- between(1, 4, X).

limits(limits(5.0, 100000)).

job(Spec, Answer) :-
    limits(Limits),
    compare_job(grading_student, grading_reference, Spec, Limits, Json),
    atom_json_dict(Json, Answer, []).

:- begin_tests(compare).

test(equal_answers) :-
    job(compare(double/2, double/2, 1, equal, texts(["1", "2", "3"])), A),
    assertion(A.cases == 3),
    assertion(A.passed == 3),
    assertion(A.failures == []).

test(wrong_answers_are_shown) :-
    job(compare(half/2, half/2, 1, equal, from(small/1)), A),
    assertion(A.cases == 4),
    assertion(A.passed == 2),
    A.failures = [F1, F3],
    assertion(F1.input == "1"),
    assertion(F1.why == "answered 0 where 0.5 was expected"),
    assertion(F3.input == "3").

test(accepts_asks_the_reference) :-
    job(compare(double/2, even_double/2, 1, accepts, from(small/1)), A),
    assertion(A.passed == 4).

test(a_loop_costs_its_input) :-
    job(compare(loops/2, double/2, 1, equal, texts(["7"])), A),
    A.failures = [F],
    assertion(F.why == "it ran past its limit of 100,000 inferences").

test(a_failure_costs_its_input) :-
    job(compare(fails/2, double/2, 1, equal, texts(["7"])), A),
    A.failures = [F],
    assertion(F.why == "it failed").

test(an_error_is_named) :-
    job(compare(double/2, double/2, 1, equal, texts(["foo"])), A),
    A.failures = [F],
    assertion(F.why == "it raised an error: is/2: Arithmetic: `foo/0' is not a function").

test(what_it_prints_is_kept) :-
    job(compare(noisy/2, double/2, 1, equal, texts(["3"])), A),
    A.failures = [F],
    assertion(F.printed == "hello"),
    assertion(F.why == "answered 3 where 6 was expected").

test(inputs_are_read_as_arguments) :-
    inputs_json(["1, [a, b]", "1", "f(", "x) , y("], 2, Json),
    atom_json_dict(Json, [Ok, Few, Bad, Odd], []),
    assertion(Ok == null),
    assertion(Few == "gives 1 arguments where 2 are needed"),
    assertion(Bad == "does not read: syntax error: operator expected"),
    assertion(Odd == "is not the arguments of one call, e.g. \"3, [a, b]\"").

:- end_tests(compare).

:- begin_tests(search).

search(Spec, Answer) :-
    limits(Limits),
    search_point_job(nim, nim, Spec, Limits, Json),
    atom_json_dict(Json, Answer, []).

test(values_and_positions_visited) :-
    search(search([typed("5")], [minimax, alphabeta], inf), A),
    A.positions = [Five],
    assertion(Five.position == "5"),
    assertion(Five.expected == -999999997),
    Five.results = [Minimax, Alphabeta],
    assertion(Minimax.value == -999999997),
    assertion(Alphabeta.value == -999999997),
    assertion(Minimax.nodes == 28),
    assertion(Alphabeta.nodes == 25).

test(the_initial_position_to_a_depth) :-
    search(search([initial], [alphabeta], 1), A),
    A.positions = [Start],
    assertion(Start.position == "the initial position"),
    assertion(Start.expected == -50),
    Start.results = [Alphabeta],
    assertion(Alphabeta.nodes == 4).

test(past_a_limit) :-
    search(search([typed("21")], [minimax], inf), A),
    A.positions = [P],
    assertion(P.why == "the reference game: alphabeta ran past its limit of 100,000 inferences").

test(a_position_the_game_refuses) :-
    search(search([typed("abc")], [minimax], inf), A),
    A.positions = [P],
    assertion(P.expected == null),
    assertion(sub_string(P.why, 0, _, _, "the reference game: malformed nim position")).

:- end_tests(search).

:- begin_tests(plunit_files).

test(tests_are_read_not_run) :-
    tmp_file_stream(text, File, Out),
    format(Out, "~s", [":- begin_tests(u).\n\c
                        test(a) :- true.\n\c
                        test(b, [blocked(later)]) :- true.\n\c
                        test('c d', X == 1) :- X = 1.\n\c
                        :- end_tests(u).\n\c
                        test(outside) :- true.\n"]),
    close(Out),
    plunit_tests_json(File, Json),
    delete_file(File),
    atom_json_dict(Json, D, []),
    assertion(D.errors == []),
    D.tests = [A, C],
    assertion(A.unit == "u"),
    assertion(A.name == "a"),
    assertion(A.line == 2),
    assertion(C.name == "'c d'").

test(syntax_errors_name_their_line) :-
    tmp_file_stream(text, File, Out),
    format(Out, "~s", [":- begin_tests(u).\ntest(a) :- .\n:- end_tests(u).\n"]),
    close(Out),
    plunit_tests_json(File, Json),
    delete_file(File),
    atom_json_dict(Json, D, []),
    D.errors = [Error],
    atom_concat(File, ':2: syntax error: ', Prefix),
    assertion(sub_string(Error, 0, _, _, Prefix)).

:- end_tests(plunit_files).
