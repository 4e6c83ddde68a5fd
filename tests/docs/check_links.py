#!/usr/bin/env python3
"""Check that the documentation points only at things a clone has.

Usage: check_links.py [ROOT]        check ROOT's README.md and docs/*.md (default: the checkout)
       check_links.py --self-test   prove the checker fails on each kind of broken reference

Fails (exit 1, one line per problem: file:line: what is wrong) when a page contains
* a `§`: a section sign cites a specification that is not in the repository; point at the
  docs page and heading that explains the thing instead;
* a relative Markdown link or image whose target file does not exist;
* a link whose `#anchor` is not a heading of the target page (GitHub heading slugs:
  lowercase, punctuation other than `-` and `_` dropped, each space a `-`, repeats `-1`, `-2`);
* a link from a page to itself by file name (`reports.md#x` inside reports.md): use `#x`.
Fenced code blocks and inline code spans are not checked (they show commands and examples).
"""
import os
import re
import sys
import tempfile

HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
FENCE = re.compile(r"^ {0,3}(```|~~~)")
# [text](target) and ![alt](target); the text may hold one level of brackets or code.
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^()\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFDEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s+<?(\S+?)>?(?:\s+.*)?$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.I)


def slug_text(heading):
    """The heading's rendered text: inline code and emphasis markers off, links to their text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = CODE_SPAN.sub(lambda m: m.group(2).strip(), text)
    text = re.sub(r"<[^>]+>", "", text)
    return text.replace("*", "").replace("~", "")


def github_slug(heading):
    text = slug_text(heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)  # \w keeps letters, digits and _ (Unicode too)
    return text.replace(" ", "-")


def lines_outside_fences(text):
    """(line number, line) for every line not inside a fenced code block."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        m = FENCE.match(line)
        if fence:
            if m and line.strip().startswith(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        yield number, line


def anchors_of(path, cache):
    if path not in cache:
        seen = {}
        anchors = set()
        with open(path, encoding="utf-8") as f:
            for _, line in lines_outside_fences(f.read()):
                m = HEADING.match(line)
                if not m:
                    continue
                base = github_slug(m.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                anchors.add(base if n == 0 else "%s-%d" % (base, n))
        cache[path] = anchors
    return cache[path]


def pages(root):
    found = []
    readme = os.path.join(root, "README.md")
    if os.path.isfile(readme):
        found.append(readme)
    docs = os.path.join(root, "docs")
    if os.path.isdir(docs):
        found += sorted(os.path.join(docs, n) for n in os.listdir(docs) if n.endswith(".md"))
    return found


def check(root):
    problems = []
    cache = {}
    for page in pages(root):
        rel = os.path.relpath(page, root)
        with open(page, encoding="utf-8") as f:
            text = f.read()
        for number, line in enumerate(text.split("\n"), 1):
            if "§" in line:
                problems.append("%s:%d: '§' cites a specification that is not in the repository; "
                                "link the docs page and heading that explains it" % (rel, number))
        for number, line in lines_outside_fences(text):
            prose = CODE_SPAN.sub("", line)
            targets = [m.group(1) for m in LINK.finditer(prose)]
            m = REFDEF.match(prose)
            if m:
                targets.append(m.group(1))
            for target in targets:
                if EXTERNAL.match(target):
                    continue
                file_part, _, anchor = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(page), file_part)) if file_part else page
                if not os.path.exists(dest):
                    problems.append("%s:%d: link target %s does not exist" % (rel, number, target))
                    continue
                if file_part and os.path.samefile(dest, page):
                    problems.append("%s:%d: link %s names its own page; write #%s"
                                    % (rel, number, target, anchor))
                if anchor and not dest.endswith(".md"):
                    problems.append("%s:%d: link %s has an anchor but is not a Markdown page" % (rel, number, target))
                elif anchor and anchor not in anchors_of(dest, cache):
                    problems.append("%s:%d: link %s: no heading of %s has the anchor #%s"
                                    % (rel, number, target, os.path.relpath(dest, root), anchor))
    return problems


def self_test():
    """Each broken case alone must be reported; the good page alone must pass."""
    good = ("# Title\n\n## Report formats\n\n## The `best_of` field — why\n\n## Report formats\n\n"
            "See [a](other.md#tokens), [b](#report-formats-1), [c](#the-best_of-field--why),\n"
            "![fig](figures/a.svg), [web](https://example.org/x#y) and `[code](missing.md)`.\n"
            "```\n[fenced](missing.md)\n```\n")
    broken = {
        "section sign": "The authority is formats.md §7.\n",
        "missing file": "See [x](nowhere.md).\n",
        "missing anchor": "See [x](other.md#no-such-heading).\n",
        "missing own anchor": "See [x](#nothing-here).\n",
        "missing image": "![fig](figures/none.svg)\n",
        "reference definition": "[x]: nowhere.md#a\n",
        "link to itself by name": "See [x](page.md#report-formats).\n",
    }
    failures = []
    for name, extra in [("good page", "")] + sorted(broken.items()):
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "docs", "figures"))
            with open(os.path.join(root, "docs", "figures", "a.svg"), "w") as f:
                f.write("<svg/>")
            with open(os.path.join(root, "docs", "other.md"), "w", encoding="utf-8") as f:
                f.write("# Other\n\n### Tokens\n")
            with open(os.path.join(root, "docs", "page.md"), "w", encoding="utf-8") as f:
                f.write(good + extra)
            problems = check(root)
            # The broken line is the one after the good page; the problem must name it.
            where = "docs/page.md:%d:" % (good.count("\n") + 1)
            if name == "good page" and problems:
                failures.append("good page: expected no problem, got %r" % problems)
            elif name != "good page" and (not problems or any(not p.startswith(where) for p in problems)):
                failures.append("%s: expected one problem at %s, got %r" % (name, where, problems))
    for failure in failures:
        print("self-test: " + failure)
    print("self-test: %s" % ("failed" if failures else "ok (%d cases)" % (len(broken) + 1)))
    return 1 if failures else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    root = os.path.normpath(root)
    problems = check(root)
    for problem in problems:
        print(problem)
    count = len(pages(root))
    print("docs links: %d pages, %d problems" % (count, len(problems)))
    return 1 if problems or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
