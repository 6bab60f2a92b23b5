/* The item pipeline's check for clean text, compiled: one pass over each value's characters.
 *
 * dict_values_clean(d, keys) is non-zero when every value of the dict d is a str holding no
 * U+FFFD and no mojibake candidate (2 when d's keys are also the tuple keys, in order). A
 * candidate is a character that some misreading (UTF-8 read as windows-1252, ...) gives for a
 * UTF-8 lead byte, followed by as many characters it gives for continuation bytes as that
 * lead byte announces. The character sets come from scrapy_charset.quality through
 * configure(); a 0 only sends the item to the exact, pure-Python inspection, so the check may
 * be generous, never strict.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_MISREADINGS 4
#define BMP 0x10000

/* One bit per BMP character: bit m of leads[c] / continuations[c] for misreading m. */
static unsigned char leads[BMP];
static unsigned char continuations[BMP];
/* The lowest and highest lead and continuation characters (set by configure()). */
static Py_UCS4 lead_lo = BMP, lead_hi = 0;
static int configured = 0;

/* The fewest continuation characters a lead character announces (1 to 3), over the
 * misreadings it is a lead of: a stretch needs that many after it to be a character. */
static unsigned char announced[BMP];
/* The same per misreading: bits 2m and 2m+1 hold what the character announces in misreading m. */
static unsigned char announced_in[BMP];
static int misreading_count = 0; /* how many were configured */

/* Lowercase Cyrillic letters of the block [U+0430, U+045F], and ґ: str.islower() and Cyrillic. */
#define LOWER_CYRILLIC(c) (((c) >= 0x0430 && (c) <= 0x045F) || (c) == 0x0491)

/* Whether text[i] is U+FFFD or a lead character followed by as many continuation characters
 * of the same misreading as it announces: the exact test, one character at a time.
 *
 * A capital В-Я, a lowercase Cyrillic letter and one more (genuine Ukrainian or Belarusian:
 * "Він", "Рік", "Сёння") is no candidate: quality._starts_a_word drops it unless a whole
 * sequence starts at the third letter, and such a sequence is a suspect of its own (its lead,
 * a lowercase letter, is not a capital), found when the test reaches it. */
static inline int
suspect_at(int kind, const void *data, Py_ssize_t n, Py_ssize_t i, int fffd)
{
    Py_UCS4 c = PyUnicode_READ(kind, data, i);
    if (c == 0xFFFD) {
        return fffd;
    }
    if (c > lead_hi || !leads[c] || i + announced[c] >= n) {
        return 0;
    }
    unsigned char bits = leads[c];
    for (Py_ssize_t k = 1; k <= announced[c] && bits; k++) {
        Py_UCS4 next = PyUnicode_READ(kind, data, i + k);
        bits = next < BMP ? bits & continuations[next] : 0;
    }
    if (bits && c >= 0x0412 && c <= 0x042F && i + 2 < n) {
        Py_UCS4 cont = PyUnicode_READ(kind, data, i + 1), after = PyUnicode_READ(kind, data, i + 2);
        if (LOWER_CYRILLIC(cont) && LOWER_CYRILLIC(after)) {
            return 0;
        }
    }
    return bits != 0;
}

/* Whether the mojibake checks must find nothing although a suspect sequence is there: for
 * every misreading, no stretch (a lead and the continuation characters after it, as its
 * pattern [leads][continuations]+ matches them) is complete, or fewer are complete than are
 * too short, or the one complete stretch is two characters among more non-ASCII ones.
 * quality._best_misreading passes over such a misreading (each short stretch is a failure,
 * each repair needs a complete stretch, it wants fewer failures than repairs, and it leaves a
 * single two-character repair beside other non-ASCII text alone): genuine Ukrainian text
 * ("Він", a capital and i, is one complete windows-1251 stretch) is clean without the exact
 * checks. */
#define STRETCHES(TYPE)                                                                       \
    do {                                                                                      \
        const TYPE *chars = (const TYPE *)data;                                               \
        for (Py_ssize_t i = 0; i < n; i++) {                                                  \
            Py_UCS4 c = chars[i];                                                             \
            non_ascii += c >= 0x80;                                                           \
            if (c > lead_hi || !leads[c]) {                                                   \
                continue;                                                                     \
            }                                                                                 \
            for (int m = 0; m < misreading_count; m++) {                                      \
                const unsigned char bit = (unsigned char)(1 << m);                            \
                if (!(leads[c] & bit)) {                                                      \
                    continue;                                                                 \
                }                                                                             \
                Py_ssize_t k = 0; /* the continuation characters after it */                  \
                while (i + 1 + k < n && chars[i + 1 + k] < BMP &&                             \
                       (continuations[chars[i + 1 + k]] & bit)) {                             \
                    k++;                                                                      \
                }                                                                             \
                if (k) { /* (the next stretch of m starts after these: none is a lead) */     \
                    unsigned char need = (announced_in[c] >> (2 * m)) & 3;                    \
                    if (k >= need) {                                                          \
                        complete[m]++;                                                        \
                        two_chars[m] = need == 1;                                             \
                    } else {                                                                  \
                        short_ones[m]++;                                                      \
                    }                                                                         \
                }                                                                             \
            }                                                                                 \
        }                                                                                     \
    } while (0)

static int
explained_in_part(int kind, const void *data, Py_ssize_t n)
{
    Py_ssize_t complete[MAX_MISREADINGS] = {0}, short_ones[MAX_MISREADINGS] = {0};
    int two_chars[MAX_MISREADINGS] = {0}; /* the last complete stretch is two characters */
    Py_ssize_t non_ascii = 0;
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        STRETCHES(Py_UCS1);
        break;
    case PyUnicode_2BYTE_KIND:
        STRETCHES(Py_UCS2);
        break;
    default:
        STRETCHES(Py_UCS4);
    }
    for (int m = 0; m < misreading_count; m++) {
        if (complete[m] && complete[m] >= short_ones[m] &&
            !(complete[m] == 1 && two_chars[m] && non_ascii > 2)) {
            return 0;
        }
    }
    return 1;
}

/* After a suspect: clean only without U+FFFD (when it counts) and with every misreading
 * explaining little. */
static int
closer_look(PyObject *text, int kind, const void *data, Py_ssize_t n, int fffd)
{
    return (!fffd || PyUnicode_FindChar(text, 0xFFFD, 0, n, 1) == -1) &&
           explained_in_part(kind, data, n);
}

/* The exact test over characters [from, to): on a suspect, the caller returns the closer look. */
#define EXACT(from, to)                                                                       \
    do {                                                                                      \
        for (Py_ssize_t j_ = (from); j_ < (to); j_++) {                                       \
            if (suspect_at(kind, data, n, j_, fffd)) {                                        \
                return closer_look(text, kind, data, n, fffd);                                \
            }                                                                                 \
        }                                                                                     \
    } while (0)

/* The block filter's ranges. A lead character is in [LEAD_LATIN_LO, LEAD_LATIN_HI] (Latin-1 and
 * Latin Extended-A: windows-1252 and windows-1250) or [LEAD_CYR_LO, LEAD_CYR_HI] (windows-1251's
 * В-я); those in TWO_MORE_* announce at least two continuation characters. A continuation
 * character is in one of CONTINUATION_RANGES. configure() checks that the configured characters
 * keep to these ranges, so a block the filter passes over holds no suspect. */
#define LEAD_LATIN_LO 0x00C2
#define LEAD_LATIN_HI 0x0170
#define LEAD_CYR_LO 0x0412
#define LEAD_CYR_HI 0x0444
#define TWO_MORE_LATIN_LO 0x00E0
#define TWO_MORE_LATIN_HI 0x00F4
#define TWO_MORE_CYR_LO 0x0430
#define TWO_MORE_CYR_HI 0x0444
static const Py_UCS4 CONTINUATION_RANGES[][2] = {
    {0x0080, 0x00BF}, {0x0104, 0x0105}, {0x013D, 0x0142}, {0x0152, 0x0165}, {0x0178, 0x0192},
    {0x02C6, 0x02DD}, {0x0401, 0x040F}, {0x0451, 0x0491}, {0x2013, 0x2122},
};
#define N_CONTINUATION_RANGES (sizeof(CONTINUATION_RANGES) / sizeof(CONTINUATION_RANGES[0]))

static int
in_continuation_ranges(Py_UCS4 c)
{
    for (size_t r = 0; r < N_CONTINUATION_RANGES; r++) {
        if (c >= CONTINUATION_RANGES[r][0] && c <= CONTINUATION_RANGES[r][1]) {
            return 1;
        }
    }
    return 0;
}

/* A scanner reads blocks of 16 or 32 bytes from character *at on and stops at the first block
 * where a lead character comes before a continuation character (and, for a lead announcing two
 * or more, before two), or where U+FFFD is: it returns the block's mask (the top bit of each
 * byte of the lanes that need the exact test) with *at set to the block's start, or 0 with *at
 * where the blocks end. With GCC/Clang vector types this compiles to SSE2 (or AVX2, chosen at
 * run time), or NEON code: genuine text in any script costs a few compares per block, and most
 * blocks of CJK, Greek, Arabic or Indic text stop at the first test (no lead character). */
typedef uint32_t (*scanner)(const void *data, Py_ssize_t n, Py_ssize_t *at);

#if defined(__GNUC__) || defined(__clang__)
typedef uint8_t u8x16 __attribute__((vector_size(16)));
typedef uint16_t u16x8 __attribute__((vector_size(16)));
typedef uint32_t u32x4 __attribute__((vector_size(16)));

/* Lanes of v in [lo, hi] (all bits set), as a vector of the same type. */
#define IN(VEC, TYPE, v, lo, hi) ((VEC)(((v) - (TYPE)(lo)) <= (TYPE)((hi) - (lo))))

#define LOAD(VEC, from)                                                                       \
    ({                                                                                        \
        VEC v_;                                                                               \
        memcpy(&v_, (from), sizeof(VEC));                                                     \
        v_;                                                                                   \
    })

#if defined(__SSE2__)
#include <emmintrin.h>
#define MASK16(v) ((uint32_t)_mm_movemask_epi8((__m128i)(v)))
#else /* (NEON, ...): every lane of a block with any lane set */
#define MASK16(v)                                                                             \
    ({                                                                                        \
        uint64_t w_[2];                                                                       \
        memcpy(w_, &(v), 16);                                                                 \
        (w_[0] | w_[1]) ? 0xFFFFu : 0u;                                                       \
    })
#endif

/* (the ranges of CONTINUATION_RANGES) */
#define WIDE_CONTINUATION(VEC, TYPE, v)                                                       \
    (IN(VEC, TYPE, v, 0x0080, 0x00BF) | IN(VEC, TYPE, v, 0x0104, 0x0105) |                    \
     IN(VEC, TYPE, v, 0x013D, 0x0142) | IN(VEC, TYPE, v, 0x0152, 0x0165) |                    \
     IN(VEC, TYPE, v, 0x0178, 0x0192) | IN(VEC, TYPE, v, 0x02C6, 0x02DD) |                    \
     IN(VEC, TYPE, v, 0x0401, 0x040F) | IN(VEC, TYPE, v, 0x0451, 0x0491) |                    \
     IN(VEC, TYPE, v, 0x2013, 0x2122))

/* A scanner over the blocks of one string kind: BLOCK sets `hit` for the block at i (or goes
 * on to the next block at once). */
#define SCANNER(NAME, ATTR, TYPE, VEC, MASK, BLOCK)                                           \
    ATTR static uint32_t NAME(const void *data, Py_ssize_t n, Py_ssize_t *at)                \
    {                                                                                         \
        const TYPE *chars = (const TYPE *)data;                                               \
        const Py_ssize_t per_block = sizeof(VEC) / sizeof(TYPE);                              \
        Py_ssize_t i = *at;                                                                   \
        for (; i + per_block + 2 <= n; i += per_block) {                                      \
            BLOCK(TYPE, VEC, MASK);                                                           \
            uint32_t bits = MASK(hit);                                                        \
            if (bits) {                                                                       \
                *at = i;                                                                      \
                return bits;                                                                  \
            }                                                                                 \
        }                                                                                     \
        *at = i;                                                                              \
        return 0;                                                                             \
    }

/* 2- and 4-byte strings. */
#define WIDE_BLOCK(TYPE, VEC, MASK)                                                           \
    VEC here = LOAD(VEC, chars + i);                                                          \
    VEC lead = IN(VEC, TYPE, here, LEAD_LATIN_LO, LEAD_LATIN_HI) |                            \
               IN(VEC, TYPE, here, LEAD_CYR_LO, LEAD_CYR_HI);                                 \
    VEC fffd = (VEC)(here == (TYPE)0xFFFD);                                                   \
    VEC first = lead | fffd;                                                                  \
    if (!MASK(first)) {                                                                       \
        continue;                                                                             \
    }                                                                                         \
    /* (a coarse test first: ASCII, Latin-1 letters, а-п, CJK, Hangul... pass it) */          \
    VEC next = LOAD(VEC, chars + i + 1);                                                      \
    VEC hit = lead & (IN(VEC, TYPE, next, 0x0080, 0x00BF) | IN(VEC, TYPE, next, 0x0104, 0x040F) | \
                      IN(VEC, TYPE, next, 0x0451, 0x2122));                                   \
    if (MASK(hit)) {                                                                          \
        hit &= WIDE_CONTINUATION(VEC, TYPE, next);                                            \
        VEC two_more = IN(VEC, TYPE, here, TWO_MORE_LATIN_LO, TWO_MORE_LATIN_HI) |            \
                       IN(VEC, TYPE, here, TWO_MORE_CYR_LO, TWO_MORE_CYR_HI);                 \
        VEC wants_two = hit & two_more;                                                       \
        if (MASK(wants_two)) {                                                                \
            VEC after = LOAD(VEC, chars + i + 2);                                             \
            hit &= ~two_more | WIDE_CONTINUATION(VEC, TYPE, after);                           \
        }                                                                                     \
    }                                                                                         \
    hit |= fffd

/* 1-byte strings (no U+FFFD; the only continuation characters up to U+00FF are U+0080-00BF). */
#define NARROW_BLOCK(TYPE, VEC, MASK)                                                         \
    VEC here = LOAD(VEC, chars + i);                                                          \
    VEC hit = IN(VEC, TYPE, here, LEAD_LATIN_LO, TWO_MORE_LATIN_HI);                          \
    if (!MASK(hit)) {                                                                         \
        continue;                                                                             \
    }                                                                                         \
    VEC next = LOAD(VEC, chars + i + 1);                                                      \
    hit &= IN(VEC, TYPE, next, 0x80, 0xBF);                                                   \
    if (MASK(hit)) {                                                                          \
        VEC two_more = IN(VEC, TYPE, here, TWO_MORE_LATIN_LO, TWO_MORE_LATIN_HI);             \
        VEC after = LOAD(VEC, chars + i + 2);                                                 \
        hit &= ~two_more | IN(VEC, TYPE, after, 0x80, 0xBF);                                  \
    }

SCANNER(wide2_16, , Py_UCS2, u16x8, MASK16, WIDE_BLOCK)
SCANNER(wide4_16, , Py_UCS4, u32x4, MASK16, WIDE_BLOCK)
SCANNER(narrow_16, , uint8_t, u8x16, MASK16, NARROW_BLOCK)
static scanner scan_narrow = narrow_16, scan_wide2 = wide2_16, scan_wide4 = wide4_16;

#if defined(__x86_64__) && !defined(_MSC_VER)
/* AVX2, when the CPU has it: blocks of 32 bytes. */
#define HAVE_AVX2_SCANNERS 1
#include <immintrin.h>
typedef uint8_t u8x32 __attribute__((vector_size(32)));
typedef uint16_t u16x16 __attribute__((vector_size(32)));
#define MASK32(v) ((uint32_t)_mm256_movemask_epi8((__m256i)(v)))
#define AVX2 __attribute__((target("avx2")))
SCANNER(wide2_32, AVX2, Py_UCS2, u16x16, MASK32, WIDE_BLOCK)
SCANNER(narrow_32, AVX2, uint8_t, u8x32, MASK32, NARROW_BLOCK)
#endif
#define CTZ(x) ((unsigned)__builtin_ctz(x))
#else /* no vector types: the exact test reads every character */
static uint32_t
no_blocks(const void *data, Py_ssize_t n, Py_ssize_t *at)
{
    (void)data;
    (void)n;
    (void)at;
    return 0;
}
static scanner scan_narrow = no_blocks, scan_wide2 = no_blocks, scan_wide4 = no_blocks;
#define CTZ(x) 0u /* (never called: no block is ever found) */
#endif

/* Use the AVX2 scanners (when built with them and the CPU has AVX2) or the 16-byte ones;
 * returns whether the AVX2 ones are in use. */
static int
choose_scanners(int avx2)
{
#ifdef HAVE_AVX2_SCANNERS
    __builtin_cpu_init();
    if (avx2 && __builtin_cpu_supports("avx2")) {
        scan_narrow = narrow_32;
        scan_wide2 = wide2_32;
        return 1;
    }
    scan_narrow = narrow_16;
    scan_wide2 = wide2_16;
#else
    (void)avx2;
#endif
    return 0;
}

/* 1 if the text is clean, 0 if it needs the exact inspection. With fffd = 0, U+FFFD does not
 * count: 1 then means only that the mojibake checks find nothing. */
static int
text_clean(PyObject *text, int fffd)
{
    if (PyUnicode_IS_ASCII(text)) {
        return 1;
    }
    const void *data = PyUnicode_DATA(text);
    const int kind = PyUnicode_KIND(text);
    const Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    scanner scan = kind == PyUnicode_1BYTE_KIND   ? scan_narrow
                   : kind == PyUnicode_2BYTE_KIND ? scan_wide2
                                                  : scan_wide4;
    Py_ssize_t i = 0;
    uint32_t bits;
    while ((bits = scan(data, n, &i)) != 0) {
        Py_ssize_t at = i; /* the block's start; each lane with its bits set needs the test */
        while (bits) {
            unsigned lane = CTZ(bits) / (unsigned)kind;
            bits &= ~(((1u << kind) - 1) << (lane * (unsigned)kind));
            i = at + lane + 1; /* (the next scan starts after the last lane tested) */
            if (suspect_at(kind, data, n, at + lane, fffd)) {
                return closer_look(text, kind, data, n, fffd);
            }
        }
    }
    EXACT(i, n);
    return 1;
}

/* Whether the dict's keys are the tuple's items, in order (identical, or equal strings). */
static int
same_keys(PyObject *item, PyObject *keys)
{
    if (keys == NULL || !PyTuple_Check(keys) || PyTuple_GET_SIZE(keys) != PyDict_GET_SIZE(item)) {
        return 0;
    }
    Py_ssize_t pos = 0, j = 0;
    PyObject *key, *value;
    while (PyDict_Next(item, &pos, &key, &value)) {
        PyObject *expected = PyTuple_GET_ITEM(keys, j++);
        if (key != expected &&
            !(PyUnicode_CheckExact(key) && PyUnicode_CheckExact(expected) &&
              PyUnicode_Compare(key, expected) == 0)) {
            return 0;
        }
    }
    return 1;
}

static PyObject *
dict_values_clean(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "configure() was not called");
        return NULL;
    }
    if (nargs < 1 || nargs > 2 || !PyDict_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "dict_values_clean(item: dict, keys: tuple = None)");
        return NULL;
    }
    PyObject *item = args[0];
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(item, &pos, &key, &value)) {
        if (!PyUnicode_Check(value) || !text_clean(value, 1)) {
            return PyLong_FromLong(0);
        }
    }
    return PyLong_FromLong(same_keys(item, nargs == 2 ? args[1] : NULL) ? 2 : 1);
}

/* text_clean for a Python caller: the argument checked, the verdict as a bool. */
static PyObject *
clean_verdict(PyObject *text, int fffd, const char *usage)
{
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "configure() was not called");
        return NULL;
    }
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, usage);
        return NULL;
    }
    return PyBool_FromLong(text_clean(text, fffd));
}

static PyObject *
str_clean(PyObject *module, PyObject *text)
{
    (void)module;
    return clean_verdict(text, 1, "text_clean(text: str)");
}

static PyObject *
str_mojibake_clean(PyObject *module, PyObject *text)
{
    (void)module;
    return clean_verdict(text, 0, "mojibake_clean(text: str)");
}

/* count_stretches(text, m): how many characters of misreading m's leads are followed by one of
 * its continuations, which is how many matches its pattern [leads][continuations]+ has. */
static PyObject *
count_stretches(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "configure() was not called");
        return NULL;
    }
    long m;
    if (nargs != 2 || !PyUnicode_Check(args[0]) || !PyLong_Check(args[1]) ||
        (m = PyLong_AsLong(args[1])) < 0 || m >= MAX_MISREADINGS) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "count_stretches(text: str, misreading: int)");
        }
        return NULL;
    }
    PyObject *text = args[0];
    Py_ssize_t count = 0;
    if (!PyUnicode_IS_ASCII(text)) {
        const unsigned char bit = (unsigned char)(1 << m);
        const int kind = PyUnicode_KIND(text);
        const void *data = PyUnicode_DATA(text);
        const Py_ssize_t n = PyUnicode_GET_LENGTH(text);
        for (Py_ssize_t i = 0; i + 1 < n; i++) {
            Py_UCS4 c = PyUnicode_READ(kind, data, i);
            if (c <= lead_hi && (leads[c] & bit)) {
                Py_UCS4 next = PyUnicode_READ(kind, data, i + 1);
                count += next < BMP && (continuations[next] & bit);
            }
        }
    }
    return PyLong_FromSsize_t(count);
}

static int
mark(PyObject *chars, unsigned char *table, unsigned char bit)
{
    if (!PyUnicode_Check(chars)) {
        PyErr_SetString(PyExc_TypeError, "character sets must be str");
        return -1;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(chars);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(chars, i);
        if (c >= BMP) {
            PyErr_SetString(PyExc_ValueError, "only BMP characters are supported");
            return -1;
        }
        table[c] |= bit;
        if (table == leads && c < lead_lo) {
            lead_lo = c;
        }
        if (table == leads && c > lead_hi) {
            lead_hi = c;
        }
    }
    return 0;
}

/* lengths[i]: the UTF-8 sequence length ('2' to '4') that lead_chars[i] stands for. */
static int
announce(PyObject *lead_chars, PyObject *lengths, int m)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(lead_chars);
    if (PyUnicode_GET_LENGTH(lengths) != n) {
        PyErr_SetString(PyExc_ValueError, "one length per lead character");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(lead_chars, i), length = PyUnicode_READ_CHAR(lengths, i);
        if (length < '2' || length > '4') {
            PyErr_SetString(PyExc_ValueError, "lengths are '2', '3' or '4'");
            return -1;
        }
        unsigned char need = (unsigned char)(length - '1');
        if (!announced[c] || need < announced[c]) {
            announced[c] = need;
        }
        announced_in[c] = (unsigned char)((announced_in[c] & ~(3 << (2 * m))) | (need << (2 * m)));
    }
    return 0;
}

/* Whether every configured character keeps to the block filter's ranges (see WIDE_BLOCKS). */
static int
within_block_ranges(void)
{
    for (Py_UCS4 c = 0; c < BMP; c++) {
        /* (up to U+00FF, the 1-byte scanner wants leads in [LEAD_LATIN_LO, TWO_MORE_LATIN_HI]) */
        int latin = c >= LEAD_LATIN_LO && c <= LEAD_LATIN_HI &&
                    (c > 0xFF || c <= TWO_MORE_LATIN_HI);
        int cyrillic = c >= LEAD_CYR_LO && c <= LEAD_CYR_HI;
        int two_more = (c >= TWO_MORE_LATIN_LO && c <= TWO_MORE_LATIN_HI) ||
                       (c >= TWO_MORE_CYR_LO && c <= TWO_MORE_CYR_HI);
        if (leads[c] && (!(latin || cyrillic) || (two_more && announced[c] < 2))) {
            return 0;
        }
        if (continuations[c] && !in_continuation_ranges(c)) {
            return 0;
        }
    }
    return 1;
}

static PyObject *
configure(PyObject *module, PyObject *misreadings)
{
    PyObject *sequence =
        PySequence_Fast(misreadings, "expected a sequence of (leads, continuations, lengths)");
    if (sequence == NULL) {
        return NULL;
    }
    Py_ssize_t count = PySequence_Fast_GET_SIZE(sequence);
    if (count > MAX_MISREADINGS) {
        Py_DECREF(sequence);
        PyErr_SetString(PyExc_ValueError, "too many misreadings");
        return NULL;
    }
    memset(leads, 0, sizeof(leads));
    memset(continuations, 0, sizeof(continuations));
    memset(announced, 0, sizeof(announced));
    memset(announced_in, 0, sizeof(announced_in));
    misreading_count = 0;
    lead_lo = BMP;
    lead_hi = 0;
    configured = 0;
    for (Py_ssize_t m = 0; m < count; m++) {
        PyObject *triple = PySequence_Fast_GET_ITEM(sequence, m);
        PyObject *lead_chars, *continuation_chars, *lengths;
        if (!PyArg_ParseTuple(triple, "UUU:configure", &lead_chars, &continuation_chars,
                              &lengths) ||
            mark(lead_chars, leads, (unsigned char)(1 << m)) < 0 ||
            mark(continuation_chars, continuations, (unsigned char)(1 << m)) < 0 ||
            announce(lead_chars, lengths, (int)m) < 0) {
            Py_DECREF(sequence);
            return NULL;
        }
    }
    Py_DECREF(sequence);
    misreading_count = (int)count;
    if (lead_hi < lead_lo) { /* no characters: an empty range at U+FFFF (never a lead) */
        lead_lo = lead_hi = BMP - 1;
    }
    if (!within_block_ranges()) {
        PyErr_SetString(PyExc_ValueError, "a character is outside the block filter's ranges");
        return NULL;
    }
    configured = 1;
    Py_RETURN_NONE;
}

static PyObject *
use_avx2(PyObject *module, PyObject *flag)
{
    (void)module;
    int wanted = PyObject_IsTrue(flag);
    if (wanted < 0) {
        return NULL;
    }
    return PyBool_FromLong(choose_scanners(wanted));
}

static PyMethodDef methods[] = {
    {"dict_values_clean", (PyCFunction)(void (*)(void))dict_values_clean, METH_FASTCALL,
     "dict_values_clean(item, keys=None): 0 unless every value of the dict is a str with no\n"
     "U+FFFD and no mojibake candidate; then 2 if its keys are the tuple keys, in order, else 1."},
    {"text_clean", str_clean, METH_O,
     "text_clean(text): True when the str holds no U+FFFD and no mojibake candidate."},
    {"mojibake_clean", str_mojibake_clean, METH_O,
     "mojibake_clean(text): True when the str holds no mojibake candidate (U+FFFD or not)."},
    {"count_stretches", (PyCFunction)(void (*)(void))count_stretches, METH_FASTCALL,
     "count_stretches(text, misreading): how many of the misreading's lead characters are\n"
     "followed by one of its continuation characters."},
    {"use_avx2", use_avx2, METH_O,
     "use_avx2(flag): scan 32-byte blocks with AVX2 when flag is true and the CPU has it, else\n"
     "16-byte blocks; returns whether AVX2 is in use (for tests: both give the same verdicts)."},
    {"configure", configure, METH_O,
     "Set the misreadings: a sequence of (lead characters, continuation characters, the\n"
     "UTF-8 length each lead character announces, as digits)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "scrapy_charset._text_speedups",
    .m_doc = "The item pipeline's clean-text check, compiled.",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC
PyInit__text_speedups(void)
{
    choose_scanners(1);
    return PyModule_Create(&module);
}
