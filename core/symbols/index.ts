// Public surface of core/symbols: file outlines (F18) and identifier usages (F19).
export type { SyntaxNodeLike, SyntaxPoint } from "./syntax-node.js";
export { outlineFromTree, countKinds, declarationName, DECLARATION_KINDS, type OutlineItem } from "./skeleton.js";
export { regexOutline, lineCount } from "./skeleton-fallback.js";
export { findOccurrences, findOccurrencesInText, isDefinitionName, wholeWordRegExp, type Occurrence, type FindOccurrencesOptions } from "./usages.js";
export { classifyUse, classifyUseInLine, USE_KINDS, type UseKind } from "./use-kind.js";
export { buildUsageReport, roundRobin, summarizeFile, type FileOccurrences, type FileUsageSummary, type PagedUse, type UsagePageOptions, type UsageReport } from "./usage-report.js";
export { isTestPath } from "../path-class.js";
