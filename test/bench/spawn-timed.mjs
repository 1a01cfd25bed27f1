// Runs a command the way a user does (spawned, from its folder) and measures it from outside:
// wall seconds from spawn to exit and the child's peak RSS as the OS counts it (ru_maxrss of a
// Python parent's children), never the JS heap. Used by the sections that compare a first index
// with the pure-Python BM25 floor in the same run.
import { execFileSync } from "node:child_process";

const PROBE =
  "import json,resource,subprocess,sys,time\n" +
  "t=time.perf_counter(); r=subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)\n" +
  "w=time.perf_counter()-t\n" +
  "if r.returncode: sys.stderr.write(r.stderr.decode()); sys.exit(r.returncode)\n" +
  "print(json.dumps({'s': w, 'rssMb': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss/1024, 'stderr': r.stderr.decode(errors='replace')[-200000:]}))";

/** `{ s, rssMb, stderr }` of `cmd args` run in `cwd`. */
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
