% Ada: tic-tac-toe as handed out, minimax as handed out, and alpha-beta
% written as a fold over the moves, cutting as soon as the window closes.

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

% alphabeta(+Pos, +Alpha, +Beta, -GoodPos, -Val)
alphabeta(Pos, Alpha, Beta, GoodPos, Val) :-
    visit,
    (   moves(Pos, [First|Rest])
    ->  ( max_to_move(Pos) -> Side = max ; Side = min ),
        alphabeta(First, Alpha, Beta, _, Val0),
        best_of(Rest, Side, Alpha, Beta, First, Val0, GoodPos, Val)
    ;   staticval(Pos, Val)
    ).

% best_of(+Rest, +Side, +Alpha, +Beta, +Best0, +Val0, -Best, -Val)
best_of([], _, _, _, Best, Val, Best, Val).
best_of([Pos|Rest], max, Alpha, Beta, Best0, Val0, Best, Val) :-
    (   Val0 >= Beta
    ->  Best = Best0, Val = Val0
    ;   Alpha1 is max(Alpha, Val0),
        alphabeta(Pos, Alpha1, Beta, _, Val1),
        (   Val1 > Val0
        ->  best_of(Rest, max, Alpha1, Beta, Pos, Val1, Best, Val)
        ;   best_of(Rest, max, Alpha1, Beta, Best0, Val0, Best, Val)
        )
    ).
best_of([Pos|Rest], min, Alpha, Beta, Best0, Val0, Best, Val) :-
    (   Val0 =< Alpha
    ->  Best = Best0, Val = Val0
    ;   Beta1 is min(Beta, Val0),
        alphabeta(Pos, Alpha, Beta1, _, Val1),
        (   Val1 < Val0
        ->  best_of(Rest, min, Alpha, Beta1, Pos, Val1, Best, Val)
        ;   best_of(Rest, min, Alpha, Beta1, Best0, Val0, Best, Val)
        )
    ).

% The test routine: the positions each search visits from Pos.
compare_searches(Pos, MinimaxVisits, AlphabetaVisits) :-
    retractall(visited(_)),
    assertz(visited(0)),
    minimax(Pos, _, _),
    visited(MinimaxVisits),
    retractall(visited(_)),
    assertz(visited(0)),
    alphabeta(Pos, -2, 2, _, _),
    visited(AlphabetaVisits).
