// Failures of the store, the file system and the network, said in one line a user can act on:
// what happened, what to do, and that the committed index is still there. The store's own
// message (`lance error: LanceError(IO): No space left on device …`) tells a user none of that;
// it goes to the log and to --debug instead. Portable: no Node built-ins.
import { formatCount } from "../format-count.js";

export type FailureKind = "disk-full" | "read-only" | "permission" | "unreachable" | "credentials" | "lock-lost" | "damaged";

export interface PlainErrorContext {
  /** The store as a user wrote it or sees it: `.opencode/rag_db`, `s3://team/idx`. */
  store: string;
  /** Shown for local file system failures when the error names no path (the state folder). */
  localPath: string;
  /** Whether the store is a bucket (network and credential failures are its). */
  remote: boolean;
  /** Files in the committed index, or null when nothing is committed yet. */
  previousFiles: number | null;
  /** A pass failed (the index is as before), or a read of the index (a search, a status). */
  during: "pass" | "read";
  /** Turns an absolute path from an error into what the user knows it as (relative to the workspace). */
  displayPath?: (path: string) => string;
}

export interface PlainFailure {
  kind: FailureKind;
  line: string;
}

interface Facts {
  codes: Set<string>;
  names: Set<string>;
  statuses: Set<number>;
  text: string;
  path: string | null;
  failure: string | null;
  rebuilding: boolean;
  reason: string | null;
}

/** Codes, names, HTTP statuses and messages along the error's `cause` chain. */
function facts(err: unknown): Facts {
  const f: Facts = { codes: new Set(), names: new Set(), statuses: new Set(), text: "", path: null, failure: null, rebuilding: false, reason: null };
  let e: unknown = err;
  for (let depth = 0; depth < 6 && e !== null && e !== undefined; depth++) {
    const o = e as { code?: unknown; Code?: unknown; name?: unknown; message?: unknown; path?: unknown; $metadata?: { httpStatusCode?: unknown }; failure?: unknown; rebuilding?: unknown; reason?: unknown; cause?: unknown };
    if (typeof o === "object") {
      for (const c of [o.code, o.Code]) if (typeof c === "string") f.codes.add(c);
      if (typeof o.name === "string") f.names.add(o.name);
      if (typeof o.$metadata?.httpStatusCode === "number") f.statuses.add(o.$metadata.httpStatusCode);
      if (typeof o.path === "string") f.path ??= o.path;
      if (typeof o.failure === "string") f.failure ??= o.failure;
      if (o.rebuilding === true) f.rebuilding = true;
      if (typeof o.reason === "string") f.reason ??= o.reason;
      f.text += ` ${typeof o.message === "string" ? o.message : ""}`;
      e = o.cause;
    } else {
      f.text += ` ${String(e)}`;
      break;
    }
  }
  return f;
}

const has = (f: Facts, ...codes: string[]) => codes.some((c) => f.codes.has(c));

const NETWORK_CODES = ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "ECONNRESET", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"];
const CREDENTIAL_CODES = ["InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied", "InvalidToken", "ExpiredToken", "Forbidden"];

function kindOf(f: Facts, ctx: PlainErrorContext): FailureKind | null {
  // The embedding service's own errors already name it and its URL; they are not the bucket's.
  if (f.names.has("RemoteServiceError")) return null;
  if (f.names.has("IndexDamagedError")) return "damaged";
  if (f.names.has("CommitLostError") || f.names.has("PreconditionFailedError")) return "lock-lost";
  // The local disk first: a bucket-backed index still writes its state folder here.
  if (has(f, "ENOSPC") || /No space left on device|os error 28\b|\bENOSPC\b|disk quota exceeded|EDQUOT/i.test(f.text)) return "disk-full";
  if (has(f, "EROFS") || /Read-only file system|os error 30\b|\bEROFS\b/i.test(f.text)) return "read-only";
  if (ctx.remote) {
    if (f.failure === "credentials" || has(f, ...CREDENTIAL_CODES) || f.statuses.has(403) || /\b403 Forbidden\b|InvalidAccessKeyId|SignatureDoesNotMatch/i.test(f.text)) return "credentials";
    if (f.failure === "unreachable" || (!f.failure && (has(f, ...NETWORK_CODES) || f.names.has("TimeoutError") || /Connection refused|dns error|failed to lookup address|error sending request|operation timed out|ECONNREFUSED|ENOTFOUND/i.test(f.text)))) {
      return "unreachable";
    }
  }
  if (has(f, "EACCES", "EPERM") || /Permission denied|os error 13\b|\bEACCES\b|Operation not permitted|os error 1\b/i.test(f.text)) return "permission";
  return null;
}

/** What was kept: the committed index, which searches keep using. */
function kept(ctx: PlainErrorContext): string {
  if (ctx.during === "read") return "the index itself is unchanged";
  if (ctx.previousFiles === null) return "nothing was indexed yet, and nothing half-written is kept";
  return `the previous index (${formatCount(ctx.previousFiles)} ${ctx.previousFiles === 1 ? "file" : "files"}) is still in use`;
}

/** The damaged table's reason in a few words, not the store's internal message. */
function damageInWords(reason: string | null): string {
  if (!reason) return "files of its table are unreadable";
  if (/Not found|No such file|missing/i.test(reason)) return "a file of its table is missing";
  if (/fill whole buffer|unexpected end of file|truncated|resized|rows readable/i.test(reason)) return "a file of its table is cut short";
  return "files of its table are unreadable";
}

function endpointOf(text: string): string | null {
  return /\b(?:https?:\/\/)[^\s,;)"']+/i.exec(text)?.[0] ?? null;
}

/**
 * The failure as one line in the project's words, or null when it is none of the kinds above
 * (the caller then shows the error's own first line).
 */
export function plainFailure(err: unknown, ctx: PlainErrorContext): PlainFailure | null {
  const f = facts(err);
  const kind = kindOf(f, ctx);
  if (!kind) return null;
  const again = ctx.during === "pass" ? "run the pass again" : "try again";
  const path = f.path ? (ctx.displayPath?.(f.path) ?? f.path) : ctx.localPath;
  switch (kind) {
    case "disk-full":
      return { kind, line: `the disk holding ${path} is full: free some space and ${again}; ${kept(ctx)}` };
    case "read-only":
      return { kind, line: `${path} is on a read-only file system: make it writable (or set vectorStore.path to a writable folder) and ${again}; ${kept(ctx)}` };
    case "permission":
      return { kind, line: `no permission to write ${path}: give this user write access to it (or set vectorStore.path to a folder it owns) and ${again}; ${kept(ctx)}` };
    case "unreachable": {
      const at = endpointOf(f.text);
      return {
        kind,
        line: `the bucket ${ctx.store} cannot be reached${at ? ` at ${at}` : ""}: check the network and the endpoint (vectorStore.storageOptions.aws_endpoint or AWS_ENDPOINT_URL), then ${again}; ${kept(ctx)}`,
      };
    }
    case "credentials":
      return {
        kind,
        line: `the bucket ${ctx.store} refused the credentials: check the access key and secret (vectorStore.storageOptions or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY) and the key's access to the bucket, then ${again}; ${kept(ctx)}`,
      };
    case "lock-lost":
      return {
        kind,
        line: `another machine took over the lock of ${ctx.store} while this pass ran (it stalled past the lock's expiry) and committed first: run the pass again; nothing of this pass was committed, and searches use the other machine's index`,
      };
    case "damaged":
      return {
        kind,
        line: `the index in ${ctx.store} is damaged (${damageInWords(f.reason)}): ${f.rebuilding ? "it is being rebuilt from the workspace, try again in a moment" : "run `opencode-rag index --force` to rebuild it from the workspace"}`,
      };
  }
}

/**
 * A pass's rebuild reason in plain words where it is damage the pass healed (the store's own
 * message says nothing a user can act on); other reasons are plain already.
 */
export function plainRebuildReason(reason: string): string {
  const m = /^the store's files are damaged \((.*)\)$/s.exec(reason);
  if (!m) return reason;
  return `the store's files were damaged (${damageInWords(m[1])}); the index was rebuilt from the workspace and the damaged table kept beside it`;
}
