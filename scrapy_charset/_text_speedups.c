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
static Py_UCS4 lead_lo = BMP, lead_hi = 0, cont_lo = BMP, cont_hi = 0;
static int configured = 0;

/* The fewest continuation characters a lead character announces (1 to 3), over the
 * misreadings it is a lead of: a stretch needs that many after it to be a character. */
static unsigned char announced[BMP];
/* The same per misreading: bits 2m and 2m+1 hold what the character announces in misreading m. */
static unsigned char announced_in[BMP];
static int misreading_count = 0; /* how many were configured */

/* Whether text[i] is U+FFFD or a lead character followed by as many continuation characters
 * of the same misreading as it announces: the exact test, one character at a time. */
static inline int
suspect_at(int kind, const void *data, Py_ssize_t n, Py_ssize_t i)
{
    Py_UCS4 c = PyUnicode_READ(kind, data, i);
    if (c == 0xFFFD) {
        return 1;
    }
    if (c > lead_hi || !leads[c] || i + announced[c] >= n) {
        return 0;
    }
    unsigned char bits = leads[c];
    for (Py_ssize_t k = 1; k <= announced[c] && bits; k++) {
        Py_UCS4 next = PyUnicode_READ(kind, data, i + k);
        bits = next < BMP ? bits & continuations[next] : 0;
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

/* After a suspect: clean only without U+FFFD and with every misreading explaining little. */
static int
closer_look(PyObject *text, int kind, const void *data, Py_ssize_t n)
{
    return PyUnicode_FindChar(text, 0xFFFD, 0, n, 1) == -1 && explained_in_part(kind, data, n);
}

/* The exact test over characters [from, to): on a suspect, the caller returns the closer look. */
#define EXACT(from, to)                                                                       \
    do {                                                                                      \
        for (Py_ssize_t j_ = (from); j_ < (to); j_++) {                                       \
            if (suspect_at(kind, data, n, j_)) {                                              \
                return closer_look(text, kind, data, n);                                      \
            }                                                                                 \
        }                                                                                     \
    } while (0)

#if defined(__GNUC__) || defined(__clang__)
/* Blocks of 16 bytes: a lead-range character followed by a continuation-range character (or
 * U+FFFD) anywhere in the block sends it to the exact test. With GCC/Clang vector types this
 * compiles to SSE2/NEON code: clean text costs a few compares per 16 bytes. */
typedef uint8_t u8x16 __attribute__((vector_size(16)));
typedef uint16_t u16x8 __attribute__((vector_size(16)));
typedef uint32_t u32x4 __attribute__((vector_size(16)));

#define ANY(mask)                                                                             \
    ({                                                                                        \
        uint64_t w_[2];                                                                       \
        memcpy(w_, &(mask), 16);                                                              \
        (w_[0] | w_[1]) != 0;                                                                 \
    })

/* The mask of the block at character i. */
#define HIT(TYPE, VEC, WITH_FFFD, i)                                                          \
    ({                                                                                        \
        VEC here_, next_;                                                                     \
        memcpy(&here_, (const TYPE *)data + (i), 16);                                         \
        memcpy(&next_, (const TYPE *)data + (i) + 1, 16);                                     \
        VEC hit_ = (VEC)(((here_ - l_lo) <= l_span) & ((next_ - c_lo) <= c_span));            \
        if (WITH_FFFD) {                                                                      \
            hit_ |= (VEC)(here_ == fffd);                                                     \
        }                                                                                     \
        hit_;                                                                                 \
    })

#define BLOCKS(TYPE, VEC, WITH_FFFD)                                                          \
    do {                                                                                      \
        const Py_ssize_t per_block = 16 / sizeof(TYPE);                                       \
        const VEC zero = {0};                                                                 \
        const Py_UCS4 top = (TYPE)~(TYPE)0; /* ranges beyond the kind's end: clamped */       \
        const VEC l_lo = zero + (TYPE)(lead_lo < top ? lead_lo : top);                        \
        const VEC l_span = zero + (TYPE)((lead_hi < top ? lead_hi : top) - l_lo[0]);          \
        const VEC c_lo = zero + (TYPE)(cont_lo < top ? cont_lo : top);                        \
        const VEC c_span = zero + (TYPE)((cont_hi < top ? cont_hi : top) - c_lo[0]);          \
        const VEC fffd = zero + (TYPE)0xFFFD;                                                 \
        for (; i + per_block + 1 <= n; i += per_block) {                                      \
            VEC hit = HIT(TYPE, VEC, WITH_FFFD, i);                                           \
            if (ANY(hit)) {                                                                   \
                EXACT(i, i + per_block);                                       \
            }                                                                                 \
        }                                                                                     \
    } while (0)
#else
#define BLOCKS(TYPE, VEC, WITH_FFFD) ((void)0)
#endif

/* 1 if the text is clean, 0 if it needs the exact inspection. */
static int
text_clean(PyObject *text)
{
    if (PyUnicode_IS_ASCII(text)) {
        return 1;
    }
    const void *data = PyUnicode_DATA(text);
    const int kind = PyUnicode_KIND(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), i = 0;
    switch (kind) {
    case PyUnicode_1BYTE_KIND: /* (no U+FFFD can be here) */
        BLOCKS(Py_UCS1, u8x16, 0);
        EXACT(i, n);
        break;
    case PyUnicode_2BYTE_KIND:
        BLOCKS(Py_UCS2, u16x8, 1);
        EXACT(i, n);
        break;
    default:
        BLOCKS(Py_UCS4, u32x4, 1);
        EXACT(i, n);
    }
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
        if (!PyUnicode_Check(value) || !text_clean(value)) {
            return PyLong_FromLong(0);
        }
    }
    return PyLong_FromLong(same_keys(item, nargs == 2 ? args[1] : NULL) ? 2 : 1);
}

static PyObject *
str_clean(PyObject *module, PyObject *text)
{
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "configure() was not called");
        return NULL;
    }
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, "text_clean(text: str)");
        return NULL;
    }
    return PyBool_FromLong(text_clean(text));
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
        Py_UCS4 *lo = table == leads ? &lead_lo : &cont_lo;
        Py_UCS4 *hi = table == leads ? &lead_hi : &cont_hi;
        if (c < *lo) {
            *lo = c;
        }
        if (c > *hi) {
            *hi = c;
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
    lead_lo = cont_lo = BMP;
    lead_hi = cont_hi = 0;
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
    if (cont_hi < cont_lo) {
        cont_lo = cont_hi = BMP - 1;
    }
    configured = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"dict_values_clean", (PyCFunction)(void (*)(void))dict_values_clean, METH_FASTCALL,
     "dict_values_clean(item, keys=None): 0 unless every value of the dict is a str with no\n"
     "U+FFFD and no mojibake candidate; then 2 if its keys are the tuple keys, in order, else 1."},
    {"text_clean", str_clean, METH_O,
     "text_clean(text): True when the str holds no U+FFFD and no mojibake candidate."},
    {"count_stretches", (PyCFunction)(void (*)(void))count_stretches, METH_FASTCALL,
     "count_stretches(text, misreading): how many of the misreading's lead characters are\n"
     "followed by one of its continuation characters."},
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
    return PyModule_Create(&module);
}
