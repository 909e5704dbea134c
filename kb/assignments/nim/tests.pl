% The teacher's plunit tests of a Nim player (see README.md). `advice
% grade` loads this file into the module of each student's file, so the
% tests call the student's take/2 by its name; each test is one point.
% Helpers live inside the unit, where a student's file cannot touch them.

:- begin_tests(nim_player).

% never_loses(+Sticks): the player, to move with Sticks on the pile,
% never takes the last stick, whatever the opponent replies.
never_loses(0).                         % the opponent took the last stick
never_loses(Sticks) :-
    Sticks > 0,
    take(Sticks, Take),
    Take < Sticks,
    Left is Sticks - Take,
    Most is min(3, Left),
    forall(between(1, Most, Reply),
           ( Rest is Left - Reply, never_loses(Rest) )).

test(takes_the_last_stick_only_when_forced) :-
    take(1, 1).

test(one_answer_only, all(Take == [3])) :-
    take(8, Take).

test(never_loses_from_22_against_every_defence) :-
    never_loses(22).

:- end_tests(nim_player).
