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
/* The highest lead character (set by configure()): a character above it is no lead, and the
 * tables are never read beyond the BMP. */
static Py_UCS4 lead_hi = 0;
static int configured = 0;

/* The fewest continuation characters a lead character announces (1 to 3), over the
 * misreadings it is a lead of: a stretch needs that many after it to be a character. */
static unsigned char announced[BMP];
/* The same per misreading: bits 2m and 2m+1 hold what the character announces in misreading m. */
static unsigned char announced_in[BMP];
static int misreading_count = 0; /* how many were configured */
/* The byte each lead or continuation character of misreading m stands for (0: none). */
static unsigned char byte_of[MAX_MISREADINGS][BMP];

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

/* Whether a suspect is among characters [from, n), one at a time. */
static int
suspect_from(int kind, const void *data, Py_ssize_t n, Py_ssize_t from, int fffd)
{
    for (Py_ssize_t i = from; i < n; i++) {
        if (suspect_at(kind, data, n, i, fffd)) {
            return 1;
        }
    }
    return 0;
}

/* The block filter's ranges. A lead character is in [LEAD_LATIN_LO, LEAD_LATIN_HI] (Latin-1 and
 * Latin Extended-A: windows-1252 and windows-1250; up to U+00FF, in [LEAD_LATIN_LO,
 * NARROW_LEAD_HI]) or in [LEAD_CYR_LO, LEAD_CYR_HI] (windows-1251's В-я). A continuation
 * character is in one of CONTINUATION_RANGES: they leave out ASCII, the Latin-1 letters, а-я,
 * CJK and Hangul, so that genuine text in any script rarely has a lead before one.
 * configure() checks that the configured characters keep to these ranges, so a lane the
 * filter passes over is no suspect. */
#define LEAD_LATIN_LO 0x00C2
#define LEAD_LATIN_HI 0x0170
#define NARROW_LEAD_HI 0x00F4
#define LEAD_CYR_LO 0x0412
#define LEAD_CYR_HI 0x0444
#define CONT0_LO 0x0080
#define CONT0_HI 0x00BF
#define CONT1_LO 0x0104
#define CONT1_HI 0x040F
#define CONT2_LO 0x0451
#define CONT2_HI 0x2122
static const Py_UCS4 CONTINUATION_RANGES[][2] = {
    {CONT0_LO, CONT0_HI}, {CONT1_LO, CONT1_HI}, {CONT2_LO, CONT2_HI}};
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

/* A scanner says whether a text of one kind holds a suspect. It reads blocks of 16 or 32 bytes
 * and gives the exact test only the lanes of a block where a lead character comes before a
 * continuation character, or where U+FFFD is: one test per block, without a branch. The last
 * block ends at the last character but one, overlapping the one before (whose lanes it leaves
 * out); the last character has no lane (nothing comes after it), and shorter texts none: the
 * exact test reads those. With GCC/Clang vector types it compiles to SSE2 (or AVX2, chosen at
 * run time) or NEON code. */
typedef int (*scanner)(const void *data, Py_ssize_t n, int fffd);

#if defined(__GNUC__) || defined(__clang__)
typedef uint8_t u8x16 __attribute__((vector_size(16)));
typedef int8_t s8x16 __attribute__((vector_size(16)));
typedef uint16_t u16x8 __attribute__((vector_size(16)));
typedef int16_t s16x8 __attribute__((vector_size(16)));
typedef uint32_t u32x4 __attribute__((vector_size(16)));
typedef int32_t s32x4 __attribute__((vector_size(16)));

/* A constant the compiler keeps in a register (or on the stack) rather than building it again
 * in the loop each time (GCC rebuilds broadcast constants: half the loop's instructions). */
#if defined(__x86_64__) || defined(__i386__)
#define OPAQUE(x) ({ __typeof__(x) k_ = (x); __asm__("" : "+x"(k_)); k_; })
#elif defined(__aarch64__)
#define OPAQUE(x) ({ __typeof__(x) k_ = (x); __asm__("" : "+w"(k_)); k_; })
#else
#define OPAQUE(x) (x)
#endif

/* The range [lo, hi] as two constants of the scanner's types (lane_t, vec_t...) and IN(v, NAME),
 * its lanes of v (all bits set): v - lo moved into the signed range and compared once, as
 * vector units compare signed lanes only. */
#define SIGN ((lane_t)1 << (8 * sizeof(lane_t) - 1))
#define RANGE(NAME, lo, hi)                                                                   \
    const vec_t NAME##_lo = OPAQUE((vec_t){} + (lane_t)((lo) + SIGN));                       \
    const svec_t NAME##_n = OPAQUE((svec_t){} + (slane_t)(lane_t)((hi) - (lo) + 1 + SIGN))
#define IN(v, NAME) ((vec_t)((svec_t)((v) - NAME##_lo) < NAME##_n))

#define LOAD(from)                                                                            \
    ({                                                                                        \
        vec_t v_;                                                                             \
        memcpy(&v_, (from), sizeof(vec_t));                                                   \
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

/* Whether a suspect is in a lane of the block at `at` with its bits set in the mask. */
static inline int
suspect_in(uint32_t bits, int kind, const void *data, Py_ssize_t n, Py_ssize_t at, int fffd)
{
    while (bits) {
        unsigned lane = (unsigned)__builtin_ctz(bits) / (unsigned)kind;
        bits &= ~(((1u << kind) - 1) << (lane * (unsigned)kind));
        if (suspect_at(kind, data, n, at + lane, fffd)) {
            return 1;
        }
    }
    return 0;
}

/* 2- and 4-byte strings: a lead character before a continuation character, or U+FFFD. */
#define WIDE_RANGES                                                                           \
    RANGE(latin, LEAD_LATIN_LO, LEAD_LATIN_HI);                                               \
    RANGE(cyrillic, LEAD_CYR_LO, LEAD_CYR_HI);                                                \
    RANGE(cont0, CONT0_LO, CONT0_HI);                                                         \
    RANGE(cont1, CONT1_LO, CONT1_HI);                                                         \
    RANGE(cont2, CONT2_LO, CONT2_HI);                                                         \
    /* (fffd = 0: no lane is U+FFFD's, but U+FFFF's, which text hardly has) */                \
    const vec_t replacement = OPAQUE((vec_t){} + (lane_t)(fffd ? 0xFFFD : (lane_t)~0u))
#define WIDE_HITS(here, next)                                                                 \
    (((IN(here, latin) | IN(here, cyrillic)) &                                                \
      (IN(next, cont0) | IN(next, cont1) | IN(next, cont2))) |                                \
     (vec_t)(here == replacement))
/* 1-byte strings (no U+FFFD; the only continuation characters up to U+00FF are U+0080-00BF). */
#define NARROW_RANGES                                                                         \
    RANGE(latin, LEAD_LATIN_LO, NARROW_LEAD_HI);                                              \
    RANGE(cont0, CONT0_LO, CONT0_HI)
#define NARROW_HITS(here, next) (IN(here, latin) & IN(next, cont0))

/* A scanner over the blocks of one string kind (TYPES: its lane_t, slane_t, vec_t, svec_t);
 * HITS(here, next) gives the lanes needing the exact test from a block's characters (here)
 * and those after them (next), with the constants of RANGES. */
#define SCANNER(NAME, ATTR, TYPES, MASK, RANGES, HITS)                                        \
    ATTR static int NAME(const void *data, Py_ssize_t n, int fffd)                            \
    {                                                                                         \
        TYPES;                                                                                \
        RANGES;                                                                               \
        const lane_t *chars = (const lane_t *)data;                                           \
        const int kind = sizeof(lane_t);                                                      \
        const Py_ssize_t per_block = sizeof(vec_t) / kind;                                    \
        Py_ssize_t i = 0;                                                                     \
        for (; i + per_block < n; i += per_block) {                                           \
            uint32_t bits = MASK(HITS(LOAD(chars + i), LOAD(chars + i + 1)));                 \
            if (bits && suspect_in(bits, kind, data, n, i, fffd)) {                           \
                return 1;                                                                     \
            }                                                                                 \
        }                                                                                     \
        if (i < n - 1 && n > per_block) {                                                     \
            Py_ssize_t last = n - 1 - per_block; /* (its lanes before i are tested) */        \
            uint32_t bits = MASK(HITS(LOAD(chars + last), LOAD(chars + last + 1)));           \
            bits &= ~(uint32_t)0 << ((i - last) * kind);                                      \
            if (bits && suspect_in(bits, kind, data, n, last, fffd)) {                        \
                return 1;                                                                     \
            }                                                                                 \
            i = n - 1;                                                                        \
        }                                                                                     \
        return suspect_from(kind, data, n, i, fffd);                                          \
    }
#define LANES(TYPE, STYPE, VEC, SVEC)                                                         \
    typedef TYPE lane_t;                                                                      \
    typedef STYPE slane_t;                                                                    \
    typedef VEC vec_t;                                                                        \
    typedef SVEC svec_t

SCANNER(wide2_16, , LANES(Py_UCS2, int16_t, u16x8, s16x8), MASK16, WIDE_RANGES, WIDE_HITS)
SCANNER(wide4_16, , LANES(Py_UCS4, int32_t, u32x4, s32x4), MASK16, WIDE_RANGES, WIDE_HITS)
SCANNER(narrow_16, , LANES(uint8_t, int8_t, u8x16, s8x16), MASK16, NARROW_RANGES, NARROW_HITS)
static scanner scan_narrow = narrow_16, scan_wide2 = wide2_16, scan_wide4 = wide4_16;

#if defined(__x86_64__) && !defined(_MSC_VER)
/* AVX2, when the CPU has it: blocks of 32 bytes. */
#define HAVE_AVX2_SCANNERS 1
#include <immintrin.h>
typedef uint8_t u8x32 __attribute__((vector_size(32)));
typedef int8_t s8x32 __attribute__((vector_size(32)));
typedef uint16_t u16x16 __attribute__((vector_size(32)));
typedef int16_t s16x16 __attribute__((vector_size(32)));
#define MASK32(v) ((uint32_t)_mm256_movemask_epi8((__m256i)(v)))
#define AVX2 __attribute__((target("avx2")))
SCANNER(wide2_32, AVX2, LANES(Py_UCS2, int16_t, u16x16, s16x16), MASK32, WIDE_RANGES, WIDE_HITS)
SCANNER(narrow_32, AVX2, LANES(uint8_t, int8_t, u8x32, s8x32), MASK32, NARROW_RANGES, NARROW_HITS)
#endif
#else /* no vector types: the exact test reads every character */
#define EVERY_CHARACTER(NAME, KIND)                                                           \
    static int NAME(const void *data, Py_ssize_t n, int fffd)                                 \
    {                                                                                         \
        return suspect_from(KIND, data, n, 0, fffd);                                          \
    }
EVERY_CHARACTER(every1, PyUnicode_1BYTE_KIND)
EVERY_CHARACTER(every2, PyUnicode_2BYTE_KIND)
EVERY_CHARACTER(every4, PyUnicode_4BYTE_KIND)
static scanner scan_narrow = every1, scan_wide2 = every2, scan_wide4 = every4;
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

/* The last str (exactly) found unclean, for each value of fffd, held (a str does not change):
 * the pipeline's exact path asks again about the value that sent an item there, and a garbled
 * value costs a whole closer look. Only values up to HELD_LENGTH characters are held, so
 * that a huge garbled value (a page body in an item) is not kept alive after its item. */
static PyObject *last_unclean[2];
#define HELD_LENGTH 65536

/* 1 if the text is clean, 0 if it needs the exact inspection. With fffd = 0, U+FFFD does not
 * count: 1 then means only that the mojibake checks find nothing. */
static int
text_clean(PyObject *text, int fffd)
{
    if (PyUnicode_IS_ASCII(text)) {
        return 1;
    }
    if (text == last_unclean[fffd]) {
        return 0;
    }
    const void *data = PyUnicode_DATA(text);
    const int kind = PyUnicode_KIND(text);
    const Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    scanner scan = kind == PyUnicode_1BYTE_KIND   ? scan_narrow
                   : kind == PyUnicode_2BYTE_KIND ? scan_wide2
                                                  : scan_wide4;
    int clean = !scan(data, n, fffd) || closer_look(text, kind, data, n, fffd);
    if (!clean && PyUnicode_CheckExact(text) && n <= HELD_LENGTH) {
        Py_XSETREF(last_unclean[fffd], Py_NewRef(text));
    }
    return clean;
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

/* unclean_positions(d, keys): the positions of the values of the dict d that text_clean rejects,
 * in order, when d's keys are the tuple keys, in order, and each value is exactly a str; else
 * None. For the pipeline's items with damage: one call finds the values its exact checks need,
 * and the clean ones are not looked at again. */
static PyObject *
unclean_positions(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "configure() was not called");
        return NULL;
    }
    if (nargs != 2 || !PyDict_Check(args[0]) || !PyTuple_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "unclean_positions(item: dict, keys: tuple)");
        return NULL;
    }
    PyObject *item = args[0];
    if (!same_keys(item, args[1])) {
        Py_RETURN_NONE;
    }
    Py_ssize_t pos = 0, position = 0;
    PyObject *key, *value;
    while (PyDict_Next(item, &pos, &key, &value)) { /* every value a str first: no allocation */
        if (!PyUnicode_CheckExact(value)) {
            Py_RETURN_NONE;
        }
    }
    /* The positions are noted before any object is made: making one may run the garbage
       collector, and with it code that changes the dict. */
    Py_ssize_t small[64], count = 0, size = PyDict_GET_SIZE(item);
    Py_ssize_t *unclean = size <= 64 ? small : PyMem_New(Py_ssize_t, size);
    if (unclean == NULL) {
        return PyErr_NoMemory();
    }
    for (pos = 0; PyDict_Next(item, &pos, &key, &value); position++) {
        if (!text_clean(value, 1)) {
            unclean[count++] = position;
        }
    }
    PyObject *found = PyList_New(count);
    for (Py_ssize_t k = 0; found != NULL && k < count; k++) {
        PyObject *index = PyLong_FromSsize_t(unclean[k]);
        if (index == NULL) {
            Py_CLEAR(found);
            break;
        }
        PyList_SET_ITEM(found, k, index);
    }
    if (unclean != small) {
        PyMem_Free(unclean);
    }
    return found;
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

/* The misreading m of a Python call (text: str, misreading: int), or -1 with an exception set. */
static long
misreading_argument(PyObject *const *args, Py_ssize_t nargs, const char *usage)
{
    long m;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "configure() was not called");
        return -1;
    }
    if (nargs != 2 || !PyUnicode_Check(args[0]) || !PyLong_Check(args[1]) ||
        (m = PyLong_AsLong(args[1])) < 0 || m >= MAX_MISREADINGS) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, usage);
        }
        return -1;
    }
    return m;
}

/* stretch_counts(text): for each misreading m, how many characters of its leads are followed by
 * one of its continuations, which is how many matches its pattern [leads][continuations]+ has:
 * one pass for all of them. */
static PyObject *
stretch_counts(PyObject *module, PyObject *text)
{
    (void)module;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "configure() was not called");
        return NULL;
    }
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, "stretch_counts(text: str)");
        return NULL;
    }
    Py_ssize_t counts[MAX_MISREADINGS] = {0};
    if (!PyUnicode_IS_ASCII(text)) {
        const int kind = PyUnicode_KIND(text);
        const void *data = PyUnicode_DATA(text);
        const Py_ssize_t n = PyUnicode_GET_LENGTH(text);
        for (Py_ssize_t i = 0; i + 1 < n; i++) {
            Py_UCS4 c = PyUnicode_READ(kind, data, i);
            if (c <= lead_hi && leads[c]) {
                Py_UCS4 next = PyUnicode_READ(kind, data, i + 1);
                unsigned bits = next < BMP ? leads[c] & continuations[next] : 0;
                for (int m = 0; bits; m++, bits >>= 1) {
                    counts[m] += bits & 1;
                }
            }
        }
    }
    PyObject *found = PyTuple_New(misreading_count);
    for (int m = 0; found != NULL && m < misreading_count; m++) {
        PyObject *count = PyLong_FromSsize_t(counts[m]);
        if (count == NULL) {
            Py_CLEAR(found);
            break;
        }
        PyTuple_SET_ITEM(found, m, count);
    }
    return found;
}

/* What the characters [first, end) of misreading m (its byte table) read as in UTF-8: a new
 * str, or a new reference to None when their bytes are not valid UTF-8; NULL on error. */
static PyObject *
region_text(const unsigned char *table, int kind, const void *data, Py_ssize_t first,
            Py_ssize_t end)
{
    char small[256];
    small[0] = 0;
    char *bytes = end - first <= (Py_ssize_t)sizeof(small) ? small : PyMem_Malloc(end - first);
    if (bytes == NULL) {
        return PyErr_NoMemory();
    }
    for (Py_ssize_t k = first; k < end; k++) {
        bytes[k - first] = (char)table[PyUnicode_READ(kind, data, k)];
    }
    PyObject *decoded = PyUnicode_DecodeUTF8(bytes, end - first, "strict");
    if (bytes != small) {
        PyMem_Free(bytes);
    }
    if (decoded == NULL && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
        PyErr_Clear();
        decoded = Py_NewRef(Py_None);
    }
    return decoded;
}

/* The next region of misreading m (bit) from index *at: in the next run of its lead and
 * continuation characters (no character is both) that holds one, from the first lead character
 * to the last continuation character after it. 1 with [*first, *end) set and *at past the run,
 * or 0 when none is left. */
static int
next_region(unsigned char bit, int kind, const void *data, Py_ssize_t n, Py_ssize_t *at,
            Py_ssize_t *first_out, Py_ssize_t *end_out)
{
    Py_ssize_t first = -1, last = -1; /* in the run so far: its first lead, its last continuation */
    for (Py_ssize_t i = *at; i <= n; i++) {
        Py_UCS4 c = i < n ? PyUnicode_READ(kind, data, i) : 0; /* (0: the last run ends) */
        int lead = c <= lead_hi && (leads[c] & bit);
        if (lead || (c < BMP && (continuations[c] & bit))) {
            if (lead && first < 0) {
                first = i;
            } else if (!lead && first >= 0) {
                last = i;
            }
            continue;
        }
        if (last > first) {
            *at = i + 1;
            *first_out = first;
            *end_out = last + 1;
            return 1;
        }
        first = last = -1;
    }
    *at = n + 1;
    return 0;
}

/* decoded_regions(text, m, start): [(start, end, decoded), ...], in order, for the first
 * REGION_BATCH matches from index start of misreading m's pattern
 * [leads][leads|continuations]*[continuations]: in each run of its lead and continuation
 * characters (no character is both), from the first lead character to the last continuation
 * character after it. decoded is what the region's bytes read as in UTF-8, or None when they
 * are not valid UTF-8 (as quality._decoded). A batch at a time: a huge garbled text costs
 * no memory per region. */
#define REGION_BATCH 64
static PyObject *
decoded_regions(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    const char *usage = "decoded_regions(text: str, misreading: int, start: int)";
    Py_ssize_t from;
    long m = misreading_argument(args, nargs < 3 ? nargs : 2, usage);
    if (m < 0) {
        return NULL;
    }
    if (nargs != 3 || !PyLong_Check(args[2]) || (from = PyLong_AsSsize_t(args[2])) < 0) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, usage);
        }
        return NULL;
    }
    PyObject *text = args[0], *regions = PyList_New(0);
    if (regions == NULL || PyUnicode_IS_ASCII(text)) {
        return regions;
    }
    const unsigned char bit = (unsigned char)(1 << m);
    const int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    const Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    Py_ssize_t first, end;
    while (PyList_GET_SIZE(regions) < REGION_BATCH &&
           next_region(bit, kind, data, n, &from, &first, &end)) {
        PyObject *decoded = region_text(byte_of[m], kind, data, first, end);
        PyObject *region = decoded == NULL ? NULL : Py_BuildValue("(nnN)", first, end, decoded);
        if (region == NULL || PyList_Append(regions, region) < 0) {
            Py_XDECREF(region);
            Py_DECREF(regions);
            return NULL;
        }
        Py_DECREF(region);
    }
    return regions;
}

/* tally(text, m): what quality._tally_python gives for misreading m (the characters its kept
 * repairs give, the characters they take, the stretches that are not UTF-8), in one pass over
 * the regions of decoded_regions (one that is not valid UTF-8 or reads as a character that is
 * not text is taken stretch by stretch: asked of quality._stretches_at), or None where too
 * many weak candidates wait: quality then counts. The rules on characters stay in Python (set
 * with configure_rules): _is_text (remembered here per BMP character), and _strong and
 * _starts_a_word, asked only where they decide. The steps follow quality._candidates, _judged
 * and _kept. */
static PyObject *rule_is_text, *rule_strong, *rule_starts_a_word, *rule_names, *rule_stretches;
static unsigned char text_known[BMP]; /* 0: not asked yet, 1: text, 2: not text */

/* quality._is_text(c), or -1 with an exception set. */
static int
is_text_char(Py_UCS4 c)
{
    if (c < BMP && text_known[c]) {
        return text_known[c] == 1;
    }
    PyObject *one = PyUnicode_FromOrdinal((int)c);
    PyObject *verdict = one == NULL ? NULL : PyObject_CallOneArg(rule_is_text, one);
    Py_XDECREF(one);
    int yes = verdict == NULL ? -1 : PyObject_IsTrue(verdict);
    Py_XDECREF(verdict);
    if (yes >= 0 && c < BMP) {
        text_known[c] = yes ? 1 : 2;
    }
    return yes;
}

/* The character the UTF-8 sequence at bytes[*at] stands for, *at moved past it; -1 when the
 * bytes there are not strict UTF-8 (as Python's decoder: no overlong form, surrogate, truncated
 * sequence or code point beyond U+10FFFF). */
static long
utf8_next(const unsigned char *bytes, Py_ssize_t size, Py_ssize_t *at)
{
    const unsigned char *b = bytes + *at;
    Py_ssize_t left = size - *at;
    unsigned char lo = 0x80, hi = 0xBF; /* the second byte's range */
    int length;
    if (b[0] < 0x80) {
        *at += 1;
        return b[0];
    } else if (b[0] >= 0xC2 && b[0] <= 0xDF) {
        length = 2;
    } else if (b[0] >= 0xE0 && b[0] <= 0xEF) {
        length = 3;
        lo = b[0] == 0xE0 ? 0xA0 : 0x80;
        hi = b[0] == 0xED ? 0x9F : 0xBF;
    } else if (b[0] >= 0xF0 && b[0] <= 0xF4) {
        length = 4;
        lo = b[0] == 0xF0 ? 0x90 : 0x80;
        hi = b[0] == 0xF4 ? 0x8F : 0xBF;
    } else {
        return -1;
    }
    if (left < length || b[1] < lo || b[1] > hi) {
        return -1;
    }
    long c = b[0] & (0xFF >> (length + 1));
    for (int k = 1; k < length; k++) {
        if (k > 1 && (b[k] < 0x80 || b[k] > 0xBF)) {
            return -1;
        }
        c = (c << 6) | (b[k] & 0x3F);
    }
    *at += length;
    return c;
}

/* The region [first, end) of misreading m as tally wants it: how many characters its bytes
 * read as in UTF-8 (0: they are not valid UTF-8; -1: an exception), *alone the character when
 * only one, and whether all of them are text (*text_ok, asked only for two or more). */
static Py_ssize_t
region_reading(long m, int kind, const void *data, Py_ssize_t first, Py_ssize_t end,
               Py_UCS4 *alone, int *text_ok)
{
    unsigned char small[256];
    Py_ssize_t size = end - first;
    unsigned char *bytes = size <= (Py_ssize_t)sizeof(small) ? small : PyMem_Malloc(size);
    if (bytes == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t k = first; k < end; k++) {
        bytes[k - first] = byte_of[m][PyUnicode_READ(kind, data, k)];
    }
    Py_ssize_t count = 0, at = 0;
    long c = 0;
    while (at < size && (c = utf8_next(bytes, size, &at)) >= 0) {
        *alone = (Py_UCS4)c;
        count++;
    }
    *text_ok = 1;
    if (c < 0) {
        count = 0;
    } else if (count > 1) { /* (a second walk: most regions are short words) */
        for (at = 0; at < size && *text_ok > 0;) {
            *text_ok = is_text_char((Py_UCS4)utf8_next(bytes, size, &at));
        }
        count = *text_ok < 0 ? -1 : count;
    }
    if (bytes != small) {
        PyMem_Free(bytes);
    }
    return count;
}

/* A Python rule's verdict as 0 or 1 (-1: an exception); the call's arguments are stolen. */
static int
ask(PyObject *rule, PyObject *args)
{
    PyObject *verdict = args == NULL ? NULL : PyObject_Call(rule, args, NULL);
    Py_XDECREF(args);
    int yes = verdict == NULL ? -1 : PyObject_IsTrue(verdict);
    Py_XDECREF(verdict);
    return yes;
}

typedef struct {
    Py_ssize_t start, end, repaired; /* the stretch [start, end), the characters it repairs to */
    Py_UCS4 alone;                   /* the character it repairs to, when only one */
} candidate;

#define NEAR 12       /* quality.NEAR */
#define MAX_WAITING 16 /* weak candidates within NEAR of the last one: at most 7 */

typedef struct {
    PyObject *text;
    int kind;
    const void *data;
    Py_ssize_t n, count, explained;
    candidate waiting[MAX_WAITING]; /* _kept's weak candidates after the last strong one */
    int waiting_from, waiting_to;
    Py_ssize_t strong_end;
} kept_state;

static void
keep(kept_state *st, candidate c)
{
    st->count += c.repaired;
    st->explained += c.end - c.start;
}

/* quality._near: within NEAR characters, with no newline between. */
static int
near(kept_state *st, Py_ssize_t end, Py_ssize_t start)
{
    if (end + NEAR < start) {
        return 0;
    }
    for (Py_ssize_t i = end; i < start; i++) {
        if (PyUnicode_READ(st->kind, st->data, i) == '\n') {
            return 0;
        }
    }
    return 1;
}

/* _kept's step for one judged candidate; -1 when too many weak ones wait (then None). */
static int
judged(kept_state *st, candidate c, int strong)
{
    if (strong) {
        for (; st->waiting_from < st->waiting_to; st->waiting_from++) {
            candidate weak = st->waiting[st->waiting_from];
            if (near(st, weak.end, c.start)) {
                keep(st, weak);
            }
        }
        st->waiting_from = st->waiting_to = 0;
        st->strong_end = c.end;
        keep(st, c);
    } else if (st->strong_end >= 0 && near(st, st->strong_end, c.start)) {
        keep(st, c);
    } else {
        while (st->waiting_from < st->waiting_to &&
               st->waiting[st->waiting_from].end + NEAR < c.start) {
            st->waiting_from++;
        }
        if (st->waiting_from == st->waiting_to) {
            st->waiting_from = st->waiting_to = 0;
        }
        if (st->waiting_to == MAX_WAITING && st->waiting_from > 0) {
            st->waiting_to -= st->waiting_from;
            memmove(st->waiting, st->waiting + st->waiting_from,
                    (size_t)st->waiting_to * sizeof(candidate));
            st->waiting_from = 0;
        }
        if (st->waiting_to == MAX_WAITING) {
            return -1;
        }
        st->waiting[st->waiting_to++] = c;
    }
    return 0;
}

/* text[i] as a str, or " " outside the text (as quality._strong takes it). */
static PyObject *
neighbour(kept_state *st, Py_ssize_t i)
{
    if (i < 0 || i >= st->n) {
        return PyUnicode_FromOrdinal(' ');
    }
    return PyUnicode_Substring(st->text, i, i + 1);
}

/* _judged's verdict on a lone candidate: quality._strong (its _strong_between, asked of Python
 * with the stretch, its repair, the misreading's name and the characters around it). */
static int
ask_strong(kept_state *st, candidate c, long m)
{
    PyObject *args[5] = {
        PyUnicode_Substring(st->text, c.start, c.end),
        PyUnicode_FromOrdinal((int)c.alone),
        Py_NewRef(PyTuple_GET_ITEM(rule_names, m)),
        neighbour(st, c.start - 1),
        neighbour(st, c.end),
    };
    int yes = -1;
    if (args[0] && args[1] && args[3] && args[4]) {
        PyObject *verdict = PyObject_Vectorcall(rule_strong, args, 5, NULL);
        yes = verdict == NULL ? -1 : PyObject_IsTrue(verdict);
        Py_XDECREF(verdict);
    }
    for (int k = 0; k < 5; k++) {
        Py_XDECREF(args[k]);
    }
    return yes;
}

/* Verdicts of ask_strong already given, by what decides them: the misreading, the stretch (2 to
 * 4 characters, which give the repair) and the characters before and after it (' ' outside
 * the text). One place per hash; a collision replaces the older verdict. */
#define STRONG_SLOTS 4096
typedef struct {
    Py_UCS4 key[6]; /* before, the stretch's characters (0 past its end), after */
    unsigned char m, strong, used;
} strong_slot;
static strong_slot strong_seen[STRONG_SLOTS];

static int
strong_alone(kept_state *st, candidate c, long m)
{
    if (c.end - c.start > 4) { /* (one UTF-8 sequence: never) */
        return ask_strong(st, c, m);
    }
    strong_slot probe = {{0}, (unsigned char)m, 0, 1};
    probe.key[0] = c.start > 0 ? PyUnicode_READ(st->kind, st->data, c.start - 1) : ' ';
    probe.key[5] = c.end < st->n ? PyUnicode_READ(st->kind, st->data, c.end) : ' ';
    uint32_t hash = (uint32_t)m * 0x9E3779B1u ^ probe.key[0] * 0x85EBCA77u ^ probe.key[5];
    for (Py_ssize_t i = c.start; i < c.end; i++) {
        probe.key[1 + i - c.start] = PyUnicode_READ(st->kind, st->data, i);
        hash = (hash ^ probe.key[1 + i - c.start]) * 0x01000193u;
    }
    strong_slot *slot = &strong_seen[(hash ^ (hash >> 15)) % STRONG_SLOTS];
    if (slot->used && slot->m == probe.m && memcmp(slot->key, probe.key, sizeof(probe.key)) == 0) {
        return slot->strong;
    }
    int yes = ask_strong(st, c, m);
    if (yes >= 0) {
        probe.strong = (unsigned char)yes;
        *slot = probe;
    }
    return yes;
}

/* _judged's run: the first lone candidate of a run until a second one joins it, whether a run
 * of adjacent text candidates is under way, and where the last candidate ended. */
typedef struct {
    candidate pending;
    int has_pending, in_run;
    Py_ssize_t end;
} run_state;

/* A candidate that repairs to one character, judged as quality._judged does (-1: an exception
 * or too many weak candidates waiting). */
static int
judge_one(kept_state *st, run_state *run, candidate c, long m)
{
    int is_text = is_text_char(c.alone);
    if (is_text < 0) {
        return -1;
    }
    if (c.start != run->end || !is_text) { /* the run before ends here */
        if (run->has_pending) {
            int strong = strong_alone(st, run->pending, m);
            if (strong < 0 || judged(st, run->pending, strong) < 0) {
                return -1;
            }
        }
        run->has_pending = run->in_run = 0;
    }
    run->end = c.end;
    if (!is_text) {
        return judged(st, c, 0);
    }
    if (run->in_run) {
        return judged(st, c, 1);
    }
    if (!run->has_pending) {
        run->pending = c;
        run->has_pending = 1;
        return 0;
    }
    run->has_pending = 0;
    run->in_run = 1;
    return judged(st, run->pending, 1) < 0 ? -1 : judged(st, c, 1);
}

/* Whether text[first:last] is one lead and fewer continuation characters than the lead
 * announces ("â€" before a space: a right double quote whose last byte windows-1252 lacks):
 * the one stretch quality._stretches finds there, which is not UTF-8. */
static int
cut_short(long m, int kind, const void *data, Py_ssize_t first, Py_ssize_t last)
{
    Py_UCS4 lead = PyUnicode_READ(kind, data, first);
    if (lead >= BMP || !(leads[lead] >> m & 1) ||
        last - first > (announced_in[lead] >> (2 * m) & 3)) { /* (as many as it announces) */
        return 0;
    }
    for (Py_ssize_t k = first + 1; k < last; k++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, k);
        if (c >= BMP || !(continuations[c] >> m & 1)) {
            return 0;
        }
    }
    return 1;
}

/* The stretches of text[first:last] one by one (quality._stretches_at), each judged; the
 * stretches that are not UTF-8 added to *not_utf8. -1: an exception or too many waiting. */
static int
judge_stretches(kept_state *st, run_state *run, Py_ssize_t first, Py_ssize_t last, long m,
                Py_ssize_t *not_utf8)
{
    PyObject *found = PyObject_CallFunction(rule_stretches, "Onnl", st->text, first, last, m);
    if (found == NULL) {
        return -1;
    }
    PyObject *stretches = PyTuple_Check(found) && PyTuple_GET_SIZE(found) == 2
                              ? PyTuple_GET_ITEM(found, 0) : NULL;
    Py_ssize_t failed = stretches == NULL ? -1 : PyLong_AsSsize_t(PyTuple_GET_ITEM(found, 1));
    if (stretches == NULL || !PyList_Check(stretches) || failed < 0) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "stretches: (list of (start, end, char), count)");
        }
        Py_DECREF(found);
        return -1;
    }
    *not_utf8 += failed;
    int status = 0;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(stretches) && status == 0; k++) {
        Py_ssize_t start, end;
        PyObject *repaired;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(stretches, k), "nnU", &start, &end, &repaired) ||
            PyUnicode_GET_LENGTH(repaired) != 1) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_TypeError, "stretches: one character each");
            }
            status = -1;
            break;
        }
        candidate c = {start, end, 1, PyUnicode_READ_CHAR(repaired, 0)};
        status = judge_one(st, run, c, m);
    }
    Py_DECREF(found);
    return status;
}

static PyObject *
tally(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    long m = misreading_argument(args, nargs, "tally(text: str, misreading: int)");
    if (m < 0) {
        return NULL;
    }
    if (rule_names == NULL || m >= PyTuple_GET_SIZE(rule_names)) {
        PyErr_SetString(rule_names == NULL ? PyExc_RuntimeError : PyExc_ValueError,
                        rule_names == NULL ? "configure_rules() was not called"
                                           : "no such misreading");
        return NULL;
    }
    PyObject *text = args[0];
    kept_state st = {.text = text, .kind = PyUnicode_KIND(text), .data = PyUnicode_DATA(text),
                     .n = PyUnicode_GET_LENGTH(text), .strong_end = -1};
    const unsigned char bit = (unsigned char)(1 << m);
    run_state run = {.end = -1};
    int failed = 0;
    Py_ssize_t at = 0, first, last, not_utf8 = 0;
    while (!failed && next_region(bit, st.kind, st.data, st.n, &at, &first, &last)) {
        Py_UCS4 repaired = 0;
        int text_ok = 0;
        Py_ssize_t length = region_reading(m, st.kind, st.data, first, last, &repaired, &text_ok);
        if (length < 0) {
            return NULL;
        }
        if (length == 0 && cut_short(m, st.kind, st.data, first, last)) {
            not_utf8++; /* (the common case of a region taken stretch by stretch) */
            continue;
        }
        if (length == 0 || !text_ok) { /* taken stretch by stretch */
            failed = judge_stretches(&st, &run, first, last, m, &not_utf8) < 0;
            continue;
        }
        if (last - first == 2 && PyUnicode_READ(st.kind, st.data, first) >= 0x0400) {
            /* (_starts_a_word wants a Cyrillic capital first: no character below U+0400 is) */
            int starts = ask(rule_starts_a_word, Py_BuildValue("(Onl)", text, first, m));
            if (starts < 0) {
                return NULL;
            }
            if (starts) {
                continue;
            }
        }
        candidate c = {first, last, length, repaired};
        if (length > 1) { /* a whole mis-decoded word */
            if (run.has_pending) {
                int strong = strong_alone(&st, run.pending, m);
                failed = strong < 0 || judged(&st, run.pending, strong) < 0;
            }
            run.has_pending = run.in_run = 0;
            run.end = c.end;
            failed = failed || judged(&st, c, 1) < 0;
            continue;
        }
        failed = judge_one(&st, &run, c, m) < 0;
    }
    if (!failed && run.has_pending) {
        int strong = strong_alone(&st, run.pending, m);
        failed = strong < 0 || judged(&st, run.pending, strong) < 0;
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (failed) {
        Py_RETURN_NONE;
    }
    return Py_BuildValue("(nnn)", st.count, st.explained, not_utf8);
}

/* configure_rules(is_text, strong_between, starts_a_word, names, stretches): quality's rules for
 * tally, the misreadings' names (as configure() numbers them), and quality._stretches_at. */
static PyObject *
configure_rules(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 5 || !PyCallable_Check(args[0]) || !PyCallable_Check(args[1]) ||
        !PyCallable_Check(args[2]) || !PyTuple_CheckExact(args[3]) ||
        PyTuple_GET_SIZE(args[3]) != misreading_count || !PyCallable_Check(args[4])) {
        PyErr_SetString(PyExc_TypeError,
                        "configure_rules(is_text, strong_between, starts_a_word, names: tuple, "
                        "stretches) after configure(), one name per misreading");
        return NULL;
    }
    Py_XSETREF(rule_is_text, Py_NewRef(args[0]));
    Py_XSETREF(rule_strong, Py_NewRef(args[1]));
    Py_XSETREF(rule_starts_a_word, Py_NewRef(args[2]));
    Py_XSETREF(rule_names, Py_NewRef(args[3]));
    Py_XSETREF(rule_stretches, Py_NewRef(args[4]));
    memset(text_known, 0, sizeof(text_known));
    memset(strong_seen, 0, sizeof(strong_seen));
    Py_RETURN_NONE;
}

/* misreading m's characters and the bytes they stand for (str and bytes of one length). */
static int
set_bytes(PyObject *chars, PyObject *bytes, int m)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(chars);
    if (!PyBytes_Check(bytes) || PyBytes_GET_SIZE(bytes) != n) {
        PyErr_SetString(PyExc_ValueError, "one byte per character");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(chars, i);
        if (c >= BMP) {
            PyErr_SetString(PyExc_ValueError, "only BMP characters are supported");
            return -1;
        }
        byte_of[m][c] = (unsigned char)PyBytes_AS_STRING(bytes)[i];
    }
    return 0;
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

/* Whether every configured character keeps to the block filter's ranges (see WIDE_HITS). */
static int
within_block_ranges(void)
{
    for (Py_UCS4 c = 0; c < BMP; c++) {
        /* (up to U+00FF, the 1-byte scanner wants leads in [LEAD_LATIN_LO, NARROW_LEAD_HI]) */
        int latin = c >= LEAD_LATIN_LO && c <= LEAD_LATIN_HI && (c > 0xFF || c <= NARROW_LEAD_HI);
        int cyrillic = c >= LEAD_CYR_LO && c <= LEAD_CYR_HI;
        if (leads[c] && !(latin || cyrillic)) {
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
    memset(byte_of, 0, sizeof(byte_of));
    misreading_count = 0;
    lead_hi = 0;
    configured = 0;
    Py_CLEAR(last_unclean[0]); /* (verdicts under the old sets) */
    Py_CLEAR(last_unclean[1]);
    memset(strong_seen, 0, sizeof(strong_seen));
    for (Py_ssize_t m = 0; m < count; m++) {
        PyObject *triple = PySequence_Fast_GET_ITEM(sequence, m);
        PyObject *lead_chars, *continuation_chars, *lengths, *chars, *bytes;
        if (!PyArg_ParseTuple(triple, "UUUUO:configure", &lead_chars, &continuation_chars,
                              &lengths, &chars, &bytes) ||
            mark(lead_chars, leads, (unsigned char)(1 << m)) < 0 ||
            mark(continuation_chars, continuations, (unsigned char)(1 << m)) < 0 ||
            announce(lead_chars, lengths, (int)m) < 0 || set_bytes(chars, bytes, (int)m) < 0) {
            Py_DECREF(sequence);
            return NULL;
        }
    }
    Py_DECREF(sequence);
    misreading_count = (int)count;
    if (!within_block_ranges()) {
        PyErr_SetString(PyExc_ValueError, "a character is outside the block filter's ranges");
        return NULL;
    }
    configured = 1;
    Py_RETURN_NONE;
}

/* instance_values(item, names): the instance dict of item when getattr(item, name) reads each
 * name from it, as ItemAdapter reads a dataclass or attrs item's fields: the dict holds exactly
 * the names (a tuple of str), the class has the default attribute lookup and no data
 * descriptor (a property, a slot) of any of them. Else None. Read on each call, so that a
 * property or hook added to the class at any time is seen (the type's attribute cache keeps
 * the look-ups cheap). */
static PyObject *
instance_values(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2 || !PyTuple_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "instance_values(item, names: tuple)");
        return NULL;
    }
    PyObject *item = args[0], *names = args[1];
    PyTypeObject *type = Py_TYPE(item);
    if (type->tp_getattro != PyObject_GenericGetAttr) {
        Py_RETURN_NONE;
    }
    PyObject *values = PyObject_GenericGetDict(item, NULL);
    if (values == NULL) { /* no instance dict (a slotted class) */
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    /* Held while looking: a key's __eq__ (user code, in PyDict_Contains) may reassign
       item.__class__ and let the old class go. */
    Py_INCREF(type);
    Py_ssize_t count = PyTuple_GET_SIZE(names);
    int plain = PyDict_CheckExact(values) && PyDict_GET_SIZE(values) == count;
    for (Py_ssize_t k = 0; plain == 1 && k < count; k++) {
        PyObject *name = PyTuple_GET_ITEM(names, k);
        PyObject *attr = PyUnicode_CheckExact(name) ? _PyType_Lookup(type, name) : NULL;
        plain = attr == NULL ? PyUnicode_CheckExact(name) : Py_TYPE(attr)->tp_descr_set == NULL;
        if (plain) {
            plain = PyDict_Contains(values, name); /* -1: a key's __eq__ raised */
        }
    }
    Py_DECREF(type);
    if (plain != 1) {
        Py_DECREF(values);
        if (plain < 0) {
            return NULL;
        }
        Py_RETURN_NONE;
    }
    return values;
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
    {"unclean_positions", (PyCFunction)(void (*)(void))unclean_positions, METH_FASTCALL,
     "unclean_positions(item, keys): the positions of the values text_clean rejects, in order,\n"
     "when the dict's keys are the tuple keys, in order, and every value is exactly a str;\n"
     "else None."},
    {"text_clean", str_clean, METH_O,
     "text_clean(text): True when the str holds no U+FFFD and no mojibake candidate."},
    {"mojibake_clean", str_mojibake_clean, METH_O,
     "mojibake_clean(text): True when the str holds no mojibake candidate (U+FFFD or not)."},
    {"stretch_counts", stretch_counts, METH_O,
     "stretch_counts(text): for each misreading, how many of its lead characters are followed\n"
     "by one of its continuation characters."},
    {"instance_values", (PyCFunction)(void (*)(void))instance_values, METH_FASTCALL,
     "instance_values(item, names): the item's instance dict when getattr reads each name\n"
     "(a tuple of str) from it and it holds exactly those names; else None."},
    {"decoded_regions", (PyCFunction)(void (*)(void))decoded_regions, METH_FASTCALL,
     "decoded_regions(text, misreading, start): [(start, end, decoded or None), ...] for the\n"
     "first 64 matches from start of the misreading's pattern\n"
     "[leads][leads|continuations]*[continuations], in order."},
    {"tally", (PyCFunction)(void (*)(void))tally, METH_FASTCALL,
     "tally(text, misreading): (characters repaired, characters they take, stretches not\n"
     "UTF-8) for the misreading's kept repairs, or None where too many weak ones wait."},
    {"configure_rules", (PyCFunction)(void (*)(void))configure_rules, METH_FASTCALL,
     "configure_rules(is_text, strong_between, starts_a_word, names, stretches): quality's\n"
     "rules on characters, the misreadings' names and its stretches of a region, for tally."},
    {"use_avx2", use_avx2, METH_O,
     "use_avx2(flag): scan 32-byte blocks with AVX2 when flag is true and the CPU has it, else\n"
     "16-byte blocks; returns whether AVX2 is in use (for tests: both give the same verdicts)."},
    {"configure", configure, METH_O,
     "Set the misreadings: a sequence of (lead characters, continuation characters, the\n"
     "UTF-8 length each lead character announces, as digits, characters, the bytes they\n"
     "stand for)."},
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
