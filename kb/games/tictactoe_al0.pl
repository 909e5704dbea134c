:- module(tictactoe_al0,
          [ initial/1,                  % -Pos
            start_set/1,                % ?Name
            start/2,                    % +Name, -Pos
            success/1,                  % ?Result
            parse_position/2,           % +Text, -Pos
            position_text/2,            % +Pos, -Text
            show_position/2,            % +Pos, -Text
            move_refusal/3,             % +Pos, +Text, -Reason
            legalmove/3,                % +Pos, ?Move, -Pos1
            to_move/2,                  % +Pos, -Side
            depth/2,                    % +Pos, -Depth
            reset_depth/2,              % +Pos, -Pos0
            outcome/2,                  % +Pos, -Result
            move_text/3,                % +Pos, +Move, -Text
            move_constraint/1,          % ?Name
            legal/3,                    % +Pos, ?Move, -Pos1
            we_won/1,                   % +Pos
            we_threaten/1,              % +Pos
            they_threaten/1,            % +Pos
            we_fork/1,                  % +Pos
            fork_safe/1,                % +Pos
            took_centre/2,              % +Pos, +Root
            took_opposite_corner/2,     % +Pos, +Root
            took_corner/2,              % +Pos, +Root
            took_side/2,                % +Pos, +Root
            moved/2                     % +Pos, +Root
          ]).

/** <module> Tic-tac-toe as an AL0 domain, for advice tables

A position is t(Us, Them, ToMove, Depth): Us and Them are 9-bit masks of
the squares our marks and theirs occupy (square N, 1..9 row by row from
the top left, is bit N-1), ToMove is `us` or `them`, Depth the AL0 depth
counter. A move is the number of the square played.

The goal predicates describe the position for the side that just moved
(us, in a better-goal after our move): threats are empty squares that
complete a line of two marks.
*/

:- use_module(tictactoe, [line/1, free_bits/2, text_board/3, board_text/3, draw_board/3]).

%!  initial(-Pos) is det.
%
%   The empty board, us to move, depth 0.

initial(t(0, 0, us, 0)).

%!  start_set(?Name) is nondet.
%
%   The sets of start positions for verification: `both-seats` (the
%   default), `first-seat` and `second-seat`.

start_set('both-seats').
start_set('first-seat').
start_set('second-seat').

%!  start(+Name, -Pos) is nondet.
%
%   The positions where we first move: from the first seat the empty
%   board; from the second, the board after each first move of theirs;
%   from both seats, all of these.

start('both-seats', Pos) :-
    seat_start(_, Pos).
start('first-seat', Pos) :-
    seat_start(first, Pos).
start('second-seat', Pos) :-
    seat_start(second, Pos).

seat_start(first, Pos) :-
    initial(Pos).
seat_start(second, t(0, T, us, 0)) :-
    between(0, 8, I),
    T is 1 << I.

%!  success(?Result) is nondet.
%
%   A table that never loses succeeds: a win or a draw.

success(won).
success(draw).

%!  parse_position(+Text, -Pos) is semidet.
%
%   Pos is the position written as 9 squares row by row (`x`, `o` or
%   `.`, e.g. "x...o...."), with whoever is to move as us (X moves
%   first). Raises the same error as tictactoe:text_board/3 for a
%   malformed or impossible board.

parse_position(Text, t(Us, Them, us, 0)) :-
    text_board(Text, Xs, Os),
    (   popcount(Xs) =:= popcount(Os)
    ->  Us = Xs, Them = Os
    ;   Us = Os, Them = Xs
    ).

%!  position_text(+Pos, -Text) is det.
%
%   Text is the position's 9 squares (the form parse_position/2 reads).

position_text(Pos, Text) :-
    marks(Pos, Xs, Os),
    board_text(Xs, Os, Text).

%!  show_position(+Pos, -Text) is det.
%
%   Text is the board drawn for people, free squares by number.

show_position(Pos, Text) :-
    marks(Pos, Xs, Os),
    draw_board(Xs, Os, Text).

%!  move_refusal(+Pos, +Text, -Reason) is det.
%
%   Why a person's Text names no legal move at Pos: not a square, or a
%   square already taken.

move_refusal(t(U, T, _, _), Text, Reason) :-
    (   catch(number_string(N, Text), _, fail), integer(N), between(1, 9, N)
    ->  Bit is 1 << (N - 1),
        (   (U \/ T) /\ Bit =\= 0
        ->  format(string(Reason), "square ~d is taken", [N])
        ;   format(string(Reason), "square ~d cannot be played now", [N])
        )
    ;   format(string(Reason), "'~w' is not a square: type a number from 1 to 9", [Text])
    ).

% marks(+Pos, -Xs, -Os): X moved first, so X has more marks, or as many
% as O with X to move.
marks(t(U, T, Side, _), Xs, Os) :-
    Nu is popcount(U), Nt is popcount(T),
    (   ( Nu > Nt ; Nu =:= Nt, Side == us )
    ->  Xs = U, Os = T
    ;   Xs = T, Os = U
    ).

%!  to_move(+Pos, -Side) is det.
%
%   Side (us or them) is to move in Pos.

to_move(t(_, _, Side, _), Side).

%!  depth(+Pos, -Depth) is det.
%
%   Depth is the AL0 depth counter of Pos.

depth(t(_, _, _, Depth), Depth).

%!  reset_depth(+Pos, -Pos0) is det.
%
%   Pos0 is Pos with the depth counter at 0.

reset_depth(t(U, T, S, _), t(U, T, S, 0)).

%!  outcome(+Pos, -Result) is semidet.
%
%   The game is over at Pos: Result is `won` (we have a line), `lost`
%   (they have one) or `draw` (the board is full).

outcome(t(U, _, _, _), won) :- line(U), !.
outcome(t(_, T, _, _), lost) :- line(T), !.
outcome(t(U, T, _, _), draw) :- U \/ T =:= 511.

%!  legalmove(+Pos, ?Move, -Pos1) is nondet.
%
%   Move (a square 1..9) is free in Pos and the game is not over; Pos1
%   follows with the other side to move and the depth counter plus 1.

legalmove(Pos, Move, Pos1) :-
    \+ outcome(Pos, _),
    Pos = t(U, T, Side, D),
    Taken is U \/ T,
    free_bits(Taken, Bits),
    member(Bit, Bits),
    Move is msb(Bit) + 1,
    D1 is D + 1,
    (   Side == us
    ->  U1 is U \/ Bit, Pos1 = t(U1, T, them, D1)
    ;   T1 is T \/ Bit, Pos1 = t(U, T1, us, D1)
    ).

%!  move_text(+Pos, +Move, -Text) is det.
%
%   Text is the square's number as an atom.

move_text(_, Move, Text) :-
    atom_number(Text, Move).

%!  move_constraint(?Name) is nondet.
%
%   The move constraints tables may name: `legal` (every legal move).

move_constraint(legal).

%!  legal(+Pos, ?Move, -Pos1) is nondet.
%
%   The move constraint admitting every legal move.

legal(Pos, Move, Pos1) :-
    legalmove(Pos, Move, Pos1).

%!  we_won(+Pos) is semidet.
%
%   We have three in a line.

we_won(t(U, _, _, _)) :- line(U).

%!  we_threaten(+Pos) is semidet.
%
%   We could complete a line on an empty square.

we_threaten(t(U, T, _, _)) :- threats(U, T, N), N > 0.

%!  they_threaten(+Pos) is semidet.
%
%   They could complete a line on an empty square.

they_threaten(t(U, T, _, _)) :- threats(T, U, N), N > 0.

%!  we_fork(+Pos) is semidet.
%
%   We threaten to complete lines on two or more empty squares: they can
%   block only one.

we_fork(t(U, T, _, _)) :- threats(U, T, N), N >= 2.

%!  fork_safe(+Pos) is semidet.
%
%   With them to move, no reply of theirs leaves them two threats at
%   once. When we threaten, only the reply that blocks us counts (any
%   other loses at once); when we threaten twice, nothing counts.

fork_safe(t(U, T, them, _)) :-
    threat_squares(U, T, Ours),
    (   Ours = []
    ->  Taken is U \/ T,
        free_bits(Taken, Replies)
    ;   Ours = [Block]
    ->  Replies = [Block]
    ;   Replies = []
    ),
    \+ ( member(Bit, Replies),
         T1 is T \/ Bit,
         threats(T1, U, N), N >= 2 ).

%!  took_centre(+Pos, +Root) is semidet.
%
%   The centre (square 5) is ours now and was free at Root.

took_centre(t(U, _, _, _), t(U0, T0, _, _)) :-
    took(U, U0, T0, 0b000010000).

%!  took_opposite_corner(+Pos, +Root) is semidet.
%
%   We took a corner, free at Root, whose opposite corner is theirs.

took_opposite_corner(t(U, T, _, _), t(U0, T0, _, _)) :-
    opposite(C, O),
    took(U, U0, T0, C),
    T /\ O =\= 0.

%!  took_corner(+Pos, +Root) is semidet.
%
%   We took a corner that was free at Root.

took_corner(t(U, _, _, _), t(U0, T0, _, _)) :-
    opposite(C, _),
    took(U, U0, T0, C).

%!  took_side(+Pos, +Root) is semidet.
%
%   We took the middle square of a side that was free at Root.

took_side(t(U, _, _, _), t(U0, T0, _, _)) :-
    member(S, [0b000000010, 0b000001000, 0b000100000, 0b010000000]),
    took(U, U0, T0, S).

%!  moved(+Pos, +Root) is semidet.
%
%   We have played at least one mark since Root.

moved(t(U, _, _, _), t(U0, _, _, _)) :- U =\= U0.

took(U, U0, T0, Square) :-
    U /\ Square =\= 0,
    (U0 \/ T0) /\ Square =:= 0.

opposite(0b000000001, 0b100000000).
opposite(0b100000000, 0b000000001).
opposite(0b000000100, 0b001000000).
opposite(0b001000000, 0b000000100).

% threat_squares(+Mine, +Theirs, -Bits): empty squares completing a line
% of two of Mine.
threat_squares(Mine, Theirs, Bits) :-
    Taken is Mine \/ Theirs,
    free_bits(Taken, Free),
    include(completes(Mine), Free, Bits).

completes(Mine, Bit) :-
    M is Mine \/ Bit,
    line(M).

threats(Mine, Theirs, N) :-
    threat_squares(Mine, Theirs, Bits),
    length(Bits, N).
