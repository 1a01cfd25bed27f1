// JSON, XML, HTML and CSS: the structural units of data and markup files.
import { describe, expect, it } from "vitest";
import { chunkFile } from "../../core/chunking/index.js";
import { chunkFixture, find, options, outline } from "./helpers.js";

const unmerged = { minChars: 0 };

describe("JSON", () => {
  it("makes one chunk per top-level key", async () => {
    const chunks = await chunkFixture("settings.json", unmerged);
    const keys = chunks.filter((c) => c.kind === "key").map((c) => `${c.symbol} ${c.startLine}-${c.endLine}`);
    expect(keys).toEqual(["name 2-2", "version 3-3", "scripts 4-8", "dependencies 9-12", "features 13-13", "server 14-18"]);
    expect(find(chunks, "server").content).toContain('"tls": { "enabled": false, "cert": null }');
  });

  it("merges tiny keys with their neighbours by default", async () => {
    const chunks = await chunkFixture("settings.json", { minChars: 120 });
    expect(chunks.length).toBeLessThan(6);
    expect(chunks[0].startLine).toBe(1);
  });

  it("cuts a huge value at its elements", async () => {
    const items = Array.from({ length: 300 }, (_, i) => `    { "id": ${i}, "name": "item ${i}" }`);
    const text = `{\n  "items": [\n${items.join(",\n")}\n  ]\n}\n`;
    const chunks = await chunkFile("data/items.json", text, options({ maxLines: 50, maxChars: 4000 }));
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) expect(c.endLine - c.startLine + 1).toBeLessThanOrEqual(50);
    expect(chunks.filter((c) => c.kind === "key").every((c) => c.symbol === "items")).toBe(true);
  });
});

describe("XML", () => {
  it("keeps a small document as its root element", async () => {
    const chunks = await chunkFixture("pom.xml", unmerged);
    expect(outline(chunks)).toEqual(["preamble  1-1", "element project 2-25"]);
  });

  it("splits a big root into its child elements", async () => {
    const chunks = await chunkFixture("pom.xml", { minChars: 0, maxLines: 10 });
    expect(find(chunks, "dependencies", "element")).toMatchObject({ startLine: 7, endLine: 14, context: "element project > element dependencies" });
    expect(find(chunks, "build", "element")).toMatchObject({ startLine: 15, endLine: 24 });
    expect(chunks.every((c) => c.language === "xml")).toBe(true);
  });
});

describe("HTML", () => {
  it("gives <script> and <style> blocks their own chunks with the element path as context", async () => {
    const chunks = await chunkFixture("index.html");
    const style = find(chunks, "", "style");
    expect([style.startLine, style.endLine]).toEqual([6, 9]);
    expect(style.context).toBe("element html > element head > style");
    const script = find(chunks, "", "script");
    expect([script.startLine, script.endLine]).toEqual([18, 27]);
    expect(script.content).toContain("async function loadForecast(city)");
  });

  it("names elements by tag and id", async () => {
    const chunks = await chunkFixture("index.html", unmerged);
    expect(find(chunks, "header#top", "element").context).toBe("element html > element body > element header#top");
  });
});

describe("Vue single-file components", () => {
  it("splits template, script and style blocks", async () => {
    const chunks = await chunkFixture("Panel.vue");
    expect(outline(chunks)).toEqual(["element template 1-6", "script  8-13", "style  15-19"]);
    expect(chunks.every((c) => c.language === "vue")).toBe(true);
  });
});

describe("CSS", () => {
  it("makes rule sets and at-rules chunks named by their selectors", async () => {
    const chunks = await chunkFixture("theme.css", unmerged);
    expect(chunks.filter((c) => c.kind === "rule").map((c) => `${c.symbol} ${c.startLine}-${c.endLine}`)).toEqual([
      ":root 3-6",
      ".button, .button-secondary 8-12",
      ".button:hover 14-17",
      "@media (max-width: 600px) 19-23",
      "@keyframes fade-in 25-28",
    ]);
  });
});
