"""embed_text: a C++ header holding text files as string constants (a report's
script and style travel inside the binary)."""

def embed_text(name, out, files):
    """files: {"kSymbol": "file.js", ...} in this package."""
    symbols = sorted(files.keys())
    native.genrule(
        name = name,
        srcs = [files[s] for s in symbols],
        outs = [out],
        cmd = "$(location //common:embed_text.sh) $@ " + " ".join([
            "%s $(location %s)" % (s, files[s])
            for s in symbols
        ]),
        tools = ["//common:embed_text.sh"],
    )
