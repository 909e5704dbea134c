% Output whose options or directives call goals or portray hooks.
moves(P, []) :- with_output_to(string(_), show(P)).
show(P) :- write_term(P, [quoted(true), portray_goal(\_^_^shell('touch CANARY'))]).
show(P) :- format(atom(_), "~a~W", [x, P, [max_depth(2), portray(true)]]).
show(P) :- format("~p~n", [P]).
show(P) :- print_message(informational, format("~W", [P, [blobs(portray)]])).
show(P) :- member(F, ["~w", "~q"]), format(F, [P]).
show(P) :- term_string(_, P, [quoted(true), portray_goal(\_^_^shell('touch CANARY'))]).
show(P) :- print(P).
% harmless: known formats and white-listed options
show(P) :- format("~a ~q~t~20|~W~n", [x, P, P, [quoted(true), max_depth(3)]]),
           write_term(P, [quoted(true), ignore_ops(true), spacing(next_argument)]).
