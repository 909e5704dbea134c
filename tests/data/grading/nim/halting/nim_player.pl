% Ends the Prolog that runs it (the guard refuses it; with --trusted it runs).
take(_, _) :- halt.
