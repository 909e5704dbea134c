% Bob: tic-tac-toe and minimax as handed out, and Bratko's alpha-beta.

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

% The test routine: the positions each search visits from Pos.
compare_searches(Pos, MinimaxVisits, AlphabetaVisits) :-
    reset_visits,
    minimax(Pos, _, _),
    visited(MinimaxVisits),
    alphabeta(Pos, -2, 2, _, _),
    visited(AlphabetaVisits).

reset_visits :-
    retractall(visited(_)),
    assertz(visited(0)).
