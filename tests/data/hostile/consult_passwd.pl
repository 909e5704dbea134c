:- consult('/etc/passwd').
:- ['/etc/passwd'].
moves(_, []).
