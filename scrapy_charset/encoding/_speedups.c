/* Compiled decoders for the CJK encodings of the WHATWG Encoding Standard, and a table
 * decoder for the single-byte ones (decode_single_byte).
 *
 * Each function is the spec's decoder run over a whole input from its initial state
 * (end-of-queue at the end), in error mode "replacement":
 * https://encoding.spec.whatwg.org/ sections 10-13. The indexes are passed in from Python
 * (the generated tables: the character at a pointer is its code point, U+0000 marks a pointer
 * without one), so the spec data lives in one place.
 *
 * A decoder runs once, writing 2-byte characters into a string as long as the input, which
 * is then shrunk. If it meets a character beyond U+FFFF, it stops at the start of that unit
 * and goes on from there into a 4-byte string (the stateless decoders are in their initial
 * state at the start of every unit); if the text is all Latin-1, it is narrowed at the end.
 * boundary() runs a decoder only to find where a stream can be cut. The pure-Python
 * scrapy_charset.encoding.reference stays the reference: the test suite sweeps these decoders
 * against it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum { SHIFT_JIS = 0, EUC_KR = 1, BIG5 = 2, EUC_JP = 3, GB18030 = 4, ISO_2022_JP = 5 };

#define REPLACEMENT 0xFFFD
#define IS_ASCII(b) ((b) < 0x80)

#if defined(_MSC_VER)
#define ALWAYS_INLINE __forceinline
#elif defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* How a decoder's output is handled: written as 2-byte characters (UCS2: stops at the unit
 * that gives a character beyond U+FFFF), written as 4-byte characters, or only scanned for
 * where the input can be cut (SCAN). Each decoder is inlined once per mode, so the mode costs
 * nothing per character. */
enum { UCS2 = 2, UCS4 = 4, SCAN = 6 };

typedef struct {
    Py_ssize_t length;
    Py_UCS4 maxchar;
    void *data; /* NULL while scanning */
    Py_ssize_t start;    /* where the decoder starts reading */
    Py_ssize_t capacity; /* SCAN: the last position wanted */
    Py_ssize_t boundary; /* SCAN: the last position where the input can be cut */
    Py_ssize_t reach;    /* SCAN: one past the furthest byte read so far */
    Py_ssize_t resume;   /* UCS2: start of the unit that gave a character beyond U+FFFF */
    Py_ssize_t resume_length; /* UCS2: the output's length before that unit */
} Output;

/* Called where the decoder is in its initial state at position i (the top of its loop).
 * SCAN: i is a place to cut the input if no byte at or after it was read yet (an error may
 * have looked ahead and restored bytes: cut there, the part before would end differently);
 * stops once past the wanted position. UCS2: stops if the last unit gave a character beyond
 * U+FFFF (the unit is then written again as 4-byte characters), else notes where this unit
 * starts. */
#define UNIT_STOPS_AT(out, i, mode)                                                          \
    ((mode) == SCAN                                                                          \
         ? ((i) > (out)->capacity || ((i) >= (out)->reach ? ((out)->boundary = (i)) : 0, 0))  \
     : (mode) == UCS2                                                                        \
         ? ((out)->maxchar > 0xFFFF ||                                                       \
            ((out)->resume = (i), (out)->resume_length = (out)->length, 0))                  \
         : 0)

/* The byte k places after i; SCAN mode notes how far the decoder has read. */
#define AT(k)                                                                                \
    ((mode) == SCAN && out->reach < i + (k) + 1 ? (out->reach = i + (k) + 1) : 0, s[i + (k)])

static ALWAYS_INLINE void
emit(Output *out, Py_UCS4 cp, const int mode)
{
    switch (mode) {
    case SCAN:
        return;
    case UCS2:
        if (cp > 0xFFFF) { /* not written: the decoder stops before the next unit */
            out->maxchar = cp;
            return;
        }
        if (cp > out->maxchar) {
            out->maxchar = cp;
        }
        ((Py_UCS2 *)out->data)[out->length] = (Py_UCS2)cp;
        break;
    default:
        if (cp > out->maxchar) {
            out->maxchar = cp;
        }
        ((Py_UCS4 *)out->data)[out->length] = cp;
    }
    out->length++;
}

typedef struct {
    int kind;
    const void *data;
    Py_ssize_t length;
} Index;

static void
index_init(Index *index, PyObject *text)
{
    index->kind = PyUnicode_KIND(text);
    index->data = PyUnicode_DATA(text);
    index->length = PyUnicode_GET_LENGTH(text);
}

/* The spec's "index code point": 0 for a pointer without a code point. */
static inline Py_UCS4
index_code_point(const Index *index, long pointer)
{
    if (pointer < 0 || pointer >= index->length) {
        return 0;
    }
    if (index->kind == PyUnicode_2BYTE_KIND) { /* (every index but gb18030's and Big5's) */
        return ((const Py_UCS2 *)index->data)[pointer];
    }
    return PyUnicode_READ(index->kind, index->data, pointer);
}

/* The end of a unit whose last byte, the trail, gave ``cp`` (0: none): the code point, or an
 * error and, when the trail byte is ASCII, the trail restored (read again on its own). Returns
 * how many bytes the unit used; ``before_trail`` is the number before the trail. */
static ALWAYS_INLINE Py_ssize_t
end_unit(Output *out, Py_UCS4 cp, unsigned int trail, Py_ssize_t before_trail, const int mode)
{
    if (cp != 0) {
        emit(out, cp, mode);
        return before_trail + 1;
    }
    emit(out, REPLACEMENT, mode);
    return IS_ASCII(trail) ? before_trail : before_trail + 1;
}

static ALWAYS_INLINE int
is_double_byte_lead(unsigned int b, const int encoding)
{
    if (encoding == SHIFT_JIS) {
        return (0x81 <= b && b <= 0x9F) || (0xE0 <= b && b <= 0xFC);
    }
    return 0x81 <= b && b <= 0xFE; /* EUC-KR, Big5 */
}

/* The index pointer for a lead and trail byte, -1 if the trail is out of range. */
static ALWAYS_INLINE long
double_byte_pointer(unsigned int lead, unsigned int trail, const int encoding)
{
    if (encoding == SHIFT_JIS) {
        if (!((0x40 <= trail && trail <= 0x7E) || (0x80 <= trail && trail <= 0xFC))) {
            return -1;
        }
        unsigned int offset = trail < 0x7F ? 0x40 : 0x41;
        unsigned int lead_offset = lead < 0xA0 ? 0x81 : 0xC1;
        return (long)(lead - lead_offset) * 188 + trail - offset;
    }
    if (encoding == EUC_KR) {
        return (0x41 <= trail && trail <= 0xFE) ? (long)(lead - 0x81) * 190 + (trail - 0x41) : -1;
    }
    /* Big5 */
    if (!((0x40 <= trail && trail <= 0x7E) || (0xA1 <= trail && trail <= 0xFE))) {
        return -1;
    }
    unsigned int offset = trail < 0x7F ? 0x40 : 0x62;
    return (long)(lead - 0x81) * 157 + (trail - offset);
}

/* Shift_JIS, EUC-KR and Big5: single bytes, or a lead byte and a trail byte. */
static ALWAYS_INLINE void
decode_double_byte(const unsigned char *s, Py_ssize_t n, const Index *index, Output *out,
                   const int mode, const int encoding)
{
    Py_ssize_t i = out->start;
    while (i < n) {
        if (UNIT_STOPS_AT(out, i, mode)) {
            return;
        }
        unsigned int b = AT(0);
        if (IS_ASCII(b) || (encoding == SHIFT_JIS && b == 0x80)) {
            emit(out, b, mode);
            i++;
            continue;
        }
        if (encoding == SHIFT_JIS && 0xA1 <= b && b <= 0xDF) { /* half-width katakana */
            emit(out, 0xFF61 - 0xA1 + b, mode);
            i++;
            continue;
        }
        if (!is_double_byte_lead(b, encoding) || i + 1 >= n) { /* no lead, or end-of-queue */
            emit(out, REPLACEMENT, mode);
            i++;
            continue;
        }
        unsigned int t = AT(1);
        long pointer = double_byte_pointer(b, t, encoding);
        if (encoding == SHIFT_JIS && 8836 <= pointer && pointer <= 10715) {
            emit(out, (Py_UCS4)(0xE000 - 8836 + pointer), mode); /* EUDC: Private Use Area */
            i += 2;
            continue;
        }
        if (encoding == BIG5 &&
            (pointer == 1133 || pointer == 1135 || pointer == 1164 || pointer == 1166)) {
            /* The four pointers that decode to two code points. */
            emit(out, pointer < 1150 ? 0x00CA : 0x00EA, mode);
            emit(out, (pointer == 1133 || pointer == 1164) ? 0x0304 : 0x030C, mode);
            i += 2;
            continue;
        }
        i += end_unit(out, index_code_point(index, pointer), t, 1, mode);
    }
}

static ALWAYS_INLINE void
decode_euc_jp(const unsigned char *s, Py_ssize_t n, const Index *jis0208, const Index *jis0212,
              Output *out, const int mode)
{
    Py_ssize_t i = out->start;
    while (i < n) {
        if (UNIT_STOPS_AT(out, i, mode)) {
            return;
        }
        unsigned int b = AT(0);
        if (IS_ASCII(b)) {
            emit(out, b, mode);
            i++;
            continue;
        }
        if (!(b == 0x8E || b == 0x8F || (0xA1 <= b && b <= 0xFE)) || i + 1 >= n) {
            emit(out, REPLACEMENT, mode); /* no lead, or end-of-queue */
            i++;
            continue;
        }
        unsigned int t = AT(1);
        if (b == 0x8E && 0xA1 <= t && t <= 0xDF) { /* half-width katakana */
            emit(out, 0xFF61 - 0xA1 + t, mode);
            i += 2;
            continue;
        }
        unsigned int lead = b;
        const Index *index = jis0208;
        Py_ssize_t used = 1; /* bytes before the trail byte */
        if (b == 0x8F && 0xA1 <= t && t <= 0xFE) { /* JIS X 0212: t is the lead byte */
            if (i + 2 >= n) {
                emit(out, REPLACEMENT, mode);
                i = n;
                continue;
            }
            lead = t;
            index = jis0212;
            used = 2;
            t = AT(2);
        }
        Py_UCS4 cp = 0;
        if (0xA1 <= lead && lead <= 0xFE && 0xA1 <= t && t <= 0xFE) {
            cp = index_code_point(index, (long)(lead - 0xA1) * 94 + t - 0xA1);
        }
        i += end_unit(out, cp, t, used, mode);
    }
}

/* The spec's "index gb18030 ranges code point"; 0 for none. */
static Py_UCS4
gb18030_ranges_code_point(long pointer, const Index *pointers, const Index *code_points)
{
    if ((pointer > 39419 && pointer < 189000) || pointer > 1237575) {
        return 0;
    }
    if (pointer == 7457) {
        return 0xE7C7;
    }
    /* The last range whose pointer is <= pointer (the first range starts at 0). */
    Py_ssize_t lo = 0, hi = pointers->length;
    while (hi - lo > 1) {
        Py_ssize_t mid = (lo + hi) / 2;
        if ((long)PyUnicode_READ(pointers->kind, pointers->data, mid) <= pointer) {
            lo = mid;
        }
        else {
            hi = mid;
        }
    }
    long offset = (long)PyUnicode_READ(pointers->kind, pointers->data, lo);
    long code_point_offset = (long)PyUnicode_READ(code_points->kind, code_points->data, lo);
    return (Py_UCS4)(code_point_offset + pointer - offset);
}

static ALWAYS_INLINE void
decode_gb18030(const unsigned char *s, Py_ssize_t n, const Index *gb18030,
               const Index *range_pointers, const Index *range_code_points, Output *out, const int mode)
{
    Py_ssize_t i = out->start;
    while (i < n) {
        if (UNIT_STOPS_AT(out, i, mode)) {
            return;
        }
        unsigned int first = AT(0);
        if (IS_ASCII(first)) {
            emit(out, first, mode);
            i++;
            continue;
        }
        if (first == 0x80) {
            emit(out, 0x20AC, mode);
            i++;
            continue;
        }
        if (first == 0xFF || i + 1 >= n) { /* no lead, or end-of-queue */
            emit(out, REPLACEMENT, mode);
            i++;
            continue;
        }
        unsigned int second = AT(1);
        if (0x30 <= second && second <= 0x39) {
            if (i + 2 >= n) { /* end-of-queue: one error for the whole sequence */
                emit(out, REPLACEMENT, mode);
                i = n;
                continue;
            }
            unsigned int third = AT(2);
            if (!(0x81 <= third && third <= 0xFE)) {
                /* second and third are restored */
                emit(out, REPLACEMENT, mode);
                i += 1;
                continue;
            }
            if (i + 3 >= n) {
                emit(out, REPLACEMENT, mode);
                i = n;
                continue;
            }
            unsigned int fourth = AT(3);
            if (!(0x30 <= fourth && fourth <= 0x39)) {
                /* second, third and fourth are restored */
                emit(out, REPLACEMENT, mode);
                i += 1;
                continue;
            }
            long pointer = (long)(first - 0x81) * (10 * 126 * 10) +
                           (long)(second - 0x30) * (10 * 126) + (long)(third - 0x81) * 10 +
                           (fourth - 0x30);
            Py_UCS4 cp = gb18030_ranges_code_point(pointer, range_pointers, range_code_points);
            emit(out, cp != 0 ? cp : REPLACEMENT, mode);
            i += 4;
            continue;
        }
        long pointer = -1;
        if ((0x40 <= second && second <= 0x7E) || (0x80 <= second && second <= 0xFE)) {
            unsigned int offset = second < 0x7F ? 0x40 : 0x41;
            pointer = (long)(first - 0x81) * 190 + (second - offset);
        }
        i += end_unit(out, index_code_point(gb18030, pointer), second, 1, mode);
    }
}


/* ISO-2022-JP decoder states. */
enum { J_ASCII, J_ROMAN, J_KATAKANA, J_LEAD, J_TRAIL, J_ESCAPE_START, J_ESCAPE };

static ALWAYS_INLINE void
decode_iso_2022_jp(const unsigned char *s, Py_ssize_t n, const Index *jis0208, Output *out,
                   const int mode)
{
    int state = J_ASCII, output_state = J_ASCII, output = 0;
    unsigned int lead = 0;
    Py_ssize_t i = 0;
    for (;;) {
        /* Fast runs (the same steps as below, without the dispatch per byte, written with
         * local variables): plain ASCII in the ASCII state, and whole two-byte characters in
         * the lead byte state. */
        if (mode != SCAN && state == J_ASCII) {
            Py_ssize_t from = i;
            /* Eight bytes at a time while none has its high bit set, is below 0x10 (SO and
             * SI are; so are tab and newline, which the byte loop then takes) or is ESC (a
             * zero byte of word ^ 0x1B...). */
            while (i + 8 <= n) {
                uint64_t word, esc;
                memcpy(&word, s + i, 8);
                esc = word ^ 0x1B1B1B1B1B1B1B1BULL;
                if ((word | (word - 0x1010101010101010ULL) |
                     ((esc - 0x0101010101010101ULL) & ~esc)) &
                    0x8080808080808080ULL) {
                    break;
                }
                i += 8;
            }
            while (i < n && s[i] < 0x80 && s[i] != 0x1B && s[i] != 0x0E && s[i] != 0x0F) {
                i++;
            }
            if (i > from) {
                output = 0;
                Py_ssize_t length = out->length;
                if (mode == UCS2) {
                    Py_UCS2 *data = (Py_UCS2 *)out->data + length;
                    for (Py_ssize_t k = from; k < i; k++) {
                        *data++ = s[k];
                    }
                }
                else {
                    Py_UCS4 *data = (Py_UCS4 *)out->data + length;
                    for (Py_ssize_t k = from; k < i; k++) {
                        *data++ = s[k];
                    }
                }
                out->length = length + (i - from); /* (maxchar is at least 0x7F) */
            }
        }
        else if (mode != SCAN && state == J_LEAD) {
            /* (Every pointer of a pair is below 94 * 94: an index that long, of 2-byte
             * characters, is read directly; otherwise by the general lookup.) */
            const Py_UCS2 *direct = jis0208->kind == PyUnicode_2BYTE_KIND &&
                                            jis0208->length >= 94 * 94
                                        ? (const Py_UCS2 *)jis0208->data
                                        : NULL;
            Py_ssize_t length = out->length;
            Py_UCS4 maxchar = out->maxchar;
            while (i + 1 < n && 0x21 <= s[i] && s[i] <= 0x7E && 0x21 <= s[i + 1] &&
                   s[i + 1] <= 0x7E) {
                long pointer = (long)(s[i] - 0x21) * 94 + s[i + 1] - 0x21;
                Py_UCS4 cp = direct ? direct[pointer] : index_code_point(jis0208, pointer);
                if (cp == 0) {
                    cp = REPLACEMENT;
                }
                if (cp > maxchar) {
                    maxchar = cp; /* (the index holds no code point beyond U+FFFF) */
                }
                if (mode == UCS2) {
                    ((Py_UCS2 *)out->data)[length++] = (Py_UCS2)cp;
                }
                else {
                    ((Py_UCS4 *)out->data)[length++] = cp;
                }
                output = 0;
                i += 2;
            }
            out->length = length;
            out->maxchar = maxchar;
        }
        int byte = i < n ? s[i++] : -1; /* -1: end-of-queue */
        switch (state) {
        case J_ASCII:
        case J_ROMAN:
        case J_KATAKANA:
        case J_LEAD:
            if (byte == 0x1B) {
                state = J_ESCAPE_START;
                continue;
            }
            if (byte < 0) {
                return;
            }
            output = 0;
            if ((state == J_ASCII || state == J_ROMAN) && byte <= 0x7F && byte != 0x0E &&
                byte != 0x0F) {
                if (state == J_ROMAN && byte == 0x5C) {
                    emit(out, 0x00A5, mode);
                }
                else if (state == J_ROMAN && byte == 0x7E) {
                    emit(out, 0x203E, mode);
                }
                else {
                    emit(out, (Py_UCS4)byte, mode);
                }
            }
            else if (state == J_KATAKANA && 0x21 <= byte && byte <= 0x5F) {
                emit(out, (Py_UCS4)(0xFF61 - 0x21 + byte), mode);
            }
            else if (state == J_LEAD && 0x21 <= byte && byte <= 0x7E) {
                lead = (unsigned int)byte;
                state = J_TRAIL;
            }
            else {
                emit(out, REPLACEMENT, mode);
            }
            continue;
        case J_TRAIL:
            if (byte == 0x1B) {
                state = J_ESCAPE_START;
                emit(out, REPLACEMENT, mode);
                continue;
            }
            state = J_LEAD;
            if (0x21 <= byte && byte <= 0x7E) {
                Py_UCS4 cp = index_code_point(jis0208, (long)(lead - 0x21) * 94 + byte - 0x21);
                emit(out, cp != 0 ? cp : REPLACEMENT, mode);
            }
            else {
                emit(out, REPLACEMENT, mode);
            }
            continue;
        case J_ESCAPE_START:
            if (byte == 0x24 || byte == 0x28) {
                lead = (unsigned int)byte;
                state = J_ESCAPE;
                continue;
            }
            if (byte >= 0) {
                i--; /* byte is restored */
            }
            output = 0;
            state = output_state;
            emit(out, REPLACEMENT, mode);
            continue;
        default: { /* J_ESCAPE */
            int new_state = -1;
            if (lead == 0x28 && byte == 0x42) {
                new_state = J_ASCII;
            }
            else if (lead == 0x28 && byte == 0x4A) {
                new_state = J_ROMAN;
            }
            else if (lead == 0x28 && byte == 0x49) {
                new_state = J_KATAKANA;
            }
            else if (lead == 0x24 && (byte == 0x40 || byte == 0x42)) {
                new_state = J_LEAD;
            }
            lead = 0;
            if (new_state >= 0) {
                state = output_state = new_state;
                if (output) { /* two escape sequences in a row */
                    emit(out, REPLACEMENT, mode);
                }
                output = 1;
                continue;
            }
            i -= byte >= 0 ? 2 : 1; /* the lead byte (and byte) are restored */
            output = 0;
            state = output_state;
            emit(out, REPLACEMENT, mode);
            continue;
        }
        }
    }
}

#define DISPATCH(MODE)                                                                      \
    switch (encoding) {                                                                     \
    case SHIFT_JIS:                                                                         \
        decode_double_byte(s, n, a, out, MODE, SHIFT_JIS);                                  \
        return 0;                                                                           \
    case EUC_KR:                                                                            \
        decode_double_byte(s, n, a, out, MODE, EUC_KR);                                     \
        return 0;                                                                           \
    case BIG5:                                                                              \
        decode_double_byte(s, n, a, out, MODE, BIG5);                                       \
        return 0;                                                                           \
    case EUC_JP:                                                                            \
        decode_euc_jp(s, n, a, b, out, MODE);                                               \
        return 0;                                                                           \
    case GB18030:                                                                           \
        decode_gb18030(s, n, a, b, c, out, MODE);                                           \
        return 0;                                                                           \
    case ISO_2022_JP:                                                                       \
        decode_iso_2022_jp(s, n, a, out, MODE);                                             \
        return 0;                                                                           \
    }

static int
run(int encoding, int mode, const unsigned char *s, Py_ssize_t n, const Index *a,
    const Index *b, const Index *c, Output *out)
{
    switch (mode) {
    case UCS2:
        DISPATCH(UCS2);
        break;
    case SCAN:
        DISPATCH(SCAN);
        break;
    default:
        DISPATCH(UCS4);
    }
    PyErr_Format(PyExc_ValueError, "unknown encoding number %d", encoding);
    return -1;
}

/* The indexes after the data and encoding number, checked for what the encoding needs. */
static int
indexes_init(int encoding, PyObject *main_index, PyObject *extra, PyObject *extra2, Index *a,
             Index *b, Index *c)
{
    index_init(a, main_index);
    if (extra != NULL) {
        index_init(b, extra);
    }
    if (extra2 != NULL) {
        index_init(c, extra2);
    }
    if ((encoding == EUC_JP || encoding == GB18030) && extra == NULL) {
        PyErr_SetString(PyExc_TypeError, "this encoding needs its extra index");
        return -1;
    }
    if (encoding == GB18030 && (extra2 == NULL || b->length != c->length || b->length == 0)) {
        PyErr_SetString(PyExc_TypeError, "gb18030 needs the ranges' pointers and code points");
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(boundary_doc,
"boundary(data, encoding, limit, index, extra='', extra2='', /)\n--\n\n"
"The last position <= ``limit`` (0 if none) where ``data`` can be cut in two parts that\n"
"decode to the whole's text: the spec's decoder, started at 0, is in its initial state there\n"
"and has read no byte from there on. For the stateless encodings (not ISO-2022-JP); ``limit``\n"
"should be at most len(data) - 4, so that no unit before it meets the end of ``data``.");

static PyObject *
speedups_boundary(PyObject *module, PyObject *args)
{
    Py_buffer view;
    int encoding;
    Py_ssize_t limit;
    PyObject *main_index, *extra = NULL, *extra2 = NULL;
    if (!PyArg_ParseTuple(args, "y*inU|UU:boundary", &view, &encoding, &limit, &main_index,
                          &extra, &extra2)) {
        return NULL;
    }
    Index a, b = {0}, c = {0};
    if (encoding == ISO_2022_JP) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "ISO-2022-JP has states of its own");
        return NULL;
    }
    if (indexes_init(encoding, main_index, extra, extra2, &a, &b, &c) < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    Output scan = {0, 0x7F, NULL, 0, limit, 0, 0, 0, 0};
    int failed = run(encoding, SCAN, (const unsigned char *)view.buf, view.len, &a, &b, &c, &scan);
    PyBuffer_Release(&view);
    if (failed < 0) {
        return NULL;
    }
    return PyLong_FromSsize_t(scan.boundary);
}

PyDoc_STRVAR(decode_doc,
"decode(data, encoding, index, extra='', extra2='', /)\n--\n\n"
"The spec's decode without BOM of the whole of ``data`` (bytes) for one of the encoding\n"
"numbers of this module. ``index``: the main index as a string (U+0000 where a pointer has\n"
"no code point); ``extra``: JIS X 0212 for EUC-JP, the gb18030 ranges' pointers for gb18030;\n"
"``extra2``: the gb18030 ranges' code points.");

static PyObject *
speedups_decode(PyObject *module, PyObject *args)
{
    Py_buffer view;
    int encoding;
    PyObject *main_index, *extra = NULL, *extra2 = NULL;
    if (!PyArg_ParseTuple(args, "y*iU|UU:decode", &view, &encoding, &main_index, &extra,
                          &extra2)) {
        return NULL;
    }
    Index a, b = {0}, c = {0};
    if (indexes_init(encoding, main_index, extra, extra2, &a, &b, &c) < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    const unsigned char *s = (const unsigned char *)view.buf;
    Py_ssize_t n = view.len;
    PyObject *result = NULL;

    /* Every character or error uses up at least one byte (Big5's two-character pointers use
     * two), so the text is at most as long as the input: written as 2-byte characters into a
     * string of that capacity, then shrunk (or narrowed, if it is all Latin-1). */
    result = PyUnicode_New(n, 0xFFFF);
    if (result == NULL) {
        goto done;
    }
    Output out = {0, 0x7F, PyUnicode_DATA(result), 0, 0, 0, 0, 0, 0};
    if (run(encoding, UCS2, s, n, &a, &b, &c, &out) < 0) {
        Py_CLEAR(result);
        goto done;
    }
    if (out.maxchar > 0xFFFF) {
        /* Go on from the unit that gave the wide character, into 4-byte characters. */
        Py_ssize_t done_length = out.resume_length;
        PyObject *wide = PyUnicode_New(done_length + (n - out.resume), 0x10FFFF);
        if (wide == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        const Py_UCS2 *narrow = PyUnicode_DATA(result);
        Py_UCS4 *data = PyUnicode_DATA(wide);
        for (Py_ssize_t k = 0; k < done_length; k++) {
            data[k] = narrow[k];
        }
        Py_DECREF(result);
        result = wide;
        Output rest = {done_length, out.maxchar, data, out.resume, 0, 0, 0, 0, 0};
        run(encoding, UCS4, s, n, &a, &b, &c, &rest);
        out = rest;
    }
    if (out.maxchar <= 0xFF) {
        /* A string's kind must be its narrowest: rebuild it from the characters written. */
        PyObject *narrowed = PyUnicode_FromKindAndData(PyUnicode_KIND(result),
                                                       PyUnicode_DATA(result), out.length);
        Py_DECREF(result);
        result = narrowed;
        goto done;
    }
    if (PyUnicode_Resize(&result, out.length) < 0) {
        result = NULL;
    }
done:
    PyBuffer_Release(&view);
    return result;
}

PyDoc_STRVAR(decode_single_byte_doc,
"decode_single_byte(data, table, /)\n--\n\n"
"``data`` (bytes) decoded with a single-byte ``table`` (a string of 256 characters, none\n"
"beyond U+FFFF): the character at each byte's value.");

/* Whether the 64 bytes at s are all ASCII. */
static inline int
ascii_block64(const unsigned char *s)
{
    uint64_t words[8];
    memcpy(words, s, sizeof words);
    return !((words[0] | words[1] | words[2] | words[3] | words[4] | words[5] | words[6] |
              words[7]) & 0x8080808080808080ULL);
}

/* Whether the 64 bytes at s hold no byte 0x80-0x9F (top three bits 100): each such byte is
 * made zero, and a word holding a zero byte is found by the classic test (exact for whether
 * there is one: without a zero byte nothing borrows). */
static inline int
no_c1_block64(const unsigned char *s)
{
    uint64_t words[8];
    memcpy(words, s, sizeof words);
    uint64_t found = 0;
    for (int k = 0; k < 8; k++) {
        const uint64_t v = (words[k] & 0xE0E0E0E0E0E0E0E0ULL) ^ 0x8080808080808080ULL;
        found |= (v - 0x0101010101010101ULL) & ~v & 0x8080808080808080ULL;
    }
    return !found;
}

static PyObject *
speedups_decode_single_byte(PyObject *module, PyObject *args)
{
    Py_buffer view;
    PyObject *table;
    if (!PyArg_ParseTuple(args, "y*U:decode_single_byte", &view, &table)) {
        return NULL;
    }
    PyObject *result = NULL;
    Py_UCS2 map[256];
    if (PyUnicode_GET_LENGTH(table) != 256 || PyUnicode_MAX_CHAR_VALUE(table) > 0xFFFF) {
        PyErr_SetString(PyExc_ValueError, "the table must be 256 characters up to U+FFFF");
        goto done;
    }
    int kind = PyUnicode_KIND(table);
    const void *table_data = PyUnicode_DATA(table);
    for (int b = 0; b < 256; b++) {
        map[b] = (Py_UCS2)PyUnicode_READ(kind, table_data, b);
    }
    static Py_UCS2 ascii[0x80];
    if (ascii[0x7F] != 0x7F) {
        for (int b = 0; b < 0x80; b++) {
            ascii[b] = (Py_UCS2)b;
        }
    }
    int ascii_as_is = memcmp(map, ascii, sizeof ascii) == 0;
    /* Whether the table maps every byte but 0x80-0x9F to itself (windows-1252: Latin-1 text,
     * or UTF-8 read as windows-1252, is mostly blocks without those bytes). */
    int latin1_as_is = ascii_as_is;
    for (int b = 0xA0; b < 0x100 && latin1_as_is; b++) {
        latin1_as_is = map[b] == b;
    }
    const unsigned char *s = (const unsigned char *)view.buf;
    Py_ssize_t n = view.len;
    /* A leading run of ASCII bytes, found eight at a time, is copied as it is where the table
     * maps ASCII to itself (every single-byte encoding of the standard does): an ASCII page
     * is one scan and a copy. */
    Py_ssize_t prefix = 0;
    if (ascii_as_is) {
        uint64_t word;
        while (prefix + 8 <= n && (memcpy(&word, s + prefix, 8), !(word & 0x8080808080808080ULL))) {
            prefix += 8;
        }
        while (prefix < n && s[prefix] < 0x80) {
            prefix++;
        }
    }
    if (prefix == n) { /* ASCII: one copy */
        result = PyUnicode_New(n, 0x7F);
        if (result != NULL) {
            memcpy(PyUnicode_1BYTE_DATA(result), s, (size_t)n);
        }
        goto done;
    }
    /* The rest is written in one pass: in 1-byte characters, block by block of 64 bytes,
     * until a block holds a character above U+00FF; from that block on in 2-byte ones (the
     * characters written so far are widened). Where the first block holds one (Cyrillic,
     * Greek... text), the 2-byte string is written at once: no 1-byte one is held meanwhile.
     * A block of ASCII bytes is copied as it is, and so is one without bytes 0x80-0x9F where
     * the table maps all others to themselves (windows-1252); in the others, a table lookup
     * per byte, without branches, is faster than taking runs of ASCII bytes apart (on text
     * as on random bytes). */
    Py_UCS2 bits = 0;
    const Py_ssize_t first_end = prefix + 64 < n ? prefix + 64 : n;
    for (Py_ssize_t j = prefix; j < first_end; j++) {
        bits |= map[s[j]];
    }
    Py_UCS1 *narrow = NULL;
    Py_ssize_t i = prefix;
    if (bits <= 0xFF) {
        result = PyUnicode_New(n, 0xFF);
        if (result == NULL) {
            goto done;
        }
        narrow = PyUnicode_1BYTE_DATA(result);
        memcpy(narrow, s, (size_t)prefix);
        while (i < n) {
            const Py_ssize_t end = i + 64 < n ? i + 64 : n;
            if (ascii_as_is && end - i == 64 && ascii_block64(s + i)) {
                memcpy(narrow + i, s + i, 64);
                i = end;
                continue;
            }
            if (latin1_as_is && end - i == 64 && no_c1_block64(s + i)) {
                /* Bytes that are their own characters, not all ASCII (tested first). */
                memcpy(narrow + i, s + i, 64);
                bits |= 0xFF;
                i = end;
                continue;
            }
            Py_UCS2 block = 0;
            for (Py_ssize_t j = i; j < end; j++) {
                const Py_UCS2 c = map[s[j]];
                block |= c;
                narrow[j] = (Py_UCS1)c;
            }
            if (block > 0xFF) {
                break; /* written again below, from i */
            }
            bits |= block;
            i = end;
        }
    }
    if (i < n) {
        PyObject *wide = PyUnicode_New(n, 0xFFFF);
        if (wide == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        Py_UCS2 *out = PyUnicode_2BYTE_DATA(wide);
        const Py_UCS1 *written = narrow != NULL ? narrow : s; /* (s: its ASCII prefix) */
        for (Py_ssize_t j = 0; j < i; j++) {
            out[j] = written[j];
        }
        for (; i < n; i++) {
            out[i] = map[s[i]];
        }
        Py_XDECREF(result);
        result = wide;
    } else if (bits <= 0x7F) {
        /* Only a table mapping bytes above 0x7F to ASCII gets here: a string's kind must be
         * its narrowest. */
        PyObject *narrowed = PyUnicode_FromKindAndData(PyUnicode_1BYTE_KIND, narrow, n);
        Py_DECREF(result);
        result = narrowed;
    }
done:
    PyBuffer_Release(&view);
    return result;
}

/* Whether s[0:min(n, end)] holds `word` (lowercase ASCII letters) in any ASCII letter case:
 * what `word in data[:end].lower()` answers, without the copy. A byte with its 0x20 bit set
 * is a lowercase letter only if it was that letter in either case; eight places at a time
 * are tested for the word's first and last letters, without a branch on the data, and only
 * the blocks holding both are checked place by place. */
static PyObject *
speedups_holds_word(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "holds_word takes 3 arguments");
        return NULL;
    }
    if (!PyBytes_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "the word must be bytes");
        return NULL;
    }
    const unsigned char *w = (const unsigned char *)PyBytes_AS_STRING(args[1]);
    Py_ssize_t length = PyBytes_GET_SIZE(args[1]);
    Py_ssize_t end = PyLong_AsSsize_t(args[2]);
    if (end == -1 && PyErr_Occurred()) {
        return NULL;
    }
    for (Py_ssize_t k = 0; k < length; k++) {
        if (w[k] < 'a' || w[k] > 'z') {
            PyErr_SetString(PyExc_ValueError, "the word must be lowercase ASCII letters");
            return NULL;
        }
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    const unsigned char *s = (const unsigned char *)view.buf;
    Py_ssize_t n = view.len < end ? view.len : end;
    int found = 0;
    if (length > 0 && length <= n) {
        const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
        const uint64_t fold = ones * 0x20, first = ones * w[0], last = ones * w[length - 1];
        const Py_ssize_t final = n - length; /* the last place the word can start */
        Py_ssize_t i = 0;
#if defined(__SSE2__)
        /* Sixteen places at a time where SSE2 is there (every x86-64): the places where
         * both letters are are the bits of a mask, each checked in full. */
        const __m128i fold16 = _mm_set1_epi8(0x20);
        const __m128i first16 = _mm_set1_epi8((char)w[0]);
        const __m128i last16 = _mm_set1_epi8((char)w[length - 1]);
        for (; i + 15 <= final && !found; i += 16) {
            const __m128i a = _mm_loadu_si128((const __m128i *)(s + i));
            const __m128i b = _mm_loadu_si128((const __m128i *)(s + i + length - 1));
            unsigned mask = (unsigned)_mm_movemask_epi8(
                _mm_and_si128(_mm_cmpeq_epi8(_mm_or_si128(a, fold16), first16),
                              _mm_cmpeq_epi8(_mm_or_si128(b, fold16), last16)));
            for (; mask != 0 && !found; mask &= mask - 1) {
                const unsigned char *at = s + i + __builtin_ctz(mask);
                Py_ssize_t k = 1;
                while (k < length && (at[k] | 0x20) == w[k]) {
                    k++;
                }
                found = k == length;
            }
        }
#endif
        while (i <= final && !found) {
            if (i + 7 <= final) {
                /* A zero byte in t where both letters are in place (a borrow may flag more
                 * places, which the check below turns down). */
                uint64_t a, b;
                memcpy(&a, s + i, 8);
                memcpy(&b, s + i + length - 1, 8);
                const uint64_t t = ((a | fold) ^ first) | ((b | fold) ^ last);
                if (!((t - ones) & ~t & highs)) {
                    i += 8;
                    continue;
                }
            }
            const Py_ssize_t stop = i + 8 <= final + 1 ? i + 8 : final + 1;
            for (; i < stop && !found; i++) {
                Py_ssize_t k = 0;
                while (k < length && (s[i + k] | 0x20) == w[k]) {
                    k++;
                }
                found = k == length;
            }
        }
    }
    PyBuffer_Release(&view);
    return PyBool_FromLong(found);
}

PyDoc_STRVAR(holds_word_doc,
             "holds_word(data, word, end) -> bool\n\n"
             "Whether data[:end] holds word (lowercase ASCII letters) in any letter case.");

/* holds_any: whether a body holds any of a few byte strings (the sequences one codec decodes
 * otherwise than another), in one pass. Only places holding a string's first byte are looked
 * at: with SSE2, sixteen places at a time against each first byte (up to eight of them), or,
 * where every string starts with a byte above 0x7F, against the bytes' high bits; elsewhere
 * one table lookup a byte. At such a place a one-byte string is a hit; longer strings are
 * compared where a table of their first two bytes (one bit per pair) says one may start. */
typedef struct {
    PyObject *strings;
    unsigned char singles[256];
    unsigned char first[256];
    uint8_t pairs[8192];
} AnyOf;

/* Whether one of the strings starts at s[i]. */
static inline int
any_at(const AnyOf *any, const unsigned char *s, Py_ssize_t n, Py_ssize_t i)
{
    if (any->singles[s[i]]) {
        return 1;
    }
    if (i + 1 == n) {
        return 0;
    }
    const unsigned pair = (unsigned)s[i] << 8 | s[i + 1];
    if (!(any->pairs[pair >> 3] & (1u << (pair & 7)))) {
        return 0;
    }
    const Py_ssize_t count = PyTuple_GET_SIZE(any->strings);
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *item = PyTuple_GET_ITEM(any->strings, k);
        const Py_ssize_t length = PyBytes_GET_SIZE(item);
        if (length >= 2 && length <= n - i &&
            memcmp(s + i, PyBytes_AS_STRING(item), (size_t)length) == 0) {
            return 1;
        }
    }
    return 0;
}

static PyObject *
speedups_holds_any(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyTuple_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "holds_any takes data and a tuple of bytes");
        return NULL;
    }
    AnyOf any;
    memset(&any, 0, sizeof any);
    any.strings = args[1];
    const Py_ssize_t count = PyTuple_GET_SIZE(any.strings);
    unsigned char firsts[8];
    int first_count = 0, all_high = 1;
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *item = PyTuple_GET_ITEM(any.strings, k);
        if (!PyBytes_Check(item) || PyBytes_GET_SIZE(item) == 0) {
            PyErr_SetString(PyExc_TypeError, "holds_any's strings must be non-empty bytes");
            return NULL;
        }
        const unsigned char *w = (const unsigned char *)PyBytes_AS_STRING(item);
        if (!any.first[w[0]]) {
            any.first[w[0]] = 1;
            if (first_count < 8) {
                firsts[first_count] = w[0];
            }
            first_count++;
            all_high &= w[0] >= 0x80;
        }
        if (PyBytes_GET_SIZE(item) == 1) {
            any.singles[w[0]] = 1;
        } else {
            const unsigned pair = (unsigned)w[0] << 8 | w[1];
            any.pairs[pair >> 3] |= (uint8_t)(1u << (pair & 7));
        }
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    const unsigned char *s = (const unsigned char *)view.buf;
    const Py_ssize_t n = view.len;
    int found = 0;
    Py_ssize_t i = 0;
#if defined(__SSE2__)
    if (first_count > 0 && (first_count <= 8 || all_high)) {
        __m128i wanted[8];
        for (int k = 0; k < first_count && k < 8; k++) {
            wanted[k] = _mm_set1_epi8((char)firsts[k]);
        }
        for (; i + 16 <= n && !found; i += 16) {
            const __m128i block = _mm_loadu_si128((const __m128i *)(s + i));
            unsigned mask;
            if (first_count <= 8) {
                __m128i hits = _mm_cmpeq_epi8(block, wanted[0]);
                for (int k = 1; k < first_count; k++) {
                    hits = _mm_or_si128(hits, _mm_cmpeq_epi8(block, wanted[k]));
                }
                mask = (unsigned)_mm_movemask_epi8(hits);
            } else { /* every first byte is above 0x7F: the bytes with their high bit set */
                mask = (unsigned)_mm_movemask_epi8(block);
            }
            for (; mask != 0 && !found; mask &= mask - 1) {
                const Py_ssize_t at = i + __builtin_ctz(mask);
                found = any.first[s[at]] && any_at(&any, s, n, at);
            }
        }
    }
#endif
    for (; i < n && !found; i++) {
        found = any.first[s[i]] && any_at(&any, s, n, i);
    }
    PyBuffer_Release(&view);
    return PyBool_FromLong(found);
}

PyDoc_STRVAR(holds_any_doc,
             "holds_any(data, strings) -> bool\n\n"
             "Whether data holds any of the non-empty bytes in the tuple strings.");

/* ---- Encoders ------------------------------------------------------------------------------
 * The Encoding Standard's encoders driven by a table built in Python (encoders.py): one
 * uint32 per BMP code point holding its bytes packed big-endian (below 0x100 one byte, below
 * 0x10000 two, else four; 0 = error). ASCII is written as itself; a lone surrogate counts as
 * U+FFFD. Error mode html writes "&#N;"; fatal mode stops at the error. */

/* ENC_UTF8 only for codec_encode: UTF-8, lone surrogates left to the fallback. */
enum { ENC_TABLE = 0, ENC_GB18030 = 1, ENC_ISO_2022_JP = 2, ENC_UTF8 = 3 };

typedef struct {
    PyObject *bytes;
    char *p;
    char *end;
} OutBytes;

/* Make room for at least `need` more bytes. */
static int
out_reserve(OutBytes *o, Py_ssize_t need)
{
    if (o->end - o->p >= need) {
        return 0;
    }
    Py_ssize_t used = o->p - PyBytes_AS_STRING(o->bytes);
    Py_ssize_t size = PyBytes_GET_SIZE(o->bytes);
    Py_ssize_t grown = size + size / 2 + need + 16;
    if (_PyBytes_Resize(&o->bytes, grown) < 0) {
        return -1;
    }
    o->p = PyBytes_AS_STRING(o->bytes) + used;
    o->end = PyBytes_AS_STRING(o->bytes) + grown;
    return 0;
}

static ALWAYS_INLINE void
out_packed(OutBytes *o, uint32_t v)
{
    if (v < 0x100) {
        *o->p++ = (char)v;
    } else if (v < 0x10000) {
        *o->p++ = (char)(v >> 8);
        *o->p++ = (char)(v & 0xFF);
    } else {
        *o->p++ = (char)(v >> 24);
        *o->p++ = (char)((v >> 16) & 0xFF);
        *o->p++ = (char)((v >> 8) & 0xFF);
        *o->p++ = (char)(v & 0xFF);
    }
}

static void
out_html(OutBytes *o, Py_UCS4 cp)
{
    char digits[8];
    int k = 0;
    do {
        digits[k++] = (char)('0' + cp % 10);
        cp /= 10;
    } while (cp);
    *o->p++ = '&';
    *o->p++ = '#';
    while (k) {
        *o->p++ = digits[--k];
    }
    *o->p++ = ';';
}

static uint32_t
gb18030_four(Py_UCS4 cp)
{
    uint32_t pointer = cp - 0x10000 + 189000;
    uint32_t b1 = pointer / 12600, b2, b3, b4;
    pointer %= 12600;
    b2 = pointer / 1260;
    pointer %= 1260;
    b3 = pointer / 10;
    b4 = pointer % 10;
    return ((b1 + 0x81) << 24) | ((b2 + 0x30) << 16) | ((b3 + 0x81) << 8) | (b4 + 0x30);
}

enum { ISO_ASCII = 0, ISO_ROMAN = 1, ISO_JIS0208 = 2 };

static void
out_escape(OutBytes *o, int state)
{
    *o->p++ = 0x1B;
    *o->p++ = state == ISO_JIS0208 ? '$' : '(';
    *o->p++ = state == ISO_JIS0208 ? 'B' : state == ISO_ROMAN ? 'J' : 'B';
}

/* The stateless table encoders over text of one Unicode kind (inlined once per kind). Stops
 * at the end, at an error in fatal mode, or at an astral code point if stop_astral. */
static ALWAYS_INLINE int
encode_table_run(OutBytes *o, const void *data, const int ukind, Py_ssize_t *pos, Py_ssize_t n,
                 const uint32_t *t, int kind, int html, int stop_astral)
{
    Py_ssize_t i = *pos;
    char *p = o->p;
    while (i < n) {
        if (o->end - p < 16) {
            o->p = p;
            if (out_reserve(o, 16) < 0) {
                return -1;
            }
            p = o->p;
        }
        /* Whole runs that need no check for room: at most 4 bytes per character. */
        Py_ssize_t run_end = i + (o->end - p - 12) / 4;
        if (run_end > n) {
            run_end = n;
        }
        for (; i < run_end; i++) {
            Py_UCS4 cp = PyUnicode_READ(ukind, data, i);
            if (cp < 0x80) {
                *p++ = (char)cp;
                continue;
            }
            uint32_t v;
            if (cp < 0x10000) {
                v = t[ukind == PyUnicode_1BYTE_KIND || cp < 0xD800 || cp > 0xDFFF ? cp : 0xFFFD];
            } else if (kind == ENC_GB18030) {
                v = gb18030_four(cp);
            } else if (stop_astral) {
                goto stop;
            } else {
                v = 0;
            }
            if (v < 0x100 && v) {
                *p++ = (char)v;
            } else if (v && v < 0x10000) {
                *p++ = (char)(v >> 8);
                *p++ = (char)(v & 0xFF);
            } else if (v) {
                *p++ = (char)(v >> 24);
                *p++ = (char)((v >> 16) & 0xFF);
                *p++ = (char)((v >> 8) & 0xFF);
                *p++ = (char)(v & 0xFF);
            } else if (html) {
                o->p = p;
                out_html(o, ukind != PyUnicode_1BYTE_KIND && cp >= 0xD800 && cp <= 0xDFFF
                                ? 0xFFFD
                                : cp);
                p = o->p;
                i++;
                break; /* the run's room is used up faster than counted: recount */
            } else {
                goto stop;
            }
        }
    }
stop:
    o->p = p;
    *pos = i;
    return 0;
}

/* The ISO-2022-JP encoder over text of one Unicode kind (inlined once per kind). */
static ALWAYS_INLINE int
encode_iso_run(OutBytes *o, const void *data, const int ukind, Py_ssize_t *pos, Py_ssize_t n,
               const uint32_t *t, int html, int *state_p)
{
    Py_ssize_t i = *pos;
    int state = *state_p;
    while (i < n) {
        /* The widest write per step: "&#1114111;" after an escape sequence. */
        if (o->end - o->p < 16 && out_reserve(o, 16) < 0) {
            return -1;
        }
        Py_UCS4 cp = PyUnicode_READ(ukind, data, i);
        if (cp >= 0xD800 && cp <= 0xDFFF) {
            cp = 0xFFFD;
        }
        /* ISO-2022-JP: the spec's encoder steps; "restore" = go round without moving on. */
        if (state != ISO_JIS0208 && (cp == 0x0E || cp == 0x0F || cp == 0x1B)) {
            if (!html) {
                goto stop;
            }
            out_html(o, 0xFFFD); /* ASCII digits: the same bytes in the ASCII and Roman states */
            i++;
            continue;
        }
        if (state == ISO_ASCII && cp < 0x80) {
            *o->p++ = (char)cp;
            i++;
            continue;
        }
        if (state == ISO_ROMAN &&
            ((cp < 0x80 && cp != 0x5C && cp != 0x7E) || cp == 0xA5 || cp == 0x203E)) {
            *o->p++ = (char)(cp == 0xA5 ? 0x5C : cp == 0x203E ? 0x7E : cp);
            i++;
            continue;
        }
        if (cp < 0x80 || cp == 0xA5 || cp == 0x203E) {
            state = cp < 0x80 ? ISO_ASCII : ISO_ROMAN;
            out_escape(o, state);
            continue;
        }
        uint32_t v = cp < 0x10000 ? t[cp] : 0;
        if (v) {
            if (state != ISO_JIS0208) {
                state = ISO_JIS0208;
                out_escape(o, state);
            }
            out_packed(o, v);
            i++;
            continue;
        }
        if (state == ISO_JIS0208) {
            state = ISO_ASCII;
            out_escape(o, state);
        }
        if (!html) {
            goto stop;
        }
        out_html(o, cp);
        i++;
    }
stop:
    *pos = i;
    *state_p = state;
    return 0;
}

PyDoc_STRVAR(encode_doc,
"encode(text, start, table, kind, html, stop_astral, /)\n--\n\n"
"Encode ``text[start:]`` with an encoder table (65536 uint32, see encoders.encoder_table).\n"
"``kind``: 0 a table encoder, 1 gb18030 (astral code points as four bytes), 2 ISO-2022-JP.\n"
"Returns ``(bytes, stop)``: ``stop`` is len(text) when done, else the position of a code\n"
"point left to the caller (an error in fatal mode; any astral code point if stop_astral).");

/* Encode text[start:] into a new bytes object; *stop is where it stopped (len(text) when
 * done). NULL with an exception on failure. */
static PyObject *
encode_core(PyObject *text, Py_ssize_t start, const uint32_t *t, int kind, int html,
            int stop_astral, Py_ssize_t *stop)
{
    const int ukind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    const Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (start < 0) {
        start = 0;
    }
    if (start > n) {
        start = n;
    }
    Py_ssize_t cap = 2 * (n - start) + 16;
    OutBytes o;
    o.bytes = PyBytes_FromStringAndSize(NULL, cap);
    if (o.bytes == NULL) {
        return NULL;
    }
    o.p = PyBytes_AS_STRING(o.bytes);
    o.end = o.p + cap;
    Py_ssize_t i = start;
    int state = ISO_ASCII;
    int r;
    if (kind != ENC_ISO_2022_JP) {
        r = ukind == PyUnicode_1BYTE_KIND
                ? encode_table_run(&o, data, PyUnicode_1BYTE_KIND, &i, n, t, kind, html,
                                   stop_astral)
            : ukind == PyUnicode_2BYTE_KIND
                ? encode_table_run(&o, data, PyUnicode_2BYTE_KIND, &i, n, t, kind, html,
                                   stop_astral)
                : encode_table_run(&o, data, PyUnicode_4BYTE_KIND, &i, n, t, kind, html,
                                   stop_astral);
    } else {
        r = ukind == PyUnicode_1BYTE_KIND
                ? encode_iso_run(&o, data, PyUnicode_1BYTE_KIND, &i, n, t, html, &state)
            : ukind == PyUnicode_2BYTE_KIND
                ? encode_iso_run(&o, data, PyUnicode_2BYTE_KIND, &i, n, t, html, &state)
                : encode_iso_run(&o, data, PyUnicode_4BYTE_KIND, &i, n, t, html, &state);
        if (r == 0 && i >= n && state != ISO_ASCII) {
            r = out_reserve(&o, 3);
            if (r == 0) {
                out_escape(&o, ISO_ASCII);
            }
        }
    }
    if (r < 0) {
        Py_XDECREF(o.bytes);
        return NULL;
    }
    if (_PyBytes_Resize(&o.bytes, o.p - PyBytes_AS_STRING(o.bytes)) < 0) {
        return NULL;
    }
    *stop = i;
    return o.bytes;
}

static int
get_table(PyObject *obj, Py_buffer *view, int kind)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) {
        return -1;
    }
    if (view->len != 4 * 0x10000 || kind < 0 || kind > 2) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "encode: bad table or kind");
        return -1;
    }
    return 0;
}

static PyObject *
speedups_encode(PyObject *module, PyObject *args)
{
    PyObject *text, *table_obj;
    Py_ssize_t start, stop = 0;
    Py_buffer table;
    int kind, html, stop_astral;
    if (!PyArg_ParseTuple(args, "UnOipp:encode", &text, &start, &table_obj, &kind, &html,
                          &stop_astral)) {
        return NULL;
    }
    if (get_table(table_obj, &table, kind) < 0) {
        return NULL;
    }
    PyObject *out = encode_core(text, start, (const uint32_t *)table.buf, kind, html,
                                stop_astral, &stop);
    PyBuffer_Release(&table);
    if (out == NULL) {
        return NULL;
    }
    return Py_BuildValue("(Nn)", out, stop);
}

PyDoc_STRVAR(codec_encode_doc,
"codec_encode(table, kind, stop_astral, fallback, text, errors='strict', /)\n--\n\n"
"A codec's encode function (bound to an encoder with functools.partial): ``(bytes, len)``\n"
"in error mode html for errors 'strict', 'xmlcharrefreplace' or 'html'; any other errors\n"
"value, or an astral code point with stop_astral, is left to ``fallback(text, errors)``.");

static PyObject *
speedups_codec_encode(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 5 || nargs > 6) {
        PyErr_SetString(PyExc_TypeError, "codec_encode takes 5 or 6 arguments");
        return NULL;
    }
    PyObject *table_obj = args[0], *fallback = args[3], *text = args[4];
    int kind = (int)PyLong_AsLong(args[1]);
    int stop_astral = PyObject_IsTrue(args[2]);
    if ((kind == -1 || stop_astral < 0) && PyErr_Occurred()) {
        return NULL;
    }
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "can't encode %.100s, only str", Py_TYPE(text)->tp_name);
        return NULL;
    }
    int html = 1;
    if (nargs == 6) {
        PyObject *errors = args[5];
        if (!PyUnicode_Check(errors)) {
            PyErr_SetString(PyExc_TypeError, "errors must be a str");
            return NULL;
        }
        html = PyUnicode_CompareWithASCIIString(errors, "strict") == 0 ||
               PyUnicode_CompareWithASCIIString(errors, "xmlcharrefreplace") == 0 ||
               PyUnicode_CompareWithASCIIString(errors, "html") == 0;
    }
    if (kind == ENC_UTF8) {
        /* Every errors value gives the same bytes (UTF-8 lacks no scalar value); a lone
         * surrogate (U+FFFD to the spec) makes Python's encoder fail: the fallback does it. */
        PyObject *out = PyUnicode_AsUTF8String(text);
        if (out == NULL) {
            if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
                return NULL;
            }
            PyErr_Clear();
            return PyObject_CallFunction(fallback, "(Os)", text, "strict");
        }
        return Py_BuildValue("(Nn)", out, PyUnicode_GET_LENGTH(text));
    }
    if (!html) {
        PyObject *call_args = Py_BuildValue("(OO)", text, args[5]);
        if (call_args == NULL) {
            return NULL;
        }
        PyObject *result = PyObject_CallObject(fallback, call_args);
        Py_DECREF(call_args);
        return result;
    }
    Py_buffer table;
    if (get_table(table_obj, &table, kind) < 0) {
        return NULL;
    }
    Py_ssize_t stop = 0;
    PyObject *out =
        encode_core(text, 0, (const uint32_t *)table.buf, kind, 1, stop_astral, &stop);
    PyBuffer_Release(&table);
    if (out == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (stop < n) {
        Py_DECREF(out);
        PyObject *call_args = Py_BuildValue("(Os)", text, "strict");
        if (call_args == NULL) {
            return NULL;
        }
        PyObject *result = PyObject_CallObject(fallback, call_args);
        Py_DECREF(call_args);
        return result;
    }
    return Py_BuildValue("(Nn)", out, n);
}

PyDoc_STRVAR(encode_html_doc,
"encode_html(table, kind, stop_astral, fallback, text, /)\n--\n\n"
"``text`` encoded in error mode html (bound with functools.partial, so a call runs no Python\n"
"code): the bytes; with stop_astral, a text with an astral code point is left to\n"
"``fallback(text)``.");

static PyObject *
speedups_encode_html(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "encode_html takes 5 arguments");
        return NULL;
    }
    PyObject *fallback = args[3], *text = args[4];
    int kind = (int)PyLong_AsLong(args[1]);
    int stop_astral = PyObject_IsTrue(args[2]);
    if ((kind == -1 || stop_astral < 0) && PyErr_Occurred()) {
        return NULL;
    }
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "text must be str, not %.100s", Py_TYPE(text)->tp_name);
        return NULL;
    }
    Py_buffer table;
    if (get_table(args[0], &table, kind) < 0) {
        return NULL;
    }
    Py_ssize_t stop = 0;
    PyObject *out =
        encode_core(text, 0, (const uint32_t *)table.buf, kind, 1, stop_astral, &stop);
    PyBuffer_Release(&table);
    if (out != NULL && stop < PyUnicode_GET_LENGTH(text)) {
        Py_DECREF(out);
        return PyObject_CallOneArg(fallback, text);
    }
    return out;
}

/* ---- Detection: counting the non-ASCII bytes of a sample ------------------------------------
 * For scrapy_charset.sniffing.letters (its pure-Python fallback is a collections.Counter):
 * which bytes 0x80-0xFF a sample holds and how often, in the order they first occur. */

/* The offset of the first byte 0x80-0xFF of s[i:n], or -1: sixteen bytes at a time by their
 * high bits where SSE2 is there, else eight by a mask. */
static Py_ssize_t
high_byte_from(const unsigned char *s, Py_ssize_t n, Py_ssize_t i)
{
#if defined(__SSE2__)
    for (; i + 16 <= n; i += 16) {
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(s + i)));
        if (mask != 0) {
            return i + __builtin_ctz(mask);
        }
    }
#endif
    for (; i + 8 <= n; i += 8) {
        uint64_t word;
        memcpy(&word, s + i, 8);
        if (word & 0x8080808080808080ULL) {
            break;
        }
    }
    for (; i < n; i++) {
        if (s[i] >= 0x80) {
            return i;
        }
    }
    return -1;
}

static PyObject *
speedups_first_high_byte(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "first_high_byte takes data and start");
        return NULL;
    }
    Py_ssize_t start = PyLong_AsSsize_t(args[1]);
    if (start == -1 && PyErr_Occurred()) {
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    Py_ssize_t found = high_byte_from(view.buf, view.len, start < 0 ? 0 : start);
    PyBuffer_Release(&view);
    return PyLong_FromSsize_t(found);
}

/* ---- UTF-8: bytes.decode("utf-8", "replace"), the spec's decoder ----------------------------
 * Written into a str made once at its length and kind: no widening, no realloc. After a
 * leading run of ASCII and U+0080-U+00FF, written as it is checked (utf8_decode), the rest is
 * first taken to be valid, as most pages are: utf8_measure reads it once, 64 bytes at a time
 * where SSE2 is there, and learns its length and widest character were it valid (a character
 * per byte that is not a continuation byte, 80-BF; the widest from the highest byte: below 80
 * ASCII, below C4 U+00FF at most, below F0 U+FFFF at most, else beyond), and utf8_write
 * writes it, validating each sequence as the spec does (the second byte's range after E0, ED,
 * F0 and F4: utf8_second), and stops at the first invalid one (it never writes more
 * characters than measured: each takes a byte that is not a continuation byte). From there,
 * or at once where a byte never in UTF-8 (F5-FF) is there (random bytes: the measuring stops
 * at the 64 bytes holding it), the spec's error path: utf8_write writes the rest after the
 * text so far, one U+FFFD for each error (a maximal subpart), which makes the str at least a
 * 2-byte one. Where no byte F0-F4 follows (no character beyond U+FFFF), into a str as long as
 * the rest's bytes, cut to what was written: one pass. Else utf8_count first counts the
 * characters of the rest, sixteen bytes at a time (a character for each byte not taken into a
 * sequence before it, which needs no step from sequence to sequence). */

#if defined(__SSE2__)
/* The continuation bytes (80-BF: as signed bytes, those below (char)0xC0) of a block, added
 * to a count per lane (each of which then must be summed before it passes 255). */
static ALWAYS_INLINE __m128i
count_continuations(__m128i counts, __m128i v)
{
    return _mm_sub_epi8(counts, _mm_cmplt_epi8(v, _mm_set1_epi8((char)0xC0)));
}

static ALWAYS_INLINE Py_ssize_t
lane_sum(__m128i counts)
{
    __m128i sums = _mm_sad_epu8(counts, _mm_setzero_si128());
    return _mm_extract_epi16(sums, 0) + _mm_extract_epi16(sums, 4);
}
#endif

/* The length of the text s[0:n] would give and its widest character, were s valid UTF-8:
 * 64 bytes at a time where SSE2 is there, passed over at once where all are ASCII. Returns 0
 * where s holds a byte that is never in UTF-8 (F5-FF): then it is not valid (the length and
 * widest character are not set; the 64 bytes holding the first are read at most), else 1. */
static int
utf8_measure(const unsigned char *s, Py_ssize_t n, Py_ssize_t *length, Py_UCS4 *maxchar)
{
    Py_ssize_t i = 0, continuations = 0;
    unsigned highest = 0;
#if defined(__SSE2__)
    __m128i top = _mm_setzero_si128(), counts, never = _mm_set1_epi8((char)0xF5);
    while (i + 64 <= n) {
        counts = _mm_setzero_si128();
        for (int groups = 0; groups < 63 && i + 64 <= n; groups++, i += 64) {
            const __m128i *p = (const __m128i *)(s + i);
            __m128i a = _mm_loadu_si128(p), b = _mm_loadu_si128(p + 1);
            __m128i c = _mm_loadu_si128(p + 2), d = _mm_loadu_si128(p + 3);
            __m128i any = _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d));
            if (_mm_movemask_epi8(any) == 0) {
                continue;
            }
            __m128i most = _mm_max_epu8(_mm_max_epu8(a, b), _mm_max_epu8(c, d));
            if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(most, never), most)) != 0) {
                return 0; /* random bytes stop here */
            }
            top = _mm_max_epu8(top, most);
            counts = count_continuations(count_continuations(counts, a), b);
            counts = count_continuations(count_continuations(counts, c), d);
        }
        continuations += lane_sum(counts);
    }
    counts = _mm_setzero_si128();
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(s + i));
        top = _mm_max_epu8(top, v);
        counts = count_continuations(counts, v);
    }
    continuations += lane_sum(counts);
    unsigned char lanes[16];
    _mm_storeu_si128((__m128i *)lanes, top);
    for (int k = 0; k < 16; k++) {
        highest = lanes[k] > highest ? lanes[k] : highest;
    }
#endif
    for (; i < n; i++) {
        continuations += (s[i] & 0xC0) == 0x80;
        highest = s[i] > highest ? s[i] : highest;
    }
    *length = n - continuations;
    *maxchar = highest < 0x80 ? 0x7F : highest < 0xC4 ? 0xFF : highest < 0xF0 ? 0xFFFF : 0x10FFFF;
    return highest < 0xF5;
}

#define CONTINUATION(b) (((b) & 0xC0) == 0x80)

/* Whether b is in the range of the byte after lead, a lead of a sequence (C2-F4; else never):
 * A0-BF after E0, 80-9F after ED (no surrogates), 90-BF after F0, 80-8F after F4 (no more
 * than U+10FFFF), else 80-BF. */
static ALWAYS_INLINE int
utf8_second(unsigned lead, unsigned b)
{
    return lead >= 0xC2 && lead <= 0xF4 &&
           b >= (lead == 0xE0 ? 0xA0u : lead == 0xF0 ? 0x90u : 0x80u) &&
           b <= (lead == 0xED ? 0x9Fu : lead == 0xF4 ? 0x8Fu : 0xBFu);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* Text of ASCII, two- and three-byte sequences sixteen bytes at a time where the CPU has
 * SSSE3: Cyrillic, Greek, Arabic, CJK, Hangul, Thai... with their spaces, markup and
 * punctuation into a 2-byte str (utf8_write), and ASCII with U+0080-U+00FF (French, German,
 * Spanish...: leads C2 and C3) into a 1-byte one (the leading run, copy_latin). A block's
 * bytes are checked at once (each continuation byte taken by a lead before it, each lead
 * followed by as many as it announces; no byte C0, C1 or above the highest lead; the second
 * byte's range after E0 and ED), a 16-bit value is made for each byte (its character where it
 * is ASCII or a lead, anything where it is a continuation byte), and the values of the bytes
 * that are not continuation bytes are packed together by a shuffle, eight lanes at a time
 * (keep_lanes: the shuffle for each set of lanes kept). Anything else in a block leaves it to
 * the byte-by-byte loop, which finds errors as the spec does. */
#define HAVE_UTF8_BLOCKS 1
#include <tmmintrin.h>
static unsigned char keep_lanes[256][16];
static int utf8_blocks = 0; /* set by utf8_blocks_init where the CPU has SSSE3 */

static void
utf8_blocks_init(void)
{
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("ssse3") || !__builtin_cpu_supports("popcnt")) {
        return;
    }
    for (int kept = 0; kept < 256; kept++) {
        int at = 0;
        for (int lane = 0; lane < 8; lane++) {
            if (kept >> lane & 1) {
                keep_lanes[kept][at++] = (unsigned char)(2 * lane);
                keep_lanes[kept][at++] = (unsigned char)(2 * lane + 1);
            }
        }
        while (at < 16) {
            keep_lanes[kept][at++] = 0x80; /* (a zero lane, written over later) */
        }
    }
    utf8_blocks = 1;
}

/* Eight bytes of a block as 16-bit lanes (bytes, the bytes after them and after those, all
 * bits set where a two-byte or a three-byte lead is): each lead's character from it and the
 * bytes after it, each ASCII byte as it is; the lanes of kept (a bit per lane) packed together
 * and written at out in characters of kind (1 or 2 bytes: eight or sixteen bytes written).
 * Returns how many were kept. With three 0 (a block without three-byte leads), after2 and
 * leads3 are not read. */
__attribute__((target("ssse3,popcnt"))) static inline int
utf8_eight(__m128i bytes, __m128i after, __m128i after2, __m128i leads2, __m128i leads3,
           unsigned kept, void *out, int kind, const int three)
{
    const __m128i low6 = _mm_and_si128(after, _mm_set1_epi16(0x3F));
    const __m128i pair =
        _mm_or_si128(_mm_slli_epi16(_mm_and_si128(bytes, _mm_set1_epi16(0x1F)), 6), low6);
    __m128i chars = _mm_or_si128(_mm_and_si128(leads2, pair), _mm_andnot_si128(leads2, bytes));
    if (three) { /* (a 16-bit shift by 12 keeps the lead's low four bits) */
        const __m128i triple =
            _mm_or_si128(_mm_or_si128(_mm_slli_epi16(bytes, 12), _mm_slli_epi16(low6, 6)),
                         _mm_and_si128(after2, _mm_set1_epi16(0x3F)));
        chars = _mm_or_si128(_mm_and_si128(leads3, triple), _mm_andnot_si128(leads3, chars));
    }
    const __m128i shuffle = _mm_loadu_si128((const __m128i *)keep_lanes[kept]);
    const __m128i packed = _mm_shuffle_epi8(chars, shuffle);
    if (kind == PyUnicode_2BYTE_KIND) {
        _mm_storeu_si128((__m128i *)out, packed);
    } else {
        _mm_storel_epi64((__m128i *)out, _mm_packus_epi16(packed, packed));
    }
    return __builtin_popcount(kept);
}

/* s[i:n] written into out (a str of kind 1 or 2) from character *k on, block by block of
 * sixteen bytes, while a block is ASCII and whole sequences of two bytes with leads C2-C3
 * (kind 1), or of two and three bytes with leads C2-EF (kind 2: no surrogate, no overlong
 * form), and sixteen more characters fit before length: returns where it stopped in s and
 * moves *k past the characters written. A lead near a block's end is written with the
 * continuation bytes after it (the next block starts with those, already taken), so that
 * every block starts sixteen bytes after the last: no block's loads wait for the one before.
 * Each block writes sixteen characters; those after the ones it made are written over by the
 * next block (or the byte-by-byte loop). A block of ASCII only is widened as it is. A block
 * that goes wrong somewhere (an invalid sequence, a wider character) is written up to the
 * sequence before the one it goes wrong in, and the blocks stop there. */
__attribute__((target("ssse3,popcnt"))) static Py_ssize_t
utf8_blocks_of(const unsigned char *s, Py_ssize_t n, Py_ssize_t i, void *out, Py_ssize_t *k,
               Py_ssize_t length, int kind)
{
    const __m128i zero = _mm_setzero_si128(), c0 = _mm_set1_epi8((char)0xC0);
    const __m128i fe = _mm_set1_epi8((char)0xFE), e0 = _mm_set1_epi8((char)0xE0);
    const __m128i ed = _mm_set1_epi8((char)0xED), bit5 = _mm_set1_epi8(0x20);
    const __m128i past_leads = _mm_set1_epi8((char)(kind == PyUnicode_2BYTE_KIND ? 0xF0 : 0xC4));
    Py_ssize_t at = *k;
    unsigned carried = 0; /* the bytes at the start of this block that the last one took */
    while (i + 18 <= n && at + 16 <= length) {
        const __m128i v = _mm_loadu_si128((const __m128i *)(s + i));
        const unsigned high = (unsigned)_mm_movemask_epi8(v);
        char *to = (char *)out + at * kind;
        if (high == 0 && carried == 0) { /* ASCII */
            if (kind == PyUnicode_2BYTE_KIND) {
                _mm_storeu_si128((__m128i *)to, _mm_unpacklo_epi8(v, zero));
                _mm_storeu_si128((__m128i *)to + 1, _mm_unpackhi_epi8(v, zero));
            } else {
                _mm_storeu_si128((__m128i *)to, v);
            }
            at += 16;
            i += 16;
            continue;
        }
        const __m128i next = _mm_loadu_si128((const __m128i *)(s + i + 1));
        const __m128i above = _mm_cmpeq_epi8(_mm_max_epu8(v, past_leads), v);
        const __m128i c0_c1 = _mm_cmpeq_epi8(_mm_and_si128(v, fe), c0);
        /* (as signed bytes: continuation bytes 80-BF are below (char)0xC0, leads between it
         * and zero) */
        const __m128i is_cont = _mm_cmplt_epi8(v, c0);
        const unsigned cont = (unsigned)_mm_movemask_epi8(is_cont);
        const __m128i is_lead3 = _mm_cmpeq_epi8(_mm_max_epu8(v, e0), v); /* E0-EF */
        const unsigned lead3 = (unsigned)_mm_movemask_epi8(is_lead3);
        const unsigned lead = high & ~cont;
        const unsigned taken = (lead << 1) | (lead3 << 2) | carried; /* continuation bytes */
        const unsigned mismatch = (cont ^ taken) & 0xFFFF;
        if (mismatch & 0xF) {
            break; /* (within four bytes: too few to write as a block; the loop's, at once) */
        }
        /* The places where the block is not as the checks want it (a bit per byte; 16 and 17
         * for the bytes after it that a lead near its end takes) */
        unsigned wrong = (unsigned)_mm_movemask_epi8(_mm_or_si128(above, c0_c1)) |
                         mismatch |
                         (taken & 0x10000 && !CONTINUATION(s[i + 16]) ? 0x10000u : 0) |
                         (taken & 0x20000 && !CONTINUATION(s[i + 17]) ? 0x20000u : 0);
        if (lead3) {
            /* The second byte after E0 is A0-BF (no overlong form), after ED 80-9F (no
             * surrogate): bit 5 set after E0, clear after ED. */
            const __m128i second5 = _mm_cmpeq_epi8(_mm_and_si128(next, bit5), bit5);
            wrong |= (unsigned)_mm_movemask_epi8(
                _mm_or_si128(_mm_andnot_si128(second5, _mm_cmpeq_epi8(v, e0)),
                             _mm_and_si128(second5, _mm_cmpeq_epi8(v, ed))));
        }
        unsigned kept = ~cont & 0xFFFF;
        Py_ssize_t step = 16;
        if (wrong) {
            /* Only the sequences before the one holding (or cut short by) the first wrong
             * place are written: those before the last lead or ASCII byte ahead of it (every
             * byte before that place is as the checks want). */
            kept &= (1u << __builtin_ctz(wrong)) - 1;
            if (kept == 0) {
                break;
            }
            step = 31 - __builtin_clz(kept);
            kept &= (1u << step) - 1;
            if (kept == 0) {
                break;
            }
        }
        const __m128i is_lead = _mm_andnot_si128(is_cont, _mm_cmplt_epi8(v, zero));
        if (lead3) {
            const __m128i next2 = _mm_loadu_si128((const __m128i *)(s + i + 2));
            const __m128i lead2 = _mm_andnot_si128(is_lead3, is_lead);
            at += utf8_eight(_mm_unpacklo_epi8(v, zero), _mm_unpacklo_epi8(next, zero),
                             _mm_unpacklo_epi8(next2, zero), _mm_unpacklo_epi8(lead2, lead2),
                             _mm_unpacklo_epi8(is_lead3, is_lead3), kept & 0xFF, to, kind, 1);
            at += utf8_eight(_mm_unpackhi_epi8(v, zero), _mm_unpackhi_epi8(next, zero),
                             _mm_unpackhi_epi8(next2, zero), _mm_unpackhi_epi8(lead2, lead2),
                             _mm_unpackhi_epi8(is_lead3, is_lead3), kept >> 8,
                             (char *)out + at * kind, kind, 1);
        } else {
            at += utf8_eight(_mm_unpacklo_epi8(v, zero), _mm_unpacklo_epi8(next, zero), zero,
                             _mm_unpacklo_epi8(is_lead, is_lead), zero, kept & 0xFF, to, kind, 0);
            at += utf8_eight(_mm_unpackhi_epi8(v, zero), _mm_unpackhi_epi8(next, zero), zero,
                             _mm_unpackhi_epi8(is_lead, is_lead), zero, kept >> 8,
                             (char *)out + at * kind, kind, 0);
        }
        if (step < 16) {
            i += step;
            carried = 0;
            break;
        }
        carried = taken >> 16;
        i += 16;
    }
    *k = at;
    return i + __builtin_popcount(carried); /* (past continuation bytes already written) */
}
#endif

/* Writes the text of s[i:n] into data from character k on (a str of the given kind and
 * length, holding the text of s[0:i] in its first k characters already), each sequence
 * validated as the spec does (utf8_second): with replace, one U+FFFD for each invalid
 * sequence's maximal subpart (the lead, the second byte if in range, the third if a
 * continuation byte: the str then is as long as utf8_count says); else stopping at the first
 * invalid sequence. Returns where it stopped in s (n if it did not) and sets *written to the
 * characters written in all. ASCII is written sixteen characters at a time (widened to the
 * kind) while sixteen more fit in the str; a block's characters after its first non-ASCII
 * byte are written over by the next ones. */
#define UTF8_BLOCKS_AGAIN 64
static ALWAYS_INLINE Py_ssize_t
utf8_write(const unsigned char *s, Py_ssize_t n, Py_ssize_t i, void *data, Py_ssize_t k,
           Py_ssize_t length, Py_ssize_t *written, const int kind, const int replace)
{
    /* Where a block was tried and stopped within sixteen bytes (at an invalid sequence: a
     * stray byte every few letters), none is tried again for UTF8_BLOCKS_AGAIN bytes. */
#ifdef HAVE_UTF8_BLOCKS
    Py_ssize_t blocks_from = 0;
#endif
next:
    while (i < n && (!replace || k < length)) {
        Py_UCS4 b = s[i], cp;
        if (b < 0x80) {
#if defined(__SSE2__)
            const __m128i zero = _mm_setzero_si128();
            while (i + 16 <= n && k + 16 <= length) {
                __m128i v = _mm_loadu_si128((const __m128i *)(s + i));
                unsigned mask = (unsigned)_mm_movemask_epi8(v);
                if (kind == PyUnicode_1BYTE_KIND) {
                    _mm_storeu_si128((__m128i *)((Py_UCS1 *)data + k), v);
                } else {
                    __m128i low = _mm_unpacklo_epi8(v, zero), high = _mm_unpackhi_epi8(v, zero);
                    if (kind == PyUnicode_2BYTE_KIND) {
                        _mm_storeu_si128((__m128i *)((Py_UCS2 *)data + k), low);
                        _mm_storeu_si128((__m128i *)((Py_UCS2 *)data + k + 8), high);
                    } else {
                        Py_UCS4 *out = (Py_UCS4 *)data + k;
                        _mm_storeu_si128((__m128i *)out, _mm_unpacklo_epi16(low, zero));
                        _mm_storeu_si128((__m128i *)(out + 4), _mm_unpackhi_epi16(low, zero));
                        _mm_storeu_si128((__m128i *)(out + 8), _mm_unpacklo_epi16(high, zero));
                        _mm_storeu_si128((__m128i *)(out + 12), _mm_unpackhi_epi16(high, zero));
                    }
                }
                if (mask != 0) {
                    unsigned ascii = (unsigned)__builtin_ctz(mask);
                    i += ascii;
                    k += ascii;
                    break;
                }
                i += 16;
                k += 16;
            }
            if (i >= n || s[i] >= 0x80) {
                continue;
            }
            b = s[i];
#endif
            PyUnicode_WRITE(kind, data, k++, b);
            i++;
            continue;
        }
#ifdef HAVE_UTF8_BLOCKS
        /* (Not at an invalid sequence: text in a legacy encoding declared UTF-8 has one
         * every few letters, and a block would be tried and given up at each.) */
        if (kind == PyUnicode_2BYTE_KIND && utf8_blocks && i >= blocks_from && b < 0xF0 &&
            i + 1 < n && utf8_second(b, s[i + 1])) {
            Py_ssize_t at = k; /* (k itself stays in a register) */
            const Py_ssize_t to = utf8_blocks_of(s, n, i, data, &at, length, kind);
            if (to - i < 16) {
                blocks_from = to + UTF8_BLOCKS_AGAIN;
            }
            if (to != i) {
                i = to;
                k = at;
                continue;
            }
        }
#endif
        if (b < 0xE0) { /* C2-DF, then one continuation byte */
            if (b < 0xC2 || i + 1 >= n || !CONTINUATION(s[i + 1])) {
                goto invalid;
            }
            cp = (b & 0x1F) << 6 | (s[i + 1] & 0x3F);
            i += 2;
        } else if (b < 0xF0) { /* E0-EF: A0-BF after E0, 80-9F after ED (no surrogates) */
            if (i + 2 >= n) {
                goto invalid;
            }
            Py_UCS4 c1 = s[i + 1], c2 = s[i + 2];
            if (c1 < (b == 0xE0 ? 0xA0 : 0x80) || c1 > (b == 0xED ? 0x9F : 0xBF) ||
                !CONTINUATION(c2)) {
                goto invalid;
            }
            cp = (b & 0x0F) << 12 | (c1 & 0x3F) << 6 | (c2 & 0x3F);
            i += 3;
        } else { /* F0-F4: 90-BF after F0, 80-8F after F4 (no more than U+10FFFF) */
            if (b > 0xF4 || i + 3 >= n) {
                goto invalid;
            }
            Py_UCS4 c1 = s[i + 1], c2 = s[i + 2], c3 = s[i + 3];
            if (c1 < (b == 0xF0 ? 0x90 : 0x80) || c1 > (b == 0xF4 ? 0x8F : 0xBF) ||
                !CONTINUATION(c2) || !CONTINUATION(c3)) {
                goto invalid;
            }
            cp = (b & 0x07) << 18 | (c1 & 0x3F) << 12 | (c2 & 0x3F) << 6 | (c3 & 0x3F);
            i += 4;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            if (kind == PyUnicode_4BYTE_KIND) {
                /* A run of them (emoji): each next one as a 32-bit word, a lead F0-F7 and
                 * three continuation bytes checked at once, then the lead's and the second
                 * byte's ranges; anything else goes back to the loop above. */
                Py_UCS4 *out = (Py_UCS4 *)data;
                uint32_t w;
                out[k++] = cp;
                while (i + 4 <= n && k < length &&
                       (memcpy(&w, s + i, 4), (w & 0xC0C0C0F8u) == 0x808080F0u)) {
                    const unsigned lead = w & 0xFF, second = (w >> 8) & 0xFF;
                    if (lead > 0xF4 || (lead == 0xF0 && second < 0x90) ||
                        (lead == 0xF4 && second > 0x8F)) {
                        break;
                    }
                    out[k++] = (w & 0x07) << 18 | (w & 0x3F00) << 4 | ((w >> 10) & 0xFC0) |
                               ((w >> 24) & 0x3F);
                    i += 4;
                }
                continue;
            }
#endif
        }
        PyUnicode_WRITE(kind, data, k++, cp);
    }
    *written = k;
    return i;
invalid: /* out of the loop, so that a valid character costs no jump over this */
    if (replace) {
        /* The third byte is a continuation byte only after a lead F0-F4 here. */
        i += i + 1 >= n || !utf8_second(s[i], s[i + 1]) ? 1
             : i + 2 < n && CONTINUATION(s[i + 2]) ? 3
                                                  : 2;
        PyUnicode_WRITE(kind, data, k++, REPLACEMENT);
        goto next;
    }
    *written = k;
    return i;
}

/* Whether s[p] is taken into the sequence of a lead before it, from (where the decoder is
 * between characters) on: a continuation byte that is the second byte in range after a lead,
 * or the third after a lead E0-F4 and a second byte in range, or the fourth after a lead F0-F4,
 * a second byte in range and a continuation byte (valid or cut short, the maximal subpart).
 * Every other byte begins a character (an error is one U+FFFD). */
static ALWAYS_INLINE int
utf8_taken(const unsigned char *s, Py_ssize_t from, Py_ssize_t p)
{
    return CONTINUATION(s[p]) &&
           ((p - 1 >= from && utf8_second(s[p - 1], s[p])) ||
            (p - 2 >= from && s[p - 2] >= 0xE0 && utf8_second(s[p - 2], s[p - 1])) ||
            (p - 3 >= from && s[p - 3] >= 0xF0 && utf8_second(s[p - 3], s[p - 2]) &&
             CONTINUATION(s[p - 1])));
}

/* Whether s[p] ends a character beyond U+FFFF (F0-F4, a second byte in range, two
 * continuation bytes), from on. */
#define UTF8_FOURTH(s, from, p)                                                              \
    ((p) - 3 >= (from) && (s)[(p) - 3] >= 0xF0 && utf8_second((s)[(p) - 3], (s)[(p) - 2]) && \
     CONTINUATION((s)[(p) - 1]) && CONTINUATION((s)[p]))

#if defined(__SSE2__)
/* Where v is in lo-hi (bytes as unsigned): 0xFF, else 0. */
static ALWAYS_INLINE __m128i
in_range_x16(__m128i v, __m128i lo, __m128i hi)
{
    return _mm_and_si128(_mm_cmpeq_epi8(_mm_max_epu8(v, lo), v),
                         _mm_cmpeq_epi8(_mm_min_epu8(v, hi), v));
}

/* utf8_second of sixteen leads and the sixteen bytes after them: 0xFF where true. */
static ALWAYS_INLINE __m128i
utf8_second_x16(__m128i lead, __m128i b)
{
    const __m128i bit10 = _mm_set1_epi8(0x10), bit20 = _mm_set1_epi8(0x20);
    const __m128i e0 = _mm_cmpeq_epi8(lead, _mm_set1_epi8((char)0xE0));
    const __m128i f0 = _mm_cmpeq_epi8(lead, _mm_set1_epi8((char)0xF0));
    const __m128i ed = _mm_cmpeq_epi8(lead, _mm_set1_epi8((char)0xED));
    const __m128i f4 = _mm_cmpeq_epi8(lead, _mm_set1_epi8((char)0xF4));
    /* 80 | 20 after E0, | 10 after F0; BF less 20 after ED, less 30 after F4 */
    const __m128i lo = _mm_or_si128(_mm_set1_epi8((char)0x80),
                                    _mm_or_si128(_mm_and_si128(e0, bit20), _mm_and_si128(f0, bit10)));
    const __m128i hi = _mm_andnot_si128(
        _mm_or_si128(_mm_and_si128(ed, bit20), _mm_and_si128(f4, _mm_set1_epi8(0x30))),
        _mm_set1_epi8((char)0xBF));
    return _mm_and_si128(in_range_x16(lead, _mm_set1_epi8((char)0xC2), _mm_set1_epi8((char)0xF4)),
                         in_range_x16(b, lo, hi));
}
#endif

/* The length of the text of s[i:n] where it is not valid (a character per byte not taken into
 * the sequence before it, utf8_taken; each error one U+FFFD) and a character as wide as its
 * widest: U+FFFD, or U+10FFFF where a character beyond U+FFFF is there. Sixteen bytes at a
 * time where SSE2 is there, passed over at once where ASCII. */
static void
utf8_count(const unsigned char *s, Py_ssize_t n, Py_ssize_t i, Py_ssize_t *length,
           Py_UCS4 *maxchar)
{
    Py_ssize_t p = i, taken = 0;
    int astral = 0;
    for (; p < n && p < i + 3; p++) {
        taken += utf8_taken(s, i, p);
        astral |= UTF8_FOURTH(s, i, p);
    }
#if defined(__SSE2__)
    const __m128i c0 = _mm_set1_epi8((char)0xC0), e0 = _mm_set1_epi8((char)0xE0),
                  f0 = _mm_set1_epi8((char)0xF0);
    __m128i fourth = _mm_setzero_si128();
    while (p + 16 <= n) {
        __m128i counts = _mm_setzero_si128();
        for (int blocks = 0; blocks < 255 && p + 16 <= n; blocks++, p += 16) {
            /* a block and the three bytes before it (p - 3 >= i) */
            const __m128i x = _mm_loadu_si128((const __m128i *)(s + p));
            if (_mm_movemask_epi8(x) == 0) {
                continue;
            }
            const __m128i y = _mm_loadu_si128((const __m128i *)(s + p - 1));
            const __m128i z = _mm_loadu_si128((const __m128i *)(s + p - 2));
            const __m128i w = _mm_loadu_si128((const __m128i *)(s + p - 3));
            const __m128i x_continues = _mm_cmplt_epi8(x, c0);
            const __m128i after_w = _mm_and_si128(
                _mm_and_si128(_mm_cmpeq_epi8(_mm_max_epu8(w, f0), w), utf8_second_x16(w, z)),
                _mm_cmplt_epi8(y, c0));
            const __m128i after_z = _mm_and_si128(_mm_cmpeq_epi8(_mm_max_epu8(z, e0), z),
                                                  utf8_second_x16(z, y));
            const __m128i after_y = utf8_second_x16(y, x);
            /* 0xFF (-1) where taken: subtracted, a count per lane */
            counts = _mm_sub_epi8(counts, _mm_and_si128(x_continues,
                                                        _mm_or_si128(_mm_or_si128(after_y, after_z),
                                                                     after_w)));
            fourth = _mm_or_si128(fourth, _mm_and_si128(after_w, x_continues));
        }
        taken += lane_sum(counts);
    }
    astral |= _mm_movemask_epi8(fourth) != 0;
#endif
    for (; p < n; p++) {
        taken += utf8_taken(s, i, p);
        astral |= UTF8_FOURTH(s, i, p);
    }
    *length = n - i - taken;
    *maxchar = astral ? 0x10FFFF : 0xFFFD;
}

/* Copies s[i:] to out[j:] while it is ASCII, sixteen bytes at a time where SSE2 is there (a
 * block is stored whole: its bytes after the first non-ASCII one are not wanted, and
 * j + 16 <= i + 16 <= n keeps the store inside an output of n characters), then one by one;
 * returns where it stopped in s (n, or a byte 0x80-0xFF), having moved j as far. */
static ALWAYS_INLINE Py_ssize_t
copy_ascii(const unsigned char *s, Py_ssize_t n, Py_ssize_t i, Py_UCS1 *out, Py_ssize_t *j)
{
    Py_ssize_t k = *j;
#if defined(__SSE2__)
    while (i + 16 <= n) {
        const __m128i block = _mm_loadu_si128((const __m128i *)(s + i));
        unsigned mask = (unsigned)_mm_movemask_epi8(block);
        _mm_storeu_si128((__m128i *)(out + k), block);
        if (mask != 0) {
            unsigned ascii = (unsigned)__builtin_ctz(mask);
            *j = k + ascii;
            return i + ascii;
        }
        i += 16;
        k += 16;
    }
#endif
    for (; i < n && s[i] < 0x80; i++, k++) {
        out[k] = s[i];
    }
    *j = k;
    return i;
}

/* Whether s[i:] (s[0:n]) starts with the two bytes of a character U+0080-U+00FF (C2 or C3,
 * then 80-BF). */
#define LATIN_PAIR(s, n, i) \
    (((s)[i] == 0xC2 || (s)[i] == 0xC3) && (i) + 1 < (n) && CONTINUATION((s)[(i) + 1]))

/* Copies ASCII and writes characters U+0080-U+00FF (LATIN_PAIR) from s[i:] into out from
 * out[*j] on, one byte or pair at a time, and a run of ASCII of eight bytes or more by
 * copy_ascii; returns where it stopped in s (n, or a byte starting neither), having moved *j
 * as far. (Calling copy_ascii after each pair cost a 16-byte block per letter: text of
 * letters close together decoded at a third of CPython's speed.) */
static ALWAYS_INLINE Py_ssize_t
copy_latin(const unsigned char *s, Py_ssize_t n, Py_ssize_t i, Py_UCS1 *out, Py_ssize_t *j)
{
#ifdef HAVE_UTF8_BLOCKS
    Py_ssize_t blocks_from = 0; /* (as in utf8_write) */
#endif
    while (i < n) {
        uint64_t word;
        if (s[i] >= 0x80) {
#ifdef HAVE_UTF8_BLOCKS
            if (utf8_blocks && i >= blocks_from) { /* (j <= i: 16 more characters fit in n) */
                Py_ssize_t at = *j;
                const Py_ssize_t to = utf8_blocks_of(s, n, i, out, &at, n, PyUnicode_1BYTE_KIND);
                if (to - i < 16) {
                    blocks_from = to + UTF8_BLOCKS_AGAIN;
                }
                if (to != i) {
                    i = to;
                    *j = at;
                    continue;
                }
            }
#endif
            if (!LATIN_PAIR(s, n, i)) {
                break;
            }
            out[(*j)++] = (Py_UCS1)((s[i] & 0x1F) << 6 | (s[i + 1] & 0x3F));
            i += 2;
        } else if (i + 8 <= n && (memcpy(&word, s + i, 8), (word & 0x8080808080808080u) == 0)) {
            i = copy_ascii(s, n, i, out, j);
        } else {
            out[(*j)++] = s[i++];
        }
    }
    return i;
}

/* Whether a whole valid sequence (utf8_second, then continuation bytes) begins at s[i]. */
static ALWAYS_INLINE int
utf8_whole_at(const unsigned char *s, Py_ssize_t n, Py_ssize_t i)
{
    const unsigned b = s[i];
    if (b < 0x80) {
        return 1;
    }
    const Py_ssize_t size = b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    if (i + size > n || !utf8_second(b, s[i + 1])) {
        return 0;
    }
    return (size < 3 || CONTINUATION(s[i + 2])) && (size < 4 || CONTINUATION(s[i + 3]));
}

/* Whether s[0:n] holds a byte F0-F4, which alone begins a character beyond U+FFFF. */
static int
any_four_byte_lead(const unsigned char *s, Py_ssize_t n)
{
    Py_ssize_t i = 0;
#if defined(__SSE2__)
    const __m128i f0 = _mm_set1_epi8((char)0xF0), f4 = _mm_set1_epi8((char)0xF4);
    for (; i + 16 <= n; i += 16) {
        if (_mm_movemask_epi8(in_range_x16(_mm_loadu_si128((const __m128i *)(s + i)), f0, f4))) {
            return 1;
        }
    }
#endif
    for (; i < n; i++) {
        if (s[i] >= 0xF0 && s[i] <= 0xF4) {
            return 1;
        }
    }
    return 0;
}

/* A str of the given length and widest character with the first k characters of text (which
 * then is released), s[i:n] written into it after them by utf8_write of its kind; *stop is
 * where that stopped (n but where not replace and s[i:n] is not valid), *written the
 * characters then written in all. Inlined at each call, so that replace is a constant in
 * utf8_write: the valid path does not pay for the error path. */
static ALWAYS_INLINE PyObject *
utf8_write_after(PyObject *text, Py_ssize_t k, Py_ssize_t length, Py_UCS4 maxchar,
                 const unsigned char *s, Py_ssize_t n, Py_ssize_t i, Py_ssize_t *stop,
                 Py_ssize_t *written, const int replace)
{
    PyObject *result = PyUnicode_New(length, maxchar);
    if (result == NULL || PyUnicode_CopyCharacters(result, 0, text, 0, k) < 0) {
        Py_DECREF(text);
        Py_XDECREF(result);
        return NULL;
    }
    Py_DECREF(text);
    void *data = PyUnicode_DATA(result);
    switch (PyUnicode_KIND(result)) {
    case PyUnicode_1BYTE_KIND:
        *stop = utf8_write(s, n, i, data, k, length, written, PyUnicode_1BYTE_KIND, replace);
        break;
    case PyUnicode_2BYTE_KIND:
        *stop = utf8_write(s, n, i, data, k, length, written, PyUnicode_2BYTE_KIND, replace);
        break;
    default:
        *stop = utf8_write(s, n, i, data, k, length, written, PyUnicode_4BYTE_KIND, replace);
        break;
    }
    return result;
}

/* Whether invalid sequences are dense among valid characters of 2-4 bytes from s[p] on (p:
 * the first invalid sequence): UTF8_DENSE_ERRORS of them within UTF8_DENSE_BYTES bytes, with
 * at least twice as many such characters. There (a stray byte after every few words of
 * Cyrillic or CJK, table cells cut short) CPython's decoder, which replaces the same maximal
 * subparts, is faster than utf8_write, whose blocks stop at each; not on stray bytes in ASCII
 * text or random bytes, where utf8_write is the faster. */
#define UTF8_DENSE_ERRORS 8
#define UTF8_DENSE_BYTES 1024
static int
utf8_dense_errors(const unsigned char *s, Py_ssize_t n, Py_ssize_t p)
{
    const Py_ssize_t end = p + UTF8_DENSE_BYTES < n ? p + UTF8_DENSE_BYTES : n;
    int errors = 0, wide = 0;
    while (p < end) {
        const unsigned b = s[p];
        if (b < 0x80) {
            p++;
            continue;
        }
        const int second = p + 1 < n && utf8_second(b, s[p + 1]);
        const int third = second && p + 2 < n && CONTINUATION(s[p + 2]);
        const int fourth = third && p + 3 < n && CONTINUATION(s[p + 3]);
        if (second && (b < 0xE0 || (third && b < 0xF0) || fourth)) {
            wide++;
            p += b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
            continue;
        }
        p += !second ? 1 : third ? 3 : 2; /* the maximal subpart, as utf8_write replaces it */
        if (++errors == UTF8_DENSE_ERRORS) {
            return wide >= 2 * UTF8_DENSE_ERRORS;
        }
    }
    return 0;
}

/* s[0:n] decoded as UTF-8 with errors="replace". First in one pass as if it held nothing but
 * ASCII and characters U+0080-U+00FF (LATIN_PAIR), into a str of n characters (an ASCII one
 * while all is ASCII, copied as it is checked by copy_ascii): a page of such text is one pass.
 * From the first other byte on, utf8_measure of the rest, then utf8_write into a str of that
 * length and kind, the text so far copied in. At an invalid sequence (the decoder is in its
 * initial state between characters), utf8_count of the rest, then the text written so far
 * copied into a str of the whole length and kind and the rest written after it, errors
 * replaced. */
static PyObject *
utf8_decode(const unsigned char *s, Py_ssize_t n)
{
    PyObject *text = PyUnicode_New(n, 0x7F);
    if (text == NULL) {
        return NULL;
    }
    Py_ssize_t k = 0, i = copy_ascii(s, n, 0, PyUnicode_1BYTE_DATA(text), &k);
    if (i < n && LATIN_PAIR(s, n, i)) {
        PyObject *latin = PyUnicode_New(n, 0xFF);
        if (latin == NULL) {
            Py_DECREF(text);
            return NULL;
        }
        Py_UCS1 *out = PyUnicode_1BYTE_DATA(latin);
        memcpy(out, PyUnicode_1BYTE_DATA(text), (size_t)k);
        Py_SETREF(text, latin);
        i = copy_latin(s, n, i, out, &k);
    }
    if (i == n) {
        if (k < n && PyUnicode_Resize(&text, k) < 0) {
            Py_CLEAR(text);
        }
        return text;
    }
    /* The text so far kept as long as it is (the str of n characters is not held while the
     * next is made), then the rest measured and written as valid unless a byte never in
     * UTF-8 is there (random bytes) or the run stopped at an invalid sequence (a stray byte
     * in Latin text: the rest would be measured for nothing). */
    if (PyUnicode_Resize(&text, k) < 0) {
        Py_CLEAR(text);
        return NULL;
    }
    Py_ssize_t length, written = k, stop = i;
    Py_UCS4 maxchar;
    if (utf8_whole_at(s, n, i) && utf8_measure(s + i, n - i, &length, &maxchar)) {
        text = utf8_write_after(text, k, k + length, maxchar, s, n, i, &stop, &written, 0);
        if (text == NULL || stop == n) {
            return text;
        }
    }
    /* s[i:stop] is valid: its widest character is measured exactly, and with the rest's
     * (U+FFFD at least) gives the kind. Where the rest holds no byte F0-F4 it has no
     * character beyond U+FFFF: it is written, in one pass, into a str as long as it could be
     * (a character a byte), which is then cut to what was written. That is the common case,
     * valid text around a stray byte. Else (random bytes) utf8_count learns the exact length
     * and kind first. */
    if (utf8_dense_errors(s, n, stop)) { /* the whole input, CPython's reading */
        Py_DECREF(text);
        return PyUnicode_DecodeUTF8((const char *)s, n, "replace");
    }
    Py_ssize_t before;
    Py_UCS4 widest;
    utf8_measure(s + i, stop - i, &before, &widest);
    if (!any_four_byte_lead(s + stop, n - stop)) {
        text = utf8_write_after(text, written, written + (n - stop), widest > 0xFFFD ? widest : 0xFFFD,
                                s, n, stop, &stop, &written, 1);
        if (text != NULL && PyUnicode_Resize(&text, written) < 0) {
            Py_CLEAR(text);
        }
        return text;
    }
    utf8_count(s, n, stop, &length, &maxchar);
    maxchar = widest > maxchar ? widest : maxchar;
    const Py_ssize_t whole = written + length;
    text = utf8_write_after(text, written, whole, maxchar, s, n, stop, &stop, &written, 1);
    if (text != NULL && (stop != n || written != whole)) { /* never: the two passes agree */
        Py_DECREF(text);
        PyErr_SetString(PyExc_SystemError, "decode_utf8_from: the counted length was not written");
        return NULL;
    }
    return text;
}

/* decode_utf8_from(data, start): data[start:] decoded as UTF-8 (errors="replace") without a
 * copy of it: start is 0, or 3 for the text after a UTF-8 BOM. */
static PyObject *
speedups_decode_utf8_from(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "decode_utf8_from takes data and start");
        return NULL;
    }
    Py_ssize_t start = PyLong_AsSsize_t(args[1]);
    if (start == -1 && PyErr_Occurred()) {
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    start = start < 0 ? 0 : start > view.len ? view.len : start;
    PyObject *text = utf8_decode((const unsigned char *)view.buf + start, view.len - start);
    PyBuffer_Release(&view);
    return text;
}

/* text_nodes(data, limit): detect.text_sample's text nodes, until they reach limit bytes.
 * From one non-ASCII byte to the next: the last "<" or ">" before it (after the last node
 * or tag) says whether it is in a text node (">") or a tag; a node's bytes, from up to 128
 * before its first non-ASCII byte to its end (the next "<" or ">"), are written followed by
 * a newline. Every byte is looked at a bounded number of times. */
static PyObject *
speedups_text_nodes(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "text_nodes takes data and limit");
        return NULL;
    }
    Py_ssize_t limit = PyLong_AsSsize_t(args[1]);
    if (limit == -1 && PyErr_Occurred()) {
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    const unsigned char *s = (const unsigned char *)view.buf;
    const Py_ssize_t n = view.len;
    OutBytes out = {PyBytes_FromStringAndSize(NULL, 256), NULL, NULL};
    if (out.bytes == NULL) {
        PyBuffer_Release(&view);
        return NULL;
    }
    out.p = PyBytes_AS_STRING(out.bytes);
    out.end = out.p + 256;
    Py_ssize_t position = 0;
    while (out.p - PyBytes_AS_STRING(out.bytes) < limit) {
        const Py_ssize_t high = high_byte_from(s, n, position);
        if (high < 0) {
            break;
        }
        Py_ssize_t opened = high - 1;
        while (opened >= position && s[opened] != '<' && s[opened] != '>') {
            opened--;
        }
        Py_ssize_t end = high;
        while (end < n && s[end] != '<' && s[end] != '>') {
            end++;
        }
        if (opened >= position && s[opened] == '>') {
            const Py_ssize_t from = opened + 1 > high - 128 ? opened + 1 : high - 128;
            if (out_reserve(&out, end - from + 1) < 0) {
                PyBuffer_Release(&view);
                Py_DECREF(out.bytes);
                return NULL;
            }
            memcpy(out.p, s + from, (size_t)(end - from));
            out.p += end - from;
            *out.p++ = '\n';
        }
        position = end;
    }
    PyBuffer_Release(&view);
    if (_PyBytes_Resize(&out.bytes, out.p - PyBytes_AS_STRING(out.bytes)) < 0) {
        return NULL;
    }
    return out.bytes;
}

PyDoc_STRVAR(text_nodes_doc,
             "text_nodes(data, limit) -> bytes\n\n"
             "detect.text_sample's text nodes holding non-ASCII bytes, each from up to 128 "
             "bytes before its first one, followed by a newline, until limit bytes.");

PyDoc_STRVAR(first_high_byte_doc,
             "first_high_byte(data, start) -> int\n\n"
             "The offset of the first byte 0x80-0xFF of data at or after start, or -1.");

PyDoc_STRVAR(decode_utf8_from_doc,
             "decode_utf8_from(data, start) -> str\n\n"
             "data[start:] decoded as UTF-8 with errors=\"replace\" (the same str as\n"
             "bytes(data[start:]).decode(\"utf-8\", \"replace\")), without a copy of it.");

PyDoc_STRVAR(high_byte_counts_doc,
             "high_byte_counts(data) -> (keys, counts)\n\n"
             "The distinct bytes 0x80-0xFF of data, less 0x80, in the order they first occur, "
             "and how often each occurs: two lists.");

static PyObject *
speedups_high_byte_counts(PyObject *module, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    const unsigned char *s = (const unsigned char *)view.buf;
    Py_ssize_t counts[128] = {0};
    unsigned char order[128];
    int distinct = 0;
    for (Py_ssize_t i = 0; i < view.len; i++) {
        if (s[i] >= 0x80 && counts[s[i] - 0x80]++ == 0) {
            order[distinct++] = (unsigned char)(s[i] - 0x80);
        }
    }
    PyBuffer_Release(&view);
    PyObject *keys = PyList_New(distinct);
    PyObject *numbers = PyList_New(distinct);
    if (keys == NULL || numbers == NULL) {
        Py_XDECREF(keys);
        Py_XDECREF(numbers);
        return NULL;
    }
    for (int k = 0; k < distinct; k++) {
        PyObject *key = PyLong_FromLong(order[k]);
        PyObject *number = PyLong_FromSsize_t(counts[order[k]]);
        if (key == NULL || number == NULL) {
            Py_XDECREF(key);
            Py_XDECREF(number);
            Py_DECREF(keys);
            Py_DECREF(numbers);
            return NULL;
        }
        PyList_SET_ITEM(keys, k, key);
        PyList_SET_ITEM(numbers, k, number);
    }
    return Py_BuildValue("(NN)", keys, numbers);
}

/* ---- Chromium's <meta> charset scan --------------------------------------------------------
 * next_meta(): sniffing/late_meta.py's _next_meta, step for step; the Python function is the
 * reference (tests/sniffing/test_meta_scan.py runs both on every fixture, random and hostile
 * input). Every step moves forward with memchr or a loop, so the scan is linear. */

static ALWAYS_INLINE int
meta_space(unsigned char c)
{
    return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' ';
}

static ALWAYS_INLINE int
meta_alpha(unsigned char c)
{
    return (unsigned char)((c | 0x20) - 'a') < 26;
}

/* Whether s[0:n] is `word` (lowercase) once its ASCII capitals are lowercased. */
static int
meta_is(const unsigned char *s, Py_ssize_t n, const char *word)
{
    Py_ssize_t k = 0;
    for (; k < n; k++) {
        unsigned char c = s[k];
        if (c >= 'A' && c <= 'Z') {
            c |= 0x20;
        }
        if (word[k] == '\0' || c != (unsigned char)word[k]) {
            return 0;
        }
    }
    return word[k] == '\0';
}

/* The first of `words` (NULL-terminated) that s[0:n] is, or NULL. */
static const char *
meta_is_one_of(const unsigned char *s, Py_ssize_t n, const char *const *words)
{
    for (; *words != NULL; words++) {
        if (meta_is(s, n, *words)) {
            return *words;
        }
    }
    return NULL;
}

static const char *const META_HEAD_TAGS[] = {"script", "noscript", "style", "link", "meta",
                                             "object", "title",    "base",  NULL};
static const char *const META_HEAD_START_ONLY[] = {"html", "head", NULL};
static const char *const META_RAW_TEXT[] = {"script", "style",   "title",    "textarea",
                                            "xmp",    "iframe",  "noembed", "noframes", NULL};

/* Where a <script>'s text ends (late_meta._script_end): the tokenizer's script data states.
 * "<!--" makes it escaped (its dashes count for "-->"), "<script" then double escaped, "-->"
 * returns to script data, and "</script" ends it, or in the double escaped state goes back to
 * escaped. */
static Py_ssize_t
meta_script_end(const unsigned char *s, Py_ssize_t n, Py_ssize_t i)
{
    int state = 0; /* 0 script data, 1 escaped, 2 double escaped */
    while (i < n) {
        if (s[i] == '-' && state != 0 && i + 2 < n && s[i + 1] == '-' && s[i + 2] == '>') {
            state = 0;
            i += 3;
            continue;
        }
        if (s[i] == '<') {
            if (state == 0 && i + 3 < n && s[i + 1] == '!' && s[i + 2] == '-' && s[i + 3] == '-') {
                state = 1;
                i += 2;
                continue;
            }
            int end = i + 1 < n && s[i + 1] == '/';
            Py_ssize_t name = i + 1 + end;
            if (name + 6 < n && meta_is(s + name, 6, "script") &&
                (meta_space(s[name + 6]) || s[name + 6] == '/' || s[name + 6] == '>')) {
                if (end && state != 2) {
                    return i;
                }
                if (end || state == 1) {
                    state = end ? 1 : 2;
                    i = name + 7;
                    continue;
                }
            }
        }
        i++;
    }
    return n;
}

/* A <meta>'s attributes that matter: the last charset and content values (start -1: none)
 * and whether any http-equiv is content-type. */
typedef struct {
    Py_ssize_t charset, charset_end, content, content_end;
    int pragma;
} MetaAttributes;

/* The attributes of the tag whose name ends at i (_read_tag): the offset past its ">", or -1
 * if the input ends first. Only a <meta>'s (meta != NULL) are recorded. */
static Py_ssize_t
meta_read_attributes(const unsigned char *s, Py_ssize_t n, Py_ssize_t i, MetaAttributes *meta)
{
    for (;;) {
        while (i < n && (meta_space(s[i]) || s[i] == '/')) {
            i++;
        }
        if (i >= n) {
            return -1;
        }
        if (s[i] == '>') {
            return i + 1;
        }
        Py_ssize_t name = i++; /* the first byte may be anything left, even "=" */
        while (i < n && !meta_space(s[i]) && s[i] != '/' && s[i] != '=' && s[i] != '>') {
            i++;
        }
        Py_ssize_t name_end = i;
        while (i < n && meta_space(s[i])) {
            i++;
        }
        Py_ssize_t value = i, value_end = i; /* no "=": an empty value */
        if (i < n && s[i] == '=') {
            i++;
            while (i < n && meta_space(s[i])) {
                i++;
            }
            if (i < n && (s[i] == '"' || s[i] == '\'')) {
                const unsigned char *close = memchr(s + i + 1, s[i], (size_t)(n - i - 1));
                if (close == NULL) {
                    return -1;
                }
                value = i + 1;
                value_end = close - s;
                i = value_end + 1;
            } else {
                value = i;
                while (i < n && !meta_space(s[i]) && s[i] != '>') {
                    i++;
                }
                value_end = i;
            }
        }
        if (meta == NULL) {
            continue;
        }
        if (meta_is(s + name, name_end - name, "http-equiv")) {
            meta->pragma |= meta_is(s + value, value_end - value, "content-type");
        } else if (meta_is(s + name, name_end - name, "charset")) {
            meta->charset = value;
            meta->charset_end = value_end;
        } else if (meta_is(s + name, name_end - name, "content")) {
            meta->content = value;
            meta->content_end = value_end;
        }
    }
}

/* Where a raw-text element's text ends: at "</" + its name + one of "\t\n\f\r />" (letters in
 * any case), or at the end of the input. */
static Py_ssize_t
meta_raw_text_end(const unsigned char *s, Py_ssize_t n, Py_ssize_t i, const char *name)
{
    Py_ssize_t length = (Py_ssize_t)strlen(name);
    while (i < n) {
        const unsigned char *lt = memchr(s + i, '<', (size_t)(n - i));
        if (lt == NULL) {
            break;
        }
        Py_ssize_t p = lt - s;
        if (p + 2 + length < n && s[p + 1] == '/' && meta_is(s + p + 2, length, name)) {
            unsigned char c = s[p + 2 + length];
            if (meta_space(c) || c == '/' || c == '>') {
                return p;
            }
        }
        i = p + 1;
    }
    return n;
}

/* Past the first "-->" or "--!>" at or after i, or -1. */
static Py_ssize_t
meta_comment_end(const unsigned char *s, Py_ssize_t n, Py_ssize_t i)
{
    while (i + 2 < n) {
        const unsigned char *dash = memchr(s + i, '-', (size_t)(n - i));
        if (dash == NULL) {
            break;
        }
        Py_ssize_t d = dash - s;
        if (d + 2 < n && s[d + 1] == '-') {
            if (s[d + 2] == '>') {
                return d + 3;
            }
            if (s[d + 2] == '!' && d + 3 < n && s[d + 3] == '>') {
                return d + 4;
            }
        }
        i = d + 1;
    }
    return -1;
}

/* prescan.extract_encoding_from_meta on a content value c[0:n]: where the label is (its
 * offsets in *start, *end), 1; 0 where the value declares no charset. */
static int
meta_content_label(const unsigned char *c, Py_ssize_t n, Py_ssize_t *start, Py_ssize_t *end)
{
    Py_ssize_t position = 0;
    for (;;) { /* the next "charset", then "=" after whitespace */
        Py_ssize_t at = position;
        while (at + 7 <= n && !meta_is(c + at, 7, "charset")) {
            at++;
        }
        if (at + 7 > n) {
            return 0;
        }
        position = at + 7;
        while (position < n && meta_space(c[position])) {
            position++;
        }
        if (position < n && c[position] == '=') {
            break;
        }
    }
    position++;
    while (position < n && meta_space(c[position])) {
        position++;
    }
    if (position >= n) {
        return 0;
    }
    if (c[position] == '"' || c[position] == '\'') {
        const unsigned char *close =
            memchr(c + position + 1, c[position], (size_t)(n - position - 1));
        if (close == NULL) {
            return 0;
        }
        *start = position + 1;
        *end = close - c;
        return 1;
    }
    *start = position;
    *end = position;
    while (*end < n && !meta_space(c[*end]) && c[*end] != ';') {
        (*end)++;
    }
    return 1;
}

/* The last label a scan found unknown, lowercased (length -1: none yet): a head of thousands
 * of <meta>s repeating one unknown label asks the set once, not once per <meta>. */
typedef struct {
    unsigned char label[64];
    Py_ssize_t length;
} MetaUnknown;

/* Whether the label v[0:n] is one of `labels` (lowercase bytes) once stripped of ASCII
 * whitespace and lowercased, as encoding.lookup reads a label; -1 with an exception set. */
static int
meta_known_label(const unsigned char *v, Py_ssize_t n, PyObject *labels, MetaUnknown *unknown)
{
    while (n > 0 && meta_space(v[0])) {
        v++;
        n--;
    }
    while (n > 0 && meta_space(v[n - 1])) {
        n--;
    }
    unsigned char lowered[64];
    if (n == 0 || n > (Py_ssize_t)sizeof lowered) { /* (no label is that long) */
        return 0;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        lowered[k] = v[k] >= 'A' && v[k] <= 'Z' ? v[k] | 0x20 : v[k];
    }
    if (n == unknown->length && memcmp(lowered, unknown->label, (size_t)n) == 0) {
        return 0;
    }
    PyObject *key = PyBytes_FromStringAndSize((const char *)lowered, n);
    if (key == NULL) {
        return -1;
    }
    int known = PySet_Contains(labels, key);
    Py_DECREF(key);
    if (known == 0) {
        memcpy(unknown->label, lowered, (size_t)n);
        unknown->length = n;
    }
    return known;
}

/* The scan from `position` to the next <meta> that may declare a charset (see _next_meta). */
static PyObject *
meta_next(const unsigned char *s, Py_ssize_t n, Py_ssize_t position, int in_head,
          Py_ssize_t unconditional, PyObject *labels)
{
    MetaUnknown unknown = {{0}, -1};
    /* The last <meta> passed over (its offset and length; 0: none): one with the same bytes
     * reads the same (nothing past its ">" is read) and is passed over too, in head still. */
    Py_ssize_t passed = 0, passed_length = 0;
    while (position < n) {
        if (!in_head && position >= unconditional) {
            break;
        }
        const unsigned char *found = memchr(s + position, '<', (size_t)(n - position));
        if (found == NULL) {
            break;
        }
        Py_ssize_t lt = found - s;
        if (!in_head && lt >= unconditional) {
            break;
        }
        if (passed_length > 0 && passed_length <= n - lt &&
            memcmp(s + lt, s + passed, (size_t)passed_length) == 0) {
            position = lt + passed_length;
            continue;
        }
        int next = lt + 1 < n ? s[lt + 1] : -1;
        if ((next >= 0 && meta_alpha((unsigned char)next)) ||
            (next == '/' && lt + 2 < n && meta_alpha(s[lt + 2]))) {
            int end_tag = next == '/';
            Py_ssize_t name = lt + (end_tag ? 2 : 1), name_end = name;
            while (name_end < n && !meta_space(s[name_end]) && s[name_end] != '/' &&
                   s[name_end] != '>') {
                name_end++;
            }
            Py_ssize_t name_length = name_end - name;
            int is_meta = !end_tag && meta_is(s + name, name_length, "meta");
            MetaAttributes meta = {-1, -1, -1, -1, 0};
            position = meta_read_attributes(s, n, name_end, is_meta ? &meta : NULL);
            if (position < 0) {
                break;
            }
            if (is_meta && (meta.charset >= 0 || (meta.content >= 0 && meta.pragma))) {
                int is_content = meta.charset < 0;
                Py_ssize_t value = is_content ? meta.content : meta.charset;
                Py_ssize_t value_end = is_content ? meta.content_end : meta.charset_end;
                /* With labels, a <meta> naming no known label is passed over (a meta tag
                 * leaves the state as it is). */
                int declares = 1;
                if (labels != NULL) {
                    Py_ssize_t start = 0, end = value_end - value;
                    declares = !is_content ||
                               meta_content_label(s + value, value_end - value, &start, &end);
                    if (declares) {
                        declares = meta_known_label(s + value + start, end - start, labels,
                                                    &unknown);
                        if (declares < 0) {
                            return NULL;
                        }
                    }
                }
                if (declares) {
                    return Py_BuildValue("nny#OO", lt, position, s + value, value_end - value,
                                         is_content ? Py_True : Py_False,
                                         in_head ? Py_True : Py_False);
                }
            }
            if (is_meta) { /* a head tag, neither raw text nor plaintext */
                passed = lt;
                passed_length = position - lt;
                continue;
            }
            if (!meta_is_one_of(s + name, name_length, META_HEAD_TAGS) &&
                (end_tag || !meta_is_one_of(s + name, name_length, META_HEAD_START_ONLY))) {
                in_head = 0;
            }
            if (!end_tag) {
                if (meta_is(s + name, name_length, "plaintext")) {
                    break;
                }
                const char *raw = meta_is_one_of(s + name, name_length, META_RAW_TEXT);
                if (raw == META_RAW_TEXT[0]) { /* "script" */
                    position = meta_script_end(s, n, position);
                } else if (raw != NULL) {
                    position = meta_raw_text_end(s, n, position, raw);
                }
            }
        } else if (next == '!' && lt + 3 < n && s[lt + 2] == '-' && s[lt + 3] == '-') {
            /* "<!-->" and "<!--->" close at once; otherwise the first "-->" or "--!>". */
            if (lt + 4 < n && s[lt + 4] == '>') {
                position = lt + 5;
                continue;
            }
            if (lt + 5 < n && s[lt + 4] == '-' && s[lt + 5] == '>') {
                position = lt + 6;
                continue;
            }
            position = meta_comment_end(s, n, lt + 4);
            if (position < 0) {
                break;
            }
        } else if (next == '!' || next == '?' || next == '/') {
            if (next == '/' && lt + 2 < n && s[lt + 2] == '>') {
                position = lt + 3;
                continue;
            }
            const unsigned char *close = memchr(s + lt + 2, '>', (size_t)(n - lt - 2));
            if (close == NULL) {
                break;
            }
            position = close - s + 1;
        } else {
            position = lt + 1;
        }
    }
    Py_RETURN_NONE;
}

static PyObject *
speedups_next_meta(PyObject *module, PyObject *args)
{
    Py_buffer view;
    Py_ssize_t position, unconditional;
    int in_head;
    PyObject *labels = Py_None;
    if (!PyArg_ParseTuple(args, "y*npn|O:next_meta", &view, &position, &in_head,
                          &unconditional, &labels)) {
        return NULL;
    }
    if (labels != Py_None && !PyAnySet_Check(labels)) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_TypeError, "next_meta's labels must be a set of bytes or None");
        return NULL;
    }
    if (position < 0) {
        position = 0;
    }
    PyObject *result = meta_next((const unsigned char *)view.buf, view.len, position, in_head,
                                 unconditional, labels == Py_None ? NULL : labels);
    PyBuffer_Release(&view);
    return result;
}

PyDoc_STRVAR(next_meta_doc,
             "next_meta(data, position, in_head, unconditional, labels=None)\n"
             "-> tuple | None\n\n"
             "sniffing.late_meta._next_meta, compiled.");

/* utf16_decode(data, big_endian): the spec's UTF-16LE (or BE) decoder, error mode replacement.
 * Where the length is even and no unit is a surrogate (D800-DFFF), each unit is one
 * character and no error can occur: two passes, the units ORed together (the narrowest kind
 * of str that holds them is read from that: no bit above 0x7F is ASCII, none above 0xFF is
 * Latin-1) and whether any is a surrogate, then the units copied into the str, sixteen bytes
 * at a time where SSE2 is there. Otherwise the decoder's steps (UTF16_STEPS), once to learn
 * the text's length and widest character, once to write it. */
#if defined(__SSE2__)
static ALWAYS_INLINE __m128i
units_at(const unsigned char *s, Py_ssize_t i, int big_endian)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(s + i));
    return big_endian ? _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8)) : v;
}
#endif

static ALWAYS_INLINE Py_UCS4
unit_at(const unsigned char *s, Py_ssize_t i, int big_endian)
{
    return big_endian ? (Py_UCS4)s[i] << 8 | s[i + 1] : (Py_UCS4)s[i + 1] << 8 | s[i];
}

/* The spec's steps over s[0:n]: EMIT(c) for each character. A leading surrogate waits for
 * a trailing one; another unit after it is an error and is then read again; a lone trailing
 * surrogate is an error; at the end, a waiting leading surrogate or an odd last byte is one
 * error. */
#define UTF16_STEPS(EMIT)                                                                     \
    do {                                                                                      \
        Py_UCS4 lead = 0;                                                                     \
        Py_ssize_t i = 0;                                                                     \
        for (; i + 2 <= n; i += 2) {                                                          \
            Py_UCS4 u = unit_at(s, i, big_endian);                                            \
            if (lead) {                                                                       \
                Py_UCS4 first = lead;                                                         \
                lead = 0;                                                                     \
                if (u >= 0xDC00 && u <= 0xDFFF) {                                             \
                    EMIT(0x10000 + ((first - 0xD800) << 10) + (u - 0xDC00));                  \
                    continue;                                                                 \
                }                                                                             \
                EMIT(REPLACEMENT);                                                            \
            }                                                                                 \
            if (u >= 0xD800 && u <= 0xDBFF) {                                                 \
                lead = u;                                                                     \
            } else {                                                                          \
                EMIT(u >= 0xDC00 && u <= 0xDFFF ? REPLACEMENT : u);                           \
            }                                                                                 \
        }                                                                                     \
        if (lead || i < n) {                                                                  \
            EMIT(REPLACEMENT);                                                                \
        }                                                                                     \
    } while (0)

static PyObject *
utf16_steps(const unsigned char *s, Py_ssize_t n, int big_endian)
{
    Py_ssize_t length = 0;
    Py_UCS4 maxchar = 0;
#define MEASURE(c) (length++, maxchar = (c) > maxchar ? (c) : maxchar)
    UTF16_STEPS(MEASURE);
#undef MEASURE
    PyObject *text = PyUnicode_New(length, maxchar);
    if (text == NULL) {
        return NULL;
    }
    int kind = PyUnicode_KIND(text);
    void *data = PyUnicode_DATA(text);
    Py_ssize_t k = 0;
#define WRITE(c) PyUnicode_WRITE(kind, data, k++, (c))
    UTF16_STEPS(WRITE);
#undef WRITE
    return text;
}

static PyObject *
utf16_units(const unsigned char *s, Py_ssize_t n, int big_endian)
{
    Py_ssize_t i = 0;
    unsigned bits = 0, surrogates = 0;
#if defined(__SSE2__)
    __m128i all = _mm_setzero_si128(), found = _mm_setzero_si128();
    const __m128i top = _mm_set1_epi16((short)0xF800), surrogate = _mm_set1_epi16((short)0xD800);
    for (; i + 16 <= n; i += 16) {
        __m128i v = units_at(s, i, big_endian);
        all = _mm_or_si128(all, v);
        found = _mm_or_si128(found, _mm_cmpeq_epi16(_mm_and_si128(v, top), surrogate));
    }
    uint16_t lanes[8];
    _mm_storeu_si128((__m128i *)lanes, all);
    for (int k = 0; k < 8; k++) {
        bits |= lanes[k];
    }
    surrogates = (unsigned)_mm_movemask_epi8(found);
#endif
    for (Py_ssize_t j = i; j + 2 <= n; j += 2) {
        Py_UCS4 u = unit_at(s, j, big_endian);
        bits |= u;
        surrogates |= (u & 0xF800) == 0xD800;
    }
    if (surrogates || n % 2) {
        return utf16_steps(s, n, big_endian);
    }
    Py_UCS4 maxchar = bits < 0x80 ? 0x7F : bits < 0x100 ? 0xFF : 0xFFFF;
    PyObject *text = PyUnicode_New(n / 2, maxchar);
    if (text == NULL) {
        return NULL;
    }
    i = 0;
    if (maxchar == 0xFFFF) {
        Py_UCS2 *out = PyUnicode_2BYTE_DATA(text);
#if defined(__SSE2__) /* x86: a little-endian host */
        if (!big_endian) {
            memcpy(out, s, (size_t)n);
            return text;
        }
        for (; i + 16 <= n; i += 16) {
            _mm_storeu_si128((__m128i *)(out + i / 2), units_at(s, i, 1));
        }
#endif
        for (; i + 2 <= n; i += 2) {
            out[i / 2] = (Py_UCS2)unit_at(s, i, big_endian);
        }
        return text;
    }
    Py_UCS1 *out = PyUnicode_1BYTE_DATA(text);
#if defined(__SSE2__)
    for (; i + 32 <= n; i += 32) { /* every unit is below 0x100: packing keeps it whole */
        __m128i packed = _mm_packus_epi16(units_at(s, i, big_endian),
                                          units_at(s, i + 16, big_endian));
        _mm_storeu_si128((__m128i *)(out + i / 2), packed);
    }
#endif
    for (; i + 2 <= n; i += 2) {
        out[i / 2] = (Py_UCS1)unit_at(s, i, big_endian);
    }
    return text;
}

static PyObject *
speedups_utf16_decode(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "utf16_decode takes data and big_endian");
        return NULL;
    }
    int big_endian = PyObject_IsTrue(args[1]);
    if (big_endian < 0) {
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    PyObject *result = utf16_units(view.buf, view.len, big_endian);
    PyBuffer_Release(&view);
    return result;
}

PyDoc_STRVAR(utf16_decode_doc,
             "utf16_decode(data, big_endian) -> str\n\n"
             "The spec's UTF-16LE (UTF-16BE) decoder, error mode replacement.");

PyDoc_STRVAR(use_utf8_blocks_doc,
"use_utf8_blocks(flag, /)\n--\n\n"
"Decode UTF-8 text of ASCII, two- and three-byte sequences sixteen bytes at a time when flag\n"
"is true and the CPU has SSSE3, else byte by byte (the tests run both); returns whether\n"
"blocks are in use.");

static PyObject *
speedups_use_utf8_blocks(PyObject *module, PyObject *flag)
{
    (void)module;
    int wanted = PyObject_IsTrue(flag);
    if (wanted < 0) {
        return NULL;
    }
#ifdef HAVE_UTF8_BLOCKS
    utf8_blocks = 0;
    if (wanted) {
        utf8_blocks_init();
    }
    return PyBool_FromLong(utf8_blocks);
#else
    Py_RETURN_FALSE;
#endif
}

static PyMethodDef speedups_methods[] = {
    {"use_utf8_blocks", speedups_use_utf8_blocks, METH_O, use_utf8_blocks_doc},
    {"encode_html", (PyCFunction)(void (*)(void))speedups_encode_html, METH_FASTCALL,
     encode_html_doc},
    {"decode", speedups_decode, METH_VARARGS, decode_doc},
    {"boundary", speedups_boundary, METH_VARARGS, boundary_doc},
    {"encode", speedups_encode, METH_VARARGS, encode_doc},
    {"codec_encode", (PyCFunction)(void (*)(void))speedups_codec_encode, METH_FASTCALL,
     codec_encode_doc},
    {"decode_single_byte", speedups_decode_single_byte, METH_VARARGS, decode_single_byte_doc},
    {"holds_word", (PyCFunction)(void (*)(void))speedups_holds_word, METH_FASTCALL,
     holds_word_doc},
    {"holds_any", (PyCFunction)(void (*)(void))speedups_holds_any, METH_FASTCALL,
     holds_any_doc},
    {"high_byte_counts", speedups_high_byte_counts, METH_O, high_byte_counts_doc},
    {"first_high_byte", (PyCFunction)(void (*)(void))speedups_first_high_byte, METH_FASTCALL,
     first_high_byte_doc},
    {"decode_utf8_from", (PyCFunction)(void (*)(void))speedups_decode_utf8_from, METH_FASTCALL,
     decode_utf8_from_doc},
    {"text_nodes", (PyCFunction)(void (*)(void))speedups_text_nodes, METH_FASTCALL,
     text_nodes_doc},
    {"next_meta", speedups_next_meta, METH_VARARGS, next_meta_doc},
    {"utf16_decode", (PyCFunction)(void (*)(void))speedups_utf16_decode, METH_FASTCALL,
     utf16_decode_doc},
    {NULL, NULL, 0, NULL},
};

static int
speedups_exec(PyObject *module)
{
    if (PyModule_AddIntConstant(module, "SHIFT_JIS", SHIFT_JIS) < 0 ||
        PyModule_AddIntConstant(module, "EUC_KR", EUC_KR) < 0 ||
        PyModule_AddIntConstant(module, "BIG5", BIG5) < 0 ||
        PyModule_AddIntConstant(module, "EUC_JP", EUC_JP) < 0 ||
        PyModule_AddIntConstant(module, "GB18030", GB18030) < 0 ||
        PyModule_AddIntConstant(module, "ISO_2022_JP", ISO_2022_JP) < 0) {
        return -1;
    }
#ifdef HAVE_UTF8_BLOCKS
    if (!utf8_blocks) {
        utf8_blocks_init();
    }
#endif
    return 0;
}

static PyModuleDef_Slot speedups_slots[] = {
    {Py_mod_exec, speedups_exec},
    {0, NULL},
};

static struct PyModuleDef speedups_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "scrapy_charset.encoding._speedups",
    .m_doc = "Compiled CJK and single-byte decoders, and table encoders (spec-exact).",
    .m_size = 0,
    .m_methods = speedups_methods,
    .m_slots = speedups_slots,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    return PyModuleDef_Init(&speedups_module);
}
