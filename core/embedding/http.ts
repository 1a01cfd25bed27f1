// The one HTTP path every remote client (Ollama and OpenAI-compatible embeddings, description
// LLMs) goes through: JSON POST/GET with a per-attempt timeout, retries with exponential
// backoff and full jitter on 429/5xx/timeouts/dropped connections (honouring Retry-After and
// retry-after-ms), a concurrency limit shared by all requests of one client, and an optional
// forward proxy. Failures become one RemoteServiceError whose message is a single line that
// says what happened and what to do. Uses the global fetch (Node 20+, Bun, browsers); only the
// proxy path loads undici, on demand.
import type { Logger } from "../engine-types.js";
import type { RagConfig } from "../config/defaults.js";

export interface HttpClientOptions {
  /** Human name used in messages: "Ollama", "the OpenAI-compatible API". */
  service: string;
  /** Base URL requests are relative to (no trailing slash needed). */
  baseUrl: string;
  /** Per-attempt timeout; 0 = none. */
  timeoutMs: number;
  /** Retries after the first attempt for retryable failures. */
  maxRetries: number;
  /** Requests in flight at once through this client. */
  concurrency: number;
  /** Forward proxy URL (http://host:port); empty = direct. */
  proxyUrl?: string;
  /** First backoff delay; doubles on each retry. */
  retryBaseMs?: number;
  /** Upper bound on one backoff delay (Retry-After is honoured up to max(this, 60 s)). */
  retryMaxMs?: number;
  /** Extra headers on every request (e.g. Authorization). */
  headers?: Record<string, string>;
  /** What to tell the user when the server cannot be reached at all. */
  unreachableHint?: string;
  /** The config key that sets the timeout, named in timeout messages. */
  timeoutKey?: string;
  /** The config key that sets the base URL, named when it is malformed. */
  baseUrlKey?: string;
  /** Turns a non-retryable HTTP error into advice; return "" for none. */
  adviseOnStatus?: (status: number, serverMessage: string) => string;
  logger?: Logger;
}

/** The connection settings of one remote service, as `embedding.*` holds them (descriptions reuse them). */
export type RemoteSettings = Pick<RagConfig["embedding"], "baseUrl" | "timeoutMs" | "maxRetries" | "concurrency" | "retryBaseMs" | "apiKey" | "proxy">;

/** The client options every remote service takes straight from its settings; `keyPrefix` names them in messages. */
export function settingsOptions(cfg: RemoteSettings, keyPrefix: string) {
  return {
    timeoutMs: cfg.timeoutMs,
    maxRetries: cfg.maxRetries,
    concurrency: cfg.concurrency,
    retryBaseMs: cfg.retryBaseMs,
    proxyUrl: cfg.proxy.url,
    timeoutKey: `${keyPrefix}.timeoutMs`,
    baseUrlKey: `${keyPrefix}.baseUrl`,
  } satisfies Partial<HttpClientOptions>;
}

/** A remote call that failed for good. `message` is one line, fit to show a user as is. */
export class RemoteServiceError extends Error {
  constructor(
    message: string,
    /** HTTP status when the server answered, else undefined. */
    readonly status?: number,
    /** The server's own error text, when it sent one. */
    readonly serverMessage?: string,
  ) {
    super(message);
    this.name = "RemoteServiceError";
  }
}

export interface HttpClient {
  readonly baseUrl: string;
  postJson<T = unknown>(path: string, body: unknown): Promise<T>;
  getJson<T = unknown>(path: string): Promise<T>;
  /** Requests currently holding a concurrency slot (for tests and status). */
  inFlight(): number;
  close(): Promise<void>;
}

/** One attempt's outcome that may be retried. */
class RetryableFailure extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null,
    readonly status?: number,
    readonly serverMessage?: string,
  ) {
    super(message);
  }
}

type FetchFn = (url: string, init: RequestInit) => Promise<Response>;

/** `base` + `/path`, keeping a query string of the base (e.g. Azure's `?api-version=`) at the end. */
export function joinUrl(baseUrl: string, path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  const q = baseUrl.indexOf("?");
  const [base, query] = q >= 0 ? [baseUrl.slice(0, q), baseUrl.slice(q)] : [baseUrl, ""];
  return `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}${query}`;
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const base = options.baseUrl.replace(/\/+(?=\?|$)/, "");
  if (!/^https?:\/\//i.test(base)) {
    throw new RemoteServiceError(
      `invalid ${options.baseUrlKey ?? "base URL"} ${JSON.stringify(options.baseUrl)} for ${options.service}: use an http:// or https:// URL`,
    );
  }
  const limit = new Semaphore(Math.max(1, Math.floor(options.concurrency) || 1));
  const retryBaseMs = options.retryBaseMs ?? 500;
  const retryMaxMs = options.retryMaxMs ?? 20_000;
  let fetchFn: Promise<{ fetch: FetchFn; close(): Promise<void> }> | null = null;
  const transport = () => (fetchFn ??= createTransport(options.proxyUrl ?? ""));

  async function request<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    const url = joinUrl(base, path);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const release = await limit.acquire();
    try {
      const { fetch } = await transport();
      for (let attempt = 0; ; attempt++) {
        try {
          return (await attemptOnce(fetch, method, url, payload)) as T;
        } catch (err) {
          if (!(err instanceof RetryableFailure)) throw err;
          if (attempt >= options.maxRetries) {
            const tries = attempt + 1;
            throw new RemoteServiceError(
              `${err.message} (gave up after ${tries} attempt${tries === 1 ? "" : "s"})`,
              err.status,
              err.serverMessage,
            );
          }
          const backoff = Math.min(retryMaxMs, retryBaseMs * 2 ** attempt) * Math.random();
          const wait =
            err.retryAfterMs !== null ? Math.min(err.retryAfterMs, Math.max(retryMaxMs, 60_000)) : backoff;
          options.logger?.debug(`${options.service}: retrying in ${Math.round(wait)} ms`, {
            url,
            attempt: attempt + 1,
            reason: err.message,
          });
          await sleep(wait);
        }
      }
    } finally {
      release();
    }
  }

  async function attemptOnce(fetch: FetchFn, method: string, url: string, payload?: string): Promise<unknown> {
    const controller = new AbortController();
    // 0 means "no timeout" (a model that loads for minutes on a slow disk).
    const timer = options.timeoutMs > 0 ? setTimeout(() => controller.abort(), options.timeoutMs) : undefined;
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method,
        headers: { accept: "application/json", ...(payload ? { "content-type": "application/json" } : {}), ...options.headers },
        body: payload,
        signal: controller.signal,
      });
      text = await response.text();
    } catch (err) {
      if (controller.signal.aborted) {
        const key = options.timeoutKey ?? "timeoutMs";
        throw new RetryableFailure(
          `${options.service} at ${base} did not answer within ${options.timeoutMs} ms: raise ${key} or check the server`,
          null,
        );
      }
      throw networkFailure(err, options, base);
    } finally {
      clearTimeout(timer);
    }
    if (response.ok) {
      try {
        return text.length === 0 ? {} : JSON.parse(text);
      } catch {
        throw new RemoteServiceError(
          `${options.service} at ${base} sent a response that is not JSON (${preview(text)}): check that ${options.baseUrlKey ?? "the base URL"} points at the API`,
          response.status,
        );
      }
    }
    const serverMessage = extractServerMessage(text);
    const status = response.status;
    const what = `${options.service} at ${base} answered ${status}${serverMessage ? `: ${serverMessage}` : ""}`;
    if (status === 429 || status === 408 || status >= 500) {
      throw new RetryableFailure(what, parseRetryAfter(response.headers), status, serverMessage);
    }
    const advice = options.adviseOnStatus?.(status, serverMessage) ?? "";
    throw new RemoteServiceError(advice ? `${what}; ${advice}` : what, status, serverMessage);
  }

  return {
    baseUrl: base,
    postJson: (path, body) => request("POST", path, body ?? {}),
    getJson: (path) => request("GET", path),
    inFlight: () => limit.active,
    async close() {
      if (fetchFn) await (await fetchFn).close();
    },
  };
}

/** Classifies a fetch rejection: refused/unknown host fail at once; resets are retried. */
function networkFailure(err: unknown, options: HttpClientOptions, base: string): Error {
  const code = errorCode(err);
  const hint = options.unreachableHint ? `: ${options.unreachableHint}` : "";
  switch (code) {
    case "ECONNREFUSED":
    case "ConnectionRefused": // Bun (also for hosts it cannot resolve)
    case "FailedToOpenSocket":
      return new RemoteServiceError(`cannot reach ${options.service} at ${base} (connection refused)${hint}`);
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new RemoteServiceError(`cannot reach ${options.service} at ${base} (unknown host)${hint}`);
    case "CERT_HAS_EXPIRED":
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
    case "SELF_SIGNED_CERT_IN_CHAIN":
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
      return new RemoteServiceError(`cannot reach ${options.service} at ${base} (TLS: ${code}): fix the certificate or the URL`);
    default: {
      const message = err instanceof Error ? (causeOf(err)?.message ?? err.message) : String(err);
      if (message === "bad port") {
        // fetch refuses some well-known ports (e.g. 1, 9, 25) outright.
        return new RemoteServiceError(`cannot reach ${options.service} at ${base}: fetch refuses to connect to that port; use another port`);
      }
      const detail = code ?? firstLine(err instanceof Error ? (causeOf(err)?.message ?? err.message) : String(err));
      return new RetryableFailure(`connection to ${options.service} at ${base} failed (${detail})`, null);
    }
  }
}

function causeOf(err: Error): Error | undefined {
  const cause = (err as { cause?: unknown }).cause;
  return cause instanceof Error ? cause : undefined;
}

function errorCode(err: unknown): string | undefined {
  // fetch wraps the socket error in `cause`, sometimes twice (undici), sometimes as an AggregateError.
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === "object"; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && !code.startsWith("UND_ERR_")) return code;
    const errors = (e as { errors?: unknown[] }).errors;
    if (Array.isArray(errors) && errors.length > 0) {
      const inner = errorCode(errors[0]);
      if (inner) return inner;
    }
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Pulls the human part out of OpenAI ({error:{message}}), Ollama ({error}) or plain-text bodies. */
export function extractServerMessage(text: string): string {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const error = body.error;
    if (typeof error === "string") return firstLine(error);
    if (error && typeof error === "object" && typeof (error as { message?: unknown }).message === "string") {
      return firstLine((error as { message: string }).message);
    }
    if (typeof body.message === "string") return firstLine(body.message);
    if (typeof body.detail === "string") return firstLine(body.detail);
  } catch {
    // not JSON: fall through to the raw text
  }
  return preview(text);
}

/** Retry-After is seconds or an HTTP date; OpenAI also sends retry-after-ms. */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | null {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function firstLine(s: string): string {
  return s.split(/\r?\n/)[0].trim().slice(0, 300);
}

function preview(text: string): string {
  const t = firstLine(text.replace(/\s+/g, " "));
  return t.length > 120 ? `${t.slice(0, 120)}…` : t;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Global fetch, or a proxy-aware one: Bun's fetch takes `proxy`, Node's needs undici's agent. */
async function createTransport(proxyUrl: string): Promise<{ fetch: FetchFn; close(): Promise<void> }> {
  const plain = { fetch: (url: string, init: RequestInit) => globalThis.fetch(url, init), close: async () => {} };
  if (!proxyUrl) return plain;
  if (!/^https?:\/\//i.test(proxyUrl)) {
    throw new RemoteServiceError(
      `invalid embedding.proxy.url ${JSON.stringify(proxyUrl)}: use http://host:port (or leave it empty for a direct connection)`,
    );
  }
  if (typeof (globalThis as { Bun?: unknown }).Bun !== "undefined") {
    return {
      fetch: (url, init) => globalThis.fetch(url, { ...init, proxy: proxyUrl } as RequestInit),
      close: async () => {},
    };
  }
  const undici = await import("undici");
  const agent = new undici.ProxyAgent(proxyUrl);
  return {
    fetch: (url, init) =>
      undici.fetch(url, { ...(init as object), dispatcher: agent } as Parameters<typeof undici.fetch>[1]) as unknown as Promise<Response>,
    close: () => agent.close(),
  };
}

/** A counting semaphore: at most `max` holders; waiters are served first come, first served. */
class Semaphore {
  active = 0;
  private readonly waiters: Array<() => void> = [];
  constructor(private readonly max: number) {}

  async acquire(): Promise<() => void> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiters.push(resolve));
    else this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next) next();
      else this.active--;
    };
  }
}
