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

test(no_column_off_the_board) :-
    played("4x4:", P),
    assertion(\+ drop(P, 4, _)),
    assertion(\+ drop(P, -1, _)),
    catch(read_move(P, "5", _), error(Error, _), true),
    assertion(Error == domain_error(move_text, "5")).

test(static_value_counts_every_line) :-
    % on random games of every size, the bit-sliced evaluation equals a
    % count of the lines of four cells one at a time
    set_random(seed(7)),
    forall(between(1, 300, _),
           ( random_game(P),
             staticval(P, V),
             counted_value(P, Counted),
             assertion(V == Counted) )).

random_game(P) :-
    random_between(1, 7, W), random_between(1, 6, H),
    empty_board(W, H, P0),
    Cells is W * H,
    random_between(0, Cells, N),
    random_play(N, P0, P).

random_play(0, P, P) :- !.
random_play(N, P0, P) :-
    (   moves(P0, Succs)
    ->  random_member(P1, Succs),
        N1 is N - 1,
        random_play(N1, P1, P)
    ;   P = P0
    ).

% counted_value(+Pos, -Val): staticval/2 of the module comment, counted
% line by line and cell by cell.
counted_value(P, Val) :-
    P = c4(W, H, _, _, _, Status),
    (   Status = won(Side)
    ->  ( Side == max -> Val = 1000 ; Val = -1000 )
    ;   \+ moves(P, _)
    ->  Val = 0
    ;   findall(V, ( line(W, H, Cells), line_value(P, Cells, V) ), Vs),
        Left is (W - 1) // 2, Right is W // 2,
        sort([Left, Right], Middle),           % one column when W is odd
        Top is H - 1,
        findall(V, ( member(C, Middle), between(0, Top, R), disc_value(P, C, R, V) ), Ms),
        sum_list(Vs, Lines), sum_list(Ms, Centre),
        Val is Lines + Centre
    ).

line(W, H, [C0-R0, C1-R1, C2-R2, C3-R3]) :-
    member(DC-DR, [1-0, 0-1, 1-1, 1-(-1)]),
    W1 is W - 1, H1 is H - 1,
    between(0, W1, C0), between(0, H1, R0),
    C3 is C0 + 3 * DC, R3 is R0 + 3 * DR,
    C3 < W, R3 >= 0, R3 < H,
    C1 is C0 + DC, R1 is R0 + DR, C2 is C0 + 2 * DC, R2 is R0 + 2 * DR.

line_value(P, Cells, V) :-
    findall(D, ( member(C-R, Cells), connect4:cell(P, C, R, D) ), Discs),
    msort(Discs, Sorted),
    (   Sorted = [x|_], \+ memberchk(o, Sorted) -> length(Sorted, N), weight(N, V)
    ;   Sorted = [o|_], \+ memberchk(x, Sorted) -> length(Sorted, N), weight(N, V0), V is -V0
    ;   V = 0
    ).

weight(1, 1).
weight(2, 4).
weight(3, 16).

disc_value(P, C, R, V) :-
    (   connect4:cell(P, C, R, x) -> V = 2
    ;   connect4:cell(P, C, R, o) -> V = -2
    ;   V = 0
    ).

:- end_tests(connect4).
