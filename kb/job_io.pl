:- module(job_io,
          [ read_position/2,            % +Text, -Pos
            json_string/2,              % +JsonTerm, -String
            message_text/2,             % +Message, -Text
            lines_text/2                % +Lines, -Text
          ]).

/** <module> Input and output of engine jobs

Jobs take positions as text and give one JSON string back; messages
(errors, warnings) become text for people.
*/

:- use_module(library(http/json)).

%!  read_position(+Text, -Pos) is det.
%
%   Pos is the ground term Text holds. Reading runs nothing; a syntax
%   error or a term with variables raises a domain_error naming the text.

read_position(Text, Pos) :-
    catch(term_string(Pos, Text), error(syntax_error(What), _),
          domain_error(position_syntax, What)),
    (   ground(Pos) -> true ; domain_error(ground_position, Text) ).

%!  json_string(+JsonTerm, -String) is det.
%
%   String is JsonTerm (library(http/json)'s classic term form) written
%   as compact JSON.

json_string(Term, Json) :-
    with_output_to(string(Json), json_write(current_output, Term, [width(0)])).

%!  message_text(+Message, -Text) is det.
%
%   Text is Message (an error or another message term) as SWI-Prolog
%   prints it, without the leading and trailing blank lines; Message
%   written with ~q when Prolog has no words for it.

message_text(Message, Text) :-
    catch('$messages':translate_message(Message, Lines, []), _, fail),
    !,
    lines_text(Lines, Text).
message_text(Message, Text) :-
    format(string(Text), "~q", [Message]).

%!  lines_text(+Lines, -Text) is det.
%
%   Text is the message Lines (as print_message_lines/3 takes them)
%   printed, without the leading and trailing blank lines.

lines_text(Lines, Text) :-
    with_output_to(string(Text0), print_message_lines(current_output, '', Lines)),
    split_string(Text0, "", "\n ", [Text]).
