:- module(nim,
          [ initial/1,                  % -Pos
            moves/2,                    % +Pos, -PosList
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

/** <module> Nim with one pile, for Bratko's game-tree searches

A position is nim(Sticks, Mover): Sticks left on the pile and Mover
(max or min) to move. A move takes 1, 2 or 3 sticks; whoever takes the
last stick loses. The side to move loses exactly when Sticks mod 4 is 1.

Values are for MAX: 100 for a win, -100 for a loss. The static
evaluation of a position that is not over applies the mod-4 rule at half
weight (50 or -50): the theory of the game, as a heuristic.

People write a position as the number of sticks (MAX to move) and a
move as the number of sticks taken.
*/

:- use_module('../search/game_io', [refuse/4, quoted/2, trimmed/2, typed_number/2]).

%!  initial(-Pos) is det.
%
%   Pos is a pile of 21 sticks with MAX to move.

initial(nim(21, max)).

%!  max_to_move(+Pos) is semidet.
%
%   MAX is to move in Pos.

max_to_move(nim(_, max)).

%!  min_to_move(+Pos) is semidet.
%
%   MIN is to move in Pos.

min_to_move(nim(_, min)).

%!  moves(+Pos, -PosList) is semidet.
%
%   PosList holds the positions after taking 1, 2 or 3 sticks (as many
%   as there are). Fails on an empty pile: the game is over.

moves(nim(Sticks, Mover), Succs) :-
    Sticks > 0,
    other(Mover, Other),
    Most is min(3, Sticks),
    findall(nim(Left, Other),
            ( between(1, Most, Take), Left is Sticks - Take ),
            Succs).

other(max, min).
other(min, max).

%!  staticval(+Pos, -Val) is det.
%
%   On an empty pile the side to move has won (the other took the last
%   stick): 100 or -100 for MAX. Elsewhere the side to move is losing
%   exactly when Sticks mod 4 is 1: -50 or 50 for MAX.

staticval(nim(0, Mover), Val) :- !,
    for_max(Mover, 100, Val).
staticval(nim(Sticks, Mover), Val) :-
    (   Sticks mod 4 =:= 1
    ->  for_max(Mover, -50, Val)
    ;   for_max(Mover, 50, Val)
    ).

for_max(max, Val, Val).
for_max(min, Val0, Val) :- Val is -Val0.

%!  game_description(-Text) is det.
%
%   Text describes the game in one line.

game_description("One-pile Nim: take 1 to 3 sticks; whoever takes the last one loses").

%!  parse_position(+Text, -Pos) is det.
%
%   Pos is the pile of Text sticks (at most 10,000) with MAX to move.
%   Throws error(domain_error(position_text, Text), context(_, Message))
%   when Text is not such a number.

parse_position(Text, nim(Sticks, max)) :-
    typed_number(Text, Sticks),
    Sticks =< 10000,
    !.
parse_position(Text, _) :-
    trimmed(Text, Typed),
    quoted(Typed, Quoted),
    refuse(position_text, Text,
           "malformed nim position ~w: give the number of sticks, e.g. 21", [Quoted]).

%!  position_text(+Pos, -Text) is semidet.
%
%   Text is Pos written as parse_position/2 reads it: the number of
%   sticks. Fails when MIN is to move, which a person cannot write.

position_text(nim(Sticks, max), Text) :-
    number_string(Sticks, Text).

%!  show_position(+Pos, -Text) is det.
%
%   Text shows the pile for people: `13 sticks: |||||||||||||`.

show_position(nim(Sticks, _), Text) :-
    sticks(Sticks, Count),
    length(Bars, Sticks),
    maplist(=(0'|), Bars),
    format(string(Text), "~w: ~s", [Count, Bars]).

% sticks(+N, -Text): "1 stick", "N sticks".
sticks(1, "1 stick") :- !.
sticks(N, Text) :-
    format(string(Text), "~d sticks", [N]).

%!  move_label(+Pos, +Pos1, -Text) is det.
%
%   Text names the move from Pos to Pos1: `take 2`.

move_label(nim(Sticks0, _), nim(Sticks1, _), Text) :-
    Take is Sticks0 - Sticks1,
    format(string(Text), "take ~d", [Take]).

%!  read_move(+Pos, +Text, -Pos1) is det.
%
%   Pos1 follows Pos when the player to move takes Text sticks. Throws
%   error(domain_error(move_text, Text), context(_, Message)) when Text
%   is not 1, 2 or 3, or more sticks than are left.

read_move(Pos, Text, Pos1) :-
    typed_take(Text, Take),
    Pos = nim(Sticks, _),
    (   Take =< Sticks
    ->  true
    ;   sticks(Sticks, Left),
        refuse(move_text, Text, "only ~w left", [Left])
    ),
    Rest is Sticks - Take,
    (   moves(Pos, Succs),
        member(Pos1, Succs),
        Pos1 = nim(Rest, _)
    ->  true
    ;   trimmed(Text, Typed),
        refuse(move_text, Text, "cannot take ~w now", [Typed])
    ).

typed_take(Text, Take) :-
    typed_number(Text, Take),
    between(1, 3, Take),
    !.
typed_take(Text, _) :-
    trimmed(Text, Typed),
    quoted(Typed, Quoted),
    refuse(move_text, Text, "~w is not a move: take 1, 2 or 3 sticks", [Quoted]).

%!  move_prompt(+Pos, -Text) is det.
%
%   Text says how many sticks may be taken: `take 1 to 3 sticks`.

move_prompt(nim(Sticks, _), Text) :-
    Most is min(3, Sticks),
    format(string(Text), "take 1 to ~d sticks", [Most]).
