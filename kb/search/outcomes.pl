:- module(outcomes,
          [ leaf_value/4,               % +Game, +Pos, +Depth, -Val
            leaf_value/5,               % +Game, +Pos, +Depth, -Val, -Kind
            farther/2,                  % +Val, -Val1
            nearer/2,                   % +Val, -Val1
            value_outcome/2             % +Val, -Outcome
          ]).
:- set_prolog_flag(optimise, true).

/** <module> Values that know how a game ended

A search values a position either by a **definite outcome**, when the
game is over there (or everywhere below it), or by a **guess**, the
game's static value at the depth limit. Only the order of values
matters, and the order a course teaches is:

  - a win in fewer plies beats a win in more;
  - a loss in more plies beats a loss in fewer;
  - every definite win beats every guess, and every guess beats every
    definite loss.

Values stay plain numbers, so that the searches compare them with `>`
and `<` as before. A position where the game is over is worth

    * 1,000,000,000 when MAX has won there (the game's staticval/2 is
      positive), -1,000,000,000 when MIN has (negative), 0 for a draw;

and each ply between a position and the end moves a win or a loss one
step towards 0 (farther/2): MAX winning in N plies is worth
1,000,000,000 - N. Guesses are the game's static values, kept within
+-499,999,999, so they sit strictly between every win and every loss.
A value is position-relative (it counts plies from the position it
values, not from the root), so a transposition table can store it; a
window handed down to a successor is moved one ply back (nearer/2).
*/

won(1_000_000_000).
decided(500_000_000).               % beyond it in size: a definite outcome

%!  leaf_value(+Game, +Pos, +Depth, -Val) is det.
%
%   Val is the value of Pos, which a search does not expand: Depth is 0
%   (the depth limit) or the game is over in Pos. It is a definite
%   outcome when the game is over in Pos, else a guess: Game's static
%   value. Whether the game is over at the depth limit is the game's
%   `game_over/1` when it exports one, else that moves/2 gives no
%   successor.

leaf_value(Game, Pos, Depth, Val) :-
    leaf_value(Game, Pos, Depth, Val, _).

%!  leaf_value(+Game, +Pos, +Depth, -Val, -Kind) is det.
%
%   As leaf_value/4; Kind is `guess` when Val rests on the depth limit,
%   else `over`.

leaf_value(Game, Pos, Depth, Val, Kind) :-
    Game:staticval(Pos, Static),
    (   Depth == 0,
        \+ over(Game, Pos)
    ->  Kind = guess,
        Val is max(-499_999_999, min(499_999_999, Static))
    ;   Kind = over,
        outcome_value(Static, Val)
    ).

over(Game, Pos) :-
    (   current_predicate(Game:game_over/1)
    ->  Game:game_over(Pos)
    ;   \+ ( Game:moves(Pos, Succs), Succs \== [] )
    ).

outcome_value(Static, Val) :-
    won(Won),
    (   Static > 0 -> Val = Won
    ;   Static < 0 -> Val is -Won
    ;   Val = 0
    ).

%!  farther(+Val, -Val1) is det.
%
%   Val1 is Val seen one ply before: a win or a loss one ply farther
%   away. A guess, a draw and an infinite bound stay as they are.

farther(Val, Val1) :-
    decided(D),
    (   Val > D -> ( Val =:= inf -> Val1 = Val ; Val1 is Val - 1 )
    ;   Val < -D -> ( Val =:= -inf -> Val1 = Val ; Val1 is Val + 1 )
    ;   Val1 = Val
    ).

%!  nearer(+Val, -Val1) is det.
%
%   The inverse of farther/2: Val1 is Val seen one ply later. A search
%   hands its window Alpha..Beta down to a successor as nearer(Alpha)..
%   nearer(Beta), so that the successor's value V is inside the window
%   exactly when farther(V) is inside the parent's.

nearer(Val, Val1) :-
    decided(D),
    (   Val > D -> ( Val =:= inf -> Val1 = Val ; Val1 is Val + 1 )
    ;   Val < -D -> ( Val =:= -inf -> Val1 = Val ; Val1 is Val - 1 )
    ;   Val1 = Val
    ).

%!  value_outcome(+Val, -Outcome) is det.
%
%   Outcome says what Val means: `win(max, Plies)` or `win(min, Plies)`
%   (that side wins, the game ending Plies plies on), or `guess` (a
%   static value, or a draw).

value_outcome(Val, Outcome) :-
    won(Won),
    decided(D),
    (   Val > D, Val =\= inf -> Plies is Won - Val, Outcome = win(max, Plies)
    ;   Val < -D, Val =\= -inf -> Plies is Won + Val, Outcome = win(min, Plies)
    ;   Outcome = guess
    ).
