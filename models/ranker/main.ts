// Entry of the ranker pipeline (node models/ranker/run.mjs <collect|train> [options]):
//   collect  --kit DIR --eval-out DIR --data DIR   candidates of every semble-dev query
//   train    --kit DIR --data DIR [--write FILE] [--l2 X] [--iterations N]
// Defaults: kit ../shared/eval/semble-dev, eval-out test/.cache/semble-dev (what
// `npm run eval:semble-dev` lays out and indexes), data test/.cache/ranker.
import { join, resolve } from "node:path";
import { collect } from "./collect.js";
import { loadCollected } from "./data.js";
import { loadPolicy } from "./provenance.js";
import { train } from "./train.js";

const argv = process.argv.slice(2);
const opt = (name: string, fallback: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
// Bundled to test/.cache/ranker.mjs: two levels up is the repository.
const repoRoot = resolve(new URL("../..", import.meta.url).pathname);
const kit = resolve(opt("kit", join(repoRoot, "..", "shared", "eval", "semble-dev")));
const data = resolve(opt("data", join(repoRoot, "test", ".cache", "ranker")));

if (argv[0] === "collect") {
  await collect(kit, resolve(opt("eval-out", join(repoRoot, "test", ".cache", "semble-dev"))), data);
} else if (argv[0] === "train") {
  const fit: Record<string, number> = {};
  for (const k of ["l2", "iterations", "learningRate", "deltaL2Factor", "depth"]) if (argv.includes(`--${k}`)) fit[k] = Number(opt(k, "0"));
  train(loadCollected(data), loadPolicy(join(kit, "..")), { write: argv.includes("--write") ? resolve(opt("write", "")) : undefined, fit });
} else {
  console.error("usage: node models/ranker/run.mjs collect|train [--kit DIR] [--data DIR] [--write FILE]");
  process.exit(2);
}
