/*  Tests of reading tablebases in Prolog (kb/chess/tablebase.pl).

    Run:  swipl -g run_tests -t halt kb/chess/test_tablebase.pl

    The tables are built by the engine (numpy); tests/test_tablebases.py
    checks real ones.  Here a made-up KQK table (every byte a draw but the
    ones a test sets) checks the index: every turn of the board and the
    colour flip read the same byte.
*/

:- use_module(library(plunit)).
:- use_module(library(lists)).
:- use_module(library(apply)).
:- prolog_load_context(directory, Dir),
   atom_concat(Dir, '/chess', Chess),
   atom_concat(Dir, '/tablebase', Tablebase),
   use_module(Chess),
   use_module(Tablebase).

% kqk_size(-Size): bytes per side to move of KQK (10 slots * 64^2).
kqk_size(40960).

% with_table(+Sets, :Goal): Goal with a KQK table whose byte at each
% Row-Index of Sets is the given one, every other byte 0 (a draw).
with_table(Sets, Goal) :-
    kqk_size(Size),
    Total is 2 * Size,
    length(Codes, Total),
    maplist(=(0), Codes),
    foldl(set_byte(Size), Sets, Codes, Codes1),
    tmp_file_stream(octet, File, Out),
    format(Out, '~s', [Codes1]),
    close(Out),
    retractall(chess_tablebase:table_file('KQK', _)),
    setup_call_cleanup(load_tables(['KQK'-File]), Goal, delete_file(File)).

set_byte(Size, Row-Index-Byte, Codes0, Codes) :-
    At is Row * Size + Index,
    length(Before, At),
    append(Before, [_|After], Codes0),
    append(Before, [Byte|After], Codes).

% kqk(+Side, +WK, +WQ, +BK, -Pos)
kqk(Side, WK, WQ, BK, Pos) :-
    chess_position(Side, [piece(w, k, WK), piece(w, q, WQ), piece(b, k, BK)], Pos).

:- begin_tests(chess_tablebase).

% Ka1 Qb2 kf5, White to move: slot 0 (a1), then b2 = 9, f5 = 37.
test(every_turn_reads_the_same_byte) :-
    Index is 0 * 4096 + 9 * 64 + 37,
    Twin is 0 * 4096 + 9 * 64 + 44,       % mirrored in the a1-h8 diagonal: ke6
    with_table([0-Index-20, 0-Twin-20],
               forall(between(0, 7, G),
                      ( maplist(chess_tablebase:symmetry(G), [0, 9, 37], [K, Q, B]),
                        kqk(w, K, Q, B, Pos),
                        position_value(Pos, V),
                        assertion(V == win(19)) ))).

test(black_the_stronger_is_read_colour_flipped) :-
    Index is 0 * 4096 + 9 * 64 + 37,
    Twin is 0 * 4096 + 9 * 64 + 44,
    with_table([0-Index-21, 0-Twin-21],
               ( K is 0 xor 56, Q is 9 xor 56, B is 37 xor 56,
                 chess_position(b, [piece(b, k, K), piece(b, q, Q), piece(w, k, B)], Pos),
                 position_value(Pos, V),
                 assertion(V == loss(20)) )).

test(bare_kings_are_a_draw) :-
    chess_position(w, [piece(w, k, 0), piece(b, k, 63)], Pos),
    position_value(Pos, V),
    assertion(V == draw).

test(a_missing_table_is_named, [error(existence_error(tablebase, 'KRK'))]) :-
    chess_position(w, [piece(w, k, 0), piece(w, r, 9), piece(b, k, 63)], Pos),
    position_value(Pos, _).

test(slots_are_the_triangle_rank_by_rank) :-
    findall(S, ( member(Sq, [0, 1, 2, 3, 9, 10, 11, 18, 19, 27]),
                 chess_tablebase:slot(pawnless, 0, Sq, S) ), Slots),
    assertion(Slots == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]).

test(with_every_child_a_draw_the_value_is_a_draw) :-
    kqk(w, 41, 55, 56, Pos),
    with_table([], ( best_moves(Pos, [_-First|_]), position_value(First, V) )),
    assertion(V == draw).

test(values_negate_one_ply_on) :-
    chess_tablebase:negated(loss(0), W),
    chess_tablebase:negated(win(3), L),
    assertion(W-L == win(1)-loss(4)).

:- end_tests(chess_tablebase).
