"""cc_test for this repository: test code at -O1 (-O0 under a sanitizer), reading the
precompiled system headers of //common:test_headers first."""

load("@rules_cc//cc:defs.bzl", _cc_test = "cc_test")

# Test code runs little: -O1 compiles it a fifth faster than the -O3 of the code under
# test, and under a sanitizer -O0 faster still. The precompiled header is built with the
# same options (//common:test_headers).
TEST_COPTS = select({
    "//common:sanitized_o0": ["-O0"],
    "//conditions:default": ["-O1"],
})

def cc_test(name, deps = [], copts = [], **kwargs):
    _cc_test(
        name = name,
        deps = deps + ["//common:test_headers"],
        copts = TEST_COPTS + [
            "-include",
            "$(BINDIR)/common/test_headers/test_headers.h",
            "-Winvalid-pch",  # a precompiled header built with other options is ignored
        ] + copts,
        **kwargs
    )
