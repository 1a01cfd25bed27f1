// Where an index pass or a search fails on its way to a host (CLI, plugin, MCP): a failure
// plain-errors.ts recognises becomes a PlainError whose message is the plain line; the store's
// own error stays its `cause`, goes to the log, and is what --debug prints. What the line says
// of the committed index comes from the caller: this room reads no index files.
import { isAbsolute, relative, sep } from "node:path";
import type { Logger } from "../engine-types.js";
import { oneLine } from "../error-line.js";
import { plainFailure, type FailureKind } from "./plain-errors.js";

export class PlainError extends Error {
  constructor(
    message: string,
    readonly kind: FailureKind,
    cause: unknown,
  ) {
    super(message, { cause });
    this.name = "PlainError";
  }
}

export interface FailureSite {
  root: string;
  storeUri: string;
  stateDir: string;
  logger: Logger;
  /** Files in the committed index, or null when nothing is committed; asked only for a failure it explains. */
  committedFiles(): number | null;
}

function display(root: string, path: string): string {
  if (!isAbsolute(path)) return path;
  const rel = relative(root, path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}

/** `err` as a PlainError when it is a failure of a known kind (logged with its raw message), else `err` itself. */
export function plainError(err: unknown, during: "pass" | "read", site: FailureSite): unknown {
  if (err instanceof PlainError) return err;
  const remote = /^[a-z][a-z0-9+.-]*:\/\//i.test(site.storeUri);
  const failure = plainFailure(err, {
    store: remote ? site.storeUri : display(site.root, site.storeUri),
    localPath: display(site.root, site.stateDir),
    remote,
    get previousFiles() {
      return site.committedFiles();
    },
    during,
    // A file of the index is named by its folder: that is what the user configured and knows.
    displayPath: (p) => display(site.root, [site.storeUri, site.stateDir].find((base) => p === base || p.startsWith(base + sep)) ?? p),
  });
  if (!failure) return err;
  site.logger.error(during === "pass" ? "index pass failed" : "reading the index failed", { kind: failure.kind, error: oneLine(err) });
  return new PlainError(failure.line, failure.kind, err);
}
