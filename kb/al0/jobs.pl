:- module(al0_jobs,
          [ explain_job/3,              % +Ctx, +PosText, -Json
            play_job/5,                 % +Ctx, +PosText, :Defender, +MaxUsMoves, -Json
            state_job/4,                % +Ctx, +Command, +Arg, -Json
            random_reply/4,             % +Domain, +Pos, -Move, -Pos1
            line_texts/4,               % +Domain, +Pos, +Moves, -Texts
            step_move/2                 % +Step, -Move
          ]).

/** <module> AL0 jobs for the engine: one call, one JSON string back

Positions arrive as text and are read with term_string/2 (reading runs
nothing). Moves go back as the domain's move_text/3.
*/

:- use_module('../job_io').
:- use_module(al0).

:- meta_predicate play_job(+, +, 3, +, -).

%!  explain_job(+Ctx, +PosText, -Json) is det.
%
%   Consults the table at PosText and explains the choice: every rule
%   up to the one that fired (with whether its condition holds), each
%   piece of advice of that rule tried in order with why it failed or the
%   forcing tree it gave.

explain_job(Ctx, PosText, Json) :-
    read_position(PosText, Pos0),
    Ctx = ctx(_, Table, D),
    D:reset_depth(Pos0, Pos),
    findall(R-Cond-As, Table:table_rule(R, Cond, As), Rules),
    explain_rules(Rules, Ctx, Pos, RuleReports, Fired),
    (   Fired = R-As
    ->  explain_advice(As, Ctx, Pos, AdviceReports, Chosen),
        Fields = [rule=R, advice=AdviceReports, chosen=Chosen]
    ;   Fields = [rule= @(null), advice=[], chosen= @(null)]
    ),
    json_string(json([rules=RuleReports|Fields]), Json).

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

explain_advice([], _, _, [], @(null)).
explain_advice([A|As], Ctx, Pos, [json([name=A|Fields])|Reports], Chosen) :-
    Ctx = ctx(_, Table, D),
    Table:table_advice(A, Better, Holding, _, _),
    (   \+ holds(Holding, D, Pos, Pos)
    ->  why_not(Holding, D, Pos, Pos, Text),
        Fields = [status=holding_failed, reason=Text]
    ;   forcing_tree(Ctx, A, Pos, Tree)
    ->  (   Tree == leaf
        ->  goal_text(Better, BText),
            format(string(Text), "its better-goal ~w already holds: no move to make", [BText]),
            Fields = [status=no_move, reason=Text]
        ;   tree_json(D, Pos, Tree, TreeJson),
            tree_size(Tree, Size),
            Fields = [status=satisfiable, tree=TreeJson, tree_positions=Size]
        )
    ;   Fields = [status=no_tree,
                  reason="no forcing tree within the move constraints"]
    ),
    (   memberchk(status=satisfiable, Fields)
    ->  Reports = [], Chosen = A
    ;   explain_advice(As, Ctx, Pos, Reports, Chosen)
    ).

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

%!  play_job(+Ctx, +PosText, :Defender, +MaxUsMoves, -Json) is det.
%
%   Plays the table from PosText against Defender (called as
%   call(Defender, Pos, Move, Pos1)) and describes the game: result,
%   moves (each with the side, the move's text and, for ours, the rule
%   and advice behind it) and our move count.

play_job(Ctx, PosText, Defender, MaxUsMoves, Json) :-
    read_position(PosText, Pos0),
    Ctx = ctx(_, _, D),
    D:reset_depth(Pos0, Pos),
    play_game(Ctx, Pos, Defender, MaxUsMoves, Result, Steps),
    maplist(step_move, Steps, Moves),
    line_texts(D, Pos, Moves, Texts),
    maplist(step_json, Steps, Texts, Json0),
    aggregate_all(count, member(us(_, _, _), Steps), UsMoves),
    json_string(json([result=Result, moves=Json0, us_moves=UsMoves]), Json).

step_json(us(_, Rule, Advice), Text, json([side=us, move=Text, rule=Rule, advice=Advice])).
step_json(them(_), Text, json([side=them, move=Text])).

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
%       as its text; Json says whether it was legal.
%
%   Json always holds `over` (the outcome, or null) and `moves`, the
%   legal moves' texts in the position reached.

state_job(Ctx, start, PosText, Json) :-
    read_position(PosText, Pos0),
    Ctx = ctx(_, _, D),
    D:reset_depth(Pos0, Pos),
    new_game(Pos, State),
    nb_setval(al0_state, State),
    state_json(Ctx, State, [], Json).
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
    (   D:legalmove(Pos, Move, Pos1),
        D:move_text(Pos, Move, MoveText)
    ->  them_turn(Ctx, State0, Move, Pos1, State),
        nb_setval(al0_state, State),
        state_json(Ctx, State, [legal= @(true)], Json)
    ;   state_json(Ctx, State0, [legal= @(false)], Json)
    ).

state_json(Ctx, State, Fields, Json) :-
    State = state(Pos, _, _, _),
    Ctx = ctx(_, _, D),
    (   game_over(Ctx, State, Result) -> Over = Result ; Over = @(null) ),
    findall(T, (D:legalmove(Pos, M, _), D:move_text(Pos, M, T)), Moves),
    format(string(PosOut), "~q", [Pos]),
    json_string(json([over=Over, moves=Moves, position=PosOut|Fields]), Json).
