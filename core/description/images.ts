// Images in the index (F14, F20): at index time a vision model describes each png, jpg, gif,
// webp (and svg up to chunking.maxSvgSizeBytes) and the description becomes the content of one
// chunk of kind "image" (language "image", symbol = file name), searchable like code. An SVG
// is also chunked as the text it is. `getImageDescription` reads the stored description back
// for the describe_image tool — it never calls a model.
import type { Chunk, ChunkRecord, VectorStore } from "../types.js";
import type { FileHandler, FileHandlerContext, HandlerResult } from "../indexing/handlers.js";
import { textHandler } from "../indexing/handlers.js";
import type { Describer } from "./describer.js";
import { RemoteServiceError } from "../embedding/http.js";

/** HTTP statuses meaning "this input is unacceptable", as opposed to outages or bad settings. */
const REFUSED_IMAGE_STATUSES = new Set([400, 413, 415, 422]);

/** Image types a vision model is asked about, by extension. */
export const DESCRIBED_IMAGE_TYPES: Readonly<Record<string, string>> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".svg": "image/svg+xml",
};

export const IMAGE_CHUNK_KIND = "image";
export const IMAGE_LANGUAGE = "image";

export function imageMime(filePath: string): string | null {
  const name = filePath.slice(filePath.lastIndexOf("/") + 1).toLowerCase();
  const dot = name.lastIndexOf(".");
  return dot > 0 ? (DESCRIBED_IMAGE_TYPES[name.slice(dot)] ?? null) : null;
}

/** The chunk that carries an image's description. */
export function imageChunk(filePath: string, description: string): Chunk {
  const name = filePath.slice(filePath.lastIndexOf("/") + 1);
  return {
    filePath,
    startLine: 1,
    endLine: 1,
    language: IMAGE_LANGUAGE,
    kind: IMAGE_CHUNK_KIND,
    symbol: name,
    context: `image ${filePath}`,
    content: description,
  };
}

/**
 * The indexer's file handler for images. `describerFor` gives the pass's describer (null when
 * descriptions are off). A raster image without a describer or vision model is skipped; an SVG
 * always keeps its text chunks. An image the model refuses (400/413/415/422) is skipped until
 * the file changes; any other failure throws, so the indexer records an error and tries the
 * file again next pass instead of storing it undescribed.
 */
export function createImageFileHandler(describerFor: (ctx: FileHandlerContext) => Describer | null): FileHandler {
  return {
    name: "image-description",
    matches: (filePath) => imageMime(filePath) !== null,
    async handle(filePath, bytes, ctx): Promise<HandlerResult> {
      const mime = imageMime(filePath)!;
      const isSvg = mime === "image/svg+xml";
      const describer = describerFor(ctx);
      const tooBigSvg = isSvg && bytes.length > ctx.config.chunking.maxSvgSizeBytes;
      const d = ctx.config.description;
      const model = isSvg ? d.model.trim() || d.visionModel.trim() : d.visionModel.trim();
      const wanted = describer !== null && model !== "" && !tooBigSvg;
      let description: string | null = null;
      try {
        description = wanted ? await describer.describeImage(filePath, bytes, mime) : null;
      } catch (err) {
        // The model refused this very image (format, size): asking again each pass would fail
        // again, so it is skipped until the file changes. Outages and config errors throw.
        if (err instanceof RemoteServiceError && err.status !== undefined && REFUSED_IMAGE_STATUSES.has(err.status)) {
          return { skipped: `image refused by the vision model (${err.serverMessage || err.status})` };
        }
        throw err;
      }
      if (wanted && !description) {
        // Budget spent (or an empty answer): an error, not a skip, so the next pass tries again.
        throw new Error("not described yet: the description budget of this pass is spent (description.maxChunksPerPass/maxTokensPerPass); the next pass describes it");
      }
      const chunks: Chunk[] = description ? [imageChunk(filePath, description)] : [];
      if (isSvg && !tooBigSvg) {
        const text = await textHandler.handle(filePath, bytes, ctx);
        if ("chunks" in text) chunks.push(...text.chunks);
      }
      if (chunks.length > 0) return { chunks };
      if (tooBigSvg) return { skipped: "svg larger than chunking.maxSvgSizeBytes" };
      return { skipped: describer ? "image without a description (description.visionModel not set)" : "image (descriptions are off: description.enabled)" };
    },
  };
}

/** `./a\\b.png` → `a/b.png`, the way paths are stored. */
function normalisePath(filePath: string): string {
  let p = filePath.replace(/\\/g, "/");
  while (p.startsWith("./")) p = p.slice(2);
  return p;
}

/**
 * The stored description of an indexed image, or null when the image is not in the index.
 * `filePath` is workspace-relative (give `root` to accept absolute paths inside it). Reads the
 * store only: never calls a model.
 */
export async function getImageDescription(store: VectorStore, filePath: string, root?: string): Promise<string | null> {
  let wanted = normalisePath(filePath);
  if (root) {
    const r = normalisePath(root).replace(/\/+$/, "");
    if (wanted.startsWith(`${r}/`)) wanted = wanted.slice(r.length + 1);
  }
  const ids = (await store.listAll()).filter((row) => row.filePath === wanted).map((row) => row.id);
  if (ids.length === 0) return null;
  const rows: ChunkRecord[] = await store.getByIds(ids);
  return rows.find((r) => r.kind === IMAGE_CHUNK_KIND)?.content ?? null;
}
