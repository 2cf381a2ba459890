/* tests/xmlcheck.c: see xmlcheck.h.  A recursive-descent reader over the
 * subset of XML 1.0 that SVG output uses: elements, attributes, text,
 * character and the five predefined entity references, comments. */
#include "tests/xmlcheck.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define MAX_DEPTH 256
#define MAX_ATTRS 64

typedef struct reader {
    const char *text;
    size_t len, at;
    char *msg;
    size_t msg_size;
} reader;

static int fail(reader *r, const char *problem)
{
    snprintf(r->msg, r->msg_size, "offset %zu: %s", r->at, problem);
    return -1;
}

static int peek(const reader *r)
{
    return r->at < r->len ? (unsigned char)r->text[r->at] : -1;
}

static int starts(const reader *r, const char *s)
{
    size_t n = strlen(s);
    return r->at + n <= r->len && memcmp(r->text + r->at, s, n) == 0;
}

static void skip_space(reader *r)
{
    while (peek(r) == ' ' || peek(r) == '\t' || peek(r) == '\n' || peek(r) == '\r')
        r->at++;
}

static int name_start(int c)
{
    return isalpha(c) || c == '_' || c == ':' || c >= 0x80;
}

/* A name: its start in *begin and length returned (0 = not a name). */
static size_t name(reader *r, const char **begin)
{
    *begin = r->text + r->at;
    if (!name_start(peek(r)))
        return 0;
    size_t start = r->at;
    while (name_start(peek(r)) || isdigit(peek(r)) || peek(r) == '-' || peek(r) == '.')
        r->at++;
    return r->at - start;
}

/* After '&': a predefined entity or a character reference, through ';'. */
static int entity(reader *r)
{
    static const char *const known[] = {"amp;", "lt;", "gt;", "quot;", "apos;"};
    r->at++;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (starts(r, known[i])) {
            r->at += strlen(known[i]);
            return 0;
        }
    if (peek(r) != '#')
        return fail(r, "unknown entity");
    r->at++;
    int hex = peek(r) == 'x';
    r->at += hex;
    size_t digits = 0;
    while (hex ? isxdigit(peek(r)) : isdigit(peek(r)))
        r->at++, digits++;
    if (digits == 0 || peek(r) != ';')
        return fail(r, "bad character reference");
    r->at++;
    return 0;
}

static int attributes(reader *r)
{
    const char *names[MAX_ATTRS];
    size_t lens[MAX_ATTRS], count = 0;
    for (;;) {
        size_t before = r->at;
        skip_space(r);
        if (peek(r) == '>' || peek(r) == '/')
            return 0;
        if (r->at == before)
            return fail(r, "attributes need white space between them");
        const char *n;
        size_t len = name(r, &n);
        if (len == 0)
            return fail(r, "bad attribute name");
        for (size_t i = 0; i < count; i++)
            if (lens[i] == len && memcmp(names[i], n, len) == 0)
                return fail(r, "repeated attribute");
        if (count < MAX_ATTRS) {
            names[count] = n;
            lens[count++] = len;
        }
        skip_space(r);
        if (peek(r) != '=')
            return fail(r, "attribute without a value");
        r->at++;
        skip_space(r);
        int quote = peek(r);
        if (quote != '"' && quote != '\'')
            return fail(r, "unquoted attribute value");
        r->at++;
        while (peek(r) != quote) {
            if (peek(r) < 0 || peek(r) == '<')
                return fail(r, "'<' or end of text in an attribute value");
            if (peek(r) == '&') {
                if (entity(r) != 0)
                    return -1;
            } else {
                r->at++;
            }
        }
        r->at++;
    }
}

static int element(reader *r, int depth);

/* Text, comments and child elements up to the end tag `</name>`. */
static int content(reader *r, const char *open, size_t open_len, int depth)
{
    for (;;) {
        int c = peek(r);
        if (c < 0)
            return fail(r, "end of text inside an element");
        if (c == '&') {
            if (entity(r) != 0)
                return -1;
        } else if (starts(r, "<!--")) {
            const char *end = memmem(r->text + r->at + 4, r->len - r->at - 4, "-->", 3);
            if (!end)
                return fail(r, "unterminated comment");
            r->at = (size_t)(end - r->text) + 3;
        } else if (starts(r, "</")) {
            r->at += 2;
            const char *n;
            size_t len = name(r, &n);
            if (len != open_len || memcmp(n, open, len) != 0)
                return fail(r, "end tag does not match the open element");
            skip_space(r);
            if (peek(r) != '>')
                return fail(r, "bad end tag");
            r->at++;
            return 0;
        } else if (c == '<') {
            if (element(r, depth + 1) != 0)
                return -1;
        } else if (starts(r, "]]>")) {
            return fail(r, "']]>' in text");
        } else {
            r->at++;
        }
    }
}

static int element(reader *r, int depth)
{
    if (depth > MAX_DEPTH)
        return fail(r, "elements nested too deep");
    if (peek(r) != '<')
        return fail(r, "expected '<'");
    r->at++;
    const char *open;
    size_t open_len = name(r, &open);
    if (open_len == 0)
        return fail(r, "bad element name");
    if (attributes(r) != 0)
        return -1;
    if (starts(r, "/>")) {
        r->at += 2;
        return 0;
    }
    if (peek(r) != '>')
        return fail(r, "bad start tag");
    r->at++;
    return content(r, open, open_len, depth);
}

int xml_check(const char *text, size_t len, char *msg, size_t msg_size)
{
    reader r = {text, len, 0, msg, msg_size};
    skip_space(&r);
    if (element(&r, 0) != 0)
        return -1;
    skip_space(&r);
    if (r.at != r.len)
        return fail(&r, "text after the root element");
    return 0;
}
