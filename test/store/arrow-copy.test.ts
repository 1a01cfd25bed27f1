// LanceDB requires apache-arrow's CommonJS build. The store must use that same copy: importing
// the package from ESM as well loaded Arrow a second time (its ESM build), ~150 ms of every
// cold CLI start. Checked on a bundle, as the CLI runs, with a resolve hook that reports every
// ESM resolution of apache-arrow.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";

const repo = join(dirname(fileURLToPath(import.meta.url)), "../..");
const cache = join(repo, "test", ".cache");
mkdirSync(cache, { recursive: true });
// Inside the repository, so the bundle finds node_modules as dist/ does.
const dir = mkdtempSync(join(cache, "arrow-copy-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("apache-arrow in the store", () => {
  it("loads one Arrow, the CommonJS build LanceDB uses", async () => {
    writeFileSync(
      join(dir, "entry.ts"),
      `import { chunkSchema, openLanceStore } from ${JSON.stringify(join(repo, "core/store/lancedb.ts"))};
const store = await openLanceStore({ uri: ${JSON.stringify(join(dir, "db"))}, tableName: "chunks", dimension: 4 });
await store.close();
console.log(chunkSchema(4).fields.length);
`,
    );
    await build({ entryPoints: [join(dir, "entry.ts")], outfile: join(dir, "entry.mjs"), bundle: true, platform: "node", format: "esm", packages: "external", logLevel: "error" });
    writeFileSync(
      join(dir, "hooks.mjs"),
      `export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.includes("/apache-arrow/")) process.stderr.write("esm-arrow " + resolved.url + "\\n");
  return resolved;
}
`,
    );
    writeFileSync(join(dir, "register.mjs"), `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(join(dir, "hooks.mjs")).href)});\n`);
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["--import", pathToFileURL(join(dir, "register.mjs")).href, join(dir, "entry.mjs")], {
      cwd: dir,
      env: { ...process.env, LANCEDB_LOG: "error" },
    });
    expect(stdout.trim()).toBe("7");
    expect(stderr).not.toContain("esm-arrow");
  }, 60_000);
});
