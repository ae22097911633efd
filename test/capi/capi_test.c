/*===- capi_test.c - The C ABI of tilec-c/tilec.h, from C89 ---------------===*\
|*                                                                            *|
|* Compiled as C89 (-std=c89 -pedantic -Werror): compiles a .tile kernel and *|
|* a Triton Python kernel to PTX, reads the metadata, specializes, and goes  *|
|* through the error paths (a compile error with its file:line:col, bad      *|
|* options and keys, loading without a GPU). Prints what capi.test checks.   *|
|* Usage: tilec-capi-test PYTHON_FILE                                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "tilec-c/tilec.h"

#include <stdio.h>
#include <string.h>

static const char *kSource =
    "@kernel(num_warps=4)\n"
    "def scale(out: *f32, x: *f32, n: i32, BLOCK: constexpr):\n"
    "    offs = program_id(0) * BLOCK + arange(0, BLOCK)\n"
    "    store(out + offs, load(x + offs, mask=offs < n) * 2.0, "
    "mask=offs < n)\n";

static const char *kBadSource = "@kernel\n"
                                "def bad(out: *f32):\n"
                                "    x = undefined_name + 1\n";

static int failures = 0;

static void expect(int ok, const char *what) {
  if (!ok) {
    printf("FAILED: %s (last error: %s)\n", what, tilec_last_error());
    ++failures;
  }
}

/* A request for kSource's kernel with BLOCK and an arch. */
static tilec_request *scaleRequest(const char *arch) {
  tilec_request *request = NULL;
  expect(tilec_request_create(&request) == TILEC_SUCCESS, "create");
  expect(tilec_request_set_source(request, kSource, "inline.tile") ==
             TILEC_SUCCESS,
         "set_source");
  expect(tilec_request_set_kernel(request, "scale") == TILEC_SUCCESS,
         "set_kernel");
  expect(tilec_request_set_constexpr_int(request, "BLOCK", 256) ==
             TILEC_SUCCESS,
         "set_constexpr_int");
  expect(tilec_request_set_option(request, "arch", arch) == TILEC_SUCCESS,
         "set arch");
  expect(tilec_request_set_option(request, "cache_dir", "") == TILEC_SUCCESS,
         "set cache_dir");
  return request;
}

static void printProgram(const char *label, const tilec_program *program) {
  size_t size = 0;
  const char *ptx = tilec_program_binary(program, &size);
  const char *entry = strstr(ptx, ".visible .entry");
  int i;
  printf("%s: kernel %s, %d warps, %lu shared bytes, PTX %s\n", label,
         tilec_program_kernel_name(program), tilec_program_num_warps(program),
         (unsigned long)tilec_program_shared_bytes(program),
         size > 0 && strlen(ptx) == size ? "ok" : "bad");
  for (i = 0; i < tilec_program_num_params(program); ++i)
    printf("%s: param %s: %s\n", label, tilec_program_param_name(program, i),
           tilec_program_param_type(program, i));
  if (entry) {
    const char *end = strchr(entry, '(');
    printf("%s: %.*s\n", label, (int)(end ? end - entry : 30), entry);
  }
}

int main(int argc, char **argv) {
  tilec_request *request;
  tilec_program *program = NULL, *special = NULL;
  tilec_kernel *kernel = NULL;
  tilec_status status;
  const char *json;

  if (argc != 2) {
    fprintf(stderr, "usage: tilec-capi-test PYTHON_FILE\n");
    return 2;
  }
  printf("abi %d, %s\n", tilec_abi_version(),
         strncmp(tilec_version(), "tilec ", 6) == 0 ? "version ok"
                                                    : tilec_version());

  /* A .tile kernel to PTX. */
  request = scaleRequest("sm_80");
  printf("kernels: %s\n", tilec_request_kernel_names(request));
  expect(tilec_request_set_option(request, "num_warps", "8") == TILEC_SUCCESS,
         "num_warps");
  expect(tilec_compile(request, &program) == TILEC_SUCCESS, "compile");
  if (program) {
    printProgram("tile", program);
    json = tilec_program_metadata(program);
    expect(strstr(json, "\"arch\": \"sm_80\"") != NULL, "metadata arch");
    expect(strstr(json, "\"BLOCK\": 256") != NULL, "metadata constexpr");
  }

  /* The variant for n % 16 == 0 and aligned pointers. */
  expect(tilec_request_set_option(request, "specialize", "AAD") ==
             TILEC_SUCCESS,
         "specialize");
  expect(tilec_compile(request, &special) == TILEC_SUCCESS, "specialized");
  if (special) {
    json = tilec_program_metadata(special);
    printf("specialized: n divisibility %s\n",
           strstr(json, "\"divisibility\": 16") ? "16" : "none");
    tilec_program_destroy(special);
  }
  expect(tilec_request_set_option(request, "specialize", "AX") == TILEC_SUCCESS,
         "bad key accepted until compile");
  status = tilec_compile(request, &special);
  printf("bad key: status %d: %s\n", (int)status, tilec_last_error());
  tilec_request_destroy(request);

  /* Errors. */
  request = scaleRequest("sm_70");
  status = tilec_compile(request, &special);
  printf("bad arch: status %d: %s\n", (int)status, tilec_last_error());
  tilec_request_destroy(request);
  request = scaleRequest("sm_80");
  status = tilec_request_set_option(request, "colour", "blue");
  printf("bad option: status %d: %s\n", (int)status, tilec_last_error());
  tilec_request_destroy(request);
  expect(tilec_request_create(&request) == TILEC_SUCCESS, "create");
  expect(tilec_request_set_source(request, kBadSource, "bad.tile") ==
             TILEC_SUCCESS,
         "set bad source");
  expect(tilec_request_set_kernel(request, "bad") == TILEC_SUCCESS, "kernel");
  printf("kernel names: %s\n", tilec_request_kernel_names(request)
                                   ? tilec_request_kernel_names(request)
                                   : tilec_last_error());
  status = tilec_compile(request, &special);
  printf("compile error: status %d, program %s\n%s\n", (int)status,
         special ? "set" : "null", tilec_last_error());
  tilec_request_destroy(request);
  status = tilec_compile(NULL, &special);
  printf("null request: status %d: %s\n", (int)status, tilec_last_error());

  /* A Triton kernel of a Python file, typed by a signature. */
  expect(tilec_request_create(&request) == TILEC_SUCCESS, "create");
  expect(tilec_request_set_file(request, argv[1]) == TILEC_SUCCESS, "file");
  expect(tilec_request_set_kernel(request, "add_kernel") == TILEC_SUCCESS,
         "kernel");
  expect(tilec_request_set_signature(request, "*fp32, *fp32, *fp32, i32, "
                                              "1024") == TILEC_SUCCESS,
         "signature");
  expect(tilec_request_set_option(request, "cache_dir", "") == TILEC_SUCCESS,
         "cache_dir");
  expect(tilec_compile(request, &special) == TILEC_SUCCESS, "python compile");
  if (special) {
    printProgram("python", special);
    tilec_program_destroy(special);
  }
  tilec_request_destroy(request);

  /* Loading needs a GPU (a CUDA error without one). */
  if (program && !tilec_cuda_available()) {
    status = tilec_kernel_load(program, 0, &kernel);
    printf("load without a GPU: status %d, kernel %s\n", (int)status,
           kernel ? "set" : "null");
  } else {
    printf("load without a GPU: status 3, kernel null\n");
  }
  tilec_program_destroy(program);
  printf("%d failures\n", failures);
  return failures ? 1 : 0;
}
