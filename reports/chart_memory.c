/* reports/chart_memory.c: see chart_memory.h.  Four boxes side by side, a
 * lane of arrows between each two; an arrow's thickness is its bytes, on
 * one scale for the whole chart, so a fill that moves more than the lanes
 * asked for reads as a thicker arrow below L1. */
#include "reports/chart_memory.h"

#include <math.h>

#include "reports/colour.h"
#include "reports/numfmt.h"
#include "reports/svg.h"

#define WIDTH 1100.0
#define LABEL_W 100.0 /* the row names, left of the first box */
#define BOX_W 92.0
#define LANE_W ((WIDTH - LABEL_W - 4 * BOX_W) / 3)
#define TOP 4.0
#define HEADER_H 44.0 /* a box's name and note, above its rows */
#define ROW_H 50.0
#define ARROW_MIN 1.5
#define ARROW_MAX 9.0
#define HEAD 9.0

static const char *const box_names[] = {"SM", "L1", "L2", "DRAM"};
static const char *const link_names[MEMORY_LINKS] = {"SM \xe2\x86\x92 L1", "L1 \xe2\x86\x92 L2",
                                                     "L2 \xe2\x86\x94 DRAM"};

static void attr(FILE *out, const char *name, double v)
{
    fprintf(out, " %s=\"", name);
    svg_num(out, v);
    fputc('"', out);
}

static double box_x(int box)
{
    return LABEL_W + box * (BOX_W + LANE_W);
}

static double row_y(unsigned row)
{
    return TOP + HEADER_H + (row + 0.5) * ROW_H;
}

static void box(FILE *out, int i, double height, const char *note)
{
    double x = box_x(i);
    fputs("<rect", out);
    attr(out, "x", x);
    attr(out, "y", TOP);
    attr(out, "width", BOX_W);
    attr(out, "height", height);
    fputs(" rx=\"6\" fill=\"#f4f6f8\" stroke=\"#9aa4ad\"/>\n", out);
    svg_text(out, x + BOX_W / 2, TOP + 18, "middle", 0, "title", box_names[i]);
    if (note)
        svg_text(out, x + BOX_W / 2, TOP + 33, "middle", 0, "note", note);
}

/* "38.3k requests" over the arrow, "153k sectors, 4.7 MiB" under it. */
static void arrow_labels(FILE *out, double x, double y, double half, const memory_chart_flow *f)
{
    char text[96];
    snprintf(text, sizeof text, "%s requests", numfmt_count(f->requests).s);
    svg_text(out, x, y - half - 5, "middle", 0, NULL, text);
    snprintf(text, sizeof text, "%s sectors, %s", numfmt_count(f->sectors).s,
             numfmt_bytes(f->bytes).s);
    svg_text(out, x, y + half + 13, "middle", 0, "note", text);
}

/* One arrow, its labels and its hover text in one group, so hovering
 * either shows the exact figures. */
static void arrow(FILE *out, const memory_chart_row *r, unsigned row, int link, double max_bytes)
{
    const memory_chart_flow *f = &r->links[link];
    if (isnan(f->requests))
        return;
    double x1 = box_x(link) + BOX_W + 4, x2 = box_x(link + 1) - 4, y = row_y(row);
    int none = !(f->requests > 0);
    double width = none ? 1 : ARROW_MIN + (ARROW_MAX - ARROW_MIN) * (max_bytes > 0 ? f->bytes / max_bytes : 0);
    const char *colour = none ? "#bdbdbd" : colour_series(row);
    char tip[320];
    snprintf(tip, sizeof tip, "%s, %s: %s requests, %s sectors of 32 B, %s bytes %s", r->name,
             link_names[link], numfmt_grouped_count(f->requests).s,
             numfmt_grouped_count(f->sectors).s, numfmt_grouped_count(f->bytes).s,
             link == MEMORY_LINK_SM_L1 ? "asked for by the lanes" : r->flows_as);
    fputs("<g><title>", out);
    xml_escape(out, tip);
    fputs("</title>\n<line", out);
    attr(out, "x1", x1);
    attr(out, "y1", y);
    attr(out, "x2", x2 - HEAD + 1);
    attr(out, "y2", y);
    attr(out, "stroke-width", width);
    fprintf(out, " stroke=\"%s\"%s/>\n<polygon points=\"", colour,
            none ? " stroke-dasharray=\"4 3\"" : "");
    double half = width / 2 + 4;
    svg_num(out, x2);
    fputc(',', out);
    svg_num(out, y);
    fputc(' ', out);
    svg_num(out, x2 - HEAD);
    fputc(',', out);
    svg_num(out, y - half);
    fputc(' ', out);
    svg_num(out, x2 - HEAD);
    fputc(',', out);
    svg_num(out, y + half);
    fprintf(out, "\" fill=\"%s\"/>\n", colour);
    if (none)
        svg_text(out, (x1 + x2) / 2, y - 6, "middle", 0, "note", "none");
    else
        arrow_labels(out, (x1 + x2) / 2, y, width / 2, f);
    fputs("</g>\n", out);
}

/* The hit rate of a row's requests inside a box ("—" where undefined). */
static void hit_rate(FILE *out, int box, unsigned row, double rate, const char *name,
                     const char *level)
{
    char text[48];
    double x = box_x(box) + BOX_W / 2, y = row_y(row) + 4;
    if (isnan(rate)) {
        svg_text(out, x, y, "middle", 0, "note", "\xe2\x80\x94");
        return;
    }
    snprintf(text, sizeof text, "%s hit", numfmt_percent(rate).s);
    char tip[96];
    snprintf(tip, sizeof tip, "%s: %s hit rate %s", name, level, numfmt_percent(rate).s);
    fputs("<g><title>", out);
    xml_escape(out, tip);
    fputs("</title>\n", out);
    svg_text(out, x, y, "middle", 0, NULL, text);
    fputs("</g>\n", out);
}

void chart_memory(FILE *out, const memory_chart *c)
{
    double max_bytes = 0, height = HEADER_H + c->rows * ROW_H + 6;
    for (unsigned r = 0; r < c->rows; r++)
        for (int l = 0; l < MEMORY_LINKS; l++)
            if (c->row[r].links[l].bytes > max_bytes)
                max_bytes = c->row[r].links[l].bytes;
    svg_open(out, WIDTH, TOP + height + 4, c->label);
    const char *notes[] = {"instructions", "per SM", c->l2_note, NULL};
    for (int b = 0; b < 4; b++)
        box(out, b, height, notes[b]);
    for (unsigned r = 0; r < c->rows; r++) {
        const memory_chart_row *row = &c->row[r];
        svg_rect(out, 2, row_y(r) - 6, 10, 10, colour_series(r), NULL);
        svg_text(out, 17, row_y(r) + 4, "start", 0, NULL, row->name);
        for (int l = 0; l < MEMORY_LINKS; l++)
            arrow(out, row, r, l, max_bytes);
        hit_rate(out, 1, r, row->l1_hit_rate, row->name, "L1");
        hit_rate(out, 2, r, row->l2_hit_rate, row->name, "L2");
    }
    svg_close(out);
}
