/*  plunit tests of how tic-tac-toe and Nim read and write positions and
    moves for people.
    Run: swipl -g run_tests -t halt kb/games/test_games.pl
*/
:- use_module(tictactoe, []).
:- use_module(nim, []).
:- use_module('../search/game_io', [refusal/2]).

% refused(:Goal, -Message): Goal refuses a person's text with Message.
refused(Goal, Message) :-
    catch(( call(Goal), Message = accepted ), Error, refusal(Error, Message)).

:- begin_tests(tictactoe_io).

test(description) :-
    tictactoe:game_description(Text),
    assertion(Text == "Tic-tac-toe: X moves first; three in a line wins").

test(parse, forall(member(Text-Pos,
                          [ "........."-ttt(0, 0, x),
                            "x...o...."-ttt(1, 16, x),
                            "x........"-ttt(1, 0, o),
                            "XX./OO./..."-ttt(3, 24, x),
                            " x-_/-o-/--- "-ttt(1, 16, x),
                            'x...o....'-ttt(1, 16, x)
                          ]))) :-
    tictactoe:parse_position(Text, P),
    assertion(P == Pos).

test(malformed, forall(member(Text-Quoted, ["x"-"'x'", "xo?......"-"'xo?......'",
                                            "x...o.....x"-"'x...o.....x'",
                                            "it's"-"\"it's\"", "a\nb"-"'a\\nb'"]))) :-
    refused(tictactoe:parse_position(Text, _), Message),
    format(string(Expected),
           "malformed tic-tac-toe position ~w: give 9 squares row by row, each x, o or . (e.g. x...o....)",
           [Quoted]),
    assertion(Message == Expected).

test(impossible) :-
    refused(tictactoe:parse_position("xxxx.....", _), Message),
    assertion(Message == "impossible tic-tac-toe position 'xxxx.....': X moves first, so X has as many marks as O or one more (here X 4, O 0)").

test(refusal_is_a_domain_error,
     [error(domain_error(position_text, "ooo......"), context(_, _))]) :-
    tictactoe:text_board("ooo......", _, _).

test(text_board) :-
    tictactoe:text_board("x.o/.x./o..", Xs, Os),
    assertion(Xs-Os == 17-68).

test(board_text) :-
    tictactoe:board_text(17, 68, Text),
    assertion(Text == "x.o.x.o..").

test(text_round_trip, forall(two_moves_in(Pos))) :-
    tictactoe:position_text(Pos, Text),
    tictactoe:parse_position(Text, Pos1),
    assertion(Pos1 == Pos).

test(draw_board) :-
    tictactoe:draw_board(1, 16, Text),
    assertion(Text == " X | 2 | 3\n---+---+---\n 4 | O | 6\n---+---+---\n 7 | 8 | 9").

test(show_position) :-
    tictactoe:show_position(ttt(0, 0, x), Text),
    assertion(Text == " 1 | 2 | 3\n---+---+---\n 4 | 5 | 6\n---+---+---\n 7 | 8 | 9").

test(move_label) :-
    tictactoe:move_label(ttt(0, 0, x), ttt(16, 0, o), X),
    assertion(X == "X on 5"),
    tictactoe:move_label(ttt(16, 0, o), ttt(16, 256, x), O),
    assertion(O == "O on 9").

test(read_move) :-
    tictactoe:read_move(ttt(1, 16, x), " 3 ", Pos1),
    assertion(Pos1 == ttt(5, 16, o)).

test(bad_move, forall(member(Pos-Text-Expected,
                             [ ttt(1, 16, x)-"5"-"square 5 is taken",
                               ttt(1, 16, x)-"ten"-"'ten' is not a square: type a number from 1 to 9",
                               ttt(1, 16, x)-" 0"-"'0' is not a square: type a number from 1 to 9",
                               ttt(7, 24, o)-"6"-"square 6 cannot be played now"
                             ]))) :-
    refused(tictactoe:read_move(Pos, Text, _), Message),
    assertion(Message == Expected).

test(move_prompt) :-
    tictactoe:move_prompt(ttt(1, 16, x), Text),
    assertion(Text == "free squares: 2 3 4 6 7 8 9").

:- end_tests(tictactoe_io).

two_moves_in(Pos) :-
    tictactoe:initial(P0),
    tictactoe:moves(P0, Ps1),
    member(P1, Ps1),
    (   Pos = P1
    ;   tictactoe:moves(P1, Ps2), member(Pos, Ps2)
    ).

:- begin_tests(nim_io).

test(description) :-
    nim:game_description(Text),
    assertion(Text == "One-pile Nim: take 1 to 3 sticks; whoever takes the last one loses").

test(parse, forall(member(Text-Pos, ["13"-nim(13, max), " 7 "-nim(7, max),
                                     "0"-nim(0, max), "10000"-nim(10000, max)]))) :-
    nim:parse_position(Text, P),
    assertion(P == Pos).

test(malformed, forall(member(Text-Quoted, ["many"-"'many'", " -1"-"'-1'",
                                            "10001"-"'10001'", ""-"''"]))) :-
    refused(nim:parse_position(Text, _), Message),
    format(string(Expected),
           "malformed nim position ~w: give the number of sticks, e.g. 21", [Quoted]),
    assertion(Message == Expected).

test(position_text) :-
    nim:position_text(nim(13, max), Text),
    assertion(Text == "13").

test(position_text_with_min_to_move, [fail]) :-
    nim:position_text(nim(13, min), _).

test(show_position, forall(member(N-Expected, [13-"13 sticks: |||||||||||||",
                                              1-"1 stick: |", 0-"0 sticks: "]))) :-
    nim:show_position(nim(N, max), Text),
    assertion(Text == Expected).

test(move_label) :-
    nim:move_label(nim(7, max), nim(5, min), Text),
    assertion(Text == "take 2").

test(read_move) :-
    nim:read_move(nim(5, max), "3", Pos1),
    assertion(Pos1 == nim(2, min)).

test(bad_move, forall(member(Pos-Text-Expected,
                             [ nim(5, max)-"4"-"'4' is not a move: take 1, 2 or 3 sticks",
                               nim(5, max)-"one"-"'one' is not a move: take 1, 2 or 3 sticks",
                               nim(1, max)-"3"-"only 1 stick left",
                               nim(2, min)-"3"-"only 2 sticks left"
                             ]))) :-
    refused(nim:read_move(Pos, Text, _), Message),
    assertion(Message == Expected).

test(move_prompt, forall(member(N-Expected, [13-"take 1 to 3 sticks",
                                            2-"take 1 to 2 sticks"]))) :-
    nim:move_prompt(nim(N, min), Text),
    assertion(Text == Expected).

:- end_tests(nim_io).
