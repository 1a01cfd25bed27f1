// Markdown, Razor, .sln, LaTeX, PDF and the line fallback (F2, F3).
import { describe, expect, it } from "vitest";
import { chunkFile, languageForPath } from "../../core/chunking/index.js";
import { chunkFixture, find, options, outline } from "./helpers.js";
import { makePdf } from "./pdf-writer.js";

describe("Markdown", () => {
  it("cuts at h1 and h2 headings; deeper headings and fenced code stay inside", async () => {
    const chunks = await chunkFixture("guide.md");
    expect(outline(chunks)).toEqual([
      "section User Guide 1-3",
      "section Installation 5-15",
      "section Usage 17-19",
      "section Appendix 21-23",
    ]);
    expect(find(chunks, "Installation").context).toBe("User Guide > Installation");
    expect(find(chunks, "Installation").content).toContain("### Requirements");
  });

  it("ignores # lines inside code fences and understands setext headings", async () => {
    const text = ["Title", "=====", "", "Intro.", "", "```sh", "# not a heading", "```", "", "Part two", "--------", "", "Body."].join("\n");
    const chunks = await chunkFile("docs/a.md", text, options({ minChars: 0 }));
    expect(outline(chunks)).toEqual(["section Title 1-8", "section Part two 10-13"]);
    expect(chunks[1].context).toBe("Title > Part two");
  });

  it("splits an oversized section at paragraph boundaries", async () => {
    const paragraphs = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} line one.\nParagraph ${i} line two.`);
    const text = `# Big\n\n${paragraphs.join("\n\n")}\n`;
    const chunks = await chunkFile("docs/big.md", text, options({ maxLines: 10, minChars: 0 }));
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) {
      expect(c.symbol).toBe("Big");
      expect(c.endLine - c.startLine + 1).toBeLessThanOrEqual(10);
      expect(c.content.split("\n")[0]).toMatch(/^(# Big|Paragraph \d+ line one\.)$/);
    }
  });
});

describe("Markdown sub-headings", () => {
  it("cuts an oversized section at its h3 headings first and names the h3 each piece falls under", async () => {
    const para = (n: number) => Array.from({ length: 4 }, (_, i) => `Line ${i} of paragraph ${n}.`).join("\n");
    const text = ["# Guide", "", "## Install", "", para(1), "", "### Requirements", "", para(2), "", para(3), "", "### Steps", "", para(4)].join("\n");
    const chunks = await chunkFile("docs/guide.md", text, options({ maxLines: 8, minChars: 0 }));
    const contexts = chunks.map((c) => `${c.startLine}: ${c.context}`);
    expect(contexts).toContain("10: Guide > Install > Requirements");
    expect(contexts).toContain("22: Guide > Install > Steps");
    expect(chunks.filter((c) => c.symbol === "Install").length).toBeGreaterThan(2);
  });
});

describe("Razor", () => {
  it("separates @code and @functions blocks from template regions", async () => {
    const chunks = await chunkFixture("Counter.razor", { minChars: 0 });
    expect(outline(chunks)).toEqual([
      "template  1-8",
      "block @code 10-18",
      "template  20-20",
      "block @functions 22-24",
    ]);
    expect(find(chunks, "@code").content).toContain('Logger.LogInformation("Count is now {Count}", currentCount);');
    expect(chunks.every((c) => c.language === "razor")).toBe(true);
  });

  it("handles .cshtml code blocks and sections", async () => {
    const chunks = await chunkFixture("Index.cshtml", { minChars: 0 });
    expect(outline(chunks)).toEqual(["template  1-1", "block @{} 2-5", "template  7-13", "block @section Scripts 15-17"]);
    expect(find(chunks, "@section Scripts").context).toBe("@section Scripts block");
  });
});

describe("Visual Studio solutions", () => {
  it("makes project entries and global sections chunks", async () => {
    const chunks = await chunkFixture("Solution.sln");
    // The short file header is too small to stand alone: it opens the first project's chunk.
    expect(find(chunks, "Shop.Web", "project")).toMatchObject({ startLine: 2, endLine: 7, context: "project Shop.Web (src/Shop.Web/Shop.Web.csproj)" });
    expect(find(chunks, "Shop.Inventory", "project")).toMatchObject({ startLine: 8, endLine: 12 });
    expect(find(chunks, "SolutionConfigurationPlatforms", "section").context).toBe("Global > SolutionConfigurationPlatforms");
    expect(find(chunks, "ProjectConfigurationPlatforms", "section").endLine).toBe(22);
  });
});

describe("SQL", () => {
  it("makes a chunk per statement, named by what it creates, with the comments above it", async () => {
    const chunks = await chunkFixture("schema.sql", { minChars: 0 });
    expect(outline(chunks)).toEqual([
      "table users 1-6",
      "index users_email_idx 8-8",
      "function purge_sessions 10-19",
      "view active_users 21-22",
      "statement  24-24",
      "statement  25-25",
      "statement  26-26",
    ]);
    expect(find(chunks, "users").context).toBe("create table public.users");
    // The semicolons inside the $$ body do not end the function.
    expect(find(chunks, "purge_sessions").context).toBe("create function purge_sessions(max_age interval)");
  });

  it("lets tiny unnamed statements join the statement before them", async () => {
    const chunks = await chunkFixture("schema.sql");
    expect(chunks.at(-1)).toMatchObject({ kind: "view", symbol: "active_users", startLine: 21, endLine: 26 });
  });
});

describe("LaTeX", () => {
  it("makes chapter…subsubsection chunks with the heading chain as context", async () => {
    const chunks = await chunkFixture("thesis.tex", { minChars: 0 });
    expect(chunks[0]).toMatchObject({ kind: "preamble", startLine: 1, endLine: 5 });
    expect(find(chunks, "Limitations").context).toBe(
      "chapter Introduction > section Motivation > subsection Prior work > subsubsection Limitations",
    );
    expect(find(chunks, "Fusion")).toMatchObject({ startLine: 22, context: "chapter Method > section Fusion" });
    expect(find(chunks, "Method").context).toBe("chapter Method");
  });

  it("lets a tiny preamble open the first section instead of standing alone", async () => {
    const chunks = await chunkFixture("thesis.tex");
    expect(chunks[0]).toMatchObject({ kind: "section", symbol: "Introduction", startLine: 1 });
  });
});

describe("PDF", () => {
  it("extracts text per page and groups it into paragraphs", async () => {
    const page1 = Array.from({ length: 30 }, (_, i) => `Sentence ${i} about vector search and ranking.`);
    const pdf = makePdf([page1, ["Second page: keyword index with BM25."]]);
    const chunks = await chunkFile("docs/paper.pdf", pdf, options({ maxChars: 600, minChars: 0 }));
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.every((c) => c.language === "pdf" && c.kind === "paragraph")).toBe(true);
    const text = chunks.map((c) => c.content).join("\n");
    expect(text).toContain("Sentence 0 about vector search and ranking.");
    expect(text).toContain("Sentence 29 about vector search and ranking.");
    const last = chunks.at(-1)!;
    expect(last.context).toBe("page 2");
    expect(last.content).toBe("Second page: keyword index with BM25.");
    expect(chunks.slice(0, -1).every((c) => c.context === "page 1" && c.content.length <= 600)).toBe(true);
  });

  it("reports a damaged PDF clearly", async () => {
    await expect(chunkFile("docs/bad.pdf", new TextEncoder().encode("%PDF-1.4 garbage"), options())).rejects.toThrow(/cannot read PDF text/);
  });
});

describe("line fallback", () => {
  it("cuts unknown text into windows with the configured overlap", async () => {
    const text = Array.from({ length: 250 }, (_, i) => `line ${i + 1}`).join("\n");
    const chunks = await chunkFile("logs/run.log", text, options({ fallbackLines: 100, overlapLines: 10 }));
    expect(chunks.map((c) => [c.startLine, c.endLine])).toEqual([
      [1, 100],
      [91, 190],
      [181, 250],
    ]);
    expect(chunks.every((c) => c.kind === "lines" && c.language === "text")).toBe(true);
    expect(languageForPath("logs/run.log")).toBeNull();
  });

  it("skips binary content and strips a byte-order mark", async () => {
    const binary = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]);
    expect(await chunkFile("img/x.dat", binary, options())).toEqual([]);
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("hello\n")]);
    const [chunk] = await chunkFile("a/readme.txt", bom, options());
    expect(chunk.content).toBe("hello");
  });
});
