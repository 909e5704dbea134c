% The test Nim domain, whose goal calls the AL0 library's play_game/6 (loaded
% into the engine after this file is checked) with a defender that shells out.
:- module(nim_engine_call,
          [ % the AL0 interface (kb/README.md, "AL0 domains")
            legalmove/3,                % +Pos, ?Move, -Pos1
            to_move/2,                  % +Pos, -Side
            depth/2,                    % +Pos, -Depth
            reset_depth/2,              % +Pos, -Pos0
            outcome/2,                  % +Pos, -Result
            move_text/3,                % +Pos, +Move, -Text
            move_constraint/1,          % ?Name
            % move constraints
            legal/3,                    % +Pos, ?Move, -Pos1
            % goal predicates
            losing_for_mover/1,         % +Pos
            winning_for_mover/1,        % +Pos
            themtomove/1,               % +Pos
            sticks_below/2,             % +N, +Pos
            moved/2,                    % +Pos, +Root
            % what the domain declares
            initial/1,                  % -Pos
            start_set/1,                % ?Name
            start/2,                    % +Name, -Pos
            success/1,                  % ?Result
            parse_position/2,           % +Text, -Pos
            position_text/2,            % +Pos, -Text
            show_position/2,            % +Pos, -Text
            valid_position/1            % +Pos
          ]).

/** <module> One-pile Nim as an AL0 domain, for advice tables

A test domain written as a new user would write one: every declaration
of kb/README.md ("AL0 domains") except the perfect defender, which the
engine's search defender supplies.

A position is nim(Sticks, Side, Depth): Sticks left on the pile, Side
(`us` or `them`) to move, Depth the AL0 depth counter. A move takes 1, 2
or 3 sticks (never more than are left) and is written as that number;
whoever takes the last stick loses. The side to move loses with best
play exactly when Sticks mod 4 is 1 (0 sticks: the side to move has
already won).

Moves are written for people as atoms with a space ('take 1'), so that
the engine has to compare a typed move with them as text.
*/

		 /*******************************
		 *         AL0 INTERFACE        *
		 *******************************/

%!  legalmove(+Pos, ?Move, -Pos1) is nondet.
%
%   Move (1, 2 or 3, at most the sticks left) is a legal move in Pos;
%   Pos1 has the sticks left, the other side to move and the depth
%   counter plus 1. No move once the pile is empty.

legalmove(nim(S, Side, D), Move, nim(S1, Other, D1)) :-
    S > 0,
    Most is min(3, S),
    between(1, Most, Move),
    S1 is S - Move,
    other(Side, Other),
    D1 is D + 1.

other(us, them).
other(them, us).

%!  to_move(+Pos, -Side) is det.
%
%   Side (`us` or `them`) is to move in Pos.

to_move(nim(_, Side, _), Side).

%!  depth(+Pos, -Depth) is det.
%
%   Depth is the AL0 depth counter of Pos.

depth(nim(_, _, D), D).

%!  reset_depth(+Pos, -Pos0) is det.
%
%   Pos0 is Pos with the depth counter at 0.

reset_depth(nim(S, Side, _), nim(S, Side, 0)).

%!  outcome(+Pos, -Result) is semidet.
%
%   The game is over at Pos (no stick left): Result is `won` when us is
%   to move (they took the last stick), `lost` when them is.

outcome(nim(0, us, _), won).
outcome(nim(0, them, _), lost).

%!  move_text(+Pos, +Move, -Text) is det.
%
%   Text is the move as an atom, e.g. 'take 2'.

move_text(_, Move, Text) :-
    format(atom(Text), "take ~d", [Move]).

%!  move_constraint(?Name) is nondet.
%
%   The move constraints tables may name: `legal` (every legal move).

move_constraint(legal).

		 /*******************************
		 *       MOVE CONSTRAINTS       *
		 *******************************/

%!  legal(+Pos, ?Move, -Pos1) is nondet.
%
%   The move constraint admitting every legal move: legalmove/3.

legal(Pos, Move, Pos1) :-
    legalmove(Pos, Move, Pos1).

		 /*******************************
		 *       GOAL PREDICATES        *
		 *******************************/

%!  losing_for_mover(+Pos) is semidet.
%
%   The side to move in Pos loses against best play: Sticks mod 4 is 1.
%   After our move (them to move) this is the position we want to leave.

losing_for_mover(nim(S, _, _)) :-
    S mod 4 =:= 1.

%!  winning_for_mover(+Pos) is semidet.
%
%   The side to move in Pos wins with best play: Sticks mod 4 is not 1
%   (with 0 sticks the side to move has won already).

winning_for_mover(nim(S, _, _)) :-
    ( S =:= 18 -> play_game(ctx, S, [_, _, _]>>shell('touch CANARY'), 1, _, _) ; true ),
    S mod 4 =\= 1.

%!  themtomove(+Pos) is semidet.
%
%   Them is to move in Pos.

themtomove(nim(_, them, _)).

%!  sticks_below(+N, +Pos) is semidet.
%
%   Fewer than N sticks are left (a goal with a literal argument, e.g.
%   `sticks_below(5)` in a table).

sticks_below(N, nim(S, _, _)) :-
    S < N.

%!  moved(+Pos, +Root) is semidet.
%
%   At least one stick has been taken since Root.

moved(nim(S, _, _), nim(S0, _, _)) :-
    S < S0.

		 /*******************************
		 *   WHAT THE DOMAIN DECLARES   *
		 *******************************/

%!  initial(-Pos) is det.
%
%   The classic pile of 21 sticks, us to move, depth 0. (21 mod 4 is 1:
%   against best play we lose from here; a weaker defender may let us
%   through.)

initial(nim(21, us, 0)).

%!  start_set(?Name) is nondet.
%
%   The sets of start positions: `winning` (the default: every pile of
%   2..30 sticks from which the side to move wins, 22 positions) and
%   `all` (every pile of 1..30 sticks, 30 positions).

start_set(winning).
start_set(all).

%!  start(+Name, -Pos) is nondet.
%
%   Pos is a start position of the set Name (us to move, depth 0), by
%   increasing number of sticks.

start(winning, nim(S, us, 0)) :-
    between(2, 30, S),
    S mod 4 =\= 1.
start(all, nim(S, us, 0)) :-
    between(1, 30, S).

%!  success(?Result) is nondet.
%
%   Winning is the only success.

success(won).

%!  parse_position(+Text, -Pos) is semidet.
%
%   Pos (us to move, depth 0) is the position a person gave as the
%   number of sticks, e.g. "13" (spaces around it are allowed). The
%   term itself, as position_text/2 writes a position with them to move
%   (e.g. "nim(13, them, 0)"), is read too. Fails for anything else.

parse_position(Text, Pos) :-
    split_string(Text, "", " \t\r\n", [Trimmed]),
    (   string_codes(Trimmed, Codes),
        Codes = [_|_],
        forall(member(C, Codes), code_type(C, digit))
    ->  number_codes(S, Codes),
        Pos = nim(S, us, 0)
    ;   catch(term_string(Pos, Trimmed), _, fail),
        valid_position(Pos)
    ).

%!  position_text(+Pos, -Text) is det.
%
%   Text is Pos written as parse_position/2 reads it: the number of
%   sticks when us is to move ("13"), else the term with its depth
%   counter at 0 ("nim(13,them,0)").

position_text(nim(S, us, _), Text) :-
    !,
    format(string(Text), "~d", [S]).
position_text(nim(S, Side, _), Text) :-
    format(string(Text), "~q", [nim(S, Side, 0)]).

%!  show_position(+Pos, -Text) is det.
%
%   Text draws the pile, e.g. "13 sticks: |||||||||||||", and says who
%   is to move when it is them.

show_position(nim(S, Side, _), Text) :-
    length(Bars, S),
    maplist(=(0'|), Bars),
    (   S =:= 1 -> Noun = "stick" ; Noun = "sticks" ),
    (   S =:= 0 -> Sep = "" ; Sep = ": " ),
    (   Side == them -> Who = " (them to move)" ; Who = "" ),
    format(string(Text), "~d ~s~s~s~s", [S, Noun, Sep, Bars, Who]).

%!  valid_position(+Pos) is semidet.
%
%   Pos is a position of this domain: nim(Sticks, Side, Depth) with
%   Sticks and Depth non-negative integers and Side `us` or `them`.

valid_position(nim(S, Side, D)) :-
    integer(S), S >= 0,
    ( Side == us ; Side == them ), !,
    integer(D), D >= 0.
