/* The item pipeline's check for clean text, compiled: one pass over each value's characters.
 *
 * dict_values_clean(d, keys) is non-zero when every value of the dict d is a str holding no
 * U+FFFD and no mojibake candidate (2 when d's keys are also the tuple keys, in order). A
 * candidate is a character that some misreading (UTF-8 read as windows-1252, ...) gives for a
 * UTF-8 lead byte, followed by one it gives for a continuation byte. The
 * character sets come from scrapy_charset.quality through configure(); a 0 only sends the
 * item to the exact, pure-Python inspection, so the check may be generous, never strict.
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
static Py_UCS4 lead_max = 0; /* the highest lead character: text above it is skipped fast */
static int configured = 0;

/* ASCII_MASK: the bits that are clear in every ASCII character, for 8 bytes of characters. */
#define SCAN(TYPE, ASCII_MASK)                                                               \
    do {                                                                                     \
        const TYPE *chars = (const TYPE *)PyUnicode_DATA(text);                              \
        const Py_ssize_t per_word = 8 / sizeof(TYPE);                                        \
        for (Py_ssize_t i = 0; i < n; i++) {                                                 \
            if (i + per_word <= n) { /* skip ASCII a word at a time */                       \
                uint64_t word;                                                               \
                memcpy(&word, chars + i, 8);                                                 \
                if (!(word & (ASCII_MASK))) {                                                \
                    i += per_word - 1;                                                       \
                    continue;                                                                \
                }                                                                            \
            }                                                                                \
            Py_UCS4 c = chars[i];                                                            \
            if (c < 0x80) {                                                                  \
                continue;                                                                    \
            }                                                                                \
            if (c == 0xFFFD) {                                                               \
                return 0;                                                                    \
            }                                                                                \
            if (c <= lead_max && leads[c] && i + 1 < n) {                                    \
                Py_UCS4 next = chars[i + 1];                                                 \
                if (next < BMP && (leads[c] & continuations[next])) {                        \
                    return 0;                                                                \
                }                                                                            \
            }                                                                                \
        }                                                                                    \
    } while (0)

/* 1 if the text is clean, 0 if it needs the exact inspection. */
static int
text_clean(PyObject *text)
{
    if (PyUnicode_IS_ASCII(text)) {
        return 1;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    switch (PyUnicode_KIND(text)) {
    case PyUnicode_1BYTE_KIND: {
        /* Mostly ASCII with a few accented letters: skip ASCII eight bytes at a time. No
         * U+FFFD can be here. */
        const unsigned char *chars = PyUnicode_1BYTE_DATA(text);
        Py_ssize_t i = 0;
        while (i < n) {
            if (i + 8 <= n) {
                uint64_t word;
                memcpy(&word, chars + i, 8);
                if (!(word & 0x8080808080808080ULL)) {
                    i += 8;
                    continue;
                }
            }
            Py_UCS4 c = chars[i];
            if (c >= 0x80 && leads[c] && i + 1 < n && (leads[c] & continuations[chars[i + 1]])) {
                return 0;
            }
            i++;
        }
        break;
    }
    case PyUnicode_2BYTE_KIND:
        SCAN(Py_UCS2, 0xFF80FF80FF80FF80ULL);
        break;
    default:
        SCAN(Py_UCS4, 0xFFFFFF80FFFFFF80ULL);
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
        if (table == leads && c > lead_max) {
            lead_max = c;
        }
    }
    return 0;
}

static PyObject *
configure(PyObject *module, PyObject *misreadings)
{
    PyObject *sequence = PySequence_Fast(misreadings, "expected a sequence of (leads, continuations)");
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
    lead_max = 0;
    configured = 0;
    for (Py_ssize_t m = 0; m < count; m++) {
        PyObject *pair = PySequence_Fast_GET_ITEM(sequence, m);
        PyObject *lead_chars, *continuation_chars;
        if (!PyArg_ParseTuple(pair, "UU:configure", &lead_chars, &continuation_chars) ||
            mark(lead_chars, leads, (unsigned char)(1 << m)) < 0 ||
            mark(continuation_chars, continuations, (unsigned char)(1 << m)) < 0) {
            Py_DECREF(sequence);
            return NULL;
        }
    }
    Py_DECREF(sequence);
    configured = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"dict_values_clean", (PyCFunction)(void (*)(void))dict_values_clean, METH_FASTCALL,
     "dict_values_clean(item, keys=None): 0 unless every value of the dict is a str with no\n"
     "U+FFFD and no mojibake candidate; then 2 if its keys are the tuple keys, in order, else 1."},
    {"text_clean", str_clean, METH_O,
     "text_clean(text): True when the str holds no U+FFFD and no mojibake candidate."},
    {"configure", configure, METH_O,
     "Set the misreadings: a sequence of (lead characters, continuation characters)."},
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
