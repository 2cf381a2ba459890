/* reports/term.c: see term.h. */
#include "reports/term.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define TERM_DEFAULT_WIDTH 80
#define TERM_MIN_WIDTH 20
#define TERM_MAX_WIDTH 1000

unsigned term_width(FILE *out)
{
    const char *env = getenv("COLUMNS");
    if (env && *env) {
        char *end;
        unsigned long n = strtoul(env, &end, 10);
        if (!*end && n >= TERM_MIN_WIDTH && n <= TERM_MAX_WIDTH)
            return (unsigned)n;
    }
    struct winsize ws;
    if (isatty(fileno(out)) && ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 &&
        ws.ws_col >= TERM_MIN_WIDTH)
        return ws.ws_col;
    return TERM_DEFAULT_WIDTH;
}

unsigned term_text_width(const char *s)
{
    unsigned n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80; /* continuation bytes take no column */
    return n;
}

static unsigned span_width(const char *s, size_t len)
{
    unsigned n = 0;
    for (size_t i = 0; i < len; i++)
        n += ((unsigned char)s[i] & 0xc0) != 0x80;
    return n;
}

void term_wrap(FILE *out, unsigned width, unsigned start, unsigned hang, const char *text)
{
    unsigned column = start;
    int line_has_word = 0;
    const char *p = text;
    /* Leading spaces are the caller's layout: kept as they are. */
    while (*p == ' ') {
        fputc(' ', out);
        column++, p++;
    }
    while (*p) {
        size_t spaces = strspn(p, " ");
        const char *word = p + spaces;
        size_t len = strcspn(word, " \n");
        if (!len) {
            if (*word == '\n') {
                fputc('\n', out);
                column = 0, line_has_word = 0;
                p = word + 1;
                continue;
            }
            break;
        }
        unsigned w = span_width(word, len);
        if (line_has_word && column + spaces + w > width) {
            fprintf(out, "\n%*s", (int)hang, "");
            column = hang;
        } else if (line_has_word) {
            fprintf(out, "%*s", (int)spaces, "");
            column += (unsigned)spaces;
        }
        fwrite(word, 1, len, out);
        column += w, line_has_word = 1;
        p = word + len;
    }
    fputc('\n', out);
}

static void vwrapped(FILE *out, unsigned start, unsigned hang, const char *fmt, va_list ap)
{
    char *text = NULL;
    if (vasprintf(&text, fmt, ap) < 0)
        return;
    size_t len = strlen(text);
    if (len && text[len - 1] == '\n')
        text[len - 1] = '\0';
    term_wrap(out, term_width(out), start, hang, text);
    free(text);
}

void term_field(FILE *out, const char *label, const char *fmt, ...)
{
    /* A label longer than its column pushes the value right, as printf's
     * %-22s would. */
    unsigned label_width = term_text_width(label);
    unsigned pad = label_width < TERM_FIELD_LABEL ? TERM_FIELD_LABEL - label_width : 0;
    fprintf(out, "  %s%*s ", label, (int)pad, "");
    va_list ap;
    va_start(ap, fmt);
    vwrapped(out, 2 + label_width + pad + 1, 2 + TERM_FIELD_LABEL + 1, fmt, ap);
    va_end(ap);
}

void term_printf(FILE *out, unsigned hang, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vwrapped(out, 0, hang, fmt, ap);
    va_end(ap);
}

/* ---- tables ---------------------------------------------------------- */

#define TERM_GAP 2

typedef struct term_column {
    char *heading[2]; /* second line NULL when one */
    term_align align;
    int importance;
    unsigned width;
    int shown;
} term_column;

struct term_table {
    unsigned indent;
    term_column *columns;
    unsigned column_count;
    char **cells; /* row-major, column_count per row */
    size_t cell_count, cell_capacity;
};

term_table *term_table_new(unsigned indent)
{
    term_table *t = calloc(1, sizeof *t);
    if (t)
        t->indent = indent;
    return t;
}

void term_table_free(term_table *t)
{
    if (!t)
        return;
    for (unsigned c = 0; c < t->column_count; c++) {
        free(t->columns[c].heading[0]);
        free(t->columns[c].heading[1]);
    }
    for (size_t i = 0; i < t->cell_count; i++)
        free(t->cells[i]);
    free(t->columns);
    free(t->cells);
    free(t);
}

void term_table_column(term_table *t, const char *heading, term_align align, int importance)
{
    term_column *grown = realloc(t->columns, (t->column_count + 1) * sizeof *grown);
    if (!grown)
        return;
    t->columns = grown;
    term_column *c = &t->columns[t->column_count++];
    *c = (term_column){.align = align, .importance = importance, .shown = 1};
    const char *nl = strchr(heading, '\n');
    c->heading[0] = nl ? strndup(heading, (size_t)(nl - heading)) : strdup(heading);
    c->heading[1] = nl ? strdup(nl + 1) : NULL;
}

void term_table_cell(term_table *t, const char *fmt, ...)
{
    if (t->cell_count == t->cell_capacity) {
        size_t cap = t->cell_capacity ? 2 * t->cell_capacity : 64;
        char **grown = realloc(t->cells, cap * sizeof *grown);
        if (!grown)
            return;
        t->cells = grown, t->cell_capacity = cap;
    }
    char *text = NULL;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&text, fmt, ap) < 0)
        text = NULL;
    va_end(ap);
    t->cells[t->cell_count++] = text;
}

static const char *cell_at(const term_table *t, size_t row, unsigned col)
{
    size_t i = row * t->column_count + col;
    return i < t->cell_count && t->cells[i] ? t->cells[i] : "";
}

static unsigned shown_width(const term_table *t)
{
    unsigned w = t->indent, shown = 0;
    for (unsigned c = 0; c < t->column_count; c++)
        if (t->columns[c].shown)
            w += t->columns[c].width + (shown++ ? TERM_GAP : 0);
    return w;
}

/* The shown column that goes next: least important, rightmost of equals;
 * -1 when only columns of importance 0 are left. */
static int next_to_leave_out(const term_table *t)
{
    int pick = -1;
    for (unsigned c = 0; c < t->column_count; c++) {
        const term_column *col = &t->columns[c];
        if (col->shown && col->importance > 0 &&
            (pick < 0 || col->importance <= t->columns[pick].importance))
            pick = (int)c;
    }
    return pick;
}

static void print_cell(FILE *out, const term_column *c, const char *text, unsigned limit, int first)
{
    unsigned w = term_text_width(text);
    if (!first)
        fprintf(out, "%*s", TERM_GAP, "");
    if (w > limit) { /* only an always-shown column past the width: cut, marked */
        unsigned kept = 0;
        const char *p = text;
        while (*p && kept + 1 < limit) {
            const char *next = p + 1;
            while (((unsigned char)*next & 0xc0) == 0x80)
                next++;
            fwrite(p, 1, (size_t)(next - p), out);
            p = next, kept++;
        }
        fputc('~', out);
        w = kept + 1;
    } else if (c->align == TERM_RIGHT) {
        fprintf(out, "%*s%s", (int)(limit - w), "", text);
        return;
    } else {
        fputs(text, out);
    }
    fprintf(out, "%*s", (int)(limit - w), "");
}

static void print_row(FILE *out, const term_table *t, const char *const *texts)
{
    /* Trailing spaces are trimmed: print into a buffer first. */
    char *line = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&line, &len);
    if (!mem)
        return;
    fprintf(mem, "%*s", (int)t->indent, "");
    int first = 1;
    for (unsigned c = 0; c < t->column_count; c++)
        if (t->columns[c].shown) {
            print_cell(mem, &t->columns[c], texts[c], t->columns[c].width, first);
            first = 0;
        }
    fclose(mem);
    while (len && line[len - 1] == ' ')
        len--;
    fwrite(line, 1, len, out);
    fputc('\n', out);
    free(line);
}

void term_table_print(term_table *t, FILE *out, unsigned width)
{
    if (!t || !t->column_count)
        return;
    size_t rows = (t->cell_count + t->column_count - 1) / t->column_count;
    for (unsigned c = 0; c < t->column_count; c++) {
        term_column *col = &t->columns[c];
        col->width = term_text_width(col->heading[0]);
        if (col->heading[1] && term_text_width(col->heading[1]) > col->width)
            col->width = term_text_width(col->heading[1]);
        for (size_t r = 0; r < rows; r++) {
            unsigned w = term_text_width(cell_at(t, r, c));
            col->width = w > col->width ? w : col->width;
        }
    }
    char left_out[512] = "";
    size_t used = 0;
    for (int c; shown_width(t) > width && (c = next_to_leave_out(t)) >= 0;) {
        t->columns[c].shown = 0;
        const char *h = t->columns[c].heading[0];
        const char *h2 = t->columns[c].heading[1];
        int n = snprintf(left_out + used, sizeof left_out - used, "%s%s%s%s", used ? ", " : "", h,
                         h2 ? " " : "", h2 ? h2 : "");
        if (n > 0 && (size_t)n < sizeof left_out - used)
            used += (size_t)n;
    }
    /* Still too wide: the widest left-aligned column gives way. */
    while (shown_width(t) > width) {
        int widest = -1;
        for (unsigned c = 0; c < t->column_count; c++)
            if (t->columns[c].shown && t->columns[c].align == TERM_LEFT &&
                t->columns[c].width > 4 &&
                (widest < 0 || t->columns[c].width > t->columns[widest].width))
                widest = (int)c;
        if (widest < 0)
            break;
        t->columns[widest].width -= shown_width(t) - width < t->columns[widest].width - 4
                                        ? shown_width(t) - width
                                        : t->columns[widest].width - 4;
    }
    const char **texts = calloc(t->column_count, sizeof *texts);
    if (!texts)
        return;
    /* Headings sit on the bottom line; a two-line heading starts above. */
    int two_lines = 0;
    for (unsigned c = 0; c < t->column_count; c++)
        two_lines |= t->columns[c].shown && t->columns[c].heading[1];
    if (two_lines) {
        for (unsigned c = 0; c < t->column_count; c++)
            texts[c] = t->columns[c].heading[1] ? t->columns[c].heading[0] : "";
        print_row(out, t, texts);
    }
    for (unsigned c = 0; c < t->column_count; c++)
        texts[c] = t->columns[c].heading[1] ? t->columns[c].heading[1] : t->columns[c].heading[0];
    print_row(out, t, texts);
    for (size_t r = 0; r < rows; r++) {
        for (unsigned c = 0; c < t->column_count; c++)
            texts[c] = cell_at(t, r, c);
        print_row(out, t, texts);
    }
    free(texts);
    if (used) {
        /* One line: the short form when the long one does not fit. */
        char note[600];
        snprintf(note, sizeof note, "(left out to fit %u columns: %s)", width, left_out);
        if (t->indent + term_text_width(note) > width)
            snprintf(note, sizeof note, "(left out: %s)", left_out);
        fprintf(out, "%*s", (int)t->indent, "");
        term_wrap(out, width, t->indent, t->indent + 1, note);
    }
}
