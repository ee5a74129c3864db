"""A fuzz target: its code, its seed corpus replayed as a test in every build,
and a libFuzzer binary built only with --config=fuzz (clang)."""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library", "cc_test")

def fuzz_target(name, deps):
    cc_library(
        name = name + "_lib",
        testonly = True,
        srcs = [name + ".cc"],
        deps = deps,
        alwayslink = True,
    )
    cc_test(
        name = name + "_corpus_test",
        size = "small",
        args = ["tests/fuzz/corpus/" + name],
        data = native.glob(["corpus/" + name + "/**"]),
        deps = [
            ":" + name + "_lib",
            ":replay_main",
        ],
    )
    cc_binary(
        name = name,
        testonly = True,
        linkopts = ["-fsanitize=fuzzer"],
        tags = ["manual"],
        deps = [":" + name + "_lib"],
    )
