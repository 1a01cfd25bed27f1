// Asks a workspace's running engine (query-server.ts) to search. Any trouble (no server, other
// settings, a slow or failed answer) returns null, and the caller searches in its own process:
// the server only ever makes a search faster, never different. Node-only.
import { createConnection, type Socket } from "node:net";
import type { SearchResult } from "../types.js";
import type { QueryAnswer, QueryRequest } from "./query-server.js";
import { QUERY_PROTOCOL, querySocketPath } from "./query-socket.js";

export interface RemoteAnswer {
  results: SearchResult[];
  keywordOnlyReason: string | null;
}

/** A connection to the server; ask() answers queries one at a time, in order. */
export interface QueryClient {
  ask(query: string, options?: QueryRequest["options"]): Promise<RemoteAnswer | null>;
  close(): void;
}

/** Connecting fails fast when no server listens; this bounds a server that accepts but hangs. */
const CONNECT_MS = 500;
/** A search the server takes longer than this to answer is done locally instead. */
const ANSWER_MS = 10_000;

export async function connectQueryServer(stateDir: string, fingerprint: string): Promise<QueryClient | null> {
  let path: string;
  try {
    path = querySocketPath(stateDir);
  } catch {
    return null;
  }
  const socket = await new Promise<Socket | null>((resolve) => {
    const s = createConnection(path);
    const timer = setTimeout(() => {
      s.destroy();
      resolve(null);
    }, CONNECT_MS);
    s.once("connect", () => {
      clearTimeout(timer);
      resolve(s);
    });
    s.once("error", () => {
      clearTimeout(timer);
      resolve(null);
    });
  });
  if (!socket) return null;
  socket.setEncoding("utf8");
  socket.on("error", () => undefined);
  let buffered = "";
  let waiting: ((line: string | null) => void) | null = null;
  socket.on("data", (d: string) => {
    buffered += d;
    const nl = buffered.indexOf("\n");
    if (nl >= 0 && waiting) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      const w = waiting;
      waiting = null;
      w(line);
    }
  });
  socket.on("close", () => waiting?.(null));
  let broken = false;
  return {
    async ask(query, options) {
      if (broken) return null;
      const req: QueryRequest = { v: QUERY_PROTOCOL, fingerprint, query, options };
      const line = await new Promise<string | null>((resolve) => {
        const timer = setTimeout(() => resolve(null), ANSWER_MS);
        waiting = (l) => {
          clearTimeout(timer);
          resolve(l);
        };
        socket.write(JSON.stringify(req) + "\n");
      });
      let answer: QueryAnswer | null = null;
      try {
        answer = line === null ? null : (JSON.parse(line) as QueryAnswer);
      } catch {
        answer = null;
      }
      if (!answer?.ok) {
        broken = true;
        return null;
      }
      return { results: answer.results, keywordOnlyReason: answer.keywordOnlyReason };
    },
    close: () => socket.destroy(),
  };
}
