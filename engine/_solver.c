/*
 * engine._solver: the fast perfect-play (double-dummy) search behind engine.solver.
 *
 * It computes what engine.solver.ReferenceSearch computes (the tests compare them on many
 * positions); docs/analysis.md explains the method. The value of a position is the number of
 * points (card points plus one per trick, rules.md R9) that North-South take from the cards
 * still on the table and in the hands, when all four play perfectly and legally (R7, R8).
 *
 * Cards arrive and leave in the engine's layout (suit * 12 + rank - 1). Inside, a card is
 * suit * 12 + strength (0 = the 2 ... 11 = the 9, R1): inside a suit, bit order is strength
 * order, so "the cards above w" is a mask, "the lowest card of a suit" is the lowest bit, and the
 * seven cards without points (8 down to 2) are the low seven bits of their suit.
 *
 * Seats are N=0, E=1, S=2, W=3; play moves right: the next seat is (seat + 3) & 3.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

typedef uint64_t u64;

#define BOTIFARRA 4
#define NEXT(seat) (((seat) + 3) & 3)
#define LOW7 0x7FULL

/* ---------------------------------------------------------------------------------------- */
/* Tables, built once at import.                                                             */

static int TO_INTERNAL[48];
static int TO_ENGINE[48];
static int PTS[48];            /* card points by internal index (R1) */
static u64 SUIT[4];            /* the twelve cards of each suit */
static u64 POINT_CARDS;        /* strengths 7..11 of every suit: 10, 11, 12, 1, 9 */
static u64 BEATS[5][48];       /* the cards that would take the trick from winning card w (R6) */
static uint8_t PACK[128][128]; /* PACK[r][h]: the bits of h (a subset of r) renumbered in r */
static uint8_t NTH[128][8];    /* NTH[r][k]: the k-th lowest set bit of r */
static uint8_t REPR[128][128]; /* REPR[own][others]: the lowest of each run of own cards with
                                  no card of others between them */
static uint8_t SUITPTS[4096];  /* the points of a set of cards of one suit */
static uint16_t SPREAD2[128];  /* bit i -> bit 2i */
static uint16_t SPREAD3[32];   /* bit i -> bit 3i */
static uint16_t BASE4[128];    /* BASE4[r]: 1 + 4 + ... + 4^(k-1), k the number of bits of r */
static uint8_t NBITS[128];     /* the number of bits of r */
static uint8_t NBITS12[4096];  /* the number of bits of a set of cards of one suit */

static void init_tables(void) {
    /* R1: strength order, strongest first 9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2. */
    static const int order[12] = {9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2};
    for (int c = 0; c < 48; c++) {
        int rank = c % 12 + 1, strength = 0;
        for (int i = 0; i < 12; i++)
            if (order[i] == rank) strength = 11 - i;
        int internal = (c / 12) * 12 + strength;
        TO_INTERNAL[c] = internal;
        TO_ENGINE[internal] = c;
    }
    POINT_CARDS = 0;
    for (int s = 0; s < 4; s++) {
        SUIT[s] = (u64)0xFFF << (12 * s);
        POINT_CARDS |= (u64)0xF80 << (12 * s);
    }
    for (int i = 0; i < 48; i++) PTS[i] = i % 12 >= 7 ? i % 12 - 6 : 0; /* 10=1 ... 9=5 */
    for (int t = 0; t < 5; t++)
        for (int w = 0; w < 48; w++) {
            int ws = w / 12;
            u64 higher = SUIT[ws] & ~((((u64)2) << w) - 1);
            BEATS[t][w] = (t == BOTIFARRA || ws == t) ? higher : (higher | SUIT[t]);
        }
    for (int r = 0; r < 128; r++) {
        int k = 0;
        memset(NTH[r], 0, sizeof NTH[r]);
        for (int b = 0; b < 7; b++)
            if (r >> b & 1) NTH[r][k++] = (uint8_t)b;
        for (int h = 0; h < 128; h++) {
            int packed = 0, j = 0;
            for (int b = 0; b < 7; b++)
                if (r >> b & 1) {
                    if (h >> b & 1) packed |= 1 << j;
                    j++;
                }
            PACK[r][h] = (uint8_t)packed;
        }
    }
    for (int own = 0; own < 128; own++)
        for (int others = 0; others < 128; others++) {
            int keep = 0, open = 1;
            for (int b = 0; b < 7; b++) {
                if (others >> b & 1) open = 1;
                if (own >> b & 1) {
                    if (open) keep |= 1 << b;
                    open = 0;
                }
            }
            REPR[own][others] = (uint8_t)keep;
        }
    for (int m = 0; m < 4096; m++) {
        int p = 0;
        for (int b = 7; b < 12; b++)
            if (m >> b & 1) p += b - 6;
        SUITPTS[m] = (uint8_t)p;
        NBITS12[m] = (uint8_t)(m ? NBITS12[m & (m - 1)] + 1 : 0);
    }
    for (int m = 0; m < 128; m++) {
        int x = 0;
        for (int b = 0; b < 7; b++)
            if (m >> b & 1) x |= 1 << (2 * b);
        SPREAD2[m] = (uint16_t)x;
    }
    for (int m = 0; m < 32; m++) {
        int x = 0;
        for (int b = 0; b < 5; b++)
            if (m >> b & 1) x |= 1 << (3 * b);
        SPREAD3[m] = (uint16_t)x;
    }
    for (int r = 0; r < 128; r++) {
        int base = 0, k = 0;
        for (int b = 0; b < 7; b++)
            if (r >> b & 1) base += 1 << (2 * k++);
        BASE4[r] = (uint16_t)base;
        NBITS[r] = (uint8_t)k;
    }
}

/* (Portable: without -mpopcnt, __builtin_popcountll is a library call.) */
static inline int popcount64(u64 x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
static inline int lowbit_index(u64 x) { return __builtin_ctzll(x); }
static inline int highbit_index(u64 x) { return 63 - __builtin_clzll(x); }

static inline u64 lowest_of_suits(u64 h) {
    u64 r = 0;
    for (int s = 0; s < 4; s++) {
        u64 m = h & SUIT[s];
        r |= m & (~m + 1);
    }
    return r;
}

/* rules.md R7 and R8: the same expression as engine.rules.legal_mask. */
static inline u64 legal(u64 hand, int pos, int led, int win, int partner, int t, int obligada) {
    if (pos == 0) return hand;
    u64 beats = BEATS[t][win];
    u64 follow = hand & SUIT[led];
    u64 allowed;
    if (follow)
        allowed = partner ? follow : ((follow & beats) ? (follow & beats) : follow);
    else
        allowed = partner ? hand : ((hand & beats) ? (hand & beats) : hand);
    if (obligada && (allowed & ~beats)) {
        u64 extra = (partner || (pos == 1 && !follow)) ? POINT_CARDS : 0;
        allowed &= beats | lowest_of_suits(hand) | extra;
    }
    return allowed;
}

/* Whether a seat holding `hand` has a legal card that takes the trick from `win` (R7, R8: a
   card that beats the winning card is always allowed). */
static inline int can_beat(u64 hand, int led, int win, int t) {
    u64 follow = hand & SUIT[led];
    return ((follow ? follow : hand) & BEATS[t][win]) != 0;
}

/* ---------------------------------------------------------------------------------------- */
/* The table of positions at the start of a trick.                                           */

/* A position at the start of a trick is the leader and the owner of every card left. Cards
   without points only ever compare with each other, so only their order among those left in
   their suit matters, not which of them are gone: positions that differ only in that play alike
   and share an entry. The key below is exact (no two different positions share it): per suit,
   the owners of the cards without points, in strength order, as a base-4 number after an offset
   for how many there are (15 bits), and for each of the five point cards 0 when gone or
   1 + its owner (15 bits); four suits in two words, and the leader. */
static inline u64 suit_code(const u64 hand[4], int s) {
    u64 all = hand[0] | hand[1] | hand[2] | hand[3];
    int sh = 12 * s;
    int r = (int)(all >> sh & LOW7);
    int p1 = PACK[r][hand[1] >> sh & LOW7];
    int p2 = PACK[r][hand[2] >> sh & LOW7];
    int p3 = PACK[r][hand[3] >> sh & LOW7];
    u64 low = BASE4[r] + (SPREAD2[p1 | p3] | (SPREAD2[p2 | p3] << 1));
    int m0 = (int)(hand[0] >> (sh + 7) & 31), m1 = (int)(hand[1] >> (sh + 7) & 31);
    int m2 = (int)(hand[2] >> (sh + 7) & 31), m3 = (int)(hand[3] >> (sh + 7) & 31);
    u64 high = SPREAD3[m0 | m2] | (SPREAD3[m1 | m2] << 1) | (SPREAD3[m3] << 2);
    return low | high << 15;
}

static inline void key_of_codes(const u64 code[4], int leader, u64 key[2]) {
    key[0] = code[0] | code[1] << 30 | (u64)leader << 60;
    key[1] = code[2] | code[3] << 30;
}

/* The table: buckets of four 16-byte slots, one cache line each. The 122-bit key is first
   scrambled by a bijection (two Feistel rounds), whose low bits choose the bucket: the slot
   keeps the other bits, so the key stays exact in 101 bits (at least 2^21 buckets), with room
   for the bounds, the best card, the work the entry saves and the table's generation. A slot
   of another generation is empty: a table is handed from one search to the next (a process
   keeps one spare) without clearing its 128 MB, which would cost about as much as an easy
   solve. */
#define WAYS 4
#define GENERATIONS 8
#define MASK41 ((((u64)1) << 41) - 1)
#define MASK60 ((((u64)1) << 60) - 1)
#define MASK61 ((((u64)1) << 61) - 1)
#define MASK62 ((((u64)1) << 62) - 1)

/* A search starts in the first 2^SMALL_BITS buckets of its table (8 MB, half a million slots)
   and moves to the whole table once GROW_AFTER entries have been pushed out of them: a solve
   near the benchmark's median stores a few hundred thousand entries and never needs to, the
   heavy ones move after some 6 to 9 million positions (their second to fourth question).
   Every look-up of a trick start is a trip to memory, and a trip into 128 MB costs much more
   than one into 8 MB: on the benchmark host (a virtual machine) a chain of dependent loads
   took several times longer a load anywhere in 128 MB than in 8 MB (2 MB pages; the address
   translation more than the caches). The fewer buckets leave four more key bits over: in the
   small part a slot keeps them in the generation's bits and the work's top bit (the small
   part is cleared when a search starts, so it needs no generation; its work is capped at 7). */
#define SMALL_BITS 17
#define GROW_AFTER 65536

typedef struct {
    u64 w0; /* key bits (41) | lower << 41 | upper << 48 | best << 55 | generation << 61
               (small part: key bits 41-43 in place of the generation) */
    u64 w1; /* key bits (60) | work << 60 (1..15; 0: empty)
               (small part: key bit 44 | work << 61, 1..7) */
} Slot;

typedef struct {
    Slot slot[WAYS];
} Bucket;

/* A key scrambled (table_key()): a (62 bits) picks the bucket, the rest of a and b (60 bits)
   are kept in the slot. Kept whole, so that it stays valid when the table grows. */
typedef struct {
    u64 a, b;
} TableKey;

/* A trick start that the last card of a trick leads to, as known_child() saw it: its table key,
   and the bounds that need no search when the table had no entry for it (bounded: then lo, hi
   are North-South's quick points and top trumps, from there on), so that its search does not
   compute them again. */
typedef struct Child {
    TableKey key;
    u64 code[4]; /* its suit codes (suit_code) */
    int bounded, lo, hi;
    int leader, gain;
} Child;

static inline u64 mix64(u64 x) {
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

typedef struct {
    PyObject_HEAD
    int trump, obligada, bits;
    Bucket *table;
    void *table_base;
    size_t table_bytes;
    u64 gen;     /* the generation of the slots in use: the others are empty */
    u64 buckets; /* 1 << bits */
    int small;   /* in the first 2^SMALL_BITS buckets only (see SMALL_BITS) */
    int use_bits; /* SMALL_BITS or bits */
    u64 use_mask; /* (1 << use_bits) - 1 */
    long long evictions, grow_after; /* entries pushed out of the small part; when to grow */
    u64 hand[4];
    int cards[4]; /* the number of cards of each hand (kept by after()) */
    int points_in_hands;
    long long nodes;
    long long budget; /* the positions a question may take, without a guess (Search_future) */
    long long limit;  /* a search that passes this many positions gives up (see budgeted()) */
    int gave_up;
    int busy;
    const struct Child *pre; /* the next trick start, when the caller looked at it already */
    /* The suit codes of the current trick's start, by tricks left (for the keys of the
       trick starts after it: the suits of the cards not played to the trick keep theirs);
       have_codes says which tricks have them (not the trick a question starts in, when it
       starts after the lead). */
    u64 codes[13][4];
    unsigned have_codes;
    signed char killer[13]; /* by tricks left: the lead that last cut off (see search()) */
} Search;

static inline void table_key(const u64 key[2], TableKey *k) {
    u64 a = key[0], b = key[1];
    b ^= mix64(a ^ 0x9E3779B97F4A7C15ULL) & MASK60;
    a ^= mix64(b ^ 0xD1B54A32D192ED03ULL) & MASK62;
    k->a = a;
    k->b = b;
}

static inline Bucket *bucket_at(const Search *S, const TableKey *k) {
    return S->table + (k->a & S->use_mask);
}

/* The key's bits as a slot of its bucket holds them: w0 under MASK41 | 7 << 61 (with the
   generation in the whole table), w1 under MASK61 in the small part, MASK60 in the whole. */
typedef struct {
    u64 c0, c1, m1;
} SlotKey;

static inline SlotKey slot_key(const Search *S, const TableKey *k) {
    u64 rest = k->a >> S->use_bits;
    SlotKey sk;
    if (S->small) {
        sk.c0 = (rest & MASK41) | (rest >> 41 & 7) << 61;
        sk.c1 = k->b | (rest >> 44 & 1) << 60;
        sk.m1 = MASK61;
    } else {
        sk.c0 = rest | S->gen << 61;
        sk.c1 = k->b;
        sk.m1 = MASK60;
    }
    return sk;
}

static inline int slot_lower(const Slot *s) { return (int)(s->w0 >> 41 & 127); }
static inline int slot_upper(const Slot *s) { return (int)(s->w0 >> 48 & 127); }
static inline int slot_best(const Slot *s) { return (int)(s->w0 >> 55 & 63); }
/* The work the slot saves (about the log4 of the positions its search took); 0: empty. */
static inline int slot_work(const Search *S, const Slot *s) {
    if (S->small) return (int)(s->w1 >> 61);
    return (s->w0 >> 61) == S->gen ? (int)(s->w1 >> 60) : 0;
}

/* The slot of the key in its bucket, or -1. */
static inline int find(const Search *S, const Bucket *b, const TableKey *k) {
    SlotKey sk = slot_key(S, k);
    for (int i = 0; i < WAYS; i++) {
        const Slot *s = &b->slot[i];
        if ((s->w1 & sk.m1) == sk.c1 && (s->w0 & (MASK41 | (u64)7 << 61)) == sk.c0 &&
            slot_work(S, s))
            return i;
    }
    return -1;
}

static void grow(Search *S);

static void store(Search *S, const TableKey *k, int lower, int upper, int best, int work) {
    Bucket *b = bucket_at(S, k);
    int i = find(S, b, k), pushed_out = 0;
    if (i < 0) {
        /* An empty slot, else the one whose search took the fewest positions (the cheapest to
           redo; by this measure rather than by the tricks left, 4-5% fewer positions on the
           heaviest botifarra solves). */
        i = 0;
        pushed_out = 1;
        for (int j = 0; j < WAYS; j++) {
            int d = slot_work(S, &b->slot[j]);
            if (!d) {
                i = j;
                pushed_out = 0;
                break;
            }
            if (d < slot_work(S, &b->slot[i])) i = j;
        }
    }
    SlotKey sk = slot_key(S, k);
    b->slot[i].w0 = sk.c0 | (u64)lower << 41 | (u64)upper << 48 | (u64)best << 55;
    if (S->small) {
        b->slot[i].w1 = sk.c1 | (u64)(work > 7 ? 7 : work) << 61;
        if (pushed_out && ++S->evictions >= S->grow_after) grow(S);
    } else {
        b->slot[i].w1 = sk.c1 | (u64)work << 60;
    }
}

/* Start in the small part of the table (a new search, or a new generation): it is cleared, as
   its slots have no generation. */
static void start_small(Search *S) {
    memset(S->table, 0, sizeof(Bucket) << SMALL_BITS);
    S->small = 1;
    S->use_bits = SMALL_BITS;
    S->use_mask = (((u64)1) << SMALL_BITS) - 1;
    S->evictions = 0;
}

/* Move to the whole table: the small part's entries are taken out, the small part cleared
   (its zeroed slots are empty in the whole table's layout too: work 0), and the entries put
   back at their places in the whole table, whose other slots are of older generations. Only
   store() calls it: the keys held by the searches under way (TableKey) stay valid. Without
   memory for the copy the search stays in the small part (the values are the same). */
static void grow(Search *S) {
    size_t n = (size_t)1 << SMALL_BITS;
    Bucket *old = malloc(n * sizeof(Bucket));
    if (!old) {
        S->evictions = LLONG_MIN;
        return;
    }
    memcpy(old, S->table, n * sizeof(Bucket));
    memset(S->table, 0, n * sizeof(Bucket));
    S->small = 0;
    S->use_bits = S->bits;
    S->use_mask = S->buckets - 1;
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < WAYS; j++) {
            const Slot *s = &old[i].slot[j];
            int work = (int)(s->w1 >> 61);
            if (!work) continue;
            u64 rest = (s->w0 & MASK41) | (s->w0 >> 61) << 41 | (s->w1 >> 60 & 1) << 44;
            TableKey k = {rest << SMALL_BITS | i, s->w1 & MASK60};
            store(S, &k, slot_lower(s), slot_upper(s), slot_best(s), work);
        }
    free(old);
}

/* ---------------------------------------------------------------------------------------- */
/* Bounds that need no search.                                                               */

/* The value of the last trick: every card is forced. */
static int last_trick(const Search *S, int leader) {
    int t = S->trump, seat = leader;
    int win = lowbit_index(S->hand[seat]), win_seat = seat, pts = PTS[win] + 1;
    for (int i = 1; i < 4; i++) {
        seat = NEXT(seat);
        int c = lowbit_index(S->hand[seat]);
        pts += PTS[c];
        if (BEATS[t][win] >> c & 1) { win = c; win_seat = seat; }
    }
    return (win_seat & 1) ? 0 : pts;
}

/* A lower bound on the points the leader's side takes by cashing, trick after trick, a card
   that nobody can beat (the top card left in its suit, held by the leader, or by the partner
   whom the leader reaches with a low card of that suit) while no opponent can trump it (each
   still holds the suit, or holds no trump). The opponents are taken to play their lowest card
   of the suit, the worst case both for the points and for which cards stay on top; a void
   opponent's card is not guessed (keeping its cards only makes later tricks look harder). */
static const int CASH_ORDER[5][4] = {{0, 1, 2, 3}, {1, 0, 2, 3}, {2, 0, 1, 3}, {3, 0, 1, 2},
                                     {0, 1, 2, 3}};

static int quick_points(const Search *S, int leader) {
    int t = S->trump;
    u64 h[4] = {S->hand[0], S->hand[1], S->hand[2], S->hand[3]};
    int L = leader, pts = 0;
    while (h[L]) {
        int P = L ^ 2, o1 = NEXT(L), o2 = NEXT(P);
        u64 all = h[0] | h[1] | h[2] | h[3];
        int lc = -1, pc = -1, s = -1, holder = -1;
        for (int k = 0; k < 4; k++) {
            /* Trumps first: drawing them makes the other suits safe. */
            int su = CASH_ORDER[t][k];
            u64 rem = all & SUIT[su];
            if (!rem) continue;
            int top = highbit_index(rem);
            if (t < 4 && su != t) {
                if (!(h[o1] & SUIT[su]) && (h[o1] & SUIT[t])) continue;
                if (!(h[o2] & SUIT[su]) && (h[o2] & SUIT[t])) continue;
            }
            if (h[L] >> top & 1) {
                lc = top;
                holder = L;
            } else if (h[P] >> top & 1) {
                u64 ls = h[L] & SUIT[su];
                if (!ls) continue;
                lc = lowbit_index(ls);
                pc = top;
                holder = P;
            } else {
                continue;
            }
            s = su;
            break;
        }
        if (s < 0) break;
        h[L] &= ~((u64)1 << lc);
        pts += 1 + PTS[lc];
        if (pc < 0) {
            /* The partner follows with its lowest card of the suit, or lets go of the lowest
               card of one of its suits, not a trump if it can: both are legal when the partner
               is winning (R7, R8). A partner left with trumps only takes the trick with one,
               and leads the next. */
            u64 ps = h[P] & SUIT[s];
            u64 m = ps;
            if (!m) {
                m = lowest_of_suits(h[P]);
                if (t < 4 && (m & ~SUIT[t])) m &= ~SUIT[t];
            }
            if (m) {
                pc = lowbit_index(m);
                if (BEATS[t][lc] >> pc & 1) holder = P;
            }
        }
        if (pc >= 0) {
            h[P] &= ~((u64)1 << pc);
            pts += PTS[pc];
        }
        for (int k = 0; k < 2; k++) {
            int o = k ? o2 : o1;
            u64 os = h[o] & SUIT[s];
            if (os) {
                /* The second hand must beat the card led when it can (R7): a low card led
                   towards the partner draws one of its higher cards. */
                u64 ob = k ? 0 : os & BEATS[t][lc];
                int oc = lowbit_index(ob ? ob : os);
                h[o] &= ~((u64)1 << oc);
                pts += PTS[oc];
            }
        }
        L = holder;
    }
    return pts;
}

/* A trump higher than every trump of the other side wins whatever trick it falls in: its
   points, and a trick for every two such cards at least, are its side's. Returns the points
   this guarantees to the side of `seat`. */
static inline int master_trump_points(const Search *S, int seat) {
    int t = S->trump;
    if (t == BOTIFARRA) return 0;
    u64 mine = ((S->hand[seat] | S->hand[seat ^ 2]) >> (12 * t)) & 0xFFF;
    u64 theirs = ((S->hand[NEXT(seat)] | S->hand[NEXT(seat) ^ 2]) >> (12 * t)) & 0xFFF;
    u64 top = theirs ? mine & ~((((u64)2) << highbit_index(theirs)) - 1) : mine;
    return SUITPTS[top] + (NBITS12[top] + 1) / 2;
}

/* ---------------------------------------------------------------------------------------- */
/* Moves.                                                                                    */

/* Cards with no card of another hand (or on the table) between them play alike: keep the
   lowest of each such run (cards without points only: the others differ by their points). */
static inline u64 distinct_moves(u64 moves, u64 others) {
    u64 out = moves & POINT_CARDS;
    for (int s = 0; s < 4; s++) {
        int own = (int)(moves >> (12 * s) & LOW7);
        if (own) out |= (u64)REPR[own][others >> (12 * s) & LOW7] << (12 * s);
    }
    return out;
}

/* Twins (see search()) whose trick is decided whatever the others play: the card that takes
   it, or the winning card it leaves on the table, cannot be beaten by an opponent of its side
   still to play (R7: from the suit led when it holds it), or the last hand to play is bound to
   take it (below). Then the trick where one twin falls goes to that side in every line, the
   same side as in the mirrored line, and only the later trick, where the other twin falls, may
   go either way: the richer twin is worth at least as much to that side, and the cheaper one
   to the other side. So of each run of twins only one card needs a search: the richest when
   the trick is the mover's side's, the cheapest when it is the opponents'. `breakers`: the
   cards that separate twins (search()). */
static u64 dominant_twins(const Search *S, u64 moves, u64 breakers, int seat, int pos, int led,
                          int win, int win_seat) {
    int t = S->trump;
    u64 out = moves, cand = S->obligada ? moves & POINT_CARDS : moves;
    for (int s = 0; s < 4; s++) {
        u64 m = cand & SUIT[s];
        while (m & (m - 1)) {
            int lo = lowbit_index(m);
            u64 stop = breakers & SUIT[s] & ~((((u64)2) << lo) - 1);
            u64 run = stop ? m & ((((u64)1) << lowbit_index(stop)) - 1) : m;
            m &= ~run;
            if (!(run & (run - 1))) continue;
            int ld = pos == 0 ? s : led, w = win, ws = win_seat;
            if (pos == 0 || (BEATS[t][win] >> lo & 1)) {
                w = lo; /* every card of the run beats the same cards as its lowest */
                ws = seat;
            }
            int decided = 1, other = seat;
            for (int k = pos + 1; k < 4 && decided; k++) {
                other = NEXT(other);
                if (((other ^ ws) & 1) && can_beat(S->hand[other], ld, w, t)) decided = 0;
            }
            if (!decided && pos < 3) {
                /* Or the last hand to play must and can take the trick from whatever the
                   other side may be winning with by then (R7: a hand that can beat the
                   opponents' winning card must): the trick is the last hand's side's. The
                   other side's strongest possible card: the winning card if it is theirs (the
                   run's card if it takes the trick), and the highest card of the suit led
                   (void: the highest trump) of each of them still to play before. */
                int last = (seat + 3 * (3 - pos)) & 3, strongest = -1, other2 = seat;
                if ((ws ^ last) & 1) strongest = w;
                for (int k = pos + 1; k < 3; k++) {
                    other2 = NEXT(other2);
                    if (!((other2 ^ last) & 1)) continue;
                    u64 h = S->hand[other2], f = h & SUIT[ld];
                    u64 top = f ? f : (t < 4 ? h & SUIT[t] : 0);
                    if (!top) continue;
                    int c = highbit_index(top);
                    if (strongest < 0 || (BEATS[t][strongest] >> c & 1)) strongest = c;
                }
                if (strongest >= 0 && can_beat(S->hand[last], ld, strongest, t)) {
                    decided = 1;
                    ws = last;
                }
            }
            if (!decided && pos < 2) {
                /* Or the next hand must take the trick from the other side (R7), and nobody of
                   the other side after it can beat even its weakest card that does (the
                   lowest of the suit, or void the lowest trump, above the winning card). */
                int next = NEXT(seat);
                u64 h = S->hand[next], f = h & SUIT[ld];
                u64 b = (f ? f : h) & BEATS[t][w];
                if (((next ^ ws) & 1) && b) {
                    int weakest = lowbit_index(b), other3 = next;
                    decided = 1;
                    for (int k = pos + 2; k < 4 && decided; k++) {
                        other3 = NEXT(other3);
                        if (((other3 ^ next) & 1) && can_beat(S->hand[other3], ld, weakest, t))
                            decided = 0;
                    }
                    if (decided) ws = next;
                }
            }
            if (!decided) continue;
            u64 keep = ((ws ^ seat) & 1) ? run & (~run + 1) : (u64)1 << highbit_index(run);
            out &= ~(run & ~keep);
        }
    }
    return out;
}

/* Put the likely best cards first: the one the table remembers, then
   - at the lead, with a trump suit: a card of a suit the partner can ruff (the last hand
     following suit or holding no trump), then a card towards the partner's top card of the
     suit, then towards a partner's card higher than every card of the suit the last hand
     holds, then cards nobody can beat, then the rest; in botifarra: cards nobody can beat,
     then towards the partner's top card, then towards the partner's card higher than the
     last hand's, then the rest; inside each group the richest card first (points, then
     strength), so that the partner's trick is fed;
   - later in the trick: cards that win the trick for sure (the most points first), then cards
     that beat the winning card for now (the strongest first), then the rest: the richest
     first when the second hand's partner, playing last, can beat whatever the third hand
     plays, or, in botifarra, when the partner is winning the trick; otherwise the cheapest
     first.
   These orders were chosen by the positions searched on fixed deals (docs/analysis.md): with
   a trump suit, leading towards the partner before cashing sure cards searched two to three
   times fewer positions on the heavy deals; in botifarra the same changes searched more on its
   heaviest deal (1.2 to 1.6 times), so botifarra keeps the sure cards first. Leading the
   richest card of each group, not the cheapest, beating with the strongest card, not the
   weakest, and in botifarra feeding the partner's trick searched 27% fewer positions in all
   (lliure: 695 to 505 million over the 100 solves of benchmarks/analysis.py, the heaviest
   77.5 to 49.9 million; obligada: 236 to 161 million).
   Before them all come the table's best card, then `killer` (see search()). */
static int order_moves(const Search *S, u64 moves, int seat, int pos, int led, int win,
                       int win_seat, int best_first, int killer, int *out) {
    if (!(moves & (moves - 1))) {
        out[0] = lowbit_index(moves); /* one card: nothing to order */
        return 1;
    }
    int n = 0, score[12];
    int t = S->trump;
    int partner_winning = pos > 0 && ((win_seat ^ seat) == 2);
    u64 all = S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3];
    int pa = seat ^ 2, last = NEXT(seat ^ 2);
    int partner_takes = 0;
    if (pos == 1 && t != BOTIFARRA) {
        /* The partner plays last: whether it can beat whatever the third hand plays (its
           strongest card that beats the winning card, a trump before the led suit). */
        u64 q = S->hand[NEXT(seat)];
        int w2 = win;
        u64 qf = q & SUIT[led];
        u64 qb = (qf ? qf : q) & BEATS[t][win];
        if (qb) {
            u64 qt = qb & SUIT[t];
            w2 = highbit_index(qt ? qt : qb);
        }
        partner_takes = can_beat(S->hand[pa], led, w2, t);
    }
    /* The cards that could answer (R7: a suit held must be followed): at the lead, for each
       suit, those of the three other hands; later, those of the opponents still to play. A
       card nobody can beat is one none of them beats. */
    u64 answer[4] = {0, 0, 0, 0};
    if (pos == 0) {
        for (int s = 0; s < 4; s++)
            for (int k = 1; k < 4; k++) {
                u64 h = S->hand[(seat + k) & 3], f = h & SUIT[s];
                answer[s] |= f ? f : h;
            }
    } else {
        int other = seat;
        for (int k = pos + 1; k < 4; k++) {
            other = NEXT(other);
            if ((other ^ seat) & 1) {
                u64 h = S->hand[other], f = h & SUIT[led];
                answer[0] |= f ? f : h;
            }
        }
    }
    while (moves) {
        int c = lowbit_index(moves);
        moves &= moves - 1;
        int strength = c % 12, sc;
        if (c == best_first) {
            sc = 1 << 28;
        } else if (c == killer) {
            sc = 1 << 27;
        } else if (pos == 0) {
            int sure = !(answer[c / 12] & BEATS[t][c]);
            u64 su = SUIT[c / 12];
            int top = highbit_index(all & su);
            u64 ps = S->hand[pa] & su, ls = S->hand[last] & su;
            int rich = PTS[c] * 1000 + strength * 10;
            int side_suit = t != BOTIFARRA && c / 12 != t;
            int towards = ps && (ls ? highbit_index(ps) > highbit_index(ls)
                                    : !(side_suit && (S->hand[last] & SUIT[t])));
            if (t == BOTIFARRA)
                sc = rich + (sure                ? 1000000
                             : (ps >> top & 1) ? 500000
                             : towards         ? 400000
                                               : 0);
            else if (side_suit && !ps && (S->hand[pa] & SUIT[t]) &&
                     (ls || !(S->hand[last] & SUIT[t])))
                sc = 1500000 + rich; /* the partner ruffs, the last hand cannot overruff */
            else if (ps >> top & 1)
                sc = 1300000 + rich;
            else if (towards)
                sc = 1200000 + rich;
            else if (sure)
                sc = 400000 + rich;
            else
                sc = rich;
        } else {
            int beats_now = (int)(BEATS[t][win] >> c & 1);
            int sure = 0;
            if (beats_now || partner_winning) {
                /* Ours for sure after this card: no opponent still to play can beat it. */
                int w = beats_now ? c : win;
                sure = !(answer[0] & BEATS[t][w]);
            }
            if (sure)
                sc = 1000000 + PTS[c] * 1000 - (beats_now && !partner_winning ? strength * 10 : 0);
            else if (beats_now && !partner_winning)
                sc = 500000 + strength * 10 + PTS[c] * 100;
            else if (partner_takes || (t == BOTIFARRA && partner_winning))
                sc = PTS[c] * 1000 - strength * 10;
            else
                sc = -PTS[c] * 1000 - strength * 10;
        }
        int i = n++;
        while (i > 0 && score[i - 1] < sc) {
            score[i] = score[i - 1];
            out[i] = out[i - 1];
            i--;
        }
        score[i] = sc;
        out[i] = c;
    }
    return n;
}

/* The canonical form of a card of the leader at the start of a trick (see suit_code), and
   back: a card without points is stored as its rank among those left in its suit. */
static inline int canonical_card(const Search *S, int c) {
    int s = c / 12, st = c % 12;
    if (st >= 7) return c;
    u64 all = S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3];
    int r = (int)(all >> (12 * s) & LOW7);
    return s * 12 + lowbit_index(PACK[r][1 << st]);
}

static inline int real_card(const Search *S, int cb) {
    int s = cb / 12, st = cb % 12;
    if (st >= 7) return cb;
    u64 all = S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3];
    int r = (int)(all >> (12 * s) & LOW7);
    return s * 12 + NTH[r][st];
}

/* ---------------------------------------------------------------------------------------- */
/* The search.                                                                               */

/* The last two tricks (the seat to move holds at most two cards): plain alpha-beta over the
   legal cards, cheaper than the table would be. Same contract as search(). */
static int endgame(Search *S, int seat, int pos, int led, int win, int win_seat, int trick_pts,
                   int alpha, int beta) {
    S->nodes++;
    u64 hand = S->hand[seat];
    if (pos == 0) {
        if (!hand) return 0;
        if (!(hand & (hand - 1))) return last_trick(S, seat);
    }
    int t = S->trump;
    int partner = pos > 0 && ((win_seat ^ seat) == 2);
    u64 moves = legal(hand, pos, led, win, partner, t, S->obligada);
    int maximise = (seat & 1) == 0;
    int best = maximise ? -1 : 73;
    while (moves) {
        int c = lowbit_index(moves);
        u64 bit = moves & (~moves + 1);
        moves ^= bit;
        int v;
        S->hand[seat] ^= bit;
        if (pos == 0) {
            v = endgame(S, NEXT(seat), 1, c / 12, c, seat, PTS[c], alpha, beta);
        } else {
            int w = win, ws = win_seat;
            if (BEATS[t][win] & bit) {
                w = c;
                ws = seat;
            }
            if (pos < 3) {
                v = endgame(S, NEXT(seat), pos + 1, led, w, ws, trick_pts + PTS[c], alpha, beta);
            } else {
                v = (ws & 1) ? 0 : trick_pts + PTS[c] + 1;
                if (S->hand[ws]) v += last_trick(S, ws);
            }
        }
        S->hand[seat] ^= bit;
        if (maximise) {
            if (v > best) best = v;
            if (best > alpha) alpha = best;
        } else {
            if (v < best) best = v;
            if (best < beta) beta = best;
        }
        if (alpha >= beta) break;
    }
    return best;
}

static int search(Search *S, int seat, int pos, int led, int win, int win_seat, int trick_pts,
                  u64 on_table, int alpha, int beta);

/* Play card c for seat, search on, take it back: the value of the position after it. */
static inline int after(Search *S, int seat, int pos, int led, int win, int win_seat,
                        int trick_pts, u64 on_table, int c, int alpha, int beta) {
    u64 bit = (u64)1 << c;
    int v;
    S->hand[seat] ^= bit;
    S->cards[seat]--;
    S->points_in_hands -= PTS[c];
    if (pos == 0) {
        v = search(S, NEXT(seat), 1, c / 12, c, seat, PTS[c], bit, alpha, beta);
    } else {
        if (BEATS[S->trump][win] >> c & 1) {
            win = c;
            win_seat = seat;
        }
        if (pos < 3) {
            v = search(S, NEXT(seat), pos + 1, led, win, win_seat, trick_pts + PTS[c],
                       on_table | bit, alpha, beta);
        } else {
            int gain = (win_seat & 1) ? 0 : trick_pts + PTS[c] + 1;
            v = gain + search(S, win_seat, 0, 0, 0, 0, 0, 0, alpha - gain, beta - gain);
        }
    }
    S->hand[seat] ^= bit;
    S->cards[seat]++;
    S->points_in_hands += PTS[c];
    return v;
}

/* suit_code() once card c is out of play, from `code`, the suit's code with c still in a hand;
   `r`: the cards without points of c's suit that code counts (c among them, if it has none).
   A point card's field becomes 0 (gone); a card without points leaves the run of owners of
   those left: the digits above it move down one place, and the offset for how many there are
   changes. */
static inline u64 code_without(u64 code, int c, int r) {
    int st = c % 12;
    if (st >= 7) return code & ~((u64)7 << (15 + 3 * (st - 7)));
    int j = 2 * NBITS[r & ((1 << st) - 1)];
    u64 digits = (code & 0x7FFF) - BASE4[r];
    digits = (digits & ((((u64)1) << j) - 1)) | (digits >> (j + 2) << j);
    return (code & ~(u64)0x7FFF) | (BASE4[r & ~(1 << st)] + digits);
}

/* The trick starts that the last card of a trick leads to, one per card of `moves` (in bit
   order): their table keys, whose buckets are fetched from memory at once, so that the misses
   overlap each other and the ordering of the cards (the table is far bigger than the caches:
   these look-ups are most of the cost of a position). Only the code of the card's suit
   changes, and it is derived from the trick's codes (code_without), not computed again.
   child_of[c]: the index in ch[] of card c's child. */
static void child_keys(Search *S, int seat, int win, int win_seat, int trick_pts, u64 moves,
                       u64 on_table, int tricks_left, Child *ch, signed char *child_of) {
    u64 base[4];
    const u64 *start = S->codes[tricks_left];
    int have = S->have_codes >> tricks_left & 1;
    for (int s = 0; s < 4; s++)
        base[s] = have && !(on_table & SUIT[s]) ? start[s] : suit_code(S->hand, s);
    u64 all = S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3];
    for (int i = 0; moves; i++) {
        int c = lowbit_index(moves);
        moves &= moves - 1;
        int ws = win_seat;
        if (BEATS[S->trump][win] >> c & 1) ws = seat;
        child_of[c] = (signed char)i;
        ch[i].leader = ws;
        ch[i].gain = (ws & 1) ? 0 : trick_pts + PTS[c] + 1;
        ch[i].bounded = 0;
        u64 key[2], *code = ch[i].code;
        for (int s = 0; s < 4; s++) code[s] = base[s];
        code[c / 12] = code_without(base[c / 12], c, (int)(all >> (12 * (c / 12)) & LOW7));
        key_of_codes(code, ws, key);
        table_key(key, &ch[i].key);
        __builtin_prefetch(bucket_at(S, &ch[i].key));
    }
}

/* Enhanced transposition cut-off, for the last card of a trick: every card ends the trick in
   a trick start that the table, or the bounds that need no search (quick tricks, top trumps),
   may already decide. `ch` holds the children of the cards of list[] (child_keys; card c's
   is ch[child_of[c]]). Returns 1
   and the value in *v when one child decides the question, or when none can reach it (then the
   best of their bounds is the bound returned). Otherwise it sorts list[] by the children's
   bounds and leaves in kids[] the index in ch[] of the child of each card of list[], for their
   searches. */
static int known_child(Search *S, int seat, int *list, int n, const signed char *child_of,
                       Child *ch, int alpha, int beta, int *v, int *kids) {
    int lo[12], hi[12], found[12], at[12];
    int maximise = (seat & 1) == 0;
    int tl = S->cards[seat] - 1;
    for (int i = 0; i < n; i++) {
        int j = at[i] = child_of[list[i]];
        const Bucket *b = bucket_at(S, &ch[j].key);
        int slot = find(S, b, &ch[j].key), g = ch[j].gain;
        lo[i] = 0;
        hi[i] = S->points_in_hands - PTS[list[i]] + tl;
        found[i] = slot >= 0;
        if (slot < 0) continue;
        lo[i] = slot_lower(&b->slot[slot]);
        hi[i] = slot_upper(&b->slot[slot]);
        if (maximise && lo[i] + g >= beta) {
            *v = lo[i] + g;
            return 1;
        }
        if (!maximise && hi[i] + g <= alpha) {
            *v = hi[i] + g;
            return 1;
        }
    }
    for (int i = 0; i < n; i++) {
        if (found[i]) continue; /* its bounds already include these */
        Child *k = &ch[at[i]];
        int c = list[i], ws = k->leader, g = k->gain;
        int most = S->points_in_hands - PTS[c] + tl;
        S->hand[seat] ^= (u64)1 << c;
        int quick = quick_points(S, ws);
        int kept = master_trump_points(S, NEXT(ws));
        S->hand[seat] ^= (u64)1 << c;
        int ns_low = (ws & 1) ? kept : quick;
        int ns_high = most - ((ws & 1) ? quick : kept);
        k->bounded = 1;
        k->lo = ns_low;
        k->hi = ns_high;
        if (ns_low > lo[i]) lo[i] = ns_low;
        if (ns_high < hi[i]) hi[i] = ns_high;
        if (maximise && lo[i] + g >= beta) {
            *v = lo[i] + g;
            return 1;
        }
        if (!maximise && hi[i] + g <= alpha) {
            *v = hi[i] + g;
            return 1;
        }
    }
    /* No child reaches the bound, and none can: the position fails on that side. */
    int bound = maximise ? -1 : 73;
    for (int i = 0; i < n; i++) {
        int g = ch[at[i]].gain;
        if (maximise && hi[i] + g > bound) bound = hi[i] + g;
        if (!maximise && lo[i] + g < bound) bound = lo[i] + g;
    }
    if (maximise ? bound <= alpha : bound >= beta) {
        *v = bound;
        return 1;
    }
    /* Otherwise the children are tried in the order of their bounds: for North-South the
       highest lower bound first, for East-West the lowest upper bound (the card order breaks
       ties). */
    int score[12], order[12], cards[12];
    for (int i = 0; i < n; i++) {
        int g = ch[at[i]].gain;
        score[i] = maximise ? lo[i] + g : -(hi[i] + g);
        int j = i;
        while (j > 0 && score[order[j - 1]] < score[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
        cards[i] = list[i];
    }
    for (int i = 0; i < n; i++) {
        list[i] = cards[order[i]];
        kids[i] = at[order[i]];
    }
    return 0;
}

/* North-South's points from here on (the cards on the table and in the hands, one per trick).
   Fail-soft alpha-beta: the exact value when it lies strictly between alpha and beta, otherwise
   a bound on the same side (an upper bound <= alpha, a lower bound >= beta). */
static int search(Search *S, int seat, int pos, int led, int win, int win_seat, int trick_pts,
                  u64 on_table, int alpha, int beta) {
    const Child *pre = S->pre;
    S->pre = NULL;
    u64 hand = S->hand[seat];
    int tricks_left = S->cards[seat]; /* the seat to move has not played to this trick yet */
    if (tricks_left <= 2)
        return endgame(S, seat, pos, led, win, win_seat, trick_pts, alpha, beta);
    if (++S->nodes > S->limit) { /* (the count only grows: every later call is over too) */
        S->gave_up = 1;
        return 0; /* unwinds without storing anything */
    }
    if (pos == 0) {
        if (tricks_left == 0) return 0;
        if (tricks_left == 1) return last_trick(S, seat);
    }
    int most = trick_pts + S->points_in_hands + tricks_left;
    if (most <= alpha) return most;
    if (beta <= 0) return 0;

    TableKey tkey = {0, 0};
    int best_first = -1, lower = 0, upper = most;
    if (pos == 0) {
        u64 *codes = S->codes[tricks_left];
        if (pre) {
            tkey = pre->key;
            for (int s = 0; s < 4; s++) codes[s] = pre->code[s];
        } else {
            u64 key[2];
            for (int s = 0; s < 4; s++) codes[s] = suit_code(S->hand, s);
            key_of_codes(codes, seat, key);
            table_key(key, &tkey);
        }
        S->have_codes |= 1u << tricks_left;
        const Bucket *b = bucket_at(S, &tkey);
        int slot = find(S, b, &tkey);
        if (slot >= 0) {
            lower = slot_lower(&b->slot[slot]);
            upper = slot_upper(&b->slot[slot]);
            if (lower >= beta) return lower;
            if (upper <= alpha) return upper;
            best_first = real_card(S, slot_best(&b->slot[slot]));
        } else {
            /* The leader's side cashes its sure tricks; the other side keeps its top trumps.
               (An entry's bounds already include these: they are stored with them.) */
            if (pre && pre->bounded) {
                lower = pre->lo; /* known_child() computed them for this position */
                upper = pre->hi;
            } else {
                int quick = quick_points(S, seat);
                int kept = master_trump_points(S, NEXT(seat));
                lower = (seat & 1) ? kept : quick;
                upper = most - ((seat & 1) ? quick : kept);
            }
            if (lower >= beta) return lower;
            if (upper <= alpha) return upper;
        }
        if (lower == upper) return lower;
        /* Now lower < upper, alpha < upper and lower < beta: the window stays open. */
        if (lower > alpha) alpha = lower;
        if (upper < beta) beta = upper;
    } else {
        /* When nobody left to play can take the trick, its cards are the winner's side's. */
        int decided = 1, other = seat;
        for (int k = pos; k < 4 && decided; k++) {
            if (((other ^ win_seat) & 1) && can_beat(S->hand[other], led, win, S->trump))
                decided = 0;
            other = NEXT(other);
        }
        if (decided) {
            if ((win_seat & 1) == 0) {
                int low = trick_pts + 1;
                if (low >= beta) return low;
                if (low > alpha) alpha = low;
            } else {
                int high = most - trick_pts - 1;
                if (high <= alpha) return high;
                if (high < beta) beta = high;
            }
        }
    }
    int alpha0 = alpha, beta0 = beta;
    long long nodes0 = S->nodes;

    int partner = pos > 0 && ((win_seat ^ seat) == 2);
    u64 moves = legal(hand, pos, led, win, partner, S->trump, S->obligada);
    u64 twin_candidates = 0, breakers = 0;
    if (moves & (moves - 1)) { /* (a single legal card has no equivalent nor twin) */
        u64 others = (S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3] | on_table) & ~hand;
        moves = distinct_moves(moves, others);
        /* Twins: two cards of one suit in this hand with no card of another hand (nor on the
           table) between them; under obligada (R8 also looks at the hand's lowest card of each
           suit and at which cards have points), two point cards with no card left at all
           between them. */
        twin_candidates = S->obligada ? moves & POINT_CARDS : moves;
        breakers = S->obligada ? others | (hand & ~twin_candidates) : others;
        if (moves & (moves - 1))
            moves = dominant_twins(S, moves, breakers, seat, pos, led, win, win_seat);
    }
    /* Where the children of the last card have three tricks left or more (closer to the end,
       they have no table entry), their keys are computed once and their table buckets fetched
       now, while the cards are ordered; each child's search takes its key from S->pre. */
    Child ch[12];
    int kids[12];
    int have_kids = pos == 3 && tricks_left >= 4;
    signed char child_of[48];
    if (have_kids)
        child_keys(S, seat, win, win_seat, trick_pts, moves, on_table, tricks_left, ch, child_of);
    if (best_first >= 0 && !(moves >> best_first & 1)) {
        /* An equivalent card stands for it: the nearest kept card below, in the same suit. */
        u64 below = moves & SUIT[best_first / 12] & ~POINT_CARDS & ((((u64)1) << best_first) - 1);
        best_first = below ? highbit_index(below) : -1;
    }
    int list[12];
    list[0] = lowbit_index(moves); /* (order_moves fills it: moves is never empty) */
    /* A lead the table has no card for tries first the lead that last cut off at a trick
       start with as many tricks left (the killer heuristic): the card that refuted one
       position often refutes its neighbours. Lliure only: under obligada it searched more
       (docs/analysis.md, Speed). */
    int killer = pos == 0 && best_first < 0 && !S->obligada ? S->killer[tricks_left] : -1;
    int n = order_moves(S, moves, seat, pos, led, win, win_seat, best_first, killer, list);
    if (have_kids) {
        int v;
        if (known_child(S, seat, list, n, child_of, ch, alpha, beta, &v, kids)) return v;
    }

    int maximise = (seat & 1) == 0;
    int best = maximise ? -1 : 73, best_card = list[0];
    int tried[12];
    for (int i = 0; i < n; i++) {
        int c = list[i];
        int v = -1000;
        /* Twins (above) play alike but for their points: swapping them maps every line of
           play after one onto a line after the other with the same legal cards and the same
           tricks to the same sides (a hand's cards are never compared with each other), where
           only the difference of their points changes sides (the tricks they fall in are this
           one and a later one). So their values differ by that much at most, and a twin
           already tried may settle this one. (Twins of equal points are tried once:
           distinct_moves; twins whose trick is decided, once: dominant_twins.) */
        int has_twin = (twin_candidates >> c & 1) &&
                       (twin_candidates & SUIT[c / 12] & ~((u64)1 << c)); /* (else skip) */
        for (int j = 0; has_twin && j < i; j++) {
            int b = list[j];
            if (b / 12 != c / 12 || !(twin_candidates >> b & 1) || !(twin_candidates >> c & 1))
                continue;
            int lo_c = b < c ? b : c, hi_c = b < c ? c : b;
            u64 between = ((((u64)1) << hi_c) - 1) & ~((((u64)2) << lo_c) - 1);
            if (breakers & between) continue;
            int d = PTS[c] - PTS[b];
            if (d < 0) d = -d;
            if (maximise ? tried[j] + d <= alpha : tried[j] - d >= beta) {
                v = maximise ? tried[j] + d : tried[j] - d;
                break;
            }
        }
        if (v == -1000) {
            if (have_kids) S->pre = &ch[kids[i]];
            v = after(S, seat, pos, led, win, win_seat, trick_pts, on_table, c, alpha, beta);
            if (S->gave_up) return 0;
        }
        tried[i] = v;
        if (maximise ? v > best : v < best) {
            best = v;
            best_card = c;
        }
        if (maximise) {
            if (best > alpha) alpha = best;
        } else if (best < beta) {
            beta = best;
        }
        if (alpha >= beta) {
            if (pos == 0) S->killer[tricks_left] = (signed char)c;
            break;
        }
    }
    if (pos == 0) {
        if (best <= alpha0) upper = best < upper ? best : upper;
        else if (best >= beta0) lower = best > lower ? best : lower;
        else lower = upper = best;
        /* The work this entry saves: half the bit length of the positions searched, 1..15. */
        int work = (64 - __builtin_clzll((u64)(S->nodes - nodes0) | 1) + 1) / 2;
        store(S, &tkey, lower, upper, canonical_card(S, best_card), work > 15 ? 15 : work);
    }
    return best;
}

/* ---------------------------------------------------------------------------------------- */
/* Python interface.                                                                         */

typedef struct {
    int seat, pos, led, win, win_seat, trick_pts;
    u64 on_table;
} Start;

static int value_error(const char *message) {
    PyErr_SetString(PyExc_ValueError, message);
    return -1;
}

/* Read (hands, to_move, trick) into S->hand and *st; -1 with a ValueError when they cannot be
   a position (the Python side only passes positions of real hands). */
static int parse_position(Search *S, PyObject *hands, int to_move, PyObject *trick, Start *st) {
    PyObject *hs = PySequence_Fast(hands, "hands must be a sequence of four masks");
    if (!hs) return -1;
    if (PySequence_Fast_GET_SIZE(hs) != 4) {
        Py_DECREF(hs);
        return value_error("hands must hold four masks (N, E, S, W)");
    }
    u64 all = 0;
    for (int p = 0; p < 4; p++) {
        unsigned long long m = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(hs, p));
        if (PyErr_Occurred()) {
            Py_DECREF(hs);
            return -1;
        }
        if (m >> 48) {
            Py_DECREF(hs);
            return value_error("a hand mask holds bits 0-47 only");
        }
        u64 h = 0;
        for (int c = 0; c < 48; c++)
            if (m >> c & 1) h |= (u64)1 << TO_INTERNAL[c];
        if (h & all) {
            Py_DECREF(hs);
            return value_error("a card is in two hands");
        }
        all |= h;
        S->hand[p] = h;
    }
    Py_DECREF(hs);
    if (to_move < 0 || to_move > 3) return value_error("to_move is a seat index 0-3");
    PyObject *ts = PySequence_Fast(trick, "trick must be a sequence of cards");
    if (!ts) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(ts);
    if (k > 3) {
        Py_DECREF(ts);
        return value_error("a trick in progress holds 0-3 cards");
    }
    int leader = (to_move + (int)k) & 3;
    st->seat = to_move;
    st->pos = (int)k;
    st->led = st->win = st->trick_pts = 0;
    st->win_seat = leader;
    st->on_table = 0;
    for (Py_ssize_t i = 0; i < k; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(ts, i));
        if (PyErr_Occurred()) {
            Py_DECREF(ts);
            return -1;
        }
        if (c < 0 || c > 47) {
            Py_DECREF(ts);
            return value_error("a card is 0-47");
        }
        int ic = TO_INTERNAL[c];
        if ((all | st->on_table) >> ic & 1) {
            Py_DECREF(ts);
            return value_error("a card on the table is also in a hand");
        }
        int seat = (leader + 3 * (int)i) & 3;
        if (i == 0) {
            st->led = ic / 12;
            st->win = ic;
            st->win_seat = seat;
        } else if (BEATS[S->trump][st->win] >> ic & 1) {
            st->win = ic;
            st->win_seat = seat;
        }
        st->trick_pts += PTS[ic];
        st->on_table |= (u64)1 << ic;
    }
    Py_DECREF(ts);
    /* Everyone still to play to this trick holds one card more than those who have played. */
    int n = popcount64(S->hand[to_move]);
    for (int i = 0; i < 4; i++) {
        int seat = (leader + 3 * i) & 3;
        if (popcount64(S->hand[seat]) != (i < k ? n - 1 : n))
            return value_error("the hands do not hold the same number of cards");
    }
    if (n == 0) return value_error("no card left to play");
    S->points_in_hands = 0;
    for (int p = 0; p < 4; p++) S->cards[p] = popcount64(S->hand[p]);
    for (int p = 0; p < 4; p++)
        for (u64 m = S->hand[p]; m; m &= m - 1) S->points_in_hands += PTS[lowbit_index(m)];
    return 0;
}

static int zero_window(Search *S, const Start *st, int beta) {
    S->have_codes = 0;
    return search(S, st->seat, st->pos, st->led, st->win, st->win_seat, st->trick_pts,
                  st->on_table, beta - 1, beta);
}

/* A zero-window search that gives up after `budget` positions: -1 then (a value is >= 0).
   What it stored before giving up came from complete searches, so the table stays sound. */
static int budgeted(Search *S, const Start *st, int beta, long long budget) {
    S->limit = S->nodes + budget;
    int v = zero_window(S, st, beta);
    if (S->gave_up) v = -1;
    S->gave_up = 0;
    S->limit = LLONG_MAX;
    return v;
}

/* A search runs without the GIL (other Python threads go on meanwhile); one Search object
   serves one question at a time. */
static int claim(Search *S) {
    if (S->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this Search is busy in another thread");
        return -1;
    }
    S->busy = 1;
    return 0;
}

static PyObject *Search_future(Search *S, PyObject *args) {
    PyObject *hands, *trick;
    int to_move, guess = -1;
    if (!PyArg_ParseTuple(args, "OiO|i", &hands, &to_move, &trick, &guess)) return NULL;
    if (claim(S) < 0) return NULL;
    Start st;
    if (parse_position(S, hands, to_move, trick, &st) < 0) {
        S->busy = 0;
        return NULL;
    }
    int lower = 0, upper = st.trick_pts + S->points_in_hands + popcount64(S->hand[st.seat]);
    Py_BEGIN_ALLOW_THREADS
    /* Zero-window searches, each moving a bound, until the bounds meet. */
    if (guess >= lower && guess <= upper) {
        /* The first at the guess (MTD(f)), then halving what is left. */
        int first = 1;
        while (lower < upper) {
            int beta = first ? (guess == lower ? guess + 1 : guess) : (lower + upper + 1) / 2;
            first = 0;
            int v = zero_window(S, &st, beta);
            if (v < beta) upper = v;
            else lower = v;
        }
    } else {
        /* Halving, but a question that takes more than S->budget positions is given up (it is
           close to the value) for the question halving the upper part; when that one gives up
           too, the questions step down from the upper bound, one "no" after another. On the
           heaviest benchmark solves the questions just below the value cost far more than
           those above it (seed analysis-4 board 5, botifarra, value 41: 36 and 40 took 48 of
           103 million positions, 45 took 4): this leaves them out (77 million). A solve whose
           questions all stay within the budget asks the same questions as plain halving. */
        int hard = -1; /* the question given up, while it is still open */
        while (lower < upper) {
            int beta = hard < 0 ? (lower + upper + 1) / 2 : (hard + upper + 1) / 2;
            if (beta <= hard) break;
            int v = budgeted(S, &st, beta, S->budget);
            if (v < 0) {
                if (hard >= 0) break;
                hard = beta;
                continue;
            }
            if (v < beta) upper = v;
            else lower = v;
            if (lower >= hard) hard = -1;
        }
        while (lower < upper) {
            int v = zero_window(S, &st, upper);
            if (v < upper) upper = v;
            else lower = v;
        }
    }
    Py_END_ALLOW_THREADS
    S->busy = 0;
    return PyLong_FromLong(lower);
}

static PyObject *Search_at_least(Search *S, PyObject *args) {
    PyObject *hands, *trick;
    int to_move, target, answer;
    if (!PyArg_ParseTuple(args, "OiOi", &hands, &to_move, &trick, &target)) return NULL;
    if (claim(S) < 0) return NULL;
    Start st;
    if (parse_position(S, hands, to_move, trick, &st) < 0) {
        S->busy = 0;
        return NULL;
    }
    if (target <= 0) {
        answer = 1;
    } else if (target > 72) {
        answer = 0;
    } else {
        Py_BEGIN_ALLOW_THREADS
        answer = zero_window(S, &st, target) >= target;
        Py_END_ALLOW_THREADS
    }
    S->busy = 0;
    return PyBool_FromLong(answer);
}

/* Empty the table: its slots become another generation's; every few generations the memory is
   cleared for real, so that no slot of an old generation can pass for the new one's. */
static void next_generation(Search *S) {
    S->gen = (S->gen + 1) % GENERATIONS;
    if (S->gen == 0) memset(S->table, 0, sizeof(Bucket) * S->buckets);
}

static void new_generation(Search *S) {
    next_generation(S);
    start_small(S);
}

static PyObject *Search_clear(Search *S, PyObject *Py_UNUSED(ignored)) {
    if (claim(S) < 0) return NULL;
    new_generation(S);
    S->busy = 0;
    Py_RETURN_NONE;
}

static PyObject *Search_get_nodes(Search *S, void *Py_UNUSED(closure)) {
    return PyLong_FromLongLong(S->nodes);
}

static PyObject *Search_get_grown(Search *S, void *Py_UNUSED(closure)) {
    return PyBool_FromLong(!S->small);
}

/* The table is zeroed memory that the system hands out page by page as it is touched. On
   Linux, 2 MB pages make its random accesses much cheaper (fewer TLB misses). */
static Bucket *allocate_table(Search *S) {
    size_t size = (size_t)S->buckets * sizeof(Bucket);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    size_t huge = (size_t)2 << 20, total = size + huge;
    void *p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    uintptr_t aligned = ((uintptr_t)p + huge - 1) & ~(uintptr_t)(huge - 1);
    madvise((void *)aligned, size, MADV_HUGEPAGE);
    S->table_base = p;
    S->table_bytes = total;
    return (Bucket *)aligned;
#else
    void *p = NULL;
    if (posix_memalign(&p, 64, size)) return NULL;
    memset(p, 0, size);
    S->table_base = p;
    S->table_bytes = size;
    return (Bucket *)p;
#endif
}

static void free_table(Search *S) {
    if (!S->table_base) return;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    munmap(S->table_base, S->table_bytes);
#else
    free(S->table_base);
#endif
    S->table_base = NULL;
    S->table = NULL;
}

/* The spare table: the last one given back, kept for the next search (a Solver per trump, one
   after the other, is the common case). Only touched while holding the GIL. */
static struct {
    Bucket *table;
    void *base;
    size_t bytes;
    int bits;
    u64 gen;
} SPARE;

static void release_table(Search *S) {
    if (!S->table_base) return;
    if (SPARE.table) {
        free_table(S);
        return;
    }
    SPARE.table = S->table;
    SPARE.base = S->table_base;
    SPARE.bytes = S->table_bytes;
    SPARE.bits = S->bits;
    SPARE.gen = S->gen;
    S->table_base = NULL;
    S->table = NULL;
}

static Bucket *acquire_table(Search *S) {
    if (SPARE.table && SPARE.bits == S->bits) {
        S->table = SPARE.table;
        S->table_base = SPARE.base;
        S->table_bytes = SPARE.bytes;
        S->gen = SPARE.gen;
        SPARE.table = NULL;
        next_generation(S); /* (Search_init() then starts in the small part) */
        return S->table;
    }
    S->gen = 0; /* fresh zeroed memory: every slot is empty */
    return allocate_table(S);
}

static int Search_init(Search *S, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"t", "obligada", "table_bits", "budget", "grow_after", NULL};
    int t, obligada, bits = 21;
    long long budget = 3000000, grow_after = GROW_AFTER;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "ip|iLL", kwlist, &t, &obligada, &bits, &budget,
                                     &grow_after))
        return -1;
    if (S->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this Search is busy in another thread");
        return -1;
    }
    if (t < 0 || t > 4) return value_error("t is a trump index 0-4");
    if (bits < 21 || bits > 28) return value_error("table_bits is 21-28");
    if (budget < 1) return value_error("budget is a number of positions, at least 1");
    if (grow_after < 1) return value_error("grow_after is a number of entries, at least 1");
    release_table(S);
    S->trump = t;
    S->obligada = obligada;
    S->bits = bits;
    S->buckets = (u64)1 << bits;
    S->table = acquire_table(S);
    if (!S->table) {
        PyErr_NoMemory();
        return -1;
    }
    S->grow_after = grow_after;
    start_small(S);
    S->nodes = 0;
    S->budget = budget;
    S->limit = LLONG_MAX;
    S->gave_up = 0;
    S->pre = NULL;
    memset(S->killer, -1, sizeof S->killer);
    return 0;
}

static void Search_dealloc(Search *S) {
    release_table(S);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

static PyMethodDef Search_methods[] = {
    {"future", (PyCFunction)Search_future, METH_VARARGS,
     "future(hands, to_move, trick, guess=-1) -> NS points from here on, perfect play"},
    {"at_least", (PyCFunction)Search_at_least, METH_VARARGS,
     "at_least(hands, to_move, trick, target) -> whether future(...) >= target"},
    {"clear", (PyCFunction)Search_clear, METH_NOARGS, "forget the table of positions"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_get_nodes, NULL, "positions searched so far", NULL},
    {"grown", (getter)Search_get_grown, NULL,
     "whether the search uses its whole table (else its small part; see grow_after)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine._solver.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Search(t, obligada, table_bits=21, budget=3000000, grow_after=65536): the "
              "perfect-play search of one trump choice (budget: the positions a question may "
              "take before the search asks another, when there is no guess; grow_after: the "
              "entries pushed out of the table's small part before it uses the whole table)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

/* legal_mask(hand, position, led, win, partner_winning, t, obligada) in the engine's layout,
   for the tests that prove it equals engine.rules.legal_mask. */
static PyObject *py_legal_mask(PyObject *self, PyObject *args) {
    unsigned long long hand;
    int pos, led, win, partner, t, obligada;
    (void)self;
    if (!PyArg_ParseTuple(args, "Kiiipip", &hand, &pos, &led, &win, &partner, &t, &obligada))
        return NULL;
    if (t < 0 || t > 4 || win < 0 || win > 47 || led < 0 || led > 3 || pos < 0 || pos > 3 ||
        hand >> 48) {
        value_error("argument out of range");
        return NULL;
    }
    u64 h = 0;
    for (int c = 0; c < 48; c++)
        if (hand >> c & 1) h |= (u64)1 << TO_INTERNAL[c];
    u64 m = legal(h, pos, led, TO_INTERNAL[win], partner, t, obligada);
    unsigned long long out = 0;
    for (int i = 0; i < 48; i++)
        if (m >> i & 1) out |= 1ULL << TO_ENGINE[i];
    return PyLong_FromUnsignedLongLong(out);
}

/* suit_codes_after(hands, seat, card) in the engine's layout, for the test that proves the
   children's keys right (a wrong key loses transpositions without changing any value, so the
   solver's values cannot show it): the code of the card's suit once the seat has played it, as
   child_keys() derives it (code_without) and as suit_code() computes it from the hands. */
static PyObject *py_suit_codes_after(PyObject *self, PyObject *args) {
    unsigned long long m[4];
    int seat, card;
    (void)self;
    if (!PyArg_ParseTuple(args, "(KKKK)ii", &m[0], &m[1], &m[2], &m[3], &seat, &card))
        return NULL;
    if (seat < 0 || seat > 3 || card < 0 || card > 47 || !(m[seat] >> card & 1)) {
        value_error("the seat must hold the card");
        return NULL;
    }
    u64 h[4] = {0, 0, 0, 0};
    for (int p = 0; p < 4; p++)
        for (int c = 0; c < 48; c++)
            if (m[p] >> c & 1) h[p] |= (u64)1 << TO_INTERNAL[c];
    if ((h[0] & h[1]) | (h[0] & h[2]) | (h[0] & h[3]) | (h[1] & h[2]) | (h[1] & h[3]) |
        (h[2] & h[3])) {
        value_error("a card is in two hands");
        return NULL;
    }
    int c = TO_INTERNAL[card], s = c / 12;
    int r = (int)((h[0] | h[1] | h[2] | h[3]) >> (12 * s) & LOW7);
    u64 derived = code_without(suit_code(h, s), c, r);
    h[seat] &= ~((u64)1 << c);
    return Py_BuildValue("(KK)", (unsigned long long)derived, (unsigned long long)suit_code(h, s));
}

static PyMethodDef module_methods[] = {
    {"legal_mask", py_legal_mask, METH_VARARGS,
     "legal_mask(hand, position, led, win, partner_winning, t, obligada): R7/R8 legal cards"},
    {"suit_codes_after", py_suit_codes_after, METH_VARARGS,
     "suit_codes_after(hands, seat, card): a suit's table code once card is played, derived "
     "and recomputed"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine._solver",
    "The fast perfect-play search behind engine.solver (see docs/analysis.md).", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__solver(void) {
    init_tables();
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    /* setup.py defines it in the build that its training run guided (gcc -fprofile-use). */
#ifndef SOLVER_PROFILE_GUIDED
#define SOLVER_PROFILE_GUIDED 0
#endif
    if (PyModule_AddIntConstant(m, "PROFILE_GUIDED", SOLVER_PROFILE_GUIDED) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
