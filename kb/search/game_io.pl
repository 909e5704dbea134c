:- module(game_io,
          [ game_name/2,                % +Game, -Name
            game_position/3,            % +Game, +Text, -Pos
            game_drawing/3,             % +Game, +Pos, -Text
            game_move_label/4,          % +Game, +Pos, +Pos1, -Text
            game_read_move/4,           % +Game, +Pos, +Text, -Pos1
            game_move_prompt/3,         % +Game, +Pos, -Text
            refuse/4,                   % +Kind, +Text, +Format, +Args
            refusal/2,                  % +Error, -Message
            quoted/2,                   % +Text, -Quoted
            trimmed/2,                  % +Text, -Trimmed
            typed_number/2              % +Text, -N
          ]).

/** <module> A search game's positions and moves, read and written for people

A game module may declare how people write its positions and moves
(see kb/README.md, "Game-tree search"):

    * parse_position(+Text, -Pos): a position as a person types it;
    * show_position(+Pos, -Text): the position drawn for people;
    * move_label(+Pos, +Pos1, -Text): the move from Pos to Pos1;
    * read_move(+Pos, +Text, -Pos1): the successor a person's move names;
    * move_prompt(+Pos, -Text): how to answer the move prompt.

Each game_... predicate here calls the declaration when the game makes
it and falls back to a default otherwise: a position is a ground Prolog
term, read with term_string/2 (reading runs nothing) and written with
`~q`; a move is chosen by its number in a numbered menu of the
successors, or by the successor itself.

A game refuses a person's text by throwing, through refuse/4,

    error(domain_error(Kind, Text), context(_, Message))

where Kind is `position_text` or `move_text` and Message is a string
for people: one line that says what is wrong and what to type instead.
refusal/2 recognises such an error.
*/

%!  game_name(+Game, -Name) is det.
%
%   Name is the stem of the file that defines the moves/2 of the game
%   loaded in module Game (`tictactoe` for kb/games/tictactoe.pl).

game_name(Game, Name) :-
    predicate_property(Game:moves(_, _), file(File)),
    !,
    file_base_name(File, Base),
    file_name_extension(Name, _, Base).
game_name(Game, Game).

%!  game_position(+Game, +Text, -Pos) is det.
%
%   Pos is the position of Game a person wrote as Text. Throws a
%   refusal (see refuse/4) when Text is not a position of the game.

game_position(Game, Text, Pos) :-
    current_predicate(Game:parse_position/2),
    !,
    Game:parse_position(Text, Pos).
game_position(Game, Text, Pos) :-
    (   catch(term_string(Pos, Text), error(syntax_error(_), _), fail),
        ground(Pos),
        valued(Game, Pos)
    ->  true
    ;   game_name(Game, Name),
        quoted(Text, Quoted),
        example(Game, Example),
        refuse(position_text, Text,
               "malformed ~w position ~w: give a Prolog term that moves/2 or staticval/2 accepts~w",
               [Name, Quoted, Example])
    ).

% A term is a position when the search can start from it.
valued(Game, Pos) :- Game:moves(Pos, _), !.
valued(Game, Pos) :- Game:staticval(Pos, _), !.

example(Game, Example) :-
    current_predicate(Game:initial/1),
    Game:initial(Pos),
    !,
    format(string(Example), ", e.g. ~q", [Pos]).
example(_, "").

%!  game_drawing(+Game, +Pos, -Text) is det.
%
%   Text is Pos drawn for people (by default, written with `~q`).

game_drawing(Game, Pos, Text) :-
    current_predicate(Game:show_position/2),
    !,
    Game:show_position(Pos, Text).
game_drawing(_, Pos, Text) :-
    format(string(Text), "~q", [Pos]).

%!  game_move_label(+Game, +Pos, +Pos1, -Text) is det.
%
%   Text is the move from Pos to Pos1 written for people (by default,
%   Pos1 written with `~q`).

game_move_label(Game, Pos, Pos1, Text) :-
    current_predicate(Game:move_label/3),
    !,
    Game:move_label(Pos, Pos1, Text).
game_move_label(_, _, Pos1, Text) :-
    format(string(Text), "~q", [Pos1]).

%!  game_read_move(+Game, +Pos, +Text, -Pos1) is det.
%
%   Pos1 is the successor of Pos that a person's move Text names. By
%   default Text is the number of the successor in the menu of
%   game_move_prompt/3, or the successor written as a Prolog term.
%   Throws a refusal (see refuse/4) when Text names no move.

game_read_move(Game, Pos, Text, Pos1) :-
    current_predicate(Game:read_move/3),
    !,
    Game:read_move(Pos, Text, Pos1).
game_read_move(Game, Pos, Text, Pos1) :-
    successors(Game, Pos, Succs),
    (   menu_choice(Text, Succs, Pos1)
    ->  true
    ;   length(Succs, N),
        quoted(Text, Quoted),
        refuse(move_text, Text,
               "~w is not a move here: type a number from 1 to ~d", [Quoted, N])
    ).

menu_choice(Text, Succs, Pos1) :-
    typed_number(Text, I),
    nth1(I, Succs, Pos1),
    !.
menu_choice(Text, Succs, Pos1) :-
    catch(term_string(Pos1, Text), error(syntax_error(_), _), fail),
    ground(Pos1),
    memberchk(Pos1, Succs).

%!  game_move_prompt(+Game, +Pos, -Text) is det.
%
%   Text tells a person how to move in Pos (by default, the successors
%   numbered from 1: `1: Succ1  2: Succ2`).

game_move_prompt(Game, Pos, Text) :-
    current_predicate(Game:move_prompt/2),
    !,
    Game:move_prompt(Pos, Text).
game_move_prompt(Game, Pos, Text) :-
    successors(Game, Pos, Succs),
    findall(Item, ( nth1(I, Succs, Succ),
                    format(string(Item), "~d: ~q", [I, Succ]) ),
            Items),
    atomic_list_concat(Items, '  ', Atom),
    atom_string(Atom, Text).

successors(Game, Pos, Succs) :-
    (   Game:moves(Pos, Succs) -> true ; Succs = [] ).

%!  refuse(+Kind, +Text, +Format, +Args) is det.
%
%   Refuses the text Text a person typed, Kind `position_text` (a
%   position) or `move_text` (a move).
%
%   @throws error(domain_error(Kind, Text), context(_, Message)), Message
%           being format(Format, Args).

refuse(Kind, Text, Format, Args) :-
    format(string(Message), Format, Args),
    throw(error(domain_error(Kind, Text), context(_, Message))).

%!  refusal(+Error, -Message) is semidet.
%
%   Error is a refusal thrown by refuse/4, with Message for people.

refusal(error(domain_error(Kind, _), context(_, Message)), Message) :-
    memberchk(Kind, [position_text, move_text]),
    string(Message).

%!  quoted(+Text, -Quoted) is det.
%
%   Quoted is Text quoted as Python's repr() quotes a string, the way
%   the messages show what a person typed: between single quotes, or
%   double quotes when Text holds a single quote and no double quote;
%   quotes, backslashes and control characters are escaped.

quoted(Text, Quoted) :-
    sub_string(Text, _, _, _, "'"),
    \+ sub_string(Text, _, _, _, "\""),
    !,
    atom_string(Text, String),
    format(string(Quoted), "~q", [String]).
quoted(Text, Quoted) :-
    atom_string(Atom, Text),
    format(string(Quoted0), "~q", [Atom]),
    (   sub_string(Quoted0, 0, 1, _, "'")
    ->  Quoted = Quoted0
    ;   format(string(Quoted), "'~w'", [Quoted0])
    ).

%!  typed_number(+Text, -N) is semidet.
%
%   Text, less the white space around it, is a natural number N written
%   in decimal digits.

typed_number(Text, N) :-
    trimmed(Text, Digits),
    string_codes(Digits, Codes),
    Codes \== [],
    forall(member(C, Codes), between(0'0, 0'9, C)),
    number_codes(N, Codes).

%!  trimmed(+Text, -Trimmed) is det.
%
%   Trimmed is the string Text without the white space around it.

trimmed(Text, Trimmed) :-
    split_string(Text, "", " \t\n\r\v\f", [Trimmed]).
