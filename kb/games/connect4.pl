:- module(connect4,
          [ initial/1,                  % -Pos
            moves/2,                    % +Pos, -PosList
            staticval/2,                % +Pos, -Val
            max_to_move/1,              % +Pos
            min_to_move/1,              % +Pos
            game_description/1,         % -Text
            empty_board/3,              % +Width, +Height, -Pos
            drop/3,                     % +Pos, +Column, -Pos1
            parse_position/2,           % +Text, -Pos
            show_position/2,            % +Pos, -Text
            move_label/3,               % +Pos, +Pos1, -Text
            read_move/3,                % +Pos, +Text, -Pos1
            move_prompt/2               % +Pos, -Text
          ]).
:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module('../search/game_io', [refuse/4, quoted/2, trimmed/2, typed_number/2]).

/** <module> Connect Four on any board up to 7 x 6

Two players drop discs into the columns of an upright board; the first
with four in a row (across, up or diagonally) wins; a full board is a
draw.  MAX plays `x` and moves first.

A position is `c4(Width, Height, X, O, Mover, Status)`:

  - X and O are bitboards of MAX's and MIN's discs: the cell in column C
    (0-based, left to right) and row R (0-based, bottom up) is bit
    C*(Height+1) + R (one spare bit on top of each column, so that lines
    never wrap from one column into the next);
  - Mover is `max` or `min`, the side to move;
  - Status is `on`, or `won(Side)` once Side has four in a row (the
    game is over).

Values are for MAX: 1000 for a win, -1000 for a loss, 0 for a draw.  The
static value of a position that is not over counts the lines of four
cells that only one side occupies, 1, 4 or 16 for one, two or three of
its discs (plus for MAX, minus for MIN), and 2 for each disc in the
middle column(s): good enough for depth-limited play.

People write a position as the columns played, 1-based, optionally after
the size: `4453`, `5x4:3312`, or nothing for the empty 7 x 6 board; a
move as a column number.
*/

%!  initial(-Pos) is det.
%
%   The empty 7 x 6 board, MAX to move.

initial(Pos) :-
    empty_board(7, 6, Pos).

%!  empty_board(+Width, +Height, -Pos) is semidet.
%
%   The empty Width x Height board (1..7 by 1..6), MAX to move.

empty_board(W, H, c4(W, H, 0, 0, max, on)) :-
    integer(W), integer(H), between(1, 7, W), between(1, 6, H).

%!  game_description(-Text) is det.

game_description("Connect Four on a board of up to 7 x 6 (7 x 6 by default)").

%!  max_to_move(+Pos) is semidet.
max_to_move(c4(_, _, _, _, max, _)).

%!  min_to_move(+Pos) is semidet.
min_to_move(c4(_, _, _, _, min, _)).

%!  moves(+Pos, -PosList) is semidet.
%
%   The positions after a disc in each column that is not full, left to
%   right; fails when the game is over (a win, or a full board).

moves(Pos, Succs) :-
    Pos = c4(W, _, _, _, _, on),
    Last is W - 1,
    findall(P1, ( between(0, Last, C), drop(Pos, C, P1) ), Succs),
    Succs \== [].

%!  drop(+Pos, +Column, -Pos1) is semidet.
%
%   Pos1 is Pos after the side to move drops a disc in Column (0-based);
%   fails when the column is full or the game is over.

drop(c4(W, H, X, O, Mover, on), C, c4(W, H, X1, O1, Other, Status)) :-
    Shift is C * (H + 1),
    Occupied is X \/ O,
    Occupied /\ (1 << (Shift + H - 1)) =:= 0,           % the top cell is free
    Disc is (Occupied + (1 << Shift)) /\ (((1 << H) - 1) << Shift),
    (   Mover == max
    ->  X1 is X \/ Disc, O1 = O, Mine = X1, Other = min
    ;   O1 is O \/ Disc, X1 = X, Mine = O1, Other = max
    ),
    (   four(Mine, H) -> Status = won(Mover) ; Status = on ).

% four(+Discs, +H): the bitboard Discs holds four in a row.
four(B, H) :-
    V = 1, Hz is H + 1, D1 is H, D2 is H + 2,
    member(S, [V, Hz, D1, D2]),
    M is B /\ (B >> S),
    M /\ (M >> (2 * S)) =\= 0, !.

%!  staticval(+Pos, -Val) is det.
%
%   1000 or -1000 once a side has won, 0 for a full board, else the
%   heuristic of the module comment.

staticval(c4(_, _, _, _, _, won(Side)), Val) :- !,
    ( Side == max -> Val = 1000 ; Val = -1000 ).
staticval(c4(W, H, X, O, _, on), Val) :-
    (   popcount(X \/ O) =:= W * H
    ->  Val = 0
    ;   windows(W, H, Masks),
        foldl(window_value(X, O), Masks, 0, Lines),
        centre_mask(W, H, Centre),
        Val is Lines + 2 * (popcount(X /\ Centre) - popcount(O /\ Centre))
    ).

window_value(X, O, Mask, V0, V) :-
    (   O /\ Mask =:= 0
    ->  weight(popcount(X /\ Mask), Wt), V is V0 + Wt
    ;   X /\ Mask =:= 0
    ->  weight(popcount(O /\ Mask), Wt), V is V0 - Wt
    ;   V = V0
    ).

weight(N, W) :- N0 is N, weight_(N0, W).
weight_(0, 0).
weight_(1, 1).
weight_(2, 4).
weight_(3, 16).
weight_(4, 0).

:- table windows/3, centre_mask/3.

% windows(+W, +H, -Masks): the bitboards of every line of four cells.
windows(W, H, Masks) :-
    findall(Mask, window(W, H, Mask), Masks).

window(W, H, Mask) :-
    member(DC-DR, [1-0, 0-1, 1-1, 1-(-1)]),
    W1 is W - 1, H1 is H - 1,
    between(0, W1, C), between(0, H1, R),
    CE is C + 3*DC, RE is R + 3*DR,
    CE >= 0, CE =< W1, RE >= 0, RE =< H1,
    foldl(line_cell(H, C, R, DC, DR), [0, 1, 2, 3], 0, Mask).

line_cell(H, C, R, DC, DR, K, M0, M) :-
    M is M0 \/ 1 << ((C + K*DC) * (H + 1) + R + K*DR).

% centre_mask(+W, +H, -Mask): the cells of the middle column(s).
centre_mask(W, H, Mask) :-
    Mid is (W - 1) // 2, Mid2 is W // 2,
    sort([Mid, Mid2], Middle),
    foldl(column_cells(H), Middle, 0, Mask).

column_cells(H, C, M0, M) :-
    M is M0 \/ (((1 << H) - 1) << (C * (H + 1))).

other(max, min).
other(min, max).

% cell(+Pos, +C, +R, -Disc): the disc (x, o) at column C, row R.
cell(c4(W, H, X, O, _, _), C, R, D) :-
    C >= 0, C < W, R >= 0, R < H,
    Bit is 1 << (C * (H + 1) + R),
    (   X /\ Bit =\= 0 -> D = x
    ;   O /\ Bit =\= 0 -> D = o
    ).

		 /*******************************
		 *        FOR PEOPLE            *
		 *******************************/

%!  parse_position(+Text, -Pos) is semidet.
%
%   Text is the columns played (1-based digits), optionally after the
%   size (`5x4:3312`); raises a domain error saying what is wrong.

parse_position(Text0, Pos) :-
    trimmed(Text0, Text),
    (   sub_string(Text, Before, 1, After, ":")
    ->  sub_string(Text, 0, Before, _, Size),
        sub_string(Text, _, After, 0, Played),
        size(Size, W, H)
    ;   W = 7, H = 6, Played = Text
    ),
    empty_board(W, H, Pos0),
    string_chars(Played, Chars),
    foldl(play_char(Text), Chars, Pos0, Pos).

size(Size, W, H) :-
    split_string(Size, "xX", " ", [WS, HS]),
    number_string(W, WS), number_string(H, HS),
    integer(W), integer(H), between(1, 7, W), between(1, 6, H), !.
size(Size, _, _) :-
    quoted(Size, Q),
    refuse(position_text, Size, "~w is not a board size: write WxH, up to 7x6", [Q]).

play_char(Text, Char, Pos0, Pos) :-
    (   char_type(Char, digit(D)), C is D - 1, drop(Pos0, C, Pos)
    ->  true
    ;   quoted(Text, Q),
        refuse(position_text, Text, "~w is not a game: column ~w cannot be played there",
               [Q, Char])
    ).

%!  show_position(+Pos, -Text) is det.
%
%   The board, top row first, `.` for an empty cell, and who moves.

show_position(Pos, Text) :-
    Pos = c4(W, H, _, _, Mover, Status),
    H1 is H - 1,
    findall(Row, ( between(0, H1, K), R is H1 - K, row_text(Pos, R, Row) ), Rows),
    W1 is W - 1,
    findall(N, ( between(0, W1, C), N is C + 1 ), Numbers),
    atomic_list_concat(Numbers, ' ', Footer),
    (   Status = won(S) -> format(string(Who), "~w has won", [S])
    ;   ( Mover == max -> D = x ; D = o ),
        format(string(Who), "~w (~w) to move", [Mover, D])
    ),
    append(Rows, [Footer, Who], Lines),
    atomic_list_concat(Lines, '\n', Atom),
    atom_string(Atom, Text).

row_text(Pos, R, Row) :-
    Pos = c4(W, _, _, _, _, _),
    W1 is W - 1,
    findall(Ch, ( between(0, W1, C), ( cell(Pos, C, R, D) -> Ch = D ; Ch = '.' ) ),
            Chars),
    atomic_list_concat(Chars, ' ', Row).

%!  move_label(+Pos, +Pos1, -Text) is semidet.
%
%   The column (1-based) of the move from Pos to Pos1.

move_label(c4(_, H, X, O, _, _), c4(_, _, X1, O1, _, _), Text) :-
    New is (X1 \/ O1) /\ \ (X \/ O),
    C is msb(New) // (H + 1),
    N is C + 1,
    format(string(Text), "~w", [N]).

%!  read_move(+Pos, +Text, -Pos1) is semidet.
%
%   Pos1 is Pos after a disc in the column Text names (1-based); raises
%   a domain error saying why not.

read_move(Pos, Text, Pos1) :-
    Pos = c4(W, _, _, _, _, _),
    (   typed_number(Text, N), integer(N), C is N - 1, drop(Pos, C, Pos1)
    ->  true
    ;   quoted(Text, Q),
        refuse(move_text, Text, "~w is not a column you can play: choose one of 1-~w that is \c
                            not full", [Q, W])
    ).

%!  move_prompt(+Pos, -Text) is det.
move_prompt(c4(W, _, _, _, _, _), Text) :-
    format(string(Text), "your column (1-~w)", [W]).
