/*  plunit tests of the linter and of the searches' diagnoses, over the
    shipped games and small faulty games defined here.
    Run: swipl -g run_tests -t halt kb/search/test_lint.pl
*/
:- use_module(lint).
:- use_module(search).
:- use_module(jobs).
:- use_module('../games/tictactoe', []).
:- use_module('../games/nim', []).
:- use_module(library(http/json), [atom_json_dict/3, atom_json_term/3]).

% A counter from N; each move subtracts 1 or 2; whoever reaches 0 wins.
% Its moves/2 leaves a choice point; its staticval/2 knows only the
% ends of the game, and gives a word at c(0,max).
faulty:initial(c(4, max)).
faulty:moves(c(N, P), Ps) :-
    N > 0,
    faulty:other(P, Q),
    findall(c(M, Q), ( member(D, [1, 2]), M is N - D, M >= 0 ), Ps).
faulty:moves(c(0, _), []).
faulty:other(max, min).
faulty:other(min, max).
faulty:max_to_move(c(_, max)).
faulty:min_to_move(c(_, min)).
faulty:staticval(c(0, min), 1).
faulty:staticval(c(0, max), lost).

% The same counter, giving each successor twice, and no side to move
% where MIN should be.
twice:moves(c(N, P), Ps) :-
    N > 0,
    twice:other(P, Q),
    findall(c(M, Q), ( member(D, [1, 2]), M is N - D, M >= 0 ), Ps0),
    append(Ps0, Ps0, Ps).
twice:other(max, min).
twice:other(min, max).
twice:max_to_move(c(_, max)).
twice:min_to_move(c(_, mni)).
twice:staticval(_, 0).

% lint_of(+Game, +Starts, +Max, +Depth, -Dict): the linter's report.
lint_of(Game, Starts, Max, Depth, Dict) :-
    lint(Game, Starts, Max, Depth, Report),
    lint_json(Report, Term),
    atom_json_term(Json, Term, [as(string)]),
    atom_json_dict(Json, Dict, [value_string_as(atom)]).

% kinds(+Dict, -Kinds): Kind-Count of each finding, in order.
kinds(Dict, Kinds) :-
    findall(Kind-Count,
            ( member(F, Dict.findings), get_dict(kind, F, Kind), get_dict(count, F, Count) ),
            Kinds).

% examples(+Dict, +Kind, -Texts): the texts of the examples of Kind.
examples(Dict, Kind, Texts) :-
    member(F, Dict.findings),
    get_dict(kind, F, Kind),
    !,
    findall(Text, ( member(E, F.examples), get_dict(text, E, Text) ), Texts).

% fault_of(:Goal, -Fault, -Message): Goal throws the fault Fault of a
% game, whose message is Message.
fault_of(Goal, Fault, Message) :-
    reset_visited,
    catch(Goal, Error, true),
    Error = error(search_fault(_, Fault), _),
    message_to_codes(Error, Codes),
    string_codes(Text, Codes),
    split_string(Text, "", "\n", [Message]).

message_to_codes(Error, Codes) :-
    '$messages':translate_message(Error, Lines, []),
    with_output_to(codes(Codes), print_message_lines(current_output, '', Lines)).

:- begin_tests(lint).

test(shipped_games_are_clean) :-
    lint_of(tictactoe, [ttt(0, 0, x)], 10000, inf, Ttt),
    assertion(Ttt.positions-Ttt.depth-Ttt.complete == 5478-9-true),
    assertion(Ttt.findings == []),
    lint_of(nim, [nim(21, max)], 10000, inf, Nim),
    assertion(Nim.positions-Nim.complete == 42-true),
    assertion(Nim.findings == []).

test(bounds) :-
    lint_of(tictactoe, [ttt(0, 0, x)], 100, inf, First),
    assertion(First.positions-First.depth-First.complete == 100-3-false),
    lint_of(tictactoe, [ttt(0, 0, x)], 10000, 1, Shallow),
    assertion(Shallow.positions-Shallow.depth-Shallow.complete == 10-1-false),
    lint_of(nim, [nim(3, max)], 10000, 3, Whole),
    assertion(Whole.positions-Whole.complete == 6-true).

test(faults_by_kind_with_their_first_positions) :-
    lint_of(faulty, [c(4, max)], 10000, inf, Dict),
    kinds(Dict, Kinds),
    assertion(Kinds == [moves_choice_point-6, staticval_failed-6, staticval_not_a_number-1]),
    examples(Dict, staticval_failed, Failed),
    assertion(Failed == ['staticval/2 failed on position c(4,max)',
                         'staticval/2 failed on position c(3,min)',
                         'staticval/2 failed on position c(2,min)']),
    examples(Dict, staticval_not_a_number, NaN),
    assertion(NaN == ['staticval/2 gave lost on position c(0,max), not a number']).

test(duplicates_and_no_side_to_move) :-
    lint_of(twice, [c(2, max)], 10000, inf, Dict),
    kinds(Dict, Kinds),
    assertion(Kinds == [moves_duplicate-2, turn_neither-2]),
    examples(Dict, moves_duplicate, Dups),
    assertion(Dups == ['moves/2 gave c(1,min) twice on position c(2,max)',
                       'moves/2 gave c(0,max) twice on position c(1,min)']).

test(root_faults_one_of_each_kind) :-
    root_faults(twice, c(2, max), Faults),
    assertion(Faults == [fault(moves/2, c(2, max), duplicate(c(1, min), 2)),
                         fault(turn, c(1, min), neither_holds)]),
    root_faults(tictactoe, ttt(0, 0, x), None),
    assertion(None == []).

:- end_tests(lint).

:- begin_tests(search_diagnosis).

test(a_value_that_is_no_number) :-
    fault_of(alphabeta_pv(faulty:c(4, max), -1000, 1000, inf, _, _), Fault, Message),
    assertion(Fault == fault(staticval/2, c(0, max), not_a_number(lost))),
    predicate_property(faulty:staticval(_, _), file(File)),
    predicate_property(faulty:staticval(_, _), line_count(Line)),
    format(string(Expected), "~w:~d: staticval/2 gave lost on position c(0,max), not a number",
           [File, Line]),
    assertion(Message == Expected).

test(staticval_fails_at_the_horizon) :-
    fault_of(minimax(faulty:c(4, max), _, _, 1), Fault, _),
    assertion(Fault == fault(staticval/2, c(3, min), failed)).

test(a_correct_game_is_searched_as_before) :-
    reset_visited,
    alphabeta(tictactoe:ttt(0, 0, x), -inf, inf, _, Val),
    visited(Nodes),
    assertion(Val-Nodes == 0-20866).

test(a_terminal_root_still_fails, [fail]) :-
    minimax(faulty:c(0, min), _, _).

test(staticval_checked_at_the_end_of_play) :-
    catch(turn_job(faulty, term("c(0,max)"), _), error(search_fault(_, Fault), _), true),
    assertion(Fault == fault(staticval/2, c(0, max), not_a_number(lost))).

:- end_tests(search_diagnosis).
