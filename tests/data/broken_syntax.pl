moves(P, Ps) :- foo(P, Ps).

staticval(P, V) :- V is (P + .
