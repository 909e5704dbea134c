/*  Tests of the words of mating tables (kb/chess/mating.pl).

    Run:  swipl -g run_tests -t halt kb/chess/test_mating.pl

    Positions are eg(Pos, Depth) of kb/chess/endgame.pl, built from
    boards written as Turn and a list of Colour-Letter-Name (w-k-e1).
*/

:- use_module(library(plunit)).
:- use_module(library(apply)).
:- prolog_load_context(directory, Dir),
   atom_concat(Dir, '/chess', Chess), use_module(Chess),
   atom_concat(Dir, '/mating', Mating), use_module(Mating),
   atom_concat(Dir, '/concepts', Concepts), use_module(Concepts, [box_lines/2]).

eg(Turn, Named, eg(Pos, 0)) :-
    named_position(Turn, Named, Pos).

move_names(Moves, Names) :-
    maplist([m(F, T, _), N]>>( square_name(F, FN), square_name(T, TN),
                               atom_concat(FN, TN, N) ), Moves, Names).

:- begin_tests(mating).

test(room_and_box_compared_with_the_root) :-
    eg(w, [w-k-e1, w-q-d3, b-k-h8], Root),     % the queen leaves e4-h8 and more
    eg(b, [w-k-e1, w-q-f5, b-k-h8], Tight),    % g8, g7, h8 and h6
    assertion(room_smaller(Tight, Root)),
    assertion(room_not_larger(Tight, Root)),
    assertion(\+ room_smaller(Root, Tight)),
    assertion(box_smaller(Tight, Root)),
    assertion(box_not_larger(Root, Root)),
    assertion(room_within(4, Tight)),
    assertion(box_within(4, Tight)),
    assertion(\+ box_within(3, Tight)),
    assertion(\+ box_within(4, Root)).

test(lines_of_the_box_compared_with_the_root) :-
    eg(w, [w-k-h8, w-r-a3, w-r-b7, b-k-e1], Root),   % two ranks, c1-h2
    eg(b, [w-k-h8, w-r-a2, w-r-b7, b-k-e1], Pushed), % one rank, c1-h1
    eg(b, [w-k-h8, w-r-a3, w-r-a7, b-k-e1], Wider),  % two ranks, b1-h2
    assertion(lines_fewer(Pushed, Root)),
    assertion(\+ lines_fewer(Wider, Root)),
    assertion(lines_no_more(Wider, Root)),
    assertion(\+ lines_not_larger(Wider, Root)),
    assertion(lines_not_larger(Pushed, Root)),
    assertion(\+ lines_no_more(Root, Pushed)),
    eg(w, [w-k-h8, w-r-a4, w-r-b7, b-k-e1], Three), % three ranks, c1-h3
    assertion(lines_halved(Pushed, Root)),
    assertion(lines_halved(Pushed, Three)),
    assertion(lines_fewer(Root, Three)),
    assertion(\+ lines_halved(Root, Three)),
    assertion(\+ lines_halved(Wider, Root)),
    assertion(lines_fewer_by_two(Pushed, Three)),
    assertion(\+ lines_fewer_by_two(Root, Three)),
    assertion(\+ lines_fewer_by_two(Pushed, Root)).

test(king_clear) :-
    eg(w, [w-k-d4, w-r-a3, w-r-b7, b-k-e1], Clear),
    assertion(king_clear(Clear)),
    eg(w, [w-k-d3, w-r-a3, w-r-b7, b-k-e1], OnRank),
    assertion(\+ king_clear(OnRank)),
    eg(w, [w-k-b4, w-r-a3, w-r-b7, b-k-e1], OnFile),
    assertion(\+ king_clear(OnFile)).

test(king_off_edge) :-
    eg(w, [w-k-b2, w-q-f5, b-k-h8], Inside),
    assertion(king_off_edge(Inside)),
    eg(w, [w-k-a2, w-q-f5, b-k-h8], OnFile),
    assertion(\+ king_off_edge(OnFile)),
    eg(w, [w-k-c8, w-q-f5, b-k-h6], OnRank),
    assertion(\+ king_off_edge(OnRank)).

test(kings_and_the_box) :-
    eg(w, [w-k-a1, w-q-f5, b-k-h8], Root),
    eg(b, [w-k-b2, w-q-f5, b-k-h8], Nearer),
    assertion(kings_closer(Nearer, Root)),
    assertion(king_nearer_box(Nearer, Root)),
    assertion(king_nearer_room(Nearer, Root)),
    assertion(\+ kings_within(5, Nearer)),
    assertion(kings_within(6, Nearer)).

test(pieces_safe) :-
    eg(b, [w-k-a1, w-q-g7, b-k-h8], Hanging),  % the queen next to the king
    assertion(\+ pieces_safe(Hanging)),
    eg(b, [w-k-f6, w-q-g7, b-k-h8], Defended),
    assertion(pieces_safe(Defended)).

test(pieces_far_and_beyond) :-
    eg(b, [w-k-a1, w-r-c7, w-r-h1, b-k-e6], P),   % c7 two steps away
    assertion(pieces_far(P)),
    assertion(pieces_beyond(1, P)),
    assertion(\+ pieces_beyond(2, P)),
    eg(b, [w-k-a1, w-r-d7, w-r-h1, b-k-e6], Q),   % d7 next to the king
    assertion(\+ pieces_far(Q)).

test(farthest_first) :-
    eg(w, [w-k-a1, w-r-d4, b-k-e6], Pos),
    findall(M, farthest(Pos, M, _), Moves),
    move_names(Moves, [First|_]),
    assertion(First == d4d1),
    length(Moves, 14).

test(their_king_cornered) :-
    eg(w, [w-k-a1, w-q-f5, b-k-g8], Next),
    assertion(their_king_cornered(Next)),
    eg(w, [w-k-a1, w-q-f5, b-k-g7], Off),
    assertion(\+ their_king_cornered(Off)).

test(mates_in) :-
    eg(w, [w-k-g6, w-q-b1, b-k-h8], Pos),      % Qb8#
    assertion(mates_in(1, Pos)),
    eg(w, [w-k-f6, w-q-b1, b-k-h8], Two),      % Qb7 Kg8 Qg7#
    assertion(\+ mates_in(1, Two)),
    assertion(mates_in(2, Two)),
    % asked again, the remembered answers are the same
    assertion(\+ mates_in(1, Two)),
    assertion(mates_in(2, Two)),
    assertion(mates_in(1, Pos)).

test(mates_in_answered_from_another_depth) :-
    % a mate in one is a mate in three, and no mate in two is no mate in
    % one: the cache answers both without a search (nothing new in it)
    eg(w, [w-k-g6, w-q-c1, b-k-h8], Mate),     % Qc8#
    eg(w, [w-k-a1, w-q-b1, b-k-e5], Far),
    flag(chess_mating_cached, Empty, Empty),
    assertion(mates_in(1, Mate)),
    assertion(\+ mates_in(2, Far)),
    flag(chess_mating_cached, Before, Before),
    assertion(Before > Empty),              % the searches were remembered
    assertion(mates_in(3, Mate)),
    assertion(\+ mates_in(1, Far)),
    assertion(flag(chess_mating_cached, Before, Before)).

test(mates_in_answered_for_a_symmetric_image) :-
    % the mirror image of a position searched (the board turned about
    % the a1-h8 diagonal) is answered from the cache, without a search
    eg(w, [w-k-f6, w-q-b1, b-k-h8], Two),      % Qb7 Kg8 Qg7#
    eg(w, [w-k-f6, w-q-a2, b-k-h8], Image),    % Qg2 Kh7 Qg7#
    assertion(mates_in(2, Two)),
    flag(chess_mating_cached, Before, Before),
    assertion(mates_in(2, Image)),
    assertion(flag(chess_mating_cached, Before, Before)).

test(mates_safely_in) :-
    % mate in three only by giving up a rook, in four without
    eg(w, [w-k-d1, w-r-a2, w-r-a3, b-k-b1], Pos),
    assertion(mates_in(3, Pos)),
    assertion(\+ mates_safely_in(3, Pos)),
    assertion(mates_safely_in(4, Pos)),
    % each search's answers are remembered apart from the other's
    assertion(\+ mates_safely_in(3, Pos)),
    assertion(mates_in(3, Pos)).

test(piecemove_moves_no_king) :-
    eg(w, [w-k-a1, w-q-h1, b-k-e8], Pos),
    forall(piecemove(Pos, m(From, _, _), _), square_name(From, h1)),
    aggregate_all(count, piecemove(Pos, _, _), N),
    assertion(N == 20).

test(tightest_first) :-
    % the queen's 20 moves from h1, by the box they leave the black king
    eg(w, [w-k-a1, w-q-h1, b-k-e8], Pos),
    findall(B, ( tightest(Pos, _, P1), box_size(P1, B) ), Boxes),
    assertion(Boxes == [5, 6, 9, 9, 12, 19, 20, 22, 24, 24, 30, 30, 30, 30,
                        36, 36, 36, 43, 43, 43]).

test(kingtoward_nearest_first) :-
    eg(w, [w-k-d4, w-q-a1, b-k-h8], Pos),
    findall(M, kingtoward(Pos, M, _), Moves),
    move_names(Moves, [First|_]),
    assertion(First == d4e5),
    length(Moves, 8).

test(depth_counts_the_move) :-
    eg(w, [w-k-d4, w-q-a1, b-k-h8], Pos),
    once(kingtoward(Pos, _, eg(_, D1))),
    once(tightest(Pos, _, eg(_, D2))),
    assertion(D1-D2 == 1-1).

test(narrowest) :-
    % rooks on the third and seventh ranks, the king on e1 boxed in two
    % ranks: a rook to the second rank leaves one rank, six squares
    eg(w, [w-k-h8, w-r-a3, w-r-b7, b-k-e1], Pos),
    findall(Name-Measure,
            ( narrowest(Pos, M, P1), move_names([M], [Name]), box_lines_of(P1, Measure) ),
            Keyed),
    length(Keyed, 28),
    Keyed = [First, Second|_],
    assertion(First == a3a2-(1-6)),
    assertion(Second == b7b2-(1-6)),
    last(Keyed, Last),
    assertion(Last == a3a8-(6-36)),
    pairs_values(Keyed, Measures),
    assertion(msort(Measures, Measures)).

test(narrowest_far) :-
    % rooks on a3 and g6 shut the king on e4 in ranks 4 and 5: g6-d6
    % and a3-a5 each leave it four lines to an edge; narrowest/3 takes
    % the rook to d6, next to the king's box (8 squares), narrowest_far/3
    % the one to a5, four squares from the king (a box of 20)
    eg(w, [w-k-a8, w-r-a3, w-r-g6, b-k-e4], Pos),
    once(narrowest(Pos, Near, P1)),
    once(narrowest_far(Pos, Far, P2)),
    move_names([Near, Far], [NearName, FarName]),
    assertion(NearName-P1 = g6d6-eg(_, 1)),
    assertion(FarName-P2 = a3a5-eg(_, 1)),
    box_lines_of(P1, NearMeasure),
    box_lines_of(P2, FarMeasure),
    assertion(NearMeasure-FarMeasure == (4-8)-(4-20)),
    findall(Lines, ( narrowest_far(Pos, _, P), box_lines_of(P, Lines-_) ), AllLines),
    length(AllLines, 27),
    assertion(msort(AllLines, AllLines)).

box_lines_of(eg(P, _), Measure) :-
    box_lines(P, Measure).

% The cache of measures keeps a position's code in its place: two
% positions must never share one.
test(no_two_positions_share_a_cache_code) :-
    findall(Code,
            ( between(0, 63, B), between(0, 63, R), member(Side, [w, b]),
              msort([p(w, k, 0), p(w, r, R), p(b, k, B)], Pieces),
              chess_mating:position_code(pos(Side, Pieces, none), Code) ),
            Codes),
    sort(Codes, Distinct),
    length(Codes, N),
    assertion(N == 8192),
    assertion(length(Distinct, N)).

test(a_piece_more_or_an_en_passant_square_changes_the_cache_code) :-
    chess_mating:position_code(pos(w, [p(w, k, 0)], none), One),
    chess_mating:position_code(pos(w, [p(w, k, 0), p(w, k, 0)], none), Two),
    chess_mating:position_code(pos(w, [p(w, k, 0)], 40), EP),
    assertion(One =\= Two),
    assertion(One =\= EP).

% A knowledge base's own measure: the kings' distance (distance_kb below).
test(closer_to_mate_reads_the_knowledge_base_measure) :-
    eg(w, [w-k-a1, w-b-c1, w-n-g1, b-k-e5], Root),
    eg(b, [w-k-b2, w-b-c1, w-n-g1, b-k-e5], Nearer),
    eg(b, [w-k-a2, w-b-c1, w-n-g1, b-k-e5], Same),
    assertion(distance_kb:closer_to_mate(Nearer, Root)),
    assertion(\+ distance_kb:closer_to_mate(Same, Root)).

% The kings four steps apart at the root; three and two after White's move.
test(closer_to_mate_by_asks_for_a_margin) :-
    eg(w, [w-k-a1, w-b-c1, w-n-g1, b-k-e5], Root),
    eg(b, [w-k-b2, w-b-c1, w-n-g1, b-k-e5], OneNearer),
    eg(b, [w-k-c3, w-b-c1, w-n-g1, b-k-e5], TwoNearer),
    assertion(distance_kb:closer_to_mate_by(1, OneNearer, Root)),
    assertion(\+ distance_kb:closer_to_mate_by(2, OneNearer, Root)),
    assertion(distance_kb:closer_to_mate_by(2, TwoNearer, Root)),
    assertion(\+ distance_kb:closer_to_mate_by(1, Root, Root)).

test(toward_mate_orders_moves_by_the_measure) :-
    eg(w, [w-k-a1, w-b-h1, w-n-h2, b-k-e5], Pos),
    findall(D, ( distance_kb:toward_mate(Pos, _, eg(P1, 1)),
                 chess_concepts:kings_distance(P1, D) ), Distances),
    Distances = [First|_],
    assertion(First == 3),                     % Kb2: four steps to e5, then three
    assertion(msort(Distances, Distances)),
    Pos = eg(P, _),
    aggregate_all(count, chess:legal_move(P, _, _), Legal),
    length(Distances, N),
    assertion(N == Legal).

test(surely_toward_mate_orders_moves_by_the_worst_reply) :-
    eg(w, [w-k-c3, w-b-h1, w-n-h2, b-k-a5], Pos),
    findall(Worst-To,
            ( distance_kb:surely_toward_mate(Pos, m(_, T, _), eg(P1, 1)),
              square_name(T, To),
              worst_reply(P1, Worst) ),
            Ordered),
    Ordered = [First|_],
    assertion(First == 2-c4),                  % Kc4: every reply leaves the kings 2 apart
    pairs_keys(Ordered, Worsts),
    assertion(msort(Worsts, Worsts)),
    once(distance_kb:toward_mate(Pos, _, eg(Q1, 1))),
    worst_reply(Q1, NearestFirst),
    assertion(NearestFirst == 3).              % Bg2 first: the kings stay 2 apart, Ka6 takes them to 3

:- end_tests(mating).

% worst_reply(+P, -D): the largest kings' distance Black can leave by a reply at P.
worst_reply(P, D) :-
    aggregate_all(max(D1), ( chess:legal_move(P, _, P1), chess_concepts:kings_distance(P1, D1) ), D).

% distance_kb: a knowledge base whose measure of progress is the kings'
% distance, with the words of mating tables.
distance_kb:mating_distance(eg(P, _), D) :-
    chess_concepts:kings_distance(P, D).
:- add_import_module(distance_kb, chess_mating, end).

box_size(Pos, B) :-
    between(1, 64, B), box_within(B, Pos), !.
