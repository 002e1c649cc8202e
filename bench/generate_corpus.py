#!/usr/bin/env python3
"""Writes tick's benchmark corpus: deterministic, realistic notes folders.

    generate_corpus.py OUT_DIR [--notes N ...]

OUT_DIR/notes-N (for each N, default 5,000 and 50,000): N notes in nested
folders, about 10 KB each: front matter on some files, headings, prose,
links, code blocks holding fake tasks, 3-8 items per section in the tick and
emoji dialects, due dates over three months, priorities, tags, notes,
subtasks, 30% done. Each folder is a git work tree, as users' notes are: a
.gitignore that ignores drafts/ (1% more notes, never read) and *.tmp.md,
and one commit.
OUT_DIR/big/big.md: one 10 MB list of 200,000 items.
The same seed always gives the same bytes.
"""
import argparse
import datetime
import os
import random
import subprocess
import sys

SEED = 20261121
TODAY = datetime.date(2026, 11, 21)
WORDS = ("alpha budget call draft email fix garden invoice journal kitchen ledger meeting notes order "
         "plan quarter review schedule ticket update vendor write yard zone backup client design deploy "
         "estimate follow-up hiring interview launch migrate onboarding payroll refactor release report "
         "roadmap sprint standup survey taxes travel workshop").split()
TAGS = ["work", "home", "errand", "work/review", "health", "finance", "reading", "garden", "urgent-ish", "family"]
COLORS = ["red", "orange", "yellow", "green", "mint", "teal", "cyan", "blue", "indigo", "purple", "pink", "brown", "gray"]
ICONS = ["cart", "house", "briefcase", "book", "leaf", "star.fill", "list.bullet", "calendar"]
PRIORITY_TICK = ["!low", "!high", "!urgent", "!medium", "!lowest"]
PRIORITY_EMOJI = ["🔽", "⏫", "🔺", "🔼", "⏬"]


def sentence(rng, low=6, high=16):
    words = [rng.choice(WORDS) for _ in range(rng.randint(low, high))]
    if rng.random() < 0.3:
        words.insert(rng.randrange(len(words)), "[%s](https://example.com/%s)" % (rng.choice(WORDS), rng.choice(WORDS)))
    if rng.random() < 0.3:
        words.insert(rng.randrange(len(words)), "**%s**" % rng.choice(WORDS))
    if rng.random() < 0.2:
        words.insert(rng.randrange(len(words)), "`%s`" % rng.choice(WORDS))
    return " ".join(words).capitalize() + "."


def item(rng, emoji, indent=""):
    done = rng.random() < 0.3
    box = "[x]" if done else "[ ]"
    title = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 9))).capitalize()
    parts = [title]
    due = TODAY + datetime.timedelta(days=rng.randint(-30, 60)) if rng.random() < 0.7 else None
    priority = rng.randrange(5) if rng.random() < 0.4 else None
    tags = rng.sample(TAGS, rng.randint(0, 2))
    if emoji:
        if priority is not None:
            parts.append(PRIORITY_EMOJI[priority])
        if due:
            parts.append("📅 %s" % due.isoformat())
        parts += ["#" + t for t in tags]
        if done:
            parts.append("✅ %s" % (TODAY - datetime.timedelta(days=rng.randint(0, 20))).isoformat())
    else:
        if priority is not None:
            parts.append(PRIORITY_TICK[priority])
        if due:
            parts.append("due:%s" % due.isoformat())
        parts += ["#" + t for t in tags]
        if done:
            parts.append("done:%s" % (TODAY - datetime.timedelta(days=rng.randint(0, 20))).isoformat())
    rng.shuffle(parts[1:]) if False else None
    lines = ["%s- %s %s" % (indent, box, " ".join(parts))]
    if rng.random() < 0.25:
        lines.append("%s  %s" % (indent, sentence(rng, 5, 12)))
    if rng.random() < 0.15 and not indent:
        for _ in range(rng.randint(1, 3)):
            lines += item(rng, emoji, indent + "  ")
    return lines


def note(rng, index):
    emoji = rng.random() < 0.35
    lines = []
    if rng.random() < 0.4:
        lines += ["---", "title: Note %d %s" % (index, rng.choice(WORDS)), "color: %s" % rng.choice(COLORS),
                  "icon: %s" % rng.choice(ICONS), "tags: [%s]" % ", ".join(rng.sample(TAGS, 2)), "---", ""]
    lines += ["# %s %d" % (rng.choice(WORDS).capitalize(), index), ""]
    for _ in range(rng.randint(2, 4)):
        lines += [sentence(rng, 16, 50) for _ in range(rng.randint(1, 3))]
        lines.append("")
    for section in range(rng.randint(3, 5)):
        lines += ["## %s %s" % (rng.choice(WORDS).capitalize(), rng.choice(WORDS)), ""]
        for _ in range(rng.randint(1, 3)):
            lines += [sentence(rng, 20, 58)]
        lines.append("")
        for _ in range(rng.randint(3, 8)):
            lines += item(rng, emoji)
        lines.append("")
        if rng.random() < 0.3:
            lines += ["```markdown", "- [ ] fake task in a code block due:2026-11-22", "- [x] another one", "```", ""]
        for _ in range(rng.randint(1, 3)):
            lines += [sentence(rng, 25, 76)]
            lines.append("")
    return "\n".join(lines) + "\n"


def notes_folder(out, count):
    """Writes OUT/notes-COUNT as a git work tree; returns its size in bytes."""
    rng = random.Random(SEED)
    notes = os.path.join(out, "notes-%d" % count)
    total = 0
    areas = max(count // 250, 20)
    for index in range(count):
        folder = os.path.join(notes, "area%03d" % (index % areas), "topic%02d" % (index // areas % 10))
        os.makedirs(folder, exist_ok=True)
        text = note(rng, index)
        total += len(text.encode())
        with open(os.path.join(folder, "note%05d.md" % index), "w", encoding="utf-8") as handle:
            handle.write(text)
    # What a user's .gitignore keeps out: drafts and temporary files, which
    # tick must not read (as ripgrep does not).
    drafts = os.path.join(notes, "drafts")
    os.makedirs(drafts, exist_ok=True)
    for index in range(count // 100):
        with open(os.path.join(drafts, "draft%04d.md" % index), "w", encoding="utf-8") as handle:
            handle.write(note(rng, count + index))
    with open(os.path.join(notes, "area000", "scratch.tmp.md"), "w", encoding="utf-8") as handle:
        handle.write("- [ ] an ignored temporary note\n")
    with open(os.path.join(notes, ".gitignore"), "w", encoding="utf-8") as handle:
        handle.write("drafts/\n*.tmp.md\n")
    env = dict(os.environ, GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@example.com",
               GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@example.com",
               GIT_AUTHOR_DATE="2026-11-21T12:00:00Z", GIT_COMMITTER_DATE="2026-11-21T12:00:00Z")
    for argv in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-q", "-m", "notes"]):
        subprocess.run(argv, cwd=notes, env=env, check=True)
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="/tmp/tick-bench")
    parser.add_argument("--notes", type=int, nargs="+", default=[5000, 50000])
    args = parser.parse_args()
    out = args.out
    for count in args.notes:
        total = notes_folder(out, count)
        print("wrote %d notes (%.1f MB) to %s" % (count, total / 1e6, os.path.join(out, "notes-%d" % count)))
    rng = random.Random(SEED + 1)
    big = os.path.join(out, "big")
    os.makedirs(big, exist_ok=True)
    lines = ["---", "title: Big list", "---", "", "# Big list", ""]
    for index in range(200_000):
        if index % 5000 == 0:
            lines += ["", "## Part %d" % (index // 5000), ""]
        due = TODAY + datetime.timedelta(days=rng.randint(-30, 60))
        box = "[x]" if rng.random() < 0.3 else "[ ]"
        lines.append("- %s Item %d %s due:%s #%s" % (box, index, rng.choice(WORDS), due.isoformat(), rng.choice(TAGS)))
    with open(os.path.join(big, "big.md"), "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    print("wrote a %.1f MB list to %s" % (os.path.getsize(os.path.join(big, "big.md")) / 1e6, big))


if __name__ == "__main__":
    main()
