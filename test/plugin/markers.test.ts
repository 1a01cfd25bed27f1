import { describe, expect, it } from "vitest";
import { extractMarkers, INJECT_CHUNKS_MARKER, INJECT_FILES_MARKER, markerFor } from "../../opencode-plugin/markers.js";

describe("injection markers", () => {
  it("finds and strips the file and chunk markers", () => {
    const r = extractMarkers(`How are sessions expired?\n\n${INJECT_FILES_MARKER}`);
    expect(r.text).toBe("How are sessions expired?");
    expect(r.markers).toEqual([{ action: "files", args: "" }]);
    const c = extractMarkers(`${INJECT_CHUNKS_MARKER} explain the cache`);
    expect(c.text).toBe("explain the cache");
    expect(c.markers).toEqual([{ action: "chunks", args: "" }]);
  });

  it("carries command arguments", () => {
    expect(extractMarkers(markerFor("doc", "src/auth")).markers).toEqual([{ action: "doc", args: "src/auth" }]);
    expect(extractMarkers(`${markerFor("wiki", "lint")}\nProject wiki`).markers).toEqual([{ action: "wiki", args: "lint" }]);
    expect(extractMarkers(markerFor("doc", "")).markers).toEqual([{ action: "doc", args: "" }]);
  });

  it("leaves text without markers untouched, including other HTML comments", () => {
    const text = "keep <!-- a note --> and  spacing\n\n\n";
    expect(extractMarkers(text)).toEqual({ text, markers: [] });
    expect(extractMarkers("<!-- opencode-rag:unknown -->").markers).toEqual([]);
  });
});
