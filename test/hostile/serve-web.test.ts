// serve-web listens on localhost, where any web page the user opens can send it requests: a
// malformed one gets 400 and the server goes on serving.
import { request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebServer } from "../../cli/commands/serve-web.js";

let server: Server;
let port: number;
const crashes: unknown[] = [];
const onCrash = (err: unknown) => crashes.push(err);

beforeAll(async () => {
  process.on("uncaughtException", onCrash);
  server = await startWebServer(0, "127.0.0.1");
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  process.off("uncaughtException", onCrash);
  await new Promise<void>((r) => server.close(() => r()));
});

/** A raw GET, so the path goes out exactly as written. */
function get(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, method: "GET" }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("serve-web against malformed requests", () => {
  it("answers 400 to /% and keeps serving", async () => {
    expect(await get("/%")).toBe(400);
    expect(await get("/%E0%A4%A")).toBe(400);
    expect(await get("/grammars/%zz.wasm")).toBe(400);
    expect(crashes).toEqual([]);
    expect(server.listening).toBe(true);
    expect(await get("/no-such-file.js")).toBe(404);
  });
});
