/*  plunit tests of Pig (pig.pl): the rules, the static value, and how
    positions and moves are read and written for people.
    Run: swipl -g run_tests -t halt kb/games/test_pig.pl
*/
:- use_module(library(ordsets)).
:- use_module(library(pairs)).
:- use_module(pig).
:- use_module('../search/game_io', [refusal/2]).

% refused(:Goal, -Message): Goal refuses a person's text with Message.
refused(Goal, Message) :-
    catch(( call(Goal), Message = accepted ), Error, refusal(Error, Message)).

% reachable(+Target, -Positions): every position of a game to Target
% reachable from its start, through moves/2 (which gives the outcomes of
% a roll at a chance position).
reachable(Target, Positions) :-
    Start = pig(Target, 0, 0, 0, max, choosing),
    walk([Start], [Start], Positions).

walk([], Seen, Seen).
walk([Pos|Queue], Seen0, Seen) :-
    (   moves(Pos, Succs0) -> sort(Succs0, Succs) ; Succs = [] ),
    ord_subtract(Succs, Seen0, New),
    ord_union(Seen0, New, Seen1),
    append(Queue, New, Queue1),
    walk(Queue1, Seen1, Seen).

reachable6(Pos) :-
    reachable(6, Positions),
    member(Pos, Positions).

:- begin_tests(pig_rules).

test(initial) :-
    initial(P),
    assertion(P == pig(10, 0, 0, 0, max, choosing)),
    assertion(max_to_move(P)),
    assertion(\+ min_to_move(P)).

test(a_turn_starts_with_a_roll) :-
    moves(pig(10, 3, 5, 0, min, choosing), Succs),
    assertion(Succs == [pig(10, 3, 5, 0, min, rolling)]).

test(roll_or_hold) :-
    moves(pig(10, 3, 5, 4, max, choosing), Succs),
    assertion(Succs == [pig(10, 3, 5, 4, max, rolling), pig(10, 7, 5, 0, min, choosing)]),
    moves(pig(10, 3, 5, 4, min, choosing), Succs2),
    assertion(Succs2 == [pig(10, 3, 5, 4, min, rolling), pig(10, 3, 9, 0, max, choosing)]).

test(decision_positions_are_not_chance_positions, [fail]) :-
    chance_moves(pig(10, 3, 5, 4, max, choosing), _).

test(the_die) :-
    chance_moves(pig(10, 1, 5, 2, max, rolling), Outcomes),
    pairs_keys_values(Outcomes, Probs, Positions),
    assertion(Positions == [ pig(10, 1, 5, 0, min, choosing),     % a 1 loses the turn total
                             pig(10, 1, 5, 4, max, choosing),
                             pig(10, 1, 5, 5, max, choosing),
                             pig(10, 1, 5, 6, max, choosing),
                             pig(10, 1, 5, 7, max, choosing),
                             pig(10, 1, 5, 8, max, choosing) ]),
    sum_list(Probs, Sum),
    assertion(abs(Sum - 1) < 1.0e-12),
    assertion(forall(member(P, Probs), P =:= 1/6)).

test(a_one_passes_the_turn_to_max) :-
    chance_moves(pig(10, 3, 5, 4, min, rolling), [_-Pos|_]),
    assertion(Pos == pig(10, 3, 5, 0, max, choosing)).

test(the_moves_of_a_chance_position_are_its_outcomes) :-
    Pos = pig(10, 3, 5, 2, min, rolling),
    chance_moves(Pos, Outcomes),
    pairs_values(Outcomes, Positions),
    moves(Pos, Succs),
    assertion(Succs == Positions).

test(reaching_the_target_ends_the_game) :-
    chance_moves(pig(10, 6, 5, 1, max, rolling), Outcomes),
    pairs_values(Outcomes, [_, P2, P3|_]),
    assertion(P2 == pig(10, 6, 5, 3, max, choosing)),
    assertion(P3 == pig(10, 10, 5, 0, max, choosing)),  % 6 + 1 + 3: banked, over
    assertion(\+ moves(P3, _)),
    assertion(\+ chance_moves(P3, _)),
    assertion(staticval(P3, 1)).

test(min_wins) :-
    chance_moves(pig(6, 0, 0, 0, min, rolling), Outcomes),
    last(Outcomes, _-P),
    assertion(P == pig(6, 0, 6, 0, min, choosing)),
    assertion(\+ moves(P, _)),
    assertion(staticval(P, -1)).

test(staticval) :-
    staticval(pig(10, 0, 0, 0, max, choosing), V0),
    assertion(V0 == 0.0),
    staticval(pig(10, 3, 5, 4, max, choosing), V1),    % MAX needs 3, MIN 5
    assertion(V1 =:= 2/8),
    staticval(pig(10, 3, 5, 4, min, rolling), V2),     % MAX needs 7, MIN 1
    assertion(V2 =:= -6/8).

test(moves_is_deterministic, forall(reachable6(Pos))) :-
    (   moves(Pos, Succs)
    ->  call_cleanup(moves(Pos, _), Det = true),
        assertion(Det == true),
        assertion(is_list(Succs)),
        assertion(Succs \== []),
        assertion(ground(Succs))
    ;   assertion(staticval(Pos, _))
    ).

test(every_position_is_valued, forall(reachable6(Pos))) :-
    staticval(Pos, V),
    (   moves(Pos, _)
    ->  assertion((V > -1, V < 1))
    ;   assertion((V == 1 ; V == -1))
    ).

test(one_side_to_move, forall(reachable6(Pos))) :-
    (   max_to_move(Pos) -> assertion(\+ min_to_move(Pos)) ; assertion(min_to_move(Pos)) ).

test(no_hold_with_nothing, forall(( reachable6(P),
                                     P = pig(_, _, _, 0, _, choosing),
                                     moves(P, Succs) ))) :-
    assertion(Succs = [pig(_, _, _, _, _, rolling)]).

test(positions_of_a_game_to_6) :-
    reachable(6, Ps),
    length(Ps, N),
    assertion(N == 300).

:- end_tests(pig_rules).

:- begin_tests(pig_io).

test(description) :-
    game_description(Text),
    assertion(string(Text)),
    assertion(sub_string(Text, 0, _, _, "Pig: ")).

test(parse, forall(member(Text-Pos,
                          [ ""-pig(10, 0, 0, 0, max, choosing),
                            "target 6"-pig(6, 0, 0, 0, max, choosing),
                            "target 10, max 3, min 5, turn 4, max to move"-pig(10, 3, 5, 4, max, choosing),
                            " Target 10 ,MAX 3,  min 5 , turn 4,max to move "-pig(10, 3, 5, 4, max, choosing),
                            "min rolls, target 8"-pig(8, 0, 0, 0, min, rolling),
                            "turn 2, min to move"-pig(10, 0, 0, 2, min, choosing),
                            'target 10, max 12, min 5'-pig(10, 12, 5, 0, max, choosing)
                          ]))) :-
    parse_position(Text, P),
    assertion(P == Pos).

test(text) :-
    position_text(pig(10, 3, 5, 4, max, choosing), T1),
    assertion(T1 == "target 10, max 3, min 5, turn 4, max to move"),
    position_text(pig(6, 0, 2, 0, min, rolling), T2),
    assertion(T2 == "target 6, max 0, min 2, turn 0, min rolls").

test(text_round_trip, forall(reachable6(Pos))) :-
    position_text(Pos, Text),
    parse_position(Text, Pos1),
    assertion(Pos1 == Pos).

test(malformed, forall(member(Text-Quoted, ["abc"-"'abc'", "target"-"'target'",
                                            "max -3"-"'max -3'", "max to roll"-"'max to roll'",
                                            "it's"-"\"it's\""]))) :-
    refused(parse_position(Text, _), Message),
    format(string(Expected),
           "malformed pig position ~w: write parts of \"target 10, max 3, min 5, turn 4, max to move\" (\"max rolls\" when the die is to be rolled)",
           [Quoted]),
    assertion(Message == Expected).

test(twice) :-
    refused(parse_position("max 3, max 4", _), M1),
    assertion(M1 == "malformed pig position 'max 3, max 4': it gives max twice"),
    refused(parse_position("max to move, min rolls", _), M2),
    assertion(M2 == "malformed pig position 'max to move, min rolls': it gives the side to move twice").

test(impossible, forall(member(Text-Why,
                               [ "target 0"-"the target is a number from 1 to 1000",
                                 "target 1001"-"the target is a number from 1 to 1000",
                                 "target 10, max 10, min 10"-"both sides have reached the target",
                                 "target 10, max 16"-"a score cannot pass the target by more than 5",
                                 "target 10, max 10, turn 2"-"the game is over, so there is no turn total or roll to come",
                                 "target 10, min 10, max rolls"-"the game is over, so there is no turn total or roll to come",
                                 "target 10, max 8, turn 4"-"max's score plus turn total, 12, reaches the target: max has won already",
                                 "target 6, turn 6, min to move"-"min's score plus turn total, 6, reaches the target: min has won already"
                               ]))) :-
    refused(parse_position(Text, _), Message),
    format(string(Expected), "impossible pig position '~w': ~w", [Text, Why]),
    assertion(Message == Expected).

test(refusal_is_a_domain_error,
     [error(domain_error(position_text, "pig"), context(_, _))]) :-
    parse_position("pig", _).

test(show) :-
    show_position(pig(10, 3, 5, 4, max, choosing), T1),
    assertion(T1 == "Pig to 10\nMAX 3, MIN 5\nMAX to move, turn total 4: roll or hold"),
    show_position(pig(10, 3, 5, 0, min, choosing), T2),
    assertion(T2 == "Pig to 10\nMAX 3, MIN 5\nMIN to move, turn total 0: roll"),
    show_position(pig(10, 3, 5, 4, min, rolling), T3),
    assertion(T3 == "Pig to 10\nMAX 3, MIN 5\nMIN rolls the die, turn total 4"),
    show_position(pig(10, 3, 12, 0, min, choosing), T4),
    assertion(T4 == "Pig to 10\nMAX 3, MIN 12\nMIN has won").

test(move_label) :-
    P = pig(10, 3, 5, 4, max, choosing),
    moves(P, [Roll, Hold]),
    move_label(P, Roll, L1), assertion(L1 == "roll"),
    move_label(P, Hold, L2), assertion(L2 == "hold"),
    chance_moves(Roll, Outcomes),
    pairs_values(Outcomes, Positions),
    maplist(move_label(Roll), Positions, Labels),
    assertion(Labels == ["rolled 1", "rolled 2", "rolled 3", "rolled 4", "rolled 5", "rolled 6"]).

test(read_move) :-
    P = pig(10, 3, 5, 4, max, choosing),
    read_move(P, "roll", R), assertion(R == pig(10, 3, 5, 4, max, rolling)),
    read_move(P, " R ", R1), assertion(R1 == R),
    read_move(P, "hold", H), assertion(H == pig(10, 7, 5, 0, min, choosing)),
    read_move(P, "h", H1), assertion(H1 == H),
    read_move(R, "1", F1), assertion(F1 == pig(10, 3, 5, 0, min, choosing)),
    read_move(R, "6", F6), assertion(F6 == pig(10, 13, 5, 0, max, choosing)).

test(bad_moves, forall(member(Pos-Text-Expected,
                              [ pig(10, 3, 5, 4, max, choosing)-"jump"-"'jump' is not a move: type roll or hold",
                                pig(10, 3, 5, 0, max, choosing)-"hold"-"you cannot hold with a turn total of 0: roll",
                                pig(10, 3, 5, 4, max, rolling)-"7"-"'7' is not a roll of the die: type the number it shows, 1 to 6",
                                pig(10, 3, 5, 4, max, rolling)-"roll"-"'roll' is not a roll of the die: type the number it shows, 1 to 6",
                                pig(10, 11, 5, 0, max, choosing)-"roll"-"the game is over: MAX has won"
                              ]))) :-
    refused(read_move(Pos, Text, _), Message),
    assertion(Message == Expected).

test(move_prompt) :-
    move_prompt(pig(10, 3, 5, 4, max, choosing), T1),
    assertion(T1 == "roll or hold (turn total 4)"),
    move_prompt(pig(10, 3, 5, 0, max, choosing), T2),
    assertion(T2 == "roll (a turn starts with a roll)"),
    move_prompt(pig(10, 3, 5, 0, max, rolling), T3),
    assertion(T3 == "the number the die shows (1-6)").

:- end_tests(pig_io).
