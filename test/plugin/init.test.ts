import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { withSchemaRef } from "../../cli/commands/init-config.js";
import { AGENTS_END, runInit, withAgentsSection, withGitignoreEntries, withTuiEntry } from "../../cli/commands/init.js";
import { loadConfig } from "../../core/config/load.js";
import { ensureBuilt } from "../indexing/dist-build.js";
import { GUIDANCE_TEXT } from "../../opencode-plugin/guidance.js";
import { tempRoot } from "./helpers.js";

const repo = resolve(".");
const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

/** A project with an opencode-rag package (plugin and TUI builds) installed in node_modules. */
function project(files: Record<string, string> = {}) {
  const root = tempRoot({
    "package.json": '{"name":"sample","private":true}\n',
    "node_modules/opencode-rag/package.json": '{"name":"opencode-rag"}\n',
    "node_modules/opencode-rag/dist/plugin.js": "export default {};\n",
    "node_modules/opencode-rag/dist/tui.js": "export default {};\n",
    "node_modules/opencode-rag/dist/config.schema.json": "{}\n",
    ...files,
  });
  roots.push(root);
  return root;
}

const read = (root: string, rel: string) => readFileSync(join(root, rel), "utf8");

describe("opencode-rag init", () => {
  it("creates the plugin re-export, skill and AGENTS.md section, then changes nothing on a second run", () => {
    const root = project();
    const first = runInit({ root });
    expect(first.pluginLink).toBe("project");
    const actions = Object.fromEntries(first.files.map((f) => [f.path, f.action]));
    expect(actions).toMatchObject({
      ".opencode/plugins/rag-plugin.js": "created",
      ".opencode/tui.json": "created",
      ".opencode/skills/opencode-rag/SKILL.md": "created",
      "AGENTS.md": "created",
      ".gitignore": "created",
      ".opencode/rag.json": "created",
    });
    // A config that only names the schema, by a path that resolves from the config's folder.
    const config = JSON.parse(read(root, ".opencode/rag.json"));
    expect(config).toEqual({ $schema: "../node_modules/opencode-rag/dist/config.schema.json" });
    expect(existsSync(resolve(root, ".opencode", config.$schema))).toBe(true);
    expect(loadConfig({ root }).configFile).toBe(join(root, ".opencode/rag.json"));
    expect(JSON.parse(read(root, ".opencode/tui.json"))).toEqual({ plugin: ["../node_modules/opencode-rag/dist/tui.js"] });
    expect(read(root, ".opencode/plugins/rag-plugin.js")).toContain('import plugin from "opencode-rag/server";\n\nexport default plugin;');
    const skill = read(root, ".opencode/skills/opencode-rag/SKILL.md");
    expect(skill).toMatch(/^---\nname: opencode-rag\ndescription: .+\n---\n/);
    expect(skill).toContain("get_file_skeleton -> find_usages -> search_semantic -> read the exact lines -> edit");
    expect(read(root, "AGENTS.md")).toContain(GUIDANCE_TEXT);

    const snapshot = first.files.map((f) => read(root, f.path));
    const second = runInit({ root });
    expect(second.files.every((f) => f.action === "unchanged" || f.action === "kept")).toBe(true);
    expect(second.files.map((f) => read(root, f.path))).toEqual(snapshot);
  });

  it("keeps the index, model cache and log out of git, adding only missing lines", () => {
    const root = project({ ".gitignore": "node_modules\n/.opencode/rag_db/\n" });
    runInit({ root });
    const ignore = read(root, ".gitignore");
    expect(ignore.startsWith("node_modules\n/.opencode/rag_db/\n")).toBe(true);
    for (const line of ["/.opencode/rag_state/", "/.opencode/rag_models/", "/.opencode/opencode-rag.log"]) expect(ignore.split("\n")).toContain(line);
    expect(ignore.split("\n").filter((l) => l === "/.opencode/rag_db/")).toHaveLength(1);
    expect(withGitignoreEntries(ignore)).toBe(ignore);
  });

  it("keeps the user's AGENTS.md text and replaces only its own section", () => {
    const root = project({ "AGENTS.md": "# Team rules\n\nUse tabs.\n" });
    runInit({ root });
    const once = read(root, "AGENTS.md");
    expect(once.startsWith("# Team rules\n\nUse tabs.\n\n<!-- opencode-rag:begin")).toBe(true);
    // The user edits inside and outside the section; re-running restores only the section.
    writeFileSync(join(root, "AGENTS.md"), once.replace("Use tabs.", "Use spaces.").replace("Anti-patterns:", "Anti-patterns (edited):") + "\n## Later notes\n");
    runInit({ root });
    const twice = read(root, "AGENTS.md");
    expect(twice).toContain("Use spaces.");
    expect(twice).toContain("## Later notes");
    expect(twice).toContain("Anti-patterns:");
    expect(twice.split(AGENTS_END)).toHaveLength(2);
  });

  it("never overwrites a plugin file or skill the user wrote", () => {
    const root = project({ ".opencode/plugins/rag-plugin.js": "export default { id: 'mine', server: async () => ({}) };\n" });
    const result = runInit({ root });
    expect(result.files.find((f) => f.path === ".opencode/plugins/rag-plugin.js")?.action).toBe("kept");
    expect(read(root, ".opencode/plugins/rag-plugin.js")).toContain("id: 'mine'");
  });

  it("links the package by absolute URL when the project does not have it installed", () => {
    ensureBuilt();
    const root = tempRoot();
    roots.push(root);
    const result = runInit({ root, packageDir: repo });
    expect(result.pluginLink).toBe("absolute");
    expect(read(root, ".opencode/plugins/rag-plugin.js")).toContain(`import plugin from ${JSON.stringify(pathToFileURL(join(repo, "dist", "plugin.js")).href)};`);
    expect(JSON.parse(read(root, ".opencode/rag.json")).$schema).toBe(pathToFileURL(join(repo, "dist", "config.schema.json")).href);
  });
});

describe("the config's \"$schema\"", () => {
  it("is added first to the project's own config file, its comments and settings kept", () => {
    const root = project({ "opencode-rag.json": '{\n  // team settings\n  "retrieval": { "topK": 7 }\n}\n' });
    const result = runInit({ root });
    expect(result.files.find((f) => f.path === "opencode-rag.json")?.action).toBe("updated");
    expect(existsSync(join(root, ".opencode/rag.json"))).toBe(false);
    const text = read(root, "opencode-rag.json");
    expect(text).toMatch(/^\{\n {2}"\$schema": "\.\/node_modules\/opencode-rag\/dist\/config\.schema\.json",\n {2}\/\/ team settings\n/);
    expect(loadConfig({ root }).config.retrieval.topK).toBe(7);
    expect(runInit({ root }).files.find((f) => f.path === "opencode-rag.json")?.action).toBe("unchanged");
  });

  it("is left alone when the file names another schema or is not JSON", () => {
    const other = '{ "$schema": "https://example.com/mine.json" }\n';
    const root = project({ ".opencode/rag.json": other });
    expect(runInit({ root }).files.find((f) => f.path === ".opencode/rag.json")).toMatchObject({ action: "kept", note: expect.stringMatching(/another schema/) });
    expect(read(root, ".opencode/rag.json")).toBe(other);
    writeFileSync(join(root, ".opencode/rag.json"), '{ "retrieval": ');
    expect(runInit({ root }).files.find((f) => f.path === ".opencode/rag.json")).toMatchObject({ action: "kept", note: expect.stringMatching(/not valid JSON/) });
    expect(read(root, ".opencode/rag.json")).toBe('{ "retrieval": ');
  });

  it("is moved to node_modules after an earlier init linked a package folder of another name", () => {
    const root = project();
    const checkout = tempRoot({ "package.json": '{"name":"opencode-rag"}\n', "dist/config.schema.json": "{}\n" });
    roots.push(checkout);
    const before = { $schema: pathToFileURL(join(checkout, "dist/config.schema.json")).href, memory: { enabled: false } };
    expect(withSchemaRef(JSON.stringify(before), "../node_modules/opencode-rag/dist/config.schema.json", join(root, ".opencode"))).toEqual({
      text: JSON.stringify({ ...before, $schema: "../node_modules/opencode-rag/dist/config.schema.json" }),
    });
  });
});

describe("tui.json registration", () => {
  it("adds the entry once and keeps comments and other plugins", () => {
    const before = '{\n  // my plugins\n  "plugin": ["./tui/mine.tsx"]\n}\n';
    const after = withTuiEntry(before, "../node_modules/opencode-rag/dist/tui.js", "tui.json");
    expect(after).toContain("// my plugins");
    expect(after).toContain('"./tui/mine.tsx"');
    expect(after).toContain('"../node_modules/opencode-rag/dist/tui.js"');
    expect(withTuiEntry(after, "../node_modules/opencode-rag/dist/tui.js", "tui.json")).toBe(after);
    // A stale entry of ours (an old path) is replaced, not duplicated.
    const moved = withTuiEntry(after, "/opt/opencode-rag/dist/tui.js", "tui.json");
    expect(moved).not.toContain("../node_modules/opencode-rag/dist/tui.js");
    expect(moved.match(/opencode-rag/g)).toHaveLength(1);
  });

  it("refuses to rewrite a tui.json that is not JSON, naming the file", () => {
    expect(() => withTuiEntry("{ plugin: [", "x", "/p/.opencode/tui.json")).toThrow("/p/.opencode/tui.json: not valid JSON");
  });

  it("starts AGENTS.md from scratch when there is none", () => {
    expect(withAgentsSection(null)).toMatch(/^<!-- opencode-rag:begin[\s\S]*<!-- opencode-rag:end -->\n$/);
  });
});

describe("init after the package moved into node_modules", () => {
  it("replaces the entry an earlier init wrote for a package folder of another name", () => {
    const root = project();
    const checkout = tempRoot({ "package.json": '{"name":"opencode-rag"}\n', "dist/tui.js": "export default {};\n" });
    roots.push(checkout);
    const tuiJson = join(root, ".opencode/tui.json");
    const before = JSON.stringify({ plugin: ["./tui/mine.tsx", join(checkout, "dist/tui.js")] });
    const after = withTuiEntry(before, "../node_modules/opencode-rag/dist/tui.js", tuiJson);
    expect(JSON.parse(after).plugin).toEqual(["./tui/mine.tsx", "../node_modules/opencode-rag/dist/tui.js"]);
  });
});
