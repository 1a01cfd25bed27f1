// `opencode-rag serve-web [--port N]`: serves the in-browser demo (dist/web) with the grammar
// files and the bundled model (computed from its table in the page, no runtime), plus
// onnxruntime-web's wasm when it is installed (other models), on 127.0.0.1 only, fully offline.
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { dirname, extname, join, normalize, sep } from "node:path";
import type { Command } from "../command.js";
import { UsageError } from "../command.js";
import { grammarsDir, modelsDir, packageRoot } from "../../core/paths.js";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".onnx": "application/octet-stream",
  ".map": "application/json",
  ".md": "text/plain; charset=utf-8",
};

/** onnxruntime-web's dist folder, wherever npm placed it. */
function ortDir(): string | null {
  for (let dir = packageRoot(); ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", "onnxruntime-web", "dist");
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

/** URL prefix → folder. The longest matching prefix wins; "/" is the demo itself. */
export function webRoutes(): Array<[string, string]> {
  const routes: Array<[string, string]> = [
    ["/grammars/", grammarsDir()],
    ["/models/", modelsDir()],
    ["/", join(packageRoot(), "dist", "web")],
  ];
  const ort = ortDir();
  if (ort) routes.unshift(["/ort/", ort]);
  return routes;
}

export function startWebServer(port: number, host = "127.0.0.1"): Promise<Server> {
  const routes = webRoutes();
  const server = createServer((req, res) => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname);
    } catch {
      // Any web page can make the browser send "/%": a bad escape is the client's error, never a crash.
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8" }).end("bad request: malformed URL");
      return;
    }
    if (path.endsWith("/")) path += "index.html";
    const route = routes.find(([prefix]) => path.startsWith(prefix));
    if (!route || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404).end("not found");
      return;
    }
    const [prefix, folder] = route;
    const file = normalize(join(folder, path.slice(prefix.length)));
    // Never serve outside the route's folder.
    if (!file.startsWith(folder + sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-cache" });
    if (req.method === "HEAD") res.end();
    // A file removed after the stat must end this response, not the server.
    else createReadStream(file).on("error", () => res.destroy()).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}

export const serveWebCommand: Command = {
  name: "serve-web",
  summary: "serve the in-browser search demo on localhost (offline)",
  help: `Usage: opencode-rag serve-web [--port N]

  Serves the demo page on http://127.0.0.1:PORT (default 8642): drop a folder into the page,
  it is chunked and indexed in the browser, then searched, fully offline.

  --port N        port to listen on (0 picks a free one)`,
  options: { port: { type: "string" } },
  async run(ctx) {
    const port = ctx.values.port === undefined ? 8642 : Number(ctx.values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError("--port must be a whole number between 0 and 65535");
    if (!existsSync(join(packageRoot(), "dist", "web", "index.html"))) {
      ctx.err("opencode-rag: the web demo is not built (dist/web is missing): run `npm run build` in the opencode-rag package");
      return 1;
    }
    let server: Server;
    try {
      server = await startWebServer(port);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      ctx.err(`opencode-rag: cannot listen on 127.0.0.1:${port} (${code ?? (err as Error).message}): pick another --port`);
      return 1;
    }
    const address = server.address();
    const actual = typeof address === "object" && address ? address.port : port;
    // Listening for the signals before saying where it serves: whoever reads that line may send one at once.
    const stopped = new Promise<void>((resolve) => {
      const stop = () => server.close(() => resolve());
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
    ctx.out(`opencode-rag web demo on http://127.0.0.1:${actual}/  (Ctrl+C to stop)`);
    await stopped;
    return 0;
  },
};
