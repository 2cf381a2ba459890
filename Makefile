# warpscope: one Makefile for everything.  Sources are found by directory, so
# adding a module, a policy, a workload or a test file needs no edit here.
#
#   make            build build/rel/warpscope (checks dependencies)
#   make test       install/check deps, build with ASan+UBSan, run every test
#   make demo       install/check deps, run the main job on the default workload
#   make bench      run the benchmarks, results in bench/RESULTS.md
#   make cuda-workloads  the embedded workloads as CUDA programs (needs nvcc, no GPU)
#   make install PREFIX=/usr/local
#   make clean

CC      ?= cc
PREFIX  ?= /usr/local
PKGS    := libzstd jansson
BUILD   := build

LIB_DIRS := util formats analyzer analyzer/policies analyzer/stages analyzer/warp_orders \
            collectors/emu \
            collectors/workloads collectors/accelsim collectors/nvbit/host reports
LIB_SRC  := $(foreach d,$(LIB_DIRS),$(wildcard $(d)/*.c))
CLI_SRC  := $(wildcard cli/*.c)
TEST_SRC := $(wildcard tests/*.c)
BENCH_SRC := $(wildcard bench/*.c)

WARN     := -Wall -Wextra -Wshadow -Wno-unused-parameter -Wstrict-prototypes
BASE_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(WARN) -I. -MMD -MP $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LIBS      = $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lzstd -ljansson) -lcsv -llzma -lm -lpthread
TEST_LIBS = $(shell pkg-config --libs criterion 2>/dev/null || echo -lcriterion)

# The analyzer counts bits everywhere (masks, timelines): use the popcount
# instruction when the machine that builds has it (any x86-64 since about
# 2008); elsewhere the compiler's portable code.
HOST_FLAGS := $(shell grep -qw popcnt /proc/cpuinfo 2>/dev/null && echo -mpopcnt)
REL_CFLAGS  = $(BASE_CFLAGS) -O3 -g $(HOST_FLAGS)
ASAN_FLAGS  = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
ASAN_CFLAGS = $(BASE_CFLAGS) -O1 -g $(ASAN_FLAGS)
TSAN_CFLAGS = $(BASE_CFLAGS) -O1 -g -fsanitize=thread

objs = $(patsubst %.c,$(BUILD)/$(1)/%.o,$(2))

REL_LIB  := $(BUILD)/rel/libwarpscope.a
ASAN_LIB := $(BUILD)/asan/libwarpscope.a
REL_BIN  := $(BUILD)/rel/warpscope
ASAN_BIN := $(BUILD)/asan/warpscope
ASAN_TESTS := $(BUILD)/asan/unit-tests
TSAN_LIB := $(BUILD)/tsan/libwarpscope.a
TSAN_BIN := $(BUILD)/tsan/warpscope
BENCH_BINS := $(patsubst bench/%.c,$(BUILD)/rel/bench/%,$(BENCH_SRC))

.PHONY: all deps deps-install test demo bench fuzz install clean check-asan check-tsan nvbit \
        cuda-workloads
.DEFAULT_GOAL := all

all: deps
	@$(MAKE) --no-print-directory $(REL_BIN)

deps:
	@scripts/deps.sh

deps-install:
	@scripts/deps.sh --install

# ---- objects and archives -------------------------------------------------
$(BUILD)/rel/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(REL_CFLAGS) -c $< -o $@

$(BUILD)/asan/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(ASAN_CFLAGS) -c $< -o $@

$(BUILD)/tsan/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(TSAN_CFLAGS) -c $< -o $@

$(TSAN_LIB): $(call objs,tsan,$(LIB_SRC))
	@rm -f $@
	ar rcs $@ $^

$(TSAN_BIN): $(call objs,tsan,$(CLI_SRC)) $(TSAN_LIB)
	$(CC) $(TSAN_CFLAGS) -o $@ $^ $(LIBS)

$(REL_LIB): $(call objs,rel,$(LIB_SRC))
	@rm -f $@
	ar rcs $@ $^

$(ASAN_LIB): $(call objs,asan,$(LIB_SRC))
	@rm -f $@
	ar rcs $@ $^

$(REL_BIN): $(call objs,rel,$(CLI_SRC)) $(REL_LIB)
	$(CC) $(REL_CFLAGS) -o $@ $^ $(LIBS)

$(ASAN_BIN): $(call objs,asan,$(CLI_SRC)) $(ASAN_LIB)
	$(CC) $(ASAN_CFLAGS) -o $@ $^ $(LIBS)

# The CLI tests run the sanitized binary, so bad-input tests also catch
# memory errors in the command-line paths.
$(BUILD)/asan/tests/%.o: ASAN_CFLAGS += -DWARPSCOPE_BIN='"$(abspath $(ASAN_BIN))"' \
	-DWARPSCOPE_FIXTURES='"$(abspath tests/fixtures)"'
$(ASAN_TESTS): $(call objs,asan,$(TEST_SRC)) $(ASAN_LIB)
	$(CC) $(ASAN_CFLAGS) -o $@ $^ $(TEST_LIBS) $(LIBS)

$(BUILD)/rel/bench/%: $(BUILD)/rel/bench/%.o $(REL_LIB)
	$(CC) $(REL_CFLAGS) -o $@ $^ $(LIBS)

# ---- the README's commands ------------------------------------------------
test: deps-install
	@$(MAKE) --no-print-directory check-asan
	@$(MAKE) --no-print-directory check-tsan

# ThreadSanitizer over every threaded path of the CLI (Criterion's runner
# cannot start under TSan, so scripts/tsan-check.sh drives the binary).
check-tsan: $(TSAN_BIN)
	@scripts/tsan-check.sh $(TSAN_BIN)

check-asan: $(ASAN_BIN) $(ASAN_TESTS) $(REL_BIN)
	@scripts/nvbit-check.sh
	@scripts/cuda-workloads-check.sh $(REL_BIN)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	$(ASAN_TESTS) --jobs=$$(nproc) --short-filename
	@scripts/browser-test.sh $(ASAN_BIN)

demo: deps-install
	@$(MAKE) --no-print-directory $(REL_BIN)
	@scripts/demo.sh $(REL_BIN)

bench: deps-install
	@$(MAKE) --no-print-directory $(REL_BIN) $(BENCH_BINS)
	@scripts/bench.sh

# nvcc from PATH, else where the CUDA toolkit installs it.
NVCC ?= $(or $(shell command -v nvcc 2>/dev/null),/usr/local/cuda/bin/nvcc)

# ---- the NVBit collector (needs NVBit: make nvbit NVBIT_PATH=/path/to/nvbit_release) ----
NVBIT_TOOL := $(BUILD)/rel/warpscope-nvbit.so
$(BUILD)/pic/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(REL_CFLAGS) -fPIC -c $< -o $@

nvbit: deps
	@if [ -z "$(NVBIT_PATH)" ]; then \
		echo "make nvbit: set NVBIT_PATH to an NVBit release (the directory holding core/)"; exit 1; fi
	@$(MAKE) --no-print-directory $(NVBIT_TOOL)

$(NVBIT_TOOL): collectors/nvbit/tool/tool.cu collectors/nvbit/tool/inject_funcs.cu \
               $(call objs,pic,$(LIB_SRC))
	$(NVCC) -std=c++17 -O3 -Xcompiler -fPIC -dc -arch=sm_75 -I. -I$(NVBIT_PATH)/core \
		-I$(NVBIT_PATH)/core/utils collectors/nvbit/tool/tool.cu -o $(BUILD)/rel/ws_tool.o
	$(NVCC) -std=c++17 -O3 -Xcompiler -fPIC -dc -arch=sm_75 -maxrregcount=24 -Xptxas -astoolspatch \
		--keep-device-functions -I. -I$(NVBIT_PATH)/core collectors/nvbit/tool/inject_funcs.cu \
		-o $(BUILD)/rel/ws_inject.o
	$(NVCC) -arch=sm_75 -O3 -Xcompiler -fPIC -dlink $(BUILD)/rel/ws_tool.o $(BUILD)/rel/ws_inject.o \
		-o $(BUILD)/rel/ws_link.o
	$(CXX) -shared -o $@ $(BUILD)/rel/ws_tool.o $(BUILD)/rel/ws_inject.o $(BUILD)/rel/ws_link.o \
		$(call objs,pic,$(LIB_SRC)) -L$(NVBIT_PATH)/core -lnvbit -L/usr/local/cuda/lib64 -lcuda -lcudart_static \
		$(LIBS) -ldl -lrt

# ---- the embedded workloads as CUDA programs (docs/cuda-workloads.md) ------
# build/cuda/NAME from collectors/workloads/cuda/NAME.cu, for sm_90 with the
# compute_90 PTX beside it.  The fatbin is left uncompressed so that
# scripts/cuda-workloads-check.sh can read the SASS and PTX out of each
# binary with binutils alone (the toolkit's cuobjdump is not always there).
CUDA_SRC   := $(wildcard collectors/workloads/cuda/*.cu)
CUDA_BINS  := $(patsubst collectors/workloads/cuda/%.cu,$(BUILD)/cuda/%,$(CUDA_SRC))
CUDA_FLAGS := -I. -std=c++17 -O2 -lineinfo -gencode 'arch=compute_90,code=[sm_90,compute_90]' --no-compress

cuda-workloads: $(CUDA_BINS)

$(BUILD)/cuda/%: collectors/workloads/cuda/%.cu collectors/workloads/cuda/ws_cuda.cuh Makefile
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDA_FLAGS) -o $@ $<

# ---- fuzzing: the readers of user files under libFuzzer (needs clang; not
# part of `make test`).  make fuzz FUZZ_SECONDS=600 for a longer run.
FUZZ_BIN := $(BUILD)/fuzz/fuzz_inputs
FUZZ_SECONDS ?= 60
$(FUZZ_BIN): tests/fuzz/fuzz_inputs.c $(LIB_SRC)
	@mkdir -p $(dir $@)
	clang -std=gnu11 -D_GNU_SOURCE $(WARN) -I. $(shell pkg-config --cflags $(PKGS) 2>/dev/null) \
		-O1 -g -fsanitize=fuzzer,address,undefined -o $@ $^ $(LIBS)

fuzz: deps-install $(REL_BIN) $(FUZZ_BIN)
	@scripts/fuzz.sh $(FUZZ_BIN) $(FUZZ_SECONDS)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/warpscope/configs
	install -m 755 $(REL_BIN) $(DESTDIR)$(PREFIX)/bin/warpscope
	@if ls configs/*.json >/dev/null 2>&1; then \
		install -m 644 configs/*.json $(DESTDIR)$(PREFIX)/share/warpscope/configs/; fi

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
