// A forward proxy on 127.0.0.1 for proxy tests: tunnels CONNECT requests (what undici's
// ProxyAgent sends) and forwards absolute-form plain HTTP requests. Records every target.
import { createServer, request as httpRequest, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";

export interface FakeProxy {
  url: string;
  /** host:port of every tunnel or request that went through. */
  targets: string[];
  close(): Promise<void>;
}

export async function startFakeProxy(): Promise<FakeProxy> {
  const targets: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const target = new URL(req.url ?? "");
    targets.push(target.host);
    const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  server.on("connect", (req, client: Socket, head: Buffer) => {
    const [host, port] = (req.url ?? "").split(":");
    targets.push(req.url ?? "");
    const upstream = connect(Number(port), host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    sockets.add(client);
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  server.on("connection", (s) => sockets.add(s));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    targets,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
