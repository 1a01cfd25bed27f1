// An HTTP proxy on 127.0.0.1 in front of the S3 fake that fails chosen requests on cue: set
// `fail` to a rule naming the S3 error (status and code) a request gets instead of its answer;
// every other request goes through to the S3 server unchanged.
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type FaultRule = (method: string, path: string) => { status: number; code: string } | null;

export interface S3FaultProxy {
  endpoint: string;
  fail: FaultRule | null;
  close(): Promise<void>;
}

export async function startS3FaultProxy(target: string): Promise<S3FaultProxy> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  const proxy: S3FaultProxy = { endpoint: "", fail: null, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    const fault = proxy.fail?.(req.method ?? "GET", decodeURIComponent(path));
    if (fault) {
      req.resume();
      res.writeHead(fault.status, { "content-type": "application/xml" });
      res.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${fault.code}</Code><Message>${fault.code}</Message></Error>`);
      return;
    }
    const up = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on("error", () => res.destroy());
    req.pipe(up);
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return proxy;
}
