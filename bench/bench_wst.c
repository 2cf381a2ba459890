/* bench/bench_wst.c: .wst write and read throughput, bytes per record, and
 * the zstd-only floor on the same compressed payload (issue: read >= 30 M
 * records/s on one core and within 3x of the floor; coalesced records <= 6
 * bytes each).  Prints a Markdown section.
 *
 *   build/rel/bench/bench_wst [--records N] [--dir DIR]
 *   build/rel/bench/bench_wst --read FILE.wst...   (decode only, both forms, against the floor) */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "collectors/workloads/workloads.h"
#include "formats/packed_record.h"
#include "formats/wst.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t rng(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

enum { CTAS = 4096, RESIDENT = 240, WARPS = 8 };
typedef enum { MIX_REALISTIC, MIX_COALESCED } mix;

/* Records as a GPU collector delivers them: many resident CTAs interleaved. */
static void make_record(uint64_t i, mix m, uint64_t *s, wst_record *r)
{
    memset(r, 0, offsetof(wst_record, addr));
    uint64_t slot = i % RESIDENT, round = i / RESIDENT;
    r->cta = (uint32_t)((slot + RESIDENT * (round / 256)) % CTAS);
    r->warp = (uint32_t)(round % WARPS);
    r->size = 4;
    r->mask = 0xffffffffu;
    uint64_t step = round / WARPS;
    uint64_t base = 0x7f0000000000ULL + ((uint64_t)r->cta * WARPS + r->warp) * 4096 * 64 +
                    (step % 64) * 128;
    unsigned kind = m == MIX_COALESCED ? 0 : (unsigned)(rng(s) % 100);
    if (kind < 60) { /* fully coalesced 4 B loads */
        r->pc = 0;
        for (int l = 0; l < 32; l++)
            r->addr[l] = base + 4u * l;
    } else if (kind < 80) { /* strided (column walk) */
        r->pc = 1;
        for (int l = 0; l < 32; l++)
            r->addr[l] = base + 4096u * l;
    } else if (kind < 95) { /* divergent, data dependent */
        r->pc = 2;
        r->mask = (uint32_t)rng(s) | 1;
        for (int l = 0; l < 32; l++)
            r->addr[l] = 0x7f1000000000ULL + (rng(s) % (1u << 26)) * 4;
    } else { /* coalesced stores */
        r->pc = 3;
        r->kind = WST_STORE;
        for (int l = 0; l < 32; l++)
            r->addr[l] = base + 0x100000000ULL + 4u * l;
    }
}

static double write_trace(const char *path, uint64_t records, mix m)
{
    ws_error err;
    wst_origin origin = {.collector = "bench"};
    wst_writer *w = wst_writer_open(path, &origin, NULL, &err);
    wst_kernel k = {.name = "bench", .grid = {CTAS, 1, 1}, .block = {32 * WARPS, 1, 1}};
    wst_writer_add_kernel(w, &k, &err);
    const char *sass[] = {"LDG.E.32", "LDG.E.32", "LDG.E.32", "STG.E.32"};
    for (int p = 0; p < 4; p++) {
        wst_pc pc = {.offset = 16u * p, .sass = (char *)sass[p]};
        wst_writer_add_pc(w, 0, &pc, &err);
    }
    uint64_t seed = 1;
    wst_record r;
    double start = now();
    for (uint64_t i = 0; i < records; i++) {
        make_record(i, m, &seed, &r);
        if (wst_writer_add_record(w, 0, &r, &err) != 0) {
            fprintf(stderr, "bench_wst: %s\n", err.msg);
            exit(1);
        }
    }
    if (wst_writer_close(w, &err) != 0) {
        fprintf(stderr, "bench_wst: %s\n", err.msg);
        exit(1);
    }
    return now() - start;
}

typedef enum { DECODE_RECORDS, DECODE_PACKED } decode_form;

/* Seconds to decode every record of path, the reader's open (metadata and
 * index) not counted: that is in *open_s.  DECODE_RECORDS: whole records
 * (wst_cursor_next_batch); DECODE_PACKED: the scheduler's packed form
 * (wst_cursor_next_packed), emptied every few thousand records as a CTA
 * buffer is. */
static double read_trace(const char *path, decode_form form, uint64_t *records_out,
                         double *open_s)
{
    ws_error err;
    double start = now();
    wst_reader *r = wst_reader_open(path, &err);
    if (!r) {
        fprintf(stderr, "bench_wst: %s\n", err.msg);
        exit(1);
    }
    wst_cursor *c = wst_cursor_all(r, &err);
    if (open_s)
        *open_s = now() - start;
    start = now();
    const wst_record *batch;
    packed_cta packed = {0};
    uint32_t kernel;
    int64_t n;
    uint64_t records = 0, checksum = 0;
    if (form == DECODE_RECORDS) {
        while ((n = wst_cursor_next_batch(c, &batch, &kernel, &err)) > 0) {
            records += (uint64_t)n;
            checksum += batch[n - 1].addr[0];
        }
    } else {
        while ((n = wst_cursor_next_packed(c, &packed, &kernel, &err)) > 0) {
            records += (uint64_t)n;
            checksum += packed.records[packed.count - 1].base;
            if (packed.count >= 4096)
                packed_cta_clear(&packed);
        }
    }
    double elapsed = now() - start;
    if (n < 0) {
        fprintf(stderr, "bench_wst: %s\n", err.msg);
        exit(1);
    }
    packed_cta_free(&packed);
    wst_cursor_free(c);
    wst_reader_close(r);
    *records_out = records + (checksum == 42); /* keep the loop honest */
    return elapsed;
}

/* The floor: only zstd decompression of every chunk, nothing decoded.  Also
 * writes the frames back to back so the zstd command can be timed on them. */
static double zstd_floor(const char *path, const char *payload_path, uint64_t *payload_bytes)
{
    ws_error err;
    wst_reader *r = wst_reader_open(path, &err);
    int fd = open(path, O_RDONLY);
    FILE *payload = fopen(payload_path, "wb");
    ZSTD_DCtx *d = ZSTD_createDCtx();
    size_t n = wst_reader_frame_count(r);
    uint8_t *src = NULL, *dst = NULL;
    size_t src_cap = 0, dst_cap = 0;
    double elapsed = 0;
    *payload_bytes = 0;
    for (size_t i = 0; i < n; i++) {
        const wst_frame_info *c = wst_reader_frame(r, i);
        if (c->compressed_bytes > src_cap)
            src = realloc(src, src_cap = c->compressed_bytes);
        if (c->raw_bytes > dst_cap)
            dst = realloc(dst, dst_cap = c->raw_bytes);
        double start = now();
        if (pread(fd, src, c->compressed_bytes, (off_t)c->offset) != (ssize_t)c->compressed_bytes)
            exit(1);
        ZSTD_decompressDCtx(d, dst, c->raw_bytes, src, c->compressed_bytes);
        elapsed += now() - start;
        fwrite(src, 1, c->compressed_bytes, payload);
        *payload_bytes += c->compressed_bytes;
    }
    fclose(payload);
    close(fd);
    free(src);
    free(dst);
    ZSTD_freeDCtx(d);
    wst_reader_close(r);
    return elapsed;
}

/* Bytes of the trace's frames once decompressed: what zstd writes. */
static uint64_t raw_bytes(const char *path)
{
    ws_error err;
    wst_reader *r = wst_reader_open(path, &err);
    uint64_t total = 0;
    for (size_t i = 0; r && i < wst_reader_frame_count(r); i++)
        total += wst_reader_frame(r, i)->raw_bytes;
    wst_reader_close(r);
    return total;
}

static uint64_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

int main(int argc, char **argv)
{
    uint64_t records = 50000000;
    const char *dir = "/tmp";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--records") == 0) {
            records = strtoull(argv[i + 1], NULL, 10);
        } else if (strcmp(argv[i], "--dir") == 0) {
            dir = argv[i + 1];
        } else if (strcmp(argv[i], "--read") == 0) {
            /* One Markdown row per file.  Best of 5 of each, alternated, so
             * a busy machine hurts all alike. */
            printf("| trace | records | raw B/record | zstd floor (ms) | to records (x floor) "
                   "| to packed (x floor) | packed M records/s |\n");
            printf("|---|---:|---:|---:|---:|---:|---:|\n");
            for (int f = i + 1; f < argc; f++) {
                uint64_t n, payload;
                double best_read = 1e30, best_packed = 1e30, best_floor = 1e30;
                for (int round = 0; round < 5; round++) {
                    double r = read_trace(argv[f], DECODE_RECORDS, &n, NULL);
                    double p = read_trace(argv[f], DECODE_PACKED, &n, NULL);
                    double z = zstd_floor(argv[f], "/dev/null", &payload);
                    best_read = r < best_read ? r : best_read;
                    best_packed = p < best_packed ? p : best_packed;
                    best_floor = z < best_floor ? z : best_floor;
                }
                const char *name = strrchr(argv[f], '/');
                printf("| %s | %" PRIu64 " | %.1f | %.2f | %.2f | %.2f | %.1f |\n",
                       name ? name + 1 : argv[f], n, (double)raw_bytes(argv[f]) / n,
                       best_floor * 1e3, best_read / best_floor, best_packed / best_floor,
                       n / best_packed / 1e6);
            }
            return 0;
        }
    }
    char path[512], coalesced_path[512], payload_path[512], command[1200];
    snprintf(path, sizeof path, "%s/bench-wst-%d.wst", dir, (int)getpid());
    snprintf(coalesced_path, sizeof coalesced_path, "%s/bench-wst-c-%d.wst", dir, (int)getpid());
    snprintf(payload_path, sizeof payload_path, "%s/bench-wst-%d.zst", dir, (int)getpid());

    double write_s = write_trace(path, records, MIX_REALISTIC);
    uint64_t read_records;
    double read_s = read_trace(path, DECODE_RECORDS, &read_records, NULL);
    uint64_t packed_records;
    double packed_s = read_trace(path, DECODE_PACKED, &packed_records, NULL);
    uint64_t bytes = file_size(path), payload_bytes;
    double floor_s = zstd_floor(path, payload_path, &payload_bytes);
    snprintf(command, sizeof command, "zstd -q -d -c %s > /dev/null", payload_path);
    double start = now();
    int zstd_rc = system(command);
    double zstd_cmd_s = now() - start;
    uint64_t coalesced_records = records / 5;
    write_trace(coalesced_path, coalesced_records, MIX_COALESCED);
    uint64_t coalesced_bytes = file_size(coalesced_path), coalesced_read;
    double coalesced_read_s = read_trace(coalesced_path, DECODE_RECORDS, &coalesced_read, NULL);
    /* A trace as the emulator writes it: one CTA at a time, full chunks. */
    char gemm_path[512];
    snprintf(gemm_path, sizeof gemm_path, "%s/bench-wst-gemm-%d.wst", dir, (int)getpid());
    ws_error err;
    uint64_t gemm_read = 0;
    double gemm_read_s = 0;
    if (record_workload("gemm", SIZE_MEDIUM, 1, 0, gemm_path, NULL, &err) == 0)
        gemm_read_s = read_trace(gemm_path, DECODE_RECORDS, &gemm_read, NULL);
    unlink(gemm_path);
    unlink(path);
    unlink(coalesced_path);
    unlink(payload_path);

    printf("## .wst trace format (`bench/bench_wst.c`)\n\n");
    printf("%" PRIu64 " records: 60%% fully coalesced 4 B loads, 20%% strided, 15%% divergent "
           "random, 5%% coalesced stores; %d CTAs of %d warps, %d resident at a time and "
           "interleaved as a GPU collector delivers them. One core.\n\n",
           records, CTAS, WARPS, RESIDENT);
    printf("| measure | value |\n|---|---|\n");
    printf("| write | %.1f M records/s |\n", records / write_s / 1e6);
    printf("| read (decode to records) | %.1f M records/s |\n", read_records / read_s / 1e6);
    printf("| zstd-only floor, same frames in-process | %.1f M records/s (%.2f s) |\n",
           records / floor_s / 1e6, floor_s);
    if (zstd_rc == 0)
        printf("| `zstd -d` command on the same %" PRIu64 " payload bytes | %.2f s |\n",
               payload_bytes, zstd_cmd_s);
    printf("| read, decoded to packed records (the scheduler's path) | %.1f M records/s |\n",
           packed_records / packed_s / 1e6);
    printf("| read time / zstd-only floor | %.2fx |\n", read_s / floor_s);
    printf("| packed read time / zstd-only floor | %.2fx (target <= 2x) |\n", packed_s / floor_s);
    printf("| read, fully coalesced records only | %.1f M records/s |\n",
           coalesced_read / coalesced_read_s / 1e6);
    if (gemm_read_s > 0)
        printf("| read, emulated gemm trace (medium, %llu records) | %.1f M records/s |\n",
               (unsigned long long)gemm_read, gemm_read / gemm_read_s / 1e6);
    printf("| bytes per record, realistic mix | %.2f |\n", (double)bytes / records);
    printf("| bytes per record, fully coalesced only (%" PRIu64 " records) | %.2f (target <= 6) |\n",
           coalesced_records, (double)coalesced_bytes / coalesced_records);
    return 0;
}
