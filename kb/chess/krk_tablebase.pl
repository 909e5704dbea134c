:- module(krk_tablebase,
          [ ensure_tablebase/0,
            prepare_cache/3,            % +Dir, +Rebuild, -Source
            tablebase_loaded/0,
            wtm/2,                      % ?Index, ?Dtm
            btm/2,                      % ?Index, ?Class
            position_index/2,           % +Pos, -Index
            dtm/2,                      % +Pos, -D
            perfect_reply/3,            % +Pos, -Move, -Pos1
            optimal_move/3,             % +Pos, -Move, -Pos1
            optimal_line/2,             % +Pos, -Moves
            canonical_btm/1,            % +Index
            start_position/2,           % +Set, -Pos
            stats/1,                    % -Dict
            stats_json/1                % -String
          ]).
% Compile arithmetic inline (this flag is restored at the end of the file).
:- set_prolog_flag(optimise, true).
:- use_module(library(apply)).
:- use_module(library(pairs)).
:- use_module(library(aggregate)).
:- use_module(library(lists)).
:- use_module(library(http/json)).
:- use_module(tablebase, [table_byte/4]).
:- use_module(krk, except([ perfect_reply/3, optimal_move/3, optimal_moves/2,
                            start/2 ])).

/** <module> The KRK tablebase in the terms of the KRK domain

Distance to mate for every legal King-and-Rook-versus-King position with
the rook on the board, as facts indexed for the KRK domain (krk.pl) and
its perfect defender.  The values come from the general table of KRK
(`'KRK'` in tablebase.pl, built by the engine's retrograde analysis,
engine/tablebases), which must be loaded: the engine loads it before a
chess domain's declarations are read.  The facts are kept because the
KRK perfect-defender sweep looks up values millions of times, and a
first-argument-indexed fact is the fastest lookup Prolog has.

## Conventions (those of the UCI data set krkopt.data)

  - Black to move: the *class* is the number of White moves to checkmate
    against best defence, 0 when Black is already mated; `draw` when
    Black can capture the rook (it is not guarded by the white king) or
    is stalemated.
  - White to move: the number of White moves to mate including the move
    to be made (mate in one = 1).  Every legal position with White to move
    is won; the longest takes 16 moves.

## Storage

An index is WK*4096 + WR*64 + BK (squares 0..63 as in module krk).  The
table is the dynamic facts wtm(Index, Dtm) (one per legal White-to-move
position: 175,168) and btm(Index, Class) (one per legal Black-to-move
position: 223,944, draws as `btm(Index, draw)`).  Indexes of illegal
positions have no fact.
*/

:- dynamic
    wtm/2,
    btm/2,
    loaded/0.

%! wtm(?Index, ?Dtm) is nondet.
%
%  The legal White-to-move position Index is mated in Dtm White moves
%  (1..16).  Only after ensure_tablebase/0.

%! btm(?Index, ?Class) is nondet.
%
%  The legal Black-to-move position Index has class Class: 0..16 White
%  moves to mate, or `draw`.  Only after ensure_tablebase/0.

%! tablebase_loaded is semidet.
%
%  The facts are made in this process.

tablebase_loaded :-
    loaded.

%! ensure_tablebase is det.
%
%  Makes the facts from the general KRK table unless they are made.
%  Raises `existence_error(tablebase, 'KRK')` when that is not loaded.

ensure_tablebase :-
    (   loaded
    ->  true
    ;   make_facts
    ).

%! prepare_cache(+Dir, +Rebuild, -Source) is det.
%
%  Makes the facts ready: kept from this session (Source `session`), or
%  made again (with Rebuild `true`, or the first time) from the general
%  KRK table that the engine read from its cache in Dir (`cache`).

prepare_cache(_Dir, Rebuild, Source) :-
    (   Rebuild \== true, loaded
    ->  Source = session
    ;   make_facts,
        Source = cache
    ).

% make_facts: the facts wtm/2 and btm/2 of every legal position, read
% from the general table; about 2 s.
make_facts :-
    retractall(loaded),
    retractall(wtm(_, _)),
    retractall(btm(_, _)),
    forall(( between(0, 63, WK), between(0, 63, WR), WR =\= WK,
             between(0, 63, BK), BK =\= WK, BK =\= WR ),
           position_facts(WK, WR, BK)),
    assertz(loaded).

position_facts(WK, WR, BK) :-
    I is WK << 12 \/ WR << 6 \/ BK,
    table_byte('KRK', w, [WK, WR, BK], W),
    (   W =:= 255 -> true
    ;   W =:= 0 -> assertz(wtm(I, draw))
    ;   D is W // 2, assertz(wtm(I, D))           % a win in 2D-1 plies
    ),
    table_byte('KRK', b, [WK, WR, BK], B),
    (   B =:= 255 -> true
    ;   B =:= 0 -> assertz(btm(I, draw))
    ;   C is (B - 1) // 2, assertz(btm(I, C))     % mated in 2C plies
    ).

must_be_loaded :-
    (   loaded
    ->  true
    ;   existence_error(krk_tablebase, loaded)
    ).

		 /*******************************
		 *           QUERIES            *
		 *******************************/

%! position_index(+Pos, -Index) is semidet.
%
%  Index is WK*4096 + WR*64 + BK for a krk/5 position with the rook on
%  the board.

position_index(krk(_, WK, WR, BK, _), I) :-
    WR \== none,
    I is WK << 12 \/ WR << 6 \/ BK.

%! dtm(+Pos, -D) is semidet.
%
%  D is the distance to mate of the legal krk/5 position Pos: with White
%  to move, White moves to mate including this one; with Black to move,
%  White moves to mate against best defence (0 = mated).  D is `draw`
%  when the rook is captured, or Black to move can capture it or is
%  stalemated.  Fails for illegal positions.

dtm(krk(S, WK, WR, BK, _), D) :-
    must_be_loaded,
    (   WR == none
    ->  D = draw
    ;   I is WK << 12 \/ WR << 6 \/ BK,
        dtm_(S, I, D)
    ).

dtm_(w, I, D) :- wtm(I, D).
dtm_(b, I, D) :- btm(I, D).

%! perfect_reply(+Pos, -Move, -Pos1) is semidet.
%
%  Move is Black's best defence in Pos (Black to move): a capture of the
%  rook if there is one, else the move to the White-to-move position of
%  largest DTM; among equals the lowest target square.  Fails when Black
%  has no legal move.

perfect_reply(krk(b, W, R, B, D), m(B, B1), krk(w, W, R1, B1, D1)) :-
    must_be_loaded,
    findall(Key-B1x, black_option(W, R, B, B1x, Key), Pairs),
    keysort(Pairs, [_-B1|_]),
    (   B1 == R -> R1 = none ; R1 = R ),
    D1 is D+1.

black_option(W, R, B, B1, Key) :-
    krk:bk_move(W, R, B, B1, R1),
    reply_key(W, R1, B1, Key).

% reply_key(+W, +R1, +B1, -Key): smaller keys are better for Black:
% capturing the rook first, then the largest DTM, then the lowest target
% square.
reply_key(W, R1, B1, Key) :-
    (   R1 == none
    ->  Key = -1000-B1
    ;   I is W << 12 \/ R1 << 6 \/ B1,
        wtm(I, Dtm),
        Rank is -Dtm,
        Key = Rank-B1
    ).

%! optimal_move(+Pos, -Move, -Pos1) is semidet.
%
%  Move is a White move (White to move) of Pos that mates fastest: it
%  leads to the Black-to-move position of smallest class; among equals
%  the lowest target square, then the lowest origin square.  Fails when
%  the rook is captured.

optimal_move(krk(w, W, R, B, D), m(From, To), krk(b, W1, R1, B, D1)) :-
    R \== none,
    must_be_loaded,
    findall(Key, white_option(W, R, B, Key), Keys),
    msort(Keys, [k(_, To, From)|_]),
    (   From =:= W
    ->  W1 = To, R1 = R
    ;   W1 = W, R1 = To
    ),
    D1 is D+1.

% white_option(+W, +R, +B, -Key): Key = k(Class, To, From) for a White
% move From-To leading to a position of class Class.
white_option(W, R, B, k(Class, W1, W)) :-
    krk:wk_move(W, R, B, W1),
    I is W1 << 12 \/ R << 6 \/ B,
    btm(I, Class),
    integer(Class).
white_option(W, R, B, k(Class, R1, R)) :-
    krk:rook_move(W, R, B, R1),
    I is W << 12 \/ R1 << 6 \/ B,
    btm(I, Class),
    integer(Class).

%! optimal_line(+Pos, -Moves) is det.
%
%  Moves is the game from Pos with both sides playing optimally
%  (optimal_move/3 for White, perfect_reply/3 for Black): it ends in
%  checkmate, or, from a drawn position, with the capture of the rook or
%  in stalemate.

optimal_line(Pos, Moves) :-
    must_be_loaded,
    line(Pos, Moves).

line(Pos, Moves) :-
    Pos = krk(S, _, WR, _, _),
    (   WR == none
    ->  Moves = []
    ;   S == w
    ->  (   optimal_move(Pos, M, P1)
        ->  Moves = [M|Ms],
            line(P1, Ms)
        ;   Moves = []
        )
    ;   perfect_reply(Pos, M, P1)
    ->  Moves = [M|Ms],
        line(P1, Ms)
    ;   Moves = []
    ).

		 /*******************************
		 *          STATISTICS          *
		 *******************************/

%! canonical_btm(+Index) is semidet.
%
%  Index is the representative of its class under the 8 symmetries of
%  the board that krkopt.data keeps: the white king in the triangle
%  a1-d1-d4 (file =< d, rank =< file); when it stands on the a1-h8
%  diagonal, the black king on or below the diagonal (file >= rank),
%  and when the black king is on the diagonal too, the rook on or below
%  it.  (The same rule is used for White-to-move positions.)

canonical_btm(I) :-
    WK is I >> 12, WR is (I >> 6) /\ 63, BK is I /\ 63,
    WF is WK /\ 7, WRk is WK >> 3,
    WF =< 3, WRk =< WF,
    (   WRk < WF
    ->  true
    ;   BF is BK /\ 7, BRk is BK >> 3,
        (   BF > BRk
        ->  true
        ;   BF =:= BRk,
            WR /\ 7 >= WR >> 3
        )
    ).

%! start_position(+Set, -Pos) is nondet.
%
%  Pos is a legal position with White to move, at depth 0: every one
%  when Set is `all` (175,168), one per symmetry class (the rule of
%  canonical_btm/1) when Set is `canonical` (21,959). In index order.

start_position(Set, krk(w, WK, WR, BK, 0)) :-
    must_be_loaded,
    must_be(oneof([all, canonical]), Set),
    between(0, 262143, I),
    wtm(I, _),
    (   Set == canonical -> canonical_btm(I) ; true ),
    WK is I >> 12, WR is (I >> 6) /\ 63, BK is I /\ 63.

%! stats(-Stats) is det.
%
%  Stats is a dict describing the tablebase:
%
%    - `wtm`, `btm`: the number of legal positions with White, Black to
%      move (175,168 and 223,944);
%    - `max_wtm`, `max_btm`: the longest mates (16 and 16);
%    - `wtm_classes`, `btm_classes`: dicts from value to number of
%      positions, over the whole board;
%    - `canonical_wtm`, `canonical_btm`: the number of positions under the
%      data set's symmetry reduction (21,959 and 28,056);
%    - `canonical_wtm_classes`, `canonical_btm_classes`: the class counts
%      under that reduction (those of krkopt.data for Black to move).

stats(Stats) :-
    must_be_loaded,
    aggregate_all(count, wtm(_, _), NW),
    aggregate_all(count, btm(_, _), NB),
    aggregate_all(max(D), wtm(_, D), MaxW),
    aggregate_all(max(D), (btm(_, D), integer(D)), MaxB),
    class_counts(D, wtm(_, D), WC),
    class_counts(D, btm(_, D), BC),
    class_counts(D, (wtm(I, D), canonical_btm(I)), CWC),
    class_counts(D, (btm(I, D), canonical_btm(I)), CBC),
    dict_sum(CWC, NCW),
    dict_sum(CBC, NCB),
    Stats = krk_stats{ wtm: NW, btm: NB, max_wtm: MaxW, max_btm: MaxB,
               wtm_classes: WC, btm_classes: BC,
               canonical_wtm: NCW, canonical_btm: NCB,
               canonical_wtm_classes: CWC, canonical_btm_classes: CBC }.

%! stats_json(-String) is det.
%
%  String is the engine's description of the tablebase, as JSON:
%  `wtm_positions`, `btm_positions`, `max_dtm` (White to move),
%  `btm_classes` (value -> positions, Black to move, the whole board),
%  `wtm_canonical_positions`, `btm_canonical_positions` and
%  `btm_canonical` (the class counts under the symmetry reduction of
%  krkopt.data). Class keys are strings, e.g. `{"0": 27, ..., "draw":
%  2796}`.

stats_json(String) :-
    stats(S),
    maplist(json_value,
            [ wtm_positions-S.wtm, btm_positions-S.btm, max_dtm-S.max_wtm,
              btm_classes-S.btm_classes, wtm_canonical_positions-S.canonical_wtm,
              btm_canonical_positions-S.canonical_btm,
              btm_canonical-S.canonical_btm_classes ],
            Pairs),
    dict_pairs(JSON, tablebase, Pairs),
    with_output_to(string(String),
                   json_write_dict(current_output, JSON, [width(0)])).

json_value(K-V0, K-V) :-
    (   is_dict(V0)
    ->  dict_pairs(V0, T, Ps0),
        maplist([C-N, A-N]>>term_to_atom(C, A), Ps0, Ps),
        dict_pairs(V, T, Ps)
    ;   V = V0
    ).

% class_counts(+Template, :Goal, -Dict): Dict maps each value of Template
% over the solutions of Goal to its number of solutions.
class_counts(D, Goal, Dict) :-
    findall(D, Goal, Ds),
    msort(Ds, Sorted),
    clumped(Sorted, Pairs),
    dict_pairs(Dict, counts, Pairs).

dict_sum(Dict, Sum) :-
    dict_pairs(Dict, _, Pairs),
    pairs_values(Pairs, Counts),
    sum_list(Counts, Sum).
