"""warpscope.trace: a .wst trace's kernels and records as numpy arrays,
read by the project's C reader (build/libwarpscope.so, formats/trace_api.h).

    with warpscope.Trace("g.wst") as trace:
        for kernel in trace:                 # launch order
            records = kernel.records()       # numpy array of RECORD_DTYPE
            for batch in kernel.batches():   # the same, a bounded batch at a time

A record (RECORD_DTYPE, one per warp-level memory instruction):

    kernel     uint32      launch index
    cta        uint32      linear CTA id (x + y*gx + z*gx*gy)
    warp       uint32      warp index in the CTA
    pc_index   uint32      row of the kernel's PC table (Kernel.pcs)
    pc_offset  uint64      that PC's byte offset in the kernel
    kind       uint8       0 load, 1 store, 2 atomic (KINDS)
    space      uint8       0 global, 1 local (SPACES)
    cache_op   uint8       0 none, 1 ca, 2 cg, 3 cs, 4 lu, 5 cv (CACHE_OPS)
    size       uint8       bytes per active lane: 1, 2, 4, 8 or 16
    mask       uint32      active lanes, bit i = lane i
    sm         int32       the SM the collector saw, -1 when it recorded none
    gap        uint32      non-memory instructions since the warp's previous record
    waits      uint32      earlier loads it waits for, when has_waits (docs/metrics.md §12)
    has_waits  uint8
    has_time   uint8       timestamp valid
    reserved   uint8[2]    0 (the C struct's padding, named so the dtype has no gaps)
    timestamp  uint64      0 when has_time is 0
    addr       uint64[32]  byte address per lane, 0 for inactive lanes
"""
import ctypes

import numpy as np

from . import native
from .errors import WarpscopeError

KINDS = ("load", "store", "atomic")
SPACES = ("global", "local")
CACHE_OPS = ("", "ca", "cg", "cs", "lu", "cv")
BATCH_RECORDS = 65536


def _error_buffer():
    return ctypes.create_string_buffer(native.ERR_CAP)


class _Cursor:
    """One C cursor; closed when exhausted, abandoned, or its trace closes."""

    def __init__(self, trace, kernel, cta):
        err = _error_buffer()
        self._trace = trace
        self._handle = native.lib().ws_trace_cursor(trace._handle_or_fail(), kernel,
                                                    -1 if cta is None else int(cta),
                                                    err, len(err))
        if not self._handle:
            raise WarpscopeError(native.text(err.value))
        trace._cursors.add(self)

    def read_into(self, out):
        err = _error_buffer()
        n = native.lib().ws_cursor_read(self._handle, out.ctypes.data, len(out), err, len(err))
        if n < 0:
            raise WarpscopeError(native.text(err.value))
        return n

    def close(self):
        if self._handle:
            native.lib().ws_cursor_close(self._handle)
            self._handle = None
            self._trace._cursors.discard(self)


class Kernel:
    """One kernel launch of a trace: what the trace's metadata and index say
    about it, and its records on demand."""

    def __init__(self, trace, index):
        lib, handle = native.lib(), trace._handle_or_fail()
        self._trace = trace
        self.index = index
        self.name = native.text(lib.ws_trace_kernel_name(handle, index))
        self.demangled = native.demangle(self.name or "")
        grid, block = (ctypes.c_uint32 * 3)(), (ctypes.c_uint32 * 3)()
        lib.ws_trace_kernel_dims(handle, index, grid, block)
        self.grid, self.block = tuple(grid), tuple(block)
        counts, shape = (ctypes.c_uint64 * 6)(), (ctypes.c_uint32 * 2)()
        lib.ws_trace_kernel_counts(handle, index, counts, shape)
        (self.record_count, self.loads, self.stores, self.atomics, self.cta_count,
         self.pc_count) = (int(c) for c in counts)
        self.shared_mem_bytes, self.registers_per_thread = int(shape[0]), int(shape[1])

    def __repr__(self):
        return (f"Kernel({self.index}, {self.demangled!r}, grid={self.grid}, "
                f"block={self.block}, records={self.record_count})")

    @property
    def pcs(self):
        """The PC table as a pandas DataFrame: pc_index, offset (int),
        pc_offset (hex text, as the reports write it), sass, source_file,
        source_line (None / 0 when unknown)."""
        import pandas as pd
        lib, handle = native.lib(), self._trace._handle_or_fail()
        rows = []
        offset, line = ctypes.c_uint64(), ctypes.c_uint32()
        sass, source = ctypes.c_char_p(), ctypes.c_char_p()
        for i in range(self.pc_count):
            lib.ws_trace_pc(handle, self.index, i, ctypes.byref(offset), ctypes.byref(sass),
                            ctypes.byref(source), ctypes.byref(line))
            rows.append((i, offset.value, hex(offset.value), native.text(sass.value),
                         native.text(source.value), line.value))
        return pd.DataFrame(rows, columns=["pc_index", "offset", "pc_offset", "sass",
                                           "source_file", "source_line"])

    def ctas(self):
        """The sorted ids of the CTAs that have records (numpy uint32)."""
        lib, handle = native.lib(), self._trace._handle_or_fail()
        ids = np.zeros(self.cta_count, dtype=np.uint32)
        n = lib.ws_trace_kernel_ctas(handle, self.index, ids.ctypes.data, len(ids))
        return ids[:n]

    def batches(self, cta=None, size=BATCH_RECORDS):
        """Yields the kernel's records (or one CTA's), at most `size` at a
        time, in the trace's order; memory stays bounded by `size`."""
        cursor = _Cursor(self._trace, self.index, cta)
        try:
            while True:
                out = np.empty(size, dtype=native.RECORD_DTYPE)
                n = cursor.read_into(out)
                if n == 0:
                    return
                yield out[:n]
        finally:
            cursor.close()

    def records(self, cta=None):
        """Every record of the kernel (or of one CTA) in one array."""
        if cta is None:
            out = np.empty(self.record_count, dtype=native.RECORD_DTYPE)
            cursor = _Cursor(self._trace, self.index, None)
            try:
                n = cursor.read_into(out)
                if n != len(out) or cursor.read_into(np.empty(1, native.RECORD_DTYPE)):
                    raise WarpscopeError(f"{self._trace.path}: kernel {self.index}: "
                                         f"{n} records, the index says {len(out)}")
            finally:
                cursor.close()
            return out
        parts = list(self.batches(cta))
        return np.concatenate(parts) if parts else np.empty(0, dtype=native.RECORD_DTYPE)


class Trace:
    """A .wst trace opened by the C reader.  Iterating gives its kernels in
    launch order; use it as a context manager, or call close()."""

    def __init__(self, path):
        self.path = str(path)
        self._cursors = set()
        err = _error_buffer()
        self._handle = native.lib().ws_trace_open(self.path.encode(), err, len(err))
        if not self._handle:
            raise WarpscopeError(native.text(err.value))
        lib = native.lib()
        self.format_version = lib.ws_trace_format_version(self._handle)
        self.file_bytes = lib.ws_trace_file_bytes(self._handle)
        self.origin = {field: native.text(lib.ws_trace_origin(self._handle, field.encode()))
                       for field in ("collector", "collector_version", "gpu", "workload")}
        self.kernels = [Kernel(self, k) for k in range(lib.ws_trace_kernel_count(self._handle))]

    def _handle_or_fail(self):
        if not self._handle:
            raise WarpscopeError(f"{self.path}: trace is closed")
        return self._handle

    def __len__(self):
        return len(self.kernels)

    def __getitem__(self, index):
        return self.kernels[index]

    def __iter__(self):
        return iter(self.kernels)

    def records(self):
        """Yields every record of the trace, kernel by kernel, in batches."""
        for kernel in self.kernels:
            yield from kernel.batches()

    def close(self):
        if getattr(self, "_handle", None):
            for cursor in list(self._cursors):
                cursor.close()
            native.lib().ws_trace_close(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def __repr__(self):
        return f"Trace({self.path!r}, kernels={len(self.kernels)})"
