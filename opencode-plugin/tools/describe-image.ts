// describe_image (F20): the description stored for an indexed image at index time. Never calls
// a model: it reads the image's row (kind "image") from the index.
import { z } from "zod";
import type { RagWorkspace } from "../workspace.js";
import { requiredText } from "./args.js";
import { engineOrMessage, indexNotice, resolveInWorkspace, safeStatus } from "./context.js";


export const describeImageArgs = {
  filePath: requiredText(1000, "filePath is empty: give the image's path relative to the workspace root, e.g. 'docs/architecture.png'").describe("Image path, relative to the workspace root"),
};
export const DescribeImageSchema = z.object(describeImageArgs);

export async function runDescribeImage(ws: RagWorkspace, filePath: string): Promise<string> {
  const path = resolveInWorkspace(ws.root, filePath);
  if (typeof path === "string") return path;
  const engine = await engineOrMessage(ws);
  if (typeof engine === "string") return engine;
  const name = path.rel.slice(path.rel.lastIndexOf("/") + 1);
  const results = await engine.search(name, { topK: 25, mode: "keyword", rank: false, filter: { pathPrefixes: [path.rel], kinds: ["image"] } });
  const row = results.map((r) => r.chunk).find((c) => c.filePath === path.rel && c.kind === "image");
  if (!row) {
    const status = await safeStatus(engine);
    const notice = status ? indexNotice(status) : null;
    return [
      notice,
      `No stored description for \`${path.rel}\`. Images are described at index time when description.enabled is true and a vision model is configured (description.visionModel); check the path, then run \`opencode-rag index\`.`,
    ]
      .filter(Boolean)
      .join("\n\n");
  }
  const text = (row.description || row.content).trim();
  return `## Image — ${path.rel}\n${text}`;
}
