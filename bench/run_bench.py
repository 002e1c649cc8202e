#!/usr/bin/env python3
"""Times what people type with tick against ripgrep and cmark-gfm, interleaved.

    run_bench.py --tick .build/release/tick --corpus /tmp/tick-bench [--sizes 5000 50000] [--runs N]

The corpus is what generate_corpus.py wrote: CORPUS/notes-N for each size, a
git work tree with a .gitignore (as users' notes are), and CORPUS/big/big.md.
The runner restores every file it changes (it checks the bytes).

For each size, after one untimed warm-up round (which primes the cache and
checks the outputs), each measurement runs once per round in a fixed
rotation. A folder of up to 10,000 notes gets 15 rounds, a larger one 9
(--runs or $BENCH_RUNS sets one number for every size): a warm read of
5,000 notes takes about 30 ms, of which a hiccup of the shared machine can
be a fifth, and with 5 rounds a ratio of two such medians moved by a tenth
or more from one run of the bench to the next; at 50,000 notes ripgrep's
own rounds spread from 0.22 to 0.47 s in one run (the text query's from
0.24 to 0.27 s), and the median of 5 went from 0.23 to 0.31 s between
runs. A round takes about 2 s at 5,000 notes and 20 s at 50,000.
  rg -c         rg -c '\\[[ xX]\\]' over the notes (it reads .gitignore too): the floor
  cmark-gfm     cmark-gfm -e tasklist over every note, one process on core 0
  query cold    tick query 'open and due <= +7d' --json, XDG_CACHE_HOME empty
  query json    the same, warm cache          query text   the same, as text
  today         tick today                    home         tick
  today color   tick today --color always, COLORTERM=truecolor, COLUMNS=120
                (what a 120-column terminal shows: rows that do not fit are cut)
  lists         tick lists                    show name    tick show "LIST NAME"
  done title    tick done "ITEM TITLE" (then reopen, untimed, which restores the file)
  export ics    tick export --format ics open
  after edit    the warm query right after one note was rewritten (as an editor saves it)

Every tick run gets TICK_TODAY=2026-11-21, an explicit --dir, NO_COLOR and
no COLUMNS (but "today color");
stdout goes to /dev/null. Wall time is taken around each process; peak
memory is that process's own ru_maxrss from os.wait4. The report shows, per
size, the median of the rounds, its ratio to rg's median and the largest
peak RSS, then issue 15's targets, PASS or FAIL. Results also go to
CORPUS/results.json.

Exit status: 0 when every command succeeded and the cold and warm query
outputs were byte-identical, whatever the targets; 1 otherwise; 2 on bad usage.
"""
import argparse
import datetime
import hashlib
import json
import os
import platform
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TODAY = "2026-11-21"
QUERY = "open and due <= +7d"
# A search by words, as `tick query milk` is typed: items whose titles hold both.
WORD_QUERY = ["roadmap", "sprint"]
TASK_PATTERN = r"\[[ xX]\]"

# Timed rounds when --runs is not given: a small folder's runs are short,
# so the machine's hiccups weigh more in them, and at a large folder
# ripgrep's own rounds spread widely (its threads reading every note):
# enough rounds for medians that hold from one run of the bench to the next.
SMALL_FOLDER_NOTES = 10000
SMALL_FOLDER_ROUNDS = 15
LARGE_FOLDER_ROUNDS = 9


def default_rounds(size):
    return SMALL_FOLDER_ROUNDS if size <= SMALL_FOLDER_NOTES else LARGE_FOLDER_ROUNDS


class CommandFailed(Exception):
    pass


def wait_until_settled(paths):
    """Waits until each file's timestamps are older than tick's settle
    margin (NotesFolder's FileStamp.timestampGranularity: 2 s for whole
    seconds, 50 ms otherwise), with 50 ms to spare."""
    for path in paths:
        info = os.stat(path)
        whole_seconds = info.st_mtime_ns % 1_000_000_000 == 0 and info.st_ctime_ns % 1_000_000_000 == 0
        margin_ns = (2_000_000_000 if whole_seconds else 50_000_000) + 50_000_000
        latest_ns = max(info.st_mtime_ns, info.st_ctime_ns)
        while time.time_ns() <= latest_ns + margin_ns:
            time.sleep(0.01)


def run(argv, env=None, cwd=None, stdout_path=None):
    """Runs argv; returns (seconds, peak RSS in KiB).

    stdout goes to stdout_path, else /dev/null. The child is made with a plain
    fork, not vfork or posix_spawn: Linux carries the high-water RSS of the
    memory a process had before exec into its ru_maxrss, and after vfork that
    is this runner's peak, after fork only the few MB this process has in use
    (the launch floor, measured with /bin/true and reported). Raises
    CommandFailed on a non-zero exit, with the command's stderr."""
    env = dict(os.environ) if env is None else env
    with tempfile.TemporaryFile() as err:
        out = os.open(stdout_path or os.devnull, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            started = time.perf_counter()
            pid = os.fork()
            if pid == 0:  # the child: redirect, then exec; never returns to Python
                try:
                    os.dup2(null, 0)
                    os.dup2(out, 1)
                    os.dup2(err.fileno(), 2)
                    if cwd:
                        os.chdir(cwd)
                    os.execvpe(argv[0], argv, env)
                except BaseException as error:  # noqa: BLE001 - report, then leave the child
                    os.write(2, ("cannot run %s: %s\n" % (argv[0], error)).encode())
                finally:
                    os._exit(127)
            _, status, usage = os.wait4(pid, 0)
            seconds = time.perf_counter() - started
        finally:
            os.close(out)
            os.close(null)
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            err.seek(0)
            message = err.read().decode(errors="replace").strip()
            raise CommandFailed("%s exited %d%s" % (
                " ".join(argv[:6]) + (" ..." if len(argv) > 6 else ""), code,
                ": " + message[-2000:] if message else ""))
    return seconds, usage.ru_maxrss


def same_bytes(first, second):
    return os.path.getsize(first) == os.path.getsize(second) and sha256(first) == sha256(second)


def tick_env(cache_dir, color=False):
    env = {key: value for key, value in os.environ.items()
           if key not in ("TICK_DIR", "TICK_TODAY", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME")}
    env["TICK_TODAY"] = TODAY
    env["XDG_CACHE_HOME"] = cache_dir
    # The undo journal of done and reopen, and no user settings.
    env["XDG_STATE_HOME"] = os.path.join(cache_dir, "state")
    env["XDG_CONFIG_HOME"] = os.path.join(cache_dir, "config")
    if color:
        # As in a terminal of 120 columns with 24-bit color (the output
        # still goes to a file): rows wider than the terminal are cut.
        env.pop("NO_COLOR", None)
        env["COLORTERM"] = "truecolor"
        env["COLUMNS"] = "120"
    else:
        # Output that is not a terminal, whatever the shell exports.
        env["NO_COLOR"] = "1"
        env.pop("COLUMNS", None)
    return env


def chunk_arguments(head, paths, limit):
    """Splits paths into as few argument lists after head as fit in limit bytes."""
    chunks, current, size = [], [], sum(len(a) + 1 for a in head)
    base = size
    for path in paths:
        cost = len(path) + 1 + 8  # the string, its NUL and its argv pointer
        if current and size + cost > limit:
            chunks.append(current)
            current, size = [], base
        current.append(path)
        size += cost
    if current:
        chunks.append(current)
    return [head + chunk for chunk in chunks]


def cpu_usage():
    """(wall seconds, CPU seconds busy on the whole machine, CPU seconds of
    this runner and its children), for other_cpu_share."""
    try:
        with open("/proc/stat") as handle:
            fields = [int(f) for f in handle.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    busy = (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")  # guest time is already in user
    own = sum(resource.getrusage(who).ru_utime + resource.getrusage(who).ru_stime
              for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return time.monotonic(), busy, own


def other_cpu_share(before, after):
    """The share of all CPUs that processes other than this run used between
    two cpu_usage() readings: a busy machine makes the figures noisy."""
    if before is None or after is None or after[0] <= before[0]:
        return None
    others = (after[1] - before[1]) - (after[2] - before[2])
    return max(0.0, others / ((after[0] - before[0]) * (os.cpu_count() or 1)))


def machine():
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    memory = None
    try:
        with open("/proc/meminfo") as handle:
            for line in handle:
                if line.startswith("MemTotal:"):
                    memory = round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "cpus_usable": len(os.sched_getaffinity(0)),
            "cpu_model": model, "memory_gib": memory, "kernel": platform.release()}


def version(argv):
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=30).stdout.strip().splitlines()[0]
    except (OSError, IndexError, subprocess.SubprocessError):
        return "unknown"


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def tick_json(tick, args, folder, cache, scratch, script):
    """Runs tick ARGS (which print JSON) into a file and reads it in a separate Python
    process (this one stays small, see run) with SCRIPT, which gets the
    document as `data` and prints one JSON value."""
    output = os.path.join(scratch, "lookup.json")
    run([tick] + args + ["--dir", folder], env=tick_env(cache), stdout_path=output)
    code = "import json, sys\ndata = json.load(open(sys.argv[1], encoding='utf-8'))\n" + script
    result = subprocess.run([sys.executable, "-c", code, output], capture_output=True, text=True)
    os.remove(output)
    if result.returncode != 0:
        raise CommandFailed("cannot read tick's JSON: %s" % result.stderr.strip()[-2000:])
    return json.loads(result.stdout)


# What each row runs: (key, label, is tick, warm read command compared with rg).
ROWS = (
    ("ripgrep", "rg -c (floor)", False, False),
    ("cmark_gfm", "cmark-gfm, 1 core (floor)", False, False),
    ("query_cold", "query --json, empty cache", True, False),
    ("query_json", "query --json", True, True),
    ("query_text", "query (text)", True, True),
    ("query_words", "query roadmap sprint (words)", True, False),
    ("today", "today", True, True),
    ("today_color", "today, 120 columns, in color", True, False),
    ("home", "tick (home)", True, True),
    ("lists", "lists", True, True),
    ("show_name", "show LIST by name", True, True),
    ("done_title", "done ITEM by title", True, True),
    ("export_ics", "export --format ics open", True, True),
    ("agenda", "agenda", True, False),
    ("check", "check", True, False),
    ("after_edit", "query right after an edit", True, False),
)


class SizeBench:
    """The measurements at one size of notes folder."""

    def __init__(self, tick, corpus, size, runs, work):
        self.tick = tick
        self.size = size
        self.notes = os.path.join(corpus, "notes-%d" % size)
        self.runs = runs
        self.work = os.path.join(work, "size-%d" % size)
        self.samples = {}
        self.rss = {}
        self.commands = {}
        self.edit_round = 0

    def prepare(self):
        if not os.path.isdir(os.path.join(self.notes, ".git")):
            raise CommandFailed("missing %s (a git work tree): run bench/generate_corpus.py" % self.notes)
        os.makedirs(self.work)
        self.caches = os.path.join(self.work, "caches")
        os.makedirs(self.caches)
        self.warm_cache = self.cache_dir("warm")
        listed = subprocess.run(["git", "ls-files", "*.md"], cwd=self.notes, capture_output=True, text=True, check=True)
        self.note_paths = sorted(listed.stdout.split())
        self.note_bytes = sum(os.path.getsize(os.path.join(self.notes, p)) for p in self.note_paths)
        limit = os.sysconf("SC_ARG_MAX") - 64 * 1024
        self.cmark_argvs = chunk_arguments(["taskset", "-c", "0", "cmark-gfm", "-e", "tasklist"], self.note_paths, limit)
        # A list to show by name and an item to complete by title, both
        # unique in the folder, found from tick's own JSON.
        lookup = self.cache_dir("lookup")
        self.list_name = tick_json(self.tick, ["lists", "--json"], self.notes, lookup, self.work, (
            "names = [l['name'] for l in data['lists']]\n"
            "print(json.dumps(next(n for n in names[len(names) // 2:] if names.count(n) == 1 and n.startswith('Note'))))\n"))
        # (A title names one item when no other item, open or not, contains it.)
        self.done_item = tick_json(self.tick, ["export", "--format", "json"], self.notes, lookup, self.work, (
            "items = data['items']\n"
            "titles = [i['title'].lower() for i in items]\n"
            "def unique(t): return sum(1 for other in titles if t in other) == 1\n"
            "print(json.dumps(next({'title': i['title'], 'path': i['path'], 'line': i['line']}\n"
            "    for i in items[len(items) // 2:] if i['status'] == 'open' and i['depth'] == 0 and not i['every']\n"
            "    and len(i['title'].split()) >= 7 and unique(i['title'].lower()))))\n"))
        self.done_path = os.path.join(self.notes, self.done_item["path"])
        self.done_hash = sha256(self.done_path)
        self.edit_path = os.path.join(self.notes, self.note_paths[len(self.note_paths) // 3])
        with open(self.edit_path, "rb") as handle:
            self.edit_original = handle.read()

    def cache_dir(self, name):
        path = os.path.join(self.caches, name)
        os.makedirs(path, exist_ok=True)
        return path

    def record(self, key, seconds, rss, timed, argv):
        self.commands[key] = " ".join(shlex.quote(a) for a in argv)
        if timed:
            self.samples.setdefault(key, []).append(seconds)
            self.rss.setdefault(key, []).append(rss)

    def tick_run(self, key, args, timed, cache=None, output=None, color=False):
        argv = [self.tick] + args + ["--dir", self.notes]
        seconds, rss = run(argv, env=tick_env(cache or self.warm_cache, color), stdout_path=output)
        self.record(key, seconds, rss, timed, argv)

    # -- measurements -----------------------------------------------------------

    def ripgrep(self, timed):
        env = {k: v for k, v in os.environ.items() if k != "RIPGREP_CONFIG_PATH"}
        argv = ["rg", "-c", TASK_PATTERN, self.notes]
        seconds, rss = run(argv, env=env)
        self.record("ripgrep", seconds, rss, timed, argv)

    def cmark(self, timed):
        seconds, rss = 0.0, 0
        for argv in self.cmark_argvs:
            part, part_rss = run(argv, cwd=self.notes)
            seconds += part
            rss = max(rss, part_rss)
        self.record("cmark_gfm", seconds, rss, timed, self.cmark_argvs[0][:6] + [
            "<%d paths, %d process(es)>" % (len(self.note_paths), len(self.cmark_argvs))])

    def query_cold(self, timed, output=None):
        cache = tempfile.mkdtemp(prefix="cold-", dir=self.caches)
        try:
            self.tick_run("query_cold", ["query", QUERY, "--json"], timed, cache=cache, output=output)
        finally:
            shutil.rmtree(cache, ignore_errors=True)

    def reads(self, timed):
        self.tick_run("query_json", ["query", QUERY, "--json"], timed)
        self.tick_run("query_text", ["query", QUERY], timed)
        self.tick_run("query_words", ["query"] + WORD_QUERY, timed)
        self.tick_run("today", ["today"], timed)
        self.tick_run("today_color", ["today", "--color", "always"], timed, color=True)
        self.tick_run("home", [], timed)
        self.tick_run("lists", ["lists"], timed)
        self.tick_run("show_name", ["show", self.list_name], timed)
        self.tick_run("export_ics", ["export", "--format", "ics", "open"], timed)
        self.tick_run("agenda", ["agenda"], timed)
        self.tick_run("check", ["check"], timed)

    def done_title(self, timed):
        title = self.done_item["title"]
        self.tick_run("done_title", ["done", title], timed)
        if sha256(self.done_path) == self.done_hash:
            raise CommandFailed("tick done %r changed nothing in %s" % (title, self.done_item["path"]))
        run([self.tick, "reopen", "%s:%d" % (self.done_item["path"], self.done_item["line"]), "--dir", self.notes],
            env=tick_env(self.warm_cache))
        if sha256(self.done_path) != self.done_hash:
            raise CommandFailed("tick done then reopen of %r did not give back the same bytes" % title)

    def after_edit(self, timed):
        # An editor saves one note (a new item at its end); the next query sees it.
        self.edit_round += 1
        with open(self.edit_path, "wb") as handle:
            handle.write(self.edit_original + ("- [ ] bench edit %d due:%s\n" % (self.edit_round, TODAY)).encode())
        try:
            self.tick_run("after_edit", ["query", QUERY, "--json"], timed)
        finally:
            with open(self.edit_path, "wb") as handle:
                handle.write(self.edit_original)
        # Primed again (untimed) once the notes written this round (this one,
        # and the one `done` and `reopen` rewrote) are settled: tick keeps a
        # file's entry unsettled while its timestamps are within their
        # granularity of the scan (50 ms, or 2 s for whole seconds), and
        # parses it again on the next run. Primed at once, the next round's
        # first warm read would parse them again and save the cache: an edit
        # measured, not a warm read.
        wait_until_settled([self.edit_path, self.done_path])
        run([self.tick, "query", QUERY, "--json", "--dir", self.notes], env=tick_env(self.warm_cache))

    def warm_up(self):
        outputs = [os.path.join(self.work, name) for name in ("priming.json", "warm.json", "cold.json")]
        self.tick_run("query_json", ["query", QUERY, "--json"], False, output=outputs[0])
        self.tick_run("query_json", ["query", QUERY, "--json"], False, output=outputs[1])
        self.query_cold(False, outputs[2])
        self.outputs_identical = same_bytes(outputs[2], outputs[1]) and same_bytes(outputs[2], outputs[0])
        self.query_output_bytes = os.path.getsize(outputs[2])
        for output in outputs:
            os.remove(output)
        self.ripgrep(False)
        self.cmark(False)
        self.reads(False)
        self.done_title(False)
        self.after_edit(False)

    def rounds(self):
        rotation = (self.ripgrep, self.cmark, self.query_cold, self.reads, self.done_title, self.after_edit)
        for number in range(1, self.runs + 1):
            print("%d notes: round %d/%d" % (self.size, number, self.runs), file=sys.stderr, flush=True)
            for measure in rotation:
                measure(True)

    def summary(self):
        rows = {}
        floor = statistics.median(self.samples["ripgrep"])
        for key, label, is_tick, _ in ROWS:
            samples = self.samples[key]
            median = statistics.median(samples)
            rows[key] = {"label": label, "tick": is_tick, "command": self.commands[key],
                         "median_s": median, "min_s": min(samples), "max_s": max(samples),
                         "vs_rg": median / floor, "peak_rss_mb": max(self.rss[key]) * 1024 / 1e6,
                         "samples_s": samples, "rss_kib": self.rss[key]}
        targets = []

        def target(description, value, limit, detail):
            targets.append({"size": self.size, "description": description, "value": value, "limit": limit,
                            "pass": value <= limit, "detail": detail})
        for key, label, _, warm in ROWS:
            if warm:
                target("%s / rg" % label, rows[key]["vs_rg"], 1.0, "%.3f s" % rows[key]["median_s"])
        target("query --json, empty cache / cmark-gfm", rows["query_cold"]["median_s"] / rows["cmark_gfm"]["median_s"], 0.5,
               "%.3f s / %.3f s" % (rows["query_cold"]["median_s"], rows["cmark_gfm"]["median_s"]))
        target("query right after an edit / rg", rows["after_edit"]["vs_rg"], 1.5, "%.3f s" % rows["after_edit"]["median_s"])
        if self.size >= 50000:
            worst = max((r for r in rows.values() if r["tick"]), key=lambda r: r["peak_rss_mb"])
            target("peak RSS of any tick run (MB)", worst["peak_rss_mb"], 200.0, "largest: %s" % worst["label"])
        return rows, targets


def print_report(benches, results, info):
    m = info["machine"]
    print()
    print("tick benchmark: %s" % info["tick_version"])
    print("machine: %s cores (%s usable), %s, %s GiB" % (m["nproc"], m["cpus_usable"], m["cpu_model"], m["memory_gib"]))
    others = info["other_processes_cpu_share"]
    if others is not None:
        print("other processes used %.0f%% of the CPUs during the run%s" % (
            100 * others, "  WARNING: the machine was busy, the figures are noisy" if others > 0.05 else ""))
    print("peak RSS: each process's own ru_maxrss (os.wait4); launch floor %.1f MB (/bin/true)" % info["launch_floor_rss_mb"])
    for bench in benches:
        rows, _ = results[bench.size]
        print()
        print("%d notes, %.1f MB, a git work tree with a .gitignore; %d rounds, interleaved; query output %.1f MB" % (
            len(bench.note_paths), bench.note_bytes / 1e6, bench.runs, bench.query_output_bytes / 1e6))
        header = "%-30s %9s %9s %9s %8s %12s" % ("measurement", "median s", "min s", "max s", "× rg", "peak RSS MB")
        print(header)
        print("-" * len(header))
        for key, _, _, _ in ROWS:
            row = rows[key]
            print("%-30s %9.3f %9.3f %9.3f %8.2f %12.1f" % (
                row["label"], row["median_s"], row["min_s"], row["max_s"], row["vs_rg"], row["peak_rss_mb"]))
    print()
    print("targets (issue 15; ratios of medians, one run):")
    for bench in benches:
        for target in results[bench.size][1]:
            unit = "" if "MB" in target["description"] else "x"
            print("  %-4s %6d notes  %-44s %8.2f%s  (limit %s%s; %s)" % (
                "PASS" if target["pass"] else "FAIL", target["size"], target["description"], target["value"], unit,
                ("%.1f" % target["limit"]).rstrip("0").rstrip("."), unit, target["detail"]))
    print()
    for bench in benches:
        print("%d notes: cold and warm query outputs byte-identical: %s" % (bench.size, "yes" if bench.outputs_identical else "NO"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tick", default=".build/release/tick", help="the tick binary (default: %(default)s)")
    parser.add_argument("--corpus", default="/tmp/tick-bench", help="generate_corpus.py's output (default: %(default)s)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[5000, 50000], help="notes folders to measure")
    runs_given = os.environ.get("BENCH_RUNS")
    parser.add_argument("--runs", type=int, default=int(runs_given) if runs_given else None,
                        help="timed rounds at each size (default: $BENCH_RUNS, else %d up to %d notes and %d above)" % (
                            SMALL_FOLDER_ROUNDS, SMALL_FOLDER_NOTES, LARGE_FOLDER_ROUNDS))
    parser.add_argument("--results", help="JSON results file (default: CORPUS/results.json)")
    args = parser.parse_args()
    if args.runs is not None and args.runs < 1:
        parser.error("--runs must be at least 1")
    for tool in ("rg", "cmark-gfm", "taskset", "git"):
        if not shutil.which(tool):
            print("run_bench: %s not found (make bench installs it)" % tool, file=sys.stderr)
            return 1
    if not os.access(args.tick, os.X_OK):
        print("run_bench: no tick binary at %s (swift build -c release)" % args.tick, file=sys.stderr)
        return 1
    tick = os.path.abspath(args.tick)
    corpus = os.path.abspath(args.corpus)
    results_path = args.results or os.path.join(corpus, "results.json")
    if os.path.exists(results_path):
        os.remove(results_path)  # no stale results after a failed run
    work = tempfile.mkdtemp(prefix="run-", dir=corpus)
    benches = [SizeBench(tick, corpus, size, args.runs or default_rounds(size), work) for size in args.sizes]
    usage_before = cpu_usage()
    results = {}
    try:
        for bench in benches:
            bench.prepare()
            bench.warm_up()
            bench.rounds()
            results[bench.size] = bench.summary()
    except CommandFailed as failure:
        print("run_bench: FAILED: %s" % failure, file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    info = {
        "other_processes_cpu_share": other_cpu_share(usage_before, cpu_usage()),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": machine(),
        "tick": tick,
        "tick_version": version([tick, "--version"]),
        "cmark_gfm_version": version(["cmark-gfm", "--version"]),
        "ripgrep_version": version(["rg", "--version"]),
        "today": TODAY,
        "query": QUERY,
        "launch_floor_rss_mb": max(run(["true"])[1] for _ in range(3)) * 1024 / 1e6,
    }
    print_report(benches, results, info)
    with open(results_path, "w") as handle:
        json.dump({"info": info, "sizes": {str(size): {"measurements": rows, "targets": targets,
                                                        "list_name": bench.list_name, "done_item": bench.done_item,
                                                        "outputs_identical": bench.outputs_identical}
                                           for bench in benches for size, (rows, targets) in [(bench.size, results[bench.size])]}},
                  handle, indent=2)
        handle.write("\n")
    print("results written to %s" % results_path)
    if not all(bench.outputs_identical for bench in benches):
        print("run_bench: FAILED: the cold and warm query outputs differ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
