% Dict functional notation reads as data, but the compiler turns
% Dict.f(Args) into a call of f(Args, Dict, Value) in the module the tag names.
moves(_, Ps) :- Ps = system{}.call(\_^_^shell('touch CANARY')).
staticval(system{}.call(\_^_^shell('touch CANARY')), 0).
:- dynamic(system{}.call(\_^_^shell('touch CANARY'))).
