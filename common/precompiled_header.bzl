"""A precompiled header built with exactly the flags of the C++ files that read it.

GCC and clang accept a precompiled header only when the reader's compile options match
the ones it was built with (GCC can even crash on some mismatches), so this rule asks the
C++ toolchain for the compile command line of the current configuration (--copt,
--cxxopt, the sanitizers, PIC as Bazel chooses it) and adds the rule's own `copts`,
which must be the `copts` of every target that includes it. The header is copied into
the output tree and the precompiled form written beside it (`.gch` for GCC, `.pch` for
clang), so that `-include $(BINDIR)/PACKAGE/NAME/HEADER` finds both: the compilers then
read the precompiled form instead of parsing the header. The path must be given from the
execution root, `$(BINDIR)` included: clang's driver looks for the `.pch` beside the path
as written, not along the include path as GCC does.
"""

load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "ACTION_NAMES")
load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain")

def _uses_pic(ctx, cc_toolchain, feature_configuration):
    # Bazel's own choice for the objects of binaries and tests (--force_pic aside, which
    # Starlark cannot read).
    return (cc_toolchain.needs_pic_for_dynamic_libraries(
        feature_configuration = feature_configuration,
    ) and ctx.var["COMPILATION_MODE"] != "opt")

def _precompiled_header_impl(ctx):
    cc_toolchain = find_cpp_toolchain(ctx)
    feature_configuration = cc_common.configure_features(
        ctx = ctx,
        cc_toolchain = cc_toolchain,
        requested_features = ctx.features,
        unsupported_features = ctx.disabled_features,
    )
    compiler = cc_common.get_tool_for_action(
        feature_configuration = feature_configuration,
        action_name = ACTION_NAMES.cpp_compile,
    )
    extension = ".pch" if "clang" in compiler.split("/")[-1] else ".gch"
    header = ctx.actions.declare_file(ctx.label.name + "/" + ctx.file.header.basename)
    ctx.actions.expand_template(template = ctx.file.header, output = header, substitutions = {})
    precompiled = ctx.actions.declare_file(header.basename + extension, sibling = header)
    variables = cc_common.create_compile_variables(
        cc_toolchain = cc_toolchain,
        feature_configuration = feature_configuration,
        source_file = header.path,
        output_file = precompiled.path,
        user_compile_flags = (ctx.fragments.cpp.copts + ctx.fragments.cpp.cxxopts +
                              ctx.attr.copts + ["-x", "c++-header"]),
        use_pic = _uses_pic(ctx, cc_toolchain, feature_configuration),
    )
    arguments = cc_common.get_memory_inefficient_command_line(
        feature_configuration = feature_configuration,
        action_name = ACTION_NAMES.cpp_compile,
        variables = variables,
    )
    environment = cc_common.get_environment_variables(
        feature_configuration = feature_configuration,
        action_name = ACTION_NAMES.cpp_compile,
        variables = variables,
    )
    ctx.actions.run(
        executable = compiler,
        arguments = arguments,
        env = environment,
        inputs = depset([header], transitive = [cc_toolchain.all_files]),
        outputs = [precompiled],
        mnemonic = "CppPrecompileHeader",
        # Clang records the header's absolute path: outside a sandbox that is the execution
        # root, which Bazel maps back to the declared header; never shared through a cache
        # with another output base, where that path does not exist.
        execution_requirements = {"no-sandbox": "1", "no-cache": "1"},
        progress_message = "Precompiling %s" % ctx.file.header.short_path,
    )
    return [CcInfo(compilation_context = cc_common.create_compilation_context(
        headers = depset([header, precompiled]),
    ))]

precompiled_header = rule(
    implementation = _precompiled_header_impl,
    attrs = {
        "header": attr.label(allow_single_file = [".h"], mandatory = True),
        "copts": attr.string_list(doc = "The copts of every target that includes it."),
        "_cc_toolchain": attr.label(default = "@bazel_tools//tools/cpp:current_cc_toolchain"),
    },
    fragments = ["cpp"],
    toolchains = ["@bazel_tools//tools/cpp:toolchain_type"],
    incompatible_use_toolchain_transition = True,
)
