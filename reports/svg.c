/* reports/svg.c: see svg.h. */
#include "reports/svg.h"

#include <math.h>

void xml_escape(FILE *out, const char *text)
{
    for (const char *p = text ? text : ""; *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default:
            /* Control characters are not allowed in XML 1.0 at all. */
            if ((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t')
                fputc('?', out);
            else
                fputc(*p, out);
        }
    }
}

void svg_num(FILE *out, double v)
{
    if (!isfinite(v))
        v = 0;
    double r = round(v * 10) / 10;
    if (r == floor(r))
        fprintf(out, "%.0f", r == 0 ? 0.0 : r); /* never "-0" */
    else
        fprintf(out, "%.1f", r);
}

static void attr(FILE *out, const char *name, double v)
{
    fprintf(out, " %s=\"", name);
    svg_num(out, v);
    fputc('"', out);
}

/* Closes an element that may carry a tooltip: <x .../> or <x ...><title/></x>. */
static void end_with_tip(FILE *out, const char *element, const char *tip)
{
    if (!tip) {
        fputs("/>", out);
        return;
    }
    fputs("><title>", out);
    xml_escape(out, tip);
    fprintf(out, "</title></%s>", element);
}

void svg_group_open(FILE *out, const char *cls)
{
    fputs("<g class=\"", out);
    xml_escape(out, cls);
    fputs("\">\n", out);
}

void svg_group_close(FILE *out)
{
    fputs("</g>\n", out);
}

void svg_open(FILE *out, double width, double height, const char *label)
{
    fputs("<svg xmlns=\"http://www.w3.org/2000/svg\"", out);
    attr(out, "width", width);
    attr(out, "height", height);
    fputs(" viewBox=\"0 0 ", out);
    svg_num(out, width);
    fputc(' ', out);
    svg_num(out, height);
    fputs("\" role=\"img\" aria-label=\"", out);
    xml_escape(out, label);
    fputs("\">\n", out);
}

void svg_close(FILE *out)
{
    fputs("</svg>\n", out);
}

void svg_rect(FILE *out, double x, double y, double w, double h, const char *fill, const char *tip)
{
    fputs("<rect", out);
    attr(out, "x", x);
    attr(out, "y", y);
    attr(out, "width", w > 0 ? w : 0);
    attr(out, "height", h > 0 ? h : 0);
    fputs(" fill=\"", out);
    xml_escape(out, fill);
    fputc('"', out);
    end_with_tip(out, "rect", tip);
    fputc('\n', out);
}

void svg_line(FILE *out, double x1, double y1, double x2, double y2, const char *cls)
{
    fputs("<line", out);
    attr(out, "x1", x1);
    attr(out, "y1", y1);
    attr(out, "x2", x2);
    attr(out, "y2", y2);
    if (cls) {
        fputs(" class=\"", out);
        xml_escape(out, cls);
        fputc('"', out);
    }
    fputs("/>\n", out);
}

void svg_text(FILE *out, double x, double y, const char *anchor, double rotate, const char *cls,
              const char *text)
{
    fputs("<text", out);
    attr(out, "x", x);
    attr(out, "y", y);
    fprintf(out, " text-anchor=\"%s\"", anchor);
    if (rotate != 0) {
        fputs(" transform=\"rotate(", out);
        svg_num(out, rotate);
        fputc(' ', out);
        svg_num(out, x);
        fputc(' ', out);
        svg_num(out, y);
        fputs(")\"", out);
    }
    if (cls) {
        fputs(" class=\"", out);
        xml_escape(out, cls);
        fputc('"', out);
    }
    fputc('>', out);
    xml_escape(out, text);
    fputs("</text>\n", out);
}

void svg_polyline(FILE *out, const double *xs, const double *ys, unsigned n, const char *colour)
{
    fputs("<polyline fill=\"none\" stroke-width=\"2\" stroke=\"", out);
    xml_escape(out, colour);
    fputs("\" points=\"", out);
    for (unsigned i = 0; i < n; i++) {
        if (i)
            fputc(' ', out);
        svg_num(out, xs[i]);
        fputc(',', out);
        svg_num(out, ys[i]);
    }
    fputs("\"/>\n", out);
}

void svg_circle(FILE *out, double x, double y, double r, const char *colour, int hollow,
                const char *tip)
{
    fputs("<circle", out);
    attr(out, "cx", x);
    attr(out, "cy", y);
    attr(out, "r", r);
    fputs(" stroke-width=\"2\" stroke=\"", out);
    xml_escape(out, colour);
    fputs("\" fill=\"", out);
    xml_escape(out, hollow ? "#ffffff" : colour);
    fputc('"', out);
    end_with_tip(out, "circle", tip);
    fputc('\n', out);
}
