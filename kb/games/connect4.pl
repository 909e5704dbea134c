:- module(connect4,
          [ initial/1,                  % -Pos
            moves/2,                    % +Pos, -PosList
            staticval/2,                % +Pos, -Val
            max_to_move/1,              % +Pos
            min_to_move/1,              % +Pos
            game_over/1,                % +Pos
            noisy_moves/2,              % +Pos, -PosList
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
:- set_prolog_flag(optimise, true).

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
    Pos = c4(_, _, _, _, _, on),
    drops(Pos, 0, Succs),
    Succs \== [].

drops(Pos, C, Succs) :-
    Pos = c4(W, _, _, _, _, _),
    (   C >= W
    ->  Succs = []
    ;   C1 is C + 1,
        (   drop(Pos, C, P1)
        ->  Succs = [P1|Rest]
        ;   Succs = Rest
        ),
        drops(Pos, C1, Rest)
    ).

%!  game_over(+Pos) is semidet.
%
%   The game is over in Pos: a side has won, or the board is full (what
%   the searches ask at their depth limit, faster than moves/2).

game_over(c4(_, _, _, _, _, won(_))) :- !.
game_over(c4(W, H, X, O, _, on)) :-
    board_mask(W, H, Board),
    X \/ O =:= Board.

%!  noisy_moves(+Pos, -PosList) is det.
%
%   The moves that quiescence search looks at beyond the depth limit:
%   the drops that win at once and those that block a four the other
%   side would make there next; [] in a quiet position (and once the
%   game is over).

noisy_moves(Pos, Succs) :-
    Pos = c4(W, _, _, _, _, _),
    Last is W - 1,
    findall(Succ, ( between(0, Last, C), drop(Pos, C, Succ), noisy_drop(Pos, C, Succ) ),
            Succs).

noisy_drop(_, _, c4(_, _, _, _, _, won(_))) :- !.
noisy_drop(c4(W, H, X, O, Mover, on), C, _) :-
    other(Mover, Them),
    drop(c4(W, H, X, O, Them, on), C, c4(_, _, _, _, _, won(Them))).

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

% four(+Discs, +H): the bitboard Discs holds four in a row (up, across,
% and the two diagonals: shifts 1, H+1, H and H+2).
four(B, H) :-
    (   four_by(B, 1)
    ->  true
    ;   S is H + 1, four_by(B, S)
    ->  true
    ;   four_by(B, H)
    ->  true
    ;   S is H + 2, four_by(B, S)
    ).

four_by(B, S) :-
    M is B /\ (B >> S),
    M /\ (M >> (2 * S)) =\= 0.

%!  staticval(+Pos, -Val) is det.
%
%   1000 or -1000 once a side has won, 0 for a full board, else the
%   heuristic of the module comment.

staticval(c4(_, _, _, _, _, won(Side)), Val) :- !,
    ( Side == max -> Val = 1000 ; Val = -1000 ).
staticval(c4(W, H, X, O, _, on), Val) :-
    board_mask(W, H, Board),
    Occupied is X \/ O,
    (   Occupied =:= Board
    ->  Val = 0
    ;   Empty is Board /\ \ Occupied,
        lines(X, Empty, H, Mine),
        lines(O, Empty, H, Theirs),
        centre_mask(W, H, Centre),
        Val is Mine - Theirs + 2 * (popcount(X /\ Centre) - popcount(O /\ Centre))
    ).

% lines(+D, +Empty, +H, -Val): the lines of four cells that hold discs D
% and empty cells only, weighed 1, 4 or 16 for 1, 2 or 3 discs, counted
% for all lines at once on the bitboards: a line starting at bit I in
% direction S is the bits I, I+S, I+2S, I+3S (up 1, across H+1, the
% diagonals H and H+2); the spare bits keep lines on the board.
lines(D, Empty, H, Val) :-
    Across is H + 1, Down is H, Up is H + 2,
    line_value(D, Empty, 1, V1),
    line_value(D, Empty, Across, V2),
    line_value(D, Empty, Down, V3),
    line_value(D, Empty, Up, V4),
    Val is V1 + V2 + V3 + V4.

line_value(D, Empty, S, Val) :-
    Open is D \/ Empty,
    Lines is Open /\ (Open >> S) /\ (Open >> (2*S)) /\ (Open >> (3*S)),
    D1 is D >> S, D2 is D >> (2*S), D3 is D >> (3*S),
    % the number of discs in each line, bit-sliced: Low, Mid (2s), Top (4)
    Sum1 is D xor D1, Carry1 is D /\ D1,
    Low2 is Sum1 xor D2, High2 is Carry1 xor (Sum1 /\ D2),
    Low is Low2 xor D3, Carry3 is Low2 /\ D3,
    Mid is High2 xor Carry3, Top is High2 /\ Carry3,
    Val is popcount(Lines /\ Low /\ \ (Mid \/ Top))
         + 4 * popcount(Lines /\ Mid /\ \ (Low \/ Top))
         + 16 * popcount(Lines /\ Low /\ Mid).

% board_mask(+W, +H, -Mask): every cell of the board (W columns of H
% ones, H+1 bits apart).
board_mask(W, H, Mask) :-
    Mask is ((1 << H) - 1) * (((1 << (W * (H + 1))) - 1) // ((1 << (H + 1)) - 1)).

% centre_mask(+W, +H, -Mask): the cells of the middle column(s).
centre_mask(W, H, Mask) :-
    Mask is (((1 << H) - 1) << (((W - 1) // 2) * (H + 1)))
          \/ (((1 << H) - 1) << ((W // 2) * (H + 1))).

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
