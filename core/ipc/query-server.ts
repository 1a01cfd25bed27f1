// A watching engine answers searches from other processes of the same user over a local socket,
// so `opencode-rag query` from a script costs a process start, not a model load and a store
// open. One JSON request per line, one JSON answer per line. Node-only.
import { chmodSync, rmSync } from "node:fs";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import type { SearchOptions } from "../engine-types.js";
import { oneLine } from "../error-line.js";
import type { SearchResult } from "../types.js";
import { QUERY_PROTOCOL, querySocketPath } from "./query-socket.js";

export interface QueryRequest {
  v: number;
  fingerprint: string;
  query: string;
  options?: Pick<SearchOptions, "topK" | "filter" | "mode">;
}

export type QueryAnswer =
  | { ok: true; results: SearchResult[]; keywordOnlyReason: string | null }
  | { ok: false; reason: "protocol" | "fingerprint" | "bad-request" | "failed"; error: string };

export interface QueryServerHost {
  stateDir: string;
  /** The fingerprint of the engine's settings now (they may be reloaded while it runs). */
  fingerprint(): string;
  search(query: string, options: SearchOptions): Promise<SearchResult[]>;
  keywordOnlyReason(): Promise<string | null>;
  logger: { info(m: string, d?: Record<string, unknown>): void; error(m: string, d?: Record<string, unknown>): void };
}

export interface QueryServer {
  readonly path: string;
  close(): Promise<void>;
}

/** Longest request line accepted: a query and its filters, never more. */
const MAX_REQUEST_BYTES = 64 * 1024;
/** A client that says nothing for this long is dropped. */
const IDLE_MS = 30_000;

/**
 * Listens on the workspace's socket; null when another live process already serves it (the
 * first one keeps it) or the socket cannot be made.
 */
export async function startQueryServer(host: QueryServerHost): Promise<QueryServer | null> {
  let path: string;
  try {
    path = querySocketPath(host.stateDir);
  } catch (err) {
    host.logger.error("not answering other processes' searches", { error: oneLine(err) });
    return null;
  }
  if (process.platform !== "win32") {
    if (await isAnswering(path)) return null;
    // A socket file left by a process that died: nobody answers on it.
    rmSync(path, { force: true });
  }
  const server = createServer((socket) => serveConnection(socket, host));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(path, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (err) {
    host.logger.error("not answering other processes' searches", { error: oneLine(err) });
    return null;
  }
  if (process.platform !== "win32") chmodSync(path, 0o600);
  server.unref();
  server.on("error", (err) => host.logger.error("query socket error", { error: oneLine(err) }));
  host.logger.info("answering searches from other processes", { socket: path });
  return { path, close: () => closeServer(server, path) };
}

function closeServer(server: Server, path: string): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => {
      if (process.platform !== "win32") rmSync(path, { force: true });
      resolve();
    });
  });
}

function isAnswering(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createConnection(path);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
}

function serveConnection(socket: Socket, host: QueryServerHost): void {
  socket.setEncoding("utf8");
  socket.setTimeout(IDLE_MS, () => socket.destroy());
  socket.on("error", () => undefined);
  let buffered = "";
  let queue = Promise.resolve();
  socket.on("data", (data: string) => {
    buffered += data;
    if (buffered.length > MAX_REQUEST_BYTES && !buffered.includes("\n")) {
      socket.end(JSON.stringify({ ok: false, reason: "bad-request", error: "request too long" }) + "\n");
      return;
    }
    let nl: number;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      // Answers go out in the order the requests came.
      queue = queue.then(async () => {
        const answer = await answer1(line, host);
        if (!socket.destroyed) socket.write(JSON.stringify(answer) + "\n");
      });
    }
  });
}

async function answer1(line: string, host: QueryServerHost): Promise<QueryAnswer> {
  let req: QueryRequest;
  try {
    req = JSON.parse(line) as QueryRequest;
  } catch {
    return { ok: false, reason: "bad-request", error: "not JSON" };
  }
  if (req?.v !== QUERY_PROTOCOL) return { ok: false, reason: "protocol", error: `protocol ${QUERY_PROTOCOL} expected` };
  if (req.fingerprint !== host.fingerprint()) return { ok: false, reason: "fingerprint", error: "different workspace or settings" };
  if (typeof req.query !== "string") return { ok: false, reason: "bad-request", error: "query must be a string" };
  const o = req.options ?? {};
  try {
    const results = await host.search(req.query, { topK: o.topK, filter: o.filter, mode: o.mode });
    return { ok: true, results, keywordOnlyReason: await host.keywordOnlyReason() };
  } catch (err) {
    return { ok: false, reason: "failed", error: oneLine(err) };
  }
}
