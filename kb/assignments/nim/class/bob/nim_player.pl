% Bob's Nim player: leave the opponent 4k + 1 sticks.

take(Sticks, Take) :-
    Take is (Sticks - 1) mod 4.
