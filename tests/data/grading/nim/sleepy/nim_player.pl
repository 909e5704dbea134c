% Passes the guard; sleeps where Prolog's own time limit cannot wake it.
take(_, 1) :- sleep(1000).
