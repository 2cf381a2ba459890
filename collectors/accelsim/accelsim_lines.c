/* collectors/accelsim/accelsim_lines.c: see accelsim_lines.h. */
#include "collectors/accelsim/accelsim_lines.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* A cursor over the space-separated fields of one line. */
typedef struct fields {
    const char *p;
    char token[80]; /* current field, cut at 79 characters */
    size_t len;     /* its full length */
} fields;

static int next_field(fields *f)
{
    while (*f->p == ' ' || *f->p == '\t' || *f->p == '\r')
        f->p++;
    if (!*f->p)
        return 0;
    const char *start = f->p;
    while (*f->p && *f->p != ' ' && *f->p != '\t' && *f->p != '\r')
        f->p++;
    f->len = (size_t)(f->p - start);
    size_t keep = f->len < sizeof f->token ? f->len : sizeof f->token - 1;
    memcpy(f->token, start, keep);
    f->token[keep] = '\0';
    return 1;
}

static int need_field(fields *f, const char *what, ws_error *err)
{
    return next_field(f) ? 0 : ws_fail(err, "truncated line: %s missing", what);
}

static int parse_dec_u32(fields *f, const char *what, uint32_t max, uint32_t *out,
                         ws_error *err)
{
    if (need_field(f, what, err) != 0)
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(f->token, &end, 10);
    if (f->token[0] < '0' || f->token[0] > '9' || *end || errno || v > max ||
        f->len >= sizeof f->token)
        return ws_fail(err, "bad %s '%s'", what, f->token);
    *out = (uint32_t)v;
    return 0;
}

/* The current field as hex, with or without 0x. */
static int hex_field(const fields *f, const char *what, int max_digits, uint64_t *out,
                     ws_error *err)
{
    const char *digits = f->token;
    if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
        digits += 2;
    size_t n = strspn(digits, "0123456789abcdefABCDEF");
    if (n == 0 || digits[n] || f->len - (size_t)(digits - f->token) > (size_t)max_digits)
        return ws_fail(err, "bad hex %s '%s'", what, f->token);
    *out = strtoull(digits, NULL, 16);
    return 0;
}

static int parse_hex_u64(fields *f, const char *what, int max_digits, uint64_t *out,
                         ws_error *err)
{
    if (need_field(f, what, err) != 0)
        return -1;
    return hex_field(f, what, max_digits, out, err);
}

static int parse_dec_i64(fields *f, const char *what, int64_t *out, ws_error *err)
{
    char *end;
    errno = 0;
    long long v = strtoll(f->token, &end, 10);
    const char *first = f->token[0] == '-' ? f->token + 1 : f->token;
    if (*first < '0' || *first > '9' || *end || errno || f->len >= sizeof f->token)
        return ws_fail(err, "bad %s '%s'", what, f->token);
    *out = v;
    return 0;
}

/* "R<n>" with n below ACCELSIM_REGISTERS, else -1: RZ (R255), uniform
 * and predicate registers carry no dependency the import tracks. */
static int16_t register_number(const fields *f)
{
    if (f->token[0] != 'R' || f->token[1] < '0' || f->token[1] > '9' || f->len > 4)
        return -1;
    char *end;
    unsigned long n = strtoul(f->token + 1, &end, 10);
    return *end || n >= ACCELSIM_REGISTERS ? -1 : (int16_t)n;
}

/* A count, then that many registers (docs/metrics.md §12 reads them). */
static int read_registers(fields *f, const char *what, int16_t *regs, uint8_t *count,
                          ws_error *err)
{
    uint32_t n = 0;
    if (parse_dec_u32(f, what, WST_WARP_SIZE, &n, err) != 0)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        if (need_field(f, "register", err) != 0)
            return -1;
        regs[i] = register_number(f);
    }
    *count = (uint8_t)n;
    return 0;
}

static int mask_is_contiguous(uint32_t mask)
{
    if (!mask)
        return 1;
    uint32_t shifted = mask >> __builtin_ctz(mask);
    return (shifted & (shifted + 1)) == 0;
}

static int parse_addresses(fields *f, uint32_t mask, accelsim_inst *out, ws_error *err)
{
    uint32_t mode;
    if (parse_dec_u32(f, "address mode", 2, &mode, err) != 0)
        return -1;
    int active = __builtin_popcount(mask), seen = 0;
    uint64_t base = 0;
    int64_t step = 0;
    if (mode != ACCELSIM_LIST && parse_hex_u64(f, "base address", 16, &base, err) != 0)
        return -1;
    if (mode == ACCELSIM_BASE_STRIDE) {
        if (need_field(f, "stride", err) != 0 || parse_dec_i64(f, "stride", &step, err) != 0)
            return -1;
        if (!mask_is_contiguous(mask))
            return ws_fail(err, "base+stride addresses with non-contiguous mask %08x", mask);
    }
    uint64_t previous = base;
    for (int lane = 0; lane < WST_WARP_SIZE; lane++) {
        if (!(mask >> lane & 1))
            continue;
        uint64_t a = base;
        if (mode == ACCELSIM_LIST || (mode == ACCELSIM_BASE_DELTA && seen > 0)) {
            int expected = mode == ACCELSIM_LIST ? active : active - 1;
            int have = mode == ACCELSIM_LIST ? seen : seen - 1;
            if (!next_field(f))
                return ws_fail(err, "expected %d %s for mask %08x, found %d", expected,
                               mode == ACCELSIM_LIST ? "addresses" : "deltas", mask, have);
            if (mode == ACCELSIM_LIST) {
                if (hex_field(f, "address", 16, &a, err) != 0)
                    return -1;
            } else {
                if (parse_dec_i64(f, "delta", &step, err) != 0)
                    return -1;
                a = previous + (uint64_t)step; /* deltas wrap like the tracer's */
            }
        } else if (mode == ACCELSIM_BASE_STRIDE) {
            a = base + (uint64_t)step * (uint64_t)seen;
        }
        out->addr[lane] = a;
        previous = a;
        seen++;
    }
    return 0;
}

int accelsim_inst_parse(const char *text, const accelsim_line_format *format,
                        accelsim_inst *out, ws_error *err)
{
    fields f = {.p = text};
    memset(out, 0, sizeof *out);
    if (format->leading_ids) {
        static const char *const names[4] = {"cta x", "cta y", "cta z", "warp id"};
        for (int i = 0; i < 4; i++)
            if (parse_dec_u32(&f, names[i], UINT32_MAX, i < 3 ? &out->cta[i] : &out->warp,
                              err) != 0)
                return -1;
    }
    if (format->lineinfo && parse_dec_u32(&f, "line number", UINT32_MAX, &out->line, err) != 0)
        return -1;
    uint64_t mask = 0;
    if (parse_hex_u64(&f, "PC", 16, &out->pc, err) != 0 ||
        parse_hex_u64(&f, "mask", 8, &mask, err) != 0)
        return -1;
    out->mask = (uint32_t)mask;
    if (read_registers(&f, "destination count", out->dests, &out->dest_count, err) != 0 ||
        need_field(&f, "opcode", err) != 0)
        return -1;
    if (f.len >= sizeof out->opcode)
        return ws_fail(err, "opcode '%s' longer than %zu characters", f.token,
                       sizeof out->opcode - 1);
    memcpy(out->opcode, f.token, f.len + 1);
    uint32_t width = 0;
    if (read_registers(&f, "source count", out->srcs, &out->src_count, err) != 0 ||
        parse_dec_u32(&f, "memory width", 1024, &width, err) != 0)
        return -1;
    out->mem_width = width;
    if (width > 0 && parse_addresses(&f, out->mask, out, err) != 0)
        return -1;
    for (int extra = 0; next_field(&f); extra++)
        if (extra >= format->trailing_fields)
            return ws_fail(err, "unexpected '%s' after the %s", f.token,
                           width ? "addresses (wrong number of addresses or deltas?)"
                                 : "memory width");
    return 0;
}

/* The tracer's rule: constant stride over one contiguous run of 2+ lanes,
 * with the stride fitting its 32-bit int. */
static int stride_of(const wst_record *rec, int64_t *stride)
{
    uint32_t mask = rec->mask;
    if (__builtin_popcount(mask) < 2 || !mask_is_contiguous(mask))
        return 0;
    int first = __builtin_ctz(mask);
    int64_t s = (int64_t)(rec->addr[first + 1] - rec->addr[first]);
    if (s < INT32_MIN || s > INT32_MAX)
        return 0;
    for (int lane = first + 1; lane < WST_WARP_SIZE && (mask >> lane & 1); lane++)
        if ((int64_t)(rec->addr[lane] - rec->addr[lane - 1]) != s)
            return 0;
    *stride = s;
    return 1;
}

/* "[line] pc mask ": what every line starts with. */
static void write_start(FILE *out, const accelsim_line_format *format, uint32_t line,
                        uint64_t pc, uint32_t mask)
{
    if (format->lineinfo)
        fprintf(out, "%" PRIu32 " ", line);
    fprintf(out, "%04" PRIx64 " %08" PRIx32 " ", pc, mask);
}

void accelsim_exit_write(FILE *out, const accelsim_line_format *format, uint32_t line,
                         uint64_t pc, uint32_t mask)
{
    write_start(out, format, line, pc, mask);
    fputs("0 EXIT 0 0 \n", out);
}

/* "dest_num [Rd] opcode src_num [Rs...] " */
static void write_registers(FILE *out, const char *opcode, const accelsim_regs *regs)
{
    if (regs->dest >= 0)
        fprintf(out, "1 R%d ", regs->dest);
    else
        fputs("0 ", out);
    fprintf(out, "%s %u ", opcode, regs->src_count);
    for (unsigned i = 0; i < regs->src_count; i++)
        fprintf(out, "R%d ", regs->srcs[i]);
}

void accelsim_alu_write(FILE *out, const accelsim_line_format *format, uint32_t line,
                        uint64_t pc, uint32_t mask, const accelsim_regs *regs)
{
    write_start(out, format, line, pc, mask);
    write_registers(out, "IADD3", regs);
    fputs("0 \n", out);
}

void accelsim_inst_write(FILE *out, const accelsim_line_format *format, uint32_t line,
                         uint64_t pc, const char *opcode, const accelsim_regs *regs,
                         const wst_record *rec)
{
    write_start(out, format, line, pc, rec->mask);
    write_registers(out, opcode, regs);
    fprintf(out, "%u ", (unsigned)rec->size);
    int64_t stride = 0;
    if (rec->mask == 0) {
        fputs("1 0x0 0 ", out);
    } else if (stride_of(rec, &stride)) {
        fprintf(out, "1 0x%" PRIx64 " %" PRId64 " ", rec->addr[__builtin_ctz(rec->mask)], stride);
    } else {
        int first = 1;
        uint64_t previous = 0;
        for (int lane = 0; lane < WST_WARP_SIZE; lane++) {
            if (!(rec->mask >> lane & 1))
                continue;
            if (first)
                fprintf(out, "2 0x%" PRIx64 " ", rec->addr[lane]);
            else
                fprintf(out, "%" PRId64 " ", (int64_t)(rec->addr[lane] - previous));
            previous = rec->addr[lane];
            first = 0;
        }
    }
    fputc('\n', out);
}
