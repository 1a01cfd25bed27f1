// ObjectStore on the S3 API (AWS S3, MinIO, Cloudflare R2, GCS's XML API with HMAC keys…).
// Settings come from the same places LanceDB reads them: `vectorStore.storageOptions`
// (aws_endpoint, aws_region, aws_access_key_id, aws_secret_access_key, aws_session_token,
// aws_virtual_hosted_style_request) first, then the AWS SDK's standard sources (AWS_* variables,
// ~/.aws profiles, SSO, instance and container roles).
import type * as S3 from "@aws-sdk/client-s3";
import { oneLine } from "../error-line.js";
import { ObjectStoreError, PreconditionFailedError, type ObjectInfo, type ObjectStore, type PutCondition, type StoredObject } from "./object-store.js";

export interface S3Location {
  bucket: string;
  /** Key prefix without leading or trailing slash ("" at the bucket's root). */
  prefix: string;
}

export function isS3Uri(uri: string): boolean {
  return /^s3a?:\/\//i.test(uri);
}

export function parseS3Uri(uri: string): S3Location {
  const m = /^s3a?:\/\/([^/?#]+)\/*([^?#]*)$/i.exec(uri.trim());
  if (!m || !m[1]) throw new Error(`vectorStore.path ${JSON.stringify(uri)} is not an S3 URI: write it as s3://bucket/prefix`);
  return { bucket: m[1], prefix: m[2].replace(/\/+$/, "") };
}

/** Case-insensitive look-up of the first of `names` set in `options`. */
function option(options: Record<string, string>, ...names: string[]): string | undefined {
  const lower = new Map(Object.entries(options).map(([k, v]) => [k.toLowerCase(), v]));
  for (const n of names) {
    const v = lower.get(n);
    if (v !== undefined && v !== "") return v;
  }
  return undefined;
}

/** The endpoint a custom S3-compatible server is reached at, or undefined for AWS itself. */
export function s3Endpoint(options: Record<string, string>, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return option(options, "aws_endpoint", "aws_endpoint_url", "endpoint", "endpoint_url") ?? env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL ?? env.AWS_ENDPOINT ?? undefined;
}

/**
 * The storage options LanceDB gets: the user's, plus `allow_http` when the endpoint is plain
 * http (a MinIO on the LAN), which LanceDB otherwise refuses.
 */
export function lanceStorageOptions(uri: string, options: Record<string, string>): Record<string, string> | undefined {
  if (!isS3Uri(uri)) return Object.keys(options).length > 0 ? options : undefined;
  const out = { ...options };
  const endpoint = s3Endpoint(options);
  if (endpoint && /^http:\/\//i.test(endpoint) && option(options, "allow_http", "aws_allow_http") === undefined && !process.env.AWS_ALLOW_HTTP) {
    out.allow_http = "true";
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

const CREDENTIAL_ERRORS = new Set(["InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied", "InvalidToken", "ExpiredToken", "Forbidden", "InvalidClientTokenId", "AuthorizationHeaderMalformed"]);
const NETWORK_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "ECONNRESET", "EHOSTUNREACH", "ENETUNREACH", "EPIPE"]);

function errorCode(err: unknown): { name: string; status: number | undefined; code: string | undefined } {
  const e = err as { name?: string; code?: string; Code?: string; $metadata?: { httpStatusCode?: number }; cause?: { code?: string } };
  return { name: e?.Code ?? e?.name ?? "Error", status: e?.$metadata?.httpStatusCode, code: e?.code ?? e?.cause?.code };
}

export class S3ObjectStore implements ObjectStore {
  readonly location: string;
  private readonly loc: S3Location;
  private readonly endpoint: string | undefined;
  private readonly where: string;
  /** The SDK loads on first use: a local store never pays for it. */
  private client: Promise<{ sdk: typeof S3; client: S3.S3Client }> | null = null;

  constructor(
    uri: string,
    private readonly storageOptions: Record<string, string> = {},
  ) {
    this.loc = parseS3Uri(uri);
    this.endpoint = s3Endpoint(storageOptions);
    this.location = `s3://${this.loc.bucket}${this.loc.prefix ? `/${this.loc.prefix}` : ""}`;
    this.where = this.endpoint ? `the object store at ${this.endpoint}` : "AWS S3";
  }

  private async sdk(): Promise<{ sdk: typeof S3; client: S3.S3Client }> {
    // The SDK warns on stderr that its releases after January 2027 need Node 22; the pinned
    // one runs on Node 20, and hosts own the terminal. A user's own setting wins.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
    this.client ??= import("@aws-sdk/client-s3").then((sdk) => {
      const o = this.storageOptions;
      const key = option(o, "aws_access_key_id", "access_key_id");
      const secret = option(o, "aws_secret_access_key", "secret_access_key");
      const token = option(o, "aws_session_token", "session_token", "aws_token", "token");
      const virtualHosted = option(o, "aws_virtual_hosted_style_request", "virtual_hosted_style_request") === "true";
      const client = new sdk.S3Client({
        region: option(o, "aws_region", "region") ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? "us-east-1",
        ...(this.endpoint ? { endpoint: this.endpoint, forcePathStyle: !virtualHosted } : {}),
        ...(key && secret ? { credentials: { accessKeyId: key, secretAccessKey: secret, ...(token ? { sessionToken: token } : {}) } } : {}),
        // An unreachable endpoint must fail in seconds with one line, not after minutes of retries.
        maxAttempts: 2,
        requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
        // Checksums only where S3 requires them: S3-compatible servers reject the newer headers.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
      });
      return { sdk, client };
    });
    return this.client;
  }

  private key(rel: string): string {
    return this.loc.prefix ? `${this.loc.prefix}/${rel}` : rel;
  }

  /** One line naming what failed and what to check. */
  describe(err: unknown, rel: string): ObjectStoreError {
    const { name, status, code } = errorCode(err);
    const target = `${this.location}/${rel}`;
    if (name === "CredentialsProviderError" || /could not load credentials/i.test(String((err as Error)?.message))) {
      return new ObjectStoreError(`no credentials for ${this.location}: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE), or vectorStore.storageOptions.aws_access_key_id and aws_secret_access_key`, "no-credentials", err);
    }
    if (CREDENTIAL_ERRORS.has(name) || status === 403) {
      return new ObjectStoreError(`${this.where} refused the credentials for ${this.location} (${name}): check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE), or vectorStore.storageOptions, and the key's access to the bucket`, "credentials", err);
    }
    if (name === "NoSuchBucket") {
      return new ObjectStoreError(`the bucket "${this.loc.bucket}" does not exist at ${this.where}: create it, or fix vectorStore.path`, "no-bucket", err);
    }
    if ((code && NETWORK_CODES.has(code)) || name === "TimeoutError" || /ECONNREFUSED|ENOTFOUND|getaddrinfo|socket hang up|connect ETIMEDOUT/i.test(String((err as Error)?.message))) {
      return new ObjectStoreError(`cannot reach ${this.where} for ${this.location} (${code ?? name}): check the endpoint (vectorStore.storageOptions.aws_endpoint or AWS_ENDPOINT_URL) and the network`, "unreachable", err);
    }
    return new ObjectStoreError(`${this.where} failed on ${target} (${name}${status ? ` ${status}` : ""}): ${oneLine(err)}`, "other", err);
  }

  async get(rel: string, options: { ifNoneMatch?: string } = {}): Promise<StoredObject | null | "unchanged"> {
    try {
      const { sdk, client } = await this.sdk();
      const out = await client.send(new sdk.GetObjectCommand({ Bucket: this.loc.bucket, Key: this.key(rel), IfNoneMatch: options.ifNoneMatch }));
      const body = await out.Body!.transformToByteArray();
      return { body, etag: out.ETag ?? "" };
    } catch (err) {
      const { name, status } = errorCode(err);
      if (status === 304 || name === "NotModified") return "unchanged";
      if (name === "NoSuchKey" || (status === 404 && name !== "NoSuchBucket")) return null;
      throw this.describe(err, rel);
    }
  }

  async put(rel: string, body: Uint8Array | string, condition?: PutCondition): Promise<string> {
    const bytes = typeof body === "string" ? Buffer.from(body) : body;
    try {
      const { sdk, client } = await this.sdk();
      const out = await client.send(
        new sdk.PutObjectCommand({
          Bucket: this.loc.bucket,
          Key: this.key(rel),
          Body: bytes,
          ContentLength: bytes.byteLength,
          ...(condition && "ifNoneMatch" in condition ? { IfNoneMatch: "*" } : {}),
          ...(condition && "ifMatch" in condition ? { IfMatch: condition.ifMatch } : {}),
        }),
      );
      return out.ETag ?? "";
    } catch (err) {
      const { name, status } = errorCode(err);
      // 412: the condition does not hold; 409: a concurrent conditional write to the same key;
      // 404: If-Match on an object that is gone.
      if (condition && (status === 412 || status === 409 || status === 404 || name === "PreconditionFailed" || name === "ConditionalRequestConflict" || name === "NoSuchKey")) {
        throw new PreconditionFailedError(rel);
      }
      throw this.describe(err, rel);
    }
  }

  async delete(rel: string): Promise<void> {
    try {
      const { sdk, client } = await this.sdk();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: this.loc.bucket, Key: this.key(rel) }));
    } catch (err) {
      if (errorCode(err).name === "NoSuchKey") return;
      throw this.describe(err, rel);
    }
  }

  async list(prefix: string): Promise<ObjectInfo[]> {
    const base = this.loc.prefix ? `${this.loc.prefix}/` : "";
    const out: ObjectInfo[] = [];
    let token: string | undefined;
    try {
      const { sdk, client } = await this.sdk();
      do {
        const page = await client.send(new sdk.ListObjectsV2Command({ Bucket: this.loc.bucket, Prefix: base + prefix, ContinuationToken: token }));
        for (const o of page.Contents ?? []) {
          if (o.Key) out.push({ key: o.Key.slice(base.length), etag: o.ETag ?? "", size: o.Size ?? 0 });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    } catch (err) {
      throw this.describe(err, prefix);
    }
    return out;
  }

  close(): void {
    const c = this.client;
    this.client = null;
    void c?.then(({ client }) => client.destroy()).catch(() => undefined);
  }
}
