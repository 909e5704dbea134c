:- module(tictactoe,
          [ initial/1,                  % -Pos
            moves/2,                    % +Pos, -PosList
            staticval/2,                % +Pos, -Val
            max_to_move/1,              % +Pos
            min_to_move/1,              % +Pos
            winner/2,                   % +Pos, -Player
            full/1,                     % +Pos
            line/1,                     % +Mask
            free_bits/2                 % +Taken, -Bits
          ]).

/** <module> Tic-tac-toe for Bratko's game-tree searches

A position is ttt(X, O, Mover): X and O are 9-bit masks of the squares
taken by each player, Mover (x or o) is the player to move. Square N
(1..9, row by row from the top left) is bit N-1. X moves first and is
MAX.

Values are for X: 100 for a win, -100 for a loss, 0 for a draw; a
position that is not over is estimated by the lines still open to X
less those still open to O (-8..8).
*/

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
