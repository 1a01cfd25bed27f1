// Secret-file patterns decide by the file itself: a quick test of the name must never let
// through a file the full rules name, whatever the pattern's shape.
import { describe, expect, it } from "vitest";
import { DEFAULT_SECRET_FILES } from "../../core/config/defaults.js";
import { SecretFileRules } from "../../core/files/secret-files.js";

describe("secret file names", () => {
  it("match the default patterns by name in any folder, ignoring case, and not allowed-back examples", () => {
    const rules = new SecretFileRules({ secretFiles: DEFAULT_SECRET_FILES });
    for (const p of [".env", "app/.env.production", "keys/ID_RSA", "certs/server.PEM", "a/b/.docker/config.json", "infra/prod.tfvars", "credentials"]) {
      expect(rules.isSecretPath(p), p).toBe(true);
    }
    for (const p of [".env.example", "src/env.ts", "config.json", "credentials/reader.ts", "src/id_rsa.ts", "docs/key.md"]) {
      expect(rules.isSecretPath(p), p).toBe(false);
    }
  });

  it("follow patterns with folders, character classes, escapes and whole-folder globs", () => {
    const rules = new SecretFileRules({
      secretFiles: ["config/*.key", "deploy/prod-[0-9].yaml", "\\#notes", "vault/**", "/root-only.txt"],
    });
    expect(rules.isSecretPath("config/app.key")).toBe(true);
    expect(rules.isSecretPath("src/config/app.key")).toBe(false);
    expect(rules.isSecretPath("deploy/prod-3.yaml")).toBe(true);
    expect(rules.isSecretPath("#notes")).toBe(true);
    expect(rules.isSecretPath("vault/a.ts")).toBe(true);
    expect(rules.isSecretPath("root-only.txt")).toBe(true);
    expect(rules.isSecretPath("sub/root-only.txt")).toBe(false);
    expect(rules.isSecretPath("src/main.ts")).toBe(false);
  });
});
