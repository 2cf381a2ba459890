/* tests/fake-gpu/nvbit_tool.c: the stand-in for build/rel/warpscope-nvbit.so
 * in scripts/gpu-kit-check.sh, built as a shared object: `warpscope record
 * -- PROGRAM` preloads it, and it does nothing.  The fake CUDA programs
 * (tests/fake-gpu/program) write the trace themselves when they see the
 * variables `warpscope record` sets (LD_PRELOAD, WARPSCOPE_OUT). */
int ws_fake_nvbit_tool;
