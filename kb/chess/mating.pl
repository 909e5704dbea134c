:- module(chess_mating,
          [ % goals
            room_smaller/2,             % +Pos, +Root
            room_not_larger/2,          % +Pos, +Root
            room_within/2,              % +Max, +Pos
            box_smaller/2,              % +Pos, +Root
            box_not_larger/2,           % +Pos, +Root
            box_within/2,               % +Max, +Pos
            lines_fewer/2,              % +Pos, +Root
            lines_halved/2,             % +Pos, +Root
            lines_fewer_by_two/2,       % +Pos, +Root
            lines_no_more/2,            % +Pos, +Root
            lines_not_larger/2,         % +Pos, +Root
            king_nearer_box/2,          % +Pos, +Root
            kings_closer/2,             % +Pos, +Root
            king_nearer_room/2,         % +Pos, +Root
            kings_within/2,             % +Max, +Pos
            pieces_safe/1,              % +Pos
            pieces_far/1,               % +Pos
            pieces_beyond/2,            % +Distance, +Pos
            king_clear/1,               % +Pos
            king_off_edge/1,            % +Pos
            their_king_cornered/1,      % +Pos
            mates_in/2,                 % +Moves, +Pos
            mates_safely_in/2,          % +Moves, +Pos
            closer_to_mate/2,           % +Pos, +Root
            closer_to_mate_by/3,        % +Margin, +Pos, +Root
            % move constraints
            piecemove/3,                % +Pos, ?Move, -Pos1
            tightest/3,                 % +Pos, ?Move, -Pos1
            kingtoward/3,               % +Pos, ?Move, -Pos1
            farthest/3,                 % +Pos, ?Move, -Pos1
            narrowest/3,                % +Pos, ?Move, -Pos1
            narrowest_far/3,            % +Pos, ?Move, -Pos1
            toward_mate/3,              % +Pos, ?Move, -Pos1
            surely_toward_mate/3,       % +Pos, ?Move, -Pos1
            mating_constraint/1         % ?Name
          ]).
:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(chess, [legal_move/3, kind_rank/2, in_check/1]).
:- use_module(symmetry, [least_image_symmetries/3, symmetric_position/3]).
:- use_module(concepts, [room_mask/2, box_mask/2, box_lines/2, mask_distance/3, kings_distance/2, hanging/2, king_square/3,
                         square_distance/3, edge_distance/2, mate_in/4, safe_mate_in/4]).
% Arithmetic compiled in this file (the flag ends with it): the cache's
% key (position_code/2) is computed at every measure a table asks for.
:- set_prolog_flag(optimise, true).

:- module_transparent
    closer_to_mate/2,
    closer_to_mate_by/3,
    toward_mate/3,
    surely_toward_mate/3.

/** <module> The words of mating tables, for any material

The goals and move constraints that advice tables for the mating
endgames (KQK, KRK, KRRK, KBBK, KBNK, ...) are written in, on the
positions of kb/chess/endgame.pl (`eg(Pos, Depth)`), once for every
material: each is a concept of chess/concepts.pl read at a position, or
compared between a position and the root of the forcing tree (`Root`).
Nothing here reads a tablebase.

kb/chess/endgame.pl re-exports this module, so every chess endgame
domain has these words; its move_constraint/1 includes
mating_constraint/1.
*/

%! room_smaller(+Pos, +Root) is semidet.
%
%  The black king's room (concepts:room/2) is smaller at Pos than at
%  the root of the forcing tree.

room_smaller(Pos, Root) :-
    compared(room, <, Pos, Root).

%! room_not_larger(+Pos, +Root) is semidet.
%
%  The black king's room is no larger at Pos than at Root.

room_not_larger(Pos, Root) :-
    compared(room, =<, Pos, Root).

%! room_within(+Max, +Pos) is semidet.
%
%  The black king's room is at most Max squares.

room_within(Max, Pos) :-
    size(room, Pos, R),
    R =< Max.

%! box_smaller(+Pos, +Root) is semidet.
%
%  The black king's box (concepts:box/2: the room White's pieces other
%  than the king leave it) is smaller at Pos than at Root.

box_smaller(Pos, Root) :-
    compared(box, <, Pos, Root).

%! box_not_larger(+Pos, +Root) is semidet.
%
%  The black king's box is no larger at Pos than at Root.

box_not_larger(Pos, Root) :-
    compared(box, =<, Pos, Root).

%! box_within(+Max, +Pos) is semidet.
%
%  The black king's box is at most Max squares.

box_within(Max, Pos) :-
    size(box, Pos, B),
    B =< Max.

%! lines_fewer(+Pos, +Root) is semidet.
%
%  The black king's box spans fewer lines to its edge at Pos than at
%  Root (concepts:box_lines/2): the pieces pushed it a line or more.

lines_fewer(Pos, Root) :-
    lines_compared(<, Pos, Root).

%! lines_halved(+Pos, +Root) is semidet.
%
%  The black king's box spans fewer lines to its edge at Pos than at
%  Root, and at most half as many: the pieces turned it to a nearer edge
%  or pushed it several lines at once.

lines_halved(Pos, Root) :-
    lines_compared(at_most_half, Pos, Root).

%! lines_fewer_by_two(+Pos, +Root) is semidet.
%
%  The black king's box spans at least two lines fewer to its edge at
%  Pos than at Root: two pushes, or one that took two lines.

lines_fewer_by_two(Pos, Root) :-
    lines_compared(two_fewer, Pos, Root).

% two_fewer(+Lines, +Lines0): at least two fewer than Lines0.
two_fewer(Lines, Lines0) :-
    Lines =< Lines0 - 2.

% at_most_half(+Lines, +Lines0): fewer than Lines0, and at most half.
at_most_half(Lines, Lines0) :-
    Lines < Lines0,
    2 * Lines =< Lines0.

%! lines_no_more(+Pos, +Root) is semidet.
%
%  The black king's box spans no more lines to its edge at Pos than at
%  Root (its squares may be more).

lines_no_more(Pos, Root) :-
    lines_compared(=<, Pos, Root).

%! lines_not_larger(+Pos, +Root) is semidet.
%
%  The black king's box spans no more lines to its edge at Pos than at
%  Root, and with as many, has no more squares.

lines_not_larger(Pos, Root) :-
    lines(Pos, Measure),
    lines(Root, Measure0),
    Measure @=< Measure0.

% lines_compared(+Order, +Pos, +Root): the lines the black king's box
% spans to its edge at Pos stand in Order (<, =<, at_most_half/2 or
% two_fewer/2) to those at Root.

lines_compared(Order, Pos, Root) :-
    lines(Pos, Lines-_),
    lines(Root, Lines0-_),
    call(Order, Lines, Lines0).

% lines(+Pos, -Lines-Squares): concepts:box_lines/2 of Pos, remembered.

lines(eg(P, _), Measure) :-
    remembered(lines, P, Measure).

%! king_nearer_box(+Pos, +Root) is semidet.
%
%  White's king is fewer king steps from the black king's box (the
%  nearest of its squares) at Pos than at Root.

king_nearer_box(Pos, Root) :-
    king_nearer(box, Pos, Root).

%! kings_closer(+Pos, +Root) is semidet.
%
%  The kings are fewer king steps apart at Pos than at Root.

kings_closer(eg(P, _), eg(P0, _)) :-
    kings_distance(P, D),
    kings_distance(P0, D0),
    D < D0.

%! king_nearer_room(+Pos, +Root) is semidet.
%
%  White's king is fewer king steps from the black king's room (the
%  nearest of its squares) at Pos than at Root.

king_nearer_room(Pos, Root) :-
    king_nearer(room, Pos, Root).

% king_nearer(+Kind, +Pos, +Root): White's king is fewer king steps from
% the nearest square of the black king's room or box (Kind) at Pos than
% at Root.

king_nearer(Kind, Pos, Root) :-
    king_distance_to(Kind, Pos, D),
    king_distance_to(Kind, Root, D0),
    D < D0.

king_distance_to(Kind, eg(P, _), D) :-
    remembered(Kind, P, Mask),
    king_square(P, w, W),
    mask_distance(W, Mask, D).

%! kings_within(+Max, +Pos) is semidet.
%
%  The kings are at most Max king steps apart.

kings_within(Max, eg(P, _)) :-
    kings_distance(P, D),
    D =< Max.

%! pieces_safe(+Pos) is semidet.
%
%  No White piece is attacked by Black and undefended
%  (concepts:hanging/2).

pieces_safe(eg(P, _)) :-
    \+ hanging(P, _).

%! pieces_far(+Pos) is semidet.
%
%  No White piece but the king stands next to the black king.

pieces_far(Pos) :-
    pieces_beyond(1, Pos).

%! pieces_beyond(+Distance, +Pos) is semidet.
%
%  Every White piece but the king is more than Distance king steps
%  from the black king.

pieces_beyond(N, eg(P, _)) :-
    P = pos(_, Pieces, _),
    king_square(P, b, B),
    \+ ( member(p(w, Kind, Sq), Pieces),
         Kind \== k,
         square_distance(B, Sq, D),
         D =< N ).

%! king_clear(+Pos) is semidet.
%
%  White's king stands on no rank and no file of a White rook or queen:
%  it blocks none of their lines along ranks and files.

king_clear(eg(pos(_, Pieces, _), _)) :-
    memberchk(p(w, k, W), Pieces),
    \+ ( member(p(w, Kind, Sq), Pieces),
         memberchk(Kind, [r, q]),
         ( Sq /\ 7 =:= W /\ 7 ; Sq >> 3 =:= W >> 3 ) ).

%! king_off_edge(+Pos) is semidet.
%
%  White's king is not on the edge of the board.

king_off_edge(eg(P, _)) :-
    king_square(P, w, W),
    edge_distance(W, D),
    D > 0.

%! their_king_cornered(+Pos) is semidet.
%
%  The black king stands on a corner square or next to one, on the
%  edge (a1, b1, a2 and the like).

their_king_cornered(eg(P, _)) :-
    king_square(P, b, B),
    edge_distance(B, 0),
    member(Corner, [0, 7, 56, 63]),
    square_distance(B, Corner, D),
    D =< 1,
    !.

%! mates_in(+Moves, +Pos) is semidet.
%
%  White, to move at Pos, mates in at most Moves moves against every
%  defence (concepts:mate_in/2, a bounded search; the answer is
%  remembered, as the measures are, and so is the answer for every
%  position the search meets: a proof asks again and again).

mates_in(N, eg(P, _)) :-
    remembered_mate(any, P, N).

%! mates_safely_in(+Moves, +Pos) is semidet.
%
%  As mates_in/2, but without giving up a piece on the way
%  (concepts:safe_mate_in/4): the mate that advice holding `not
%  piece_lost` can play.

mates_safely_in(N, eg(P, _)) :-
    remembered_mate(safe, P, N).

%! closer_to_mate(+Pos, +Root) is semidet.
%
%  The knowledge base's measure of how far White is from mate,
%  mating_distance(+Pos, -Distance) (an integer; the knowledge base this
%  is called through defines it), is smaller at Pos than at Root: the
%  plan made progress.  A table whose every piece of advice asks for it
%  cannot go round in a loop.

closer_to_mate(Pos, Root) :-
    closer_to_mate_by(1, Pos, Root).

%! closer_to_mate_by(+Margin, +Pos, +Root) is semidet.
%
%  As closer_to_mate/2, but the measure is smaller at Pos than at Root
%  by at least Margin: the plan made that much progress (with a measure
%  in hundredths of a move, as kb/chess/kbbk.pl's, a margin of 100 asks
%  for a whole move nearer mate).

closer_to_mate_by(Margin, Pos, Root) :-
    context_module(M),
    distances(M, Pos, Root, D, D0),
    D0 - D >= Margin.

% distances(+KB, +Pos, +Root, -D, -D0): KB's mating_distance/2 at Pos
% and at Root, both remembered (a forcing-tree search compares every
% position it meets with the same root).
distances(M, eg(P, _), eg(P0, _), D, D0) :-
    remembered(distance(M), P, D),
    remembered(distance(M), P0, D0).

%! mating_constraint(?Name) is nondet.
%
%  The move constraints of this module.

mating_constraint(piecemove).
mating_constraint(tightest).
mating_constraint(kingtoward).
mating_constraint(farthest).
mating_constraint(narrowest).
mating_constraint(narrowest_far).
mating_constraint(toward_mate).
mating_constraint(surely_toward_mate).

%! piecemove(+Pos, ?Move, -Pos1) is nondet.
%
%  A legal move of a White piece other than the king.

piecemove(eg(P, D), m(F, T, Pr), eg(P1, D1)) :-
    P = pos(w, Pieces, _),
    member(p(w, Kind, F), Pieces),
    Kind \== k,
    legal_move(P, m(F, T, Pr), P1),
    D1 is D + 1.

%! tightest(+Pos, ?Move, -Pos1) is nondet.
%
%  The moves of piecemove/3, those that leave the black king the
%  smallest box first, then the least room (ties in the standard order
%  of the moves, m(From, To, Promo)).

tightest(Pos, Move, Pos1) :-
    findall(Box-Room-(M-P1),
            ( piecemove(Pos, M, P1), size(box, P1, Box), size(room, P1, Room) ),
            Keyed),
    msort(Keyed, Sorted),
    member(_-_-(Move-Pos1), Sorted).

%! kingtoward(+Pos, ?Move, -Pos1) is nondet.
%
%  The legal moves of White's king, those that end nearest to the black
%  king first (ties in the order of chess.pl's moves).

kingtoward(eg(P, D), Move, Pos1) :-
    P = pos(w, _, _),
    king_square(P, w, From),
    king_square(P, b, B),
    findall(Dist-(M-eg(P1, D1)),
            ( M = m(From, To, none),
              legal_move(P, M, P1),
              square_distance(To, B, Dist),
              D1 is D + 1 ),
            Keyed),
    best_first(Keyed, Move, Pos1).

%! farthest(+Pos, ?Move, -Pos1) is nondet.
%
%  The moves of piecemove/3, those that end farthest from the black
%  king first (ties in the order of piecemove/3).

farthest(Pos, Move, Pos1) :-
    Pos = eg(P, _),
    king_square(P, b, B),
    findall(Away-(M-P1),
            ( piecemove(Pos, M, P1),
              M = m(_, To, _),
              square_distance(To, B, D),
              Away is -D ),
            Keyed),
    best_first(Keyed, Move, Pos1).

%! narrowest(+Pos, ?Move, -Pos1) is nondet.
%
%  The moves of piecemove/3, those after which the black king's box
%  spans the fewest lines to its edge first, then those that leave it
%  the fewest squares (concepts:box_lines/2; ties in the order of
%  piecemove/3).

narrowest(Pos, Move, Pos1) :-
    findall(Measure-(M-P1),
            ( piecemove(Pos, M, P1), lines(P1, Measure) ),
            Keyed),
    best_first(Keyed, Move, Pos1).

%! narrowest_far(+Pos, ?Move, -Pos1) is nondet.
%
%  The moves of piecemove/3, those after which the black king's box
%  spans the fewest lines to its edge first (concepts:box_lines/2),
%  then those that end farthest from the black king, which it cannot
%  walk up to at once, then those that leave the box the fewest
%  squares (ties in the standard order of the moves, m(From, To,
%  Promo)).

narrowest_far(Pos, Move, Pos1) :-
    Pos = eg(P, _),
    king_square(P, b, B),
    findall(Lines-Away-Squares-(M-P1),
            ( piecemove(Pos, M, P1), lines(P1, Lines-Squares),
              M = m(_, To, _), square_distance(To, B, D), Away is -D ),
            Keyed),
    msort(Keyed, Sorted),
    member(_-_-_-(Move-Pos1), Sorted).

%! toward_mate(+Pos, ?Move, -Pos1) is nondet.
%
%  The legal moves of White, those after which the knowledge base's
%  mating_distance/2 (see closer_to_mate/2) is least first (ties in the
%  order of chess.pl's moves).

toward_mate(Pos, Move, Pos1) :-
    context_module(M),
    moves_toward_mate(M, Pos, Move, Pos1).

% moves_toward_mate(+KB, +Pos, ?Move, -Pos1): toward_mate/3 with the
% knowledge base KB's mating_distance/2 (a predicate of this module, so
% that its own calls are not resolved in KB).
moves_toward_mate(M, eg(P, Depth), Move, Pos1) :-
    P = pos(w, _, _),
    Depth1 is Depth + 1,
    findall(D-(Mv-eg(P1, Depth1)),
            ( legal_move(P, Mv, P1),
              remembered(distance(M), P1, D) ),
            Keyed),
    best_first(Keyed, Move, Pos1).

%! surely_toward_mate(+Pos, ?Move, -Pos1) is nondet.
%
%  The legal moves of White, those after which the largest
%  mating_distance/2 among Black's replies is least first: the move
%  that leaves the measure smallest whatever Black replies, where
%  toward_mate/3 looks at the position before the reply.  A move that
%  mates comes first, one that stalemates last; ties in the order of
%  chess.pl's moves.

surely_toward_mate(Pos, Move, Pos1) :-
    context_module(M),
    moves_surely_toward_mate(M, Pos, Move, Pos1).

% moves_surely_toward_mate(+KB, +Pos, ?Move, -Pos1): surely_toward_mate/3
% with the knowledge base KB's mating_distance/2.
moves_surely_toward_mate(M, eg(P, Depth), Move, Pos1) :-
    P = pos(w, _, _),
    Depth1 is Depth + 1,
    findall(D-(Mv-eg(P1, Depth1)),
            ( legal_move(P, Mv, P1),
              worst_reply_distance(M, P1, D) ),
            Keyed),
    best_first(Keyed, Move, Pos1).

% worst_reply_distance(+KB, +P1, -D): the largest of KB's measure among
% Black's replies at P1; -inf where Black is mated, inf where stalemated.
worst_reply_distance(M, P1, D) :-
    findall(D1, ( legal_move(P1, _, P2), remembered(distance(M), P2, D1) ), Ds),
    (   Ds = []
    ->  (   in_check(P1) -> D is -inf ; D is inf )
    ;   max_list(Ds, D)
    ).

% best_first(+Keyed, -Move, -Pos1): the Move-Pos1 pairs of Keyed (a list
% of Key-(Move-Pos1)), on backtracking, the least key first; ties keep
% their order.

best_first(Keyed, Move, Pos1) :-
    keysort(Keyed, Sorted),
    member(_-(Move-Pos1), Sorted).

% compared(+Kind, +Order, +Pos, +Root): the size of the black king's
% room or box (Kind) at Pos stands in Order (< or =<) to its size at Root.

compared(Kind, Order, Pos, Root) :-
    size(Kind, Pos, N),
    size(Kind, Root, N0),
    call(Order, N, N0).

% size(+Kind, +Pos, -N): the squares of the black king's room or box.

size(Kind, eg(P, _), N) :-
    remembered(Kind, P, Mask),
    N is popcount(Mask).

% remembered(+Kind, +P, -Value): concepts' room_mask/2, box_mask/2 or
% box_lines/2 (Kind `room`, `box` or `lines`) of P, or whether White
% mates in N (Kind `mates_in(N)`, Value `true` or `false`), remembered
% for up to cache_limit/1 answers (then forgotten all at once): a
% forcing-tree search asks again and again for the measures of its root
% and of the positions it compares with it, and the mate searches of a
% proof meet the same positions from many starts.

:- dynamic cached/3.                % Code of the position, Kind, Value

% cache_limit(-Answers): how many answers remembered/3 keeps.  Mate
% searches are what a small cache hurts: a seeded 150-start sample of
% kqk.adv's proof (its net searches mate in five) took 240 s with
% 100,000 answers and 41 s with 3,000,000; the full proof takes 74 s
% with 1,000,000 and 69 s with 3,000,000, with which KRRK's proof peaked
% at 3.0 GB a worker, against 2.1 GB with 1,000,000 and 1.6 GB with
% 100,000 (bench/tables.py, measured while the slices of start
% positions went to whichever worker was free; with each worker on a
% run of its own, 64 s and 1.8 GB with 1,000,000, and 66 s and 1.3 GB
% since the cache keeps a position's code in place of the position).
cache_limit(1000000).

remembered(Kind, P, Value) :-
    kind_code(Kind, P, Code),
    (   known(Code, Kind, Value0)
    ->  Value = Value0
    ;   measured(Kind, P, Value),
        remember(Code, Kind, Value)
    ).

% known(+Code, +Kind, -Value): the cache answers Kind at the position of
% Code, a mate search also from the answer of another depth: a mate in
% fewer moves is a mate in N, and no mate in more moves is no mate in N.
% KQK's proof (`advice verify kqk --defender all --workers 2`) took 96 s
% asking the cache for N only and 86 s with it, its figures the same; a
% seeded sample of it (`--sample 1000 --seed 1`), 65 and 52 s.
known(Code, Kind, Value) :-
    mate_kind(Kind, Search, N),
    !,
    mate_kind(Kind0, Search, M),
    cached(Code, Kind0, Value0),
    (   Value0 == true -> M =< N ; M >= N ),
    !,
    Value = Value0.
known(Code, Kind, Value) :-
    cached(Code, Kind, Value),
    !.

% position_code(+P, -Code): an integer that no other position has, which
% the cache keeps in place of P: ten bits a piece (its colour and kind,
% never 0, then its square) in the order of the sorted list of pieces,
% then the side to move and the en-passant square; 48 bits for four
% pieces, so a remembered answer takes some 220 bytes instead of 610
% with the position term (KRRK's proof).
position_code(pos(Side, Pieces, EP), Code) :-
    pieces_code(Pieces, 0, Code0),
    (   Side == w -> S = 0 ; S = 1 ),
    (   EP == none -> E = 0 ; E is EP + 1 ),
    Code is (Code0 << 8) \/ (S << 7) \/ E.

% kind_code(+Kind, +P, -Code): the key under which the answer of Kind at
% P is remembered: a mate search's by class_code/2, every other by
% position_code/2.
kind_code(Kind, P, Code) :-
    mate_kind(Kind, _, _),
    !,
    class_code(P, Code).
kind_code(_, P, Code) :-
    position_code(P, Code).

% class_code(+P, -Code): the position_code/2 of the least of P's images
% in the board's eight symmetries (chess/symmetry.pl), which all have
% the same mates; P's own code when it has pawns.  A mate search that
% meets an image of a position it searched reuses the answer: KQK's
% proof (`advice verify kqk --defender all --workers 2`) took 127 s
% with position_code/2 and 78 s with this, its figures the same.  Not
% symmetry:canonical/3, which sorts all eight images: with it a seeded
% sample of that proof (`--sample 10 --seed 1 --workers 1`) took 35 s,
% with this 16.
class_code(P, Code) :-
    P = pos(Side, Pieces, _),
    (   memberchk(p(_, p, _), Pieces)
    ->  position_code(P, Code)
    ;   king_square(P, w, W),
        least_image_symmetries(W, G1, G2),
        image_code(G1, Side, Pieces, Code1),
        (   G2 == G1
        ->  Code = Code1
        ;   image_code(G2, Side, Pieces, Code2),
            Code is min(Code1, Code2)
        )
    ).

image_code(G, Side, Pieces, Code) :-
    symmetric_position(G, eg(pos(Side, Pieces, none), 0), eg(Image, _)),
    position_code(Image, Code).

pieces_code([], Code, Code).
pieces_code([p(Colour, Kind, Sq)|Pieces], Code0, Code) :-
    kind_rank(Kind, Rank),
    (   Colour == w -> Index is Rank + 1 ; Index is Rank + 7 ),
    Code1 is (Code0 << 10) \/ (Index << 6) \/ Sq,
    pieces_code(Pieces, Code1, Code).

measured(room, P, Mask) :- room_mask(P, Mask).
measured(box, P, Mask) :- box_mask(P, Mask).
measured(lines, P, Measure) :- box_lines(P, Measure).
measured(distance(M), P, D) :- M:mating_distance(eg(P, 0), D).
measured(mates_in(N), P, Found) :-
    (   mate_in(P, N, remembered_mate(any), remembered_escape(any)) -> Found = true ; Found = false ).
measured(safe_mates_in(N), P, Found) :-
    (   safe_mate_in(P, N, remembered_mate(safe), remembered_escape(safe))
    ->  Found = true
    ;   Found = false
    ).

% mate_kind(?Kind, ?Search, ?N): Kind is the answer of a mate search in
% N moves, Search `any` (concepts:mate_in/4) or `safe`
% (concepts:safe_mate_in/4).
mate_kind(mates_in(N), any, N).
mate_kind(safe_mates_in(N), safe, N).

% remembered_mate(+Search, +P, +N): White mates in N at P, the answer
% remembered (the search's own Deeper, so that it remembers at every
% level).
remembered_mate(Search, P, N) :-
    mate_kind(Kind, Search, N),
    remembered(Kind, P, Found),
    Found == true.

% remembered_escape(+Search, +P, +N): White is remembered not to mate in
% N at P, which the search asks of every reply before it searches any:
% KQK's proof (`advice verify kqk --defender all --workers 2`) took 72 s
% without it, 60 s with it.
remembered_escape(Search, P, N) :-
    mate_kind(Kind, Search, N),
    class_code(P, Code),
    known(Code, Kind, false).

% The count of answers is a flag/3, not a dynamic fact retracted and
% asserted again at every answer (4% of a seeded KBBK sample's time under
% profile/2; without the profiler, `advice verify kbbk --defender all
% --sample 3000 --seed 1` took 325 s with the flag and 330 s without).
remember(Code, Kind, Value) :-
    flag(chess_mating_cached, N, N + 1),
    cache_limit(Limit),
    (   N >= Limit
    ->  retractall(cached(_, _, _)),
        flag(chess_mating_cached, _, 1)
    ;   true
    ),
    assertz(cached(Code, Kind, Value)).
