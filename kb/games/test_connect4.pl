/*  plunit tests of Connect Four (connect4.pl).
    Run: swipl -g run_tests -t halt kb/games/test_connect4.pl
*/
:- use_module(connect4).

:- begin_tests(connect4).

played(Text, Pos) :- parse_position(Text, Pos).

test(four_across) :-
    played("1122334", P),
    assertion(P = c4(_, _, _, _, _, won(max))),
    assertion(\+ moves(P, _)),
    assertion(staticval(P, 1000)).

test(four_up) :-
    played("21213151", P),
    assertion(P = c4(_, _, _, _, _, won(min))).

test(four_diagonally) :-
    played("12234334544", P),
    assertion(P = c4(_, _, _, _, _, won(max))).

test(no_wrap_between_columns) :-
    % the top three cells of column 1 and the bottom cell of column 2 (bits
    % 3, 4, 5 and 7 on a 6-high board; bit 6 is the spare) are no line
    X is 1<<3 \/ 1<<4 \/ 1<<5 \/ 1<<7,
    assertion(\+ connect4:four(X, 6)),
    Y is X \/ 1<<6,
    assertion(connect4:four(Y, 6)).

test(full_column, [fail]) :-
    played("4x4:1111", P),
    drop(P, 0, _).

test(full_board_is_a_draw) :-
    played("3x1:123", P4),
    assertion(\+ moves(P4, _)),
    assertion(staticval(P4, 0)).

test(a_disc_in_the_middle_is_good) :-
    played("4", P),
    staticval(P, V),
    assertion(V == 9),                 % 7 lines of one disc, and 2 for the middle
    played("1", Q),
    staticval(Q, W),
    assertion(W == 3).

test(show) :-
    played("5x4:3312", P),
    show_position(P, Text),
    assertion(Text == ". . . . .\n. . . . .\n. . o . .\nx o x . .\n1 2 3 4 5\nmax (x) to move").

test(move_label) :-
    played("4", P), drop(P, 2, P1),
    move_label(P, P1, L),
    assertion(L == "3").

test(bad_size, [error(domain_error(position_text, "8x6"), _)]) :-
    played("8x6:", _).

test(game_over_on_a_win_or_a_full_board) :-
    played("1122334", Won),
    assertion(game_over(Won)),
    played("4x4:1234123443214321", Full),
    assertion(Full = c4(_, _, _, _, _, on)),
    assertion(game_over(Full)),
    played("4x4:123412344321432", Open),
    assertion(\+ game_over(Open)).

:- end_tests(connect4).
