#!/usr/bin/env python3
"""Writes tick's benchmark corpus: a deterministic, realistic notes folder.

    generate_corpus.py OUT_DIR

OUT_DIR/notes: 5,000 notes in nested folders, about 50 MB: front matter on
some files, headings, prose, links, code blocks holding fake tasks, 3-8 items
per section in the tick and emoji dialects, due dates over three months,
priorities, tags, notes, subtasks, 30% done.
OUT_DIR/big/big.md: one 10 MB list of 200,000 items.
The same seed always gives the same bytes.
"""
import datetime
import os
import random
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


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/tick-bench"
    rng = random.Random(SEED)
    notes = os.path.join(out, "notes")
    total = 0
    for index in range(5000):
        folder = os.path.join(notes, "area%02d" % (index % 20), "topic%02d" % (index // 20 % 10))
        os.makedirs(folder, exist_ok=True)
        text = note(rng, index)
        total += len(text.encode())
        with open(os.path.join(folder, "note%04d.md" % index), "w", encoding="utf-8") as handle:
            handle.write(text)
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
    print("wrote %d notes (%.1f MB) to %s and a %.1f MB list to %s" % (
        5000, total / 1e6, notes, os.path.getsize(os.path.join(big, "big.md")) / 1e6, big))


if __name__ == "__main__":
    main()
