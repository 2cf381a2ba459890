# warpscope: one Makefile for everything.  Sources are found by directory, so
# adding a module, a policy, a workload or a test file needs no edit here.
#
#   make            build build/rel/warpscope (checks dependencies); with GCC 10+
#                   profile-guided and link-time optimised (PGO=0 LTO=0: plain -O3)
#   make test       install/check deps, build with ASan+UBSan, run every test
#                   (and the MPI checks, scripts/mpi-check.sh)
#   make MPI=0      build without MPI even where mpicc is present
#   make demo       install/check deps, run the main job on the default workload
#   make bench      run the benchmarks, results in bench/RESULTS.md
#   make nvbit NVBIT_PATH=/path/to/nvbit_release [NVBIT_ARCH=all|sm_90]
#                   build the NVBit tool build/rel/warpscope-nvbit.so (NVBit 1.7+,
#                   nvcc; scripts/nvbit-check.sh NVBIT_PATH checks it against the release)
#   make cuda-workloads  the embedded workloads as CUDA programs (needs nvcc, no GPU)
#   make gpu-kit NVBIT_PATH=...  .gpu/, what a GPU machine without a network needs
#                   beside a copy of the checkout to run scripts/gpu-device-run.sh
#                   (scripts/gpu-kit.sh; docs/nvbit.md, "On a lent GPU machine")
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

# The release binary carries zstd, jansson, libcsv and liblzma inside it
# when their archives are installed (Debian's -dev packages ship them): the
# loader then maps, relocates and binds four libraries fewer at every start,
# half of what a start cost (bench/RESULTS.md, "Branch kern41").  Shared
# objects (the Python module, the NVBit tool) and the sanitized builds link
# them as shared libraries, as before.
BUNDLED     := zstd jansson csv lzma
BUNDLED_A   := $(foreach l,$(BUNDLED),$(filter /%,$(shell $(CC) -print-file-name=lib$(l).a 2>/dev/null)))
BUNDLED_LIBS = -Wl,-Bstatic $(BUNDLED:%=-l%) -Wl,-Bdynamic $(filter-out $(BUNDLED:%=-l%),$(LIBS))
REL_LIBS     = $(if $(filter $(words $(BUNDLED)),$(words $(BUNDLED_A))),$(BUNDLED_LIBS),$(LIBS))

# And when the C library's archives are installed too (Debian's libc6-dev),
# the release binary is linked statically, C library included: no loader
# runs at all, and a start costs a third of the CPU of the dynamic one's
# (bench/RESULTS.md, "A static release binary").  A static process cannot
# load Open MPI, so beside it goes its twin, build/rel/warpscope-ranks: the
# same objects linked as above, dynamically, which a static process that
# mpirun started becomes (util/ranks_twin.h).  STATIC=0 links the release
# binary dynamically, as the twin.
LIBC_A := $(filter /%,$(shell $(CC) -print-file-name=libc.a 2>/dev/null))
STATIC ?= $(if $(and $(LIBC_A),$(filter $(words $(BUNDLED)),$(words $(BUNDLED_A)))),1,0)
REL_BIN_LIBS = $(if $(filter 1,$(STATIC)),-static $(LIBS),$(REL_LIBS))

# MPI (docs/analysis.md "Ranks"): built in when Open MPI's mpicc is on PATH,
# MPI=0 to leave it out.  Only util/ranks.c includes mpi.h; it opens libmpi
# (dlopen, from mpicc's library directory) only when mpirun started the
# process, so no binary links it: loading it cost every run 0.6 ms of CPU.
MPI ?= $(if $(shell command -v mpicc 2>/dev/null),1,0)
ifeq ($(MPI),1)
MPI_CFLAGS  := $(shell mpicc --showme:compile 2>/dev/null)
MPI_LIBDIR  := $(firstword $(shell mpicc --showme:libdirs 2>/dev/null))
ifeq ($(strip $(MPI_LIBDIR)),)
MPI := 0
endif
endif
ifeq ($(MPI),1)
LIBS += -ldl
RANKS_CFLAGS := -DWS_MPI -DWS_LIBMPI='"$(MPI_LIBDIR)/libmpi.so"' $(MPI_CFLAGS)
endif

# The analyzer counts bits everywhere (masks, timelines): use the popcount
# instruction when the machine that builds has it (any x86-64 since about
# 2008); elsewhere the compiler's portable code.
HOST_FLAGS := $(shell grep -qw popcnt /proc/cpuinfo 2>/dev/null && echo -mpopcnt)
REL_CFLAGS  = $(BASE_CFLAGS) -O3 -g $(HOST_FLAGS)
ASAN_FLAGS  = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
ASAN_CFLAGS = $(BASE_CFLAGS) -O1 -g $(ASAN_FLAGS)
TSAN_CFLAGS = $(BASE_CFLAGS) -O1 -g -fsanitize=thread

# The release binary is compiled twice (README, "Quick start"): first
# instrumented (build/pgo-gen/), then scripts/pgo-train.sh runs the
# commands users run with it, and the objects of build/rel/ are compiled
# with the branch and call counts it recorded (-fprofile-use) as GIMPLE for
# link-time optimisation across files (-flto): 7-12% fewer instructions on
# the timed compare (bench/RESULTS.md, "Branch pgo42").  Both need GCC 10
# or later; any other compiler, or PGO=0 / LTO=0, builds the plain -O3
# objects as before.  Only build/rel/ is built so: the sanitized builds
# and the -fPIC objects of build/pic/ (the Python module, the NVBit tool)
# are not.  The profile changes no result: no flag here changes floating
# point (no -ffast-math, no -march), GCC only lays out and inlines by it.
GCC_MAJOR := $(shell $(CC) -v 2>&1 | sed -n 's/^gcc version \([0-9]*\).*/\1/p')
ifneq ($(shell [ 0$(GCC_MAJOR) -ge 10 ] && echo gcc),gcc)
override PGO := 0
override LTO := 0
endif
PGO ?= 1
LTO ?= 1
# -flto=auto links on as many cores as the machine has.  (It could take its
# jobs from make's jobserver instead, but make hands that only to lines
# marked '+', which `make -n` runs too: it would link.)  Slim LTO objects
# need GCC's archiver, which indexes their symbols.
LTO_FLAGS := $(if $(filter 1,$(LTO)),-flto=auto)
REL_AR    := $(if $(filter 1,$(LTO)),$(or $(shell command -v $(CC)-ar 2>/dev/null),gcc-ar),ar)
PGO_GEN_FLAGS := -fprofile-generate
# Code the training did not run is optimised as without a profile, not for
# size (-fprofile-partial-training).  GCC leaves such functions out of the
# profile, and -Wmissing-profile would name each of them: it says nothing
# here.  A static function the instrumented build inlined everywhere has
# no counts of its own while its callers have some: -fprofile-correction
# guesses its profile from theirs, where GCC would otherwise warn ("Missing
# counts for called function") for each.  A profile that does not match
# its source stops the build (-Wcoverage-mismatch is an error by default),
# though the dependencies below never let that happen.
PGO_USE_FLAGS := -fprofile-use -fprofile-partial-training -fprofile-correction -Wno-missing-profile

objs = $(patsubst %.c,$(BUILD)/$(1)/%.o,$(2))
PGO_DIR  := $(BUILD)/pgo-gen
REL_MODE := $(BUILD)/rel/mode
REL_LINK_MODE := $(BUILD)/rel/link-mode

REL_LIB  := $(BUILD)/rel/libwarpscope.a
ASAN_LIB := $(BUILD)/asan/libwarpscope.a
REL_BIN  := $(BUILD)/rel/warpscope
REL_TWIN := $(BUILD)/rel/warpscope-ranks
ASAN_BIN := $(BUILD)/asan/warpscope
ASAN_TESTS := $(BUILD)/asan/unit-tests
TSAN_LIB := $(BUILD)/tsan/libwarpscope.a
TSAN_BIN := $(BUILD)/tsan/warpscope
BENCH_BINS := $(patsubst bench/%.c,$(BUILD)/rel/bench/%,$(BENCH_SRC))

.PHONY: all deps deps-install test demo bench fuzz install clean check-asan check-tsan check-mpi nvbit \
        cuda-workloads check-gpu-kit gpu-kit FORCE
.DEFAULT_GOAL := all

all: deps
	@$(MAKE) --no-print-directory $(REL_BINS)

deps:
	@scripts/deps.sh

deps-install:
	@scripts/deps.sh --install

# ---- objects and archives -------------------------------------------------
$(BUILD)/rel/%.o: %.c Makefile $(REL_MODE) $(if $(filter 1,$(PGO)),$(BUILD)/rel/%.prof)
	@mkdir -p $(dir $@)
	$(CC) $(REL_CFLAGS) $(LTO_FLAGS) $(call pgo_use,$@) -c $< -o $@

# The benchmarks' own objects: plain -O3 (no training runs them).
$(BUILD)/rel/bench/%.o: bench/%.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(REL_CFLAGS) -c $< -o $@

$(BUILD)/asan/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(ASAN_CFLAGS) -c $< -o $@

$(BUILD)/tsan/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(TSAN_CFLAGS) -c $< -o $@

# A build with and one without MPI differ in util/ranks.o alone: its flags
# are recorded, so switching MPI rebuilds it.
RANKS_OBJS := $(BUILD)/rel/util/ranks.o $(BUILD)/asan/util/ranks.o $(BUILD)/tsan/util/ranks.o \
              $(BUILD)/pic/util/ranks.o $(PGO_DIR)/util/ranks.o
$(RANKS_OBJS): REL_CFLAGS += $(RANKS_CFLAGS)
$(RANKS_OBJS): ASAN_CFLAGS += $(RANKS_CFLAGS)
$(RANKS_OBJS): TSAN_CFLAGS += $(RANKS_CFLAGS)
$(RANKS_OBJS): $(BUILD)/mpi-$(MPI)
$(BUILD)/mpi-$(MPI):
	@mkdir -p $(BUILD) && rm -f $(BUILD)/mpi-* && touch $@

$(TSAN_LIB): $(call objs,tsan,$(LIB_SRC))
	@rm -f $@
	ar rcs $@ $^

$(TSAN_BIN): $(call objs,tsan,$(CLI_SRC)) $(TSAN_LIB)
	$(CC) $(TSAN_CFLAGS) -o $@ $^ $(LIBS)

$(REL_LIB): $(call objs,rel,$(LIB_SRC))
	@rm -f $@
	$(REL_AR) rcs $@ $^

$(ASAN_LIB): $(call objs,asan,$(LIB_SRC))
	@rm -f $@
	ar rcs $@ $^

# The twin (above) only where it is needed: a static binary with MPI.  That
# binary's util/ranks.o is compiled apart (WS_MPI_TWIN: it hands a rank to
# the twin where the twin's opens Open MPI) and named before the archive,
# so the archive's is not taken; with no profile of its own (it never runs
# in the training).
REL_TWINNED := $(filter 11,$(STATIC)$(MPI))
REL_BINS := $(REL_BIN) $(if $(REL_TWINNED),$(REL_TWIN))
REL_RANKS_STATIC := $(BUILD)/rel/util/ranks-static.o
$(REL_RANKS_STATIC): util/ranks.c Makefile $(REL_MODE) $(BUILD)/mpi-$(MPI)
	@mkdir -p $(dir $@)
	$(CC) $(REL_CFLAGS) $(RANKS_CFLAGS) -DWS_MPI_TWIN $(LTO_FLAGS) -c $< -o $@

$(REL_BIN): $(call objs,rel,$(CLI_SRC)) $(if $(REL_TWINNED),$(REL_RANKS_STATIC)) $(REL_LIB) $(REL_LINK_MODE)
	$(CC) $(REL_CFLAGS) $(LTO_FLAGS) -o $@ $(filter-out $(REL_LINK_MODE),$^) $(REL_BIN_LIBS)

$(REL_TWIN): $(call objs,rel,$(CLI_SRC)) $(REL_LIB)
	$(CC) $(REL_CFLAGS) $(LTO_FLAGS) -o $@ $^ $(REL_LIBS)

$(ASAN_BIN): $(call objs,asan,$(CLI_SRC)) $(ASAN_LIB)
	$(CC) $(ASAN_CFLAGS) -o $@ $^ $(LIBS)

# The CLI tests run the sanitized binary, so bad-input tests also catch
# memory errors in the command-line paths.
$(BUILD)/asan/tests/%.o: ASAN_CFLAGS += -DWARPSCOPE_BIN='"$(abspath $(ASAN_BIN))"' \
	-DWARPSCOPE_REL_BIN='"$(abspath $(REL_BIN))"' \
	-DWARPSCOPE_FIXTURES='"$(abspath tests/fixtures)"'
# The memory-bound tests run the optimized build (tests/helpers.h).
$(ASAN_TESTS): $(call objs,asan,$(TEST_SRC)) $(ASAN_LIB) | $(REL_BIN)
	$(CC) $(ASAN_CFLAGS) -o $@ $^ $(TEST_LIBS) $(LIBS)

$(BUILD)/rel/bench/%: $(BUILD)/rel/bench/%.o $(REL_LIB)
	$(CC) $(REL_CFLAGS) $(LTO_FLAGS) -o $@ $^ $(LIBS)

# ---- the release build's training (PGO=1) --------------------------------
# build/pgo-gen/ holds the instrumented objects and binary; each object's
# counts land next to it (.gcda, named by GCC after the object's absolute
# path) when a process of the training exits.  The old counts are removed
# first: GCC would add the new ones to them.  Then each object's profile
# is published to build/rel/ beside the object it is for: X.gcda (where
# GCC's -fprofile-use looks) and X.prof, its checksum or "untrained" (the
# objects the binary does not link: the Python module's and the NVBit
# tool's), rewritten only when it changed.  build/rel/X.o depends on X.prof:
# an edit retrains, and recompiles the objects whose counts changed (the
# edited one always: its counts carry its compile stamp).  Two trainings
# differ in a few counts of about half the objects (the order in which
# functions first ran, pointer values seen by the value profiles), so a
# retraining recompiles those too.
PGO_OBJS  := $(call objs,pgo-gen,$(CLI_SRC) $(LIB_SRC))
PGO_LIB   := $(PGO_DIR)/libwarpscope.a
PGO_BIN   := $(PGO_DIR)/warpscope
PGO_STAMP := $(PGO_DIR)/trained

$(PGO_DIR)/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(REL_CFLAGS) $(PGO_GEN_FLAGS) -c $< -o $@

$(PGO_LIB): $(call objs,pgo-gen,$(LIB_SRC))
	@rm -f $@
	ar rcs $@ $^

$(PGO_BIN): $(call objs,pgo-gen,$(CLI_SRC)) $(PGO_LIB)
	$(CC) $(REL_CFLAGS) $(PGO_GEN_FLAGS) -o $@ $^ $(REL_LIBS)

$(PGO_STAMP): $(PGO_BIN) scripts/pgo-train.sh
	@find $(PGO_DIR) -name '*.gcda' -delete
	scripts/pgo-train.sh $(PGO_BIN) $(PGO_DIR)/train
	@rm -rf $(PGO_DIR)/train
	@for obj in $(PGO_OBJS:$(PGO_DIR)/%.o=%); do \
		counts=$(PGO_DIR)/$$obj.gcda rel=$(BUILD)/rel/$$obj; mkdir -p $$(dirname $$rel); \
		if [ -f $$counts ]; then cmp -s $$counts $$rel.gcda || cp $$counts $$rel.gcda; \
			sum=$$(cksum <$$counts); \
		else rm -f $$rel.gcda; sum=untrained; fi; \
		echo "$$sum" | cmp -s - $$rel.prof || echo "$$sum" >$$rel.prof; \
	done
	@touch $@

# An empty recipe: make then reads each X.prof's time again after the
# training, and rebuilds only the objects whose profile changed.  Named in
# full, so that make keeps them (a pattern alone would make them
# intermediate files, deleted after each build).
REL_PROFS := $(PGO_OBJS:$(PGO_DIR)/%.o=$(BUILD)/rel/%.prof)
$(REL_PROFS): $(BUILD)/rel/%.prof: $(PGO_STAMP) ;

pgo_use = $(if $(filter 1,$(PGO)),$(if $(filter untrained,$(shell cat $(1:.o=.prof))),,$(PGO_USE_FLAGS)))

# Switching PGO or LTO on or off rebuilds build/rel/; switching STATIC
# links the binary again.
$(REL_MODE): FORCE
	@mkdir -p $(dir $@)
	@echo 'PGO=$(PGO) LTO=$(LTO)' | cmp -s - $@ || echo 'PGO=$(PGO) LTO=$(LTO)' >$@
$(REL_LINK_MODE): FORCE
	@mkdir -p $(dir $@)
	@echo 'STATIC=$(STATIC)' | cmp -s - $@ || echo 'STATIC=$(STATIC)' >$@

# ---- the README's commands ------------------------------------------------
# Each check records its outcome (scripts/test-step.sh) in TEST_RESULTS;
# make test ends with one line adding them up (scripts/test-summary.sh).
TEST_RESULTS := $(BUILD)/test-results
STEP = scripts/test-step.sh $(TEST_RESULTS)
test: deps-install
	@mkdir -p $(BUILD) && rm -f $(TEST_RESULTS)
	@$(MAKE) -k --no-print-directory check-asan check-tsan check-python check-mpi check-gpu-kit; status=$$?; \
		scripts/test-summary.sh $(TEST_RESULTS) || status=1; exit $$status

# The same bytes from mpirun -n R as from one process (scripts/mpi-check.sh;
# docs/analysis.md "Ranks"); skipped, saying so, without MPI.
check-mpi: $(REL_BINS)
	@$(STEP) mpi scripts/mpi-check.sh $(REL_BIN) $(MPI)

# The GPU run's scripts without a GPU (scripts/gpu-kit-check.sh): gpu-validate
# end to end and the device run, with stand-ins for nvidia-smi, ncu, the
# NVBit tool and the CUDA programs (tests/fake-gpu/).  gpu-trace turns an
# emulator trace into one as if a GPU recorded it.
FAKE_GPU := $(BUILD)/fake-gpu
$(FAKE_GPU)/gpu-trace: tests/fake-gpu/gpu_trace.c $(REL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(REL_CFLAGS) $(LTO_FLAGS) -o $@ $< $(REL_LIB) $(LIBS)
$(FAKE_GPU)/nvbit-tool.so: tests/fake-gpu/nvbit_tool.c
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -o $@ $<
check-gpu-kit: $(REL_BINS) $(FAKE_GPU)/gpu-trace $(FAKE_GPU)/nvbit-tool.so
	@$(STEP) gpu-kit scripts/gpu-kit-check.sh $(REL_BIN) $(FAKE_GPU)

# ThreadSanitizer over every threaded path of the CLI (Criterion's runner
# cannot start under TSan, so scripts/tsan-check.sh drives the binary).
check-tsan: $(TSAN_BIN)
	@$(STEP) tsan scripts/tsan-check.sh $(TSAN_BIN)

check-asan: $(ASAN_BIN) $(ASAN_TESTS) $(REL_BIN)
	@$(STEP) nvbit scripts/nvbit-check.sh
	@$(STEP) cuda-workloads scripts/cuda-workloads-check.sh $(REL_BIN)
	@$(STEP) unit-tests env ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	$(ASAN_TESTS) --jobs=$$(nproc) --short-filename
	@$(STEP) browser scripts/browser-test.sh $(ASAN_BIN)

demo: deps-install
	@$(MAKE) --no-print-directory $(REL_BIN)
	@scripts/demo.sh $(REL_BIN)

bench: deps-install
	@$(MAKE) --no-print-directory $(REL_BIN) $(BENCH_BINS)
	@scripts/bench.sh

# ---- the NVBit collector: make nvbit NVBIT_PATH=/path/to/nvbit_release ----
# Built the way NVBit's own tools are (the Makefiles of its 1.7 releases):
# the tool's host code as relocatable device code without ptxas cloning; the
# injected function whole-program with -astoolspatch and
# --keep-device-functions, so NVBit finds it by name and may call it from any
# instruction; nvcc links both and does the device link.  NVBIT_ARCH=all
# covers every GPU this nvcc targets (CUDA 13: sm_75 to sm_121, Hopper is
# sm_90); NVBIT_ARCH=sm_90 builds for one.  NVBit 1.7 or later: the tool
# handles cuLaunchKernelEx_ptsz, which older releases do not define.
# nvcc from PATH, else where the CUDA toolkit installs it.
NVCC ?= $(or $(shell command -v nvcc 2>/dev/null),/usr/local/cuda/bin/nvcc)
NVBIT_ARCH ?= all
# ptxas before CUDA 12.3 needs the injected function's registers capped, as
# NVBit's Makefiles do.
NVBIT_MAXRREG = $(shell $(NVCC) --version 2>/dev/null | sed -n 's/.*release \([0-9]*\)\.\([0-9]*\).*/\1 \2/p' | \
                  awk '$$1 < 12 || ($$1 == 12 && $$2 < 3) { print "-maxrregcount=24" }')
# The two compiles' flags, read as they stand by scripts/gpu-rebuild.sh too.
NVBIT_HOST_FLAGS := -std=c++17 -O3 -Xcompiler -fPIC -dc -Xptxas -cloning=no
NVBIT_INJECT_FLAGS := -std=c++17 -O3 -Xcompiler -fPIC -c -Xptxas -astoolspatch --keep-device-functions
NVBIT_TOOL := $(BUILD)/rel/warpscope-nvbit.so
NVBIT_OBJ  := $(BUILD)/nvbit
NVBIT_CORE  = $(NVBIT_PATH)/core
$(BUILD)/pic/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(REL_CFLAGS) -fPIC -c $< -o $@

nvbit: deps
	@if [ -z "$(NVBIT_PATH)" ]; then \
		echo "make nvbit: set NVBIT_PATH to an NVBit release (the directory holding core/)"; exit 1; fi
	@if [ "$$(head -c 7 "$(NVBIT_CORE)/libnvbit.a" 2>/dev/null)" != '!<arch>' ]; then \
		echo "make nvbit: $(NVBIT_CORE)/libnvbit.a: missing or not an ar archive (a Git LFS pointer?)"; exit 1; fi
	@if ! command -v $(NVCC) >/dev/null; then \
		echo "make nvbit: nvcc not found; set NVCC=/path/to/nvcc"; exit 1; fi
	@$(MAKE) --no-print-directory $(NVBIT_TOOL)

# The release and architectures the objects are built for: building for
# another rebuilds them.
$(NVBIT_OBJ)/release: FORCE
	@mkdir -p $(dir $@)
	@echo '$(abspath $(NVBIT_PATH)) $(NVBIT_ARCH)' | cmp -s - $@ || \
		echo '$(abspath $(NVBIT_PATH)) $(NVBIT_ARCH)' >$@
FORCE:

$(NVBIT_OBJ)/tool.o: collectors/nvbit/tool/tool.cu collectors/nvbit/ws_packet.h collectors/nvbit/host/nvbit_deps.h \
                     collectors/nvbit/host/nvbit_host.h $(NVBIT_OBJ)/release Makefile
	@mkdir -p $(dir $@)
	$(NVCC) $(NVBIT_HOST_FLAGS) -arch=$(NVBIT_ARCH) -I. -I$(NVBIT_CORE) $< -o $@

$(NVBIT_OBJ)/inject_funcs.o: collectors/nvbit/tool/inject_funcs.cu collectors/nvbit/ws_packet.h \
                             $(NVBIT_OBJ)/release Makefile
	@mkdir -p $(dir $@)
	$(NVCC) $(NVBIT_INJECT_FLAGS) -arch=$(NVBIT_ARCH) $(NVBIT_MAXRREG) -I. -I$(NVBIT_CORE) \
		$< -o $@

$(NVBIT_TOOL): $(NVBIT_OBJ)/tool.o $(NVBIT_OBJ)/inject_funcs.o $(call objs,pic,$(LIB_SRC)) \
               $(NVBIT_CORE)/libnvbit.a $(NVBIT_OBJ)/release
	@mkdir -p $(dir $@)
	$(NVCC) -arch=$(NVBIT_ARCH) -O3 -shared -o $@ $(NVBIT_OBJ)/tool.o $(NVBIT_OBJ)/inject_funcs.o \
		$(call objs,pic,$(LIB_SRC)) -L$(NVBIT_CORE) -lnvbit -lcuda -lcudart_static $(LIBS) -ldl -lrt

# .gpu/ for a GPU machine reached with a copy of the checkout (scripts/gpu-kit.sh).
gpu-kit:
	@scripts/gpu-kit.sh $(NVBIT_PATH)

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
# part of `make test`).  make fuzz FUZZ_SECONDS=600 for a longer run (each
# target that long), FUZZ_TARGET=wst for one target alone.
FUZZ_BIN := $(BUILD)/fuzz/fuzz_inputs
FUZZ_SECONDS ?= 60
$(FUZZ_BIN): tests/fuzz/fuzz_inputs.c $(LIB_SRC)
	@mkdir -p $(dir $@)
	clang -std=gnu11 -D_GNU_SOURCE $(WARN) -I. $(shell pkg-config --cflags $(PKGS) 2>/dev/null) \
		-O1 -g -fsanitize=fuzzer,address,undefined -o $@ $^ $(LIBS)

fuzz: deps-install $(REL_BIN) $(FUZZ_BIN)
	@scripts/fuzz.sh $(FUZZ_BIN) $(FUZZ_SECONDS) $(FUZZ_TARGET)

# ---- the Python package (python/, docs/python.md) --------------------------
# build/libwarpscope.so: the trace reader (formats/, util/) behind the stable
# C API of formats/trace_api.h, from the -fPIC objects of build/pic/ (the
# release flags plus -fPIC, as the NVBit tool's).  Not part of `make`:
# only `make python` and `make check-python` build it.  PYTHON is a
# python3 that imports numpy (scripts/find-python.sh); PIP_FLAGS go to
# `pip install` (e.g. --user, or --break-system-packages on Debian).
PY_SO     := $(BUILD)/libwarpscope.so
PY_SO_SRC := $(wildcard formats/*.c util/*.c)
PYTHON    ?= $(shell scripts/find-python.sh)
PIP_FLAGS ?=
.PHONY: python check-python

$(PY_SO): $(call objs,pic,$(PY_SO_SRC)) formats/trace_api.map
	$(CC) $(REL_CFLAGS) -shared -Wl,--no-undefined -Wl,--version-script=formats/trace_api.map \
		-o $@ $(filter %.o,$^) $(LIBS)

python: deps $(PY_SO) $(REL_BIN)
	WARPSCOPE_LIB=$(abspath $(PY_SO)) WARPSCOPE_BIN=$(abspath $(REL_BIN)) \
		$(PYTHON) -m pip install $(PIP_FLAGS) ./python

check-python: $(PY_SO) $(REL_BIN)
	@$(STEP) python scripts/python-check.sh "$(PYTHON)" $(abspath $(PY_SO)) $(abspath $(REL_BIN))

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/warpscope/configs
	install -m 755 $(REL_BIN) $(DESTDIR)$(PREFIX)/bin/warpscope
	$(if $(filter $(REL_TWIN),$(REL_BINS)),install -d $(DESTDIR)$(PREFIX)/libexec/warpscope && \
		install -m 755 $(REL_TWIN) $(DESTDIR)$(PREFIX)/libexec/warpscope/warpscope-ranks)
	@if ls configs/*.json >/dev/null 2>&1; then \
		install -m 644 configs/*.json $(DESTDIR)$(PREFIX)/share/warpscope/configs/; fi

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
