:- module(al0_domain,
          [ interface_predicate/3,      % ?Name, ?Arity, ?Kind
            domain_json/2,              % +Domain, -Json
            declares/3,                 % +Domain, +Name, +Arity
            success_outcomes/2,         % +Domain, -Results
            person_position/3,          % +Domain, +Given, -Pos
            position_json/3,            % +Domain, +Pos, -JsonTerm
            position_text/3,            % +Domain, +Pos, -Text
            perfect_defender/2,         % +Domain, -Closure
            optimal_counter/2,          % +Domain, -Closure
            optimal_mover/2,            % +Domain, -Closure
            prepare_job/4,              % +Domain, +CacheDir, +Rebuild, -Json
            move_named/5                % +Domain, +Pos, +Text, -Move, -Pos1
          ]).

/** <module> What an AL0 domain says about itself

The engine knows no domain by name. A domain module (kb/README.md,
"AL0 domains") exports the required interface and any of the optional
declarations listed by interface_predicate/3; this module reads them for
the engine (domain_json/2) and gives the defaults where a domain is
silent: positions read as Prolog terms, written with `~q`, the perfect
defender and optimal counts from the search solver (al0_solver).
*/

:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module('../job_io').
:- autoload(solver, [search_reply/4, search_optimal/3, search_optimal_move/4]).

%!  interface_predicate(?Name, ?Arity, ?Kind) is nondet.
%
%   The predicates of the AL0 domain interface, listed once: Kind is
%   `required`, `declaration` (optional, read by the engine),
%   `symmetry` (optional, and required with canonical/3: the companions
%   that map a position, a move and a tree between symmetric positions)
%   or `chess` (optional, makes the domain a chess domain). None of them is a goal
%   or a move constraint a table may name.

interface_predicate(legalmove,        3, required).
interface_predicate(to_move,          2, required).
interface_predicate(depth,            2, required).
interface_predicate(reset_depth,      2, required).
interface_predicate(outcome,          2, required).
interface_predicate(move_text,        3, required).
interface_predicate(move_constraint,  1, required).
interface_predicate(initial,          1, declaration).
interface_predicate(start_set,        1, declaration).
interface_predicate(start,            2, declaration).
interface_predicate(success,          1, declaration).
interface_predicate(parse_position,   2, declaration).
interface_predicate(position_text,    2, declaration).
interface_predicate(valid_position,   1, declaration).
interface_predicate(show_position,    2, declaration).
interface_predicate(move_refusal,     3, declaration).
interface_predicate(perfect_reply,    3, declaration).
interface_predicate(optimal_moves,    2, declaration).
interface_predicate(optimal_move,     3, declaration).
interface_predicate(prepare,          3, declaration).
interface_predicate(tablebase_json,   1, declaration).
interface_predicate(canonical,        3, declaration).
interface_predicate(symmetric_position, 3, symmetry).
interface_predicate(symmetric_move,   3, symmetry).
interface_predicate(inverse_symmetry, 2, symmetry).
interface_predicate(chess_material,   2, chess).
interface_predicate(chess_position,   3, chess).
interface_predicate(chess_board,      3, chess).

%!  declares(+Domain, +Name, +Arity) is semidet.
%
%   Domain exports Name/Arity.

declares(D, Name, Arity) :-
    functor(Head, Name, Arity),
    predicate_property(D:Head, exported).

% missing_predicate(+Domain, -Name, -Arity): Domain lacks Name/Arity,
% which it must export: a required predicate, or a companion of
% canonical/3 where it declares symmetries (al0:symmetric_domain/1).
missing_predicate(D, N, A) :-
    interface_predicate(N, A, required),
    \+ declares(D, N, A).
missing_predicate(D, N, A) :-
    declares(D, canonical, 3),
    interface_predicate(N, A, symmetry),
    \+ declares(D, N, A).

%!  domain_json(+Domain, -Json) is det.
%
%   Json (a string) describes what Domain declares: `module`, `missing`
%   (required predicates it lacks, and the companions of canonical/3
%   where it declares that), `interface` (the names of every
%   interface predicate, which are not goals), `initial` (whether it has one),
%   `start_sets` (names, the default first), `success` (outcomes),
%   `perfect` and `optimal` (`domain` when it provides them, else
%   `search`), `prepare` (whether it has data to prepare), `tablebase`
%   (whether it describes one), `chess` (null or the material,
%   `{"white": "KR", "black": "K"}`) and `example` (a position written
%   as a person would, or null).

domain_json(D, Json) :-
    findall(N/A, missing_predicate(D, N, A), Missing0),
    maplist([N/A, T]>>format(string(T), "~w/~w", [N, A]), Missing0, Missing),
    findall(N, interface_predicate(N, _, _), Interface),
    flag_json(declares(D, initial, 1), Initial),
    (   declares(D, start_set, 1) -> findall(S, D:start_set(S), Sets0) ; Sets0 = [] ),
    list_to_set(Sets0, Sets),
    (   declares(D, success, 1) -> findall(R, D:success(R), Ok) ; Ok = [] ),
    source_word(D, perfect_reply, 3, Perfect),
    source_word(D, optimal_moves, 2, Optimal),
    flag_json(declares(D, prepare, 3), Prepare),
    flag_json(declares(D, tablebase_json, 1), Tablebase),
    (   declares(D, chess_material, 2), D:chess_material(W, B)
    ->  Chess = json([white=W, black=B])
    ;   Chess = @(null)
    ),
    (   example_position(D, Ex) -> position_text(D, Ex, Example) ; Example = @(null) ),
    json_string(json([module=D, missing=Missing, interface=Interface,
                      initial=Initial, start_sets=Sets,
                      success=Ok, perfect=Perfect, optimal=Optimal, prepare=Prepare,
                      tablebase=Tablebase, chess=Chess, example=Example]), Json).

flag_json(Goal, @(B)) :-
    (   call(Goal) -> B = true ; B = false ).

source_word(D, Name, Arity, Word) :-
    (   declares(D, Name, Arity) -> Word = domain ; Word = search ).

example_position(D, Pos) :-
    (   declares(D, initial, 1), D:initial(Pos)
    ->  true
    ;   declares(D, start_set, 1), D:start_set(Set),
        catch(D:start(Set, Pos), _, fail)   % a set may need prepare/3 first
    ->  true
    ).

%!  success_outcomes(+Domain, -Results) is det.
%
%   Results lists the outcomes that count as success for us. Raises an
%   error naming the domain when it declares none.

success_outcomes(D, Ok) :-
    (   declares(D, success, 1), findall(R, D:success(R), Ok), Ok \== []
    ->  true
    ;   throw(error(al0_declaration_missing(D, success/1), _))
    ).

%!  person_position(+Domain, +Given, -Pos) is det.
%
%   Pos (depth 0) is the position a person gave: `text(Text)` as typed
%   (parse_position/2, or a Prolog term that valid_position/1 accepts),
%   `board(Turn, Pieces)` for a chess domain, or `initial`. Raises
%   al0_position errors whose messages name the domain and show an
%   example; parse_position/2 may refuse Text with its own message by
%   throwing error(domain_error(position_text, Text), context(_, Message))
%   (as kb/search/game_io.pl's refuse/4 does).

person_position(D, initial, Pos) :-
    !,
    (   declares(D, initial, 1), D:initial(Pos0)
    ->  D:reset_depth(Pos0, Pos)
    ;   throw(error(al0_position(no_initial, D), _))
    ).
person_position(D, board(Turn, Pieces), Pos) :-
    !,
    (   D:chess_position(Turn, Pieces, Pos0)
    ->  D:reset_depth(Pos0, Pos)
    ;   throw(error(al0_position(not_a_board(Turn, Pieces), D), _))
    ).
person_position(D, text(Text), Pos) :-
    (   catch(parsed(D, Text, Pos0),
              error(domain_error(position_text, _), context(_, Why)),
              throw(error(al0_position(refused(Why), D), _)))
    ->  D:reset_depth(Pos0, Pos)
    ;   throw(error(al0_position(not_a_position(Text), D), _))
    ).

parsed(D, Text, Pos) :-
    declares(D, parse_position, 2),
    !,
    D:parse_position(Text, Pos).
parsed(D, Text, Pos) :-
    catch(read_position(Text, Pos), error(domain_error(_, _), _), fail),
    valid(D, Pos).

valid(D, Pos) :-
    declares(D, valid_position, 1),
    !,
    D:valid_position(Pos).
valid(D, Pos) :-
    example_position(D, Example),
    functor(Example, Name, Arity),
    functor(Pos, Name, Arity),
    catch(D:to_move(Pos, _), _, fail).

%!  position_text(+Domain, +Pos, -Text) is det.
%
%   Text is Pos written as a person would type it: the domain's
%   position_text/2, else the term quoted.

position_text(D, Pos, Text) :-
    (   declares(D, position_text, 2), D:position_text(Pos, Text0)
    ->  text_string(Text0, Text)
    ;   format(string(Text), "~q", [Pos])
    ).

%!  position_json(+Domain, +Pos, -JsonTerm) is det.
%
%   How the engine shows Pos: `term` (read back with term_string/2),
%   `text` (position_text/3), `drawing` (show_position/2, or the text),
%   `to_move`, and for a chess domain `board`: `turn` and `pieces`, each
%   `[Colour, Letter, Square]`.

position_json(D, Pos, json([term=Term, text=Text, drawing=Drawing, to_move=Side|Board])) :-
    format(string(Term), "~q", [Pos]),
    position_text(D, Pos, Text),
    (   declares(D, show_position, 2), D:show_position(Pos, Drawing0)
    ->  text_string(Drawing0, Drawing)
    ;   Drawing = Text
    ),
    (   D:to_move(Pos, Side0) -> Side = Side0 ; Side = @(null) ),
    (   declares(D, chess_board, 3), D:chess_board(Pos, Turn, Pieces)
    ->  maplist([piece(C, L, S), [C, L, S]]>>true, Pieces, Triples),
        Board = [board=json([turn=Turn, pieces=Triples])]
    ;   Board = []
    ).

text_string(Text, String) :-
    (   string(Text) -> String = Text ; format(string(String), "~w", [Text]) ).

%!  perfect_defender(+Domain, -Closure) is det.
%
%   Closure, called as call(Closure, Pos, Move, Pos1), is the perfect
%   defender: the domain's perfect_reply/3, else the search solver's.

perfect_defender(D, Closure) :-
    own_or_searched(D, perfect_reply/3, search_reply, Closure).

%!  optimal_counter(+Domain, -Closure) is det.
%
%   Closure, called as call(Closure, Pos, N), gives our optimal number
%   of moves to success: the domain's optimal_moves/2, else the search
%   solver's.

optimal_counter(D, Closure) :-
    own_or_searched(D, optimal_moves/2, search_optimal, Closure).

%!  optimal_mover(+Domain, -Closure) is det.
%
%   Closure, called as call(Closure, Pos, Move, Pos1) with us to move,
%   gives a move on an optimal line: the domain's optimal_move/3, else
%   the search solver's.

optimal_mover(D, Closure) :-
    own_or_searched(D, optimal_move/3, search_optimal_move, Closure).

% own_or_searched(+D, +Name/Arity, +Search, -Closure): the domain's own
% predicate, else the solver's Search for D (which needs success/1).
own_or_searched(D, Name/Arity, _, D:Name) :-
    declares(D, Name, Arity),
    !.
own_or_searched(D, _, Search, al0_domain:Closure) :-
    success_outcomes(D, _),
    Closure =.. [Search, D].

%!  prepare_job(+Domain, +CacheDir, +Rebuild, -Json) is det.
%
%   Makes the domain's data ready (its prepare/3, when it declares one;
%   Rebuild `true` computes it again). Json holds `source` (`none`,
%   `session`, `cache` or `built`) and `seconds`.

prepare_job(D, CacheDir, Rebuild, Json) :-
    get_time(T0),
    (   declares(D, prepare, 3)
    ->  D:prepare(CacheDir, Rebuild, Source)
    ;   Source = none
    ),
    get_time(T1),
    Seconds is T1 - T0,
    json_string(json([source=Source, seconds=Seconds]), Json).

%!  move_named(+Domain, +Pos, +Text, -Move, -Pos1) is semidet.
%
%   Move (to Pos1) is the legal move in Pos that the domain writes as
%   Text (move_text/3 may give an atom or a string: they are compared
%   as text).

move_named(D, Pos, Text, Move, Pos1) :-
    text_string(Text, Wanted),
    D:legalmove(Pos, Move, Pos1),
    D:move_text(Pos, Move, Written),
    text_string(Written, Wanted),
    !.

:- multifile prolog:error_message//1.

prolog:error_message(al0_position(not_a_position(Text), D)) -->
    example(D, Example),
    [ '\'~w\' is not a position of ~w~w'-[Text, D, Example] ].
prolog:error_message(al0_position(refused(Why), _)) -->
    [ '~w'-[Why] ].
prolog:error_message(al0_position(not_a_board(_, _), D)) -->
    [ 'the board is not a position of ~w'-[D] ].
prolog:error_message(al0_position(no_initial, D)) -->
    example(D, Example),
    [ '~w has no initial/1: give a position~w'-[D, Example] ].
prolog:error_message(al0_declaration_missing(D, success/1)) -->
    [ '~w declares no success/1: it must say which outcomes count as success for us'-[D] ].

example(D, Text) -->
    { (   example_position(D, Pos)
      ->  position_text(D, Pos, Ex),
          format(string(Text), " (e.g. ~w)", [Ex])
      ;   Text = ""
      ) },
    [].
