/* tests/test_cuda_lines.c: the ports' accesses at their CUDA programs'
 * lines (collectors/workloads/cuda_lines.h): every row's port line holds
 * the access and its .cu line the same array subscript; and the HTML
 * source view shows a port's lines with the .cu line's text. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/workloads/cuda_lines.h"
#include "tests/helpers.h"

/* The repository: tests/fixtures is in it. */
static void repo_path(char *dst, size_t cap, const char *rel)
{
    const char *fixtures = test_fixture_dir();
    size_t root = strlen(fixtures) - strlen("/tests/fixtures");
    snprintf(dst, cap, "%.*s/%s", (int)root, fixtures, rel);
}

/* Lines [line, line + extra] of a file joined, or NULL. */
static char *lines_of(const char *path, uint32_t line, uint32_t extra)
{
    char *text = test_read_file(path, NULL);
    if (!text)
        return NULL;
    char *p = text;
    for (uint32_t n = 1; n < line && p; n++)
        p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
    char *out = NULL;
    if (p) {
        char *end = p;
        for (uint32_t n = 0; n <= extra && end; n++)
            end = strchr(end, '\n') ? strchr(end, '\n') + 1 : NULL;
        size_t len = end ? (size_t)(end - p) : strlen(p);
        out = strndup(p, len);
    }
    free(text);
    return out;
}

/* Spaces and struct prefixes ("g->") dropped, as the rows hold indices. */
static void normalize(char *s)
{
    char *w = s;
    for (char *r = s; *r; r++) {
        if (isspace((unsigned char)*r))
            continue;
        if (r[0] == '-' && r[1] == '>') { /* drop the identifier before it */
            while (w > s && (isalnum((unsigned char)w[-1]) || w[-1] == '_'))
                w--;
            r++;
            continue;
        }
        *w++ = *r;
    }
    *w = '\0';
}

/* text holds ARRAY-ish[index]: an identifier containing the array's name
 * (any case: J_cuda for j) right before the subscript. */
static int has_subscript(const char *text, const char *array, const char *index)
{
    char want[512];
    snprintf(want, sizeof want, "[%s]", index);
    for (const char *at = strstr(text, want); at; at = strstr(at + 1, want)) {
        const char *begin = at;
        while (begin > text && (isalnum((unsigned char)begin[-1]) || begin[-1] == '_'))
            begin--;
        char ident[128];
        snprintf(ident, sizeof ident, "%.*s", (int)(at - begin), begin);
        for (char *c = ident; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        char lower[64];
        snprintf(lower, sizeof lower, "%s", array);
        for (char *c = lower; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        if (strstr(ident, lower))
            return 1;
    }
    return 0;
}

Test(cuda_lines, every_row_is_the_same_access_in_both_files)
{
    size_t count;
    const cuda_line *rows = cuda_lines_all(&count);
    cr_assert_gt(count, 150, "most accesses have a row");
    for (size_t i = 0; i < count; i++) {
        const cuda_line *r = &rows[i];
        char port[1024], cuda[1024], rel[256];
        snprintf(rel, sizeof rel, "collectors/workloads/%s", r->port_file);
        repo_path(port, sizeof port, rel);
        snprintf(rel, sizeof rel, "%s/%s", CUDA_LINES_DIR, r->cuda_file);
        repo_path(cuda, sizeof cuda, rel);
        /* An access may continue on the port's next lines. */
        char *p = lines_of(port, r->port_line, 3), *c = lines_of(cuda, r->cuda_line, 0);
        cr_assert(p && c, "%s:%u or %s:%u unreadable", r->port_file, r->port_line, r->cuda_file,
                  r->cuda_line);
        cr_assert(strstr(p, "EMU_"), "%s:%u is no access: %s", r->port_file, r->port_line, p);
        normalize(p);
        normalize(c);
        cr_assert(has_subscript(p, r->array, r->index), "%s:%u lacks %s[%s]", r->port_file,
                  r->port_line, r->array, r->index);
        cr_assert(has_subscript(c, r->array, r->index), "%s:%u lacks %s[%s] (%s:%u): %s",
                  r->cuda_file, r->cuda_line, r->array, r->index, r->port_file, r->port_line, c);
        free(p);
        free(c);
    }
}

Test(cuda_lines, lookup_by_path_and_line)
{
    const cuda_line *found[4];
    cr_assert_eq(cuda_lines_of("collectors/workloads/gaussian.c", 22, found, 4), 1);
    cr_assert_str_eq(found[0]->cuda_file, "gaussian.cu");
    cr_assert_eq(found[0]->cuda_line, 13);
    cr_assert_eq(cuda_lines_of("gaussian.c", 1, found, 4), 0);
    cr_assert_eq(cuda_lines_of(NULL, 22, found, 4), 0);
}

/* The source view of a gaussian report: the port's lines with their text
 * and the CUDA program's line of each load beside them. */
Test(cuda_lines, source_view_shows_the_cu_line)
{
    char *dir = test_tmpdir(), *trace = test_path(dir, "g.wst"), *json = test_path(dir, "r.json");
    char *html = test_path(dir, "r.html"), root[1024];
    repo_path(root, sizeof root, "");
    cli_result r = cli_run("record", "--workload", "gaussian", "-o", trace, NULL);
    cli_result_free(&r);
    r = cli_run("analyze", trace, "--gpu", "fermi", "-o", json, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    r = cli_run("report", json, "--html", html, "--source-dir", root, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    char *page = test_read_file(html, NULL);
    cr_assert_not_null(page);
    const char *source = strstr(page, "<section id=\"source\">");
    cr_assert_not_null(source);
    cr_assert(strstr(source, "<h3><code>collectors/workloads/gaussian.c</code></h3>"));
    /* gaussian.c:22, Fan1's pivot row: its text, then gaussian.cu:13's. */
    const char *row = strstr(source, "<tr id=\"src-collectors-workloads-gaussian-c-22\">");
    cr_assert_not_null(row);
    const char *end = strstr(row, "</tr>");
    char *cells = strndup(row, (size_t)(end - row));
    cr_assert(strstr(cells, "EMU_LD(th, float, &amp;g-&gt;a[Size * (x + t + 1) + t])"), "%s", cells);
    cr_assert(strstr(cells, "<code>gaussian.cu:13</code>"), "%s", cells);
    cr_assert(strstr(cells, "float pivot_row = a_cuda[Size * (x + t + 1) + t];"), "%s", cells);
    free(cells);
    free(page);
    /* analyze and profile draw the same view with --source-dir. */
    char *direct = test_path(dir, "direct.html"), *prof = test_path(dir, "prof");
    r = cli_run("analyze", trace, "--gpu", "fermi", "--html", direct, "--source-dir", root,
                "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    r = cli_run("profile", trace, "--gpu", "fermi", "-o", prof, "--source-dir", root,
                "--launch-count", "4", "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    char *prof_html = test_path(prof, "report.html");
    const char *pages[] = {direct, prof_html};
    for (int i = 0; i < 2; i++) {
        page = test_read_file(pages[i], NULL);
        cr_assert(page && strstr(page, "float pivot_row = a_cuda[Size * (x + t + 1) + t];"), "%s",
                  pages[i]);
        free(page);
    }
    free(direct);
    free(prof);
    free(prof_html);
    free(trace);
    free(json);
    free(html);
    test_tmpdir_cleanup(dir);
}
