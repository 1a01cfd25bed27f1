// What the ranker may learn from. Two rules, checked wherever training data is assembled:
//  - nothing from a code base named in ../shared/eval/HELD_OUT.txt, except the semble-dev
//    kit's own repositories, whose queries that file allows a ranker to learn from out of fold;
//  - a semble-dev repository never trains the model that scores it (leave-repos-out folds).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Project names a line of HELD_OUT.txt holds: "activesupport (rails)" → both, "medusajs/medusa" → medusa. */
export function heldOutNames(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*$/, "").trim();
    if (!line) continue;
    for (const part of line.split(/[()]/).map((p) => p.trim()).filter(Boolean)) {
      out.push(part.split("/").pop()!.toLowerCase());
      // "apache commons-lang", "prometheus client_golang": each word may be the project's name.
      for (const w of part.split(/\s+/)) if (w.length >= 3) out.push(w.split("/").pop()!.toLowerCase());
    }
  }
  const generic = new Set(["library", "tree", "framework", "standard", "source", "apache", "golang", "the", "go"]);
  return [...new Set(out)].filter((n) => !generic.has(n));
}

/** The semble-dev repositories (kit repos.json names): the only held-out names a ranker may learn from, out of fold. */
export function sembleDevRepos(kit: string): Set<string> {
  const specs = JSON.parse(readFileSync(join(kit, "repos.json"), "utf8")) as Array<{ name: string }>;
  return new Set(specs.map((s) => s.name.toLowerCase()));
}

export interface TrainingPolicy {
  heldOut: string[];
  devRepos: Set<string>;
}

/** The policy from the evaluation folder holding HELD_OUT.txt and semble-dev/ (../shared/eval). */
export function loadPolicy(shared: string): TrainingPolicy {
  const file = join(shared, "HELD_OUT.txt");
  if (!existsSync(file)) throw new Error(`ranker: ${file} is missing; the held-out list must be present before training`);
  return { heldOut: heldOutNames(readFileSync(file, "utf8")), devRepos: sembleDevRepos(join(shared, "semble-dev")) };
}

/** Throws unless the named code base may train the ranker at all (held out, or a dev repo). */
export function assertTrainable(repo: string, policy: TrainingPolicy): void {
  const name = repo.toLowerCase();
  if (policy.devRepos.has(name)) return;
  if (policy.heldOut.includes(name)) throw new Error(`ranker: ${repo} is held out (HELD_OUT.txt); it may never enter training data`);
}

/**
 * Throws unless a fold is clean: every training repo trainable, and none of the repos it
 * scores among them. The training set of a scored dev repo never holds that repo.
 */
export function assertFold(train: readonly string[], scored: readonly string[], policy: TrainingPolicy): void {
  for (const r of train) assertTrainable(r, policy);
  const trained = new Set(train.map((r) => r.toLowerCase()));
  for (const r of scored) {
    if (trained.has(r.toLowerCase())) throw new Error(`ranker: fold trains on ${r} and scores it; semble-dev repos may enter training only out of fold`);
  }
}
