/* collectors/accelsim/accelsim_export.c: a .wst trace -> Accel-Sim text.
 *
 * Writes what the post-processed tracer output looks like (tracer format
 * version 4), memory instructions and one EXIT per warp: per kernel a
 * header, then per CTA of the grid "#BEGIN_TB / thread block / (warp /
 * insts / lines / EXIT)* / #END_TB", in the form Accel-Sim's trace-driven
 * simulator runs (docs/accelsim.md, "What export writes").  The "insts = N"
 * count comes before a warp's lines, so one CTA's records are held in
 * memory (never more), packed, then written warp by warp. */
#include "collectors/accelsim/accelsim.h"
#include "formats/kernel_filter.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "collectors/accelsim/accelsim_lines.h"
#include "collectors/accelsim/accelsim_opcode.h"
#include "collectors/accelsim/accelsim_timing_out.h"
#include "formats/packed_record.h"
#include "formats/wst.h"
#include "util/outfile.h"

/* Generic-address windows written into every header: the top 32 MiB of
 * the address space, where no real allocation lives, so a generic LD/ST
 * (and Accel-Sim reading it) resolves to global unless it truly was not. */
static const accelsim_windows export_windows = {
    .shared_base = 0xfffffffffe000000ull,
    .local_base = 0xffffffffff000000ull,
};

static void write_header(FILE *out, const wst_kernel *k, uint32_t index, int lineinfo)
{
    if (k->name && *k->name && !k->name[strcspn(k->name, "\r\n")])
        fprintf(out, "-kernel name = %s\n", k->name);
    else
        fprintf(out, "-kernel name = kernel_%u\n", index + 1);
    fprintf(out,
            "-kernel id = %u\n-grid dim = (%u,%u,%u)\n-block dim = (%u,%u,%u)\n"
            "-shmem = %u\n-nregs = %u\n-binary version = 70\n-cuda stream id = 0\n"
            "-shmem base_addr = 0x%016" PRIx64 "\n-local mem base_addr = 0x%016" PRIx64 "\n"
            "-accelsim tracer version = 4\n-enable lineinfo = %d\n\n"
            "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
            "[reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n",
            index + 1, k->grid.x, k->grid.y, k->grid.z, k->block.x, k->block.y, k->block.z,
            k->shared_mem_bytes, k->registers_per_thread, export_windows.shared_base,
            export_windows.local_base, lineinfo);
}

/* Destination registers R0..R254 (R255 is RZ) in turn: Accel-Sim's
 * scoreboard (Scoreboard::checkCollision) holds a warp at an instruction
 * whose register is still reserved, so a load waits only behind the load
 * 255 loads before it in the same warp. */
#define EXPORT_DEST_REGS 255

/* The lanes of warp w of a block of `threads`: Accel-Sim starts exactly
 * these (shader_core_ctx::init_warps) and ends the warp when an EXIT has
 * covered all of them. */
static uint32_t warp_lanes(uint64_t threads, uint32_t w)
{
    uint64_t first = (uint64_t)w * WST_WARP_SIZE;
    return threads - first >= WST_WARP_SIZE ? 0xffffffffu
                                            : (1u << (threads - first)) - 1;
}

/* Warp w's instructions: its records, their gaps when the kernel carries
 * timing (accelsim_timing_out.h), and the EXIT.  0 when past 2^32. */
static uint32_t warp_insts(const wst_kernel *k, const cta_buffer *b, uint32_t w)
{
    uint64_t insts = (uint64_t)b->starts[w + 1] - b->starts[w] + 1;
    for (uint32_t i = b->starts[w]; k->has_timing && i < b->starts[w + 1]; i++)
        insts += packed_cta_timing(&b->records, i).gap;
    return insts > UINT32_MAX ? 0 : (uint32_t)insts;
}

/* Every warp of the block, each ending with an EXIT after its records:
 * Accel-Sim asserts on a warp without instructions, and a warp that never
 * EXITs runs past the end of its trace. */
static int write_cta(FILE *out, const wst_kernel *k, uint32_t cta, const cta_buffer *b,
                     wst_record *record, const accelsim_line_format *format, uint64_t exit_pc,
                     ws_error *err)
{
    wst_dim3 at = wst_cta_coords(k->grid, cta);
    fprintf(out, "\n#BEGIN_TB\n\nthread block = %u,%u,%u\n", at.x, at.y, at.z);
    uint64_t threads = (uint64_t)k->block.x * k->block.y * k->block.z;
    char synthesized[ACCELSIM_OPCODE_MAX];
    accelsim_timing_out timing;
    for (uint32_t w = 0; w < b->warps; w++) {
        uint32_t insts = warp_insts(k, b, w);
        if (!insts)
            return ws_fail(err, "CTA %u warp %u: more than 2^32 instructions with its gaps", cta, w);
        fprintf(out, "\nwarp = %u\ninsts = %u\n", w, insts);
        accelsim_timing_out_begin(&timing);
        unsigned dests = 0;
        for (uint32_t i = b->starts[w]; i < b->starts[w + 1]; i++) {
            packed_cta_expand(&b->records, i, cta, record);
            const wst_record *rec = record;
            if (rec->pc >= k->pc_count)
                return ws_fail(err, "record refers to PC %u of %u", rec->pc, k->pc_count);
            const wst_pc *pc = &k->pcs[rec->pc];
            const char *opcode = pc->sass;
            accelsim_opcode op; /* classified once: it decides the fit and the register */
            if (!accelsim_opcode_fit(opcode, rec, &export_windows, &op)) {
                accelsim_opcode_synthesize(rec, synthesized, sizeof synthesized);
                opcode = synthesized;
                accelsim_opcode_classify(opcode, &op);
            }
            accelsim_regs regs = {.dest = op.dest ? (int)(dests++ % EXPORT_DEST_REGS) : -1};
            if (k->has_timing) /* its gap first, registers that say what it waits on */
                accelsim_timing_out_record(&timing, out, format, exit_pc + 16,
                                           warp_lanes(threads, w), rec,
                                           rec->kind != WST_STORE, op.dest, &regs);
            accelsim_inst_write(out, format, pc->line, pc->offset, opcode, &regs, rec);
        }
        accelsim_exit_write(out, format, 0, exit_pc, warp_lanes(threads, w));
    }
    fputs("\n#END_TB\n", out);
    return 0;
}

/* Accel-Sim runs every CTA of the grid, taking the next #BEGIN_TB of the
 * file for each in x, y, z order (trace_parser::get_next_threadblock_traces
 * ignores the "thread block" line): CTAs without records are written too,
 * every warp with only its EXIT. */
static int write_ctas(wst_reader *r, uint32_t index, FILE *out, cta_buffer *b,
                      wst_record *record, const accelsim_line_format *format, ws_error *err)
{
    const wst_kernel *k = &wst_reader_trace(r)->kernels[index];
    uint64_t ctas_in_grid = (uint64_t)(k->grid.x ? k->grid.x : 1) *
                            (k->grid.y ? k->grid.y : 1) * (k->grid.z ? k->grid.z : 1);
    /* The EXIT's PC comes after every PC of the kernel, as a real EXIT
     * would (Accel-Sim fetches it through the instruction cache). */
    uint64_t exit_pc = 0;
    for (uint32_t i = 0; i < k->pc_count; i++)
        if (k->pcs[i].offset + 16 > exit_pc)
            exit_pc = k->pcs[i].offset + 16;
    uint32_t cta_count = 0, next = 0;
    const uint32_t *ctas = wst_reader_ctas(r, index, &cta_count);
    for (uint64_t cta = 0; cta < ctas_in_grid; cta++) {
        if (next < cta_count && ctas[next] == cta) {
            if (cta_buffer_read(b, r, index, ctas[next++], err) != 0)
                return -1;
        } else {
            cta_buffer_empty(b);
        }
        if (write_cta(out, k, (uint32_t)cta, b, record, format, exit_pc, err) != 0)
            return -1;
    }
    if (next < cta_count)
        return ws_fail(err, "CTA %u is outside the grid (%u,%u,%u)", ctas[next], k->grid.x,
                       k->grid.y, k->grid.z);
    return 0;
}

/* Errors name the file at fault: the trace for what its records hold, the
 * output for what could not be written. */
static int export_kernel(wst_reader *r, const char *trace_path, uint32_t index, const char *path,
                         ws_error *err)
{
    const wst_kernel *k = &wst_reader_trace(r)->kernels[index];
    accelsim_line_format format = {0};
    for (uint32_t i = 0; i < k->pc_count; i++)
        format.lineinfo |= k->pcs[i].line != 0;
    uint64_t threads = (uint64_t)k->block.x * k->block.y * k->block.z;
    if (threads == 0 || threads > 1u << 20)
        return ws_fail(err, "%s: kernel %u: block (%u,%u,%u) cannot be written", trace_path,
                       index, k->block.x, k->block.y, k->block.z);
    cta_buffer b;
    int no_room = cta_buffer_init(&b, (uint32_t)((threads + WST_WARP_SIZE - 1) / WST_WARP_SIZE),
                                  err) != 0;
    wst_record *record = malloc(sizeof *record); /* the record being written, expanded */
    ws_outfile *out = ws_outfile_open(path, err);
    int rc = !out ? ws_fail_prefix(err, "%s: ", path) : 0;
    if (rc == 0 && (no_room || !record))
        rc = ws_fail(err, "out of memory");
    if (rc == 0) {
        write_header(ws_outfile_stream(out), k, index, format.lineinfo);
        if ((rc = write_ctas(r, index, ws_outfile_stream(out), &b, record, &format, err)) != 0)
            ws_fail_prefix(err, "%s: ", trace_path);
    }
    free(record);
    cta_buffer_free(&b);
    if (rc != 0) {
        ws_outfile_abort(out);
        return -1;
    }
    return ws_outfile_commit(out, err) != 0 ? ws_fail_prefix(err, "%s: ", path) : 0;
}

int accelsim_export(const char *wst_path, const char *out_dir, ws_error *err)
{
    return accelsim_export_filtered(wst_path, NULL, out_dir, err);
}

int accelsim_export_filtered(const char *wst_path, const kernel_filter *filter,
                             const char *out_dir, ws_error *err)
{
    wst_reader *r = wst_reader_open(wst_path, err);
    if (r && kernel_filter_apply(filter, r, err) != 0) {
        wst_reader_close(r);
        r = NULL;
    }
    if (!r)
        return ws_fail_prefix(err, "%s: ", wst_path);
    if (ws_make_dir(out_dir, err) != 0) {
        wst_reader_close(r);
        return -1;
    }
    char *path = NULL;
    ws_outfile *list = NULL;
    int rc = asprintf(&path, "%s/kernelslist.g", out_dir) < 0 ? ws_fail(err, "out of memory") : 0;
    if (rc == 0 && !(list = ws_outfile_open(path, err)))
        rc = -1;
    const wst_trace *trace = wst_reader_trace(r);
    for (uint32_t k = 0; rc == 0 && k < trace->kernel_count; k++) {
        free(path);
        path = NULL;
        if (asprintf(&path, "%s/kernel-%u.traceg", out_dir, k + 1) < 0) {
            rc = ws_fail(err, "out of memory");
            break;
        }
        fprintf(ws_outfile_stream(list), "kernel-%u.traceg\n", k + 1);
        rc = export_kernel(r, wst_path, k, path, err);
    }
    if (rc == 0)
        rc = ws_outfile_commit(list, err);
    else
        ws_outfile_abort(list);
    free(path);
    wst_reader_close(r);
    return rc;
}
