// Image indexing: the indexer's image file handler turns a picture into one searchable chunk of
// kind "image" holding the vision model's description (SVGs also keep their text chunks), and
// getImageDescription reads it back from the store without any model call.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_CONFIG, type RagConfig } from "../../core/config/defaults.js";
import { createDescriber, type Describer } from "../../core/description/describer.js";
import { createImageFileHandler, getImageDescription, imageChunk, imageMime } from "../../core/description/images.js";
import { MemoryVectorStore } from "../../core/store/memory.js";
import type { FileHandlerContext } from "../../core/indexing/handlers.js";
import { startFakeOpenAI } from "../fakes/openai.js";
import type { FakeHttpServer } from "../fakes/http-fake.js";

let server: FakeHttpServer;
let stateDir: string;
let describer: Describer;
let ctx: FileHandlerContext;

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const svg = new TextEncoder().encode(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\n  <title>Build status badge</title>\n  <rect width="10" height="10" fill="green"/>\n</svg>\n',
);

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), "rag-img-"));
  server = await startFakeOpenAI({
    chat: (req) => (req.messages.at(-1)!.images.length > 0 ? "Architecture diagram of the ingestion pipeline." : "A green build status badge."),
  });
  const config = structuredClone(DEFAULT_CONFIG) as RagConfig;
  Object.assign(config.description, { enabled: true, model: "gpt-text", visionModel: "gpt-vision", baseUrl: `${server.url}/v1` });
  Object.assign(config.embedding, { maxRetries: 0 });
  describer = createDescriber(config, { root: stateDir, stateDir, env: { HOME: "/nonexistent" } })!;
  ctx = { chunking: config.chunking, config, root: stateDir };
});
afterAll(async () => {
  await describer.close();
  await server.close();
  rmSync(stateDir, { recursive: true, force: true });
});

describe("image file handler", () => {
  it("claims png, jpg, gif, webp and svg, nothing else", () => {
    const handler = createImageFileHandler(() => describer);
    expect(["a.png", "b/c.JPG", "d.jpeg", "e.gif", "f.webp", "g.svg"].every((p) => handler.matches(p))).toBe(true);
    expect(["a.ts", "b.bmp", "pngs/readme.md"].some((p) => handler.matches(p))).toBe(false);
    expect(imageMime("x/Logo.JPG")).toBe("image/jpeg");
  });

  it("turns a raster image into one image chunk carrying the description", async () => {
    const handler = createImageFileHandler(() => describer);
    const result = await handler.handle("docs/pipeline.png", png, ctx);
    expect(result).toEqual({ chunks: [imageChunk("docs/pipeline.png", "Architecture diagram of the ingestion pipeline.")] });
    expect(imageChunk("docs/pipeline.png", "x")).toMatchObject({ kind: "image", language: "image", symbol: "pipeline.png" });
  });

  it("describes an SVG from its source and also keeps its text chunks", async () => {
    const handler = createImageFileHandler(() => describer);
    const result = await handler.handle("assets/badge.svg", svg, ctx);
    if (!("chunks" in result)) throw new Error("expected chunks");
    expect(result.chunks[0]).toEqual(imageChunk("assets/badge.svg", "A green build status badge."));
    const text = result.chunks.slice(1);
    expect(text.length).toBeGreaterThan(0);
    expect(text.map((c) => c.content).join("\n")).toContain("<title>Build status badge</title>");
  });

  it("skips a raster image when descriptions are off, and an SVG over maxSvgSizeBytes", async () => {
    const off = createImageFileHandler(() => null);
    expect(await off.handle("a.png", png, ctx)).toEqual({ skipped: "image (descriptions are off: description.enabled)" });
    const noVision = { ...ctx, config: { ...ctx.config, description: { ...ctx.config.description, visionModel: "" } } };
    expect(await createImageFileHandler(() => describer).handle("a.png", png, noVision)).toEqual({
      skipped: "image without a description (description.visionModel not set)",
    });
    const svgText = await off.handle("assets/badge.svg", svg, ctx);
    expect("chunks" in svgText && svgText.chunks.every((c) => c.kind !== "image")).toBe(true);

    const small = { ...ctx, config: { ...ctx.config, chunking: { ...ctx.config.chunking, maxSvgSizeBytes: 10 } } };
    expect(await createImageFileHandler(() => describer).handle("big.svg", svg, small)).toEqual({ skipped: "svg larger than chunking.maxSvgSizeBytes" });
  });

  it("throws when the vision service fails, so the file is retried next pass", async () => {
    server.failNext({ status: 503, body: { error: { message: "The server is overloaded", type: "server_error" } } });
    const fresh = new Uint8Array([...png, 1, 2, 3]);
    await expect(createImageFileHandler(() => describer).handle("busy.png", fresh, ctx)).rejects.toThrow(/answered 503: The server is overloaded/);
  });

  it("skips an image the vision model refuses, instead of asking again every pass", async () => {
    server.failNext({ status: 400, body: { error: { message: "You uploaded an unsupported image.", type: "invalid_request_error" } } });
    const odd = new Uint8Array([...png, 7, 7, 7]);
    expect(await createImageFileHandler(() => describer).handle("odd.webp", odd, ctx)).toEqual({
      skipped: "image refused by the vision model (You uploaded an unsupported image.)",
    });
  });
});

describe("getImageDescription", () => {
  it("returns the stored description by workspace path (relative or absolute), null when absent", async () => {
    const before = server.requests.length;
    const store = new MemoryVectorStore(null);
    const chunk = imageChunk("docs/pipeline.png", "Architecture diagram of the ingestion pipeline.");
    await store.add([
      { ...chunk, id: "img1", contentHash: "h1", description: "", vector: null },
      { ...imageChunk("docs/other.png", "Something else."), id: "img2", contentHash: "h2", description: "", vector: null },
    ]);
    expect(await getImageDescription(store, "docs/pipeline.png")).toBe("Architecture diagram of the ingestion pipeline.");
    expect(await getImageDescription(store, "./docs\\pipeline.png")).toBe("Architecture diagram of the ingestion pipeline.");
    expect(await getImageDescription(store, "/work/ws/docs/pipeline.png", "/work/ws")).toBe("Architecture diagram of the ingestion pipeline.");
    expect(await getImageDescription(store, "docs/missing.png")).toBeNull();
    expect(server.requests.length).toBe(before); // no model call
  });
});
