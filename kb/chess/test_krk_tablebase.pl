/*  Tests of the KRK tablebase (kb/chess/krk_tablebase.pl).

    Run:  swipl -g run_tests -t halt kb/chess/test_krk_tablebase.pl

    The facts are made from the engine's KRK table (about 2 seconds),
    which must be in the cache (`advice tablebase KRK` builds it; the
    pytest run does so first).  The
    row-by-row comparison with the UCI data set krkopt.data runs where
    ../shared/reference/krkopt.data (relative to the project root) exists
    and is skipped, saying why, where it does not.
*/

:- use_module(library(plunit)).
:- use_module(library(aggregate)).
:- use_module(library(readutil)).
:- use_module(library(http/json)).
:- prolog_load_context(directory, Dir),
   atom_concat(Dir, '/tablebase', General),
   use_module(General, [load_tables/1]).
:- prolog_load_context(directory, Dir),
   atom_concat(Dir, '/krk', Krk),
   atom_concat(Dir, '/krk_tablebase', TB),
   use_module(Krk, except([perfect_reply/3, optimal_move/3])),
   use_module(TB).

:- dynamic test_dir/1.
:- prolog_load_context(directory, Dir),
   retractall(test_dir(_)),
   assertz(test_dir(Dir)).

% krkopt_file(-File): where the reference data set would be.
krkopt_file(File) :-
    test_dir(Dir),
    atomic_list_concat([Dir, '/../../../shared/reference/krkopt.data'], Path),
    absolute_file_name(Path, File).

% krkopt_available: true when the data set exists; otherwise says why the
% test is skipped.
krkopt_available :-
    krkopt_file(File),
    (   exists_file(File)
    ->  true
    ;   format(user_error,
               "~NSkipping the krkopt.data check: ~w does not exist~n",
               [File]),
        fail
    ).

sq(Name, Sq) :-
    square_name(Sq, Name).

pos(Side, WK, WR, BK, Pos) :-
    sq(WK, W), sq(WR, R), sq(BK, B),
    krk_position(W, R, B, Side, Pos).

% krkopt_mismatches(+File, -Rows, -Mismatches)
krkopt_mismatches(File, Rows, Bad) :-
    read_file_to_string(File, Text, []),
    split_string(Text, "\n", "\r ", Lines0),
    exclude(==(""), Lines0, Lines),
    length(Lines, Rows),
    aggregate_all(count,
                  ( member(Line, Lines),
                    \+ row_agrees(Line)
                  ),
                  Bad).

row_agrees(Line) :-
    split_string(Line, ",", " ", Fields),
    maplist(number_string, [WF, WRk, RF, RRk, BF, BRk, Class], Fields),
    W is (WRk-1)*8 + WF-1,
    R is (RRk-1)*8 + RF-1,
    B is (BRk-1)*8 + BF-1,
    krk_position(W, R, B, b, Pos),
    dtm(Pos, D),
    (   D == draw
    ->  Class =:= 17
    ;   Class =:= D
    ),
    I is W*4096 + R*64 + B,
    canonical_btm(I).

% general_table(-File): the engine's KRK table in its cache, as
% engine/cache.py and engine/tablebases/store.py place it.
general_table(File) :-
    (   getenv('ADVICE_CACHE_DIR', Dir) -> true
    ;   getenv('XDG_CACHE_HOME', X) -> atom_concat(X, '/advice', Dir)
    ;   getenv('HOME', H), atom_concat(H, '/.cache/advice', Dir)
    ),
    atomic_list_concat([Dir, '/tablebases/KRK.v1.tb'], File).

% from_general_table: the facts, made from the engine's KRK table, which
% the pytest run (tests/test_plunit.py) builds first.
from_general_table :-
    general_table(File),
    (   exists_file(File)
    ->  load_tables(['KRK'-File]),
        ensure_tablebase
    ;   format(user_error, "~N~w is missing: build it with `advice tablebase KRK`~n",
               [File]),
        fail
    ).

:- begin_tests(krk_tablebase, [setup(from_general_table)]).

test(loaded) :-
    assertion(tablebase_loaded).

test(position_counts) :-
    stats(S),
    assertion(S.wtm == 175168),
    assertion(S.btm == 223944),
    assertion(S.max_wtm == 16),
    assertion(S.max_btm == 16).

test(canonical_counts) :-
    stats(S),
    assertion(S.canonical_btm == 28056),
    assertion(S.canonical_wtm == 21959).

test(krkopt_class_counts) :-
    stats(S),
    C = S.canonical_btm_classes,
    dict_pairs(C, _, Pairs),
    assertion(Pairs == [ 0-27, 1-78, 2-246, 3-81, 4-198, 5-471, 6-592,
                         7-683, 8-1433, 9-1712, 10-1985, 11-2854, 12-3597,
                         13-4194, 14-4553, 15-2166, 16-390, draw-2796 ]).

test(stats_json) :-
    stats_json(String),
    atom_json_dict(String, D, []),
    assertion(D.btm_positions == 223944),
    assertion(D.max_dtm == 16),
    assertion(D.btm_canonical.draw == 2796).

test(every_wtm_position_won) :-
    assertion(\+ wtm(_, draw)),
    aggregate_all(count, wtm(_, _), N),
    assertion(N == 175168).

test(mate_is_zero) :-
    pos(b, b6, h8, a8, P),
    dtm(P, D),
    assertion(D == 0).

test(mate_in_one) :-
    pos(w, b6, h1, a8, P),
    dtm(P, D),
    assertion(D == 1),
    optimal_move(P, M, P1),
    assertion(M == m(7, 63)),
    assertion(mate(P1)).

test(draw_capture) :-
    pos(b, d5, b7, a8, P),
    dtm(P, D),
    assertion(D == draw),
    perfect_reply(P, M, _),
    assertion(M == m(56, 49)).

test(draw_stalemate) :-
    pos(b, c6, b7, a8, P),
    dtm(P, D),
    assertion(D == draw),
    assertion(\+ perfect_reply(P, _, _)).

test(dtm_consistency) :-
    % every White-to-move value is 1 + the best Black-to-move value
    forall(( between(1, 2000, K),
             I is (K*131) mod 262144,
             wtm(I, D) ),
           ( W is I >> 12, R is (I >> 6) /\ 63, B is I /\ 63,
             krk_position(W, R, B, w, P),
             optimal_move(P, _, P1),
             dtm(P1, D1),
             D =:= D1 + 1 )).

test(optimal_line_length) :-
    pos(w, b6, h1, a8, P1),
    optimal_line(P1, L1),
    assertion(L1 == [m(7, 63)]),
    % a longest win: 16 White moves, 15 Black replies
    once(wtm(I, 16)),
    W is I >> 12, R is (I >> 6) /\ 63, B is I /\ 63,
    krk_position(W, R, B, w, P),
    optimal_line(P, L),
    length(L, N),
    assertion(N == 31),
    last_position(L, P, Last),
    assertion(mate(Last)).

test(made_again) :-
    stats(S0),
    prepare_cache(none, true, Source),
    stats(S1),
    assertion(Source == cache),
    assertion(S0 == S1),
    prepare_cache(none, false, Again),
    assertion(Again == session).

test(krkopt_rows, [condition(krkopt_available)]) :-
    krkopt_file(File),
    krkopt_mismatches(File, Rows, Bad),
    assertion(Rows == 28056),
    assertion(Bad == 0).

:- end_tests(krk_tablebase).

% last_position(+Moves, +Pos, -Last): Last is Pos after playing Moves.
last_position([], P, P).
last_position([M|Ms], P, Last) :-
    legalmove(P, M, P1), !,
    last_position(Ms, P1, Last).
