/* util/demangle.c: see demangle.h.  A recursive-descent reader of the
 * Itanium C++ ABI's <mangled-name> grammar, limited to what kernel
 * signatures use.  Every string it builds lives in one arena freed at the
 * end of the call, so failure paths need no cleanup. */
#include "util/demangle.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SUBS 256
#define MAX_TPARAMS 64
#define MAX_DEPTH 64

typedef struct chunk {
    struct chunk *next;
    char data[];
} chunk;

typedef struct parser {
    const char *p;
    int failed;
    unsigned depth;
    chunk *arena;
    const char *subs[MAX_SUBS]; /* substitution candidates, in order (S_, S0_, ...) */
    unsigned sub_count;
    const char *tparams[MAX_TPARAMS]; /* the function's template arguments (T_, T0_, ...) */
    unsigned tparam_count;
} parser;

static const char *fail(parser *ps)
{
    ps->failed = 1;
    return NULL;
}

/* The concatenation of the NULL-terminated arguments, in the arena. */
static const char *cat(parser *ps, ...)
{
    va_list ap;
    size_t len = 0;
    va_start(ap, ps);
    for (const char *s = va_arg(ap, const char *); s; s = va_arg(ap, const char *))
        len += strlen(s);
    va_end(ap);
    chunk *c = malloc(sizeof *c + len + 1);
    if (!c)
        return fail(ps);
    c->next = ps->arena;
    ps->arena = c;
    char *out = c->data;
    va_start(ap, ps);
    for (const char *s = va_arg(ap, const char *); s; s = va_arg(ap, const char *)) {
        size_t n = strlen(s);
        memcpy(out, s, n);
        out += n;
    }
    va_end(ap);
    *out = '\0';
    return c->data;
}

static const char *copy_n(parser *ps, const char *s, size_t n)
{
    chunk *c = malloc(sizeof *c + n + 1);
    if (!c)
        return fail(ps);
    c->next = ps->arena;
    ps->arena = c;
    memcpy(c->data, s, n);
    c->data[n] = '\0';
    return c->data;
}

static void add_sub(parser *ps, const char *s)
{
    if (!s || ps->sub_count == MAX_SUBS)
        ps->failed = 1;
    else
        ps->subs[ps->sub_count++] = s;
}

static int next_is(parser *ps, char c) { return *ps->p == c; }

/* "<seq-id>_" after S or T: empty is 0, else base-36 digits + 1. */
static long seq_id(parser *ps)
{
    long n = 0;
    if (*ps->p == '_') {
        ps->p++;
        return 0;
    }
    while (isdigit((unsigned char)*ps->p) || isupper((unsigned char)*ps->p)) {
        int d = isdigit((unsigned char)*ps->p) ? *ps->p - '0' : *ps->p - 'A' + 10;
        if (n > 1000000)
            return -1;
        n = n * 36 + d;
        ps->p++;
    }
    if (*ps->p != '_')
        return -1;
    ps->p++;
    return n + 1;
}

/* <source-name> ::= <length> <identifier> */
static const char *source_name(parser *ps)
{
    long len = 0;
    while (isdigit((unsigned char)*ps->p) && len < 100000)
        len = len * 10 + (*ps->p++ - '0');
    if (len <= 0 || strnlen(ps->p, (size_t)len) < (size_t)len)
        return fail(ps);
    const char *id = ps->p;
    ps->p += len;
    if (len >= 10 && strncmp(id, "_GLOBAL__N", 10) == 0)
        return "(anonymous namespace)";
    return copy_n(ps, id, (size_t)len);
}

static const char *type(parser *ps);
static const char *template_args(parser *ps, const char **last_args, unsigned *last_count);

static const char *literal(parser *ps)
{
    static const struct {
        char code;
        const char *suffix;
    } integers[] = {{'i', ""}, {'j', "u"}, {'l', "l"}, {'m', "ul"}, {'x', "ll"}, {'y', "ull"}};
    char code = *ps->p++;
    const char *digits = ps->p;
    if (*ps->p == 'n')
        ps->p++;
    while (isdigit((unsigned char)*ps->p))
        ps->p++;
    if (*ps->p != 'E' || ps->p == digits)
        return fail(ps);
    const char *value = copy_n(ps, digits, (size_t)(ps->p - digits));
    ps->p++;
    if (!value)
        return NULL;
    const char *text = *value == 'n' ? cat(ps, "-", value + 1, NULL) : value;
    if (code == 'b' && (strcmp(value, "0") == 0 || strcmp(value, "1") == 0))
        return *value == '1' ? "true" : "false";
    for (size_t i = 0; i < sizeof integers / sizeof *integers; i++)
        if (integers[i].code == code)
            return cat(ps, text, integers[i].suffix, NULL);
    return fail(ps); /* chars, floats, pointers: not in kernel names we have met */
}

static const char *builtin(char c)
{
    switch (c) {
    case 'v': return "void";
    case 'w': return "wchar_t";
    case 'b': return "bool";
    case 'c': return "char";
    case 'a': return "signed char";
    case 'h': return "unsigned char";
    case 's': return "short";
    case 't': return "unsigned short";
    case 'i': return "int";
    case 'j': return "unsigned int";
    case 'l': return "long";
    case 'm': return "unsigned long";
    case 'x': return "long long";
    case 'y': return "unsigned long long";
    case 'n': return "__int128";
    case 'o': return "unsigned __int128";
    case 'f': return "float";
    case 'd': return "double";
    case 'e': return "long double";
    case 'g': return "__float128";
    case 'z': return "...";
    default: return NULL;
    }
}

static const char *d_builtin(parser *ps)
{
    static const struct {
        const char *code, *name;
    } table[] = {{"Dh", "half"},      {"Dn", "decltype(nullptr)"}, {"Ds", "char16_t"},
                 {"Di", "char32_t"},  {"Du", "char8_t"},           {"DF16_", "_Float16"}};
    for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
        size_t n = strlen(table[i].code);
        if (strncmp(ps->p, table[i].code, n) == 0) {
            ps->p += n;
            return table[i].name;
        }
    }
    return fail(ps);
}

/* S_, S<seq>_, St (std::), Sa, Sb. *is_std tells the caller a name follows. */
static const char *substitution(parser *ps, int *is_std)
{
    *is_std = 0;
    ps->p++; /* S */
    char c = *ps->p;
    if (c == 't') {
        ps->p++;
        *is_std = 1;
        return "std";
    }
    if (c == 'a' || c == 'b') {
        ps->p++;
        return c == 'a' ? "std::allocator" : "std::basic_string";
    }
    long id = seq_id(ps);
    if (id < 0 || (unsigned long)id >= ps->sub_count)
        return fail(ps);
    return ps->subs[id];
}

static const char *template_param(parser *ps)
{
    ps->p++; /* T */
    long id = seq_id(ps);
    if (id < 0 || (unsigned long)id >= ps->tparam_count)
        return fail(ps);
    return ps->tparams[id];
}

/* <nested-name> ::= N [<CV-qualifiers>] <prefix> <unqualified-name> E.
 * Every prefix but the whole name is a substitution candidate; *quals gets
 * a member function's " const". */
static const char *nested_name(parser *ps, const char **quals, int *is_template, const char **last_args,
                               unsigned *last_count)
{
    ps->p++; /* N */
    *quals = "";
    if (next_is(ps, 'K')) {
        ps->p++;
        *quals = " const";
    }
    const char *prefix = NULL;
    while (!ps->failed && !next_is(ps, 'E')) {
        int fresh = 1; /* a substitution is not a new candidate */
        *is_template = 0;
        if (next_is(ps, 'S') && !prefix) {
            int is_std;
            prefix = substitution(ps, &is_std);
            if (is_std && prefix)
                prefix = cat(ps, "std::", source_name(ps), NULL);
            else
                fresh = 0;
        }
        else if (next_is(ps, 'T') && !prefix)
            prefix = template_param(ps);
        else if (next_is(ps, 'I') && prefix) {
            prefix = cat(ps, prefix, template_args(ps, last_args, last_count), NULL);
            *is_template = 1;
        }
        else if (isdigit((unsigned char)*ps->p)) {
            const char *s = source_name(ps);
            prefix = prefix ? cat(ps, prefix, "::", s, NULL) : s;
        }
        else
            return fail(ps); /* constructors, operators, local names */
        if (ps->failed || !*ps->p)
            return fail(ps);
        if (fresh && !next_is(ps, 'E'))
            add_sub(ps, prefix);
    }
    ps->p++; /* E */
    return prefix ? prefix : fail(ps);
}

/* <template-args> ::= I <template-arg>+ E, printed as "<a, b>". */
static const char *template_args(parser *ps, const char **last_args, unsigned *last_count)
{
    ps->p++; /* I */
    const char *text = "<";
    unsigned n = 0;
    while (!ps->failed && !next_is(ps, 'E')) {
        const char *arg;
        if (next_is(ps, 'L')) {
            ps->p++;
            arg = literal(ps);
        }
        else
            arg = type(ps);
        if (!arg || n == MAX_TPARAMS)
            return fail(ps);
        if (last_args)
            last_args[n] = arg;
        text = cat(ps, text, n ? ", " : "", arg, NULL);
        n++;
    }
    if (ps->failed || n == 0)
        return fail(ps);
    ps->p++; /* E */
    if (last_count)
        *last_count = n;
    /* c++filt separates closing brackets: A<B<int> > */
    return cat(ps, text, text[strlen(text) - 1] == '>' ? " >" : ">", NULL);
}

/* A class or enum name, possibly a template-id; adds its candidates. */
static const char *class_type(parser *ps)
{
    const char *name;
    if (next_is(ps, 'N')) {
        const char *quals;
        int is_template;
        name = nested_name(ps, &quals, &is_template, NULL, NULL);
        add_sub(ps, name);
        return name;
    }
    if (next_is(ps, 'S')) {
        int is_std;
        name = substitution(ps, &is_std);
        if (is_std && name) {
            name = cat(ps, "std::", source_name(ps), NULL);
            add_sub(ps, name);
        }
    }
    else if (next_is(ps, 'T')) {
        name = template_param(ps);
        add_sub(ps, name);
    }
    else {
        name = source_name(ps);
        add_sub(ps, name);
    }
    if (!ps->failed && next_is(ps, 'I')) {
        name = cat(ps, name, template_args(ps, NULL, NULL), NULL);
        add_sub(ps, name);
    }
    return ps->failed ? NULL : name;
}

static const char *type(parser *ps)
{
    if (++ps->depth > MAX_DEPTH)
        return fail(ps);
    const char *t = NULL;
    char c = *ps->p;
    if (builtin(c)) {
        ps->p++;
        t = builtin(c);
    }
    else if (c == 'D')
        t = d_builtin(ps);
    else if (c == 'P' || c == 'R' || c == 'O') {
        ps->p++;
        const char *inner = type(ps);
        t = cat(ps, inner, c == 'P' ? "*" : c == 'R' ? "&" : "&&", NULL);
        add_sub(ps, t);
    }
    else if (c == 'r' || c == 'V' || c == 'K') {
        int restrict_q = 0, volatile_q = 0, const_q = 0;
        while (*ps->p == 'r' || *ps->p == 'V' || *ps->p == 'K') {
            restrict_q |= *ps->p == 'r';
            volatile_q |= *ps->p == 'V';
            const_q |= *ps->p == 'K';
            ps->p++;
        }
        const char *inner = type(ps);
        t = cat(ps, inner, const_q ? " const" : "", volatile_q ? " volatile" : "",
                restrict_q ? " restrict" : "", NULL);
        add_sub(ps, t);
    }
    else if (c == 'N' || c == 'S' || c == 'T' || isdigit((unsigned char)c))
        t = class_type(ps);
    else
        t = fail(ps); /* function, array, member pointer, pack, vendor types */
    ps->depth--;
    return ps->failed ? NULL : t;
}

/* <encoding> ::= <name> <bare-function-type> */
static int encoding(parser *ps, const char **name_out, const char **full_out)
{
    const char *name, *quals = "";
    int is_template = 0;
    const char *args[MAX_TPARAMS];
    unsigned count = 0;
    if (next_is(ps, 'N'))
        name = nested_name(ps, &quals, &is_template, args, &count);
    else if (next_is(ps, 'Z'))
        return -1; /* local names */
    else {
        if (next_is(ps, 'S')) {
            int is_std;
            name = substitution(ps, &is_std);
            if (!is_std)
                return -1;
            name = cat(ps, "std::", source_name(ps), NULL);
        }
        else
            name = source_name(ps);
        if (!ps->failed && next_is(ps, 'I')) {
            add_sub(ps, name); /* the unscoped template name */
            name = cat(ps, name, template_args(ps, args, &count), NULL);
            is_template = 1;
        }
    }
    if (ps->failed || !name)
        return -1;
    if (is_template) {
        memcpy(ps->tparams, args, count * sizeof *args);
        ps->tparam_count = count;
    }
    const char *ret = is_template ? type(ps) : NULL;
    const char *params = "";
    unsigned n = 0;
    while (!ps->failed && *ps->p) {
        const char *p = type(ps);
        if (!p)
            return -1;
        params = cat(ps, params, n ? ", " : "", p, NULL);
        n++;
    }
    if (ps->failed || n == 0 || (is_template && !ret))
        return -1;
    if (n == 1 && strcmp(params, "void") == 0)
        params = "";
    *name_out = name;
    *full_out = cat(ps, ret ? ret : "", ret ? " " : "", name, "(", params, ")", quals, NULL);
    return ps->failed ? -1 : 0;
}

int demangle(const char *mangled, demangled *out)
{
    out->name = out->full = NULL;
    if (!mangled || strncmp(mangled, "_Z", 2) != 0)
        return -1;
    parser ps = {.p = mangled + 2};
    const char *name = NULL, *full = NULL;
    int rc = encoding(&ps, &name, &full);
    if (rc == 0) {
        out->name = strdup(name);
        out->full = strdup(full);
        if (!out->name || !out->full) {
            demangled_free(out);
            rc = -1;
        }
    }
    while (ps.arena) {
        chunk *next = ps.arena->next;
        free(ps.arena);
        ps.arena = next;
    }
    return rc;
}

void demangled_free(demangled *d)
{
    free(d->name);
    free(d->full);
    d->name = d->full = NULL;
}

void demangle_short(const char *mangled, char *dst, size_t cap)
{
    if (cap == 0)
        return;
    demangled d;
    const char *text = !mangled ? "?" : demangle(mangled, &d) == 0 ? d.name : mangled;
    snprintf(dst, cap, "%s", text);
    if (mangled && text != mangled)
        demangled_free(&d);
}
