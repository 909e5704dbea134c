:- module(job_io,
          [ read_position/2,            % +Text, -Pos
            json_string/2               % +JsonTerm, -String
          ]).

/** <module> Input and output of engine jobs

Jobs take positions as text and give one JSON string back.
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
