// A search that finds the store damaged: what counts as damage, and the rebuild it starts.
import type { Logger } from "../engine-types.js";
import type { VectorStore } from "../types.js";
import type { PassEnv } from "../indexing/pass-env.js";
import { oneLine } from "../error-line.js";
import { IndexDamagedError } from "../indexing/store-files.js";

/** Why a failed read means damage (a missing or truncated file), or null for any other failure. */
export async function diagnoseReadFailure(store: VectorStore, err: unknown): Promise<string | null> {
  const msg = oneLine(err);
  if (/LanceError\(IO\)|Not found:|failed to fill whole buffer|No such file|corrupt|unexpected end of file/i.test(msg)) return msg;
  try {
    await store.listAll();
    return null;
  } catch (verifyErr) {
    return oneLine(verifyErr);
  }
}

export class DamageRebuilds {
  /** The pass rebuilding a store a search found damaged (one at a time), while it runs. */
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly passEnv: PassEnv,
    private readonly storeUri: () => string,
    private readonly logger: () => Logger,
    /** Whether the engine watches the workspace (then it rebuilds at once), and how it runs a pass. */
    private readonly watching: () => boolean,
    private readonly rebuild: () => Promise<unknown>,
  ) {}

  /**
   * A search that found the store damaged: the next pass rebuilds it (started right away when
   * this engine is watching), and the caller gets one line saying so.
   */
  found(reason: string): IndexDamagedError {
    this.passEnv.storeDamage = reason;
    const rebuilding = this.watching();
    // One rebuild at a time; a failed one lets the next search that finds the damage try again.
    if (rebuilding && !this.running) {
      this.running = this.rebuild()
        .catch((err) => this.logger().error("rebuilding the damaged index failed", { error: oneLine(err) }))
        .finally(() => (this.running = null));
    }
    return new IndexDamagedError(this.storeUri(), reason, rebuilding);
  }
}
