#!/usr/bin/env python3
"""The docs test: the code in README.md and docs/*.md must work as written.

Conventions (documented in docs/lit-tests.md, "The docs test"):

``` tile blocks
    A whole .tile file. Each one is compiled with
        tilec BLOCK.tile --emit=ptx -o WORK/   (+ the block's flags)
    and must exit 0. Directives in the leading comment lines of the block:
        # NAME.tile ...      the first comment line names the file: the block
                             is also saved as NAME.tile in the directory the
                             page's commands run in (see below)
        # tilec: FLAGS       extra tilec flags (-D BLOCK=256, -k NAME, ...);
                             an --emit or -o among them replaces the default
        # expect-exit: N     the exit code the compile must give (default 0)
    Fragments that are not whole files go in ```python or ``` blocks.

``` sh / ``` console blocks
    Only lines that start with `$ tilec ` or `$ tile-opt ` are run; every
    other line is ignored (other commands, output). The command is split
    like a shell would (shlex) but is not run by a shell: pipes,
    redirections, `;`, `&&` and `$(...)` are rejected. It runs with
    standard input from /dev/null, in a directory where every top-level
    entry of the repository is a symbolic link (so paths are relative to the
    repository root and outputs land in a scratch directory), after the
    page's named ```tile blocks were saved there. A trailing comment
    `# exit N` gives the expected exit code (default 0).
    In ```console blocks the lines after a command (up to the next `$`
    line) are its expected output: each must occur, in order, in a line of
    the actual stdout + stderr (substring match, trailing spaces ignored);
    a line `...` stands for anything. ```sh blocks do not check output.

Links
    Every relative Markdown link [text](path) must name an existing file.

The CLI reference
    Every option `tilec --help` lists and every tilec pass or pipeline
    `tile-opt --help` lists must appear in docs/cli.md (or, for passes,
    docs/pipeline.md).

Every failure is reported as `FILE:LINE: error: ...` (the line of the
block's fence or of the command); the exit code is 1 if any failed.
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

TIMEOUT_S = 120
SHELL_OPERATORS = ("|", "||", "&&", ";", ">", ">>", "<", "2>", "2>&1", "&")


class Block:
    def __init__(self, path, line, lang, lines):
        self.path = path  # the Markdown file
        self.line = line  # 1-based line of the opening fence
        self.lang = lang  # the info string's first word, lower case
        self.lines = lines  # [(line number, text)] of the body

    def where(self, line=None):
        return "%s:%d" % (self.path, self.line if line is None else line)


def fence_open(line):
    """(fence, indent, info) if `line` opens a fenced code block (CommonMark:
    3+ backticks or tildes, indented less than 4; a backtick fence's info
    string has no backtick), else None."""
    stripped = line.lstrip(" ")
    indent = len(line) - len(stripped)
    m = re.match(r"(`{3,}|~{3,})(.*)$", stripped)
    if not m or indent > 3 or (m.group(1)[0] == "`" and "`" in m.group(2)):
        return None
    return m.group(1), indent, m.group(2).strip()


def fence_closes(line, fence):
    stripped = line.lstrip(" ")
    return (
        len(line) - len(stripped) <= 3
        and stripped.startswith(fence[0])
        and set(stripped.rstrip()) == {fence[0][0]}
    )


def parse_blocks(path, rel):
    """The fenced code blocks of a Markdown file, with line numbers."""
    blocks = []
    fence = None
    with open(path, encoding="utf-8") as f:
        text = f.read().split("\n")
    for number, raw in enumerate(text, 1):
        if fence is None:
            opened = fence_open(raw)
            if opened:
                fence = opened[:2]
                start, body = number, []
                lang = opened[2].split()[0].lower() if opened[2] else ""
            continue
        if fence_closes(raw, fence):
            blocks.append(Block(rel, start, lang, body))
            fence = None
            continue
        # Remove the fence's indentation (blocks inside list items).
        body.append((number, raw[fence[1] :] if raw[: fence[1]].strip() == "" else raw))
    if fence is not None:
        blocks.append(Block(rel, start, lang, body))
    return blocks


def leading_comments(block):
    """The comment lines at the top of a ```tile block."""
    out = []
    for number, text in block.lines:
        if text.strip() == "":
            if out:
                break
            continue
        if not text.lstrip().startswith("#"):
            break
        out.append((number, text.strip()[1:].strip()))
    return out


class Checker:
    def __init__(self, args):
        self.root = os.path.abspath(args.root)
        self.tools = {
            "tilec": os.path.abspath(args.tilec),
            "tile-opt": os.path.abspath(args.tile_opt),
        }
        self.work = os.path.abspath(args.work)
        self.verbose = args.verbose
        self.failures = 0
        self.counts = {"tile blocks": 0, "commands": 0, "links": 0, "options": 0}

    def fail(self, where, message, detail=None):
        self.failures += 1
        print("%s: error: %s" % (where, message))
        if detail:
            for line in detail.rstrip().split("\n")[-40:]:
                print("    | " + line)

    def note(self, message):
        if self.verbose:
            print(message)

    def run(self, argv, cwd):
        try:
            p = subprocess.run(
                argv,
                cwd=cwd,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                timeout=TIMEOUT_S,
            )
        except subprocess.TimeoutExpired:
            return None, "timed out after %d s" % TIMEOUT_S
        except OSError as e:
            return None, "cannot run %s: %s" % (argv[0], e)
        return p.returncode, p.stdout.decode("utf-8", "replace")

    # --- pages -----------------------------------------------------------

    def pages(self):
        out = []
        if os.path.exists(os.path.join(self.root, "README.md")):
            out.append("README.md")
        docs = os.path.join(self.root, "docs")
        for name in sorted(os.listdir(docs)):
            if name.endswith(".md"):
                out.append(os.path.join("docs", name))
        return out

    def page_dir(self, rel):
        """A scratch directory mirroring the repository root by symlinks."""
        d = os.path.join(self.work, "pages", re.sub(r"[^A-Za-z0-9]+", "_", rel))
        os.makedirs(d)
        for entry in os.listdir(self.root):
            if entry.startswith(".") or entry in ("build",):
                continue
            os.symlink(os.path.join(self.root, entry), os.path.join(d, entry))
        return d

    def check_page(self, rel):
        blocks = parse_blocks(os.path.join(self.root, rel), rel)
        cwd = self.page_dir(rel)
        # Named ```tile blocks are saved first, so commands can use them.
        for b in blocks:
            if b.lang != "tile":
                continue
            comments = leading_comments(b)
            if comments:
                m = re.match(r"([A-Za-z0-9_.-]+\.tile)\b", comments[0][1])
                if m:
                    target = os.path.join(cwd, m.group(1))
                    if os.path.lexists(target):
                        self.fail(
                            b.where(),
                            "'%s' names a file that exists already "
                            "(another block of the page, or a top-level "
                            "entry of the repository)" % m.group(1),
                        )
                        continue
                    with open(target, "w") as f:
                        f.write("\n".join(t for _, t in b.lines) + "\n")
        for i, b in enumerate(blocks):
            if b.lang == "tile":
                self.check_tile(b, i)
            elif b.lang in ("sh", "console"):
                self.check_commands(b, cwd)
        self.check_links(rel)

    # --- ```tile blocks ---------------------------------------------------

    def check_tile(self, b, index):
        self.counts["tile blocks"] += 1
        flags, expect = [], 0
        for number, comment in leading_comments(b):
            m = re.match(r"tilec:\s*(.*)$", comment)
            if m:
                try:
                    flags += shlex.split(m.group(1))
                except ValueError as e:
                    self.fail(b.where(number), "bad '# tilec:' flags: %s" % e)
                    return
            m = re.match(r"expect-exit:\s*(\d+)\s*$", comment)
            if m:
                expect = int(m.group(1))
        d = os.path.join(
            self.work, "tile", "%s_%d" % (re.sub(r"[^A-Za-z0-9]+", "_", b.path), b.line)
        )
        os.makedirs(d)
        src = os.path.join(d, "block.tile")
        with open(src, "w") as f:
            f.write("\n".join(t for _, t in b.lines) + "\n")
        argv = [self.tools["tilec"], src]
        if not any(f.startswith("--emit") for f in flags):
            argv.append("--emit=ptx")
        if not any(f == "-o" or f.startswith("-o") for f in flags):
            argv += ["-o", d + "/"]
        argv += flags
        code, out = self.run(argv, d)
        self.note("%s: tilec %s -> %s" % (b.where(), " ".join(flags), code))
        if code != expect:
            # Point diagnostics at the Markdown file: line L of the block is
            # line (fence + L) of the page.
            out = re.sub(
                re.escape(src) + r":(\d+):",
                lambda m: "%s:%d:" % (b.path, b.line + int(m.group(1))),
                out,
            )
            self.fail(
                b.where(),
                "the ```tile block exits with %s, expected %d "
                "(flags: %s)" % (code, expect, " ".join(flags) or "none"),
                out,
            )

    # --- CLI examples ------------------------------------------------------

    def commands(self, b):
        """[(line, command text, [expected output lines])] of a block."""
        out, current = [], None
        for number, text in b.lines:
            s = text.strip()
            if s.startswith("$"):
                cmd = s[1:].strip()
                if (
                    cmd.startswith("tilec ")
                    or cmd.startswith("tile-opt ")
                    or cmd in ("tilec", "tile-opt")
                ):
                    current = (number, cmd, [])
                    out.append(current)
                else:
                    current = None
            elif current is not None and s:
                current[2].append(text.rstrip())
        return out

    def check_commands(self, b, cwd):
        for number, cmd, expected in self.commands(b):
            self.counts["commands"] += 1
            where = b.where(number)
            expect = 0
            m = re.search(r"\s#\s*exit:?\s*(\d+)\s*$", " " + cmd)
            try:
                argv = shlex.split(cmd, comments=True)
            except ValueError as e:
                self.fail(where, "cannot split the command: %s" % e)
                continue
            if m:
                expect = int(m.group(1))
            bad = [
                a
                for a in argv
                if a in SHELL_OPERATORS or a.startswith(("$(", "`")) or re.match(r"^\d?[<>]", a)
            ]
            if bad:
                self.fail(
                    where,
                    "shell syntax (%s) in a '$ %s' line; only plain "
                    "commands are run" % (" ".join(bad), argv[0]),
                )
                continue
            argv[0] = self.tools[argv[0]]
            code, out = self.run(argv, cwd)
            self.note("%s: $ %s -> %s" % (where, cmd, code))
            if code != expect:
                self.fail(where, "'$ %s' exits with %s, expected %d" % (cmd, code, expect), out)
                continue
            if b.lang == "console" and expected:
                self.check_output(where, cmd, expected, out)

    def check_output(self, where, cmd, expected, out):
        actual = [ln.rstrip() for ln in out.split("\n")]
        pos = 0
        for want in expected:
            w = want.strip()
            if w == "..." or not w:
                continue
            found = None
            for i in range(pos, len(actual)):
                if w in actual[i]:
                    found = i
                    break
            if found is None:
                self.fail(
                    where, "the output of '$ %s' lacks (in order) the line: %s" % (cmd, w), out
                )
                return
            pos = found + 1

    # --- links -------------------------------------------------------------

    def check_links(self, rel):
        base = os.path.dirname(os.path.join(self.root, rel))
        fence = None
        with open(os.path.join(self.root, rel), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                line = line.rstrip("\n")
                if fence is None:
                    opened = fence_open(line)
                    if opened:
                        fence = opened[:2]
                        continue
                elif fence_closes(line, fence):
                    fence = None
                    continue
                if fence is not None:
                    continue
                for target in re.findall(r"\]\(([^)\s]+)\)", re.sub(r"`[^`]*`", "", line)):
                    if re.match(r"[a-z]+:", target) or target.startswith("#"):
                        continue
                    self.counts["links"] += 1
                    path = target.split("#")[0]
                    if not os.path.exists(os.path.join(base, path)):
                        self.fail("%s:%d" % (rel, number), "broken link '%s'" % target)

    # --- the CLI reference -------------------------------------------------

    def check_cli_reference(self):
        cli_path = os.path.join(self.root, "docs", "cli.md")
        with open(cli_path, encoding="utf-8") as f:
            cli = f.read()
        with open(os.path.join(self.root, "docs", "pipeline.md"), encoding="utf-8") as f:
            pipeline = f.read()
        code, out = self.run([self.tools["tilec"], "--help"], self.work)
        if code != 0:
            self.fail("docs/cli.md:1", "tilec --help exits with %s" % code, out)
        section = out.split("tilec options:", 1)[-1]
        for m in re.finditer(r"^\s{2}(-{1,2}[A-Za-z][A-Za-z0-9-]*)", section, re.M):
            self.counts["options"] += 1
            opt = m.group(1)
            if not re.search(r"(?<![A-Za-z0-9-])" + re.escape(opt) + r"(?![A-Za-z-])", cli):
                self.fail(
                    "docs/cli.md:1",
                    "'tilec --help' lists %s, which docs/cli.md " "does not document" % opt,
                )
        code, out = self.run([self.tools["tile-opt"], "--help"], self.work)
        if code != 0:
            self.fail("docs/cli.md:1", "tile-opt --help exits with %s" % code, out)
        for m in re.finditer(
            r"^\s+(--(?:tile|tilegpu|convert-tile|tilec)[A-Za-z0-9-]*)", out, re.M
        ):
            self.counts["options"] += 1
            opt = m.group(1)
            pat = r"(?<![A-Za-z0-9-])" + re.escape(opt) + r"(?![A-Za-z0-9-])"
            if not re.search(pat, cli) and not re.search(
                r"(?<![A-Za-z0-9])" + re.escape(opt[2:]) + r"(?![A-Za-z0-9-])", pipeline
            ):
                self.fail(
                    "docs/cli.md:1",
                    "'tile-opt --help' lists %s, which neither "
                    "docs/cli.md nor docs/pipeline.md documents" % opt,
                )

    def main(self):
        if os.path.exists(self.work):
            shutil.rmtree(self.work)
        os.makedirs(self.work)
        for name, tool in self.tools.items():
            code, out = self.run([tool, "--version"], self.work)
            if code != 0:
                print(
                    "check_docs: error: cannot run %s (%s --version exits with %s): %s"
                    % (name, tool, code, out.strip())
                )
                return 1
        for rel in self.pages():
            self.check_page(rel)
        self.check_cli_reference()
        summary = ", ".join("%d %s" % (v, k) for k, v in self.counts.items())
        if self.failures:
            print("check_docs: FAILED: %d error(s); checked %s" % (self.failures, summary))
            return 1
        print("check_docs: OK: checked %s" % summary)
        return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--root", required=True, help="the repository root")
    p.add_argument("--tilec", required=True, help="the tilec binary")
    p.add_argument("--tile-opt", required=True, help="the tile-opt binary")
    p.add_argument(
        "--work", default=None, help="scratch directory (emptied first; default: a temporary one)"
    )
    p.add_argument("-v", "--verbose", action="store_true", help="print every check")
    args = p.parse_args()
    cleanup = args.work is None
    if cleanup:
        args.work = tempfile.mkdtemp(prefix="check_docs.")
    try:
        return Checker(args).main()
    finally:
        if cleanup:
            shutil.rmtree(args.work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
