:- module(krk_tablebase,
          [ build_tablebase/0,
            save_tablebase/1,           % +File
            load_tablebase/1,           % +File
            ensure_tablebase/0,
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
:- use_module(library(fastrw)).
:- use_module(library(http/json)).
:- use_module(krk, except([ perfect_reply/3, optimal_move/3, optimal_moves/2,
                            start/2 ])).

/** <module> KRK tablebase by retrograde analysis

Distance to mate for every legal King-and-Rook-versus-King position with
the rook on the board, computed in Prolog by retrograde analysis, level
by level backward from the mates.

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

## Algorithm

One array (a compound term of arity 262,144, updated with nb_setarg/3)
per side and one of move counters.  Level 0 is every Black-to-move
position in check without a legal move.  From the Black-to-move positions
of level N, un-moving White gives the White-to-move positions of value
N+1 not yet valued; from those, un-moving Black decrements the counter
of legal moves of each predecessor, and a predecessor whose last move is
thereby valued gets class N+1 (its longest defence).  Positions where
Black can take the rook or is stalemated are draws from the start.
The un-moves reuse the move generator of module krk through its internal
predicates (krk:wk_move/4, krk:rook_move/4, krk:bk_move/5, krk:king_step/2,
krk:kd/2, krk:rook_attacks/3), called module-qualified.

Measured here (SWI-Prolog 9.0.4): build_tablebase/0 about 4 s;
save_tablebase/1 0.2 s, a 5.6 MB file; load_tablebase/1 0.3 s.
*/

:- dynamic
    wtm/2,
    btm/2,
    loaded/0.

%! wtm(?Index, ?Dtm) is nondet.
%
%  The legal White-to-move position Index is mated in Dtm White moves
%  (1..16).  Only after build_tablebase/0 or load_tablebase/1.

%! btm(?Index, ?Class) is nondet.
%
%  The legal Black-to-move position Index has class Class: 0..16 White
%  moves to mate, or `draw`.  Only after build_tablebase/0 or
%  load_tablebase/1.

%! tablebase_loaded is semidet.
%
%  The tablebase has been built or loaded in this process.

tablebase_loaded :-
    loaded.

%! ensure_tablebase is det.
%
%  Builds the tablebase unless it is already present.

ensure_tablebase :-
    (   loaded
    ->  true
    ;   build_tablebase
    ).

%! prepare_cache(+Dir, +Rebuild, -Source) is det.
%
%  Makes the tablebase ready: kept from this session (Source `session`),
%  loaded from the file krk_tablebase.v1.fastrw in Dir (`cache`), or,
%  when that is missing or corrupt (not readable, or not every position)
%  or Rebuild is `true`, built and saved there (`built`). The file is
%  written under another name first and renamed, so a reader never sees
%  half of it.

prepare_cache(Dir, Rebuild, Source) :-
    directory_file_path(Dir, 'krk_tablebase.v1.fastrw', File),
    (   Rebuild \== true, loaded
    ->  Source = session
    ;   Rebuild \== true, exists_file(File),
        catch(load_tablebase(File), _, fail),
        complete
    ->  Source = cache
    ;   build_tablebase,
        current_prolog_flag(pid, Pid),
        format(atom(Partial), "~w.tmp~w", [File, Pid]),
        save_tablebase(Partial),
        rename_file(Partial, File),
        Source = built
    ).

% Every legal position is in the table.
complete :-
    aggregate_all(count, wtm(_, _), 175168),
    aggregate_all(count, btm(_, _), 223944).

		 /*******************************
		 *            BUILD             *
		 *******************************/

%! build_tablebase is det.
%
%  Computes the tablebase by retrograde analysis and stores it as the
%  facts wtm/2 and btm/2, replacing any earlier ones.  Takes a few
%  seconds.

build_tablebase :-
    Size = 262144,
    functor(W, w, Size),
    functor(B, b, Size),
    functor(C, c, Size),
    init_btm(B, C, Mates),
    levels(Mates, 0, W, B, C),
    store_arrays(W, B).

% init_btm(+B, +C, -Mates): values the Black-to-move positions that are
% decided at once (draws and mates) and sets the move counters of the
% others.  Mates is the list of indexes of the mates.
init_btm(B, C, Mates) :-
    findall(I, init_mate(B, C, I), Mates).

init_mate(B, C, I) :-
    btm_placement(WK, WR, BK, I),
    init_btm_position(WK, WR, BK, I, B, C, Mate),
    Mate == true.

% btm_placement(-WK, -WR, -BK, -Index): a legal Black-to-move placement.
btm_placement(WK, WR, BK, I) :-
    between(0, 63, WK),
    between(0, 63, BK),
    krk:kingdist(WK, BK, D), D > 1,
    between(0, 63, WR),
    WR =\= WK, WR =\= BK,
    I is WK << 12 \/ WR << 6 \/ BK.

init_btm_position(WK, WR, BK, I, B, C, Mate) :-
    I1 is I+1,
    black_moves(WK, WR, BK, 0, N, Capture),
    (   Capture == true
    ->  nb_setarg(I1, B, draw), Mate = false
    ;   N > 0
    ->  nb_setarg(I1, C, N), Mate = false
    ;   krk:rook_attacks(WR, BK, WK)
    ->  nb_setarg(I1, B, 0), Mate = true
    ;   nb_setarg(I1, B, draw), Mate = false       % stalemate
    ).

% black_moves(+WK, +WR, +BK, +N0, -N, -Capture): N is the number of legal
% non-capturing moves of the black king; Capture is true when it can
% take the rook.
black_moves(WK, WR, BK, N0, N, Capture) :-
    findall(B1, krk:king_step(BK, B1), Steps),
    count_black(Steps, WK, WR, N0, N, false, Capture).

count_black([], _, _, N, N, C, C).
count_black([B1|Bs], WK, WR, N0, N, C0, C) :-
    K is WK*64+B1,
    krk:kd(K, KD),
    (   KD =< 1
    ->  N1 = N0, C1 = C0
    ;   B1 =:= WR
    ->  KR is WK*64+WR,
        krk:kd(KR, KDR),
        ( KDR > 1 -> C1 = true ; C1 = C0 ),
        N1 = N0
    ;   krk:rook_attacks(WR, B1, WK)
    ->  N1 = N0, C1 = C0
    ;   N1 is N0+1, C1 = C0
    ),
    count_black(Bs, WK, WR, N1, N, C1, C).

% levels(+Frontier, +N, +W, +B, +C): Frontier holds the Black-to-move
% positions of class N.
levels([], _, _, _, _) :- !.
levels(Frontier, N, W, B, C) :-
    N1 is N+1,
    findall(J, new_white(Frontier, N1, W, J), WF),
    findall(K, new_black(WF, N1, B, C, K), BF),
    levels(BF, N1, W, B, C).

% new_white(+Frontier, +N1, +W, -J): J is a White-to-move position not
% yet valued from which White reaches a position of Frontier; it gets
% the value N1.  (Kept out of findall/3's goal so that its arithmetic is
% compiled.)
new_white(Frontier, N1, W, J) :-
    member(I, Frontier),
    white_predecessor(I, J),
    J1 is J+1,
    arg(J1, W, V),
    var(V),
    nb_setarg(J1, W, N1).

% new_black(+WF, +N1, +B, +C, -K): K is a Black-to-move position whose
% last unvalued move leads into WF; it gets the class N1.
new_black(WF, N1, B, C, K) :-
    member(J, WF),
    black_predecessor(J, K),
    K1 is K+1,
    arg(K1, B, V),
    var(V),
    arg(K1, C, Cnt),
    Cnt1 is Cnt-1,
    nb_setarg(K1, C, Cnt1),
    Cnt1 =:= 0,
    nb_setarg(K1, B, N1).

% white_predecessor(+I, -J): J is a legal White-to-move position from
% which a White move leads to the Black-to-move position I.  White moves
% are reversible, so the un-moves are the moves of the same placement.
white_predecessor(I, J) :-
    WK is I >> 12, WR is (I >> 6) /\ 63, BK is I /\ 63,
    (   krk:wk_move(WK, WR, BK, WK0),
        \+ krk:rook_attacks(WR, BK, WK0),
        J is WK0 << 12 \/ WR << 6 \/ BK
    ;   krk:rook_move(WK, WR, BK, WR0),
        \+ krk:rook_attacks(WR0, BK, WK),
        J is WK << 12 \/ WR0 << 6 \/ BK
    ).

% black_predecessor(+J, -I): I is a legal Black-to-move position from
% which a (non-capturing) black king move leads to J.
black_predecessor(J, I) :-
    WK is J >> 12, WR is (J >> 6) /\ 63, BK is J /\ 63,
    krk:king_step(BK, BK0),
    BK0 =\= WR,
    K is WK*64+BK0,
    krk:kd(K, KD), KD > 1,
    I is J - BK + BK0.

store_arrays(W, B) :-
    retractall(loaded),
    retractall(wtm(_, _)),
    retractall(btm(_, _)),
    forall(( arg(I1, W, D), nonvar(D) ),
           ( I is I1-1, assertz(wtm(I, D)) )),
    forall(( arg(I1, B, D), nonvar(D) ),
           ( I is I1-1, assertz(btm(I, D)) )),
    assertz(loaded).

		 /*******************************
		 *        SAVE AND LOAD         *
		 *******************************/

%! save_tablebase(+File) is det.
%
%  Writes the tablebase to File in SWI-Prolog's fast term format
%  (fast_write/2): one term krk_tablebase(1, WtmPairs, BtmPairs) whose
%  lists hold Index-Value pairs.

save_tablebase(File) :-
    must_be_loaded,
    findall(I-D, wtm(I, D), Ws),
    findall(I-D, btm(I, D), Bs),
    setup_call_cleanup(
        open(File, write, S, [type(binary)]),
        fast_write(S, krk_tablebase(1, Ws, Bs)),
        close(S)).

%! load_tablebase(+File) is det.
%
%  Reads a tablebase written by save_tablebase/1, replacing the current
%  one.  Raises an error if File does not hold one.

load_tablebase(File) :-
    setup_call_cleanup(
        open(File, read, S, [type(binary)]),
        fast_read(S, Term),
        close(S)),
    (   Term = krk_tablebase(1, Ws, Bs)
    ->  true
    ;   domain_error(krk_tablebase_file, File)
    ),
    retractall(loaded),
    retractall(wtm(_, _)),
    retractall(btm(_, _)),
    forall(member(I-D, Ws), assertz(wtm(I, D))),
    forall(member(I-D, Bs), assertz(btm(I, D))),
    assertz(loaded).

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
