// Confidence decay: a quirk's confidence halves every `halfLifeDays` since it was last confirmed,
// so stale knowledge sinks below `memory.minConfidence` instead of being recalled forever.

const DAY_MS = 86_400_000;

export interface DecayOptions {
  enabled: boolean;
  halfLifeDays: number;
}

export function effectiveConfidence(confidence: number, confirmedAt: string | number, now: number, decay: DecayOptions): number {
  if (!decay.enabled || decay.halfLifeDays <= 0) return confidence;
  const t = typeof confirmedAt === "number" ? confirmedAt : Date.parse(confirmedAt);
  if (!Number.isFinite(t)) return confidence;
  const ageDays = Math.max(0, (now - t) / DAY_MS);
  return confidence * Math.pow(0.5, ageDays / decay.halfLifeDays);
}
