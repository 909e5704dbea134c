:- module(search_jobs,
          [ games_job/1,                % -Json
            search_job/5,               % +Game, +Start, +Algo, +MaxDepth, -Json
            turn_job/3,                 % +Game, +Start, -Json
            move_job/4,                 % +Game, +PosText, +Typed, -Json
            lint_job/5,                 % +Game, +Start, +MaxPositions, +MaxDepth, -Json
            job_start/3,                % +Start, +Game, -Pos
            job_answer/2                % :Answer, -Json
          ]).

/** <module> Search jobs for the engine: one call, one JSON string back

Game is the module a game's file is loaded into. Start says where a job
starts:

    * typed(Text): a position as a person wrote it, read by the game
      (game_io:game_position/3);
    * term(Text): a position as an earlier job wrote it (with `~q`),
      read with job_io:read_position/2;
    * initial: the game's initial/1.

Positions go back written with `~q` (read back as term(Text)), beside
what people see of them. A job that refuses a person's text answers
`{"error": Message}` (see game_io:refuse/4).
*/

:- use_module('../bridge', [shipped_module/3]).
:- use_module('../job_io').
:- use_module(search).
:- use_module(refined).
:- use_module(chance, [expectiminimax_pv/4]).
:- use_module(mcts, [mcts/3]).
:- use_module(outcomes, [value_outcome/2]).
:- use_module(game_io).
:- use_module(lint).

%!  games_job(-Json) is det.
%
%   Json lists the games shipped under kb/, by name: each a name (its
%   file's stem), a description and a file. A game is a `.pl` file whose
%   module exports game_description/1; the files are found by reading
%   their first term, and only the games among them are loaded.

games_job(Json) :-
    findall(Name-game(File, Module),
            ( shipped_module(game_description/1, File, Module),
              file_base_name(File, Base),
              file_name_extension(Name, _, Base) ),
            Pairs),
    keysort(Pairs, Sorted),
    maplist(game_json, Sorted, Games),
    json_string(json([games=Games]), Json).

game_json(Name-game(File, Module), json([name=Name, description=Text, file=File])) :-
    use_module(File, []),
    Module:game_description(Text).

%!  search_job(+Game, +Start, +Algo, +MaxDepth, -Json) is det.
%
%   Searches from Start (see the module comment) with Algo to MaxDepth
%   (an integer or `inf`). Algo is `minimax`, `alphabeta`, `ordered`
%   (alpha-beta with move ordering), `tt` (with ordering and a
%   transposition table), `quiescence` (alpha-beta with quiescence search
%   at the depth limit), `expectiminimax` (games of chance), `id(Budget)`
%   (iterative deepening within Budget, `positions(N)` or `ms(N)`) or
%   `mcts(Playouts, Seed)` (Monte Carlo tree search; for these two
%   MaxDepth is not used). Json holds
%   position (the root, `~q`), drawing (the root for people), value,
%   line (the principal variation, root first, `~q`), moves (the moves
%   along it, for people), nodes (positions visited), seconds, faults:
%   what lint:root_faults/3 finds at the root and its successors (each as
%   lint:fault_json/3 writes it), which make the value wrong; and for
%   iterative deepening `depth` (the deepest completed) and `per_depth`
%   (`[Depth, Visited]` pairs); for MCTS `children` (each root successor's
%   `move`, `visits` and `reward`, the total reward of its playouts for
%   the side to move, 1 a win and 0.5 a draw; the value is the chosen
%   successor's mean reward for MAX, from -1, a loss, to 1, a win).

search_job(Game, Start, Algo, MaxDepth, Json) :-
    job_answer(search_answer(Game, Start, Algo, MaxDepth), Json).

search_answer(Game, Start, Algo, MaxDepth, Answer) :-
    job_start(Start, Game, Pos),
    root_faults(Game, Pos, Faults),
    maplist(fault_json(Game), Faults, FaultTerms),
    reset_visited,
    get_time(T0),
    run(Algo, Game, Pos, MaxDepth, Line, Val, Extra),
    get_time(T1),
    visited(Nodes),
    Seconds is T1 - T0,
    game_drawing(Game, Pos, Drawing),
    maplist(term_text, Line, Texts),
    Texts = [Root|_],
    labels(Line, Game, Moves),
    append([position=Root, drawing=Drawing, value=Val, line=Texts,
            moves=Moves, nodes=Nodes, seconds=Seconds, faults=FaultTerms], Extra, Pairs),
    Answer = json(Pairs).

run(minimax, Game, Pos, MaxDepth, Line, Val, []) :-
    minimax_pv(Game:Pos, MaxDepth, Line, Val).
run(alphabeta, Game, Pos, MaxDepth, Line, Val, []) :-
    alphabeta_pv(Game:Pos, -1.0Inf, 1.0Inf, MaxDepth, Line, Val).
run(ordered, Game, Pos, MaxDepth, Line, Val, []) :-
    ordered_alphabeta_pv(Game:Pos, -1.0Inf, 1.0Inf, MaxDepth, Line, Val).
run(tt, Game, Pos, MaxDepth, Line, Val, []) :-
    clear_table,
    tt_alphabeta_pv(Game:Pos, MaxDepth, Line, Val),
    clear_table.
run(quiescence, Game, Pos, MaxDepth, Line, Val, []) :-
    quiescence_pv(Game:Pos, MaxDepth, Line, Val).
run(expectiminimax, Game, Pos, MaxDepth, Line, Val, []) :-
    expectiminimax_pv(Game:Pos, MaxDepth, Line, Val).
run(id(Budget), Game, Pos, _, Line, Val, [depth=Depth, per_depth=Pairs]) :-
    iterative_deepening(Game:Pos, Budget, id(Depth, Line, Val, PerDepth)),
    clear_table,
    maplist(pair_list, PerDepth, Pairs).
run(mcts(Playouts, Seed), Game, Pos, _, Line, Val, [children=Children]) :-
    (   mcts(Game:Pos, [playouts(Playouts), seed(Seed)], mcts(Best, Stats))
    ->  Line = [Pos, Best],
        memberchk(Best-stats(N, R), Stats),
        Mean is R / max(N, 1),                  % for the side to move
        (   Game:max_to_move(Pos) -> Val is 2 * Mean - 1 ; Val is 1 - 2 * Mean ),
        maplist(child_json(Game, Pos), Stats, Children)
    ;   Line = [Pos],                       % the game is over at Pos
        Game:staticval(Pos, Val),
        Children = []
    ).

pair_list(D-N, [D, N]).

child_json(Game, Pos, Succ-stats(N, R), json([move=Move, visits=N, reward=R])) :-
    game_move_label(Game, Pos, Succ, Move).

% labels(+Line, +Game, -Moves): the moves between consecutive positions.
labels([Pos, Pos1|Line], Game, [Move|Moves]) :- !,
    game_move_label(Game, Pos, Pos1, Move),
    labels([Pos1|Line], Game, Moves).
labels(_, _, []).

%!  turn_job(+Game, +Start, -Json) is det.
%
%   Json describes the position Start (see the module comment): position
%   (`~q`), drawing (for people), max_to_move, chance (dice decide there:
%   the game's chance_moves/2), over (no move is left),
%   value (the static value once the game is over, else null) and prompt
%   (how a person moves there, null once the game is over).

turn_job(Game, Start, Json) :-
    job_answer(turn_answer(Game, Start), Json).

turn_answer(Game, Start, json([position=Text, drawing=Drawing,
                               max_to_move=Max, chance=Chance, over=Over,
                               value=Val, prompt=Prompt])) :-
    job_start(Start, Game, Pos),
    term_text(Pos, Text),
    game_drawing(Game, Pos, Drawing),
    truth(Game:max_to_move(Pos), Max),
    truth(( current_predicate(Game:chance_moves/2), Game:chance_moves(Pos, _) ), Chance),
    (   Game:moves(Pos, [_|_])
    ->  Over = @(false), Val = @(null),
        game_move_prompt(Game, Pos, Prompt)
    ;   Over = @(true), Prompt = @(null),
        checked_staticval(Game, Pos, Val)
    ).

truth(Goal, @(true)) :- call(Goal), !.
truth(_, @(false)).

%!  move_job(+Game, +PosText, +Typed, -Json) is det.
%
%   Json holds the position (`~q`) after the move Typed a person made in
%   the position PosText (`~q`), and the move for people; or the error
%   when Typed names no move there.

move_job(Game, PosText, Typed, Json) :-
    job_answer(move_answer(Game, PosText, Typed), Json).

move_answer(Game, PosText, Typed, json([position=Text, move=Move])) :-
    read_position(PosText, Pos),
    game_read_move(Game, Pos, Typed, Pos1),
    game_move_label(Game, Pos, Pos1, Move),
    term_text(Pos1, Text).

%!  lint_job(+Game, +Start, +MaxPositions, +MaxDepth, -Json) is det.
%
%   Lints Game (lint:lint/5) from Start (see the module comment; for
%   `initial`, every solution of the game's initial/1), examining at
%   most MaxPositions positions, none deeper than MaxDepth (an integer
%   or `inf`). Json is the report as lint:lint_json/2 writes it, with
%   starts (the start positions, `~q`) beside.

lint_job(Game, Start, MaxPositions, MaxDepth, Json) :-
    job_answer(lint_answer(Game, Start, MaxPositions, MaxDepth), Json).

lint_answer(Game, Start, MaxPositions, MaxDepth, json([starts=Texts|Fields])) :-
    findall(Pos, job_start(Start, Game, Pos), Starts),
    maplist(term_text, Starts, Texts),
    lint(Game, Starts, MaxPositions, MaxDepth, Report),
    lint_json(Report, json(Fields)).

%!  job_start(+Start, +Game, -Pos) is nondet.
%
%   Pos is the position a job starts from (see the module comment; every
%   solution of the game's initial/1 for `initial`).

job_start(typed(Text), Game, Pos) :-
    game_position(Game, Text, Pos).
job_start(term(Text), _, Pos) :-
    read_position(Text, Pos).
job_start(initial, Game, Pos) :-
    Game:initial(Pos).

%!  job_answer(:Answer, -Json) is det.
%
%   Json is the JSON string of the term call(Answer, Term) gives, or
%   `{"error": Message}` when it refuses a person's text on the way.

:- meta_predicate job_answer(1, -).

job_answer(Answer, Json) :-
    catch(call(Answer, Term), Error, refused(Error, Term)),
    json_string(Term, Json).

refused(Error, json([error=Message])) :-
    refusal(Error, Message),
    !.
refused(Error, _) :-
    throw(Error).

term_text(Pos, Text) :-
    format(string(Text), "~q", [Pos]).
