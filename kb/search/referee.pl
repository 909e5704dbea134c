:- module(referee,
          [ player_move/5,              % +Player, +Game, +Pos, -Pos1, -Stats
            chance_step/3,              % +Game, +Pos, -Pos1
            referee_game/5,             % +Game, +Pos, +Players, +MaxPlies, -Game
            match_game_job/6,           % +Game, +Start, +First, +Second, +Seed, -Json
            ply_job/5                   % +Game, +PosText, +Player, +Seed, -Json
          ]).
:- use_module(library(random)).
:- use_module(library(lists)).
:- use_module(search).
:- use_module(refined, [iterative_deepening/3, clear_table/0]).
:- use_module(chance, [expectiminimax_pv/4]).
:- use_module(mcts, [mcts/3]).
:- use_module(game_io).
:- use_module(jobs, [job_start/3, job_answer/2]).
:- use_module('../job_io').
:- use_module('../al0/al0', [decide/5]).

/** <module> A referee: two players play a game to its end

Players are terms:

    * `random`: a move chosen at random (library(random), seeded);
    * `minimax(Depth)`, `alphabeta(Depth)`: search.pl to Depth (an
      integer or `inf`);
    * `id(Ms)`: iterative deepening (refined.pl) within Ms milliseconds;
    * `mcts(Playouts)`: Monte Carlo tree search (mcts.pl), seeded;
    * `expectiminimax(Depth)`: for games of chance (chance.pl);
    * `table(Ctx)`: an advice table, Ctx its AL0 context
      (al0:decide/5), for a game whose advice domain reads the game's
      positions as the game writes them (`position_text/2`) and whose
      moves the game reads (`read_move/3`): the table is consulted afresh
      at each of its moves.

A game of chance has positions where dice decide (`chance_moves/2`,
chance.pl); the referee rolls them with the same random generator, so a
match with a given seed is played the same way every time.
*/

%!  player_move(+Player, +Game, +Pos, -Pos1, -Stats) is semidet.
%
%   Player, to move at Pos in Game, moves to Pos1. Stats is
%   `stats(Positions, Ms)`: the positions its search visited and the
%   milliseconds it took. Fails when the player finds no move (a table
%   whose advice does not apply).

player_move(Player, Game, Pos, Pos1, stats(Visited, Ms)) :-
    reset_visited,
    get_time(T0),
    chosen(Player, Game, Pos, Pos1),
    get_time(T1),
    visited(Visited),
    Ms is (T1 - T0) * 1000.

chosen(random, Game, Pos, Pos1) :-
    Game:moves(Pos, Succs),
    random_member(Pos1, Succs).
chosen(minimax(Depth), Game, Pos, Pos1) :-
    minimax_pv(Game:Pos, Depth, [_, Pos1|_], _).
chosen(alphabeta(Depth), Game, Pos, Pos1) :-
    alphabeta_pv(Game:Pos, -1.0Inf, 1.0Inf, Depth, [_, Pos1|_], _).
chosen(id(Ms), Game, Pos, Pos1) :-
    iterative_deepening(Game:Pos, ms(Ms), id(Depth, Line, _, _)),
    clear_table,
    (   Depth > 0
    ->  Line = [_, Pos1|_]
    ;   Game:moves(Pos, [Pos1|_])             % not even depth 1 in time
    ).
chosen(mcts(Playouts), Game, Pos, Pos1) :-
    random_between(0, 1000000000, Seed),
    mcts(Game:Pos, [playouts(Playouts), seed(Seed)], mcts(Pos1, _)).
chosen(expectiminimax(Depth), Game, Pos, Pos1) :-
    expectiminimax_pv(Game:Pos, Depth, [_, Pos1|_], _).
chosen(table(Ctx), Game, Pos, Pos1) :-
    Ctx = ctx(_, _, Domain),
    Game:position_text(Pos, Text),
    Domain:parse_position(Text, DomainPos0),
    Domain:reset_depth(DomainPos0, DomainPos),
    decide(Ctx, DomainPos, _, _, us(Move, _, _)),
    Domain:move_text(DomainPos, Move, MoveText),
    game_read_move(Game, Pos, MoveText, Pos1).

%!  chance_step(+Game, +Pos, -Pos1) is semidet.
%
%   Pos is a position where dice decide (the game's chance_moves/2), and
%   Pos1 the outcome rolled, each with its probability. Fails at any
%   other position.

chance_step(Game, Pos, Pos1) :-
    current_predicate(Game:chance_moves/2),
    Game:chance_moves(Pos, Outcomes),
    random(R),
    rolled(Outcomes, R, Pos1).

rolled([_-Pos], _, Pos) :- !.
rolled([P-Pos|Outcomes], R, Rolled) :-
    (   R < P
    ->  Rolled = Pos
    ;   R1 is R - P,
        rolled(Outcomes, R1, Rolled)
    ).

%!  referee_game(+Game, +Pos, +Players, +MaxPlies, -Played) is det.
%
%   Plays Game from Pos to its end, Players being `players(Max, Min)`,
%   rolling the dice where they decide, for at most MaxPlies moves of
%   the players. Played is `played(Result, Steps)`: Result `max`, `min`
%   or `draw` (the sign of staticval/2 at the end), `unfinished` past
%   MaxPlies, or `no_move(Side)` when a player found no move; Steps
%   lists `move(Side, Pos, Pos1, Stats)` and `roll(Pos, Pos1)`, in
%   order.

referee_game(Game, Pos, Players, MaxPlies, played(Result, Steps)) :-
    play(Game, Pos, Players, MaxPlies, Result, Steps).

play(Game, Pos, Players, Left, Result, Steps) :-
    (   chance_step(Game, Pos, Pos1)
    ->  Steps = [roll(Pos, Pos1)|Rest],
        play(Game, Pos1, Players, Left, Result, Rest)
    ;   \+ ( Game:moves(Pos, Succs), Succs \== [] )
    ->  Game:staticval(Pos, Val),
        winner(Val, Result),
        Steps = []
    ;   Left =:= 0
    ->  Result = unfinished,
        Steps = []
    ;   side(Game, Pos, Side),
        side_player(Side, Players, Player),
        (   player_move(Player, Game, Pos, Pos1, Stats)
        ->  Steps = [move(Side, Pos, Pos1, Stats)|Rest],
            Left1 is Left - 1,
            play(Game, Pos1, Players, Left1, Result, Rest)
        ;   Result = no_move(Side),
            Steps = []
        )
    ).

winner(Val, max) :- Val > 0, !.
winner(Val, min) :- Val < 0, !.
winner(_, draw).

side(Game, Pos, Side) :-
    (   Game:max_to_move(Pos) -> Side = max ; Side = min ).

side_player(max, players(Player, _), Player).
side_player(min, players(_, Player), Player).

%!  match_game_job(+Game, +Start, +First, +Second, +Seed, -Json) is det.
%
%   Plays one game of a match: First plays MAX (it moves first at the
%   start), Second MIN, with the random generator seeded by Seed. Start
%   is as in jobs.pl (`initial`, `typed(Text)`, `term(Text)`). Json
%   holds result (`max`, `min`, `draw`, `unfinished`, or `no_move_max`
%   / `no_move_min`), moves (labels for people; a roll is labelled by
%   the position it gives) and, for `max` and `min`, the moves made, the
%   positions visited and the milliseconds taken.

match_game_job(Game, Start, First, Second, Seed, Json) :-
    job_answer(match_game(Game, Start, First, Second, Seed), Json).

match_game(Game, Start, First, Second, Seed,
           json([result=Name, moves=Labels, max=MaxTotals, min=MinTotals])) :-
    set_random(seed(Seed)),
    once(job_start(Start, Game, Pos)),
    referee_game(Game, Pos, players(First, Second), 1000, played(Result, Steps)),
    result_name(Result, Name),
    maplist(step_label(Game), Steps, Labels),
    side_totals(max, Steps, MaxTotals),
    side_totals(min, Steps, MinTotals).

result_name(no_move(Side), Name) :- !,
    atom_concat(no_move_, Side, Name).
result_name(Result, Result).

step_label(Game, move(_, Pos, Pos1, _), Label) :-
    game_move_label(Game, Pos, Pos1, Label).
step_label(Game, roll(Pos, Pos1), Label) :-
    game_move_label(Game, Pos, Pos1, Label).

side_totals(Side, Steps, json([moves=N, positions=Visited, ms=Ms])) :-
    aggregate_all(count, member(move(Side, _, _, _), Steps), N),
    aggregate_all(sum(V), member(move(Side, _, _, stats(V, _)), Steps), Visited),
    aggregate_all(sum(T), member(move(Side, _, _, stats(_, T)), Steps), Ms).

%!  ply_job(+Game, +PosText, +Player, +Seed, -Json) is det.
%
%   One step at the position PosText (`~q`), for a game a person plays:
%   the dice rolled where they decide, else Player's move. Json holds
%   position (`~q`), move (for people), roll (true for dice), positions
%   and ms; or `{"error": Message}` when Player finds no move.

ply_job(Game, PosText, Player, Seed, Json) :-
    job_answer(ply(Game, PosText, Player, Seed), Json).

ply(Game, PosText, Player, Seed, Answer) :-
    set_random(seed(Seed)),
    read_position(PosText, Pos),
    (   chance_step(Game, Pos, Pos1)
    ->  Roll = @(true), Visited = 0, Ms = 0
    ;   player_move(Player, Game, Pos, Pos1, stats(Visited, Ms))
    ->  Roll = @(false)
    ;   Roll = none
    ),
    (   Roll == none
    ->  Answer = json([error="the player finds no move here"])
    ;   game_move_label(Game, Pos, Pos1, Label),
        format(string(Text), "~q", [Pos1]),
        Answer = json([position=Text, move=Label, roll=Roll, positions=Visited, ms=Ms])
    ).
