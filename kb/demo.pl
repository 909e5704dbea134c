:- module(demo,
          [ demo/2,                     % -Table, -Description
            demo_json/1                 % -Json
          ]).

:- use_module(job_io).

/** <module> What `make demo` shows

The engine plays the table named here from its domain's initial
position against the perfect defender.
*/

%!  demo(-Table, -Description) is det.
%
%   Table is the path of a shipped advice table under kb/; Description
%   says in a sentence what the demonstration shows.

demo('chess/krk.adv',
     "Bratko's King-and-Rook-versus-King advice table (kb/chess/krk.adv) plays White \c
      from its domain's start against a perfect defender (our own tablebase).").

%!  demo_json(-Json) is det.
%
%   demo/2 for the engine: `{"path": ..., "description": ...}`.

demo_json(Json) :-
    demo(Table, Description),
    json_string(json([path=Table, description=Description]), Json).
