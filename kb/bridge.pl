:- module(bridge,
          [ run_limited/5,              % :Goal, +Seconds, +Inferences, -Status, -Message
            load_kb/4,                  % +File, +Context, +If, -Json
            missing_predicates/3,       % +Module, +Indicators, -Missing
            missing_predicates_json/3,  % +Module, +Indicators, -Json
            module_vocabulary/2,        % +File, -Json
            shipped_module/3,           % +Indicator, -File, -Module
            taken_module_name/3,        % +Module, +File, -Message
            shipped_modules_json/2      % +Indicator, -Json
          ]).

/** <module> The Prolog side of the engine's bridge

Python asks every question through these predicates: goals run under a
time and an inference limit with every error caught, and loading a file
collects its error and warning messages instead of printing them.
*/

:- use_module(library(time)).
:- use_module(library(filesex), [directory_member/3]).
% The engine's goals run in this module: library(http/json) is part of
% what they may call.
:- use_module(library(http/json)).
:- use_module(job_io, [json_string/2, message_text/2, lines_text/2]).

% advice(Path) names a module shipped under kb/ (`advice(chess/endgame)`),
% as a knowledge base loads the libraries for domains.
:- multifile user:file_search_path/2.
:- dynamic user:file_search_path/2.
:- prolog_load_context(directory, Dir),
   (   user:file_search_path(advice, Dir)
   ->  true
   ;   assertz(user:file_search_path(advice, Dir))
   ).

:- meta_predicate run_limited(0, +, +, -, -).

%!  run_limited(:Goal, +Seconds, +Inferences, -Status, -Message) is det.
%
%   Runs Goal once under both limits. Status is `true`, `false`,
%   `time_limit`, `inference_limit` or `error`; Message is a string
%   describing the error ("" otherwise). Goal's bindings are kept when
%   Status is `true`.

run_limited(Goal, Seconds, Inferences, Status, Message) :-
    catch(call_with_time_limit(Seconds, limited(Goal, Inferences, Status0)),
          Error, true),
    (   var(Error)
    ->  Status = Status0, Message = ""
    ;   Error == time_limit_exceeded
    ->  Status = time_limit, Message = ""
    ;   Status = error, error_text(Error, Message)
    ).

limited(Goal, Inferences, Status) :-
    call_with_inference_limit(Goal, Inferences, Result),
    !,
    (   Result == inference_limit_exceeded
    ->  Status = inference_limit
    ;   Status = true
    ).
limited(_, _, false).

error_text(error(resource_error(_), Overflow), Text) :-
    is_dict(Overflow, stack_overflow),
    !,
    stack_overflow_text(Overflow, Text).
error_text(Error, Text) :-
    message_text(Error, Text).

% stack_overflow_text(+Overflow, -Text): a stack overflow in words: the
% limit, the depth, and the deepest predicate of a file not the engine's
% (the SWI-Prolog message names the engine's modules and a command-line
% flag the engine's user does not have).
stack_overflow_text(Overflow, Text) :-
    Limit is Overflow.get(stack_limit, 0) / 1024 / 1024,
    Depth = Overflow.get(depth, 0),
    (   user_frame(Overflow, Module:Name/Arity)
    ->  (   module_property(Module, file(File))
        ->  format(string(In), " in ~q/~w (~w)", [Name, Arity, File])
        ;   format(string(In), " in ~q:~q/~w", [Module, Name, Arity])
        )
    ;   In = ""
    ),
    (   Depth >= 100000
    ->  format(string(Text),
               "ran out of its Prolog stack of ~2f GiB at depth ~D~w: a recursion that \c
                does not end, or data too large (--memory-limit sets the stack to half \c
                of it)", [Limit, Depth, In])
    ;   format(string(Text),
               "ran out of memory: its Prolog stack of ~2f GiB is full at depth ~D~w, \c
                so the data is too large for it (--memory-limit sets the stack to half \c
                of it)", [Limit, Depth, In])
    ).

user_frame(Overflow, PI) :-
    member(Key, [non_terminating, stack, cycle]),
    Frames = Overflow.get(Key),
    is_list(Frames),
    member(frame(_, Frame, _), Frames),
    frame_indicator(Frame, PI),
    PI = Module:_,
    \+ own_module(Module),
    !.

frame_indicator(Module:Goal, Module:Name/Arity) :-
    atom(Module),
    callable(Goal),
    functor(Goal, Name, Arity).

% own_module(+Module): a module of the system or of the engine's kb folder.
own_module(Module) :-
    module_property(Module, class(Class)),
    Class \== user,
    !.
own_module(Module) :-
    module_property(Module, file(File)),
    shipped_file(File).

:- dynamic collecting/1, collected/2.

:- multifile user:message_hook/3.

user:message_hook(Term, Kind, Lines) :-
    collecting(_),
    memberchk(Kind, [error, warning]),
    lines_text(Lines, Text1),
    located(Term, Text1, Text),
    assertz(collected(Kind, Text)).

% Give a message the file:line it happened at when its text lacks it.
located(error(_, file(File, Line, _, _)), Text0, Text) :-
    \+ sub_string(Text0, 0, _, _, File), !,
    format(string(Text), "~w:~w: ~w", [File, Line, Text0]).
located(_, Text0, Text) :-
    source_location(File, Line),
    \+ sub_string(Text0, 0, _, _, File), !,
    format(string(Text), "~w:~w: ~w", [File, Line, Text0]).
located(_, Text, Text).

%!  load_kb(+File, +Context, +If, -Json) is det.
%
%   Loads File into module Context (a module file's exports are
%   imported into Context); If is load_files/2's `if` option (`true`
%   reloads, `not_loaded` loads once). Json is a string holding a JSON list of
%   `{"kind": error|warning, "text": Message}` objects, one for every
%   error and warning printed while loading.

load_kb(File, Context, If, Json) :-
    (   \+ shipped_file(File),
        module_header(File, Module, _, Line),
        taken_module_name(Module, File, Taken)
    ->  format(string(Text), "~w:~d: ~w", [File, Line, Taken]),
        Messages = [json([kind=error, text=Text])]
    ;   setup_call_cleanup(
            assertz(collecting(File)),
            catch(Context:load_files(File, [if(If)]), Error, loading_error(Error)),
            retractall(collecting(_))),
        findall(json([kind=Kind, text=Text]), retract(collected(Kind, Text)), Messages)
    ),
    json_string(Messages, Json).

% loading_error(+Error): an error raised while loading is printed (and
% so collected), but a limit of the job (time, inferences) ends the job,
% which run_limited/5 reports as the limit it is.
loading_error(Error) :-
    (   job_limit(Error)
    ->  throw(Error)
    ;   print_message(error, Error)
    ).

job_limit(time_limit_exceeded).
job_limit(inference_limit_exceeded).

%!  taken_module_name(+Module, +File, -Message) is semidet.
%
%   The module name Module, which File's module/2 header gives, cannot
%   be File's: it is the system's, or that of a module loaded from
%   another file, of a file shipped under kb/ (the engine may load it
%   later) or of a library. Message says so and by which file, for
%   people (loading would end in a permission error naming neither).

taken_module_name(Module, File, Message) :-
    taken_by(Module, File, Owner),
    !,
    format(string(Message),
           "the module name ~q is taken by ~w: give the knowledge base a name of \c
            its own", [Module, Owner]).

taken_by(Module, _, "the system") :-
    (   memberchk(Module, [user, system])
    ;   sub_atom(Module, 0, _, _, $)
    ).
taken_by(Module, File, Other) :-
    (   module_property(Module, file(Other))
    ;   shipped_module_file(Module, Other)
    ;   absolute_file_name(library(Module), Other,
                           [file_type(prolog), access(read), file_errors(fail)])
    ),
    \+ same_file(Other, File).

shipped_module_file(Module, File) :-
    kb_files(Files),
    member(File, Files),
    module_header(File, Module, _, _).

% shipped_file(+File): File is one of the engine's, under kb/.
shipped_file(File) :-
    module_property(bridge, file(Self)),
    file_directory_name(Self, Root),
    sub_atom(File, 0, _, _, Root).

%!  missing_predicates(+Module, +Indicators, -Missing) is det.
%
%   Missing holds the Name/Arity indicators of Indicators that Module
%   neither defines nor imports.

missing_predicates(Module, Indicators, Missing) :-
    exclude(visible(Module), Indicators, Missing).

%!  missing_predicates_json(+Module, +Indicators, -Json) is det.
%
%   missing_predicates/3 for the engine: Json is a JSON list of
%   "Name/Arity" strings.

missing_predicates_json(Module, Indicators, Json) :-
    missing_predicates(Module, Indicators, Missing),
    maplist([N/A, T]>>format(string(T), "~w/~w", [N, A]), Missing, Texts),
    json_string(Texts, Json).

visible(Module, Name/Arity) :-
    functor(Head, Name, Arity),
    predicate_property(Module:Head, defined).

%!  module_vocabulary(+File, -Json) is det.
%
%   Json is a string describing the module loaded from File: its name,
%   its exported predicates (name and arity) and the names its
%   move_constraint/1 facts give (the AL0 domain interface).

module_vocabulary(File, Json) :-
    absolute_file_name(File, Abs),
    (   module_property(Module, file(Abs))
    ->  module_property(Module, exports(Exports)),
        findall(json([name=N, arity=A]), member(N/A, Exports), Preds),
        (   memberchk(move_constraint/1, Exports)
        ->  findall(C, Module:move_constraint(C), Constraints)
        ;   Constraints = []
        ),
        Term = json([module=Module, predicates=Preds, move_constraints=Constraints])
    ;   Term = json([module= @(null)])
    ),
    json_string(Term, Json).

%!  shipped_module(+Indicator, -File, -Module) is nondet.
%
%   File is a `.pl` file under kb/ whose module Module exports Indicator
%   (Name/Arity), in the order of the files' paths. Only the first term
%   of each file is read: nothing in it runs and nothing is loaded.

shipped_module(Indicator, File, Module) :-
    kb_files(Files),
    member(File, Files),
    module_header(File, Module, Exports, _),
    memberchk(Indicator, Exports).

% kb_files(-Files): the .pl files under kb/, in the order of their paths.
kb_files(Files) :-
    module_property(bridge, file(Self)),
    file_directory_name(Self, Root),
    findall(F, directory_member(Root, F, [recursive(true), extensions([pl])]), Files0),
    msort(Files0, Files).

% module_header(+File, -Module, -Exports, -Line): File's first term is
% its module/2 header, on Line.
module_header(File, Module, Exports, Line) :-
    catch(setup_call_cleanup(open(File, read, In),
                             read_term(In, Term, [syntax_errors(quiet), term_position(At)]),
                             close(In)),
          _, fail),
    Term = (:- module(Module, Exports)),
    atom(Module),
    is_list(Exports),
    stream_position_data(line_count, At, Line).

%!  shipped_modules_json(+Indicator, -Json) is det.
%
%   Json is a JSON list of the files shipped_module/3 finds.

shipped_modules_json(Indicator, Json) :-
    findall(File, shipped_module(Indicator, File, _), Files),
    json_string(Files, Json).
