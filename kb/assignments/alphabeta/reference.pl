% The teacher's reference solution of the alpha-beta assignment (see
% README.md): the game handed out, minimax as handed out, and what the
% students write: alphabeta/5 and the test routine compare_searches/3.
% Below them, the predicates the grader judges a student's file by.

		 /*******************************
		 *   THE GAME (HANDED OUT)      *
		 *******************************/

% Tic-tac-toe. A position is pos(Board, Mover): Board a list of nine
% cells, row by row, each x, o or e (empty); Mover (x or o) is to move.
% x is MAX. Values: 1 (x has won), -1 (o has won), 0 (a draw, or not
% over yet).

initial(pos([e,e,e, e,e,e, e,e,e], x)).

%!  moves(+Pos, -PosList) is semidet.
%
%   PosList holds the positions after each move of the side to move,
%   squares in order; fails when the game is over.

moves(pos(Board, Mover), PosList) :-
    \+ won(Board, _),
    other(Mover, Next),
    findall(pos(Board1, Next), mark(Board, Mover, Board1), PosList),
    PosList \== [].

mark([e|Cells], Mover, [Mover|Cells]).
mark([Cell|Cells], Mover, [Cell|Cells1]) :-
    mark(Cells, Mover, Cells1).

other(x, o).
other(o, x).

%!  staticval(+Pos, -Val) is det.

staticval(pos(Board, _), Val) :-
    (   won(Board, x) -> Val = 1
    ;   won(Board, o) -> Val = -1
    ;   Val = 0
    ).

won(Board, Player) :-
    line(A, B, C),
    nth1(A, Board, Player), Player \== e,
    nth1(B, Board, Player),
    nth1(C, Board, Player).

line(1,2,3). line(4,5,6). line(7,8,9).
line(1,4,7). line(2,5,8). line(3,6,9).
line(1,5,9). line(3,5,7).

max_to_move(pos(_, x)).
min_to_move(pos(_, o)).

		 /*******************************
		 *   MINIMAX (HANDED OUT)       *
		 *******************************/

% Bratko's minimax, counting the positions it visits (visit/0).

minimax(Pos, BestSucc, Val) :-
    visit,
    (   moves(Pos, PosList)
    ->  best(PosList, BestSucc, Val)
    ;   staticval(Pos, Val)
    ).

best([Pos], Pos, Val) :-
    !,
    minimax(Pos, _, Val).
best([Pos1|PosList], BestPos, BestVal) :-
    minimax(Pos1, _, Val1),
    best(PosList, Pos2, Val2),
    betterof(Pos1, Val1, Pos2, Val2, BestPos, BestVal).

betterof(Pos0, Val0, _, Val1, Pos0, Val0) :-
    min_to_move(Pos0), Val0 > Val1, !
    ;
    max_to_move(Pos0), Val0 < Val1, !.
betterof(_, _, Pos1, Val1, Pos1, Val1).

:- dynamic visited/1.

visited(0).

visit :-
    retract(visited(N)),
    N1 is N + 1,
    assertz(visited(N1)).

		 /*******************************
		 *   THE EXERCISE               *
		 *******************************/

%!  alphabeta(+Pos, +Alpha, +Beta, -GoodPos, -Val) is det.
%
%   Bratko's alpha-beta: Val is the value of Pos when it lies between
%   Alpha and Beta, GoodPos the successor that gives it.

alphabeta(Pos, Alpha, Beta, GoodPos, Val) :-
    visit,
    (   moves(Pos, PosList)
    ->  boundedbest(PosList, Alpha, Beta, GoodPos, Val)
    ;   staticval(Pos, Val)
    ).

boundedbest([Pos|PosList], Alpha, Beta, GoodPos, GoodVal) :-
    alphabeta(Pos, Alpha, Beta, _, Val),
    goodenough(PosList, Alpha, Beta, Pos, Val, GoodPos, GoodVal).

goodenough([], _, _, Pos, Val, Pos, Val) :- !.
goodenough(_, Alpha, Beta, Pos, Val, Pos, Val) :-
    min_to_move(Pos), Val > Beta, !
    ;
    max_to_move(Pos), Val < Alpha, !.
goodenough(PosList, Alpha, Beta, Pos, Val, GoodPos, GoodVal) :-
    newbounds(Alpha, Beta, Pos, Val, NewAlpha, NewBeta),
    boundedbest(PosList, NewAlpha, NewBeta, Pos1, Val1),
    betterof(Pos, Val, Pos1, Val1, GoodPos, GoodVal).

newbounds(Alpha, Beta, Pos, Val, Val, Beta) :-
    min_to_move(Pos), Val > Alpha, !.
newbounds(Alpha, Beta, Pos, Val, Alpha, Val) :-
    max_to_move(Pos), Val < Beta, !.
newbounds(Alpha, Beta, _, _, Alpha, Beta).

%!  compare_searches(+Pos, -MinimaxVisits, -AlphabetaVisits) is det.
%
%   The test routine: how many positions minimax and alpha-beta visit
%   from Pos.

compare_searches(Pos, MinimaxVisits, AlphabetaVisits) :-
    reset_visits,
    minimax(Pos, _, _),
    visited(MinimaxVisits),
    reset_visits,
    alphabeta(Pos, -2, 2, _, _),
    visited(AlphabetaVisits).

reset_visits :-
    retractall(visited(_)),
    assertz(visited(0)).

		 /*******************************
		 *   FOR THE GRADER             *
		 *******************************/

%!  alphabeta_input(-Pos, -Alpha, -Beta) is nondet.
%
%   The inputs alphabeta/5 is tried on: games under way, in a window
%   wider than the values.

alphabeta_input(Pos, -2, 2) :-
    position(Pos).

position(pos([e,x,e, e,o,e, e,e,x], o)).
position(pos([x,o,e, e,x,e, e,e,e], o)).
position(pos([x,e,e, e,x,e, e,e,o], o)).
position(pos([x,e,o, e,e,e, o,e,x], x)).
position(pos([o,x,e, x,o,e, e,e,e], x)).
position(pos([x,x,e, o,o,e, e,e,e], x)).
position(pos([x,x,e, o,o,e, e,e,e], o)).
position(pos([x,e,e, e,o,e, e,x,e], o)).

%!  alphabeta_answer(+Pos, +Alpha, +Beta, +GoodPos, +Val) is semidet.
%
%   An answer of alphabeta/5 (for a window wider than the values) is
%   right when Val is the minimax value of Pos and GoodPos a move to a
%   position of that value.

alphabeta_answer(Pos, _, _, GoodPos, Val) :-
    minimax(Pos, _, Val0),
    Val == Val0,
    moves(Pos, PosList),
    memberchk(GoodPos, PosList),
    minimax(GoodPos, _, Val).
