"""warpscope.native: the C trace reader (formats/trace_api.h) through ctypes.

RECORD_DTYPE is the numpy form of one ws_api_record; it is checked field by
field against the library's own offsets when the library is loaded, so a
library built from other sources fails loudly instead of reading garbage."""
import ctypes

import numpy as np

from .errors import WarpscopeError
from .locate import library_path

API_VERSION = 1

# (name, numpy type) in the order and at the offsets of ws_api_record.
RECORD_FIELDS = [
    ("kernel", np.uint32), ("cta", np.uint32), ("warp", np.uint32),
    ("pc_index", np.uint32), ("pc_offset", np.uint64),
    ("kind", np.uint8), ("space", np.uint8), ("cache_op", np.uint8), ("size", np.uint8),
    ("mask", np.uint32), ("sm", np.int32), ("gap", np.uint32), ("waits", np.uint32),
    ("has_waits", np.uint8), ("has_time", np.uint8), ("reserved", (np.uint8, 2)),
    ("timestamp", np.uint64), ("addr", (np.uint64, 32)),
]
# No gaps (`reserved` fills the struct's padding), so the dtype is packed
# and stays itself through np.concatenate and friends: 312 bytes.
RECORD_DTYPE = np.dtype(RECORD_FIELDS)

ERR_CAP = 1024
_c = ctypes
_SIGNATURES = {
    "ws_api_version": (_c.c_int, []),
    "ws_api_record_size": (_c.c_size_t, []),
    "ws_api_record_field_offset": (_c.c_long, [_c.c_char_p]),
    "ws_trace_open": (_c.c_void_p, [_c.c_char_p, _c.c_char_p, _c.c_size_t]),
    "ws_trace_close": (None, [_c.c_void_p]),
    "ws_trace_origin": (_c.c_char_p, [_c.c_void_p, _c.c_char_p]),
    "ws_trace_format_version": (_c.c_uint, [_c.c_void_p]),
    "ws_trace_file_bytes": (_c.c_uint64, [_c.c_void_p]),
    "ws_trace_kernel_count": (_c.c_uint32, [_c.c_void_p]),
    "ws_trace_kernel_name": (_c.c_char_p, [_c.c_void_p, _c.c_uint32]),
    "ws_trace_kernel_dims": (_c.c_int, [_c.c_void_p, _c.c_uint32, _c.POINTER(_c.c_uint32),
                                        _c.POINTER(_c.c_uint32)]),
    "ws_trace_kernel_counts": (_c.c_int, [_c.c_void_p, _c.c_uint32, _c.POINTER(_c.c_uint64),
                                          _c.POINTER(_c.c_uint32)]),
    "ws_trace_kernel_ctas": (_c.c_uint32, [_c.c_void_p, _c.c_uint32, _c.c_void_p, _c.c_uint32]),
    "ws_trace_pc": (_c.c_int, [_c.c_void_p, _c.c_uint32, _c.c_uint32, _c.POINTER(_c.c_uint64),
                               _c.POINTER(_c.c_char_p), _c.POINTER(_c.c_char_p),
                               _c.POINTER(_c.c_uint32)]),
    "ws_trace_cursor": (_c.c_void_p, [_c.c_void_p, _c.c_uint32, _c.c_int64, _c.c_char_p,
                                      _c.c_size_t]),
    "ws_cursor_read": (_c.c_int64, [_c.c_void_p, _c.c_void_p, _c.c_size_t, _c.c_char_p,
                                    _c.c_size_t]),
    "ws_cursor_close": (None, [_c.c_void_p]),
    "ws_demangle": (None, [_c.c_char_p, _c.c_char_p, _c.c_size_t]),
}

_lib = None


def _check_layout(lib, path):
    if lib.ws_api_version() != API_VERSION:
        raise WarpscopeError(f"{path}: C API version {lib.ws_api_version()}, "
                             f"this package reads version {API_VERSION}")
    if lib.ws_api_record_size() != RECORD_DTYPE.itemsize:
        raise WarpscopeError(f"{path}: records of {lib.ws_api_record_size()} bytes, "
                             f"expected {RECORD_DTYPE.itemsize}")
    for name in RECORD_DTYPE.names:
        offset = lib.ws_api_record_field_offset(name.encode())
        if offset != RECORD_DTYPE.fields[name][1]:
            raise WarpscopeError(f"{path}: record field {name} at byte {offset}, "
                                 f"expected {RECORD_DTYPE.fields[name][1]}")


def lib():
    """The loaded library, loaded and checked on first use."""
    global _lib
    if _lib is None:
        path = library_path()
        try:
            loaded = ctypes.CDLL(path)
        except OSError as e:
            raise WarpscopeError(f"{path}: cannot load: {e}") from None
        for name, (restype, argtypes) in _SIGNATURES.items():
            fn = getattr(loaded, name)
            fn.restype = restype
            fn.argtypes = argtypes
        _check_layout(loaded, path)
        _lib = loaded
    return _lib


def text(value):
    """A C string the library returned, as str (None stays None)."""
    return None if value is None else value.decode("utf-8", "replace")


def demangle(name):
    """The reports' display name of a kernel (util/demangle.h): demangled
    without parameters, else the name as given."""
    buf = ctypes.create_string_buffer(4096)
    lib().ws_demangle(name.encode(), buf, len(buf))
    return text(buf.value)
