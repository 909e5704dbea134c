:- module(tictactoe,
          [ initial/1,                  % -Pos
            moves/2,                    % +Pos, -PosList
            staticval/2,                % +Pos, -Val
            max_to_move/1,              % +Pos
            min_to_move/1,              % +Pos
            winner/2,                   % +Pos, -Player
            full/1,                     % +Pos
            line/1,                     % +Mask
            free_bits/2,                % +Taken, -Bits
            game_description/1,         % -Text
            parse_position/2,           % +Text, -Pos
            position_text/2,            % +Pos, -Text
            show_position/2,            % +Pos, -Text
            move_label/3,               % +Pos, +Pos1, -Text
            read_move/3,                % +Pos, +Text, -Pos1
            move_prompt/2,              % +Pos, -Text
            text_board/3,               % +Text, -Xs, -Os
            board_text/3,               % +Xs, +Os, -Text
            draw_board/3                % +Xs, +Os, -Text
          ]).

/** <module> Tic-tac-toe for Bratko's game-tree searches

A position is ttt(X, O, Mover): X and O are 9-bit masks of the squares
taken by each player, Mover (x or o) is the player to move. Square N
(1..9, row by row from the top left) is bit N-1. X moves first and is
MAX.

Values are for X: 100 for a win, -100 for a loss, 0 for a draw; a
position that is not over is estimated by the lines still open to X
less those still open to O (-8..8).

People write a position as its 9 squares row by row, each `x`, `o` or
`.` (`-` and `_` also mean an empty square; `/` may separate the rows),
and a move as the number of the square.
*/

:- use_module('../search/game_io', [refuse/4, quoted/2, trimmed/2, typed_number/2]).

%!  initial(-Pos) is det.
%
%   Pos is the empty board with X to move.

initial(ttt(0, 0, x)).

%!  max_to_move(+Pos) is semidet.
%
%   X (MAX) is to move in Pos.

max_to_move(ttt(_, _, x)).

%!  min_to_move(+Pos) is semidet.
%
%   O (MIN) is to move in Pos.

min_to_move(ttt(_, _, o)).

%!  moves(+Pos, -PosList) is semidet.
%
%   PosList holds the positions after each move in Pos, squares in
%   increasing order. Fails when the game is over (a line is complete
%   or the board is full).

moves(ttt(X, O, Mover), Succs) :-
    Taken is X \/ O,
    \+ just_won(Mover, X, O),
    free_bits(Taken, Bits),
    Bits \== [],
    successors(Bits, X, O, Mover, Succs).

% Only the player who just moved can have completed a line.
just_won(x, _, O) :- line(O).
just_won(o, X, _) :- line(X).

successors([], _, _, _, []).
successors([Bit|Bits], X, O, Mover, [Succ|Succs]) :-
    play(Mover, Bit, X, O, Succ),
    successors(Bits, X, O, Mover, Succs).

play(x, Bit, X, O, ttt(X1, O, o)) :- X1 is X \/ Bit.
play(o, Bit, X, O, ttt(X, O1, x)) :- O1 is O \/ Bit.

%!  winner(+Pos, -Player) is semidet.
%
%   Player (x or o) has three in a line in Pos.

winner(ttt(X, _, _), x) :- line(X), !.
winner(ttt(_, O, _), o) :- line(O).

%!  full(+Pos) is semidet.
%
%   Every square of Pos is taken.

full(ttt(X, O, _)) :-
    X \/ O =:= 511.

%!  line(+Mask) is semidet.
%
%   The 9-bit Mask holds a complete line.

%!  free_bits(+Taken, -Bits) is det.
%
%   Bits lists the bits (1 << Square-1) of the squares not in the 9-bit
%   mask Taken, lowest first.

% Both tables are computed when the file is compiled.
term_expansion(tables, Clauses) :-
    findall(line(M), (between(0, 511, M), has_line(M)), Lines),
    findall(free_bits(M, Bits),
            ( between(0, 511, M),
              findall(B, (between(0, 8, I), B is 1 << I, M /\ B =:= 0), Bits) ),
            Frees),
    append(Lines, Frees, Clauses).

has_line(Mask) :-
    line_mask(L),
    Mask /\ L =:= L,
    !.


line_mask(0b000000111).
line_mask(0b000111000).
line_mask(0b111000000).
line_mask(0b001001001).
line_mask(0b010010010).
line_mask(0b100100100).
line_mask(0b100010001).
line_mask(0b001010100).

%!  staticval(+Pos, -Val) is det.
%
%   Val is 100 when X has won, -100 when O has, 0 for a full board, and
%   otherwise the number of lines still open to X less those open to O.

staticval(ttt(X, _, _), 100) :- line(X), !.
staticval(ttt(_, O, _), -100) :- line(O), !.
staticval(ttt(X, O, _), 0) :- X \/ O =:= 511, !.
staticval(ttt(X, O, _), Val) :-
    aggregate_all(count, (line_mask(L), L /\ O =:= 0), OpenX),
    aggregate_all(count, (line_mask(L), L /\ X =:= 0), OpenO),
    Val is OpenX - OpenO.

tables.

%!  game_description(-Text) is det.
%
%   Text describes the game in one line.

game_description("Tic-tac-toe: X moves first; three in a line wins").

%!  parse_position(+Text, -Pos) is det.
%
%   Pos is the position written as Text (see text_board/3); the player
%   to move follows from the counts of marks. Throws
%   error(domain_error(position_text, Text), context(_, Message)) when
%   Text is not a position.

parse_position(Text, ttt(Xs, Os, Mover)) :-
    text_board(Text, Xs, Os),
    (   popcount(Xs) =:= popcount(Os) -> Mover = x ; Mover = o ).

%!  text_board(+Text, -Xs, -Os) is det.
%
%   Xs and Os are the 9-bit masks of the squares X and O hold in the
%   position written as Text: 9 squares row by row, each `x`, `o`, `.`,
%   `-` or `_` (in either case), the rows optionally separated by `/`.
%   Throws error(domain_error(position_text, Text), context(_, Message))
%   when Text is malformed, or impossible (X moves first, so X has as
%   many marks as O or one more).

text_board(Text, Xs, Os) :-
    text_cells(Text, Cells),
    cells_mask(Cells, x, Xs),
    cells_mask(Cells, o, Os),
    NX is popcount(Xs),
    NO is popcount(Os),
    (   NX >= NO, NX =< NO + 1
    ->  true
    ;   quoted(Text, Quoted),
        refuse(position_text, Text,
               "impossible tic-tac-toe position ~w: X moves first, so X has as many marks as O or one more (here X ~d, O ~d)",
               [Quoted, NX, NO])
    ).

text_cells(Text, Cells) :-
    trimmed(Text, Trimmed),
    string_lower(Trimmed, Lower),
    string_chars(Lower, Chars),
    exclude(==('/'), Chars, Cells),
    length(Cells, 9),
    maplist(cell, Cells),
    !.
text_cells(Text, _) :-
    quoted(Text, Quoted),
    refuse(position_text, Text,
           "malformed tic-tac-toe position ~w: give 9 squares row by row, each x, o or . (e.g. x...o....)",
           [Quoted]).

cell(x).
cell(o).
cell('.').
cell('-').
cell('_').

cells_mask(Cells, Mark, Mask) :-
    aggregate_all(sum(1 << I), nth0(I, Cells, Mark), Mask).

%!  position_text(+Pos, -Text) is det.
%
%   Text is Pos written as parse_position/2 reads it: `x...o....`.

position_text(ttt(Xs, Os, _), Text) :-
    board_text(Xs, Os, Text).

%!  board_text(+Xs, +Os, -Text) is det.
%
%   Text is the board with X on the squares of the 9-bit mask Xs and O
%   on those of Os, 9 characters row by row: `x...o....`.

board_text(Xs, Os, Text) :-
    findall(Char, ( between(1, 9, Square),
                    square_mark(Xs, Os, Square, Mark),
                    mark_char(Mark, Char) ),
            Chars),
    string_chars(Text, Chars).

mark_char(x, x).
mark_char(o, o).
mark_char(free, '.').

%!  draw_board(+Xs, +Os, -Text) is det.
%
%   Text draws the board for people, free squares shown by number:
%
%   ==
%    X | 2 | 3
%   ---+---+---
%    4 | O | 6
%   ---+---+---
%    7 | 8 | 9
%   ==

draw_board(Xs, Os, Text) :-
    findall(Shown, ( between(1, 9, Square),
                     square_mark(Xs, Os, Square, Mark),
                     mark_shown(Mark, Square, Shown) ),
            Squares),
    format(string(Text),
           " ~w | ~w | ~w\n---+---+---\n ~w | ~w | ~w\n---+---+---\n ~w | ~w | ~w",
           Squares).

mark_shown(x, _, 'X').
mark_shown(o, _, 'O').
mark_shown(free, Square, Square).

% square_mark(+Xs, +Os, +Square, -Mark): x, o or free.
square_mark(Xs, Os, Square, Mark) :-
    Bit is 1 << (Square - 1),
    (   Xs /\ Bit =\= 0 -> Mark = x
    ;   Os /\ Bit =\= 0 -> Mark = o
    ;   Mark = free
    ).

%!  show_position(+Pos, -Text) is det.
%
%   Text is Pos drawn for people (see draw_board/3).

show_position(ttt(Xs, Os, _), Text) :-
    draw_board(Xs, Os, Text).

%!  move_label(+Pos, +Pos1, -Text) is det.
%
%   Text names the move from Pos to Pos1: `X on 5`.

move_label(ttt(Xs0, Os0, _), ttt(Xs1, Os1, _), Text) :-
    (   Xs1 =\= Xs0
    ->  Mark = 'X', Bit is Xs1 xor Xs0
    ;   Mark = 'O', Bit is Os1 xor Os0
    ),
    Square is msb(Bit) + 1,
    format(string(Text), "~w on ~d", [Mark, Square]).

%!  read_move(+Pos, +Text, -Pos1) is det.
%
%   Pos1 follows Pos when the player to move marks the square whose
%   number (1..9) is Text. Throws error(domain_error(move_text, Text),
%   context(_, Message)) when Text is not a free square.

read_move(Pos, Text, Pos1) :-
    typed_square(Text, Square),
    Bit is 1 << (Square - 1),
    (   \+ taken(Pos, Bit)
    ->  true
    ;   refuse(move_text, Text, "square ~d is taken", [Square])
    ),
    (   moves(Pos, Succs),
        member(Pos1, Succs),
        taken(Pos1, Bit)
    ->  true
    ;   refuse(move_text, Text, "square ~d cannot be played now", [Square])
    ).

typed_square(Text, Square) :-
    typed_number(Text, Square),
    between(1, 9, Square),
    !.
typed_square(Text, _) :-
    trimmed(Text, Typed),
    quoted(Typed, Quoted),
    refuse(move_text, Text, "~w is not a square: type a number from 1 to 9", [Quoted]).

taken(ttt(Xs, Os, _), Bit) :-
    (Xs \/ Os) /\ Bit =\= 0.

%!  move_prompt(+Pos, -Text) is det.
%
%   Text lists the free squares of Pos: `free squares: 1 2 3`.

move_prompt(ttt(Xs, Os, _), Text) :-
    findall(Square, ( between(1, 9, Square),
                      square_mark(Xs, Os, Square, free) ),
            Free),
    atomic_list_concat(Free, ' ', Squares),
    format(string(Text), "free squares: ~w", [Squares]).
