:- module(al0_verify,
          [ prepare_starts/5,           % +Domain, +Set, +Sample, -Count, -Population
            prepare_starts_job/4,       % +Domain, +Set, +Sample, -Json
            starts_text/1,              % -Text
            use_starts/1,               % +Text
            verify_games/7,             % +Ctx, +From, +To, +Kind, +Seed, +MaxUs, -Json
            verify_all/6,               % +Ctx, +From, +To, +MaxUs, +Lost, -Json
            use_states/1,               % +Texts
            forget_states/0
          ]).

/** <module> Prove or refute an advice table over a whole set of positions

prepare_starts/5 fixes the start positions (all of one of the domain's
sets, or a seeded sample);
the jobs then take a slice of them, From (inclusive) to To (exclusive),
run every game inside Prolog and give back one JSON string of sums that
the engine merges across slices and worker processes.

  * verify_games/7 plays one game from every start against one defender.
  * verify_all/6 plays against every defence at once: a state is a
    position (depth aside) with the forcing tree still being followed; a
    state that recurs on the way is a loop; the value of a state is the
    worst case over the opponent's replies, memoised across starts, and
    across worker processes: each job gives the values it found, and
    use_states/1 takes those of other workers before a job.

*/

:- use_module(al0).
:- use_module('../job_io').
:- use_module(jobs, [line_texts/4, step_move/2, defender/3, moves_lost/4,
                       optimal_count/3]).
:- use_module(domain, [ declares/3, success_outcomes/2, optimal_counter/2,
                        perfect_defender/2, position_json/3 ]).

:- dynamic memo/2.                 % the SHA-1 of a state's key, its value
:- dynamic valued/1.                % the SHA-1 of each state valued in this slice
:- dynamic line_tally/2.            % the SHA-1 of a state, the tally of its worst line
:- dynamic perfect_game/2.          % the SHA-1 of a state, Moves-Result of the perfect defender's game from it

%!  prepare_starts(+Domain, +Set, +Sample, -Count, -Population) is det.
%
%   The start positions are every Pos of the domain's start(Set, Pos),
%   in order (Population of them), or, when Sample is sample(N, Seed), N
%   of them drawn at random with that seed (kept in the domain's order).
%   Count is how many are chosen. Raises a domain error when N exceeds
%   the population.

prepare_starts(D, Set, Sample, Count, Population) :-
    findall(P, ( D:start(Set, P0), D:reset_depth(P0, P) ), All),
    length(All, Population),
    (   Sample = sample(N, Seed)
    ->  (   N =< Population -> true
        ;   domain_error(sample_within(Population), N)
        ),
        set_random(seed(Seed)),
        numlist(1, Population, Indexes),
        random_permutation(Indexes, Shuffled),
        length(Picked, N), append(Picked, _, Shuffled),
        msort(Picked, Ordered),
        compound_name_arguments(Everything, all, All),
        maplist(start_at(Everything), Ordered, Starts)
    ;   Starts = All
    ),
    length(Starts, Count),
    compound_name_arguments(Array, starts, Starts),
    nb_setval(al0_starts, Array).

% start_at(+Everything, +I, -P): the Ith start.  (A lambda here would copy
% Everything, every start position, at each call.)
start_at(Everything, I, P) :-
    arg(I, Everything, P).

%!  prepare_starts_job(+Domain, +Set, +Sample, -Json) is det.
%
%   prepare_starts/5 for the engine: Json holds `count` and `population`;
%   `count` is null when the sample is larger than the population.

prepare_starts_job(D, Set, Sample, Json) :-
    catch(prepare_starts(D, Set, Sample, Count, Population),
          error(domain_error(sample_within(Population), _), _),
          Count = @(null)),
    json_string(json([count=Count, population=Population]), Json).

%!  starts_text(-Text) is det.
%
%   Text is the start positions prepare_starts/5 chose, written so that
%   use_starts/1 reads them back in another process: a worker of a
%   sampled job takes the sample from there instead of listing every
%   start position again.

starts_text(Text) :-
    nb_getval(al0_starts, Array),
    format(string(Text), "~k", [Array]).

%!  use_starts(+Text) is det.
%
%   The start positions are those of Text, as starts_text/1 wrote them
%   (read as data: nothing in Text is called).

use_starts(Text) :-
    term_string(Array, Text),
    nb_setval(al0_starts, Array).

slice(From, To, Positions) :-
    nb_getval(al0_starts, Array),
    compound_name_arity(Array, _, Count),
    Last is min(To, Count),
    findall(P, ( between(From, Last, I), I > From, arg(I, Array, P) ), Positions).

%!  verify_games(+Ctx, +From, +To, +Kind, +Seed, +MaxUs, -Json) is det.
%
%   Plays the table from every start in the slice From..To against the
%   defender Kind (`perfect` or `random`, al0_jobs:defender/3; Seed
%   seeds the random one). Our
%   optimal move count from a start comes from the domain's
%   optimal_moves/2, or, against the perfect defender, from the same
%   search that defends. The domain's success/1 says which results count
%   as success. Json holds positions, by_result, successes, sum_moves,
%   ratios (count_ratio/5), optimal (whether optimal counts are known),
%   max_moves, histogram (moves -> games) and counterexamples (start and
%   game line of every failure).

verify_games(Ctx, From, To, Kind, Seed, MaxUs, Json) :-
    set_random(seed(Seed)),
    Ctx = ctx(_, _, D),
    defender(D, Kind, Defender),
    success_outcomes(D, Ok),
    (   ( declares(D, optimal_moves, 2) ; Kind == perfect )
    ->  optimal_counter(D, Optimal), Known = true
    ;   Optimal = [_, _]>>fail, Known = false
    ),
    slice(From, To, Positions),
    foldl(verify_one(Ctx, Defender, Optimal, Ok, MaxUs),
          Positions, acc(0, [], 0, 0, [], 0, [], []), Acc),
    Acc = acc(N, ByResult, Successes, SumMoves, Ratios, Max, Hist, Fails),
    pairs_json(ByResult, ByResultJson),
    pairs_json(Ratios, RatiosJson),
    pairs_json(Hist, HistJson),
    reverse(Fails, FailsInOrder),
    json_string(json([positions=N, by_result=ByResultJson, successes=Successes,
                      sum_moves=SumMoves, ratios=RatiosJson,
                      optimal= @(Known), max_moves=Max, histogram=HistJson,
                      counterexamples=FailsInOrder]), Json).

verify_one(Ctx, Defender, Optimal, Ok, MaxUs, Pos, Acc0, Acc) :-
    Acc0 = acc(N0, By0, S0, M0, R0, Max0, H0, F0),
    play_game(Ctx, Pos, Defender, MaxUs, Result, Steps),
    include([S]>>(S = us(_, _, _)), Steps, UsSteps),
    length(UsSteps, Moves),
    N is N0 + 1,
    bump(Result, By0, By),
    (   memberchk(Result, Ok)
    ->  S is S0 + 1,
        M is M0 + Moves,
        Max is max(Max0, Moves),
        bump(Moves, H0, H),
        count_ratio(Optimal, Pos, Moves, R0, R),
        F = F0
    ;   S = S0, M = M0, R = R0, Max = Max0, H = H0,
        game_line(Ctx, Pos, Steps, Line),
        Ctx = ctx(_, _, D),
        position_json(D, Pos, Shown),
        F = [json([position=Shown, result=Result, line=Line])|F0]
    ),
    Acc = acc(N, By, S, M, R, Max, H, F).

% count_ratio(+Optimal, +Pos, +Moves, +Ratios0, -Ratios): Ratios0 with
% one more game of Moves from the start Pos counted under Moves/Opt, Opt
% our optimal count from Pos (call(Optimal, Pos, Opt)), where it is
% known and positive.  Counts, not a sum of ratios, so that the sums
% the engine makes of them do not depend in their last bits on how the
% starts were sliced.
count_ratio(Optimal, Pos, Moves, Ratios0, Ratios) :-
    (   call(Optimal, Pos, Opt), Opt > 0
    ->  bump(Moves/Opt, Ratios0, Ratios)
    ;   Ratios = Ratios0
    ).

game_line(ctx(_, _, D), Pos, Steps, Texts) :-
    maplist(step_move, Steps, Moves),
    line_texts(D, Pos, Moves, Texts).

%!  verify_all(+Ctx, +From, +To, +MaxUs, +Lost, -Json) is det.
%
%   The worst case over every defence from every start of the slice
%   From..To; the domain's success/1 says which results count as
%   success. States valued are remembered across calls until
%   forget_states/0. Json holds
%   positions, by_result (the worst outcome from each start), max_moves
%   (the most of our moves any defence can force before success), sum_worst
%   (the sum of the worst cases of the successful starts), histogram
%   (worst case -> how many successful starts have it), valued (the
%   SHA-1 of each state valued in this call, that is, not remembered from
%   an earlier one: the union over calls, whichever process made them,
%   is every state the proof valued), states (those states with their
%   values, as a text for use_states/1 in another worker), longest (the first start of the
%   slice with the most moves: its index among all the starts, the
%   position, that number, the line of the worst defence from it, the
%   first of the longest replies at each turn, for each of our moves
%   in it the rule and the advice that chose it and, where the domain
%   declares optimal_moves/2, our optimal number of moves from the start
%   and how many moves each of ours lost against optimal play, else
%   null; null when no start succeeds), refutations: for each failing
%   start its outcome and a shortest line to it, and lost_by_advice:
%   when Lost is `true` and the domain declares optimal_moves/2, for
%   each rule/advice the moves it made along the worst line of every
%   successful start and how many of them it lost against optimal play
%   (moves_lost/4), else null.  `perfect` sums the games against the
%   domain's perfect defender from the successful starts (perfect_figures/3):
%   games, by_result, sum_moves, max_moves and ratios (count_ratio/5).

verify_all(Ctx, From, To, MaxUs, Lost, Json) :-
    retractall(valued(_)),
    Ctx = ctx(_, _, D),
    success_outcomes(D, Ok),
    slice(From, To, Positions),
    foldl(verify_all_one(Ctx, Ok, MaxUs, From), Positions,
          all(0, [], [], 0, 0, [], [], none),
          all(N, By, Won, Max, Sum, Hist, Refs, Longest)),
    length(Won, Successes),
    findall(Sha, retract(valued(Sha)), Valued),
    states_text(Valued, StatesText),
    pairs_json(By, ByJson),
    pairs_json(Hist, HistJson),
    reverse(Refs, RefsInOrder),
    longest_json(Ctx, Longest, Max, LongestJson),
    (   Lost == true, declares(D, optimal_moves, 2)
    ->  lost_by_advice(Ctx, Won, LostJson)
    ;   LostJson = @(null)
    ),
    perfect_figures(Ctx, Won, PerfectJson),
    json_string(json([positions=N, by_result=ByJson, successes=Successes,
                      max_moves=Max, sum_worst=Sum, histogram=HistJson, valued=Valued,
                      states=StatesText, longest=LongestJson, refutations=RefsInOrder,
                      lost_by_advice=LostJson, perfect=PerfectJson]), Json).

% perfect_figures(+Ctx, +Won, -Json): the game from each start of Won
% against the perfect defender, as verify_games/7 plays it.  Every
% defence from these starts succeeds, so each game does, and it follows
% states the proof valued, whose decisions the table remembers (in
% compiled mode).  Games share their ends, so the game from each state
% is remembered while the starts are summed: by the state itself, not
% its symmetry class, for the defender's choice among equal replies
% need not be symmetric.
perfect_figures(Ctx, Won, json([games=N, by_result=ByJson, sum_moves=Sum,
                                max_moves=Max, ratios=RatiosJson])) :-
    Ctx = ctx(_, _, D),
    perfect_defender(D, Defender),
    optimal_counter(D, Optimal),
    retractall(perfect_game(_, _)),
    foldl(perfect_start(Ctx, Defender, Optimal), Won,
          perfect(0, [], 0, 0, []), perfect(N, By, Sum, Max, Ratios)),
    retractall(perfect_game(_, _)),
    pairs_json(By, ByJson),
    pairs_json(Ratios, RatiosJson).

perfect_start(Ctx, Defender, Optimal, Pos, perfect(N0, By0, S0, Max0, R0),
              perfect(N, By, S, Max, R)) :-
    new_game(Pos, State),
    perfect_moves(Ctx, Defender, State, Moves-Result),
    N is N0 + 1,
    bump(Result, By0, By),
    S is S0 + Moves,
    Max is max(Max0, Moves),
    count_ratio(Optimal, Pos, Moves, R0, R).

% perfect_moves(+Ctx, +Defender, +State, -Game): Game is Moves-Result,
% our moves from State to the end of the game against Defender and its
% outcome, State being one from which every defence succeeds.
perfect_moves(Ctx, _, State, 0-Result) :-
    game_over(Ctx, State, Result), !.
perfect_moves(Ctx, Defender, State, Game) :-
    Ctx = ctx(_, _, D),
    State = state(Pos, Tree, _, _),
    D:reset_depth(Pos, Pos0),
    variant_sha1(Pos0-Tree, Sha),
    (   perfect_game(Sha, Known)
    ->  Game = Known
    ;   once(us_turn(Ctx, State, step(_, Pos1, _, _, _), State1)),
        (   game_over(Ctx, State1, Result)
        ->  Game = 1-Result
        ;   once(call(Defender, Pos1, Reply, Pos2)),
            them_turn(Ctx, State1, Reply, Pos2, State2),
            perfect_moves(Ctx, Defender, State2, Moves2-Result),
            Moves is Moves2 + 1,
            Game = Moves-Result
        ),
        assertz(perfect_game(Sha, Game))
    ).

% lost_by_advice(+Ctx, +Won, -Json): for each rule/advice, [Moves,
% Lost]: the moves it made along the worst line (worst_line/4) of every
% start of Won (those that succeed within the move limit), and the
% moves they lost against optimal play (where the domain has a count).
% Worst lines share their ends, so each state's tally of the line from
% it is remembered (line_tally/2) while the starts are summed.
lost_by_advice(Ctx, Won, json(Fields)) :-
    retractall(line_tally(_, _)),
    foldl(start_tally(Ctx), Won, [], Tally),
    retractall(line_tally(_, _)),
    findall(Name=[Count, Sum],
            ( member(Why-made(Count, Sum), Tally), atom_string(Name, Why) ),
            Fields).

start_tally(Ctx, Pos, Tally0, Tally) :-
    new_game(Pos, State),
    state_tally(Ctx, State, Line),
    merge_tallies(Tally0, Line, Tally).

% state_tally(+Ctx, +State, -Tally): the moves each rule/advice makes
% along the worst line from State and the moves they lose, as pairs
% "Rule/Advice"-made(Moves, Lost) in the standard order of their keys.
state_tally(Ctx, State, []) :-
    game_over(Ctx, State, _), !.
state_tally(Ctx, State, Tally) :-
    state_sha(Ctx, State, Sha),
    (   line_tally(Sha, Known)
    ->  Tally = Known
    ;   worst_step(Ctx, State, Move, Why, Next)
    ->  Ctx = ctx(_, _, D),
        State = state(Pos, _, _, _),
        moves_lost(D, Pos, [Move], [Lost]),
        (   integer(Lost) -> Counted = Lost ; Counted = 0 ),
        (   Next == end
        ->  Rest = []
        ;   Next = _-State2,
            state_tally(Ctx, State2, Rest)
        ),
        merge_tallies(Rest, [Why-made(1, Counted)], Tally),
        assertz(line_tally(Sha, Tally))
    ;   Tally = []
    ).

merge_tallies([], Tally, Tally) :- !.
merge_tallies(Tally, [], Tally) :- !.
merge_tallies([K1-V1|T1], [K2-V2|T2], Tally) :-
    compare(Order, K1, K2),
    (   Order == (=)
    ->  V1 = made(M1, L1), V2 = made(M2, L2),
        M is M1 + M2, L is L1 + L2,
        Tally = [K1-made(M, L)|Tally1],
        merge_tallies(T1, T2, Tally1)
    ;   Order == (<)
    ->  Tally = [K1-V1|Tally1],
        merge_tallies(T1, [K2-V2|T2], Tally1)
    ;   Tally = [K2-V2|Tally1],
        merge_tallies([K1-V1|T1], T2, Tally1)
    ).

% longest_json(+Ctx, +Start, +Moves, -Json): Start (Index-Pos, or
% `none`), Moves, the line of the worst defence from it, read from the
% memo, the rule/advice that chose each of our moves in it and, where the
% domain declares optimal_moves/2, our optimal number of moves from
% Start and the moves each of ours lost against optimal play.
longest_json(_, none, _, @(null)) :- !.
longest_json(Ctx, Index-Pos, Moves,
             json([start=Index, position=Shown, moves=Moves, line=Texts,
                   advice=Chosen, optimal=Optimal, lost=Lost])) :-
    Ctx = ctx(_, _, D),
    new_game(Pos, State),
    worst_line(Ctx, State, Line, Chosen),
    line_texts(D, Pos, Line, Texts),
    position_json(D, Pos, Shown),
    optimal_count(D, Pos, Optimal),
    moves_lost(D, Pos, Line, Lost).

% worst_line(+Ctx, +State, -Moves, -Chosen): our moves and, after each,
% the reply whose state the memo values longest (the first of equals),
% to the end; Chosen is "Rule/Advice" for each of our moves.
worst_line(Ctx, State, [Move|Rest], [Why|Chosen]) :-
    \+ game_over(Ctx, State, _),
    worst_step(Ctx, State, Move, Why, Next),
    !,
    (   Next == end
    ->  Rest = [], Chosen = []
    ;   Next = Reply-State2,
        Rest = [Reply|Rest1],
        worst_line(Ctx, State2, Rest1, Chosen)
    ).
worst_line(_, _, [], []).

% worst_step(+Ctx, +State, -Move, -Why, -Next): our move at State (a game
% not over), "Rule/Advice" that chose it, and Next: `end` when the game
% is over after it, else Reply-State2, the reply whose state the memo
% values longest (the first of equals) and that state.  Fails when no
% advice applies.
worst_step(Ctx, State, Move, Why, Next) :-
    once(us_turn(Ctx, State, step(Move, Pos1, Rule, Advice, _), State1)),
    format(string(Why), "~w/~w", [Rule, Advice]),
    (   game_over(Ctx, State1, _)
    ->  Next = end
    ;   findall(Moves-(Reply-State2),
                ( reply_state(Ctx, State1, Pos1, Reply, State2),
                  known_moves(Ctx, State2, Moves) ),
                Valued),
        foldl(longer, Valued, -2-none, _-Next)
    ).

% reply_state(+Ctx, +State1, +Pos1, -Reply, -State2): on backtracking, each
% legal Reply of the opponent at Pos1, the position after our move at
% State1, and the state after it.
reply_state(Ctx, State1, Pos1, Reply, State2) :-
    Ctx = ctx(_, _, D),
    D:legalmove(Pos1, Reply, Pos2),
    them_turn(Ctx, State1, Reply, Pos2, State2).

longer(Moves-Next, Best0-Next0, Best-Next1) :-
    (   Moves > Best0 -> Best-Next1 = Moves-Next ; Best-Next1 = Best0-Next0 ).

known_moves(Ctx, State, Moves) :-
    (   game_over(Ctx, State, _)
    ->  Moves = 0
    ;   state_sha(Ctx, State, Sha),
        memo(Sha, ok(Moves0))
    ->  Moves = Moves0
    ;   Moves = -1
    ).

% states_text(+Shas, -Text): the states of Shas with their values, as
% Prolog text of a list of Sha-Value.
states_text(Shas, Text) :-
    findall(Sha-Value, ( member(Sha, Shas), memo(Sha, Value) ), Pairs),
    format(string(Text), "~k", [Pairs]).

%!  use_states(+Texts) is det.
%
%   Remembers the states of Texts, each the `states` of a verify_all/6
%   job run in another worker process, with their values, as if this
%   process had valued them: a state's value does not depend on what
%   was valued before (see worst/5), so a worker need not value again
%   what another has.  Texts are read as data: nothing in them is
%   called.  States remembered already are left as they are, and
%   remembered states do not count as valued here.

use_states(Texts) :-
    forall(( member(Text, Texts),
             term_string(Pairs, Text),
             member(Sha-Value, Pairs),
             \+ memo(Sha, _) ),
           assertz(memo(Sha, Value))).

%!  forget_states is det.
%
%   Forgets the states verify_all/6 has valued.

forget_states :-
    retractall(memo(_, _)),
    retractall(valued(_)).

% verify_all_one(+Ctx, +Ok, +MaxUs, +From, +Pos, +All0, -All): All0 with
% the start Pos added; All is all(Positions, ByResult, Won (the starts
% that succeed within MaxUs), Max, Sum, Histogram, Refutations, Longest).
verify_all_one(Ctx, Ok, MaxUs, From, Pos, all(N0, By0, W0, Max0, Sum0, H0, R0, L0),
               all(N, By, W, Max, Sum, H, R, L)) :-
    new_game(Pos, State),
    worst(Ctx, State, Ok, [], Exact),
    within_limit(Ctx, State, MaxUs, Exact, Value),
    N is N0 + 1,
    (   Value = ok(Moves)
    ->  bump(success, By0, By), W = [Pos|W0],
        (   ( L0 == none ; Moves > Max0 )
        ->  Max = Moves, Index is From + N0, L = Index-Pos
        ;   Max = Max0, L = L0
        ),
        Sum is Sum0 + Moves, bump(Moves, H0, H), R = R0
    ;   Value = fail(Result, Line),
        bump(Result, By0, By), W = W0, Max = Max0, Sum = Sum0, H = H0, L = L0,
        Ctx = ctx(_, _, D),
        refutation_texts(Ctx, Ok, Pos, Line, Texts),
        position_json(D, Pos, Shown),
        R = [json([position=Shown, result=Result, line=Texts])|R0]
    ).

% refutation_texts(+Ctx, +Ok, +Pos, +Line, -Texts): the moves of Line, a
% line from the start Pos to a failure, as texts.  Line comes from the
% memo, and where the domain has symmetries a state of it may have been
% valued from a symmetric image of the states met from Pos, its line
% with it: then the line is walked again from Pos (failing_line/5), as
% long.
refutation_texts(Ctx, Ok, Pos, Line, Texts) :-
    Ctx = ctx(_, _, D),
    (   line_texts(D, Pos, Line, Texts0)
    ->  Texts = Texts0
    ;   length(Line, Plies),
        new_game(Pos, State),
        failing_line(Ctx, Ok, State, Plies, Line1),
        line_texts(D, Pos, Line1, Texts)
    ).

% failing_line(+Ctx, +Ok, +State, +Plies, -Line): a line of at most
% Plies moves from State (us to move) to a failure, our moves those of
% the table, each reply one whose state the memo values as a failure
% nearest to it (a game over that is no success first).
failing_line(Ctx, Ok, State, Plies, Line) :-
    (   Plies > 0,
        once(us_turn(Ctx, State, step(Move, Pos1, _, _, _), State1))
    ->  Line = [Move|Rest],
        (   Plies > 1,
            \+ game_over(Ctx, State1, _),
            findall(N-(Reply-State2),
                    ( reply_state(Ctx, State1, Pos1, Reply, State2),
                      failure_distance(Ctx, Ok, State2, N) ),
                    Failing),
            keysort(Failing, [_-(Reply-State2)|_])
        ->  Rest = [Reply|Rest1],
            Plies1 is Plies - 2,
            failing_line(Ctx, Ok, State2, Plies1, Rest1)
        ;   Rest = []
        )
    ;   Line = []
    ).

% failure_distance(+Ctx, +Ok, +State, -Plies): State is a failure (a game
% over that is no success: 0) or valued as one by the memo, Plies from it.
failure_distance(Ctx, Ok, State, Plies) :-
    (   game_over(Ctx, State, Result)
    ->  \+ memberchk(Result, Ok), Plies = 0
    ;   state_sha(Ctx, State, Sha),
        memo(Sha, fail(_, Line)),
        length(Line, Plies)
    ).

% within_limit(+Ctx, +State, +MaxUs, +Exact, -Value): Exact, unless it
% is a success of more than MaxUs moves of ours: then a failure
% `move_limit`, with the worst defence's first MaxUs moves and replies.
within_limit(Ctx, State, MaxUs, ok(Moves), Value) :-
    Moves > MaxUs, !,
    worst_line(Ctx, State, Line, _),
    Plies is 2 * MaxUs,
    length(Line0, Plies), append(Line0, _, Line),
    Value = fail(move_limit, Line0).
within_limit(_, _, _, Value, Value).

% worst(+Ctx, +State, +Ok, +Path, -Value): Value is ok(Moves), the most
% moves of ours any defence can force before a success, or fail(Result,
% Line), a line (moves, ours first) to a failure. The value does not
% depend on the states valued before, so the memo can keep it: a state
% met again while it is still being valued (on Path, the states from
% the start to here) is a loop, and a state that leads back to it is on
% that loop too, since the defence can go round it forever; the move
% limit is applied to the start's exact value (within_limit/5), never
% inside the search.
worst(Ctx, State, Ok, _, Value) :-
    game_over(Ctx, State, Result), !,
    (   memberchk(Result, Ok) -> Value = ok(0) ; Value = fail(Result, []) ).
worst(Ctx, State, Ok, Path, Value) :-
    state_sha(Ctx, State, Sha),
    (   memberchk(Sha, Path)
    ->  Value = fail(loop, [])
    ;   memo(Sha, Known)
    ->  Value = Known
    ;   us_value(Ctx, State, Ok, [Sha|Path], Value),
        assertz(memo(Sha, Value)),
        assertz(valued(Sha))
    ).

% state_sha(+Ctx, +State, -Sha): the SHA-1 (an atom of 40 hex digits)
% of State's key (al0:state_key/3), which the memo, the path and the
% count of states valued hold in its place: the key holds the forcing
% tree still to follow, often hundreds of bytes, and a proof values
% hundreds of thousands of states.
state_sha(Ctx, State, Sha) :-
    state_key(Ctx, State, Key),
    variant_sha1(Key, Sha).

% us_value(+Ctx, +State, +Ok, +Path, -Value): our move from State, then
% the worst of the opponent's replies.
us_value(Ctx, State, Ok, Path, Value) :-
    (   us_turn(Ctx, State, step(Move, Pos1, _, _, _), State1)
    ->  (   game_over(Ctx, State1, Result)
        ->  (   memberchk(Result, Ok) -> Value = ok(1) ; Value = fail(Result, [Move]) )
        ;   Ctx = ctx(_, _, D),
            findall(Reply-Pos2, D:legalmove(Pos1, Reply, Pos2), Replies),
            foldl(reply_value(Ctx, State1, Ok, Path), Replies, ok(0), Worst),
            (   Worst = ok(M) -> Value = ok(M1), M1 is M + 1
            ;   Worst = fail(R, Line) -> Value = fail(R, [Move|Line])
            )
        )
    ;   Value = fail(no_advice, [])
    ).

reply_value(Ctx, State1, Ok, Path, Reply-Pos2, Acc, Worse) :-
    them_turn(Ctx, State1, Reply, Pos2, State2),
    worst(Ctx, State2, Ok, Path, V0),
    (   V0 = fail(R, Line) -> V = fail(R, [Reply|Line]) ; V = V0 ),
    worse(Acc, V, Worse).

% The worse of two values: any failure beats success, a shorter failure
% line beats a longer one, more moves beat fewer.
worse(ok(A), ok(B), ok(C)) :- !, C is max(A, B).
worse(ok(_), F, F) :- !.
worse(F, ok(_), F) :- !.
worse(fail(R1, L1), fail(R2, L2), F) :-
    length(L1, N1), length(L2, N2),
    (   N2 < N1 -> F = fail(R2, L2) ; F = fail(R1, L1) ).

% ------------------------------------------------------------------

bump(Key, Pairs0, Pairs) :-
    (   selectchk(Key-N0, Pairs0, Rest)
    ->  N is N0 + 1, Pairs = [Key-N|Rest]
    ;   Pairs = [Key-1|Pairs0]
    ).

pairs_json(Pairs, json(Fields)) :-
    msort(Pairs, Sorted),
    findall(K=V, ( member(K0-V, Sorted), format(atom(K), "~w", [K0]) ), Fields).
