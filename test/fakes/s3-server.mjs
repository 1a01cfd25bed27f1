// A real S3-compatible server for tests and benchmarks: s3rver (the S3 REST API over a folder,
// from npm) on 127.0.0.1 with a random port and one bucket. LanceDB and the AWS SDK talk to it
// over HTTP exactly as to AWS S3 or MinIO. Plain JavaScript so `npm run bench` can start it;
// the tests import it through s3.ts (types in s3-server.d.mts).
//
// s3rver predates S3's conditional writes: it ignores If-None-Match / If-Match on PUT, and a
// GET racing a PUT of the same key can read a half-written file. Both matter here (LanceDB
// commits table versions with If-None-Match: *; the index's lock and manifest use both), so a
// middleware in front of it gives it S3's semantics: each object key is served one request at
// a time (S3 writes are atomic), and a PUT whose precondition fails gets S3's 412
// PreconditionFailed (or 404 NoSuchKey for If-Match on a missing key). Its listing with a
// delimiter also drops every common prefix whose objects all sit in deeper folders (LanceDB's
// `tableNames()` lists `<prefix>/` with "/" and sees no table); listings are grouped here instead.
import S3rver from "s3rver";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** s3rver's built-in account. */
export const S3_TEST_KEY = "S3RVER";
export const S3_TEST_SECRET = "S3RVER";

function s3Error(ctx, status, code, message) {
  ctx.status = status;
  ctx.type = "application/xml";
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
}

export async function startS3Server(bucket = "team-index") {
  const directory = mkdtempSync(join(tmpdir(), "rag-s3-"));
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const state = { preconditionFailures: 0 };
  const queues = new Map();
  server.middleware.unshift(async (ctx, next) => {
    const m = /^\/([^/]+)\/(.+)$/.exec(ctx.path);
    if (!m) return next();
    const [, b, rawKey] = m;
    const key = decodeURIComponent(rawKey);
    const run = async () => {
      const ifNoneMatch = ctx.headers["if-none-match"];
      const ifMatch = ctx.headers["if-match"];
      const plainPut = ctx.method === "PUT" && !("uploadId" in ctx.query) && !("partNumber" in ctx.query) && !ctx.headers["x-amz-copy-source"];
      if (plainPut && (ifNoneMatch || ifMatch)) {
        const exists = await ctx.store.existsObject(b, key);
        if (ifNoneMatch === "*" && exists) {
          state.preconditionFailures++;
          return s3Error(ctx, 412, "PreconditionFailed", "At least one of the pre-conditions you specified did not hold");
        }
        if (ifMatch) {
          if (!exists) return s3Error(ctx, 404, "NoSuchKey", "The specified key does not exist.");
          const etag = (await ctx.store.getMetadata(b, key)).etag;
          if (etag !== ifMatch) {
            state.preconditionFailures++;
            return s3Error(ctx, 412, "PreconditionFailed", "At least one of the pre-conditions you specified did not hold");
          }
        }
      }
      await next();
    };
    const id = `${b}/${key}`;
    const done = (queues.get(id) ?? Promise.resolve()).then(run, run);
    const tail = done.catch(() => undefined);
    queues.set(id, tail);
    try {
      await done;
    } finally {
      if (queues.get(id) === tail) queues.delete(id);
    }
  });
  const store = server.store;
  const listAll = store.listObjects.bind(store);
  store.listObjects = async (b, options) => {
    if (!options.delimiter) return listAll(b, options);
    const all = await listAll(b, { ...options, delimiter: "", maxKeys: Infinity });
    const prefix = options.prefix ?? "";
    const objects = [];
    const common = new Set();
    for (const o of all.objects) {
      const i = o.key.indexOf(options.delimiter, prefix.length);
      if (i === -1) objects.push(o);
      else common.add(o.key.slice(0, i + options.delimiter.length));
    }
    return { objects, commonPrefixes: [...common].sort(), isTruncated: false };
  };
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    storageOptions: { aws_endpoint: endpoint, aws_region: "us-east-1", aws_access_key_id: S3_TEST_KEY, aws_secret_access_key: S3_TEST_SECRET },
    get preconditionFailures() {
      return state.preconditionFailures;
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
