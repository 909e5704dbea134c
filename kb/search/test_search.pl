/*  plunit tests of the game-tree searches and their jobs, over
    tic-tac-toe, Nim and a game that declares nothing for people.
    Run: swipl -g run_tests -t halt kb/search/test_search.pl
*/
:- use_module(search).
:- use_module(outcomes).
:- use_module(jobs).
:- use_module(game_io).
:- use_module('../games/tictactoe', []).
:- use_module('../games/nim', []).
:- use_module(library(http/json), [atom_json_dict/3]).

:- begin_tests(search).

visits(Goal, Nodes) :-
    reset_visited, call(Goal), visited(Nodes).

test(minimax_full_tree) :-
    visits(minimax(tictactoe:ttt(0, 0, x), _, Val), Nodes),
    assertion(Val == 0),
    assertion(Nodes == 549946).

test(alphabeta_prunes) :-
    visits(alphabeta(tictactoe:ttt(0, 0, x), -inf, inf, Best, Val), Nodes),
    assertion(Val == 0),
    assertion(Best == ttt(1, 0, o)),
    assertion(Nodes == 20866).

test(alphabeta_agrees_with_minimax, forall(member(P, [ttt(1,16,x), ttt(3,16,o), ttt(17,0,o)]))) :-
    minimax(tictactoe:P, _, V1),
    alphabeta(tictactoe:P, -inf, inf, _, V2),
    assertion(V1 == V2).

test(win_found) :-
    % X on 1 and 2, O on 4 and 5, X to move: X on 3 wins
    alphabeta(tictactoe:ttt(3, 24, x), -inf, inf, Best, Val),
    assertion(value_outcome(Val, win(max, 1))),
    assertion(Best == ttt(7, 24, o)).

test(depth_limited_uses_staticval) :-
    visits(alphabeta(tictactoe:ttt(0, 0, x), -inf, inf, Best, Val, 1), Nodes),
    assertion(Nodes == 10),
    assertion(Best == ttt(16, 0, o)),      % the centre opens four lines
    assertion(Val == 4).

test(terminal_has_no_successor, [fail]) :-
    minimax(tictactoe:ttt(7, 24, o), _, _).

test(nim_mod4, forall(between(1, 13, N))) :-
    minimax(nim:nim(N, max), _, Val),
    (   N mod 4 =:= 1 -> assertion(Val < 0) ; assertion(Val > 0) ).

test(pv_ends_at_game_end) :-
    minimax_pv(nim:nim(5, max), inf, Line, Val),
    assertion(Line == [nim(5,max), nim(4,min), nim(1,max), nim(0,min)]),
    assertion(value_outcome(Val, win(min, 3))).

test(a_definite_win_beats_every_guess, forall(member(Search, [minimax_pv, alphabeta_pv]))) :-
    % at depth 1 the lure's static value is far above the win's
    (   Search == minimax_pv
    ->  minimax_pv(lure:start, 1, [_, Best], Val)
    ;   alphabeta_pv(lure:start, -inf, inf, 1, [_, Best], Val)
    ),
    assertion(Best == won),
    assertion(value_outcome(Val, win(max, 1))).

test(a_guess_beats_a_definite_loss) :-
    minimax_pv(lure:lost_or_lure, 1, [_, Best], Val),
    assertion(Best == lure),
    assertion(Val == 1000000).

:- end_tests(search).

% A game that lures a search that confuses a guess with an outcome: from
% start MAX wins at once (staticval 1) or plays on to the lure, whose
% static value is a million.
lure:moves(start, [lure, won]).
lure:moves(lost_or_lure, [lost, lure]).
lure:moves(lure, [start]).
lure:max_to_move(start).
lure:max_to_move(lost_or_lure).
lure:min_to_move(lure).
lure:min_to_move(won).
lure:min_to_move(lost).
lure:staticval(won, 1).
lure:staticval(lost, -1).
lure:staticval(lure, 1000000).
lure:staticval(start, 0).
lure:staticval(lost_or_lure, 0).

% A student's game that declares nothing for people: a counter from N;
% each move subtracts 1 or 2; whoever reaches 0 wins.
countdown:initial(c(4, max)).
countdown:moves(c(N, P), Ps) :-
    N > 0,
    countdown:other(P, Q),
    findall(c(M, Q), ( member(D, [1, 2]), M is N - D, M >= 0 ), Ps).
countdown:other(max, min).
countdown:other(min, max).
countdown:max_to_move(c(_, max)).
countdown:min_to_move(c(_, min)).
countdown:staticval(c(0, min), 1) :- !.
countdown:staticval(c(0, max), -1) :- !.
countdown:staticval(c(_, _), 0).

% refused(:Goal, -Message): Goal refuses a person's text with Message.
refused(Goal, Message) :-
    catch(( call(Goal), Message = accepted ), Error, refusal(Error, Message)).

% job(:Job, -Dict): the JSON answer of call(Job, Json) as a dict.
job(Job, Dict) :-
    call(Job, Json),
    atom_json_dict(Json, Dict, [value_string_as(atom)]).

:- begin_tests(game_io_defaults).

test(position_is_read_not_run) :-
    game_position(countdown, "c(2, max)", Pos),
    assertion(Pos == c(2, max)).

test(not_a_position, forall(member(Text-Quoted, ["halt"-"'halt'", "X"-"'X'",
                                                "c(1, max)), halt, (x"-"'c(1, max)), halt, (x'",
                                                "d(1, max)"-"'d(1, max)'"]))) :-
    refused(game_position(countdown, Text, _), Message),
    format(string(Expected),
           "malformed test_search position ~w: give a Prolog term that moves/2 or staticval/2 accepts, e.g. c(4,max)",
           [Quoted]),
    assertion(Message == Expected).

test(drawing_and_label) :-
    game_drawing(countdown, c(2, max), Drawing),
    assertion(Drawing == "c(2,max)"),
    game_move_label(countdown, c(2, max), c(1, min), Label),
    assertion(Label == "c(1,min)").

test(menu_prompt) :-
    game_move_prompt(countdown, c(4, max), Text),
    assertion(Text == "1: c(3,min)  2: c(2,min)").

test(move_by_number_or_term, forall(member(Text, ["2", " 2 ", "c(2, min)"]))) :-
    game_read_move(countdown, c(4, max), Text, Pos1),
    assertion(Pos1 == c(2, min)).

test(no_such_move, forall(member(Text-Quoted, ["3"-"'3'", "c(1,min)"-"'c(1,min)'", "X"-"'X'"]))) :-
    refused(game_read_move(countdown, c(4, max), Text, _), Message),
    format(string(Expected), "~w is not a move here: type a number from 1 to 2", [Quoted]),
    assertion(Message == Expected).

test(name_is_the_file_stem) :-
    game_name(tictactoe, Name),
    assertion(Name == tictactoe).

test(declared_reading_wins) :-
    game_position(nim, " 9", Pos),
    assertion(Pos == nim(9, max)).

:- end_tests(game_io_defaults).

:- begin_tests(search_jobs).

test(games_are_found_by_reading) :-
    job(games_job, Dict),
    findall(Name-Text, ( member(G, Dict.games), Name = G.name, Text = G.description ), Games),
    assertion(Games == [ connect4-'Connect Four on a board of up to 7 x 6 (7 x 6 by default)',
                         nim-'One-pile Nim: take 1 to 3 sticks; whoever takes the last one loses',
                         pig-'Pig: roll a die to build a turn total and hold to bank it; a 1 loses it; first to 10 (or the target given) wins',
                         tictactoe-'Tic-tac-toe: X moves first; three in a line wins' ]).

test(search_from_typed_text) :-
    job(search_job(tictactoe, typed("xx.oo...."), minimax, inf), Dict),
    assertion(Dict.value == 999999999),
    assertion(Dict.position == 'ttt(3,24,x)'),
    assertion(Dict.line == ['ttt(3,24,x)', 'ttt(7,24,o)']),
    assertion(Dict.moves == ['X on 3']).

test(search_from_a_term_and_from_initial) :-
    job(search_job(nim, term("nim(13,max)"), minimax, inf), Dict),
    assertion(Dict.moves == ['take 1', 'take 3', 'take 1', 'take 3', 'take 1', 'take 3', 'take 1']),
    assertion(Dict.drawing == '13 sticks: |||||||||||||'),
    job(search_job(tictactoe, initial, alphabeta, inf), Root),
    assertion(Root.nodes == 20866).

test(refused_text_is_an_error_answer) :-
    job(search_job(nim, typed("many"), minimax, inf), Dict),
    assertion(Dict.error == 'malformed nim position \'many\': give the number of sticks, e.g. 21').

test(turn) :-
    job(turn_job(nim, typed("2")), Dict),
    assertion(Dict.max_to_move == true),
    assertion(Dict.over == false),
    assertion(Dict.prompt == 'take 1 to 2 sticks'),
    job(turn_job(nim, term("nim(0,min)")), Over),
    assertion(Over.over == true),
    assertion(Over.value == -100).

test(move) :-
    job(move_job(tictactoe, "ttt(1,16,x)", "3"), Dict),
    assertion(Dict.position == 'ttt(5,16,o)'),
    assertion(Dict.move == 'X on 3'),
    job(move_job(tictactoe, "ttt(1,16,x)", "5"), Taken),
    assertion(Taken.error == 'square 5 is taken').

:- end_tests(search_jobs).
