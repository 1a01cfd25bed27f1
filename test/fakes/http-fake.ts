// A tiny HTTP server on 127.0.0.1 for faking remote services in tests, with fault injection:
// queue faults (an HTTP error with headers, a slow answer, a dropped connection) that the next
// requests meet in order, then normal answers resume. Records every request and the highest
// number of requests in flight at once.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface FakeRequest {
  method: string;
  /** The path without the query string. */
  path: string;
  /** The query string including "?", or "". */
  query: string;
  headers: IncomingMessage["headers"];
  /** Parsed JSON body, or the raw text when it is not JSON. */
  body: any;
}

export type Fault =
  /** Answer with this status (and optional headers/body) instead of the normal answer. */
  | { status: number; headers?: Record<string, string>; body?: unknown }
  /** Wait this long before answering normally (a slow server). */
  | { delayMs: number }
  /** Destroy the socket without answering (connection reset). */
  | { drop: true };

export type Reply = { status?: number; headers?: Record<string, string>; body: unknown } | { sse: string[] };

export type Handler = (req: FakeRequest) => Reply | Promise<Reply>;

export class FakeHttpServer {
  readonly requests: FakeRequest[] = [];
  maxInFlight = 0;
  private inFlight = 0;
  private faults: Fault[] = [];
  /** Every request is delayed by this much (to make concurrency visible). */
  latencyMs = 0;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(handler: Handler): Promise<FakeHttpServer> {
    let self: FakeHttpServer | null = null;
    const server = createServer((req, res) => {
      void self!.handle(req, res, handler);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    self = new FakeHttpServer(server, `http://127.0.0.1:${port}`);
    server.on("connection", (s) => {
      self!.sockets.add(s);
      s.on("close", () => self!.sockets.delete(s));
    });
    return self;
  }

  /** The next requests meet these faults, one each, in order. */
  failNext(...faults: Fault[]): void {
    this.faults.push(...faults);
  }

  /** Requests whose path ends with `suffix`. */
  requestsTo(suffix: string): FakeRequest[] {
    return this.requests.filter((r) => r.path.endsWith(suffix));
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse, handler: Handler): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // keep the raw text
    }
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const request: FakeRequest = {
      method: req.method ?? "GET",
      path: q >= 0 ? url.slice(0, q) : url,
      query: q >= 0 ? url.slice(q) : "",
      headers: req.headers,
      body,
    };
    this.requests.push(request);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      if (this.latencyMs > 0) await sleep(this.latencyMs);
      const fault = this.faults.shift();
      if (fault && "drop" in fault) {
        req.socket.destroy();
        return;
      }
      if (fault && "delayMs" in fault) await sleep(fault.delayMs);
      if (res.destroyed) return;
      if (fault && "status" in fault) {
        send(res, fault.status, fault.headers ?? {}, fault.body ?? { error: `fake failure ${fault.status}` });
        return;
      }
      const reply = await handler(request);
      if ("sse" in reply) {
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        for (const event of reply.sse) res.write(`data: ${event}\n\n`);
        res.end();
        return;
      }
      send(res, reply.status ?? 200, reply.headers ?? {}, reply.body);
    } catch (err) {
      if (!res.headersSent) send(res, 500, {}, { error: String(err) });
    } finally {
      this.inFlight--;
    }
  }
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: unknown): void {
  if (res.destroyed) return;
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const type = typeof body === "string" ? "text/plain; charset=utf-8" : "application/json";
  res.writeHead(status, { "content-type": type, ...headers });
  res.end(text);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A port on 127.0.0.1 with nothing listening (connection refused), for "server is down" tests. */
export async function closedPort(): Promise<number> {
  const { createServer: createNetServer } = await import("node:net");
  const s = createNetServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
