// Runs a command the way a user does (spawned, from its folder) and measures it from outside:
// wall seconds from spawn to exit and peak RSS as the OS counts it, never the JS heap: the
// largest of its processes (ru_maxrss of a Python parent's children) and, sampled every 5 ms on
// Linux, the most all of its processes held at once (a launcher and the child it waits for).
// Used by the sections that compare a first index with the pure-Python BM25 floor in the same run.
import { execFileSync } from "node:child_process";

const PROBE =
  "import json,os,resource,subprocess,sys,threading,time\n" +
  "page=os.sysconf('SC_PAGE_SIZE')\n" +
  "def tree(pid):\n" +
  "  out=[pid]\n" +
  "  for task in os.listdir(f'/proc/{pid}/task'):\n" +
  "    for c in open(f'/proc/{pid}/task/{task}/children').read().split(): out+=tree(int(c))\n" +
  "  return out\n" +
  "def rss(pid):\n" +
  "  return int(open(f'/proc/{pid}/statm').read().split()[1])*page\n" +
  "t=time.perf_counter(); p=subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)\n" +
  "most=[0]\n" +
  "def sample():\n" +
  "  while p.poll() is None:\n" +
  "    try: most[0]=max(most[0], sum(rss(x) for x in tree(p.pid)))\n" +
  "    except OSError: pass\n" +
  "    time.sleep(0.005)\n" +
  "th=threading.Thread(target=sample, daemon=True)\n" +
  "if os.path.exists('/proc/self/task'): th.start()\n" +
  "err=p.stderr.read(); p.wait(); w=time.perf_counter()-t\n" +
  "if p.returncode: sys.stderr.write(err.decode()); sys.exit(p.returncode)\n" +
  "print(json.dumps({'s': w, 'rssMb': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss/1024, 'treeRssMb': most[0]/2**20 or None, 'stderr': err.decode(errors='replace')[-200000:]}))";

/** `{ s, rssMb, treeRssMb, stderr }` of `cmd args` run in `cwd` (treeRssMb: null where it was not sampled). */
export function spawnTimed(cmd, args, cwd, env = {}) {
  const out = execFileSync("python3", ["-c", PROBE, cmd, ...args], {
    cwd,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, LANCEDB_LOG: "error", ...env },
  });
  return JSON.parse(out.trim().split("\n").pop());
}

/** The step timings an `opencode-rag index --debug` run printed, or null. */
export function passTimings(stderr) {
  const line = stderr.split("\n").find((l) => l.startsWith("[debug] index pass timings (ms) "));
  return line ? JSON.parse(line.slice("[debug] index pass timings (ms) ".length)) : null;
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
