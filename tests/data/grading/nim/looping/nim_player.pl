% Passes the guard; never answers.
take(Sticks, Take) :- take(Sticks, Take).
