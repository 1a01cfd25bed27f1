export { IgnoreRules, isIgnoreFile, RAGIGNORE_FILE, GITIGNORE_FILE, type IndexingRules } from "./ignore-rules.js";
export { walkWorkspace, statPaths, toPosix, relativeToRoot, type WalkedFile, type WalkResult, type WalkOptions, type SkippedFile } from "./walk.js";
export { looksBinary, decodeFileText, textEncodingOf, type TextEncoding, isPdf, isImage, extensionOf, IMAGE_EXTENSIONS } from "./binary.js";
export { SecretFileRules, secretFileRules, looksLikeSecretContent, SECRET_REASON, type SecretFileSettings } from "./secret-files.js";
