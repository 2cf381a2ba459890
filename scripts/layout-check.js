/* scripts/layout-check.js: finds layout faults in an HTML report, in a
 * browser.  scripts/browser-test.sh injects it into a test-only copy of the
 * page (the report itself has no script, and its Content-Security-Policy
 * forbids one) and reads what it writes, with `chromium --dump-dom`.
 *
 * It opens every <details> (so launches shown on demand are measured too)
 * and reports, one line each:
 *   - the page wider than the window (a horizontal scroll bar);
 *   - an element reaching past its parent's content box: a table wider than
 *     its section, a label pushing a cell out;
 *   - an SVG <text> reaching past its <svg> (cut off);
 *   - two SVG <text> boxes that intersect (tick labels on top of each
 *     other), rotation included, or a legend (<g class="legend">) over a
 *     text of its chart (an axis title running under the colour bar);
 *   - a heatmap that misleads: a legend that does not state its colour
 *     scale ("colours from 0 to the largest cell", "colours span the data:
 *     A to B", "every cell V": docs/html-report.md, "Colour scales"), a
 *     tick label printed twice on one axis row, or a capacity line
 *     (<line class="capacity">) outside its chart or without its label.
 * The findings go into a <pre> with id layout-faults, one per line, and
 * its data-checked attribute counts the elements looked at, so the caller
 * can tell "no fault" from "did not run". */
(function () {
    'use strict';
    var SLACK = 1; /* px: sub-pixel rounding is not a fault */
    var faults = [];

    function snippet(el) {
        var text = (el.textContent || '').replace(/\s+/g, ' ').trim();
        return text.length > 40 ? text.slice(0, 39) + '\u2026' : text;
    }

    /* "table.x in section#pc-table ("Fan1+0x16000 …")" */
    function describe(el) {
        var name = el.tagName.toLowerCase();
        if (el.id) name += '#' + el.id;
        if (el.classList && el.classList.length) name += '.' + Array.prototype.join.call(el.classList, '.');
        var where = el.closest('section, header, footer, nav');
        if (where && where !== el) name += ' in ' + where.tagName.toLowerCase() + (where.id ? '#' + where.id : '');
        var text = snippet(el);
        return text ? name + ' ("' + text + '")' : name;
    }

    function px(style, prop) {
        return parseFloat(style.getPropertyValue(prop)) || 0;
    }

    /* The box an element's children must stay in: inside border and padding. */
    function contentBox(el) {
        var r = el.getBoundingClientRect(), s = getComputedStyle(el);
        return {
            left: r.left + px(s, 'border-left-width') + px(s, 'padding-left'),
            right: r.right - px(s, 'border-right-width') - px(s, 'padding-right')
        };
    }

    function checkPage() {
        var root = document.documentElement;
        if (root.scrollWidth > root.clientWidth + SLACK)
            faults.push('overflow: the page is ' + root.scrollWidth + 'px wide in a ' +
                        root.clientWidth + 'px window');
    }

    /* HTML elements only: SVG content is checked against its <svg> below. */
    function checkElements() {
        var all = document.body.querySelectorAll('*'), checked = 0;
        for (var i = 0; i < all.length; i++) {
            var el = all[i], parent = el.parentElement;
            if (el.id === 'layout-faults' || !parent || parent.closest('svg'))
                continue;
            var r = el.getBoundingClientRect();
            if (r.width === 0 && r.height === 0)
                continue;
            checked++;
            var box = contentBox(parent);
            var past = Math.max(r.right - box.right, box.left - r.left);
            if (past > SLACK)
                faults.push('overflow: ' + describe(el) + ' reaches ' + Math.round(past) +
                            'px past its container ' + describe(parent).replace(/ \(".*$/, ''));
        }
        return checked;
    }

    /* The four corners of a text's box in page pixels, shrunk by the
     * font's blank ascent and descent so stacked labels 12px apart are not
     * called overlapping. */
    function quad(text) {
        var b = text.getBBox(), m = text.getScreenCTM();
        if (!m || b.width === 0)
            return null;
        var inset = b.height * 0.15, x0 = b.x + 0.5, x1 = b.x + b.width - 0.5;
        var y0 = b.y + inset, y1 = b.y + b.height - inset;
        return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]].map(function (p) {
            return {x: m.a * p[0] + m.c * p[1] + m.e, y: m.b * p[0] + m.d * p[1] + m.f};
        });
    }

    /* Separating-axis test for two convex quadrilaterals. */
    function intersect(a, b) {
        var polys = [a, b];
        for (var k = 0; k < 2; k++) {
            var p = polys[k];
            for (var i = 0; i < 4; i++) {
                var j = (i + 1) % 4, nx = p[j].y - p[i].y, ny = p[i].x - p[j].x;
                var lo = [Infinity, Infinity], hi = [-Infinity, -Infinity];
                for (var q = 0; q < 2; q++)
                    polys[q].forEach(function (v) {
                        var d = v.x * nx + v.y * ny;
                        lo[q] = Math.min(lo[q], d);
                        hi[q] = Math.max(hi[q], d);
                    });
                if (hi[0] <= lo[1] || hi[1] <= lo[0])
                    return false;
            }
        }
        return true;
    }

    function checkSvg(svg) {
        var label = 'svg "' + (svg.getAttribute('aria-label') || '') + '"';
        var where = svg.closest('section, header');
        if (where && where.id) label = 'section#' + where.id + ' ' + label;
        var frame = svg.getBoundingClientRect(), texts = svg.querySelectorAll('text'), boxes = [];
        for (var i = 0; i < texts.length; i++) {
            var q = quad(texts[i]);
            if (!q)
                continue;
            var name = 'text "' + snippet(texts[i]) + '"';
            var xs = q.map(function (v) { return v.x; }), ys = q.map(function (v) { return v.y; });
            var past = Math.max(frame.left - Math.min.apply(null, xs), Math.max.apply(null, xs) - frame.right,
                                frame.top - Math.min.apply(null, ys), Math.max.apply(null, ys) - frame.bottom);
            if (past > SLACK)
                faults.push('cut off: ' + label + ': ' + name + ' reaches ' + Math.round(past) +
                            'px past the chart');
            for (var k = 0; k < boxes.length; k++)
                if (intersect(q, boxes[k].quad))
                    faults.push('overlap: ' + label + ': ' + boxes[k].name + ' and ' + name);
            boxes.push({quad: q, name: name, text: texts[i]});
        }
        checkLegends(svg, label, boxes);
        checkHeatmap(svg, label);
        return texts.length;
    }

    /* A heatmap is a chart whose legend has the "none" swatch. */
    var SCALE_RULE = /^(log )?colours from 0 to the largest cell$|^colours span the data: \S.* to \S.*$|^every cell \S/;
    function elements(root, selector) {
        return Array.prototype.map.call(root.querySelectorAll(selector), function (t) {
            return t;
        });
    }
    function checkHeatmap(svg, label) {
        var legend = svg.querySelector('g.legend');
        if (!legend || !elements(legend, 'text').some(function (t) { return t.textContent === 'none'; }))
            return;
        var notes = elements(legend, 'text.note').map(function (t) { return t.textContent; });
        if (!notes.some(function (n) { return SCALE_RULE.test(n); }))
            faults.push('misleading: ' + label + ': the legend does not state its colour scale (' +
                        (notes.join('; ') || 'no note') + ')');
        /* Tick labels outside the legend, by row: none twice on one row. */
        var rows = {};
        elements(svg, 'text.tick').forEach(function (t) {
            if (legend.contains(t))
                return;
            var y = Math.round(t.getBoundingClientRect().top);
            rows[y] = rows[y] || {};
            if (rows[y][t.textContent])
                faults.push('misleading: ' + label + ': tick label "' + t.textContent +
                            '" twice on one row');
            rows[y][t.textContent] = true;
        });
        var frame = svg.getBoundingClientRect();
        elements(svg, 'line.capacity').forEach(function (line) {
            var b = line.getBoundingClientRect();
            if (b.left < frame.left - SLACK || b.right > frame.right + SLACK || b.height < 1)
                faults.push('misleading: ' + label + ': a capacity line outside its chart');
        });
        if (svg.querySelector('line.capacity') && !elements(svg, 'text.tick').some(function (t) {
                return / lines$/.test(t.textContent); }))
            faults.push('misleading: ' + label + ': a capacity line without its label');
    }

    function rectQuad(r) {
        return [{x: r.left, y: r.top}, {x: r.right, y: r.top}, {x: r.right, y: r.bottom},
                {x: r.left, y: r.bottom}];
    }

    /* A legend (<g class="legend">: swatches, colour bar, their words)
     * must not cover any other text of its chart. */
    function checkLegends(svg, label, boxes) {
        Array.prototype.forEach.call(svg.querySelectorAll('g.legend'), function (g) {
            var area = rectQuad(g.getBoundingClientRect());
            boxes.forEach(function (b) {
                if (!g.contains(b.text) && intersect(area, b.quad))
                    faults.push('overlap: ' + label + ': the legend ("' + snippet(g) + '") and ' + b.name);
            });
        });
    }

    function run() {
        Array.prototype.forEach.call(document.querySelectorAll('details'), function (d) { d.open = true; });
        checkPage();
        var checked = checkElements();
        Array.prototype.forEach.call(document.querySelectorAll('svg'), function (svg) {
            checked += checkSvg(svg);
        });
        var pre = document.createElement('pre');
        pre.id = 'layout-faults';
        pre.setAttribute('data-checked', String(checked));
        pre.textContent = faults.join('\n');
        document.body.appendChild(pre);
    }

    window.addEventListener('load', run);
})();
