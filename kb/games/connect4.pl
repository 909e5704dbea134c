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
    landing(Pos, Landing),
    Landing =\= 0,
    drops(Landing, Pos, Succs).

% drops(+Landing, +Pos, -Succs): a disc dropped on each cell of Landing,
% lowest bit (leftmost column) first.
drops(0, _, Succs) :- !,
    Succs = [].
drops(Landing, Pos, [Succ|Succs]) :-
    Disc is Landing /\ -Landing,
    placed(Pos, Disc, Succ),
    Rest is Landing xor Disc,
    drops(Rest, Pos, Succs).

% landing(+Pos, -Landing): the cells where a disc dropped in each column
% that is not full would land (0 once the game is over): the lowest
% empty cell of each column is the bottom cell added to the column's
% discs, and the spare bit of a full one is off the board.
landing(c4(W, H, X, O, _, Status), Landing) :-
    (   Status == on
    ->  geometry(W, H, Board, Bottom, _),
        Landing is ((X \/ O) + Bottom) /\ Board
    ;   Landing = 0
    ).

%!  game_over(+Pos) is semidet.
%
%   The game is over in Pos: a side has won, or the board is full (what
%   the searches ask at their depth limit, faster than moves/2).

game_over(c4(_, _, _, _, _, won(_))) :- !.
game_over(c4(W, H, X, O, _, on)) :-
    geometry(W, H, Board, _, _),
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
%   fails when the column is full or off the board, or the game is over.

drop(Pos, C, Pos1) :-
    landing(Pos, Landing),
    Pos = c4(_, H, _, _, _, _),
    Disc is Landing /\ (((1 << H) - 1) << (C * (H + 1))),
    Disc =\= 0,
    placed(Pos, Disc, Pos1).

% placed(+Pos, +Disc, -Pos1): Pos1 is Pos after the side to move puts a
% disc on the cell Disc (a bitboard of one bit).
placed(c4(W, H, X, O, Mover, on), Disc, c4(W, H, X1, O1, Other, Status)) :-
    (   Mover == max
    ->  X1 is X \/ Disc, O1 = O, Mine = X1, Other = min
    ;   O1 is O \/ Disc, X1 = X, Mine = O1, Other = max
    ),
    (   four(Mine, H) -> Status = won(Mover) ; Status = on ).

% four(+Discs, +H): the bitboard Discs holds four in a row (up, across,
% or along either diagonal).
four(B, H) :-
    Across is H + 1, Diagonal is H + 2,
    M1 is B /\ (B >> 1), M2 is B /\ (B >> Across),
    M3 is B /\ (B >> H), M4 is B /\ (B >> Diagonal),
    (M1 /\ (M1 >> 2)) \/ (M2 /\ (M2 >> (2 * Across)))
        \/ (M3 /\ (M3 >> (2 * H))) \/ (M4 /\ (M4 >> (2 * Diagonal))) =\= 0.

%!  staticval(+Pos, -Val) is det.
%
%   1000 or -1000 once a side has won, 0 for a full board, else the
%   heuristic of the module comment.

staticval(c4(_, _, _, _, _, won(Side)), Val) :- !,
    ( Side == max -> Val = 1000 ; Val = -1000 ).
staticval(c4(W, H, X, O, _, on), Val) :-
    geometry(W, H, Board, _, Centre),
    Occupied is X \/ O,
    (   Occupied =:= Board
    ->  Val = 0
    ;   Empty is Board /\ \ Occupied,
        Across is H + 1, Diagonal is H + 2,
        lines(1, X, O, Empty, V1),
        lines(Across, X, O, Empty, V2),
        lines(H, X, O, Empty, V3),
        lines(Diagonal, X, O, Empty, V4),
        Val is V1 + V2 + V3 + V4 + 2 * (popcount(X /\ Centre) - popcount(O /\ Centre))
    ).

% lines(+Step, +X, +O, +Empty, -Val): MAX's lines of four cells in one
% direction that hold MAX's discs and empty cells only, weighed 1, 4 or
% 16 for 1, 2 or 3 discs, minus MIN's, counted for all lines at once on
% the bitboards. A line starting at bit I in the direction of step S is
% the bits I, I+S, I+2S, I+3S (up 1, across H+1, the diagonals H and
% H+2); the spare bits keep lines on the board. The empty cells of each
% line are counted once for both sides: a line open to one side holds
% 4 - Empties of its discs.
lines(S, X, O, Empty, Val) :-
    S2 is 2 * S, S3 is 3 * S,
    E1 is Empty >> S, E2 is Empty >> S2, E3 is Empty >> S3,
    % the number of empty cells in each line, bit-sliced: Low (1s), Mid
    % (2s); lines of 4 empty cells hold no disc and are worth nothing
    Sum1 is Empty xor E1, Carry1 is Empty /\ E1,
    Low2 is Sum1 xor E2, High2 is Carry1 xor (Sum1 /\ E2),
    Low is Low2 xor E3, Mid is High2 xor (Low2 /\ E3),
    OpenX is X \/ Empty,
    LinesX is OpenX /\ (OpenX >> S) /\ (OpenX >> S2) /\ (OpenX >> S3),
    OpenO is O \/ Empty,
    LinesO is OpenO /\ (OpenO >> S) /\ (OpenO >> S2) /\ (OpenO >> S3),
    % Low holds the lines of 1 or 3 empty cells, Mid of 2 or 3, both of
    % 3: with N3, N2 and N1 lines of 3, 2 and 1 discs, 16 N3 + 4 N2 + N1
    % is 16 (N3 + N1) + 4 (N2 + N1) - 19 N1
    LowMid is Low /\ Mid,
    Val is 16 * (popcount(LinesX /\ Low) - popcount(LinesO /\ Low))
         + 4 * (popcount(LinesX /\ Mid) - popcount(LinesO /\ Mid))
         - 19 * (popcount(LinesX /\ LowMid) - popcount(LinesO /\ LowMid)).

% geometry(?W, ?H, ?Board, ?Bottom, ?Centre): the cells of a W x H
% board (W columns of H ones, H+1 bits apart), of its bottom row and of
% its middle column(s): facts for every size, computed when the file is
% loaded.
term_expansion(geometry, Facts) :-
    findall(geometry(W, H, Board, Bottom, Centre),
            ( between(1, 7, W), between(1, 6, H),
              Bottom is ((1 << (W * (H + 1))) - 1) // ((1 << (H + 1)) - 1),
              Board is ((1 << H) - 1) * Bottom,
              Centre is (((1 << H) - 1) << (((W - 1) // 2) * (H + 1)))
                      \/ (((1 << H) - 1) << ((W // 2) * (H + 1))) ),
            Facts).

geometry.

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
