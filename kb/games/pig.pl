:- module(pig,
          [ initial/1,                  % -Pos
            moves/2,                    % +Pos, -PosList
            chance_moves/2,             % +Pos, -Outcomes
            staticval/2,                % +Pos, -Val
            max_to_move/1,              % +Pos
            min_to_move/1,              % +Pos
            game_description/1,         % -Text
            parse_position/2,           % +Text, -Pos
            position_text/2,            % +Pos, -Text
            show_position/2,            % +Pos, -Text
            move_label/3,               % +Pos, +Pos1, -Text
            read_move/3,                % +Pos, +Text, -Pos1
            move_prompt/2               % +Pos, -Text
          ]).
:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(pairs)).
:- use_module('../search/game_io', [refuse/4, quoted/2, trimmed/2, typed_number/2]).

/** <module> Pig, the dice game, for searches of games with chance

Two players, MAX and MIN, take turns; MAX begins.  On a turn the mover
rolls a die as often as they like, building a turn total: a 1 loses the
turn total and passes the turn; 2 to 6 add to it.  Instead of rolling,
the mover may hold (once the turn total is not 0): the turn total is
added to their score and the turn passes.  Whoever's score plus turn
total reaches the target wins at once.

A position is `pig(Target, MaxScore, MinScore, Turn, Mover, Phase)`:

  - Target is the score to reach (10 in initial/1);
  - MaxScore and MinScore are the banked scores;
  - Turn is the mover's turn total;
  - Mover is `max` or `min`;
  - Phase is `choosing` (a decision position: the mover rolls or holds)
    or `rolling` (a chance position: the die is about to be rolled).

A roll that reaches the target is banked at once and ends the game: the
game is over exactly when a score is at least Target (the winner's; the
turn total is then 0 and the winner is still the mover).  Holding with a
turn total of 0 is not a move, so a turn starts with a roll.

The game is played by searches that know chance (kb/search/chance.pl):
chance_moves/2 gives the outcomes of a roll with their probabilities
(1/6 each, as floats).  moves/2 of a chance position gives the same
outcomes without them, so that the linter and a person playing with a
real die (read_move/3 takes the number it shows) reach every position;
a search that ignores chance_moves/2 would take the die for the
mover's choice.

Values are for MAX: 1 when MAX has won, -1 when MIN has.  Elsewhere
staticval/2 guesses from what each side still needs to reach the
target, counting the mover's turn total as if it were banked:

    (NeedMin - NeedMax) / (NeedMin + NeedMax)

a float strictly between -1 and 1 (both needs are at least 1), 0.0 when
the needs are equal and nearer 1 the less MAX needs compared with MIN.

People write a position as comma-separated parts, each optional:
`target 10, max 3, min 5, turn 4, max to move` (defaults target 10,
scores and turn total 0, `max to move`); `max rolls` instead of `max to
move` says the die is about to be rolled.  position_text/2 writes all
five parts.  A move is `roll` or `hold` (`r`, `h`), and at a chance
position the number the die shows (1 to 6).
*/

%!  initial(-Pos) is det.
%
%   Pos is the start of a game to 10: no points, MAX to move.

initial(pig(10, 0, 0, 0, max, choosing)).

%!  max_to_move(+Pos) is semidet.
%
%   MAX is to move (or to roll) in Pos.

max_to_move(pig(_, _, _, _, max, _)).

%!  min_to_move(+Pos) is semidet.
%
%   MIN is to move (or to roll) in Pos.

min_to_move(pig(_, _, _, _, min, _)).

%!  moves(+Pos, -PosList) is semidet.
%
%   At a decision position of a game not over, PosList is the position
%   after a roll (the die about to be rolled) and, when the turn total
%   is not 0, the position after holding, in that order.  At a chance
%   position, PosList is the outcomes of the roll (as chance_moves/2
%   gives them, without the probabilities).  Fails when the game is
%   over.

moves(Pos, Succs) :-
    Pos = pig(_, _, _, _, _, Phase),
    phase_moves(Phase, Pos, Succs).

phase_moves(choosing, Pos, Succs) :-
    \+ over(Pos),
    Pos = pig(T, M, N, K, Mover, choosing),
    Roll = pig(T, M, N, K, Mover, rolling),
    (   K =:= 0
    ->  Succs = [Roll]
    ;   held(Pos, Hold),
        Succs = [Roll, Hold]
    ).
phase_moves(rolling, Pos, Succs) :-
    chance_moves(Pos, Outcomes),
    pairs_values(Outcomes, Succs).

% held(+Pos, -Pos1): the mover banks the turn total; the turn passes.
held(pig(T, M, N, K, Mover, _), Pos1) :-
    held(Mover, T, M, N, K, Pos1).

held(max, T, M, N, K, pig(T, M1, N, 0, min, choosing)) :-
    M1 is M + K.
held(min, T, M, N, K, pig(T, M, N1, 0, max, choosing)) :-
    N1 is N + K.

% over(+Pos): a side has reached the target.
over(pig(T, M, N, _, _, _)) :-
    (   M >= T -> true ; N >= T ).

%!  chance_moves(+Pos, -Outcomes) is semidet.
%
%   Pos is a chance position (the die is about to be rolled) and
%   Outcomes the positions after each face, 1 to 6, as `Prob-Pos1`
%   with Prob 1/6 (a float).  Fails at a decision position.

chance_moves(Pos, Outcomes) :-
    Pos = pig(_, _, _, _, _, rolling),
    maplist(face_outcome(Pos), [1, 2, 3, 4, 5, 6], Outcomes).

face_outcome(Pos, Face, Prob-Pos1) :-
    Prob is 1 / 6.0,
    rolled(Pos, Face, Pos1).

% rolled(+Pos, +Face, -Pos1): the die shows Face at the chance position
% Pos.  A 1 loses the turn total and passes the turn; a roll that
% reaches the target is banked and ends the game.
rolled(pig(T, M, N, K, Mover, _), Face, Pos1) :-
    (   Face =:= 1
    ->  other(Mover, Other),
        Pos1 = pig(T, M, N, 0, Other, choosing)
    ;   K1 is K + Face,
        added(Mover, T, M, N, K1, Pos1)
    ).

% added(+Mover, +T, +M, +N, +K1, -Pos1): Mover's turn total is now K1.
added(max, T, M, N, K1, Pos1) :-
    (   M + K1 >= T
    ->  M1 is M + K1, Pos1 = pig(T, M1, N, 0, max, choosing)
    ;   Pos1 = pig(T, M, N, K1, max, choosing)
    ).
added(min, T, M, N, K1, Pos1) :-
    (   N + K1 >= T
    ->  N1 is N + K1, Pos1 = pig(T, M, N1, 0, min, choosing)
    ;   Pos1 = pig(T, M, N, K1, min, choosing)
    ).

other(max, min).
other(min, max).

%!  staticval(+Pos, -Val) is det.
%
%   1 when MAX has reached the target, -1 when MIN has; elsewhere the
%   float (NeedMin - NeedMax) / (NeedMin + NeedMax), a side's need
%   being the target less its score and, for the mover, its turn total.

staticval(pig(T, M, N, K, Mover, _), Val) :-
    (   M >= T
    ->  Val = 1
    ;   N >= T
    ->  Val = -1
    ;   needs(Mover, T, M, N, K, NeedMax, NeedMin),
        Val is float(NeedMin - NeedMax) / (NeedMin + NeedMax)
    ).

needs(max, T, M, N, K, NeedMax, NeedMin) :-
    NeedMax is T - M - K,
    NeedMin is T - N.
needs(min, T, M, N, K, NeedMax, NeedMin) :-
    NeedMax is T - M,
    NeedMin is T - N - K.

%!  game_description(-Text) is det.
%
%   Text describes the game in one line.

game_description("Pig: roll a die to build a turn total and hold to bank it; \c
                  a 1 loses it; first to 10 (or the target given) wins").

		 /*******************************
		 *        FOR PEOPLE            *
		 *******************************/

%!  parse_position(+Text, -Pos) is det.
%
%   Pos is the position Text describes: comma-separated parts, each at
%   most once and in any order, `target T` (1 to 1000, default 10),
%   `max S` and `min S` (the scores, default 0), `turn K` (the mover's
%   turn total, default 0) and `max to move`, `min to move`, `max
%   rolls` or `min rolls` (the mover; `rolls` for a chance position;
%   default `max to move`).  Case and spaces do not matter; blank text
%   is the initial position.  Throws error(domain_error(position_text,
%   Text), context(_, Message)) when Text is not a position of the
%   game: malformed, or one that play cannot reach (both sides at the
%   target, a game over with a turn total or a roll to come, the
%   mover's score plus turn total at the target, a score more than 5
%   past it).

parse_position(Text, Pos) :-
    string_lower(Text, Lower),
    split_string(Lower, ",", " \t\n\r", Parts0),
    exclude(==(""), Parts0, Parts),
    (   maplist(part, Parts, Facts)
    ->  true
    ;   malformed(Text)
    ),
    no_part_twice(Text, Facts),
    part_value(Facts, target, 10, T),
    part_value(Facts, max, 0, M),
    part_value(Facts, min, 0, N),
    part_value(Facts, turn, 0, K),
    part_value(Facts, side, max-choosing, Mover-Phase),
    Pos = pig(T, M, N, K, Mover, Phase),
    (   impossible(Pos, Format, Args)
    ->  trimmed(Text, Typed),
        quoted(Typed, Quoted),
        format(string(Why), Format, Args),
        refuse(position_text, Text, "impossible pig position ~w: ~w", [Quoted, Why])
    ;   true
    ).

malformed(Text) :-
    trimmed(Text, Typed),
    quoted(Typed, Quoted),
    refuse(position_text, Text,
           "malformed pig position ~w: write parts of \c
            \"target 10, max 3, min 5, turn 4, max to move\" \c
            (\"max rolls\" when the die is to be rolled)",
           [Quoted]).

% part(+Part, -Fact): one part of a typed position, Fact Key=Value.
part(Part, Fact) :-
    split_string(Part, " \t\n\r", " \t\n\r", Words0),
    exclude(==(""), Words0, Words),
    words_fact(Words, Fact).

words_fact(["target", W], target=T) :-
    typed_number(W, T).
words_fact(["max", W], max=S) :-
    typed_number(W, S).
words_fact(["min", W], min=S) :-
    typed_number(W, S).
words_fact(["turn", W], turn=K) :-
    typed_number(W, K).
words_fact([W, "to", "move"], side=(Side-choosing)) :-
    side_word(W, Side).
words_fact([W, "rolls"], side=(Side-rolling)) :-
    side_word(W, Side).

side_word("max", max).
side_word("min", min).

no_part_twice(Text, Facts) :-
    (   select(Key=_, Facts, Rest),
        memberchk(Key=_, Rest)
    ->  trimmed(Text, Typed),
        quoted(Typed, Quoted),
        key_words(Key, Words),
        refuse(position_text, Text,
               "malformed pig position ~w: it gives ~w twice", [Quoted, Words])
    ;   true
    ).

key_words(side, "the side to move") :- !.
key_words(Key, Key).

part_value(Facts, Key, Default, Value) :-
    (   memberchk(Key=Value0, Facts) -> Value = Value0 ; Value = Default ).

% impossible(+Pos, -Format, -Args): why play cannot reach Pos.
impossible(pig(T, _, _, _, _, _), "the target is a number from 1 to 1000", []) :-
    \+ between(1, 1000, T), !.
impossible(pig(T, M, N, _, _, _), "both sides have reached the target", []) :-
    M >= T, N >= T, !.
impossible(pig(T, M, N, _, _, _), "a score cannot pass the target by more than 5", []) :-
    Most is T + 5,
    ( M > Most ; N > Most ), !.
impossible(Pos, "the game is over, so there is no turn total or roll to come", []) :-
    over(Pos),
    Pos = pig(_, _, _, K, _, Phase),
    ( K > 0 ; Phase == rolling ), !.
impossible(pig(T, M, N, K, Mover, _),
           "~w's score plus turn total, ~d, reaches the target: ~w has won already",
           [Mover, Sum, Mover]) :-
    K > 0,
    (   Mover == max -> Sum is M + K ; Sum is N + K ),
    Sum >= T, !.

%!  position_text(+Pos, -Text) is det.
%
%   Text is Pos written as parse_position/2 reads it, all five parts:
%   `target 10, max 3, min 5, turn 4, max to move` (or `max rolls`).

position_text(pig(T, M, N, K, Mover, Phase), Text) :-
    side_text(Phase, Mover, Side),
    format(string(Text), "target ~d, max ~d, min ~d, turn ~d, ~w", [T, M, N, K, Side]).

side_text(choosing, Mover, Text) :-
    format(string(Text), "~w to move", [Mover]).
side_text(rolling, Mover, Text) :-
    format(string(Text), "~w rolls", [Mover]).

%!  show_position(+Pos, -Text) is det.
%
%   Text shows Pos for people in three lines: the target, the scores,
%   and what happens next, e.g.
%
%       Pig to 10
%       MAX 3, MIN 5
%       MAX to move, turn total 4: roll or hold

show_position(Pos, Text) :-
    Pos = pig(T, M, N, K, Mover, Phase),
    upper_side(Mover, Who),
    (   over(Pos)
    ->  ( M >= T -> Winner = "MAX" ; Winner = "MIN" ),
        format(string(Next), "~w has won", [Winner])
    ;   Phase == rolling
    ->  format(string(Next), "~w rolls the die, turn total ~d", [Who, K])
    ;   K =:= 0
    ->  format(string(Next), "~w to move, turn total 0: roll", [Who])
    ;   format(string(Next), "~w to move, turn total ~d: roll or hold", [Who, K])
    ),
    format(string(Text), "Pig to ~d~nMAX ~d, MIN ~d~n~w", [T, M, N, Next]).

upper_side(max, "MAX").
upper_side(min, "MIN").

%!  move_label(+Pos, +Pos1, -Text) is semidet.
%
%   Text names the move from Pos to its successor Pos1: `roll`, `hold`,
%   or after a chance position the face of the die, `rolled 4`.

move_label(Pos, Pos1, Text) :-
    Pos = pig(_, _, _, _, _, Phase),
    phase_label(Phase, Pos, Pos1, Text).

phase_label(choosing, _, pig(_, _, _, _, _, Phase1), Text) :-
    (   Phase1 == rolling -> Text = "roll" ; Text = "hold" ).
phase_label(rolling, Pos, Pos1, Text) :-
    face(Pos, Pos1, Face),
    format(string(Text), "rolled ~d", [Face]).

% face(+Pos, +Pos1, -Face): the face of the die that leads from the
% chance position Pos to Pos1.
face(Pos, Pos1, Face) :-
    between(1, 6, Face),
    rolled(Pos, Face, Pos1),
    !.

%!  read_move(+Pos, +Text, -Pos1) is det.
%
%   Pos1 is the successor of Pos that Text names: `roll` or `hold`
%   (`r`, `h`; any case) at a decision position, the number the die
%   shows (1 to 6) at a chance position.  Throws
%   error(domain_error(move_text, Text), context(_, Message)) when Text
%   names no move of Pos (holding with a turn total of 0 is none), or
%   when the game is over.

read_move(Pos, Text, _) :-
    over(Pos),
    !,
    staticval(Pos, Val),
    ( Val > 0 -> Winner = "MAX" ; Winner = "MIN" ),
    refuse(move_text, Text, "the game is over: ~w has won", [Winner]).
read_move(Pos, Text, Pos1) :-
    Pos = pig(_, _, _, _, _, Phase),
    trimmed(Text, Typed0),
    string_lower(Typed0, Typed),
    phase_move(Phase, Pos, Text, Typed, Pos1).

phase_move(choosing, Pos, _, Typed, Pos1) :-
    memberchk(Typed, ["roll", "r"]),
    !,
    Pos = pig(T, M, N, K, Mover, choosing),
    Pos1 = pig(T, M, N, K, Mover, rolling).
phase_move(choosing, Pos, Text, Typed, Pos1) :-
    memberchk(Typed, ["hold", "h"]),
    !,
    (   Pos = pig(_, _, _, 0, _, _)
    ->  refuse(move_text, Text, "you cannot hold with a turn total of 0: roll", [])
    ;   held(Pos, Pos1)
    ).
phase_move(choosing, _, Text, _, _) :-
    trimmed(Text, Typed),
    quoted(Typed, Quoted),
    refuse(move_text, Text, "~w is not a move: type roll or hold", [Quoted]).
phase_move(rolling, Pos, Text, _, Pos1) :-
    (   typed_number(Text, Face),
        between(1, 6, Face)
    ->  rolled(Pos, Face, Pos1)
    ;   trimmed(Text, Typed),
        quoted(Typed, Quoted),
        refuse(move_text, Text,
               "~w is not a roll of the die: type the number it shows, 1 to 6", [Quoted])
    ).

%!  move_prompt(+Pos, -Text) is det.
%
%   Text says how to move in Pos: `roll or hold (turn total 4)`, `roll
%   (a turn starts with a roll)`, or at a chance position `the number
%   the die shows (1-6)`.

move_prompt(Pos, Text) :-
    Pos = pig(_, _, _, K, _, Phase),
    (   over(Pos)
    ->  Text = "the game is over"
    ;   Phase == rolling
    ->  Text = "the number the die shows (1-6)"
    ;   K =:= 0
    ->  Text = "roll (a turn starts with a roll)"
    ;   format(string(Text), "roll or hold (turn total ~d)", [K])
    ).
