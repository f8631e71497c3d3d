"""Steps numba does not offer, written in LLVM IR as numba intrinsics, for the kernels.

Bytes to bits and back, 64 at a time, so that a kernel can keep flags as bit-planes (a
bit a board) and still work on them a byte a board (a loop of numba code that packs or
unpacks bits is not vectorised): ``mask_of`` is one compare of 64 bytes into a 64-bit
mask (``vptestmb`` with AVX-512, a movemask sequence with AVX2), ``expand_or`` its
inverse.  ``prefetch`` asks for a cache line a kernel will read soon, where its reads
jump too far for the hardware to guess.  ``take_next`` is an atomic counter, for threads
that share out work items, and ``fetch_or`` an atomic bitwise or, for threads that share a
bitset.  None checks bounds: the caller guarantees that 64 bytes from
``start`` exist, or that ``counter[index]`` does (``prefetch`` of any address is
harmless)."""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

_BYTES = ir.VectorType(ir.IntType(8), 64)
_FLAGS = ir.VectorType(ir.IntType(1), 64)
_WORD = ir.IntType(64)


def _splat(builder, value):
    """``value`` (a byte) in every lane of a 64-byte vector."""
    lane = builder.insert_element(ir.Constant(_BYTES, None), value, ir.Constant(ir.IntType(32), 0))
    return builder.shuffle_vector(lane, ir.Constant(_BYTES, None),
                                  ir.Constant(ir.VectorType(ir.IntType(32), 64), [0] * 64))


def _element_pointer(context, builder, array_type, array, index):
    """A pointer to ``array[index]`` (a one-dimensional contiguous array)."""
    data = context.make_array(array_type)(context, builder, array).data
    return builder.gep(data, [index])


def _bytes_at(context, builder, array_type, array, start):
    """A pointer to the 64 bytes of a uint8 array from index ``start``."""
    return builder.bitcast(_element_pointer(context, builder, array_type, array, start),
                           _BYTES.as_pointer())


def _check(array, start, value):
    if not (isinstance(array, types.Array) and array.dtype == types.uint8 and array.ndim == 1
            and array.layout == "C"):
        raise TypeError("a contiguous one-dimensional uint8 array is needed")
    if not (isinstance(start, types.Integer) and value == types.uint8):
        raise TypeError("an integer start and a uint8 value are needed")


@intrinsic
def mask_of(typingctx, array, start, value):
    """Bit j set where ``array[start + j] & value`` is not zero, j = 0 .. 63."""
    _check(array, start, value)

    def codegen(context, builder, signature, args):
        pointer = _bytes_at(context, builder, signature.args[0], args[0], args[1])
        tested = builder.and_(builder.load(pointer, align=1), _splat(builder, args[2]))
        flags = builder.icmp_unsigned("!=", tested, ir.Constant(_BYTES, None))
        return builder.bitcast(flags, _WORD)

    return types.uint64(array, start, value), codegen


@intrinsic
def expand_or(typingctx, array, start, word, value):
    """``array[start + j] |= value`` where bit j of ``word`` is set, j = 0 .. 63."""
    _check(array, start, value)
    if word != types.uint64:
        raise TypeError("a uint64 word is needed")

    def codegen(context, builder, signature, args):
        pointer = _bytes_at(context, builder, signature.args[0], args[0], args[1])
        flags = builder.bitcast(args[2], _FLAGS)
        chosen = builder.select(flags, _splat(builder, args[3]), ir.Constant(_BYTES, None))
        builder.store(builder.or_(builder.load(pointer, align=1), chosen), pointer, align=1)
        return context.get_dummy_value()

    return types.void(array, start, word, value), codegen


@intrinsic
def prefetch(typingctx, array, start):
    """Ask for the cache line of ``array[start]`` (for reading, kept in every cache)."""
    if not (isinstance(array, types.Array) and isinstance(start, types.Integer)):
        raise TypeError("an array and an integer index are needed")

    def codegen(context, builder, signature, args):
        pointer = builder.bitcast(
            _element_pointer(context, builder, signature.args[0], args[0], args[1]),
            ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        # the name for typed pointers (older llvmlite), which LLVM with opaque pointers
        # (numba now) still accepts and renames
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [pointer.type, i32, i32, i32]),
            "llvm.prefetch.p0i8")
        builder.call(function, [pointer, ir.Constant(i32, 0), ir.Constant(i32, 3),
                                ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.void(array, start), codegen


@intrinsic
def take_next(typingctx, counter, index):
    """``counter[index] += 1`` as one atomic step, returning the value before: threads
    share out work items by taking the next number (an int64 array)."""
    if not (isinstance(counter, types.Array) and counter.dtype == types.int64
            and isinstance(index, types.Integer)):
        raise TypeError("an int64 array and an integer index are needed")

    def codegen(context, builder, signature, args):
        return builder.atomic_rmw(
            "add", _element_pointer(context, builder, signature.args[0], args[0], args[1]),
            ir.Constant(ir.IntType(64), 1), "seq_cst")

    return types.int64(counter, index), codegen


@intrinsic
def fetch_or(typingctx, words, index, bits):
    """``words[index] |= bits`` as one atomic step, returning the word before: threads
    that share a bitset each learn whether they set a bit first (a uint64 array)."""
    if not (isinstance(words, types.Array) and words.dtype == types.uint64
            and isinstance(index, types.Integer) and bits == types.uint64):
        raise TypeError("a uint64 array, an integer index and uint64 bits are needed")

    def codegen(context, builder, signature, args):
        return builder.atomic_rmw(
            "or", _element_pointer(context, builder, signature.args[0], args[0], args[1]),
            args[2], "monotonic")

    return types.uint64(words, index, bits), codegen
