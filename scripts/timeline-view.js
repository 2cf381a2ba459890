// scripts/timeline-view.js BROWSER PAGE.html TRACE.json [BUDGET_MS]: does Chrome's
// trace viewer parse a `--timeline` trace?  (scripts/timeline-view-check.sh
// makes PAGE with catapult's trace2html; docs/replay.md, "Timeline".)
//
// Headless Chromium loads PAGE and is driven over its DevTools pipe
// (--remote-debugging-pipe: JSON messages ended by NUL bytes, the browser
// reading fd 3 and writing fd 4), so no port and no package are needed.  The
// page's script imports the trace into a tr.Model and hands it to its
// <tr-ui-timeline-view> (g_timelineViewEl.model) when the import is done, or
// shows an "Import error" overlay.  The script polls for either, then counts
// what the viewer holds and compares it with the trace itself: processes
// (distinct pids), threads (distinct pid and tid of the spans) and slices
// (the "X" complete events).  Prints the counts; exits 1 on a mismatch, an
// import error or warning, a script exception, or no model within BUDGET_MS.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const [browser, page, tracePath] = process.argv.slice(2, 5);
const budgetMs = Number(process.argv[5] || 120000);
if (!browser || !page || !tracePath) {
    console.error('usage: timeline-view.js BROWSER PAGE.html TRACE.json [BUDGET_MS]');
    process.exit(2);
}

// What the trace holds.
const events = JSON.parse(fs.readFileSync(tracePath, 'utf8')).traceEvents;
const spans = events.filter(e => e.ph === 'X');
const want = {
    processes: new Set(events.map(e => e.pid)).size,
    threads: new Set(spans.map(e => e.pid + ':' + e.tid)).size,
    slices: spans.length,
};

// What the viewer holds, evaluated in the page (the viewer's polyfill
// replaces document.querySelectorAll, so elements are found by tag).
const probe = `(() => {
    if (typeof g_timelineViewEl === 'undefined' || !g_timelineViewEl) return {state: 'loading'};
    const overlays = Array.prototype.slice.call(document.getElementsByTagName('tr-ui-b-overlay'))
        .map(o => o.title + ': ' + o.textContent);
    const m = g_timelineViewEl.model;
    if (!m) return {state: 'importing', overlays};
    let processes = 0, threads = 0, slices = 0;
    for (const p of Object.values(m.processes)) {
        processes++;
        for (const t of Object.values(p.threads)) {
            threads++;
            slices += t.sliceGroup.slices.length;
        }
    }
    return {state: 'done', processes, threads, slices, overlays,
            warnings: m.importWarnings.map(w => w.message)};
})()`;

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'timeline-view-'));
const chrome = spawn(browser, ['--headless', '--no-sandbox', '--disable-gpu',
                               '--remote-debugging-pipe', '--user-data-dir=' + profile,
                               'about:blank'],
                     { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
const problems = [];
const replies = new Map();
let pending = '', nextId = 1;
chrome.stdio[4].on('data', chunk => {
    pending += chunk.toString('utf8');
    for (let end; (end = pending.indexOf('\0')) >= 0; pending = pending.slice(end + 1)) {
        const msg = JSON.parse(pending.slice(0, end));
        if (msg.id && replies.has(msg.id)) {
            replies.get(msg.id)(msg);
            replies.delete(msg.id);
        } else if (msg.method === 'Runtime.exceptionThrown') {
            const d = msg.params.exceptionDetails;
            problems.push('script exception: ' + (d.exception && d.exception.description || d.text));
        }
    }
});
function send(method, params, sessionId) {
    const id = nextId++;
    chrome.stdio[3].write(JSON.stringify({ id, method, params: params || {}, sessionId }) + '\0');
    return new Promise(resolve => replies.set(id, resolve));
}
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

// The profile is removed once the browser has exited (it writes there
// until then).
function finish(code, lines) {
    for (const l of lines)
        (code ? console.error : console.log)('timeline view: ' + l);
    chrome.once('exit', () => {
        fs.rmSync(profile, { recursive: true, force: true });
        process.exit(code);
    });
    chrome.kill();
}

(async () => {
    const target = await send('Target.createTarget', { url: 'about:blank' });
    const attached = await send('Target.attachToTarget',
                                { targetId: target.result.targetId, flatten: true });
    const session = attached.result.sessionId;
    await send('Runtime.enable', {}, session);
    await send('Page.navigate', { url: 'file://' + path.resolve(page) }, session);
    const start = Date.now();
    let seen = { state: 'loading' };
    while (Date.now() - start < budgetMs) {
        const r = await send('Runtime.evaluate', { expression: probe, returnByValue: true }, session);
        seen = r.result && r.result.result && r.result.result.value || seen;
        if (seen.state === 'done' || (seen.overlays && seen.overlays.length))
            break;
        await sleep(250);
    }
    const lines = [];
    if (seen.state !== 'done')
        lines.push(`no model after ${budgetMs} ms (last state: ${seen.state})`);
    for (const o of seen.overlays || [])
        lines.push('overlay: ' + o);
    for (const w of seen.warnings || [])
        lines.push('import warning: ' + w);
    lines.push(...problems);
    for (const k of ['processes', 'threads', 'slices'])
        if (seen.state === 'done' && seen[k] !== want[k])
            lines.push(`${k}: the viewer holds ${seen[k]}, the trace ${want[k]}`);
    if (lines.length)
        return finish(1, lines);
    finish(0, [`${path.basename(tracePath)}: ${seen.processes} processes, ${seen.threads} threads, ` +
               `${seen.slices} slices, as the trace holds; no import error or warning ` +
               `(${Date.now() - start} ms)`]);
})().catch(e => finish(1, ['driver: ' + e.message]));
