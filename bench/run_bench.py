#!/usr/bin/env python3
"""Times tick against its floors on the benchmark corpus, interleaved.

    run_bench.py --tick .build/release/tick --corpus /tmp/tick-bench [--runs N]

The corpus is what generate_corpus.py wrote: CORPUS/notes (5,000 notes) and
CORPUS/big/big.md (one 10 MB list). The runner never changes those files: the
edits, `done` and `reopen` run on copies it makes under CORPUS/work.

Measurements, each run once per round in a fixed rotation, after one untimed
warm-up round (which also checks the outputs):
  query cold   tick query 'open and due <= +7d' --json, XDG_CACHE_HOME empty
  query warm   the same, with a cache folder primed by one untimed run
  cmark-gfm    cmark-gfm -e tasklist over every note, one process on core 0
  ripgrep      rg -c '\\[[ xX]\\]' over the notes folder
  edit big     tick edit PATH:LINE --due D in the 5,000-note folder
  edit alone   the same edit in a folder holding only that file
  show big     tick show big.md (text) and tick show big.md --json
  done big     tick done big.md:LINE, then reopen big.md:LINE (also timed)

Every tick run gets TICK_TODAY=2026-11-21 and an explicit --dir; stdout goes to
/dev/null. Wall time is taken around each process; peak memory is that
process's own ru_maxrss from os.wait4. The table shows the median, min and max
of the rounds and the largest peak RSS; then the four targets as ratios of
medians, PASS or FAIL. Results also go to CORPUS/results.json.

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
EDIT_NOTE = "area00/topic00/note0000.md"
EDIT_DATES = ("2026-12-01", "2026-12-02")
TASK_PATTERN = r"\[[ xX]\]"

TARGETS = (
    # (key, description, numerator, denominator or None, limit)
    ("cold_vs_cmark", "cold query / cmark-gfm (one core)", "query_cold", "cmark_gfm", 0.5),
    ("warm_vs_rg", "repeated query / ripgrep", "query_warm", "ripgrep", 1.0),
    ("peak_memory", "peak RSS of any tick run (MB)", None, None, 200.0),
    ("edit_big_vs_alone", "edit in 5,000 notes / edit alone", "edit_big", "edit_alone", 1.3),
)


class CommandFailed(Exception):
    pass


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


def json_summary(path, what):
    """Reads a tick JSON document in a separate Python process, so that this
    one stays small (see run): 'count' gives the number of items, 'first-open'
    the path, line and due date of the first open item."""
    script = (
        "import json, sys\n"
        "items = json.load(open(sys.argv[1], encoding='utf-8'))['items']\n"
        "if sys.argv[2] == 'count':\n"
        "    print(json.dumps(len(items)))\n"
        "else:\n"
        "    print(json.dumps(next(({'path': i['path'], 'line': i['line'], 'due': i['due']}\n"
        "                           for i in items if i['status'] == 'open'), None)))\n")
    result = subprocess.run([sys.executable, "-c", script, path, what], capture_output=True, text=True)
    if result.returncode != 0:
        raise CommandFailed("cannot read tick's JSON in %s: %s" % (path, result.stderr.strip()[-2000:]))
    return json.loads(result.stdout)


def same_bytes(first, second):
    return os.path.getsize(first) == os.path.getsize(second) and sha256(first) == sha256(second)


def tick_env(cache_dir):
    env = {key: value for key, value in os.environ.items()
           if key not in ("TICK_DIR", "TICK_TODAY", "XDG_CACHE_HOME", "NO_COLOR")}
    env["TICK_TODAY"] = TODAY
    env["XDG_CACHE_HOME"] = cache_dir
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


def line_of(path, line):
    with open(path, encoding="utf-8") as handle:
        for number, text in enumerate(handle, 1):
            if number == line:
                return text
    return ""


def first_open_item(tick, folder, list_name, cache, scratch):
    output = os.path.join(scratch, "show.json")
    run([tick, "show", list_name, "--json", "--dir", folder], env=tick_env(cache), stdout_path=output)
    item = json_summary(output, "first-open")
    os.remove(output)
    if item is None:
        raise CommandFailed("no open item in %s" % list_name)
    return item


class Bench:
    def __init__(self, tick, corpus, runs):
        self.tick = os.path.abspath(tick)
        self.corpus = os.path.abspath(corpus)
        self.notes = os.path.join(self.corpus, "notes")
        self.big_source = os.path.join(self.corpus, "big")
        self.runs = runs
        self.work = os.path.join(self.corpus, "work")
        self.samples = {}   # key -> list of seconds
        self.rss = {}       # key -> list of KiB
        self.commands = {}  # key -> the command line, for results.json
        self.edit_round = 0

    # -- set-up ---------------------------------------------------------------

    def prepare(self):
        for path in (self.notes, os.path.join(self.big_source, "big.md")):
            if not os.path.exists(path):
                raise CommandFailed("missing %s: run bench/generate_corpus.py %s first" % (path, self.corpus))
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)
        self.caches = os.path.join(self.work, "caches")
        os.makedirs(self.caches)
        # The edits and done/reopen change files: they work on copies.
        self.edit_big = os.path.join(self.work, "edit-big")
        shutil.copytree(self.notes, self.edit_big)
        self.edit_alone = os.path.join(self.work, "edit-alone")
        os.makedirs(os.path.dirname(os.path.join(self.edit_alone, EDIT_NOTE)))
        shutil.copy2(os.path.join(self.notes, EDIT_NOTE), os.path.join(self.edit_alone, EDIT_NOTE))
        self.big = os.path.join(self.work, "big")
        shutil.copytree(self.big_source, self.big)
        self.big_hash = sha256(os.path.join(self.big, "big.md"))

        self.note_paths = sorted(
            os.path.relpath(os.path.join(root, name), self.notes)
            for root, _, names in os.walk(self.notes) for name in names if name.endswith(".md"))
        self.note_bytes = sum(os.path.getsize(os.path.join(self.notes, p)) for p in self.note_paths)

        # Persistent cache folders: the warm query's, and one per edit folder.
        self.warm_cache = self.cache_dir("warm")
        self.edit_big_cache = self.cache_dir("edit-big")
        self.edit_alone_cache = self.cache_dir("edit-alone")

        # The items edited, found once from tick's own JSON.
        cache = self.cache_dir("lookup")
        item = first_open_item(self.tick, self.notes, EDIT_NOTE, cache, self.work)
        self.edit_item = "%s:%d" % (item["path"], item["line"])
        self.edit_line = item["line"]
        big_item = first_open_item(self.tick, self.big, "big.md", cache, self.work)
        self.big_item = "%s:%d" % (big_item["path"], big_item["line"])
        self.big_line = big_item["line"]

        limit = os.sysconf("SC_ARG_MAX") - 64 * 1024  # room for the environment
        self.cmark_argvs = chunk_arguments(["taskset", "-c", "0", "cmark-gfm", "-e", "tasklist"],
                                           self.note_paths, limit)

    def cache_dir(self, name):
        path = os.path.join(self.caches, name)
        os.makedirs(path, exist_ok=True)
        return path

    def fresh_cache(self):
        return tempfile.mkdtemp(prefix="cold-", dir=self.caches)

    # -- measurements -----------------------------------------------------------

    def record(self, key, seconds, rss, timed, argv):
        self.commands[key] = " ".join(shlex.quote(a) for a in argv)
        if timed:
            self.samples.setdefault(key, []).append(seconds)
            self.rss.setdefault(key, []).append(rss)

    def tick_argv(self, *args):
        return [self.tick] + list(args)

    def query_argv(self, folder):
        return self.tick_argv("query", QUERY, "--json", "--dir", folder)

    def tick_cold(self, key, argv, timed, output=None):
        """Runs tick with an empty cache folder, made for this run alone."""
        cache = self.fresh_cache()
        try:
            seconds, rss = run(argv, env=tick_env(cache), stdout_path=output)
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        self.record(key, seconds, rss, timed, argv)

    def query_cold(self, timed, output=None):
        self.tick_cold("query_cold", self.query_argv(self.notes), timed, output)

    def query_warm(self, timed, output=None):
        argv = self.query_argv(self.notes)
        seconds, rss = run(argv, env=tick_env(self.warm_cache), stdout_path=output)
        self.record("query_warm", seconds, rss, timed, argv)

    def cmark(self, timed):
        seconds, rss = 0.0, 0
        for argv in self.cmark_argvs:
            part, part_rss = run(argv, cwd=self.notes)
            seconds += part
            rss = max(rss, part_rss)
        self.record("cmark_gfm", seconds, rss, timed, self.cmark_argvs[0][:6] + [
            "<%d paths, %d process(es)>" % (len(self.note_paths), len(self.cmark_argvs))])

    def ripgrep(self, timed):
        env = {k: v for k, v in os.environ.items() if k != "RIPGREP_CONFIG_PATH"}
        argv = ["rg", "-c", TASK_PATTERN, self.notes]
        seconds, rss = run(argv, env=env)
        self.record("ripgrep", seconds, rss, timed, argv)

    def edits(self, timed):
        # Every run writes: the due date alternates between two dates.
        date = EDIT_DATES[self.edit_round % 2]
        self.edit_round += 1
        for key, folder, cache in (("edit_big", self.edit_big, self.edit_big_cache),
                                   ("edit_alone", self.edit_alone, self.edit_alone_cache)):
            argv = self.tick_argv("edit", self.edit_item, "--due", date, "--dir", folder)
            seconds, rss = run(argv, env=tick_env(cache))
            line = line_of(os.path.join(folder, EDIT_NOTE), self.edit_line)
            if date not in line:
                raise CommandFailed("tick edit %s --due %s in %s left the line as %r" % (
                    self.edit_item, date, folder, line))
            self.record(key, seconds, rss, timed, argv)

    def show_big(self, timed):
        self.tick_cold("show_big", self.tick_argv("show", "big.md", "--color", "never", "--dir", self.big), timed)
        self.tick_cold("show_big_json", self.tick_argv("show", "big.md", "--json", "--dir", self.big), timed)

    def done_big(self, timed):
        path = os.path.join(self.big, "big.md")
        for key, verb, box in (("done_big", "done", "- [x]"), ("reopen_big", "reopen", "- [ ]")):
            self.tick_cold(key, self.tick_argv(verb, self.big_item, "--dir", self.big), timed)
            line = line_of(path, self.big_line)
            if not line.startswith(box):
                raise CommandFailed("tick %s %s left the line as %r" % (verb, self.big_item, line))
        if sha256(path) != self.big_hash:
            raise CommandFailed("tick done then reopen of %s did not give back the same bytes" % self.big_item)

    # -- the run ------------------------------------------------------------------

    def warm_up(self):
        """Round 0, untimed: primes the caches and checks the outputs."""
        outputs = [os.path.join(self.work, name) for name in ("query-priming.json", "query-warm.json",
                                                             "query-cold.json")]
        self.query_warm(False, outputs[0])   # primes the warm cache
        self.query_warm(False, outputs[1])
        self.query_cold(False, outputs[2])
        self.outputs_identical = same_bytes(outputs[2], outputs[1]) and same_bytes(outputs[2], outputs[0])
        self.query_items = json_summary(outputs[2], "count")
        self.query_output_bytes = os.path.getsize(outputs[2])
        for output in outputs:
            os.remove(output)
        self.cache_files = sum(len(names) for _, _, names in os.walk(self.warm_cache))
        # Edit folders get a cache as a user's would have: primed by one query.
        for folder, cache in ((self.edit_big, self.edit_big_cache), (self.edit_alone, self.edit_alone_cache)):
            run(self.query_argv(folder), env=tick_env(cache))
        self.cmark(False)
        self.ripgrep(False)
        self.edits(False)
        self.show_big(False)
        self.done_big(False)

    def rounds(self):
        rotation = (self.query_cold, self.query_warm, self.cmark, self.ripgrep,
                    self.edits, self.show_big, self.done_big)
        for number in range(1, self.runs + 1):
            print("round %d/%d" % (number, self.runs), file=sys.stderr, flush=True)
            for measure in rotation:
                measure(True)
        # The launch floor (see run), after everything: a tick figure at or
        # near it only says that tick used no more than that.
        self.launch_floor_kib = max(run(["true"])[1] for _ in range(3))

    def restore(self):
        shutil.rmtree(self.work, ignore_errors=True)


ROWS = (
    ("query_cold", "tick query, empty cache", True),
    ("query_warm", "tick query, warm cache", True),
    ("cmark_gfm", "cmark-gfm -e tasklist, 1 core", False),
    ("ripgrep", "rg -c '\\[[ xX]\\]'", False),
    ("edit_big", "tick edit, 5,000-note folder", True),
    ("edit_alone", "tick edit, file alone", True),
    ("show_big", "tick show big.md (text)", True),
    ("show_big_json", "tick show big.md --json", True),
    ("done_big", "tick done big.md:LINE", True),
    ("reopen_big", "tick reopen big.md:LINE", True),
)


def summarise(bench):
    rows = {}
    for key, label, is_tick in ROWS:
        samples = bench.samples[key]
        rows[key] = {
            "label": label, "tick": is_tick, "command": bench.commands[key],
            "median_s": statistics.median(samples), "min_s": min(samples), "max_s": max(samples),
            "peak_rss_mb": max(bench.rss[key]) * 1024 / 1e6,
            "samples_s": samples, "rss_kib": bench.rss[key],
        }
    targets = []
    for key, description, numerator, denominator, limit in TARGETS:
        if numerator:
            value = rows[numerator]["median_s"] / rows[denominator]["median_s"]
            detail = "%.3f s / %.3f s" % (rows[numerator]["median_s"], rows[denominator]["median_s"])
        else:
            worst = max((r for r in rows.values() if r["tick"]), key=lambda r: r["peak_rss_mb"])
            value = worst["peak_rss_mb"]
            detail = "largest: %s" % worst["label"]
        targets.append({"key": key, "description": description, "value": value, "limit": limit,
                        "pass": value <= limit, "detail": detail})
    return rows, targets


def print_report(bench, rows, targets, info):
    m = info["machine"]
    print()
    print("tick benchmark: %s" % info["tick_version"])
    print("machine: %s cores (%s usable), %s, %s GiB; %d rounds, interleaved" % (
        m["nproc"], m["cpus_usable"], m["cpu_model"], m["memory_gib"], bench.runs))
    print("corpus: %d notes, %.1f MB; big.md %.1f MB; query matches %d items" % (
        len(bench.note_paths), bench.note_bytes / 1e6, info["big_bytes"] / 1e6, bench.query_items))
    print("cache: %s" % ("%d file(s) in the warm cache folder" % bench.cache_files if bench.cache_files
                         else "tick wrote nothing under XDG_CACHE_HOME (no cache); warm = repeated run"))
    others = info["other_processes_cpu_share"]
    if others is not None:
        print("other processes used %.0f%% of the CPUs during the run%s" % (
            100 * others, "  WARNING: the machine was busy, the figures are noisy" if others > 0.05 else ""))
    print("peak RSS: each process's own ru_maxrss (os.wait4); launch floor %.1f MB (/bin/true)" % (
        bench.launch_floor_kib * 1024 / 1e6))
    print()
    header = "%-34s %9s %9s %9s %12s" % ("measurement", "median s", "min s", "max s", "peak RSS MB")
    print(header)
    print("-" * len(header))
    for key, _, _ in ROWS:
        row = rows[key]
        at_floor = row["peak_rss_mb"] <= bench.launch_floor_kib * 1024 / 1e6 + 1
        print("%-34s %9.3f %9.3f %9.3f %12s" % (
            row["label"], row["median_s"], row["min_s"], row["max_s"],
            "%.1f%s" % (row["peak_rss_mb"], "*" if at_floor else " ")))
    print("* within 1 MB of the launch floor: the process used at most about that much")
    print()
    print("targets (ratios of medians, one run):")
    for target in targets:
        unit = "" if target["key"] == "peak_memory" else "x"
        print("  %-4s %-36s %8.2f%s  (limit %s%s; %s)" % (
            "PASS" if target["pass"] else "FAIL", target["description"], target["value"], unit,
            ("%.1f" % target["limit"]).rstrip("0").rstrip("."), unit, target["detail"]))
    print()
    print("cold and warm query outputs byte-identical: %s" % ("yes" if bench.outputs_identical else "NO"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tick", default=".build/release/tick", help="the tick binary (default: %(default)s)")
    parser.add_argument("--corpus", default="/tmp/tick-bench", help="generate_corpus.py's output (default: %(default)s)")
    parser.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_RUNS", "7")),
                        help="timed rounds (default: $BENCH_RUNS, else 7)")
    parser.add_argument("--results", help="JSON results file (default: CORPUS/results.json)")
    parser.add_argument("--keep-work", action="store_true", help="keep CORPUS/work (the copies and caches)")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    for tool in ("rg", "cmark-gfm", "taskset"):
        if not shutil.which(tool):
            print("run_bench: %s not found (make bench installs it)" % tool, file=sys.stderr)
            return 1
    if not os.access(args.tick, os.X_OK):
        print("run_bench: no tick binary at %s (swift build -c release)" % args.tick, file=sys.stderr)
        return 1

    bench = Bench(args.tick, args.corpus, args.runs)
    results = args.results or os.path.join(bench.corpus, "results.json")
    if os.path.exists(results):
        os.remove(results)  # no stale results after a failed run
    usage_before = cpu_usage()
    try:
        bench.prepare()
        bench.warm_up()
        bench.rounds()
    except CommandFailed as failure:
        print("run_bench: FAILED: %s" % failure, file=sys.stderr)
        return 1
    finally:
        if not args.keep_work:
            bench.restore()

    others = other_cpu_share(usage_before, cpu_usage())
    info = {
        "other_processes_cpu_share": others,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": machine(),
        "tick": bench.tick,
        "tick_version": version([bench.tick, "--version"]),
        "cmark_gfm_version": version(["cmark-gfm", "--version"]),
        "ripgrep_version": version(["rg", "--version"]),
        "runs": bench.runs,
        "today": TODAY,
        "query": QUERY,
        "edit_item": bench.edit_item,
        "big_item": bench.big_item,
        "notes": len(bench.note_paths),
        "note_bytes": bench.note_bytes,
        "big_bytes": os.path.getsize(os.path.join(bench.big_source, "big.md")),
        "cmark_processes_per_run": len(bench.cmark_argvs),
        "query_items": bench.query_items,
        "query_output_bytes": bench.query_output_bytes,
        "warm_cache_files": bench.cache_files,
        "launch_floor_rss_mb": bench.launch_floor_kib * 1024 / 1e6,
        "outputs_identical": bench.outputs_identical,
    }
    rows, targets = summarise(bench)
    print_report(bench, rows, targets, info)
    with open(results, "w") as handle:
        json.dump({"info": info, "measurements": rows, "targets": targets}, handle, indent=2)
        handle.write("\n")
    print("results written to %s" % results)
    if not bench.outputs_identical:
        print("run_bench: FAILED: the cold and warm query outputs differ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
