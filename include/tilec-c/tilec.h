/*===- tilec-c/tilec.h - The tilec C ABI -------------------------*- C -*-===*\
|*                                                                            *|
|* A C89 interface to the tilec compiler and runtime, for programs and       *|
|* languages that cannot use the C++ host API of tilec/tilec.h (Python's     *|
|* ctypes, Rust, C). It is a thin layer over that API: a request names the   *|
|* source, kernel, constexprs and options of one compile; tilec_compile()    *|
|* turns it into a program (PTX and its SPEC section 2 metadata) through the *|
|* same memory and disk caches as tilec::Compiler; tilec_kernel_load() loads *|
|* a program on a GPU; tilec_kernel_launch() launches it on the caller's     *|
|* CUstream with arguments the caller packed. Every handle is opaque. A      *|
|* function that can fail returns a tilec_status; after a failure,           *|
|* tilec_last_error() gives the message of the calling thread (for a compile *|
|* error: the clang-style diagnostics, "file:line:col: error: ...").         *|
|* See docs/python.md.                                                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TILEC_C_TILEC_H
#define TILEC_C_TILEC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this interface; it changes when a function changes or is
 * added (2: tilec_kernel_launch_flags). */
#define TILEC_C_ABI_VERSION 2

/* What a call did. */
typedef enum tilec_status {
  TILEC_SUCCESS = 0,
  /* A null handle or pointer, an unknown option, a bad value. */
  TILEC_ERROR_INVALID_ARGUMENT = 1,
  /* The source does not compile (diagnostics in tilec_last_error()). */
  TILEC_ERROR_COMPILE = 2,
  /* The CUDA driver is missing or failed, or the kernel cannot run on the
   * device. */
  TILEC_ERROR_CUDA = 3,
  /* Anything else (out of memory, an internal error). */
  TILEC_ERROR_INTERNAL = 4
} tilec_status;

/* One compile's inputs: source, kernel, constexprs, options. */
typedef struct tilec_request tilec_request;
/* A compiled kernel: PTX and its metadata. */
typedef struct tilec_program tilec_program;
/* A program loaded on a GPU, ready to launch. */
typedef struct tilec_kernel tilec_kernel;

/* TILEC_C_ABI_VERSION of the library. */
int tilec_abi_version(void);
/* "tilec 0.1.0 (LLVM 22.1.x)". */
const char *tilec_version(void);
/* The message of the calling thread's last failed call ("" if none). Valid
 * until the thread's next failing call. */
const char *tilec_last_error(void);

/* ---- Compile requests ---------------------------------------------------
 * A request starts as: no source, no kernel, no constexprs, the target
 * "sm_90", num_warps and num_stages from the kernel's @kernel(...), -O3,
 * fp fusion on, 16-byte aligned pointers, the default disk cache
 * ($TILEC_CACHE_DIR, else ~/.cache/tilec) and no argument specialization. */
tilec_status tilec_request_create(tilec_request **out);
void tilec_request_destroy(tilec_request *request);
/* The source text; name labels diagnostics ("k.tile"; NULL: "<source>"). */
tilec_status tilec_request_set_source(tilec_request *request, const char *text,
                                      const char *name);
/* Reads the source from a file (at most 16 MiB); a name ending in ".py"
 * makes the language "python". */
tilec_status tilec_request_set_file(tilec_request *request, const char *path);
/* "tile" or "python" (a Python file's @triton.jit kernel, typed by the
 * signature). */
tilec_status tilec_request_set_language(tilec_request *request,
                                        const char *language);
/* The kernel to compile (required). */
tilec_status tilec_request_set_kernel(tilec_request *request,
                                      const char *kernel);
/* A Python kernel's Triton signature: "*fp16, *fp16, i32, 1024". */
tilec_status tilec_request_set_signature(tilec_request *request,
                                         const char *signature);
/* Constexpr values (a later value of the same name replaces the earlier). */
tilec_status tilec_request_set_constexpr_int(tilec_request *request,
                                             const char *name, int64_t value);
tilec_status tilec_request_set_constexpr_float(tilec_request *request,
                                               const char *name, double value);
tilec_status tilec_request_set_constexpr_bool(tilec_request *request,
                                              const char *name, int value);
/* An option, by name, as text:
 *   "arch"       sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a
 *   "num_warps"  0 (the kernel's) or a power of two up to 32
 *   "num_stages" 0 (the kernel's) or 1..16
 *   "opt_level"  0 or 3
 *   "fp_fusion"  0 or 1
 *   "line_info"  0 or 1: .file/.loc source lines in the PTX (Nsight, cuda-gdb)
 *   "cache_dir"  a directory; "" keeps compiled kernels in memory only
 *   "specialize" a specialization key: one character per runtime parameter,
 *                'A' a 16-byte aligned pointer, 'D' an integer that is a
 *                multiple of 16, 'U' an integer equal to 1, '-' nothing
 *                (as tilec::specializationKey); "" the generic variant
 *   "signature_of" "all" (default): the signature has an entry for every
 *                parameter; "runtime": only for the runtime ones, the
 *                constexprs taking their values from the constexprs set
 *                (a JIT's signature, inferred from launch arguments)
 * Values are checked by tilec_compile. */
tilec_status tilec_request_set_option(tilec_request *request, const char *name,
                                      const char *value);

/* The kernels of the request's source, comma-separated ("softmax,matmul";
 * a Python source: its @triton.jit functions), or NULL after a parse error
 * (diagnostics in tilec_last_error()). Valid until the next call on the
 * request. */
const char *tilec_request_kernel_names(tilec_request *request);

/* Compiles (through the caches). On TILEC_ERROR_COMPILE tilec_last_error()
 * holds the diagnostics. Needs no GPU. */
tilec_status tilec_compile(const tilec_request *request, tilec_program **out);

/* ---- Programs -------------------------------------------------------- */
void tilec_program_destroy(tilec_program *program);
/* The PTX text (NUL-terminated); *size (if not NULL) gets its length. */
const char *tilec_program_binary(const tilec_program *program, size_t *size);
/* The SPEC section 2 metadata as JSON: kernel, arch, num_warps,
 * num_stages, threads_per_block, shared_bytes, params (name, type,
 * divisibility, equal_to_1), constexprs, source_hash, compiler_version. */
const char *tilec_program_metadata(const tilec_program *program);
const char *tilec_program_kernel_name(const tilec_program *program);
/* The number of runtime parameters; each has a name and a type ("*f16",
 * "i32"); NULL for an index out of range. */
int tilec_program_num_params(const tilec_program *program);
const char *tilec_program_param_name(const tilec_program *program, int index);
const char *tilec_program_param_type(const tilec_program *program, int index);
int tilec_program_num_warps(const tilec_program *program);
/* Dynamic shared memory per block, in bytes. */
uint64_t tilec_program_shared_bytes(const tilec_program *program);

/* ---- Devices and kernels --------------------------------------------- */
/* 1 when the CUDA driver loads and initializes, else 0. */
int tilec_cuda_available(void);
/* The target the compiler uses for GPU `ordinal` ("sm_90a" on an H100,
 * "sm_80" on an A100), into buf (size bytes, NUL-terminated). */
tilec_status tilec_device_arch(int ordinal, char *buf, size_t size);
/* Loads the program on GPU `ordinal` (its primary context, which CUDA
 * runtime programs such as PyTorch share). */
tilec_status tilec_kernel_load(const tilec_program *program, int ordinal,
                               tilec_kernel **out);
void tilec_kernel_destroy(tilec_kernel *kernel);
/* Launches on a grid of gx * gy * gz programs of 32 * num_warps threads on
 * `stream` (a CUstream / cudaStream_t; NULL: the default stream). `args`
 * holds one 8-byte slot per runtime parameter, in order, each value
 * little-endian at the start of its slot at the parameter's width;
 * args_size must be 8 * tilec_program_num_params. Allocates nothing and
 * never synchronizes: it may be captured into a CUDA graph. */
tilec_status tilec_kernel_launch(const tilec_kernel *kernel, uint32_t gx,
                                 uint32_t gy, uint32_t gz, void *stream,
                                 const void *args, size_t args_size);
/* Launch flags of tilec_kernel_launch_flags. */
#define TILEC_LAUNCH_DEPENDENT 1u
/* tilec_kernel_launch with `flags`: TILEC_LAUNCH_DEPENDENT makes a
 * programmatic dependent launch (Triton's launch_pdl=True; an ordinary one
 * before sm_90): the kernel may start before the previous kernel on the
 * stream ends, and must gdc_wait() before reading what it writes. */
tilec_status tilec_kernel_launch_flags(const tilec_kernel *kernel, uint32_t gx,
                                       uint32_t gy, uint32_t gz, void *stream,
                                       const void *args, size_t args_size,
                                       unsigned flags);
/* Registers per thread, as the driver reports them (-1 on error). */
int tilec_kernel_num_registers(const tilec_kernel *kernel);

/* ---- The reference interpreter ---------------------------------------- */
/* What one argument of tilec_interpret is. */
typedef enum tilec_arg_kind {
  TILEC_ARG_BUFFER = 0,
  TILEC_ARG_INT = 1,
  TILEC_ARG_FLOAT = 2
} tilec_arg_kind;

/* One argument of tilec_interpret: a buffer of host memory for a pointer
 * parameter (`data`, `bytes`, and its element type `dtype`: "f32", "f16",
 * "i32", "u8", "i1" (one byte per element), ...), or a scalar. */
typedef struct tilec_interpret_arg {
  tilec_arg_kind kind;
  const char *dtype;
  void *data;
  size_t bytes;
  int64_t int_value;
  double float_value;
} tilec_interpret_arg;

/* Runs the request's kernel on the CPU with the float64 reference
 * interpreter (as `tilec --interpret`) over gx * gy * gz programs; buffers
 * are read and written in place. `max_ops` stops it with an error after
 * that many operations (0: no limit). device_print writes to stdout. A
 * compile or run error is TILEC_ERROR_COMPILE with the diagnostics; a
 * wrong number of arguments TILEC_ERROR_INVALID_ARGUMENT. */
tilec_status tilec_interpret(const tilec_request *request, uint32_t gx,
                             uint32_t gy, uint32_t gz,
                             const tilec_interpret_arg *args, size_t num_args,
                             uint64_t max_ops);

#ifdef __cplusplus
}
#endif

#endif /* TILEC_C_TILEC_H */
