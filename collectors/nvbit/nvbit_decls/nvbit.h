/* collectors/nvbit/nvbit_decls/nvbit.h: declarations of the part of NVBit's
 * documented API that warpscope's tool uses, written for warpscope so that
 * `make test` can compile the tool with nvcc where NVBit is not installed
 * (compile only: nothing here is defined).  `make nvbit NVBIT_PATH=...`
 * builds against NVBit's own headers instead, and
 * `scripts/nvbit-check.sh NVBIT_PATH` checks every declaration here against
 * a release's headers: same types, same enum values, same field offsets,
 * same linkage (NVBit declares its API extern "C"). */
#pragma once

#include <cuda.h>
#include <pthread.h>
#include <stdint.h>

#include <vector>

namespace InstrType {
enum class MemorySpace { NONE, LOCAL, GENERIC, GLOBAL, SHARED, CONSTANT, GLOBAL_TO_SHARED, SURFACE, TEXTURE };
enum class OperandType { IMM_UINT64, IMM_DOUBLE, REG, PRED, UREG, UPRED, CBANK, MREF, GENERIC };
/* Only the leading field the tool reads; NVBit's struct goes on. */
typedef struct {
    OperandType type;
} operand_t;
} // namespace InstrType

class Instr {
  public:
    const char *getSass();
    const char *getOpcode();
    uint32_t getOffset();
    uint32_t getIdx();
    InstrType::MemorySpace getMemorySpace();
    bool isLoad();
    bool isStore();
    int getSize();
    int getNumOperands();
    const InstrType::operand_t *getOperand(int num_operand);
};

typedef enum { IPOINT_BEFORE, IPOINT_AFTER } ipoint_t;

extern "C" {
const std::vector<Instr *> &nvbit_get_instrs(CUcontext ctx, CUfunction func);
std::vector<CUfunction> nvbit_get_related_functions(CUcontext ctx, CUfunction func);
const char *nvbit_get_func_name(CUcontext ctx, CUfunction func, bool mangled = false);
bool nvbit_get_line_info(CUcontext ctx, CUfunction func, uint32_t offset, char **file_name,
                         char **dir_name, uint32_t *line);
void nvbit_enable_instrumented(CUcontext ctx, CUfunction func, bool flag,
                               bool apply_to_related = true);
void nvbit_set_tool_pthread(pthread_t tool_pthread);
void nvbit_insert_call(const Instr *instr, const char *dev_func_name, ipoint_t point);
void nvbit_add_call_arg_guard_pred_val(const Instr *instr, bool is_variadic_arg = false);
void nvbit_add_call_arg_const_val32(const Instr *instr, uint32_t val, bool is_variadic_arg = false);
void nvbit_add_call_arg_const_val64(const Instr *instr, uint64_t val, bool is_variadic_arg = false);
void nvbit_add_call_arg_mref_addr64(const Instr *instr, int id = 0, bool is_variadic_arg = false);
}
