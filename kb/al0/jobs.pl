:- module(al0_jobs,
          [ domain_job/2,               % +Domain, -Json
            chess_material_job/2,       % +Domain, -Json
            position_job/3,             % +Domain, +Given, -Json
            explain_job/3,              % +Ctx, +PosText, -Json
            play_job/7,                 % +Ctx, +PosText, +Kind, +Seed, +MaxUsMoves, +Log, -Json
            state_job/4,                % +Ctx, +Command, +Arg, -Json
            solve_job/3,                % +Domain, +PosText, -Json
            defender/3,                 % +Domain, +Kind, -Closure
            random_reply/4,             % +Domain, +Pos, -Move, -Pos1
            line_texts/4,               % +Domain, +Pos, +Moves, -Texts
            step_move/2,                % +Step, -Move
            moves_lost/4,               % +Domain, +Pos, +Moves, -Lost
            optimal_count/3             % +Domain, +Pos, -N
          ]).

/** <module> AL0 jobs for the engine: one call, one JSON string back

Positions arrive as text and are read with term_string/2 (reading runs
nothing). Moves go back as the domain's move_text/3, positions as
al0_domain:position_json/3 describes them.
*/

:- use_module('../job_io').
:- use_module(al0).
:- use_module(domain).

%!  domain_job(+Domain, -Json) is det.
%
%   Json describes what Domain declares (al0_domain:domain_json/2).

domain_job(D, Json) :-
    domain_json(D, Json).

%!  chess_material_job(+Domain, -Json) is det.
%
%   Json is `{"white": W, "black": B}` for a domain that declares
%   chess_material/2, else `null`: the engine loads its tablebases before
%   reading the other declarations, which may need them.

chess_material_job(D, Json) :-
    (   declares(D, chess_material, 2), D:chess_material(W, B)
    ->  json_string(json([white=W, black=B]), Json)
    ;   Json = "null"
    ).

%!  position_job(+Domain, +Given, -Json) is det.
%
%   Json describes the position a person gave (see
%   al0_domain:person_position/3 for Given), as position_json/3 does.

position_job(D, Given, Json) :-
    person_position(D, Given, Pos),
    position_json(D, Pos, Term),
    json_string(Term, Json).

% our_position(+Ctx, +PosText, -Pos): the position a job starts from,
% depth 0; the table plays us, so us must be to move.
our_position(ctx(_, _, D), PosText, Pos) :-
    read_position(PosText, Pos0),
    D:reset_depth(Pos0, Pos),
    (   D:to_move(Pos, us)
    ->  true
    ;   position_text(D, Pos, Text),
        throw(error(al0_not_our_move(D, Text), _))
    ).

:- multifile prolog:error_message//1.

prolog:error_message(al0_not_our_move(D, Text)) -->
    [ 'the table moves for us, and at ~w it is not our move (~w)'-[Text, D] ].

%!  explain_job(+Ctx, +PosText, -Json) is det.
%
%   Consults the table at PosText and explains the choice: every rule
%   up to the one that fired (with whether its condition holds), each
%   piece of advice of that rule tried in order with why it failed or the
%   forcing tree it gave.  In a domain that declares symmetries the
%   table is consulted at the representative of PosText's class
%   (`consulted_at`, null when that is PosText itself); the trees are
%   shown from PosText.

explain_job(Ctx, PosText, Json) :-
    our_position(Ctx, PosText, Pos),
    Ctx = ctx(_, Table, D),
    consulted_at(D, Pos, At, Back),
    (   At == Pos
    ->  AtJson = @(null)
    ;   position_json(D, At, AtJson)
    ),
    findall(R-Cond-As, Table:table_rule(R, Cond, As), Rules),
    explain_rules(Rules, Ctx, At, RuleReports, Fired),
    (   Fired = R-As
    ->  explain_advice(As, Ctx, At-Back, Pos, AdviceReports, Chosen),
        Fields = [rule=R, advice=AdviceReports, chosen=Chosen]
    ;   Fields = [rule= @(null), advice=[], chosen= @(null)]
    ),
    json_string(json([consulted_at=AtJson, rules=RuleReports|Fields]), Json).

explain_rules([], _, _, [], none).
explain_rules([R-Cond-As|Rules], Ctx, Pos, [json([name=R, holds=B|Why])|Reports], Fired) :-
    Ctx = ctx(_, _, D),
    (   holds(Cond, D, Pos, Pos)
    ->  B = @(true), Why = [], Reports = [], Fired = R-As
    ;   B = @(false),
        why_not(Cond, D, Pos, Pos, Text),
        Why = [reason=Text],
        explain_rules(Rules, Ctx, Pos, Reports, Fired)
    ).

% explain_advice(+Advices, +Ctx, +At-Back, +Pos, -Reports, -Chosen): the
% advice tried at At (al0:consulted_at/4), the trees shown from Pos.
explain_advice([], _, _, _, [], @(null)).
explain_advice([A|As], Ctx, At-Back, Pos, [json([name=A|Fields])|Reports], Chosen) :-
    Ctx = ctx(_, Table, D),
    Table:table_advice(A, Better, Holding, _, _),
    (   \+ holds(Holding, D, At, At)
    ->  why_not(Holding, D, At, At, Text),
        Fields = [status=holding_failed, reason=Text]
    ;   located(Ctx, At, tree_in(A, At, Tree0))
    ->  (   Tree0 == leaf
        ->  goal_text(Better, BText),
            format(string(Text), "its better-goal ~w already holds: no move to make", [BText]),
            Fields = [status=no_move, reason=Text]
        ;   tree_back(D, Back, Tree0, Tree),
            tree_json(D, Pos, Tree, TreeJson),
            tree_size(Tree, Size),
            Fields = [status=satisfiable, tree=TreeJson, tree_positions=Size]
        )
    ;   Fields = [status=no_tree,
                  reason="no forcing tree within the move constraints"]
    ),
    (   memberchk(status=satisfiable, Fields)
    ->  Reports = [], Chosen = A
    ;   explain_advice(As, Ctx, At-Back, Pos, Reports, Chosen)
    ).

tree_in(Advice, Pos, Tree, Ctx) :-
    forcing_tree(Ctx, Advice, Pos, Tree).

% why_not(+Goal, +D, +Pos, +Root, -Text): the part of Goal that fails.
why_not(and(Gs), D, Pos, Root, Text) :-
    member(G, Gs),
    \+ holds(G, D, Pos, Root), !,
    why_not(G, D, Pos, Root, Text).
why_not(G, _, _, _, Text) :-
    goal_text(G, T0),
    format(string(Text), "~w is false", [T0]).

goal_text(true, "true").
goal_text(false, "false").
goal_text(not(G), Text) :-
    goal_text(G, T), format(string(Text), "not ~w", [T]).
goal_text(and(Gs), Text) :- join_goals(Gs, " and ", Text).
goal_text(or(Gs), Text) :- join_goals(Gs, " or ", Text).
goal_text(pred(N, []), Text) :- !, atom_string(N, Text).
goal_text(pred(N, Args), Text) :-
    format(string(Text), "~w(~q)", [N, Args]).

join_goals(Gs, Sep, Text) :-
    maplist([G, T]>>(goal_text(G, T0), (G = pred(_, _) -> T = T0 ; format(string(T), "(~w)", [T0]))),
            Gs, Ts),
    atomic_list_concat(Ts, Sep, A),
    atom_string(A, Text).

% tree_json(+D, +Pos, +Tree, -Json): a forcing tree with moves as text.
tree_json(_, _, leaf, json([])).
tree_json(D, Pos, us(Move, Pos1, Tree), json([us=Text, next=Next])) :-
    D:move_text(Pos, Move, Text),
    tree_json(D, Pos1, Tree, Next).
tree_json(D, Pos, them(Branches), json([them=Replies])) :-
    findall(json([move=Text, next=Next]),
            ( member(b(Move, Pos1, Tree), Branches),
              D:move_text(Pos, Move, Text),
              tree_json(D, Pos1, Tree, Next) ),
            Replies).

tree_size(leaf, 1).
tree_size(us(_, _, T), N) :- tree_size(T, N0), N is N0 + 1.
tree_size(them(Bs), N) :-
    foldl([b(_, _, T), A0, A]>>(tree_size(T, S), A is A0 + S), Bs, 1, N).

%!  play_job(+Ctx, +PosText, +Kind, +Seed, +MaxUsMoves, +Log, -Json) is det.
%
%   Plays the table from PosText against the defender Kind (`perfect`
%   or `random`, see defender/3; Seed seeds the random one) and describes the game: result, moves
%   (each with the side, the move's text, the position reached and, for
%   ours, the rule and advice behind it), our move count, our optimal
%   count from the start (see known_optimal/4) and, where the domain
%   declares optimal_moves/2, the moves each of ours lost against
%   optimal play (moves_lost/4), else null.  So that the game so far
%   outlives a job that is stopped, each move is also written to the
%   file Log as it is made, one JSON object a line (the side, the move's
%   text, the position reached and, for ours, the rule and advice), and
%   then the result (`{"result": ...}`); where Log cannot be written,
%   the game is played all the same.

play_job(Ctx, PosText, Kind, Seed, MaxUsMoves, Log, Json) :-
    our_position(Ctx, PosText, Pos),
    set_random(seed(Seed)),
    Ctx = ctx(_, _, D),
    defender(D, Kind, Defender),
    setup_call_cleanup(
        open_log(Log, Out),
        (   play_game(Ctx, Pos, Defender, MaxUsMoves, log_step(D, Out), Result, Steps),
            log_line(Out, json([result=Result]))
        ),
        close_log(Out)),
    maplist(step_move, Steps, Moves),
    line_texts(D, Pos, Moves, Texts),
    line_positions(D, Pos, Moves, Positions),
    maplist(step_json, Steps, Texts, Positions, Json0),
    aggregate_all(count, member(us(_, _, _), Steps), UsMoves),
    known_optimal(D, Kind, Pos, Optimal),
    moves_lost(D, Pos, Moves, Lost),
    json_string(json([result=Result, moves=Json0, us_moves=UsMoves,
                      optimal=Optimal, lost=Lost]), Json).

% known_optimal(+Domain, +Kind, +Pos, -Optimal): our optimal number of
% moves from Pos where the domain knows it, or where the perfect
% defender plays (it is searched then anyway); else null.
known_optimal(D, Kind, Pos, Optimal) :-
    (   ( declares(D, optimal_moves, 2) ; Kind == perfect ),
        optimal_counter(D, Counter),
        call(Counter, Pos, N)
    ->  Optimal = N
    ;   Optimal = @(null)
    ).

%!  moves_lost(+Domain, +Pos, +Moves, -Lost) is det.
%
%   For each of our moves in Moves (a line played from Pos, both sides'
%   moves in turn), how many moves it lost against optimal play: our
%   optimal count after it, less the count before it, less one; 0 for a
%   move on an optimal line, null where a count is not known.  After a
%   move that ends the game in a success the count is 0.  Lost is null
%   when the domain declares no optimal_moves/2.

moves_lost(D, Pos, Moves, Lost) :-
    (   declares(D, optimal_moves, 2)
    ->  line_lost(D, Pos, Moves, Lost)
    ;   Lost = @(null)
    ).

line_lost(_, _, [], []).
line_lost(D, Pos, [Move|Moves], Lost) :-
    once(D:legalmove(Pos, Move, Pos1)),
    (   D:to_move(Pos, us)
    ->  optimal_count(D, Pos, Before),
        count_after(D, Pos1, After),
        (   integer(Before), integer(After)
        ->  Lost0 is After - (Before - 1)
        ;   Lost0 = @(null)
        ),
        Lost = [Lost0|Lost1]
    ;   Lost = Lost1
    ),
    line_lost(D, Pos1, Moves, Lost1).

count_after(D, Pos, N) :-
    (   D:outcome(Pos, Result)
    ->  success_outcomes(D, Ok),
        (   memberchk(Result, Ok) -> N = 0 ; N = @(null) )
    ;   optimal_count(D, Pos, N)
    ).

%!  optimal_count(+Domain, +Pos, -N) is det.
%
%   N is the domain's optimal_moves/2 at Pos, or null where it has none
%   there or declares none.

optimal_count(D, Pos, N) :-
    (   declares(D, optimal_moves, 2), D:optimal_moves(Pos, N0)
    ->  N = N0
    ;   N = @(null)
    ).

% open_log(+File, -Out): Out is File opened for a game's log, or `none`
% where it cannot be opened (a name the locale cannot write, no such
% folder, ...).
open_log(File, Out) :-
    catch(open(File, write, Out, [encoding(utf8)]), error(_, _), Out = none).

close_log(none) :- !.
close_log(Out) :-
    catch(close(Out), error(_, _), true).

% log_step(+Domain, +Out, +Pos0, +Step, +Pos1): Step, made at Pos0, as
% a line of the game's log.
log_step(_, none, _, _, _) :- !.
log_step(D, Out, Pos0, Step, Pos1) :-
    step_move(Step, Move),
    D:move_text(Pos0, Move, Text),
    position_json(D, Pos1, Position),
    step_json(Step, Text, Position, Term),
    log_line(Out, Term).

% log_line(+Out, +Term): Term as a line of JSON on Out, flushed at once.
% A write that fails (a full disk) leaves the log short; the game goes on.
log_line(none, _) :- !.
log_line(Out, Term) :-
    json_string(Term, Line),
    catch(( format(Out, "~s~n", [Line]), flush_output(Out) ), error(_, _), true).

step_json(us(_, Rule, Advice), Text, Position,
          json([side=us, move=Text, rule=Rule, advice=Advice, position=Position])).
step_json(them(_), Text, Position, json([side=them, move=Text, position=Position])).

line_positions(_, _, [], []).
line_positions(D, Pos, [Move|Moves], [Json|Jsons]) :-
    once(D:legalmove(Pos, Move, Pos1)),
    position_json(D, Pos1, Json),
    line_positions(D, Pos1, Moves, Jsons).

%!  defender(+Domain, +Kind, -Closure) is det.
%
%   The defender Kind (`perfect` or `random`) of Domain, called as
%   call(Closure, Pos, Move, Pos1).

defender(D, perfect, Closure) :-
    perfect_defender(D, Closure).
defender(D, random, al0_jobs:random_reply(D)).

%!  step_move(+Step, -Move) is det.
%
%   The move of a step of play_game/6 (ours or theirs).

step_move(us(Move, _, _), Move).
step_move(them(Move), Move).

%!  line_texts(+Domain, +Pos, +Moves, -Texts) is det.
%
%   Texts are the domain's move_text/3 of the moves of a line played
%   from Pos.

line_texts(_, _, [], []).
line_texts(D, Pos, [Move|Moves], [Text|Texts]) :-
    D:move_text(Pos, Move, Text),
    once(D:legalmove(Pos, Move, Pos1)),
    line_texts(D, Pos1, Moves, Texts).

%!  random_reply(+Domain, +Pos, -Move, -Pos1) is semidet.
%
%   A legal move chosen at random (seed with set_random/1 first).

random_reply(D, Pos, Move, Pos1) :-
    findall(M-P, D:legalmove(Pos, M, P), Replies),
    random_member(Move-Pos1, Replies).

%!  state_job(+Ctx, +Command, +Arg, -Json) is det.
%
%   One turn of a game played move by move (a person defending): the
%   game's state is kept between calls.
%
%     * state_job(Ctx, start, PosText, Json): a new game from PosText;
%     * state_job(Ctx, us, _, Json): our move (rule, advice, move text);
%     * state_job(Ctx, them, MoveText, Json): the opponent's move, given
%       as its text; Json says whether it was legal, and when not, why
%       (`reason`: the domain's move_refusal/3, or null).
%
%   Json always holds `over` (the outcome, or null), `moves`, the
%   legal moves' texts in the position reached, and `position`
%   (position_json/3); at the start also `optimal` (known_optimal/4 for
%   a person defending).

state_job(Ctx, start, PosText, Json) :-
    our_position(Ctx, PosText, Pos),
    new_game(Pos, State),
    nb_setval(al0_state, State),
    Ctx = ctx(_, _, D),
    known_optimal(D, human, Pos, Optimal),
    state_json(Ctx, State, [optimal=Optimal], Json).
state_job(Ctx, us, _, Json) :-
    nb_getval(al0_state, State0),
    State0 = state(Pos, _, _, _),
    Ctx = ctx(_, _, D),
    (   us_turn(Ctx, State0, step(Move, _, Rule, Advice, Fresh), State)
    ->  D:move_text(Pos, Move, Text),
        nb_setval(al0_state, State),
        state_json(Ctx, State, [move=Text, rule=Rule, advice=Advice,
                                consulted= @(Fresh)], Json)
    ;   state_json(Ctx, State0, [move= @(null)], Json)
    ).
state_job(Ctx, them, MoveText, Json) :-
    nb_getval(al0_state, State0),
    State0 = state(Pos, _, _, _),
    Ctx = ctx(_, _, D),
    (   move_named(D, Pos, MoveText, Move, Pos1)
    ->  them_turn(Ctx, State0, Move, Pos1, State),
        nb_setval(al0_state, State),
        state_json(Ctx, State, [legal= @(true)], Json)
    ;   declares(D, move_refusal, 3), D:move_refusal(Pos, MoveText, Reason)
    ->  state_json(Ctx, State0, [legal= @(false), reason=Reason], Json)
    ;   state_json(Ctx, State0, [legal= @(false), reason= @(null)], Json)
    ).

state_json(Ctx, State, Fields, Json) :-
    State = state(Pos, _, _, _),
    Ctx = ctx(_, _, D),
    (   game_over(Ctx, State, Result) -> Over = Result ; Over = @(null) ),
    findall(T, (D:legalmove(Pos, M, _), D:move_text(Pos, M, T)), Moves),
    position_json(D, Pos, Position),
    json_string(json([over=Over, moves=Moves, position=Position|Fields]), Json).

%!  solve_job(+Domain, +PosText, -Json) is det.
%
%   Json holds `optimal` (our optimal number of moves to success from
%   PosText, null when we cannot force it), `moves` (the texts of an
%   optimal line, both sides playing perfectly, until the game is over;
%   from a position we cannot win, the perfect defender's line until
%   the game ends or we have no optimal move) and `result` (the outcome
%   at its end, or null).

solve_job(D, PosText, Json) :-
    read_position(PosText, Pos0),
    D:reset_depth(Pos0, Pos),
    optimal_counter(D, Counter),
    (   call(Counter, Pos, N) -> Optimal = N ; Optimal = @(null) ),
    optimal_line(D, Pos, 400, Moves, Last),
    line_texts(D, Pos, Moves, Texts),
    (   D:outcome(Last, Result0) -> Result = Result0 ; Result = @(null) ),
    json_string(json([optimal=Optimal, moves=Texts, result=Result]), Json).

optimal_line(D, Pos, Left, Moves, Last) :-
    (   ( Left =:= 0 ; D:outcome(Pos, _) )
    ->  Moves = [], Last = Pos
    ;   D:to_move(Pos, us)
    ->  optimal_mover(D, Mover),
        (   call(Mover, Pos, Move, Pos1)
        ->  Moves = [Move|Rest],
            Left1 is Left - 1,
            optimal_line(D, Pos1, Left1, Rest, Last)
        ;   Moves = [], Last = Pos
        )
    ;   perfect_defender(D, Defender),
        call(Defender, Pos, Move, Pos1),
        Moves = [Move|Rest],
        Left1 is Left - 1,
        optimal_line(D, Pos1, Left1, Rest, Last)
    ).
