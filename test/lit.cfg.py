# -*- Python -*-
# lit configuration of the tilec test suite: FileCheck tests under test/ and
# the GoogleTest executables under test/unit (their own lit.cfg.py).

import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "TILEC"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".tile", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tilec_obj_root, "test")
config.excludes = [
    "Inputs",
    "unit",
    "CMakeLists.txt",
    "README.txt",
    "lit.cfg.py",
    "lit.site.cfg.py",
]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%tilec_src_root", config.tilec_src_root))
config.substitutions.append(("%tilec_obj_root", config.tilec_obj_root))
config.substitutions.append(("%examples", os.path.join(config.tilec_src_root, "examples")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
# conformance/conformance.test compiles every Nth case of the corpus when
# set (scripts/sanitize.sh: its instrumented tilec is slow).
llvm_config.with_system_environment(["TILEC_CONFORMANCE_SAMPLE"])
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.tilec_tools_dir, config.llvm_tools_dir]
tools = ["tile-opt", "tile-translate", "tile-gen", "tilegpu-gen", "tile-run"]
if os.path.exists(os.path.join(config.tilec_tools_dir, "tilec")):
    tools.append("tilec")
    config.available_features.add("tilec")
# tile-bench (the JIT benchmark) exists when the host API is built.
if os.path.exists(os.path.join(config.tilec_tools_dir, "tile-bench")):
    tools.append("tile-bench")
    config.available_features.add("tile-bench")
# The statically linked CLI (TILEC_STATIC_CLI, tools/tilec/CMakeLists.txt).
if os.path.exists(os.path.join(config.tilec_tools_dir, "tilec-static")):
    tools.append("tilec-static")
    config.available_features.add("tilec-static")
# The C ABI test program (test/capi).
if os.path.exists(os.path.join(config.tilec_tools_dir, "tilec-capi-test")):
    tools.append("tilec-capi-test")
    config.available_features.add("capi")
# The fake CUDA driver of the runtime's unit tests (test/unit/Runtime).
if os.path.exists(os.path.join(config.tilec_obj_root, "lib", "libtilec_fake_cuda.so")):
    config.available_features.add("fake-cuda")
# The Python package's self-contained libtilec.so (`ninja tilec-python-lib`).
if os.path.exists(os.path.join(config.tilec_obj_root, "python", "libtilec.so")):
    config.available_features.add("python-lib")
# The libFuzzer target exists only in clang builds with TILEC_BUILD_FUZZERS.
if os.path.exists(os.path.join(config.tilec_tools_dir, "tilec-frontend-fuzzer")):
    tools.append("tilec-frontend-fuzzer")
    config.available_features.add("fuzzer")
for fuzzer in ("pipeline", "tileir", "gen", "tilegpu"):
    if os.path.exists(os.path.join(config.tilec_tools_dir, "tilec-%s-fuzzer" % fuzzer)):
        tools.append("tilec-%s-fuzzer" % fuzzer)
        config.available_features.add("%s-fuzzer" % fuzzer)
# Fuzzer builds instrument every tool with ASan: their allocations from
# LLVM's BumpPtrAllocator need manual poisoning off (see
# tools/tilec-fuzz/AsanOptions.cpp), unless ASAN_OPTIONS says otherwise.
if "fuzzer" in config.available_features:
    config.environment.setdefault("ASAN_OPTIONS", "allow_user_poisoning=0")
llvm_config.add_tool_substitutions(tools, tool_dirs)

# ptxas validates generated PTX when the CUDA toolkit is present.
ptxas = None
if config.cuda_path:
    candidate = os.path.join(config.cuda_path, "bin", "ptxas")
    if os.path.exists(candidate):
        ptxas = candidate
if ptxas is None:
    ptxas = shutil.which("ptxas")
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
