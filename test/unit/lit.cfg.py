# -*- Python -*-
# lit configuration of the GoogleTest unit suite: every executable under
# bin/ whose name ends in "Tests" is a test binary.

import os

import lit.formats

config.name = "TILEC-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.tilec_unit_obj_root, "bin")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
for var in ["HOME", "TMPDIR", "TILEC_CACHE_DIR"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]
