// Failures of the store, the disk and the network, each as the one line a user reads: what
// happened, what to do and what was kept. The errors here have the shapes the real sources
// throw (Node's errno errors, LanceDB's messages, the S3 store's and the SDK's errors).
import { describe, expect, it } from "vitest";
import { plainFailure, plainRebuildReason, type PlainErrorContext } from "../../core/errors/plain-errors.js";
import { CommitLostError, ObjectStoreError, PreconditionFailedError } from "../../core/objectstore/object-store.js";
import { IndexDamagedError } from "../../core/indexing/store-files.js";

const local: PlainErrorContext = { store: ".opencode/rag_db", localPath: ".opencode/rag_db", remote: false, previousFiles: 1234, during: "pass" };
const bucket: PlainErrorContext = { store: "s3://team/idx", localPath: ".opencode/rag_state", remote: true, previousFiles: 12, during: "pass" };

function errno(code: string, message: string, path?: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code, ...(path ? { path } : {}) });
}

describe("plain failure lines", () => {
  it("a full disk, from LanceDB or from Node", () => {
    const lance = new Error("lance error: LanceError(IO): No space left on device (os error 28), /root/.cargo/registry/src/x/lance-io/src/local.rs:12:3");
    expect(plainFailure(lance, local)).toEqual({
      kind: "disk-full",
      line: "the disk holding .opencode/rag_db is full: free some space and run the pass again; the previous index (1,234 files) is still in use",
    });
    const node = errno("ENOSPC", "ENOSPC: no space left on device, write", "/w/.opencode/rag_db/keyword-3.bin");
    expect(plainFailure(node, { ...local, displayPath: (p) => p.replace("/w/", "") })?.line).toMatch(/^the disk holding \.opencode\/rag_db\/keyword-3\.bin is full/);
  });

  it("a read-only file system and a refused permission", () => {
    expect(plainFailure(errno("EROFS", "EROFS: read-only file system, open '/w/x'"), local)?.line).toBe(
      ".opencode/rag_db is on a read-only file system: make it writable (or set vectorStore.path to a writable folder) and run the pass again; the previous index (1,234 files) is still in use",
    );
    expect(plainFailure(new Error("lance error: LanceError(IO): Generic LocalFileSystem error: Permission denied (os error 13)"), local)?.kind).toBe("permission");
    expect(plainFailure(errno("EACCES", "EACCES: permission denied, open '/w/x'"), { ...local, previousFiles: null })?.line).toBe(
      "no permission to write .opencode/rag_db: give this user write access to it (or set vectorStore.path to a folder it owns) and run the pass again; nothing was indexed yet, and nothing half-written is kept",
    );
    expect(plainFailure(errno("EPERM", "EPERM: operation not permitted, rename"), local)?.kind).toBe("permission");
  });

  it("a bucket that cannot be reached or refuses the credentials", () => {
    const sdk = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
    const down = new ObjectStoreError("cannot reach the object store at http://127.0.0.1:9 for s3://team/idx (ECONNREFUSED): check the endpoint", "unreachable", sdk);
    expect(plainFailure(down, bucket)?.line).toBe(
      "the bucket s3://team/idx cannot be reached at http://127.0.0.1:9: check the network and the endpoint (vectorStore.storageOptions.aws_endpoint or AWS_ENDPOINT_URL), then run the pass again; the previous index (12 files) is still in use",
    );
    const lanceDown = new Error("lance error: LanceError(IO): Generic S3 error: error sending request for url (http://127.0.0.1:9/team/idx/chunks.lance/_versions/3.manifest)");
    expect(plainFailure(lanceDown, bucket)?.kind).toBe("unreachable");
    const timeout = Object.assign(new Error("socket timed out"), { name: "TimeoutError" });
    expect(plainFailure(timeout, { ...bucket, during: "read" })?.line).toMatch(/cannot be reached: .* then try again; the index itself is unchanged$/);

    const refused = Object.assign(new Error("The AWS Access Key Id you provided does not exist"), { name: "InvalidAccessKeyId", $metadata: { httpStatusCode: 403 } });
    expect(plainFailure(new ObjectStoreError("refused the credentials", "credentials", refused), bucket)?.line).toBe(
      "the bucket s3://team/idx refused the credentials: check the access key and secret (vectorStore.storageOptions or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY) and the key's access to the bucket, then run the pass again; the previous index (12 files) is still in use",
    );
    expect(plainFailure(new Error("lance error: Generic S3 error: Client error with status 403 Forbidden: SignatureDoesNotMatch"), bucket)?.kind).toBe("credentials");
    // A local store knows no buckets: a refused connection there is someone else's (the embedder's).
    expect(plainFailure(sdk, local)).toBeNull();
  });

  it("a lost lock, and a damaged table", () => {
    expect(plainFailure(new CommitLostError("s3://team/idx"), bucket)?.line).toBe(
      "another machine took over the lock of s3://team/idx while this pass ran (it stalled past the lock's expiry) and committed first: run the pass again; nothing of this pass was committed, and searches use the other machine's index",
    );
    expect(plainFailure(new PreconditionFailedError("rag-state/manifest.json"), bucket)?.kind).toBe("lock-lost");
    const damaged = new IndexDamagedError(".opencode/rag_db", "lance error: Not found: /w/.opencode/rag_db/chunks.lance/data/0a.lance", true);
    expect(plainFailure(damaged, { ...local, during: "read" })?.line).toBe(
      "the index in .opencode/rag_db is damaged (a file of its table is missing): it is being rebuilt from the workspace, try again in a moment",
    );
  });

  it("a damaged table a pass healed", () => {
    expect(plainRebuildReason("the store's files are damaged (data/0a.lance missing: lance error: Not found: /w/chunks.lance/data/0a.lance)")).toBe(
      "the store's files were damaged (a file of its table is missing); the index was rebuilt from the workspace and the damaged table kept beside it",
    );
    expect(plainRebuildReason("the embedding model changed (a -> b)")).toBe("the embedding model changed (a -> b)");
  });

  it("leaves other failures alone", () => {
    expect(plainFailure(new Error("the workspace folder /x does not exist; nothing to index (check the path)"), local)).toBeNull();
    const embedder = Object.assign(new Error("cannot reach Ollama at http://127.0.0.1:11434 (connection refused)"), { name: "RemoteServiceError" });
    expect(plainFailure(embedder, bucket)).toBeNull();
  });
});
