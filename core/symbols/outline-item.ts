// The item of a file outline, shared by the generic walker (skeleton.ts), the per-language
// readers it delegates to and the regex fallback. Portable: no Node.

export interface OutlineItem {
  kind: string;
  name: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  children: OutlineItem[];
}
